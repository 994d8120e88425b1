"""OpenAIProvider + ResilientProvider against a real HTTP server on 127.0.0.1, through the real `openai` client."""

from __future__ import annotations

import logging
import pickle
import random
import threading
import time
import traceback

import pytest

from forge.config import ModelConfig, ProviderConfig
from forge.llm.accounting import ModelClient, UsageLedger
from forge.llm.openai_provider import OpenAIProvider
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

KEY_ENV = "FORGE_TEST_OPENAI_KEY"
FAKE_KEY = "sk-forge-test-SENTINEL-7f3a9c1e5b"


class EchoProvider:
    """Deterministic in-process model: answers with the last user message; tokens are words."""

    name = "echo"

    def complete(self, messages, *, model, temperature=0.0, max_tokens=512, seed=None, stop=None):
        text = f"echo: {messages[-1].content}"
        prompt = sum(len(m.content.split()) for m in messages)
        return Completion(text=text, usage=Usage(prompt, len(text.split())), model=model)


@pytest.fixture
def server():
    with ModelServer(EchoProvider(), models=["echo-1"]) as srv:
        yield srv


@pytest.fixture
def fake_key(monkeypatch):
    monkeypatch.setenv(KEY_ENV, FAKE_KEY)
    return FAKE_KEY


def make(server: ModelServer, *, name: str = "local", seed: int = 7, limits: SharedLimits | None = None, **overrides):
    cfg = ProviderConfig(
        kind="openai",
        base_url=server.openai_base_url,
        api_key_env=overrides.pop("api_key_env", None),
        **{"backoff_initial_s": 0.01, "backoff_max_s": 1.0, "timeout_s": 5.0, **overrides},
    )
    return ResilientProvider(OpenAIProvider(name, cfg), cfg, name, seed=seed, limits=limits or SharedLimits())


HI = [Message("system", "be brief"), Message("user", "hello there")]


def test_round_trip_and_usage_in_ledger(server):
    provider = make(server)
    ledger = UsageLedger()
    client = ModelClient("planner", provider, ModelConfig(provider="local", model="echo-1"), ledger)
    first = client.complete(HI)
    client.complete([Message("user", "one two three")])
    assert first.text == "echo: hello there"
    assert first.usage == Usage(4, 3)
    assert first.model == "echo-1" and first.retries == 0
    totals = ledger.totals_by_role()["planner"]
    assert (totals.calls, totals.prompt_tokens, totals.completion_tokens, totals.retries) == (2, 7, 7, 0)
    assert totals.latency_s > 0
    assert server.stats.statuses == [200, 200]


def test_one_client_one_connection(server):
    provider = make(server)
    for _ in range(15):
        provider.complete(HI, model="echo-1")
    assert server.stats.requests == 15
    assert server.stats.connections == 1  # the pool keeps the connection alive


def test_429_retry_after_is_honoured_and_measured(server):
    server.faults.fail_next(2, 429, retry_after=0.3)
    # The computed backoff would be tiny: only honouring Retry-After explains 0.3 s gaps.
    provider = make(server, backoff_initial_s=0.001)
    completion = provider.complete(HI, model="echo-1")
    assert completion.text == "echo: hello there"
    assert completion.retries == 2
    assert server.stats.statuses == [429, 429, 200]
    gaps = server.stats.gaps()
    assert all(0.29 <= gap < 0.6 for gap in gaps), gaps
    assert completion.latency_s >= 0.59


def test_retry_after_is_capped_by_backoff_max(server):
    server.faults.fail_next(1, 429, retry_after=30)
    started = time.monotonic()
    provider = make(server, backoff_max_s=0.2)
    assert provider.complete(HI, model="echo-1").retries == 1
    assert 0.19 <= time.monotonic() - started < 1.5
    assert 0.19 <= server.stats.gaps()[0] < 1.0


def test_5xx_backoff_follows_seeded_full_jitter(server):
    server.faults.fail_next(3, 500)
    cfg_initial, seed = 0.1, 1234
    provider = make(server, backoff_initial_s=cfg_initial, backoff_max_s=1.0, seed=seed)
    completion = provider.complete(HI, model="echo-1")
    assert completion.retries == 3
    assert server.stats.requests == 4
    rng = random.Random(seed)
    expected = [rng.uniform(0.0, cfg_initial * 2**i) for i in range(3)]
    for gap, want in zip(server.stats.gaps(), expected):
        assert want - 0.005 <= gap <= want + 0.2, (server.stats.gaps(), expected)


def test_5xx_gives_up_after_max_retries(server):
    server.faults.fail_next(10, 503)
    provider = make(server, max_retries=2)
    with pytest.raises(RetryBudgetExhausted) as info:
        provider.complete(HI, model="echo-1")
    assert server.stats.requests == 3
    assert info.value.retries == 2
    assert isinstance(info.value.__cause__, TransientProviderError)
    assert info.value.__cause__.status == 503
    assert "gave up after 3 attempts" in str(info.value)


def test_timeout_fires_and_is_retried(server):
    server.faults.delay_next(1, 3.0)
    provider = make(server, timeout_s=0.3, max_retries=1)
    started = time.monotonic()
    completion = provider.complete(HI, model="echo-1")
    elapsed = time.monotonic() - started
    assert completion.retries == 1
    assert 0.3 <= elapsed < 1.5


def test_timeout_without_retries_raises_from_provider_timeout(server):
    server.faults.delay_next(1, 3.0)
    provider = make(server, timeout_s=0.25, max_retries=0)
    started = time.monotonic()
    with pytest.raises(RetryBudgetExhausted) as info:
        provider.complete(HI, model="echo-1")
    assert time.monotonic() - started < 1.5
    assert isinstance(info.value.__cause__, ProviderTimeout)
    assert "0.25s" in str(info.value.__cause__)


