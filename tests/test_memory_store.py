"""Stores and the manager, run identically against SQLite (a file in tmp_path) and a real Redis."""

from __future__ import annotations

import json
import sqlite3

import pytest

from forge.memory import (
    EMPTY_DIGEST,
    Artifact,
    Capacities,
    ConcurrentUpdateError,
    CorruptMemoryError,
    MemoryFrozenError,
    MemoryItem,
    MemoryManager,
    MemorySnapshot,
    Provenance,
    StoreUnavailableError,
    UnknownInstanceError,
    UnknownItemError,
    UnknownSnapshotError,
    UnknownVersionError,
    open_store,
)
from forge.memory.redis_store import RedisMemoryStore
from forge.memory.sqlite_store import SqliteMemoryStore

REFLECTOR = Provenance(session="s", stage=1, attempt=2, episode_seed=7, failing_step=11, trigger_reward=-3.0,
                       model="forge-surrogate-1", actor="reflector")


def host_rule(n: int) -> str:
    return f"When User{n} shows Exploit, then Remove User{n}"


def rules(*hosts: int, role: str = "planner") -> list[Artifact]:
    return [Artifact.rule(role, host_rule(n)) for n in hosts]


@pytest.fixture(params=["sqlite", "redis"])
def spec(request, tmp_path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "memory.db")
    return request.getfixturevalue("clean_redis_url")


@pytest.fixture
def store(spec):
    with open_store(spec) as store:
        yield store


@pytest.fixture
def manager(store) -> MemoryManager:
    return MemoryManager(store)


def stored_item_bodies(store) -> int:
    if isinstance(store, SqliteMemoryStore):
        with sqlite3.connect(store.path) as conn:
            return conn.execute("SELECT count(*) FROM memory_items").fetchone()[0]
    return len(store._client.keys(f"{store.namespace}:memory:item:*"))


def stored_snapshots(store) -> int:
    if isinstance(store, SqliteMemoryStore):
        with sqlite3.connect(store.path) as conn:
            return conn.execute("SELECT count(*) FROM memory_snapshots").fetchone()[0]
    return len(store._client.keys(f"{store.namespace}:memory:snapshot:*"))


def _url(store) -> str:
    kwargs = store._client.connection_pool.connection_kwargs
    return f"redis://{kwargs['host']}:{kwargs['port']}/{kwargs.get('db', 0)}"


def reopen(store):
    return open_store(str(store.path) if isinstance(store, SqliteMemoryStore) else _url(store), store.namespace)


def comparable(history) -> list[dict]:
    """Versions without their wall-clock time, which differs between runs by design."""
    return [{k: v for k, v in version.to_dict().items() if k != "created_at"} for version in history]


# -- opening ---------------------------------------------------------------------------------


def test_open_store_resolves_specs(tmp_path, clean_redis_url):
    with open_store(tmp_path / "run") as store:
        assert isinstance(store, SqliteMemoryStore) and store.path == tmp_path / "run" / "forge.db"
    with open_store(str(tmp_path / "run")) as store:  # an existing directory: its forge.db
        assert store.path == tmp_path / "run" / "forge.db"
    with open_store(str(tmp_path / "other.db")) as store:
        assert store.path == tmp_path / "other.db"
    with open_store(clean_redis_url, namespace="ns1") as store:
        assert isinstance(store, RedisMemoryStore) and store.namespace == "ns1"
    with pytest.raises(StoreUnavailableError, match="nowhere"):
        open_store(str(tmp_path / "nowhere"), create=False)
    with pytest.raises(StoreUnavailableError, match="cannot reach Redis"):
        open_store("redis://:secret@127.0.0.1:1/0")
    try:
        open_store("redis://:secret@127.0.0.1:1/0")
    except StoreUnavailableError as exc:
        assert "secret" not in str(exc)


# -- snapshots -------------------------------------------------------------------------------


def test_snapshots_are_content_addressed_and_items_stored_once(store):
    first = MemorySnapshot(tuple(MemoryItem.create("rule", "planner", host_rule(n), seq=n) for n in range(3)))
    assert store.put_snapshot(first) == first.digest
    assert store.put_snapshot(first) == first.digest  # idempotent
    second = first.with_items([MemoryItem.create("rule", "analyst", host_rule(9), seq=3)])
    store.put_snapshot(second)
    assert stored_item_bodies(store) == 4 and stored_snapshots(store) == 2
    with reopen(store) as fresh:  # a new store object: nothing answered from a cache
        assert fresh.get_snapshot(second.digest) == second and fresh.get_snapshot(first.digest) == first
    with pytest.raises(UnknownSnapshotError, match="f" * 64):
        store.get_snapshot("f" * 64)


