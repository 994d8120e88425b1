"""One rate limit per model endpoint and one budget for a whole session, shared by every worker.

A session's driver starts one named Ray actor (`SessionLimiter`); every worker process of the session
finds it by name and installs it (`install_session_limiter`), after which each model-call attempt of
`ResilientProvider` takes a slot from it first and gives it back with the call's token counts.

- An endpoint is `kind + base_url` (never the key): two provider names on one server share its cap.
- Per endpoint: at most `max_concurrency` calls in flight across the session, at most
  `requests_per_minute` starts in any 60 s window, and no start before the "not before" time a
  Retry-After from any caller set.
- Slots are leases (`Lease`): held by a named holder (worker process on its node, and unit of work),
  renewed by the holder's process while the call lives, reclaimed when they expire or when the driver
  reports the holder's process dead. A caller waits at most `slot_wait_s` in all (the deadline travels
  with the request, so a limiter restarted mid-wait keeps it), then `SlotWaitTimeout` names the holders.
- Restarts: every lease is in the ledger, with its endpoint, before its call starts. A limiter Ray
  rebuilds holds each of them on its endpoint until its holder renews it (re-adopted) or it could have
  expired (`lease_s` after the restart), so the cap holds across the restart; a release Ray delivers
  twice is charged once (the second finds no lease). A fresh limiter (a resumed session: every worker
  of the dead one died with it) charges them at once as failed attempts.
- Budget: the limiter keeps the session's running prompt / completion tokens and USD, committed to a
  `SpendingStore` (the session ledger) with the open leases at every change, and starts from it. Once a
  limit is reached it refuses every new call (`BudgetExhausted`); calls already in flight finish, so the
  counted spending exceeds a limit by at most max_concurrency calls per endpoint at their largest cost.
  Failed attempts, reclaimed and orphaned leases are charged at their prompt tokens, shown apart. The
  refusal is not a `ProviderError`: the agents swallow provider errors (an episode survives a failed
  call), but a spent budget must stop the unit.

Why an actor and not Redis: the session already runs on Ray, an actor needs no server of its own, and
its round trip is measured by `scripts/bench/limiter_overhead.py`. Outside Ray (single-process
commands) nothing is installed and `ResilientProvider` keeps its in-process cap only.

`EndpointGate` holds the decisions (pure, tested without Ray); the actor only waits and wakes.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import threading
import time
import uuid
import warnings
from collections import deque
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Iterator, Optional, Protocol

from forge.errors import ForgeError
from forge.plumbing.redact import mask_url


class BudgetExhausted(ForgeError, RuntimeError):
    """The session's budget is spent: no new model call may start. Carries the figures."""

    def __init__(self, figures: dict[str, Any]):
        self.figures = figures
        super().__init__(f"session budget exhausted: {describe_budget(figures)}")

    def __reduce__(self):  # travels from a worker to the driver with its figures
        return (type(self), (self.figures,))


