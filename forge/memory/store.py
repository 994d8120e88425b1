"""The memory store contract, and what every backend shares.

A store keeps two things:
- snapshots, content-addressed: each item body once under its content hash, and per snapshot a small
  record listing item hashes, so re-versioning a memory writes only the items that changed;
- per instance, an append-only list of `MemoryVersion`s whose last entry is the head. The head moves
  only by compare-and-set (`commit`), atomically with the check that the instance is not frozen.

Instance ids are opaque strings. Backends: `SqliteMemoryStore`, `RedisMemoryStore`; `open_store`
picks one from a spec.
"""

from __future__ import annotations

import json
import threading
import time
from abc import ABC, abstractmethod
from collections import OrderedDict
from typing import Any, Iterable, Mapping, Optional, Sequence

from forge.memory.errors import (
    ConcurrentUpdateError,
    CorruptMemoryError,
    MemoryFrozenError,
    UnknownInstanceError,
    UnknownVersionError,
)
from forge.memory.model import (
    NO_PROVENANCE,
    MemoryItem,
    MemorySnapshot,
    MemoryVersion,
    Provenance,
    canonical_json,
)


def next_version(
    instance: str,
    head: Optional[MemoryVersion],
    expected_version: int,
    digest: str,
    op: str,
    provenance: Provenance,
    *,
    freeze: bool,
    added: Sequence[str],
    removed: Sequence[str],
    updated: Sequence[str],
) -> MemoryVersion:
    """The version a commit appends, or the reason it may not: the one decision every backend makes
    inside its transaction. A frozen head wins over a stale expectation (it is the lasting reason)."""
    actual = head.number if head is not None else 0
    if head is not None and head.frozen:
        raise MemoryFrozenError(instance, head.number)
    if actual != expected_version:
        raise ConcurrentUpdateError(instance, expected_version, actual)
    return MemoryVersion(
        instance=instance,
        number=actual + 1,
        digest=digest,
        parent_digest=head.digest if head is not None else None,
        op=op,
        frozen=freeze,
        added=tuple(added),
        removed=tuple(removed),
        updated=tuple(updated),
        provenance=provenance,
        created_at=time.time(),
    )


def encode_version(version: MemoryVersion) -> str:
    return canonical_json(version.to_dict())


def decode_version(raw: str | bytes) -> MemoryVersion:
    try:
        return MemoryVersion.from_dict(json.loads(raw))
    except ValueError as exc:
        raise CorruptMemoryError(f"unreadable memory version record: {exc}") from None


def encode_item(item: MemoryItem) -> str:
    return canonical_json(item.to_dict())


def snapshot_from_storage(digest: str, record: str | bytes, bodies: Mapping[str, Optional[str | bytes]]) -> MemorySnapshot:
    """Rebuild a snapshot from its record and item bodies, checking that it hashes to `digest`."""
    try:
        data = json.loads(record)
        missing = [h for h in data["items"] if bodies.get(h) is None]
        if missing:
            raise CorruptMemoryError(f"memory snapshot {digest} references missing items {missing[:3]}")
        items = tuple(MemoryItem.from_dict(json.loads(bodies[h])) for h in data["items"])
        snapshot = MemorySnapshot(items, frozenset(data.get("withdrawn", ())))
    except (ValueError, KeyError, TypeError) as exc:
        raise CorruptMemoryError(f"unreadable memory snapshot {digest}: {exc}") from None
    if snapshot.digest != digest:
        raise CorruptMemoryError(f"memory snapshot stored as {digest} hashes to {snapshot.digest}")
    return snapshot


