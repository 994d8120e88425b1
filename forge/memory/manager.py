"""What the protocol calls: every memory change as a new version, with provenance, never a lost update.

Content changes (`edit`, `apply_artifacts`, `delete`, `set_snapshot`) read the head, compute the new
snapshot with a pure function, store it and compare-and-set the head; if another writer moved the head
in between, the whole read-compute-commit is retried on the fresh head, so concurrent writers never
overwrite each other. Pointer moves (`broadcast`, `restore`, `freeze`) point the head at an existing
snapshot. A frozen (graduated) instance refuses both; the store enforces this inside the same atomic
step as the compare-and-set.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Callable, Iterable, Optional

from forge.memory.diff import MemoryDiff, diff_snapshots
from forge.memory.errors import ConcurrentUpdateError, MemoryFrozenError, UnknownInstanceError, UnknownItemError
from forge.memory.model import (
    EMPTY_SNAPSHOT,
    NO_PROVENANCE,
    Artifact,
    MemorySnapshot,
    MemoryVersion,
    Provenance,
)
from forge.memory.policy import ApplyReport, Capacities, apply_items
from forge.memory.store import MemoryStore
from forge.plumbing.retrying import retry_on_conflict

SnapshotChange = Callable[[MemorySnapshot], MemorySnapshot]


class MemoryManager:
    def __init__(self, store: MemoryStore, *, max_attempts: int = 1000) -> None:
        self.store = store
        self.max_attempts = max_attempts
        self._jitter = random.Random()  # only spreads retries out in time; never affects content

    # -- reading -----------------------------------------------------------------------------

    def head(self, instance: str) -> Optional[MemoryVersion]:
        return self.store.head(instance)

    def snapshot(self, instance: str) -> MemorySnapshot:
        """The instance's current memory (empty if it has none yet)."""
        return self._snapshot_of(self.store.head(instance))

    def snapshot_at(self, instance: str, number: int) -> MemorySnapshot:
        return self.store.get_snapshot(self.store.version(instance, number).digest)

    def history(self, instance: str) -> list[MemoryVersion]:
        return self.store.history(instance)

    def version(self, instance: str, number: int) -> MemoryVersion:
        return self.store.version(instance, number)

    def instances(self) -> list[str]:
        return self.store.instances()

    @staticmethod
    def diff(a: MemorySnapshot, b: MemorySnapshot) -> MemoryDiff:
        return diff_snapshots(a, b)

    def diff_versions(self, instance: str, a: int, b: int) -> MemoryDiff:
        return diff_snapshots(self.snapshot_at(instance, a), self.snapshot_at(instance, b))

    # -- content changes ---------------------------------------------------------------------

    def edit(
        self,
        instance: str,
        change: SnapshotChange,
        op: str = "update",
        provenance: Provenance = NO_PROVENANCE,
    ) -> MemoryVersion:
        """Commit `change(current snapshot)` as a new version. `change` must be pure: it is re-run on
        the fresh head after a lost compare-and-set. A change that changes nothing commits nothing and
        returns the current head (an instance without a head still gets its first version)."""

        def attempt() -> MemoryVersion:
            head = self._writable_head(instance)
            before = self._snapshot_of(head)
            after = change(before)
            if head is not None and after.digest == before.digest:
                return head
            return self._commit(instance, head, before, after, op, provenance)

        return self._retrying(attempt)

    def set_snapshot(
        self,
        instance: str,
        snapshot: MemorySnapshot,
        op: str = "init",
        provenance: Provenance = NO_PROVENANCE,
    ) -> MemoryVersion:
        """Make `snapshot` the instance's memory (e.g. to start from an exported memory)."""
        return self.edit(instance, lambda _: snapshot, op, provenance)

    def apply_artifacts(
        self,
        instance: str,
        items: Iterable[Artifact],
        capacities: Capacities = Capacities(),
        provenance: Provenance = NO_PROVENANCE,
        near_duplicate_threshold: float = 0.9,
    ) -> tuple[MemoryVersion, ApplyReport]:
        """Add learned rules/examples by `forge.memory.policy.apply_items` (dedupe, reinforce, evict).
        Artifacts without provenance of their own carry `provenance`."""
        artifacts = [item if item.provenance != NO_PROVENANCE else replace(item, provenance=provenance) for item in items]
        reports: list[ApplyReport] = []

        def change(snapshot: MemorySnapshot) -> MemorySnapshot:
            applied, report = apply_items(
                snapshot, artifacts,
                rules_capacity=capacities.rules,
                examples_capacity=capacities.examples,
                near_duplicate_threshold=near_duplicate_threshold,
            )
            reports.append(report)
            return applied

        version = self.edit(instance, change, "apply", provenance)
        return version, reports[-1]  # the report of the attempt that was committed

    def delete(
        self, instance: str, item_ids: Iterable[str], provenance: Provenance = NO_PROVENANCE, *, withdraw: bool = True
    ) -> MemoryVersion:
        """Tombstone items: gone from the new head, still in older versions. With `withdraw` (a person's
        decision) they are also barred from being re-added; a learner's deletion passes `withdraw=False`,
        because a later failure may rightly teach the same rule again. `UnknownItemError` if the head
        lacks any of them (or the instance has no memory)."""
        ids = list(dict.fromkeys(item_ids))
        if not ids:
            raise ValueError(f"delete from {instance!r}: no item ids given")

        def change(snapshot: MemorySnapshot) -> MemorySnapshot:
            missing = [item_id for item_id in ids if item_id not in snapshot]
            if missing:
                raise UnknownItemError(instance, missing)
            return snapshot.without(ids, withdraw=withdraw)

        return self.edit(instance, change, "delete", provenance)

    # -- pointer moves -----------------------------------------------------------------------

    def broadcast(
        self, source_instance: str, target_instances: Iterable[str], provenance: Provenance = NO_PROVENANCE
    ) -> list[MemoryVersion]:
        """Point every target's head at the source's current snapshot (one digest for all targets,
        read once). Provenance gets actor `broadcast:<source>`. If any target is frozen, nothing is
        written and `MemoryFrozenError` names it."""
        source = self.store.head(source_instance)
        if source is None:
            raise UnknownInstanceError(source_instance)
        targets = list(dict.fromkeys(target_instances))
        if source_instance in targets:
            raise ValueError(f"broadcast: source {source_instance!r} is among its own targets")
        for target in targets:
            head = self.store.head(target)
            if head is not None and head.frozen:
                raise MemoryFrozenError(target, head.number)
        stamped = replace(provenance, actor=f"broadcast:{source_instance}")
        return [self._point(target, source.digest, "broadcast", stamped) for target in targets]

    def restore(self, instance: str, version: int, provenance: Provenance = NO_PROVENANCE) -> MemoryVersion:
        """A new version whose memory is that of `version`; the history keeps everything in between."""
        return self._point(instance, self.store.version(instance, version).digest, "restore", provenance)

    def freeze(self, instance: str, provenance: Provenance = NO_PROVENANCE) -> MemoryVersion:
        """Graduation: the memory stays as it is for good. Freezing a frozen instance returns its head."""
        head = self.store.head(instance)
        if head is not None and head.frozen:
            return head
        digest = head.digest if head is not None else self.store.put_snapshot(EMPTY_SNAPSHOT)
        try:
            return self._point(instance, digest, "freeze", provenance, freeze=True, follow_head=True)
        except MemoryFrozenError:  # a concurrent freeze won; the outcome is the same
            return self.store.head(instance)  # type: ignore[return-value]

    # -- internals ---------------------------------------------------------------------------

    def _point(
        self,
        instance: str,
        digest: str,
        op: str,
        provenance: Provenance,
        *,
        freeze: bool = False,
        follow_head: bool = False,
    ) -> MemoryVersion:
        """Commit a version pointing at the stored snapshot `digest` (`follow_head`: whatever the
        head holds when the commit lands, for freeze)."""

        def attempt() -> MemoryVersion:
            head = self._writable_head(instance)
            before = self._snapshot_of(head)
            target = before if follow_head and head is not None else self.store.get_snapshot(digest)
            return self._commit(instance, head, before, target, op, provenance, freeze=freeze)

        return self._retrying(attempt)

    def _commit(
        self,
        instance: str,
        head: Optional[MemoryVersion],
        before: MemorySnapshot,
        after: MemorySnapshot,
        op: str,
        provenance: Provenance,
        *,
        freeze: bool = False,
    ) -> MemoryVersion:
        self.store.put_snapshot(after)
        change = diff_snapshots(before, after)
        return self.store.commit(
            instance,
            head.number if head is not None else 0,
            after.digest,
            op,
            provenance,
            freeze=freeze,
            added=[item.id for item in change.added],
            removed=[item.id for item in change.removed],
            updated=[c.after.id for c in change.changed],
        )

    def _writable_head(self, instance: str) -> Optional[MemoryVersion]:
        head = self.store.head(instance)
        if head is not None and head.frozen:
            raise MemoryFrozenError(instance, head.number)
        return head

    def _snapshot_of(self, head: Optional[MemoryVersion]) -> MemorySnapshot:
        return EMPTY_SNAPSHOT if head is None else self.store.get_snapshot(head.digest)

    def _retrying(self, attempt: Callable[[], MemoryVersion]) -> MemoryVersion:
        # Jittered, growing pause so that colliding writers fall out of step.
        return retry_on_conflict(attempt, ConcurrentUpdateError, self.max_attempts,
                                 pause=lambda tries: self._jitter.uniform(0, min(0.05, 0.0005 * 2 ** min(tries, 7))))
