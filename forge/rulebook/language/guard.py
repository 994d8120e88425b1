"""The guard rest: which part of a compiler's `unexpressed` rest is a condition (`guard_rest`), and what it claims (`guard_claims`). Pure.

A justification or a story ("because ...", "lesson: ...", "last time we waited") and a restatement of what the
predicate already says ("the moment it is compromised") never guard: a rule is not silenced by its author's
reasons.

Also here, what every reading of claims is held to: whether `claims` read the whole of a condition, every negation
placed and no word left unaccounted for (`complete_claims`, `reads_whole`), the claims of a whole text where they
do (`whole_claims`), and a compromise said of a host or a class as the table confirms it (`confirmed`).
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache
from typing import Optional

from forge.env.catalog import HOSTS, HOST_CLASSES, QUIET_ACTIVITY, QUIET_COMPROMISE
from forge.rulebook.language.claims import NEW_SUBJECT, STATE_SPOKEN, claims, classes_counts_compared, moves_said_after
from forge.rulebook.language.clauses import order_without_conditions
from forge.rulebook.language.episode import episode_claims, without_episode_claims
from forge.rulebook.language.facts import facts_needed, hosts_compared
from forge.rulebook.language.forbidding import MOVE_UNAVAILABLE, denies_availability, sequenced_away
from forge.rulebook.language.general_claims import ALERTS_LISTING, ALL_QUIET, CLAUSE_BREAK, history_unread
from forge.rulebook.language.history_words import history_conditions, without_history
from forge.rulebook.language.instruction import EXCEPTED_ASIDE
from forge.rulebook.language.judged import evidence_away, evidence_tests, rating_away, without_evidence
from forge.rulebook.language.markers import CLASS_ONLY, GOAL_AVERTED, HARM_DENIED, negations_in
from forge.rulebook.language.names import (classes_in, hosts_in, named_in_full, state_words_in, unnamed_hosts, verbs_in,
                                           without_host_names)
from forge.rulebook.language.order import gives_order
from forge.rulebook.language.phases import unknown_phase_named
from forge.rulebook.language.remembered import remembered
from forge.rulebook.language.rule_claims import (CONCESSION, conceded_away, narrower_cases_away, rule_claims,
                                                 window_alone)
from forge.rulebook.language.scope import (branches_of, class_heading, class_scope_heading, classes_denied, condition_claims, subject_of,
                                           unplaced, without_exception)
from forge.rulebook.language.shorthand import NEWLY_GLOSSED, class_in_full, level_or_above_said, spelled_out
from forge.rulebook.language.situation import state_of as _state_of, without_either_value
from forge.rulebook.language.spelling import misspellings_mended
from forge.rulebook.language.wording import conditions_left_out, read_wording


# (the last lines: words that say a state is shown, as in "without evidence of a real compromise", or that it is
# shown now, "so far", "already"; the hosts other than the one named, `OTHER`; a scope singled out, "for Enterprise2
# specifically", "for User1 in particular", which is that host and no more; r40h: "held", the attacker's hold as situation.py reads
# it, "while Enterprise2 is held"; r44h: "somewhere", as "anywhere": some host, which `GENERAL_SUBJECT` reads, "probed
# somewhere while no box anywhere is held"; left unplaced, the reading was partial and its denial of any compromise one no
# row showed false, so the rule fired where the other hosts were not shown)


# (r58n) What is left of a condition once its windows of steps are read, where an "only" led them ("only before step 5",
# "only in steps 28-30"): that "only" holds the rule to the window, which the window says; it restricts nothing else.
# Left, it was a restriction the claims placed nowhere, and a rule guarded by "only in the last steps" was never read.
_ONLY_THE_WINDOW = re.compile(r"^[\s,;:()]*only(?:\s+(?:in|during|within|at|on|over))?[\s,;:().]*$", re.I)


# Two states joined by "or" ("Compromised User or Compromised Privileged"): claims read one of them.
# (not the "or" of a count: "a probe plus three or more servers hacked" states no two states as one)
_EITHER_STATE = re.compile(r"\b(?:compromis\w*|exploit\w*|scan\w*|privileged|root\w*|user[- ]level|activity)\b[^.;,]{0,30}\bor\b(?!\s+(?:more|fewer|less)\b)"
                           r"[^.;,]{0,30}\b(?:compromis\w*|exploit\w*|scan\w*|privileged|root\w*|user[- ]level|activity|unknown)\b", re.I)


@remembered(maxsize=8192)  # (asked again of each rule by the checks, the gate and the compiler)
def complete_claims(text: str, found) -> bool:
    """Whether `claims` read the whole of a rule's conditions: every negation placed, no word it does not account
    for, and no kind of fact it cannot judge (history, rewards, ...). Judged on claims that are not the whole of
    the condition, a rule would be wider than its text."""
    text = narrower_cases_away(text)  # (r44m: a later case that only picks another move is none of its conditions)
    words = read_wording(text)
    unresolved: list = []
    condition_claims(words, unresolved)
    # (a class heading whose only negation is the hosts it excepts, "Op hosts other than Op_Server0", is read without
    # them: `class_heading`)
    headings = {c.text for c in words.conditions if class_heading(c.text, words) is not None
                or class_scope_heading(words) and c.text.strip() == words.situation.strip()}  # (r58m: or a class's scope)
    # (r45m: nor "until step 10", a window of steps and nothing more: its "until" is the window's bound, its EpisodeStep)
    negated = [c for c in words.negated_conditions  # ("unless it is User0" is the exception: no claim at all)
               # (r54b: not a bracketed aside's host, "... (not User2)": `_aside_left_out` places that, where the rest is held)
               if not (c.hosts and set(c.hosts) <= set(words.excepted) and not c.classes and not EXCEPTED_ASIDE.search(c.text))
               and c.text not in headings
               and not _exception_left_out(c, words, found) and not _aside_left_out(c, words, found)
               and not window_alone(c.text)]
    # (r37m: in a note of cases, each case's negation is placed in its own alternative: `_case_denials_placed`)
    cases = _case_denials_placed(words, found, negated) if negated else None
    # (a host singled out by words the reading does not name, "the second enterprise server", is left out of it)
    # (r54m: a bracketed aside that leaves hosts out, and that the claims leave out, is read: as "except" would be)
    asides = {c.text for c in words.conditions if _aside_left_out(c, words, found)}
    return not unresolved and cases is not False and reads_whole("; ".join(without_exception(c.text) if c.text in headings
                                                                           else EXCEPTED_ASIDE.sub(" ", c.text) if c.text in asides
                                                                           else c.text for c in words.conditions), found,
                                                                 negated=bool(negated) and cases is None, resolved=True) \
        and not conditions_left_out(text) and not unnamed_hosts(f"{words.situation} {words.instruction}") \
        and not _hosts_unclaimed(words, found) and not _classes_unclaimed(words, found) and not _order_states_unread(words, found) \
        and not _left_out_class_claimed(text, found) \
        and not unknown_phase_named(f"{words.situation} {words.instruction}")  # (r61h: "early on", no step window to ask)


def _case_denials_placed(words, found, negated) -> Optional[bool]:
    """For a text whose conditions are cases, each heading its own order (`branches_of`), claimed as one alternative
    each: whether every case that negates or restricts has a denial in its own alternative ("E0 scan only -> decoy it;
    E0 under exploit -> Remove it": the "only" of the first case is its Compromised No, and the second case denies
    nothing). None where the text is no such note (the negations are then looked for in the claims as a whole)."""
    from forge.rulebook.language.predicate import AllOf, AnyOf  # lazy: as in `claims`

    found_cases = branches_of(words)
    if not found_cases or found is None:
        return None
    groups = found_cases[0]
    either = next((p for p in (found.parts if isinstance(found, AllOf) else (found,))
                   if isinstance(p, AnyOf) and len(p.parts) == len(groups)), None)
    if either is None:
        return None
    denying = {c.text for c in negated}
    return all(_denies_somewhere(alternative) for group, alternative in zip(groups, either.parts)
               if any(words.conditions[i].text in denying for i in group))


def _denies_somewhere(p) -> bool:
    """Whether claims hold a negation or a quiet value anywhere in them."""
    from forge.rulebook.language.predicate import Atom, Not  # lazy: as in `claims`

    if isinstance(p, Not) or isinstance(p, Atom) and (p.compromise == QUIET_COMPROMISE or p.activity == QUIET_ACTIVITY):
        return True
    return any(_denies_somewhere(q) for q in getattr(p, "parts", ()))


_EXCEPTING_WORD = re.compile(r"^(?:except(?:\s+for)?|other\s+than|apart\s+from|aside\s+from|excluding|save\s+for|barring|but\s+not)$",
                             re.IGNORECASE)


def _exception_left_out(condition, words, found) -> bool:
    """Whether a condition's only restriction is the hosts it excepts, and the claims leave every one of them out ("Unknown
    on any enterprise host except Enterprise1", claimed of Enterprise0 and Enterprise2: r32m): its negation is placed, by what is not claimed."""
    from forge.rulebook.language.predicate import positive_hosts  # lazy: as in `claims`

    return bool(condition.negations and condition.hosts) and all(_EXCEPTING_WORD.match(n) for n in condition.negations) \
        and set(condition.hosts) <= set(words.excepted) and not set(condition.hosts) & positive_hosts(found)


