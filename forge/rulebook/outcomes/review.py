"""What `forge rulebook stats` and `forge rulebook review` compute: efficacy over runs' traces, the
verdicts, the efficacy evidence they record, and the rules that need a person.

`efficacy_report` reads the traces (forge.rulebook.outcomes.efficacy) once; everything after it is pure
(`needs_review`) or a single book commit (`record_efficacy`), so the commands only render.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional, Sequence

from forge.config import RulebookConfig
from forge.memory.model import Provenance
from forge.rulebook.book import Rulebook
from forge.rulebook.outcomes.efficacy import (
    RuleEfficacy, RuleVerdict, TraceAftermath, aggregate, holm_adjusted, read_traces, verdict_rule,
)
from forge.rulebook.model import BookVersion, Evidence, RuleStatus, RuleVersion, RulebookError, short_hash


@dataclass(frozen=True)
class VerdictSettings:
    """The stated rule's thresholds (`rulebook.efficacy_min_*`) and the aftermath window it was read with."""

    min_count: int
    min_episodes: int
    min_pairs: int
    window: int

    @classmethod
    def from_config(cls, cfg: RulebookConfig) -> "VerdictSettings":
        return cls(cfg.efficacy_min_count, cfg.efficacy_min_episodes, cfg.efficacy_min_pairs, cfg.aftermath_window)

    def rule(self) -> str:
        return verdict_rule(self.min_count, self.min_episodes, self.min_pairs)


@dataclass(frozen=True)
class EfficacyReport:
    run_dirs: tuple[str, ...]
    traces: tuple[TraceAftermath, ...]
    problems: tuple[str, ...]  # unreadable traces, named and skipped
    heads: dict[str, RuleVersion]  # every rule of the book, seen in a trace or not
    rules: dict[str, RuleEfficacy]  # by rule id, one per head
    settings: VerdictSettings
    _adjusted: Optional[dict[str, float]] = field(default=None, compare=False, repr=False)

    def verdict(self, rule_id: str) -> RuleVerdict:
        s = self.settings
        return self.rules[rule_id].verdict(s.min_count, s.min_episodes, s.min_pairs, self.adjusted_p(rule_id))

    def adjusted_p(self, rule_id: str) -> Optional[float]:
        """The rule's ablation p-value, Holm-corrected across the rules this report judges."""
        if self._adjusted is None:
            object.__setattr__(self, "_adjusted", holm_adjusted(self.rules, self.settings.min_pairs))
        return self._adjusted.get(rule_id)

    def ordered(self) -> list[str]:
        """Rule ids, active rules first."""
        return sorted(self.rules, key=lambda r: (self.heads[r].record.status != RuleStatus.ACTIVE, r))

    def live_harm(self) -> dict:
        """The harm operators saw: injections they then contradicted (an override against the rule, or replacing
        an action that followed it), and rules an operator's correction (`forge correct`) corrects."""
        corrected = sorted({rid for head in self.heads.values() if head.record.active for rid in head.record.corrects
                            if rid in self.heads})
        contradicted = {rid: eff.operator_contradicted for rid, eff in self.rules.items() if eff.operator_contradicted}
        return {"overridden_injections": sum(eff.overridden for eff in self.rules.values()),
                "contradicted_injections": sum(contradicted.values()), "contradicted_rules": sorted(contradicted),
                "injections": sum(eff.injected for eff in self.rules.values()), "corrected_rules": corrected}

    def to_dict(self) -> dict:
        s = self.settings
        return {"run_dirs": list(self.run_dirs), "traces": len(self.traces), "window": s.window, "rule": s.rule(),
                "live_harm": self.live_harm(),
                "rules": [self.rules[r].to_dict(s.min_count, s.min_episodes, s.min_pairs, self.adjusted_p(r))
                          for r in self.ordered()]}


def runs_with_traces(runs_dir: str | Path) -> list[str]:
    """Every run directory under `runs_dir` that has traces (what stats reads when no run is named)."""
    root = Path(runs_dir)
    return sorted(str(p) for p in root.iterdir() if (p / "traces").is_dir()) if root.is_dir() else []


