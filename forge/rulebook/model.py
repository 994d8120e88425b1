"""The rulebook's data model: a typed graph whose rules are versioned, with provenance, and never lost.

Nodes (immutable, content-addressed; written once):
    DecisionNode  a decision context (e.g. the failing step's observation) and the bounded context
                  before it; its node and accumulated embeddings live beside it, per embedder
    Evidence      one reason to believe a rule (a failure snapshot, a human correction), with a weight
    Actor         who teaches rules: `user:<name>` or `<session>/<instance>`
    Group         what a rule decides about (`Enterprise0/any-compromise`); rules that may contradict
                  each other share it
Rules are the versioned part. A rule's identity is its type, roles and normalised directive; each
change appends a `RuleVersion` whose `RuleRecord` holds the rule's content *and its outgoing edges*:

    FORGED_FROM    rule -> DecisionNode   the trigger
    TAUGHT_BY      rule -> Actor          (one or more: agreeing actors share a rule)
    SUPPORTED_BY   rule -> Evidence
    SUPERSEDES     rule -> Rule           the same actor's earlier rule in the group
    CORRECTS       rule -> Rule           a learned rule an operator corrected at a decision point
    COUNTERED_BY   rule -> Evidence       evidence against the rule (efficacy: harmful after injection)
    CONFLICTS_WITH rule -> Rule           another actor's contradicting rule in the group
    IN_GROUP       rule -> Group

so the graph at any moment is the union of the head records, and every edge change is versioned with
its rule. Withdrawal is a version with status `withdrawn` (a tombstone); restore appends a version that
carries an earlier one's content. A commit changes any number of rules at once and is numbered as one
book version (the global log), with one provenance.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field, fields, replace
from enum import StrEnum
from typing import Any, Iterable, Mapping, Optional

from forge.config import ROLES
from forge.errors import ForgeError
from forge.memory.model import NO_PROVENANCE, Provenance
from forge.memory.text import normalise



class RuleType(StrEnum):
    """FORMAT rules shape a reply and reach every call of their roles; CONTENT rules say what to do."""

    FORMAT = "FORMAT"
    CONTENT = "CONTENT"


class RuleStatus(StrEnum):
    ACTIVE = "active"
    SUPERSEDED = "superseded"  # replaced by a rule of the same decision (kept, never injected)
    WITHDRAWN = "withdrawn"  # taken out by a person; only a restore brings it back


# `revise`: a rule file gave a rule new meaning or words of the same normal form (forge rulebook apply).
RULE_OPS = ("add", "reinforce", "merge", "supersede", "conflict", "withdraw", "restore", "assess", "revise")
# `efficacy`: what happened after the rule was injected (forge rulebook stats --record): supporting
# (SUPPORTED_BY) when the rule helped, counter-evidence (COUNTERED_BY) when it hurt.
EVIDENCE_KINDS = ("failure", "correction", "memory", "efficacy")


class RulebookError(ForgeError):
    """A rulebook problem; the message names the rule, version, actor or spec at fault."""


class UnknownRuleError(RulebookError, KeyError):
    def __init__(self, rule_id: str, hint: str = "") -> None:
        super().__init__(f"no rule {rule_id!r} in the rulebook" + (f" ({hint})" if hint else ""))

    def __str__(self) -> str:
        return self.args[0]


class ConcurrentBookUpdate(RulebookError):
    def __init__(self, expected: int, actual: int) -> None:
        super().__init__(f"the rulebook moved: expected book version {expected}, found {actual}")
        self.expected = expected
        self.actual = actual


def canonical_json(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def short_hash(*parts: str) -> str:
    return hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()[:16]


def rule_id_for(rule_type: str, roles: Iterable[str], directive: str) -> str:
    return short_hash("rule", rule_type, ",".join(sorted(roles)), normalise(directive))


def actor_kind(name: str) -> str:
    return "user" if name.startswith("user:") else "instance"


def check_actor(name: str) -> str:
    """`user:<name>` or `<session>/<instance>`; anything else is refused with the reason."""
    if name.startswith("user:") and len(name) > 5 and not any(ch.isspace() for ch in name):
        return name
    session, slash, instance = name.partition("/")
    if slash and session and instance and "/" not in instance and not any(ch.isspace() for ch in name):
        return name
    raise RulebookError(f"actor {name!r} is neither user:<name> nor <session>/<instance>")


# -- nodes --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DecisionNode:
    text: str  # the decision context at the node
    context: tuple[str, ...] = ()  # the bounded context before it, oldest first
    id: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "context", tuple(self.context))
        object.__setattr__(self, "id", "dn-" + short_hash("decision", self.text, *self.context))

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "decision", "id": self.id, "text": self.text, "context": list(self.context)}


@dataclass(frozen=True)
class Evidence:
    kind: str  # failure | correction | memory | efficacy
    actor: str
    source: str  # a failure id, a memory item, a correction note
    weight: int = 1
    detail: str = ""
    id: str = field(init=False)

    def __post_init__(self) -> None:
        if self.kind not in EVIDENCE_KINDS:
            raise ValueError(f"evidence kind must be one of {', '.join(EVIDENCE_KINDS)}, got {self.kind!r}")
        if self.weight < 1:
            raise ValueError(f"evidence weight must be >= 1, got {self.weight}")
        object.__setattr__(self, "id", "ev-" + short_hash("evidence", self.kind, self.actor, self.source,
                                                           str(self.weight), self.detail))

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "evidence", "id": self.id, "evidence_kind": self.kind, "actor": self.actor,
                "source": self.source, "weight": self.weight, "detail": self.detail}


@dataclass(frozen=True)
class Actor:
    name: str

    @property
    def id(self) -> str:
        return f"actor:{self.name}"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "actor", "id": self.id, "name": self.name, "actor_kind": actor_kind(self.name)}


@dataclass(frozen=True)
class Group:
    name: str

    @property
    def id(self) -> str:
        return f"group:{self.name}"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "group", "id": self.id, "name": self.name}


Node = DecisionNode | Evidence | Actor | Group


def node_from_dict(data: Mapping[str, Any]) -> Node:
    kind = data.get("kind")
    if kind == "decision":
        node: Node = DecisionNode(data["text"], tuple(data.get("context", ())))
    elif kind == "evidence":
        node = Evidence(data["evidence_kind"], data["actor"], data["source"], int(data["weight"]), data.get("detail", ""))
    elif kind == "actor":
        node = Actor(data["name"])
    elif kind == "group":
        node = Group(data["name"])
    else:
        raise RulebookError(f"unreadable rulebook node of kind {kind!r}")
    if node.id != data.get("id"):
        raise RulebookError(f"rulebook node stored as {data.get('id')!r} hashes to {node.id!r}")
    return node


# -- rules --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RuleRecord:
    """One version's content: the directive and the rule's outgoing edges."""

    rule_id: str
    directive: str  # a bare imperative, no justification
    type: RuleType  # a plain string is accepted and converted
    roles: tuple[str, ...]
    group: str
    status: RuleStatus = RuleStatus.ACTIVE  # a plain string is accepted and converted
    trigger: Optional[str] = None  # DecisionNode id (FORGED_FROM); None for FORMAT rules
    actors: tuple[str, ...] = ()  # TAUGHT_BY
    evidence: tuple[str, ...] = ()  # SUPPORTED_BY (Evidence ids)
    support: int = 0  # the summed weight of `evidence`
    supersedes: tuple[str, ...] = ()
    conflicts_with: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()  # memory item ids compiled into this rule
    compiled_by: str = "grammar"  # grammar | model | fallback
    # The rule's meaning (meaning.py): the trigger predicate and the action as their JSON (None: a
    # semantic rule, judged by retrieval alone; why it is semantic is in `semantic_reason`). Records
    # written before rules carried a meaning load without these keys.
    when: Optional[dict] = None
    action: Optional[dict] = None
    semantic_reason: str = ""
    # The part of the rule's condition its predicate does not express (issue 18): non-empty, the rule is
    # guarded: it applies where the predicate holds *and* the context is similar enough to its trigger.
    unexpressed: str = ""
    # Added with efficacy and correction chains; older records load without them.
    counter_evidence: tuple[str, ...] = ()  # COUNTERED_BY (Evidence ids): never counted in `support`
    corrects: tuple[str, ...] = ()  # CORRECTS: learned rules an operator corrected with this one
    # The teacher's own words (the directive may be a compiler's rewrite of them): the gate holds a compiled predicate
    # to what the product reads of them (retrieve.py). "" on records written before, and where the directive is them.
    text: str = ""

    def __post_init__(self) -> None:
        for name in ("roles", "actors", "evidence", "supersedes", "conflicts_with", "sources", "counter_evidence",
                     "corrects"):
            object.__setattr__(self, name, tuple(getattr(self, name)))
        for name, kind in (("type", RuleType), ("status", RuleStatus)):
            try:
                object.__setattr__(self, name, kind(getattr(self, name)))
            except ValueError:
                raise ValueError(f"rule {name} must be one of {', '.join(kind)}, got {getattr(self, name)!r}") from None
        unknown = [r for r in self.roles if r not in ROLES]
        if not self.roles or unknown:
            raise ValueError(f"rule roles must be among {', '.join(ROLES)}, got {list(self.roles)}")
        if not normalise(self.directive):
            raise ValueError("a rule directive is empty")
        for name in ("when", "action"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, dict):
                raise ValueError(f"rule {name} must be a JSON object or null, got {type(value).__name__}")

    __hash__ = None  # type: ignore[assignment]  # `when` / `action` are dicts: records are compared, never hashed

    @property
    def active(self) -> bool:
        return self.status == RuleStatus.ACTIVE

    def with_(self, **changes: Any) -> "RuleRecord":
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        for name in ("roles", "actors", "evidence", "supersedes", "conflicts_with", "sources", "counter_evidence",
                     "corrects"):
            data[name] = list(data[name])
        for name in ("unexpressed", "text"):
            if not data[name]:
                del data[name]  # records without one keep the digest they always had
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "RuleRecord":
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise RulebookError(f"rule record has unknown keys {sorted(unknown)}")
        try:
            return cls(**data)
        except (TypeError, ValueError) as exc:
            raise RulebookError(f"unreadable rule record {data.get('rule_id')!r}: {exc}") from None

    @property
    def digest(self) -> str:
        return hashlib.sha256(canonical_json(self.to_dict()).encode()).hexdigest()

    def edges(self) -> list[tuple[str, str, str]]:
        """(source, edge type, target) triples, targets as node ids (rules by rule id)."""
        out = [(self.rule_id, "IN_GROUP", Group(self.group).id)]
        if self.trigger:
            out.append((self.rule_id, "FORGED_FROM", self.trigger))
        out += [(self.rule_id, "TAUGHT_BY", Actor(a).id) for a in self.actors]
        out += [(self.rule_id, "SUPPORTED_BY", e) for e in self.evidence]
        out += [(self.rule_id, "SUPERSEDES", r) for r in self.supersedes]
        out += [(self.rule_id, "CONFLICTS_WITH", r) for r in self.conflicts_with]
        out += [(self.rule_id, "CORRECTS", r) for r in self.corrects]
        out += [(self.rule_id, "COUNTERED_BY", e) for e in self.counter_evidence]
        return out


@dataclass(frozen=True)
class RuleChange:
    """What a commit does to one rule: its new content, and why."""

    record: RuleRecord
    op: str

    def __post_init__(self) -> None:
        if self.op not in RULE_OPS:
            raise ValueError(f"rule op must be one of {', '.join(RULE_OPS)}, got {self.op!r}")


@dataclass(frozen=True)
class RuleRef:
    """A rule, or one version of it, as traces, reports and commands spell it: `ID` or `ID@vN`."""

    rule_id: str
    number: Optional[int] = None  # None: the rule, whichever version

    @classmethod
    def parse(cls, text: str) -> "RuleRef":
        rule_id, sep, version = str(text).strip().partition("@")
        if not sep:
            return cls(rule_id)
        if not (version.startswith("v") and version[1:].isdigit()):
            raise RulebookError(f"bad rule reference {text!r}: expected ID or ID@vN")
        return cls(rule_id.strip(), int(version[1:]))

    def __str__(self) -> str:
        return self.rule_id if self.number is None else f"{self.rule_id}@v{self.number}"


@dataclass(frozen=True)
class RuleVersion:
    rule_id: str
    number: int
    record: RuleRecord
    op: str
    book_version: int
    provenance: Provenance = NO_PROVENANCE
    created_at: float = 0.0  # wall clock, informational

    @property
    def ref(self) -> str:
        """How injection traces name this exact version."""
        return str(RuleRef(self.rule_id, self.number))

    def to_dict(self) -> dict[str, Any]:
        return {"rule_id": self.rule_id, "number": self.number, "record": self.record.to_dict(), "op": self.op,
                "book_version": self.book_version, "provenance": self.provenance.to_dict(),
                "created_at": self.created_at}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "RuleVersion":
        try:
            return cls(data["rule_id"], int(data["number"]), RuleRecord.from_dict(data["record"]), data["op"],
                       int(data["book_version"]), Provenance.from_dict(data.get("provenance")),
                       float(data.get("created_at", 0.0)))
        except (KeyError, TypeError, ValueError) as exc:
            raise RulebookError(f"unreadable rule version: {exc}") from None


@dataclass(frozen=True)
class BookVersion:
    """One commit: which rule versions it appended, under which provenance."""

    number: int
    op: str
    changes: tuple[tuple[str, int, str], ...]  # (rule id, rule version, rule op)
    provenance: Provenance = NO_PROVENANCE
    note: str = ""
    created_at: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"number": self.number, "op": self.op, "changes": [list(c) for c in self.changes],
                "provenance": self.provenance.to_dict(), "note": self.note, "created_at": self.created_at}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "BookVersion":
        try:
            return cls(int(data["number"]), data["op"], tuple((c[0], int(c[1]), c[2]) for c in data["changes"]),
                       Provenance.from_dict(data.get("provenance")), data.get("note", ""),
                       float(data.get("created_at", 0.0)))
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise RulebookError(f"unreadable book version: {exc}") from None


@dataclass(frozen=True)
class SourceItem:
    """One artifact to compile, with who taught it."""

    kind: str  # rule | example | correction
    role: str
    text: str
    actor: str
    title: Optional[str] = None
    item_id: Optional[str] = None  # the memory item it came from
    support: int = 1


class CompileVerdict(StrEnum):
    """The compiler's decision on one source item (its reply's `verdict`): keep it as a rule or drop it.
    Not a verdict on a rule's effect (`forge.rulebook.outcomes.efficacy.RuleVerdict`)."""

    RULE = "RULE"
    DROP = "DROP"


@dataclass(frozen=True)
class CompiledRule:
    source: SourceItem
    verdict: CompileVerdict
    directive: str = ""
    type: str = RuleType.CONTENT
    roles: tuple[str, ...] = ()
    group: str = ""
    trigger: str = ""  # the situation in words (used when no failure snapshot gives the context)
    compiled_by: str = "grammar"  # grammar | model | fallback
    reason: str = ""  # a DROP's reason
    when: Optional[dict] = None  # the trigger predicate's JSON; None: semantic
    action: Optional[dict] = None  # the action's JSON; None for FORMAT rules and what cannot be expressed
    semantic_reason: str = ""  # why a CONTENT rule has no predicate
    unexpressed: str = ""  # the condition's part the predicate does not express (the rule is then guarded)

    def __post_init__(self) -> None:
        object.__setattr__(self, "verdict", CompileVerdict(self.verdict))

    @property
    def semantic(self) -> bool:
        return self.when is None

    @property
    def kept(self) -> bool:
        return self.verdict is CompileVerdict.RULE
