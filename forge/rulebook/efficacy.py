"""Efficacy per rule: the aftermath of its injections, aggregated over traces, and a verdict.

Per rule: the episodes it could have been injected in, the decision points it was injected at, those
where its trigger held, and of those how often the agent followed, ignored or contradicted it; the
failure rate (a failure in the next `rulebook.aftermath_window` steps) after it was followed and after
it was not (ignored or contradicted), each with a 95% Wilson interval, and their difference with a
seeded 95% percentile-bootstrap interval (forge.stats).

Those step-level comparisons are observational and short-sighted: an ignored rule is often followed a
step later, and in CAGE-2 a failure follows almost every late step whatever the agent did. So a rule
can also be judged by ablation: episodes played on the same seed with the book as it is and with that
one rule withheld (`forge evaluate --injection rulebook`, forge.rulebook.ablation), paired by run
directory, seed and book version. The paired difference of episode returns is the rule's effect on the
whole episode; when there are enough pairs it decides the verdict. The verdict is a pure function of
these counts (`verdict_rule` says it in words; `forge rulebook stats` prints it under the table).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Optional, Sequence

from forge.rulebook.aftermath import Aftermath
from forge.stats import compare_samples, mean_interval

HELPFUL, HARMFUL, INERT, INSUFFICIENT = "helpful", "harmful", "inert", "insufficient evidence"
CONFIDENCE = 0.95
MIN_PAIRS = 8  # ablation pairs before they decide the verdict (rulebook.efficacy_min_pairs)


def verdict_rule(min_count: int, min_episodes: int, min_pairs: int = MIN_PAIRS) -> str:
    return (f"Verdict: with at least {min_pairs} ablation pairs (the same seed played with the book as it is "
            f"and with the rule withheld), by the paired difference of episode returns (with - without) and "
            f"its {CONFIDENCE:.0%} bootstrap interval: helpful = interval above 0, harmful = below 0, inert = "
            f"it spans 0. Otherwise by the decision points: judged decision points are those where the rule was injected and its trigger held; two "
            f"outcomes, each compared between followed and not followed (ignored or contradicted) points with "
            f"at least {min_count} a side and a {CONFIDENCE:.0%} bootstrap interval of the difference: the "
            f"failure rate in the next k steps, and the window return (the step's reward plus the next k). "
            f"helpful = fewer failures (interval below 0) or a higher window return (interval above 0), and "
            f"neither outcome says the opposite; harmful = the mirror image; inert = no outcome separates "
            f"(or they disagree), or the trigger never held in at least {min_episodes} rulebook episodes; "
            f"otherwise insufficient evidence (no verdict). The window return exists because in CAGE-2 a "
            f"failure soon follows almost any late step, so the failure rate alone cannot see a rule's effect.")


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
    after_followed: list[int] = field(default_factory=list)  # 1 = a failure followed, per judged decision point
    after_not: list[int] = field(default_factory=list)
    reward_followed: list[float] = field(default_factory=list)  # the step's own reward, per judged point
    reward_not: list[float] = field(default_factory=list)
    return_followed: list[float] = field(default_factory=list)  # the window return, per judged point
    return_not: list[float] = field(default_factory=list)
    ablation: list[float] = field(default_factory=list)  # per seed: episode return with the rule - without it

    def add(self, entry: Aftermath) -> None:
        self.injected += 1
        if entry.held is False:
            return
        self.triggered += 1
        if entry.judged is None:
            return
        setattr(self, entry.judged, getattr(self, entry.judged) + 1)
        (self.reward_followed if entry.judged == "followed" else self.reward_not).append(entry.reward)
        if entry.window_return is not None:
            (self.return_followed if entry.judged == "followed" else self.return_not).append(entry.window_return)
        if entry.failure is None:
            return
        (self.after_followed if entry.judged == "followed" else self.after_not).append(int(entry.failure))

    @property
    def followed_rate(self) -> Optional[float]:
        judged = self.followed + self.ignored + self.contradicted
        return self.followed / judged if judged else None

    def rate_followed(self) -> Rate:
        return wilson(sum(self.after_followed), len(self.after_followed))

    def rate_not(self) -> Rate:
        return wilson(sum(self.after_not), len(self.after_not))

    def difference(self) -> Optional[tuple[float, Optional[float], Optional[float]]]:
        """(followed - not followed) failure rate with its bootstrap interval; None with a side empty."""
        return _mean_difference(self.after_followed, self.after_not)

    def reward_difference(self) -> Optional[tuple[float, Optional[float], Optional[float]]]:
        """The step's mean reward after followed minus after not followed, with its bootstrap interval
        (shown beside the verdict, not part of it: the immediate cost of what the rule asks)."""
        return _mean_difference(self.reward_followed, self.reward_not)

    def return_difference(self) -> Optional[tuple[float, Optional[float], Optional[float]]]:
        """The mean window return after followed minus after not followed, with its bootstrap interval."""
        return _mean_difference(self.return_followed, self.return_not)

    def ablation_difference(self) -> Optional[tuple[float, Optional[float], Optional[float]]]:
        """The mean paired episode-return difference (with the rule - without it) and its bootstrap interval."""
        return paired_difference(self.ablation) if self.ablation else None

    def verdict(self, min_count: int, min_episodes: int, min_pairs: int = MIN_PAIRS) -> str:
        if len(self.ablation) >= max(min_pairs, 2):  # an interval needs two pairs
            _, low, high = self.ablation_difference()
            if low is not None and low > 0:
                return HELPFUL
            if high is not None and high < 0:
                return HARMFUL
            return INERT
        if self.triggered == 0:
            return INERT if self.episodes >= min_episodes else INSUFFICIENT
        failures = self.difference() if _enough(self.after_followed, self.after_not, min_count) else None
        returns = self.return_difference() if _enough(self.return_followed, self.return_not, min_count) else None
        failures = failures if failures is not None and failures[1] is not None else None
        returns = returns if returns is not None and returns[1] is not None else None
        if failures is None and returns is None:
            return INSUFFICIENT
        helps = (failures is not None and failures[2] < 0) or (returns is not None and returns[1] > 0)
        harms = (failures is not None and failures[1] > 0) or (returns is not None and returns[2] < 0)
        if helps and not harms:
            return HELPFUL
        if harms and not helps:
            return HARMFUL
        return INERT

    def to_dict(self, min_count: int, min_episodes: int, min_pairs: int = MIN_PAIRS) -> dict:
        diff = self.difference()
        return {"rule": self.rule_id, "episodes": self.episodes, "injected": self.injected,
                "triggered": self.triggered, "followed": self.followed, "ignored": self.ignored,
                "contradicted": self.contradicted,
                "failure_after_followed": _rate_dict(self.rate_followed()),
                "failure_after_not_followed": _rate_dict(self.rate_not()),
                "difference": None if diff is None else {"delta": diff[0], "low": diff[1], "high": diff[2]},
                "step_reward_difference": _triple(self.reward_difference()),
                "window_return_difference": _triple(self.return_difference()),
                "ablation_pairs": len(self.ablation),
                "ablation_return_difference": _triple(self.ablation_difference()),
                "verdict": self.verdict(min_count, min_episodes, min_pairs)}


def paired_difference(differences: Sequence[float]) -> tuple[float, Optional[float], Optional[float]]:
    """Mean of paired differences with its seeded bootstrap interval (None bounds from one pair). The
    values are sorted first, so the interval does not depend on the order the pairs were read in."""
    values = sorted(differences)
    if len(set(values)) == 1:  # every resample the same (scipy: degenerate)
        return values[0], values[0], values[0]
    m = mean_interval(values, "paired episodes")
    return m.mean, m.low, m.high


def _enough(followed: list, not_followed: list, min_count: int) -> bool:
    return len(followed) >= min_count and len(not_followed) >= min_count


def _mean_difference(followed: list[float], not_followed: list[float]) -> Optional[tuple[float, Optional[float], Optional[float]]]:
    if not followed or not not_followed:
        return None
    if len(set(followed)) == 1 and len(set(not_followed)) == 1:  # every resample the same (scipy: degenerate)
        delta = float(followed[0] - not_followed[0])
        return delta, delta, delta
    d = compare_samples(followed, not_followed, "decision points", resamples=2000)
    bad = d.low is None or math.isnan(d.low) or math.isnan(d.high)
    return d.delta, None if bad else d.low, None if bad else d.high


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
            rules.setdefault(entry.rule_id, RuleEfficacy(entry.rule_id)).add(entry)
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
