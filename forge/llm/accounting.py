"""Token and latency accounting per agent role, and the per-role clients that keep it.

`UsageLedger` records every model call (successful or not). It is thread-safe, and it pickles and
exports to plain dicts, because the protocol ships each Ray actor's ledger back to the driver and
merges them there.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from dataclasses import asdict, dataclass, field, fields
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Optional, Sequence, Union

from forge.config import LEARNER_ROLES, ROLES, ModelConfig, StructuredOutput
from forge.llm.prices import Price, price_for
from forge.llm.replies import usage_keys
from forge.llm.registry import build_provider
from forge.llm.types import REFUSAL, TOOL_CALL, Completion, Message, ModelRefusal, Provider, ProviderError, Usage

if TYPE_CHECKING:
    from forge.config import ForgeConfig


@dataclass(frozen=True)
class CallRecord:
    """One model call as the ledger saw it. `failed`: it raised (after `retries` absorbed failures)."""

    role: str
    model: str
    prompt_tokens: int
    completion_tokens: int
    latency_s: float
    retries: int = 0
    failed: bool = False
    cached_prompt_tokens: int = 0  # of prompt_tokens, served from the endpoint's prefix cache
    replayed: bool = False  # answered from the session record: no model call was made
    reasoning_tokens: int = 0  # of completion_tokens, the model's reasoning / thinking


@dataclass
class RoleUsage:
    """Totals over calls. `calls` includes failed ones, which `failures` counts separately."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_s: float = 0.0
    retries: int = 0
    failures: int = 0
    cached_prompt_tokens: int = 0
    reasoning_tokens: int = 0
    replayed: int = 0  # calls answered from the session record, and their tokens (not paid again)
    replayed_prompt_tokens: int = 0
    replayed_completion_tokens: int = 0

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def add(self, record: CallRecord) -> None:
        self.calls += 1
        self.prompt_tokens += record.prompt_tokens
        self.completion_tokens += record.completion_tokens
        self.latency_s += record.latency_s
        self.retries += record.retries
        self.failures += int(record.failed)
        self.cached_prompt_tokens += record.cached_prompt_tokens
        self.reasoning_tokens += record.reasoning_tokens
        self.replayed += int(record.replayed)
        if record.replayed:
            self.replayed_prompt_tokens += record.prompt_tokens
            self.replayed_completion_tokens += record.completion_tokens

    def __add__(self, other: "RoleUsage") -> "RoleUsage":
        return RoleUsage(**{f.name: getattr(self, f.name) + getattr(other, f.name) for f in fields(RoleUsage)})


# RoleUsage's counts as the session ledger names them (forge.protocol.ledger.StageRecord.tokens): the
# recorded form, read back by the reports.
LEDGER_KEYS = {"prompt_tokens": "prompt", "completion_tokens": "completion", "calls": "calls", "retries": "retries",
               "failures": "failed", "cached_prompt_tokens": "cached_prompt", "reasoning_tokens": "reasoning",
               "replayed": "replayed", "replayed_prompt_tokens": "replayed_prompt",
               "replayed_completion_tokens": "replayed_completion"}


@dataclass(frozen=True)
class UsageTotals:
    """A ledger's totals: per role its usage and what became of its replies (outcome -> count). What a
    unit of work sends back from its worker; added up over units, written to the session ledger as counts."""

    roles: Mapping[str, RoleUsage] = field(default_factory=dict)
    replies: Mapping[str, Mapping[str, int]] = field(default_factory=dict)

    def __add__(self, other: "UsageTotals") -> "UsageTotals":
        roles = dict(self.roles)
        for role, usage in other.roles.items():
            roles[role] = roles[role] + usage if role in roles else usage
        replies = {role: Counter(counts) for role, counts in self.replies.items()}
        for role, counts in other.replies.items():
            replies.setdefault(role, Counter()).update(counts)
        return UsageTotals(roles, {role: dict(counts) for role, counts in replies.items()})

    def ledger_counts(self) -> dict[str, dict[str, int]]:
        """role -> counts under LEDGER_KEYS' names, and the reply outcomes as `reply.<outcome>` keys."""
        return {role: {key: getattr(usage, name) for name, key in LEDGER_KEYS.items()}
                      | usage_keys(self.replies.get(role, {}))
                for role, usage in self.roles.items()}


