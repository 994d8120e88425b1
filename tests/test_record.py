"""Sessions on record (forge.llm.record): record, then replay with zero model calls and the same
memory digests, returns and tokens, whatever the order the instances run in; read-through serves the
recorded calls and sends only new ones; a request not on record is a clear error in replay."""

from __future__ import annotations

from pathlib import Path

import pytest

from forge.config import load_config, to_yaml
from forge.llm.record import RecordConflict, ReplayMiss, SqliteCallStore, open_call_store, record_store_spec
from forge.plumbing.local_redis import free_port

ROOT = Path(__file__).resolve().parents[1]
# Where the model was, nothing listens: a call that reached it would fail (and be counted as failed).
NO_MODEL = ["providers.surrogate.kind=openai", f"providers.surrogate.base_url=http://127.0.0.1:{free_port()}/v1",
            "providers.surrogate.max_retries=0", "providers.surrogate.timeout_s=2"]


def _worker(store_dir: Path, instance: str, mode: str, record: Path, *extra: str, session: str = "rec"):
    from workers.instance_actor import InstanceWorker

    cfg = load_config(ROOT / "configs" / "forge.yaml", overrides=[
        "env.max_steps=10", "protocol.max_attempts=2", f"record.mode={mode}", f"record.store={record}", *extra])
    return InstanceWorker(instance, session, to_yaml(cfg), sqlite_path=str(store_dir))


def _unit(worker, instance: str, stages=(1,)) -> dict:
    figures = {}
    for stage in stages:
        trained = worker.train_stage(stage, seed=100 * stage + int(instance[1:]))
        played = worker.play([7, 8], "evaluation", stage=stage)
        figures[stage] = {
            "attempts": [(a.total_return, a.failed) for a in trained.attempts],
            "digest": played.digest, "returns": played.returns,
            "tokens": [{role: (u.prompt_tokens, u.completion_tokens, u.calls) for role, u in usage.roles.items()}
                       for usage in (trained.usage, played.usage)],
            **{key: sum(getattr(u, field) for usage in (trained.usage, played.usage) for u in usage.roles.values())
               for key, field in (("served", "replayed"), ("failed", "failures"), ("calls", "calls"))},
        }
    return figures


def test_replay_reproduces_a_recorded_unit_exactly_with_zero_model_calls(tmp_path):
    record = tmp_path / "calls.db"
    recorded = {i: _unit(_worker(tmp_path / f"rec-{i}", i, "record", record), i) for i in ("i00", "i01")}
    assert all(f[1]["served"] == 0 and f[1]["calls"] > 0 for f in recorded.values())
    replayed = {}
    for i in ("i01", "i00"):  # another order, other stores: the key does not depend on scheduling
        replayed[i] = _unit(_worker(tmp_path / "replay", i, "replay", record, *NO_MODEL), i)
    assert all(f[1]["failed"] == 0 for f in replayed.values())  # no call went out
    for i in recorded:
        want, got = recorded[i][1], replayed[i][1]
        assert (got["attempts"], got["digest"], got["returns"], got["tokens"]) == \
               (want["attempts"], want["digest"], want["returns"], want["tokens"])
        assert got["served"] == got["calls"] == want["calls"]


def test_read_through_serves_what_is_on_record_and_sends_only_new_calls(tmp_path):
    record = tmp_path / "calls.db"
    first = _unit(_worker(tmp_path / "a", "i00", "record", record), "i00")
    kept = len(SqliteCallStore(record).keys())
    extended = _unit(_worker(tmp_path / "b", "i00", "read_through", record), "i00", stages=(1, 2))
    assert extended[1]["served"] == extended[1]["calls"] == first[1]["calls"]  # stage 1: all on record
    assert extended[1]["digest"] == first[1]["digest"]
    assert extended[2]["served"] < extended[2]["calls"]  # stage 2 is new work: its calls were sent
    assert len(SqliteCallStore(record).keys()) == kept + extended[2]["calls"] - extended[2]["served"]


def test_replay_of_a_different_session_is_an_error_naming_the_record(tmp_path):
    record = tmp_path / "calls.db"
    _unit(_worker(tmp_path / "a", "i00", "record", record), "i00")
    worker = _worker(tmp_path / "b", "i00", "replay", record, "env.max_steps=11")
    with pytest.raises(ReplayMiss, match="no recorded reply.*calls.db"):
        worker.train_stage(1, seed=100)


