"""The session ledger on both of its stores (the run's SQLite file and Redis), fault counting, chaos specs."""

from __future__ import annotations

import json
import os
from dataclasses import asdict

import pytest

from forge.config import ConfigError
from forge.protocol.fault_count import fault_metrics, fault_summary
from forge.protocol.ledger import EvaluationRecord, SessionLedger, StageRecord
from forge.plumbing.local_redis import LocalRedis
from workers.chaos import DriverExit, WorkerKill, claim, parse_driver_exits, parse_worker_kills


@pytest.fixture(params=["sqlite", "redis"])
def ledger_spec(request, tmp_path):
    if request.param == "sqlite":
        (tmp_path / "run").mkdir()
        return str(tmp_path / "run")
    return request.getfixturevalue("clean_redis_url")


def stage(n: int, **changes) -> StageRecord:
    record = StageRecord(
        stage=n, active_before=["i00", "i01"], checkpoint={"i00": -3.0, "i01": -7.5}, graduated=[],
        champion="i00", broadcast_to=["i01"], memory={}, failures={"i00": 1, "i01": 2},
        tokens={"i00": {"planner": {"prompt": 10, "completion": 2, "calls": 3, "retries": 1, "failed": 0}}},
        retries={"i00": 0, "i01": 1}, faults={"i00": {"transient": 1}, "i01": {"malformed": 2, "timeout": 1}},
    )
    for key, value in changes.items():
        setattr(record, key, value)
    return record


def test_stages_evaluation_and_status_round_trip(ledger_spec):
    ledger = SessionLedger.open(ledger_spec, "s1")
    ledger.start({"config_digest": "abc", "instances": ["i00", "i01"]})
    assert ledger.status() == "running"
    ledger.record_stage(stage(2))
    ledger.record_stage(stage(1, applied=True, logged=True))
    assert [r.stage for r in ledger.stages()] == [1, 2]
    first = ledger.stages()[0]
    assert first.applied and first.logged and first.faults == {"i00": {"transient": 1}, "i01": {"malformed": 2, "timeout": 1}}
    assert ledger.stages()[1].logged is False
    evaluation = EvaluationRecord({"i00": [-1.0, -2.0], "i01": [-9.0, -9.0]}, [5, 6], {}, faults={"i00": {"empty": 1}},
                                  retries={"i00": 1, "i01": 0})
    ledger.record_evaluation(evaluation)
    assert ledger.evaluation() == evaluation
    assert ledger.champion() == "i00"
    with pytest.raises(ValueError, match="different configuration"):
        SessionLedger.open(ledger_spec, "s1").start({"config_digest": "other"})
    ledger.finish()
    assert SessionLedger.open(ledger_spec, "s1").status() == "finished"
    # Another session in the same store sees none of it.
    assert SessionLedger.open(ledger_spec, "s2").stages() == []


def test_records_written_before_the_new_fields_still_load(ledger_spec):
    ledger = SessionLedger.open(ledger_spec, "old")
    doc = asdict(stage(1))
    for key in ("faults", "logged"):
        doc.pop(key)
    ledger._put("stage:001", doc)  # as a ledger of the previous release wrote it
    record = ledger.stages()[0]
    assert record.faults == {} and record.logged is False and record.checkpoint == {"i00": -3.0, "i01": -7.5}


def test_progress_fault_events_and_done_steps(ledger_spec):
    ledger = SessionLedger.open(ledger_spec, "s1")
    assert ledger.progress() is None and ledger.faults() == [] and not ledger.is_done("final-logging")
    ledger.set_progress("training", 2)
    ledger.record_fault("worker_death", phase="training", stage=2, instance="i01")
    ledger.record_fault("driver_restart", phase="applied", stage=1)
    assert ledger.progress() == {"phase": "training", "stage": 2}
    assert [e["kind"] for e in ledger.faults()] == ["worker_death", "driver_restart"]  # in the order seen
    ledger.mark_done("final-logging")
    assert ledger.is_done("final-logging")


def test_store_identity_is_none_for_a_file_and_the_server_run_id_for_redis(tmp_path, clean_redis_url):
    assert SessionLedger.open(str(tmp_path), "s").store_identity() is None
    first = SessionLedger.open(clean_redis_url, "s").store_identity()
    assert len(first) == 40 and first == SessionLedger.open(clean_redis_url, "s").store_identity()


