"""`ray job submit --working-dir . -- forge run ...` against a cluster started with `ray start --head`."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import sys
from pathlib import Path

import pytest

from forge.protocol.ledger import SessionLedger
from tests.conftest import free_port

pytestmark = [pytest.mark.slow, pytest.mark.cluster]

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


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
        job = subprocess.run(
            [BIN / "ray", "job", "submit", "--address", f"http://127.0.0.1:{dashboard}", "--working-dir", ".", "--",
             "forge", "run", "configs/forge.yaml", "protocol.num_instances=2", "protocol.num_stages=1",
             "protocol.max_attempts=1", "protocol.checkpoint_runs=1", "protocol.num_evaluation_runs=1",
             "env.max_steps=10", "tracking.enabled=false", f"run.runs_dir={runs}", "run.name=cluster"],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
        )
        assert job.returncode == 0, (job.stdout + job.stderr)[-3000:]
        assert "succeeded" in job.stdout + job.stderr
    finally:
        subprocess.run([BIN / "ray", "stop", "--force"], env=env, capture_output=True, timeout=120)
        shutil.rmtree(ray_tmp, ignore_errors=True)
    ledger = SessionLedger.open(str(runs / "cluster"), "cluster")
    assert ledger.status() == "finished" and len(ledger.stages()) == 1
    assert set(ledger.evaluation().returns) == {"i00", "i01"}
