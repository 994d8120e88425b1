"""Meander and longer horizons in sessions: the per-setting configs, and a 100-step Meander session that
is killed at a stage boundary, resumed, checkpointed and reported as a 30-step one is (real Ray, CybORG)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from forge.config import load_config

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("name, red, steps, theta", [
    ("meander", "meander", 30, -11.0), ("meander50", "meander", 50, -24.0), ("meander100", "meander", 100, -62.0),
    ("horizon50", "b_line", 50, -28.0), ("horizon100", "b_line", 100, -60.0), ("paper", "b_line", 30, -15.0),
])
def test_each_setting_has_its_own_graduation_threshold_and_the_same_per_step_trigger(name, red, steps, theta):
    cfg = load_config(ROOT / "configs" / f"{name}.yaml")
    assert (cfg.env.red_agent.value, cfg.env.max_steps, cfg.protocol.theta) == (red, steps, theta)
    assert cfg.protocol.tau == -1.1


@pytest.mark.long
@pytest.mark.slow
def test_a_100_step_meander_session_resumes_checkpoints_and_reports(tmp_path):
    from forge.cli import main
    from forge.protocol.ledger import SessionLedger
    from workers.chaos import CHAOS_EXIT_CODE

    runs = tmp_path / "runs"
    args = ["run", str(ROOT / "configs" / "meander100.yaml"), "protocol.num_instances=2", "protocol.num_stages=2",
            "protocol.max_attempts=1", "protocol.checkpoint_runs=1", "protocol.num_evaluation_runs=1",
            "tracking.enabled=false", f"run.runs_dir={runs}", "run.name=long"]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    killed = subprocess.run([sys.executable, "-m", "workers.chaos", *args, "ray.chaos_driver_exit=after_apply@1"],
                            cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    assert killed.returncode == CHAOS_EXIT_CODE, (killed.stdout + killed.stderr)[-3000:]
    run_path = runs / "long"
    ledger = SessionLedger.open(str(run_path), "long")
    try:
        assert ledger.status() == "running" and [s.stage for s in ledger.stages()] == [1]
    finally:
        ledger.close()
    try:
        assert main(["resume", str(run_path)]) == 0
    finally:
        import ray

        if ray.is_initialized():
            ray.shutdown()
    ledger = SessionLedger.open(str(run_path), "long")
    try:
        assert ledger.status() == "finished" and [s.stage for s in ledger.stages()] == [1, 2]
        evaluation = ledger.evaluation()
    finally:
        ledger.close()
    assert set(evaluation.returns) == {"i00", "i01"}
    # every checkpoint and evaluation episode ran the full 100 steps against Meander
    frozen = [json.loads(p.read_text()) for p in (run_path / "traces").rglob("*.json") if "train" not in p.name]
    assert frozen and all(len(trace["steps"]) == 100 for trace in frozen)
    summary = json.loads((run_path / "reports" / "summary.json").read_text())
    assert summary and (run_path / "reports").is_dir()
