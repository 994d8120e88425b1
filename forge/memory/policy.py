"""How proposed artifacts enter a memory: deduplication, reinforcement, capacity and eviction. Pure.

For each proposal, in order:
1. empty text, or the id of a withdrawn (deleted) item: rejected, with the reason;
2. the same normalised text as an item of the same role and kind: that item's support grows by one;
3. a near duplicate (`forge.memory.text.similarity` >= threshold) of an item of the same role and
   kind: the most similar one (then the oldest) has its support grow by one;
4. otherwise the proposal becomes a new item with the next seq. If its (role, kind) is then over
   capacity, items are evicted in `eviction_key` order, lowest support first, then oldest seq,
   then id, never the item just added. Unlike a FIFO cut, a rule that keeps being re-derived
   survives a stream of one-off rules.
Nothing is dropped silently: the report lists what was added, reinforced, evicted and rejected.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Optional

from forge.memory.model import Artifact, MemoryItem, MemorySnapshot
from forge.memory.text import normalise, similarity


@dataclass(frozen=True)
class Capacities:
    """Most items per role and kind (paper: 100 rules and 50 examples per agent role)."""

    rules: int = 100
    examples: int = 50

    def __post_init__(self) -> None:
        if self.rules < 1 or self.examples < 1:
            raise ValueError(f"memory capacities must be >= 1, got rules={self.rules} examples={self.examples}")

    @classmethod
    def from_config(cls, memory_config: Any) -> "Capacities":
        """From a `forge.config.MemoryConfig`."""
        return cls(memory_config.rules_capacity, memory_config.examples_capacity)

    def of(self, kind: str) -> int:
        return self.rules if kind == "rule" else self.examples


@dataclass(frozen=True)
class Reinforcement:
    item_id: str
    proposed_text: str
    similarity: float  # 1.0 for an exact (normalised) duplicate
    support: int  # after the increment


@dataclass(frozen=True)
class Eviction:
    item: MemoryItem
    displaced_by: str  # id of the item whose addition went over capacity
    reason: str


@dataclass(frozen=True)
class Rejection:
    artifact: Artifact
    reason: str


@dataclass(frozen=True)
class ApplyReport:
    added: tuple[MemoryItem, ...] = ()
    reinforced: tuple[Reinforcement, ...] = ()
    evicted: tuple[Eviction, ...] = ()
    rejected: tuple[Rejection, ...] = ()

    def summary(self) -> str:
        return (
            f"{len(self.added)} added, {len(self.reinforced)} reinforced, "
            f"{len(self.evicted)} evicted, {len(self.rejected)} rejected"
        )


def eviction_key(item: MemoryItem) -> tuple[int, int, str]:
    """Smallest is evicted first: lowest support, then oldest (lowest seq), then id."""
    return (item.support, item.seq, item.id)


def nearest_duplicate(
    artifact: Artifact, candidates: Iterable[MemoryItem], threshold: float
) -> Optional[tuple[MemoryItem, float]]:
    """The most similar candidate at or above `threshold` (ties: oldest, then id), or None."""
    scored = [(similarity(artifact.text, item.text), item) for item in candidates]
    scored = [(score, item) for score, item in scored if score >= threshold]
    if not scored:
        return None
    score, item = min(scored, key=lambda pair: (-pair[0], pair[1].seq, pair[1].id))
    return item, score


def apply_items(
    snapshot: MemorySnapshot,
    new_items: Iterable[Artifact],
    *,
    rules_capacity: int,
    examples_capacity: int,
    near_duplicate_threshold: float,
) -> tuple[MemorySnapshot, ApplyReport]:
    """`snapshot` with `new_items` applied by the policy in the module docstring."""
    capacities = Capacities(rules_capacity, examples_capacity)
    if not 0.0 < near_duplicate_threshold <= 1.0:
        raise ValueError(f"near_duplicate_threshold must be in (0, 1], got {near_duplicate_threshold}")
    current: dict[str, MemoryItem] = dict(snapshot.by_id)
    next_seq = snapshot.next_seq()
    added: dict[str, MemoryItem] = {}
    reinforced: list[Reinforcement] = []
    evicted: list[Eviction] = []
    rejected: list[Rejection] = []

    def reinforce(item: MemoryItem, proposed: Artifact, score: float) -> None:
        stronger = item.with_support(item.support + 1)
        current[item.id] = stronger
        if item.id in added:
            added[item.id] = stronger
        reinforced.append(Reinforcement(item.id, proposed.text, score, stronger.support))

    for artifact in new_items:
        if not normalise(artifact.text):
            rejected.append(Rejection(artifact, "empty text"))
            continue
        if artifact.id in snapshot.withdrawn:
            rejected.append(Rejection(artifact, f"item {artifact.id} was deleted (withdrawn) from this memory"))
            continue
        if artifact.id in current:
            reinforce(current[artifact.id], artifact, 1.0)
            continue
        peers = [item for item in current.values() if item.role == artifact.role and item.kind == artifact.kind]
        match = nearest_duplicate(artifact, peers, near_duplicate_threshold)
        if match is not None:
            reinforce(match[0], artifact, match[1])
            continue

        new = artifact.to_item(seq=next_seq)
        next_seq += 1
        current[new.id] = added[new.id] = new
        peers.append(new)
        capacity = capacities.of(new.kind)
        while len(peers) > capacity:
            victim = min((item for item in peers if item.id != new.id), key=eviction_key)
            peers.remove(victim)
            del current[victim.id]
            note = ", added earlier in this batch" if added.pop(victim.id, None) is not None else ""
            evicted.append(Eviction(
                victim,
                new.id,
                f"{new.role} {new.kind}s at capacity {capacity}: lowest support ({victim.support}), "
                f"then oldest (seq {victim.seq}){note}",
            ))

    report = ApplyReport(tuple(added.values()), tuple(reinforced), tuple(evicted), tuple(rejected))
    return MemorySnapshot(tuple(current.values()), snapshot.withdrawn), report
