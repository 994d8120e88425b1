"""One SQLite file shared by threads and processes, as the memory store, the rulebook and the ledger use it.

A connection per thread (and a new one after fork(): an inherited connection must not be used by the
child), WAL so readers never block the writer, synchronous=FULL so a committed version survives a
killed process, a busy timeout for concurrent writers, and `write()` transactions that take the write
lock up front (BEGIN IMMEDIATE), so that a compare-and-set's read and write are one atomic step.
`change_token()` says, without reading any table, whether the file may have changed since it was last
asked: a reader caches what it read under the token and reads again only when the token moves.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator


class SqliteDatabase:
    def __init__(self, path: str | Path, *, busy_timeout_s: float = 30.0, label: str = "database",
                 durable: bool = True) -> None:
        self.path = str(path)
        # durable=False (a cache whose rows can be computed again): no fsync per commit, synchronous=OFF
        self._synchronous = "FULL" if durable else "OFF"
        self.label = label
        self._busy_timeout_s = busy_timeout_s
        self._local = threading.local()
        self._connections: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        self._closed = False
        self._commits = 0  # transactions committed through write(), by any thread of this object

    def connection(self) -> sqlite3.Connection:
        if self._closed:
            raise sqlite3.ProgrammingError(f"{self.label} {self.path} is closed")
        conn = getattr(self._local, "conn", None)
        if conn is None or self._local.pid != os.getpid():
            conn = sqlite3.connect(self.path, timeout=self._busy_timeout_s, isolation_level=None, check_same_thread=False)
            conn.execute(f"PRAGMA busy_timeout = {int(self._busy_timeout_s * 1000)}")
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute(f"PRAGMA synchronous = {self._synchronous}")
            conn.execute("PRAGMA foreign_keys = ON")
            self._local.conn, self._local.pid = conn, os.getpid()
            with self._lock:
                self._connections.append(conn)
        return conn

    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        conn = self.connection()
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
        with self._lock:
            self._commits += 1

    def change_token(self) -> tuple[int, int, int]:
        """Equal to an earlier token only if no transaction was committed to the file in between: SQLite's
        `PRAGMA data_version` (of this thread's connection) moves when any other connection, in this
        process or another, commits; it does not move for this connection's own commits, which the
        write counter counts. The connection's identity is part of it: a new connection (after fork())
        starts its own data_version."""
        conn = self.connection()
        (version,) = conn.execute("PRAGMA data_version").fetchone()
        return id(conn), int(version), self._commits

    def ensure_schema(self, statements, meta_table: str, version: str) -> str:
        """Create the tables if needed and return the schema version the file records (which a newer or
        older file may not share: the caller decides what a mismatch means)."""
        with self.write() as conn:
            for statement in statements:
                conn.execute(statement)
            conn.execute(f"INSERT OR IGNORE INTO {meta_table} VALUES ('schema', ?)", (version,))
            (found,) = conn.execute(f"SELECT value FROM {meta_table} WHERE key = 'schema'").fetchone()
        return found

    def close(self) -> None:
        self._closed = True
        with self._lock:
            connections, self._connections = self._connections, []
        for conn in connections:
            conn.close()
