"""ResilientProvider around in-process providers: backoff, budgets, timeouts, concurrency (fake sleep where timing is not the point)."""

from __future__ import annotations

import random
import threading
import time

import pytest

from forge.config import ProviderConfig
from forge.llm.resilience import ResilientProvider, RetryBudget, SharedLimits, backoff_delay
from forge.llm.types import (
    AuthenticationError,
    Completion,
    Message,
    ProviderError,
    ProviderTimeout,
    RetryBudgetExhausted,
    TransientProviderError,
    Usage,
)

HI = [Message("user", "hi")]


class ScriptedProvider:
    """Raises the scripted errors in order, then echoes. Counts calls; notes the thread each ran on."""

    name = "scripted"

    def __init__(self, errors=(), delay_s: float = 0.0):
        self.errors = list(errors)
        self.delay_s = delay_s
        self.calls = 0
        self.threads: list[threading.Thread] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self._lock = threading.Lock()

    def complete(self, messages, *, model, temperature=0.0, max_tokens=512, seed=None, stop=None):
        with self._lock:
            self.calls += 1
            self.threads.append(threading.current_thread())
            error = self.errors.pop(0) if self.errors else None
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            if self.delay_s:
                time.sleep(self.delay_s)
            if error is not None:
                raise error
            return Completion(text=f"echo: {messages[-1].content}", usage=Usage(1, 2), model=model)
        finally:
            with self._lock:
                self.in_flight -= 1


class Recorder:
    """A fake sleep and clock: sleeping advances the clock and is remembered."""

    def __init__(self) -> None:
        self.now = 100.0
        self.sleeps: list[float] = []

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds

    def clock(self) -> float:
        return self.now


def wrap(inner, *, name="p", seed=0, recorder=None, limits=None, **cfg) -> ResilientProvider:
    recorder = recorder or Recorder()
    config = ProviderConfig(**{"backoff_initial_s": 0.5, "backoff_max_s": 30.0, "max_retries": 6, **cfg})
    return ResilientProvider(
        inner, config, name, seed=seed, sleep=recorder.sleep, clock=recorder.clock,
        limits=limits or SharedLimits(clock=recorder.clock),
    )


def transient(n: int, **kw) -> list[TransientProviderError]:
    return [TransientProviderError("flaky", **kw) for _ in range(n)]


def test_backoff_is_full_jitter_from_a_seeded_rng():
    rec = Recorder()
    completion = wrap(ScriptedProvider(transient(5)), seed=42, recorder=rec).complete(HI, model="m")
    assert completion.retries == 5
    rng = random.Random(42)
    assert rec.sleeps == [rng.uniform(0, min(30.0, 0.5 * 2**i)) for i in range(5)]
    assert completion.latency_s == pytest.approx(sum(rec.sleeps))


def test_same_seed_same_backoff_other_seed_other_backoff():
    def sleeps(seed: int) -> list[float]:
        rec = Recorder()
        wrap(ScriptedProvider(transient(4)), seed=seed, recorder=rec).complete(HI, model="m")
        return rec.sleeps

    assert sleeps(1) == sleeps(1)
    assert sleeps(1) != sleeps(2)


def test_backoff_ceiling_grows_then_caps():
    cfg = ProviderConfig(backoff_initial_s=1.0, backoff_max_s=5.0)
    rng = random.Random(0)
    samples = {k: [backoff_delay(k, None, cfg, rng) for _ in range(300)] for k in (0, 1, 2, 10)}
    assert max(samples[0]) <= 1.0 and max(samples[1]) <= 2.0 and max(samples[10]) <= 5.0
    assert max(samples[10]) > 4.0  # jitter spans the whole capped range
    assert min(samples[2]) < 0.5  # full jitter: can be near zero


def test_retry_after_wins_and_is_capped():
    rec = Recorder()
    errors = [TransientProviderError("429", retry_after_s=2.5, status=429), TransientProviderError("429", retry_after_s=99, status=429)]
    wrap(ScriptedProvider(errors), recorder=rec, backoff_max_s=10.0).complete(HI, model="m")
    assert rec.sleeps == [2.5, 10.0]


