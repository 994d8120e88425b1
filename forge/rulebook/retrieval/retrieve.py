"""Hybrid retrieval of the rules that apply to a decision context: scope first, then resolution.

For the CONTENT rules scoped to the calling role (FORMAT rules are routed separately: delivered to every
call of their roles at stage 1):
1. cosine: `0.7 * cos(context, trigger node) + 0.3 * cos(accumulated context, trigger's accumulated
   context)` over unit embeddings (the weight is `rulebook.node_weight`);
2. BM25 of the context against each rule's document (directive + trigger text);
3. fused by Reciprocal Rank Fusion, `1/(k + r_emb) + 1/(k + r_bm25)` with k = `rulebook.rrf_k`, ranks
   from 1: the order in which applying rules are injected;
4. whether a rule applies, each by its own test:
   - a rule with a trigger predicate (every grammar rule, and what the compiler could express) applies
     when the predicate holds on what the context states (situation.py reads the environment's table,
     `host | activity | compromise` rows, alert lines and prose): the gate on meaning
     (`rulebook.condition_gate`; off, such rules are judged by the floor like semantic ones);
   - a rule whose predicate leaves part of its condition unexpressed (`unexpressed`) applies when the
     predicate holds and what that rest claims holds as well (guard.guard_claims, three-valued like
     the predicate: "only while Op_Server0 is clean"); a rest the product cannot judge from a context
     ("at critical priority") leaves the rule silent, whatever its cosine;
   - a semantic rule (no predicate) applies when its mixed cosine reaches `rulebook.relevance_floor`,
     the floor calibrated for free text (calibrate.py);
   - either free-text part (a semantic rule's condition, a guarded rule's unexpressed rest) is unknown,
     so silent, on a context that does not state a kind of fact it speaks of (facts.py: history,
     rewards, an action's outcome, priority, traffic), whatever its cosine; and a semantic rule's condition
     must hold where it speaks of hosts (claims.claims: "if User0 is not compromised" is unknown on a
     context that does not state User0, false where User0 shows a compromise); a rule whose compiled
     predicate a check refused is judged by those claims alone, and is silent where they cannot place its
     condition (condition.semantic_claims);
   - an unexpressed rest that is a justification, a story or a restatement (guard.guard_rest) never
     guards: the rule is judged by its predicate alone;
5. conflicts settled (resolve.py) among the applying rules, and only where the rules' actions
   disagree in this context; a general rule whose exception won still speaks for the hosts the exception
   does not dispute here; best fused first, at most `rulebook.max_rules_per_injection`. A rule whose
   condition is unknown here (neither true nor false, three-valued: a host or history the context does
   not state, a condition its claims cannot read) and that forbids what an applying rule orders (or orders
   what it forbids) takes part as a party: it is never injected, and where it would win the applying rule
   does not speak alone as if nobody disputed it.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Mapping, Optional, Sequence

import numpy as np

from forge.config import ROLES
from forge.rulebook.retrieval.bm25 import BM25Index
from forge.rulebook.retrieval.fusion import mixed_cosine, ranks, rrf
from forge.rulebook.language.condition import claims_decide, condition_of, evidence_judged_away, evidence_rest, facts_unread, semantic_claims, text_claims, text_facts, verdict_away
from forge.rulebook.language.facts import facts_stated
from forge.rulebook.language.guard import confirmed, guard_claims, guard_rest
from forge.rulebook.language.rule_claims import conceded_away, not_yet_reached
from forge.rulebook.language.scope import subject_of
from forge.rulebook.language.shorthand import compromise_said_for_sure
from forge.rulebook.language.episode import EpisodeStep, RewardTrend
from forge.rulebook.language.judged import Judged, judged_facts, judged_in, window_said_anywhere
from forge.rulebook.language.wording import read_wording
from forge.rulebook.language.meaning import (Meaning, conflict_in, disputing, in_its_cases, meaning_of,
                                             undisputed_hosts)
from forge.rulebook.model import RuleRecord, RuleType, RuleVersion
from forge.rulebook.language.action import opposed_hosts
from forge.rulebook.language.predicate import (AllOf, Always, Atom, Not, atoms_of, outcome_stated,
                                               predicate_to_json, truth as value_of)
from forge.rulebook.retrieval.resolve import Decision, narrower_first, resolve_conflicts
from forge.rulebook.language.situation import Situation, read_situation


@dataclass(frozen=True)
class RetrievalSettings:
    rrf_k: int = 60
    node_weight: float = 0.7
    relevance_floor: float = 0.4
    max_rules: int = 5
    condition_gate: bool = True

    @classmethod
    def from_config(cls, rulebook_config) -> "RetrievalSettings":
        return cls(rulebook_config.rrf_k, rulebook_config.node_weight, rulebook_config.relevance_floor,
                   rulebook_config.max_rules_per_injection, rulebook_config.condition_gate)


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
    gate: Optional[bool]  # None: a semantic rule, no predicate (or the gate is off)


@dataclass(frozen=True)
class Retrieval:
    candidates: tuple[Candidate, ...]  # every scoped rule, best fused first
    selected: tuple[str, ...]  # rule ids to inject, best first
    decisions: tuple[Decision, ...]


def _matvec(matrix: np.ndarray, vector: np.ndarray) -> np.ndarray:
    """matrix @ vector on this thread. A BLAS call this size fans out to OpenBLAS threads, which then
    fight the embedding model's still-spinning OpenMP threads for the same cores: on a small machine the
    product waits on that contention many times longer than it takes, once per query, in a book of
    thousands of rules. scripts/bench/rulebook_query.py measures the query latency this keeps down
    (query p50 at --sizes 5000; put `matrix @ vector` back to see the difference side by side)."""
    return np.einsum("ij,j->i", matrix, vector)


def _held_to(text: str, when, guard=None):
    """What a compiled predicate is held to at the gate: the claims of its text (condition.text_claims), and whether
    they are the whole condition. A condition that speaks of a kind of fact neither the predicate (a history atom) nor
    those claims (history said in words) state, and that the product cannot judge (a reward, a priority, the step of the
    episode, history in words it does not read), leaves the rule unknown, so silent, like a guard it cannot judge.
    (r40m) `guard`: what the rule's unexpressed rest claims; a history it holds is stated, as the predicate's would be."""
    found, whole = text_claims(evidence_judged_away(text))  # (r42h: the evidence is judged.py's, `_judged_of`)
    if whole:
        return found, whole
    if found is None:
        found = _compromise_said_for_sure(text, when)
    stated = {"history"} if any(any(a.history() for a, _ in atoms_of(p)) for p in (when, found, guard) if p is not None) else set()
    stated |= outcome_stated(when)  # (r40m: "after a failed Restore", said by `changed` after the move)
    stated |= _episode_facts(guard)  # (r40k: a run of negative rewards its guard judges)
    # (r39h) a rating judged.py reads in the text's conditions is judged there (`_judged_of`), not left unjudged; one said
    # only in the order is its answer, never judged
    if text_facts(text) - stated - judged_facts("; ".join(c.text for c in read_wording(text).conditions)):
        return Not(Always()), True
    return found, whole


def _compromise_said_for_sure(text: str, when):
    """(r45s) Where the product reads nothing of a compiled predicate's condition, the compromise its words say for sure
    ("when the op box is owned") is still held: the predicate's atoms asking any compromise of a host (or class) are
    what the words say is shown, so not met by a row at Compromised Unknown, as a reading in part would hold them
    (`confirmed`). Unread, "owned" compiled as any compromise fired on the row a Remove leaves. None where the words
    leave the level open or in doubt, or the predicate asks no such atom outside a choice of branches."""
    if when is None or not compromise_said_for_sure(text):
        return None
    asked = [part for part in _parts(when) if isinstance(part, Atom) and part.compromise == "any" and part.acted is None]
    return None if not asked else asked[0] if len(asked) == 1 else AllOf(tuple(dict.fromkeys(asked)))


def _episode_facts(guard) -> set[str]:
    """(r40k) The kinds of fact a guarded rule's rest states as a trend of the rewards or a window of steps (episode.py's
    readings, judged.py judges them): its text speaks of them, and they are stated, as a history atom states history.
    Left unstated, the rule was silent even where its rest held."""
    return {"reward" if isinstance(part, RewardTrend) else "episode time" for part in _parts(guard)
            if isinstance(part, (RewardTrend, EpisodeStep))}


def _judged_of(record: RuleRecord, semantic: bool, rest: str, when=None) -> tuple[Judged, ...]:
    """The conditions judged.py reads in a rule's words: a guarded rule's rest; a semantic rule's condition (as the
    gate's FACTS read it); a compiled predicate's text's conditions. A window of steps may lead the order's sentence
    ("From step 15 on, whenever ..., plan X"); a grammar rule's own words are its predicate."""
    if record.compiled_by == "grammar" or record.type != RuleType.CONTENT:
        return judged_in(rest, of=when) if rest else ()
    # (r58n: a compiled rule is held to a window of steps its text says anywhere, whatever its rest or its reading's
    # condition: judged.window_said_anywhere)
    if rest:
        return judged_in(rest, of=when) if semantic else window_said_anywhere(judged_in(rest, of=when), record.text or record.directive)
    words = read_wording(record.directive if semantic else record.text or record.directive)
    condition = condition_of(record.directive) if semantic else "; ".join(c.text for c in words.conditions)
    if semantic and when is None:
        when = evidence_rest(record.directive) or _stated_hosts(record)  # (r40g) "a user box with a shell": on one of them
    # (r42m: not what the order concedes, "..., even if a shell turns up in the evidence": it holds either way)
    found = judged_in(verdict_away(condition), verdict_away(conceded_away(words.instruction)), when)
    return found if semantic else window_said_anywhere(found, record.text or record.directive)


