"""The coverage simulation that chooses the minimum number of ablation pairs (rulebook.efficacy_min_pairs).

A rule's verdict comes from the paired differences of episode returns (with the rule - without it) and
their 95% interval (forge.stats.paired_test: a Student-t interval). At small sizes an interval covers the
true mean less often than its nominal 95%. Here it is simulated, per size n, for families of paired
differences a rule could produce: normal; heavy-tailed (t, 3 df); strongly skewed (exponential - 1,
skewness 2); and a mixture where the rule matters in a fifth of the episodes only (80% N(0, 2), 20%
N(-20, 5)). The minimum is the smallest n from which every family's coverage is at least 92% at every
larger size in the table. `pytest tests/test_efficacy_coverage.py -s` prints the table.
"""

from __future__ import annotations

import numpy as np

from forge.config import RulebookConfig
from forge.rulebook.outcomes.efficacy import MIN_PAIRS
from forge.stats import interval_coverage

NOMINAL = 0.95
REQUIRED = 0.92
SIZES = (4, 6, 8, 10, 12, 16, 20, 24, 28, 32, 40)
FAMILIES = {
    "normal": (lambda rng, shape: rng.normal(0.0, 1.0, shape), 0.0),
    "t(3)": (lambda rng, shape: rng.standard_t(3, shape), 0.0),
    "skewed": (lambda rng, shape: rng.exponential(1.0, shape) - 1.0, 0.0),
    "mixture": (lambda rng, shape: np.where(rng.random(shape) < 0.8, rng.normal(0.0, 2.0, shape),
                                            rng.normal(-20.0, 5.0, shape)), -4.0),
}


def coverage_table() -> dict[int, dict[str, float]]:
    return {n: {name: interval_coverage(draw, mean, n, sims=10_000, seed=n) for name, (draw, mean) in FAMILIES.items()}
            for n in SIZES}


def chosen_minimum(table: dict[int, dict[str, float]]) -> int:
    sizes = sorted(table)
    for i, n in enumerate(sizes):
        if all(min(table[m].values()) >= REQUIRED for m in sizes[i:]):
            return n
    raise AssertionError(f"no size in {sizes} reaches {REQUIRED:.0%} coverage in every family")


def test_the_minimum_number_of_pairs_is_where_the_interval_covers():
    table = coverage_table()
    minimum = chosen_minimum(table)
    lines = [f"COVERAGE of the paired-difference interval (Student t, nominal {NOMINAL:.0%}), 10000 samples per cell",
             f"{'n':>4}  " + "  ".join(f"{name:>8}" for name in FAMILIES) + "  min"]
    for n, row in table.items():
        mark = "  <- chosen minimum" if n == minimum else ""
        lines.append(f"{n:>4}  " + "  ".join(f"{row[name]:>8.3f}" for name in FAMILIES) + f"  {min(row.values()):.3f}{mark}")
    print("\n" + "\n".join(lines))
    # The simulation behaves as the theory says: exact for normal data, worse for skewed ones at small n.
    assert abs(table[8]["normal"] - NOMINAL) < 0.01 and table[4]["mixture"] < 0.8
    assert minimum == MIN_PAIRS == RulebookConfig().efficacy_min_pairs
