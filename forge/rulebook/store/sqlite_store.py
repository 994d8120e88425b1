"""The rulebook in one SQLite file (default `runs/rulebook.db`).

WAL mode, synchronous=FULL, and every write one `BEGIN IMMEDIATE` transaction, so a commit is wholly
on disk or absent and the compare-and-set of the book head never races another writer. Tables are
prefixed `rulebook_` so the file can be shared with other parts of a run.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path
from typing import Iterable, Iterator, Mapping, Sequence

from forge.rulebook.model import (
    BookVersion,
    ConcurrentBookUpdate,
    Node,
    RulebookError,
    RuleVersion,
    canonical_json,
    node_from_dict,
)
from forge.rulebook.store.store import RulebookStore, Vectors, pack_vectors, unpack_vectors
from forge.plumbing.sqlite_db import SqliteDatabase

SCHEMA_VERSION = "1"
_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS rulebook_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID",
    """CREATE TABLE IF NOT EXISTS rulebook_nodes (
        namespace TEXT NOT NULL, id TEXT NOT NULL, body TEXT NOT NULL, PRIMARY KEY (namespace, id)) WITHOUT ROWID""",
    """CREATE TABLE IF NOT EXISTS rulebook_vectors (
        namespace TEXT NOT NULL, embedder TEXT NOT NULL, id TEXT NOT NULL, data BLOB NOT NULL,
        PRIMARY KEY (namespace, embedder, id)) WITHOUT ROWID""",
    """CREATE TABLE IF NOT EXISTS rulebook_compilations (
        namespace TEXT NOT NULL, item_id TEXT NOT NULL, body TEXT NOT NULL,
        PRIMARY KEY (namespace, item_id)) WITHOUT ROWID""",
    """CREATE TABLE IF NOT EXISTS rulebook_rule_versions (
        namespace TEXT NOT NULL, rule_id TEXT NOT NULL, number INTEGER NOT NULL, record TEXT NOT NULL,
        PRIMARY KEY (namespace, rule_id, number)) WITHOUT ROWID""",
    """CREATE TABLE IF NOT EXISTS rulebook_heads (
        namespace TEXT NOT NULL, rule_id TEXT NOT NULL, number INTEGER NOT NULL, record TEXT NOT NULL,
        PRIMARY KEY (namespace, rule_id)) WITHOUT ROWID""",
    """CREATE TABLE IF NOT EXISTS rulebook_book (
        namespace TEXT NOT NULL, number INTEGER NOT NULL, record TEXT NOT NULL,
        PRIMARY KEY (namespace, number)) WITHOUT ROWID""",
)
_CHUNK = 500  # below SQLite's bound-parameter limit


class SqliteRulebookStore(RulebookStore):
    def __init__(self, path: str | Path, namespace: str = "forge", *, busy_timeout_s: float = 60.0) -> None:
        super().__init__(namespace)
        self.path = Path(path)
        self.spec = str(self.path)
        self._db = SqliteDatabase(self.path, busy_timeout_s=busy_timeout_s, label="rulebook")
        self._head_cache = threading.local()  # (change token, book head): the token is per connection, so per thread
        try:
            self._create_schema()
        except sqlite3.DatabaseError as exc:
            raise RulebookError(f"{self.spec} is not a usable rulebook database: {exc}") from None

    def _connection(self) -> sqlite3.Connection:
        return self._db.connection()

    def _write(self):
        return self._db.write()

    def _create_schema(self) -> None:
        found = self._db.ensure_schema(_SCHEMA, "rulebook_meta", SCHEMA_VERSION)
        if found != SCHEMA_VERSION:
            raise RulebookError(f"{self.spec}: rulebook schema {found!r}, this code reads {SCHEMA_VERSION!r}")

    def close(self) -> None:
        self._db.close()

    def _select_in(self, sql: str, params: list, ids: Iterable[str]) -> Iterator[tuple]:
        """Rows of `sql` (with an `IN ({marks})` slot) for every id, in chunks under SQLite's parameter limit."""
        wanted = list(dict.fromkeys(ids))
        conn = self._connection()
        for start in range(0, len(wanted), _CHUNK):
            chunk = wanted[start:start + _CHUNK]
            yield from conn.execute(sql.format(marks=",".join("?" * len(chunk))), [*params, *chunk])

    # -- nodes and vectors ----------------------------------------------------------------------

    def put_nodes(self, nodes: Iterable[Node]) -> None:
        rows = [(self.namespace, node.id, canonical_json(node.to_dict())) for node in nodes]
        if rows:
            with self._write() as conn:
                conn.executemany("INSERT OR IGNORE INTO rulebook_nodes VALUES (?, ?, ?)", rows)

    def nodes(self, ids: Iterable[str]) -> dict[str, Node]:
        rows = self._select_in("SELECT id, body FROM rulebook_nodes WHERE namespace = ? AND id IN ({marks})",
                               [self.namespace], ids)
        return {node_id: node_from_dict(json.loads(body)) for node_id, body in rows}

    def put_vectors(self, embedder: str, vectors: Mapping[str, Vectors]) -> None:
        rows = [(self.namespace, embedder, node_id, pack_vectors(v)) for node_id, v in vectors.items()]
        if rows:
            with self._write() as conn:
                conn.executemany("INSERT OR REPLACE INTO rulebook_vectors VALUES (?, ?, ?, ?)", rows)

    def vectors(self, embedder: str, ids: Iterable[str]) -> dict[str, Vectors]:
        rows = self._select_in(
            "SELECT id, data FROM rulebook_vectors WHERE namespace = ? AND embedder = ? AND id IN ({marks})",
            [self.namespace, embedder], ids)
        return {node_id: unpack_vectors(data) for node_id, data in rows}

    def put_compilations(self, outcomes: Mapping[str, str]) -> None:
        rows = [(self.namespace, item_id, body) for item_id, body in outcomes.items()]
        if rows:
            with self._write() as conn:
                conn.executemany("INSERT OR REPLACE INTO rulebook_compilations VALUES (?, ?, ?)", rows)

    def compilations(self, item_ids: Iterable[str]) -> dict[str, str]:
        return dict(self._select_in(
            "SELECT item_id, body FROM rulebook_compilations WHERE namespace = ? AND item_id IN ({marks})",
            [self.namespace], item_ids))

    # -- rules ----------------------------------------------------------------------------------

    def book_head(self) -> int:
        """Read once per change of the file: an injection asks at every model call, and the book rarely
        moves during an episode (the token is taken before the read, so a commit racing the read makes
        the next call read again)."""
        token = self._db.change_token()
        cached = getattr(self._head_cache, "value", None)
        if cached is not None and cached[0] == token:
            return cached[1]
        row = self._connection().execute(
            "SELECT MAX(number) FROM rulebook_book WHERE namespace = ?", (self.namespace,)
        ).fetchone()
        head = int(row[0] or 0)
        self._head_cache.value = (token, head)
        return head

    def _load_heads(self) -> dict[str, RuleVersion]:
        rows = self._connection().execute("SELECT record FROM rulebook_heads WHERE namespace = ?", (self.namespace,))
        versions = (RuleVersion.from_dict(json.loads(record)) for (record,) in rows)
        return {v.rule_id: v for v in versions}

    def _heads_of(self, rule_ids: Sequence[str]) -> dict[str, RuleVersion]:
        rows = self._select_in("SELECT record FROM rulebook_heads WHERE namespace = ? AND rule_id IN ({marks})",
                               [self.namespace], rule_ids)
        versions = (RuleVersion.from_dict(json.loads(record)) for (record,) in rows)
        return {v.rule_id: v for v in versions}

    def rule_history(self, rule_id: str) -> list[RuleVersion]:
        rows = self._connection().execute(
            "SELECT record FROM rulebook_rule_versions WHERE namespace = ? AND rule_id = ? ORDER BY number",
            (self.namespace, rule_id),
        )
        return [RuleVersion.from_dict(json.loads(record)) for (record,) in rows]

    def book_history(self) -> list[BookVersion]:
        rows = self._connection().execute(
            "SELECT record FROM rulebook_book WHERE namespace = ? ORDER BY number", (self.namespace,)
        )
        return [BookVersion.from_dict(json.loads(record)) for (record,) in rows]

    def _commit(self, book: BookVersion, versions: list[RuleVersion], expected_book: int) -> None:
        with self._write() as conn:
            (actual,) = conn.execute(
                "SELECT COALESCE(MAX(number), 0) FROM rulebook_book WHERE namespace = ?", (self.namespace,)
            ).fetchone()
            if actual != expected_book:
                raise ConcurrentBookUpdate(expected_book, actual)
            for version in versions:
                record = canonical_json(version.to_dict())
                conn.execute("INSERT INTO rulebook_rule_versions VALUES (?, ?, ?, ?)",
                             (self.namespace, version.rule_id, version.number, record))
                conn.execute("INSERT OR REPLACE INTO rulebook_heads VALUES (?, ?, ?, ?)",
                             (self.namespace, version.rule_id, version.number, record))
            conn.execute("INSERT INTO rulebook_book VALUES (?, ?, ?)",
                         (self.namespace, book.number, canonical_json(book.to_dict())))
