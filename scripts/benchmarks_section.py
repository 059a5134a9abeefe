"""A section of BENCHMARKS.md that a script of its own measures and writes
(scripts/bench-status, bench-reload, bench-store-listing, bench-instructions):
between two markers named after the script, replaced where it stands on the
next run, or appended the first time (after bench-shared's and bench-store's,
which each rewrite everything after their own mark: scripts/bench runs those
first)."""
import os
import tempfile

PATH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "BENCHMARKS.md")


def markers(script):
    """The lines that open and close `script`'s section ("bench-status")."""
    return f"<!-- scripts/{script} writes from here -->", f"<!-- scripts/{script} writes up to here -->"


def section(script, lines):
    """`lines` as `script`'s section, between its markers."""
    begin, end = markers(script)
    return "\n".join([begin, *lines, end, ""])


def write(script, text):
    """Puts `text` (from `section`) into BENCHMARKS.md in place of `script`'s
    previous section; the file is replaced whole (a temporary file, then rename)."""
    begin, end = markers(script)
    with open(PATH) as f:
        old = f.read()
    if begin in old and end in old:
        before, rest = old.split(begin, 1)
        new = before + text.rstrip("\n") + rest.split(end, 1)[1]
    else:
        new = old.rstrip("\n") + "\n\n" + text
    fd, temporary = tempfile.mkstemp(dir=os.path.dirname(PATH), prefix=".BENCHMARKS.md.")
    with os.fdopen(fd, "w") as f:
        f.write(new)
    os.chmod(temporary, 0o644)
    os.replace(temporary, PATH)
    print(f"scripts/{script}: wrote its section of BENCHMARKS.md")
