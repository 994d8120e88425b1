"""Session reports: summary table, evaluation.md / summary.json, stage-curve plots, and the figure helpers
(surrogate label included) that every FORGE plot uses. Comparing sessions is forge.analysis.comparison.

Everything is read back from a run directory's ledger, so a report can be made at any time, of a
finished, running or killed session.
"""

from __future__ import annotations

import json
import statistics
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from rich.table import Table

from forge.config import ForgeConfig
from forge.llm.accounting import cost_by_role, role_prices
from forge.llm.prices import Price
from forge.llm.limiter import describe_budget
from forge.llm.replies import OUTCOMES, replies_by_role
from forge.protocol.fault_count import fault_summary
from forge.protocol.ledger import EvaluationRecord, StageRecord
from forge.plumbing.redact import mask_urls_in, mask_urls_in_text
from forge.runs.rundir import RunDirectory
from forge.analysis.stats import BOOTSTRAP_SEED, EPISODES, INSTANCES, MeanInterval, ReturnStats, mean_interval
from forge.wiring import open_ledger, uses_surrogate

# The ledger's token kinds, as summed per role: prompt (of which cached), completion (of which reasoning).
TOKEN_KINDS = ("prompt", "cached_prompt", "completion", "reasoning")
SURROGATE_BANNER = "SURROGATE model (a scripted stand-in, not an LLM): these are not LLM results"


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
    prices: dict[str, Price] = field(default_factory=dict)  # role -> USD per million tokens of each kind
    summary: Optional[dict] = None  # read back from its summary.json (a tracking store), not from its ledger

    @classmethod
    def load(cls, run_dir: RunDirectory, cfg: Optional[ForgeConfig] = None) -> "SessionReport":
        """`cfg`: the session's live configuration (config.yaml has no credentials for a Redis ledger)."""
        cfg = cfg or run_dir.load_config()
        ledger = open_ledger(cfg, str(run_dir.path), run_dir.session_id)
        try:
            report = cls(run_dir, ledger.meta(), ledger.stages(), ledger.evaluation(), ledger.status(), ledger.champion())
        finally:
            ledger.close()
        report.prices = role_prices(cfg)
        if report.evaluation:
            report.per_instance = {i: ReturnStats.of(r) for i, r in sorted(report.evaluation.returns.items())}
            report.pooled = ReturnStats.of([x for r in report.evaluation.returns.values() for x in r])
        return report

    @classmethod
    def from_summary(cls, run_dir: RunDirectory, summary: dict) -> "SessionReport":
        """A finished session as its `reports/summary.json` tells it (`write_session_report`), for a
        comparison read from a tracking store: no ledger, no stages; its graduates and tokens as summarised."""
        returns = summary["evaluation_returns"]
        report = cls(run_dir, summary["meta"], [], EvaluationRecord(returns=returns, seeds=[], tokens={}),
                     summary["status"], summary.get("champion"), summary=summary)
        report.per_instance = {i: ReturnStats.of(r) for i, r in sorted(returns.items())}
        report.pooled = ReturnStats.of([x for r in returns.values() for x in r])
        return report

    @property
    def condition(self) -> str:
        return self.meta.get("condition", "?")

    @property
    def instances(self) -> list[str]:
        return list(self.meta.get("instances", []))

    @property
    def graduates(self) -> list[str]:
        if self.summary is not None:
            return list(self.summary.get("graduates", []))
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

    @property
    def surrogate(self) -> bool:
        """Whether the session ran on the surrogate: the ledger says so; older ledgers, the config."""
        if "surrogate" in self.meta:
            return bool(self.meta["surrogate"])
        return uses_surrogate(self.run_dir.load_config())

    @property
    def banner(self) -> Optional[str]:
        """The label every output of this session carries: the surrogate's, or its model's caveat."""
        return SURROGATE_BANNER if self.surrogate else self.meta.get("caveat")

    def instance_means(self) -> list[float]:
        return [s.mean for s in self.per_instance.values()]

    def episode_returns(self) -> list[float]:
        return [x for r in (self.evaluation.returns.values() if self.evaluation else []) for x in r]

    def estimates(self, seed: int = BOOTSTRAP_SEED) -> dict[str, MeanInterval]:
        """The evaluation mean with its bootstrap interval, resampling instances and, apart, episodes."""
        if not self.per_instance:
            return {}
        return {INSTANCES: mean_interval(self.instance_means(), INSTANCES, seed=seed),
                EPISODES: mean_interval(self.episode_returns(), EPISODES, seed=seed)}

    def tokens_per_instance(self) -> dict[str, dict[str, int]]:
        """instance -> {"prompt", "completion", "calls"} over all stages and the final evaluation."""
        if self.summary is not None:
            return {i: dict(t) for i, t in self.summary.get("tokens_per_instance", {}).items()}
        totals = {i: {"prompt": 0, "completion": 0, "calls": 0} for i in self.instances}
        sources = [r.tokens for r in self.stages] + ([self.evaluation.tokens] if self.evaluation else [])
        for tokens in sources:
            for instance, roles in tokens.items():
                for usage in roles.values():
                    for key in totals.setdefault(instance, {"prompt": 0, "completion": 0, "calls": 0}):
                        totals[instance][key] += usage.get(key, 0)
        return totals

    def cost_by_stage(self) -> list[tuple[str, dict[str, dict[str, float]]]]:
        """(phase label, role -> {"prompt", "cached_prompt", "completion", "reasoning", "usd"}) per stage,
        then the final evaluation: every billed kind of token (cached of prompt, reasoning of completion)."""
        phases = [(f"s{r.stage}", r.tokens) for r in self.stages]
        if self.evaluation:
            phases.append(("eval", self.evaluation.tokens))
        rows = []
        for label, tokens in phases:
            by_role: dict[str, dict[str, float]] = {}
            for per_role in tokens.values():
                usd = cost_by_role(per_role, self.prices)
                for role, usage in per_role.items():
                    slot = by_role.setdefault(role, {kind: 0 for kind in TOKEN_KINDS} | {"usd": 0.0})
                    for kind in TOKEN_KINDS:
                        slot[kind] += usage.get(kind, 0)
                    slot["usd"] += usd[role]
            rows.append((label, dict(sorted(by_role.items()))))
        return rows

    def replies(self) -> dict[str, dict]:
        """Per role, what became of the models' replies over the whole session (forge.llm.replies)."""
        phases = [r.tokens for r in self.stages] + ([self.evaluation.tokens] if self.evaluation else [])
        return replies_by_role(per_role for tokens in phases for per_role in tokens.values())

    def record_figures(self) -> Optional[dict]:
        """Calls served from the session record (forge.llm.record) and what they saved; None if none were."""
        phases = [r.tokens for r in self.stages] + ([self.evaluation.tokens] if self.evaluation else [])
        hits = sent = 0
        saved: dict[str, dict[str, int]] = {}
        for tokens in phases:
            for per_role in tokens.values():
                for role, u in per_role.items():
                    hits += u.get("replayed", 0)
                    sent += u.get("calls", 0) - u.get("replayed", 0)
                    slot = saved.setdefault(role, {"prompt": 0, "completion": 0})
                    slot["prompt"] += u.get("replayed_prompt", 0)
                    slot["completion"] += u.get("replayed_completion", 0)
        if not hits:
            return None
        return {"hits": hits, "sent": sent,
                "prompt_tokens_saved": sum(s["prompt"] for s in saved.values()),
                "completion_tokens_saved": sum(s["completion"] for s in saved.values()),
                "usd_saved": round(sum(cost_by_role(saved, self.prices).values()), 6)}

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
    captions = []
    if report.pooled:
        estimate = report.estimates()[INSTANCES]
        captions.append(f"mean over instances {estimate} (95% bootstrap interval, resampling instances); "
                        f"all evaluation episodes: {report.pooled}; P(<-100) {report.pooled.tail_100:.2f}, "
                        f"P(<-150) {report.pooled.tail_150:.2f}; graduation rate {report.graduation_rate:.0%}; "
                        f"* champion")
    if report.meta.get("nodes"):
        captions.append(describe_nodes(report.meta["nodes"]))
    table.caption = "\n".join(captions) or None
    return table