def _aside_left_out(condition, words, found) -> bool:
    """(r54m) Whether a condition's only negation is a bracketed aside that leaves hosts out ("probed user boxes (not User2
    though", instruction.EXCEPTED_ASIDE), and the claims leave every one of them out: its negation is placed, by what is
    not claimed, as an "except" would be (`_exception_left_out`)."""
    from forge.rulebook.language.predicate import positive_hosts  # lazy: as in `claims`

    asides = list(EXCEPTED_ASIDE.finditer(condition.text))
    left_out = {h for m in asides for h in hosts_in(m["what"])}
    rest = EXCEPTED_ASIDE.sub(" ", condition.text)
    return bool(asides and left_out) and left_out <= set(words.excepted) and not negations_in(rest) \
        and not left_out & positive_hosts(found) and not _said_unclaimed(rest, found) \
        and not set(hosts_in(rest)) - positive_hosts(found) and not _aside_goes_on(words)


def _aside_goes_on(words) -> bool:
    """(r54b) Whether a bracketed aside that leaves a host out says more of hosts after it, "(not User2 though, nor User3)":
    the condition is cut at its comma, and what follows (another host left out) is read nowhere."""
    said = f"{words.situation} {words.instruction}"
    for m in EXCEPTED_ASIDE.finditer(said):
        tail = said[m.end():].split(")", 1)[0]
        if hosts_in(tail) or classes_in(tail) or negations_in(tail) or re.search(r"\b(?:nor|neither|except|but)\b", tail, re.IGNORECASE):
            return True
    return False


def _said_unclaimed(condition: str, found) -> bool:
    """(r54b) Whether a condition says a state or history ("while it is being exploited", "if it stayed rooted for 3
    steps") that no claim holds: read beside a bracketed aside, the claims lost the condition, and the aside placed, they
    stood for the whole of it (a Restore on a user box rooted, not under exploit; rooted that very step). A state said
    denied is not looked for: left unread."""
    from forge.rulebook.language.predicate import atoms_of  # lazy: as in `claims`

    atoms = [atom for atom, _ in atoms_of(found)] if found is not None else []
    (activity, compromise), denied = _state_of(condition)
    if denied is not None or activity and not any(atom.activity == activity for atom in atoms) \
            or compromise and not any(atom.compromise == compromise for atom in atoms):
        return True
    said = history_conditions(condition) if "history" in facts_needed(condition) else {}
    return said is None or "history" in facts_needed(condition) and not said \
        or any(all(getattr(atom, key, None) is None for atom in atoms) for key in said)


# The pieces of an order read with no condition apart from it: "OpS0 quiet + no usr host owned -> Sleep is fine",
# "E0: clean at prev step, now owned -> plan Remove E0"
_ORDER_PIECES = re.compile(r"[,;:+?!]|->|\band\b|\bthen\b", re.IGNORECASE)


def _order_states_unread(words, found) -> bool:
    """Whether a piece of a rule's order outside its conditions, one that states a state and names no verb ("E0: clean
    at prev step, now owned -> plan Remove E0": the heading "E0" read as the condition, or nothing read as one), says
    what its claims do not: a state the reading cannot place whole (a history, "clean at prev step"), or one the claims
    do not imply ("owned now" beside claims that only ask E0 be shown). Such claims were read from the rest of the
    text alone, and would make the rule wider than its text."""
    from forge.rulebook.language.predicate import implies  # lazy: as in `claims`

    if found is None or ":" not in words.instruction:
        return False
    # (only the situation a heading states before its order, "<host>: <states>: <order>", or "<states> -> <order>")
    rest = words.instruction.rsplit(":", 1)[0]
    for c in words.conditions:
        rest = rest.replace(c.text, " ")
    subject = subject_of(words)
    for piece in _ORDER_PIECES.split(named_in_full(rest)):
        if not state_words_in(piece) or verbs_in(piece) or GOAL_AVERTED.search(piece):
            continue  # (r58m: nor the goal the order serves, markers.GOAL_AVERTED, no condition)
        said = claims(piece, subject)
        if said is None or not reads_whole(piece, said, subject=subject) or not implies(found, said):
            return True
    return False


def _hosts_unclaimed(words, found) -> bool:
    """Whether a host the conditions name (not one they except) is in none of the claims' atoms: what they said of it
    was not read ("no ent srv compromised + OpS0 quiet" read with OpS0 left out claimed the enterprise servers alone),
    so the claims are not the whole of the condition."""
    from forge.rulebook.language.predicate import atoms_of  # lazy: as in `claims`

    named = {h for c in words.conditions for h in c.hosts} - set(words.excepted)
    if not words.conditions:
        # no condition read apart from the order ("OpS0 quiet + no usr host owned -> Sleep is fine"): the claims are read
        # from the order's own words, and a host it names that none of them holds was dropped from that reading
        # (a host the order only acts on, "... then DecoyTomcat on Ent1", is its target: only one with a state said in
        # its own piece of the order counts)
        named = {h for piece in _ORDER_PIECES.split(words.instruction) if state_words_in(piece)
                 for h in hosts_in(piece)} - set(words.excepted) - set(words.contrasted)
    claimed = {h for atom, _ in atoms_of(found) if atom.host is not None for h in atom.hosts()}
    return bool(named - claimed)


def _classes_unclaimed(words, found) -> bool:
    """(r54m) Whether a host class the conditions name is in none of the claims' atoms, neither as the class nor as one of
    its hosts: "decoy it (op boxes only) once a machine is probed" read as any host probed left the class out, and the
    claims were wider than the condition."""
    from forge.rulebook.language.predicate import atoms_of  # lazy: as in `claims`

    # (and a class the rule is said to be for alone, wherever it stands: markers.CLASS_ONLY)
    # (not a class named only to set the host apart from it, "an ent server under exploit, unlike a user box")
    named = {cls for c in words.conditions for cls in c.classes if cls not in classes_denied(c.text)} \
        | {cls for m in re.finditer(CLASS_ONLY, f"{words.situation} {words.instruction}", re.IGNORECASE) for cls in classes_in(m.group(0))}
    atoms = [atom for atom, _ in atoms_of(found)] if found is not None else []
    return any(not any(atom.host_class == cls or atom.host is not None and set(atom.hosts()) <= set(HOST_CLASSES[cls])
                       for atom in atoms) for cls in named if cls in HOST_CLASSES)


# (r58h) A host class the text leaves out of its rule, in the order's sentence or a clause of its own: "..., except on
# the op boxes", "rule 4 does not hold for user hosts", "never applies to enterprise servers"
_CLASS_LEFT_OUT = re.compile(
    r"\b(?:except(?:\s+(?:on|for|in|at|with))?|excluding|other\s+than|apart\s+from|save\s+(?:on|for)|"
    r"(?:does|do|shall|will|should|must|is|are|can)\s*(?:not|n['\u2019]t)\s+(?:be\s+)?(?:apply|applied|hold|count)\s+(?:to|on|for|in)|"
    r"never\s+(?:applies|holds)\s+(?:to|on|for|in))\s+(?:the\s+|any\s+|an?\s+)?(?P<what>[\w-]+(?:[\s-]+[\w-]+){0,2})",
    re.IGNORECASE)


