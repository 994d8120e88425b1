"""A private redis-server with an append-only file, that a test can restart (the data survives, as on a
production Redis run with `appendonly yes`)."""

from __future__ import annotations

import shutil
import signal
import subprocess
import time
from pathlib import Path
from typing import Optional

import pytest

from tests.conftest import free_port


class PersistentRedis:
    def __init__(self, workdir: Path, port: Optional[int] = None) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.fail("redis-server is not installed: run scripts/setup.sh or apt-get install redis-server")
        self.binary = binary
        self.workdir = workdir
        self.port = port or free_port()
        self.proc: Optional[subprocess.Popen] = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> "PersistentRedis":
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.proc = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "yes",
             "--appendfsync", "always", "--dir", str(self.workdir)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        import redis

        client = redis.Redis(host="127.0.0.1", port=self.port)
        try:
            for _ in range(200):
                try:
                    client.ping()
                    return self
                except (redis.ConnectionError, redis.BusyLoadingError):
                    time.sleep(0.02)
        finally:
            client.close()
        self.stop()
        pytest.fail(f"redis-server on port {self.port} did not start")

    def stop(self) -> None:
        """SIGTERM: Redis writes out its append-only file and exits, as `redis-cli shutdown` would."""
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
