"""A study (forge.study): conditions x sweep grid x K sessions with derived seeds; run by `forge run
--sessions K --sweep KEY=...` and compared on sessions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from forge.config import ConfigError, load_config
from forge.study import parse_sweep, plan_study

ROOT = Path(__file__).resolve().parents[1]


def test_a_study_plans_every_arm_k_times_with_seeds_shared_across_arms():
    cfg = load_config(ROOT / "configs" / "forge.yaml")
    plan = plan_study(cfg, ["forge", "reflexion"], [parse_sweep("protocol.tau=-1.1,-2")], 3, "st")
    assert len(plan) == 2 * 2 * 3
    arms = list(dict.fromkeys(s.arm for s in plan))
    assert arms == ["forge protocol.tau=-1.1", "forge protocol.tau=-2", "reflexion protocol.tau=-1.1",
                    "reflexion protocol.tau=-2"]
    seeds = {(s.arm, s.index): [o for o in s.overrides if o.startswith("protocol.seed=")][0] for s in plan}
    assert seeds[("forge protocol.tau=-2", 1)] == seeds[("reflexion protocol.tau=-1.1", 1)]  # paired by k
    assert len({seeds[("forge protocol.tau=-2", k)] for k in range(3)}) == 3
    built = [load_config(ROOT / "configs" / "forge.yaml", overrides=list(s.overrides)) for s in plan]
    assert {c.run.study for c in built} == {"st"} and len({c.run.name for c in built}) == 12
    assert built[3].protocol.tau == -2 and built[3].run.arm == "forge protocol.tau=-2"
    # One session per arm keeps the config's own seeds: a plain `forge run`.
    (single,) = plan_study(cfg, ["forge"], [], 1, "st")
    assert not any(o.startswith("protocol.seed=") for o in single.overrides)


def test_bad_study_specs_are_named():
    cfg = load_config(ROOT / "configs" / "forge.yaml")
    with pytest.raises(ConfigError, match="--sweep 'protocol.tau'"):
        parse_sweep("protocol.tau")
    with pytest.raises(ConfigError, match="--sweep protocol.seed"):
        parse_sweep("protocol.seed=1,2")
    with pytest.raises(ConfigError, match="--sessions"):
        plan_study(cfg, ["forge"], [], 0, "st")
    with pytest.raises(ConfigError, match="protocol.nonsense"):
        load_config(overrides=list(plan_study(cfg, ["forge"], [parse_sweep("protocol.nonsense=1,2")], 1, "st")[0].overrides))


@pytest.mark.long
@pytest.mark.slow
def test_forge_run_sweep_runs_the_grid_into_one_study_and_compares_on_sessions(tmp_path, capsys):
    from forge.cli import main

    small = ["protocol.num_instances=2", "protocol.num_stages=1", "protocol.max_attempts=1", "protocol.checkpoint_runs=1",
             "protocol.num_evaluation_runs=1", "env.max_steps=8", f"run.runs_dir={tmp_path}", "run.study=sweep-test"]
    assert main(["run", str(ROOT / "configs" / "forge.yaml"), "--sweep", "protocol.tau=-1.1,-11", "--sessions", "2",
                 *small]) == 0
    printed = capsys.readouterr().out
    assert "2 arm(s) x 2 session(s) = 4 sessions" in printed
    data = json.loads((tmp_path / "comparison-sweep-test" / "comparison.json").read_text())
    assert [c["label"] for c in data["conditions"]] == ["forge protocol.tau=-1.1", "forge protocol.tau=-11"]
    assert all(len(c["sessions"]) == 2 for c in data["conditions"])
    (pair,) = data["pairs"]
    assert pair["unit"] == "sessions" and pair["verdict"] == "too few sessions to test"
    assert "2 vs 2 sessions: not testable at this size" in printed
    from mlflow import MlflowClient

    from forge.tracking import default_tracking_uri

    client = MlflowClient(default_tracking_uri(tmp_path))
    experiment = client.get_experiment_by_name("sweep-test")
    parents = [r for r in client.search_runs([experiment.experiment_id]) if "mlflow.parentRunId" not in r.data.tags]
    assert len(parents) == 4
