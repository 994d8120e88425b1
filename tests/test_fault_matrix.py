"""The fault matrix: whole FORGE sessions (surrogate model, real CybORG, Ray, MLflow, SQLite and Redis) under
every fault at every phase, each compared with the same session undisturbed.

Every cell runs with seeded provider faults (20% transient errors, 5% timeouts, 10% malformed replies),
plus one infrastructure fault: a worker killed during training, a checkpoint or the final evaluation;
the driver stopped dead (`os._exit`) at each phase boundary and the session continued with
`forge resume`; Redis restarted mid-session with `memory.store=redis`.

The property each cell checks, precisely: provider faults are drawn per unit of work (instance, phase,
stage) in call order, so the *reference* is the same session with the same fault plan and no
infrastructure fault. Against it, a cell must have
- finished (status `finished`), after `forge resume` where its driver died;
- the same final memory (content digest per instance), the same stage decisions, checkpoint and
  evaluation returns, and the same token, retry and provider-fault counts per unit (nothing from lost
  work counted, nothing counted twice);
- counted its infrastructure fault exactly (summary.json `faults` and the MLflow `faults.*` metrics);
- every stage's MLflow metrics, exactly one point per stage, and every stage's memory artifacts.
A separate cell checks that transient errors and timeouts alone change nothing at all against a run
without any fault (a retried call gets the same answer).

`pytest tests/test_fault_matrix.py -s` prints the matrix (fault x phase -> outcome).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from forge.protocol.fault_count import fault_metrics
from forge.runs.rundir import RunDirectory
from forge.plumbing.local_redis import LocalRedis
from workers.chaos import CHAOS_EXIT_CODE
from tests.made_once import made_once
from tests.run_cli import chaos, forge

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
SESSION = "cell"
INSTANCES = ["i00", "i01"]
STAGES = 2
SMALL = [
    "protocol.num_instances=2", f"protocol.num_stages={STAGES}", "protocol.max_attempts=2",
    "protocol.checkpoint_runs=1", "protocol.num_evaluation_runs=1", "env.max_steps=15",
    # Above every reachable return: nobody graduates, so both instances work in both stages and each
    # stage has a champion whose memory is broadcast.
    "protocol.theta=1.0", "surrogate.latency_ms=0",
    "providers.surrogate.backoff_initial_s=0.001", "providers.surrogate.backoff_max_s=0.01",
    # The process-wide retry budget must not run dry here: which call it fails on depends on how much
    # work a worker process did before, which a restarted worker does not share.
    "providers.surrogate.retry_budget=1000000",
]
PROVIDER_FAULTS = ["faults.enabled=true", "faults.seed=7", "faults.transient_error_rate=0.2",
                   "faults.timeout_rate=0.05", "faults.malformed_rate=0.1"]
CELL = SMALL + PROVIDER_FAULTS

MATRIX: list[tuple[str, str, str]] = []


@pytest.fixture(scope="module", autouse=True)
def print_matrix():
    yield
    if not MATRIX:
        return
    width = max(len(f) for f, _, _ in MATRIX), max(len(p) for _, p, _ in MATRIX)
    lines = ["", "FAULT MATRIX: 2 instances x 2 stages, 15-step episodes, surrogate model; provider faults "
             "(20% transient, 5% timeout, 10% malformed) in every cell but the second (transient and timeout only)",
             f"{'fault':<{width[0]}}  {'phase':<{width[1]}}  outcome"]
    lines += [f"{f:<{width[0]}}  {p:<{width[1]}}  {o}" for f, p, o in MATRIX]
    print("\n".join(lines))




def run_args(runs: Path, *extra: str) -> list[str]:
    return ["run", str(ROOT / "configs" / "forge.yaml"), *CELL, f"run.runs_dir={runs}", f"run.name={SESSION}", *extra]


def observe(run_path: Path) -> dict[str, Any]:
    """What the session kept (to compare with the reference) and what it counted."""
    from forge.wiring import open_ledger, open_memory

    run_dir = RunDirectory.open(run_path)
    cfg = run_dir.load_config()
    ledger = open_ledger(cfg, str(run_path), SESSION)
    memory = open_memory(cfg, str(run_path), SESSION)
    try:
        stages = ledger.stages()
        evaluation = ledger.evaluation()
        kept = {
            "memory": {i: memory.snapshot(f"{SESSION}/{i}").digest for i in INSTANCES},
            "decisions": {r.stage: (r.champion, r.broadcast_to, r.graduated, r.checkpoint) for r in stages},
            "tokens": {r.stage: r.tokens for r in stages},
            "provider_faults": {r.stage: r.faults for r in stages},
            "evaluation": evaluation and (evaluation.returns, evaluation.tokens, evaluation.faults),
        }
        status = ledger.status()
    finally:
        ledger.close()
        memory.store.close()
    summary = json.loads((run_path / "reports" / "summary.json").read_text())["faults"]
    return {"status": status, "kept": kept, "faults": summary, "mlflow": mlflow_problems(run_path, summary)}


def mlflow_problems(run_path: Path, summary: dict[str, Any]) -> list[str]:
    """Missing or doubled stage metrics, missing artifacts, fault metrics unlike the summary (empty: none)."""
    from mlflow import MlflowClient

    from forge.runs.tracking import default_tracking_uri

    # The study's store is shared by the sessions under the runs directory; this session's runs are tagged.
    client = MlflowClient(default_tracking_uri(run_path.parent))
    experiment = client.get_experiment_by_name("forge")
    runs = client.search_runs([experiment.experiment_id], filter_string=f"tags.`forge.session` = '{run_path.name}'")
    parents = [r for r in runs if "mlflow.parentRunId" not in r.data.tags]
    if len(parents) != 1:
        return [f"{len(parents)} parent runs"]
    parent = parents[0]
    children = {r.data.tags["forge.instance"]: r for r in runs if r.data.tags.get("mlflow.parentRunId") == parent.info.run_id}
    problems = []
    stage_steps = list(range(1, STAGES + 1))
    for key in ("active_instances", "checkpoint_mean", "provider_faults", "work_retries"):
        steps = sorted(m.step for m in client.get_metric_history(parent.info.run_id, key))
        if steps != stage_steps:
            problems.append(f"parent {key} at steps {steps}")
    for instance in INSTANCES:
        child = children.get(instance)
        if child is None:
            problems.append(f"no run for {instance}")
            continue
        for key in ("checkpoint_return", "memory_rules", "provider_faults.transient", "work_retries"):
            steps = sorted(m.step for m in client.get_metric_history(child.info.run_id, key))
            if steps != stage_steps:
                problems.append(f"{instance} {key} at steps {steps}")
        if sorted(m.step for m in client.get_metric_history(child.info.run_id, "eval_mean")) != [STAGES + 1]:
            problems.append(f"{instance} eval_mean not logged exactly once")
        for stage in stage_steps:
            if not client.list_artifacts(child.info.run_id, f"memory/stage-{stage}"):
                problems.append(f"{instance} has no memory artifact for stage {stage}")
    logged = client.get_run(parent.info.run_id).data.metrics
    for key, value in fault_metrics(summary).items():
        if logged.get(key) != value:
            problems.append(f"MLflow {key}={logged.get(key)}, summary {value}")
        if len(client.get_metric_history(parent.info.run_id, key)) != 1:
            problems.append(f"MLflow {key} logged {len(client.get_metric_history(parent.info.run_id, key))} times")
    return problems


def infrastructure(summary: dict[str, Any]) -> dict[str, Any]:
    return {"deaths": summary["workers"]["deaths"], "driver": summary["driver"], "store": summary["store"]["restarts"]}


NO_DEATHS = {"training": 0, "checkpoint": 0, "evaluation": 0}
QUIET_DRIVER = {"restarts": 0, "stopped_at": []}


@pytest.fixture(scope="module")
def reference(tmp_path_factory, ray_address) -> dict[str, Any]:
    """The same session with the same provider-fault plan and no infrastructure fault (made once per test
    run; every cell only reads it)."""
    def make(runs: Path) -> None:
        assert forge(*run_args(runs)) == 0

    return observe(made_once(tmp_path_factory, "fault-matrix-reference", make) / SESSION)


def check_cell(fault: str, phase: str, result: dict[str, Any], reference: dict[str, Any],
               expected: dict[str, Any], how: str) -> None:
    """Assert the cell's property; record its row in the matrix either way."""
    try:
        assert result["status"] == "finished"
        assert result["kept"] == reference["kept"], "the session kept something other than the reference did"
        assert result["faults"]["provider"] == reference["faults"]["provider"]
        assert infrastructure(result["faults"]) == expected
        assert result["mlflow"] == []
    except AssertionError as exc:
        MATRIX.append((fault, phase, f"FAIL: {str(exc).splitlines()[0][:150]}"))
        raise
    provider = result["faults"]["provider"]["injected"]["total"]
    MATRIX.append((fault, phase, f"PASS {how}; memory, decisions, returns = reference; "
                                 f"{result['faults']['total'] - provider} infra + {provider} provider faults counted "
                                 f"(summary.json, MLflow); {STAGES}/{STAGES} stages' metrics"))