def _left_out_class_claimed(text: str, found) -> bool:
    """(r58h) Whether the text leaves a host class out of its rule (`_CLASS_LEFT_OUT`: "except on the op boxes", "rule 4
    does not hold for user hosts") and the claims may still hold on a host of it, with no denial of that class:
    the exception was read nowhere (said in a clause of its own, the reading of the order's sentence never saw it), and the
    claims stood for the whole of a condition they are wider than."""
    # ((r58a) nor whole while a class is set apart and then denied, `classes_set_apart_denied`: which hosts the rule is
    # for, the claims do not say)
    return bool(classes_set_apart_denied(text)) or found is not None and bool(left_out_classes_asked(text, found))


# ("nothing other than workstations", "no box except the op ones": the exception after a denial of all else is the only
# class the rule is for, the opposite of leaving it out)
_ALL_ELSE_DENIED = re.compile(r"\b(?:nothing|none|nobody|no(?:\s+[\w-]+){0,2}|nowhere|never|not\s+(?:a|any|one)(?:\s+[\w-]+)?)\s*,?\s*$",
                              re.IGNORECASE)


# (r58a) The hosts set apart from a class denied in their turn: "never any other than the user hosts", "anything other
# than op hosts stays untouched", "boxes other than user boxes are left alone". The class is then the only one the rule
# is for, not one it leaves out: read as left out, the claims held on every other class's hosts, the opposite of the
# words. (After a comma or a "which", "other than the op hosts, which are left alone", the denial is of the class.)
_SET_APART_DENIED_BEFORE = re.compile(r"\b(?:never|not)\s+(?:any|anything|anyone|ones?|those)\s*,?\s*$", re.IGNORECASE)
_SET_APART_DENIED_AFTER = re.compile(r"^[^.;:!?\n,]*?\b(?:untouched|alone|spared|exempt(?:ed)?|out\s+of\s+scope|excluded|left\s+out|"
                                     r"off[\s-]limits|ignored|"
                                     r"(?:is|are|be|gets?|stays?|remains?)\s+(?:never|not)\b|(?:isn|aren|won)['\u2019]t\b)",
                                     re.IGNORECASE)


# (r59l) A class said by its word and "ones" standing for the hosts named before: "hosts other than the user ones",
# "boxes apart from the op ones" (read as no class, the hosts set apart were no class the rule kept to or left out).
_CLASS_ONES = re.compile(r"\b(user|usr|enterprise|ent|op|ops|operational)[\s-]+ones\b", re.IGNORECASE)


def _class_words_left_out(text: str, *, denied: bool):
    """The class words of each `_CLASS_LEFT_OUT` exception in `text` whose set-apart hosts are denied in their turn
    (`denied`: `_SET_APART_DENIED_BEFORE` / `_AFTER`) or not, never after a denial of all else (`_ALL_ELSE_DENIED`).
    Read with its misspellings mended, as the claims read it: "other than the enterprize hosts", "excpet on the op
    hosts", read as written, left nothing out, while the claims read the class as the rule's own condition, and held
    only where the text says the rule does not."""
    text = misspellings_mended(text or "")
    for m in _CLASS_LEFT_OUT.finditer(text):
        if _ALL_ELSE_DENIED.search(text[:m.start()]):
            continue
        if bool(_SET_APART_DENIED_BEFORE.search(text[:m.start()]) or _SET_APART_DENIED_AFTER.search(text[m.start("what"):])) == denied:
            yield _CLASS_ONES.sub(r"\1 hosts", m["what"])


def classes_left_out(text: str) -> set[str]:
    """(r58h) The host classes a text leaves out of its rule (`_CLASS_LEFT_OUT`), not after a denial of all else
    (`_ALL_ELSE_DENIED`), nor (r58a) set apart and then denied (`classes_set_apart_denied`)."""
    return {cls for what in _class_words_left_out(text, denied=False) for cls in classes_in(what) if cls in HOST_CLASSES}


def classes_set_apart_denied(text: str) -> set[str]:
    """(r58a) The host classes whose set-apart hosts the text denies in their turn ("anything other than op hosts stays
    untouched"): the only classes its rule may be for."""
    return {cls for what in _class_words_left_out(text, denied=True) for cls in classes_in(what) if cls in HOST_CLASSES}


def left_out_classes_asked(text: str, found) -> set[str]:
    """(r58h) Of the classes `text` leaves out (`classes_left_out`), those a positive atom of `found` (claims or a
    predicate) may match a host of, where no negated atom of it speaks of that class or its hosts."""
    from forge.rulebook.language.predicate import atoms_of, positive_hosts  # lazy: as in `claims`

    left_out = classes_left_out(text)
    if not left_out:
        return set()
    denied = {h for atom, negated in atoms_of(found) if negated for h in atom.hosts()}
    return {cls for cls in left_out if positive_hosts(found) & set(HOST_CLASSES[cls]) and not denied & set(HOST_CLASSES[cls])}


def reads_whole(condition: str, found, *, negated: Optional[bool] = None, subject: Optional[str] = None,
                resolved: bool = False) -> bool:
    """Whether claims `found` are the whole of `condition` (see `complete_claims`); `negated`: whether it negates
    or restricts (None: read from its words); `subject`: the host its "it" stands for (`resolved`: the caller has
    tied every "it" already)."""
    from forge.rulebook.language.predicate import AllOf, AnyOf, Atom, Not  # lazy: as in `claims`

    if found is None:
        return False
    condition = rating_away(moves_said_after(condition))  # (r39m) a rating of the one host named: judged.py reads it, the gate judges it
    condition = hosts_compared(sequenced_away(condition))[1]  # (r43m) two named hosts' levels compared: read by `claims`
    condition = classes_counts_compared(condition)[1]  # (r46m) and two classes' counts
    condition = ALERTS_LISTING.sub(" in the alerts ", condition)  # (r43m) "the alerts list N hosts": read by `_listed`
    if episode_claims(condition or "") and set(episode_claims(condition)) <= set(found.parts if isinstance(found, AllOf) else (found,)):
        condition = without_episode_claims(condition)  # (r36m) the windows of steps the claims hold are read
        condition = _ONLY_THE_WINDOW.sub("", condition)  # (r58n) and the "only" that held the rule to them
    condition = NEWLY_GLOSSED.sub(r"\1", condition or "")  # (the gloss of "newly" says what it says)
    clauses = CLAUSE_BREAK.split(condition)
    # (two states joined by "or" are read as one of them, unless every host is said quiet: "no host shows any activity
    # or compromise")
    if any(unplaced(spelled_out(without_history(c) if "history" in facts_needed(c) else c)) for c in clauses) \
            or facts_needed(condition) - {"history"} or history_unread(condition) \
            or _EITHER_STATE.search(without_either_value(condition)) and not ALL_QUIET.search(condition) \
            or any(_state_unread(c, subject) or _piece_unread(c, subject) for c in clauses):
        return False
    unresolved: list = []
    claims(condition, subject, unresolved)
    if unresolved and not resolved:
        return False
    if not (bool(negations_in(condition)) if negated is None else negated):
        return True
    parts = found.parts if isinstance(found, AllOf) else (found,)
    # (a class's host that shows one state and denies another, "a user host exploited, not rooted", or one of a few
    # hosts, "whichever of E1 and E2 is probed, no more than that": each of its alternatives places the denial)
    parts = tuple(q for p in parts for q in ([p] if not isinstance(p, AnyOf) or not all(
        _denial_placed(a) for a in p.parts) else [Not(p)]))
    return any(isinstance(p, Not) or isinstance(p, Atom) and QUIET_COMPROMISE == p.compromise
               or isinstance(p, Atom) and p.activity == QUIET_ACTIVITY
               # a whole subnet said quiet, its hosts each quiet ("the user subnet is quiet and ..."): a group of its own
               or isinstance(p, AllOf) and all(_denial_placed(q) for q in p.parts)
               # a history of absence: clean before ("newly"), unchanged, not changed by an action
               or isinstance(p, Atom) and (p.newly_compromised is not None or p.unchanged_for is not None
                                           or False in (p.changed, p.scan_before_exploit)) for p in parts)


def _denial_placed(alternative) -> bool:
    """Whether one alternative of claims places a denial: a negation, or a quiet value (Compromised No, Activity None),
    in itself ("User2 at a scan and no compromise") or in one of its parts."""
    from forge.rulebook.language.predicate import AllOf, Atom, Not  # lazy: as in `claims`

    def quiet(q) -> bool:
        return isinstance(q, Not) or isinstance(q, Atom) and (q.compromise == QUIET_COMPROMISE or q.activity == QUIET_ACTIVITY)
    return quiet(alternative) or isinstance(alternative, AllOf) and any(quiet(q) for q in alternative.parts)