def test_auth_error_is_not_retried():
    inner = ScriptedProvider([AuthenticationError("set FOO")] + transient(3))
    with pytest.raises(AuthenticationError):
        wrap(inner).complete(HI, model="m")
    assert inner.calls == 1


def test_permanent_error_after_transient_ones_carries_the_retry_count():
    inner = ScriptedProvider(transient(2) + [ProviderError("bad request")])
    with pytest.raises(ProviderError, match="bad request") as info:
        wrap(inner).complete(HI, model="m")
    assert inner.calls == 3 and info.value.retries == 2


def test_bugs_propagate_unchanged_and_unretried():
    inner = ScriptedProvider([ValueError("a bug")])
    with pytest.raises(ValueError, match="a bug"):
        wrap(inner).complete(HI, model="m")
    assert inner.calls == 1


def test_max_retries_per_call():
    inner = ScriptedProvider(transient(10))
    with pytest.raises(RetryBudgetExhausted) as info:
        wrap(inner, max_retries=3).complete(HI, model="m")
    assert inner.calls == 4
    assert info.value.retries == 3
    assert isinstance(info.value.__cause__, TransientProviderError)


def test_retry_budget_is_per_provider_name_and_shared():
    rec = Recorder()
    limits = SharedLimits(clock=rec.clock)
    inner = ScriptedProvider(transient(100))
    # No refill here: the bucket is then a plain count, which isolates the sharing.
    a = wrap(inner, name="shared", recorder=rec, limits=limits, retry_budget=5, retry_budget_refill_per_s=0, max_retries=4)
    b = wrap(inner, name="shared", recorder=rec, limits=limits, retry_budget=5, retry_budget_refill_per_s=0, max_retries=4)
    other = wrap(ScriptedProvider(transient(2)), name="other", recorder=rec, limits=limits, retry_budget=5, retry_budget_refill_per_s=0)
    with pytest.raises(RetryBudgetExhausted, match="gave up after 5 attempts"):
        a.complete(HI, model="m")  # 4 retries, 1 left
    with pytest.raises(RetryBudgetExhausted, match="retry budget"):
        b.complete(HI, model="m")  # 1 retry, then the budget is spent
    assert inner.calls == 5 + 2
    with pytest.raises(RetryBudgetExhausted, match=r"retry budget \(5 retries, refilling 0/s\) is empty"):
        a.complete(HI, model="m")
    assert inner.calls == 8
    assert other.complete(HI, model="m").retries == 2  # another name has its own budget


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_retry_budget_refills_at_its_rate_up_to_its_capacity():
    clock = Clock()
    budget = RetryBudget(3, 0.5, clock)
    assert [budget.take() for _ in range(4)] == [True, True, True, False]
    clock.now = 1.9
    assert not budget.take()  # 0.95 of a retry is not a retry
    clock.now = 2.0
    assert budget.take() and not budget.take()
    clock.now = 1000.0
    assert budget.available == 3.0  # a long quiet spell refills to capacity, no further
    assert [budget.take() for _ in range(4)] == [True, True, True, False]
    assert budget.taken == 7


def test_a_lifetime_count_is_a_budget_that_never_refills():
    clock = Clock()
    budget = RetryBudget(2, 0.0, clock)
    clock.now = 1e6
    assert [budget.take() for _ in range(3)] == [True, True, False]


def test_a_long_session_never_runs_out_of_retries_while_a_storm_stays_bounded():
    """Spread-out transient errors (one per 2 s against a refill of 1/s) are all retried far past the
    bucket's size, where a lifetime count of the same size would have run dry; a burst of failures at
    one instant gets only the bucket."""
    rec = Recorder()
    limits = SharedLimits(clock=rec.clock)
    cfg = dict(retry_budget=5, retry_budget_refill_per_s=1.0, max_retries=3, backoff_initial_s=0.0)
    inner = ScriptedProvider()
    provider = wrap(inner, name="long", recorder=rec, limits=limits, **cfg)
    for _ in range(500):
        inner.errors = transient(1)
        assert provider.complete(HI, model="m").retries == 1
        rec.now += 2.0  # the session's next call comes later
    assert limits.get("long", provider.cfg).retries_used == 500  # 100 buckets' worth

    storm = ScriptedProvider(transient(1000))
    stormy = wrap(storm, name="storm", recorder=rec, limits=limits, **cfg)
    for _ in range(50):  # fifty calls failing at the same moment
        with pytest.raises(RetryBudgetExhausted):
            stormy.complete(HI, model="m")
    assert storm.calls == 50 + 5  # one attempt each, plus the bucket's five retries
    rec.now += 3.0
    with pytest.raises(RetryBudgetExhausted):
        stormy.complete(HI, model="m")
    assert storm.calls == 55 + 1 + 3  # three seconds refilled three retries


