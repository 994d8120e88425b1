"""The small helpers behind the providers: keys that never show, Retry-After, URLs fit for messages."""

from __future__ import annotations

import pickle
import time
from email.utils import formatdate

import pytest

from forge.llm.types import (
    PLACEHOLDER_API_KEY,
    AuthenticationError,
    Secret,
    api_key_from_env,
    key_rejected,
    parse_retry_after,
    safe_url,
)


def test_secret_hides_itself():
    secret = Secret("sk-live-123")
    assert "sk-live-123" not in repr(secret) + str(secret) + f"{secret}" + repr([secret])
    assert secret.reveal() == "sk-live-123"
    assert secret.redact("bad key sk-live-123, really sk-live-123") == "bad key [redacted], really [redacted]"
    with pytest.raises(TypeError):
        pickle.dumps({"key": secret})


def test_api_key_from_env():
    assert api_key_from_env("K", "p", {"K": " k1 \n"}).reveal() == "k1"
    assert api_key_from_env(None, "p", {}).reveal() == PLACEHOLDER_API_KEY
    for env in ({}, {"K": "  "}):
        with pytest.raises(AuthenticationError, match="set the environment variable K"):
            api_key_from_env("K", "p", env)


@pytest.mark.parametrize(
    "headers, seconds",
    [
        ({"Retry-After": "3"}, 3.0),
        ({"retry-after": "0.25"}, 0.25),
        ({"Retry-After": "3", "retry-after-ms": "1500"}, 1.5),
        ({"Retry-After": "-4"}, 0.0),
        ({"Retry-After": "soon"}, None),
        ({}, None),
    ],
)
def test_parse_retry_after(headers, seconds):
    assert parse_retry_after(headers) == seconds


def test_parse_retry_after_http_date():
    assert parse_retry_after({"Retry-After": formatdate(time.time() + 20, usegmt=True)}) == pytest.approx(20, abs=1.5)
    assert parse_retry_after({"Retry-After": formatdate(time.time() - 60, usegmt=True)}) == 0.0


def test_safe_url_drops_credentials_and_queries():
    assert safe_url("https://user:pw@api.example.com:8443/v1?key=abc#x") == "https://api.example.com:8443/v1"
    assert safe_url(None) == "the default endpoint"


def test_key_rejected_points_at_the_fix():
    assert "set the environment variable OPENAI_API_KEY" in str(key_rejected("openai", "OPENAI_API_KEY", 401))
    assert "providers.local.api_key_env" in str(key_rejected("local", None, 403))