def test_provider_faults_alone_are_counted_and_retried(reference):
    summary = reference["faults"]
    injected = summary["provider"]["injected"]
    try:
        assert reference["status"] == "finished"
        assert injected["transient"] > 0 and injected["timeout"] > 0 and injected["malformed"] > 0
        # Every transient error and timeout was seen: retried, or (the last of too many for one call) failed it.
        observed = summary["provider"]["observed"]
        assert observed["retried"] + observed["failed_calls"] == injected["transient"] + injected["timeout"]
        assert infrastructure(summary) == {"deaths": NO_DEATHS, "driver": QUIET_DRIVER, "store": 0}
        assert reference["mlflow"] == []
    except AssertionError as exc:
        MATRIX.append(("provider faults", "every call", f"FAIL: {str(exc).splitlines()[0][:150]}"))
        raise
    MATRIX.append(("provider faults", "every call",
                   f"PASS reference: {injected['transient']} transient + {injected['timeout']} timeout "
                   f"({observed['retried']} retried, {observed['failed_calls']} calls failed), {injected['malformed']} "
                   f"malformed; counted in summary.json and MLflow"))


def test_transient_errors_and_timeouts_change_nothing(tmp_path, ray_address):
    """Retries give the same answer: with only transient errors and timeouts, the session keeps exactly what
    a session without any fault keeps."""
    quiet = ["faults.enabled=false"]
    retried = ["faults.malformed_rate=0.0"]
    assert forge(*run_args(tmp_path / "quiet", *quiet)) == 0
    assert forge(*run_args(tmp_path / "retried", *retried)) == 0
    a, b = observe(tmp_path / "quiet" / SESSION), observe(tmp_path / "retried" / SESSION)
    strip = lambda kept: {k: v for k, v in kept.items() if k not in ("tokens", "provider_faults", "evaluation")}
    try:
        assert b["faults"]["provider"]["injected"]["transient"] > 0
        assert strip(a["kept"]) == strip(b["kept"])
        assert a["kept"]["evaluation"][0] == b["kept"]["evaluation"][0]
    except AssertionError as exc:
        MATRIX.append(("transient+timeout only", "every call", f"FAIL: {str(exc).splitlines()[0][:150]}"))
        raise
    injected = b["faults"]["provider"]["injected"]
    MATRIX.append(("transient+timeout only", "every call",
                   f"PASS {injected['transient'] + injected['timeout']} faults retried; memory, decisions, returns "
                   f"= a run without any fault"))


