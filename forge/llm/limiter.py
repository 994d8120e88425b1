"""One rate limit per model endpoint and one budget for a whole session, shared by every worker.

A session's driver starts one named Ray actor (`SessionLimiter`); every worker process of the session
finds it by name and installs it (`install_session_limiter`), after which each model-call attempt of
`ResilientProvider` takes a slot from it first and gives it back with the call's token counts.

- An endpoint is `kind + base_url` (never the key): two provider names on one server share its cap.
- Per endpoint: at most `max_concurrency` calls in flight across the session, at most
  `requests_per_minute` starts in any 60 s window, and no start before the "not before" time a
  Retry-After from any caller set.
- Budget: the limiter keeps the session's running prompt / completion tokens and USD. Once a limit is
  reached it refuses every new call (`BudgetExhausted`); calls already in flight finish, so a budget is
  overshot by at most what those in-flight calls use. The refusal is not a `ProviderError`: the agents
  swallow provider errors (an episode survives a failed call), but a spent budget must stop the unit.

Why an actor and not Redis: the session already runs on Ray, an actor needs no server of its own, and
its round trip is measured by `scripts/bench/limiter_overhead.py`. Outside Ray (single-process
commands) nothing is installed and `ResilientProvider` keeps its in-process cap only.

`EndpointGate` holds the decisions (pure, tested without Ray); the actor only waits and wakes.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections import deque
from dataclasses import asdict, dataclass, field
from typing import Any, Iterator, Optional

from forge.errors import ForgeError
from forge.redact import mask_url


class BudgetExhausted(ForgeError, RuntimeError):
    """The session's budget is spent: no new model call may start. Carries the figures."""

    def __init__(self, figures: dict[str, Any]):
        self.figures = figures
        super().__init__(f"session budget exhausted: {describe_budget(figures)}")

    def __reduce__(self):  # travels from a worker to the driver with its figures
        return (type(self), (self.figures,))


@dataclass(frozen=True)
class BudgetLimits:
    """None: no limit on that figure."""

    max_prompt_tokens: Optional[int] = None
    max_completion_tokens: Optional[int] = None
    max_usd: Optional[float] = None

    @property
    def any(self) -> bool:
        return any(v is not None for v in asdict(self).values())


@dataclass
class Spent:
    prompt_tokens: int = 0
    completion_tokens: int = 0
    usd: float = 0.0
    calls: int = 0


@dataclass(frozen=True)
class EndpointLimits:
    max_concurrency: int
    requests_per_minute: Optional[int] = None


@dataclass
class _Endpoint:
    in_flight: int = 0
    starts: deque = field(default_factory=deque)  # monotonic start times within the last minute
    not_before: float = 0.0


@dataclass(frozen=True)
class Decision:
    granted: bool
    wait_s: Optional[float] = None  # when not granted: a time to look again (None: when a slot is released)
    exhausted: Optional[dict[str, Any]] = None  # the budget figures, when refused for budget


def endpoint_key(kind: str, base_url: Optional[str]) -> str:
    """The endpoint a provider config calls: kind and URL (credentials inside a URL masked), never a key."""
    return f"{kind}:{mask_url(base_url) if base_url else '-'}"


def call_cost_usd(prompt_tokens: int, completion_tokens: int, price_in_per_mtok: float, price_out_per_mtok: float) -> float:
    return (prompt_tokens * price_in_per_mtok + completion_tokens * price_out_per_mtok) / 1_000_000


def budget_figures(limits: BudgetLimits, spent: Spent) -> dict[str, Any]:
    """What was spent against which limits, and which limits are reached."""
    reached = []
    if limits.max_prompt_tokens is not None and spent.prompt_tokens >= limits.max_prompt_tokens:
        reached.append("max_prompt_tokens")
    if limits.max_completion_tokens is not None and spent.completion_tokens >= limits.max_completion_tokens:
        reached.append("max_completion_tokens")
    if limits.max_usd is not None and spent.usd >= limits.max_usd:
        reached.append("max_usd")
    return {"spent": {**asdict(spent), "usd": round(spent.usd, 6)}, "limits": asdict(limits), "reached": reached}


