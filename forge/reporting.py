"""Session reports: summary tables, the paper's Table 3 comparison, and stage-curve plots.

Everything is read back from a run directory's ledger, so a report can be made at any time, of a
finished, running or killed session.
"""

from __future__ import annotations

import json
import math
import statistics
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional, Sequence

from rich.table import Table

from forge.protocol.ledger import EvaluationRecord, StageRecord
from forge.rundir import RunDirectory
from forge.stats import ReturnStats, pct_change


@dataclass
class SessionReport:
    run_dir: RunDirectory
    meta: dict
    stages: list[StageRecord]
    evaluation: Optional[EvaluationRecord]
    status: Optional[str]
    champion: Optional[str]
    per_instance: dict[str, ReturnStats] = field(default_factory=dict)
    pooled: Optional[ReturnStats] = None

    @classmethod
    def load(cls, run_dir: RunDirectory) -> "SessionReport":
        from forge.wiring import open_ledger

        ledger = open_ledger(run_dir.load_config(), str(run_dir.path), run_dir.session_id)
        try:
            report = cls(run_dir, ledger.meta(), ledger.stages(), ledger.evaluation(), ledger.status(), ledger.champion())
        finally:
            ledger.close()
        if report.evaluation:
            report.per_instance = {i: ReturnStats.of(r) for i, r in sorted(report.evaluation.returns.items())}
            report.pooled = ReturnStats.of([x for r in report.evaluation.returns.values() for x in r])
        return report

    @property
    def condition(self) -> str:
        return self.meta.get("condition", "?")

    @property
    def instances(self) -> list[str]:
        return list(self.meta.get("instances", []))

    @property
    def graduates(self) -> list[str]:
        return [i for r in self.stages for i in r.graduated]

    @property
    def graduation_rate(self) -> float:
        return len(self.graduates) / len(self.instances) if self.instances else 0.0

    @property
    def population(self) -> Optional[ReturnStats]:
        """Mean and spread of the instances' evaluation means (the paper's mean ± sd per condition)."""
        if not self.per_instance:
            return None
        return ReturnStats.of([s.mean for s in self.per_instance.values()])

    def tokens_per_instance(self) -> dict[str, dict[str, int]]:
        """instance -> {"prompt", "completion", "calls"} over all stages and the final evaluation."""
        totals = {i: {"prompt": 0, "completion": 0, "calls": 0} for i in self.instances}
        sources = [r.tokens for r in self.stages] + ([self.evaluation.tokens] if self.evaluation else [])
        for tokens in sources:
            for instance, roles in tokens.items():
                for usage in roles.values():
                    for key in totals.setdefault(instance, {"prompt": 0, "completion": 0, "calls": 0}):
                        totals[instance][key] += usage.get(key, 0)
        return totals

    def mean_tokens(self) -> float:
        totals = [t["prompt"] + t["completion"] for t in self.tokens_per_instance().values()]
        return statistics.fmean(totals) if totals else 0.0


def summary_table(report: SessionReport) -> Table:
    title = (f"{report.run_dir.session_id}: condition {report.condition}, {len(report.instances)} instances, "
             f"{len(report.stages)} stages, status {report.status}\nmodel {report.meta.get('model', '?')}")
    table = Table(title=title)
    columns = ["instance", *[f"s{r.stage}" for r in report.stages], "graduated", "eval mean", "eval sd",
               "P(<-100)", "P(<-150)", "memory", "tokens"]
    for column in columns:
        table.add_column(column, justify="left" if column == "instance" else "right")
    graduated_at = {i: r.stage for r in report.stages for i in r.graduated}
    tokens = report.tokens_per_instance()
    for instance in report.instances:
        cells = [instance + (" *" if instance == report.champion else "")]
        for record in report.stages:
            cells.append(f"{record.checkpoint[instance]:+.1f}" if instance in record.checkpoint else "")
        stats = report.per_instance.get(instance)
        last_memory = next((r.memory[instance] for r in reversed(report.stages) if instance in r.memory), None)
        cells += [
            f"s{graduated_at[instance]}" if instance in graduated_at else "-",
            f"{stats.mean:.2f}" if stats else "-", f"{stats.sd:.2f}" if stats else "-",
            f"{stats.tail_100:.2f}" if stats else "-", f"{stats.tail_150:.2f}" if stats else "-",
            f"{last_memory['rules']}r {last_memory['examples']}e" if last_memory else "0",
            f"{(tokens[instance]['prompt'] + tokens[instance]['completion']) / 1000:.0f}k",
        ]
        table.add_row(*cells)
    if report.pooled:
        table.caption = (f"all evaluation episodes: {report.pooled}; P(<-100) {report.pooled.tail_100:.2f}, "
                         f"P(<-150) {report.pooled.tail_150:.2f}; graduation rate {report.graduation_rate:.0%}; "
                         f"* champion")
    return table