class SlotWaitTimeout(ForgeError, RuntimeError):
    """A caller waited `slot_wait_s` for a slot and got none: names the endpoint and who holds its slots."""

    def __init__(self, message: str):
        self.message = message
        super().__init__(message)

    def __reduce__(self):
        return (type(self), (self.message,))


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
    """A session's spending. The totals include failed attempts; the failed_* figures show them apart."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    usd: float = 0.0
    calls: int = 0
    failed_calls: int = 0  # attempts that raised or timed out, and slots reclaimed from dead holders
    failed_prompt_tokens: int = 0  # charged at their prompt tokens (estimated: the endpoint did not say)
    failed_usd: float = 0.0

    @classmethod
    def of(cls, data: Optional[dict[str, Any]]) -> "Spent":
        known = {f for f in cls.__dataclass_fields__}
        return cls(**{k: v for k, v in (data or {}).items() if k in known})

    def at_least(self, other: "Spent") -> "Spent":
        """Figure by figure the larger: a write of spending never lowers it."""
        return Spent(**{k: max(getattr(self, k), getattr(other, k)) for k in self.__dataclass_fields__})


# lease id -> {"key": endpoint, "holder": ..., "prompt": estimate, "usd": estimate, "prepaid": bool}: the
# calls in flight, each on its endpoint (an entry of an older ledger is [prompt, USD], endpoint unknown).
OpenLeases = dict[str, Any]


class SpendingStore(Protocol):
    """Where the limiter commits spending and the leases in flight (the session ledger). Picklable: Ray
    rebuilds a restarted limiter from its constructor arguments, and the rebuilt one reads from here."""

    def load(self) -> tuple[Spent, OpenLeases]: ...

    def commit(self, spent: Spent, open_leases: OpenLeases) -> Spent:
        """Keep at least `spent` (figure by figure the larger of it and what is kept) and these open
        leases; returns the spending kept."""
        ...


class KeptInMemory:
    """A spending store for tests and single-process use: nothing survives the process."""

    def __init__(self, spent: Optional[Spent] = None) -> None:
        self.spent = spent or Spent()
        self.open_leases: OpenLeases = {}

    def load(self) -> tuple[Spent, OpenLeases]:
        return replace(self.spent), dict(self.open_leases)

    def commit(self, spent: Spent, open_leases: Optional[OpenLeases] = None) -> Spent:
        self.spent = self.spent.at_least(spent)
        self.open_leases = dict(open_leases or {})
        return replace(self.spent)


@dataclass(frozen=True)
class EndpointLimits:
    max_concurrency: int
    requests_per_minute: Optional[int] = None
    slot_wait_s: float = 600.0  # the longest a caller waits for a slot before SlotWaitTimeout


@dataclass(frozen=True)
class Lease:
    """One slot, held by a named holder until released, reclaimed, or expired (not renewed in time)."""

    lease_id: str
    key: str
    holder: str  # "pid 123@host i03 training:2": the worker process and the unit of work
    expires: float  # monotonic
    prompt_estimate: int = 0  # what the call is charged if its holder dies with it in flight
    usd_estimate: float = 0.0
    prepaid: bool = False  # its estimate is charged already (reclaimed or orphaned, then found alive)


@dataclass
class _Endpoint:
    in_flight: int = 0  # anonymous slots (no lease) plus leases
    starts: deque = field(default_factory=deque)  # monotonic start times within the last minute
    not_before: float = 0.0
    reclaimed: int = 0


@dataclass(frozen=True)
class SlotGrant:
    """The gate's answer to one slot request: granted, or not yet (when to look again), or refused for budget."""

    granted: bool
    wait_s: Optional[float] = None  # when not granted: a time to look again (None: when a slot is released)
    exhausted: Optional[dict[str, Any]] = None  # the budget figures, when refused for budget
    abandoned: bool = False  # its caller gave up waiting before this request was answered


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
    shown = {**asdict(spent), "usd": round(spent.usd, 6), "failed_usd": round(spent.failed_usd, 6)}
    return {"spent": shown, "limits": asdict(limits), "reached": reached}


def describe_budget(figures: dict[str, Any]) -> str:
    spent, limits = figures["spent"], figures["limits"]
    parts = [f"prompt tokens {spent['prompt_tokens']}" + (f"/{limits['max_prompt_tokens']}" if limits["max_prompt_tokens"] is not None else ""),
             f"completion tokens {spent['completion_tokens']}" + (f"/{limits['max_completion_tokens']}" if limits["max_completion_tokens"] is not None else ""),
             f"USD {spent['usd']:.4f}" + (f"/{limits['max_usd']:g}" if limits["max_usd"] is not None else "")]
    reached = ", ".join(f"budget.{r}" for r in figures["reached"]) or "none"
    failed = ""
    if spent.get("failed_calls"):
        failed = (f"; of which failed attempts: {spent['failed_calls']} calls, {spent['failed_prompt_tokens']} prompt "
                  f"tokens, USD {spent['failed_usd']:.4f}")
    return f"{'; '.join(parts)}{failed} (reached: {reached})"


