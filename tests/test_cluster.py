"""docs/cluster.md's `ray job submit --working-dir . -- forge run ...` against a cluster started with `ray start --head`."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

from forge.protocol.ledger import SessionLedger
from forge.plumbing.local_redis import free_port

pytestmark = [pytest.mark.slow, pytest.mark.cluster]

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def cluster_pids(ray_tmp: Path, gcs_port: int) -> set[int]:
    """The processes of the cluster started with `--temp-dir=ray_tmp` on `gcs_port`, and their descendants."""
    procs: dict[int, tuple[int, str]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue  # gone meanwhile, or not ours to read
        procs[int(entry.name)] = (ppid, cmd)
    address = re.compile(rf"--(gcs-)?address=\S+:{gcs_port}\b")
    own = {pid for pid, (_, cmd) in procs.items() if str(ray_tmp) in cmd or address.search(cmd)}
    while True:
        children = {pid for pid, (ppid, _) in procs.items() if ppid in own} - own
        if not children:
            break
        own |= children
    own.discard(os.getpid())
    return own


def stop_cluster(ray_tmp: Path, gcs_port: int) -> None:
    """Stop this test's cluster only (`ray stop` would stop every Ray on the machine, other sessions' too)."""
    pids = cluster_pids(ray_tmp, gcs_port)
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for pid in pids:
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(Path(f"/proc/{pid}").exists() for pid in pids):
            time.sleep(0.2)


def private_ports() -> list[str]:
    """Free ports for the head's agents: their fixed defaults (52365, 10001...) are taken by any other
    cluster on the machine, and an agent that cannot bind leaves the head without job submission."""
    names = ("dashboard-agent-listen-port", "dashboard-agent-grpc-port", "runtime-env-agent-port",
             "metrics-export-port", "ray-client-server-port")
    return [f"--{name}={free_port()}" for name in names]


def start_head(ray_tmp: Path, env: dict[str, str], attempts: int = 3) -> tuple[int, int]:
    """`ray start --head` on free ports; the GCS and dashboard ports. Tried again on a machine so loaded
    that the raylet misses Ray's fixed 30 s registration window (what a half-started head left is stopped)."""
    for attempt in range(attempts):
        gcs, dashboard = free_port(), free_port()
        started = subprocess.run(
            [BIN / "ray", "start", "--head", f"--port={gcs}", f"--dashboard-port={dashboard}", "--num-cpus=2",
             "--disable-usage-stats", f"--temp-dir={ray_tmp}", *private_ports()],
            env=env, capture_output=True, text=True, timeout=300,
        )
        if started.returncode == 0:
            return gcs, dashboard
        stop_cluster(ray_tmp, gcs)
        if attempt == attempts - 1 or "timed out during startup" not in started.stderr:
            raise AssertionError(started.stderr[-2000:])
    raise AssertionError("unreachable")


def start_mlflow_server(root: Path) -> tuple[subprocess.Popen, str]:
    """`mlflow server` on a free loopback port, as a user starts one (its own store and artifacts); not
    waited for (see `wait_for_server`)."""
    port = free_port()
    with open(root / "server.log", "w") as log:
        server = subprocess.Popen(
            [BIN / "mlflow", "server", "--host", "127.0.0.1", "--port", str(port), "--workers", "1",
             "--backend-store-uri", f"sqlite:///{root / 'mlflow.db'}", "--artifacts-destination", str(root / "artifacts")],
            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)  # its own group: see stop_server
    return server, f"http://127.0.0.1:{port}"