def markdown_report(report: SessionReport) -> str:
    lines = [f"# FORGE session {report.run_dir.session_id}", "",
             f"- condition: {report.condition}; representation: {report.meta.get('representation')}",
             f"- model: {report.meta.get('model')}",
             f"- instances: {len(report.instances)}; stages run: {len(report.stages)}; status: {report.status}",
             f"- graduates: {', '.join(report.graduates) or 'none'} ({report.graduation_rate:.0%}); "
             f"champion: {report.champion or '-'}", ""]
    if report.stages:
        lines += ["## Checkpoint returns by stage", "",
                  "| instance | " + " | ".join(f"s{r.stage}" for r in report.stages) + " |",
                  "|---|" + "---|" * len(report.stages)]
        for instance in report.instances:
            cells = [f"{r.checkpoint[instance]:+.1f}" if instance in r.checkpoint else "" for r in report.stages]
            lines.append(f"| {instance} | " + " | ".join(cells) + " |")
        lines.append("")
    if report.per_instance:
        lines += ["## Final frozen evaluation", "", "| instance | mean | sd | min | max | P(<-100) | P(<-150) |",
                  "|---|---|---|---|---|---|---|"]
        for instance, s in report.per_instance.items():
            lines.append(f"| {instance} | {s.mean:.2f} | {s.sd:.2f} | {s.min:.1f} | {s.max:.1f} | "
                         f"{s.tail_100:.2f} | {s.tail_150:.2f} |")
        p = report.pooled
        lines += ["", f"All episodes: {p.mean:.2f} ± {p.sd:.2f} (n={p.n}), P(<-100) {p.tail_100:.2f}, "
                      f"P(<-150) {p.tail_150:.2f}.", ""]
    return "\n".join(lines)


def plot_stage_curves(report: SessionReport, path: Path) -> Optional[Path]:
    if not report.stages:
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(11, 4))
    stages = [r.stage for r in report.stages]
    for instance in report.instances:
        xs = [r.stage for r in report.stages if instance in r.checkpoint]
        ys = [r.checkpoint[instance] for r in report.stages if instance in r.checkpoint]
        ax.plot(xs, ys, marker="o", linewidth=1, alpha=0.6, label=instance)
    means = [statistics.fmean(r.checkpoint.values()) for r in report.stages]
    ax.plot(stages, means, color="black", linewidth=2.5, label="mean of active")
    theta = report.run_dir.load_config().protocol.theta
    ax.axhline(theta, color="green", linestyle="--", linewidth=1, label=f"theta {theta:g}")
    ax.set_xlabel("stage")
    ax.set_ylabel("checkpoint return")
    ax.set_title(f"{report.condition}: checkpoint return per instance")
    ax.legend(fontsize=7, ncol=2)
    ax2.plot(stages, [len(r.active_after) for r in report.stages], marker="o", label="active after stage")
    cumulative = []
    count = 0
    for r in report.stages:
        count += len(r.graduated)
        cumulative.append(count)
    ax2.plot(stages, cumulative, marker="s", label="graduates")
    ax2.plot(stages, [sum(r.failures.values()) for r in report.stages], marker="^", label="failures triggered")
    ax2.set_xlabel("stage")
    ax2.set_title("population")
    ax2.legend(fontsize=8)
    fig.suptitle(f"{report.run_dir.session_id} - {report.meta.get('model', '')}", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def write_session_report(report: SessionReport) -> list[Path]:
    from forge.protocol.fault_count import fault_summary  # for the `faults` section: every fault the session met

    reports = report.run_dir.reports
    reports.mkdir(exist_ok=True)
    md = reports / "evaluation.md"
    md.write_text(markdown_report(report))
    data = {
        "session": report.run_dir.session_id, "meta": report.meta, "status": report.status,
        "champion": report.champion, "graduates": report.graduates,
        "per_instance": {i: s.as_dict() for i, s in report.per_instance.items()},
        "pooled": report.pooled.as_dict() if report.pooled else None,
        "population": report.population.as_dict() if report.population else None,
        "tokens_per_instance": report.tokens_per_instance(),
        "faults": fault_summary(report.stages, report.evaluation, report.meta.get("faults", [])),
    }
    js = reports / "summary.json"
    js.write_text(json.dumps(data, indent=1))
    paths = [md, js]
    png = plot_stage_curves(report, reports / "stage_curves.png")
    if png:
        paths.append(png)
    return paths


# -- comparing conditions (the paper's Table 3) ------------------------------------------------------


def compare_table(reports: Sequence[SessionReport]) -> Table:
    by_condition = {r.condition: r for r in reports}
    zero = by_condition.get("zero_shot")
    reflexion = by_condition.get("reflexion")
    models = {r.meta.get("model", "?") for r in reports}
    table = Table(title="Final frozen evaluation by condition (mean ± sd over instances' means)\nmodel: "
                        + "; ".join(sorted(models)))
    for column in ("condition", "run", "mean ± sd", "Δ% vs zero-shot", "Δ% vs reflexion", "graduation",
                   "tokens / instance", "P(<-100)", "P(<-150)"):
        table.add_column(column, justify="left" if column in ("condition", "run") else "right")
    for report in reports:
        pop = report.population
        if pop is None:
            table.add_row(report.condition, report.run_dir.session_id, "(no evaluation)", "", "", "", "", "", "")
            continue
        zs = pct_change(pop.mean, zero.population.mean) if zero and zero.population and zero is not report else math.nan
        rf = (pct_change(pop.mean, reflexion.population.mean)
              if reflexion and reflexion.population and reflexion is not report else math.nan)
        table.add_row(
            report.condition, report.run_dir.session_id, f"{pop.mean:.2f} ± {pop.sd:.2f}",
            _pct(zs), _pct(rf), f"{len(report.graduates)}/{len(report.instances)}",
            f"{report.mean_tokens() / 1000:.0f}k", f"{report.pooled.tail_100:.2f}", f"{report.pooled.tail_150:.2f}",
        )
    return table


def _pct(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:+.1f}%"


def plot_comparison(reports: Sequence[SessionReport], path: Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    usable = [r for r in reports if r.population]
    fig, ax = plt.subplots(figsize=(7, 4))
    names = [r.condition for r in usable]
    ax.bar(names, [r.population.mean for r in usable], yerr=[r.population.sd for r in usable], capsize=6)
    ax.set_ylabel("final evaluation return")
    ax.set_title("FORGE conditions")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
