"""GeminiProvider + ResilientProvider through the real `google-genai` client, against the local server."""

from __future__ import annotations

import logging
import time
import traceback

import pytest

from forge.config import ProviderConfig
from forge.llm.gemini_provider import GeminiProvider, _retry_delay_from_details
from forge.llm.resilience import ResilientProvider, SharedLimits
from forge.llm.serve import ModelServer
from forge.llm.types import (
    AuthenticationError,
    Completion,
    Message,
    ProviderError,
    ProviderTimeout,
    RetryBudgetExhausted,
    Secret,
    TransientProviderError,
    Usage,
)

KEY_ENV = "FORGE_TEST_GEMINI_KEY"
FAKE_KEY = "AIza-forge-test-SENTINEL-42d1e0b7"


class RecordingEcho:
    """Deterministic in-process model that remembers what each call asked for."""

    name = "echo"

    def __init__(self) -> None:
        self.calls: list[tuple[list[Message], dict]] = []

    def complete(self, messages, *, model, temperature=0.0, max_tokens=512, seed=None, stop=None):
        self.calls.append((list(messages), dict(model=model, temperature=temperature, max_tokens=max_tokens, seed=seed, stop=stop)))
        text = f"echo: {messages[-1].content}"
        return Completion(text=text, usage=Usage(sum(len(m.content.split()) for m in messages), len(text.split())), model=model)


@pytest.fixture
def echo():
    return RecordingEcho()


@pytest.fixture
def server(echo, monkeypatch):
    monkeypatch.setenv(KEY_ENV, FAKE_KEY)
    with ModelServer(echo, models=["gemini-test", "g"], required_key=Secret(FAKE_KEY)) as srv:
        yield srv


def make(server: ModelServer, **overrides) -> ResilientProvider:
    cfg = ProviderConfig(
        kind="gemini",
        base_url=server.url,
        api_key_env=KEY_ENV,
        **{"backoff_initial_s": 0.01, "backoff_max_s": 1.0, "timeout_s": 5.0, **overrides},
    )
    return ResilientProvider(GeminiProvider("gemini", cfg), cfg, "gemini", seed=3, limits=SharedLimits())


CONVERSATION = [
    Message("system", "you defend a network"),
    Message("user", "what now"),
    Message("assistant", "analyse"),
    Message("user", "host 3 is scanned"),
]


def test_round_trip_maps_roles_and_options(server, echo):
    completion = make(server).complete(CONVERSATION, model="gemini-test", temperature=0.2, max_tokens=77, seed=5, stop=["END"])
    assert completion.text == "echo: host 3 is scanned"
    assert completion.usage == Usage(11, 5)
    assert completion.model == "gemini-test"
    messages, options = echo.calls[0]
    assert messages == CONVERSATION  # system instruction and model/user turns survive the trip
    assert options == dict(model="gemini-test", temperature=0.2, max_tokens=77, seed=5, stop=["END"])


def test_429_retry_after_honoured(server):
    server.faults.fail_next(1, 429, retry_after=0.3)
    completion = make(server, backoff_initial_s=0.001).complete(CONVERSATION, model="g")
    assert completion.retries == 1
    assert server.stats.statuses == [429, 200]
    assert 0.29 <= server.stats.gaps()[0] < 0.6


def test_5xx_retried_then_given_up(server):
    server.faults.fail_next(5, 503)
    with pytest.raises(RetryBudgetExhausted) as info:
        make(server, max_retries=3).complete(CONVERSATION, model="g")
    assert server.stats.requests == 4
    assert isinstance(info.value.__cause__, TransientProviderError) and info.value.__cause__.status == 503


def test_timeout_fires(server):
    server.faults.delay_next(1, 3.0)
    started = time.monotonic()
    with pytest.raises(RetryBudgetExhausted) as info:
        make(server, timeout_s=0.3, max_retries=0).complete(CONVERSATION, model="g")
    assert time.monotonic() - started < 1.5
    assert isinstance(info.value.__cause__, ProviderTimeout)


def test_wrong_key_names_env_var_and_is_not_retried(server, monkeypatch):
    monkeypatch.setenv(KEY_ENV, "AIza-not-the-key")
    with pytest.raises(AuthenticationError, match=KEY_ENV):
        make(server, max_retries=4).complete(CONVERSATION, model="g")
    assert server.stats.statuses == [401]


def test_googles_400_api_key_invalid_is_an_auth_error(server):
    server.faults.fail_next(1, 400, message="API key not valid. Please pass a valid API key.")
    with pytest.raises(AuthenticationError, match=KEY_ENV):
        make(server).complete(CONVERSATION, model="g")


def test_other_400_is_permanent(server):
    server.faults.fail_next(3, 400, message="unknown field")
    with pytest.raises(ProviderError, match="unknown field") as info:
        make(server, max_retries=4).complete(CONVERSATION, model="g")
    assert not isinstance(info.value, TransientProviderError)
    assert server.stats.requests == 1


def test_retry_info_in_the_body_is_read():
    details = {
        "error": {
            "code": 429,
            "status": "RESOURCE_EXHAUSTED",
            "details": [{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "31s"}],
        }
    }
    assert _retry_delay_from_details(details) == 31.0
    assert _retry_delay_from_details({"error": {"details": []}}) is None
    assert _retry_delay_from_details("not a dict") is None


def test_no_key_in_logs_or_errors(server, caplog, capsys):
    caplog.set_level(logging.DEBUG)
    provider = make(server, max_retries=1)
    seen = [repr(provider), repr(provider.inner)]
    provider.complete(CONVERSATION, model="g")
    server.faults.fail_next(1, 400, message=f"API key {FAKE_KEY} is not enabled for this model")
    server.faults.fail_next(2, 500, message=f"trouble with {FAKE_KEY}")
    for _ in range(2):
        with pytest.raises(ProviderError) as info:
            provider.complete(CONVERSATION, model="g")
        seen += [str(info.value), "".join(traceback.format_exception(info.value))]
    out, err = capsys.readouterr()
    seen += [caplog.text, out, err]
    assert "[redacted]" in "".join(seen)
    assert all(FAKE_KEY not in text for text in seen)
