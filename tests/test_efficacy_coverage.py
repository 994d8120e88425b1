"""The simulation that validates a rule's verdict and chooses the minimum number of ablation pairs
(rulebook.efficacy_min_pairs).

A rule's verdict comes from the paired differences of episode returns (with the rule - without it): the
sign-flip test of their mean (forge.analysis.stats.sign_flip_p_values, what `paired_test` and so the verdict use),
helpful or harmful when p < 0.05. Here that rule is simulated, per number of pairs n, for the shapes
paired differences of returns take:
- normal; heavy-tailed (t, 3 df); strongly skewed (exponential - 1, skewness 2);
- rare-effect: the rule matters in a fifth of the episodes (80% N(0, 2), 20% N(-20, 5): mean -4).
Size: the share of verdicts when the mean difference is 0 (each family centred; rare-effect becomes
80% N(4, 2), 20% N(-16, 5)). A rule that changes nothing at all gives symmetric differences, for which
the test is exact at any n; a skewed difference of mean 0 (a rule that helps a little often and hurts a
lot rarely) makes it reject too often at small n. Power: the share of verdicts of the right sign when
the rule moves the mean by half a standard deviation of the differences (rare-effect: its own -4, 0.47
SD).

The minimum is the smallest n from which, at every larger size in the table, every family's size is
at most MAX_SIZE (1.6 x the nominal 5%: the skewed families approach 5% slowly, about 7% from 32 to 64
pairs, and a bound on that plateau would be decided by noise) and its power at least MIN_POWER, at the
worst of the simulation seeds. The margin: each seed alone chooses the same minimum, and at the minimum
every figure clears its bound by at least two Monte-Carlo standard errors. One rule judged alone:
Holm's correction across the rules of a report only lowers both. Above 2^13 patterns the simulation
draws FLIPS random sign patterns per sample (the product draws 10,000: the same test, a little less
Monte-Carlo noise in each p-value).
`pytest tests/test_efficacy_coverage.py -s` prints the table (about a CPU-minute).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from forge.config import RulebookConfig
from forge.rulebook.outcomes.efficacy import MIN_PAIRS
from forge.analysis.stats import ALPHA, paired_test, sign_flip_p_values

SIZES = (8, 12, 16, 20, 24, 32, 40, 48, 56, 64)
SEEDS = (0, 1, 2)
SIMS = 8000
FLIPS = 2000
MAX_SIZE = 0.08
MIN_POWER = 0.80
HALF_SD = 0.5

RARE_SD = math.sqrt(0.8 * 2 ** 2 + 0.2 * 5 ** 2 + 0.8 * 0.2 * 20 ** 2)  # 8.5: the mixture's standard deviation
FAMILIES = {  # name -> (draw of mean 0, the effect a rule has: half an SD, or rare-effect's own)
    "normal": (lambda rng, shape: rng.normal(0.0, 1.0, shape), HALF_SD * 1.0),
    "t(3)": (lambda rng, shape: rng.standard_t(3, shape), HALF_SD * math.sqrt(3.0)),
    "skewed": (lambda rng, shape: rng.exponential(1.0, shape) - 1.0, HALF_SD * 1.0),
    "rare-effect": (lambda rng, shape: np.where(rng.random(shape) < 0.8, rng.normal(4.0, 2.0, shape),
                                                rng.normal(-16.0, 5.0, shape)), -4.0),
}


def verdicts(samples: np.ndarray, seed: int, effect: float = 0.0) -> float:
    """The share of samples given a verdict (p < ALPHA), of the effect's sign when there is one."""
    p = sign_flip_p_values(samples, seed=seed, flips=FLIPS)
    right_sign = np.sign(samples.mean(axis=1)) == np.sign(effect) if effect else True
    return float(np.mean((p < ALPHA) & right_sign))


Table = dict[int, dict[str, tuple[float, float]]]  # n -> family -> (size, power)


