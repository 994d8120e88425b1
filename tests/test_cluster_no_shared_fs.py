"""A FORGE session on a three-node Ray cluster whose workers cannot see the run directory, and whose
instances run on every worker node.

The head node (`ray start --head`, no CPUs: it schedules no worker) and two worker nodes (`ray start
--address ...`, 2 CPUs each) run on this machine, but each worker node is started inside its own mount
namespace (`unshare -m`) in which an empty tmpfs is mounted over the directory the driver's runs live
in. Every worker process descends from such a node, so none of them can open, list or create anything
under the run directory: not the run directory, and not `forge.db` (memory and ledger are in Redis).
The test checks that from a task on a worker node, runs the session with `forge run` as a Ray
driver on the head, and then finds on the driver's side every trace, every failure snapshot and the
report, and `forge report` reads them. The session's placement (workers/placement.py) puts instances on
both worker nodes and none on the head, and its summary says so.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from forge.failure.snapshot import failure_id
from forge.plumbing.local_redis import free_port
from forge.protocol.ledger import SessionLedger
from tests.test_cluster import BIN, stop_cluster

pytestmark = [pytest.mark.slow, pytest.mark.cluster]

ROOT = Path(__file__).resolve().parents[1]
WORKER_NODES = 2

PROBE = """
import json, os, sys, ray
ray.init(address=sys.argv[1], logging_level="ERROR")
nodes = [n for n in ray.nodes() if n["Alive"]]
@ray.remote(num_cpus=1)  # the head has no CPU: this runs on the worker node
def look(path):
    return {"exists": os.path.exists(path), "parent_entries": os.listdir(os.path.dirname(path)),
            "mnt": os.readlink("/proc/self/ns/mnt")}
print(json.dumps({"nodes": len(nodes), **ray.get(look.remote(sys.argv[2]))}))
"""


def ray_start(args: list[str], env: dict, namespace_over: Path | None = None) -> subprocess.CompletedProcess:
    command = [str(BIN / "ray"), "start", *args]
    if namespace_over is not None:
        # A private mount namespace: an empty tmpfs over the driver's directory, then the node's daemons.
        script = f'mount -t tmpfs forge-hidden "{namespace_over}" && exec "$@"'
        command = ["unshare", "-m", "--propagation", "private", "sh", "-c", script, "sh", *command]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=180)


@pytest.mark.long
@pytest.mark.skipif(shutil.which("unshare") is None or os.geteuid() != 0,
                    reason="needs unshare -m (root) to give the worker node its own view of the filesystem")
def test_a_session_whose_workers_cannot_see_the_run_directory(clean_redis_url):
    ray_tmp = Path(tempfile.mkdtemp(prefix="ray-", dir="/tmp"))
    driver_only = Path(tempfile.mkdtemp(prefix="forge-driver-only-", dir="/tmp"))
    runs = driver_only / "runs"
    env = dict(os.environ, PATH=f"{BIN}:{os.environ['PATH']}", RAY_AUTH_MODE="token", PYTHONPATH=str(ROOT))
    gcs = free_port()
    subprocess.run([BIN / "ray", "get-auth-token", "--generate"], env=env, check=True, capture_output=True)
    try:
        head = ray_start([
            "--head", f"--port={gcs}", "--num-cpus=0", "--include-dashboard=false", "--disable-usage-stats",
            f"--temp-dir={ray_tmp}"], env)
        assert head.returncode == 0, head.stderr[-2000:]
        for _ in range(WORKER_NODES):
            worker = ray_start([
                f"--address=127.0.0.1:{gcs}", "--num-cpus=2", "--disable-usage-stats",
                f"--dashboard-agent-listen-port={free_port()}", f"--metrics-export-port={free_port()}",
                f"--runtime-env-agent-port={free_port()}"], env, namespace_over=driver_only)
            assert worker.returncode == 0, worker.stderr[-2000:]
        runs.mkdir()
        for _ in range(30):
            probe = subprocess.run([sys.executable, "-c", PROBE, f"127.0.0.1:{gcs}", str(runs)], env=env,
                                   capture_output=True, text=True, timeout=300)
            assert probe.returncode == 0, probe.stderr[-3000:]
            seen = json.loads(probe.stdout.strip().splitlines()[-1])
            if seen["nodes"] == 1 + WORKER_NODES:
                break
            time.sleep(2)
        assert seen["nodes"] == 1 + WORKER_NODES
        # A worker node sees an empty directory where the driver keeps its runs.
        assert seen == {"nodes": 1 + WORKER_NODES, "exists": False, "parent_entries": [], "mnt": seen["mnt"]}
        assert seen["mnt"] != os.readlink("/proc/self/ns/mnt")

        session = subprocess.run(
            [sys.executable, "-m", "forge.cli", "run", str(ROOT / "configs" / "forge.yaml"),
             "protocol.num_instances=3", "protocol.num_stages=1", "protocol.max_attempts=2",
             "protocol.checkpoint_runs=1", "protocol.num_evaluation_runs=1", "env.max_steps=12", "protocol.theta=1.0",
             "surrogate.latency_ms=0", "ray.instances_per_worker=2", f"ray.address=127.0.0.1:{gcs}",
             "memory.store=redis", f"memory.redis_url={clean_redis_url}", "tracking.enabled=false",
             f"run.runs_dir={runs}", "run.name=nofs"],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
        assert session.returncode == 0, (session.stdout + session.stderr)[-4000:]
        assert "3 instances in 2 worker processes" in session.stdout
        assert "instances per node:" in session.stdout
    finally:
        stop_cluster(ray_tmp, gcs)
        shutil.rmtree(ray_tmp, ignore_errors=True)

    run_path = runs / "nofs"
    ledger = SessionLedger.open(clean_redis_url, "nofs")
    assert ledger.status() == "finished"
    stage = ledger.stages()[0]
    expected = set()
    for instance, attempts in stage.attempts.items():
        for a in attempts:
            expected.add(f"traces/{instance}/s1-train-a{a['attempt']}.json")
            if a["failed"]:
                expected.add(f"failures/{failure_id(instance, 1, a['attempt'])}.json")
        expected |= {f"traces/{instance}/s1-checkpoint-0.json", f"traces/{instance}/eval-0.json"}
    written = {str(p.relative_to(run_path)) for p in run_path.rglob("*.json")
               if p.relative_to(run_path).parts[0] in ("traces", "failures")}
    assert any(e.startswith("failures/") for e in expected)
    assert written == expected
    # Every worker node ran instances (two worker processes, one per node), the head none; the summary
    # (printed and in summary.json) names each node's share.
    nodes = json.loads((run_path / "reports" / "summary.json").read_text())["meta"]["nodes"]
    workers = [n for n in nodes if not n["head"]]
    assert len(workers) == WORKER_NODES and all(n["instances"] for n in workers), nodes
    assert [n["instances"] for n in nodes if n["head"]] == [[]], nodes
    assert sorted(i for n in nodes for i in n["instances"]) == ["i00", "i01", "i02"]
    for n in workers:
        assert f"{n['node']} {len(n['instances'])}" in session.stdout
    trace = json.loads((run_path / "traces" / "i00" / "eval-0.json").read_text())
    assert trace["instance"] == "i00" and trace["total_return"] == ledger.evaluation().returns["i00"][0]
    assert (run_path / "reports").is_dir() and any((run_path / "reports").iterdir())
    report = subprocess.run([sys.executable, "-m", "forge.cli", "report", str(run_path)], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=300)
    assert report.returncode == 0, (report.stdout + report.stderr)[-3000:]
    shutil.rmtree(driver_only, ignore_errors=True)