class MemoryStore(ABC):
    """Content-addressed snapshots plus per-instance version lists with a compare-and-set head.

    Safe to share between threads; every process opens its own.
    """

    namespace: str

    def __init__(self, namespace: str) -> None:
        self.namespace = namespace
        # Snapshots are immutable, so a digest -> snapshot cache never goes stale.
        self._cache: OrderedDict[str, MemorySnapshot] = OrderedDict()
        self._cache_lock = threading.Lock()

    # -- snapshots ---------------------------------------------------------------------------

    def put_snapshot(self, snapshot: MemorySnapshot) -> str:
        """Store `snapshot` (idempotent) and return its digest."""
        if self._cached(snapshot.digest) is None:
            self._put_snapshot(snapshot)
            self._remember(snapshot)
        return snapshot.digest

    def get_snapshot(self, digest: str) -> MemorySnapshot:
        """The snapshot named `digest`; `UnknownSnapshotError` if the store has none."""
        snapshot = self._cached(digest)
        if snapshot is None:
            snapshot = self._get_snapshot(digest)
            self._remember(snapshot)
        return snapshot

    def has_snapshot(self, digest: str) -> bool:
        return self._cached(digest) is not None or self._has_snapshot(digest)

    def _cached(self, digest: str) -> Optional[MemorySnapshot]:
        with self._cache_lock:
            snapshot = self._cache.get(digest)
            if snapshot is not None:
                self._cache.move_to_end(digest)
            return snapshot

    def _remember(self, snapshot: MemorySnapshot) -> None:
        with self._cache_lock:
            self._cache[snapshot.digest] = snapshot
            while len(self._cache) > 128:
                self._cache.popitem(last=False)

    # -- versions ----------------------------------------------------------------------------

    def commit(
        self,
        instance: str,
        expected_version: int,
        new_digest: str,
        op: str,
        provenance: Provenance = NO_PROVENANCE,
        *,
        freeze: bool = False,
        added: Iterable[str] = (),
        removed: Iterable[str] = (),
        updated: Iterable[str] = (),
    ) -> MemoryVersion:
        """Append a version pointing at `new_digest` if the head is still `expected_version` (0: none).

        Raises `ConcurrentUpdateError` if the head moved, `MemoryFrozenError` if the instance is
        frozen, `UnknownSnapshotError` if `new_digest` was never stored (put it first).
        """
        if not isinstance(instance, str) or not instance:
            raise ValueError(f"an instance id is a non-empty string, got {instance!r}")
        return self._commit(
            instance, expected_version, new_digest, op, provenance,
            freeze=freeze, added=tuple(added), removed=tuple(removed), updated=tuple(updated),
        )

    def version(self, instance: str, number: int) -> MemoryVersion:
        """Version `number` (1-based) of `instance`; `UnknownInstanceError` / `UnknownVersionError`."""
        found = self._version(instance, number) if number >= 1 else None
        if found is None:
            head = self.head(instance)
            if head is None:
                raise UnknownInstanceError(instance)
            raise UnknownVersionError(instance, number, head.number)
        return found

    @abstractmethod
    def head(self, instance: str) -> Optional[MemoryVersion]:
        """The latest version of `instance`, or None if it has none."""

    @abstractmethod
    def history(self, instance: str) -> list[MemoryVersion]:
        """Every version of `instance`, oldest first (empty if none)."""

    @abstractmethod
    def instances(self) -> list[str]:
        """Every instance with at least one version, sorted."""

    @abstractmethod
    def close(self) -> None: ...

    def __enter__(self) -> "MemoryStore":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # -- what a backend implements -----------------------------------------------------------

    @abstractmethod
    def _put_snapshot(self, snapshot: MemorySnapshot) -> None:
        """Write missing item bodies and the snapshot record in one atomic step."""

    @abstractmethod
    def _get_snapshot(self, digest: str) -> MemorySnapshot: ...

    @abstractmethod
    def _has_snapshot(self, digest: str) -> bool: ...

    @abstractmethod
    def _version(self, instance: str, number: int) -> Optional[MemoryVersion]: ...

    @abstractmethod
    def _commit(
        self,
        instance: str,
        expected_version: int,
        new_digest: str,
        op: str,
        provenance: Provenance,
        *,
        freeze: bool,
        added: tuple[str, ...],
        removed: tuple[str, ...],
        updated: tuple[str, ...],
    ) -> MemoryVersion:
        """Atomically: read the head, check `new_digest` is stored, `next_version`, append."""
