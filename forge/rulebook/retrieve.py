"""Hybrid retrieval of the rules that apply to a decision context.

For the CONTENT rules scoped to the calling role (FORMAT rules share no vocabulary with a situation and
are routed separately: they are delivered unconditionally at stage 1):
1. cosine: `0.7 * cos(context, trigger node) + 0.3 * cos(accumulated context, trigger's accumulated
   context)` over unit embeddings (the weight is `rulebook.node_weight`);
2. BM25 of the context against each rule's document (directive + trigger text);
3. fused by Reciprocal Rank Fusion, `1/(k + r_emb) + 1/(k + r_bm25)` with k = `rulebook.rrf_k`, ranks from 1;
4. relevance floor: RRF scores are ranks and say nothing about whether anything applies, so the
   absolute gate is the mixed cosine: a rule whose trigger is less similar than `rulebook.relevance_floor`
   to the situation is not injected (calibrate.py: how the floor is chosen, and why on CAGE-2 it can
   only silence contexts unlike any trigger: the game's contexts all embed alike);
5. condition gate (`rulebook.condition_gate`): a rule written in the grammar also states its trigger
   mechanically (`When Op_Server0 shows any compromise`); it applies only if the context shows a host
   row that meets it. Free-text rules have no such gate;
6. conflicts settled (resolve.py), best fused first, at most `rulebook.max_rules_per_injection`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Optional, Sequence

import numpy as np

from forge.config import ROLES
from forge.env.catalog import HOSTS
from forge.grammar import ConditionalRule
from forge.rulebook.bm25 import BM25Index
from forge.rulebook.fusion import mixed_cosine, ranks, rrf
from forge.rulebook.model import RuleRecord, RuleVersion
from forge.rulebook.resolve import Decision, resolve_conflicts
from forge.rulebook.situation import HostRow, condition_of, host_rows


@dataclass(frozen=True)
class RetrievalSettings:
    rrf_k: int = 60
    node_weight: float = 0.7
    relevance_floor: float = 0.3
    max_rules: int = 5
    condition_gate: bool = True

    @classmethod
    def from_config(cls, rulebook_config) -> "RetrievalSettings":
        return cls(rulebook_config.rrf_k, rulebook_config.node_weight, rulebook_config.relevance_floor,
                   rulebook_config.max_rules_per_injection, getattr(rulebook_config, "condition_gate", True))


@dataclass(frozen=True)
class Candidate:
    """One rule's scores for one query."""

    rule_id: str
    ref: str  # <rule_id>@v<n>
    directive: str
    bm25: float
    r_bm25: int  # 0: no query word in the rule's document
    node_cos: float
    acc_cos: float
    cosine: float
    r_emb: int
    fused: float
    above_floor: bool
    gate: Optional[bool]  # None: free text, no mechanical condition (or the gate is off)


@dataclass(frozen=True)
class Retrieval:
    candidates: tuple[Candidate, ...]  # every scoped rule, best fused first
    selected: tuple[str, ...]  # rule ids to inject, best first
    decisions: tuple[Decision, ...]


_ACTIVITIES = ("None", "Scan", "Exploit", "?")  # "?": a value the grammar does not name
_COMPROMISES = ("No", "Unknown", "User", "Privileged", "?")


def _truth_table(condition: ConditionalRule) -> np.ndarray:
    """Whether the condition holds, by (host, activity, compromised): the grammar's own `matches`,
    tabulated once so that a query checks every rule at once."""
    table = np.zeros((len(HOSTS), len(_ACTIVITIES), len(_COMPROMISES)), dtype=bool)
    for h, host in enumerate(HOSTS):
        for a, activity in enumerate(_ACTIVITIES):
            for c, compromised in enumerate(_COMPROMISES):
                table[h, a, c] = condition.matches(host, activity, compromised)
    return table


def _row_index(row: HostRow) -> Optional[tuple[int, int, int]]:
    if row.host not in _HOST_INDEX:
        return None
    a = _ACTIVITIES.index(row.activity) if row.activity in _ACTIVITIES else len(_ACTIVITIES) - 1
    c = _COMPROMISES.index(row.compromised) if row.compromised in _COMPROMISES else len(_COMPROMISES) - 1
    return _HOST_INDEX[row.host], a, c


_HOST_INDEX = {host: index for index, host in enumerate(HOSTS)}


def _matvec(matrix: np.ndarray, vector: np.ndarray) -> np.ndarray:
    """matrix @ vector on this thread. A BLAS call this size fans out to OpenBLAS threads, which then
    fight the embedding model's still-spinning OpenMP threads for the same cores: measured 25 ms
    instead of 1 ms per query at 5,000 rules on 2 cores."""
    return np.einsum("ij,j->i", matrix, vector)