class EndpointGate:
    """Slots (leases), request rate, Retry-After holds and the budget, for every endpoint of one session.

    Not thread-safe on its own: the actor calls it from one event loop. Pure: time comes in as `now`."""

    def __init__(self, budget: BudgetLimits = BudgetLimits(), spent: Optional[Spent] = None) -> None:
        self.budget = budget
        self.spent = spent or Spent()
        self._endpoints: dict[str, _Endpoint] = {}
        self.leases: dict[str, Lease] = {}
        # Leases reclaimed (expired, or their holder died), kept so that a late release is not charged twice.
        self._reclaimed: dict[str, Lease] = {}
        # Lease ids whose caller gave up waiting before its grant: a late grant of one would hold a slot for nobody.
        self._abandoned: set[str] = set()
        self.peak_in_flight: dict[str, int] = {}
        self.restored = 0  # leases a restarted limiter took over from the ledger
        self.adopted = 0  # leases it did not hold that a holder renewed (reclaimed ones whose holder lived)

    def _endpoint(self, key: str) -> _Endpoint:
        return self._endpoints.setdefault(key, _Endpoint())

    def try_acquire(self, key: str, limits: EndpointLimits, now: float, lease: Optional[Lease] = None) -> SlotGrant:
        self.reclaim_expired(now)
        if lease is not None and lease.lease_id in self.leases:
            # Ray delivered this request again (to a limiter restarted after granting it): already held.
            held = self.leases[lease.lease_id]
            self.leases[lease.lease_id] = replace(held, expires=max(held.expires, lease.expires))
            return SlotGrant(True)
        if lease is not None and lease.lease_id in self._abandoned:
            self._abandoned.discard(lease.lease_id)
            return SlotGrant(False, abandoned=True)
        figures = budget_figures(self.budget, self.spent)
        if figures["reached"]:
            return SlotGrant(False, exhausted=figures)
        ep = self._endpoint(key)
        if now < ep.not_before:
            return SlotGrant(False, wait_s=ep.not_before - now)
        while ep.starts and ep.starts[0] <= now - 60.0:
            ep.starts.popleft()
        if limits.requests_per_minute is not None and len(ep.starts) >= limits.requests_per_minute:
            return SlotGrant(False, wait_s=ep.starts[0] + 60.0 - now)
        if ep.in_flight >= max(1, limits.max_concurrency):
            expiry = self.next_expiry(key)
            return SlotGrant(False, wait_s=None if expiry is None else max(0.0, expiry - now))
        self._take(ep, key, lease)
        ep.starts.append(now)
        return SlotGrant(True)

    def _take(self, ep: _Endpoint, key: str, lease: Optional[Lease]) -> None:
        ep.in_flight += 1
        if lease is not None:
            self.leases[lease.lease_id] = lease
        self.peak_in_flight[key] = max(self.peak_in_flight.get(key, 0), ep.in_flight)

    def release(self, key: str, prompt_tokens: int = 0, completion_tokens: int = 0, usd: float = 0.0,
                lease_id: Optional[str] = None, failed: bool = False) -> bool:
        """A call ended (`failed`: it raised or timed out; charged what it was given, its prompt tokens).
        False when nothing was charged: a lease this gate no longer knows was released already (Ray
        delivers a release again when the limiter died before acknowledging it)."""
        held = self.leases.pop(lease_id, None) if lease_id else None
        reclaimed = self._reclaimed.pop(lease_id, None) if lease_id else None
        if lease_id is not None and held is None and reclaimed is None:
            return False
        if held is not None or lease_id is None:
            ep = self._endpoint(key)
            ep.in_flight = max(0, ep.in_flight - 1)
        paid = held if held is not None and held.prepaid else reclaimed
        if paid is not None:
            # Its estimate was charged when it was reclaimed; the holder lived after all: charge the rest.
            self._charge(max(0, int(prompt_tokens) - paid.prompt_estimate), int(completion_tokens),
                         max(0.0, float(usd) - paid.usd_estimate), calls=0, failed=failed)
            return True
        self._charge(int(prompt_tokens), int(completion_tokens), float(usd), calls=1, failed=failed)
        return True

    def _charge(self, prompt_tokens: int, completion_tokens: int, usd: float, calls: int, failed: bool) -> None:
        self.spent.prompt_tokens += prompt_tokens
        self.spent.completion_tokens += completion_tokens
        self.spent.usd += usd
        self.spent.calls += calls
        if failed:
            self.spent.failed_calls += calls
            self.spent.failed_prompt_tokens += prompt_tokens
            self.spent.failed_usd += usd

    def renew(self, lease_ids: list[str], leases: list[Lease], now: float, lease_s: float) -> int:
        """Extends the named leases. A lease this gate does not hold was reclaimed while its holder lived
        (it renewed too late): its call is in flight, so it is adopted and its slot counts again (no new
        call starts until the endpoint is under its cap). Returns how many were adopted."""
        adopted = 0
        for lease in leases:
            held = self.leases.get(lease.lease_id)
            if held is not None:
                self.leases[lease.lease_id] = replace(held, expires=now + lease_s)
                continue
            paid = self._reclaimed.pop(lease.lease_id, None)  # charged already: its slot counts again
            if paid is None:
                continue  # released already (a renewal that crossed its release): nothing in flight
            self._take(self._endpoint(paid.key), paid.key, replace(paid, expires=now + lease_s, prepaid=True))
            adopted += 1
        self.adopted += adopted
        return adopted

    def restore(self, open_leases: OpenLeases, now: float, lease_s: float) -> int:
        """A restarted limiter takes over the leases its predecessor had open: each holds its slot on its
        endpoint until its holder renews it or until `now + lease_s`, when it could have expired (its last
        renewal was before the restart). One whose endpoint is unknown (an older ledger) cannot hold a
        slot: it is charged as an orphan."""
        unknown = {}
        for lease_id, entry in open_leases.items():
            lease = lease_from_ledger(lease_id, entry, expires=now + lease_s)
            if lease.key == UNKNOWN_ENDPOINT:
                unknown[lease_id] = entry
                continue
            self._take(self._endpoint(lease.key), lease.key, lease)
            self.restored += 1
        self.charge_orphans(unknown)
        return len(open_leases) - len(unknown)

    def charge_orphans(self, open_leases: OpenLeases) -> int:
        """Leases a dead session had open (a fresh limiter: their holders died with it): each call is
        charged its estimate now, as a failed attempt; if its holder still lives, its renewal or release
        finds it (charged the rest only)."""
        for lease_id, entry in open_leases.items():
            lease = lease_from_ledger(lease_id, entry, expires=0.0)
            if not lease.prepaid:
                self._charge(lease.prompt_estimate, 0, lease.usd_estimate, calls=1, failed=True)
            self._reclaimed[lease_id] = replace(lease, prepaid=True)
        return len(open_leases)

    def open_leases(self) -> OpenLeases:
        return {i: {"key": lease.key, "holder": lease.holder, "prompt": lease.prompt_estimate,
                    "usd": lease.usd_estimate, "prepaid": lease.prepaid} for i, lease in self.leases.items()}

    def abandon(self, lease_id: str) -> bool:
        """The caller gave up waiting for this lease (its call never started): a held one frees its slot
        uncharged; one not granted yet never will be. True when a slot came back."""
        lease = self.leases.pop(lease_id, None)
        if lease is None:
            self._abandoned.add(lease_id)
            return False
        ep = self._endpoint(lease.key)
        ep.in_flight = max(0, ep.in_flight - 1)
        return True

    def reclaim(self, lease_ids: list[str]) -> list[Lease]:
        """Takes the slots back, charging each call its prompt estimate as a failed attempt."""
        taken = []
        for lease_id in lease_ids:
            lease = self.leases.pop(lease_id, None)
            if lease is None:
                continue
            ep = self._endpoint(lease.key)
            ep.in_flight = max(0, ep.in_flight - 1)
            ep.reclaimed += 1
            if not lease.prepaid:
                self._charge(lease.prompt_estimate, 0, lease.usd_estimate, calls=1, failed=True)
            self._reclaimed[lease_id] = replace(lease, prepaid=True)
            taken.append(lease)
        return taken

    def reclaim_expired(self, now: float) -> list[Lease]:
        return self.reclaim([i for i, lease in self.leases.items() if lease.expires <= now])

    def reclaim_holder(self, process: str) -> list[Lease]:
        """The driver learned that a worker process died (`process`: as `worker_process` named it, pid and
        node): every slot it held comes back now; a process of the same pid on another node keeps its own."""
        prefix = holder_prefix(process)
        return self.reclaim([i for i, lease in self.leases.items() if lease.holder.startswith(prefix)])

    def next_expiry(self, key: Optional[str] = None) -> Optional[float]:
        times = [lease.expires for lease in self.leases.values() if key is None or lease.key == key]
        return min(times) if times else None

    def describe_holders(self, key: str) -> str:
        held = sorted(lease.holder for lease in self.leases.values() if lease.key == key)
        anonymous = self._endpoint(key).in_flight - len(held)
        names = held + ([f"{anonymous} without a named holder"] if anonymous > 0 else [])
        return f"{self._endpoint(key).in_flight} slot(s) held by: {'; '.join(names) or 'nobody'}"

    def reclaimed_counts(self) -> dict[str, int]:
        return {key: ep.reclaimed for key, ep in self._endpoints.items() if ep.reclaimed}

    def hold(self, key: str, seconds: float, now: float) -> None:
        """A Retry-After seen by any caller: nobody starts a call on this endpoint before now + seconds."""
        ep = self._endpoint(key)
        ep.not_before = max(ep.not_before, now + max(0.0, seconds))

    def held_back(self, now: float) -> dict[str, float]:
        """Seconds left of each endpoint's Retry-After hold (those still holding)."""
        return {key: round(ep.not_before - now, 3) for key, ep in self._endpoints.items() if ep.not_before > now}


