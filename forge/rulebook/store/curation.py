"""Rulebook maintenance: how taught rules enter the book. Pure functions over head records.

For each teaching, in order, against the book as the earlier teachings left it:
1. the same rule (type, roles, normalised directive) exists:
   - withdrawn: refused (a withdrawn rule never comes back by being taught again; restore it instead);
   - otherwise it is reinforced: the teacher joins its actors, the evidence is added (support grows);
2. a withdrawn rule has the same *meaning* (same type and roles, and an equal trigger predicate and
   action), or the same *words* in other words (the same hosts, verbs, states and condition:
   condition.words_key; or the same hosts and verbs and a near-duplicate text, cosine >=
   WITHDRAWN_COSINE; or the same order on the same hosts, in words or compiled, under one condition or an
   unread one: _one_order; or, both semantic, a near-duplicate wording): refused likewise, naming the withdrawn
   rule and `forge rulebook restore` (teaching it again in other words does not bring it back, even when
   the two wordings compiled differently, one of them wrongly);
3. a rule with the same meaning exists (same type and roles, equal trigger predicate and action,
   whatever the wording; meaning.py): the teaching is merged into it, as a reinforcement;
4. a near duplicate exists among semantic rules (no predicate; same type, roles and group,
   `forge.memory.text.similarity` >= threshold): merged likewise;
5. otherwise the rule is added.
Then, among the rules of the same type with overlapping roles whose meaning *may conflict* with it
(the triggers can hold in one context and the actions disagree there: meaning.may_conflict):
6. specificity, not recency: the teacher's own active ones are replaced only when their trigger is
   *equivalent* to the new rule's (each implies the other, or the two texts state the same condition in
   other words, whatever the two compiled to: the teacher changed their mind about the same situation), or
   when the teacher names them (`replaces`: `forge rulebook add/correct --replaces`), or when the new
   teaching *says* it revises what the teacher said before ("Actually, ...", "Update: ...", "Scratch my
   earlier note", "from now on", "no longer": language/revision.py) and speaks for every host the earlier
   one did, whatever the two triggers (replaces_own); with such words a rule the checks kept without a
   compiled meaning (or an earlier one kept so) replaces by its words: the same hosts, another verb
   (revision.revised_in_words). A rule on fewer hosts is an exception, not a revision, whatever its words.
   A replaced rule backed only by the teacher gets status `superseded` and a SUPERSEDES edge from the
   new rule; one others back too just loses the teacher. A broader or narrower rule without words of
   revision replaces nothing: both stay, and where both apply the narrower one takes precedence
   (resolve.PRECEDENCE). So the book is a function of the set of teachings, not of their order, except
   where a teacher orders on purpose (a new word on an equivalent trigger, or words that say so);
7. the others are flagged: CONFLICTS_WITH edges both ways (settled at injection time, among the rules that
   apply to the context: resolve.py), except two rules backed by the same actors whose triggers are not nested
   (both are injected); so the teacher's own broader or narrower ones (one trigger strictly inside the other) are
   flagged: where both apply the exception speaks alone. Who backs each rule decides, not who teaches now, so
   the edges do not depend on the order of teaching. A superseded rule is flagged too (never against the rule that
   replaced it): it is in force again once its replacement is withdrawn or out of scope.
Agreement needs no flag: agreeing actors end up on one rule, whose support counts all their evidence.
Semantic rules (no predicate) supersede only by words of revision (6), and conflict only by what their words
forbid on hosts they name ("do not restore User3": meaning.Meaning.said), which flags them like a compiled
prohibition (a teacher's own one on fewer hosts than their general rule, as an exception); otherwise their
meaning is not known, and equal wording-derived group names are no evidence of disagreement.

Each changed rule appears once in the plan, with its final record and its most telling op.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Callable, Mapping, Optional, Sequence

from forge.memory.text import similarity
from forge.rulebook.language.condition import ordered_key, same_condition, skeleton, words_key
from forge.rulebook.language.minutes import agreed_items
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.action import MATCHED, RuleAction
from forge.rulebook.language.meaning import Meaning, disputing, meaning_of, may_conflict, same_meaning, standing_exception
from forge.rulebook.model import Evidence, RuleChange, RuleRecord, RuleStatus, RuleType, RulebookError, rule_id_for
from forge.rulebook.language.predicate import AllOf, AnyOf, Atom, Not, atoms_of, implies, positive_hosts
from forge.rulebook.language.revision import (narrowed_in_words, revised_in_words, revision_conditioned, says_revision,
                                              struck_out_in_words)
from forge.rulebook.language.said import forbidden_in_words, said_in_words
from forge.rulebook.language.names import classes_in, hosts_in, same_verb, state_words_in, verbs_in
from forge.rulebook.language.wording import read_wording

# A semantic teaching this close in wording to a withdrawn rule is refused. Lower than the merge
# threshold on purpose: a wrong refusal is visible (it names the rule and how to restore it), a wrong
# admission silently undoes a withdrawal.
WITHDRAWN_TEXT_THRESHOLD = 0.8
# Two texts with the same hosts and verbs this close by the encoder's cosine are one rule in other words. Measured
# on the dev and model-style splits with minilm-onnx-int8 (rulebook.encoder): pairs of one rule in two wordings
# (equal reference compilations) reach 0.39-0.97; pairs of different rules with the same hosts and verbs reach
# 0.93 ("While no Enterprise host is compromised, remove the attacker from any exploited user host" against
# the same order for "a compromised User host"); 0.95 is above every such pair. The words' key (same states and
# condition) finds the rest.
WITHDRAWN_COSINE = 0.95
_OP_PRIORITY = ("add", "restore", "merge", "reinforce", "supersede", "conflict", "withdraw", "assess")


@dataclass(frozen=True)
class Teaching:
    """A compiled rule that one actor teaches, with one piece of evidence for it."""

    directive: str
    type: str
    roles: tuple[str, ...]
    group: str
    actor: str
    evidence: Evidence
    trigger: Optional[str] = None  # decision node id
    sources: tuple[str, ...] = ()
    compiled_by: str = "grammar"
    when: Optional[dict] = None  # the trigger predicate's JSON (None: semantic)
    action: Optional[dict] = None
    semantic_reason: str = ""
    unexpressed: str = ""  # the condition's part the predicate does not express (a semantic guard)
    corrects: tuple[str, ...] = ()  # learned rules this (operator's) correction corrects
    replaces: tuple[str, ...] = ()  # rules the teacher names as replaced by this one (--replaces)
    text: str = ""  # what the teacher wrote (the directive may be a compiler's rewrite of it)
    revises: bool = False  # its opening said it revises what the teacher said before (taken off `text`)

    @property
    def rule_id(self) -> str:
        return rule_id_for(self.type, self.roles, self.directive)


@dataclass(frozen=True)
class Outcome:
    """What became of one teaching: `add`, `reinforce`, `merge` or `refused`, and on which rule."""

    rule_id: str
    result: str
    detail: str = ""


@dataclass(frozen=True)
class Plan:
    changes: tuple[RuleChange, ...]
    outcomes: tuple[Outcome, ...]

    @property
    def empty(self) -> bool:
        return not self.changes

    def count(self, op: str) -> int:
        return sum(1 for c in self.changes if c.op == op)


def _same_scope(a: RuleRecord, b: RuleRecord) -> bool:
    return a.group == b.group and a.type == b.type and bool(set(a.roles) & set(b.roles))


def _union(a: tuple[str, ...], *more: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys((*a, *more)))


def _without(a: tuple[str, ...], gone: set[str]) -> tuple[str, ...]:
    return tuple(x for x in a if x not in gone)


def _support(evidence: tuple[str, ...], weights: Mapping[str, Evidence]) -> int:
    return sum(weights[e].weight for e in evidence if e in weights)


class _Book:
    """The evolving state of a plan: current records, and the ops applied to each rule."""

    def __init__(self, heads: Mapping[str, RuleRecord], evidence: Mapping[str, Evidence]) -> None:
        self.heads = heads
        self.records = dict(heads)
        self.evidence = dict(evidence)
        self.ops: dict[str, list[str]] = {}
        # Everything maintenance compares lives in one group, so it only ever scans that group.
        self.by_group: dict[str, dict[str, None]] = {}
        for rid, record in self.records.items():
            self.by_group.setdefault(record.group, {})[rid] = None

    def group(self, name: str) -> list[RuleRecord]:
        return [self.records[rid] for rid in self.by_group.get(name, ())]

    def put(self, record: RuleRecord, op: str) -> None:
        self.records[record.rule_id] = record
        self.by_group.setdefault(record.group, {})[record.rule_id] = None
        self.ops.setdefault(record.rule_id, []).append(op)

    def with_evidence(self, record: RuleRecord, actor: str, evidence: Evidence, sources: tuple[str, ...]) -> RuleRecord:
        self.evidence[evidence.id] = evidence
        evidence_ids = _union(record.evidence, evidence.id)
        return record.with_(actors=_union(record.actors, actor), evidence=evidence_ids,
                            support=_support(evidence_ids, self.evidence), sources=_union(record.sources, *sources))

    def plan(self, outcomes: list[Outcome]) -> Plan:
        changes = []
        for rule_id, ops in self.ops.items():
            if self.heads.get(rule_id) == self.records[rule_id]:
                continue  # taught again with nothing new: no version
            op = min(ops, key=_OP_PRIORITY.index)
            changes.append(RuleChange(self.records[rule_id], op))
        return Plan(tuple(changes), tuple(outcomes))


def _probe(teaching: Teaching) -> RuleRecord:
    return RuleRecord(teaching.rule_id, teaching.directive, teaching.type, teaching.roles, teaching.group,
                      when=teaching.when, action=teaching.action, unexpressed=teaching.unexpressed,
                      text=teaching.text if teaching.text != teaching.directive else "")


def _same_meaning(book: _Book, teaching: Teaching) -> Optional[RuleRecord]:
    probe = _probe(teaching)
    meaning = meaning_of(probe)
    # (a FORMAT rule's meaning is its words: every one holds always and orders no action, so by meaning two teachers'
    # different reply formats were one rule, and withdrawing either withdrew both)
    if meaning.semantic or probe.type == RuleType.FORMAT:
        return None
    for record in book.records.values():
        if record.status != RuleStatus.WITHDRAWN and record.type == probe.type and set(record.roles) == set(probe.roles) \
                and record.unexpressed == probe.unexpressed and same_meaning(meaning_of(record), meaning):
            return record
    return None


def _by_words(record: RuleRecord) -> bool:
    """Whether a rule merges by its wording: a semantic rule, or a FORMAT rule."""
    return record.type == RuleType.FORMAT or meaning_of(record).semantic


def _near_duplicate(book: _Book, teaching: Teaching, threshold: float) -> Optional[RuleRecord]:
    probe = _probe(teaching)
    if not _by_words(probe):
        return None  # a rule with a meaning merges by meaning (_same_meaning), never by wording
    best: tuple[float, str] | None = None
    for record in book.group(teaching.group):
        if record.status == RuleStatus.WITHDRAWN or set(record.roles) != set(probe.roles) or not _same_scope(record, probe):
            continue
        if not _by_words(record):
            continue
        score = similarity(record.directive, teaching.directive)
        if score >= threshold and (best is None or score > best[0]):
            best = (score, record.rule_id)
    return book.records[best[1]] if best else None


def plan_teachings(
    heads: Mapping[str, RuleRecord],
    teachings: Sequence[Teaching],
    evidence: Mapping[str, Evidence],
    *,
    near_duplicate_threshold: float = 0.9,
    cosine: Optional[Callable[[str, str], float]] = None,
) -> Plan:
    """The changes that bring `teachings` into the book whose head records are `heads`.

    `evidence` holds the Evidence nodes the head records cite (support is recomputed from weights). `cosine`
    (two texts -> their encoder cosine) lets a near-duplicate wording of a withdrawn rule be found by meaning.
    """
    book = _Book(heads, evidence)
    outcomes: list[Outcome] = []
    for teaching in teachings:
        target = book.records.get(teaching.rule_id)
        if target is not None and target.status == RuleStatus.WITHDRAWN:
            outcomes.append(Outcome(teaching.rule_id, "refused", _refusal(target, "it")))
            continue
        withdrawn = None if target is not None else _withdrawn_meaning(book, teaching, WITHDRAWN_TEXT_THRESHOLD, cosine)
        if withdrawn is not None:
            outcomes.append(Outcome(teaching.rule_id, "refused", _refusal(withdrawn, "a rule with the same meaning")))
            continue
        result = "reinforce"
        if target is None:
            target = _same_meaning(book, teaching) or _near_duplicate(book, teaching, near_duplicate_threshold)
            result = "merge" if target is not None else "add"
        if target is None:
            record = RuleRecord(
                rule_id=teaching.rule_id, directive=teaching.directive, type=teaching.type,
                roles=tuple(teaching.roles), group=teaching.group, trigger=teaching.trigger,
                compiled_by=teaching.compiled_by, when=teaching.when, action=teaching.action,
                semantic_reason=teaching.semantic_reason, unexpressed=teaching.unexpressed,
                text=teaching.text if teaching.text != teaching.directive else "",
            )
        else:
            record = target
            if record.status == RuleStatus.SUPERSEDED:
                record = _reactivated(book, record, teaching.actor)
        record = book.with_evidence(record, teaching.actor, teaching.evidence, teaching.sources)
        if record.trigger is None and teaching.trigger is not None:
            record = record.with_(trigger=teaching.trigger)
        corrected = tuple(r for r in teaching.corrects if r != record.rule_id and r in book.records)
        if corrected:
            record = record.with_(corrects=_union(record.corrects, *corrected))
        book.put(record, result)
        _replace_named(book, record.rule_id, teaching.replaces)
        # (r43x: words of revision under a condition, "once it is rooted, the earlier note no longer holds", revise the
        # earlier rule only where that condition holds: no revision of the whole, revision.revision_conditioned)
        said = teaching.text or teaching.directive
        _supersede_own(book, record.rule_id, teaching.actor,
                       teaching.revises or says_revision(said) and not revision_conditioned(said))
        _flag_conflicts(book, record.rule_id, teaching.actor)
        outcomes.append(Outcome(record.rule_id, result))
    return book.plan(outcomes)


def _refusal(withdrawn: RuleRecord, what: str) -> str:
    return (f"{what} was withdrawn: rule {withdrawn.rule_id} ({withdrawn.directive[:80]!r}); "
            f"`forge rulebook restore {withdrawn.rule_id}` brings it back")


def _withdrawn_meaning(book: _Book, teaching: Teaching, threshold: float,
                       cosine: Optional[Callable[[str, str], float]] = None) -> Optional[RuleRecord]:
    """A withdrawn rule the teaching means again: equal predicate and action; or the same words in other words
    (equal `words_key` of the two texts, or equal hosts and verbs and a cosine >= WITHDRAWN_COSINE); or (both
    semantic) a near-duplicate wording; or the same order (`_one_order`). Scans the withdrawn rules only: texts are
    compared whatever the two compiled to, so a rewording that compiled differently (or wrongly) is still found."""
    probe = _probe(teaching)
    meaning = meaning_of(probe)
    orders = _orders(probe)
    texts = tuple(dict.fromkeys(t for t in (teaching.text, teaching.directive) if t))
    for record in book.records.values():
        if record.status != RuleStatus.WITHDRAWN or record.type != probe.type or set(record.roles) != set(probe.roles):
            continue
        theirs = meaning_of(record)
        if not meaning.semantic and not theirs.semantic and same_meaning(theirs, meaning):
            return record
        if any(_one_order(a, b) for a in _orders(record) for b in orders):
            return record
        if meaning.semantic and theirs.semantic and similarity(record.directive, teaching.directive) >= threshold:
            return record
        # the teacher's own words on the record as well as the compiler's rewrite of them (the directive)
        said = tuple(dict.fromkeys(t for t in (record.text, record.directive) if t))
        if record.type == RuleType.CONTENT and any(_same_words(w, text, cosine) for w in said for text in texts):
            return record
        if _relearned(record, teaching):
            return record
    return None


def _relearned(withdrawn: RuleRecord, teaching: Teaching) -> bool:
    """(r37h) The same lesson drawn again from the same failure: a teacher who backed the withdrawn rule teaches, from the
    very failure snapshot it was forged from (its trigger node), a rule whose words name no verb, host or class the
    withdrawn text did not (and some verb). A reflection retold after its withdrawal ("once an enterprise server shows a
    scan, quit watching and decoy it", after a story whose last words were "that scan was my cue to decoy it") is the
    withdrawn lesson whatever the reader made of either wording; a lesson from that failure that orders another move
    ("Remove it" after a withdrawn "Restore it") names a verb the withdrawn text did not, and one that claims other states
    of the hosts ("only once it is rooted" after "whenever it is compromised") corrects its condition: each is a rule of
    its own."""
    if teaching.evidence.kind != "failure" or not withdrawn.trigger or withdrawn.trigger != teaching.trigger \
            or teaching.actor not in withdrawn.actors:
        return False
    old = " ".join(t for t in (withdrawn.text, withdrawn.directive) if t)
    new = teaching.text or teaching.directive
    verbs = verbs_in(new)
    if not verbs or not all(any(same_verb(v, w) or same_verb(w, v) for w in verbs_in(old)) for v in verbs) \
            or not set(hosts_in(new)) <= set(hosts_in(old)) or not set(classes_in(new)) <= set(classes_in(old)):
        return False
    states = _states_claimed(old), _states_claimed(new)
    # (both unread: one lesson, leaning to refusal as `_same_words` does; one of them unread, a state claimed where the other
    # claims none, "never restore it" against "never restore it unless it is rooted", a condition added: a rule of its own)
    return states[0] == states[1]


def _states_claimed(text: str) -> Optional[frozenset[tuple[str, object]]]:
    """The states a text's claims speak of, whatever hosts they are said of (a story's misread count of hosts still says
    "scanned"): each atom's fields but its host and class; None where its claims are not read."""
    claims = _claims_in_words(text)
    if claims is None:
        return None
    return frozenset((f.name, getattr(atom, f.name)) for atom, _ in atoms_of(claims) for f in fields(atom)
                     if f.name not in ("host", "host_class") and getattr(atom, f.name) is not None)


