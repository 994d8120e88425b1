"""Comparing sessions (the paper's Table 3), with what each difference is worth.

Sessions are grouped into arms: a condition, or a point of a sweep (`run.arm`, set by a study). Per arm:
the mean of its instances' evaluation means with its bootstrap interval. Per pair of arms: the
difference in means on the unit that is independent (`unit_for`): sessions when either arm broadcasts
(a FORGE session's instances share the champion's memory), with a two-level bootstrap and a permutation
test over sessions, or, when the arms' sessions are paired by their index k (a study: session k of every
arm runs on the same seeds, `paired_sessions`), a sign-flip test over the paired differences; instances
when neither does (zero-shot, Reflexion). The other rows (instances where
they are not independent, episodes) are shown without a verdict, so the gap between them is visible.
Sessions of different configurations are refused, naming the key that differs (`config_difference`).
All numbers come from a seeded bootstrap: the same sessions give the same table.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Optional, Sequence

import yaml
from rich.console import Console
from rich.table import Table

from forge.config import to_saved_yaml
from forge.errors import ForgeError
from forge.plumbing.redact import mask_url
from forge.analysis.reporting import SURROGATE_BANNER, SessionReport, label_figure, new_figure, save_figure
from forge.runs.rundir import RunDirectory
from forge.analysis.stats import (ALPHA, BOOTSTRAP_SEED, CONFIDENCE, DECISION_RULE, EPISODES, INSTANCES, RESAMPLES,
                         SESSIONS, UNIT_NOTE, Difference, MeanInterval, ReturnStats, Verdict, compare_paired_sessions,
                         compare_samples, compare_sessions_means, mean_interval, pct_change, smallest_permutation_p,
                         smallest_sign_flip_p)
from forge.analysis.study import SEED_KEYS
from forge.runs.tracking import Tags

SMALL_SAMPLE = 10  # below this many instances a side, say that the bootstrap interval is optimistic

# Baselines first: a pair is reported as (later - earlier), treatment minus baseline.
CONDITION_ORDER = ("zero_shot", "reflexion", "forge_no_grad", "forge")

VERDICT_COLOURS = {Verdict.better: "tab:green", Verdict.worse: "tab:red", Verdict.not_significant: "tab:gray",
                   Verdict.too_few: "lightgray", Verdict.too_few_sessions: "lightgray",
                   Verdict.not_independent: "lightgray", Verdict.shared_memory: "lightgray"}

# Conditions whose instances end a session sharing memory (the champion's, broadcast after each stage).
BROADCASTING = frozenset({"forge", "forge_no_grad"})

# Keys that may differ between the sessions of one comparison: how and where a session ran, its seeds,
# its budget, and the condition itself (the arms). Any other difference makes the sessions incomparable,
# unless it is the key a sweep varies (named in the arms' labels).
INCIDENTAL = ("run.", "tracking.", "ray.", "budget.", "protocol.condition", "protocol.seed", "surrogate.seed",
              "models.seed", "memory.redis_url", "rulebook.store")


class IncomparableSessions(ForgeError, ValueError):
    """Sessions of different configurations: the message names the key and the sessions."""


def unit_for(a_condition: str, b_condition: str) -> tuple[str, str]:
    """The unit a verdict on A - B rests on, and why."""
    sharing = sorted({a_condition, b_condition} & BROADCASTING)
    if sharing:
        return SESSIONS, (f"{' and '.join(sharing)} broadcasts the champion's memory to its instances, so the "
                          f"instances of one session are not independent; its sessions are")
    return INSTANCES, f"neither {a_condition} nor {b_condition} broadcasts: their instances never share memory"


@dataclass(frozen=True)
class ArmResult:
    label: str  # the arm (a condition, or a sweep point), with the session id when sessions were not grouped
    reports: list[SessionReport]  # its sessions
    estimate: Optional[MeanInterval]  # mean over instances (pooled over sessions); None without an evaluation

    @property
    def report(self) -> SessionReport:
        return self.reports[0]

    @property
    def condition(self) -> str:
        return self.report.condition

    def instance_means(self) -> list[float]:
        return [m for r in self.reports for m in r.instance_means()]

    def episode_returns(self) -> list[float]:
        return [x for r in self.reports for x in r.episode_returns()]

    def session_instance_means(self) -> list[list[float]]:
        return [r.instance_means() for r in self.reports if r.per_instance]


@dataclass(frozen=True)
class PairComparison:
    a: str
    b: str  # every figure is about a - b
    instances: Difference
    episodes: Difference
    pct: float  # the paper's relative change of the instance means, in percent (positive is better)
    sessions: Optional[Difference] = None
    unit: str = INSTANCES  # the unit the verdict rests on
    why: str = ""

    @property
    def decisive(self) -> Difference:
        return self.sessions if self.unit == SESSIONS and self.sessions is not None else self.instances

    @property
    def verdict(self) -> Verdict:
        return self.decisive.verdict

    def rows(self) -> list[Difference]:
        """The decisive row first, then the others."""
        rest = [d for d in (self.sessions, self.instances, self.episodes) if d is not None and d is not self.decisive]
        return [self.decisive, *rest]


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


def arm_of(report: SessionReport) -> str:
    """The arm a session belongs to: `run.arm` (set by a study), else its condition."""
    if report.run_dir.config_path.is_file():
        arm = report.run_dir.load_config().run.arm
        if arm:
            return arm
    return report.condition


def paired_sessions(a: ArmResult, b: ArmResult) -> Optional[list[tuple[SessionReport, SessionReport]]]:
    """The sessions of two arms paired by their index k: each session of A with the one of B that ran on
    the same seeds (a study derives session k's seeds from k, the same in every arm). None unless every
    session has exactly one partner (and there are at least two pairs)."""
    def by_seeds(arm: ArmResult) -> Optional[dict[tuple, SessionReport]]:
        seeds = {}
        for r in arm.reports:
            if not r.per_instance or not r.run_dir.config_path.is_file():
                return None
            cfg = r.run_dir.load_config()
            seeds[tuple(getattr(getattr(cfg, section), name) for section, name in
                        (key.split(".") for key in SEED_KEYS))] = r
        return seeds if len(seeds) == len(arm.reports) else None

    seeds_a, seeds_b = by_seeds(a), by_seeds(b)
    if seeds_a is None or seeds_b is None or seeds_a.keys() != seeds_b.keys() or len(seeds_a) < 2:
        return None
    return [(seeds_a[k], seeds_b[k]) for k in seeds_a]


def compare_sessions(reports: Sequence[SessionReport], *, seed: int = BOOTSTRAP_SEED) -> Comparison:
    """Sessions grouped by arm when they come from a study (`run.arm`), else one arm per session (labelled
    with its session id when two share a condition). A study's arms and sessions are put in one order
    (condition, arm, session id), so the same sessions give the same table in whatever order they come."""
    ordered = _order(reports)
    arms_of = {id(r): arm_of(r) for r in ordered}
    check_comparable(ordered, arms_of)
    grouped = any(r.run_dir.config_path.is_file() and r.run_dir.load_config().run.arm for r in ordered)
    groups: dict[str, list[SessionReport]] = {}
    if grouped:
        rank = {name: i for i, name in enumerate(CONDITION_ORDER)}
        for r in sorted(ordered, key=lambda r: (rank.get(r.condition, len(rank)), arms_of[id(r)], r.run_dir.session_id)):
            groups.setdefault(arms_of[id(r)], []).append(r)
    else:
        counts: dict[str, int] = {}
        for r in ordered:
            counts[r.condition] = counts.get(r.condition, 0) + 1
        for r in ordered:
            groups[r.condition if counts[r.condition] == 1 else f"{r.condition} ({r.run_dir.session_id})"] = [r]
    conditions = []
    for label, members in groups.items():
        means = [m for r in members if r.per_instance for m in r.instance_means()]
        conditions.append(ArmResult(label, members, mean_interval(means, INSTANCES, seed=seed) if means else None))
    evaluated = [c for c in conditions if c.estimate is not None]
    pairs = []
    for j, a in enumerate(evaluated):
        for b in evaluated[:j]:
            unit, why = unit_for(a.condition, b.condition)
            instances = compare_samples(a.instance_means(), b.instance_means(), INSTANCES, seed=seed)
            if unit == SESSIONS:
                instances = replace(instances, verdict=Verdict.shared_memory)
            paired = paired_sessions(a, b)
            sessions = (compare_paired_sessions([(x.instance_means(), y.instance_means()) for x, y in paired], seed=seed)
                        if paired else
                        compare_sessions_means(a.session_instance_means(), b.session_instance_means(), seed=seed))
            pairs.append(PairComparison(
                a.label, b.label, instances,
                compare_samples(a.episode_returns(), b.episode_returns(), EPISODES, seed=seed),
                pct_change(a.estimate.mean, b.estimate.mean), sessions, unit, why,
            ))
    return Comparison(conditions, pairs, seed)


def _flat(cfg) -> dict[str, Any]:
    out: dict[str, Any] = {}

    def walk(prefix: str, value: Any) -> None:
        if isinstance(value, dict):
            for key, inner in value.items():
                walk(f"{prefix}{key}.", inner)
        else:
            out[prefix[:-1]] = value

    walk("", yaml.safe_load(to_saved_yaml(cfg)))
    return out


def config_difference(configs: dict[str, Any], swept: Sequence[str] = ()) -> Optional[str]:
    """The first key (other than INCIDENTAL ones and the swept keys) whose value differs between the
    sessions' configurations, described with two sessions that differ; None when they agree."""
    flats = {name: _flat(cfg) for name, cfg in configs.items()}
    keys = sorted(set().union(*flats.values())) if flats else []
    for key in keys:
        if key.startswith(INCIDENTAL) or key in swept:
            continue
        values = {name: flat.get(key) for name, flat in flats.items()}
        distinct = list(dict.fromkeys(json.dumps(v, sort_keys=True, default=str) for v in values.values()))
        if len(distinct) > 1:
            first = next(n for n, v in values.items() if json.dumps(v, sort_keys=True, default=str) == distinct[0])
            other = next(n for n, v in values.items() if json.dumps(v, sort_keys=True, default=str) == distinct[1])
            return f"{key}: {values[first]!r} in {first}, {values[other]!r} in {other}"
    return None


def swept_keys(arms: Sequence[str]) -> list[str]:
    """The keys a sweep varies, read from its arms' labels (`forge protocol.tau=-2`)."""
    return sorted({token.split("=", 1)[0] for arm in arms for token in arm.split() if "=" in token})


def check_comparable(reports: Sequence[SessionReport], arms_of: dict[int, str]) -> None:
    """Refuse sessions of different configurations (ones read back from MLflow have no config: not checked)."""
    configs = {r.run_dir.session_id: r.run_dir.load_config() for r in reports if r.run_dir.config_path.is_file()}
    differs = config_difference(configs, swept_keys(list(arms_of.values())))
    if differs:
        raise IncomparableSessions(f"sessions of different configurations cannot be compared; {differs} "
                                   f"(only the condition, seeds, budget, where it ran and a sweep's keys may differ)")


# -- sessions from a tracking store -------------------------------------------------------------------

def sessions_from_mlflow(tracking_uri: str, study: str, into: Path) -> list[SessionReport]:
    """Every finished session of `study` (one MLflow experiment) in the store at `tracking_uri`, rebuilt
    from the artifacts its driver logged (so no run directory is needed): `config.yaml` (its arm, seeds
    and configuration: the study's sessions are grouped, paired and checked as from their run directories)
    and `reports/summary.json`, both kept under `into/<session>/`."""
    from mlflow import MlflowClient  # lazy: cold start (mlflow is slow to import)

    client = MlflowClient(tracking_uri)
    experiment = client.get_experiment_by_name(study)
    if experiment is None:
        known = ", ".join(sorted(e.name for e in client.search_experiments())) or "none"
        raise LookupError(f"no study {study!r} in the MLflow store {mask_url(tracking_uri)} (studies there: {known})")
    parents = [r for r in client.search_runs([experiment.experiment_id], filter_string=f"tags.`{Tags.STATUS}` = 'finished'",
                                             order_by=["attributes.start_time ASC"])
               if Tags.PARENT_RUN not in r.data.tags]
    reports = []
    for run in parents:
        session = run.data.tags.get(Tags.SESSION) or run.info.run_id
        local = into / session
        for artifact in ("reports/summary.json", "config.yaml"):
            where = (local / artifact).parent  # mlflow writes a file artifact into the directory given
            where.mkdir(parents=True, exist_ok=True)
            try:
                client.download_artifacts(run.info.run_id, artifact, str(where))
            except Exception as exc:  # noqa: BLE001 - mlflow raises several types for a missing artifact
                raise LookupError(f"session {session!r} in study {study!r} has no {artifact} artifact (logged "
                                  f"before FORGE kept it there?): compare its run directories instead; {exc}") from None
        summary = json.loads((local / "reports" / "summary.json").read_text())
        if not summary.get("evaluation_returns"):
            continue  # logged before the summary carried its returns
        reports.append(SessionReport.from_summary(RunDirectory(local.resolve()), summary))
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
    lines = [DECISION_RULE, UNIT_NOTE]
    for pair in comparison.pairs:
        if pair.decisive.paired:
            lines.append(f"{pair.a} - {pair.b}: verdict on sessions paired by their index k ({pair.decisive.n_a} "
                         f"pairs: session k of both arms ran on the same seeds), a sign-flip test over the paired "
                         f"differences of session means with a Student-t interval, because {pair.why}.")
        else:
            lines.append(f"{pair.a} - {pair.b}: verdict on {pair.unit} ({pair.decisive.n_a} / {pair.decisive.n_b}), "
                         f"because {pair.why}.")
    lines += [
             f"Percentile bootstrap, {RESAMPLES:,} resamples, seed {comparison.seed}; two-sided permutation test "
             f"of the difference in means (exact when every split can be enumerated); "
             f"{len(comparison.pairs)} comparison(s), p-values not corrected for multiplicity."]
    sizes = sorted({(p.decisive.n_a, p.decisive.n_b, p.unit, p.decisive.paired) for p in comparison.pairs})
    if sizes and min(min(a, b) for a, b, _, _ in sizes) < SMALL_SAMPLE:
        lines.append(f"With fewer than {SMALL_SAMPLE} units a side a bootstrap interval is too narrow (it "
                     f"resamples a handful of values); that is why a verdict also needs the permutation test.")
    if sizes:
        lines.append("Smallest p-value the test can give at these sizes: " + ", ".join(
            f"{smallest_sign_flip_p(a):.3f} ({a} pairs of sessions, sign-flip)" if paired else
            f"{smallest_permutation_p(a, b):.3f} ({a} vs {b} {unit})" for a, b, unit, paired in sizes) + ".")
    for a, b, unit, paired in sizes:
        reach = smallest_sign_flip_p(a) if paired else smallest_permutation_p(a, b)
        if unit == SESSIONS and reach >= ALPHA:
            need = next(k for k in range(2, 50) if (smallest_sign_flip_p(k) if paired else smallest_permutation_p(k, k)) < ALPHA)
            what = f"{a} pairs of sessions" if paired else f"{a} vs {b} sessions"
            lines.append(f"{what}: not testable at this size (the smallest attainable p is {reach:.2f}); at least "
                         f"{need} sessions per {'arm, paired,' if paired else 'condition'} can reach p < {ALPHA:g}.")
    if comparison.surrogate:
        lines.append(SURROGATE_BANNER + ".")
    return lines


def condition_table(comparison: Comparison) -> Table:
    table = Table(title=f"Final frozen evaluation by condition (mean of the instances' means, "
                        f"{CONFIDENCE:.0%} bootstrap interval resampling instances; descriptive)\nmodel: "
                        + "; ".join(comparison.models))
    for column in ("condition", "run", "sessions", "instances", "mean", f"{CONFIDENCE:.0%} interval", "sd",
                   "graduation", "tokens / instance", "P(<-100)", "P(<-150)"):
        table.add_column(column, justify="left" if column in ("condition", "run") else "right")
    for c in comparison.conditions:
        r = c.report
        run = r.run_dir.session_id + (f" +{len(c.reports) - 1}" if len(c.reports) > 1 else "")
        if c.estimate is None:
            table.add_row(c.label, run, str(len(c.reports)), str(len(r.instances)), "(no evaluation)", *[""] * 6)
            continue
        pooled = [x for s in c.reports if s.pooled for x in s.episode_returns()]
        table.add_row(c.label, run, str(len(c.reports)), str(c.estimate.n), f"{c.estimate.mean:.2f}",
                      _interval(c.estimate), f"{ReturnStats.of(c.instance_means()).sd:.2f}",
                      f"{sum(len(s.graduates) for s in c.reports)}/{sum(len(s.instances) for s in c.reports)}",
                      f"{sum(s.mean_tokens() for s in c.reports) / len(c.reports) / 1000:.0f}k",
                      f"{ReturnStats.of(pooled).tail_100:.2f}", f"{ReturnStats.of(pooled).tail_150:.2f}")
    return table


def pairs_table(comparison: Comparison) -> Table:
    table = Table(title=f"Differences between conditions (A - B; higher return is better; "
                        f"{CONFIDENCE:.0%} bootstrap intervals, permutation test, alpha {ALPHA:g})")
    for column in ("A - B", "resamples", "n A / B", "Δ mean", f"{CONFIDENCE:.0%} interval", "Δ%", "p", "verdict"):
        table.add_column(column, justify="left" if column in ("A - B", "resamples", "verdict") else "right")
    for pair in comparison.pairs:
        rows = pair.rows()
        for k, difference in enumerate(rows):
            first = k == 0
            unit = difference.label + (" (decides)" if first else "")
            table.add_row(f"{pair.a} - {pair.b}" if first else "", unit, f"{difference.n_a} / {difference.n_b}",
                          f"{difference.delta:+.2f}", difference.interval, _pct(pair.pct) if first else "",
                          _p(difference), _verdict(difference), end_section=k == len(rows) - 1)
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
        for k, d in enumerate(pair.rows()):
            first = k == 0
            unit = f"{d.label} (decides)" if first else (f"{d.unit} (not independent)" if d.unit != SESSIONS else d.label)
            lines.append(f"| {pair.a} - {pair.b} | {unit} | "
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
                        "sessions": [r.run_dir.session_id for r in c.reports],
                        "estimate": c.estimate.as_dict() if c.estimate else None} for c in comparison.conditions],
        "pairs": [{"a": p.a, "b": p.b, "pct": None if math.isnan(p.pct) else p.pct, "unit": p.unit, "why": p.why,
                   "verdict": p.verdict.value, "sessions": p.sessions.as_dict() if p.sessions else None,
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
        points = c.instance_means()
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
        d = pair.decisive
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
    ax2.set_title(f"differences ({CONFIDENCE:.0%} bootstrap interval on the deciding unit)", fontsize=9)
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
