"""`open_store(spec)`: a Redis URL, a `.db` file, or a run directory (its `forge.db`)."""

from __future__ import annotations

from pathlib import Path

from forge.memory.errors import StoreUnavailableError
from forge.memory.sqlite_store import SqliteMemoryStore
from forge.memory.store import MemoryStore

DB_NAME = "forge.db"
REDIS_SCHEMES = ("redis://", "rediss://", "unix://")


def sqlite_path(spec: str | Path) -> Path:
    """The database file a non-Redis spec names: the path itself if it is a `.db` or an existing
    file, else `<spec>/forge.db`."""
    path = Path(spec)
    return path if path.suffix == ".db" or path.is_file() else path / DB_NAME


def open_store(spec: str | Path, namespace: str = "forge", *, create: bool = True) -> MemoryStore:
    """Open the memory store `spec` names. With `create=False` a missing SQLite file is an error
    (`StoreUnavailableError`) instead of a new empty store, which is what readers want."""
    if isinstance(spec, str) and spec.startswith(REDIS_SCHEMES):
        from forge.memory.redis_store import RedisMemoryStore  # lazy: redis is only imported when used

        return RedisMemoryStore(spec, namespace)
    path = sqlite_path(spec)
    if not path.exists():
        if not create:
            raise StoreUnavailableError(f"no memory store at {spec} (no file {path})")
        path.parent.mkdir(parents=True, exist_ok=True)
    return SqliteMemoryStore(path, namespace)
