"""The rulebook store contract and what every backend shares (`open_rulebook(spec)` is in backends.py).

A store keeps:
- nodes (decision nodes, evidence, actors, groups): immutable JSON bodies under content-derived ids;
- vectors per (embedder, decision node): the node embedding and the accumulated-context embedding;
- per compiled memory item, what it compiled to (rule ids, or why it was dropped);
- per rule, an append-only list of `RuleVersion`s, and the head of each rule for fast loading;
- the book log: one `BookVersion` per commit. The book head moves only by compare-and-set: a commit
  names the book version it was planned against and fails with `ConcurrentBookUpdate` if another
  writer committed in between (the caller re-plans on the fresh state).

Backends: SQLite (one file, the default `runs/rulebook.db`) and Redis (a shared server at scale).
"""

from __future__ import annotations

import threading
import time
from abc import ABC, abstractmethod
from typing import Iterable, Mapping, Optional, Sequence

import numpy as np

from forge.memory.model import NO_PROVENANCE, Provenance
from forge.rulebook.model import (
    BookVersion,
    Node,
    RulebookError,
    RuleChange,
    RuleVersion,
    UnknownRuleError,
)

Vectors = tuple[np.ndarray, np.ndarray]  # (node embedding, accumulated embedding), unit float32 rows


def plan_versions(
    book_number: int,
    heads: Mapping[str, Optional[RuleVersion]],
    changes: Sequence[RuleChange],
    op: str,
    provenance: Provenance,
    note: str,
) -> tuple[BookVersion, list[RuleVersion]]:
    """The versions a commit appends: each changed rule's next number, all under book version n + 1."""
    now = time.time()
    number = book_number + 1
    versions = []
    touched = set()
    for change in changes:
        rule_id = change.record.rule_id
        if rule_id in touched:
            raise RulebookError(f"one commit changes rule {rule_id} twice")
        touched.add(rule_id)
        head = heads.get(rule_id)
        versions.append(RuleVersion(rule_id, (head.number if head else 0) + 1, change.record, change.op, number,
                                    provenance, now))
    book = BookVersion(number, op, tuple((v.rule_id, v.number, v.op) for v in versions), provenance, note, now)
    return book, versions


def pack_vectors(vectors: Vectors) -> bytes:
    node, acc = (np.asarray(v, dtype="<f4").ravel() for v in vectors)
    if node.shape != acc.shape:
        raise RulebookError(f"node and accumulated embeddings differ in size ({node.size} != {acc.size})")
    return node.tobytes() + acc.tobytes()


def unpack_vectors(raw: bytes) -> Vectors:
    data = np.frombuffer(raw, dtype="<f4")
    half = data.size // 2
    return data[:half].copy(), data[half:].copy()


class RulebookStore(ABC):
    """Safe to share between threads of one process; every process opens its own."""

    spec: str

    def __init__(self, namespace: str) -> None:
        self.namespace = namespace
        self._heads_cache: tuple[int, dict[str, RuleVersion]] | None = None
        self._cache_lock = threading.Lock()

    # -- nodes and vectors ----------------------------------------------------------------------

    @abstractmethod
    def put_nodes(self, nodes: Iterable[Node]) -> None:
        """Store nodes (idempotent: a node's id is derived from its content)."""

    @abstractmethod
    def nodes(self, ids: Iterable[str]) -> dict[str, Node]:
        """The stored nodes among `ids` (missing ids are absent from the answer)."""

    @abstractmethod
    def put_vectors(self, embedder: str, vectors: Mapping[str, Vectors]) -> None: ...

    @abstractmethod
    def put_compilations(self, outcomes: Mapping[str, str]) -> None:
        """Remember what each memory item compiled to (JSON), so an item is compiled once, drops included."""

    @abstractmethod
    def compilations(self, item_ids: Iterable[str]) -> dict[str, str]: ...

    @abstractmethod
    def vectors(self, embedder: str, ids: Iterable[str]) -> dict[str, Vectors]: ...

    # -- rules ----------------------------------------------------------------------------------

    @abstractmethod
    def book_head(self) -> int:
        """The number of the last commit (0: empty)."""

    @abstractmethod
    def _load_heads(self) -> dict[str, RuleVersion]: ...

    @abstractmethod
    def rule_history(self, rule_id: str) -> list[RuleVersion]:
        """Every version of a rule, oldest first (empty if there is no such rule)."""

    @abstractmethod
    def book_history(self) -> list[BookVersion]: ...

    @abstractmethod
    def _commit(self, book: BookVersion, versions: list[RuleVersion], expected_book: int) -> None:
        """Atomically: check the book head is `expected_book`, append the versions, move the heads."""

    @abstractmethod
    def _heads_of(self, rule_ids: Sequence[str]) -> dict[str, RuleVersion]: ...

    @abstractmethod
    def close(self) -> None: ...

    def heads(self) -> dict[str, RuleVersion]:
        """Every rule's latest version (any status), by rule id. Cached until the book moves."""
        number = self.book_head()
        with self._cache_lock:
            if self._heads_cache is not None and self._heads_cache[0] == number:
                return dict(self._heads_cache[1])
        heads = self._load_heads()
        with self._cache_lock:
            self._heads_cache = (number, heads)
        return dict(heads)

    def head(self, rule_id: str) -> Optional[RuleVersion]:
        return self._heads_of([rule_id]).get(rule_id)

    def rule_version(self, rule_id: str, number: int) -> RuleVersion:
        history = self.rule_history(rule_id)
        if not history:
            raise UnknownRuleError(rule_id)
        if not 1 <= number <= len(history):
            raise RulebookError(f"rule {rule_id} has no version {number} (versions 1..{len(history)})")
        return history[number - 1]

    def commit(self, changes: Sequence[RuleChange], *, expected_book: int, op: str,
               provenance: Provenance = NO_PROVENANCE, note: str = "") -> Optional[BookVersion]:
        """Append one book version with every change; None (nothing written) for no changes."""
        if not changes:
            return None
        heads = self._heads_of([c.record.rule_id for c in changes])
        book, versions = plan_versions(expected_book, heads, changes, op, provenance, note)
        self._commit(book, versions, expected_book)
        return book

    def __enter__(self) -> "RulebookStore":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
