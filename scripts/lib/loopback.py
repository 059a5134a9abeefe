"""A free TCP port on 127.0.0.1 for a server a script starts itself.

The port is picked at random below the kernel's ephemeral range
(/proc/sys/net/ipv4/ip_local_port_range), from 10000 up: a port from that range
can be handed to some client's outgoing connection while the server is down, so
a server restarted on its own port (a killed Redis primary rejoining) might not
bind it again. Below the range only servers bind ports, and a bind checks that
none has it now."""
import random
import socket

LOWEST = 10000
RANGE_FILE = "/proc/sys/net/ipv4/ip_local_port_range"

# Ports this process has handed out: two servers of one script never get the same
# one, even before the first of them has bound it.
_given = set()


def ephemeral_start():
    """The lowest port the kernel gives to outgoing connections (32768 when unreadable)."""
    try:
        with open(RANGE_FILE) as f:
            return int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def is_free(port):
    """True when a listening socket could bind 127.0.0.1:port now."""
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_port(attempts=200):
    """A port in [10000, the ephemeral range's start) that no one has bound and
    this process has not handed out before."""
    highest = ephemeral_start() - 1
    if highest <= LOWEST:
        raise SystemExit(f"no ports below the ephemeral range ({RANGE_FILE} starts at {highest + 1})")
    for _ in range(attempts):
        port = random.randint(LOWEST, highest)
        if port not in _given and is_free(port):
            _given.add(port)
            return port
    raise SystemExit(f"no free loopback port in {LOWEST}-{highest} after {attempts} tries")
