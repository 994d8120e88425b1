"""The session driver reports through the progress it is given, and draws nothing itself."""

from __future__ import annotations

from pathlib import Path

import pytest

from forge.config import load_config
from forge.runs.rundir import RunDirectory

ROOT = Path(__file__).resolve().parents[1]


class Recorded:
    """A SessionProgress that keeps every call."""

    def __init__(self) -> None:
        self.calls: list[tuple] = []

    def notice(self, text: str, *, warning: bool = False) -> None:
        self.calls.append(("notice", text, warning))

    def phase_started(self, label, phase, instances) -> None:
        self.calls.append(("started", label, phase, tuple(instances)))

    def unit_changed(self, instance: str, text: str, *, done: bool = False) -> None:
        self.calls.append(("unit", instance, done))

    def phase_finished(self) -> None:
        self.calls.append(("finished",))


@pytest.fixture()
def ray_session():
    import ray

    yield
    if ray.is_initialized():
        ray.shutdown()


def test_the_driver_reports_phases_units_and_stage_lines_to_its_progress(tmp_path, ray_session):
    from workers.driver import SessionDriver

    cfg = load_config(ROOT / "configs" / "forge.yaml", overrides=[
        "protocol.num_instances=2", "protocol.num_stages=1", "protocol.max_attempts=1", "protocol.checkpoint_runs=1",
        "protocol.num_evaluation_runs=1", "env.max_steps=5", "tracking.enabled=false", "surrogate.latency_ms=0",
        f"run.runs_dir={tmp_path}", "run.name=p"])
    progress = Recorded()
    SessionDriver(cfg, RunDirectory.create(cfg), progress=progress).run()
    kinds = [c[0] for c in progress.calls]
    phases = [c[1:3] for c in progress.calls if c[0] == "started"]
    assert phases == [("stage 1: training", "training"), ("stage 1: checkpoint", "checkpoint"),
                      ("final evaluation", "evaluation")]
    assert kinds.count("started") == kinds.count("finished") == 3
    assert sorted(c[1] for c in progress.calls if c[0] == "unit" and c[2]) == ["i00", "i00", "i00", "i01", "i01", "i01"]
    notices = [c[1] for c in progress.calls if c[0] == "notice"]
    assert "2 instances in" in notices[0] and any(n.startswith("stage 1 checkpoint: i00") for n in notices)


class StopAfterTraining(Recorded):
    """Stands in for a driver killed at the end of stage 1's training (before any stage reached the ledger)."""

    def phase_finished(self) -> None:
        super().phase_finished()
        if any(c[:2] == ("started", "stage 1: training") for c in self.calls):
            raise KeyboardInterrupt


def test_spending_is_in_the_ledger_after_every_unit_not_only_after_a_stage(tmp_path, ray_session):
    from forge.protocol.ledger import SessionLedger
    from workers.driver import SessionDriver

    cfg = load_config(ROOT / "configs" / "forge.yaml", overrides=[
        "protocol.num_instances=2", "protocol.num_stages=1", "protocol.max_attempts=1", "protocol.checkpoint_runs=1",
        "protocol.num_evaluation_runs=1", "env.max_steps=5", "tracking.enabled=false", "surrogate.latency_ms=0",
        # A budget, so that the surrogate's calls (in-process) are counted by the session limiter.
        "budget.max_prompt_tokens=100000000", f"run.runs_dir={tmp_path}", "run.name=k"])
    run_dir = RunDirectory.create(cfg)
    with pytest.raises(KeyboardInterrupt):
        SessionDriver(cfg, run_dir, progress=StopAfterTraining()).run()
    ledger = SessionLedger.open(str(run_dir.path), run_dir.session_id)
    assert ledger.stages() == []  # stopped before stage 1 was decided...
    spent = ledger.meta()["spent"]
    assert spent["prompt_tokens"] > 0 and spent["completion_tokens"] > 0  # ...yet its training's spending was kept