@dataclass(frozen=True)
class _Order:
    """One move a rule orders or forbids, where; `unread`: its text speaks of a state the reading placed nowhere
    (only its hosts are in the condition), so nothing tells it apart from another condition on those hosts."""

    meaning: Meaning
    unread: bool


def _orders(record: RuleRecord) -> list[_Order]:
    """What a rule orders or forbids: its compiled meaning, and what its words say in so many words (said.py), which a
    rewording kept semantic by the checks still carries."""
    text = record.text or record.directive
    compiled = meaning_of(record)
    # (r55h) minutes: each item agreed is an order of its own, which the minutes read whole do not say plainly
    said = [found for found in map(said_in_words, (text, *agreed_items(text))) if found is not None]
    meanings = ([compiled] if not compiled.semantic and compiled.action is not None else []) + [Meaning(*s) for s in said]
    states = bool(state_words_in(text))
    return [_Order(m, states and all(atom.bare() and not negated for atom, negated in atoms_of(m.when))) for m in meanings]


def _one_order(a: _Order, b: _Order) -> bool:
    """One order in two wordings: the same move (mode, verb, target) on the same hosts, under one condition (each
    implies the other) or where either wording's condition is unread. A corrected condition ("restore User2 only when
    rooted" after "restore User2 whenever compromised" was withdrawn), or a condition added to a standing prohibition
    ("never Restore User2 unless it is at root" after "never Restore User2"), is another rule."""
    first, second = a.meaning, b.meaning
    if not _one_move(first.action, second.action) or positive_hosts(first.when) != positive_hosts(second.when):
        return False
    return a.unread or b.unread or (implies(first.when, second.when) and implies(second.when, first.when))