def describe_budget(figures: dict[str, Any]) -> str:
    spent, limits = figures["spent"], figures["limits"]
    parts = [f"prompt tokens {spent['prompt_tokens']}" + (f"/{limits['max_prompt_tokens']}" if limits["max_prompt_tokens"] is not None else ""),
             f"completion tokens {spent['completion_tokens']}" + (f"/{limits['max_completion_tokens']}" if limits["max_completion_tokens"] is not None else ""),
             f"USD {spent['usd']:.4f}" + (f"/{limits['max_usd']:g}" if limits["max_usd"] is not None else "")]
    reached = ", ".join(f"budget.{r}" for r in figures["reached"]) or "none"
    return f"{'; '.join(parts)} (reached: {reached})"


class EndpointGate:
    """Slots, request rate, Retry-After holds and the budget, for every endpoint of one session.

    Not thread-safe on its own: the actor calls it from one event loop."""

    def __init__(self, budget: BudgetLimits = BudgetLimits(), spent: Optional[Spent] = None) -> None:
        self.budget = budget
        self.spent = spent or Spent()
        self._endpoints: dict[str, _Endpoint] = {}
        self.peak_in_flight: dict[str, int] = {}

    def _endpoint(self, key: str) -> _Endpoint:
        return self._endpoints.setdefault(key, _Endpoint())

    def try_acquire(self, key: str, limits: EndpointLimits, now: float) -> Decision:
        figures = budget_figures(self.budget, self.spent)
        if figures["reached"]:
            return Decision(False, exhausted=figures)
        ep = self._endpoint(key)
        if now < ep.not_before:
            return Decision(False, wait_s=ep.not_before - now)
        while ep.starts and ep.starts[0] <= now - 60.0:
            ep.starts.popleft()
        if limits.requests_per_minute is not None and len(ep.starts) >= limits.requests_per_minute:
            return Decision(False, wait_s=ep.starts[0] + 60.0 - now)
        if ep.in_flight >= max(1, limits.max_concurrency):
            return Decision(False)
        ep.in_flight += 1
        ep.starts.append(now)
        self.peak_in_flight[key] = max(self.peak_in_flight.get(key, 0), ep.in_flight)
        return Decision(True)

    def release(self, key: str, prompt_tokens: int = 0, completion_tokens: int = 0, usd: float = 0.0) -> None:
        ep = self._endpoint(key)
        ep.in_flight = max(0, ep.in_flight - 1)
        self.spent.prompt_tokens += int(prompt_tokens)
        self.spent.completion_tokens += int(completion_tokens)
        self.spent.usd += float(usd)
        self.spent.calls += 1

    def hold(self, key: str, seconds: float, now: float) -> None:
        """A Retry-After seen by any caller: nobody starts a call on this endpoint before now + seconds."""
        ep = self._endpoint(key)
        ep.not_before = max(ep.not_before, now + max(0.0, seconds))


