"""Statistics of episode returns: one summary shape for baselines, checkpoints and evaluations, and the
intervals, tests and verdicts that say whether two conditions differ."""

from __future__ import annotations

import math
import statistics
from dataclasses import asdict, dataclass
from enum import Enum
from typing import Any, Optional, Sequence

import numpy as np

TAIL_THRESHOLDS = (-100.0, -150.0)


@dataclass(frozen=True)
class ReturnStats:
    n: int
    mean: float
    sd: float  # sample standard deviation (0 for one episode)
    min: float
    max: float
    tail_100: float  # share of episodes with return < -100
    tail_150: float  # share of episodes with return < -150

    @classmethod
    def of(cls, returns: Sequence[float]) -> "ReturnStats":
        if not returns:
            raise ValueError("no returns to summarise")
        values = [float(r) for r in returns]
        return cls(
            n=len(values),
            mean=statistics.fmean(values),
            sd=statistics.stdev(values) if len(values) > 1 else 0.0,
            min=min(values),
            max=max(values),
            tail_100=sum(v < TAIL_THRESHOLDS[0] for v in values) / len(values),
            tail_150=sum(v < TAIL_THRESHOLDS[1] for v in values) / len(values),
        )

    def as_dict(self) -> dict[str, float]:
        return asdict(self)

    def __str__(self) -> str:
        return f"{self.mean:.2f} ± {self.sd:.2f} (n={self.n})"


def pct_change(value: float, reference: float) -> float:
    """Relative improvement of a (negative) return over a reference, in percent; positive is better."""
    if reference == 0 or math.isnan(reference):
        return math.nan
    return (value - reference) / abs(reference) * 100.0


# -- intervals and tests: what a difference between conditions means -----------------------------------
#
# Instances are the independent unit of a session: episodes of one instance share its memory (what it
# learned), so an interval or a test that resamples episodes treats correlated returns as independent and
# tends to come out too narrow. Both are computed (and labelled by the unit they resample); only the instance
# comparison gives a verdict.

CONFIDENCE = 0.95
ALPHA = 0.05
RESAMPLES = 10_000
BOOTSTRAP_SEED = 0
MIN_PER_SIDE = 3

INSTANCES = "instances"
EPISODES = "episodes"

DECISION_RULE = (
    f"Verdict on A - B (higher return is better), from the instance rows only: "
    f"better = {CONFIDENCE:.0%} bootstrap interval of the difference above 0 and permutation p < {ALPHA:g}; "
    f"worse = interval below 0 and p < {ALPHA:g}; otherwise not significant at this size. "
    f"Too few instances to test: fewer than {MIN_PER_SIDE} on a side, or so few that no split reaches "
    f"p < {ALPHA:g}."
)
UNIT_NOTE = (
    "Instances are the independent unit. Episode rows resample episodes as if independent; episodes of "
    "one instance share its memory, so their intervals and p-values tend to be too optimistic; they give no verdict."
)


class Verdict(str, Enum):
    better = "better"
    worse = "worse"
    not_significant = "not significant at this size"
    too_few = "too few instances to test"
    not_independent = "none: episodes not independent"


@dataclass(frozen=True)
class MeanInterval:
    """A mean with its percentile-bootstrap interval; no interval from fewer than two values."""

    unit: str  # what was resampled: INSTANCES or EPISODES
    n: int
    mean: float
    low: Optional[float]
    high: Optional[float]

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def __str__(self) -> str:
        if self.low is None:
            return f"{self.mean:.2f} (n={self.n}, no interval)"
        return f"{self.mean:.2f} [{self.low:.2f}, {self.high:.2f}]"


@dataclass(frozen=True)
class Difference:
    """mean(A) - mean(B) with its bootstrap interval, a permutation-test p-value and the verdict."""

    unit: str
    n_a: int
    n_b: int
    delta: float
    low: Optional[float]
    high: Optional[float]
    p_value: Optional[float]
    smallest_p: Optional[float]  # the smallest p-value the permutation test can return at these sizes
    exact: bool  # the permutation test enumerated every split (else: `resamples` random ones, seeded)
    verdict: Verdict

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "verdict": self.verdict.value}

    @property
    def interval(self) -> str:
        return "-" if self.low is None else f"[{self.low:+.2f}, {self.high:+.2f}]"


