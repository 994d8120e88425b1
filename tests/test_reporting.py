"""`forge compare` / `forge report` end to end on session directories whose ledgers hold known returns,
and the surrogate label on every plot."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from forge.cli import main
from forge.analysis.comparison import compare_sessions, comparison_figure
from forge.config import load_config
from forge.protocol.ledger import EvaluationRecord, StageRecord
from forge.analysis.reporting import SURROGATE_BANNER, SessionReport, stage_curves_figure
from forge.runs.rundir import RunDirectory
from forge.analysis.stats import Verdict
from forge.wiring import model_label, open_ledger, uses_surrogate

ROOT = Path(__file__).resolve().parents[1]


def make_session(runs: Path, condition: str, means: list[float], *, episodes: int = 3, spread: float = 1.0,
                 seed: int = 0, provider: str | None = None, record_surrogate: bool = True,
                 evaluated: bool = True, name: str | None = None, overrides: tuple | list = ()) -> RunDirectory:
    """A finished session as the driver leaves it in the ledger: meta, one stage, the final evaluation."""
    files = [ROOT / "configs" / "demo.yaml"] + ([ROOT / "configs" / "providers" / f"{provider}.yaml"] if provider else [])
    cfg = load_config(*files, overrides=[f"run.runs_dir={runs}", f"protocol.condition={condition}",
                                         f"protocol.num_instances={len(means)}", f"run.name={name or condition}",
                                         *overrides])
    run_dir = RunDirectory.create(cfg)
    instances = [f"i{i:02d}" for i in range(len(means))]
    rng = np.random.default_rng(seed)
    returns = {i: [float(m + rng.normal(0, spread)) for _ in range(episodes)] for i, m in zip(instances, means)}
    ledger = open_ledger(cfg, str(run_dir.path), run_dir.session_id)
    meta = {"condition": condition, "representation": "rules", "instances": instances, "stages": 1,
            "config_digest": "test", "model": model_label(cfg), "session": run_dir.session_id}
    if record_surrogate:
        meta["surrogate"] = uses_surrogate(cfg)
    ledger.start(meta)
    ledger.record_stage(StageRecord(1, instances, {i: r[0] for i, r in returns.items()}, [], None, [],
                                    {i: {"version": 1, "digest": "d", "rules": 0, "examples": 0} for i in instances},
                                    {i: 1 for i in instances}, {}))
    if evaluated:
        ledger.record_evaluation(EvaluationRecord(returns, list(range(episodes)), {}))
        ledger.finish()
    ledger.close()
    return run_dir


@pytest.fixture
def three_conditions(tmp_path) -> list[RunDirectory]:
    """forge far above zero-shot; forge and reflexion the same distribution (5 instances each)."""
    return [
        make_session(tmp_path, "forge", [-20.0, -22.0, -18.0, -25.0, -21.0], seed=1),
        make_session(tmp_path, "zero_shot", [-190.0, -180.0, -200.0, -185.0, -195.0], seed=2),
        make_session(tmp_path, "reflexion", [-21.0, -19.0, -24.0, -20.0, -22.0], seed=3),
    ]


def test_compare_prints_intervals_and_verdicts_and_writes_them(three_conditions, tmp_path, capsys):
    out = tmp_path / "cmp"
    assert main(["compare", *[str(r.path) for r in three_conditions], "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "Verdict on A - B" in printed and "on the unit that is independent" in printed
    assert "SURROGATE" in printed
    data = json.loads((out / "comparison.json").read_text())
    pairs = {(p["a"], p["b"]): p for p in data["pairs"]}
    assert set(pairs) == {("reflexion", "zero_shot"), ("forge", "zero_shot"), ("forge", "reflexion")}
    # Neither Reflexion nor zero-shot broadcasts: their instances are independent and decide.
    clear = pairs[("reflexion", "zero_shot")]
    assert clear["unit"] == "instances" and clear["verdict"] == "better" and clear["instances"]["low"] > 0
    assert clear["instances"]["n_a"] == 5 and clear["episodes"]["n_a"] == 15
    assert clear["episodes"]["verdict"] == Verdict.not_independent.value
    # FORGE broadcasts: one session a side is one unit a side, whatever the instances say.
    forge = pairs[("forge", "zero_shot")]
    assert forge["unit"] == "sessions" and forge["verdict"] == Verdict.too_few_sessions.value
    assert forge["instances"]["verdict"] == Verdict.shared_memory.value and forge["instances"]["low"] > 0
    assert forge["sessions"]["n_a"] == 1 and "broadcasts" in forge["why"]
    assert data["surrogate"] is True
    # the printed table says the same, one verdict per pair and the unit of each row
    assert "better" in printed and "too few sessions to test" in printed and "instances share memory" in printed
    assert "verdict on sessions (1 / 1), because forge broadcasts" in printed
    assert "episodes" in printed and "instances (decides)" in printed
    markdown = (out / "comparison.md").read_text()
    assert "| reflexion - zero_shot | instances (decides) | 5 / 5 |" in markdown and "better" in markdown
    assert (out / "comparison.png").stat().st_size > 10_000 and (out / "comparison.txt").read_text().strip()

    # same sessions, same seed: the same numbers; another seed moves the intervals, not the verdicts
    assert main(["compare", *[str(r.path) for r in three_conditions], "--out", str(tmp_path / "again")]) == 0
    assert json.loads((tmp_path / "again" / "comparison.json").read_text()) == data
    assert main(["compare", *[str(r.path) for r in three_conditions], "--out", str(tmp_path / "s1"), "--seed", "1"]) == 0
    other = {(p["a"], p["b"]): p for p in json.loads((tmp_path / "s1" / "comparison.json").read_text())["pairs"]}
    assert other[("reflexion", "zero_shot")]["instances"]["low"] != clear["instances"]["low"]
    assert other[("reflexion", "zero_shot")]["instances"]["verdict"] == "better"


def test_too_few_instances_are_reported_as_such(tmp_path, capsys):
    runs = [make_session(tmp_path, "reflexion", [-10.0, -12.0]), make_session(tmp_path, "zero_shot", [-190.0, -200.0])]
    assert main(["compare", *[str(r.path) for r in runs], "--out", str(tmp_path / "cmp")]) == 0
    assert "too few instances to test" in capsys.readouterr().out
    pair = json.loads((tmp_path / "cmp" / "comparison.json").read_text())["pairs"][0]
    assert pair["instances"]["verdict"] == Verdict.too_few.value


def test_report_of_several_sessions_writes_intervals_and_the_comparison(three_conditions, tmp_path, capsys):
    assert main(["report", *[str(r.path) for r in three_conditions[:2]], "--out", str(tmp_path / "cmp")]) == 0
    printed = capsys.readouterr().out
    assert "95% bootstrap interval, resampling instances" in printed and "Verdict on A - B" in printed
    forge = three_conditions[0]
    summary = json.loads((forge.reports / "summary.json").read_text())
    instances = summary["estimates"]["instances"]
    assert instances["n"] == 5 and instances["low"] < instances["mean"] < instances["high"]
    assert summary["estimates"]["episodes"]["n"] == 15 and summary["surrogate"] is True
    evaluation = (forge.reports / "evaluation.md").read_text()
    assert "| instances | 5 |" in evaluation and SURROGATE_BANNER in evaluation
    assert (forge.reports / "stage_curves.png").is_file() and (tmp_path / "cmp" / "comparison.json").is_file()


def test_a_bad_run_directory_is_named(tmp_path, capsys):
    assert main(["compare", str(tmp_path / "nowhere")]) == 2
    assert "nowhere" in capsys.readouterr().err


def figure_texts(fig) -> list[str]:
    return [fig.get_suptitle()] + [t.get_text() for t in fig.texts]


def test_every_plot_carries_the_surrogate_label(three_conditions, tmp_path):
    from PIL import Image

    reports = [SessionReport.load(r) for r in three_conditions]
    assert all(r.surrogate for r in reports)
    figures = [comparison_figure(compare_sessions(reports)), stage_curves_figure(reports[0])]
    for fig in figures:
        assert SURROGATE_BANNER in figure_texts(fig)
    # and the saved PNG says so in its metadata
    assert main(["report", str(three_conditions[0].path)]) == 0
    png = Image.open(three_conditions[0].reports / "stage_curves.png")
    assert png.info.get("Description") == SURROGATE_BANNER and "SURROGATE" in png.info["Title"]


def test_a_session_without_the_surrogate_has_no_banner_and_old_ledgers_fall_back_to_the_config(tmp_path):
    openai = SessionReport.load(make_session(tmp_path, "forge", [-20.0, -21.0, -19.0], provider="openai"))
    assert not openai.surrogate
    assert SURROGATE_BANNER not in figure_texts(stage_curves_figure(openai))
    old = SessionReport.load(make_session(tmp_path, "reflexion", [-20.0, -21.0, -19.0], record_surrogate=False))
    assert "surrogate" not in old.meta and old.surrogate
    from forge.analysis.comparison import IncomparableSessions

    with pytest.raises(IncomparableSessions, match="models.default"):  # a model against another: refused
        compare_sessions([openai, old])
    mixed = compare_sessions([old, SessionReport.load(make_session(tmp_path, "forge", [-20.0, -21.0, -19.0]))])
    assert mixed.surrogate and SURROGATE_BANNER in figure_texts(comparison_figure(mixed))


def test_a_session_still_running_is_listed_without_figures(three_conditions, tmp_path, capsys):
    running = make_session(tmp_path, "forge_no_grad", [-30.0, -31.0, -29.0, -30.0, -30.0], evaluated=False)
    assert main(["report", str(running.path), str(three_conditions[0].path), "--out", str(tmp_path / "cmp")]) == 0
    assert "(no evaluation)" in capsys.readouterr().out
    data = json.loads((tmp_path / "cmp" / "comparison.json").read_text())
    assert [c["estimate"] is None for c in data["conditions"]] == [True, False] and data["pairs"] == []
    assert json.loads((running.reports / "summary.json").read_text())["estimates"] == {}


def make_study(runs: Path, arms: dict[str, list[list[float]]], *extra: str) -> list[RunDirectory]:
    """Sessions as a study leaves them: `run.arm` set, derived seeds; arm -> each session's instance means."""
    out = []
    for arm, sessions in arms.items():
        for k, means in enumerate(sessions):
            run_dir = make_session(runs, arm.split()[0], means, seed=len(out), name=f"{arm.replace(' ', '_')}-{k}",
                                   overrides=[f"run.arm={arm}", f"protocol.seed={100 + k}", *extra])
            out.append(run_dir)
    return out


