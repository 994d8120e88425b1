"""Statistics of episode returns: one summary shape for baselines, checkpoints and evaluations, and the
intervals, tests and verdicts that say whether two conditions differ."""

from __future__ import annotations

import math
import statistics
from dataclasses import asdict, dataclass
from enum import Enum
from typing import Any, Optional, Sequence

import numpy as np

from forge.plumbing.seeding import BOOTSTRAP_SEED

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
# Episodes of one instance share its memory (what it learned), so an interval or a test that resamples
# episodes treats correlated returns as independent and tends to come out too narrow. In a session that
# broadcasts, the instances share the champion's memory as well, and only sessions are independent
# (`compare_sessions_means`). Every unit is computed and labelled; only the independent one gives a verdict.

CONFIDENCE = 0.95
ALPHA = 0.05
RESAMPLES = 10_000
MIN_PER_SIDE = 3

INSTANCES = "instances"
EPISODES = "episodes"
SESSIONS = "sessions"

DECISION_RULE = (
    f"Verdict on A - B (higher return is better), on the unit that is independent: sessions when either "
    f"condition broadcasts (forge, forge_no_grad), instances when neither does (zero_shot, reflexion). "
    f"better = {CONFIDENCE:.0%} interval of the difference above 0 and test p < {ALPHA:g}; "
    f"worse = interval below 0 and p < {ALPHA:g}; otherwise not significant at this size. "
    f"Sessions of a study are paired by their index k (session k of every arm runs on the same seeds): then "
    f"a sign-flip test over the K paired differences and their Student-t interval decide; otherwise a "
    f"permutation test and a bootstrap interval. "
    f"Too few to test: fewer than {MIN_PER_SIDE} units on a side, or so few that no split (no sign pattern) "
    f"reaches p < {ALPHA:g}."
)
UNIT_NOTE = (
    "Why the unit: a FORGE session broadcasts its champion's memory to its instances, so their final "
    "evaluations share what they learned and are not independent; its sessions are (each has its own "
    "seeds). Sessions rows: permutation test over session means, two-level bootstrap (sessions, then "
    "instances within each). Zero-shot and Reflexion instances never share memory, so instance rows decide "
    "there. Episode rows resample episodes as if independent (episodes of one instance share its memory): "
    "they give no verdict."
)


class Verdict(str, Enum):
    better = "better"
    worse = "worse"
    not_significant = "not significant at this size"
    too_few = "too few instances to test"
    too_few_sessions = "too few sessions to test"
    not_independent = "none: episodes not independent"
    shared_memory = "none: instances share memory (broadcast)"


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
    paired: bool = False  # n_a = n_b pairs (study sessions paired by k): sign-flip test, Student-t interval

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "verdict": self.verdict.value}

    @property
    def label(self) -> str:
        """The unit as a table names it: "sessions, paired by k" for paired sessions."""
        return f"{self.unit}, paired by k" if self.paired else self.unit

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


def smallest_sign_flip_p(pairs: int, flips: int = RESAMPLES) -> float:
    """The smallest two-sided p-value of the sign-flip test of `pairs` paired differences (`paired_test`):
    exact over every sign pattern when there are at most `flips`, where all signs alike and their mirror
    are the two most extreme of 2^pairs; otherwise one draw in `flips` + 1."""
    return min(1.0, 2.0 / 2 ** pairs) if 2 ** pairs <= flips else 1.0 / (flips + 1)


def decide(low: Optional[float], high: Optional[float], p_value: Optional[float], n_a: int, n_b: int,
           *, independent: bool, alpha: float = ALPHA, smallest_p: Optional[float] = None) -> Verdict:
    """The plain verdict on A - B (see DECISION_RULE); a pure function of the interval and the test.
    `smallest_p`: what the test can reach at these sizes (default: the two-sample permutation test's)."""
    if not independent:
        return Verdict.not_independent
    reachable = smallest_permutation_p(n_a, n_b) if smallest_p is None else smallest_p
    if min(n_a, n_b) < MIN_PER_SIDE or reachable >= alpha:
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
    verdict = decide(low, high, p_value, n_a, n_b, independent=unit in (INSTANCES, SESSIONS), alpha=alpha)
    return Difference(unit, n_a, n_b, delta, low, high, p_value, smallest_permutation_p(n_a, n_b, resamples),
                      math.comb(n_a + n_b, n_a) <= resamples, verdict)


# -- paired differences, clustered intervals, multiplicity, coverage ----------------------------------------