def test_in_process_timeout_is_enforced_on_a_thread():
    inner = ScriptedProvider(delay_s=2.0)
    provider = ResilientProvider(inner, ProviderConfig(timeout_s=0.15, max_retries=0), "slow", limits=SharedLimits())
    started = time.monotonic()
    with pytest.raises(RetryBudgetExhausted) as info:
        provider.complete(HI, model="m")
    assert time.monotonic() - started < 1.0
    assert isinstance(info.value.__cause__, ProviderTimeout)
    assert inner.threads[0] is not threading.current_thread()


def test_timeout_then_success_counts_a_retry():
    class SlowOnce(ScriptedProvider):
        def complete(self, messages, **kw):
            if self.calls == 0:
                self.delay_s = 1.0
            else:
                self.delay_s = 0.0
            return super().complete(messages, **kw)

    cfg = ProviderConfig(timeout_s=0.15, max_retries=2, backoff_initial_s=0.001)
    completion = ResilientProvider(SlowOnce(), cfg, "slow-once", limits=SharedLimits()).complete(HI, model="m")
    assert completion.retries == 1 and completion.text == "echo: hi"


def test_providers_that_enforce_their_own_timeout_run_inline():
    inner = ScriptedProvider()
    inner.enforces_timeout = True
    wrap(inner).complete(HI, model="m")
    assert inner.threads == [threading.current_thread()]


def test_errors_raised_on_the_worker_thread_reach_the_caller():
    inner = ScriptedProvider([AuthenticationError("set FOO")])
    provider = ResilientProvider(inner, ProviderConfig(timeout_s=5), "t", limits=SharedLimits())
    with pytest.raises(AuthenticationError, match="FOO"):
        provider.complete(HI, model="m")


def test_concurrency_cap_for_in_process_providers():
    inner = ScriptedProvider(delay_s=0.05)
    limits = SharedLimits()
    wrappers = [ResilientProvider(inner, ProviderConfig(max_concurrency=2), "cap", limits=limits) for _ in range(3)]
    threads = [threading.Thread(target=wrappers[i % 3].complete, args=(HI,), kwargs={"model": "m"}) for i in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert inner.calls == 12
    assert inner.max_in_flight == 2


def test_slot_is_released_while_backing_off():
    """A call waiting out its backoff must not hold a slot: with cap 1 another call gets through meanwhile."""
    limits = SharedLimits()
    cfg = ProviderConfig(max_concurrency=1, backoff_initial_s=0.0, backoff_max_s=10.0)
    flaky = ScriptedProvider([TransientProviderError("429", retry_after_s=0.4)])
    waiting = ResilientProvider(flaky, cfg, "one-slot", limits=limits)
    quick = ResilientProvider(ScriptedProvider(), cfg, "one-slot", limits=limits)
    t = threading.Thread(target=waiting.complete, args=(HI,), kwargs={"model": "m"})
    t.start()
    time.sleep(0.1)
    started = time.monotonic()
    quick.complete(HI, model="m")
    assert time.monotonic() - started < 0.2
    t.join()


def test_conflicting_limits_for_one_name_keep_the_first(caplog):
    limits = SharedLimits()
    first = limits.get("x", ProviderConfig(max_concurrency=2, retry_budget=9))
    second = limits.get("x", ProviderConfig(max_concurrency=5, retry_budget=9))
    third = limits.get("x", ProviderConfig(max_concurrency=2, retry_budget=9, retry_budget_refill_per_s=7.0))
    assert first is second is third and third.max_concurrency == 2 and third.budget.refill_per_s == 1.0
    assert "ignoring a second configuration" in caplog.text