def test_sessions_decide_when_instances_share_memory(tmp_path, capsys):
    # Four sessions a side on seeds of their own (not paired), FORGE far above Reflexion in every one: sessions
    # decide (two-level bootstrap, permutation test over session means, exact: C(8, 4) = 70 splits, smallest p 2/70).
    forge = [[-20.0 - k, -22.0, -18.0] for k in range(4)]
    reflexion = [[-60.0 - k, -58.0, -63.0] for k in range(4)]
    runs = make_study(tmp_path, {"forge": forge}) + make_study(tmp_path, {"reflexion": reflexion}, "surrogate.seed=7")
    assert main(["compare", *[str(r.path) for r in runs], "--out", str(tmp_path / "cmp")]) == 0
    printed = capsys.readouterr().out
    (pair,) = json.loads((tmp_path / "cmp" / "comparison.json").read_text())["pairs"]
    assert pair["unit"] == "sessions" and pair["verdict"] == "better" and not pair["sessions"]["paired"]
    assert pair["sessions"]["n_a"] == 4 and pair["sessions"]["exact"] and pair["sessions"]["p_value"] == pytest.approx(2 / 70)
    assert pair["sessions"]["low"] > 0 and pair["instances"]["n_a"] == 12
    assert "sessions (decides)" in printed and "verdict on sessions (4 / 4)" in printed