def test_tampered_storage_is_detected(store):
    snapshot = MemorySnapshot((MemoryItem.create("rule", "planner", host_rule(1)),))
    store.put_snapshot(snapshot)
    (item,) = snapshot.items
    forged = item.to_dict() | {"support": 50}
    if isinstance(store, SqliteMemoryStore):
        with sqlite3.connect(store.path) as conn:
            conn.execute("UPDATE memory_items SET body = ?", (json.dumps(forged),))
    else:
        store._client.set(f"{store.namespace}:memory:item:{item.content_hash}", json.dumps(forged))
    with reopen(store) as fresh, pytest.raises(CorruptMemoryError, match="hashes to"):
        fresh.get_snapshot(snapshot.digest)


# -- commit: compare-and-set -----------------------------------------------------------------


def test_commit_is_compare_and_set(store):
    digest = store.put_snapshot(MemorySnapshot())
    with pytest.raises(UnknownSnapshotError):
        store.commit("s/0", 0, "a" * 64, "init")
    first = store.commit("s/0", 0, digest, "init", REFLECTOR)
    assert (first.number, first.parent_digest, first.provenance) == (1, None, REFLECTOR)
    with pytest.raises(ConcurrentUpdateError, match="expected head version 0, found 1"):
        store.commit("s/0", 0, digest, "init")
    second = store.commit("s/0", 1, digest, "update")
    assert second.number == 2 and second.parent_digest == digest
    assert [v.number for v in store.history("s/0")] == [1, 2] and store.head("s/0") == second


def test_versions_and_instances(store):
    digest = store.put_snapshot(MemorySnapshot())
    odd = "session:7/instance 3 é"  # instance ids are opaque
    for instance in (odd, "a/1", "a/0"):
        store.commit(instance, 0, digest, "init")
    assert store.instances() == sorted([odd, "a/1", "a/0"])
    assert store.version(odd, 1).instance == odd
    assert store.head("missing") is None and store.history("missing") == []
    with pytest.raises(UnknownVersionError, match="no memory version 2"):
        store.version(odd, 2)
    with pytest.raises(UnknownVersionError):
        store.version(odd, 0)
    with pytest.raises(UnknownInstanceError, match="'missing'"):
        store.version("missing", 1)


def test_namespaces_do_not_see_each_other(store):
    digest = store.put_snapshot(MemorySnapshot())
    store.commit("s/0", 0, digest, "init")
    spec = str(store.path) if isinstance(store, SqliteMemoryStore) else _url(store)
    with open_store(spec, namespace="other") as other:
        assert other.instances() == [] and other.head("s/0") is None
        other.put_snapshot(MemorySnapshot())
        other.commit("s/0", 0, digest, "init")
        assert other.head("s/0").number == 1
    assert store.head("s/0").number == 1 and len(store.history("s/0")) == 1


# -- manager ---------------------------------------------------------------------------------


def test_empty_instance_reads_as_empty_memory(manager):
    assert manager.snapshot("new").digest == EMPTY_DIGEST and manager.head("new") is None


def test_history_diff_restore_round_trip(manager):
    v1, report = manager.apply_artifacts("s/0", rules(1, 2), provenance=REFLECTOR)
    assert len(report.added) == 2 and v1.number == 1 and v1.op == "apply"
    v2, _ = manager.apply_artifacts("s/0", rules(3, 1), provenance=REFLECTOR)
    gone = manager.snapshot("s/0").items[0].id
    v3 = manager.delete("s/0", [gone], Provenance(actor="user:alice"))
    v4 = manager.restore("s/0", 1, Provenance(actor="user:alice"))

    assert v4.digest == v1.digest and manager.snapshot("s/0") == manager.snapshot_at("s/0", 1)
    history = manager.history("s/0")
    assert [(v.number, v.op) for v in history] == [(1, "apply"), (2, "apply"), (3, "delete"), (4, "restore")]
    assert [v.parent_digest for v in history] == [None, v1.digest, v2.digest, v3.digest]
    assert history[1].added == (MemoryItem.create("rule", "planner", host_rule(3)).id,)
    assert history[1].updated == (gone,)  # host 1 was reinforced
    assert history[0].provenance == REFLECTOR and history[3].provenance.actor == "user:alice"

    diff = manager.diff_versions("s/0", 1, 2)
    assert [i.text for i in diff.added] == [host_rule(3)] and diff.removed == ()
    assert [(c.before.support, c.after.support) for c in diff.changed] == [(1, 2)]
    rendered = diff.render()
    assert "+ planner/rule" in rendered and "support 1 -> 2" in rendered
    assert manager.diff(manager.snapshot_at("s/0", 2), manager.snapshot_at("s/0", 2)).render() == "no changes"