def test_the_redis_ledger_rides_out_a_restart_and_sees_it(tmp_path):
    server = LocalRedis(tmp_path / "redis", appendonly=True).start()
    try:
        ledger = SessionLedger.open(server.url, "s1")
        ledger.start({"config_digest": "abc"})
        ledger.record_stage(stage(1, applied=True))
        before = ledger.store_identity()
        server.restart()
        # The same client object, after the restart: reconnects, and the data is there (append-only file).
        assert ledger.stages()[0].applied and ledger.meta() == {"config_digest": "abc"}
        assert ledger.store_identity() != before
        server.stop()
        import threading

        threading.Timer(0.5, server.start).start()  # down for half a second while a write is attempted
        ledger.record_stage(stage(2))
        assert [r.stage for r in ledger.stages()] == [1, 2]
    finally:
        server.stop()


# -- counting faults -----------------------------------------------------------------------------------------


def test_fault_summary_counts_provider_faults_of_kept_work_and_every_infrastructure_event():
    stages = [stage(1), stage(2, faults={"i00": {"transient": 3, "empty": 1}})]
    evaluation = EvaluationRecord({"i00": [-1.0]}, [1], {"i00": {"planner": {"retries": 2, "failed": 1}}},
                                  faults={"i00": {"timeout": 2}})
    events = [
        {"kind": "worker_death", "phase": "checkpoint", "stage": 1, "instance": "i01"},
        {"kind": "worker_death", "phase": "evaluation", "stage": 0, "instance": "i00"},
        {"kind": "worker_store_error", "phase": "training", "stage": 2, "instance": "i00"},
        {"kind": "driver_restart", "phase": "applied", "stage": 1},
        {"kind": "store_restart", "phase": "training", "stage": 2},
    ]
    summary = fault_summary(stages, evaluation, events)
    assert summary["provider"]["injected"] == {"transient": 4, "timeout": 3, "malformed": 2, "empty": 1, "total": 10}
    assert summary["provider"]["observed"] == {"retried": 1 + 1 + 2, "failed_calls": 1}
    assert summary["workers"]["deaths"] == {"training": 0, "checkpoint": 1, "evaluation": 1}
    assert summary["workers"]["store_errors"]["training"] == 1
    assert summary["driver"] == {"restarts": 1, "stopped_at": ["applied@1"]}
    assert summary["store"] == {"restarts": 1}
    assert summary["total"] == 10 + 2 + 1 + 1  # a store error is the restart's symptom, not a second fault
    metrics = fault_metrics(summary)
    assert metrics["faults.provider.total"] == 10 and metrics["faults.worker_deaths.evaluation"] == 1
    assert metrics["faults.driver_restarts"] == 1 and metrics["faults.total"] == 14
    json.dumps(summary)  # summary.json must be able to hold it


def test_fault_summary_of_a_quiet_session_is_all_zero():
    summary = fault_summary([stage(1, faults={})], None, [])
    assert summary["total"] == 0 and summary["provider"]["injected"]["total"] == 0


# -- chaos specs -------------------------------------------------------------------------------------------


def test_worker_kill_specs_name_instance_phase_and_stage():
    assert parse_worker_kills("i01@2") == [WorkerKill("i01", "training", 2)]
    assert parse_worker_kills(" i01@training:1, i00@checkpoint:2 ,i03@evaluation") == [
        WorkerKill("i01", "training", 1), WorkerKill("i00", "checkpoint", 2), WorkerKill("i03", "evaluation", 0)]
    assert parse_worker_kills(None) == [] and parse_worker_kills("") == []
    for bad in ("i01", "i01@", "@2", "i01@checkpoint", "i01@evaluation:2", "i01@lunch:1", "i01@0", "i01@training:x"):
        with pytest.raises(ConfigError, match="ray.chaos_kill"):
            parse_worker_kills(bad)


def test_driver_exit_specs_name_a_boundary():
    assert parse_driver_exits("after_apply@1,evaluation") == [DriverExit("after_apply", 1), DriverExit("evaluation", 0)]
    for bad in ("after_apply", "evaluation@1", "after_lunch@1", "after_logging@-1"):
        with pytest.raises(ConfigError, match="ray.chaos_driver_exit"):
            parse_driver_exits(bad)


def test_a_chaos_marker_fires_once(tmp_path):
    assert claim(tmp_path, ".chaos-x") and not claim(tmp_path, ".chaos-x") and claim(tmp_path, ".chaos-y")