def _one_move(first: Optional[RuleAction], second: Optional[RuleAction]) -> bool:
    """Two actions that order one move: equal; or (r33m) one a `do` of the move the other prefers ("restore the Defender"
    taught again as "we'd sooner restore it than watch"): the move ordered is the same, what it is preferred over only
    said the second time."""
    if first == second:
        return True
    if first is None or second is None:
        return False
    return {first.mode, second.mode} == {"do", "prefer"} and first.move == second.move and first.then == second.then


def _same_words(withdrawn: str, text: str, cosine: Optional[Callable[[str, str], float]]) -> bool:
    # Leaning to refusal on purpose (a wrong refusal names the rule and `forge rulebook restore`; a wrong admission
    # silently undoes a withdrawal): the same hosts, verbs and claims on what the hosts show now, whatever the
    # wordings add about history.
    key = words_key(withdrawn)[:4]
    if not any(key):
        return False  # no host, class, verb or claim to compare: the wording's similarity decides (above)
    theirs = words_key(text)[:4]
    if key == theirs:
        return True
    ordered = ordered_key(withdrawn)
    if ordered is not None and ordered == ordered_key(text):
        return True  # (r34h) the condition's verb said inside the order's sentence or outside it: one rule
    if key[:3] == theirs[:3] and _same_claims(withdrawn, text):
        return True  # "once it's compromised" said as "User2: ... once compromised": one claim written two ways
    forbidden = forbidden_in_words(withdrawn)
    if forbidden is not None and forbidden == forbidden_in_words(text) and not _other_orders(withdrawn, text):
        # one prohibition, in the same words' meaning (the same verb forbidden on the same hosts, in the same state):
        # "Never run Remove on Op_Server0" taught again as "Op_Server0 should never be removed; reimage it or leave it be"
        # (the alternative it allows is no other rule)
        return True
    return cosine is not None and skeleton(withdrawn) == skeleton(text) and cosine(withdrawn, text) >= WITHDRAWN_COSINE


