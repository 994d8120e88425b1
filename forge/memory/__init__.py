"""Versioned agent memory: learned rules and examples per instance and role, nothing ever lost.

`MemoryManager(open_store(spec))` is what the protocol uses; see `manager.py`. Snapshots are immutable
and content-hashed (`model.py`), stores keep every version behind a compare-and-set head (`store.py`,
SQLite and Redis backends), and `policy.py` decides deduplication and eviction.
"""

from forge.memory.backends import open_store
from forge.memory.diff import MemoryDiff, diff_snapshots
from forge.memory.errors import (
    ConcurrentUpdateError,
    CorruptMemoryError,
    MemoryFrozenError,
    MemoryStoreError,
    StoreUnavailableError,
    UnknownInstanceError,
    UnknownItemError,
    UnknownSnapshotError,
    UnknownVersionError,
)
from forge.memory.manager import MemoryManager
from forge.memory.model import (
    EMPTY_DIGEST,
    EMPTY_SNAPSHOT,
    KINDS,
    OPS,
    Artifact,
    MemoryItem,
    MemorySnapshot,
    MemoryVersion,
    Provenance,
)
from forge.memory.policy import ApplyReport, Capacities, apply_items
from forge.memory.store import MemoryStore

__all__ = [
    "EMPTY_DIGEST", "EMPTY_SNAPSHOT", "KINDS", "OPS",
    "ApplyReport", "Artifact", "Capacities", "ConcurrentUpdateError", "CorruptMemoryError", "MemoryDiff",
    "MemoryFrozenError", "MemoryItem", "MemoryManager", "MemorySnapshot", "MemoryStore", "MemoryStoreError",
    "MemoryVersion", "Provenance", "StoreUnavailableError", "UnknownInstanceError", "UnknownItemError",
    "UnknownSnapshotError", "UnknownVersionError", "apply_items", "diff_snapshots", "open_store",
]