def mean_interval(values: Sequence[float], unit: str, *, seed: int = BOOTSTRAP_SEED,
                  confidence: float = CONFIDENCE, resamples: int = RESAMPLES) -> MeanInterval:
    data = np.asarray(values, dtype=float)
    if data.size == 0:
        raise ValueError(f"no {unit} to estimate a mean from")
    if data.size < 2:
        return MeanInterval(unit, 1, float(data[0]), None, None)
    from scipy import stats as scipy_stats  # here, not at import: every CLI command imports this module

    result = scipy_stats.bootstrap((data,), np.mean, n_resamples=resamples, confidence_level=confidence,
                                   method="percentile", vectorized=True, rng=np.random.default_rng(seed))
    ci = result.confidence_interval
    return MeanInterval(unit, int(data.size), float(data.mean()), float(ci.low), float(ci.high))


def smallest_permutation_p(n_a: int, n_b: int, resamples: int = RESAMPLES) -> float:
    """The smallest two-sided p-value of a permutation test of two samples of these sizes.

    Exact when every split can be enumerated (scipy does so when there are no more than `resamples`):
    the observed split and its mirror are the two most extreme of C(n_a + n_b, n_a) splits.
    """
    splits = math.comb(n_a + n_b, n_a)
    return min(1.0, 2.0 / splits) if splits <= resamples else min(1.0, 2.0 / (resamples + 1))


def decide(low: Optional[float], high: Optional[float], p_value: Optional[float], n_a: int, n_b: int,
           *, independent: bool, alpha: float = ALPHA) -> Verdict:
    """The plain verdict on A - B (see DECISION_RULE); a pure function of the interval and the test."""
    if not independent:
        return Verdict.not_independent
    if min(n_a, n_b) < MIN_PER_SIDE or smallest_permutation_p(n_a, n_b) >= alpha:
        return Verdict.too_few
    if low is None or p_value is None or p_value >= alpha:
        return Verdict.not_significant
    if low > 0:
        return Verdict.better
    if high < 0:
        return Verdict.worse
    return Verdict.not_significant


def _difference_of_means(a: np.ndarray, b: np.ndarray, axis: int = -1) -> np.ndarray:
    return np.mean(a, axis=axis) - np.mean(b, axis=axis)


def compare_samples(a: Sequence[float], b: Sequence[float], unit: str, *, seed: int = BOOTSTRAP_SEED,
                    confidence: float = CONFIDENCE, alpha: float = ALPHA, resamples: int = RESAMPLES) -> Difference:
    """Difference in means of two independent samples: seeded bootstrap interval and permutation test.

    `unit` says what the values are; only INSTANCES is treated as independent for the verdict.
    """
    x, y = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if x.size == 0 or y.size == 0:
        raise ValueError(f"cannot compare {unit}: one side has no values ({x.size} vs {y.size})")
    delta = float(x.mean() - y.mean())
    low = high = p_value = None
    if x.size >= 2 and y.size >= 2:
        from scipy import stats as scipy_stats

        interval = scipy_stats.bootstrap((x, y), _difference_of_means, n_resamples=resamples,
                                         confidence_level=confidence, method="percentile", vectorized=True,
                                         rng=np.random.default_rng(seed)).confidence_interval
        low, high = float(interval.low), float(interval.high)
        test = scipy_stats.permutation_test((x, y), _difference_of_means, permutation_type="independent",
                                            vectorized=True, n_resamples=resamples, alternative="two-sided",
                                            rng=np.random.default_rng(seed))
        p_value = float(test.pvalue)
    n_a, n_b = int(x.size), int(y.size)
    verdict = decide(low, high, p_value, n_a, n_b, independent=unit == INSTANCES, alpha=alpha)
    return Difference(unit, n_a, n_b, delta, low, high, p_value, smallest_permutation_p(n_a, n_b, resamples),
                      math.comb(n_a + n_b, n_a) <= resamples, verdict)