def _other_orders(a: str, b: str) -> bool:
    """(r49a) Two texts that forbid nothing, each putting one move aside for a move it orders ("a Remove won't work on
    Op_Host1, restore it" / "..., decoy it"; "favour a Restore of it over a Remove" / "favour a decoy on it over a
    Remove"), and order different moves (none in common): two rules, whatever move they both put aside (the move
    ordered is the rule; a prohibition's alternative is no other rule, but a move only said to fall short or be worse
    forbids nothing)."""
    if read_wording(a).prohibitions or read_wording(b).prohibitions:
        return False
    ordered_a, ordered_b = ({verb for verb, banned in words_key(t)[2] if not banned} for t in (a, b))
    return bool(ordered_a and ordered_b and not ordered_a & ordered_b)  # (one move in common: leaning to refusal)


def _same_claims(a: str, b: str) -> bool:
    """Whether what the two texts claim of the hosts' states (rule_claims.rule_claims, with their orders) is one
    claim: each implies the other (a bare mention of a host beside a state of it adds nothing). (r47h) A host said hit
    and denied root ("exploited but not rooted") is one claim with that host hit at user level ("shows an exploit at the
    user level"): one teacher's words for one rule, whatever the reading keeps of the denial where it is judged."""
    first, second = (_claims_in_words(t) for t in (a, b))
    if first is None or second is None:
        return False
    first, second = _root_denied_as_user(first), _root_denied_as_user(second)
    return implies(first, second) and implies(second, first)