def test_store_spec_defaults_beside_the_mlflow_database_or_on_the_memory_redis(tmp_path, clean_redis_url):
    cfg = load_config(overrides=[f"run.runs_dir={tmp_path}"])
    assert record_store_spec(cfg) == str(tmp_path / "calls.db")
    on_redis = load_config(overrides=["memory.store=redis", f"memory.redis_url={clean_redis_url}"])
    assert record_store_spec(on_redis) == clean_redis_url
    for store in (open_call_store(clean_redis_url), open_call_store(str(tmp_path / "calls.db"))):
        store.put("k#s#u#0", {"text": "first", "latency_s": 0.5})
        store.put("k#s#u#0", {"text": "first", "latency_s": 0.7})  # the same reply again: concurrent recorders agree
        with pytest.raises(RecordConflict, match=r"already holds a different reply for key k.*#s#u#0.*'first'.*'second'"):
            store.put("k#s#u#0", {"text": "second"})  # never written over
        assert store.get("k#s#u#0") == {"text": "first", "latency_s": 0.5} and store.get("k#s#u#1") is None
        store.close()


def test_a_failed_call_is_recorded_and_replayed_as_the_same_failure(tmp_path):
    """Today's main recorded no failed call: the replay stopped on ReplayMiss where the original had failed."""
    record = tmp_path / "calls.db"
    faulty = ["faults.enabled=true", "faults.seed=3", "faults.transient_error_rate=0.3", "providers.surrogate.max_retries=1"]
    recorded = _unit(_worker(tmp_path / "rec", "i00", "record", record, *faulty), "i00")[1]
    assert recorded["failed"] > 0, "no call failed: the test would show nothing"
    replayed = _unit(_worker(tmp_path / "replay", "i00", "replay", record, *faulty, *NO_MODEL), "i00")[1]
    assert replayed == {**recorded, "served": recorded["calls"]}  # failures included, every call from the record


def test_two_sessions_arms_or_configurations_never_share_a_key(tmp_path):
    """Study arms share session k's seeds, so their early prompts agree. Today's main keyed a call by its
    request and unit only: the second arm's calls landed on the first arm's keys (and its replies were dropped)."""
    record = tmp_path / "calls.db"
    units = {
        "forge": _unit(_worker(tmp_path / "a", "i00", "record", record, "run.arm=forge", session="st-forge-s0"), "i00"),
        "reflexion": _unit(_worker(tmp_path / "b", "i00", "record", record, "run.arm=reflexion", "protocol.condition=reflexion",
                                   session="st-reflexion-s0"), "i00"),
        "tau": _unit(_worker(tmp_path / "c", "i00", "record", record, "run.arm=forge", "protocol.tau=-3",
                             session="st-forge-s0"), "i00"),
    }
    sent = sum(u[1]["calls"] for u in units.values())
    assert all(u[1]["served"] == 0 for u in units.values())  # nothing was taken from another session's record
    assert len(SqliteCallStore(record).keys()) == sent


def test_a_unit_redone_in_record_mode_is_answered_from_its_own_record(tmp_path):
    """A unit redone after a worker's death meets the calls its first run recorded: it is given those replies, so the
    record holds what the kept result was made from (today's main called the model again and kept the first reply)."""
    record = tmp_path / "calls.db"
    first = _unit(_worker(tmp_path / "a", "i00", "record", record), "i00")[1]
    kept = len(SqliteCallStore(record).keys())
    redone = _unit(_worker(tmp_path / "b", "i00", "record", record, *NO_MODEL), "i00")[1]
    assert redone == {**first, "served": first["calls"]} and len(SqliteCallStore(record).keys()) == kept


def test_a_recorder_that_lost_a_race_for_a_key_refuses_to_write_its_different_reply(tmp_path):
    from forge.llm.record import RecordingProvider
    from forge.llm.types import Completion, Message, Usage

    store = SqliteCallStore(tmp_path / "calls.db")

    class Model:
        def __init__(self, text: str, before=None):
            self.text, self.before = text, before

        def complete(self, messages, **params):
            if self.before is not None:
                self.before()  # another recorder of the same call answers first
            return Completion(text=self.text, usage=Usage(3, 1), model="m")

    ask = [Message("user", "which host?")]
    fast = RecordingProvider(Model("User1"), store, "record", name="p", scope="s")
    slow = RecordingProvider(Model("Op_Server0", before=lambda: fast.complete(ask, model="m")), store, "record",
                             name="p", scope="s")
    with pytest.raises(RecordConflict, match="already holds a different reply"):
        slow.complete(ask, model="m")
    assert [store.get(k)["text"] for k in store.keys()] == ["User1"]
