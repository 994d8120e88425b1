"""A study (forge.analysis.study): conditions x sweep grid x K sessions with derived seeds; run by `forge run
--sessions K --sweep KEY=...` and compared on sessions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from forge.config import ConfigError, load_config
from forge.analysis.study import parse_sweep, plan_study

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
    assert "2 pairs of sessions: not testable at this size" in printed  # arms are paired by session index k
    from mlflow import MlflowClient

    from forge.runs.tracking import default_tracking_uri

    client = MlflowClient(default_tracking_uri(tmp_path))
    experiment = client.get_experiment_by_name("sweep-test")
    parents = [r for r in client.search_runs([experiment.experiment_id]) if "mlflow.parentRunId" not in r.data.tags]
    assert len(parents) == 4


@pytest.mark.long
@pytest.mark.slow
@pytest.mark.timeout(1800)  # 16 sessions: minutes on a loaded machine
def test_a_recorded_study_replays_session_by_session_and_compares_alike_from_mlflow(tmp_path, capsys):
    """A study of 2 sessions per arm (forge, zero_shot; 2 is the fewest that pair) recorded into one record, then replayed with no model
    listening: each session keeps what its recorded twin kept, and every call of the study has its own key.
    `forge compare --mlflow --study` gives the table `forge compare` gives on the run directories.

    Today's main: the arms' calls shared keys (session k of both arms asks the same first questions), and
    `--mlflow` made each session an arm of its own, unpaired and unchecked."""
    from forge.llm.record import SqliteCallStore, record_scope
    from forge.memory import EMPTY_DIGEST
    from forge.runs.rundir import RunDirectory
    from forge.runs.tracking import default_tracking_uri
    from tests.run_cli import forge
    from tests.test_record_session import NO_MODEL, kept

    record = tmp_path / "calls.db"
    small = ["protocol.num_instances=2", "protocol.num_stages=1", "protocol.max_attempts=2", "protocol.checkpoint_runs=1",
             "protocol.num_evaluation_runs=1", "env.max_steps=8", "protocol.theta=1.0", "protocol.tau=-0.5", "run.study=onrecord",
             f"record.store={record}"]
    study = ["run", str(ROOT / "configs" / "forge.yaml"), "--baseline", "zero_shot", "--sessions", "2", *small]
    assert forge(*study, f"run.runs_dir={tmp_path / 'recorded'}", "record.mode=record") == 0
    sessions = sorted(p.name for p in (tmp_path / "recorded").iterdir() if (p / "config.yaml").is_file() and not p.is_symlink())
    assert len(sessions) == 4
    capsys.readouterr()

    assert forge("compare", *[str(tmp_path / "recorded" / s) for s in sessions], "--out", str(tmp_path / "by-dirs")) == 0
    assert forge("compare", "--mlflow", default_tracking_uri(tmp_path / "recorded"), "--study", "onrecord",
                 "--out", str(tmp_path / "by-mlflow")) == 0
    print(capsys.readouterr().out)  # both tables, for the closing note (-s)
    by_dirs, by_mlflow = ((tmp_path / where / "comparison.txt").read_text() for where in ("by-dirs", "by-mlflow"))
    assert by_mlflow == by_dirs and "sessions, paired by k (decides)" in by_dirs
    compared = json.loads((tmp_path / "by-mlflow" / "comparison.json").read_text())
    assert compared == json.loads((tmp_path / "by-dirs" / "comparison.json").read_text())
    assert [len(c["sessions"]) for c in compared["conditions"]] == [2, 2] and compared["pairs"][0]["sessions"]["paired"]

    # Every call has its own key, each under its own session's scope: the arms' records do not collide.
    keys = SqliteCallStore(record).keys()
    calls = {}
    for s in sessions:
        summary = json.loads((tmp_path / "recorded" / s / "reports" / "summary.json").read_text())
        scope = record_scope(RunDirectory.open(tmp_path / "recorded" / s).load_config(), s)
        calls[scope] = sum(t["calls"] for t in summary["tokens_per_instance"].values())
    assert {scope: sum(f"#{scope}#" in k for k in keys) for scope in calls} == calls and len(keys) == sum(calls.values())
    print(f"record: {len(keys)} keys for {sum(calls.values())} calls of {len(sessions)} sessions, each under its own scope")

    assert forge(*study, f"run.runs_dir={tmp_path / 'replayed'}", "record.mode=replay", "tracking.enabled=false",
                 *NO_MODEL) == 0
    learned = 0
    for s in sessions:
        recorded, replayed = kept(tmp_path / "recorded" / s, s), kept(tmp_path / "replayed" / s, s)
        learned += sum(d != EMPTY_DIGEST for d in recorded["memory"].values())
        print(f"{s}: memory {[d[:8] for d in recorded['memory'].values()]}, returns {recorded['returns']}, "
              f"{sum(t['calls'] for t in recorded['tokens'].values())} calls; replayed: the same "
              f"{[w for w in ('memory', 'decisions', 'returns', 'tokens') if replayed[w] == recorded[w]]}, "
              f"{replayed['record']['hits']} served, {replayed['record']['sent']} sent")
        for what in ("memory", "decisions", "returns", "tokens"):
            assert replayed[what] == recorded[what], (s, what)
        assert replayed["record"]["sent"] == 0 and replayed["record"]["hits"] == calls[
            record_scope(RunDirectory.open(tmp_path / "replayed" / s).load_config(), s)]
    assert learned, "nothing was learned: a weak comparison"