def _root_denied_as_user(p):
    """(r47h) Claims with a named host's root denied beside a claim that it was hit (an exploit, a compromise) said as its
    user level: AllOf(host exploited, not host at Privileged) -> AllOf(host exploited, host at User). Only to compare two
    wordings (`_same_claims`); any other claim as it stands."""
    if isinstance(p, (AnyOf, AllOf)):
        parts = tuple(_root_denied_as_user(q) for q in p.parts)
        if isinstance(p, AllOf):
            hit = {q.host for q in parts if isinstance(q, Atom) and q.host and (q.activity == "Exploit" or q.compromise == "any")}
            parts = tuple(replace(q.part, compromise="User") if _root_denied(q) and q.part.host in hit else q for q in parts)
        return type(p)(parts)
    return p


def _root_denied(p) -> bool:
    """Whether `p` only denies a named host's root: Not(Atom(host, compromise=Privileged))."""
    return isinstance(p, Not) and isinstance(p.part, Atom) and p.part.host is not None and p.part.compromise == "Privileged" \
        and p.part == Atom(host=p.part.host, compromise="Privileged")


def _claims_in_words(text: str):
    """What a text claims of the hosts' states (rule_claims, with its order); (r35h) for an order with no condition of
    its own, what it says its objects show, "a DecoySmss on User1 or User4, whichever one gets scanned" (a bare mention
    of the hosts claims nothing)."""
    found = rule_claims(text, with_instruction=True, bare=False)
    if found is not None or read_wording(text).conditions:
        return found
    stated = rule_claims(text, with_instruction=True)
    return stated if stated is not None and not all(atom.bare() for atom, _ in atoms_of(stated)) else None


def _replace_named(book: _Book, rule_id: str, named: tuple[str, ...]) -> None:
    """The rules the teacher says this one replaces: superseded, whatever their triggers."""
    rule = book.records[rule_id]
    for old_id in named:
        old = book.records.get(old_id)
        if old is None:
            raise RulebookError(f"--replaces names no rule {old_id!r} in the rulebook")
        if old_id == rule_id or old.status == RuleStatus.WITHDRAWN or old_id in rule.supersedes:
            continue
        book.put(old.with_(status=RuleStatus.SUPERSEDED), "supersede")
        rule = rule.with_(supersedes=_union(rule.supersedes, old_id))
        book.put(rule, book.ops[rule_id][-1])


