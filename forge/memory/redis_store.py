"""The memory store in Redis (a Ray cluster's shared store). Same behaviour as the SQLite store.

Keys, under `<namespace>:memory:`:
- `item:<content hash>`     an item body (written once, never changed);
- `snapshot:<digest>`       a snapshot record (item hashes and withdrawn ids);
- `versions:<instance>`     a list of version records; the last one is the head;
- `instances`               a set of instance ids.
A snapshot's missing items and its record go in one MULTI/EXEC, so a killed writer never leaves a
record without its items. A commit WATCHes the instance's version list: if any other writer appended
in between, EXEC fails and the commit raises `ConcurrentUpdateError`.
"""

from __future__ import annotations

import json
from typing import Optional

import redis

from forge.memory.errors import ConcurrentUpdateError, StoreUnavailableError, UnknownSnapshotError
from forge.memory.model import MemorySnapshot, MemoryVersion, Provenance, canonical_json
from forge.memory.store import (
    MemoryStore,
    decode_version,
    encode_item,
    encode_version,
    next_version,
    snapshot_from_storage,
)
from forge.plumbing.redact import mask_url


class RedisMemoryStore(MemoryStore):
    def __init__(self, url: str, namespace: str = "forge", *, socket_timeout_s: float = 30.0) -> None:
        super().__init__(namespace)
        self.spec = mask_url(url)
        self._client = redis.Redis.from_url(
            url, decode_responses=True, socket_timeout=socket_timeout_s, socket_connect_timeout=socket_timeout_s
        )
        try:
            self._client.ping()
        except redis.RedisError as exc:
            self._client.close()
            raise StoreUnavailableError(f"cannot reach Redis at {self.spec}: {exc}") from None
        self._prefix = f"{namespace}:memory:"

    def _key(self, *parts: str) -> str:
        return self._prefix + ":".join(parts)

    def close(self) -> None:
        self._client.close()

    # -- snapshots ---------------------------------------------------------------------------

    def _put_snapshot(self, snapshot: MemorySnapshot) -> None:
        record_key = self._key("snapshot", snapshot.digest)
        if self._client.exists(record_key):
            return
        items = list(snapshot.items)
        # Send only bodies the store lacks: re-versioning a large memory touches few items.
        with self._client.pipeline(transaction=False) as pipe:
            for item in items:
                pipe.exists(self._key("item", item.content_hash))
            present = pipe.execute()
        with self._client.pipeline(transaction=True) as pipe:
            for item, found in zip(items, present):
                if not found:
                    pipe.set(self._key("item", item.content_hash), encode_item(item), nx=True)
            pipe.set(record_key, canonical_json(snapshot.record()), nx=True)
            pipe.execute()

    def _get_snapshot(self, digest: str) -> MemorySnapshot:
        record = self._client.get(self._key("snapshot", digest))
        if record is None:
            raise UnknownSnapshotError(digest)
        hashes = list(json.loads(record).get("items", ()))
        bodies = dict(zip(hashes, self._client.mget([self._key("item", h) for h in hashes]))) if hashes else {}
        return snapshot_from_storage(digest, record, bodies)

    def _has_snapshot(self, digest: str) -> bool:
        return bool(self._client.exists(self._key("snapshot", digest)))

    # -- versions ----------------------------------------------------------------------------

    def head(self, instance: str) -> Optional[MemoryVersion]:
        raw = self._client.lindex(self._key("versions", instance), -1)
        return decode_version(raw) if raw is not None else None

    def history(self, instance: str) -> list[MemoryVersion]:
        return [decode_version(raw) for raw in self._client.lrange(self._key("versions", instance), 0, -1)]

    def _version(self, instance: str, number: int) -> Optional[MemoryVersion]:
        raw = self._client.lindex(self._key("versions", instance), number - 1)
        return decode_version(raw) if raw is not None else None

    def instances(self) -> list[str]:
        return sorted(self._client.smembers(self._key("instances")))

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
        versions_key = self._key("versions", instance)
        with self._client.pipeline(transaction=True) as pipe:
            pipe.watch(versions_key)
            if not pipe.exists(self._key("snapshot", new_digest)):
                raise UnknownSnapshotError(new_digest)
            raw = pipe.lindex(versions_key, -1)
            version = next_version(
                instance, decode_version(raw) if raw is not None else None, expected_version, new_digest, op,
                provenance, freeze=freeze, added=added, removed=removed, updated=updated,
            )
            pipe.multi()
            pipe.rpush(versions_key, encode_version(version))
            pipe.sadd(self._key("instances"), instance)
            try:
                pipe.execute()
            except redis.WatchError:
                raise ConcurrentUpdateError(instance, expected_version, self._client.llen(versions_key)) from None
        return version
