"""Naming a memory on the command line: `INSTANCE`, `INSTANCE@VERSION`, or a snapshot digest (prefix).

An instance may be given without its session prefix (`i03` for `20261129-forge/i03`) when that is
unambiguous in the store.
"""

from __future__ import annotations

from forge.memory.backends import open_store
from forge.memory.errors import MemoryStoreError, UnknownInstanceError
from forge.memory.manager import MemoryManager
from forge.memory.model import MemorySnapshot


def resolve_instance(manager: MemoryManager, name: str) -> str:
    known = manager.instances()
    if name in known:
        return name
    matches = [k for k in known if k.rsplit("/", 1)[-1] == name]
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        raise MemoryStoreError(f"instance {name!r} is ambiguous: {', '.join(matches)}")
    raise UnknownInstanceError(name)


def resolve_snapshot(store_spec: str, ref: str, *, namespace: str = "forge") -> MemorySnapshot:
    with open_store(store_spec, namespace, create=False) as store:
        manager = MemoryManager(store)
        name, _, version = ref.partition("@")
        try:
            instance = resolve_instance(manager, name)
        except UnknownInstanceError:
            instance = None
        if instance is not None:
            return manager.snapshot_at(instance, int(version)) if version else manager.snapshot(instance)
        if len(ref) >= 8:
            for key in manager.instances():
                for entry in manager.history(key):
                    if entry.digest.startswith(ref):
                        return store.get_snapshot(entry.digest)
        raise MemoryStoreError(f"no instance or snapshot digest {ref!r} in {store_spec}")