def _reactivated(book: _Book, record: RuleRecord, teacher: str) -> RuleRecord:
    """A superseded rule taught again: active, minus the actors who moved on to a newer rule (unless
    the teacher is one of them and is coming back to it)."""
    moved_on = {
        actor
        for other in book.group(record.group)
        if other.active and record.rule_id in other.supersedes
        for actor in other.actors
    } - {teacher}
    actors = _without(record.actors, moved_on)
    evidence = tuple(e for e in record.evidence if e in book.evidence and book.evidence[e].actor not in moved_on)
    return record.with_(status=RuleStatus.ACTIVE, actors=actors, evidence=evidence, support=_support(evidence, book.evidence))


def _disagreeing(book: _Book, rule: RuleRecord, by_words: bool = False, superseded: bool = False) -> list[RuleRecord]:
    """The active rules of the same type and overlapping roles whose meaning may conflict with `rule`. With
    `by_words`, a semantic rule's prohibition in so many words counts as its meaning (meaning.disputing). With
    `superseded`, the superseded rules too (not the withdrawn): one is back in force when the rule that replaced it is
    withdrawn, or out of scope (resolve.eligible_rules), and must then meet the rules taught while it was replaced."""
    view = (lambda r: disputing(meaning_of(r))) if by_words else meaning_of
    meaning = view(rule)
    if meaning is None or meaning.semantic or meaning.action is None:
        return []
    found = []
    # (in rule-id order: the order a backend lists its heads in must not change the order of a version's changes)
    for other in sorted(book.records.values(), key=lambda r: r.rule_id):
        standing = other.active or superseded and other.status == RuleStatus.SUPERSEDED
        if other.rule_id != rule.rule_id and standing and other.type == rule.type and set(other.roles) & set(rule.roles):
            theirs = view(other)
            if theirs is not None and may_conflict(meaning, theirs):
                found.append(other)
    return found


def _own_replaced(book: _Book, rule: RuleRecord, actor: str, revises: bool) -> list[RuleRecord]:
    """The teacher's own active rules that `rule` replaces (replaces_own); with words of revision, also those
    that it or they have no compiled meaning for and that it revises by their words (revision.revised_in_words)."""
    # (r54h) with a rule back in force, its replacement withdrawn (`_back_in_force`): a revision replaces it as an active one
    found = [other for other in _disagreeing(book, rule, superseded=revises)
             if (other.active or _back_in_force(book, other)) and actor in other.actors
             and other.directive != rule.directive and replaces_own(other, rule, revises)]
    if revises:
        semantic = meaning_of(rule).semantic
        found += [other for other in _own_others(book, rule, actor) if other not in found
                  and (restated_own(other, rule) or narrowed_own(other, rule)
                       or struck_out_in_words(other.text or other.directive, rule.text or rule.directive)
                       or ((semantic or meaning_of(other).semantic)
                           and revised_in_words(other.text or other.directive, rule.text or rule.directive)))]
    return found


def narrowed_own(old: RuleRecord, new: RuleRecord) -> bool:
    """(r38g) Whether a teacher's revision `new` keeps their own earlier order `old` to fewer of its hosts, in so many
    words ("Scratch the part about E2: the Restore is for E1 alone now" after a Restore on E1 and E2): the two agree
    where both apply, so no conflict replaces the old one, and the triggers of a rule kept semantic cannot be compared;
    kept, the old rule would still speak for the host the teacher took out. By the words of both
    (revision.narrowed_in_words), whatever each compiled to."""
    return narrowed_in_words(old.text or old.directive, new.text or new.directive)


def _own_others(book: _Book, rule: RuleRecord, actor: str) -> list[RuleRecord]:
    """The teacher's other active rules that a revision by `rule` could replace: another directive, the same type, a
    role in common; in rule-id order, as the backends list heads each in its own order."""
    return [other for other in sorted(book.records.values(), key=lambda r: r.rule_id)
            if (other.active or _back_in_force(book, other)) and actor in other.actors and other.rule_id != rule.rule_id
            and other.directive != rule.directive and other.type == rule.type and set(other.roles) & set(rule.roles)]


def _back_in_force(book: _Book, rule: RuleRecord) -> bool:
    """(r54h) Whether a superseded rule is back in force: every rule that replaced it is withdrawn (resolve.eligible_rules
    lets it back). A teacher's later revision ("scratch my earlier notes on E1: ...") replaces it as it would an active
    one; left superseded by the withdrawn rule alone, it was injected beside the revision that took its place."""
    if rule.status != RuleStatus.SUPERSEDED:
        return False
    replacing = [other for other in book.records.values() if rule.rule_id in other.supersedes]
    return all(other.status == RuleStatus.WITHDRAWN for other in replacing)


