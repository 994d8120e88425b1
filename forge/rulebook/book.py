"""The rulebook as the rest of FORGE uses it: teach, withdraw, restore, read, and index for retrieval.

Writes read the head records, plan with the pure functions of curation.py and commit one book version
by compare-and-set; a lost race re-plans on the fresh book. Decision nodes are embedded when they are
first stored (node text, and the unit mean of the node and its context for the accumulated embedding),
so building an index only loads vectors.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Callable, Iterable, Optional, Sequence, TypeVar

import numpy as np

from forge.config import ForgeConfig, rulebook_location
from forge.memory.model import NO_PROVENANCE, Provenance
from forge.plumbing.retrying import retry_on_conflict
from forge.rulebook.retrieval.embed import Embedder, embedder_from_config, local_embedder, mean_direction
from forge.rulebook.store.curation import (
    Outcome,
    Teaching,
    last_active_version,
    plan_assess,
    plan_restore,
    plan_teachings,
    plan_withdraw,
)
from forge.rulebook.model import (
    Actor, BookVersion, CompiledRule, ConcurrentBookUpdate, DecisionNode, Evidence, Group, RuleChange, RuleRecord, RuleRef, RuleStatus, RuleType, RuleVersion, RulebookError, UnknownRuleError, check_actor,
)
from forge.rulebook.retrieval.resolve import Scope, eligible_rules
from forge.rulebook.retrieval.retrieve import RuleIndex
from forge.rulebook.store.backends import open_rulebook
from forge.rulebook.store.store import RulebookStore

T = TypeVar("T")


@dataclass(frozen=True)
class Lesson:
    """A compiled rule ready to be taught: its trigger node (CONTENT) and the evidence for it."""

    compiled: CompiledRule
    node: Optional[DecisionNode]
    evidence: Evidence
    corrects: tuple[str, ...] = ()  # learned rules an operator corrects with this lesson (CORRECTS)
    replaces: tuple[str, ...] = ()  # rules the teacher names as replaced by this one
    revises: bool = False  # the teacher said it revises what they said before ("Actually, ...": language/revision.py)

    @property
    def actor(self) -> str:
        return self.compiled.source.actor


@dataclass(frozen=True)
class TeachReport:
    book_version: Optional[BookVersion]
    outcomes: tuple[Outcome, ...]
    changes: tuple[RuleChange, ...]

    def count(self, result: str) -> int:
        return sum(1 for o in self.outcomes if o.result == result)


class Rulebook:
    def __init__(
        self,
        store: RulebookStore,
        embedder: Optional[Embedder] = None,
        *,
        embedder_factory: Optional[Callable[[], Embedder]] = None,
        near_duplicate_threshold: float = 0.9,
        max_attempts: int = 50,
    ) -> None:
        self.store = store
        self._embedder = embedder
        self._embedder_factory = embedder_factory
        self.near_duplicate_threshold = near_duplicate_threshold
        self.max_attempts = max_attempts
        self._indexes: OrderedDict[tuple, RuleIndex] = OrderedDict()
        self._lock = threading.Lock()

    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            if self._embedder_factory is None:
                self._embedder = local_embedder()
            else:
                self._embedder = self._embedder_factory()
        return self._embedder

    # -- reading --------------------------------------------------------------------------------

    def heads(self) -> dict[str, RuleVersion]:
        return self.store.heads()

    def records(self) -> dict[str, RuleRecord]:
        return {rid: v.record for rid, v in self.store.heads().items()}

    def find(self, ref: str) -> str:
        """A rule id from an id, a unique prefix of one, or `<id>@v<n>`."""
        wanted = RuleRef.parse(ref).rule_id
        heads = self.store.heads()
        if wanted in heads:
            return wanted
        matches = sorted(rid for rid in heads if wanted and rid.startswith(wanted))
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            raise RulebookError(f"rule {ref!r} is ambiguous: {', '.join(matches[:5])}")
        raise UnknownRuleError(ref, f"{len(heads)} rules in {self.store.spec}")

    def history(self, rule_id: str) -> list[RuleVersion]:
        history = self.store.rule_history(rule_id)
        if not history:
            raise UnknownRuleError(rule_id)
        return history

    def trigger_nodes(self, records: Iterable[RuleRecord]) -> dict[str, DecisionNode]:
        found = self.store.nodes(r.trigger for r in records if r.trigger)
        return {k: v for k, v in found.items() if isinstance(v, DecisionNode)}

    def evidence_of(self, records: Iterable[RuleRecord]) -> dict[str, Evidence]:
        found = self.store.nodes(e for r in records for e in r.evidence)
        return {k: v for k, v in found.items() if isinstance(v, Evidence)}

    # -- writing --------------------------------------------------------------------------------

    def teach(self, lessons: Sequence[Lesson], provenance: Provenance = NO_PROVENANCE, note: str = "") -> TeachReport:
        """Bring compiled rules into the book (dropped ones are skipped); one book version for all."""
        kept = [lesson for lesson in lessons if lesson.compiled.kept]
        if not kept:
            return TeachReport(None, (), ())
        for lesson in kept:
            check_actor(lesson.actor)
        nodes = [lesson.node for lesson in kept if lesson.node is not None and lesson.compiled.type == RuleType.CONTENT]
        self.ensure_vectors(nodes)
        self.store.put_nodes([*nodes, *(lesson.evidence for lesson in kept), *(Actor(lesson.actor) for lesson in kept),
                              *(Group(lesson.compiled.group) for lesson in kept)])
        teachings = [
            Teaching(
                directive=lesson.compiled.directive, type=lesson.compiled.type, roles=tuple(sorted(lesson.compiled.roles)),
                group=lesson.compiled.group, actor=lesson.actor, evidence=lesson.evidence,
                trigger=lesson.node.id if lesson.node is not None and lesson.compiled.type == RuleType.CONTENT else None,
                sources=(lesson.compiled.source.item_id,) if lesson.compiled.source.item_id else (),
                compiled_by=lesson.compiled.compiled_by, when=lesson.compiled.when,
                action=lesson.compiled.action, semantic_reason=lesson.compiled.semantic_reason,
                unexpressed=lesson.compiled.unexpressed,
                corrects=lesson.corrects, replaces=lesson.replaces, text=lesson.compiled.source.text,
                revises=lesson.revises,
            )
            for lesson in kept
        ]

        def attempt() -> TeachReport:
            expected = self.store.book_head()
            records = self.records()
            # Support is recomputed from evidence weights for any rule a plan may touch: rules now meet
            # by meaning across groups, so every active rule's evidence is read.
            evidence = self.evidence_of(r for r in records.values() if r.status != RuleStatus.WITHDRAWN)
            evidence.update((t.evidence.id, t.evidence) for t in teachings)
            plan = plan_teachings(records, teachings, evidence, near_duplicate_threshold=self.near_duplicate_threshold,
                                  cosine=self._cosine if any(r.status == RuleStatus.WITHDRAWN for r in records.values()) else None)
            book = self.store.commit(plan.changes, expected_book=expected, op="teach", provenance=provenance, note=note)
            return TeachReport(book, plan.outcomes, plan.changes)

        return self._retrying(attempt)

    def assess(self, assessments: Sequence[tuple[str, Evidence, bool]], provenance: Provenance = NO_PROVENANCE,
               note: str = "") -> Optional[BookVersion]:
        """Record efficacy evidence on rules (see curation.plan_assess); None if all of it was already there."""

        def attempt() -> Optional[BookVersion]:
            expected = self.store.book_head()
            records = self.records()
            touched = [records[r] for r, _, _ in assessments if r in records]
            cited = self.store.nodes(e for r in touched for e in (*r.evidence, *r.counter_evidence))
            changes = plan_assess(records, assessments, {k: v for k, v in cited.items() if isinstance(v, Evidence)})
            if not changes:
                return None
            self.store.put_nodes([item for _, item, _ in assessments])
            return self.store.commit(changes, expected_book=expected, op="assess", provenance=provenance, note=note)

        return self._retrying(attempt)

    def withdraw(self, rule_id: str, provenance: Provenance = NO_PROVENANCE, note: str = "") -> BookVersion:
        def attempt() -> BookVersion:
            expected = self.store.book_head()
            change = plan_withdraw(self.records(), rule_id)
            return self.store.commit([change], expected_book=expected, op="withdraw", provenance=provenance, note=note)

        return self._retrying(attempt)

    def restore(self, rule_id: str, number: Optional[int] = None, provenance: Provenance = NO_PROVENANCE,
                note: str = "") -> BookVersion:
        """A new version of the rule with the content of its version `number` (default: its newest
        active one), active again."""

        def attempt() -> BookVersion:
            expected = self.store.book_head()
            history = self.history(rule_id)
            chosen = number if number is not None else last_active_version([v.record for v in history])
            earlier = self.store.rule_version(rule_id, chosen).record
            changes = plan_restore(self.records(), rule_id, earlier, chosen)
            return self.store.commit(changes, expected_book=expected, op="restore", provenance=provenance,
                                     note=note or f"restore {rule_id} to version {chosen}")

        return self._retrying(attempt)

    def restore_book(self, number: int, provenance: Provenance = NO_PROVENANCE) -> Optional[BookVersion]:
        """Every rule as it was at book version `number` (rules added since are withdrawn), as one new
        book version; the history keeps everything in between. None if nothing differs."""

        def attempt() -> Optional[BookVersion]:
            expected = self.store.book_head()
            if not 1 <= number <= expected:
                raise RulebookError(f"the rulebook has no book version {number} (versions 1..{expected})")
            changes = []
            for rule_id, head in self.store.heads().items():
                then = [v for v in self.store.rule_history(rule_id) if v.book_version <= number]
                target = then[-1].record if then else head.record.with_(status=RuleStatus.WITHDRAWN)
                if target != head.record:
                    changes.append(RuleChange(target, "withdraw" if target.status == RuleStatus.WITHDRAWN else "restore"))
            return self.store.commit(changes, expected_book=expected, op="restore", provenance=provenance,
                                     note=f"restore the book to version {number}")

        return self._retrying(attempt)

    def _cosine(self, a: str, b: str) -> float:
        """The encoder's cosine of two texts (their vectors are unit length)."""
        first, second = self.embedder.encode([a, b])
        return float(first @ second)

    def _retrying(self, attempt: Callable[[], T]) -> T:
        return retry_on_conflict(attempt, ConcurrentBookUpdate, self.max_attempts)

    # -- embeddings and the index ---------------------------------------------------------------

    def ensure_vectors(self, nodes: Sequence[DecisionNode]) -> None:
        """Embed (in one batch) the decision nodes this embedder has no vectors for."""
        unique = {node.id: node for node in nodes}
        if not unique:
            return
        have = self.store.vectors(self.embedder.name, unique)
        missing = [node for node_id, node in unique.items() if node_id not in have]
        if not missing:
            return
        texts = list(dict.fromkeys(t for node in missing for t in (node.text, *node.context)))
        encoded = dict(zip(texts, self.embedder.encode(texts)))
        vectors = {}
        for node in missing:
            node_vec = encoded[node.text]
            acc = mean_direction(np.vstack([encoded[t] for t in (*node.context, node.text)]))
            vectors[node.id] = (node_vec, acc)
        self.store.put_vectors(self.embedder.name, vectors)

    def index(self, scope: Optional[Scope] = None) -> RuleIndex:
        """The searchable index of the rules eligible in `scope` (all rules if None), cached until the
        book moves."""
        book_version = self.store.book_head()
        key = (book_version, self.embedder.name, None if scope is None else (scope.sources, scope.include_users, scope.withheld))
        with self._lock:
            cached = self._indexes.get(key)
            if cached is not None:
                self._indexes.move_to_end(key)
                return cached
        heads = self.store.heads()
        records = {rid: v.record for rid, v in heads.items()}
        eligible = eligible_rules(records, scope)
        versions = [heads[rid] for rid in sorted(eligible)]
        content = [v.record for v in versions if v.record.type == RuleType.CONTENT]
        nodes = self.trigger_nodes(content)
        vectors = self.store.vectors(self.embedder.name, nodes)
        if len(vectors) < len(nodes):  # stored under another embedder: embed once for this one
            self.ensure_vectors([n for nid, n in nodes.items() if nid not in vectors])
            vectors = self.store.vectors(self.embedder.name, nodes)
        index = RuleIndex(versions, {nid: n.text for nid, n in nodes.items()}, vectors, records, book_version)
        with self._lock:
            self._indexes[key] = index
            while len(self._indexes) > 8:
                self._indexes.popitem(last=False)
        return index

    def book_version(self) -> int:
        return self.store.book_head()



def open_book(cfg: ForgeConfig, spec: Optional[str] = None, namespace: str = "forge", *, create: bool = True,
              embedder: Optional[Embedder] = None) -> Rulebook:
    """The rulebook at `spec` (default `rulebook_location(cfg)`), embedding with `embedder` or, on first
    need, the one `cfg` names. `create=False`: a missing rulebook is an error, not a new empty one."""
    store = open_rulebook(spec or rulebook_location(cfg), namespace, create=create)
    return Rulebook(store, embedder, embedder_factory=lambda: embedder_from_config(cfg),
                    near_duplicate_threshold=cfg.memory.near_duplicate_threshold)