class SessionLimiter:
    """The actor body (async: waiting callers cost no thread). Created by the driver with
    `start_session_limiter`, found by workers with `install_session_limiter`."""

    def __init__(self, budget: dict[str, Any], spent: dict[str, Any]) -> None:
        self.gate = EndpointGate(BudgetLimits(**budget), Spent(**spent))
        self._changed: Optional[asyncio.Condition] = None

    def _condition(self) -> asyncio.Condition:
        if self._changed is None:
            self._changed = asyncio.Condition()
        return self._changed

    async def acquire(self, key: str, max_concurrency: int, requests_per_minute: Optional[int]) -> Optional[dict]:
        """Waits for a slot; None when granted, the budget figures when refused."""
        limits = EndpointLimits(max_concurrency, requests_per_minute)
        changed = self._condition()
        while True:
            decision = self.gate.try_acquire(key, limits, time.monotonic())
            if decision.granted:
                return None
            if decision.exhausted is not None:
                return decision.exhausted
            async with changed:
                try:
                    await asyncio.wait_for(changed.wait(), timeout=decision.wait_s)
                except asyncio.TimeoutError:
                    pass

    async def release(self, key: str, prompt_tokens: int, completion_tokens: int, usd: float) -> None:
        self.gate.release(key, prompt_tokens, completion_tokens, usd)
        changed = self._condition()
        async with changed:
            changed.notify_all()

    async def hold(self, key: str, seconds: float) -> None:
        self.gate.hold(key, seconds, time.monotonic())

    async def figures(self) -> dict[str, Any]:
        return {**budget_figures(self.gate.budget, self.gate.spent), "peak_in_flight": dict(self.gate.peak_in_flight)}


def limiter_name(session: str) -> str:
    return f"forge-limiter:{session}"


def start_session_limiter(session: str, budget: BudgetLimits, spent: Optional[Spent] = None):
    """The driver's side: the session's limiter actor (a fresh one; a stale one of the name is replaced)."""
    import ray

    name = limiter_name(session)
    with contextlib.suppress(ValueError):
        ray.kill(ray.get_actor(name))
    actor = ray.remote(num_cpus=0, max_restarts=-1)(SessionLimiter).options(name=name).remote(
        asdict(budget), asdict(spent or Spent()))
    ray.get(actor.figures.remote())
    return actor


class RemoteLimiter:
    """A worker's handle: `slot(key, limits)` around each attempt; `hold(key, s)` on a Retry-After."""

    def __init__(self, actor, counts_budget: bool) -> None:
        self.actor = actor
        # With no budget, an in-process model (the surrogate) has no endpoint to protect: it skips the
        # round trip (at N=100 instances, ~500 calls/s would queue on the one actor for nothing).
        self.counts_budget = counts_budget

    def governs(self, network: bool) -> bool:
        """Whether a call to this kind of provider goes through the session limiter."""
        return network or self.counts_budget

    @contextlib.contextmanager
    def slot(self, key: str, limits: EndpointLimits) -> Iterator["_Usage"]:
        import ray

        refused = ray.get(self.actor.acquire.remote(key, limits.max_concurrency, limits.requests_per_minute))
        if refused is not None:
            raise BudgetExhausted(refused)
        usage = _Usage()
        try:
            yield usage
        finally:
            # Fire and forget: the caller need not wait for the bookkeeping; the actor runs calls in order.
            self.actor.release.remote(key, usage.prompt_tokens, usage.completion_tokens, usage.usd)

    def hold(self, key: str, seconds: float) -> None:
        import ray

        # Waited for (only on a 429/503 with Retry-After): once this returns, no worker starts a call early.
        ray.get(self.actor.hold.remote(key, seconds))


@dataclass
class _Usage:
    prompt_tokens: int = 0
    completion_tokens: int = 0
    usd: float = 0.0


_installed: Optional[RemoteLimiter] = None
_installed_lock = threading.Lock()


def install_session_limiter(session: str) -> bool:
    """In a worker: use the session's limiter for every provider built from now on in this process.
    False (nothing installed) outside Ray or when the driver started none."""
    global _installed
    try:
        import ray

        if not ray.is_initialized():
            return False
        actor = ray.get_actor(limiter_name(session))
    except (ImportError, ValueError):
        return False
    figures = ray.get(actor.figures.remote())
    with _installed_lock:
        _installed = RemoteLimiter(actor, counts_budget=BudgetLimits(**figures["limits"]).any)
    return True


def session_limiter() -> Optional[RemoteLimiter]:
    with _installed_lock:
        return _installed


def uninstall_session_limiter() -> None:
    global _installed
    with _installed_lock:
        _installed = None