def _state_unread(clause: str, subject: Optional[str] = None) -> bool:
    """Whether a clause speaks of a state (STATE_SPOKEN) that `claims` reads as none: only bare hosts."""
    from forge.rulebook.language.predicate import atoms_of  # lazy: as in `claims`

    if not STATE_SPOKEN.search(clause):
        return False
    found = claims(named_in_full(clause), subject)  # (a host in shorthand, "OpS0 @ Unknown", is a host all the same)
    if found is None:
        return False
    atoms = [atom for atom, _ in atoms_of(found)]
    return all(atom.bare() for atom in atoms) or _level_unread(clause, atoms)


_DENIAL_FIRST = re.compile(r"\s*(?:no|not|never|nothing|none|without)\b", re.IGNORECASE)


def _piece_unread(clause: str, subject: Optional[str] = None) -> bool:
    """Whether a piece of a clause (as `claims` splits it: "Scan seen, nothing compromised yet") speaks of a state, is
    placed nowhere on its own and adds nothing to what the clause claims: read without it, the clause claims the same
    ("Scan seen" placed nowhere, only "nothing compromised" read), so the reading is not the whole of it."""
    pieces = [p for p in NEW_SUBJECT.split(spelled_out(clause)) if p and p.strip()]
    if len(pieces) < 2 or "history" in facts_needed(clause):
        return False
    found = claims(clause, subject)
    if found is None:
        return False  # (nothing placed here at all, an "it" this call cannot tie: no piece to tell apart)
    # (a piece read on its own that only restates another, "nothing happening, no host showing activity", is read; so
    # is a denial another piece implies, "it only shows a scan and no compromise")
    return any(STATE_SPOKEN.search(piece) and not _DENIAL_FIRST.match(piece) and claims(piece, subject) is None
               and claims(" and ".join(pieces[:i] + pieces[i + 1:]), subject) == found for i, piece in enumerate(pieces))


# Words that name one compromise level of the table. A clause that says one, read as no atom at that level, was read
# wider than its words ("a host that has shown Unknown for four steps" read as any compromise held for four steps).
_LEVEL_SPOKEN = (
    (re.compile(r"\bunknown\b", re.IGNORECASE), "Unknown"),
    (re.compile(r"\bprivileged\b|\broot(?:ed)?\b|\badmin(?:istrator)?\b|\bsystem[- ]level\b", re.IGNORECASE), "Privileged"),
    (re.compile(r"\buser[- ]level\b", re.IGNORECASE), "User"),
)


def _level_unread(clause: str, atoms) -> bool:
    """Whether the clause names a compromise level (_LEVEL_SPOKEN) that no atom of its reading holds, the reading
    placing no level of its own either ("at user level (not root)" read as User is read: it excludes root)."""
    levels = {atom.compromise for atom in atoms}
    if levels - {None, "any"}:
        return False
    # (two levels joined by "or", "at user level or root", are either: read as any compromise; (r46m) so is a level "or
    # above", `level_or_above_said`)
    clause = level_or_above_said(clause)
    return any(pattern.search(without_either_value(clause)) and level not in levels for pattern, level in _LEVEL_SPOKEN)


_REASON_OR_STORY = re.compile(
    r"^\s*(?:because|since(?!\s+(?:before|then|earlier|the\s+(?:last|previous|prior|start|beginning|first)|step|last|it\s+(?:was|got|became)))|as\b|so\s+that|so\b|in\s+order\s+to|to\s+(?:avoid|prevent|stop|keep|make\s+sure|save)|"
    r"otherwise|lesson|the\s+lesson|learn[te]d|last\s+time|earlier|that\s+way|this\s+(?:way|cost|happened)|"
    r"which|it\s+(?:is|was)\s+(?:the|a|our|their)\b|(?:i|we|my|our)\b)", re.IGNORECASE)


_RESTATED = frozenset("""a an the any some every each all its it it's that this those these is are was were be been being
    has have had gets get got becomes become shows show showing shown showed still so and or of on in at to for from by
    with as when whenever if once while moment soon immediately right away now then there host hosts machine machines
    box boxes server servers one sign signs kind attacker red compromised compromise compromises exploited exploit
    exploits exploiting scanned scan scans scanning probed probing breached breach infected hacked owned attacked
    activity active alert alerts privileged privilege root rooted admin user-level level user enterprise operational
    op workstation workstations quiet clean no not up under way underway ongoing progress going happening started
    begun begins starts phase stage only yet nothing none never without but""".split())


_LEFT_ALONE = re.compile(r"^(?:leave|keep|stay|hands)\s+(?:it\s+|them\s+)?(?:out|alone|away|off|be)(?:\s+of\s+(?:it|this|that|the\s+plan))?$",
                         re.IGNORECASE)


# (r34m) A rest that tells what another branch of a decision tree or checklist does ("second branch (probed only): a
# decoy instead", "branch 3: Analyse it", "user-level branch: Remove it rather than Restore"): the predicate holds the
# branches' conditions, and the rest says what is done in one of them, never when the rule applies. Read as a guard it
# could never be judged, and the rule was silent everywhere. (A rest that says which host the move is for, "target: the
# clean one", is still read as a guard: a predicate written "compromise any" for "owned" would otherwise speak where a
# host is only at Unknown.)
# (r39m: and another case, "case 2: an op box under exploit -> Restore", "other cases: ...", as a note of cases labels it)
_OTHER_BRANCH = re.compile(r"^\s*(?!(?:just\s+)?in\s+case\b)(?:[\w-]+\s+){0,2}(?:branch|case|cases)(?:\s+\d+)?\s*(?:\([^)]*\)\s*)?:", re.IGNORECASE)


# (r55n) A branch that the text puts after the rule's own case, in an if/else chain: "else if ...", "otherwise ...", "or
# else ...". It applies only where the case before it does not: read as a guard, its state kept the rule silent in its own case.
_ELSE_BRANCH = re.compile(r"^\s*(?:else|otherwise|or\s+else)\b", re.IGNORECASE)


def _order_words_alone(rest: str, source: str) -> bool:
    """(r45m) Whether a rest is made only of words of its text's order, outside its conditions, and states nothing ("you
    plan" of "... you plan a Remove of User4 yourself"): who makes the move or how, no condition of it."""
    words = read_wording(source)
    order = order_without_conditions(words.instruction, words.conditions).lower()
    said = re.findall(r"[a-z][a-z'-]*", rest.lower())
    return bool(said) and not STATE_SPOKEN.search(rest) and not negations_in(rest) and not hosts_in(rest) \
        and not classes_in(rest) and all(re.search(rf"\b{re.escape(w)}\b", order) for w in said)


_HARM_DENIED = re.compile(HARM_DENIED, re.IGNORECASE)


def _harm_denied_alone(rest: str, source: str) -> bool:
    """(r59m) Whether a rest is the writer's advice said by denying its harm (markers.HARM_DENIED: "wouldn't hurt to
    drop", "no harm in"), with nothing else but words of the text that say no state, host, class, denial or time: how the order is urged,
    no condition of it. Read as a condition it placed nothing, and the rule was silent where its trigger held."""
    if not _HARM_DENIED.search(rest) or not _HARM_DENIED.search(source):
        return False
    left = _HARM_DENIED.sub(" ", rest)
    said = re.findall(r"[a-z][a-z'-]*", left.lower())
    # (what is left, words of the source's own that name no state, host, class, denial or time: "drop", "to put a")
    return not STATE_SPOKEN.search(left) and not negations_in(left) and not hosts_in(left) and not classes_in(left) \
        and not _WHEN_WORD.search(left) and all(re.search(rf"\b{re.escape(w)}\b", source.lower()) for w in said)


_WHEN_WORD = re.compile(r"\b(?:when\w*|if|while|once|after|before|until|unless|during|since|as\s+long|phase|stage|step|turn)\b",
                        re.IGNORECASE)


