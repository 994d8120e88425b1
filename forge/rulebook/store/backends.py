"""`open_rulebook(spec)`: a redis:// URL (a shared server at scale) or a SQLite file (the default)."""

from __future__ import annotations

from pathlib import Path

from forge.memory.backends import REDIS_SCHEMES
from forge.rulebook.model import RulebookError
from forge.rulebook.store.sqlite_store import SqliteRulebookStore
from forge.rulebook.store.store import RulebookStore

DEFAULT_RULEBOOK = "runs/rulebook.db"


def open_rulebook(spec: str | Path | None = None, namespace: str = "forge", *, create: bool = True) -> RulebookStore:
    """`spec`: a redis:// URL, or a SQLite file (`.db`); None is `runs/rulebook.db`. With `create=False`
    a missing file is an error instead of a new empty rulebook."""
    spec = DEFAULT_RULEBOOK if spec is None else spec
    if str(spec).startswith(REDIS_SCHEMES):
        from forge.rulebook.store.redis_store import RedisRulebookStore  # lazy: redis is only imported when used

        return RedisRulebookStore(str(spec), namespace)
    path = Path(spec)
    if path.is_dir():
        raise RulebookError(f"rulebook spec {str(spec)!r} is a directory; give a .db file or a redis:// URL")
    if path.suffix != ".db" and not path.is_file():
        raise RulebookError(f"rulebook spec {str(spec)!r} is neither a .db file nor a redis:// URL")
    if not path.exists():
        if not create:
            raise RulebookError(f"no rulebook at {spec} (the file does not exist)")
        path.parent.mkdir(parents=True, exist_ok=True)
    return SqliteRulebookStore(path, namespace)
