"""The memory store in one SQLite file (the embedded default: `<run dir>/forge.db`).

WAL mode with synchronous=FULL: a transaction is either wholly on disk or absent, even if the writing
process is SIGKILLed, and a committed version survives a power cut. Every write is one
`BEGIN IMMEDIATE` transaction (the write lock is taken up front, so a compare-and-set never races a
concurrent writer between its read and its write); the busy timeout queues writers across threads and
processes. Each thread of each process gets its own connection. Tables are prefixed `memory_` because
the file is shared with other parts of a run.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Optional

from forge.memory.errors import CorruptMemoryError, UnknownSnapshotError
from forge.plumbing.sqlite_db import SqliteDatabase
from forge.memory.model import MemorySnapshot, MemoryVersion, Provenance, canonical_json
from forge.memory.store import (
    MemoryStore,
    decode_version,
    encode_item,
    encode_version,
    next_version,
    snapshot_from_storage,
)

SCHEMA_VERSION = "1"
_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS memory_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS memory_items (hash TEXT PRIMARY KEY, body TEXT NOT NULL) WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS memory_snapshots (digest TEXT PRIMARY KEY, record TEXT NOT NULL) WITHOUT ROWID",
    """CREATE TABLE IF NOT EXISTS memory_versions (
        namespace TEXT NOT NULL,
        instance TEXT NOT NULL,
        number INTEGER NOT NULL,
        digest TEXT NOT NULL REFERENCES memory_snapshots(digest),
        record TEXT NOT NULL,
        PRIMARY KEY (namespace, instance, number)
    ) WITHOUT ROWID""",
)


class SqliteMemoryStore(MemoryStore):
    def __init__(self, path: str | Path, namespace: str = "forge", *, busy_timeout_s: float = 60.0) -> None:
        super().__init__(namespace)
        self.path = Path(path)
        self.spec = str(self.path)
        self._db = SqliteDatabase(self.path, busy_timeout_s=busy_timeout_s, label="memory store")
        self._create_schema()

    # -- connections -------------------------------------------------------------------------

    def _connection(self) -> sqlite3.Connection:
        return self._db.connection()

    def _write(self):
        return self._db.write()

    def _create_schema(self) -> None:
        found = self._db.ensure_schema(_SCHEMA, "memory_meta", SCHEMA_VERSION)
        if found != SCHEMA_VERSION:
            raise CorruptMemoryError(f"{self.spec}: memory schema {found!r}, this code reads {SCHEMA_VERSION!r}")

    def close(self) -> None:
        self._db.close()

    # -- snapshots ---------------------------------------------------------------------------

    def _put_snapshot(self, snapshot: MemorySnapshot) -> None:
        with self._write() as conn:
            if conn.execute("SELECT 1 FROM memory_snapshots WHERE digest = ?", (snapshot.digest,)).fetchone():
                return
            conn.executemany(
                "INSERT OR IGNORE INTO memory_items (hash, body) VALUES (?, ?)",
                [(item.content_hash, encode_item(item)) for item in snapshot.items],
            )
            conn.execute(
                "INSERT INTO memory_snapshots (digest, record) VALUES (?, ?)",
                (snapshot.digest, canonical_json(snapshot.record())),
            )

    def _get_snapshot(self, digest: str) -> MemorySnapshot:
        # No read transaction needed: items are written with (or before) the record that lists them,
        # and nothing is ever deleted.
        conn = self._connection()
        row = conn.execute("SELECT record FROM memory_snapshots WHERE digest = ?", (digest,)).fetchone()
        if row is None:
            raise UnknownSnapshotError(digest)
        hashes = _item_hashes(digest, row[0])
        bodies: dict[str, str] = {}
        for start in range(0, len(hashes), 500):  # below SQLite's bound-parameter limit
            chunk = hashes[start:start + 500]
            marks = ",".join("?" * len(chunk))
            bodies.update(conn.execute(f"SELECT hash, body FROM memory_items WHERE hash IN ({marks})", chunk))
        return snapshot_from_storage(digest, row[0], bodies)

    def _has_snapshot(self, digest: str) -> bool:
        return self._connection().execute("SELECT 1 FROM memory_snapshots WHERE digest = ?", (digest,)).fetchone() is not None

    # -- versions ----------------------------------------------------------------------------

    def _head(self, conn: sqlite3.Connection, instance: str) -> Optional[MemoryVersion]:
        row = conn.execute(
            "SELECT record FROM memory_versions WHERE namespace = ? AND instance = ? ORDER BY number DESC LIMIT 1",
            (self.namespace, instance),
        ).fetchone()
        return decode_version(row[0]) if row else None

    def head(self, instance: str) -> Optional[MemoryVersion]:
        return self._head(self._connection(), instance)

    def history(self, instance: str) -> list[MemoryVersion]:
        rows = self._connection().execute(
            "SELECT record FROM memory_versions WHERE namespace = ? AND instance = ? ORDER BY number",
            (self.namespace, instance),
        )
        return [decode_version(record) for (record,) in rows]

    def _version(self, instance: str, number: int) -> Optional[MemoryVersion]:
        row = self._connection().execute(
            "SELECT record FROM memory_versions WHERE namespace = ? AND instance = ? AND number = ?",
            (self.namespace, instance, number),
        ).fetchone()
        return decode_version(row[0]) if row else None

    def instances(self) -> list[str]:
        rows = self._connection().execute(
            "SELECT DISTINCT instance FROM memory_versions WHERE namespace = ? ORDER BY instance", (self.namespace,)
        )
        return [instance for (instance,) in rows]

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
        with self._write() as conn:
            if conn.execute("SELECT 1 FROM memory_snapshots WHERE digest = ?", (new_digest,)).fetchone() is None:
                raise UnknownSnapshotError(new_digest)
            version = next_version(
                instance, self._head(conn, instance), expected_version, new_digest, op, provenance,
                freeze=freeze, added=added, removed=removed, updated=updated,
            )
            conn.execute(
                "INSERT INTO memory_versions (namespace, instance, number, digest, record) VALUES (?, ?, ?, ?, ?)",
                (self.namespace, instance, version.number, new_digest, encode_version(version)),
            )
        return version


def _item_hashes(digest: str, record: str) -> list[str]:
    try:
        return list(json.loads(record)["items"])
    except (ValueError, KeyError, TypeError) as exc:
        raise CorruptMemoryError(f"unreadable memory snapshot {digest}: {exc}") from None