def describe_nodes(shares: list[dict]) -> str:
    """Every Ray node's share of the instances, as workers/placement.py records it, in one line."""
    parts = [f"{s['node']}{' (head)' if s['head'] else ''} {len(s['instances'])}" for s in shares]
    return f"instances per node: {', '.join(parts)}"


def tokens_cell(usage: dict) -> str:
    """`prompt (cached) / completion (reasoning) $usd`: every billed kind of token, and the cost."""
    prompt = f"{usage['prompt']}" + (f" ({usage['cached_prompt']} cached)" if usage.get("cached_prompt") else "")
    completion = f"{usage['completion']}" + (f" ({usage['reasoning']} reasoning)" if usage.get("reasoning") else "")
    return f"{prompt}/{completion} ${usage['usd']:.4f}"


def cost_table(report: SessionReport) -> Table:
    """Tokens by kind and cost per role per stage (forge.llm.prices: the config's prices, else the table's)."""
    rows = report.cost_by_stage()
    roles = sorted({role for _, by_role in rows for role in by_role})
    table = Table(title=f"{report.run_dir.session_id}: tokens (prompt, of which cached / completion, of which "
                        f"reasoning) and USD per role per stage")
    for column in ["role", *[label for label, _ in rows], "total USD"]:
        table.add_column(column, justify="left" if column == "role" else "right")
    for role in roles:
        cells = []
        total = 0.0
        for _, by_role in rows:
            usage = by_role.get(role)
            total += usage["usd"] if usage else 0.0
            cells.append(tokens_cell(usage) if usage else "")
        table.add_row(role, *cells, f"${total:.4f}")
    budget = report.meta.get("budget") if report.status == "budget_exhausted" else None
    if budget:
        table.caption = f"stopped: budget exhausted ({describe_budget(budget)})"
    return table