LedgerLike = Union["UsageLedger", Mapping[str, Any]]


class UsageLedger:
    """Every model call of a session (or of one actor), with running totals per role."""

    def __init__(self, records: Iterable[CallRecord] = (), replies: Mapping[str, Mapping[str, int]] = ()):
        self._lock = threading.Lock()
        self._records: list[CallRecord] = []
        self._by_role: dict[str, RoleUsage] = {}
        # role -> {"used": n, "repaired": n, "repaired: why": n, ...}: what became of the replies
        self._replies: dict[str, Counter] = {role: Counter(counts) for role, counts in dict(replies).items()}
        for record in records:
            self._add(record)

    def note_reply(self, role: str, outcome: str) -> None:
        """What the agent made of a reply: "used", or "repaired|reprompted|fallback: why" (counted under
        the outcome and under the outcome with its reason)."""
        kind = outcome.split(":", 1)[0].strip()
        with self._lock:
            counts = self._replies.setdefault(role, Counter())
            counts[kind] += 1
            if kind != outcome:
                counts[outcome] += 1

    def replies_by_role(self) -> dict[str, dict[str, int]]:
        with self._lock:
            return {role: dict(sorted(c.items())) for role, c in self._replies.items()}

    def __repr__(self) -> str:
        total = self.total()
        return f"UsageLedger(calls={total.calls}, tokens={total.total_tokens}, roles={sorted(self.totals_by_role())})"

    def record(
        self, role: str, completion: Completion, *, latency_s: Optional[float] = None, model: Optional[str] = None
    ) -> CallRecord:
        """Record a successful call; `latency_s` and `model` override the completion's own figures."""
        rec = CallRecord(
            role=role,
            model=completion.model if model is None else model,
            prompt_tokens=completion.usage.prompt_tokens,
            completion_tokens=completion.usage.completion_tokens,
            latency_s=completion.latency_s if latency_s is None else latency_s,
            retries=completion.retries,
            cached_prompt_tokens=completion.usage.cached_prompt_tokens,
            replayed=completion.replayed,
            reasoning_tokens=completion.usage.reasoning_tokens,
        )
        with self._lock:
            self._add(rec)
        return rec

    def record_failure(self, role: str, model: str, *, latency_s: float, retries: int = 0,
                       replayed: bool = False) -> CallRecord:
        rec = CallRecord(role, model, 0, 0, latency_s, retries, failed=True, replayed=replayed)
        with self._lock:
            self._add(rec)
        return rec

    def records(self) -> list[CallRecord]:
        with self._lock:
            return list(self._records)

    def totals_by_role(self) -> dict[str, RoleUsage]:
        with self._lock:
            return {role: RoleUsage(**asdict(usage)) for role, usage in self._by_role.items()}

    def totals(self) -> UsageTotals:
        return UsageTotals(self.totals_by_role(), self.replies_by_role())

    def total(self) -> RoleUsage:
        total = RoleUsage()
        for usage in self.totals_by_role().values():
            total = total + usage
        return total

    def reset(self) -> None:
        with self._lock:
            self._records.clear()
            self._by_role.clear()
            self._replies.clear()

    def merge(self, other: LedgerLike) -> None:
        """Append another ledger's calls (a ledger, or its `to_dict()` export as shipped from an actor)."""
        other = other if isinstance(other, UsageLedger) else UsageLedger.from_dict(other)
        incoming, replies = other.records(), other.replies_by_role()
        with self._lock:
            for record in incoming:
                self._add(record)
            for role, counts in replies.items():
                self._replies.setdefault(role, Counter()).update(counts)

    def to_dict(self) -> dict[str, Any]:
        """Plain lists and numbers only: JSON, MLflow and Ray can all carry it."""
        return {"records": [asdict(r) for r in self.records()], "replies": self.replies_by_role()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "UsageLedger":
        return cls((CallRecord(**r) for r in data.get("records", ())), data.get("replies", {}))

    def __getstate__(self) -> dict[str, Any]:
        return self.to_dict()

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__((CallRecord(**r) for r in state.get("records", ())), state.get("replies", {}))  # type: ignore[misc]

    def _add(self, record: CallRecord) -> None:
        self._records.append(record)
        self._by_role.setdefault(record.role, RoleUsage()).add(record)


class ModelClient:
    """One agent role's handle on its model: the role's model settings, and usage into the ledger."""

    def __init__(self, role: str, provider: Provider, model_cfg: ModelConfig, ledger: UsageLedger,
                 *, structured: bool = False):
        self.role = role
        self.provider = provider
        self.model_cfg = model_cfg
        self.ledger = ledger
        # Whether the provider takes a JSON schema (constrained decoding); agents ask via `structured`.
        self.structured = structured

    def __repr__(self) -> str:
        return f"ModelClient(role={self.role!r}, model={self.model_cfg.model!r}, provider={self.model_cfg.provider!r})"

    def complete(
        self, messages: Sequence[Message], *, seed: Optional[int] = None, stop: Optional[Sequence[str]] = None,
        schema: Optional[Mapping[str, Any]] = None,
    ) -> Completion:
        """`schema`: the JSON schema the reply should match; sent only where the provider constrains decoding."""
        cfg = self.model_cfg
        extra = {"schema": schema} if schema is not None and self.structured else {}
        started = time.perf_counter()
        try:
            completion = self.provider.complete(
                messages, model=cfg.model, temperature=cfg.temperature, max_tokens=cfg.max_tokens, seed=seed, stop=stop,
                **extra,
            )
        except ProviderError as exc:
            self.ledger.record_failure(
                self.role, cfg.model, latency_s=time.perf_counter() - started, retries=exc.retries, replayed=exc.replayed
            )
            raise
        # The ledger keeps the model the role asked for, so totals group by configuration, not by the
        # endpoint's spelling of it (e.g. a dated snapshot name).
        self.ledger.record(self.role, completion, latency_s=time.perf_counter() - started, model=cfg.model)
        declined = declined_reply(completion)
        if declined is not None:
            # Billed, counted, and never read as an empty answer: the caller takes its fallback.
            outcome, message = declined
            self.ledger.note_reply(self.role, outcome)
            raise ModelRefusal(f"{self.role} ({cfg.model}): {message}", completion)
        return completion

    def note_reply(self, outcome: str) -> None:
        self.ledger.note_reply(self.role, outcome)


def model_clients(cfg: "ForgeConfig", ledger: UsageLedger) -> dict[str, ModelClient]:
    """A client for every agent and learner role; roles on the same provider share one provider object."""
    providers: dict[str, Provider] = {}
    clients = {}
    for role in ROLES + LEARNER_ROLES:
        model_cfg = cfg.models.for_role(role)
        if model_cfg.provider not in providers:
            providers[model_cfg.provider] = build_provider(model_cfg.provider, cfg)
        structured = cfg.providers[model_cfg.provider].structured_output != StructuredOutput.none
        clients[role] = ModelClient(role, providers[model_cfg.provider], model_cfg, ledger, structured=structured)
    return clients


def declined_reply(completion: Completion) -> Optional[tuple[str, str]]:
    """(the reply's noted outcome, a message) for a reply with nothing to use: a refusal or block, or a
    tool call without text; None for a reply to read."""
    if completion.finish_reason == REFUSAL:
        raw = (completion.raw_finish_reason or "refusal").lower().replace("_", " ")
        return f"refused: {raw}", f"the model refused or was blocked ({raw}): {(completion.refusal or '')[:200]}"
    if completion.finish_reason == TOOL_CALL and not completion.text.strip():
        return "fallback: a tool call instead of a reply", "the model answered with a tool call, and FORGE offers no tools"
    return None


def role_prices(cfg: "ForgeConfig") -> dict[str, Price]:
    """Every role's price by kind of token (forge.llm.prices: the config's figures, else the dated table)."""
    return {role: price_for(cfg.providers[cfg.models.for_role(role).provider], cfg.models.for_role(role).model)
            for role in ROLES + LEARNER_ROLES}


def cost_by_role(tokens: Mapping[str, Mapping[str, int]], prices: Mapping[str, Price]) -> dict[str, float]:
    """USD per role for usage as the ledger keeps it (`{role: {"prompt": n, "completion": m,
    "cached_prompt": k, "reasoning": r, ...}}`): each kind of token at its price."""
    return {role: prices.get(role, Price()).cost_usd(
                Usage(u.get("prompt", 0), u.get("completion", 0), u.get("cached_prompt", 0), u.get("reasoning", 0)))
            for role, u in tokens.items()}