def _stated_hosts(record: RuleRecord):
    """(r42h) A semantic rule's claims where each host they match shows a state they ask ("a shell on a user box calls for
    a Remove of it": some user box compromised): the hosts evidence said of no host must be reported of. Read of any
    host, a shell on a server passed a rule about user boxes. None where they claim no state (a bare host is a target)."""
    found = semantic_claims(record.directive, record.semantic_reason, record.text)
    if found is None or found == _NEVER:
        return None
    positive = [atom for atom, negated in atoms_of(found) if not negated]
    return found if positive and not any(atom.bare() for atom in positive) else None


_TRUE, _FALSE, _UNKNOWN = 1, 0, -1  # a condition's three values, coded per rule (`RuleIndex._reading`)
_NEVER = Not(Always())  # the claims of a rule kept semantic whose condition cannot be read (condition.semantic_claims)


def _parts(found) -> tuple:
    return () if found is None else found.parts if isinstance(found, AllOf) else (found,)


def _shown(found):
    """Of claims that are part of a condition, what they say a context shows (no negation in it): it must be shown,
    as a faithful predicate would need it (a host a context does not show does not show that state)."""
    kept = [p for p in _parts(found) if not _negates(p)]
    return None if not kept else kept[0] if len(kept) == 1 else AllOf(tuple(kept))