def test_delete_is_a_tombstone(manager):
    manager.apply_artifacts("s/0", rules(1, 2))
    doomed = MemoryItem.create("rule", "planner", host_rule(1)).id
    deleted = manager.delete("s/0", [doomed], Provenance(actor="user:bob"))
    assert deleted.op == "delete" and deleted.removed == (doomed,)
    assert doomed not in manager.snapshot("s/0")
    assert manager.snapshot_at("s/0", 1).get(doomed).text == host_rule(1)  # still readable
    # A withdrawn rule does not come back when a learner derives it again.
    version, report = manager.apply_artifacts("s/0", rules(1))
    assert version == deleted and "withdrawn" in report.rejected[0].reason
    with pytest.raises(UnknownItemError, match="'nope'"):
        manager.delete("s/0", ["nope"])
    with pytest.raises(UnknownItemError, match="'ghost'"):
        manager.delete("ghost", [doomed])
    with pytest.raises(ValueError, match="no item ids"):
        manager.delete("s/0", [])
    assert manager.head("s/0") == deleted and manager.head("ghost") is None


def test_edit_without_change_commits_nothing(manager):
    first, _ = manager.apply_artifacts("s/0", rules(1))
    assert manager.edit("s/0", lambda snapshot: snapshot) == first
    assert len(manager.history("s/0")) == 1
    # An instance without a head still gets its first version.
    assert manager.edit("s/1", lambda snapshot: snapshot, "init").number == 1


def test_apply_artifacts_evicts_at_capacity(manager):
    manager.apply_artifacts("s/0", rules(0, 1, 2), Capacities(rules=3, examples=1))
    manager.apply_artifacts("s/0", rules(2), Capacities(rules=3, examples=1))  # reinforce host 2
    version, report = manager.apply_artifacts("s/0", rules(9), Capacities(rules=3, examples=1))
    assert [e.item.text for e in report.evicted] == [host_rule(0)]
    assert version.removed == (report.evicted[0].item.id,) and version.added == (report.added[0].id,)
    # Evicted is not deleted: it may be derived again, and older versions keep it.
    _, report = manager.apply_artifacts("s/0", rules(0), Capacities(rules=3, examples=1))
    assert [i.text for i in report.added] == [host_rule(0)]


def test_broadcast_is_a_pointer_copy_with_provenance(manager, store):
    manager.apply_artifacts("s/0", rules(1, 2), provenance=REFLECTOR)
    manager.apply_artifacts("s/1", rules(5))
    manager.apply_artifacts("s/0", rules(3))
    bodies, snapshots = stored_item_bodies(store), stored_snapshots(store)
    source = manager.head("s/0")

    versions = manager.broadcast("s/0", ["s/1", "s/2"], Provenance(session="s", stage=3))
    assert [v.digest for v in versions] == [source.digest] * 2
    assert all(v.op == "broadcast" and v.provenance == Provenance(session="s", stage=3, actor="broadcast:s/0")
               for v in versions)
    assert (stored_item_bodies(store), stored_snapshots(store)) == (bodies, snapshots)  # nothing copied
    target = manager.history("s/1")
    assert [v.op for v in target] == ["apply", "broadcast"] and target[1].parent_digest == target[0].digest
    assert target[1].removed == (MemoryItem.create("rule", "planner", host_rule(5)).id,)
    assert manager.snapshot_at("s/1", 1).items[0].text == host_rule(5)  # its own memory is kept in history
    assert manager.head("s/0") == source
    with pytest.raises(UnknownInstanceError):
        manager.broadcast("ghost", ["s/1"])
    with pytest.raises(ValueError, match="own targets"):
        manager.broadcast("s/0", ["s/0"])


