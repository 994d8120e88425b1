"""Shared fixtures: a real redis-server on a free loopback port, started once per test session."""

from __future__ import annotations

import os

import pytest

from forge.local_redis import LocalRedis


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
