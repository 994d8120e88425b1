"""Retries, timeouts and concurrency limits around any provider.

`ResilientProvider` is the only place that retries: the network clients have their own retries off.

- Transient errors (timeouts, connection errors, 429, 5xx) are retried with exponential backoff and
  full jitter from a seeded RNG; a server's Retry-After wins over the computed delay (both capped
  by `backoff_max_s`).
- Two limits stop a failing endpoint from being hammered: `max_retries` per call, and a retry budget
  per provider name per process, shared by every caller. The budget is a rate, not a lifetime count:
  a token bucket holding up to `retry_budget` retries, refilled at `retry_budget_refill_per_s`
  (defaults 200 and 1/s). A storm spends at most the bucket and then one retry per refill interval,
  while a long session whose transient errors stay under the refill rate never runs out. When either
  limit is reached the call raises `RetryBudgetExhausted` from the last transient error.
- Authentication and other non-transient errors are raised at once.
- At most `max_concurrency` calls per provider name are in flight in this process (one semaphore
  per name, shared by all wrappers of that name); a slot is held only while a request is in flight,
  never while backing off.
- In a Ray session whose driver started a session limiter (forge.llm.limiter), each attempt also holds
  one of the endpoint's session-wide slots (`max_concurrency`, `requests_per_minute`), reports its
  tokens and cost when it ends, and a Retry-After is passed on so that every worker waits it out.
  In-process providers (the surrogate) go through it only when the session has a budget to count.
- `timeout_s` (<= 0: none) is enforced by the HTTP clients themselves; for in-process providers
  (no true `enforces_timeout` attribute) each call runs on a daemon thread and is abandoned when it
  overruns (a thread per call: negligible beside any model).
"""

from __future__ import annotations

import logging
import random
import threading
import time
import zlib
from dataclasses import replace
from typing import Any, Callable, Optional, Sequence

from forge.config import ProviderConfig
from forge.llm.limiter import EndpointLimits, endpoint_key, session_limiter
from forge.llm.kinds import NETWORK_KINDS
from forge.llm.prices import price_for
from forge.llm.types import (
    Completion,
    Message,
    Provider,
    ProviderError,
    ProviderTimeout,
    RetryBudgetExhausted,
    TransientProviderError,
    approx_tokens,
)

log = logging.getLogger(__name__)


class RetryBudget:
    """A token bucket of retries: up to `capacity` held, `refill_per_s` added per second of `clock`.

    Full at creation. `refill_per_s=0` makes it a lifetime count of `capacity` retries.
    """

    def __init__(self, capacity: int, refill_per_s: float, clock: Callable[[], float] = time.monotonic):
        self.capacity = max(0, capacity)
        self.refill_per_s = max(0.0, refill_per_s)
        self._clock = clock
        self._lock = threading.Lock()
        self._tokens = float(self.capacity)
        self._stamp = clock()
        self.taken = 0  # retries granted so far (reporting only)

    def _refill(self) -> None:
        now = self._clock()
        self._tokens = min(float(self.capacity), self._tokens + max(0.0, now - self._stamp) * self.refill_per_s)
        self._stamp = now

    @property
    def available(self) -> float:
        with self._lock:
            self._refill()
            return self._tokens

    def take(self) -> bool:
        """Spend one retry; False when the bucket holds less than one."""
        with self._lock:
            self._refill()
            if self._tokens < 1.0:
                return False
            self._tokens -= 1.0
            self.taken += 1
            return True

    def describe(self) -> str:
        return f"{self.capacity} retries, refilling {self.refill_per_s:g}/s"


class ProviderLimits:
    """One provider name's concurrency slots and retry budget."""

    def __init__(
        self, max_concurrency: int, retry_budget: int, refill_per_s: float = 0.0, clock: Callable[[], float] = time.monotonic
    ):
        self.max_concurrency = max(1, max_concurrency)
        self.concurrency = threading.BoundedSemaphore(self.max_concurrency)
        self.budget = RetryBudget(retry_budget, refill_per_s, clock)

    @property
    def retry_budget(self) -> int:
        return self.budget.capacity

    @property
    def retries_used(self) -> int:
        return self.budget.taken

    def take_retry(self) -> bool:
        """Spend one retry; False when the budget is empty for now."""
        return self.budget.take()

    def settings(self) -> tuple[int, int, float]:
        return self.max_concurrency, self.budget.capacity, self.budget.refill_per_s