def test_a_study_s_sessions_paired_by_k_are_compared_by_the_paired_test_and_say_so(tmp_path, capsys):
    """Today's main compared a study's arms as independent samples, though session k of each ran on the same
    seeds: a session-k effect both arms share (here a large one) hid a small, consistent difference."""
    forge = [[-20.0 - 15 * k, -22.0 - 15 * k, -18.0 - 15 * k] for k in range(6)]
    reflexion = [[m - 2.0 - 0.1 * k for m in means] for k, means in enumerate(forge)]
    runs = make_study(tmp_path, {"forge": forge, "reflexion": reflexion})
    assert main(["compare", *[str(r.path) for r in reversed(runs)], "--out", str(tmp_path / "cmp")]) == 0
    printed = capsys.readouterr().out
    (pair,) = json.loads((tmp_path / "cmp" / "comparison.json").read_text())["pairs"]
    sessions = pair["sessions"]
    assert sessions["paired"] and sessions["n_a"] == 6 and sessions["exact"]
    assert sessions["p_value"] == pytest.approx(2 / 64) and sessions["smallest_p"] == pytest.approx(2 / 64)
    assert pair["verdict"] == "better" and 0 < sessions["low"] < sessions["delta"] < sessions["high"]
    assert "sessions, paired by k (decides)" in printed
    assert "verdict on sessions paired by their index k (6 pairs: session k of both arms ran on the same seeds)" in printed
    # Unpaired, the spread between sessions drowns it.
    from forge.analysis.stats import SESSIONS, compare_samples

    means = [[sum(m) / len(m) for m in arm] for arm in (forge, reflexion)]
    assert compare_samples(*means, SESSIONS).verdict is Verdict.not_significant


