"""The memory data model: items, content-hashed snapshots, versions and their provenance.

Everything here is immutable plain data. A snapshot's digest covers every field of every item and the
withdrawn ids, so two snapshots have the same digest exactly when they hold the same memory. Wall-clock
times live only on versions and never enter a digest.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import asdict, dataclass, field, fields, replace
from functools import cached_property
from typing import Any, Iterable, Mapping, Optional

from forge.config import ROLES
from forge.memory.errors import CorruptMemoryError
from forge.memory.text import normalise

KINDS: tuple[str, ...] = ("rule", "example")
OPS: tuple[str, ...] = ("init", "add", "update", "delete", "apply", "broadcast", "freeze", "restore", "supersede")
FORMAT = 1  # of the canonical serialisation; a change of format must change every digest


def canonical_json(data: Any) -> str:
    """The one serialisation that digests are taken over: sorted keys, no spaces, no NaN."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def item_id(kind: str, role: str, text: str) -> str:
    """Stable identity of an item: the same rule or example for the same role always has this id."""
    return sha256_hex(f"{kind}\x1f{role}\x1f{normalise(text)}")[:16]


def _check_keys(cls: type, data: Mapping[str, Any], required: Iterable[str] = ()) -> None:
    known = {f.name for f in fields(cls)}
    unknown = set(data) - known
    missing = set(required) - set(data)
    if unknown or missing:
        problem = f"unknown keys {sorted(unknown)}" if unknown else f"missing keys {sorted(missing)}"
        raise CorruptMemoryError(f"{cls.__name__}: {problem} in {dict(data)!r:.200}")


@dataclass(frozen=True)
class Provenance:
    """Who wrote a memory change and in which circumstances. Every field is optional."""

    instance: Optional[str] = None
    session: Optional[str] = None
    stage: Optional[int] = None
    attempt: Optional[int] = None
    episode_seed: Optional[int] = None
    failing_step: Optional[int] = None
    trigger_reward: Optional[float] = None
    model: Optional[str] = None
    actor: Optional[str] = None  # reflector | exemplifier | user:<name> | broadcast:<instance> | ...

    def __post_init__(self) -> None:
        # Coerce so that equal values serialise, and therefore hash, identically (-2 vs -2.0, numpy ints).
        for name in ("stage", "attempt", "episode_seed", "failing_step"):
            value = getattr(self, name)
            if value is not None:
                object.__setattr__(self, name, int(value))
        for name in ("instance", "session", "model", "actor"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, str):
                raise TypeError(f"Provenance.{name} must be a string, got {type(value).__name__}")
        if self.trigger_reward is not None:
            reward = float(self.trigger_reward)
            if not math.isfinite(reward):
                raise ValueError(f"Provenance.trigger_reward must be finite, got {self.trigger_reward}")
            object.__setattr__(self, "trigger_reward", reward)

    def to_dict(self) -> dict[str, Any]:
        """Only the fields that are set, so that adding a field later keeps old digests."""
        return {key: value for key, value in asdict(self).items() if value is not None}

    @classmethod
    def from_dict(cls, data: Optional[Mapping[str, Any]]) -> "Provenance":
        data = data or {}
        _check_keys(cls, data)
        try:
            return cls(**data)
        except (TypeError, ValueError) as exc:
            raise CorruptMemoryError(f"bad provenance {dict(data)!r:.200}: {exc}") from None

    def __repr__(self) -> str:
        return f"Provenance({', '.join(f'{key}={value!r}' for key, value in self.to_dict().items())})"

    def summary(self) -> str:
        """One line for tables: `actor=reflector stage=2 attempt=1 seed=7 step=11`."""
        labels = {"episode_seed": "seed", "failing_step": "step", "trigger_reward": "reward"}
        return " ".join(f"{labels.get(key, key)}={value}" for key, value in self.to_dict().items())


NO_PROVENANCE = Provenance()