class SharedLimits:
    """Concurrency slots and retry budgets keyed by provider name; one instance serves a whole process.

    The first wrapper of a name fixes its limits; a later one asking for different limits gets the
    existing ones (a warning says so), because two caps for one endpoint would be no cap at all.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock  # drives the retry budgets' refill (injectable for tests)
        self._lock = threading.Lock()
        self._by_name: dict[str, ProviderLimits] = {}

    def get(self, name: str, cfg: ProviderConfig) -> ProviderLimits:
        wanted = ProviderLimits(cfg.max_concurrency, cfg.retry_budget, cfg.retry_budget_refill_per_s, self._clock)
        with self._lock:
            limits = self._by_name.get(name)
            if limits is None:
                limits = self._by_name[name] = wanted
            elif limits.settings() != wanted.settings():
                log.warning(
                    "provider %r: already limited to %d concurrent calls and a retry budget of %s in this process; "
                    "ignoring a second configuration asking for %d and %s",
                    name, limits.max_concurrency, limits.budget.describe(), wanted.max_concurrency, wanted.budget.describe(),
                )
            return limits

    def reset(self, name: Optional[str] = None) -> None:
        """Forget one provider's limits (or all): for tests, and for a driver starting a fresh session."""
        with self._lock:
            if name is None:
                self._by_name.clear()
            else:
                self._by_name.pop(name, None)


PROCESS_LIMITS = SharedLimits()


def backoff_delay(failures: int, retry_after_s: Optional[float], cfg: ProviderConfig, rng: random.Random) -> float:
    """Seconds to wait before retry number `failures + 1`.

    Full jitter (uniform in [0, min(cap, initial * 2**failures)]) spreads out the retries of many
    callers that failed together; a server-provided Retry-After is honoured as given, up to the cap.
    """
    cap = max(0.0, cfg.backoff_max_s)
    if retry_after_s is not None:
        return min(max(retry_after_s, 0.0), cap)
    ceiling = min(cap, max(0.0, cfg.backoff_initial_s) * 2.0 ** min(failures, 62))
    return rng.uniform(0.0, ceiling)


def call_with_deadline(fn: Callable[[], Completion], timeout_s: float, what: str) -> Completion:
    """`fn()` on a daemon thread; ProviderTimeout if it has not returned within `timeout_s`.

    Python cannot stop a thread, so an overrunning call is abandoned and finishes on its own; a daemon
    thread never keeps the process alive.
    """
    outcome: list = []
    done = threading.Event()

    def run() -> None:
        try:
            outcome.append((True, fn()))
        except BaseException as exc:  # re-raised in the caller's thread
            outcome.append((False, exc))
        finally:
            done.set()

    threading.Thread(target=run, name=f"forge-call-{what}", daemon=True).start()
    if not done.wait(timeout_s):
        raise ProviderTimeout(f"provider {what!r}: no answer within {timeout_s:g}s")
    ok, value = outcome[0]
    if not ok:
        raise value
    return value