def simulate() -> dict[int, Table]:
    """seed -> its table."""
    tables: dict[int, Table] = {seed: {} for seed in SEEDS}
    for n in SIZES:
        for k, (name, (draw, effect)) in enumerate(FAMILIES.items()):
            for seed in SEEDS:
                null = draw(np.random.default_rng([seed, n, k]), (SIMS, n))
                tables[seed].setdefault(n, {})[name] = (verdicts(null, seed), verdicts(null + effect, seed, effect))
    return tables


def worst(tables: dict[int, Table]) -> Table:
    """Per cell the highest size and the lowest power over the seeds."""
    return {n: {name: (max(t[n][name][0] for t in tables.values()), min(t[n][name][1] for t in tables.values()))
                for name in FAMILIES} for n in SIZES}


def passes(row: dict[str, tuple[float, float]], margin_se: float = 0.0) -> bool:
    size_se = math.sqrt(MAX_SIZE * (1 - MAX_SIZE) / SIMS)
    power_se = math.sqrt(MIN_POWER * (1 - MIN_POWER) / SIMS)
    return all(size <= MAX_SIZE - margin_se * size_se and power >= MIN_POWER + margin_se * power_se
               for size, power in row.values())


def chosen_minimum(table: Table) -> int:
    sizes = sorted(table)
    for i, n in enumerate(sizes):
        if all(passes(table[m]) for m in sizes[i:]):
            return n
    raise AssertionError(f"no size in {sizes} meets size <= {MAX_SIZE} and power >= {MIN_POWER} in every family")


def test_the_simulation_uses_the_verdict_s_own_test():
    rng = np.random.default_rng(5)
    for n in (6, 12, 30):
        samples = rng.normal(0.3, 1.0, (4, n))
        simulated = sign_flip_p_values(samples, seed=0)
        assert [paired_test(row, seed=0).p_value for row in samples] == list(simulated) or n > 13
    exact = rng.normal(0.3, 1.0, (4, 12))  # exact: sorted or not, the same p as the verdict's
    assert list(sign_flip_p_values(exact)) == [paired_test(row).p_value for row in exact]


@pytest.mark.slow  # no Ray nor CybORG, but about a CPU-minute: kept out of the quick suite
def test_the_verdict_s_size_and_power_choose_the_minimum_number_of_pairs():
    tables = simulate()
    table = worst(tables)
    minimum = chosen_minimum(table)
    lines = [f"SIGN-FLIP VERDICT (p < {ALPHA:g}), {SIMS} samples per cell, worst of seeds {SEEDS}: size (no effect) / "
             f"power (half an SD; rare-effect: -4); bounds size <= {MAX_SIZE}, power >= {MIN_POWER}",
             f"{'n':>4}  " + "  ".join(f"{name:>14}" for name in FAMILIES)]
    for n, row in table.items():
        mark = "  <- chosen minimum" if n == minimum else ("  ok" if passes(row) else "")
        lines.append(f"{n:>4}  " + "  ".join(f"{size:>6.3f} / {power:.2f}" for size, power in row.values()) + mark)
    print("\n" + "\n".join(lines))
    # The simulation behaves as the theory says: exact for symmetric differences at any n, too many verdicts
    # for skewed ones at small n, fewer as n grows; power grows with n.
    assert all(abs(table[n][name][0] - ALPHA) < 0.012 for n in SIZES for name in ("normal", "t(3)"))
    assert table[8]["skewed"][0] > 0.08 and table[64]["skewed"][0] < table[16]["skewed"][0]
    assert table[64]["rare-effect"][1] > table[16]["rare-effect"][1] + 0.3
    # With margin: every seed alone picks it, and it clears the bounds by two standard errors.
    assert {seed: chosen_minimum(t) for seed, t in tables.items()} == {seed: minimum for seed in SEEDS}
    assert passes(table[minimum], margin_se=2.0)
    assert minimum == MIN_PAIRS == RulebookConfig().efficacy_min_pairs