@dataclass(frozen=True)
class MemoryItem:
    """One learned rule or example of one agent role.

    `support` counts how often the item was (re)derived; `seq` is its creation order within the
    instance's lineage (eviction prefers older items among equally supported ones).
    Build new items with `MemoryItem.create`, which derives the id.
    """

    id: str
    kind: str
    role: str
    text: str
    title: Optional[str] = None
    support: int = 1
    seq: int = 0
    provenance: Provenance = NO_PROVENANCE

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"memory item kind must be one of {', '.join(KINDS)}, got {self.kind!r}")
        if self.role not in ROLES:
            raise ValueError(f"memory item role must be one of {', '.join(ROLES)}, got {self.role!r}")
        if not normalise(self.text):
            raise ValueError("memory item text is empty")
        if self.support < 1 or self.seq < 0:
            raise ValueError(f"memory item needs support >= 1 and seq >= 0, got {self.support}, {self.seq}")
        expected = item_id(self.kind, self.role, self.text)
        if self.id != expected:
            raise ValueError(f"memory item id {self.id!r} does not match its content (expected {expected!r})")

    @classmethod
    def create(
        cls,
        kind: str,
        role: str,
        text: str,
        *,
        title: Optional[str] = None,
        support: int = 1,
        seq: int = 0,
        provenance: Provenance = NO_PROVENANCE,
    ) -> "MemoryItem":
        return cls(item_id(kind, role, text), kind, role, text, title, support, seq, provenance)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id, "kind": self.kind, "role": self.role, "text": self.text,
            "support": self.support, "seq": self.seq, "provenance": self.provenance.to_dict(),
        }
        if self.title is not None:
            data["title"] = self.title
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "MemoryItem":
        _check_keys(cls, data, required=("id", "kind", "role", "text"))
        try:
            return cls(**{**data, "provenance": Provenance.from_dict(data.get("provenance"))})
        except (TypeError, ValueError) as exc:
            raise CorruptMemoryError(f"bad memory item {data.get('id')!r}: {exc}") from None

    @cached_property
    def content_hash(self) -> str:
        """Names the item's full content in storage (changes with support, seq, provenance...)."""
        return sha256_hex(canonical_json(self.to_dict()))

    def with_support(self, support: int) -> "MemoryItem":
        return replace(self, support=support)


@dataclass(frozen=True)
class Artifact:
    """A proposed rule or example, as a learner (or a user) wrote it, before memory gives it an identity.

    `MemoryManager.apply_artifacts` turns artifacts into items (or reinforces existing ones).
    """

    kind: str
    role: str
    text: str
    title: Optional[str] = None
    provenance: Provenance = NO_PROVENANCE

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"artifact kind must be one of {', '.join(KINDS)}, got {self.kind!r}")
        if self.role not in ROLES:
            raise ValueError(f"artifact role must be one of {', '.join(ROLES)}, got {self.role!r}")

    @classmethod
    def rule(cls, role: str, text: str, provenance: Provenance = NO_PROVENANCE) -> "Artifact":
        return cls("rule", role, text, None, provenance)

    @classmethod
    def example(cls, role: str, title: str, text: str, provenance: Provenance = NO_PROVENANCE) -> "Artifact":
        return cls("example", role, text, title, provenance)

    @property
    def id(self) -> str:
        """The id the item would have."""
        return item_id(self.kind, self.role, self.text)

    def to_item(self, seq: int) -> MemoryItem:
        return MemoryItem.create(self.kind, self.role, self.text, title=self.title, seq=seq, provenance=self.provenance)


_ROLE_ORDER = {role: index for index, role in enumerate(ROLES)}
_KIND_ORDER = {kind: index for index, kind in enumerate(KINDS)}


def _canonical_order(item: MemoryItem) -> tuple:
    return (_ROLE_ORDER[item.role], _KIND_ORDER[item.kind], item.seq, item.id)


