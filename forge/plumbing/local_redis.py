"""A private redis-server on a free loopback port, for tests and benchmarks (never for production).

One way to start one: the test fixtures, the Redis-restart cells of the fault matrix and the DC
benchmark's `backend: redis` scenarios all use `LocalRedis`. With `appendonly=True` the data survives a
`restart()`, as on a production Redis run with `appendonly yes`.
"""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path
from typing import Optional

from forge.errors import ForgeError


class LocalRedisError(ForgeError, RuntimeError):
    """redis-server is missing or did not start; the message says which and how to fix it."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class LocalRedis:
    def __init__(self, workdir: Path, port: Optional[int] = None, *, appendonly: bool = False) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise LocalRedisError("redis-server is not installed: run scripts/setup.sh (it installs it) "
                                  "or apt-get install redis-server")
        self.binary = binary
        self.workdir = Path(workdir)
        self.port = port or free_port()
        self.appendonly = appendonly
        self.proc: Optional[subprocess.Popen] = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> "LocalRedis":
        self.workdir.mkdir(parents=True, exist_ok=True)
        durability = ["--appendonly", "yes", "--appendfsync", "always"] if self.appendonly else ["--appendonly", "no"]
        self.proc = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", *durability,
             "--dir", str(self.workdir)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        import redis  # only the Redis paths pay for the import

        client = redis.Redis(host="127.0.0.1", port=self.port)
        try:
            for _ in range(250):
                try:
                    client.ping()
                    return self
                except (redis.ConnectionError, redis.BusyLoadingError):
                    time.sleep(0.02)
        finally:
            client.close()
        self.stop()
        raise LocalRedisError(f"redis-server on port {self.port} did not start")

    def stop(self) -> None:
        """SIGTERM: Redis writes out its append-only file (if any) and exits, as `redis-cli shutdown` would."""
        if self.proc is not None:
            self.proc.send_signal(signal.SIGTERM)
            self.proc.wait(timeout=30)
            self.proc = None

    def restart(self) -> float:
        """Stop, start again on the same port and files; the seconds it was unreachable."""
        started = time.monotonic()
        self.stop()
        self.start()
        return time.monotonic() - started