def stop_server(server: subprocess.Popen) -> None:
    """`mlflow server` runs uvicorn and job consumers as children that outlive a terminated parent: the
    whole process group this test started goes."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(server.pid, sig)
        except ProcessLookupError:
            return
        try:
            server.wait(timeout=20)
            time.sleep(1)
        except subprocess.TimeoutExpired:
            pass


def wait_for_server(server: subprocess.Popen, url: str, log: Path) -> None:
    deadline = time.monotonic() + 600  # a loaded 2-core machine takes minutes to import and start it
    while True:
        try:
            urllib.request.urlopen(f"{url}/health", timeout=5)
            return
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"mlflow server did not start: {log.read_text()[-2000:]}")
            time.sleep(1)


def submit(dashboard: int, env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    """docs/cluster.md's `ray job submit` (its address on this cluster's dashboard port), from the repository."""
    deadline = time.monotonic() + 300
    while True:
        job = subprocess.run([BIN / "ray", "job", "submit", "--address", f"http://127.0.0.1:{dashboard}", *args],
                             cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
        # A loaded machine starts the head's job agent some seconds after `ray start` returns.
        if "No available agent to submit job" not in job.stdout + job.stderr or time.monotonic() > deadline:
            break
        time.sleep(5)
    assert job.returncode == 0, (job.stdout + job.stderr)[-3000:]
    assert "succeeded" in job.stdout + job.stderr
    return job


@pytest.mark.timeout(1800)  # two demo jobs, a head, an MLflow server and a resume: minutes on a loaded machine
def test_the_readme_job_keeps_its_results_after_the_cluster_stops(tmp_path):
    """docs/cluster.md's cluster commands as written: results in ~/forge_results on the head (HOME is a temporary
    directory here), never in Ray's copy of the working directory; MLflow in the durable default store
    and, for the second job, a local `mlflow server` over HTTP; report and resume from the repository."""
    from mlflow import MlflowClient

    from forge.runs.tracking import default_tracking_uri, session_runs

    # Ray's socket paths must stay under 108 bytes: pytest's tmp_path is too deep for them.
    ray_tmp = Path(tempfile.mkdtemp(prefix="ray-", dir="/tmp"))
    home = tmp_path / "home"
    home.mkdir()
    env = dict(os.environ, PATH=f"{BIN}:{os.environ['PATH']}", RAY_AUTH_MODE="token", HOME=str(home))
    env.pop("MLFLOW_TRACKING_URI", None)
    (tmp_path / "mlflow-server").mkdir()
    server, server_url = start_mlflow_server(tmp_path / "mlflow-server")
    gcs = dashboard = 0
    try:
        subprocess.run([BIN / "ray", "get-auth-token", "--generate"], env=env, check=True, capture_output=True)
        gcs, dashboard = start_head(ray_tmp, env)
        try:
            plain = submit(dashboard, env, "--working-dir", ".", "--", "forge", "run", "configs/demo.yaml", "run.name=jobsubmit")
            wait_for_server(server, server_url, tmp_path / "mlflow-server" / "server.log")
            submit(dashboard, env, "--working-dir", ".", "--runtime-env-json",
                   json.dumps({"env_vars": {"MLFLOW_TRACKING_URI": server_url}}),
                   "--", "forge", "run", "configs/demo.yaml", "run.name=jobhttp",
                   # Smaller than the docs': this job is about where MLflow writes, not the session.
                   "protocol.num_instances=2", "protocol.num_evaluation_runs=1")
            # Nothing was written into Ray's unpacked copy of the working directory.
            assert not list(ray_tmp.glob("**/_ray_pkg_*/runs")), "a job wrote into Ray's working-directory copy"
        finally:
            stop_cluster(ray_tmp, gcs)
            shutil.rmtree(ray_tmp, ignore_errors=True)
        gcs = 0

        runs = home / "forge_results" / "runs"
        assert f"results are kept in {runs} instead" in plain.stdout  # in the job's log, on one line
        for name in ("jobsubmit", "jobhttp"):
            ledger = SessionLedger.open(str(runs / name), name)
            assert ledger.status() == "finished" and len(ledger.stages()) >= 1, name
            ledger.close()
            assert json.loads((runs / name / "reports" / "summary.json").read_text())["run_dir"] == str(runs / name)

        # MLflow: the first job in the durable default store beside its run directory, the second on the server.
        durable = MlflowClient(default_tracking_uri(runs))
        parent, instances = session_runs(durable, "forge", "jobsubmit")
        assert len(instances) == 4 and durable.get_metric_history(parent.info.run_id, "checkpoint_mean")
        remote = MlflowClient(server_url)
        parent, instances = session_runs(remote, "forge", "jobhttp")
        curve = remote.get_metric_history(parent.info.run_id, "checkpoint_mean")
        assert [m.step for m in sorted(curve, key=lambda m: m.step)] == [1, 2, 3]
        assert remote.list_artifacts(instances[0].info.run_id, "memory/stage-1")  # the server keeps the artifacts
        with pytest.raises(LookupError):
            session_runs(durable, "forge", "jobhttp")
        print(f"\njobhttp on {server_url}: checkpoint_mean by stage "
              f"{[(m.step, m.value) for m in sorted(curve, key=lambda m: m.step)]}; "
              f"{len(instances)} instance runs")
    finally:
        if gcs:  # the head started before a failure
            stop_cluster(ray_tmp, gcs)
            shutil.rmtree(ray_tmp, ignore_errors=True)
        stop_server(server)

    # From the directory the jobs were submitted from, after the cluster is gone.
    local = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    local.pop("RAY_ADDRESS", None)
    for command in (["report", str(runs / "jobsubmit")], ["resume", str(runs / "jobsubmit")]):
        done = subprocess.run([sys.executable, "-m", "forge.cli", *command], cwd=ROOT, env=local,
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
    ledger = SessionLedger.open(str(runs / "jobsubmit"), "jobsubmit")
    assert ledger.status() == "finished" and [f["kind"] for f in ledger.faults()] == []
    ledger.close()
    # The resume continued the job's MLflow runs in the durable store, not new ones elsewhere.
    assert len(durable.search_runs([durable.get_experiment_by_name("forge").experiment_id])) == 5
