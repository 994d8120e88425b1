"""Calibrating the relevance floor: the cosine score a semantic rule needs before it is injected.

Two sources of labels, because semantic rules carry none of their own:
- real decision contexts (`forge rulebook calibrate RUN_DIR`; forge.runs.calibration plays the episodes):
  every (role, context) an agent asked the rulebook about, labelled for each rule with a trigger
  predicate by whether that predicate holds there, and scored with the cosine retrieval would compute;
- the decision-context benchmark's cases (`scripts/bench/dc_bench.py --calibrate`), labelled by their
  expected sets, which is how free-text (semantic) rules are calibrated.
`choose_floor` (pure) picks the highest floor that keeps recall at the target and reports the
false-positive rate left at that floor: what the floor alone would still inject where nothing applies.
On CAGE-2 every decision context looks alike to a sentence encoder, so the floor only silences what is
unlike any trigger; the compiler's predicates do the real scoping (the measured score distributions and
the default's derivation are in the README's rulebook section and the encoder benchmark).
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
