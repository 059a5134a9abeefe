"""A redis-server (plain, TLS-only, a replica, or a sentinel) that a script starts
for itself on a free loopback port, and that is stopped however the script ends:
by `stop`, at the end of a `with` block, at exit (atexit), or when the script is
sent SIGTERM or SIGHUP (turned into SystemExit, so every `finally` runs too).

    with redis_server.RedisServer(scratch) as redis:
        store = ["--store", redis.url()]
"""
import atexit
import os
import signal
import subprocess
import time

from lib import loopback

# Every server started and not yet stopped, for the exit handler.
_running = []


def _stop_all():
    for server in list(_running):
        server.stop()


def _exit_on(signum, _frame):
    raise SystemExit(128 + signum)


atexit.register(_stop_all)
for _signal in (signal.SIGTERM, signal.SIGHUP):
    # Only where the script has not chosen what the signal does itself.
    if signal.getsignal(_signal) == signal.SIG_DFL:
        signal.signal(_signal, _exit_on)


class TLSFiles:
    """The certificate, key and CA certificate of a TLS-only server (clients are not asked for one)."""

    def __init__(self, cert, key, ca):
        self.cert, self.key, self.ca = cert, key, ca


class RedisServer:
    """One redis-server on 127.0.0.1 with its files (log, data) in `directory`.

    durable: append-only file, fsync'd on every write (`appendfsync always`);
    otherwise nothing is persisted. tls: a `TLSFiles`; the server then listens
    with TLS only. replica_of: the port of the primary it replicates.
    sentinel: (name, primary port, quorum, extra config lines): a sentinel that
    monitors that primary instead of a data server. port: a fixed one
    (otherwise a free one is picked, again if the server cannot bind it)."""

    def __init__(self, directory, *, durable=False, tls=None, replica_of=None, sentinel=None, port=None):
        self.directory, self.durable, self.tls = directory, durable, tls
        self.replica_of, self.sentinel = replica_of, sentinel
        self.fixed_port = port
        self.port = port
        self.process = None
        self.start()

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.stop()

    def argv(self):
        """The command line that starts it on self.port."""
        log = os.path.join(self.directory, "log")
        if self.sentinel:
            name, primary, quorum, extra = self.sentinel
            config = os.path.join(self.directory, "sentinel.conf")
            with open(config, "w") as f:
                f.write("\n".join([f"port {self.port}", "bind 127.0.0.1", f"dir {self.directory}", f"logfile {log}",
                                   f"sentinel monitor {name} 127.0.0.1 {primary} {quorum}", *extra, ""]))
            return ["redis-server", config, "--sentinel"]
        if self.tls:
            listen = ["--port", "0", "--tls-port", str(self.port), "--tls-cert-file", self.tls.cert,
                      "--tls-key-file", self.tls.key, "--tls-ca-cert-file", self.tls.ca, "--tls-auth-clients", "no"]
        else:
            listen = ["--port", str(self.port)]
        persistence = ["--appendonly", "yes", "--appendfsync", "always"] if self.durable else ["--appendonly", "no"]
        replica = ["--replicaof", "127.0.0.1", str(self.replica_of)] if self.replica_of else []
        return (["redis-server"] + listen + ["--bind", "127.0.0.1", "--dir", self.directory, "--save", ""]
                + persistence + ["--logfile", log] + replica)

    def start(self, timeout=20):
        """Starts it (again, on the same port, after `stop`) and waits until it answers PING."""
        os.makedirs(self.directory, exist_ok=True)
        for _ in range(3):
            if self.port is None:
                self.port = loopback.free_port()
            self.process = subprocess.Popen(self.argv(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                            stdin=subprocess.DEVNULL)
            _running.append(self)
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline and self.process.poll() is None:
                if self.cli("PING") == "PONG":
                    return self
                time.sleep(0.02)
            self.stop()
            if self.fixed_port is not None:
                break
            # Someone bound the port between the check and the start: another one.
            self.port = None
        raise SystemExit(f"redis-server in {self.directory} did not start (its log: {os.path.join(self.directory, 'log')})")

    def cli_argv(self):
        """redis-cli's arguments to reach this server (before the command's words)."""
        return ["redis-cli", "-p", str(self.port)] + (["--tls", "--cacert", self.tls.ca] if self.tls else [])

    def cli(self, *words):
        """A command's reply as redis-cli --raw prints it, stripped."""
        return subprocess.run(self.cli_argv() + ["--raw"] + [str(w) for w in words],
                              capture_output=True, text=True).stdout.strip()

    def url(self, database=None):
        """The --store URL of this server (and database)."""
        scheme = "rediss" if self.tls else "redis"
        return f"{scheme}://127.0.0.1:{self.port}" + (f"/{database}" if database is not None else "")

    def stop(self):
        """SIGKILL, as a crash (nothing it holds is wanted after the script);
        `start` brings it back on the same port. Stopping a stopped one does nothing."""
        if self.process is not None:
            if self.process.poll() is None:
                self.process.kill()
            self.process.wait()
        if self in _running:
            _running.remove(self)
