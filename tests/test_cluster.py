"""`ray job submit --working-dir . -- forge run ...` against a cluster started with `ray start --head`."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from forge.protocol.ledger import SessionLedger
from forge.local_redis import free_port

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


def test_job_submit_to_a_local_cluster(tmp_path):
    # Ray's socket paths must stay under 108 bytes: pytest's tmp_path is too deep for them.
    ray_tmp = Path(tempfile.mkdtemp(prefix="ray-", dir="/tmp"))
    env = dict(os.environ, PATH=f"{BIN}:{os.environ['PATH']}", RAY_AUTH_MODE="token")
    gcs, dashboard = free_port(), free_port()
    subprocess.run([BIN / "ray", "get-auth-token", "--generate"], env=env, check=True, capture_output=True)
    started = subprocess.run(
        [BIN / "ray", "start", "--head", f"--port={gcs}", f"--dashboard-port={dashboard}", "--num-cpus=2",
         "--disable-usage-stats", f"--temp-dir={ray_tmp}"],
        env=env, capture_output=True, text=True, timeout=180,
    )
    assert started.returncode == 0, started.stderr[-2000:]
    runs = tmp_path / "runs"
    try:
        for _ in range(6):
            job = subprocess.run(
                [BIN / "ray", "job", "submit", "--address", f"http://127.0.0.1:{dashboard}", "--working-dir", ".",
                 "--", "forge", "run", "configs/forge.yaml", "protocol.num_instances=2", "protocol.num_stages=1",
                 "protocol.max_attempts=1", "protocol.checkpoint_runs=1", "protocol.num_evaluation_runs=1",
                 "env.max_steps=10", "tracking.enabled=false", f"run.runs_dir={runs}", "run.name=cluster"],
                cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
            )
            # A loaded machine starts the head's job agent some seconds after `ray start` returns.
            if "No available agent to submit job" not in job.stdout + job.stderr:
                break
            time.sleep(5)
        assert job.returncode == 0, (job.stdout + job.stderr)[-3000:]
        assert "succeeded" in job.stdout + job.stderr
    finally:
        stop_cluster(ray_tmp, gcs)
        shutil.rmtree(ray_tmp, ignore_errors=True)
    ledger = SessionLedger.open(str(runs / "cluster"), "cluster")
    assert ledger.status() == "finished" and len(ledger.stages()) == 1
    assert set(ledger.evaluation().returns) == {"i00", "i01"}
