"""What the Python scripts of scripts/ share: a free loopback port
(`loopback`), a redis-server of a script's own that is always stopped
(`redis_server`), and a section of BENCHMARKS.md (`benchmarks_section`).
A script in scripts/ imports them as `from lib import ...` (its own folder is
first on Python's path)."""
