"""Score arithmetic of hybrid retrieval. Pure functions on numpy arrays.

- cosine mix: `node_weight * cos(query, trigger node) + (1 - node_weight) * cos(accumulated query context,
  accumulated trigger context)` (0.7 / 0.3 by default);
- ranks are 1-based, ties broken by position (the caller's stable order), so fusion is deterministic;
- Reciprocal Rank Fusion: `1/(k + r_emb) + 1/(k + r_bm25)`; a rule with BM25 score 0 is absent from the
  lexical ranking and gets no lexical term (it matched no query word).
"""

from __future__ import annotations

import numpy as np


def mixed_cosine(node_sim: np.ndarray, acc_sim: np.ndarray, node_weight: float) -> np.ndarray:
    if not 0.0 <= node_weight <= 1.0:
        raise ValueError(f"node_weight must be in [0, 1], got {node_weight}")
    return node_weight * np.asarray(node_sim, dtype=np.float64) + (1.0 - node_weight) * np.asarray(acc_sim, dtype=np.float64)


def ranks(scores: np.ndarray, present: np.ndarray | None = None) -> np.ndarray:
    """1-based rank of each entry by descending score (stable); 0 for entries not `present`."""
    scores = np.asarray(scores, dtype=np.float64)
    present = np.ones(len(scores), dtype=bool) if present is None else np.asarray(present, dtype=bool)
    order = np.argsort(-scores, kind="stable")
    order = order[present[order]]
    out = np.zeros(len(scores), dtype=np.int64)
    out[order] = np.arange(1, len(order) + 1)
    return out


def rrf(rank_lists: list[np.ndarray], k: int = 60) -> np.ndarray:
    """Reciprocal Rank Fusion of 1-based rank arrays (0 = absent from that list)."""
    if k < 0:
        raise ValueError(f"the RRF constant k must be >= 0, got {k}")
    if not rank_lists:
        return np.zeros(0)
    fused = np.zeros(len(rank_lists[0]), dtype=np.float64)
    for rank in rank_lists:
        rank = np.asarray(rank)
        fused += np.where(rank > 0, 1.0 / (k + np.maximum(rank, 1)), 0.0)
    return fused