def t_intervals(samples: np.ndarray, *, confidence: float = CONFIDENCE) -> tuple[np.ndarray, np.ndarray]:
    """Student-t intervals of the mean, one per row of `samples` (rows: independent samples of one size):
    the interval shown with a paired test (an ablation's, a study's paired sessions)."""
    from scipy import stats as scipy_stats

    data = np.atleast_2d(np.asarray(samples, dtype=float))
    n = data.shape[1]
    mean = data.mean(axis=1)
    half = scipy_stats.t.ppf(0.5 + confidence / 2.0, n - 1) * data.std(axis=1, ddof=1) / math.sqrt(n)
    return mean - half, mean + half


@dataclass(frozen=True)
class PairedTest:
    """Mean of paired differences, its Student-t interval, and a sign-flip permutation p-value."""

    n: int
    mean: float
    low: Optional[float]
    high: Optional[float]
    p_value: Optional[float]


def sign_flip_p_values(samples: np.ndarray, *, seed: int = BOOTSTRAP_SEED, flips: int = RESAMPLES) -> np.ndarray:
    """The two-sided sign-flip p-value of the mean, one per row of `samples` (rows: samples of one size n):
    under no effect each paired difference is as likely negative as positive. Exact, over all 2^n sign
    patterns, when there are at most `flips`; else `flips` random patterns (seeded, shared by the rows),
    the observed one counted in. One implementation for a rule's ablation (`paired_test`) and for the
    simulation that validates it (tests/test_efficacy_coverage.py)."""
    data = np.atleast_2d(np.asarray(samples, dtype=float))
    n = data.shape[1]
    exact = 2 ** n <= flips
    if exact:
        signs = (((np.arange(2 ** n)[:, None] >> np.arange(n)) & 1) * 2 - 1).astype(float)
    else:
        signs = np.random.default_rng(seed).choice([-1.0, 1.0], size=(flips, n))
    observed = np.abs(data.sum(axis=1))
    counts = np.empty(len(data))
    for start in range(0, len(data), 512):  # (patterns x rows) at a time: bounded memory
        rows = data[start:start + 512]
        flipped = np.abs(signs @ rows.T)
        counts[start:start + 512] = (flipped >= observed[start:start + 512] * (1 - 1e-12) - 1e-12).sum(axis=0)
    return counts / len(signs) if exact else (counts + 1) / (len(signs) + 1)


def paired_test(differences: Sequence[float], *, seed: int = BOOTSTRAP_SEED, flips: int = RESAMPLES) -> PairedTest:
    """The paired differences are sorted first, so nothing depends on the order they were read in. The
    p-value is `sign_flip_p_values`'; the interval Student's t."""
    values = np.sort(np.asarray(differences, dtype=float))
    if values.size == 0:
        raise ValueError("no paired differences")
    mean = float(values.mean())
    if values.size < 2:
        return PairedTest(1, mean, None, None, None)
    low, high = t_intervals(values[None, :])
    p = float(sign_flip_p_values(values[None, :], seed=seed, flips=flips)[0])
    return PairedTest(values.size, mean, float(low[0]), float(high[0]), min(1.0, p))


def holm(p_values: dict[str, float]) -> dict[str, float]:
    """Holm's step-down adjustment (family-wise error across the tests of one report): the k-th smallest
    p-value times (m - k + 1), made monotone, capped at 1."""
    ordered = sorted(p_values.items(), key=lambda kv: (kv[1], kv[0]))
    m, running, adjusted = len(ordered), 0.0, {}
    for k, (name, p) in enumerate(ordered):
        running = max(running, min(1.0, (m - k) * p))
        adjusted[name] = running
    return adjusted


def clustered_difference(a: Sequence[tuple[str, float]], b: Sequence[tuple[str, float]], *, seed: int = BOOTSTRAP_SEED,
                         confidence: float = CONFIDENCE, resamples: int = 2000) -> Optional[tuple[float, Optional[float], Optional[float]]]:
    """mean(a) - mean(b) over observations tagged by their cluster (an episode), with a cluster bootstrap
    interval: whole episodes are resampled, so correlated steps of one episode are never counted as if
    independent. None when a side is empty; no interval from fewer than two clusters or no resample
    with both sides present."""
    if not a or not b:
        return None
    clusters = sorted({c for c, _ in a} | {c for c, _ in b})
    index = {c: i for i, c in enumerate(clusters)}
    sums = np.zeros((2, len(clusters)))
    counts = np.zeros((2, len(clusters)))
    for side, observations in enumerate((a, b)):
        for cluster, value in observations:
            sums[side, index[cluster]] += value
            counts[side, index[cluster]] += 1
    delta = float(sums[0].sum() / counts[0].sum() - sums[1].sum() / counts[1].sum())
    if len(clusters) < 2:
        return delta, None, None
    weights = np.random.default_rng(seed).multinomial(len(clusters), [1.0 / len(clusters)] * len(clusters), size=resamples)
    n_a, n_b = weights @ counts[0], weights @ counts[1]
    ok = (n_a > 0) & (n_b > 0)
    if ok.sum() < 2:
        return delta, None, None
    diffs = (weights @ sums[0])[ok] / n_a[ok] - (weights @ sums[1])[ok] / n_b[ok]
    tail = (1.0 - confidence) / 2.0
    return delta, float(np.quantile(diffs, tail)), float(np.quantile(diffs, 1.0 - tail))