def guard_rest(rest: str, when=None, source: str = "", action=None) -> str:
    """The part of an `unexpressed` rest that is a condition and so guards ("" if it is none): a rest that
    speaks of a kind of fact (history, rewards, ...) is a condition; a justification or a story never is (nor a
    rest whose words all come from the story or justification of the rule's `source` text, none from its
    instruction: "Compromised workstations spread the attack. Restore any ..." listed as "spread attack"), and
    neither is a restatement of the predicate `when` (what the rest claims, read whole, the predicate already
    implies: "the moment it is compromised"), nor, where the rest claims nothing this reading can place, one made
    only of the words of hosts and states, nor (given the rule's own `action`) one that only orders other moves in
    other cases (`_orders_other_moves`)."""
    text = _kind_parts_away(" ".join((rest or "").split()), when)
    if not text or source and _outside_instruction(text, source):
        return ""
    if _other_branches(text):
        return ""  # (r34m) another branch's move: never when the rule applies
    if source and when is not None and _said_whole(source, when):
        # (r39m: before the kinds of fact: a rest that speaks of history, "next three steps", adds nothing where the product
        # reads the whole condition, its history too, and the predicate implies it; kept, an unreadable rest silenced the rule)
        return ""
    if when is not None and _history_restated(text, when):
        return ""  # (r46m) "clean previous step" beside a predicate that asks a fresh compromise: said already
    if facts_needed(text):
        return text
    if _another_case_order(text):
        return ""  # (r37m) what is done in another case: never when the rule applies
    if action is not None and _orders_other_moves(text, action, when):
        return ""  # (r56l) another case's own move, "otherwise Restore it" beside a Remove: never the rule's own case
    if action is not None and _fallbacks_case(text, action):
        return ""  # (r57m) "an Analyse only if no Remove is open to us" beside a Remove: the fallback's case
    if source and _said_aside(text, source):
        return ""
    if _answer_or_move_kind(text, when):
        return ""  # (r52m) the wording of the answer, or which of a kind of move: what is done, not when
    if _REASON_OR_STORY.match(text) or read_wording(text).gives_order is False and _STORYLIKE.search(text):
        return ""
    if _LEFT_ALONE.match(text):
        return ""  # the order itself, "leave out", "leave alone": what the move is, not when
    if source and _order_words_alone(text, source):
        return ""  # (r45m) words of the order itself, "you plan", "yourself": who makes the move, not when
    if source and _harm_denied_alone(text, source):
        return ""  # (r59m) "wouldn't hurt to drop": the writer's urging of the order, not when it applies
    if verbs_in(text) and _state_of(text) == ((None, None), None) and not hosts_in(text) and not classes_in(text) \
            and not negations_in(text) and not re.search(r"\b(?:when|whenever|if|while|once|after|until|unless)\b", text, re.I):
        return ""  # about the move, not when it applies: "Remove is as good as Restore here", "any Decoy verb"
    if when is not None and _named_hosts_only(text, when):
        return ""  # (r53l) "the two named user hosts only, not User0": the hosts the trigger names, said again
    found = _rest_claims(text, when)
    if found is not None:
        from forge.rulebook.language.predicate import implies  # lazy: as in `claims`

        return "" if when is not None and implies(when, found) else text
    words = [w for w in re.findall(r"[a-z][a-z'-]*", text.lower()) if not re.fullmatch(r"(?:user|enterprise|op_host|op_server)\d", w)]
    if all(w in _RESTATED for w in words):
        return ""
    return text


# (r53l) A rest that keeps the rule to the hosts the text names, and sets others apart: "the two named user boxes only",
# "only the listed hosts", ", not Op_Server0".
_NAMED_ONLY = re.compile(r"^\s*(?:only\s+)?(?:the\s+)?(?:(?P<count>two|three|four|five|[2-5])\s+)?(?:named|listed|mentioned|above)\s+"
                         r"(?:(?:user|enterprise|op|ops|operational)[\s-]+)?(?:hosts|boxes|machines|servers|workstations|nodes|ones)"
                         r"(?:\s+only)?(?P<rest>(?:\s*[,;]?\s*(?:but\s+|and\s+)?not\s+[^,;.]+)*)\s*\.?\s*$", re.IGNORECASE)
_COUNTS = {"two": 2, "three": 3, "four": 4, "five": 5}


def _named_hosts_only(text: str, when) -> bool:
    """(r53l) Whether a rest only keeps the rule to the hosts its trigger names (`_NAMED_ONLY`): a trigger on named hosts
    alone, as many as the rest counts, of the class it names, and any host it sets apart ("not Op_Server0") one the trigger
    cannot match. Read as a condition it placed nothing, and the rule was silent where its trigger held."""
    from forge.rulebook.language.predicate import atoms_of, positive_hosts  # lazy: as in `claims`

    found = _NAMED_ONLY.match(text)
    if found is None or any(atom.host is None for atom, negated in atoms_of(when) if not negated):
        return False
    named = set(positive_hosts(when))
    count = found["count"]
    if not named or count and _COUNTS.get(count.lower(), int(count) if count.isdigit() else 0) != len(named):
        return False
    classes = classes_in(text[:found.start("rest")])
    if classes and not all(any(h in HOST_CLASSES[c] for c in classes) for h in named):
        return False
    apart = hosts_in(found["rest"])
    return (not found["rest"].strip() or bool(apart)) and not set(apart) & named \
        and not classes_in(found["rest"]) and not state_words_in(found["rest"])


# (r52m) What the role writes, never when its rule applies: the wording of its answer ("the top line's wording", "a
# one-line plan", "what the report says first", "how the analysis is worded for Op_Host1") and which moves of a kind the
# order means ("any decoy verb on Op_Host1", "every decoy move on the enterprise hosts"). A compiler lists them as
# unexpressed because the action cannot hold them; read as a guard, they claimed nothing the product could place, and
# the rule was silent wherever its predicate held.
_ANSWER_FORM = re.compile(r"\b(?:wording|worded|phrasing|phrased|(?:first|last|opening|top)\s+(?:line|word|sentence)s?|"
                          r"one[- ]line|how\s+the\s+(?:report|plan|analysis)\s+is\s+(?:written|worded)|"
                          r"what\s+the\s+(?:report|plan|analysis)\s+(?:says|calls)|"
                          # (r57m) "the rating word in the record", "a word of the analysis", "the words of the report", "a
                          # word the record may never use": which words the answer holds, as its wording
                          r"(?:the|a|an)\s+(?:(?:risk|rating|status)\s+)?words?\s+(?:of|in)\s+the\s+(?:report|record|analysis|rating)|"
                          r"(?:a|the|any)\s+words?\s+the\s+(?:report|record|analysis)\s+(?:must|should|may)\s+(?:not\s+|never\s+)?use)\b",
                          re.IGNORECASE)
_MOVE_KIND = re.compile(r"^(?:any|every|each|all)\s+(?:of\s+the\s+)?decoy\s+(?:verb|move)s?\b", re.IGNORECASE)
# a fact of the analyst's evidence or a condition word: a part that says one is a condition, whatever else it says
_FACT_OR_CONDITION = re.compile(r"\b(?:ports?|connections?|shells?|files?|process(?:es)?|when|whenever|if|while|once|after|"
                                r"before|until|unless|since|steps?|"
                                # (r57b) a time of the game, "but only on the second turn", "in the last rounds": a
                                # condition, whatever wording the part also names
                                r"turns?|rounds?|episodes?|games?|only\s+(?:on|in|at|for|during|from))\b", re.IGNORECASE)


def _kind_parts_away(rest: str, when) -> str:
    """(r58n) A rest of parts (split at ";") without those that only say which moves of a kind the order means or how
    the answer is worded (`_answer_or_move_kind`, part by part), where another part is left: "any decoy move; only
    after step 24" guards by its window alone. What is done is never when it applies; kept, the whole rest was
    read as a condition the product could not place, and the rule was silent in its own window."""
    parts = [part.strip() for part in rest.split(";") if part.strip()]
    kept = [part for part in parts if not _answer_or_move_kind(part, when)]
    return "; ".join(kept) if len(parts) > 1 and kept and len(kept) < len(parts) else rest


def _answer_or_move_kind(rest: str, when) -> bool:
    """Whether every part of a rest (split at ";") is another branch (`_OTHER_BRANCH`), the wording of the role's answer
    (`_ANSWER_FORM`) or which moves of a kind the order means (`_MOVE_KIND`), each naming no state, no fact and no
    condition, and no host or class the predicate is not about (`when`)."""
    from forge.rulebook.language.predicate import atoms_of  # lazy: as in `claims`

    if when is None:
        return False
    about = {h for atom, negated in atoms_of(when) if not negated for h in atom.hosts()}
    parts = [part.strip() for part in rest.split(";") if part.strip()]

    def form_or_kind(part: str) -> bool:
        named = set(hosts_in(part)) | {h for c in classes_in(class_in_full(part)) for h in HOST_CLASSES[c]}
        return bool(_ANSWER_FORM.search(part) or _MOVE_KIND.match(part)) and not _FACT_OR_CONDITION.search(part) \
            and not STATE_SPOKEN.search(without_host_names(part)) and named <= about
    return bool(parts) and any(form_or_kind(p) for p in parts) \
        and all(form_or_kind(p) or _OTHER_BRANCH.match(p) for p in parts)


