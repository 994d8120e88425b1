"""What a rule means: its trigger predicate and its action, and how two meanings relate. Pure.

A rule's meaning is what its record stores (`when`, `action`: the compiler's structured output); a
record without them (written before rules carried them, or taught through an old path) whose
directive is in the grammar gets the grammar's reading, so every grammar rule has a meaning. Anything
else is *semantic*: no predicate, judged by retrieval alone.

Relations, used by maintenance (teach time) and retrieval (query time):
- `same_meaning`: equal trigger and action, whatever the wording: agreeing teachers share one rule;
- `may_conflict`: the triggers can hold in one context and the actions disagree there (action.py's
  `clash_hosts`): restore vs never restore the same host, different verbs for the same host, ...;
- `conflict_in`: the actions disagree *in this context*, on the hosts the triggers matched here
  ("never restore User0" and "restore any compromised User host" disagree only where User0 is one
  of the compromised hosts); `undisputed_hosts`: the hosts a rule acts on here that no other disagrees
  about (User4, where User0 and User4 are the compromised ones).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, Optional, Sequence

from forge.rulebook.language.grammar import ConditionalRule, parse_rule
from forge.rulebook.language.action import CLASS_TARGETS, MATCHED, RuleAction, clash_hosts, parse_rule_action, rule_action_to_json
from forge.rulebook.model import RuleType, canonical_json
from forge.rulebook.language.predicate import (
    AllOf,
    Predicate,
    PredicateError,
    atoms_of,
    holds,
    host_truth,
    matched_hosts,
    may_overlap,
    may_overlap_on,
    parse_predicate,
    positive_hosts,
    predicate_to_json,
    truth,
)
from forge.rulebook.language.said import said_in_words
from forge.rulebook.language.situation import Situation


@dataclass(frozen=True)
class Meaning:
    when: Optional[Predicate] = None
    action: Optional[RuleAction] = None
    # A semantic rule's prohibition or plain order in so many words ("do not restore User3": never Restore on the hosts
    # it names; said.py): used only to find and settle disagreements (`disputing`), never to decide whether it applies.
    said: Optional["Meaning"] = None
    # (r55l) A compiled note of cases whose orders differ: each case's order within its trigger, which it disputes by in
    # that case (`_disputed_in_its_case`); never used to decide whether it applies.
    cases: tuple["Meaning", ...] = ()

    @property
    def semantic(self) -> bool:
        return self.when is None

    def key(self) -> Optional[str]:
        """Equal for equal meanings (None for semantic rules: their meaning is their wording)."""
        if self.when is None:
            return None
        return canonical_json([predicate_to_json(self.when),
                               rule_action_to_json(self.action) if self.action else None])


def grammar_meaning(rule: ConditionalRule) -> tuple[dict[str, Any], dict[str, Any]]:
    """The predicate and action JSON of a rule written in the grammar (no model involved)."""
    key = "activity" if rule.condition.field == "activity" else "compromise"
    if rule.subject in ("User", "Enterprise", "Operational"):
        when: dict[str, Any] = {"class": rule.subject}
    elif rule.subject == "any":
        when = {"class": "any"}
    else:
        when = {"host": rule.subject}
    when[key] = rule.condition.value or "any"
    if rule.verb in ("Sleep", "Monitor"):
        target = None
    else:
        target = rule.target or MATCHED
    return when, {"mode": "do", "verb": rule.verb, "target": target}


@lru_cache(maxsize=4096)
def _parsed(when_json: Optional[str], action_json: Optional[str], directive: str) -> Meaning:
    if when_json is None:
        grammar = parse_rule(directive)
        if grammar is None:
            return Meaning()
        when, action = grammar_meaning(grammar)
        return Meaning(parse_predicate(when), parse_rule_action(action))
    try:
        when_p = parse_predicate(json.loads(when_json))
        action_p = parse_rule_action(json.loads(action_json)) if action_json else None
    except PredicateError:
        return Meaning()  # a stored meaning this code no longer reads: the rule is judged as semantic
    return Meaning(when_p, action_p)


def _excepted_read(meaning: Meaning, text: str) -> Meaning:
    """(r41g) A host the text excepts from a class ("for every host at root, restore it; Op_Server0 excepted"),
    compiled as "some host of the class in that state, and not the excepted host in it": the text says the other hosts,
    whatever the excepted one shows. Read so, the rule applies where the excepted host is not shown (an analyst's call
    shows one host: the exception, unknown there, silenced the rule) and beside it where it is in that state."""
    when = _excepted_when(meaning.when, text)
    return meaning if when is meaning.when else replace(meaning, when=when)


@lru_cache(maxsize=4096)
def _excepted_when(when: Predicate, text: str) -> Predicate:
    """`when` as the class atom without its excepted host (rule_claims.excepting), where `when` is exactly that atom and
    the negation of it on one host the text excepts (wording: Wording.excepted), of the class; else `when` itself."""
    from forge.rulebook.language.rule_claims import excepting  # lazy: rule_claims.py reads more than this needs
    from forge.rulebook.language.predicate import AllOf, Atom, Not
    from forge.rulebook.language.wording import read_wording

    if not isinstance(when, AllOf) or len(when.parts) != 2:
        return when
    atom, denied = sorted(when.parts, key=lambda part: isinstance(part, Not))
    if not (isinstance(atom, Atom) and atom.host is None and isinstance(denied, Not) and isinstance(denied.part, Atom)):
        return when
    host = denied.part.host
    if host is None or host not in atom.hosts() or denied.part != atom.on(host) \
            or host not in read_wording(text).excepted:
        return when
    return excepting(atom, (host,)) or when


def meaning_of(record) -> Meaning:
    """The meaning of a `RuleRecord` (see the module docstring); a semantic CONTENT rule carries what its words
    forbid or plainly order (`said`: said.said_in_words), if they say that much."""
    when = canonical_json(record.when) if record.when is not None else None
    action = canonical_json(record.action) if record.action is not None else None
    meaning = _parsed(when, action, record.directive)
    if meaning.when is not None:
        meaning = _excepted_read(meaning, getattr(record, "text", "") or record.directive)
        meaning = _disputed_in_its_case(meaning, getattr(record, "text", "") or record.directive)
    if meaning.semantic and getattr(record, "type", RuleType.CONTENT) == RuleType.CONTENT:
        said = said_in_words(getattr(record, "text", "") or record.directive)
        if said is not None:
            return Meaning(said=Meaning(*said))
    return meaning


def disputing(meaning: Meaning) -> Optional[Meaning]:
    """The meaning a rule disagrees by: its own, or for a semantic rule what its words forbid (None: unknown)."""
    return meaning if not meaning.semantic else meaning.said


def _disputed_in_its_case(meaning: Meaning, text: str) -> Meaning:
    """(r55l) A note of cases whose orders differ ("User2 scanned -> Analyse User2. User2 rooted -> Restore User2"), compiled
    by design with its first case's move as the action and the other cases left in its rest (condition.arrow_cases): in
    each case its word is that case's own order. Disputed by its stored action alone, it was taken to order Analyse where
    User2 is rooted: a teacher's "never Analyse User2 once it is rooted" lost to it, or beat it, over a move it never
    orders there, and one against its Restore there went unseen. Each case's order as its words say it (said_in_words),
    within the trigger, is what it disputes by in that case (`cases`); where a case's order is not read so plainly, the
    note disputes by its stored action, as before."""
    from forge.rulebook.language.condition import arrow_cases  # lazy: readers of whole texts
    from forge.rulebook.language.names import verbs_in

    cases = arrow_cases(text)
    if len(cases) < 2 or meaning.action is None or meaning.said is not None:
        return meaning
    moved = {m.verb for m in meaning.action.moves}
    if all(moved <= set(verbs_in(case)) for case in cases):
        return meaning
    read = [said_in_words(case) for case in cases]
    if any(said is None or said[0] is None for said in read):
        return meaning
    return replace(meaning, cases=tuple(Meaning(AllOf((meaning.when, when)), action) for when, action in read))


def in_its_cases(meaning: Meaning, situation: Situation, may: bool = False,
                 within: Optional[Sequence[str]] = None) -> tuple[tuple[RuleAction, tuple[str, ...]], ...]:
    """(r55l) What a meaning disputes by in `situation`, each action with the hosts its trigger matched: for a note of cases
    (`Meaning.cases`), each case that may hold there, on the hosts both the case and the whole trigger match (a case's
    reading may say no more than its class: the hosts are the trigger's); else itself. (r55d) `may`: the hosts it may
    match (a party whose condition is unknown here, `hosts_it_may_match`); `within`: the hosts of the whole trigger, where
    the caller has narrowed them (`undisputed_hosts`)."""
    hosts = hosts_it_may_match if may else matched_hosts
    whole = tuple(hosts(meaning.when, situation)) if within is None else tuple(within)
    if not meaning.cases:
        return ((meaning.action, whole),)
    return tuple((case.action, tuple(h for h in hosts(case.when, situation) if h in whole)) for case in meaning.cases
                 if truth(case.when, situation) is not False)


def standing_exception(narrow: Meaning, broad: Meaning) -> bool:
    """Whether `narrow` forbids, on named hosts whatever state they are in ("never Restore User3, even when it's
    rooted": its trigger only that the host is there), a move on strictly fewer hosts than `broad`'s trigger can
    match. The two triggers are not nested (the prohibition holds in every state), yet on its hosts it is the narrower
    word. Read as an exception only between one teacher's rules (`resolve`): between two teachers it is a dispute."""
    if narrow.semantic or broad.semantic or narrow.action is None or narrow.action.mode != "never":
        return False
    atoms = list(atoms_of(narrow.when))
    if not atoms or not all(atom.host is not None and atom.bare() and not negated for atom, negated in atoms):
        return False
    return positive_hosts(narrow.when) < positive_hosts(broad.when)


def in_words(record) -> str:
    """The rule as an agent reads it: its directive, and for a plan (several moves, or a target relative
    to the matched host) the plan spelled out, so "decoy the next hop" names which hosts and in what order."""
    action = meaning_of(record).action
    if action is None or not action.is_plan:
        return record.directive
    return f"{record.directive.rstrip()} (plan: {action})"


def same_meaning(a: Meaning, b: Meaning) -> bool:
    return a.key() is not None and a.key() == b.key()


def _uses_matched(action: RuleAction) -> bool:
    """Whether the hosts the action disagrees about must be ones its trigger matched. A plan's later
    moves and relative targets reach other hosts, so a plan qualifies only when all its moves are on
    the matched host."""
    moves = [m for m in (action.move, action.over, *action.then) if m is not None]
    if action.is_plan:
        return all(m.target in (MATCHED, None) for m in moves)
    return any(m.target == MATCHED for m in moves)


def may_conflict(a: Meaning, b: Meaning) -> bool:
    """Can the two rules apply in one context and disagree there? Semantic rules never conflict by
    meaning (their meaning is not known). (r55l) A note of cases may, in any of its cases, by that case's order."""
    if a.cases or b.cases:
        return any(may_conflict(x, y) for x in (a.cases or (a,)) for y in (b.cases or (b,)))
    if a.when is None or b.when is None or a.action is None or b.action is None:
        return False
    hosts = clash_hosts(a.action, b.action, positive_hosts(a.when), positive_hosts(b.when))
    if hosts is None:
        return False
    if not hosts:
        return may_overlap(a.when, b.when)
    return any(may_overlap_on(a.when, b.when, h, p_matched=_uses_matched(a.action), q_matched=_uses_matched(b.action))
               for h in sorted(hosts))


def conflict_in(a: Meaning, b: Meaning, situation: Situation) -> bool:
    """Do the two rules, both applying to `situation`, disagree about what to do in it?"""
    if a.when is None or b.when is None or a.action is None or b.action is None:
        return False
    # (r55l) a note of cases disputes in each case that may hold here by that case's own order (`_disputed_in_its_case`)
    return any(clash_hosts(x, y, xs, ys) is not None for x, xs in in_its_cases(a, situation) for y, ys in in_its_cases(b, situation))


def undisputed_hosts(rule: Meaning, others: Sequence[Meaning], situation: Situation,
                     held: Optional[Predicate] = None, unknown: frozenset[int] = frozenset()) -> frozenset[str]:
    """The hosts `rule` acts on in `situation` (its moves' hosts, given what its trigger matched here) about which
    none of `others` disagrees with it: where it is the only word. Empty when a disagreement is not about hosts
    (a host-less verb: one action per step) or a meaning is not known. `held`: the whole reading of a compiled rule's
    own words, which its predicate is held to at the gate: it speaks only for the hosts that reading matches too.
    `unknown`: the positions in `others` of parties whose condition is unknown here; each disputes the hosts it may
    match (`hosts_it_may_match`), as it does when the dispute is found."""
    said = rule.semantic
    rule = disputing(rule) or rule
    if rule.when is None or rule.action is None:
        return frozenset()
    # (a rule kept semantic speaks, by its words, for the hosts they say for sure: "restore compromised user hosts" is not
    # a word for a user row at Compromised Unknown, the row a Remove leaves, as its own reading is not: guard.confirmed;
    # nor does a compiled rule whose predicate is wider there, "any compromise", since its words hold it to that reading)
    mine = matched_hosts(_for_sure(rule.when) if said else rule.when, situation)
    if held is not None and not said:
        kept = set(matched_hosts(held, situation))
        mine = tuple(h for h in mine if h in kept)
    # (r55d) a note of cases speaks and is disputed by each case's own order, as the dispute was found (`conflict_in`): by
    # its stored action alone, "User2 scanned -> Analyse; User2 rooted -> Restore" beaten by "never Restore User2 when it
    # is rooted and scanned" was still undisputed on User2 (an Analyse), and both were injected
    own = in_its_cases(rule, situation, within=mine)
    free = set().union(*(_acted_on_here(m, hosts, situation) for action, hosts in own
                         for m in (*action.moves, action.over) if m is not None))
    preferred = set().union(*(_acted_on_here(action.move, hosts, situation) for action, hosts in own if action.over is not None))
    for position, other in enumerate(others):
        other = disputing(other) or other
        if other.when is None or other.action is None:
            return frozenset()
        # (r40h) a party whose condition is unknown here disputes the hosts it may match: read by what it matches for
        # sure (none), the rule it outranks spoke there as if nobody disputed it
        for action, hosts in own:
            for theirs_action, theirs in in_its_cases(other, situation, may=position in unknown):
                disputed = clash_hosts(action, theirs_action, hosts, theirs)
                if disputed is not None and not disputed:
                    return frozenset()
                free -= disputed or frozenset()
    # (r57h) a preference says nothing of the hosts it puts second but that its own move goes first: where every host of
    # that move is disputed ("when Op_Server0 falls, a Restore of it ahead of any Remove on a user box" against a narrower
    # "Op_Server0 at user level: Remove, never Restore"), no word of it is left for the user boxes, yet it was kept beside
    # its winner as the general rule
    return frozenset() if preferred and not free & preferred else frozenset(free)


def _acted_on_here(move, matched: Sequence[str], situation: Situation) -> frozenset[str]:
    """(r53l) The hosts a move acts on in this context: a move on a whole class ("never Restore a user host", aimed at the
    User class) acts here on the hosts of that class the context shows. Counted on the class's every host, a general rule
    beaten by another teacher's exception on the one user host shown still spoke "for" user hosts the context never
    showed, and was injected beside its exception as if it had the last word on them."""
    hosts = move.hosts(matched)
    if move.target in CLASS_TARGETS and situation:
        return hosts & frozenset(situation.shown())
    return hosts


def hosts_it_may_match(when: Predicate, situation: Situation) -> tuple[str, ...]:
    """The hosts of a predicate's positive atoms whose value here is not false (true or unknown)."""
    return tuple(dict.fromkeys(h for atom, negated in atoms_of(when) if not negated for h in atom.hosts()
                               if host_truth(atom, h, situation) is not False))


def _for_sure(when: Predicate) -> Predicate:
    from forge.rulebook.language.guard import confirmed  # lazy: guard.py reads more than this needs

    return confirmed(when)


def applies(meaning: Meaning, situation: Situation) -> bool:
    return meaning.when is not None and holds(meaning.when, situation)
