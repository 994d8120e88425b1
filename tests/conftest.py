"""Shared fixtures: a real redis-server on a free loopback port, started once per test session."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time

import pytest


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory) -> str:
    """FORGE_TEST_REDIS_URL if set (CI may start its own server), else a private redis-server."""
    if os.environ.get("FORGE_TEST_REDIS_URL"):
        yield os.environ["FORGE_TEST_REDIS_URL"]
        return
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.fail("redis-server is not installed: run scripts/setup.sh (it installs it) or apt-get install redis-server")
    port = free_port()
    workdir = tmp_path_factory.mktemp("redis")
    proc = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", str(workdir)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    import redis

    client = redis.Redis(host="127.0.0.1", port=port)
    for _ in range(100):
        try:
            client.ping()
            break
        except redis.ConnectionError:
            time.sleep(0.05)
    else:
        proc.kill()
        pytest.fail("redis-server did not start")
    yield f"redis://127.0.0.1:{port}/0"
    proc.terminate()
    proc.wait(timeout=10)


@pytest.fixture
def clean_redis_url(redis_url) -> str:
    """The session's Redis, emptied before the test."""
    import redis

    redis.Redis.from_url(redis_url).flushdb()
    return redis_url