UNKNOWN_ENDPOINT = "?"


def lease_from_ledger(lease_id: str, entry: Any, expires: float) -> Lease:
    """A lease as the ledger keeps it (`OpenLeases`); an older ledger's [prompt, USD] has no endpoint."""
    if isinstance(entry, dict):
        return Lease(lease_id, str(entry.get("key", UNKNOWN_ENDPOINT)), str(entry.get("holder", "")), expires,
                     int(entry.get("prompt", 0)), float(entry.get("usd", 0.0)), bool(entry.get("prepaid", False)))
    prompt, usd = entry
    return Lease(lease_id, UNKNOWN_ENDPOINT, "(a limiter before a restart)", expires, int(prompt), float(usd))


class SessionLimiter:
    """The actor body (async: waiting callers cost no thread). Created by the driver with
    `start_session_limiter`, found by workers with `install_session_limiter`.

    Spending comes from `store` (the session ledger), never from the constructor arguments, and every
    charge is committed to it before the charge is acknowledged, every lease before its call starts: a
    limiter Ray restarts resumes from what was committed and holds the leases still open (`restore`)."""

    def __init__(self, budget: dict[str, Any], store: SpendingStore, lease_s: float = 30.0,
                 restarted: Optional[bool] = None) -> None:
        """`restarted`: None asks Ray whether this actor is being rebuilt after a death."""
        self.store = store
        self.lease_s = lease_s
        spent, open_leases = store.load()
        self.gate = EndpointGate(BudgetLimits(**budget), spent)
        restarted = _reconstructed() if restarted is None else restarted
        if restarted:
            # Their holders may live (only this actor died): each slot stays held until renewed or expired.
            self.orphans_charged = 0
            self.gate.restore(open_leases, time.monotonic(), lease_s)
        else:
            # A new session limiter (a resumed session): the calls in flight died with the last one, charged now.
            self.orphans_charged = self.gate.charge_orphans(open_leases)
        self._commit()
        self._changed: Optional[asyncio.Condition] = None

    def _condition(self) -> asyncio.Condition:
        if self._changed is None:
            self._changed = asyncio.Condition()
        return self._changed

    def _commit(self) -> None:
        self.gate.spent = self.store.commit(self.gate.spent, self.gate.open_leases())

    async def _wake(self) -> None:
        changed = self._condition()
        async with changed:
            changed.notify_all()

    async def acquire(self, key: str, max_concurrency: int, requests_per_minute: Optional[int], slot_wait_s: float,
                      lease_id: str, holder: str, prompt_estimate: int, usd_estimate: float,
                      deadline: Optional[float] = None) -> dict[str, Any]:
        """Waits for a slot until `deadline` (wall-clock, set by the caller: Ray delivers this request
        again to a restarted limiter, which must not start the wait over; None: `slot_wait_s` from now):
        {"granted": True}, or {"exhausted": figures} when refused for budget, or {"timeout": message}
        naming the endpoint and the slots' holders."""
        limits = EndpointLimits(max_concurrency, requests_per_minute, slot_wait_s)
        changed = self._condition()
        left_at_start = slot_wait_s if deadline is None else deadline - time.time()
        ends = time.monotonic() + left_at_start
        while True:
            now = time.monotonic()
            before = self.gate.spent.calls
            lease = Lease(lease_id, key, holder, now + self.lease_s, prompt_estimate, usd_estimate)
            decision = self.gate.try_acquire(key, limits, now, lease)
            if self.gate.spent.calls != before:  # expired leases were charged
                self._commit()
            if decision.granted:
                self._commit()  # the lease is in the journal before its call starts
                return {"granted": True}
            if decision.exhausted is not None:
                return {"exhausted": decision.exhausted}
            left = ends - now
            if left <= 0 or decision.abandoned:
                return {"timeout": (f"no slot on endpoint {key} within slot_wait_s={slot_wait_s:g} s "
                                    f"(max_concurrency={max_concurrency}): {self.gate.describe_holders(key)}")}
            async with changed:
                try:
                    await asyncio.wait_for(changed.wait(), timeout=min(x for x in (decision.wait_s, left) if x is not None))
                except asyncio.TimeoutError:
                    pass

    async def release(self, key: str, prompt_tokens: int, completion_tokens: int, usd: float,
                      lease_id: Optional[str] = None, failed: bool = False) -> None:
        if self.gate.release(key, prompt_tokens, completion_tokens, usd, lease_id, failed):
            self._commit()
            await self._wake()

    async def abandon(self, lease_id: str) -> None:
        """The caller stopped waiting for `lease_id` (its own bound ran out first)."""
        if self.gate.abandon(lease_id):
            self._commit()
            await self._wake()

    async def renew(self, leases: list[dict[str, Any]]) -> int:
        adopted = self.gate.renew([l["lease_id"] for l in leases], [Lease(**l) for l in leases],
                                  time.monotonic(), self.lease_s)
        if adopted:
            self._commit()
        return adopted

    async def reclaim_holder(self, process: str) -> int:
        """The driver's call when a worker process died: its slots come back now, its calls charged as failed."""
        taken = self.gate.reclaim_holder(process)
        if taken:
            self._commit()
            await self._wake()
        return len(taken)

    async def hold(self, key: str, seconds: float) -> None:
        self.gate.hold(key, seconds, time.monotonic())

    async def figures(self) -> dict[str, Any]:
        now = time.monotonic()
        if self.gate.reclaim_expired(now):
            self._commit()
            await self._wake()
        return {**budget_figures(self.gate.budget, self.gate.spent), "peak_in_flight": dict(self.gate.peak_in_flight),
                "reclaimed": self.gate.reclaimed_counts(), "lease_s": self.lease_s, "pid": os.getpid(),
                "orphans_charged": self.orphans_charged, "restored": self.gate.restored, "adopted": self.gate.adopted,
                "held_back": self.gate.held_back(now),
                "held": {lease.lease_id: lease.holder for lease in self.gate.leases.values()}}