def replies_table(report: SessionReport) -> Optional[Table]:
    """Per role: replies used as they came, repaired, re-prompted, fallen back (share), and the reasons."""
    replies = report.replies()
    if not replies:
        return None
    table = Table(title="Model replies per role")
    for column in ("role", "replies", *OUTCOMES, "reasons"):
        table.add_column(column, justify="left" if column in ("role", "reasons") else "right")
    for role, row in replies.items():
        table.add_row(role, str(row["replies"]), *(f"{row[o]} ({row['shares'][o]:.0%})" for o in OUTCOMES),
                      "; ".join(f"{k} x{n}" for k, n in row["reasons"].items()) or "-")
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
    cost_rows = report.cost_by_stage()
    if cost_rows:
        roles = sorted({role for _, by_role in cost_rows for role in by_role})
        lines += ["## Tokens and cost per role per stage", "",
                  "| role | " + " | ".join(label for label, _ in cost_rows) + " |", "|---|" + "---|" * len(cost_rows)]
        for role in roles:
            cells = [tokens_cell(u) if (u := by_role.get(role)) else "" for _, by_role in cost_rows]
            lines.append(f"| {role} | " + " | ".join(cells) + " |")
        lines += ["", "Prompt (of which cached) / completion (of which reasoning) tokens, and USD with each kind at "
                      "its price (the config's, else the dated table in forge/llm/prices.py).", ""]
    served = report.record_figures()
    if served:
        lines += [f"Session record: {served['hits']} calls served from the record, {served['sent']} sent to the model; "
                  f"saved {served['prompt_tokens_saved']} prompt + {served['completion_tokens_saved']} completion "
                  f"tokens, ${served['usd_saved']:.4f}.", ""]
    replies = report.replies()
    if replies:
        lines += ["## Model replies per role", "", "| role | replies | " + " | ".join(OUTCOMES) + " | reasons |",
                  "|---|---|" + "---|" * len(OUTCOMES) + "---|"]
        for role, row in replies.items():
            cells = [f"{row[o]} ({row['shares'][o]:.0%})" for o in OUTCOMES]
            reasons = "; ".join(f"{k} x{n}" for k, n in row["reasons"].items()) or "-"
            lines.append(f"| {role} | {row['replies']} | " + " | ".join(cells) + f" | {reasons} |")
        lines += ["", "Used: read as it came; repaired: usable after the parser fixed it; re-prompted: unusable, "
                      "corrected once; fallback: unusable after the correction (the step took a fallback action).", ""]
    if report.status == "budget_exhausted" and report.meta.get("budget"):
        lines += [f"**Stopped: budget exhausted** ({describe_budget(report.meta['budget'])}).", ""]
    if report.per_instance:
        lines += ["## Final frozen evaluation", "", "| instance | mean | sd | min | max | P(<-100) | P(<-150) |",
                  "|---|---|---|---|---|---|---|"]
        for instance, s in report.per_instance.items():
            lines.append(f"| {instance} | {s.mean:.2f} | {s.sd:.2f} | {s.min:.1f} | {s.max:.1f} | "
                         f"{s.tail_100:.2f} | {s.tail_150:.2f} |")
        p = report.pooled
        lines += ["", f"All episodes: {p.mean:.2f} ± {p.sd:.2f} (n={p.n}), P(<-100) {p.tail_100:.2f}, "
                      f"P(<-150) {p.tail_150:.2f}.", ""]
        lines += ["## Mean return with its 95% bootstrap interval", "",
                  "| resampled unit | n | mean | 95% interval |", "|---|---|---|---|"]
        for estimate in report.estimates().values():
            interval = "-" if estimate.low is None else f"[{estimate.low:.2f}, {estimate.high:.2f}]"
            lines.append(f"| {estimate.unit} | {estimate.n} | {estimate.mean:.2f} | {interval} |")
        lines += ["", "Percentile bootstrap, seeded. Episodes of one instance share its memory, so the interval "
                      "resampling episodes is too narrow; in a session that broadcasts (forge, forge_no_grad) the "
                      "instances share the champion's memory too, and only sessions are independent "
                      "(`forge run --sessions K`, `forge compare`).", ""]
    if report.banner:
        lines += [f"**{report.banner}.**", ""]
    return "\n".join(lines)