def test_three_sessions_a_side_are_said_to_be_untestable(tmp_path, capsys):
    runs = make_study(tmp_path, {"forge": [[-20.0, -21.0]] * 3, "reflexion": [[-60.0, -61.0]] * 3})
    assert main(["compare", *[str(r.path) for r in runs], "--out", str(tmp_path / "cmp")]) == 0
    printed = capsys.readouterr().out
    assert "too few sessions to test" in printed
    assert ("3 pairs of sessions: not testable at this size (the smallest attainable p is 0.25); at least 6 sessions "
            "per arm, paired, can reach p < 0.05") in printed
    unpaired = make_study(tmp_path / "u", {"forge": [[-20.0, -21.0]] * 3}) + \
        make_study(tmp_path / "u", {"reflexion": [[-60.0, -61.0]] * 3}, "surrogate.seed=7")
    assert main(["compare", *[str(r.path) for r in unpaired], "--out", str(tmp_path / "cmp2")]) == 0
    assert ("3 vs 3 sessions: not testable at this size (the smallest attainable p is 0.10); at least 4"
            in capsys.readouterr().out)


def test_sessions_of_different_configurations_are_refused_naming_the_key(tmp_path, capsys):
    runs = [make_session(tmp_path, "forge", [-20.0, -21.0, -19.0]),
            make_session(tmp_path, "reflexion", [-20.0, -21.0, -19.0], overrides=["env.max_steps=50"])]
    assert main(["compare", *[str(r.path) for r in runs]]) == 2
    err = capsys.readouterr().err
    assert "env.max_steps" in err and "30" in err and "50" in err
    # A sweep's own key may differ (it names the arms); no other.
    swept = make_study(tmp_path / "sweep", {"forge protocol.tau=-2": [[-20.0]] * 2, "forge protocol.tau=-3": [[-30.0]] * 2},
                       )
    from forge.analysis.comparison import IncomparableSessions

    reports = [SessionReport.load(r) for r in swept]
    for r, tau in zip(reports, ["-2", "-2", "-3", "-3"]):
        r.run_dir.config_path.write_text(r.run_dir.config_path.read_text().replace("tau: -1.1", f"tau: {tau}"))
    assert compare_sessions(reports).pairs[0].unit == "sessions"
    reports[0].run_dir.config_path.write_text(reports[0].run_dir.config_path.read_text().replace("max_steps: 30", "max_steps: 10"))
    with pytest.raises(IncomparableSessions, match="env.max_steps"):
        compare_sessions(reports)