class ResilientProvider:
    """Wraps `inner` (named `name`, configured by `cfg`) with the retry/timeout/concurrency policy above.

    `sleep`, `clock`, `seed` and `limits` are injectable for tests; by default the jitter RNG is seeded
    from the provider name, so a rerun backs off the same way.
    """

    def __init__(
        self,
        inner: Provider,
        cfg: ProviderConfig,
        name: str,
        *,
        seed: Optional[int] = None,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
        limits: SharedLimits = PROCESS_LIMITS,
    ):
        self.name = name
        self.inner = inner
        self.cfg = cfg
        self._rng = random.Random(zlib.crc32(name.encode()) if seed is None else seed)
        self._rng_lock = threading.Lock()
        self._sleep = sleep
        self._clock = clock
        self._limits = limits.get(name, cfg)
        self._endpoint = endpoint_key(cfg.kind, cfg.base_url)
        self._endpoint_limits = EndpointLimits(cfg.max_concurrency, cfg.requests_per_minute, cfg.slot_wait_s)
        self._network = cfg.kind in NETWORK_KINDS
        # Only in-process providers need the thread-based deadline; HTTP clients enforce timeout_s.
        self._needs_deadline = not getattr(inner, "enforces_timeout", False) and cfg.timeout_s > 0

    def __repr__(self) -> str:
        return f"ResilientProvider(name={self.name!r}, inner={self.inner!r})"

    @property
    def enforces_timeout(self) -> bool:
        return True

    def complete(
        self,
        messages: Sequence[Message],
        *,
        model: str,
        temperature: float = 0.0,
        max_tokens: int = 512,
        seed: Optional[int] = None,
        stop: Optional[Sequence[str]] = None,
        **extra: Any,
    ) -> Completion:
        def attempt() -> Completion:
            return self.inner.complete(
                messages, model=model, temperature=temperature, max_tokens=max_tokens, seed=seed, stop=stop, **extra
            )

        started = self._clock()
        failures = 0
        while True:
            try:
                completion = self._attempt(attempt, messages, model)
            except TransientProviderError as exc:
                shared = session_limiter()
                if shared is not None and shared.governs(self._network) and exc.retry_after_s:
                    shared.hold(self._endpoint, min(exc.retry_after_s, max(0.0, self.cfg.backoff_max_s)))
                delay = self._plan_retry(exc, failures)
                failures += 1
                log.info(
                    "provider %r: %s; retry %d/%d in %.2fs", self.name, exc, failures, self.cfg.max_retries, delay
                )
                if delay > 0:
                    self._sleep(delay)
                continue
            except ProviderError as exc:
                # AuthenticationError and other permanent failures: retrying cannot help.
                exc.retries = failures
                raise
            return replace(completion, retries=completion.retries + failures, latency_s=self._clock() - started)

    def close(self) -> None:
        close = getattr(self.inner, "close", None)
        if close is not None:
            close()

    def _attempt(self, call: Callable[[], Completion], messages: Sequence[Message], model: str) -> Completion:
        shared = session_limiter()
        if shared is None or not shared.governs(self._network):
            return self._attempt_here(call)
        # Charged if the attempt fails or its holder dies (the endpoint never said what it used): a
        # provider may bill a failed call's prompt. A call that ends is charged each kind of token
        # (cached input, reasoning) at its own price.
        price = price_for(self.cfg, model)
        prompt = sum(approx_tokens(m.content) for m in messages)
        with shared.slot(self._endpoint, self._endpoint_limits, prompt, price.prompt_cost_usd(prompt)) as usage:
            completion = self._attempt_here(call)
            usage.prompt_tokens = completion.usage.prompt_tokens
            usage.completion_tokens = completion.usage.completion_tokens
            usage.usd = price.cost_usd(completion.usage)
            return completion

    def _attempt_here(self, call: Callable[[], Completion]) -> Completion:
        with self._limits.concurrency:
            if self._needs_deadline:
                return call_with_deadline(call, self.cfg.timeout_s, self.name)
            return call()

    def _plan_retry(self, exc: TransientProviderError, failures: int) -> float:
        """The delay before the next attempt, or raise when this call or the provider may not retry."""
        if failures >= self.cfg.max_retries:
            err = RetryBudgetExhausted(
                f"provider {self.name!r}: gave up after {failures + 1} attempts "
                f"(max_retries={self.cfg.max_retries}); last error: {exc}"
            )
        elif not self._limits.take_retry():
            err = RetryBudgetExhausted(
                f"provider {self.name!r}: the process-wide retry budget ({self._limits.budget.describe()}) is empty "
                f"for now; last error: {exc}"
            )
        else:
            with self._rng_lock:
                return backoff_delay(failures, exc.retry_after_s, self.cfg, self._rng)
        err.retries = failures
        raise err from exc