class RuleIndex:
    """The eligible rules of one book version, in one scope, ready to be searched."""

    def __init__(
        self,
        versions: Sequence[RuleVersion],
        trigger_texts: Mapping[str, str],
        vectors: Mapping[str, tuple[np.ndarray, np.ndarray]],
        records: Mapping[str, RuleRecord],
        book_version: int,
    ) -> None:
        self.book_version = book_version
        self.records = records
        self.versions = {v.rule_id: v for v in versions}
        self.format_rules = [v for v in versions if v.record.type == "FORMAT"]
        self.content = [v for v in versions if v.record.type == "CONTENT"]
        dim = next((len(vec[0]) for vec in vectors.values()), 0)
        zeros = np.zeros(dim, dtype=np.float32)
        triggers = [v.record.trigger for v in self.content]
        empty = np.zeros((0, dim), np.float32)
        self.node_matrix = np.vstack([vectors.get(t, (zeros, zeros))[0] for t in triggers]) if triggers else empty
        self.acc_matrix = np.vstack([vectors.get(t, (zeros, zeros))[1] for t in triggers]) if triggers else empty
        self.trigger_texts = [trigger_texts.get(t or "", "") for t in triggers]
        self.bm25 = BM25Index.build([f"{v.record.directive}\n{text}" for v, text in zip(self.content, self.trigger_texts)])
        self.role_mask = {role: np.array([role in v.record.roles for v in self.content], dtype=bool) for role in ROLES}
        self.eligible_for_role = {role: {v.rule_id for v in self.content if role in v.record.roles} for role in ROLES}
        self.all_content = {v.rule_id for v in self.content}
        # Per-role slices, made once: a query multiplies only its role's rows, without copying them.
        self._slices = {role: self._slice(self.role_mask[role]) for role in ROLES}
        self._slices[None] = self._slice(np.ones(len(self.content), dtype=bool))
        self._build_gate()

    def _slice(self, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        positions = np.flatnonzero(mask)
        return positions, np.ascontiguousarray(self.node_matrix[positions]), np.ascontiguousarray(self.acc_matrix[positions])

    def _build_gate(self) -> None:
        tables: dict[ConditionalRule, np.ndarray] = {}
        shape = (len(self.content), len(HOSTS), len(_ACTIVITIES), len(_COMPROMISES))
        self.gated = np.zeros(len(self.content), dtype=bool)  # rules with a mechanical condition
        self.truth = np.ones(shape, dtype=bool)  # free-text rules: no condition, never blocked by the gate
        for position, version in enumerate(self.content):
            condition = condition_of(version.record.directive)
            if condition is None:
                continue
            if condition not in tables:
                tables[condition] = _truth_table(condition)
            self.truth[position] = tables[condition]
            self.gated[position] = True

    def __len__(self) -> int:
        return len(self.versions)

    def format_for(self, role: str) -> list[RuleVersion]:
        return [v for v in self.format_rules if role in v.record.roles]

    def could_apply(self, text: str, role: str, settings: RetrievalSettings) -> bool:
        """False when no rule of the role can pass the condition gate for this context, whatever its
        scores: the caller may then skip embedding the context."""
        positions = self._slices[role][0]
        if positions.size == 0:
            return False
        return not settings.condition_gate or bool(self.gate(text, positions).any())

    def gate(self, text: str, positions: np.ndarray) -> np.ndarray:
        """Per rule at `positions`: does the context show a host row that meets its condition?"""
        holds = np.zeros(len(positions), dtype=bool)
        for row in host_rows(text):
            index = _row_index(row)
            if index is not None:
                holds |= self.truth[positions, index[0], index[1], index[2]]
        return holds | ~self.gated[positions]

    def search(
        self,
        text: str,
        query_vec: np.ndarray,
        acc_vec: np.ndarray,
        role: Optional[str],
        settings: RetrievalSettings,
        actor: Optional[str] = None,
        *,
        explain: int = 0,
    ) -> Retrieval:
        """The rules to inject for `text`; with `explain`, also that many top candidates with their scores."""
        positions, nodes, accumulated = self._slices[role]
        if positions.size == 0:
            return Retrieval((), (), ())
        node_cos = _matvec(nodes, query_vec)
        acc_cos = _matvec(accumulated, acc_vec)
        cosine = mixed_cosine(node_cos, acc_cos, settings.node_weight)
        bm25 = self.bm25.scores(text)[positions]
        r_emb = ranks(cosine)
        r_bm25 = ranks(bm25, present=bm25 > 0)
        fused = rrf([r_emb, r_bm25], settings.rrf_k)
        above = cosine >= settings.relevance_floor
        gate = self.gate(text, positions) if settings.condition_gate else np.ones(len(positions), dtype=bool)
        passes = above & gate
        order = np.argsort(-fused, kind="stable")
        limit = max(settings.max_rules, 0)
        scope = self.eligible_for_role[role] if role is not None else self.all_content
        # Conflict resolution can only drop rules, so reading down the passing list lazily is enough.
        passing = (self.content[positions[i]].rule_id for i in order[passes[order]])
        kept, decisions = resolve_conflicts(passing, self.records, scope, actor, limit)
        candidates = []
        for local in order[: max(explain, 0)]:
            version = self.content[positions[local]]
            gated = settings.condition_gate and bool(self.gated[positions[local]])
            candidates.append(Candidate(
                version.rule_id, version.ref, version.record.directive, float(bm25[local]), int(r_bm25[local]),
                float(node_cos[local]), float(acc_cos[local]), float(cosine[local]), int(r_emb[local]),
                float(fused[local]), bool(above[local]), bool(gate[local]) if gated else None,
            ))
        return Retrieval(tuple(candidates), tuple(kept[:limit]), tuple(decisions))
