"""Calibrating the relevance floor on real decision contexts, labelled by the rules' own conditions.

Method (`forge rulebook calibrate RUN_DIR`; forge.calibration.calibrate_run plays the episodes):
1. play frozen episodes of the memory under rulebook injection and record every (role, context,
   accumulated context) an agent asked the rulebook about;
2. for every such context and every rule of that role that has a trigger predicate, the label is
   whether the predicate holds on the context (ground truth from the rule itself), and the score is
   the mixed cosine retrieval would compute;
3. the recommended floor is the highest floor that keeps recall (share of applying pairs scored at or
   above it) at the target; its false-positive rate says how much retrieval alone would still inject
   where nothing applies.
`choose_floor` is the pure part. Semantic rules carry no label, so they are calibrated through the rules
with predicates that share their retrieval path, or on labelled cases (the benchmark, below).

What it found on CAGE-2 (surrogate, B_line, all-MiniLM-L6-v2): every decision context of the game looks
alike to a sentence embedding. Pairs where the rule applies score p5/p50/p95 = 0.68/0.69/0.71, pairs
where it does not 0.38/0.66/0.74 (a one-rule memory, 5 episodes); a 20-rule memory gives 0.52/0.68/0.71
against 0.40/0.62/0.70. The highest floor with recall >= 0.95 is 0.50-0.65 and still lets 60-90 % of the
non-applying pairs through. So the floor silences what is unlike any trigger (a quiet network scores
0.37-0.43, unrelated text < 0.1) and the condition gate does the rest; the default 0.3 loses no applying
pair. Stated triggers (a human correction's situation, a few words) separate better: 0.5 against a
context that shows the situation, 0.2-0.3 against other game contexts, so 0.45 is the floor to use when
free-text corrections matter.

Since rules carry trigger predicates (predicate.py), the floor applies only to *semantic* rules (what the
compiler could not express), and is calibrated for free text on the decision-context benchmark
(`scripts/bench/dc_bench.py --split dev --calibrate`, labels: the cases' expected sets). Measured on the
dev split (all-MiniLM-L6-v2): with the case authors' compilations, the semantic rules that apply score
0.44-0.51 and those that do not 0.22, so the highest floor with full recall is 0.40; with every free-text
rule left semantic (a compiler that writes no predicates), applying pairs score p5/p50/p95
0.21/0.48/0.68 and non-applying 0.20/0.38/0.64: no floor separates them (exact-set accuracy 51-54 % for
floors 0.3-0.6, silence 55 % at 0.3, 73 % at 0.4, 91 % at 0.6). Embeddings alone cannot scope free text
on CAGE-2; the compiler's predicates do. Default: 0.4.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Sequence

import numpy as np

from forge.rulebook.retrieval.embed import mean_direction
from forge.rulebook.language.predicate import holds
from forge.rulebook.retrieval.retrieve import RuleIndex
from forge.rulebook.language.situation import read_situation

GRID = tuple(round(x, 2) for x in np.arange(0.0, 1.0001, 0.05))


@dataclass(frozen=True)
class Calibration:
    floor: float
    target_recall: float
    recall: float
    false_positive_rate: float
    positives: int
    negatives: int
    curve: tuple[tuple[float, float, float], ...]  # (floor, recall, false positive rate)
    positive_quantiles: tuple[float, ...]  # 5th, 50th, 95th percentile of applying pairs' cosine
    negative_quantiles: tuple[float, ...]

    def summary(self) -> str:
        return (f"recommended relevance floor {self.floor:.2f}: recall {self.recall:.3f} (target {self.target_recall}), "
                f"false positive rate {self.false_positive_rate:.3f} without the condition gate; cosine of applying "
                f"pairs p5/p50/p95 {'/'.join(f'{q:.3f}' for q in self.positive_quantiles)}, of non-applying "
                f"{'/'.join(f'{q:.3f}' for q in self.negative_quantiles)}")

    def to_dict(self) -> dict:
        return asdict(self)


def _quantiles(values: np.ndarray) -> tuple[float, ...]:
    return tuple(float(q) for q in np.percentile(values, [5, 50, 95])) if values.size else ()


def choose_floor(positive: Sequence[float], negative: Sequence[float], target_recall: float = 0.95,
                 grid: Sequence[float] = GRID) -> Calibration:
    """The highest floor on `grid` whose recall on `positive` scores is at least `target_recall`."""
    pos = np.asarray(positive, dtype=np.float64)
    neg = np.asarray(negative, dtype=np.float64)
    if pos.size == 0:
        raise ValueError("no applying (context, rule) pairs to calibrate on: play more episodes or use a memory with grammar rules")
    curve = []
    for floor in grid:
        recall = float((pos >= floor).mean())
        fpr = float((neg >= floor).mean()) if neg.size else 0.0
        curve.append((float(floor), recall, fpr))
    admissible = [point for point in curve if point[1] >= target_recall]
    floor, recall, fpr = max(admissible, key=lambda p: p[0]) if admissible else curve[0]
    return Calibration(floor, target_recall, recall, fpr, int(pos.size), int(neg.size), tuple(curve),
                       _quantiles(pos), _quantiles(neg))


@dataclass(frozen=True)
class AskedContext:
    role: str
    context: str
    recent: tuple[str, ...]  # the accumulated context before it


def labelled_scores(index: RuleIndex, asked: Sequence[AskedContext], embedder, node_weight: float) -> tuple[list[float], list[float]]:
    """Mixed cosine of every (context, rule of its role that has a predicate), split by whether the
    predicate holds on the context."""
    positive: list[float] = []
    negative: list[float] = []
    predicates = [m.when for m in index.meanings]
    for entry in asked:
        members = [i for i, v in enumerate(index.content) if entry.role in v.record.roles and predicates[i] is not None]
        if not members:
            continue
        vectors = embedder.encode_cached([*entry.recent, entry.context])
        query, accumulated = vectors[-1], mean_direction(vectors)
        situation = read_situation(entry.context)
        for i in members:
            score = node_weight * float(index.node_matrix[i] @ query) + (1 - node_weight) * float(index.acc_matrix[i] @ accumulated)
            (positive if holds(predicates[i], situation) else negative).append(score)
    return positive, negative


class RecordingInjection:
    """Delegates to an injection and remembers every context it was asked about."""

    def __init__(self, inner, window: int) -> None:
        self.inner = inner
        self.mode = inner.mode
        self.window = window
        self.asked: list[AskedContext] = []
        self._recent: list[str] = []

    def start_episode(self, initial_context: str) -> None:
        self._recent = []
        self.inner.start_episode(initial_context)

    def for_call(self, role: str, context: str):
        self.asked.append(AskedContext(role, context, tuple(self._recent[-self.window:] if self.window else ())))
        if role == "planner":
            self._recent.append(context)
        return self.inner.for_call(role, context)