def test_chaos_hooks_kill_a_unit_once_and_list_what_never_fired(tmp_path):
    from forge.config import RayConfig
    from workers.chaos import ChaosHooks, exit_worker
    from workers.hooks import SessionHooks

    hooks = ChaosHooks.from_config(RayConfig(chaos_kill="i01@1,i02@evaluation", chaos_driver_exit="after_apply@2"),
                                   tmp_path)
    assert hooks.after_step("i01", "training", 1) is exit_worker
    assert hooks.after_step("i01", "training", 1) is None  # the redone unit runs undisturbed
    assert hooks.after_step("i00", "evaluation", 0) is None
    hooks.at("after_apply", 1)  # not a point of this plan: nothing happens
    hooks.unit_done("i00", "checkpoint", 1)
    assert hooks.unfired() == [WorkerKill("i02", "evaluation", 0), DriverExit("after_apply", 2)]
    assert hooks.warnings() == [f"chaos: {fault} never fired (that work did not run in this session)"
                                for fault in hooks.unfired()]
    assert ChaosHooks.from_config(RayConfig(), tmp_path / "none").unfired() == []
    quiet = SessionHooks()  # what a real session runs with: nothing, anywhere
    assert quiet.after_step("i01", "training", 1) is None and quiet.warnings() == []


def test_which_worker_failures_are_redone():
    import ray.exceptions
    import redis

    from forge.memory.errors import StoreUnavailableError
    from workers.ray_runtime import retryable_failure

    assert retryable_failure(ray.exceptions.RayActorError()) == "worker_death"

    def task_error(cause: BaseException):
        return ray.exceptions.RayTaskError("train_stage", "traceback", cause)

    assert retryable_failure(task_error(redis.ConnectionError("refused"))) == "worker_store_error"
    assert retryable_failure(task_error(StoreUnavailableError("cannot reach Redis"))) == "worker_store_error"
    wrapped = RuntimeError("commit failed")
    wrapped.__cause__ = redis.TimeoutError("timed out")
    assert retryable_failure(task_error(wrapped)) == "worker_store_error"
    assert retryable_failure(task_error(ValueError("a bug"))) is None  # redoing a bug would fail again
    assert retryable_failure(KeyError("x")) is None


# -- MLflow re-logging -------------------------------------------------------------------------------------


def test_relogging_a_stage_after_a_crash_adds_no_second_point(tmp_path):
    from mlflow import MlflowClient

    from forge.config import load_config
    from forge.runs.tracking import SessionTracker, default_tracking_uri

    tracker = SessionTracker(default_tracking_uri(tmp_path), "relog", tmp_path / "mlartifacts")
    ids = tracker.start("s", load_config(), ["i00", "i01"], {"forge.surrogate": "true"})
    record = stage(1, applied=True, memory={i: {"version": 1, "digest": "d", "rules": 2, "examples": 0}
                                            for i in ("i00", "i01")})
    client = MlflowClient(default_tracking_uri(tmp_path))

    def points(run: str, key: str) -> list[tuple[int, float]]:
        return [(m.step, m.value) for m in client.get_metric_history(run, key)]

    tracker.log_stage(record, graduates_so_far=0)
    tracker.log_stage(record, graduates_so_far=0, only_missing=True)  # a resumed driver logging the stage again
    assert points(ids["instances"]["i01"], "checkpoint_return") == [(1, -7.5)]
    assert points(ids["instances"]["i01"], "provider_faults.malformed") == [(1, 2.0)]
    assert points(ids["parent"], "provider_faults") == [(1, 4.0)]
    # What only_missing prevents: MLflow keeps a second, identical point for the same step.
    tracker.log_stage(record, graduates_so_far=0)
    assert points(ids["instances"]["i01"], "checkpoint_return") == [(1, -7.5), (1, -7.5)]


def test_a_session_store_is_not_left_to_the_next_session_of_the_process(tmp_path, monkeypatch):
    """mlflow.set_tracking_uri writes $MLFLOW_TRACKING_URI; a tracker that called it would send every later
    in-process session (tests, notebooks, sweeps) to the first session's store."""
    from forge.config import load_config
    from forge.runs.tracking import SessionTracker, default_tracking_uri, tracking_store

    monkeypatch.delenv("MLFLOW_TRACKING_URI", raising=False)
    SessionTracker(default_tracking_uri(tmp_path / "first"), "one", tmp_path / "first" / "mlartifacts")
    assert "MLFLOW_TRACKING_URI" not in os.environ
    assert tracking_store(load_config(), tmp_path / "second")[0] == default_tracking_uri(tmp_path / "second")