def renew_every(lease_s: float) -> float:
    """How often a caller renews its leases: three chances before one expires."""
    return lease_s / 3.0


def _reconstructed() -> bool:
    try:
        import ray

        with warnings.catch_warnings():  # Ray's own property reads its deprecated `actor_id`: a warning on stderr
            warnings.simplefilter("ignore", DeprecationWarning)
            return ray.is_initialized() and ray.get_runtime_context().was_current_actor_reconstructed
    except Exception:  # noqa: BLE001 - outside an actor: a plain first start
        return False


def limiter_name(session: str) -> str:
    return f"forge-limiter:{session}"


def start_session_limiter(session: str, budget: BudgetLimits, store: Optional[SpendingStore] = None,
                          lease_s: float = 30.0):
    """The driver's side: the session's limiter actor (a fresh one; a stale one of the name is replaced).
    Ray restarts it if it dies (spending from `store`) and redelivers the calls it had not answered."""
    import ray

    name = limiter_name(session)
    with contextlib.suppress(ValueError):
        ray.kill(ray.get_actor(name))
    actor = ray.remote(num_cpus=0, max_restarts=-1, max_task_retries=-1)(SessionLimiter).options(name=name).remote(
        asdict(budget), store or KeptInMemory(), lease_s)
    ray.get(actor.figures.remote())
    return actor