def _history_restated(rest: str, when) -> bool:
    """(r46m) Whether a rest says only a history the predicate already asks, in the same words' keys ("clean previous
    step" beside `newly_compromised: true`): no guard of its own. Read as one, a rest with no host for its history was no
    claim this reading could place, and the rule was silent."""
    from forge.rulebook.language.predicate import atoms_of  # lazy: as in `claims`

    said = history_conditions(rest)
    if not said or unplaced(without_history(rest)) or negations_in(without_history(rest)):
        return False
    # (r46a) and of the predicate's own host or class: "Op_Server0 was clean one turn before" beside a fresh
    # compromise of User1 is another host's history, a guard of its own (dropped, the rule spoke whatever that host did);
    # so is one said of every host of a class ("every op host clean last turn")
    hosts, classes = set(hosts_in(rest)), set(classes_in(class_in_full(rest)))
    if _EVERY_OF.search(rest):
        return False
    return any(not negated and all(getattr(atom, key, None) == value for key, value in said.items())
               and (not hosts or atom.host in hosts) and (not classes or atom.host_class in classes or
                                                          any(atom.host in HOST_CLASSES.get(c, ()) for c in classes))
               for atom, negated in atoms_of(when))


_EVERY_OF = re.compile(r"\b(?:every|each|all|both|none|any\s+other|another|other)\b", re.IGNORECASE)


def _other_branches(rest: str) -> bool:
    """Whether a rest is a list of other branches, each labelled, or one label before the list (r39g: "other cases: a
    scan -> a decoy; a root -> Restore" lists under its one label a case and its move per part; read as a guard, the
    unlabelled parts after the first kept the rule silent in its own case)."""
    parts = [part for part in rest.split(";") if part.strip()]
    if parts and all(_ELSE_BRANCH.match(part) for part in parts):
        return True  # (r55n) "else if it is only probed: a decoy; otherwise leave it": the branches after the rule's own
    if not parts or not _OTHER_BRANCH.match(parts[0]):
        return False
    return all(_OTHER_BRANCH.match(part) or _CASE_AND_MOVE.match(part) and verbs_in(_CASE_AND_MOVE.match(part)["move"])
               for part in parts[1:])


# one case and its move after an arrow or a colon, "root -> Restore", "a probe: an Analyse"
_CASE_AND_MOVE = re.compile(r"^\s*(?P<case>[^:>]+?)\s*(?:-+>|=>|\u2192|:)\s*(?P<move>.+)$")


def _another_case_order(rest: str) -> bool:
    """Whether a rest is another case of the text with its own order ("when at root, an Analyse instead of the Remove",
    "under a scan, DecoyApache instead", "with Op_Host2 owned as well, its Restore first"): a situation that names
    no move, then, after its comma, a move. The predicate holds the case it orders; the rest tells what the text does
    in the other (r37m: read as a guard, it claimed the other case's state and silenced the rule in its own case)."""
    head, comma, tail = rest.partition(",")
    head, tail = head.strip(), tail.strip(" .;")
    if not comma or not head or not tail or verbs_in(head) or ";" in rest:
        return False
    opens_case = re.match(r"(?:if|when|whenever|while|once|at|under|should|in\s+case)\b", head, re.IGNORECASE)
    return bool(opens_case) and bool(verbs_in(tail) or gives_order(tail))


# (r56l) Where a rest's part gives its move: after a case and its arrow or colon (`_CASE_AND_MOVE`), after "otherwise" or
# "else", after what a case "gets", or at the opening of an imperative ("Remove User4 when it shows a scan").
_GETS_MOVE = re.compile(r"^(?P<case>.+?)\s+(?:gets?|receives?|takes?|deserves?)\s+(?P<move>.+)$", re.IGNORECASE)
# the move the part sets aside for its own, "instead of the decoy", "rather than a Restore": the contrast, no order
_SET_ASIDE = re.compile(r"\b(?:instead\s+of|rather\s+than|in\s+place\s+of)\s+(?:the\s+|a\s+|an\s+|its\s+)?[\w-]+", re.IGNORECASE)
# words that put moves in a sequence or a time: a rest that says one ("Analyse first", "after a Restore") may be a
# condition on the rule's own move, and keeps guarding
_SEQUENCE = re.compile(r"\b(?:first|then|before|after|once|until|till|since|later|next|already|yet|again|previous|last)\b|"
                       # (r56d) and their other forms: "Analyse it beforehand", "in advance", "prior", "to start with"
                       r"\b(?:beforehand|afterwards?|previously|earlier|prior|in\s+advance|ahead\s+of|to\s+(?:start|begin)\s+with)\b",
                       re.IGNORECASE)
# (r56d) A case that limits the rule's own case, not another one: "unless User2 is rooted: Restore it", "except when ...",
# "not at root -> ...", "provided User2 is not rooted -> Restore it otherwise", "Op_Server0 clean only: otherwise Restore
# it". The move after it is what the text does where the rule's own move does not apply: the case is a condition on the
# rule's move (dropped, the rule spoke in the very case its text set aside).
_OWN_CASE_LIMITED = re.compile(r"^\s*(?:(?:but\s+)?(?:unless|except|save|barring|excluding)|(?:but\s+)?not\s+(?:when|if|while|once|at|under|during|with)|"
                               r"(?:but\s+)?only|provided|as\s+long\s+as|so\s+long\s+as)\b|\b(?:only|alone)\s*$", re.IGNORECASE)
# the move where the case fails: "...: otherwise Restore it", "-> Restore it if not", "...: else a Remove"
_WHERE_IT_FAILS = re.compile(r"\b(?:otherwise|else|if\s+not|failing\s+that)\b", re.IGNORECASE)
# (r56d) An order in the other case that holds the rule's own move off its target: "Op_Server0 rooted: Restore Op_Server0,
# skip User2", "... and leave User2 alone", "hold off on User2", "nothing on User2": the rule's move is withheld there
_HELD_OFF = (r"\b(?:skip\w*|leav\w*|hold\w*(?:\s+off)?|spar\w*|ignor\w*|postpon\w*|delay\w*|defer\w*|keep\w*\s+off|hands\s+off|"
             r"nothing|no\s+(?:move|action)|not|never|don'?t\s+touch)\s+(?:(?:on|of|for|to|with|the|box|host)\s+){0,2}")


def _held_off(move: str, targets: frozenset) -> bool:
    """(r56d) Whether an order holds off one of `targets` (`_HELD_OFF` before it, or "<target> alone / untouched")."""
    return any(re.search(_HELD_OFF + re.escape(host) + r"\b|\b" + re.escape(host) + r"\s+(?:alone|untouched|be)\b", move, re.IGNORECASE)
               for host in targets)


def _orders_other_moves(rest: str, action, when=None) -> bool:
    """(r56l) Whether every part of a rest (split at ";") orders, in a case it names, a move none of whose verbs is one of
    the rule's own `action` (its move, a plan's later moves, or the move a preference sets aside): "User4 exploited:
    Remove User4" beside a Restore of User0, "a box past the probe gets a Remove rather than the decoy" beside the
    decoy, "otherwise Restore it" beside a Remove. The text's other case, with its own order, says nothing of when the
    rule's own move applies: read as a guard it claimed nothing the product could place, and the rule was silent in its
    own case. A rest that names one of the rule's own verbs ("no Remove on User4" beside a Remove), or a sequence or a
    time ("Analyse first"), may be a condition on the rule's own move, and still guards."""
    own, targets = _own_verbs(action), _own_targets(action, when)
    parts = [part.strip(" .") for part in rest.split(";") if part.strip(" .")]
    return bool(own) and bool(parts) and all(_other_move_in_a_case(part, own, targets) for part in parts)


