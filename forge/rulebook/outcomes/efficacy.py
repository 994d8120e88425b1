"""Efficacy per rule: the aftermath of its injections, aggregated over traces, and a verdict.

Per rule: the episodes it could have been injected in, the decision points it was injected at, those
where its trigger held, and of those how often the agent followed, ignored or contradicted it; the
failure rate (a failure in the next `rulebook.aftermath_window` steps) after it was followed and after
it was not (ignored or contradicted), each with a 95% Wilson interval, and their difference with a
seeded 95% percentile-bootstrap interval (forge.analysis.stats).

Those step-level comparisons are observational and short-sighted (an ignored rule is often followed a
step later; in CAGE-2 a failure follows almost every late step), and the steps of one episode are
correlated: they are descriptive only, their intervals resample whole episodes (clustered). One primary
outcome decides: the ablation. Episodes played on the same seed with the book as it is and with that one
rule withheld (`forge evaluate --injection rulebook`, forge.rulebook.outcomes.ablation), paired by run directory,
seed and book version; the paired difference of episode returns is the rule's effect on the whole
episode. With at least `rulebook.efficacy_min_pairs` pairs (chosen by the simulation of this verdict's
size and power in tests/test_efficacy_coverage.py) it is tested by a sign-flip permutation test, Holm-corrected across the
rules judged in one report (`holm_adjusted`); its Student-t interval is shown. `verdict_rule` says it in
words; `forge rulebook stats` prints it under the table.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Iterable, Optional, Sequence

from forge.config import RulebookConfig
from forge.rulebook.language.action import Adherence
from forge.rulebook.outcomes.aftermath import Aftermath
from forge.analysis.stats import ALPHA, clustered_difference, holm, paired_test


class RuleVerdict(StrEnum):
    """A rule's verdict from its ablation (`verdict_rule`). Not `forge.analysis.stats.Verdict`, which judges the
    difference between two conditions, nor `Adherence`, how one action stood to the rule."""

    HELPFUL = "helpful"
    HARMFUL = "harmful"
    INERT = "inert"
    INSUFFICIENT = "insufficient evidence"


CONFIDENCE = 0.95
# The configuration's default is the one source (forge.config says how it was chosen).
MIN_PAIRS = RulebookConfig.efficacy_min_pairs


def verdict_rule(min_count: int, min_episodes: int, min_pairs: int = MIN_PAIRS) -> str:
    return (f"Verdict, from one primary outcome: the ablation's paired difference of episode returns (the same "
            f"seed played with the book as it is and with the rule withheld; with - without). With at least "
            f"{min_pairs} pairs (by simulation, the size from which the test's size and power hold), a sign-flip "
            f"permutation test, Holm-corrected across the rules judged in this report: helpful = corrected p < "
            f"{ALPHA:g} and a positive mean difference, harmful = corrected p < {ALPHA:g} and a negative one, inert "
            f"= not significant; fewer pairs: insufficient evidence (no verdict). The decision-point columns "
            f"(failure rate in the next k steps and window return after followed vs not followed, at least "
            f"{min_count} a side; {min_episodes} episodes before 'never triggered' is said) are descriptive: "
            f"observational, with {CONFIDENCE:.0%} intervals that resample whole episodes (steps of one "
            f"episode are correlated); they decide nothing.")


@dataclass(frozen=True)
class Rate:
    failures: int
    n: int
    low: Optional[float]
    high: Optional[float]

    @property
    def value(self) -> Optional[float]:
        return self.failures / self.n if self.n else None

    def __str__(self) -> str:
        if not self.n:
            return "-"
        return f"{self.value:.0%} [{self.low:.0%}, {self.high:.0%}] ({self.failures}/{self.n})"


def wilson(failures: int, n: int) -> Rate:
    if n == 0:
        return Rate(0, 0, None, None)
    from scipy.stats import binomtest

    ci = binomtest(failures, n).proportion_ci(confidence_level=CONFIDENCE, method="wilson")
    return Rate(failures, n, float(ci.low), float(ci.high))


@dataclass
class RuleEfficacy:
    rule_id: str
    episodes: int = 0  # rulebook episodes in which the rule was eligible
    injected: int = 0  # decision points it reached
    triggered: int = 0  # ... where its trigger held (or it has no predicate)
    followed: int = 0
    ignored: int = 0
    contradicted: int = 0
    # Per judged decision point, each value with the episode it came from (intervals resample episodes):
    after_followed: list[int] = field(default_factory=list)  # 1 = a failure followed
    after_not: list[int] = field(default_factory=list)
    reward_followed: list[float] = field(default_factory=list)  # the step's own reward
    reward_not: list[float] = field(default_factory=list)
    return_followed: list[float] = field(default_factory=list)  # the window return
    return_not: list[float] = field(default_factory=list)
    episodes_of: dict[str, list[str]] = field(default_factory=dict)  # list name -> episode of each value
    ablation: list[float] = field(default_factory=list)  # per seed: episode return with the rule - without it
    overridden: int = 0  # decision points it reached that an operator overrode
    operator_contradicted: int = 0  # ... where the operator then contradicted it (live harm)

    def add(self, entry: Aftermath, episode: str = "?") -> None:
        self.injected += 1
        if entry.operator is not None:
            self.overridden += 1
            self.operator_contradicted += entry.operator == "contradicted"
        if entry.held is False:
            return
        self.triggered += 1
        if entry.judged is None:
            return
        setattr(self, entry.judged, getattr(self, entry.judged) + 1)
        side = "followed" if entry.judged is Adherence.FOLLOWED else "not"
        self._append(f"reward_{side}", entry.reward, episode)
        if entry.window_return is not None:
            self._append(f"return_{side}", entry.window_return, episode)
        if entry.failure is not None:
            self._append(f"after_{side}", int(entry.failure), episode)

    def _append(self, name: str, value: float, episode: str) -> None:
        getattr(self, name).append(value)
        self.episodes_of.setdefault(name, []).append(episode)

    def _clustered(self, name: str) -> list[tuple[str, float]]:
        values = getattr(self, name)
        episodes = self.episodes_of.get(name, [])
        # Values set without episodes (built by hand) count as one episode each.
        return [(episodes[i] if i < len(episodes) else f"#{i}", v) for i, v in enumerate(values)]

    @property
    def followed_rate(self) -> Optional[float]:
        judged = self.followed + self.ignored + self.contradicted
        return self.followed / judged if judged else None

    def rate_followed(self) -> Rate:
        return wilson(sum(self.after_followed), len(self.after_followed))

    def rate_not(self) -> Rate:
        return wilson(sum(self.after_not), len(self.after_not))

    def difference(self) -> Optional[tuple[float, Optional[float], Optional[float]]]:
        """(followed - not followed) failure rate with its episode-clustered interval; None with a side empty."""
        return _mean_difference(self._clustered("after_followed"), self._clustered("after_not"))

    def reward_difference(self) -> Optional[tuple[float, Optional[float], Optional[float]]]:
        """The step's mean reward after followed minus after not followed, with its episode-clustered
        interval (descriptive: the immediate cost of what the rule asks)."""
        return _mean_difference(self._clustered("reward_followed"), self._clustered("reward_not"))

    def return_difference(self) -> Optional[tuple[float, Optional[float], Optional[float]]]:
        """The mean window return after followed minus after not followed, with its episode-clustered interval."""
        return _mean_difference(self._clustered("return_followed"), self._clustered("return_not"))

    def ablation_difference(self) -> Optional[tuple[float, Optional[float], Optional[float]]]:
        """The mean paired episode-return difference (with the rule - without it) and its t interval."""
        return paired_difference(self.ablation) if self.ablation else None

    def ablation_p(self, min_pairs: int = MIN_PAIRS) -> Optional[float]:
        """The sign-flip p-value of the paired differences, once there are enough pairs to judge."""
        if len(self.ablation) < max(min_pairs, 2):
            return None
        return paired_test(self.ablation).p_value

    def verdict(self, min_count: int, min_episodes: int, min_pairs: int = MIN_PAIRS,
                adjusted_p: Optional[float] = None) -> RuleVerdict:
        """From the ablation alone. `adjusted_p`: this rule's p-value after the report's multiplicity
        correction (`holm_adjusted`); without it the rule is judged alone (uncorrected)."""
        p = adjusted_p if adjusted_p is not None else self.ablation_p(min_pairs)
        if p is None:
            return RuleVerdict.INSUFFICIENT
        if p < ALPHA:
            return RuleVerdict.HELPFUL if paired_test(self.ablation).mean > 0 else RuleVerdict.HARMFUL
        return RuleVerdict.INERT

    def to_dict(self, min_count: int, min_episodes: int, min_pairs: int = MIN_PAIRS,
                adjusted_p: Optional[float] = None) -> dict:
        diff = self.difference()
        return {"rule": self.rule_id, "episodes": self.episodes, "injected": self.injected,
                "triggered": self.triggered, "followed": self.followed, "ignored": self.ignored,
                "contradicted": self.contradicted,
                "overridden": self.overridden, "operator_contradicted": self.operator_contradicted,
                "failure_after_followed": _rate_dict(self.rate_followed()),
                "failure_after_not_followed": _rate_dict(self.rate_not()),
                "difference": None if diff is None else {"delta": diff[0], "low": diff[1], "high": diff[2]},
                "step_reward_difference": _triple(self.reward_difference()),
                "window_return_difference": _triple(self.return_difference()),
                "ablation_pairs": len(self.ablation),
                "ablation_return_difference": _triple(self.ablation_difference()),
                "ablation_p": self.ablation_p(min_pairs), "ablation_p_holm": adjusted_p,
                "verdict": self.verdict(min_count, min_episodes, min_pairs, adjusted_p)}


def holm_adjusted(rules: dict[str, "RuleEfficacy"], min_pairs: int = MIN_PAIRS) -> dict[str, float]:
    """Holm-corrected ablation p-values of the rules judged together (those with enough pairs)."""
    raw = {rule_id: eff.ablation_p(min_pairs) for rule_id, eff in rules.items()}
    return holm({rule_id: p for rule_id, p in raw.items() if p is not None})


def paired_difference(differences: Sequence[float]) -> tuple[float, Optional[float], Optional[float]]:
    """Mean of paired differences with its t interval (None bounds from one pair). The values are sorted
    first, so nothing depends on the order the pairs were read in."""
    values = sorted(differences)
    if len(set(values)) == 1:  # no spread: the interval is the point
        return values[0], values[0], values[0]
    test = paired_test(values)
    return test.mean, test.low, test.high


def _mean_difference(followed: list[tuple[str, float]], not_followed: list[tuple[str, float]]
                     ) -> Optional[tuple[float, Optional[float], Optional[float]]]:
    if not followed or not not_followed:
        return None
    if len({v for _, v in followed}) == 1 and len({v for _, v in not_followed}) == 1:  # no spread
        delta = float(followed[0][1] - not_followed[0][1])
        return delta, delta, delta
    found = clustered_difference(followed, not_followed)
    if found is None or found[1] is None or math.isnan(found[1]) or math.isnan(found[2]):
        return None if found is None else (found[0], None, None)
    return found


def _triple(diff) -> Optional[dict]:
    return None if diff is None else {"delta": diff[0], "low": diff[1], "high": diff[2]}


def _rate_dict(rate: Rate) -> dict:
    return {"failures": rate.failures, "n": rate.n, "rate": rate.value, "low": rate.low, "high": rate.high}


@dataclass(frozen=True)
class TraceAftermath:
    """What efficacy reads of one trace file."""

    path: str
    label: str
    eligible: tuple[str, ...]
    entries: tuple[Aftermath, ...]
    seed: Optional[int] = None
    total_return: Optional[float] = None
    book_version: Optional[int] = None
    withheld: tuple[str, ...] = ()  # rules taken out of the book for this episode (an ablation)

    @property
    def pairing_key(self) -> tuple:
        """Episodes with this key differ only in what was withheld (same directory, seed and book)."""
        return str(Path(self.path).parent), self.seed, self.book_version


def read_traces(run_dirs: Sequence[str | Path]) -> tuple[list[TraceAftermath], list[str]]:
    """Every trace under `<run_dir>/traces/` that was played with rulebook injection; and the problems
    met (an unreadable file is named and skipped, never fatal)."""
    found: list[TraceAftermath] = []
    problems: list[str] = []
    for run_dir in run_dirs:
        for path in sorted(Path(run_dir, "traces").glob("**/*.json")):
            try:
                data = json.loads(path.read_text())
            except (OSError, ValueError) as exc:
                problems.append(f"{path}: unreadable ({type(exc).__name__})")
                continue
            book = data.get("rulebook") if isinstance(data, dict) else None
            if not book:
                continue
            try:
                entries = tuple(Aftermath.from_dict(e) for e in data.get("aftermath", ()))
            except (KeyError, TypeError, ValueError) as exc:
                problems.append(f"{path}: unreadable aftermath ({exc})")
                continue
            found.append(TraceAftermath(str(path), str(data.get("label", path.stem)),
                                        tuple(book.get("eligible", ())), entries, _int_or_none(data.get("seed")),
                                        _float_or_none(data.get("total_return")),
                                        _int_or_none(book.get("book_version")), tuple(book.get("withheld", ()))))
    return found, problems


def _int_or_none(value) -> Optional[int]:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _float_or_none(value) -> Optional[float]:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def ablation_pairs(traces: Iterable[TraceAftermath]) -> dict[str, list[float]]:
    """Per withheld rule, the paired episode-return differences (the book as it is - without the rule),
    one per episode whose unablated twin (same directory, seed and book version) was found."""
    traces = list(traces)
    base = {t.pairing_key: t for t in traces if not t.withheld and t.seed is not None and t.total_return is not None}
    pairs: dict[str, list[float]] = {}
    for trace in traces:
        if len(trace.withheld) != 1 or trace.total_return is None:
            continue
        twin = base.get(trace.pairing_key)
        if twin is not None:
            pairs.setdefault(trace.withheld[0], []).append(twin.total_return - trace.total_return)
    return pairs


def aggregate(traces: Iterable[TraceAftermath]) -> dict[str, RuleEfficacy]:
    """Efficacy per rule: decision points from the episodes played with the book as it is, and the
    ablation pairs (episodes with a rule withheld count only there)."""
    traces = list(traces)
    rules: dict[str, RuleEfficacy] = {}
    for rule_id, differences in ablation_pairs(traces).items():
        rules.setdefault(rule_id, RuleEfficacy(rule_id)).ablation.extend(differences)
    for trace in traces:
        if trace.withheld:
            continue
        for rule_id in trace.eligible:
            rules.setdefault(rule_id, RuleEfficacy(rule_id)).episodes += 1
        for entry in trace.entries:
            rules.setdefault(entry.rule_id, RuleEfficacy(entry.rule_id)).add(entry, trace.path)
    return rules


def injection_rates(traces: Iterable[TraceAftermath]) -> dict[str, float]:
    """MLflow metrics for one session's rulebook traces: per rule (first 10 characters of its id),
    decision points injected and the share of judged ones followed."""
    metrics: dict[str, float] = {}
    for rule_id, eff in sorted(aggregate(traces).items()):
        if not eff.injected:
            continue
        key = f"rulebook.{rule_id[:10]}"
        metrics[f"{key}.injected"] = float(eff.injected)
        if eff.followed_rate is not None:
            metrics[f"{key}.followed_rate"] = float(eff.followed_rate)
    return metrics


def session_rule_rates(run_dir: str | Path) -> dict[str, float]:
    """The per-rule injected / followed-rate metrics of a session's traces (`workers/driver.py` logs them
    on the session's MLflow run when `memory.injection=rulebook`); unreadable traces are skipped."""
    traces, _ = read_traces([run_dir])
    return injection_rates(traces)