def worker_process() -> str:
    """This process as its leases' holder names it: its pid on its host and Ray node (a pid alone repeats
    across the nodes of a cluster; so can a host name, across containers)."""
    return f"pid {os.getpid()} on {socket.gethostname()} node {_node_id()}"


def holder_prefix(process: str) -> str:
    """The start of every holder name a worker process (`worker_process`) gives its leases."""
    return f"{process}: "


def _node_id() -> str:
    try:
        import ray

        if ray.is_initialized():
            return ray.get_runtime_context().get_node_id()[:16]
    except Exception:  # noqa: BLE001 - outside Ray: the host alone names the node
        pass
    return "-"


_unit = threading.local()


@contextlib.contextmanager
def holding_for(unit: str) -> Iterator[None]:
    """Names the unit of work (instance, phase, stage) the calls made in this thread are for."""
    previous = getattr(_unit, "name", None)
    _unit.name = unit
    try:
        yield
    finally:
        _unit.name = previous


def _holder() -> str:
    return f"{holder_prefix(worker_process())}{getattr(_unit, 'name', None) or threading.current_thread().name}"


class _Renewer:
    """One thread per worker process that renews the leases of its calls in flight, in one round trip."""

    def __init__(self, actor, lease_s: float) -> None:
        self.actor = actor
        self.every = renew_every(lease_s)
        self._live: dict[str, Lease] = {}
        self._lock = threading.Lock()
        self._thread: Optional[threading.Thread] = None

    def add(self, lease: Lease) -> None:
        with self._lock:
            self._live[lease.lease_id] = lease
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="forge-lease-renewer", daemon=True)
                self._thread.start()

    def remove(self, lease_id: str) -> None:
        with self._lock:
            self._live.pop(lease_id, None)

    def _run(self) -> None:
        import ray

        while True:
            time.sleep(self.every)
            with self._lock:
                live = [asdict(lease) for lease in self._live.values()]
            if live:
                with contextlib.suppress(Exception):  # a restarting limiter: the next round renews
                    ray.get(self.actor.renew.remote(live), timeout=self.every)