@pytest.mark.parametrize("phase,kill", [
    ("training", "i01@training:1"), ("checkpoint", "i00@checkpoint:2"), ("evaluation", "i01@evaluation")])
def test_a_worker_killed_in_each_phase(phase, kill, tmp_path, reference):
    assert chaos(*run_args(tmp_path, f"ray.chaos_kill={kill}")) == 0
    instance = kill.split("@")[0]
    stage = "" if phase == "evaluation" else kill.rsplit(":", 1)[1]
    assert (tmp_path / SESSION / f".chaos-{instance}-{phase}-{stage or 0}").exists(), "the worker was never killed"
    check_cell("worker killed", f"{phase}{' stage ' + stage if stage else ''}", observe(tmp_path / SESSION), reference,
               {"deaths": {**NO_DEATHS, phase: 1}, "driver": QUIET_DRIVER, "store": 0}, "work redone")


@pytest.mark.parametrize("point,stopped_at", [
    ("after_training@2", "trained@2"), ("after_ledger@1", "decided@1"), ("after_apply@1", "applied@1"),
    ("after_logging@2", "logged@2"), ("evaluation", "evaluation@0")])
def test_the_driver_killed_at_each_boundary_then_resumed(point, stopped_at, tmp_path, reference, ray_address):
    env = dict(os.environ, RAY_ADDRESS=ray_address,
               PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    killed = subprocess.run([sys.executable, "-m", "workers.chaos", *run_args(tmp_path, f"ray.chaos_driver_exit={point}")],
                            cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert killed.returncode == CHAOS_EXIT_CODE, (killed.stdout + killed.stderr)[-3000:]
    assert forge("resume", str(tmp_path / SESSION)) == 0
    check_cell("driver killed", point, observe(tmp_path / SESSION), reference,
               {"deaths": NO_DEATHS, "driver": {"restarts": 1, "stopped_at": [stopped_at]}, "store": 0},
               f"exit {CHAOS_EXIT_CODE} -> forge resume")


def test_redis_restarted_mid_session(tmp_path, reference, ray_address):
    import redis

    server = LocalRedis(tmp_path / "redis", appendonly=True).start()
    restarted: dict[str, float] = {}
    stop = threading.Event()

    def restart_during_stage_2_training() -> None:
        client = redis.Redis.from_url(server.url)
        deadline = time.monotonic() + 600
        while not stop.is_set() and time.monotonic() < deadline:
            try:
                raw = client.hget(f"forge:ledger:{SESSION}", "progress")
            except redis.RedisError:
                raw = None
            if raw and json.loads(raw) == {"phase": "training", "stage": 2}:
                restarted["down_s"] = server.restart()
                return
            time.sleep(0.01)

    watcher = threading.Thread(target=restart_during_stage_2_training, daemon=True)
    watcher.start()
    store = ["memory.store=redis", f"memory.redis_url={server.url}"]
    resumed = False
    try:
        try:
            survived = forge(*run_args(tmp_path, *store)) == 0
        except Exception:  # noqa: BLE001 - the driver itself lost Redis for too long: the cell then resumes
            survived = False
        if not survived:
            resumed = True
            assert forge("resume", str(tmp_path / SESSION)) == 0
        stop.set()
        watcher.join(timeout=30)
        assert "down_s" in restarted, "Redis was never restarted"
        result = observe(tmp_path / SESSION)
    finally:
        stop.set()
        server.stop()
    driver = {"restarts": 1, "stopped_at": result["faults"]["driver"]["stopped_at"]} if resumed else QUIET_DRIVER
    how = "forge resume" if resumed else "survived without resume"
    check_cell("Redis restarted", "stage 2 training", result, reference,
               {"deaths": NO_DEATHS, "driver": driver, "store": 1},
               f"{how} (down {restarted['down_s']:.2f}s, {sum(result['faults']['workers']['store_errors'].values())} "
               f"units redone after store errors)")


# -- network rows: through `forge serve`, with the session limiter and a budget on (tests/served_chaos.py) --

SERVED_BUDGET_USD = 5.0
SERVED_BOUND_S = 900.0


def check_served_row(fault: str, phase: str, run, expected) -> None:
    """Finished (after a resume where the driver died) within the bound; nothing lost; spending monotone and
    within the budget's bound; the fault counted."""
    from tests.served_chaos import describe

    try:
        assert -999 not in run.returncodes, f"still running after {SERVED_BOUND_S:.0f} s: a hang"
        assert not run.watch.errors, run.watch.errors
        assert len(run.watch.landed) == expected["landed"], f"{len(run.watch.landed)} faults landed"
        assert run.status == "finished", f"status {run.status}, exits {run.returncodes}: {run.logs[-800:]}"
        assert run.stages == 2 and run.evaluated == ["i00", "i01", "i02"], "work lost"
        assert run.watch.decreases() == [], f"spending went down: {run.watch.decreases()}"
        assert len(run.watch.samples) >= 3
        assert run.spent["usd"] <= SERVED_BUDGET_USD and run.spent["failed_calls"] > 0
        for fault_landed in run.watch.landed:  # what was spent when the fault landed is still counted
            assert all(run.spent[k] >= v for k, v in fault_landed["spent"].items() if isinstance(v, (int, float)))
        expected["check"](run)
    except AssertionError as exc:
        MATRIX.append((fault, phase, f"FAIL: {str(exc).splitlines()[0][:150]}"))
        raise
    MATRIX.append((fault, phase, f"PASS {describe(run, SERVED_BUDGET_USD)}"))


@pytest.mark.long
def test_served_workers_sigkilled_mid_call(tmp_path, ray_address):
    """Today's main: the two killed workers' slots (max_concurrency=2) are never released; every later call
    waits for ever, and the session hangs past the bound."""
    from tests.served_chaos import run_served_session

    run = run_served_session(tmp_path, ray_address, "workers", kills=2, budget_usd=SERVED_BUDGET_USD,
                             bound_s=SERVED_BOUND_S)

    def counted(run):
        # Every slot a killed worker held at its death comes back (reclaimed by the driver, or expired); a kill
        # can land just after its call ended, so the count is what the watcher saw held after each kill.
        held_at_death = sum(fault["held_at_death"] for fault in run.watch.landed)
        assert held_at_death >= 1, f"no kill landed mid-call: {run.watch.landed}"
        assert run.meta.get("slots_reclaimed", 0) >= held_at_death, \
            f"slots reclaimed {run.meta.get('slots_reclaimed')}, held by the killed workers at their deaths {held_at_death}"
        assert sum(run.faults["workers"]["deaths"].values()) == 2

    check_served_row("worker SIGKILLed mid-call (served)", "any, x2", run, {"landed": 2, "check": counted})


@pytest.mark.long
def test_served_limiter_actor_killed(tmp_path, ray_address):
    """Today's main: the restarted limiter starts from the spending the driver gave it at the start, and
    the next save writes that lower figure over the ledger (spending goes down)."""
    from tests.served_chaos import run_served_session

    run = run_served_session(tmp_path, ray_address, "limiter", budget_usd=SERVED_BUDGET_USD, bound_s=SERVED_BOUND_S)

    def counted(run):
        assert run.faults["driver"]["restarts"] == 0

    check_served_row("limiter actor SIGKILLed (served)", "mid-call", run, {"landed": 1, "check": counted})


@pytest.mark.long
def test_served_driver_killed_mid_stage_then_resumed(tmp_path, ray_address):
    """Today's main: the calls in flight when the driver died are never charged (the resumed limiter starts
    from the last unit's save), so spending after the resume can start below what was spent."""
    from tests.served_chaos import run_served_session

    run = run_served_session(tmp_path, ray_address, "driver", budget_usd=SERVED_BUDGET_USD, bound_s=SERVED_BOUND_S)

    def counted(run):
        assert run.faults["driver"]["restarts"] == 1
        assert run.returncodes[0] != 0 and run.returncodes[1] == 0

    check_served_row("driver SIGKILLed mid-stage (served)", "mid-call -> forge resume", run, {"landed": 1, "check": counted})