def _fallbacks_case(rest: str, action) -> bool:
    """(r57m) Whether a rest says only when the other moves are made, the rule's own move being not possible
    (MOVE_UNAVAILABLE): "the Analyse kept for a step where no Remove can be done", "a Restore, but only if a Remove isn't
    available" beside a Remove. Where the rule's move cannot be made, the rule is moot, so the rest
    restricts only the other moves (read as a guard it claimed nothing the product could place, and the rule was silent
    in its own case). The moves named before the case must be none of the rule's own moves (the move it prefers its
    own over may be one of them)."""
    ordered = frozenset(m.verb for m in getattr(_parsed(action), "moves", ()) if m.verb)
    said = [m for m in MOVE_UNAVAILABLE.finditer(rest) if denies_availability(m)]
    if not ordered or len(said) != 1 or rest[said[0].end():].strip(" .;,)") \
            or not set(verbs_in(said[0]["move"])) or not set(verbs_in(said[0]["move"])) <= ordered:
        return False
    before = rest[:said[0].start()]
    others = set(verbs_in(before))
    return bool(others) and not others & ordered and not hosts_in(before) and not classes_in(before) \
        and re.search(r"\b(?:only|is\s+for|are\s+for|just|kept\s+for)\b|\bfallbacks?\b", before, re.I) is not None


def _parsed(action):
    """A rule's action parsed (None where it is not one)."""
    from forge.rulebook.language.action import parse_rule_action  # lazy: as in `claims`
    from forge.rulebook.language.predicate import PredicateError  # lazy: as in `claims`

    try:
        return parse_rule_action(action) if isinstance(action, dict) else action
    except (PredicateError, ValueError, KeyError, TypeError):
        return None


def _own_moves(action) -> tuple:
    """The moves of a rule's action (a JSON object or a parsed one): its moves and the move it prefers its own over."""
    action = _parsed(action)
    return (*getattr(action, "moves", ()), *((action.over,) if getattr(action, "over", None) is not None else ()))


def _own_verbs(action) -> frozenset:
    """The verbs of a rule's action (`_own_moves`)."""
    return frozenset(m.verb for m in _own_moves(action) if m.verb)


def _own_targets(action, when) -> frozenset:
    """(r56d) The hosts a rule's action aims at (`_own_moves`), those its trigger `when` names for "$matched"."""
    from forge.rulebook.language.predicate import positive_hosts  # lazy: as in `claims`

    matched = positive_hosts(when) if when is not None else ()
    return frozenset(h for m in _own_moves(action) for h in m.hosts(matched))


def _other_move_in_a_case(part: str, own: frozenset, targets: frozenset = frozenset()) -> bool:
    """Whether a part of a rest names a case and orders in it a move of verbs none of which is the rule's own (`own`);
    a generic "decoy" counts as every decoy verb, and a ban of every verb ("any") as every verb. (r56d) Not a case that
    limits the rule's own (`_OWN_CASE_LIMITED`, or a move said for where it fails), nor a move that holds the rule's own
    move off one of its `targets` (`_HELD_OFF`)."""
    if _SEQUENCE.search(part) or "any" in own:
        return False
    case, move = _case_and_its_move(part)
    if case is None or not STATE_SPOKEN.search(case) and not _ELSE_BRANCH.match(case):
        return False
    if not _ELSE_BRANCH.match(case) and (_OWN_CASE_LIMITED.search(case.strip()) or _WHERE_IT_FAILS.search(move)):
        return False  # (r56d) the rule's own case limited, and what is done where it fails: a condition on its move
    if _held_off(move, targets):
        return False  # (r56d) the rule's own target held off in the other case: its move is withheld there
    said = set(verbs_in(_SET_ASIDE.sub(" ", part)))
    if not verbs_in(move) or verbs_in(case) and not _ELSE_BRANCH.match(case):
        return False
    return not any(v in own or v == "Decoy" and any(o.startswith("Decoy") for o in own) for v in said)


def _case_and_its_move(part: str) -> tuple[Optional[str], str]:
    """A part of a rest as the case it names and the move it orders there (None for the case where it has no such form)."""
    if (found := _ELSE_BRANCH.match(part)) is not None:
        return found.group(0), part[found.end():]
    for pattern in (_CASE_AND_MOVE, _GETS_MOVE):
        found = pattern.match(part)
        if found is not None and not verbs_in(found["case"]):
            return found["case"], found["move"]
    head = re.split(r"\b(?:when|whenever|if|while|in\s+case)\b", part, maxsplit=1, flags=re.IGNORECASE)
    opening = head[0].split()[:1]
    if len(head) == 2 and opening and verbs_in(opening[0]):  # (an imperative: its verb first)
        return head[1], head[0]
    return None, part


def _said_whole(source: str, when) -> bool:
    """Whether the product reads the whole of a text's condition and the predicate implies it."""
    from forge.rulebook.language.predicate import implies  # lazy: as in `claims`

    found = whole_claims(source)
    return found is not None and implies(when, found)


def _outside_instruction(rest: str, source: str) -> bool:
    """Whether every word of a rest is in its source text but none is in that text's instruction (or opening
    situation): the rest was taken from the text's story or justification."""
    def content(text: str) -> set[str]:
        return {w for w in re.findall(r"[a-z][a-z'-]{2,}", (text or "").lower()) if w not in _RESTATED}
    words = read_wording(source)
    # (nor in what the instruction concedes: "never restore User0, even when it is owned: it gets owned again at once"
    # holds whatever the concession says, so a rest taken from it is no condition either)
    said = content(f"{words.situation} {conceded_away(words.instruction)}")
    rest_words = content(rest)
    return bool(rest_words) and rest_words <= content(source) and not rest_words & said


# What a text says beside its condition: the teacher's view of it ("I now think ...", "the lesson is that ..."), and the
# table and the one who reads it ("the table shows ... for the host you are analysing").
_OPINION = re.compile(r"\b(?:i|we)\s+(?:now\s+|really\s+|still\s+|also\s+)?(?:think|believe|feel|reckon|suspect|guess)\b(?:\s+that)?|"
                      r"\b(?:the|my|our)\s+lesson(?:\s+here)?\s+is(?:\s+that)?|\blooking\s+back\b", re.IGNORECASE)


# What a dash adds after an order or a condition: "... whenever it shows any compromise -- even user level there puts the
# mission at stake" (a reason, where it orders nothing and states no condition).
_DASHED = re.compile(r"\s[\u2013\u2014-]{1,2}\s+(?P<tail>[^.;:\u2013\u2014]+)")


_CONDITION_WORD = re.compile(r"\b(?:when|whenever|if|while|once|unless|until|after|as\s+long\s+as|only)\b", re.IGNORECASE)


_READER = frozenset("table row rows column columns you we your our analysing analyzing analyse analyze".split())


def _said_aside(rest: str, source: str) -> bool:
    """Whether every word of a rest that is not a restated one comes from what its source says aside of its conditions
    (a concession, "even user level there puts the mission at stake"; the teacher's view, "I now think ...") or is the
    table and its reader ("the table ... you"), and none from what its conditions say once those are set aside."""
    def content(text: str) -> set[str]:
        return {w for w in re.findall(r"[a-z][a-z'-]{2,}", (text or "").lower()) if w not in _RESTATED}
    dashed = [m["tail"] for m in _DASHED.finditer(source) if not gives_order(m["tail"]) and not _CONDITION_WORD.search(m["tail"])]
    aside = " ".join([m.group(0) for p in (CONCESSION, _OPINION) for m in p.finditer(source)] + dashed)
    rest_words = content(rest)
    conditions = " ".join(c.text for c in read_wording(source).conditions)
    for tail in dashed:
        conditions = conditions.replace(tail, " ")
    conditions = content(_OPINION.sub(" ", conceded_away(conditions)))
    said = rest_words - _READER
    return bool(rest_words) and said <= content(aside) and not said & conditions


def _rest_claims(rest: str, when):
    """What a rest claims, read whole (None: this reading cannot place all of it); "it" is the predicate's one host."""
    from forge.rulebook.language.predicate import named_host  # lazy: as in `claims`

    subject = named_host(when) if when is not None else None
    found = claims(rest, subject)
    return found if reads_whole(rest, found, subject=subject) else None