def _supersede_own(book: _Book, rule_id: str, actor: str, revises: bool = False) -> None:
    rule = book.records[rule_id]
    for other in _own_replaced(book, rule, actor, revises):
        other = book.records[other.rule_id]
        if set(other.actors) == {actor}:
            book.put(other.with_(status=RuleStatus.SUPERSEDED), "supersede")
            rule = rule.with_(supersedes=_union(rule.supersedes, other.rule_id))
        else:  # others still back it; the teacher's backing moves to the new rule
            evidence = tuple(e for e in other.evidence if not (e in book.evidence and book.evidence[e].actor == actor))
            book.put(other.with_(actors=_without(other.actors, {actor}), evidence=evidence,
                                 support=_support(evidence, book.evidence)), "supersede")
        book.put(rule, book.ops[rule_id][-1])
    book.records[rule_id] = rule


def replaces_own(old: RuleRecord, new: RuleRecord, revises: bool) -> bool:
    """Whether a teacher's `new` rule replaces their own earlier `old` one, the two disagreeing where both may
    apply (meaning.may_conflict). Yes when they are about the same situation: equivalent triggers (each implies
    the other), or texts that state the same condition in other words (whatever the two compiled to). Yes too
    when the new teaching says it revises what the teacher said before (`revises`: revision.says_revision,
    "Actually, ...", "Update: ...", "Scratch my earlier note", "from now on", "no longer") and speaks for every
    host the earlier one did, whatever the two triggers (a bit wider, narrower, or worded differently). A rule on
    fewer hosts is not a revision of the whole earlier one ("From now on, don't restore User0" after "Restore
    compromised user hosts" is an exception: the general rule still speaks for the other hosts). Otherwise (a
    broader or narrower rule, no word of revision) both stay: specificity settles them."""
    old_when, new_when = meaning_of(old).when, meaning_of(new).when
    if old.unexpressed == new.unexpressed and implies(old_when, new_when) and implies(new_when, old_when):
        return True
    if same_condition(old.directive, new.directive):
        return True
    return revises and old_when is not None and new_when is not None \
        and positive_hosts(old_when) <= positive_hosts(new_when)


def restated_own(old: RuleRecord, new: RuleRecord) -> bool:
    """Whether a teacher's `new` rule, taught with words of revision, restates their own earlier `old` one with its
    condition changed: the same action, and triggers nested one in the other ("Update: for three steps after an
    Analyse of E0, no further Analyse of it" after "for two steps ..."). The two agree, so no conflict replaces the
    old one, yet the teacher said the new one is what they mean now: kept, it would be injected beside its revision
    where the two overlap and alone where the teacher narrowed it. A rule kept without a compiled meaning restates by
    what its words plainly order (meaning.disputing: "Update: U4 at root, unchanged 4 steps -> Restore U4" after the
    same order at 5 steps). An order widened from one host to the hosts its new trigger matches restates it too
    (`_widened_order`)."""
    a, b = (disputing(meaning_of(r)) or meaning_of(r) for r in (old, new))
    if a.when is None or b.when is None or a.action is None:
        return False
    if _on_its_host(a) != _on_its_host(b) and not _widened_order(a, b):
        return False
    return (implies(a.when, b.when) or implies(b.when, a.when)) and positive_hosts(a.when) <= positive_hosts(b.when)


def _widened_order(old: Meaning, new: Meaning) -> bool:
    """(r38h) Whether `new` gives `old`'s one-move order to the host the trigger matches, among them `old`'s own host
    ("Update: every enterprise server under exploit gets that Remove too" after "Enterprise1 under exploit: Remove
    Enterprise1"):
    where `old` applies, `new` orders the very same move, so the old rule is its revision's part, not a rule of its own."""
    before, after = _on_its_host(old), new.action
    if before is None or after is None or before.is_plan or after.is_plan or before.over is not None \
            or after.over is not None or before.mode != after.mode or after.move.target != MATCHED:
        return False
    return before.move.verb == after.move.verb and before.move.target in positive_hosts(new.when) \
        and implies(old.when, new.when)


def _on_its_host(meaning: Meaning) -> Optional[RuleAction]:
    """The action with "the matched host" written as the one host its trigger names: "restore E2" compiled on Enterprise2
    and the words "restore that host" when Enterprise2 is at root are one order (a plan, or several hosts: as it is)."""
    action, hosts = meaning.action, positive_hosts(meaning.when)
    if action is None or action.is_plan or action.over is not None or action.move.target != MATCHED or len(hosts) != 1:
        return action
    return replace(action, move=replace(action.move, target=next(iter(hosts))))


def _flag_conflicts(book: _Book, rule_id: str, actor: str) -> None:
    rule = book.records[rule_id]
    for other in _disagreeing(book, rule, by_words=True, superseded=True):
        other = book.records[other.rule_id]
        # One teacher's (or one set of teachers') own rules that are not nested stay unflagged: both are injected. By
        # the actors backing each now, not by who teaches now, so that the edges do not depend on the order of teaching
        # (a rule another teacher joins later is that teacher's too).
        if other.directive == rule.directive or set(other.actors) == set(rule.actors) and not _strictly_nested(rule, other):
            continue
        if _replaced_and_out(rule, other) or _replaced_and_out(other, rule):
            continue  # a rule and the one it replaced are never both in force: no dispute to settle
        if other.rule_id not in rule.conflicts_with:
            rule = rule.with_(conflicts_with=_union(rule.conflicts_with, other.rule_id))
            book.put(rule, book.ops[rule_id][-1])
        if rule_id not in other.conflicts_with:
            book.put(other.with_(conflicts_with=_union(other.conflicts_with, rule_id)), "conflict")


