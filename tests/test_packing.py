"""Many instances per worker: the packing rule, thread safety of instances sharing a process, and
whole sessions on Ray giving the same results whatever the packing, also when a packed worker dies."""

from __future__ import annotations

import random
import threading
from pathlib import Path

import pytest

from forge.config import load_config, to_yaml
from forge.memory import MemoryManager, open_store
from forge.protocol.ledger import SessionLedger
from forge.runs.rundir import RunDirectory
from workers.packing import instances_per_worker, pack

ROOT = Path(__file__).resolve().parents[1]


# -- the packing rule (pure) ----------------------------------------------------------------------

def test_automatic_packing_keeps_every_core_busy_and_small_populations_unpacked():
    assert instances_per_worker(3, 0, cluster_cpus=2) == 1  # at least 4 processes: one per instance
    assert instances_per_worker(10, 0, cluster_cpus=2) == 3  # 4 processes
    assert instances_per_worker(100, 0, cluster_cpus=2) == 25
    assert instances_per_worker(100, 0, cluster_cpus=16) == 4  # 32 processes
    assert instances_per_worker(10, 5, cluster_cpus=2) == 5
    assert instances_per_worker(3, 5, cluster_cpus=2) == 3
    with pytest.raises(ValueError, match="instances_per_worker"):
        instances_per_worker(3, -1, cluster_cpus=2)


def test_pack_spreads_instances_evenly_in_order():
    names = [f"i{k:02d}" for k in range(5)]
    assert pack(names, 2) == [["i00", "i01"], ["i02", "i03"], ["i04"]]
    assert pack(names, 5) == [names]
    assert pack(names, 1) == [[n] for n in names]
    groups = pack([f"i{k:02d}" for k in range(100)], 30)
    assert [len(g) for g in groups] == [25, 25, 25, 25]
    assert sum(groups, []) == [f"i{k:02d}" for k in range(100)]


# -- instances in threads of one process ----------------------------------------------------------

def _workers(store_dir: Path, instances: list[str]):
    from workers.instance_actor import InstanceWorker

    cfg = load_config(ROOT / "configs" / "forge.yaml", overrides=[
        "env.max_steps=12", "protocol.max_attempts=2", "surrogate.latency_ms=2"])
    return {i: InstanceWorker(i, "threads", to_yaml(cfg), sqlite_path=str(store_dir)) for i in instances}


def _unit(worker, instance: str) -> dict:
    trained = worker.train_stage(1, seed=100 + int(instance[1:]))
    played = worker.play([7, 8], "evaluation")
    return {"attempts": [(a.total_return, a.failed) for a in trained.attempts],
            "digest": played.digest, "returns": played.returns,
            "traces": {k: v["total_return"] for k, v in {**trained.artifacts.traces,
                                                          **played.artifacts.traces}.items()}}


def test_instances_interleaved_in_threads_match_each_run_alone(tmp_path):
    alone = {}
    for i in ("i00", "i01"):
        alone[i] = _unit(_workers(tmp_path / f"alone-{i}", [i])[i], i)
    workers = _workers(tmp_path / "together", ["i00", "i01"])
    together: dict[str, dict] = {}
    stop = threading.Event()

    def noise() -> None:  # someone else in the process drawing from the global `random`
        while not stop.is_set():
            random.random()

    threads = [threading.Thread(target=lambda i=i: together.__setitem__(i, _unit(workers[i], i))) for i in workers]
    threads.append(threading.Thread(target=noise))
    for t in threads:
        t.start()
    for t in threads[:-1]:
        t.join(timeout=600)
    stop.set()
    threads[-1].join()
    assert together == alone
    assert alone["i00"] != alone["i01"]  # different seeds: the comparison could tell them apart


# -- whole sessions on Ray --------------------------------------------------------------------------

SMALL = ["protocol.num_instances=5", "protocol.num_stages=1", "protocol.max_attempts=2", "protocol.checkpoint_runs=1",
         "protocol.num_evaluation_runs=1", "env.max_steps=12", "tracking.enabled=false", "protocol.theta=1.0",
         "surrogate.latency_ms=0"]


@pytest.fixture(scope="module")
def ray_session():
    import ray

    yield
    if ray.is_initialized():
        ray.shutdown()


