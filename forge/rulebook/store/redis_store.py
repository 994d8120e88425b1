"""The rulebook in Redis (shared by a Ray cluster). Same behaviour as the SQLite store.

Keys, under `<namespace>:rulebook:`:
- `nodes`                 hash: node id -> JSON body (written with HSETNX: bodies never change)
- `vectors:<embedder>`    hash: decision node id -> packed float32 node + accumulated embeddings
- `compilations`          hash: memory item id -> what it compiled to (JSON)
- `versions:<rule id>`    list of rule version records, oldest first
- `heads`                 hash: rule id -> its latest version record
- `book`                  list of book version records; its length is the book head
A commit WATCHes `book`, checks its length, and appends every version, head and the book record in
one MULTI/EXEC: another writer's commit in between makes EXEC fail, which is `ConcurrentBookUpdate`.
"""

from __future__ import annotations

import json
from typing import Iterable, Mapping, Sequence

import redis

from forge.rulebook.model import (
    BookVersion,
    ConcurrentBookUpdate,
    Node,
    RulebookError,
    RuleVersion,
    canonical_json,
    node_from_dict,
)
from forge.plumbing.redact import mask_url
from forge.rulebook.store.store import RulebookStore, Vectors, pack_vectors, unpack_vectors


class RedisRulebookStore(RulebookStore):
    def __init__(self, url: str, namespace: str = "forge", *, socket_timeout_s: float = 30.0) -> None:
        super().__init__(namespace)
        self.spec = mask_url(url)
        self._client = redis.Redis.from_url(url, socket_timeout=socket_timeout_s, socket_connect_timeout=socket_timeout_s)
        try:
            self._client.ping()
        except redis.RedisError as exc:
            self._client.close()
            raise RulebookError(f"cannot reach Redis at {self.spec}: {exc}") from None
        self._prefix = f"{namespace}:rulebook:"

    def _key(self, *parts: str) -> str:
        return self._prefix + ":".join(parts)

    def close(self) -> None:
        self._client.close()

    # -- nodes and vectors ----------------------------------------------------------------------

    def put_nodes(self, nodes: Iterable[Node]) -> None:
        key = self._key("nodes")
        with self._client.pipeline(transaction=False) as pipe:
            for node in nodes:
                pipe.hsetnx(key, node.id, canonical_json(node.to_dict()))
            pipe.execute()

    def nodes(self, ids: Iterable[str]) -> dict[str, Node]:
        wanted = list(dict.fromkeys(ids))
        if not wanted:
            return {}
        bodies = self._client.hmget(self._key("nodes"), wanted)
        return {node_id: node_from_dict(json.loads(body)) for node_id, body in zip(wanted, bodies) if body is not None}

    def put_vectors(self, embedder: str, vectors: Mapping[str, Vectors]) -> None:
        if vectors:
            self._client.hset(self._key("vectors", embedder), mapping={k: pack_vectors(v) for k, v in vectors.items()})

    def vectors(self, embedder: str, ids: Iterable[str]) -> dict[str, Vectors]:
        wanted = list(dict.fromkeys(ids))
        if not wanted:
            return {}
        raw = self._client.hmget(self._key("vectors", embedder), wanted)
        return {node_id: unpack_vectors(data) for node_id, data in zip(wanted, raw) if data is not None}

    def put_compilations(self, outcomes: Mapping[str, str]) -> None:
        if outcomes:
            self._client.hset(self._key("compilations"), mapping=dict(outcomes))

    def compilations(self, item_ids: Iterable[str]) -> dict[str, str]:
        wanted = list(dict.fromkeys(item_ids))
        if not wanted:
            return {}
        raw = self._client.hmget(self._key("compilations"), wanted)
        return {item_id: body.decode() for item_id, body in zip(wanted, raw) if body is not None}

    # -- rules ----------------------------------------------------------------------------------

    def book_head(self) -> int:
        return int(self._client.llen(self._key("book")))

    def _load_heads(self) -> dict[str, RuleVersion]:
        raw = self._client.hgetall(self._key("heads"))
        return {key.decode(): RuleVersion.from_dict(json.loads(value)) for key, value in raw.items()}

    def _heads_of(self, rule_ids: Sequence[str]) -> dict[str, RuleVersion]:
        wanted = list(dict.fromkeys(rule_ids))
        if not wanted:
            return {}
        raw = self._client.hmget(self._key("heads"), wanted)
        return {rid: RuleVersion.from_dict(json.loads(value)) for rid, value in zip(wanted, raw) if value is not None}

    def rule_history(self, rule_id: str) -> list[RuleVersion]:
        return [RuleVersion.from_dict(json.loads(raw)) for raw in self._client.lrange(self._key("versions", rule_id), 0, -1)]

    def book_history(self) -> list[BookVersion]:
        return [BookVersion.from_dict(json.loads(raw)) for raw in self._client.lrange(self._key("book"), 0, -1)]

    def _commit(self, book: BookVersion, versions: list[RuleVersion], expected_book: int) -> None:
        book_key = self._key("book")
        with self._client.pipeline(transaction=True) as pipe:
            pipe.watch(book_key)
            actual = int(pipe.llen(book_key))
            if actual != expected_book:
                raise ConcurrentBookUpdate(expected_book, actual)
            pipe.multi()
            for version in versions:
                record = canonical_json(version.to_dict())
                pipe.rpush(self._key("versions", version.rule_id), record)
                pipe.hset(self._key("heads"), version.rule_id, record)
            pipe.rpush(book_key, canonical_json(book.to_dict()))
            try:
                pipe.execute()
            except redis.WatchError:
                raise ConcurrentBookUpdate(expected_book, int(self._client.llen(book_key))) from None
