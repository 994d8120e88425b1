"""Shared fixtures: a real redis-server and an S3-compatible server (moto) on free loopback ports, each
started once per test session."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from forge.plumbing.local_redis import LocalRedis


def pytest_collection_modifyitems(items):
    """The longest tests first (a cluster, the ones marked long, the other slow ones), each group in its own
    order: the suite runs in worker processes that take one test at a time (scripts/test.sh), and a long
    test started last would run on alone."""
    def rank(item) -> int:
        for position, marker in enumerate(("cluster", "long", "slow")):
            if item.get_closest_marker(marker):
                return position
        return 3

    items.sort(key=rank)


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory) -> str:
    """FORGE_TEST_REDIS_URL if set (CI may start its own server), else a private redis-server."""
    if os.environ.get("FORGE_TEST_REDIS_URL"):
        yield os.environ["FORGE_TEST_REDIS_URL"]
        return
    server = LocalRedis(tmp_path_factory.mktemp("redis")).start()
    yield server.url
    server.stop()


@pytest.fixture
def clean_redis_url(redis_url) -> str:
    """The session's Redis, emptied before the test."""
    import redis

    redis.Redis.from_url(redis_url).flushdb()
    return redis_url


class S3Server:
    """moto's S3-compatible server on a loopback port (a real HTTP server; pyarrow speaks S3 to it)."""

    ENV = {"AWS_ACCESS_KEY_ID": "forge-test", "AWS_SECRET_ACCESS_KEY": "forge-test-secret",
           "AWS_DEFAULT_REGION": "us-east-1", "AWS_EC2_METADATA_DISABLED": "true"}

    def __init__(self, port: int) -> None:
        self.port = port

    def uri(self, path: str) -> str:
        return f"s3://{path}?endpoint_override=127.0.0.1:{self.port}&scheme=http"

    def make_bucket(self, name: str) -> None:
        import boto3

        boto3.client("s3", endpoint_url=f"http://127.0.0.1:{self.port}", **{
            "aws_access_key_id": self.ENV["AWS_ACCESS_KEY_ID"], "aws_secret_access_key": self.ENV["AWS_SECRET_ACCESS_KEY"],
            "region_name": self.ENV["AWS_DEFAULT_REGION"]}).create_bucket(Bucket=name)


@pytest.fixture(scope="session")
def s3_server(tmp_path_factory):
    """`python -m moto.server` on a free loopback port for the test session; its credentials in os.environ
    (fake ones: moto accepts any)."""
    import socket
    import subprocess
    import sys
    import time

    from forge.plumbing.local_redis import free_port

    port = free_port()
    log = open(tmp_path_factory.mktemp("moto") / "server.log", "w")
    server = subprocess.Popen([sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
                              stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=2).close()
            break
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"moto server did not start on port {port} (see {log.name})")
            time.sleep(0.2)
    saved = {k: os.environ.get(k) for k in S3Server.ENV}
    os.environ.update(S3Server.ENV)
    yield S3Server(port)
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value
    server.terminate()
    server.wait(timeout=30)
    log.close()


@pytest.fixture(scope="module")
def ray_address():
    """A local Ray for the tests of one module (the driver's own connect_ray, as a session makes it)."""
    import ray

    from forge.config import load_config
    from workers.ray_runtime import connect_ray

    connect_ray(load_config(Path(__file__).resolve().parents[1] / "configs" / "forge.yaml"))
    yield ray.get_runtime_context().gcs_address
    ray.shutdown()