def test_401_names_the_env_var_and_is_not_retried(monkeypatch):
    monkeypatch.setenv(KEY_ENV, "sk-wrong-key")
    with ModelServer(EchoProvider(), models=["echo-1"], required_key=Secret("sk-the-right-key")) as srv:
        provider = make(srv, api_key_env=KEY_ENV, max_retries=5)
        with pytest.raises(AuthenticationError) as info:
            provider.complete(HI, model="echo-1")
        assert srv.stats.statuses == [401]  # one attempt only
    assert KEY_ENV in str(info.value)
    assert info.value.retries == 0


def test_403_is_an_authentication_error_too(server):
    server.faults.fail_next(3, 403)
    with pytest.raises(AuthenticationError, match="api_key_env"):
        make(server, max_retries=5).complete(HI, model="echo-1")
    assert server.stats.requests == 1


def test_missing_key_variable_fails_at_construction(monkeypatch):
    monkeypatch.delenv(KEY_ENV, raising=False)
    with pytest.raises(AuthenticationError, match=KEY_ENV):
        OpenAIProvider("remote", ProviderConfig(kind="openai", base_url="http://127.0.0.1:9/v1", api_key_env=KEY_ENV))


def test_other_4xx_is_permanent(server):
    server.faults.fail_next(3, 400, message="bad model")
    with pytest.raises(ProviderError, match="HTTP 400: .*bad model") as info:
        make(server, max_retries=5).complete(HI, model="echo-1")
    assert not isinstance(info.value, TransientProviderError)
    assert server.stats.requests == 1


def test_connection_refused_is_transient():
    with ModelServer(EchoProvider(), models=["echo-1"]) as srv:
        url = srv.openai_base_url
    cfg = ProviderConfig(kind="openai", base_url=url, max_retries=1, backoff_initial_s=0.01)
    provider = ResilientProvider(OpenAIProvider("gone", cfg), cfg, "gone", limits=SharedLimits())
    with pytest.raises(RetryBudgetExhausted) as info:
        provider.complete(HI, model="echo-1")
    assert type(info.value.__cause__) is TransientProviderError
    assert "could not connect" in str(info.value.__cause__)


def test_retry_budget_is_shared_and_bounded(server):
    server.faults.fail_next(100, 503)
    limits = SharedLimits()
    a = make(server, name="budgeted", retry_budget=3, retry_budget_refill_per_s=0, max_retries=5, limits=limits, backoff_initial_s=0.001)
    b = make(server, name="budgeted", retry_budget=3, retry_budget_refill_per_s=0, max_retries=5, limits=limits, backoff_initial_s=0.001)
    with pytest.raises(RetryBudgetExhausted, match="retry budget"):
        a.complete(HI, model="echo-1")
    assert server.stats.requests == 4  # 1 + the 3 budgeted retries
    with pytest.raises(RetryBudgetExhausted, match="retry budget"):
        b.complete(HI, model="echo-1")  # another wrapper of the same provider: nothing left
    assert server.stats.requests == 5
    assert limits.get("budgeted", a.cfg).retries_used == 3


def test_concurrency_cap_holds_at_the_server(server):
    server.faults.delay_every(0.12)
    limits = SharedLimits()
    # Two wrappers of one provider name share one cap of 3.
    providers = [make(server, name="capped", max_concurrency=3, limits=limits) for _ in range(2)]
    errors: list[BaseException] = []

    def call(i: int) -> None:
        try:
            providers[i % 2].complete([Message("user", f"n{i}")], model="echo-1")
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=call, args=(i,)) for i in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert server.stats.requests == 12
    assert server.stats.max_in_flight == 3


def test_no_key_in_logs_errors_reprs_or_tracebacks(monkeypatch, caplog, capsys, fake_key):
    caplog.set_level(logging.DEBUG)  # every logger, including openai/httpx debug output
    seen: list[str] = []
    with ModelServer(EchoProvider(), models=["echo-1"], required_key=Secret(fake_key)) as srv:
        provider = make(srv, api_key_env=KEY_ENV, max_retries=2)
        seen += [repr(provider), str(provider), repr(provider.inner)]
        provider.complete(HI, model="echo-1")
        srv.faults.fail_next(1, 429, retry_after=0.01)
        provider.complete(HI, model="echo-1")
        # A server that quotes the key back in its error message (some do, partially masked or not).
        srv.faults.fail_next(1, 400, message=f"Incorrect API key provided: {fake_key}")
        srv.faults.fail_next(3, 500, message=f"upstream rejected {fake_key}")
        for _ in range(2):
            with pytest.raises(ProviderError) as info:
                provider.complete(HI, model="echo-1")
            seen += [str(info.value), repr(info.value), "".join(traceback.format_exception(info.value))]
            if info.value.__cause__ is not None:
                seen.append(str(info.value.__cause__))
    monkeypatch.setenv(KEY_ENV, fake_key + "-wrong")
    with ModelServer(EchoProvider(), models=["echo-1"], required_key=Secret(fake_key)) as srv:
        with pytest.raises(AuthenticationError) as info:
            make(srv, api_key_env=KEY_ENV).complete(HI, model="echo-1")
        seen += [str(info.value), "".join(traceback.format_exception(info.value))]
    out, err = capsys.readouterr()
    seen += [caplog.text, out, err]
    assert "[redacted]" in "".join(seen)  # the echoed key was there, and was removed
    for text in seen:
        assert fake_key not in text
    with pytest.raises(TypeError):
        pickle.dumps(provider.inner._key)