def efficacy_report(book: Rulebook, run_dirs: Sequence[str], settings: VerdictSettings) -> EfficacyReport:
    """Efficacy of every rule of `book` over the rulebook traces in `run_dirs`."""
    missing = [d for d in run_dirs if not Path(d).is_dir()]
    if missing:
        raise RulebookError(f"run directory {missing[0]!r} does not exist")
    if not run_dirs:
        raise RulebookError("no run directories with traces; name them: stats RUN_DIR ...")
    traces, problems = read_traces(run_dirs)
    heads = book.heads()
    found = aggregate(traces)
    rules = {rule_id: found.get(rule_id, RuleEfficacy(rule_id)) for rule_id in heads}
    return EfficacyReport(tuple(run_dirs), tuple(traces), tuple(problems), heads, rules, settings)


def interval_text(diff: Optional[tuple[float, Optional[float], Optional[float]]]) -> str:
    """`+0.12 [-0.03, +0.27]`, or `-` when there is nothing to compare."""
    if diff is None:
        return "-"
    return f"{diff[0]:+.2f}" + (f" [{diff[1]:+.2f}, {diff[2]:+.2f}]" if diff[1] is not None else "")


def record_efficacy(book: Rulebook, report: EfficacyReport, actor: str) -> Optional[BookVersion]:
    """Each helpful / harmful verdict as efficacy evidence on its rule (`SUPPORTED_BY` / `COUNTERED_BY`),
    citing the traces it came from; never an edit of a directive. None when there was nothing new (the
    same traces are recorded once)."""
    sources = short_hash("stats", *sorted(t.path for t in report.traces))
    where = f"stats:{sources} over {len(report.traces)} traces in " + ", ".join(report.run_dirs)
    assessments = []
    for rule_id in report.ordered():
        verdict, eff = report.verdict(rule_id), report.rules[rule_id]
        if verdict not in (RuleVerdict.HELPFUL, RuleVerdict.HARMFUL):
            continue
        detail = (f"{verdict}: failure after followed {eff.rate_followed()}, after not followed {eff.rate_not()}, "
                  f"difference {interval_text(eff.difference())}; window return difference "
                  f"{interval_text(eff.return_difference())}; ablation (with - without, "
                  f"{len(eff.ablation)} pairs) {interval_text(eff.ablation_difference())}")
        assessments.append((rule_id, Evidence("efficacy", actor, where, 1, detail[:300]), verdict is RuleVerdict.HELPFUL))
    if not assessments:
        return None
    return book.assess(assessments, Provenance(actor=actor), note="efficacy from rulebook traces")


def needs_review(report: EfficacyReport) -> list[tuple[RuleVersion, list[str]]]:
    """Active rules a person should look at, each with why: harmful, never followed where it applied,
    never triggered in enough rulebook episodes, or in conflict with a more helpful active rule."""
    s = report.settings
    verdicts = {r: report.verdict(r) for r in report.rules}
    found = []
    for rule_id in sorted(report.rules):
        eff, record = report.rules[rule_id], report.heads[rule_id].record
        if record.status != RuleStatus.ACTIVE:
            continue
        reasons = []
        if verdicts[rule_id] is RuleVerdict.HARMFUL:
            reasons.append("harmful: episodes end worse with it than without it (ablation)")
        judged = eff.followed + eff.ignored + eff.contradicted
        if judged >= s.min_count and eff.followed == 0:
            reasons.append(f"never followed in {judged} decision points where it applied")
        if eff.triggered == 0 and eff.episodes >= s.min_episodes:
            reasons.append(f"never triggered in {eff.episodes} rulebook episodes")
        better = [o for o in record.conflicts_with if verdicts.get(o) is RuleVerdict.HELPFUL and verdicts[rule_id] is not RuleVerdict.HELPFUL
                  and report.heads[o].record.status == RuleStatus.ACTIVE]
        if better:
            reasons.append("conflicts with a more helpful rule: " + ", ".join(o[:10] for o in better))
        if reasons:
            found.append((report.heads[rule_id], reasons))
    return found
