"""Text vectors kept on disk between processes: one SQLite file in the cache directory
(`<cache dir>/vectors.db`), shared by every process of the machine.

A local encoder's vector of a text depends only on the text and the encoder file, so a vector computed
once is valid for every later process: `forge rulebook query` asked the same context again, the
evaluation of the same seeds again, every Ray worker of a session that meets the contexts another
worker met. Rows are keyed by the vector space (the encoder's name and the file it ran, so a rebuilt
graph or another onnxruntime never answers with the old file's vectors) and the SHA-256 of the text;
the text itself is not stored. The vectors read back are the bytes computed, so what is retrieved with
them is what would have been retrieved without the cache.

It is a cache: no fsync per commit, a short busy timeout, and any SQLite error turns it off for the rest
of the process (the encoder then computes every vector, as without it). The oldest rows go beyond
`MAX_ROWS` (~1.6 KB each for MiniLM). `FORGE_VECTOR_CACHE=0` turns it off.
"""

from __future__ import annotations

import hashlib
import logging
import os
import sqlite3
import threading
from pathlib import Path
from typing import Callable, Mapping, Optional, Sequence

import numpy as np

from forge.plumbing.sqlite_db import SqliteDatabase

log = logging.getLogger(__name__)

MAX_ROWS = 200_000
PRUNE_EVERY = 512  # rows written by this process between two size checks
_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS vector_cache_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID",
    """CREATE TABLE IF NOT EXISTS text_vectors (
        space TEXT NOT NULL, digest BLOB NOT NULL, data BLOB NOT NULL, PRIMARY KEY (space, digest))""",
)
SCHEMA_VERSION = "1"


def enabled() -> bool:
    return os.environ.get("FORGE_VECTOR_CACHE", "1").strip().lower() not in ("0", "off", "false", "no")


def text_digest(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8")).digest()


def _schema_of(db: SqliteDatabase) -> Optional[str]:
    try:
        row = db.connection().execute("SELECT value FROM vector_cache_meta WHERE key = 'schema'").fetchone()
    except sqlite3.OperationalError:  # no such table: a new file
        return None
    return row[0] if row else None


class DiskVectorCache:
    """The vectors of one vector space (`space`: a string, or a function giving it on first use, so
    that naming the encoder file costs nothing until a vector is looked up)."""

    def __init__(self, path: Path, space: str | Callable[[], str], dim: int, *, max_rows: int = MAX_ROWS) -> None:
        self.path = Path(path)
        self.dim = dim
        self.max_rows = max_rows
        self._space = space
        self._db: Optional[SqliteDatabase] = None
        self._lock = threading.Lock()
        self._broken = False
        self._written = 0
        self.hits = 0

    @property
    def space(self) -> str:
        if callable(self._space):
            self._space = self._space()
        return self._space

    def _database(self) -> Optional[SqliteDatabase]:
        if self._broken:
            return None
        with self._lock:
            if self._db is None:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                db = SqliteDatabase(self.path, busy_timeout_s=1.0, label="vector cache", durable=False)
                if _schema_of(db) != SCHEMA_VERSION:  # read first: a write transaction per process is not free
                    if db.ensure_schema(_SCHEMA, "vector_cache_meta", SCHEMA_VERSION) != SCHEMA_VERSION:
                        raise sqlite3.DatabaseError(f"{self.path}: another schema version")
                self._db = db
            return self._db

    def _off(self, exc: Exception) -> None:
        log.debug("vector cache %s turned off for this process: %s", self.path, exc)
        self._broken = True

    def get_many(self, texts: Sequence[str]) -> dict[str, np.ndarray]:
        """The cached vectors among `texts` (unit float32 rows of length `dim`), by text."""
        if not texts:
            return {}
        try:
            db = self._database()
            if db is None:
                return {}
            by_digest = {text_digest(t): t for t in texts}
            marks = ",".join("?" * len(by_digest))
            rows = db.connection().execute(
                f"SELECT digest, data FROM text_vectors WHERE space = ? AND digest IN ({marks})",
                [self.space, *by_digest]).fetchall()
        except (sqlite3.Error, OSError) as exc:
            self._off(exc)
            return {}
        found = {by_digest[digest]: np.frombuffer(data, dtype=np.float32) for digest, data in rows
                 if len(data) == 4 * self.dim}
        self.hits += len(found)
        return found

    def put_many(self, vectors: Mapping[str, np.ndarray]) -> None:
        if not vectors:
            return
        rows = [(self.space, text_digest(t), np.ascontiguousarray(v, dtype=np.float32).tobytes()) for t, v in vectors.items()]
        try:
            db = self._database()
            if db is None:
                return
            with db.write() as conn:
                conn.executemany("INSERT OR IGNORE INTO text_vectors VALUES (?, ?, ?)", rows)
            self._written += len(rows)
            if self._written >= PRUNE_EVERY:
                self._written = 0
                self._prune(db)
        except (sqlite3.Error, OSError) as exc:
            self._off(exc)

    def _prune(self, db: SqliteDatabase) -> None:
        with db.write() as conn:
            (count,) = conn.execute("SELECT COUNT(*) FROM text_vectors").fetchone()
            if count > self.max_rows:
                conn.execute("DELETE FROM text_vectors WHERE rowid IN (SELECT rowid FROM text_vectors ORDER BY rowid LIMIT ?)",
                             (count - self.max_rows,))

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None
