"""Comparing sessions (the paper's Table 3), with what each difference is worth.

Per condition: the mean of the instances' evaluation means with its bootstrap interval. Per pair of
conditions: the difference in means with a bootstrap interval resampling instances (the independent unit)
and, on its own row, resampling episodes (not independent; shown so that the gap between the two is
visible), a permutation-test p-value, and a plain verdict under the rule in `forge.stats.DECISION_RULE`.
All numbers come from a seeded bootstrap: the same sessions give the same table.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional, Sequence

from rich.console import Console
from rich.table import Table

from forge.protocol.ledger import EvaluationRecord
from forge.redact import mask_url
from forge.reporting import SURROGATE_BANNER, SessionReport, label_figure, new_figure, save_figure
from forge.rundir import RunDirectory
from forge.stats import (ALPHA, BOOTSTRAP_SEED, CONFIDENCE, DECISION_RULE, EPISODES, INSTANCES, RESAMPLES,
                         UNIT_NOTE, Difference, MeanInterval, ReturnStats, Verdict, compare_samples, pct_change,
                         smallest_permutation_p)

SMALL_SAMPLE = 10  # below this many instances a side, say that the bootstrap interval is optimistic

# Baselines first: a pair is reported as (later - earlier), treatment minus baseline.
CONDITION_ORDER = ("zero_shot", "reflexion", "forge_no_grad", "forge")

VERDICT_COLOURS = {Verdict.better: "tab:green", Verdict.worse: "tab:red", Verdict.not_significant: "tab:gray",
                   Verdict.too_few: "lightgray", Verdict.not_independent: "lightgray"}


@dataclass(frozen=True)
class ArmResult:
    label: str  # the condition, with the session id when two sessions share a condition
    report: SessionReport
    estimate: Optional[MeanInterval]  # mean over instances; None without a final evaluation


@dataclass(frozen=True)
class PairComparison:
    a: str
    b: str  # every figure is about a - b
    instances: Difference
    episodes: Difference
    pct: float  # the paper's relative change of the instance means, in percent (positive is better)

    @property
    def verdict(self) -> Verdict:
        return self.instances.verdict


@dataclass(frozen=True)
class Comparison:
    conditions: list[ArmResult]
    pairs: list[PairComparison]
    seed: int

    @property
    def surrogate(self) -> bool:
        return any(c.report.surrogate for c in self.conditions)

    @property
    def models(self) -> list[str]:
        return sorted({c.report.meta.get("model", "?") for c in self.conditions})


def _order(reports: Sequence[SessionReport]) -> list[SessionReport]:
    rank = {name: i for i, name in enumerate(CONDITION_ORDER)}
    return sorted(reports, key=lambda r: rank.get(r.condition, len(rank)))  # stable: ties keep the given order


def compare_sessions(reports: Sequence[SessionReport], *, seed: int = BOOTSTRAP_SEED) -> Comparison:
    ordered = _order(reports)
    counts: dict[str, int] = {}
    for r in ordered:
        counts[r.condition] = counts.get(r.condition, 0) + 1
    conditions = [
        ArmResult(r.condition if counts[r.condition] == 1 else f"{r.condition} ({r.run_dir.session_id})", r,
                  r.estimates(seed)[INSTANCES] if r.per_instance else None)
        for r in ordered
    ]
    evaluated = [c for c in conditions if c.estimate is not None]
    pairs = []
    for j, a in enumerate(evaluated):
        for b in evaluated[:j]:
            pairs.append(PairComparison(
                a.label, b.label,
                compare_samples(a.report.instance_means(), b.report.instance_means(), INSTANCES, seed=seed),
                compare_samples(a.report.episode_returns(), b.report.episode_returns(), EPISODES, seed=seed),
                pct_change(a.estimate.mean, b.estimate.mean),
            ))
    return Comparison(conditions, pairs, seed)


# -- sessions from a tracking store -------------------------------------------------------------------

def sessions_from_mlflow(tracking_uri: str, study: str) -> list[SessionReport]:
    """Every finished session of `study` (one MLflow experiment) in the store at `tracking_uri`, rebuilt
    from the `reports/summary.json` artifact its driver logged (so no run directory is needed)."""
    import tempfile

    from mlflow import MlflowClient  # lazy: cold start (mlflow is slow to import)

    client = MlflowClient(tracking_uri)
    experiment = client.get_experiment_by_name(study)
    if experiment is None:
        known = ", ".join(sorted(e.name for e in client.search_experiments())) or "none"
        raise LookupError(f"no study {study!r} in the MLflow store {mask_url(tracking_uri)} (studies there: {known})")
    parents = [r for r in client.search_runs([experiment.experiment_id], filter_string="tags.`forge.status` = 'finished'",
                                             order_by=["attributes.start_time ASC"])
               if "mlflow.parentRunId" not in r.data.tags]
    reports = []
    with tempfile.TemporaryDirectory() as tmp:
        for run in parents:
            try:
                path = client.download_artifacts(run.info.run_id, "reports/summary.json", tmp)
            except Exception as exc:  # noqa: BLE001 - mlflow raises several types for a missing artifact
                raise LookupError(f"session {run.data.tags.get('forge.session')!r} in study {study!r} has no "
                                  f"reports/summary.json artifact: {exc}") from None
            summary = json.loads(Path(path).read_text())
            returns = summary.get("evaluation_returns")
            if not returns:
                continue  # logged before the summary carried its returns
            report = SessionReport(RunDirectory(Path(summary["session"])), summary["meta"], [],
                                   EvaluationRecord(returns=returns, seeds=[], tokens={}), summary["status"],
                                   summary.get("champion"))
            report.per_instance = {i: ReturnStats.of(r) for i, r in sorted(returns.items())}
            report.pooled = ReturnStats.of([x for r in returns.values() for x in r])
            reports.append(report)
    if not reports:
        raise LookupError(f"study {study!r} in {mask_url(tracking_uri)} has no finished session with an evaluation")
    return reports


# -- rendering --------------------------------------------------------------------------------------


def _pct(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:+.1f}%"


def _p(difference: Difference) -> str:
    if difference.p_value is None:
        return "-"
    exact = " (exact)" if difference.exact else ""
    return f"{_p_text(difference.p_value)}{exact}"


def _p_text(p_value: float) -> str:
    return "<0.001" if p_value < 0.001 else f"{p_value:.3f}"


def _verdict(difference: Difference) -> str:
    if difference.verdict is Verdict.too_few and difference.smallest_p is not None:
        return f"{difference.verdict.value} (smallest attainable p {difference.smallest_p:.2f})"
    return difference.verdict.value


def _interval(estimate: MeanInterval) -> str:
    return "-" if estimate.low is None else f"[{estimate.low:.2f}, {estimate.high:.2f}]"


def notes(comparison: Comparison) -> list[str]:
    lines = [DECISION_RULE, UNIT_NOTE,
             f"Percentile bootstrap, {RESAMPLES:,} resamples, seed {comparison.seed}; two-sided permutation test "
             f"of the difference in means (exact when every split can be enumerated); "
             f"{len(comparison.pairs)} comparison(s), p-values not corrected for multiplicity."]
    sizes = sorted({(p.instances.n_a, p.instances.n_b) for p in comparison.pairs})
    if sizes and min(min(size) for size in sizes) < SMALL_SAMPLE:
        lines.append(f"With fewer than {SMALL_SAMPLE} instances a side a bootstrap interval is too narrow (it "
                     f"resamples a handful of values); that is why a verdict also needs the permutation test.")
    if sizes:
        lines.append("Smallest p-value a permutation test can give at these sizes: " + ", ".join(
            f"{smallest_permutation_p(a, b):.3f} ({a} vs {b} instances)" for a, b in sizes) + ".")
    if comparison.surrogate:
        lines.append(SURROGATE_BANNER + ".")
    return lines


def condition_table(comparison: Comparison) -> Table:
    table = Table(title=f"Final frozen evaluation by condition (mean of the instances' means, "
                        f"{CONFIDENCE:.0%} bootstrap interval resampling instances)\nmodel: "
                        + "; ".join(comparison.models))
    for column in ("condition", "run", "instances", "mean", f"{CONFIDENCE:.0%} interval", "sd", "graduation",
                   "tokens / instance", "P(<-100)", "P(<-150)"):
        table.add_column(column, justify="left" if column in ("condition", "run") else "right")
    for c in comparison.conditions:
        r = c.report
        if c.estimate is None:
            table.add_row(c.label, r.run_dir.session_id, str(len(r.instances)), "(no evaluation)", *[""] * 6)
            continue
        table.add_row(c.label, r.run_dir.session_id, str(c.estimate.n), f"{c.estimate.mean:.2f}",
                      _interval(c.estimate), f"{r.population.sd:.2f}", f"{len(r.graduates)}/{len(r.instances)}",
                      f"{r.mean_tokens() / 1000:.0f}k", f"{r.pooled.tail_100:.2f}", f"{r.pooled.tail_150:.2f}")
    return table


def pairs_table(comparison: Comparison) -> Table:
    table = Table(title=f"Differences between conditions (A - B; higher return is better; "
                        f"{CONFIDENCE:.0%} bootstrap intervals, permutation test, alpha {ALPHA:g})")
    for column in ("A - B", "resamples", "n A / B", "Δ mean", f"{CONFIDENCE:.0%} interval", "Δ%", "p", "verdict"):
        table.add_column(column, justify="left" if column in ("A - B", "resamples", "verdict") else "right")
    for pair in comparison.pairs:
        for difference in (pair.instances, pair.episodes):
            first = difference.unit == INSTANCES
            unit = "instances" if first else "episodes"
            table.add_row(f"{pair.a} - {pair.b}" if first else "", unit, f"{difference.n_a} / {difference.n_b}",
                          f"{difference.delta:+.2f}", difference.interval, _pct(pair.pct) if first else "",
                          _p(difference), _verdict(difference), end_section=not first)
    return table


def print_comparison(comparison: Comparison, console: Console) -> None:
    console.print(condition_table(comparison))
    if comparison.pairs:
        console.print(pairs_table(comparison))
    else:
        console.print("no two evaluated sessions to compare")
    for line in notes(comparison):
        console.print(line, highlight=False)


def comparison_markdown(comparison: Comparison) -> str:
    lines = ["# Comparison of conditions", "", f"- model: {'; '.join(comparison.models)}", "",
             "## By condition (mean of the instances' means)", "",
             f"| condition | run | instances | mean | {CONFIDENCE:.0%} interval (instances) |", "|---|---|---|---|---|"]
    for c in comparison.conditions:
        if c.estimate is None:
            lines.append(f"| {c.label} | {c.report.run_dir.session_id} | {len(c.report.instances)} | "
                         f"(no evaluation) | |")
        else:
            lines.append(f"| {c.label} | {c.report.run_dir.session_id} | {c.estimate.n} | {c.estimate.mean:.2f} | "
                         f"{_interval(c.estimate)} |")
    lines += ["", "## Differences (A - B)", "",
              f"| A - B | resamples | n A / B | Δ mean | {CONFIDENCE:.0%} interval | Δ% | p | verdict |",
              "|---|---|---|---|---|---|---|---|"]
    for pair in comparison.pairs:
        for d in (pair.instances, pair.episodes):
            first = d.unit == INSTANCES
            lines.append(f"| {pair.a} - {pair.b} | {'instances' if first else 'episodes (not independent)'} | "
                         f"{d.n_a} / {d.n_b} | {d.delta:+.2f} | {d.interval} | {_pct(pair.pct) if first else ''} | "
                         f"{_p(d)} | {_verdict(d)} |")
    lines += [""] + [f"- {line}" for line in notes(comparison)] + [""]
    return "\n".join(lines)


def comparison_json(comparison: Comparison) -> dict[str, Any]:
    return {
        "models": comparison.models, "surrogate": comparison.surrogate, "seed": comparison.seed,
        "resamples": RESAMPLES, "confidence": CONFIDENCE, "alpha": ALPHA, "decision_rule": DECISION_RULE,
        "unit_note": UNIT_NOTE,
        "conditions": [{"label": c.label, "session": c.report.run_dir.session_id, "condition": c.report.condition,
                        "estimate": c.estimate.as_dict() if c.estimate else None} for c in comparison.conditions],
        "pairs": [{"a": p.a, "b": p.b, "pct": None if math.isnan(p.pct) else p.pct,
                   "instances": p.instances.as_dict(), "episodes": p.episodes.as_dict()} for p in comparison.pairs],
    }


def comparison_figure(comparison: Comparison):
    """Left: each condition's mean with its bootstrap interval, instance means as dots. Right: each pair's
    difference with its interval (resampling instances), coloured by verdict."""
    from matplotlib.transforms import blended_transform_factory

    fig, (ax, ax2) = new_figure(1, 2, figsize=(11, 4.8))
    usable = [c for c in comparison.conditions if c.estimate is not None]
    xs = range(len(usable))
    means = [c.estimate.mean for c in usable]
    below = [c.estimate.mean - c.estimate.low if c.estimate.low is not None else 0.0 for c in usable]
    above = [c.estimate.high - c.estimate.mean if c.estimate.high is not None else 0.0 for c in usable]
    ax.bar(xs, means, yerr=[below, above], capsize=8, color="tab:blue", alpha=0.5, error_kw={"linewidth": 1.5},
           label=f"mean, {CONFIDENCE:.0%} bootstrap interval")
    for x, c in zip(xs, usable):
        points = c.report.instance_means()
        offsets = [(i - (len(points) - 1) / 2) * 0.06 for i in range(len(points))]
        ax.scatter([x + o for o in offsets], points, color="black", s=14, zorder=3,
                   label="instance means" if x == 0 else None)
    ax.set_xticks(list(xs), [f"{c.label}\n(n={c.estimate.n})" for c in usable], fontsize=8)
    ax.set_ylabel("final evaluation return (higher is better)")
    ax.set_title("by condition (interval resamples instances)", fontsize=9)
    ax.legend(fontsize=7)

    ys = list(range(len(comparison.pairs)))[::-1]
    row_text = blended_transform_factory(ax2.transAxes, ax2.transData)  # centred in the axes, at the row's height
    for y, pair in zip(ys, comparison.pairs):
        d = pair.instances
        colour = VERDICT_COLOURS[d.verdict]
        if d.low is not None:
            ax2.plot([d.low, d.high], [y, y], color=colour, linewidth=3)
        ax2.plot([d.delta], [y], marker="o", color=colour, markersize=7)
        p = "" if d.p_value is None else f", p={_p_text(d.p_value)}"
        ax2.text(0.5, y + 0.22, f"{d.verdict.value}{p}", transform=row_text, ha="center", fontsize=7, color=colour)
    ax2.axvline(0, color="black", linewidth=1, linestyle="--")
    ax2.set_yticks(ys, [f"{p.a}\n- {p.b}" for p in comparison.pairs], fontsize=8)
    ax2.set_ylim(-0.7, max(len(comparison.pairs) - 0.3, 0.7))
    ax2.set_xlabel("difference in mean return, A - B")
    ax2.set_title(f"differences ({CONFIDENCE:.0%} bootstrap interval over instances)", fontsize=9)
    label_figure(fig, "FORGE conditions, final frozen evaluation - model: " + "; ".join(comparison.models),
                 surrogate=comparison.surrogate)
    return fig


def write_comparison(comparison: Comparison, out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    txt, md, js, png = (out / f"comparison.{ext}" for ext in ("txt", "md", "json", "png"))
    with open(txt, "w") as handle:
        print_comparison(comparison, Console(file=handle, width=160))
    md.write_text(comparison_markdown(comparison))
    js.write_text(json.dumps(comparison_json(comparison), indent=1))
    save_figure(comparison_figure(comparison), png, surrogate=comparison.surrogate)
    return [txt, md, js, png]