# -- sessions as the unit: when instances share what they learned --------------------------------------


def two_level_interval(a: Sequence[Sequence[float]], b: Sequence[Sequence[float]], *, seed: int = BOOTSTRAP_SEED,
                       confidence: float = CONFIDENCE, resamples: int = RESAMPLES) -> tuple[Optional[float], Optional[float]]:
    """Percentile-bootstrap interval of mean(A) - mean(B), where each side is a list of sessions and each
    session a list of its instances' means: sessions are resampled, then the instances of each chosen
    session (a two-level bootstrap: both the between-session and the within-session spread count).
    None bounds with fewer than two sessions on a side."""
    if min(len(a), len(b)) < 2:
        return None, None
    rng = np.random.default_rng(seed)

    def arm_means(sessions: Sequence[Sequence[float]]) -> np.ndarray:
        chosen = rng.integers(0, len(sessions), size=(resamples, len(sessions)))
        totals = np.zeros(resamples)
        for k, session in enumerate(sessions):
            values = np.asarray(session, dtype=float)
            picks = values[rng.integers(0, values.size, size=(resamples, values.size))].mean(axis=1)
            totals += (chosen == k).sum(axis=1) * picks  # each time session k was drawn, its resampled mean
        return totals / len(sessions)

    diffs = arm_means(a) - arm_means(b)
    tail = (1.0 - confidence) / 2.0
    return float(np.quantile(diffs, tail)), float(np.quantile(diffs, 1.0 - tail))


def compare_sessions_means(a: Sequence[Sequence[float]], b: Sequence[Sequence[float]], *, seed: int = BOOTSTRAP_SEED,
                           alpha: float = ALPHA, resamples: int = RESAMPLES) -> Difference:
    """The difference of two conditions with sessions as the unit: each session's mean (of its instances'
    means), a permutation test over sessions, and the two-level bootstrap interval. The verdict needs at
    least MIN_PER_SIDE sessions a side and a size at which the test can reach alpha."""
    session_means_a = [float(np.mean(s)) for s in a]
    session_means_b = [float(np.mean(s)) for s in b]
    by_sessions = compare_samples(session_means_a, session_means_b, SESSIONS, seed=seed, alpha=alpha, resamples=resamples)
    low, high = two_level_interval(a, b, seed=seed, resamples=resamples)
    verdict = decide(low, high, by_sessions.p_value, len(a), len(b), independent=True, alpha=alpha)
    if verdict is Verdict.too_few:
        verdict = Verdict.too_few_sessions
    return Difference(SESSIONS, len(a), len(b), by_sessions.delta, low, high, by_sessions.p_value,
                      by_sessions.smallest_p, by_sessions.exact, verdict)


def compare_paired_sessions(pairs: Sequence[tuple[Sequence[float], Sequence[float]]], *, seed: int = BOOTSTRAP_SEED,
                            alpha: float = ALPHA, flips: int = RESAMPLES) -> Difference:
    """The difference of two arms of a study whose sessions are paired by their index k (session k of each
    arm ran on the same seeds): per pair, the difference of the session means (each the mean of its
    instances' means); a sign-flip test over the K differences (`paired_test`: under no difference each is
    as likely negative as positive) and their Student-t interval. Pairing takes out what the seeds do to
    both arms alike; at small K the test can reach less (4 pairs: p >= 0.125, 6: p >= 0.031)."""
    differences = [float(np.mean(a)) - float(np.mean(b)) for a, b in pairs]
    test = paired_test(differences, seed=seed, flips=flips)
    k = len(differences)
    smallest = smallest_sign_flip_p(k, flips)
    verdict = decide(test.low, test.high, test.p_value, k, k, independent=True, alpha=alpha, smallest_p=smallest)
    if verdict is Verdict.too_few:
        verdict = Verdict.too_few_sessions
    return Difference(SESSIONS, k, k, test.mean, test.low, test.high, test.p_value, smallest, 2 ** k <= flips,
                      verdict, paired=True)