def _denied(found):
    """Of claims that are part of a condition, what they deny: it must not be shown (unknown passes)."""
    kept = [p for p in _parts(found) if _negates(p)]
    return None if not kept else kept[0] if len(kept) == 1 else AllOf(tuple(kept))


def _negates(part) -> bool:
    return isinstance(part, Not) or any(_negates(p) for p in getattr(part, "parts", ()))


def _both(first, second):
    """Two claims that must both hold (either may be None: no claim)."""
    return second if first is None else first if second is None or second == first else AllOf((first, second))


def _may_conflict_here(a: Meaning, b: Meaning, a_unknown: bool, b_unknown: bool, situation: Situation) -> bool:
    """Whether two rules are opposed here, one (or both) of them with a condition unknown here: one forbids what the
    other orders (two teachers who disagree), on the hosts the unknown one may match (those whose state does not make
    it false) against what the other matches. Two orders of different verbs are no such dispute."""
    # (r55d) a note of cases, in each case that may hold here by that case's own order (meaning.in_its_cases)
    return any(opposed_hosts(x, y, xs, ys) is not None for x, xs in in_its_cases(a, situation, may=a_unknown)
               for y, ys in in_its_cases(b, situation, may=b_unknown))


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
        self.format_rules = [v for v in versions if v.record.type == RuleType.FORMAT]
        self.content = [v for v in versions if v.record.type == RuleType.CONTENT]
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
        self.meanings: list[Meaning] = [meaning_of(v.record) for v in self.content]
        self.gated = np.array([not m.semantic for m in self.meanings], dtype=bool)
        # A predicate with an unexpressed rest that is a condition: what the rest claims must hold too (the guard).
        # (r56l: given the rule's own action, a rest that only orders other moves in other cases never guards)
        rests = [guard_rest(v.record.unexpressed, m.when, action=m.action) for v, m in zip(self.content, self.meanings)]
        # The kinds of fact each free-text part speaks of: a context must state them all (facts.py).
        conditions = [condition_of(v.record.directive) if m.semantic else "" for v, m in zip(self.content, self.meanings)]
        # (not what an order concedes: "never restore User0, even when it was owned again" holds whatever its past)
        # (r36m: a window of steps the claims below hold, "after step 15", is read: no fact of its own, condition.facts_unread)
        # (r39m: and its history, where its claims read it, on the host its "it" stands for)
        needs = [facts_unread(rest) if rest else facts_unread(conceded_away(condition), subject_of(read_wording(v.record.directive)))
                 if m.semantic else frozenset() for v, rest, condition, m in zip(self.content, rests, conditions, self.meanings)]
        # (r36h: what the rule's words say of the step, the rewards and the analyst's evidence, judged.py; it only narrows)
        self._build_judged(rests)
        # What a semantic rule's condition says of the hosts it names, and what a guarded rule's rest claims: it must
        # hold (three-valued) as well.
        claimed = [semantic_claims(v.record.directive, v.record.semantic_reason, v.record.text) if m.semantic
                   else guard_claims(rest, m.when) if rest else None
                   for v, m, rest in zip(self.content, self.meanings, rests)]
        # (r34h) likewise a guarded rule whose rest cannot be read (guard.guard_claims): silent, its condition unknown
        unread_guard = [not m.semantic and bool(rest) and c == _NEVER for m, rest, c in zip(self.meanings, rests, claimed)]
        # A compiled predicate is held to its text as the product reads it (condition.text_claims): where that reading is
        # the whole condition it must hold, where it is a part that part must not be false.
        read = [_held_to(v.record.text or v.record.directive, m.when, c if rest else None)
                if not m.semantic and v.record.compiled_by != "grammar" else (None, False)
                for v, m, c, rest in zip(self.content, self.meanings, claimed, rests)]
        # (what the part says is shown is said for sure, as a whole reading is: "while Enterprise1 is compromised" is not
        # met by its row at Compromised Unknown, guard.confirmed)
        claimed = [_both(c, found if whole else confirmed(_shown(found))) for c, (found, whole) in zip(claimed, read)]
        # (r41g: and, for every rule, the host its order is given before the attacker reaches, rule_claims.not_yet_reached:
        # shown compromised, the order comes too late)
        loose = [_both(_denied(found) if not whole else None, not_yet_reached(v.record.text or v.record.directive))
                 for v, (found, whole) in zip(self.content, read)]
        # (what a compiled rule's words say for sure, where they read the whole condition: in a dispute it speaks only
        # for the hosts that reading matches, meaning.undisputed_hosts)
        self._held = [found if whole and found is not None else None for found, whole in read]
        self._loose = list(dict.fromkeys(c for c in loose if c is not None))
        self._loose_of = np.array([self._loose.index(c) if c is not None else -1 for c in loose], dtype=np.int64)
        # A rule whose compiled predicate was refused, or whose claims read the whole of its condition, is judged by its
        # claims: its cosine to the context adds nothing (and the floor would only silence it).
        self.checked = np.array([m.semantic and claims_decide(v.record.directive, v.record.semantic_reason)
                                 for v, m in zip(self.content, self.meanings)], dtype=bool)
        # A semantic rule whose claims cannot place its condition (a predicate that never holds) is silent, yet its
        # condition is not false: in a dispute it is a party whose condition is unknown.
        self._unread = np.array([m.semantic and c == _NEVER or guard for m, c, guard in zip(self.meanings, claimed, unread_guard)],
                                dtype=bool)
        self._claims = list(dict.fromkeys(c for c in claimed if c is not None))
        self._claim_of = np.array([self._claims.index(c) if c is not None else -1 for c in claimed], dtype=np.int64)
        self._needs = sorted(set(needs), key=sorted)  # few distinct sets: each is checked once per context
        self._needs_of = np.array([self._needs.index(n) for n in needs], dtype=np.int64)
        # Rules share predicates (a class rule taught by many): each distinct one is evaluated once per context.
        keys: dict[str, int] = {}
        self._predicates = []
        self._predicate_of = np.full(len(self.content), -1, dtype=np.int64)
        for position, meaning in enumerate(self.meanings):
            if meaning.when is None:
                continue
            key = str(predicate_to_json(meaning.when))
            if key not in keys:
                keys[key] = len(self._predicates)
                self._predicates.append(meaning.when)
            self._predicate_of[position] = keys[key]
        self.semantic_for_role = {role: bool((~self.gated[self._slices[role][0]]).any()) for role in (*ROLES, None)}
        self._situations: OrderedDict[str, tuple[Situation, np.ndarray, np.ndarray]] = OrderedDict()

    def _build_judged(self, rests: list[str]) -> None:
        """Per rule, the conditions its words state on the step of the episode, the rewards or the analyst's evidence
        that the product judges itself (judged.py): a guarded rule's from its rest, any other from its condition (and a
        window of steps from its order's sentence). The distinct ones are evaluated once per context (`_reading`)."""
        judged = [_judged_of(v.record, m.semantic, rest, m.when) for v, m, rest in zip(self.content, self.meanings, rests)]
        self._judged = list(dict.fromkeys(j for found in judged for j in found))
        self._judged_of = [tuple(self._judged.index(j) for j in found) for found in judged]

    def _judged_values(self, text: str, situation: Situation) -> np.ndarray:
        """Per rule, its judged conditions' value here, all of them (_TRUE with none)."""
        values = [j.value(text, situation) for j in self._judged]
        out = np.full(len(self._judged_of), _TRUE, dtype=np.int8)
        for rule, indexes in enumerate(self._judged_of):
            found = [values[i] for i in indexes]
            out[rule] = _FALSE if False in found else _UNKNOWN if None in found else _TRUE
        return out

    def situation(self, text: str) -> tuple[Situation, np.ndarray]:
        """What the context states, and which distinct predicates hold on it (cached per text)."""
        return self._reading(text)[:2]

    def _reading(self, text: str) -> tuple[Situation, np.ndarray, np.ndarray, np.ndarray]:
        """As `situation`, and per rule whether the context states every kind of fact its free text needs (and its
        claims hold), and whether its condition is unknown here: neither true nor false (nothing of it false, and its
        predicate, its claims or a kind of fact it needs unknown, or a semantic rule's condition unread)."""
        cached = self._situations.get(text)
        if cached is not None:
            return cached
        situation = read_situation(text)
        values = [value_of(p, situation) for p in self._predicates]
        truth = np.array([v is True for v in values], dtype=bool)
        stated = facts_stated(text, situation)
        needs_met = np.array([needs <= stated for needs in self._needs], dtype=bool)[self._needs_of] \
            if self._needs else np.ones(0, dtype=bool)
        claims = self._three_valued(self._claims, self._claim_of, situation)
        loose = self._three_valued(self._loose, self._loose_of, situation)
        judged = self._judged_values(text, situation)
        stated_all = needs_met & (claims == _TRUE) & (loose != _FALSE) & (judged == _TRUE)
        predicate = self._three_valued(self._predicates, self._predicate_of, situation, values)
        # (the claims of a rule whose condition cannot be read are a predicate that never holds, `_NEVER`: that silences
        # it, yet its condition is not false here, it is unknown)
        false = (predicate == _FALSE) | ((claims == _FALSE) & ~self._unread) | (loose == _FALSE) | (judged == _FALSE)
        unknown = ~false & ((predicate == _UNKNOWN) | (claims == _UNKNOWN) | ~needs_met | self._unread | (judged == _UNKNOWN))
        self._situations[text] = (situation, truth, stated_all, unknown)
        while len(self._situations) > 64:
            self._situations.popitem(last=False)
        return self._situations[text]

    @staticmethod
    def _three_valued(predicates: list, index: np.ndarray, situation: Situation, values: Optional[list] = None) -> np.ndarray:
        """Per rule, the value of its predicate at `index` (-1: none, true) as _TRUE, _FALSE or _UNKNOWN."""
        values = [value_of(p, situation) for p in predicates] if values is None else values
        coded = np.array([_TRUE if v is True else _FALSE if v is False else _UNKNOWN for v in values] + [_TRUE],
                         dtype=np.int8)
        return coded[index]

    def __len__(self) -> int:
        return len(self.versions)

    def format_for(self, role: str) -> list[RuleVersion]:
        return [v for v in self.format_rules if role in v.record.roles]

    def could_apply(self, text: str, role: str, settings: RetrievalSettings) -> bool:
        """False when no rule of the role can apply to this context, whatever its scores (no semantic
        rule, and no predicate holds): the caller may then skip embedding the context."""
        positions = self._slices[role][0]
        if positions.size == 0:
            return False
        if not settings.condition_gate or self.semantic_for_role[role]:
            return True
        return bool(self.gate(text, positions).any())

    def needs_scores(self, text: str, role: str, settings: RetrievalSettings, actor: Optional[str] = None) -> bool:
        """Whether the context's embedding can change what `search` selects for `role`, or its order.
        The scores only rank: a semantic rule's floor needs them, and so does the order of what is kept.
        With the gate on and no semantic rule of the role, the rules passing the gate are fixed by the
        gate; when no more pass than the limit, conflict settlement keeps the same set whatever their
        order (each conflict group is settled by evidence and actor, not by rank), so the scores matter
        only when two or more rules are kept. Otherwise the caller may skip embedding the context (a
        transformer forward pass per call, the whole cost of rulebook injection on a CPU)."""
        positions = self._slices[role][0]
        if positions.size == 0:
            return False
        if not settings.condition_gate or self.semantic_for_role[role]:
            return True
        gate = self.gate(text, positions)
        passing = int(gate.sum())
        if passing <= 1:
            return False
        if passing > max(settings.max_rules, 0):
            return True  # the limit cuts by rank
        zero = np.zeros(self.dim, dtype=np.float32)
        return len(self.search(text, zero, zero, role, settings, actor).selected) > 1

    @property
    def dim(self) -> int:
        return int(self.node_matrix.shape[1])

    def gate(self, text: str, positions: np.ndarray) -> np.ndarray:
        """Per rule at `positions`: does its predicate hold on the context? (True for semantic rules.)"""
        _, truth = self.situation(text)
        index = self._predicate_of[positions]
        out = np.ones(len(positions), dtype=bool)
        has = index >= 0
        if truth.size:
            out[has] = truth[index[has]]
        return out

    def _settled(self, text: str, passing: list[str], unknown: list[str], at: np.ndarray, actor: Optional[str],
                 limit: int, gate_on: bool) -> tuple[list[str], list[Decision]]:
        """The passing rules (best first) with their disagreements settled. A rule whose condition is unknown here
        (`unknown`: neither true nor false) takes part as a party that may apply: it is never injected, but where it
        would win (its teacher asks, it is the narrower, it has more support) the rule it disputes does not speak alone
        as if undisputed; where it would not, the others are settled as before (resolve._decided)."""
        situation, _ = self.situation(text) if gate_on else (Situation(), None)
        meaning = {self.content[i].rule_id: self.meanings[i] for i in at}
        maybe = set(unknown)

        def related(a: str, b: str) -> bool:
            ma, mb = disputing(meaning[a]) or meaning[a], disputing(meaning[b]) or meaning[b]  # a semantic rule: its words
            if ma.semantic or mb.semantic or ma.action is None or mb.action is None:
                return True  # an edge maintenance drew without a meaning to check (older books)
            if a in maybe or b in maybe:
                return _may_conflict_here(ma, mb, a in maybe, b in maybe, situation)
            return conflict_in(ma, mb, situation)

        held = {self.content[i].rule_id: self._held[i] for i in at}

        def undisputed(rid: str, others) -> bool:
            others = list(others)
            return bool(undisputed_hosts(meaning[rid], [meaning[o] for o in others], situation, held[rid],
                                         frozenset(i for i, o in enumerate(others) if o in maybe)))

        kept, decisions = resolve_conflicts(passing, self.records, set(passing) | maybe, actor, limit, related, undisputed,
                                            unknown=maybe)
        return narrower_first(kept, {rid: meaning[rid].when for rid in kept}), decisions

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
        gated = self.gated[positions] if settings.condition_gate else np.zeros(len(positions), dtype=bool)
        gate = self.gate(text, positions) if settings.condition_gate else np.ones(len(positions), dtype=bool)
        # Each rule by its own test: a predicate by the gate (a guarded one's rest by its claims, in `stated`), a
        # semantic rule by the floor.
        stated = self._reading(text)[2][positions]  # free text about what the context does not state: unknown
        passes = np.where(gated, gate, above | self.checked[positions]) & stated
        order = np.argsort(-fused, kind="stable")
        limit = max(settings.max_rules, 0)
        passing = [self.content[positions[i]].rule_id for i in order[passes[order]]]
        unknown = self._reading(text)[3][positions] & ~passes if settings.condition_gate else np.zeros(len(positions), bool)
        kept, decisions = self._settled(text, passing, [self.content[positions[i]].rule_id for i in np.flatnonzero(unknown)],
                                        positions[passes | unknown], actor, limit, settings.condition_gate)
        candidates = []
        for local in order[: max(explain, 0)]:
            version = self.content[positions[local]]
            gated_here = bool(gated[local])
            candidates.append(Candidate(
                version.rule_id, version.ref, version.record.directive, float(bm25[local]), int(r_bm25[local]),
                float(node_cos[local]), float(acc_cos[local]), float(cosine[local]), int(r_emb[local]),
                float(fused[local]), bool(above[local]), bool(gate[local]) if gated_here else None,
            ))
        return Retrieval(tuple(candidates), tuple(kept[:limit]), tuple(decisions))