def _replaced_and_out(newer: RuleRecord, older: RuleRecord) -> bool:
    """Whether `newer` replaced `older` and `older` is still out of force. (r57n) A rule one teacher replaced comes back
    active when another teacher teaches it again (a merge by meaning, `_reactivated`: the rule is now that teacher's):
    the two are then both in force, two teachers' words on one host, and precedence settles them ("another teacher's
    later word replaces nothing"). Skipped as a replaced pair, a Restore brought back by a second teacher and the
    first teacher's Remove that had replaced it were both injected, whoever asked."""
    return older.rule_id in newer.supersedes and not older.active


def _strictly_nested(rule: RuleRecord, other: RuleRecord) -> bool:
    """Whether one rule's trigger strictly implies the other's: one teacher's exception and general rule, flagged so
    that where both apply the exception speaks (resolve: specificity), and the general rule still speaks for the hosts
    the exception does not dispute. One teacher's rules that are not nested stay unflagged: both are injected."""
    mine, theirs = disputing(meaning_of(rule)), disputing(meaning_of(other))
    if mine is None or theirs is None:
        return False
    if implies(mine.when, theirs.when) != implies(theirs.when, mine.when):
        return True
    if standing_exception(mine, theirs) or standing_exception(theirs, mine):
        return True  # "never Restore User3, whatever it shows" beside "restore compromised user hosts": its exception
    if meaning_of(rule).semantic == meaning_of(other).semantic:
        return False
    # an exception in so many words (one of the two kept semantic): on fewer hosts than the general rule
    a, b = positive_hosts(mine.when), positive_hosts(theirs.when)
    return a < b or b < a


def plan_assess(heads: Mapping[str, RuleRecord], assessments: Sequence[tuple[str, Evidence, bool]],
                evidence: Mapping[str, Evidence]) -> list[RuleChange]:
    """Efficacy evidence on rules: (rule id, evidence, supporting?) -> the new versions. Supporting
    evidence joins SUPPORTED_BY (and the support count), counter-evidence joins COUNTERED_BY; the
    directive, meaning and status never change. Evidence a rule already cites (or efficacy from the same
    traces, whoever recorded it) is not added twice. `evidence`: the Evidence nodes the records cite."""
    weights = dict(evidence)
    records: dict[str, RuleRecord] = {}
    for rule_id, item, supporting in assessments:
        record = records.get(rule_id) or heads.get(rule_id)
        if record is None:
            raise RulebookError(f"no rule {rule_id!r} in the rulebook")
        cited = (*record.evidence, *record.counter_evidence)
        if item.id in cited or any(e in weights and weights[e].kind == item.kind == "efficacy"
                                   and weights[e].source == item.source for e in cited):
            continue  # these traces already count for this rule, whoever recorded them
        weights[item.id] = item
        if supporting:
            ids = _union(record.evidence, item.id)
            record = record.with_(evidence=ids, support=_support(ids, weights))
        else:
            record = record.with_(counter_evidence=_union(record.counter_evidence, item.id))
        records[rule_id] = record
    return [RuleChange(r, "assess") for r in records.values()]


def plan_withdraw(heads: Mapping[str, RuleRecord], rule_id: str) -> RuleChange:
    record = heads.get(rule_id)
    if record is None:
        raise RulebookError(f"no rule {rule_id!r} in the rulebook")
    if record.status == RuleStatus.WITHDRAWN:
        raise RulebookError(f"rule {rule_id} is already withdrawn")
    return RuleChange(record.with_(status=RuleStatus.WITHDRAWN), "withdraw")


def plan_restore(heads: Mapping[str, RuleRecord], rule_id: str, earlier: RuleRecord, number: int) -> list[RuleChange]:
    """Bring back rule `rule_id` with the content of its version `number` (`earlier`). Rules that
    superseded it let go of it, so the restored rule is injected again. It is flagged against the active rules it
    disagrees with as a teaching is (7. above): a rule taught while it was withdrawn never met it, and without the
    edge the two were both injected where they dispute a host, whoever asks."""
    current = heads.get(rule_id)
    if current is None:
        raise RulebookError(f"no rule {rule_id!r} in the rulebook")
    if earlier.status == RuleStatus.WITHDRAWN:
        raise RulebookError(f"version {number} of rule {rule_id} is itself withdrawn; restore an active version")
    restored = earlier.with_(status=RuleStatus.ACTIVE)
    if restored == current:
        raise RulebookError(f"rule {rule_id} already has the content of version {number}")
    book = _Book(heads, {})
    book.put(restored, "restore")
    for other in heads.values():
        if other.rule_id != rule_id and rule_id in other.supersedes:
            book.put(other.with_(supersedes=_without(other.supersedes, {rule_id})), "restore")
    _flag_conflicts(book, rule_id, "")
    return list(book.plan([]).changes)


def last_active_version(history: Sequence[RuleRecord]) -> int:
    """The 1-based number of the newest active version (what `restore` brings back by default)."""
    for number in range(len(history), 0, -1):
        if history[number - 1].status == RuleStatus.ACTIVE:
            return number
    raise RulebookError("the rule was never active")
