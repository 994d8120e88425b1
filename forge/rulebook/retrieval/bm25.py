"""Okapi BM25 over rule documents, on numpy postings.

Tokens are case-folded words that keep inner underscores and digits (`Op_Server0` is one token, and the
one that matters), with a light suffix fold so that "compromise" in a rule meets "Compromised" in an
observation. Each posting stores its precomputed term weight, so a query is a scatter-add of the
postings of its distinct terms: cost grows with the query's vocabulary, not with the number of rules.

    idf(t)    = ln(1 + (N - n_t + 0.5) / (n_t + 0.5))          (never negative)
    w(t, d)   = idf(t) * tf * (k1 + 1) / (tf + k1 * (1 - b + b * |d| / avgdl))
    score(q,d)= sum of w(t, d) over the distinct terms t of q
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

import numpy as np

_TOKEN = re.compile(r"[a-z0-9_]+")
_STOP = frozenset(
    "a an and are as at be by for from has have if in is it its of on or that the then this to was were "
    "when with".split()
)
_SUFFIXES = ("ing", "ed", "es", "s", "e")


@lru_cache(maxsize=1 << 16)  # rule documents and contexts share a small vocabulary: each word is folded once
def fold(word: str) -> str:
    """A crude stem: enough to meet inflections of the same word, never merging names with digits."""
    if any(ch.isdigit() or ch == "_" for ch in word) or len(word) <= 4:
        return word
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)]
    return word


def tokenize(text: str) -> list[str]:
    return [fold(word) for word in _TOKEN.findall(text.casefold()) if word not in _STOP]


@dataclass(frozen=True)
class BM25Index:
    vocabulary: dict[str, int]
    postings: tuple[tuple[np.ndarray, np.ndarray], ...]  # per term: (document indices, weights)
    size: int

    @classmethod
    def build(cls, documents: Sequence[str], k1: float = 1.2, b: float = 0.75) -> "BM25Index":
        counts = [Counter(tokenize(doc)) for doc in documents]
        lengths = np.array([sum(c.values()) for c in counts], dtype=np.float64)
        avgdl = float(lengths.mean()) if len(lengths) and lengths.mean() > 0 else 1.0
        docs_of: dict[str, list[tuple[int, int]]] = {}
        for index, counter in enumerate(counts):
            for term, tf in counter.items():
                docs_of.setdefault(term, []).append((index, tf))
        n_docs = len(documents)
        vocabulary: dict[str, int] = {}
        postings = []
        for term, entries in docs_of.items():
            idf = math.log(1.0 + (n_docs - len(entries) + 0.5) / (len(entries) + 0.5))
            indices = np.fromiter((i for i, _ in entries), dtype=np.int64, count=len(entries))
            tf = np.fromiter((t for _, t in entries), dtype=np.float64, count=len(entries))
            norm = k1 * (1.0 - b + b * lengths[indices] / avgdl)
            vocabulary[term] = len(postings)
            postings.append((indices, (idf * tf * (k1 + 1.0) / (tf + norm)).astype(np.float32)))
        return cls(vocabulary, tuple(postings), n_docs)

    def scores(self, query: str) -> np.ndarray:
        """BM25 score of every document for `query` (zeros where no query term occurs)."""
        out = np.zeros(self.size, dtype=np.float32)
        for term in set(tokenize(query)):
            slot = self.vocabulary.get(term)
            if slot is not None:
                indices, weights = self.postings[slot]
                out[indices] += weights
        return out
