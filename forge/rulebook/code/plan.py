"""What applying rule files would change in a book, rule by rule. Pure: head records in, a plan out.

The files are the whole desired state of the rules they manage (as a Terraform configuration is):
- an entry owns one book rule, the rule of its words (type, roles and text make a rule's id); the rule
  carries the entry's id in its `sources` (`rulefile:<id>`) and one piece of evidence per actor;
- **add**: no such rule yet (a teaching that would bring back a withdrawn rule's meaning is refused, as
  the book refuses it from anyone: `forge rulebook restore` brings a withdrawn rule back);
- **new version**: the entry's words or roles changed (a new rule that supersedes its earlier one), or
  its meaning, actors or context changed (a new version of the same rule), or its rule was withdrawn
  or superseded and the file keeps it active (restored), or a rule with its words exists and the file
  now manages it (adopted);
- **withdraw**: the entry says `status: withdrawn`, or a rule the files managed has no entry any more
  (unless an entry `replaces` it: then it is superseded);
- **unchanged**: teaching the entry again would change nothing.
Entries are never merged into another rule of the same meaning (the file's words stay the rule's): the
plan notes such a rule, and `replaces` takes its place. Everything maintenance does when rules are taught
follows from `store.curation.plan_teachings`, run over the book with the entries' rules in it: a
teacher's equivalent trigger superseded, `replaces` honoured, conflicts with other teachers flagged.
Those are the plan's consequences. Rules no file manages are left alone, except by those consequences.

The plan is a list of `RuleChange`s for one commit against `book_version`, and the nodes they cite.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Optional, Sequence

from forge.rulebook.code.meaning import EntryMeaning
from forge.rulebook.code.rulefile import Finding, RuleEntry
from forge.rulebook.model import (
    Actor, CompiledRule, DecisionNode, Evidence, Group, Node, RuleChange, RuleRecord, RuleStatus, RuleType, actor_kind, canonical_json, node_from_dict, rule_id_for,
)
from forge.rulebook.retrieval.resolve import settle
from forge.rulebook.store.curation import Teaching, plan_teachings

MARK = "rulefile:"
MIN_PREFIX = 6  # a rule id named by its prefix: at least this long, so that a mistyped entry id does not match one
ADD, NEW_VERSION, WITHDRAW, UNCHANGED = "add", "new version", "withdraw", "unchanged"
KINDS = (ADD, NEW_VERSION, WITHDRAW, UNCHANGED)
_MEANING_FIELDS = ("when", "action", "unexpressed", "semantic_reason", "compiled_by", "group")


def mark(entry_id: str) -> str:
    return f"{MARK}{entry_id}"


def entry_ids(record: RuleRecord) -> tuple[str, ...]:
    """The rule-file entries that manage a rule (the last is the current one)."""
    return tuple(s[len(MARK):] for s in record.sources if s.startswith(MARK))


def entry_rule_id(entry: RuleEntry, rule_type: str) -> str:
    return rule_id_for(rule_type, entry.roles, entry.text)


def entry_evidence(entry: RuleEntry, actor: str) -> Evidence:
    """The evidence an entry gives its rule, per actor: the same for every apply of the same entry, so
    applying twice adds nothing (which commit applied it is the book version's provenance)."""
    return Evidence("correction" if actor_kind(actor) == "user" else "memory", actor, mark(entry.id))


def entry_node(entry: RuleEntry) -> DecisionNode:
    """The decision context the entry's rule is forged from: its `context` as written, else its text."""
    return DecisionNode(entry.context) if entry.context else DecisionNode(" ".join(entry.text.split()))


@dataclass(frozen=True)
class Step:
    """What the plan does for one entry (or one managed rule whose entry is gone)."""

    kind: str  # add | new version | withdraw | unchanged
    entry: str
    path: str
    rule_id: str
    detail: str = ""
    record: Optional[RuleRecord] = None  # the rule after the plan
    before: Optional[RuleRecord] = None  # the rule before it (None: a new rule)
    origin: str = ""  # file | kept | compiled: where the meaning came from (meaning.EntryMeaning)
    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "entry": self.entry, "path": self.path, "rule_id": self.rule_id, "detail": self.detail,
                "record": self.record.to_dict() if self.record else None,
                "before": self.before.to_dict() if self.before else None, "origin": self.origin, "notes": list(self.notes)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Step":
        return cls(data["kind"], data["entry"], data["path"], data["rule_id"], data.get("detail", ""),
                   RuleRecord.from_dict(data["record"]) if data.get("record") else None,
                   RuleRecord.from_dict(data["before"]) if data.get("before") else None,
                   data.get("origin", ""), tuple(data.get("notes", ())))


@dataclass(frozen=True)
class Consequence:
    """What maintenance does to a rule because of the plan: supersede it, or flag a conflict with it."""

    rule_id: str
    op: str  # supersede | conflict
    detail: str

    def to_dict(self) -> dict[str, Any]:
        return {"rule_id": self.rule_id, "op": self.op, "detail": self.detail}


@dataclass(frozen=True)
class FilePlan:
    book_version: int
    steps: tuple[Step, ...]
    changes: tuple[RuleChange, ...]
    nodes: tuple[Node, ...]  # what the changes cite (trigger nodes, evidence, actors, groups)
    consequences: tuple[Consequence, ...] = ()
    errors: tuple[Finding, ...] = ()
    compiler_problems: tuple[str, ...] = field(default=(), compare=False)

    @property
    def empty(self) -> bool:
        return not self.changes

    def count(self, kind: str) -> int:
        return sum(1 for s in self.steps if s.kind == kind)

    def summary(self) -> str:
        return ", ".join(f"{self.count(kind)} {'to ' + kind if kind in (ADD, WITHDRAW) else kind}" for kind in KINDS) + \
            f"; {len(self.consequences)} consequence(s); {len(self.changes)} rule version(s) in one commit"

    def to_dict(self) -> dict[str, Any]:
        return {"book_version": self.book_version, "steps": [s.to_dict() for s in self.steps],
                "changes": [{"op": c.op, "record": c.record.to_dict()} for c in self.changes],
                "nodes": [n.to_dict() for n in self.nodes], "consequences": [c.to_dict() for c in self.consequences]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "FilePlan":
        return cls(int(data["book_version"]), tuple(Step.from_dict(s) for s in data["steps"]),
                   tuple(RuleChange(RuleRecord.from_dict(c["record"]), c["op"]) for c in data["changes"]),
                   tuple(node_from_dict(n) for n in data["nodes"]),
                   tuple(Consequence(c["rule_id"], c["op"], c["detail"]) for c in data.get("consequences", ())))


# -- one entry ------------------------------------------------------------------------------------------


def _meaning_key(record: RuleRecord | CompiledRule) -> str:
    return canonical_json([record.when, record.action, record.unexpressed])


def _new_record(entry: RuleEntry, compiled: CompiledRule, rule_id: str, node: Optional[DecisionNode],
                evidence: Sequence[Evidence]) -> RuleRecord:
    return RuleRecord(rule_id, entry.text, compiled.type, tuple(sorted(entry.roles)), compiled.group,
                      trigger=node.id if node is not None else None, actors=entry.actors,
                      evidence=tuple(e.id for e in evidence), support=sum(e.weight for e in evidence),
                      sources=(mark(entry.id),), compiled_by=compiled.compiled_by, when=compiled.when,
                      action=compiled.action, semantic_reason=compiled.semantic_reason, unexpressed=compiled.unexpressed)


def _updated(current: RuleRecord, entry: RuleEntry, compiled: CompiledRule, node: Optional[DecisionNode],
             weights: Mapping[str, Evidence], trigger_texts: Mapping[str, str],
             present: set[str]) -> tuple[RuleRecord, list[str]]:
    """The entry's rule as the file states it, from its current record; and what changed, in words.

    Evidence: the file's own (one per listed actor, `rulefile:<id>`) is added only for an actor that does
    not back the rule yet, so adopting a learned rule does not change its support; the file's evidence
    for an actor it no longer lists, and any entry's that is no longer in the files, is dropped."""
    changed: list[str] = []

    def stale(evidence_id: str) -> bool:
        item = weights.get(evidence_id)
        if item is None or not item.source.startswith(MARK):
            return False
        owner = item.source[len(MARK):]
        return owner not in present or (owner == entry.id and item.actor not in entry.actors)

    kept = [e for e in current.evidence if not stale(e)]
    backers = {weights[e].actor for e in kept if e in weights}
    evidence_ids = tuple(dict.fromkeys([*kept, *(entry_evidence(entry, a).id for a in entry.actors if a not in backers)]))
    gone = {weights[e].actor for e in current.evidence if stale(e)} - backers - set(entry.actors)
    actors = tuple(dict.fromkeys([*(a for a in current.actors if a not in gone), *entry.actors]))
    if actors != current.actors:
        changed.append(f"actors {', '.join(current.actors)} -> {', '.join(actors)}")
    sources = tuple(dict.fromkeys([*(s for s in current.sources if not s.startswith(MARK) or s[len(MARK):] in present),
                                   mark(entry.id)]))
    updates: dict[str, Any] = {"actors": actors, "evidence": evidence_ids, "status": RuleStatus.ACTIVE, "directive": entry.text,
                               "support": sum(weights[e].weight for e in evidence_ids if e in weights), "sources": sources}
    if current.status != RuleStatus.ACTIVE:
        changed.append(f"restores a {current.status} rule")
    if mark(entry.id) not in current.sources:
        changed.append(f"adopts rule {current.rule_id}: the file manages it from now on")
    if current.directive != entry.text:
        changed.append("its words changed (the same rule: only case, spacing or end punctuation)")
    if _meaning_key(current) != _meaning_key(compiled):
        changed.append("its meaning changed")
        updates.update({name: getattr(compiled, name) for name in _MEANING_FIELDS})
        updates["conflicts_with"] = ()  # maintenance flags what the new meaning conflicts with
    if node is not None and (current.trigger is None or (entry.context is not None and " ".join(
            trigger_texts.get(current.trigger, "").split()) != " ".join(node.text.split()))):
        if current.trigger is not None:
            changed.append("its context changed")
        updates["trigger"] = node.id
    return current.with_(**updates), changed


def _op(before: Optional[RuleRecord], after: RuleRecord) -> str:
    if before is None:
        return "add"
    if after.status == RuleStatus.WITHDRAWN:
        return "withdraw"
    if before.status != RuleStatus.ACTIVE:
        return "restore"
    if _meaning_key(before) != _meaning_key(after) or before.directive != after.directive:
        return "revise"
    return "reinforce"


# -- the plan -------------------------------------------------------------------------------------------


class _Planner:
    def __init__(self, book_version: int, heads: Mapping[str, RuleRecord], trigger_texts: Mapping[str, str],
                 evidence: Mapping[str, Evidence], near_duplicate_threshold: float) -> None:
        self.book_version = book_version
        self.heads = heads
        self.trigger_texts = trigger_texts
        self.weights = dict(evidence)
        self.threshold = near_duplicate_threshold
        self.managed: dict[str, list[str]] = {}
        for rule_id, record in heads.items():
            for entry_id in entry_ids(record):
                self.managed.setdefault(entry_id, []).append(rule_id)
        self.pre: dict[str, RuleRecord] = {}  # the entries' rules as the files state them
        self.steps: list[Step] = []
        self.errors: list[Finding] = []
        self.teachings: list[Teaching] = []
        self.nodes: dict[str, Node] = {}
        self.claimed: set[str] = set()  # rules some entry in the files is (or withdraws)
        self.replaced: set[str] = set()
        self.owner: dict[str, RuleEntry] = {}  # rule id -> the entry whose rule it is

    def resolve(self, entry: RuleEntry, name: str, present: set[str]) -> list[str]:
        """The rule ids an entry's `replaces` name means: an entry's rules, or a book rule (id or prefix)."""
        if name in present:
            self.errors.append(entry.finding(f"names entry {name!r}, which is still in the files: remove it there, "
                                             f"or drop it from replaces", "replaces", "replaces"))
            return []
        if name in self.managed:
            return [r for r in self.managed[name] if self.heads[r].status != RuleStatus.WITHDRAWN]
        matches = sorted(r for r in self.heads if len(name) >= MIN_PREFIX and r.startswith(name))
        if len(matches) == 1:
            return matches
        self.errors.append(entry.finding(f"{name!r} names no entry the book knows and no rule"
                                         + (f" (ambiguous: {', '.join(matches[:4])})" if matches else ""),
                                         "replaces", "replaces"))
        return []

    def withdraw_entry(self, entry: RuleEntry) -> None:
        """`status: withdrawn`: the entry's rules (and an unmanaged rule of its words) are withdrawn."""
        ids = list(self.managed.get(entry.id, ()))
        ids += [r for r in (entry_rule_id(entry, t) for t in ((entry.type,) if entry.type else (RuleType.CONTENT, RuleType.FORMAT)))
                if r in self.heads and r not in ids]
        own = [self.heads[r] for r in ids]
        self.claimed.update(ids)
        targets = [r for r in own if r.status != RuleStatus.WITHDRAWN]
        if not targets:
            record = own[0] if own else None
            self.steps.append(Step(UNCHANGED, entry.id, entry.path, record.rule_id if record else "",
                                   "withdrawn" if own else "withdrawn, and not in the book", record, record, "file"))
            return
        for record in targets:
            after = record.with_(status=RuleStatus.WITHDRAWN, sources=tuple(dict.fromkeys([*record.sources, mark(entry.id)])))
            self.pre[record.rule_id] = after
            self.owner.setdefault(record.rule_id, entry)
            self.steps.append(Step(WITHDRAW, entry.id, entry.path, record.rule_id, "status: withdrawn in the file",
                                   after, record, "file"))

    def entry(self, meaning: EntryMeaning, present: set[str]) -> None:
        entry, compiled = meaning.entry, meaning.compiled
        rule_id = entry_rule_id(entry, compiled.type)
        if rule_id in self.owner:
            other = self.owner[rule_id]
            self.errors.append(entry.finding(f"is the same rule as entry {other.id!r} ({other.path}:{other.line}): "
                                             f"the same text, type and roles", "duplicate", "text"))
            return
        self.owner[rule_id] = entry
        self.claimed.add(rule_id)
        own = [self.heads[r] for r in self.managed.get(entry.id, ())]
        previous = [r.rule_id for r in own if r.rule_id != rule_id and r.status == RuleStatus.ACTIVE]
        named = [r for name in entry.replaces for r in self.resolve(entry, name, present)]
        self.replaced.update(previous + named)
        node = entry_node(entry) if compiled.type == RuleType.CONTENT else None
        self.weights.update((e.id, e) for e in (entry_evidence(entry, actor) for actor in entry.actors))
        current = self.heads.get(rule_id)
        notes: list[str] = []
        if current is None:
            first = entry_evidence(entry, entry.actors[0])
            outcome = plan_teachings(self.heads, [self.teaching(entry, compiled, rule_id, None, first, ())], self.weights,
                                     near_duplicate_threshold=self.threshold).outcomes[0]
            if outcome.result == "refused":
                self.errors.append(entry.finding(f"the book refuses it: {outcome.detail}", "withdrawn", "text"))
                return
            if outcome.result == "merge":
                other = self.heads[outcome.rule_id]
                notes.append(f"the same meaning as rule {other.rule_id} ({other.directive[:60]!r}, taught by "
                             f"{', '.join(other.actors)}): both stay; `replaces: [{other.rule_id}]` takes its place")
            record = _new_record(entry, compiled, rule_id, node, [entry_evidence(entry, a) for a in entry.actors])
            kind = NEW_VERSION if previous else ADD
            detail = f"its words, type or roles changed: supersedes rule {', '.join(previous)}" if previous else ""
        else:
            if current.status == RuleStatus.WITHDRAWN and mark(entry.id) not in current.sources:
                self.errors.append(entry.finding(
                    f"the book refuses it: rule {rule_id} ({current.directive[:60]!r}) was withdrawn; "
                    f"`forge rulebook restore {rule_id}` brings it back", "withdrawn", "text"))
                return
            record, changed = _updated(current, entry, compiled, node, self.weights, self.trigger_texts, present)
            kind = UNCHANGED if record == current else NEW_VERSION
            detail = "; ".join(changed) if changed else ("" if kind == UNCHANGED else "its evidence changed")
            if current.conflicts_with and not record.conflicts_with:  # a new meaning: drop the old flags both ways
                for other_id in current.conflicts_with:
                    other = self.pre.get(other_id) or self.heads.get(other_id)
                    if other is not None and rule_id in other.conflicts_with:
                        self.pre[other_id] = other.with_(conflicts_with=tuple(r for r in other.conflicts_with if r != rule_id))
        self.pre[rule_id] = record
        if node is not None and record.trigger == node.id:
            self.nodes[node.id] = node
        for item in (*(self.weights[e] for e in record.evidence if e in self.weights), *(Actor(a) for a in record.actors),
                     Group(record.group)):
            self.nodes[item.id] = item
        replaces = tuple(dict.fromkeys(previous + named))
        for number, actor in enumerate(entry.actors):
            proof = next(self.weights[e] for e in record.evidence if e in self.weights and self.weights[e].actor == actor)
            self.teachings.append(self.teaching(entry, compiled, rule_id, record.trigger, proof, replaces if number == 0 else ()))
        self.steps.append(Step(kind, entry.id, entry.path, rule_id, detail, record, current, meaning.origin, tuple(notes)))

    @staticmethod
    def teaching(entry: RuleEntry, compiled: CompiledRule, rule_id: str, trigger: Optional[str], evidence: Evidence,
                 replaces: tuple[str, ...]) -> Teaching:
        teaching = Teaching(directive=entry.text, type=compiled.type, roles=tuple(sorted(entry.roles)), group=compiled.group,
                            actor=evidence.actor, evidence=evidence, trigger=trigger, sources=(mark(entry.id),),
                            compiled_by=compiled.compiled_by, when=compiled.when, action=compiled.action,
                            semantic_reason=compiled.semantic_reason, unexpressed=compiled.unexpressed, replaces=replaces)
        assert teaching.rule_id == rule_id, "a teaching's rule id is the entry's"
        return teaching

    def gone(self, present: set[str]) -> None:
        """Managed rules whose entries are no longer in the files: withdrawn (superseded if replaced)."""
        for entry_id in sorted(set(self.managed) - present):
            for rule_id in self.managed[entry_id]:
                record = self.heads[rule_id]
                if rule_id in self.claimed or rule_id in self.replaced or record.status != RuleStatus.ACTIVE or rule_id in self.pre:
                    continue
                after = record.with_(status=RuleStatus.WITHDRAWN)
                self.pre[rule_id] = after
                self.steps.append(Step(WITHDRAW, entry_id, "", rule_id, "its entry is no longer in the files", after,
                                       record, ""))

    def finish(self, compiler_problems: Sequence[str]) -> "FilePlan":
        work = {**self.heads, **self.pre}
        maintained = plan_teachings(work, self.teachings, self.weights, near_duplicate_threshold=self.threshold)
        final = dict(self.pre)
        maintenance_op = {}
        for change in maintained.changes:
            final[change.record.rule_id] = change.record
            maintenance_op[change.record.rule_id] = change.op
        for rule_id, entry in self.owner.items():
            record = final.get(rule_id)
            if record is not None and record.status == RuleStatus.SUPERSEDED:
                by = [self.owner[r].id for r, rec in final.items() if rule_id in rec.supersedes and r in self.owner]
                self.errors.append(entry.finding(
                    f"would be superseded by entry {', '.join(by) or '?'}: the same actor, an equivalent trigger and "
                    f"another action; keep one of them, or teach them as different actors", "supersedes", "when"))
        steps = [self._settled(s, final) for s in self.steps]
        own = {s.rule_id for s in steps}
        consequences = self._consequences(final, own)
        order = [s.rule_id for s in steps] + sorted(r for r in final if r not in own)
        changes = []
        for rule_id in dict.fromkeys(order):
            after, before = final.get(rule_id), self.heads.get(rule_id)
            if after is None or after == before:
                continue
            stated = self.pre.get(rule_id)
            by_entry = rule_id in own and stated is not None and stated != before
            op = _op(before, after) if by_entry else maintenance_op.get(rule_id, "conflict")
            changes.append(RuleChange(after, op))
        cited = {n for c in changes for n in (c.record.trigger, *c.record.evidence, *(f"actor:{a}" for a in c.record.actors),
                                             f"group:{c.record.group}")}
        nodes = tuple(n for nid, n in sorted(self.nodes.items()) if nid in cited)
        return FilePlan(self.book_version, tuple(steps), tuple(changes), nodes, tuple(consequences), tuple(self.errors),
                        tuple(compiler_problems))

    @staticmethod
    def _settled(step: Step, final: Mapping[str, RuleRecord]) -> Step:
        record = final.get(step.rule_id, step.record)
        return Step(step.kind, step.entry, step.path, step.rule_id, step.detail, record, step.before, step.origin, step.notes)

    def _consequences(self, final: Mapping[str, RuleRecord], own: set[str]) -> list[Consequence]:
        out = []
        records = {**self.heads, **final}

        def name(rule_id: str) -> str:
            return self.owner[rule_id].id if rule_id in self.owner else f"rule {rule_id}"

        said: set[frozenset] = set()
        for rule_id, after in sorted(final.items()):
            before = self.heads.get(rule_id)
            if rule_id not in own and before is not None and after.status == RuleStatus.SUPERSEDED and before.status == RuleStatus.ACTIVE:
                by = [name(r) for r, rec in final.items() if rule_id in rec.supersedes]
                out.append(Consequence(rule_id, "supersede", f"{name(rule_id)} ({before.directive[:70]!r}) is superseded by "
                                                              f"{', '.join(by)}"))
            for other in after.conflicts_with:
                pair = frozenset((rule_id, other))
                if other in (before.conflicts_with if before else ()) or pair in said or other not in records:
                    continue
                said.add(pair)
                theirs = records[other]
                decision = settle([rule_id, other], records, None)
                how = (f"where both apply, {name(decision.winner)} wins by {decision.tier}" if decision.winner else
                       f"nothing settles it ({decision.detail}, neither trigger narrower): where both apply, only their "
                       f"own teachers get either")
                if decision.tier == "specificity":
                    loser = other if decision.winner == rule_id else rule_id
                    how += f" on the hosts they disagree about ({name(loser)} still speaks for its other hosts)"
                out.append(Consequence(rule_id, "conflict", f"{name(rule_id)} conflicts with {name(other)} "
                                                            f"({theirs.directive[:70]!r} by {', '.join(theirs.actors)}): {how}"))
        return out


def plan_rule_files(book_version: int, heads: Mapping[str, RuleRecord], meanings: Sequence[EntryMeaning], *,
                    trigger_texts: Mapping[str, str], evidence: Mapping[str, Evidence],
                    near_duplicate_threshold: float = 0.9, compiler_problems: Sequence[str] = ()) -> FilePlan:
    """The plan that makes the book whose head records are `heads` (at `book_version`) hold what the
    entries state. `trigger_texts`: the text of each head's trigger node; `evidence`: the Evidence nodes
    the heads cite (support is recomputed from weights). See the module docstring."""
    planner = _Planner(book_version, heads, trigger_texts, evidence, near_duplicate_threshold)
    present = {m.entry.id for m in meanings}
    seen: dict[str, RuleEntry] = {}
    for meaning in meanings:
        entry = meaning.entry
        if entry.id in seen:
            first = seen[entry.id]
            planner.errors.append(entry.finding(f"the id is used twice (first at {first.path}:{first.line})", "duplicate", "id"))
            continue
        seen[entry.id] = entry
        if entry.status == RuleStatus.WITHDRAWN:
            planner.withdraw_entry(entry)
        elif not meaning.ok:
            planner.errors.append(entry.finding(meaning.problem, "validation" if entry.explicit else "compile",
                                                "when" if entry.when is not None else "text"))
            planner.claimed.update(planner.managed.get(entry.id, ()))  # its rule stays as it is
        else:
            planner.entry(meaning, present)
    planner.gone(present)
    return planner.finish(compiler_problems)
