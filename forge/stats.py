"""Summary statistics of episode returns, in one shape for baselines, checkpoints and evaluations."""

from __future__ import annotations

import math
import statistics
from dataclasses import asdict, dataclass
from typing import Sequence

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