def test_frozen_memory_refuses_every_change(manager, store):
    manager.apply_artifacts("s/0", rules(1))
    manager.apply_artifacts("s/1", rules(2))
    frozen = manager.freeze("s/1", Provenance(stage=2, actor="graduation"))
    assert frozen.frozen and frozen.op == "freeze" and frozen.digest == manager.head("s/1").digest
    assert manager.freeze("s/1") == frozen  # idempotent
    item = manager.snapshot("s/1").items[0].id
    for attempt in (
        lambda: manager.apply_artifacts("s/1", rules(3)),
        lambda: manager.edit("s/1", lambda s: MemorySnapshot()),
        lambda: manager.delete("s/1", [item]),
        lambda: manager.restore("s/1", 1),
        lambda: manager.set_snapshot("s/1", MemorySnapshot()),
        lambda: store.commit("s/1", frozen.number, frozen.digest, "update"),  # even with a current CAS
    ):
        with pytest.raises(MemoryFrozenError, match="'s/1'"):
            attempt()
    # A broadcast with any frozen target writes nothing at all.
    with pytest.raises(MemoryFrozenError):
        manager.broadcast("s/0", ["s/2", "s/1"])
    assert manager.head("s/2") is None and manager.head("s/1") == frozen
    # A graduate can still be the champion whose memory is broadcast.
    assert manager.broadcast("s/1", ["s/0"])[0].digest == frozen.digest
    # Graduating without any memory freezes an empty one.
    assert manager.freeze("fresh").digest == EMPTY_DIGEST and manager.head("fresh").frozen


def test_set_snapshot_starts_an_instance_from_an_export(manager):
    manager.apply_artifacts("s/0", rules(1, 2), provenance=REFLECTOR)
    exported = manager.snapshot("s/0").to_dict()
    version = manager.set_snapshot("other/0", MemorySnapshot.from_dict(exported), provenance=Provenance(actor="user:c"))
    assert version.op == "init" and version.digest == manager.head("s/0").digest


# -- parity ----------------------------------------------------------------------------------


def scripted_session(manager: MemoryManager) -> None:
    """A stage-like sequence touching every operation."""
    for n, instance in enumerate(("run/0", "run/1", "run/2")):
        manager.set_snapshot(instance, MemorySnapshot(), provenance=Provenance(instance=instance, actor="init"))
        manager.apply_artifacts(instance, rules(n, n + 1), Capacities(3, 2),
                                Provenance(instance=instance, stage=1, attempt=1, actor="reflector"))
    manager.apply_artifacts("run/0", [*rules(1, 7, 8), Artifact.example("analyst", "scan", "Action: Analyse User1")],
                            Capacities(3, 2), Provenance(instance="run/0", stage=1, attempt=2, actor="reflector"))
    manager.delete("run/1", [MemoryItem.create("rule", "planner", host_rule(1)).id], Provenance(actor="user:x"))
    manager.freeze("run/2", Provenance(stage=1, actor="graduation"))
    manager.broadcast("run/0", ["run/1"], Provenance(stage=1))
    manager.restore("run/1", 2, Provenance(actor="user:x"))
    manager.edit("run/1", lambda s: s.with_items([s.items[0].with_support(9)]), "update", Provenance(actor="user:x"))


def test_sqlite_and_redis_behave_identically(tmp_path, clean_redis_url):
    results = []
    for spec in (str(tmp_path / "parity.db"), clean_redis_url):
        with open_store(spec) as store:
            manager = MemoryManager(store)
            scripted_session(manager)
            results.append({
                instance: (comparable(manager.history(instance)),
                           [store.get_snapshot(v.digest).to_dict() for v in manager.history(instance)])
                for instance in store.instances()
            })
    assert results[0] == results[1]
    assert list(results[0]) == ["run/0", "run/1", "run/2"]
    assert [v["op"] for v in results[0]["run/1"][0]] == ["init", "apply", "delete", "broadcast", "restore", "update"]


def test_a_learner_deletion_does_not_bar_relearning(tmp_path):
    from forge.memory import Artifact, MemoryManager, open_store

    manager = MemoryManager(open_store(str(tmp_path)))
    rule = "When Enterprise1 shows any compromise, then Restore Enterprise1."
    manager.apply_artifacts("s/i", [Artifact.rule("action_chooser", rule)])
    item = manager.snapshot("s/i").items[0].id
    manager.delete("s/i", [item], withdraw=False)
    _, report = manager.apply_artifacts("s/i", [Artifact.rule("action_chooser", rule)])
    assert item in manager.snapshot("s/i") and report.added
    manager.delete("s/i", [item])  # a person's withdrawal sticks
    _, report = manager.apply_artifacts("s/i", [Artifact.rule("action_chooser", rule)])
    assert item not in manager.snapshot("s/i") and not report.added