@dataclass(frozen=True)
class MemorySnapshot:
    """An instance's whole memory at one moment; immutable and named by its content digest.

    Items are kept in canonical order (role, kind, seq, id), so insertion order never changes the
    digest. `withdrawn` holds the ids of deleted items: a learner that proposes one of them again is
    refused, so a withdrawn rule is never injected again (until a restore to an older version).
    """

    items: tuple[MemoryItem, ...] = ()
    withdrawn: frozenset[str] = frozenset()
    digest: str = field(init=False, compare=False)

    def __post_init__(self) -> None:
        items = tuple(sorted(self.items, key=_canonical_order))
        ids = [item.id for item in items]
        if len(set(ids)) != len(ids):
            duplicates = sorted({i for i in ids if ids.count(i) > 1})
            raise ValueError(f"a memory snapshot holds each item once; repeated ids {duplicates}")
        object.__setattr__(self, "items", items)
        object.__setattr__(self, "withdrawn", frozenset(self.withdrawn))
        object.__setattr__(self, "digest", sha256_hex(canonical_json(self.record())))

    def record(self) -> dict[str, Any]:
        """What storage keeps for a snapshot (items by content hash) and what the digest is taken over."""
        return {
            "format": FORMAT,
            "items": [item.content_hash for item in self.items],
            "withdrawn": sorted(self.withdrawn),
        }

    def items_for(self, role: Optional[str] = None, kind: Optional[str] = None) -> tuple[MemoryItem, ...]:
        """Items of one role and/or kind, oldest first (seq order)."""
        return tuple(
            item for item in self.items
            if (role is None or item.role == role) and (kind is None or item.kind == kind)
        )

    def count(self, role: Optional[str] = None, kind: Optional[str] = None) -> int:
        return len(self.items_for(role, kind))

    @cached_property
    def by_id(self) -> dict[str, MemoryItem]:
        return {item.id: item for item in self.items}

    def get(self, item_id: str) -> Optional[MemoryItem]:
        return self.by_id.get(item_id)

    def __contains__(self, item_id: object) -> bool:
        return item_id in self.by_id

    def __len__(self) -> int:
        return len(self.items)

    def next_seq(self) -> int:
        """The seq a new item gets: after every item this lineage still holds."""
        return max((item.seq for item in self.items), default=-1) + 1

    def with_items(self, items: Iterable[MemoryItem]) -> "MemorySnapshot":
        """This snapshot with `items` added or replaced (by id)."""
        merged = dict(self.by_id)
        merged.update((item.id, item) for item in items)
        return MemorySnapshot(tuple(merged.values()), self.withdrawn)

    def without(self, item_ids: Iterable[str], *, withdraw: bool = False) -> "MemorySnapshot":
        """This snapshot minus `item_ids`; `withdraw` also bars them from coming back (a deletion)."""
        gone = set(item_ids)
        kept = tuple(item for item in self.items if item.id not in gone)
        return MemorySnapshot(kept, self.withdrawn | gone if withdraw else self.withdrawn)

    def to_dict(self) -> dict[str, Any]:
        """A self-contained export (items in full), checked against `digest` when read back."""
        return {
            "format": FORMAT,
            "digest": self.digest,
            "items": [item.to_dict() for item in self.items],
            "withdrawn": sorted(self.withdrawn),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "MemorySnapshot":
        if data.get("format", FORMAT) != FORMAT:
            raise CorruptMemoryError(f"memory snapshot format {data.get('format')!r} is not {FORMAT}")
        snapshot = cls(
            tuple(MemoryItem.from_dict(item) for item in data.get("items", ())),
            frozenset(data.get("withdrawn", ())),
        )
        if "digest" in data and data["digest"] != snapshot.digest:
            raise CorruptMemoryError(
                f"memory snapshot content hashes to {snapshot.digest}, not to its recorded digest {data['digest']}"
            )
        return snapshot


EMPTY_SNAPSHOT = MemorySnapshot()
EMPTY_DIGEST = EMPTY_SNAPSHOT.digest


@dataclass(frozen=True)
class MemoryVersion:
    """One entry of an instance's history: the head pointed at `digest` from this version on."""

    instance: str
    number: int
    digest: str
    parent_digest: Optional[str]
    op: str
    frozen: bool = False
    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    updated: tuple[str, ...] = ()
    provenance: Provenance = NO_PROVENANCE
    created_at: float = 0.0  # wall clock, informational only: never part of a digest

    def __post_init__(self) -> None:
        if self.op not in OPS:
            raise ValueError(f"memory version op must be one of {', '.join(OPS)}, got {self.op!r}")
        if self.number < 1:
            raise ValueError(f"memory version numbers start at 1, got {self.number}")
        for name in ("added", "removed", "updated"):
            object.__setattr__(self, name, tuple(getattr(self, name)))

    def to_dict(self) -> dict[str, Any]:
        return {
            "instance": self.instance, "number": self.number, "digest": self.digest,
            "parent_digest": self.parent_digest, "op": self.op, "frozen": self.frozen,
            "added": list(self.added), "removed": list(self.removed), "updated": list(self.updated),
            "provenance": self.provenance.to_dict(), "created_at": self.created_at,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "MemoryVersion":
        _check_keys(cls, data, required=("instance", "number", "digest", "op"))
        try:
            return cls(**{**data, "provenance": Provenance.from_dict(data.get("provenance"))})
        except (TypeError, ValueError) as exc:
            raise CorruptMemoryError(f"bad memory version record: {exc}") from None