# How long past `slot_wait_s` a caller waits for the limiter's own answer (its timeout) to arrive.
ANSWER_GRACE_S = 2.0


class RemoteLimiter:
    """A worker's handle: `slot(key, limits)` around each attempt; `hold(key, s)` on a Retry-After."""

    def __init__(self, actor, counts_budget: bool, lease_s: float = 30.0) -> None:
        self.actor = actor
        # With no budget, an in-process model (the surrogate) has no endpoint to protect: it skips the
        # round trip (at N=100 instances, ~500 calls/s would queue on the one actor for nothing).
        self.counts_budget = counts_budget
        self._renewer = _Renewer(actor, lease_s)

    def governs(self, network: bool) -> bool:
        """Whether a call to this kind of provider goes through the session limiter."""
        return network or self.counts_budget

    @contextlib.contextmanager
    def slot(self, key: str, limits: EndpointLimits, prompt_estimate: int = 0, usd_estimate: float = 0.0) -> Iterator["_Usage"]:
        """A leased slot for one attempt. If the attempt raises, it is charged as failed at the usage set
        by the caller (its prompt tokens). Waits at most `limits.slot_wait_s`, then SlotWaitTimeout."""
        import ray

        lease = Lease(uuid.uuid4().hex, key, _holder(), 0.0, prompt_estimate, usd_estimate)
        request = self.actor.acquire.remote(
            key, limits.max_concurrency, limits.requests_per_minute, limits.slot_wait_s,
            lease.lease_id, lease.holder, prompt_estimate, usd_estimate, deadline=time.time() + limits.slot_wait_s)
        try:
            # The limiter answers by the deadline; this bound holds when it cannot (restarting, unreachable).
            answer = ray.get(request, timeout=limits.slot_wait_s + ANSWER_GRACE_S)
        except ray.exceptions.GetTimeoutError:
            self.actor.abandon.remote(lease.lease_id)  # a grant that comes later holds no slot for nobody
            raise SlotWaitTimeout(f"no answer from the session limiter about a slot on endpoint {key} within "
                                  f"slot_wait_s={limits.slot_wait_s:g} s (+{ANSWER_GRACE_S:g} s): it is restarting "
                                  f"or unreachable") from None
        if "exhausted" in answer:
            raise BudgetExhausted(answer["exhausted"])
        if "timeout" in answer:
            raise SlotWaitTimeout(answer["timeout"])
        self._renewer.add(lease)
        usage = _Usage(prompt_tokens=prompt_estimate, usd=usd_estimate)
        failed = True
        try:
            yield usage
            failed = False
        finally:
            self._renewer.remove(lease.lease_id)
            # Fire and forget: the caller need not wait for the bookkeeping; the actor runs calls in order,
            # and redelivers this one if it restarts before running it (max_task_retries).
            self.actor.release.remote(key, usage.prompt_tokens, usage.completion_tokens if not failed else 0,
                                      usage.usd, lease.lease_id, failed)

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
        _installed = RemoteLimiter(actor, counts_budget=BudgetLimits(**figures["limits"]).any,
                                   lease_s=figures["lease_s"])
    return True


def session_limiter() -> Optional[RemoteLimiter]:
    with _installed_lock:
        return _installed


def uninstall_session_limiter() -> None:
    global _installed
    with _installed_lock:
        _installed = None
