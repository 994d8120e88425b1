"""Versioned agent memory: learned rules and examples per instance and role, nothing ever lost.

`MemoryManager(open_store(spec))` is what the protocol uses; see `manager.py`. Snapshots are immutable
and content-hashed (`model.py`), stores keep every version behind a compare-and-set head (`store.py`,
SQLite and Redis backends), and `policy.py` decides deduplication and eviction.

The names below are resolved on first use (PEP 562): a module that needs only `forge.memory.model`
(the rulebook's provenance, `forge rulebook query`) must not load the stores, the manager and the
policy with it (cold start).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

_HOMES = {
    "backends": ("open_store",),
    "diff": ("MemoryDiff", "diff_snapshots"),
    "errors": ("ConcurrentUpdateError", "CorruptMemoryError", "MemoryFrozenError", "MemoryStoreError",
               "StoreUnavailableError", "UnknownInstanceError", "UnknownItemError", "UnknownSnapshotError",
               "UnknownVersionError"),
    "manager": ("MemoryManager",),
    "model": ("EMPTY_DIGEST", "EMPTY_SNAPSHOT", "KINDS", "OPS", "Artifact", "MemoryItem", "MemorySnapshot",
              "MemoryVersion", "Provenance"),
    "policy": ("ApplyReport", "Capacities", "apply_items"),
    "store": ("MemoryStore",),
}
_HOME_OF = {name: module for module, names in _HOMES.items() for name in names}

__all__ = sorted(_HOME_OF)


def __getattr__(name: str) -> Any:
    home = _HOME_OF.get(name)
    if home is None:
        raise AttributeError(f"module 'forge.memory' has no attribute {name!r}")
    return getattr(importlib.import_module(f"forge.memory.{home}"), name)  # lazy: cold start (module docstring)