def session(runs: Path, *overrides: str) -> dict:
    from workers.chaos import chaos_hooks
    from workers.driver import SessionDriver

    cfg = load_config(ROOT / "configs" / "forge.yaml", overrides=[*SMALL, f"run.runs_dir={runs}", "run.name=s", *overrides])
    run_dir = RunDirectory.create(cfg)
    driver = SessionDriver(cfg, run_dir, hooks=chaos_hooks(cfg, run_dir.path))  # the chaos settings some give
    driver.run()
    ledger = SessionLedger.open(str(run_dir.path), "s")
    with open_store(str(run_dir.path)) as store:
        memory = MemoryManager(store)
        digests = {key: memory.snapshot(key).digest for key in memory.instances()}
    stage = ledger.stages()[0]
    return {"digests": digests, "checkpoint": stage.checkpoint, "evaluation": ledger.evaluation().returns,
            "tokens": stage.tokens, "retries": stage.retries, "workers": len(driver.worker_pids()),
            "files": sorted(str(p.relative_to(run_dir.path)) for p in run_dir.path.rglob("*.json")
                            if p.parts[-2] != "reports")}


@pytest.mark.long
@pytest.mark.slow
def test_a_session_packed_one_or_five_per_worker_gives_the_same_results(tmp_path, ray_session):
    one = session(tmp_path / "one", "ray.instances_per_worker=1")
    five = session(tmp_path / "five", "ray.instances_per_worker=5")
    assert (one["workers"], five["workers"]) == (5, 1)
    for key in ("digests", "checkpoint", "evaluation", "tokens", "files"):
        assert one[key] == five[key], key
    assert len(one["digests"]) >= 2 and any(f.startswith("failures/") for f in one["files"])

    # A packed worker killed mid-training: only its instances are redone, and the session ends the same.
    killed = session(tmp_path / "killed", "ray.instances_per_worker=2", "ray.chaos_kill=i01@1")
    assert killed["workers"] == 3  # [i00, i01] [i02, i03] [i04]
    assert killed["retries"]["i01"] == 1
    assert killed["retries"]["i00"] <= 1  # redone only if it was still working when its worker died
    assert all(killed["retries"][i] == 0 for i in ("i02", "i03", "i04"))
    for key in ("digests", "checkpoint", "evaluation", "tokens", "files"):
        assert killed[key] == one[key], key


# -- the rulebook's failure snapshots reach workers without the run directory ------------------------

def test_the_driver_sends_a_worker_the_failure_snapshots_behind_its_memory(tmp_path):
    from forge.memory import Artifact, Capacities, Provenance
    from forge.runs.rundir import failure_path
    from workers.driver import SessionDriver
    from workers.instance_actor import InstanceWorker

    cfg = load_config(ROOT / "configs" / "forge.yaml", overrides=[
        "memory.injection=rulebook", f"rulebook.store={tmp_path / 'rulebook.db'}", f"run.runs_dir={tmp_path}",
        "run.name=rb"])
    run_dir = RunDirectory.create(cfg)
    driver = SessionDriver(cfg, run_dir)
    learned = Provenance(session="rb", instance="i01", stage=1, attempt=2, actor="reflector")
    driver.memory.apply_artifacts("rb/i00", [Artifact("rule", "analyst", "Restore a host running a red session.")],
                                  Capacities(), learned, 0.9)
    run_dir.write_json(failure_path("i01-s1-a2"), {"failure_id": "i01-s1-a2", "stage": 1})
    run_dir.write_json(failure_path("i00-s1-a1"), {"failure_id": "i00-s1-a1"})  # behind no item of i00's memory
    sent = driver._failures_behind("i00")
    assert sent == {"failures/i01-s1-a2.json": {"failure_id": "i01-s1-a2", "stage": 1}}

    worker = InstanceWorker("i00", "rb", to_yaml(cfg), sqlite_path=str(run_dir.path))
    worker._begin_unit("training", 2, sent)
    scratch = worker._scratch.path
    assert scratch != run_dir.path and run_dir.path not in scratch.parents
    assert (scratch / "failures" / "i01-s1-a2.json").is_file()
    import shutil

    shutil.rmtree(scratch)