def markdown_table(table: Table) -> list[str]:
    """A console table's header and rows as a markdown table (what report files keep of it)."""
    headers = [str(c.header) for c in table.columns]
    rows = zip(*[list(c.cells) for c in table.columns])
    return ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|",
            *("| " + " | ".join(str(cell) for cell in row) + " |" for row in rows)]


def new_figure(*subplots: int, figsize: tuple[float, float]):
    """A figure on the file-only backend (reports are written on headless machines)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt.subplots(*subplots, figsize=figsize)


def label_figure(fig, title: str, *, surrogate: bool, banner: Optional[str] = None) -> None:
    """Title the figure and, for surrogate sessions (or with a model's caveat as `banner`), put the
    banner on it where it cannot be missed."""
    fig.suptitle(title, fontsize=8, y=0.995)
    banner = SURROGATE_BANNER if surrogate else banner
    if banner:
        fig.text(0.5, 0.005, banner, ha="center", va="bottom", fontsize=9, fontweight="bold",
                 color="darkred")
    fig.tight_layout(rect=(0, 0.05 if banner else 0, 1, 0.97))


def save_figure(fig, path: Path, *, surrogate: bool, banner: Optional[str] = None) -> Path:
    """Write a PNG whose metadata repeats the surrogate label or the model's caveat (a cropped image
    still says what it is)."""
    import matplotlib.pyplot as plt

    metadata = {"Title": fig.get_suptitle() or path.stem, "Software": "FORGE"}
    banner = SURROGATE_BANNER if surrogate else banner
    if banner:
        metadata["Description"] = banner
    fig.savefig(path, dpi=110, metadata=metadata)
    plt.close(fig)
    return path


def stage_curves_figure(report: SessionReport):
    """Checkpoint return per instance by stage, and the population's size; None before the first stage."""
    if not report.stages:
        return None
    fig, (ax, ax2) = new_figure(1, 2, figsize=(11, 4.4))
    stages = [r.stage for r in report.stages]
    for instance in report.instances:
        xs = [r.stage for r in report.stages if instance in r.checkpoint]
        ys = [r.checkpoint[instance] for r in report.stages if instance in r.checkpoint]
        ax.plot(xs, ys, marker="o", linewidth=1, alpha=0.6, label=instance)
    means = [statistics.fmean(r.checkpoint.values()) for r in report.stages]
    ax.plot(stages, means, color="black", linewidth=2.5, label="mean of active")
    theta = report.run_dir.load_config().protocol.theta
    ax.axhline(theta, color="green", linestyle="--", linewidth=1, label=f"theta {theta:g}")
    ax.set_xticks(stages)
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
    ax2.set_xticks(stages)
    ax2.set_xlabel("stage")
    ax2.set_title("population")
    ax2.legend(fontsize=8)
    label_figure(fig, f"{report.run_dir.session_id} - {report.meta.get('model', '')}", surrogate=report.surrogate,
                 banner=report.banner)
    return fig


def plot_stage_curves(report: SessionReport, path: Path) -> Optional[Path]:
    fig = stage_curves_figure(report)
    return save_figure(fig, path, surrogate=report.surrogate, banner=report.banner) if fig is not None else None


def write_session_report(report: SessionReport) -> list[Path]:
    reports = report.run_dir.reports
    reports.mkdir(exist_ok=True)
    md = reports / "evaluation.md"
    md.write_text(mask_urls_in_text(markdown_report(report)))
    data = {
        "session": report.run_dir.session_id, "meta": report.meta, "status": report.status,
        # Where the run is kept (a storage URI, or the path a Ray job's runs directory was moved to).
        "run_dir": report.run_dir.location,
        "champion": report.champion, "graduates": report.graduates,
        "per_instance": {i: s.as_dict() for i, s in report.per_instance.items()},
        "pooled": report.pooled.as_dict() if report.pooled else None,
        "population": report.population.as_dict() if report.population else None,
        "tokens_per_instance": report.tokens_per_instance(),
        "cost_by_stage": dict(report.cost_by_stage()),
        # The raw returns, so that a comparison can be made from the tracking store alone (forge compare --mlflow).
        "evaluation_returns": report.evaluation.returns if report.evaluation else None,
        "faults": fault_summary(report.stages, report.evaluation, report.meta.get("faults", [])),
        "replies": report.replies(),
        "record": report.record_figures(),
        "caveat": report.banner,
    }
    data["surrogate"] = report.surrogate
    data["estimates"] = {unit: e.as_dict() for unit, e in report.estimates().items()}
    js = reports / "summary.json"
    js.write_text(json.dumps(mask_urls_in(data), indent=1))
    paths = [md, js]
    png = plot_stage_curves(report, reports / "stage_curves.png")
    if png:
        paths.append(png)
    return paths