def guard_claims(rest: str, when):
    """What a guarded rule's unexpressed rest claims, for the gate (None: the rest is no condition, nothing guards).
    It is read like a semantic rule's condition (`claims`, three-valued; its "it" is the one host the predicate
    names): "only while Op_Server0 is clean" must hold on the context. A rest this reading cannot place whole (a word
    it does not know, a kind of fact it cannot judge, a negation it did not read: "at critical priority", "when the
    attacker moves fast") is a condition the product cannot judge, so the rule stays silent: it is never passed by
    its likeness to the context."""
    from forge.rulebook.language.predicate import Always, Not, named_host  # lazy: as in `claims`

    guard = guard_rest(rest, when)
    if not guard:
        return None
    found = _rest_claims(guard, when)
    if found is None and _evidence_alone(guard, when):
        return None  # (r39g) what the analyses show of the predicate's hosts, all of it judged.py's: that guards
    if found is None and (left := without_evidence(guard)) != guard:
        # (r39h) a rest that says what the step's analyses report, "this step's analyses rate <host> low risk": judged.py
        # judges that part (judged_in reads it from the same rest); the claims read what is left, and nothing is left to read
        # where it was all evidence (or the predicate's own host: "on that user host")
        subject = named_host(when) if when is not None else None
        if not unplaced(left) and not negations_in(left) and claims(left, subject) is None:
            return None
        found = _rest_claims(left, when)
    # (read as a semantic rule's words are, `confirmed`: "two or more user hosts compromised" is not met by a user row at
    # Compromised Unknown; the rest let a rule through on one compromised user host and one at Unknown)
    return _on_matched_host(confirmed(found), when) if found is not None else Not(Always())


def _on_matched_host(found, when):
    """(r40m) A rest that denies moves on "that user host" of a predicate over a class ("no decoy went on that box during
    the past two turns"): the host the predicate matches, not every host of the class. Read of the class, a
    decoy on another user host silenced the rule for the one it is for; bound here, some host of the class meets both.
    Anything else is returned as it was."""
    from forge.rulebook.language.predicate import AllOf, AnyOf, Atom, Not  # lazy: as in `claims`

    parts = found.parts if isinstance(found, AllOf) else (found,)
    if not isinstance(when, Atom) or when.host is not None or when.host_class is None:
        return found
    if not all(isinstance(p, Not) and isinstance(p.part, Atom) and p.part.host_class == when.host_class
               and p.part.acted is not None and p.part.activity is None and p.part.compromise is None for p in parts):
        return found
    hosts = HOSTS if when.host_class == "any" else HOST_CLASSES[when.host_class]
    return AnyOf(tuple(AllOf((when.on(h), *(Not(p.part.on(h)) for p in parts))) for h in hosts))


# The words a rest uses to say the step's analyses report something of the host the predicate matches, besides the
# evidence itself: "this step's analyses show ... on that user host", "the analysis rates it ...".
_ANALYSES_FRAME = frozenset("""this the step step's steps current analysis analyses analyst analysis's show shows showing
    report reports reporting list lists rate rates rated give gives that host box machine server it its on of for in
    a an user enterprise op operational remote local
    analysed analyzed under host's box's
    and with is are block baseline count counts""".split())  # (r40m: the host the analyst analyses; r40k: its evidence)


# (r40m) The analyst's own evidence named as the source, of the host it analyses: "the analysed host's evidence lists ..."
_ANALYSED_EVIDENCE = re.compile(r"\bthe\s+analy[sz]ed\s+(?:host|box|machine)(?:'s|\u2019s)\s+evidence\s+(?:lists|shows)\b|"
                                # (r42m) or where it stands, said after the reading: "... in the analysed host's evidence"
                                r"\b(?:(?:in|on)\s+)?(?:the\s+analy[sz]ed\s+(?:host|box|machine)(?:'s|\u2019s)|its)\s+evidence"
                                r"(?:\s+(?:lists|shows|has|holds|counts)\b)?|"
                                # (r40k) the analyst's "Current evidence" named as what shows it, of its host ("its current
                                # evidence shows", "<host>'s current evidence counts"); "evidence" alone stays no frame
                                r"\b(?:in\s+)?(?:its|the|[\w]+(?:'s|\u2019s))\s+current\s+evidence(?:\s+(?:lists|shows|counts|has|holds)\b)?",
                                re.IGNORECASE)


def _evidence_alone(rest: str, when) -> bool:
    """(r39g) Whether a guard rest states only what the step's analyses report of the hosts the predicate matches (a
    reverse shell, a risk rating): judged.py judges it of those hosts (`judged_in`, with `of`); nothing is left for the
    claims. Read for claims it was unplaced, and the rule silent where the analyses showed just that."""
    # (r40m: a negation inside what the evidence reports, "lists no escalate file", is that reading's own)
    # (r40k: or of the one host the predicate names, "<host>'s current evidence: processes above the baseline's":
    # judged.py judges it of that host)
    from forge.rulebook.language.predicate import named_host  # lazy: as in `claims`
    if when is None or not evidence_tests(rest, when) or set(hosts_in(rest)) - {named_host(when)} \
            or negations_in(evidence_away(rest)):
        return False
    return not words_beside_evidence(rest)


# (r40k) An example in brackets, "(e.g. svc_backup)", "(for instance at step 9)": the example's words, no condition.
_BRACKETED_EXAMPLE = re.compile(r"\(\s*(?:e\.\s?g\.|eg\b|for\s+(?:example|instance)\b|such\s+as\b)[^)]*\)", re.IGNORECASE)


def words_beside_evidence(text: str) -> list[str]:
    """(r40k) The words of `text` besides what judged.py reads of the analyst's evidence or the step's analyses (each
    reading's words, the words that frame them as the evidence's, the hosts named, an example in brackets): none where
    the text says only that, which the gate judges of the hosts it names (`judged_in`)."""
    left = without_host_names(_ANALYSED_EVIDENCE.sub(" ", evidence_away(_BRACKETED_EXAMPLE.sub(" ", text or ""))))
    words = re.findall(r"[a-z][a-z'_]*", re.sub(r"(?<!\w)['\u2019]s\b", " ", left).lower())  # (a named host's "'s")
    return [w for w in words if w not in _ANALYSES_FRAME]


_STORYLIKE = re.compile(r"\b(?:i|we|my|our)\b|\b(?:was|were|had|did|got|lost|cost|wasted|went|happened)\b", re.IGNORECASE)


def confirmed(found, levels: bool = False):
    """Claims where "Host is compromised", said of one named host or of a class ("a user host is compromised": one of
    its hosts), is not met by a row at Compromised Unknown (the row a Remove leaves, or a level the table does not
    know): a rule judged by its words alone, or a compiled predicate held to them, fires on what they say for sure. Said
    under a negation ("not compromised") the claim stays as it was (Unknown leaves it unknown, as ever). With `levels`, a
    level denied of one named host ("User2 is exploited but not rooted": not at Privileged) is not met by its row at
    Unknown either: that row does not say the host is not at root (it does not know)."""
    from forge.rulebook.language.predicate import AllOf, AnyOf, Atom, Not  # lazy: as in `claims`

    if isinstance(found, Atom):
        # (an atom of what was done asks its host's rows already: "still compromised after a Remove" is not met at the
        # Unknown a Remove leaves; another history is held to it here: "compromised, unchanged, for three steps" is not
        # met by a row that read Unknown all along)
        if found.compromise != "any" or found.acted is not None:
            return found
        if found.host is None:
            # "a user host is compromised": some host of the class shows a compromise for sure (a row at Unknown in the
            # class met it, and a rule about compromised user hosts fired on a table whose only user row read Unknown)
            return AnyOf(tuple(confirmed(found.on(host)) for host in found.hosts()))
        return AllOf((found, Not(replace(found, activity=None, compromise=_UNKNOWN_LEVEL, newly_compromised=None,
                                         unchanged_for=None, acted=None, within=None, changed=None,
                                         scan_before_exploit=None))))
    if isinstance(found, (AnyOf, AllOf)):
        return type(found)(tuple(confirmed(p, levels) for p in found.parts))
    if levels and isinstance(found, Not) and isinstance(found.part, Atom) and found.part.host is not None \
            and found.part.activity is None and found.part.compromise in _LEVELS and not found.part.history():
        return AllOf((found, Not(replace(found.part, compromise=_UNKNOWN_LEVEL))))
    return found  # (None, a negation: left as it was)


_UNKNOWN_LEVEL = "Unknown"


_LEVELS = ("User", "Privileged")  # the levels of a compromise the table states


@lru_cache(maxsize=8192)
def whole_claims(text: str):
    """The claims of a rule's condition and order (`rule_claims`, no bare host) where they read the whole of its
    condition (`complete_claims`); None where this reading places nothing, or only part of it."""
    found = rule_claims(text, with_instruction=True, bare=False)
    return found if found is not None and complete_claims(text, found) else None
