"""A compiled rule never says more than its text, nor the opposite of it: the checks, whatever the compiler.

The compiler (a model, the surrogate, or a case author's reference compilation) answers with a predicate and
an action; `text_problem` compares them with what the text's own words say (language.wording.read_wording reads them) and
names the first disagreement, or returns None:

- *polarity*: a condition that holds on every context for a text that states one; a negation or restriction
  inside a condition (no, none, nothing, not, never, without, unless, except, only, yet, rather than; clean,
  quiet) with no negative in the predicate about what it negates (a `not`, a quiet value, or a history
  condition of absence); a prohibition ("never / do not / stop / avoid VERB") compiled as anything but a
  `never` of that verb or a `prefer ... over` it (never a `do`); a dispreferred verb ("rather than restoring")
  prescribed; an order compiled as a `never` by a text that forbids nothing, or as a `never` of the verb it orders;
  a `never` aimed at another host than the one the text forbids it on; a `prefer ... over` whose dispreferred side
  the text does not disprefer (reversed, or invented); an order aimed at a host the text contrasts it with
  ("restore Op_Server0 before Enterprise2", "decoy User2, not User3") or excepts;
- *scope*: every host the instruction names restricts the trigger or is the action's target; every class it
  names ("a user box") restricts the trigger or is the target; a host it excepts ("every user host except
  User0") can not be matched; and the entry names no host or class the text does not (a small model answered
  a text about Op_Server0 with the prompt's own example, "a User host ...");
- *bare*: a condition that says something of a host it names is not compiled as that host merely shown;
- *claims*: the predicate implies what the product reads of the condition itself (claims.claims: the hosts
  it names with their states, a class with a state, a quiet network, a named phase), where that reading
  places every negation ("If Enterprise1 is scanned but not yet compromised" is not `not (scanned and
  compromised)`);
- *level* (a claims check): a state the text names only by its level ("a root shell", "priv esc") is not any compromise,
  nor one it names only by its kind ("probed") any activity of a host it names (`_level_widened`); a compromise it denies
  with no level is not one level denied (`_level_denied`);
- *target*: an action aimed at the matched host under a trigger that matches none (`always`, a quiet network);
- *narrow*: where the product reads the whole condition, the predicate does not ask more than that reading by a
  history the reading has none of (the story's "owned for four steps") or by a quiet network ("no host is compromised"
  compiled as "no host shows anything"): narrower, the rule would be silent where its words say it applies;
- *history*: a condition about the defender's history ("clean at the previous step", "for three steps in a
  row") needs a history atom, or its words listed as unexpressed (the rule is then guarded).

An `unexpressed` rest never switches a check off: it says where the predicate stops, never that the text's
negation or scope may be dropped. A failing check gets one corrective re-prompt (compile.py); still failing,
the rule is kept semantic with the reason, never stored as a predicate rule.

`completed_action` fills in what a prohibition with no verb means ("spend no actions on User0": every verb on
User0, `{"mode": "never", "verb": "any", "target": "User0"}`), so it conflicts with an order about that host.
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Optional, Sequence

from forge.env.catalog import HOST_CLASSES, HOST_VERBS, HOSTS, QUIET_ACTIVITY, QUIET_COMPROMISE, VERB_ALIASES, hosts_of
from forge.rulebook.language.action import ANY_VERB, MATCHED, RELATIVE_TARGETS
from forge.rulebook.language.claims import claims, levels_by_place_read
from forge.rulebook.language.condition import (arrow_cases, line_claims, listed_claims, semantic_claims, spoken_facts, story_state,
                                              text_claims, windows_left_to)
from forge.rulebook.language.facts import facts_needed
from forge.rulebook.language.disowned import moves_disowned
from forge.rulebook.language.guard import (classes_set_apart_denied, complete_claims, guard_claims, guard_rest, left_out_classes_asked,
                                          whole_claims, words_beside_evidence)
from forge.rulebook.language.rule_claims import ORDER_ENDED, conceded_away, exceptions_lifted, conceded_classes, conceded_hosts, conceded_states, narrower_cases_away, rule_claims
from forge.rulebook.language.scope import classes_denied, conditions_not_applied, count_kept, membership_denied_away, subject_of
from forge.rulebook.language.episode import step_windows, without_step_windows
from forge.rulebook.language.history_words import history_directions
from forge.rulebook.language.judged import evidence_away, evidence_tests, judged_facts, rating_away
from forge.rulebook.language.phases import phase_named, phase_predicate, unknown_phase_named
from forge.rulebook.language.predicate import (ANY_CLASS, AllOf, Always, AnyOf, Atom, Not, atoms_of, describe, dnf, implies, may_overlap,
                                               outcome_stated, parse_predicate, positive_hosts)
from forge.rulebook.language.situation import levels_joined, state_of
from forge.rulebook.language.clauses import DENIED_PLACE, LEVEL_RELATIVE, moves_kept_for_another_case, order_without_conditions
from forge.rulebook.language.forbidding import (BAN_ENDS, EXCEPT_WORDS, IN_ADVANCE, PREFERENCE_BANNED, HOLDING_OFF_DENIED, MOVE_UNAVAILABLE, denies_availability, hosts_waited_on, move_taken_back, LISTED_TO_AVOID, classes_compared_only, classes_sequenced_only, first_rung, limited_bans,
                                                verbs_put_after)
from forge.rulebook.language.forms import (ONLY_TIME_ALLOWED, subnets_left_out, example_aside_away, hosts_marked_fine, left_to_provision, line_pointer_unclear, line_referred_back,
                                           moves_answered, moves_on_host_by_role, moves_only_asked, moves_only_suggested, only_time_permitted)
from forge.rulebook.language.instruction import GRANTED, ONLY_NAMED, only_named_away, only_named_hosts
from forge.rulebook.language.markers import EMPHATIC_NO, GOAL_OR_CONCESSION, HARM_DENIED, NEGATIVE_TAG, negations_in
from forge.rulebook.language.minutes import ITEM_LABEL as _ITEMS_LABELLED, agreed_items, agrees_nothing, request_turned_down
from forge.rulebook.language.names import HOST_NAME, SERVER_HOSTS, VERB, classes_in, named_in_full, hosts_in, same_verb, server_unnamed, state_words_in, unnamed_hosts, verbs_in, without_host_names
from forge.rulebook.language.order import PURPOSE_FIRST, REASON_FIRST, condition_elsewhere, sentences
from forge.rulebook.language.replies import proposal_unsettled
from forge.rulebook.language.transcript import log_unsettled
from forge.rulebook.language.wording import Wording, pronoun_hosts, read_wording


def _says_absence(atom: Atom, negated: bool) -> bool:
    """Whether an atom says something is absent: negated, a quiet value, or a history condition of absence."""
    return negated or atom.activity == QUIET_ACTIVITY or atom.compromise == QUIET_COMPROMISE \
        or atom.unchanged_for is not None or atom.newly_compromised is not None \
        or False in (atom.changed, atom.scan_before_exploit)


def _verb(raw: Any) -> str:
    """A verb of an action's JSON by its catalog name (people write `DecoyHarakaSMTP` for CybORG's `DecoyHarakaSMPT`)."""
    return VERB_ALIASES.get(str(raw), str(raw))


def _moves(action: Optional[dict]) -> tuple[list[tuple[str, Optional[str]]], list[tuple[str, Optional[str]]]]:
    """(prescribed, forbidden) (verb, target) moves of an action's JSON."""
    if not isinstance(action, dict):
        return [], []
    first = (_verb(action.get("verb")), action.get("target"))
    mode = str(action.get("mode", "")).lower()
    if mode == "never":
        return [], [first]
    if mode == "prefer":
        over = action.get("over") if isinstance(action.get("over"), dict) else {}
        return [first], [(_verb(over.get("verb")), over.get("target"))]
    return [first, *((_verb(m.get("verb")), m.get("target")) for m in action.get("then") or () if isinstance(m, dict))], []


def _own_moves(action: Optional[dict]) -> list[tuple[str, Optional[str]]]:
    """The moves an action gives of its own: what it orders, or what a `never` forbids (not a prefer's other side)."""
    done, banned = _moves(action)
    return done + (banned if str((action or {}).get("mode", "")).lower() == "never" else [])


def _targets(action: Optional[dict]) -> set[str]:
    done, banned = _moves(action)
    return {t for _, t in done + banned if isinstance(t, str)}


def _concrete(target: Optional[str]) -> bool:
    """Whether a move's target names hosts of its own (a host or a class), not `$matched`, a relative target or any."""
    return isinstance(target, str) and (target in HOSTS or target in HOST_CLASSES)


def _aims_at(target: Optional[str], hosts: set[str]) -> bool:
    """Whether a move's target can be one of `hosts` (a relative target or `$matched` may be any)."""
    if not hosts or target is None or target == MATCHED or target in RELATIVE_TARGETS or target == "any":
        return True
    return bool(hosts_of([target]) & hosts)


def _holds_everywhere(predicate, action: Optional[dict]) -> bool:
    """Whether a predicate holds on every context that shows any host: `always`, or a way to hold that asks no more
    than that some host is shown (`{"class": "any"}` alone, "the context shows a host", is true of every table). (An
    action aimed at the matched host may take its host from such an atom: the fact that singles the host out, "the
    analyses of one host show a brute force", is then the rest's, which the gate judges host by host.)"""
    relative = any(t == MATCHED or t in RELATIVE_TARGETS for t in _targets(action))
    return any(all(positive and atom.bare() and atom.host is None and atom.host_class == ANY_CLASS and not relative
                   for atom, positive in conjunction) for conjunction in (dnf(predicate) or []))


# -- the checks ---------------------------------------------------------------------------------------


def _window_only(condition: str) -> bool:
    """(r41m) A condition that is a window of the episode's steps and nothing else ("until step 10", "in the last five
    steps of the game (from step 27 on, of 30)"): the gate judges it from the rule's words (judged.InEpisode), which
    no predicate states; its "until" or "last" negates no state of a host. Whether the predicate says the window is
    the claims check's (a window left out of the predicate must be in the "unexpressed" rest)."""
    return bool(step_windows(condition)) and not re.sub(r"[\W_]+", "", without_step_windows(condition))


def _polarity(words: Wording, predicate, action: Optional[dict], unexpressed: str = "") -> Optional[str]:
    conditions = [c for c in words.conditions if not _window_only(c.text)]
    if conditions and _holds_everywhere(predicate, action):
        return (f"always: the predicate holds on every context, but the text states a condition "
                f"({conditions[0].text[:60]!r}): express it")
    # (r41m: or its guard, the unexpressed rest the gate holds the rule to: "every other user host clean" said there)
    guard = guard_claims(unexpressed, predicate) if unexpressed else None
    guard = guard if guard is not None and may_overlap(predicate, guard) else None  # (one that denies it guards nothing)
    absent = [(atom, neg) for p in (predicate, guard) if p is not None for atom, neg in atoms_of(p) if _says_absence(atom, neg)]
    found = rule_claims(words.text)
    expressed = found is not None and complete_claims(words.text, found) and implies(predicate, found)
    ended = _set_aside(words, predicate, action)
    for condition in () if expressed else words.negated_conditions:
        if _window_only(condition.text):
            continue  # (r41m) "until step 10": a window of steps, the gate's to judge, no host's state negated
        if any(condition.text.strip() in span for span in ended):
            continue  # "after the box is rooted the trap no longer helps": where the order ends, which the predicate excludes
        if condition.text in conditions_not_applied(words):
            continue  # (r34m) "...; if only one of them is, this list says nothing": where the rule does not apply
        if not negations_in(evidence_away(condition.text)):
            continue  # (r40m) "its evidence lists no <file>": the evidence reading's own negation, the gate judges it
        if condition.hosts and set(condition.hosts) <= set(words.excepted) and not condition.classes:
            continue  # "unless it is User0": the exception, which the except check keeps
        if _fallback_after_the_order(words, condition.text, action) or _unavailability_guarded(words.text, condition.text, unexpressed):
            continue  # (r42m) "...; if not, <another move>": the branch before failing, whose move the action gives
        about = hosts_of(h for h in condition.hosts if h not in words.excepted) | hosts_of(condition.classes)
        if _kept_out_by_class(condition.text, predicate, action, about) or _excepted_kept_out(condition, words, predicate):
            continue  # (r39k) "a host ... that is not on the op subnet"; (r58m) "op boxes except Op_Host2": kept out
        if _only_named_kept(condition.text, predicate) or _denial_implied(condition.text, words, predicate):
            continue  # (r48m) "Op_Host1 hit (only Op_Host1, ...)": that host alone kept; (r53h) a denial its states exclude
        if _EVERY_OTHER.search(condition.text) or _only_host(condition):
            # (a condition on every other host, `_EVERY_OTHER`: the others show nothing); (r48c) so does "only User2 owned", "only
            # Op_Host0 is rooted", where "only" restricts (markers.negations_in): no other host in that state
            about = set(HOSTS)
        if not any(not about or set(atom.hosts()) & about for atom, _ in absent):
            return (f"negation: the condition is negated or restricted ({condition.text[:60]!r}: "
                    f"{', '.join(dict.fromkeys(condition.negations))}) but the predicate says nothing is absent"
                    f"{' about ' + ', '.join(sorted(about))[:60] if about else ''}: express it with \"not\" or a quiet "
                    f"value (Activity None, Compromised No)")
    done, banned = _moves(action)
    reachable = set(positive_hosts(predicate))
    for prohibition in words.prohibitions:
        hosts = hosts_of([*prohibition.hosts, *prohibition.classes])
        verb = prohibition.verb or "any"
        for move_verb, target in done:
            if same_verb(verb, move_verb) or (verb == "any" and prohibition.verb is None):
                if target == MATCHED and hosts and not hosts & reachable:
                    continue  # "restore every user host except User0, which we never reimage": User0 is never matched
                if _aims_at(target, hosts) and not any(same_verb(verb, b) or b == ANY_VERB for b, _ in banned):
                    return (f"prohibition: the text forbids {'every action' if prohibition.verb is None else prohibition.verb}"
                            f"{' on ' + ', '.join(sorted(hosts)) if hosts else ''} but the action orders "
                            f"{move_verb} {target or ''}".rstrip() + ": a prohibition is a \"never\" (or a \"prefer ... "
                            "over\" it), never a \"do\"")
    after = verbs_put_after(words.order)
    for verb in words.dispreferred:
        if any(same_verb(verb, v) for v in after) and done and not same_verb(verb, done[0][0]):
            continue  # (r45m) "Restore it first and Analyse it after": the plan's second move, in the action's `then`
        if any(same_verb(verb, v) for v, _ in done) and not any(same_verb(verb, b) for b, _ in banned):
            return (f"disprefer: the text disprefers {verb} (\"rather than\", \"instead of\") but the action prescribes it: "
                    f"prefer the other action over {verb}")
    doubt = _answered(words, done, banned) or _undecided(words, done, banned) or _unplaced_negation(words, done, ended, predicate)
    if doubt:
        return doubt
    ordered = _ordered_verbs(words)
    if ordered and isinstance(action, dict):
        put_off = _put_off(words) if banned else set()
        stray = [v for v, _ in done + banned if not any(same_verb(o, v) for o in ordered)
                 and not (v == ANY_VERB and any(p.verb is None for p in words.prohibitions))
                 and not (any(same_verb(v, b) for b, _ in banned) and any(same_verb(f, v) for f in put_off))
                 # (r40h) the move the text says the order beats ("X on ... beats a Monitor"), however far its
                 # condition runs on, is the order's own "over"
                 and not (any(same_verb(v, b) for b, _ in banned) and any(same_verb(d, v) for d in words.dispreferred))
                 # (r48m) "Analyse it instead; a Remove was wasted there": an order given "instead" of a move the
                 # text names elsewhere, in its reason or its story, as `prefer ... over` that move writes it
                 and not (done and any(same_verb(v, b) for b, _ in banned) and _replaced_instead(words, v))]
        if stray:
            return (f"verb: the action uses {stray[0]}, but the text's order names {', '.join(sorted(ordered))} (a verb "
                    "named in its condition, \"after a Remove\", is no part of its order)")
    return _inversion(words, action, ordered, reachable) or _put_off_ordered(words, done, ordered) \
        or _never_unspoken(words, action)


# (r53h) The denial that opens a condition put after the order: "but not while ...", "not when ...", "never if ...".
_DENIAL_LEAD = re.compile(r"^\s*(?:but\s+|and\s+)?(?:not|never)\s+(?=(?:when|whenever|if|while|once)\b)", re.IGNORECASE)


def _denial_implied(condition: str, words: Wording, predicate) -> bool:
    """(r53h) Whether a condition the order is denied in ("Restore it, but not while it only shows Unknown") is a state of
    named hosts that the predicate's own states exclude (Op_Server0 at User or root is never Op_Server0 at Unknown): the
    denial is said, though no atom of it says an absence. Claims of no named host (one whose "it" is unresolved) are not."""
    lead = _DENIAL_LEAD.match(condition)
    if lead is None:
        return False
    said = claims(condition[lead.end():], subject_of(words))
    if said is None or any(atom.host is None for atom, _ in atoms_of(said)):
        return False
    return implies(predicate, Not(said))


def _only_named_kept(condition: str, predicate) -> bool:
    """(r48m) Whether every negation of a condition is in a note that keeps it to the hosts it names (instruction.ONLY_NAMED), and
    every host the trigger can match is one of those: what the note says, the trigger says by naming no other."""
    notes = list(ONLY_NAMED.finditer(condition))
    named = {h for m in notes for h in only_named_hosts(condition, m)}
    return bool(notes) and bool(named) and not negations_in(only_named_away(condition)) \
        and set(positive_hosts(predicate)) <= named


# (r42m) A condition that only says the branch before it failed: "if not", "failing that", "otherwise", "if neither".
_FALLBACK = re.compile(r"\s*(?:if\s+(?:not|neither|none)|otherwise|else|failing\s+that|if\s+that\s+fails)\s*[,.]?\s*", re.IGNORECASE)


def _fallback_after_the_order(words: Wording, condition: str, action: Optional[dict]) -> bool:
    """(r42m) A fallback of a text of several branches ("restore Op_Server0 if it is compromised; if not, remove ...")
    placed after every move the action gives, none of them ordered again after it: its negation is that of the branch
    whose move the action gives, which the predicate need not state (its other branches, if any, are alternatives)."""
    done, banned = _moves(action)
    at = words.instruction.find(condition)
    if not _FALLBACK.fullmatch(condition) or at < 0 or not done or banned:
        return False
    before, after = words.instruction[:at], words.instruction[at:]

    def ordered(text: str, verb: str, target: Optional[str]) -> bool:
        return any(same_verb(v, verb) for v in verbs_in(text)) and (not _concrete(target) or target in hosts_in(text))
    return all(ordered(before, v, t) and not ordered(after, v, t) for v, t in done)


# (r57m) A condition that says only that a move cannot be made this turn, `MOVE_UNAVAILABLE` ("if a Remove can't be
# done that step", "when no Restore is open to us"): no "not" or quiet value of the table says it, so the predicate
# cannot express it; the compilation states it in its unexpressed rest, which the gate holds the rule to.


def _unavailability_guarded(text: str, condition: str, unexpressed: str) -> bool:
    """(r57m) Whether `condition` (with the words after it in `text`: the reading may end it at the move, "when no")
    says only that a move is not possible (`MOVE_UNAVAILABLE`, negated) and the unexpressed rest says that of the same
    move."""
    condition = condition.strip(" ,.;:")
    at = text.find(condition)
    said = MOVE_UNAVAILABLE.match(text, at) if at >= 0 and condition else None
    if said is None or said.end() < at + len(condition) or not verbs_in(said["move"]) \
            or not denies_availability(said):
        return False
    # (r57b) the rest must deny the move too: "when a Remove is possible" is the other case, the order's opposite
    return any(verbs_in(m["move"]) == verbs_in(said["move"]) and denies_availability(m)
               for m in MOVE_UNAVAILABLE.finditer(unexpressed or ""))


def _excepted_in_condition(words: Wording) -> set[str]:
    """(r39h) The hosts a condition excepts that the order then names: "if no user host but User0 is compromised, ...,
    remove User0" puts User0 aside from the condition's "no user host", and the order is for it; an exception said of
    the order ("restore every user host except User0") stays the order's."""
    order = hosts_in(order_without_conditions(words.instruction, words.conditions))
    return {h for h in words.excepted if h in order and any(h in c.hosts and "except" in c.negations for c in words.conditions)}


# (r40m) A move said after "before", with its verb and its host: "before restoring Op_Server0 (again)".
_BEFORE_MOVE = re.compile(r"\bbefore\s+(?P<move>(?:re-?)?[a-z]+ing\s+(?:the\s+)?[\w-]+)", re.IGNORECASE)


def _moves_put_second(words: Wording) -> set[tuple[str, str]]:
    """(r40m) The (verb, host) moves an order puts after its own with "before <verb>ing <host>": a sequence, whose
    second move an action may list in `then` (read as a contrast, the host was one the order must not be aimed at)."""
    found = set()
    for m in _BEFORE_MOVE.finditer(words.instruction):
        verbs, hosts = verbs_in(m["move"]), hosts_in(m["move"])
        if len(verbs) == 1 and len(hosts) == 1:
            found.add((_verb(verbs[0]), hosts[0]))
    return found


def _inversion(words: Wording, action: Optional[dict], ordered: set[str], reachable: set[str]) -> Optional[str]:
    """An action that turns the text around, whatever the compiler: a `never` of what the text orders, or aimed
    at another host than the one it forbids it on; a `prefer` whose dispreferred side the text does not
    disprefer; an order aimed at the host the text contrasts it with ("restore Op_Server0 before Enterprise2",
    "decoy User2, not User3") or excepts."""
    if not isinstance(action, dict):
        return None
    mode = str(action.get("mode", "")).lower()
    done, banned = _moves(action)
    # (r50c: and a move permitted only in one case, forbidden everywhere else: "the only time we may Remove it is if ...")
    forbidden = [p.verb for p in words.prohibitions] + list(words.dispreferred) + _permitted_verbs(words.text)
    spared = set(words.contrasted) | (set(words.excepted) - _excepted_in_condition(words))
    second = _moves_put_second(words)
    for step, (verb, target) in enumerate(done):
        if step and (verb, target) in second:
            continue  # (r40m) "Remove Enterprise2 before restoring Op_Server0": that Restore is the order's next move
        if isinstance(target, str) and target in spared:
            return (f"target: the text contrasts its order with {target} (\"before\", \"rather than\", \"not\", \"except\"), "
                    f"but the action orders {verb} {target}: aim it at the host the text orders it for")
        if isinstance(target, str) and target in _classes_put_aside(words, kept=False):
            # (r60p) the class a preference is contrasted with ("decoy the op box in place of any user machine"):
            # an order aimed at it is the move the text puts aside
            return (f"target: the text contrasts its order with the {target} hosts (\"rather than any ...\"), but the "
                    f"action orders {verb} {target}: aim it at the host the text orders it for")
    if mode == "never":
        verb, target = banned[0]
        if not forbidden and (any(same_verb(o, verb) for o in ordered)
                              or not words.negated_conditions and not _NEGATIVE_WORD(words.instruction)):
            return (f"inverted: the text orders {', '.join(sorted(ordered)) or 'something'} and forbids nothing, but the "
                    f"action is a \"never\" of {verb}: it inverts the text")
        if forbidden and None not in forbidden and verb != ANY_VERB and not any(same_verb(f, verb) for f in forbidden):
            return f"verb: the action forbids {verb}, but the text forbids {', '.join(sorted(set(forbidden)))}"
        # (r48a: a class forbidden less the hosts the text leaves out of it, "every workstation other than User0 should
        # never be removed": a "never" of it on User0 is the opposite of the text)
        places = hosts_of(h for p in words.prohibitions if p.verb is None or same_verb(p.verb, verb) for h in p.hosts) \
            | (hosts_of(c for p in words.prohibitions if p.verb is None or same_verb(p.verb, verb) for c in p.classes)
               - (set(words.excepted) - _excepted_in_condition(words)))
        concrete = target in HOSTS or target in HOST_CLASSES
        if places and (not _aims_at(target, places) or concrete and not hosts_of([target]) <= places):
            return (f"inverted: the text forbids {verb if verb != ANY_VERB else 'every action'} on "
                    f"{', '.join(sorted(places))[:60]}, but the action forbids it on {target}")
        if not places and concrete and _waited_on_only(words, target):
            return (f"inverted: the text's ban names no host but {target} in the condition it waits on: that host is no "
                    "place of the ban; aim it at the host the ban means")
        if places and target == MATCHED and reachable - places - set(words.excepted):
            # "don't restore User2; restore User1" compiled as "never restore the matched user host": it forbids
            # the restore the text orders on User1
            return (f"inverted: the text forbids {verb if verb != ANY_VERB else 'every action'} on "
                    f"{', '.join(sorted(places))[:60]}, but the action forbids it on whatever the trigger matches "
                    f"({', '.join(sorted(reachable - places))[:60]}): aim it at what the text forbids it on")
    if mode == "prefer":
        verb, target = banned[0] if banned else ("", None)
        if done and (done[0][0], done[0][1]) == (verb, target):
            return (f"prefer: the action prefers {verb} {target or ''}".rstrip() + " over itself: it prescribes what it "
                    "disprefers; prefer what the text orders over what it disprefers")
        if done and same_verb(done[0][0], verb) and _concrete(done[0][1]) and _concrete(target) \
                and hosts_of([target]) <= hosts_of([done[0][1]]):
            # "prefer Restore User over Restore User0": the preferred move is the dispreferred one and more (User0 is a
            # user host), so it prescribes what it puts aside, whatever the text says
            return (f"prefer: the action prefers {verb} {done[0][1]} over {verb} {target}, but {target} is among "
                    f"{done[0][1]}: it prescribes what it disprefers; prefer what the text orders over what it disprefers")
        preferred_banned = _preferred_forbidden(words, done, reachable)
        if preferred_banned:
            return preferred_banned
        # (r38h: or the place the order puts second, "Remove on that server before you touch any user box")
        disfavoured = any(same_verb(f, verb) for f in forbidden if f is not None) or None in forbidden \
            or isinstance(target, str) and (target in spared or target in _put_last(words)) \
            or any(same_verb(f, verb) for f in _put_off(words)) or _replaced_instead(words, verb) \
            or target in _classes_put_aside(words)
        if not disfavoured:
            return (f"prefer: the action prefers {done[0][0]} over {verb} {target or ''}".rstrip() + ", but the text "
                    "disprefers neither that verb nor that host (\"rather than\", \"instead of\", \"before\", \"never\"): "
                    "keep to what the text prefers")
    return None


def _preferred_forbidden(words: Wording, done: list[tuple[str, Optional[str]]], reachable: set[str]) -> Optional[str]:
    """(r59q) A `prefer` whose preferred move is one the text forbids where it is aimed: "Never restore an op host rather
    than a user machine" forbids the Restore on the op host and prefers the one on the user machine, so "prefer Restore
    <op host> over Restore User" turns it around (the ban's verb counted as the dispreferred side, and the preference
    passed). A ban of every move there ("leave User1 be") forbids the preferred move as well."""
    if not done:
        return None
    verb, target = done[0]
    places = hosts_of(h for p in words.prohibitions if p.verb is None or same_verb(p.verb, verb) for h in p.hosts) \
        | hosts_of(c for p in words.prohibitions if p.verb is None or same_verb(p.verb, verb) for c in p.classes)
    # the side the ban sets its move against ("in preference to a user machine") is no place of the ban
    places -= hosts_of(_classes_put_aside(words)) | hosts_of(words.contrasted)
    aimed = reachable if target == MATCHED else hosts_of([target]) if _concrete(target) else set()
    if places and aimed and aimed <= places:
        return (f"inverted: the text forbids {verb} on {', '.join(sorted(places))[:60]}, but the action prefers {verb} "
                f"there: prefer the move the text keeps over the one it forbids")
    return None


# (r59h) A class right after a preference's contrast: "Restore that op box rather than any user machine", "decoy the
# op boxes in preference to the user machines". (forbidding.contrasted_hosts reads hosts named there, and a class only
# after a move put second; read as no word against the class, "prefer Remove over Remove User" was refused as preferring
# over a move the text never puts aside, the rule was kept without a meaning, and the exception taught for one of its
# hosts could not outrank it.)
_CLASS_CONTRASTED = re.compile(r"\b(?:rather\s+than|instead\s+of|in\s+preference\s+to|in\s+place\s+of)\s+(?:(?:on|to|for|at|with)\s+)?"
                               r"(?:(?:the|any|a|an|every|each|all)\s+)?(?:(?:of\s+)?the\s+)?(?P<what>[\w-]+(?:\s+[\w-]+)?)"
                               # (r59a) not the subject of a state: "when it, rather than any user machine, is rooted" sets the
                               # class apart from the condition's host, and disprefers no move on it
                               r"(?!(?:\s+[\w-]+)?\s*,?\s*(?:is|are|was|were|gets?|got|has|have|shows?|becomes?)\b)", re.IGNORECASE)


def _classes_put_aside(words: Wording, kept: bool = True) -> set[str]:
    """(r59h) The classes a preference is contrasted with (`_CLASS_CONTRASTED`) in the order's words. (r60l) With `kept`
    False, not those of a preference that is itself banned ("never reimage that op box rather than a user workstation":
    the class after "rather than" is the one the words keep, forbidding.PREFERENCE_BANNED)."""
    return {cls for m in _CLASS_CONTRASTED.finditer(words.order) if not hosts_in(m["what"])
            and (kept or not PREFERENCE_BANNED.search(words.order[:m.start()])) for cls in classes_in(m["what"])}


def _put_off_ordered(words: Wording, done: list[tuple[str, Optional[str]]], ordered: set[str]) -> Optional[str]:
    """(r37y) An action whose first move is a verb the text puts after another ("Analyse it before removing it", "plan
    go for a Remove first, since a Restore is too dear", "Remove never sticks on it") where the text orders that other verb:
    the order turned around, whatever the polarity words (a `prefer` of the first verb over it says it)."""
    if not done:
        return None
    put_last = _put_last(words)
    if done[0][1] in put_last:
        return (f"inverted: the text puts the move on {done[0][1]} after another (\"before\"), but the action orders "
                f"{done[0][0]} {done[0][1]} first: prefer the move the text puts first over it")
    later = _put_off(words, plain=True)
    first = {v for v in ordered if not any(same_verb(v, p) or same_verb(p, v) for p in later)}
    verb = done[0][0]
    if first and any(same_verb(p, verb) for p in later) and not any(same_verb(f, verb) for f in first):
        return (f"inverted: the text puts {verb} after {', '.join(sorted(first))} (\"before\", \"first\"), but the action "
                f"orders {verb} first: prefer {', '.join(sorted(first))} over it")
    return None


def _put_last(words: Wording) -> set[str]:
    """The hosts and classes the order names only after a "before" of its own verb ("restore Op_Server0 before restoring
    the user host": the user hosts come second), where it names another place ahead of it."""
    order = words.order
    places = set()
    for m in _BEFORE_VERB.finditer(order):
        if _TURNED_AROUND.search(order[max(0, m.start() - 30):m.end()]):
            continue
        after = re.split(r"[,;.:]|\s--\s", order[m.start():], maxsplit=1)[0]
        ahead = order[:m.start()]
        named_after = {*hosts_in(after), *classes_in(after)}
        if named_after and ({*hosts_in(ahead), *classes_in(ahead)} - named_after or _REFERS_BACK.search(ahead)):
            places |= named_after - {*hosts_in(ahead), *classes_in(ahead)}
    for m in _SECOND_PLACE.finditer(order):  # (r41m) "a Restore of Op_Host1 first and the op box after"
        ahead, after = order[:m.start("after")], m["after"]
        places |= {*hosts_in(after), *classes_in(after)} - {*hosts_in(ahead), *classes_in(ahead)}
    return places


# (r41m) The order's move on one place first, then the same move on another, its verb left out: "schedule a Restore of
# Op_Host1 first and the op box after", "decoy Op_Server0 first, then Enterprise2 next".
_SECOND_PLACE = re.compile(r"\bfirst\s*(?:,\s*|\s+)(?:and\s+)?(?:then\s+)?(?:(?:on|to)\s+)?(?P<after>(?:the|that|any|each|its)?\s*"
                           r"[\w-]+(?:\s+[\w-]+)?)\s+(?:after|afterwards|next|later|second)\b", re.IGNORECASE)


# (r38h) A host the order's first part means by a word that points back at its condition's host: "it", "its", "that
# server", "this box", "the same host" ("Remove on this box ahead of any work on the user subnet": the subnet comes
# second, the box first, though the first part names no host of its own).
_REFERS_BACK = re.compile(r"\b(?:it|its)\b|\b(?:that|this|the\s+same)\s+(?:\w+\s+)?(?:host|box|server|machine|workstation|"
                          r"desktop|node|one)\b", re.IGNORECASE)


# (r55a) Nobody objecting to a move, "no one minds if you touch it", "nobody objects to a Restore there", "nobody would
# complain": a permission in words of nobody, which the norm said of nobody (forbidding.ANY_VERB) is not.
_NOBODY_OBJECTS = re.compile(r"\b(?:nobody|no[\s-]one)\s+(?:(?:will|would|should|could|ever|really)\s+)*"
                             r"(?:minds?|cares?|objects?|complains?|gripes?|is\s+(?:going\s+to\s+)?(?:upset|bothered)|"
                             r"has\s+(?:a\s+problem|an\s+issue|objections?))\b", re.IGNORECASE)


def _never_unspoken(words: Wording, action: Optional[dict]) -> Optional[str]:
    """(r37y) A `never` of a verb the text turns down nowhere: no prohibition the reading places, and every clause that
    names the verb is free of a negation or a doubt ("I would take the attacker off User2 with a Remove" compiled as
    "never Remove User4", where the reading took a clause of the story for the instruction)."""
    if not isinstance(action, dict) or str(action.get("mode", "")).lower() != "never" or words.prohibitions \
            or words.dispreferred:
        return None
    verb = _verb(action.get("verb"))
    if verb == ANY_VERB:
        # (r55a) where the text's only "nobody" is nobody objecting ("no one minds if you touch User2"), the moves are let
        return ("inverted: the text says nobody objects to a move and forbids none, but the action is a \"never\" of every "
                "move") if _NOBODY_OBJECTS.search(words.text) else None
    if any(same_verb(p, verb) for p in _permitted_verbs(words.text)):
        return None  # (r50c: a move permitted in one case only is turned down everywhere else)
    clauses = [c for sentence in re.split(r"(?<=[.;!?])\s+", words.text) for c in _CLAUSE_END.split(sentence)
               if any(same_verb(named, verb) for named in verbs_in(c))]
    if clauses and not any(_NEGATIVE_WORD(c) or _DOUBTING.search(c) or _FAILS_NOW.search(c) for c in clauses):
        return (f"inverted: the text names {verb} only in clauses that order it or tell of it ({clauses[0].strip()[:60]!r}), "
                f"and turns it down nowhere, but the action is a \"never\" of it")
    return None


# "restore Op_Server0 before restoring the user host", "ahead of any Restore": the verb so named comes second.
# (a verb right after the word, or after "you" / "we": "as before the Analyse" in a condition is no order)
# ("before any Restore of a user host", "before a Remove": any move of that verb, not "the" one a condition speaks of)
_BEFORE_VERB = re.compile(r"(?<!\bas\s)\b(?:before|ahead\s+of|prior\s+to)\s+(?:(?:you|we)\s+)?(?:(?:any|a|an|every|each)\s+)?(?P<next>\w+)",
                          re.IGNORECASE)
# "plan a Remove first", "Remove it first", "first Restore it": the verb so ordered comes before any other.
_FIRST = re.compile(r"\b(?P<verb>\w+)\s+(?:(?:it|them|that|this|the\s+\w+|\w+\d)\s+)?first\b|\bfirst\s+(?:(?:a|an|the)\s+)?(?P<after>\w+)",
                    re.IGNORECASE)


def _put_off(words: Wording, plain: bool = False) -> set[str]:
    """The verbs an order puts after another ("before restoring ..."): a priority over them, as `prefer ... over`
    writes it. An order of one verb "first" ("plan a Remove first -- a Restore costs too much") puts after it every
    other verb the text names. `plain`: only where no negation just before turns the "first" or "before" around ("rather
    than analysing it first", "no Analyse first" put nothing off)."""
    order = words.order
    kept = (lambda m: not _TURNED_AROUND.search(order[max(0, m.start() - 30):m.start() + len(m.group(0))])) if plain \
        else (lambda m: True)
    # (r48m: "never chooses a Restore ahead of the Remove": the move after the negated "before" comes first, none put off there)
    turned = {m.start("next") for m in _NOT_BEFORE.finditer(order)}
    later = {v for m in _BEFORE_VERB.finditer(order) if kept(m) and m.start("next") not in turned for v in verbs_in(m["next"])}
    # (r48m) "save any Restore for the end", "leave every decoy for later": that move after the others
    later |= {v for m in _LEFT_FOR_LATER.finditer(order) for v in verbs_in(m["what"])}
    first = {v for m in _FIRST.finditer(order) if kept(m) for v in verbs_in(m["verb"] or m["after"] or "")}
    # a verb the text says does not work there, in the present ("A Remove doesn't hold on that server"): a report, no
    # order of its own, but what the order is given in place of
    failing = {v for sentence in re.split(r"(?<=[.;!?])\s+", words.text) if (fails := _FAILS_NOW.search(sentence))
               for v in verbs_in(sentence[:fails.start()])}
    # (r48m) a move the attacker is said to undo, in the present: "red returns to the box right after every Restore"
    failing |= {v for m in _BACK_AFTER.finditer(words.text) for v in verbs_in(m["move"])}
    return later | failing | ({v for v in verbs_in(words.text) if v not in first} if first else set())


# (r48m) "Restore it instead", "instead, plan a Restore": "instead" with no "of", in place of a move said elsewhere
_INSTEAD_ALONE = re.compile(r"\binstead\b(?!\s+of\b)", re.IGNORECASE)


def _replaced_instead(words: Wording, verb: str) -> bool:
    """(r48m) Whether the order is given "instead" (no "of") and the text names `verb` elsewhere, in its reason or its
    story ("Analyse it instead; a Remove was wasted there"): the move the order takes the place of, as `prefer ...
    over` it writes it."""
    return bool(_INSTEAD_ALONE.search(words.order)) and not any(same_verb(verb, o) for o in verbs_in(words.order)) \
        and any(same_verb(named, verb) for named in verbs_in(words.text))


# (r48m) "red returns to the box right after every Restore", "the intruder comes straight back after each Remove": the move
# does not hold there (the present, of any such move; "it was back after our Remove" tells what happened once)
_BACK_AFTER = re.compile(r"\b(?:(?:is|are|comes?|gets?)\s+(?:straight\s+|right\s+)?back|returns?)\b[^,;.]{0,40}?\b(?:after|following)\s+"
                         r"(?:any|every|each|a|an)\s+(?P<move>\w+)", re.IGNORECASE)
# A negation just before a "first" or "before" turns it around: "rather than analysing it first", "no Analyse first".
_TURNED_AROUND = re.compile(r"\b(?:no|not|never|without|rather\s+than|instead\s+of)\b|n['\u2019]t\b", re.IGNORECASE)
# "a Remove doesn't hold on that server", "Restore never sticks there", "Remove keeps failing there" (the present; "Remove
# did not hold last time" tells what happened once)
_FAILS_NOW = re.compile(r"\b(?:(?:does\s*n[o']t|do\s*n[o']t|won'?t|will\s+not|never)\s+(?:really\s+)?(?:holds?|works?|sticks?|lasts?)|"
                        r"keeps?\s+failing)\b", re.IGNORECASE)


def _ordered_verbs(words: Wording) -> set[str]:
    """The catalog verbs the order itself names: the instruction without its conditions ("Restore User1 if it is
    still compromised after a Remove" orders Restore only). Empty when the order names none."""
    order = words.order
    return set(verbs_in(order)) | _put_first(words.text)


# "never restore it while ...; an Analyse comes first": the move put first, in a clause of its own after the order (a
# prohibition's alternative, as `prefer ... over` writes it), is ordered as much as the instruction's own verb
_COMES_FIRST = re.compile(r"\b(?P<verb>\w+)\s+(?:(?:should|must|has\s+to|needs\s+to|ought\s+to)\s+)?(?:always\s+)?"
                          r"(?:comes?|goes?)\s+first\b", re.IGNORECASE)


def _put_first(text: str) -> set[str]:
    """The catalog verbs the text says come first ("a Remove goes first")."""
    # (r54l: not first on a list of moves to avoid, forbidding.LISTED_TO_AVOID: a prohibition)
    avoided = [m.span() for m in LISTED_TO_AVOID.finditer(text)]
    return {v for m in _COMES_FIRST.finditer(text) if not any(a <= m.start() < b for a, b in avoided) for v in verbs_in(m["verb"])}


# Words that turn an order around or doubt it, beyond the plain negations: "no point restoring it", "a Restore there is
# overkill", "I'd be reluctant to remove it".
_DOUBTING = re.compile(r"\b(?:pointless|useless|futile|wasted|wasteful|mistake|counterproductive|overkill|unnecessary|needless|"
                       r"reluctant|hesitant|backfir\w*|wrong|hardly|barely|scarcely|rarely|seldom|nobody|no\s+one|last\s+thing|"
                       # (r48a) a view the teacher disowns or reports from another: "it is a myth that ...", "the night
                       # crew claims ..."
                       r"myth|untrue|nonsense|mistaken|claims?|claimed|insists?|insisted|allegedly|supposedly)\b", re.IGNORECASE)
# Words of an order that point back at what the text turned down elsewhere ("remove it instead", "leave the rest
# alone"): a negation only when nothing in the text is turned down.
_POINTING_BACK = re.compile(r"\b(?:alone|leave|spare)\b", re.IGNORECASE)
# "Restore User4 instead", "remove it rather than restoring it": the order's verb is what is done in place of another
# (the dispreferred one, which the disprefer check holds to the text)
# (r31m: "I'd rather reimage it than wait": the order's own verb preferred, its "rather" no negation of it)
_IN_PLACE_OF = re.compile(r"\b(?:instead(?:\s+of)?|rather\s+than|otherwise)\b|"
                          r"\b(?:would|['\u2019]d)\s+rather(?=\s+\w+\s+(?:it|them|that\s+host|\w+\d)\s+than\b)", re.IGNORECASE)
# The writer's doubt about the lesson, not about the order: "I am not certain this generalises", "I might be wrong".
_WRITERS_DOUBT = re.compile(r"\b(?:(?:i\s+am|i'm|we\s+are|we're)\s+not\s+(?:entirely\s+|completely\s+|fully\s+|at\s+all\s+)?"
                            r"(?:sure|certain|confident|convinced)|(?:i|we)\s+(?:might|may|could)\s+be\s+(?:wrong|mistaken|"
                            r"overweighting|overreading|overfitting)|not\s+(?:sure|certain)\s+(?:if|whether|that))\b", re.IGNORECASE)
# (r52c) The writer who does not know whether the move is right: "I cannot say whether we should restore User2", "not
# sure if removing the attacker there is right", "hard to tell whether a decoy helps". The move stands in the question
# left open, so the note neither orders nor forbids it (read past the doubt, it was an order; "not sure if" was taken
# for a doubt about the lesson, `_WRITERS_DOUBT`).
_UNDECIDED = re.compile(r"\b(?:(?:i|we)\s+(?:really\s+|honestly\s+)?(?:can(?:not|['\u2019]t|\s+not)|could(?:n['\u2019]t|\s+not)|"
                        r"do(?:n['\u2019]t|\s+not))\s+(?:say|tell|decide|judge|know)|(?:not|never)\s+(?:sure|certain|clear|convinced)|"
                        r"unsure|uncertain|unclear|undecided|hard\s+to\s+(?:say|tell|judge)|no\s+idea|i\s+wonder|who\s+knows)"
                        r"\s*,?\s+(?:if|whether)\b|"
                        # (r52a) the doubt said as a verb, "I doubt we should restore User2", "doubtful that a decoy helps":
                        # read past, the move doubted was ordered
                        r"\b(?:i|we)\s+(?:really\s+|honestly\s+|rather\s+|kind\s+of\s+)?doubt(?:\s+(?:if|whether|that))?\b|"
                        r"\bdoubtful\s+(?:if|whether|that)\b", re.IGNORECASE)
# (r60l) A move put forward with a hedge the writer then withdraws: "maybe Restore Enterprise1, I am not sure", "perhaps
# a Remove of User0 - no idea really", "Not sure, but perhaps decoy Op_Host2." The writer owns no order (read past the
# doubt, "maybe" was dropped and a "do" passed for the text); a doubt that goes on to what it is about, "I'm not sure
# the Remove held", is about something else, and left to the other readers.
_BARE_DOUBT = (r"(?:(?:but|though|although|tbh|honestly)\s+)?(?:(?:i\s+am|i['\u2019]m|im|we\s+are|we['\u2019]re)\s+)?"
               r"(?:not\s+(?:really\s+|entirely\s+|totally\s+|at\s+all\s+|100%?\s+)?(?:sure|certain|convinced)|unsure|no\s+idea|"
               r"(?:i|we)\s+(?:do\s+not|don['\u2019]?t)\s+know|dunno)(?:\s+(?:though|tbh|honestly|really|about\s+(?:it|that|this)))?")
_HEDGE_WITHDRAWN = re.compile(r"\b(?:maybe|perhaps|possibly)\b(?P<hedged>[^.;:!?\n]*?)\s*(?:[,;:.!?\u2013\u2014]|\s-)\s*" + _BARE_DOUBT
                              + r"\s*(?:[.!?\n]|$)|(?:^|(?<=[.;!?\n])\s*)" + _BARE_DOUBT + r"\s*[,;:.\u2013\u2014-]\s*(?:but\s+)?"
                              r"(?:maybe|perhaps|possibly)\b(?P<after>[^.;:!?\n]*)", re.IGNORECASE)
# A question about the story, what a move did or would have done, and no doubt about making it: "would have held", "had
# worked", "did any good", "was worth it".
_TOLD_OF_BEFORE = re.compile(r"\b(?:(?:would|could|might|should)(?:n['\u2019]t)?\s+(?:not\s+)?have|had|did|was|were|has\s+(?:ever\s+)?(?:helped|"
                             r"worked|held|done))\b", re.IGNORECASE)
# (r60m) A move the defender made said to have failed, "that Remove did not work", "the Restore didn't take": the outcome its
# condition looks back at (history: `changed` false), no turning down of the order's move.
_MOVE_FAILED = re.compile(r"\b(?:that|the|this|its|our|my|a|their)\s+(?:remov\w*|restor\w*|analy[sz]\w*|decoy\w*)\s+(?:did|had|has|does)"
                          r"(?:n['\u2019]t|\s+not)\s+(?:work|take|hold|stick|help|succeed|land)\b", re.IGNORECASE)
# (r42m) What has not been done so far, told in the perfect with "yet" ("no one has inspected that box yet", "it hasn't been
# analysed yet"): the history that makes the order worth giving, no turning down of it.
_NOT_DONE_YET = re.compile(r"\b(?:(?:nobody|no\s+one|none\s+of\s+us)\s+(?:has|have|had)|(?:has|have|had)(?:n['\u2019]t|\s+not))"
                           r"\s+(?:yet\s+|ever\s+)?(?:been\s+)?[a-z]+(?:ed|en|t)\b[^,;.!?]*?\byet\b", re.IGNORECASE)
# A negated holding back is an order: "never hesitate to restore it", "don't wait to remove the attacker".
_URGING = re.compile(r"\b(?:never|do\s+not|don['\u2019]?t|does\s+not|doesn['\u2019]?t|without)\s+(?:hesitat\w*|wait\w*|delay\w*|forget\w*|fail\w*|"
                     # (r48m) "the chooser doesn't second-guess that call", "never overrule that": the order kept, not doubted
                     r"neglect\w*|hold\w*\s+back|put\w*\s+off|second[- ]?guess\w*|overrul\w*)\b|"
                     # (r40m) emphasis said with a "nothing" / "no": "nothing matters more", "nothing else matters", "no
                     # exceptions", "no questions asked": how much the order counts, no negation of it
                     r"\bnothing\s+(?:else\s+)?(?:matters|counts|comes\s+first)(?:\s+(?:more|as\s+much))?\b|"
                     r"\bnothing\s+is\s+more\s+(?:urgent|important|pressing)\b|\bno\s+(?:exceptions?|questions\s+asked|excuses)\b|"
                     # (r57m) "..., no discussion", "no debate", "no arguing": the order not open to dispute
                     r"\bno\s+(?:discussion|debate|argument|arguing|ifs\s+or\s+buts|two\s+ways\s+about\s+it)\b|"
                     # (r42m) a concession, "no matter what the other hosts show", "no matter how busy the step is": the
                     # order holds whatever else holds, no negation of it
                     r"\bno\s+matter\b(?=\s+(?:what|how|which|who|where|when|whether|if)\b)|"
                     # (r59m) advice said by denying its harm, "it can't hurt to Remove it" (markers.HARM_DENIED), and a
                     # tag that asks assent to what it closes, "..., isn't it?", "..., wouldn't it?": the order urged,
                     # not turned down (a question nothing answers is `_move_only_asked`'s)
                     + HARM_DENIED + "|" + NEGATIVE_TAG + "|"
                     # (r59m) emphasis said with a "no", "Restore it, no half measures" (markers.EMPHATIC_NO)
                     + EMPHATIC_NO,
                     re.IGNORECASE)
# Where an order's clause ends: a sentence, a semicolon, a dash, a ", but" ("Reimage Enterprise2, but never reimage the
# other enterprise servers": the negation is the second clause's). A lone hyphen between spaces is a dash too, or a
# list's item once its lines are joined (r39g: cases listed with their orders, then a line that gives any other case
# nothing, were one clause, and that line's "nothing" was read as a doubt on every item's order).
_CLAUSE_END = re.compile(r"(?<=[.!?;])\s+|\s+(?:--?|\u2014|\u2013)\s+|\s*,\s+(?=(?:but|yet|though)\b)", re.IGNORECASE)


# An order of one verb and no other: "plan Monitor and nothing else", "Remove, nothing more" (the order's "only").
# (r31m: "..., and not yet use anything heavier": no other, stronger move yet; "..., and at no other time")
# (r32m: "recommend a decoy there, nothing heavier", "nothing fancier": no stronger move than the order's)
# (r35m: "..., and nothing softer", "nothing milder": no weaker move either; "a Remove of User4 alone": that host only)
# (r39k: any comparative, "nothing costlier", "nothing pricier", "nothing more expensive": the order and no step past it)
_ONLY_THIS = re.compile(r"(?:,\s*|\s+and\s+|\s+)(?:nothing|none)\s+(?:else|more|besides|drastic|less|(?:more|less)\s+\w+|"
                        r"\w+(?:er|ier))\b|\bnothing\s+but\b|"
                        r"\b(?:of|on|to|for)\s+(?:it|that\s+(?:host|box|server|machine)|(?:user|enterprise|op_(?:server|host))\d)"
                        r"\s+alone\b|"
                        r"(?:,\s*|\s+)(?:and\s+)?(?:at\s+no\s+other\s+time|never\s+otherwise)\b|"
                        r"\bnot\s+(?:yet\s+)?(?:reach\s+for|go\s+for|use|try|escalate\s+to)\s+anything\s+"
                        r"(?:heavier|else|more|stronger|bigger|harsher)\b", re.IGNORECASE)
# (r53l) "Restore nothing on Enterprise1 except when it is rooted", its condition taken away: the object denied and the
# exception that lets the move where the condition holds, two negations that give the order (clauses.conditions_in)
_LET_BY_EXCEPTION = re.compile(r"\b(?:nothing|none|nobody|no\s+one)\b" + DENIED_PLACE + r"\s*,?\s*except\s*(?=[.;,!?]|$)", re.IGNORECASE)
# "Remove User1; never widen that rule out to the other user hosts": the writer keeps the order to the host it names,
# no negation of its verb (a note that names a host stays a negation the reading must place)
_NOT_WIDER = re.compile(r"\b(?:do\s+not|don['\u2019]t|never)\s+(?:stretch|extend|generali[sz]e|widen|broaden)\s+"
                        r"(?:this|that|it|the\s+(?:rule|lesson))\s+(?:out\s+)?to\b[^,.;:]*", re.IGNORECASE)


# A table's quiet value named as a state ("Compromised No", "compromise: no"): a row's value, no negation of the order
# (r39g: a listed case "Activity Scan, Compromised No: a decoy on it" was read as doubting its own decoy).
# (r41m) A "not" / "no" that turns down nothing the text orders:
# - an addition, "not merely / just / only / simply <x>": more than x, never less;
# - where the note itself says it stops, "<case> is not this note's business", "... -> not this rule": a case the
#   note leaves alone (whether its condition says so is the claims check's), no turn-down of its order;
# - what the other hosts are said to run or hold, "the others run nothing worth it", "the rest have no decoy": a note
#   on the reach of the order (which the host checks hold to the text), no negation of its verb.
_NO_TURN_DOWN = re.compile(r"\bnot\s+(?:merely|just|only|simply)\b|"
                           r"(?:\b(?:is|are)\s*(?:not|n['\u2019]t)\s+|\bnot\s+)(?:this|the|my|our)\s+(?:note|rule|lesson)"
                           r"(?:['\u2019]s\s+(?:business|concern|job|affair|matter|case))?\b|"
                           r"\b(?:the\s+)?(?:others|rest|other\s+(?:ones|hosts|boxes|servers|machines))\s+(?:\w+\s+){1,2}?"
                           r"(?:nothing|no|none)\b[^,.;:()]*|"
                           # (r42h) what one reading of the host is said not to outweigh ("a low score never outweighs a
                           # compromised row"): why the order stands, no turn-down of it
                           r"\b(?:ratings?|risk|scores?|rows?|tables?|evidence|readings?|alerts?)\s+(?:never|(?:does|do)\s*(?:not|n['\u2019]t)|"
                           r"can(?:not|['\u2019]t))\s+(?:outweighs?|overrides?|trumps?|beats?|outranks?)\b", re.IGNORECASE)
# (r48m) The writer taking back what they just said: "no, scratch that", "wait, strike that", "sorry, forget that".
_TAKEN_BACK = re.compile(r"\b(?:no|nope|wait|sorry|oops)\s*[,.!]?\s*(?:scratch|strike|forget|cancel|ignore)\s+that\b", re.IGNORECASE)
# (r48m) A move turned down only ahead of another: "never chooses a Restore ahead of the Remove", "don't restore it before the Remove"
# (`next`: the move that comes first)
_NOT_BEFORE = re.compile(r"(?:\b(?:never|not)|n['\u2019]t)\s+(?:[\w-]+\s+){0,3}?(?:before|ahead\s+of|prior\s+to)\s+"
                         r"(?:(?:a|an|any|the|its|their)\s+)?(?P<next>\w+)", re.IGNORECASE)
# (r56m) The order's own move said as the least that will do: "nothing less than a Restore will do", "nothing short of a
# Remove", "no less than a full Restore" (`move`: the move so named). It asks for that move, and no weaker one, so it
# turns down no part of the order; read as a negation, the order of that very move was doubted.
# (r56b) Only said as the least that will do: the phrase ends its clause, or what follows says the move will do ("... will
# do", "... helps", "... is needed", a word at most before it, a misspelt "will" too), and no question mark ends it. "nothing short of a Restore? nah", "no less than a
# Restore ever helped", "nothing less than a Restore makes sense? I doubt it" doubt or deny the move.
_NOTHING_SHORT_OF = re.compile(r"\b(?:nothing|no)\s+(?:less|short)\s+(?:than|of)\s+(?:(?:a|an|the)\s+)?(?:full\s+)?(?P<move>[\w-]+)"
                               r"(?:\s+(?:of|on|for)\s+[\w-]+)?"
                               r"(?=\s*(?:[.;!,\n\u2013\u2014]|--|$)|\s+(?:[\w']+\s+)?"
                               r"(?:do|does|help|helps|work|works|suffice|suffices|fix(?:es)?\s+it|cuts?\s+it|is\s+(?:needed|required|"
                               r"enough|called\s+for|acceptable|right)|gets?\s+it\s+back)\b)(?![^.!?\n]*\?)", re.IGNORECASE)
# (r60m) "Nothing ... but <move>" with the clause's verb between them, "Nothing should be advised on User3 other than a
# Restore", "no move should be planned on User2 except a Remove": that move and no other, its order (shorthand reads
# "nothing but a <move>" side by side). Not after a comma ("nothing is to be done there, but a Remove ..." opens another
# clause), nor told in the past ("nothing was done ... but an Analyse": a story), nor asked ("... but an Analyse?").
# (r60b) Its verb one of choosing or doing ("is to be planned", "should be advised", "gets picked"): "Nothing is gained on
# Op_Server0 but a Restore wastes a turn" is no such clause, its "but" opens another that says what the move costs.
_NOTHING_BUT_THE_MOVE = re.compile(r"\b(?:nothing|no\s+(?:other\s+)?(?:move|action|recommendation|step))\s+(?:(?:is|should\s+be|"
                                   r"must\s+be|may\s+be|can\s+be|gets?)\s+(?:to\s+be\s+)?(?:\w+ly\s+)?(?:planned|done|chosen|"
                                   r"recommended|advised|taken|made|scheduled|picked|selected|played|queued|proposed|suggested|"
                                   r"allowed|permitted|called\s+for|tried|issued|ordered|put)|goes)\b[^.;:!?,\n]{0,60}?\b(?:but|except|other\s+than|"
                                   r"save)\s+(?:(?:a|an|the)\s+)?(?P<move>[\w-]+)(?![^.!?\n]*\?)", re.IGNORECASE)
# (r60b) A claim denied right before it, "It's false that nothing ... but a Restore", "I doubt that ...": no order of it
_DENIED_JUST_BEFORE = re.compile(r"\b(?:false|untrue|wrong|a\s+myth|nonsense|not\s+(?:true|so|the\s+case)|disagree|doubt|deny|"
                                 r"denies)\s+(?:that\s+)?$", re.IGNORECASE)
# (r60m) The order's choice of one move of two, "one or the other, and not both", "either one, never both": its "not" turns
# down doing both, no move of the order (instruction._ONE_NOT_BOTH reads it as no situation before a colon)
_ONE_NOT_BOTH_SAID = re.compile(r"\b(?:one\s+or\s+the\s+other|either\s+one|one\s+of\s+(?:the\s+)?two)\s*,?\s*(?:(?:but|and)\s+)?"
                                r"(?:not|never)\s+both\b", re.IGNORECASE)
# (r48m) Another move left for later or to someone else: "leave every decoy for later", "leave the second Analyse to
# the day team", "save any Restore for the end" (`what`, a move's noun; "leave it for later" is no such move)
_LEFT_FOR_LATER = re.compile(r"\b(?:leav(?:e|es|ing)|keep(?:s|ing)?|sav(?:e|es|ing))\s+(?P<what>(?:(?:the|any|all|its|their|a|an)\s+)?(?:[\w-]+\s+){0,2}?[\w-]+)\s+"
                             r"(?:for|to|until|till)\s+(?:later|afterwards|after\w*|(?:the\s+)?(?:next|other|night|day|following)"
                             r"\s+(?:shift|team|step|turn|round|one)|another\s+(?:shift|team|step|turn|time)|someone\s+else|"
                             r"(?:the\s+)?(?:last|end))\b", re.IGNORECASE)
# (r57m) The "no" that answers the question before it, opening the clause after: "Was a Remove right there? No, an
# Analyse was due: Analyse User4 ...". It turns down the move the question asked after (forms.moves_answered, the
# _answered check), never the other move the answer goes on to order.
_ANSWER_NO_OPENS = re.compile(r"^\s*(?:no|nope|nah)\s*[,.!:;\u2014\u2013-]+\s*", re.IGNORECASE)

# (r57b) An answer whose "no" reaches on to the next move: "No, nor would a Remove of User2", "No, and neither would a
# Restore", "No, a Remove either": the denial goes on, so the "no" is that move's too
_DENIAL_GOES_ON = re.compile(r"^(?:and\s+|or\s+|but\s+)?(?:nor|neither|not|nothing|never|no)\b|\b(?:nor|neither|either|"
                             r"no\s+(?:better|more|use|good)|as\s+well|too|also|likewise|same\s+goes)\b", re.IGNORECASE)


def _answer_no_away(text: str, clause: str, verb: str) -> str:
    """(r57m) `clause` without its opening "no" (`_ANSWER_NO_OPENS`) where the sentence before it is a question that
    asks after some move, and not after `verb`."""
    opening = _ANSWER_NO_OPENS.match(clause)
    at = text.find(clause.strip())
    if opening is None or at < 0 or not text[:at].rstrip().endswith("?"):
        return clause
    question = re.split(r"(?<=[.!?;:])\s+", text[:at].rstrip()[:-1])[-1]
    asked = verbs_in(question)
    if _DENIAL_GOES_ON.search(clause[opening.end():]):
        return clause  # (r57b) "No, nor would a Remove": the answer's "no" said of the other move as well
    return clause[opening.end():] if asked and not any(same_verb(a, verb) for a in asked) else clause


# (r42m) A host's state denied in the order's clause, "a box scanned, nothing owned on it": the situation's own quiet
# value, said in words, no turning down of the order's verb.
_NOTHING_HELD = re.compile(r"\bnothing\s+(?:is\s+|was\s+)?(?:(?:owned|held|taken|pwned|rooted|compromised)\s+)?on\s+"
                           r"(?:it|that\s+(?:host|box|machine|one|server)|there)\b", re.IGNORECASE)
_QUIET_VALUE = re.compile(r"\bcompromised?\s*(?::|=|\bis\b|\bof\b)?\s*no\b(?!\s+(?:host|box|machine|server|one)s?\b)",
                          re.IGNORECASE)


def _scope_note_removed(clause: str, done: list[tuple[str, Optional[str]]]) -> str:
    """The clause without a note that keeps the order to the hosts it names, where every host the order aims at is
    a named one and the note names none."""
    if not done or not all(target in HOSTS for _, target in done):
        return clause
    return _NOT_WIDER.sub(lambda m: m[0] if hosts_in(m[0]) else " ", clause)


# (r34m) The order's target set against another host the text describes but does not name: "a decoy for the untouched box,
# not the owned box", "remove User2 itself, not the server that was hit before it", "Remove just that host and let the
# rest be": which host the order is for, never a negation of its verb.
_OTHER_ONE = (r",?\s*(?:and\s+|but\s+)?\bnot\s+(?:on\s+|to\s+|at\s+|for\s+|from\s+)?(?:the|that)\s+(?:[\w-]+\s+){0,3}?"
              r"(?:one|box|host|server|machine|desk|workstation)\b(?:\s+(?:that|which)\s+[^,.;:()]*)?|"
              r"\b(?:and\s+)?leave\s+(?:the\s+)?(?:others|rest|other\s+(?:ones|hosts|boxes|servers|desks|machines))\s+"
              r"(?:be|alone|untouched|out\s+of\s+it)\b|"
              # (r41h) what the other hosts lack, said beside the order on one: "(just on Op_Host1; the rest carry
              # nothing a decoy would catch)" says why the order is kept to it, no negation of its verb
              r"\b(?:the\s+)?(?:others|rest|other\s+(?:ones|hosts|boxes|servers|desks|machines))\s+(?:run|have|hold|host|"
              r"carry|offer|serve)\s+(?:nothing|no)\b[^,.;:()]*")
# A note that keeps the order to what it is about (r31m): "I have no evidence this carries over to user
# boxes", "this must not stretch to Op_Host1 or Op_Host2", "on that one box and not on any of its neighbours",
# "leave its neighbours be": a negation of the order's reach, never of its verb.
_SCOPE_NOTE = re.compile(r"\b(?:(?:i|we)\s+(?:have|see|had)\s+|there\s+is\s+)?no\s+(?:evidence|sign|reason\s+to\s+think)\s+(?:that\s+)?"
                         r"(?:this|it|that|the\s+(?:rule|lesson))\s+(?:carries|extends|applies|holds|generali[sz]es|transfers)\s+"
                         r"(?:over\s+)?to\b[^;.:]*|"
                         r"\b(?:this|that|it|the\s+(?:rule|lesson))\s+(?:should|must|does|will|need)\s*(?:not|n['\u2019]t)\s+"
                         r"(?:stretch|extend|apply|carry\s+over|generali[sz]e|widen|reach)\s+(?:out\s+)?to\b[^;.:]*|"
                         r"(?:\band\s+)?\bnot\s+(?:on\s+|to\s+)?(?:its|the|any\s+of\s+its)\s+neighbou?rs?\b|"
                         r"\bleave\s+(?:its|the)\s+neighbou?rs?\s+(?:be|alone|out\s+of\s+it)\b|"
                         r"\bon\s+(?:that|this|the)\s+(?:one\s+)?(?:host|box|machine)\s+alone\b", re.IGNORECASE)


def _set_aside(words: Wording, predicate, action: Optional[dict]) -> list[str]:
    """The spans of a text whose negation is no part of its order's polarity (r31m; read as a negation left unplaced,
    the rule was refused and kept semantic):
    - where its order ends ("..., once it shows root, a decoy there is no longer worth it", ORDER_ENDED), kept
      only where the predicate cannot hold in that ending situation;
    - a note that keeps the order to what it is about (_SCOPE_NOTE), kept only where no host it names is one the
      predicate can match or the action aims at."""
    subject = words.referent or (words.hosts[0] if len(words.hosts) == 1 else None)
    spans = []
    for match in ORDER_ENDED.finditer(words.text):
        ending = claims(match["end"] or match["doubted"] or match["late"] or match["void"], subject)
        if ending is not None and not may_overlap(predicate, ending):
            spans.append(match.group(0))
    done, banned = _moves(action)
    reached = set(positive_hosts(predicate)) | hosts_of(t for _, t in done + banned if _concrete(t))
    for match in _SCOPE_NOTE.finditer(words.text):
        if not hosts_of([*hosts_in(match.group(0)), *classes_in(match.group(0))]) & reached:
            spans.append(match.group(0))
    # (r34m: the other host an order is set against, described, "not on the user box that fell first", is another host
    # than the order's whatever class it names)
    spans += [m.group(0) for m in re.finditer(_OTHER_ONE, words.text, re.IGNORECASE)]
    return spans


def _answered(words: Wording, done: list[tuple[str, Optional[str]]], banned: list[tuple[str, Optional[str]]]) -> Optional[str]:
    """(r54h) A move a question asks about, ordered where its answer turns it down ("should it get another Remove? No -
    ...") or leaves it open ("it depends"), or a move the text only suggests ("it might be worth a Remove"): the
    opposite of the text, or more than it says (forms.moves_answered, forms.moves_only_suggested)."""
    denied, left_open = moves_answered(words.text)
    if (done or banned) and proposal_unsettled(words.text):  # (r55e) "> Restore User2 ... / Agreed?": not agreed
        return ("polarity: the text quotes a note and agrees to nothing (a question, or no answer): it orders no move; "
                "keep the rule semantic")
    for verb, _ in done:
        if any(same_verb(verb, d) for d in denied) and not any(same_verb(verb, b) for b, _ in banned):
            return (f"polarity: the text asks whether to {verb} and its answer is no, but the action orders {verb}: "
                    "a move turned down is a \"never\" (or a \"prefer ... over\" it), never a \"do\"")
        if any(same_verb(verb, o) for o in left_open | moves_only_suggested(words.text)):
            return (f"polarity: the text leaves {verb} open (a question it does not settle, or a move it only suggests, "
                    f"\"might be worth\", \"we could\"): it neither orders {verb} nor turns it down; keep the rule semantic")
    return None


def _undecided(words: Wording, done: list[tuple[str, Optional[str]]], banned: Sequence[tuple[str, Optional[str]]] = ()) -> Optional[str]:
    """(r52c) A move the writer leaves undecided (`_UNDECIDED`), read in the whole text: the question may open with the
    "if" a condition opens with ("not sure if removing it is right when ..."), so the order the reading is left with
    holds no trace of it. The question runs to the end of its clause ("not sure this generalises, but restore it"
    orders the Restore). (r60d) A hedge the writer withdraws bans nothing either: "maybe never Remove it, I'm not sure"
    (`banned`; read past it, the "never" passed for the text)."""
    for verb, _ in (*done, *banned):
        for hedged in _HEDGE_WITHDRAWN.finditer(words.text):
            if any(same_verb(named, verb) for named in verbs_in(hedged["hedged"] or hedged["after"] or "")):
                return (f"polarity: the move {verb} is put forward with a hedge the writer withdraws "
                        f"({hedged.group(0)[:70]!r}): no order; keep the rule semantic")
    for verb, _ in done:
        for undecided in _UNDECIDED.finditer(words.text):
            question = _CLAUSE_END.split(words.text[undecided.end():], maxsplit=1)[0]
            if _TOLD_OF_BEFORE.search(question):
                continue  # "I don't know whether a Restore would have held": a doubt about what a move did or would have done
            if any(same_verb(named, verb) for named in verbs_in(question)):
                return (f"polarity: the move {verb} stands in a question the writer leaves open "
                        f"({(undecided.group(0) + question)[:70]!r}): the text neither orders {verb} nor turns it down; "
                        "keep the rule semantic")
    return None


def _unplaced_negation(words: Wording, done: list[tuple[str, Optional[str]]], ended: Iterable[str] = (),
                       predicate=None) -> Optional[str]:
    """An order of a verb whose own clause holds a negation (or a doubt) that the reading places nowhere: no
    prohibition or dispreferred verb of that clause, no host it excepts or contrasts, no condition. Whether the text
    orders the verb or turns it down is then unknown ("I'd rather we didn't restore Op_Server0", "no point
    restoring it, it comes straight back"): a prohibition phrased in words the reader has not met must never become a
    `do`, so the predicate is refused and the rule kept semantic, where its own words are what is injected."""
    order = order_without_conditions(words.instruction, words.conditions, ended)
    placed_verbs = {p.verb for p in words.prohibitions if p.verb} | set(words.dispreferred)
    placed_hosts = {h for p in words.prohibitions for h in (*p.hosts, *p.classes)} | set(words.excepted) \
        | set(words.contrasted)
    placed_anywhere = bool(placed_verbs or placed_hosts)
    for verb, _ in done:
        for clause in _CLAUSE_END.split(order):
            if not any(same_verb(named, verb) for named in verbs_in(clause)) \
                    or clause.strip(" ,.") and any(clause.strip(" ,.") in span for span in ended):
                continue  # (where the order ends, which the predicate excludes, is no negation of it)
            # "Don't restore it. Remove it instead.": the word that points back at what the text turned down is that
            # prohibition's, wherever the reading placed it
            # (r43x: "not on the op subnet" denies a host a class, which says where the order goes, not whether)
            cues = _ONLY_THIS.sub(" ", _LET_BY_EXCEPTION.sub(" ", membership_denied_away(_scope_note_removed(
                _answer_no_away(words.text, clause, verb), done))))
            for span in ended:  # (a scope note or an ending inside the clause negates nothing of its verb)
                cues = cues.replace(span, " ")
            cues = HOLDING_OFF_DENIED.sub(" ", cues)  # (r45m) "don't skip the Analyse": two negations, an order
            cues = conceded_away(cues)  # (r48m) "remove it, even with no activity": the case the order holds in too
            # (r58m) a goal or a concession before the order, naming no move ("make sure no one reaches <host>: ...",
            # "though <host> is seldom touched, ..."): its "no one" or "seldom" is its own (r58b: where the rest of the
            # text states the condition the predicate says, `_goal_aside_placed`)
            if _goal_aside_placed(words.text, predicate):
                cues = GOAL_OR_CONCESSION.sub(lambda m: m.group(0) if verbs_in(m.group(0)) else " ", cues)
            # (r48m) "Decoy it - no, strike that: Remove it": the writer takes back what came before, no negation of
            # the order that follows; "never chooses a Restore ahead of the Remove": the other move kept for after
            cues = _TAKEN_BACK.sub(" ", cues)
            cues = _NOT_BEFORE.sub(lambda m: " " if any(same_verb(named, verb) for named in verbs_in(m["next"])) else m.group(0), cues)
            cues = _NOTHING_SHORT_OF.sub(lambda m: " " if any(same_verb(named, verb) for named in verbs_in(m["move"])) else m.group(0), cues)
            cues = _MOVE_FAILED.sub(" ", _ONE_NOT_BOTH_SAID.sub(" ", cues))
            cues = _NOTHING_BUT_THE_MOVE.sub(lambda m: " " if any(same_verb(named, verb) for named in verbs_in(m["move"]))
                                             and not _DENIED_JUST_BEFORE.search(m.string[:m.start()]) else m.group(0), cues)
            # (r48m) "... and leave every decoy for later": another move put off, no turning down of this one
            cues = _LEFT_FOR_LATER.sub(lambda m: " " if verbs_in(m["what"]) and not any(
                same_verb(named, verb) for named in verbs_in(m["what"])) else m.group(0), cues)
            cues = _URGING.sub(" ", _WRITERS_DOUBT.sub(" ", _IN_PLACE_OF.sub(" ", _QUIET_VALUE.sub(" ", _NOTHING_HELD.sub(" ", _NOT_DONE_YET.sub(" ", cues))))))
            cues = _NO_TURN_DOWN.sub(" ", _POINTING_BACK.sub(" ", cues) if placed_anywhere else cues)
            if not (_NEGATIVE_WORD(cues) or _DOUBTING.search(cues)) or _another_verbs_negation(cues, verb):
                continue
            others = {v for v in verbs_in(clause) if not same_verb(v, verb)}
            # (a prohibition of this very verb the reading placed is the prohibition check's: "restore Enterprise2, but
            # never restore the other enterprise servers")
            if others & placed_verbs or any(p.verb and same_verb(p.verb, verb) for p in words.prohibitions) or any(p.verb is None for p in words.prohibitions) and hosts_in(clause) \
                    or set(hosts_in(clause)) & placed_hosts or set(classes_in(clause)) & placed_hosts:
                continue  # the negation is another verb's, or an excepted / contrasted host's
            return (f"polarity: the order of {verb} stands in a clause with a negation or a doubt the reading places "
                    f"nowhere ({clause.strip()[:70]!r}): whether the text orders {verb} or turns it down is not "
                    "certain; keep the rule semantic")
    return None


def _goal_aside_placed(text: str, predicate) -> bool:
    """(r58b) Whether a goal or an opening concession (markers.GOAL_OR_CONCESSION) may be set aside as no negation of
    the order: only where the rest of the text, the goal read as no more than the hosts it names, states a condition of
    its own that the predicate says ("make sure no one takes admin on <host>: the turn its row reads user level, plan
    its Restore"). With none ("make sure no one keeps root on <host>: Restore <host>"), nothing else reads the goal's
    state: set aside, its "no one" let any trigger pass, one on the host clean or at root alike, and the order stood
    always; kept, the rule stays semantic."""
    if predicate is None:
        return False
    rest = GOAL_OR_CONCESSION.sub(lambda m: m.group(0) if verbs_in(m.group(0)) else
                                  " ".join(hosts_in(m.group(0))) + (":" if m.group(0).rstrip().endswith(",") else ""), text)
    found = semantic_claims(rest, "predicate refused: a check", rest)
    if found is None or not any(not atom.bare() for atom, neg in atoms_of(found) if not neg):
        return False
    # (the claims check's own verdict on the rest, where it reads it: "whenever its row reads compromised")
    return implies(predicate, found) or text_claims(rest)[0] is not None and _claims(rest, predicate, "") is None


def _another_verbs_negation(cues: str, verb: str) -> bool:
    """(r41m) Every negation of a clause stands in a part of it, between commas, that names another verb and not this
    one: "a Restore is right there, a Remove can't shift root" turns down the Remove, never the Restore. A negation in a
    part that names no verb (or this one) is left to the polarity check."""
    negative = [part for part in re.split(r"\s*,\s*", cues) if _NEGATIVE_WORD(part) or _DOUBTING.search(part)]
    return bool(negative) and all(
        verbs_in(part) and not any(same_verb(named, verb) for named in verbs_in(part)) for part in negative)


def _NEGATIVE_WORD(text: str) -> bool:
    return bool(re.search(r"\b(?:no|not|never|none|nothing|without|avoid|stop|refrain|forbid\w*|prohibit\w*|banned|"
                          r"off[- ]limits|not\s+allowed|leave|alone|ignore|skip|spare|instead|rather|hold\s+off)\b|n['\u2019]t\b",
                          text, re.IGNORECASE))


def _matched(predicate, action: Optional[dict]) -> Optional[str]:
    """An action aimed at the host the trigger matched (or its subnet) under a trigger that matches no host (`always`,
    a quiet network): it aims at nothing, or at whatever the model guesses."""
    done, banned = _moves(action)
    relative = [t for _, t in done + banned if t == MATCHED or t in RELATIVE_TARGETS]
    form = dnf(predicate) or []
    if relative and form and all(not any(pos for _, pos in conjunction) for conjunction in form):
        return (f"target: the action is aimed at {relative[0]}, but the trigger matches no host: name the host or class "
                "the action is for")
    return None


# (r41m) Another note the text points to for its form, "same as maria's User4 restore note", "like the Enterprise1 rule":
# the hosts named there are that note's, and the text's own order says where this one applies.
# (r53m: "same drill as kim's Op_Host1 line", "not unlike the User1 case": a likeness to another note's line or case,
# a noun between "same" and "as")
_REFERENCE = re.compile(r"\b(?:same\s+(?:[\w-]+\s+)?as|just\s+like|like|not\s+unlike|as\s+in|as\s+per|mirrors?|copies|copy\s+of)\s+(?:the\s+|my\s+|our\s+)?"
                        r"(?:[\w-]+['\u2019]s\s+)?(?:[\w-]+\s+){0,3}?(?:note|rule|lesson|advice|order|line|entry|case)\b", re.IGNORECASE)
# ... and one the text says is not its own: "(U3 itself: not my call.)", "(User3 is penny's business)"
_NOT_MINE = re.compile(r"\(\s*[\w-]+(?:\s+itself)?\s*:?\s*(?:is\s+)?not\s+(?:mine|my\s+(?:call|business|note|concern)|this\s+note)\s*[.!]?\s*\)",
                       re.IGNORECASE)
# (r57m) ... or one the text sends to another note in an aside: "(Enterprise2: see my earlier note)", "(for User3, see
# the card above)": that host's case is the other note's, as with _NOT_MINE
_SEE_OTHER_NOTE = re.compile(r"\(\s*(?:for\s+)?[\w-]+(?:\s+itself)?\s*[:,-]?\s*see\s+(?:my|our|the|[\w-]+['\u2019]s)\s+"
                             r"(?:[\w-]+\s+){0,2}?(?:note|rule|lesson|line|entry|card|order)s?\b[^()]*\)", re.IGNORECASE)


def _sent_to_another_note(text: str) -> set[str]:
    """(r57b) The hosts an aside sends to another note (_SEE_OTHER_NOTE)."""
    return {h for m in _SEE_OTHER_NOTE.finditer(text) for h in hosts_in(m.group(0))}


def _named_in_reference_only(text: str) -> set[str]:
    """(r41m) The hosts a text names only in pointing to another note (_REFERENCE) or in leaving one to it (_NOT_MINE);
    (r48m) and the hosts and classes it names only in granting another note before its own (instruction.GRANTED)."""
    spans = [m.group(0) for p in (_REFERENCE, _NOT_MINE, _SEE_OTHER_NOTE, GRANTED) for m in p.finditer(text)]
    rest = text
    for span in spans:
        rest = rest.replace(span, " ")
    return {h for span in spans for h in (*hosts_in(span), *classes_in(span))} - set(hosts_in(rest)) - set(classes_in(rest))


def _scope(words: Wording, predicate, when_raw: Any, action: Optional[dict]) -> Optional[str]:
    if (words.hosts or words.classes) and _holds_everywhere(predicate, action):
        named = ", ".join((*words.hosts, *words.classes))
        return (f"always: the text is about {named}, but the predicate holds on every context: an order about a host "
                f"applies where the context shows it ({{\"host\": ...}} or {{\"class\": ...}})")
    trigger_hosts = {h for atom, _ in atoms_of(predicate) for h in ([atom.host] if atom.host else [])}
    targets = _targets(action)
    reachable = set(positive_hosts(predicate))
    # what a scope note keeps the order away from ("this must not stretch to Op_Host1") is no host it is about
    noted = " ".join(span for span in _set_aside(words, predicate, action) if _SCOPE_NOTE.fullmatch(span))
    noted_away = set(hosts_in(noted)) - {h for c in words.conditions for h in c.hosts}
    noted_away |= _named_in_reference_only(words.text)
    for host in (*words.hosts, *((words.referent,) if words.referent else ())):  # "it", said of the host its story names
        if host in noted_away:
            continue
        if host in words.excepted or host in conceded_hosts(words.text) \
                or host in words.contrasted and host not in {h for c in words.conditions for h in c.hosts}:
            continue  # named to be left out ("except User0", "decoy User2, not User3")
        if host in {h for p in words.prohibitions for h in p.hosts} and isinstance(action, dict) \
                and str(action.get("mode", "")).lower() == "do" and host not in {h for c in words.conditions for h in c.hosts} \
                and targets and all(t in HOSTS and t != host or t == MATCHED and host not in reachable for t in targets):
            continue  # "don't reimage User2; reimage User1 ...": the order, kept apart from the prohibition (never on User2)
            # (r48m: or aimed at what a trigger matches that never matches it, "decoy every user host ...; User3 gets no
            # decoy": the trigger keeps User3 out)
        if (host in _included(words.instruction) or host in _whole_class_listed(words.hosts)) \
                and (any(host in atom.hosts() for atom, neg in atoms_of(predicate) if not neg)
                     or any(host in hosts_of([t]) for t in targets if t in HOST_CLASSES)):
            continue  # one of the class the entry names: said to be included, or (r58m) listed with all the others
        if host not in trigger_hosts and host not in targets:
            said = "names" if host in words.hosts else "means by 'it'"
            return (f"host: the text {said} {host}, but the entry neither restricts its trigger to {host} nor aims its "
                    f"action at it: keep to the hosts the text names")
    meant = pronoun_hosts(words.text) if words.referent is None else ()
    if meant and not (trigger_hosts | targets) & set(meant):
        # "I restored Enterprise1 too late, the attacker reached Enterprise2. Restore it as soon as it is compromised.":
        # which host "it" is may be unclear, but it is one of those the text names, never any host
        return (f"host: the order's \"it\" is one of the hosts the text names ({', '.join(meant)}), but the entry is "
                "about none of them: restrict the trigger to the host it means, or aim the action at it")
    generic = any(atom.host_class == "any" and not neg for atom, neg in atoms_of(predicate))
    set_aside = set(conceded_classes(f"{words.situation} {words.instruction}")) | set(classes_in(noted)) \
        | classes_denied(f"{words.situation} {words.instruction}") | classes_compared_only(words.text) \
        | classes_sequenced_only(words.text)  # (r43m: "..., then a decoy on the op subnet")
    set_aside |= _named_in_reference_only(words.text) & set(HOST_CLASSES)  # (r48m: "the right moral for the op hosts, but")
    for cls in (c for c in words.classes if c not in set_aside):
        members = set(HOST_CLASSES[cls])
        restricted = any(set(atom.hosts()) <= members for atom, _ in atoms_of(predicate))
        # The class may be only the action's object where the trigger is about something else ("when Op_Server0 is
        # compromised, restore the Enterprise hosts"), never where the trigger is about any host at all.
        aimed = not generic and any(t == cls or t in members for t in targets)
        if not restricted and not aimed:
            return (f"class: the text speaks of {cls} hosts, but the trigger is not restricted to them (nor is the action "
                    f"aimed at them): keep to what the text names")
    matched = isinstance(action, dict) and MATCHED in targets
    # (and a host the order is contrasted with, "restore compromised user hosts - not User3 though": no exception word,
    # the same exclusion)
    # (r57b) and a host an aside sends to another note, "(Op_Server0: see my other card)": its case is that note's, so a
    # trigger over its class must leave it out (kept in, this rule was injected where the other note decides)
    lifted = exceptions_lifted(words.text)
    for host in dict.fromkeys([*words.excepted, *words.contrasted, *_sent_to_another_note(words.text)]):
        excluded = any(h == host for atom, neg in atoms_of(predicate) if neg or _says_absence(atom, neg)
                       for h in atom.hosts() if atom.host is not None) or host in lifted and _lifted_kept(predicate, host, lifted[host])
        if matched and host in positive_hosts(predicate) and not excluded:
            said = "excepts" if host in words.excepted else "contrasts its order with" if host in words.contrasted \
                else "sends to another note"
            return f"except: the text {said} {host}, but the trigger can match it: leave {host} out"
    return _class_aimed_past_exception(words, action) or _excepted_host_is_subject(words, predicate) \
        or _grounding(words.text, when_raw, action) \
        or _storys_host(words, when_raw, action) or _reach(words, action, not isinstance(predicate, Always) and bool(positive_hosts(predicate))) \
        or _target_off_order(words, action) or _move_repeated(words.text, action) \
        or _class_for_host(words, predicate, action) or _denied_class_asked(words, predicate, action) \
        or _banned_move_on_case(words, predicate, action)


# (r59l) Where a condition's words set a host apart ("apart from Op_Host1", "any box but User3"), the host it excepts is no
# subject of that condition.
_EXCEPT_SAID = re.compile(rf"\b(?:{EXCEPT_WORDS}|but|save|bar)\b", re.IGNORECASE)
_CONDITION_OPENS = re.compile(r"\s*(?:when(?:ever)?|once|if|after|as\s+soon\s+as|should|the\s+moment)\b", re.IGNORECASE)


def _excepted_host_is_subject(words: Wording, predicate) -> Optional[str]:
    """(r59l) A host the text sets apart from its order that a condition of its own then speaks of: "every op host apart
    from Op_Host1: when Op_Host1 gets rooted, Restore them". The excepted host's state is the condition, the class less
    that host is only what the order is for: a trigger that never asks that host (the class's other hosts in the state,
    that host left out) fires on a condition the text never states."""
    asked = {atom.host for atom, negated in atoms_of(predicate) if not negated and atom.host is not None}
    for host in words.excepted:
        spoken = [c for c in words.conditions if host in c.hosts and not _EXCEPT_SAID.search(c.text)
                  and (state_words_in(c.text) or _CONDITION_OPENS.match(c.text))]
        if spoken and host not in asked:
            return (f"except: the text sets {host} apart from its order, but its condition speaks of {host} "
                    f"({spoken[0].text[:60]!r}): ask {host}'s state in the trigger, or keep the rule semantic")
    return None


def _lifted_kept(predicate, host: str, state) -> bool:
    """(r58l) Whether every case of the predicate that can match an excepted host holds that host in the state its
    exception waits on ("except Op_Host2, until Op_Host2 is at root": Op_Host2 only in that state)."""
    branches = dnf(predicate)
    if branches is None:
        return False
    for branch in branches:
        positive = [atom for atom, positive in branch if positive]
        if any(host in atom.hosts() for atom in positive) and \
                not implies(positive[0] if len(positive) == 1 else AllOf(tuple(positive)), state):
            return False
    return True


# (r57d) The clause of a case inside an order, "... once / after / when / while / as long as <host> <state>": its hosts are
# where the case is looked for, no place the order gives its move on.
_CASE_CLAUSE = re.compile(r"\b(?:when|whenever|while|if|unless|" + BAN_ENDS + r")\b[^.;:!?,]*", re.IGNORECASE)


def _banned_move_on_case(words: Wording, predicate, action: Optional[dict]) -> Optional[str]:
    """(r57d) A move the text forbids, ordered on a host it names only in the case its ban holds in ("Never Restore User2
    once Enterprise0 is rooted" stored as "when Enterprise0 is rooted, Restore $matched", or Restore Enterprise0): the text
    orders that move nowhere, and the order fell on the host whose state the ban waits on. Left alone: a move the order
    gives on a host of its own ("...; Restore Enterprise0 instead"), and an order that names no host or points back."""
    order = _CASE_CLAUSE.sub(" ", words.order)
    placed = set(hosts_in(order))
    if not words.prohibitions or not placed or _POINTS_BACK.search(order):
        return None  # (an order that points back, "Restore it, but never Restore User2", gives its move on the case's host)
    matched = {h for h in positive_hosts(predicate) if h in HOSTS} if not isinstance(predicate, Always) else set()
    for verb, target in _moves(action)[0]:
        aimed = hosts_of([target]) if isinstance(target, str) and target != MATCHED else matched if target == MATCHED else set()
        if aimed and not aimed & placed and any(p.verb is None or same_verb(p.verb, verb) for p in words.prohibitions):
            return (f"prohibition: the text forbids {verb} and orders it nowhere, but the action orders it on "
                    f"{', '.join(sorted(aimed))[:60]}, a host the text names only in the case its ban holds in")
    return None


def _waited_on_only(words: Wording, target: str) -> bool:
    """(r55e) Whether every host of `target` is named only in a clause that ends or lifts the ban (forbidding.hosts_waited_on),
    "never touch it until User3 is restored": the host waited on is no place of a ban that names none (read as one, it
    was "never any move on User3", the host the text wants restored)."""
    return bool(hosts_of([target])) and hosts_of([target]) <= hosts_waited_on(words.text)


def _class_aimed_past_exception(words: Wording, action: Optional[dict]) -> Optional[str]:
    """(r55e) An action aimed at a whole class the text excepts a host of, or contrasts its order with ("never Restore a
    user box, not User2 though" stored as "never Restore every User host"): the class takes in the host left out, and no
    trigger leaves it out of a class target (the check above looks at `$matched` only)."""
    target = action.get("target") if isinstance(action, dict) and str(action.get("mode", "")).lower() in ("do", "never") else None
    for host in dict.fromkeys([*words.excepted, *words.contrasted]):
        if target in HOST_CLASSES and host in HOST_CLASSES[target]:
            return (f"except: the text leaves {host} out, but the action is aimed at every {target} host: aim it at "
                    f"$matched and leave {host} out of the trigger")
    return None


def _denied_class_asked(words: Wording, predicate, action: Optional[dict]) -> Optional[str]:
    """(r43x) A text that speaks of hosts outside a class ("each box outside the op subnet that ...", "any machine not
    on the user subnet") and names no host of it: a trigger that asks a host of that class, or an action aimed at it,
    says the opposite of its words."""
    said = f"{words.situation} {words.instruction}"
    denied = classes_denied(said)
    members = hosts_of(denied)
    if not denied or set(hosts_in(words.text)) & members:
        return None
    asked = [atom for atom, neg in atoms_of(predicate) if not neg and atom.hosts() and set(atom.hosts()) <= members]
    aimed = [t for t in _targets(action) if t in denied or t in members]
    if not asked and not aimed:
        return None
    cls = "/".join(sorted(denied))
    return (f"class: the text speaks of hosts outside the {cls} hosts, but the "
            f"{'trigger asks' if asked else 'action is aimed at'} one of them: keep to the hosts it means")


def _class_for_host(words: Wording, predicate, action: Optional[dict]) -> Optional[str]:
    """(r40x) A move aimed at a whole class whose trigger holds of one named host of it ("When Enterprise2 is exploited,
    Remove it" aimed at every enterprise server): the order gives the move on that host, unless its words name the class
    ("the user subnet"), several hosts ("all", "both"), or its neighbours, where no other move of the action is already
    aimed at them ($subnet, $next_subnet: "remove it, then decoy the rest of its subnet")."""
    own = _own_moves(action)
    order = words.order
    relative_spent = any(t in RELATIVE_TARGETS for _, t in own)
    if _SEVERAL.search(order) or _EVERYWHERE.search(order) or (_RELATIVE_WORDS.search(order) and not relative_spent):
        return None
    positive = [atom for atom, negated in atoms_of(predicate) if not negated]
    for verb, target in own:
        if target not in HOST_CLASSES or target in classes_in(order):
            continue
        members = set(HOST_CLASSES[target])
        if any(atom.host is None and (atom.host_class == ANY_CLASS or atom.host_class == target) for atom in positive):
            continue  # (the trigger matches hosts of the class: the order may be for them)
        held = {atom.host for atom in positive if atom.host in members}
        if len(held) == 1:
            return (f"reach: the action aims {verb} at every {target} host, but the trigger holds of {held.pop()} and the "
                    f"order names no {target} hosts as such: aim it at the host the condition names")
    return None


def _move_repeated(text: str, action: Optional[dict]) -> Optional[str]:
    """(r40x) A sequence that gives one move on a named host twice ("Remove User3, then Remove User3") where the text asks
    no repeat ("again", "twice"): the second move stands where the order gave another (both hosts of "both", first one
    then the other), which the sequence dropped."""
    done, _ = _moves(action)
    moves = [(v, t) for v, t in done if isinstance(t, str) and t in HOSTS]
    if len(set(moves)) == len(moves) or _REPEAT.search(text):
        return None
    verb, target = next(m for m in moves if moves.count(m) > 1)
    return (f"target: the action gives {verb} {target} twice, but the text asks no repeat: give each move the order "
            "names on the host it names it for")


_REPEAT = re.compile(r"\b(?:again|twice|second|repeat\w*|(?:once|one)\s+more)\b", re.IGNORECASE)


# A word of an order that points at a host its condition or story names: "it", "them", "there", "both", "that box".
_POINTS_BACK = re.compile(r"\b(?:it|its|itself|them|they|their|themselves|there|both|each|either|that|this|those|these|"
                          r"the\s+same|the\s+(?:latter|former|other|first|second))\b", re.IGNORECASE)


def _target_off_order(words: Wording, action: Optional[dict]) -> Optional[str]:
    """(r40x) A host the action is aimed at is one the order gives the move on: a host the order names, one of a class it
    names, or, where a word of the order points back ("remove it", "a decoy there"), a host the rest of the lesson names
    (an order to take User0 off the net once it is hit, aimed at User2, a host only the condition's other part names,
    moves the order off the host it is for). Left alone: an order that names no place and points at none."""
    own = _own_moves(action)
    aimed = [t for _, t in own if isinstance(t, str) and t in HOSTS]
    order = words.order
    named = set(hosts_in(order)) | hosts_of(classes_in(order))
    if not aimed or not named and not _POINTS_BACK.search(order):
        return None
    allowed = named | _included(words.instruction)
    if _POINTS_BACK.search(order) or not named:
        allowed |= set(words.hosts) | {h for c in words.conditions for h in c.hosts} \
            | ({words.referent} if words.referent else set()) | set(pronoun_hosts(words.text))
    stray = next((t for t in aimed if t not in allowed), None)
    if stray is None or not allowed:  # (no host the reader knows: "Enterprse2" misspelt is no host it can hold to)
        return None
    return (f"target: the action is aimed at {stray}, but the order gives its move on "
            f"{', '.join(sorted(named)) if named else 'the host its condition names'}: aim it at the host the order is for")


def _class_beyond(cls: str, lesson: str, order: str, spoken: set[str], named: Iterable[str]) -> bool:
    """Whether a class as an action's target says more than the lesson: its order names one host of that class, not the
    class and not several hosts ("..., Remove Enterprise1"), or the lesson names neither the class (a class word, its subnet, a named host's
    neighbours, every host) nor two of its hosts the order leaves to choose between ("of User3 and User4, decoy the
    clean one")."""
    members = set(HOST_CLASSES[cls])
    if len(set(hosts_in(order)) & members) == 1 and cls not in classes_in(order) and not _SEVERAL.search(order):
        return True
    if cls in spoken or _RELATIVE_WORDS.search(lesson) or _SUBNETS.search(lesson) \
            or _HOSTS_IN_GENERAL.search(lesson) and _EVERY_HOST.search(lesson):
        return False
    return not (len(set(named) & members) >= 2 and len(set(hosts_in(order)) & members) != 1)


# An order on several hosts at once: "Restore every one that is owned", "all of them", "both".
_SEVERAL = re.compile(r"\b(?:each|every|all|both)\b", re.IGNORECASE)
# Words that put an order on every host at once: "no Restore anywhere", "on anything", "across the whole network".
_SUBNETS = re.compile(r"\bsubnets?\b", re.IGNORECASE)
_EVERYWHERE = re.compile(r"\b(?:anywhere|everywhere|nowhere|(?:on|to|at|for|with)\s+(?:anything|everything)|at\s+all|whole\s+network|network[\s-]wide|"
                         r"across\s+the\s+(?:board|network)|(?:any|every|each|all|no)\s+(?:other\s+)?(?:the\s+)?"
                         r"(?:hosts?|machines?|box(?:es)?|systems?|servers?))\b", re.IGNORECASE)


def _reach(words: Wording, action: Optional[dict], matching: bool) -> Optional[str]:
    """(r37y) An action's target reaches no further than the text's words: aimed at a whole class, the text names that
    class (a class word, its subnet, a word for a named host's neighbours) or two of its hosts to choose between ("of
    User3 and User4, decoy the clean one"); aimed at every host (`any`), the text names no host or class of its own, or
    says "anywhere", "any host", "on anything". A named host's class is no target by itself ("restore User1 when it is
    exploited" is about User1, not about every user host). (A verb with no host, Monitor, has no reach.)"""
    lesson = f"{words.situation} {words.instruction}"
    order = words.order
    own = _own_moves(action)
    if matching and not _EVERYWHERE.search(order) and any(target == "any" and verb in HOST_VERBS for verb, target in own):
        # "when any host is rooted, restore it": the order is for the host the trigger matched, never every host
        return (f"reach: the action aims {own[0][0]} at every host, but the text orders it on the host its condition "
                "speaks of: aim it at $matched")
    spoken, named = set(classes_in(lesson)), hosts_in(words.text)
    # (r40x: two hosts of a class to choose between are the lesson's, not two its story names: a story that also names
    # Enterprise0 leaves a lesson about Enterprise2 alone, and its "take it off the net" aims at Enterprise2, not every server)
    among = hosts_in(lesson)
    everywhere = bool(_EVERYWHERE.search(words.text))
    for verb, target in own:
        if verb not in HOST_VERBS and verb != ANY_VERB:
            continue
        if target == "any" and not everywhere and (named or spoken):
            return (f"reach: the action aims {verb} at every host, but the text speaks of "
                    f"{', '.join([*named, *sorted(spoken)])[:60]}: aim it at what the text names")
        if target in HOST_CLASSES and _class_beyond(target, lesson, order, spoken, among):
            return (f"reach: the action aims {verb} at every {target} host, but the text names no {target} hosts as such "
                    f"for its order: aim it at the host the text names")
    return None


# A host named as one of a group the text speaks of: "Op_Server0 included", "including User0", "User2 as well"; or
# as a specimen of it: "hosts such as Op_Server0", "a desktop of the same sort as User1" (the group, never the host alone).
# (r57m: "the Defender included": a host whose name ends in no digit; only the names hosts_in reads are kept)
_INCLUDED = re.compile(r"\b(?P<host>\w+)\s*,?\s+(?:included|too|as\s+well)\b|\b(?:including|included|even)\s+(?:the\s+)?(?P<after>\w+)\b"
                       r"|\b(?:such\s+as|(?:the\s+)?same\s+(?:kind|sort|type)\s+as)\s+(?:the\s+)?(?P<specimen>\w+)\b",
                       re.IGNORECASE)


def _whole_class_listed(hosts: Iterable[str]) -> set[str]:
    """(r58m) The hosts of every class a text names all of ("the op boxes, Op_Host0 to Op_Host2 and Op_Server0"): a
    trigger on that class names them, every one and no other."""
    named = set(hosts)
    return {h for members in HOST_CLASSES.values() if set(members) <= named for h in members}


def _included(instruction: str) -> set[str]:
    return {h for m in _INCLUDED.finditer(instruction) if not _inclusion_doubted(instruction, m)
            for h in hosts_in(m["host"] or m["after"] or m["specimen"])}


# (r57b) An inclusion turned down or left in doubt: "hardly even the Defender", "not even Enterprise2", "the Defender too
# maybe, I am not sure": the host is not said to be one of the class the order is for
_INCLUSION_DENIED_BEFORE = re.compile(r"\b(?:not|never|hardly|scarcely|barely|nor|no|n['\u2019]t)\s+(?:\w+\s+)?$", re.IGNORECASE)
_INCLUSION_DOUBTED_AFTER = re.compile(r"\s*,?\s*(?:maybe|perhaps|possibly|probably|i\s+(?:think|guess|suppose)|"
                                      r"(?:i\s+am|i['\u2019]m)\s+not\s+sure|not\s+sure|\?)", re.IGNORECASE)


def _inclusion_doubted(text: str, found: re.Match) -> bool:
    return bool(_INCLUSION_DENIED_BEFORE.search(text[:found.start()]) or _INCLUSION_DOUBTED_AFTER.match(text, found.end()))


# (r41m) A class the lesson names to speak of every host outside it: "any box outside the op subnet", "any machine other
# than the user boxes", "beyond the enterprise servers".
_OUTSIDE = re.compile(r"\b(?:outside|beyond|other\s+than|apart\s+from|not\s+(?:in|on|of))\s+(?:of\s+)?(?:the\s+|a\s+|an\s+)?"
                      r"(?P<what>[\w-]+(?:\s+[\w-]+)?)", re.IGNORECASE)


def _outside_of(lesson: str) -> set[str]:
    """(r41m) The hosts a lesson speaks of as outside a class it names (_OUTSIDE): every host of no such class."""
    outside = {c for m in _OUTSIDE.finditer(lesson) for c in classes_in(m["what"])}
    return set(HOSTS) - hosts_of(outside) if outside else set()


def _outside_widened(words: Wording, predicate) -> Optional[str]:
    """(r44c) A lesson about the hosts outside a class it names ("any machine beyond the enterprise servers that gets probed")
    whose trigger asks a state of any host, or of a class that holds a host of the one it sets apart: wider than the
    text, it fires on the very hosts the words leave out."""
    outside = _outside_of(f"{words.situation} {words.instruction}")
    if not outside:
        return None
    for atom, negated in atoms_of(predicate):
        if negated or atom.host is not None or atom.bare() or atom.host_class is None:
            continue
        covers = set(HOSTS) if atom.host_class == ANY_CLASS else set(HOST_CLASSES.get(atom.host_class, ()))
        if covers - outside:
            return (f"class: the lesson speaks of the hosts outside a class it names, but the trigger asks a state of any "
                    f"{'' if atom.host_class == ANY_CLASS else atom.host_class + ' '}host: keep the state off the class "
                    "the text sets apart")
    return None


# (r45s) A situation a text sets outside its rule, in a sentence with no order of its own after it: "a user box at root is
# a separate question", "hosts at user level are another story", "Enterprise0 at Unknown is out of scope" (an order after
# a colon or an arrow, "E1 at root is another story: restore that one", is a case of its own).
_NOT_COVERED = re.compile(r"(?:^|(?<=[.;!?]))\s*(?P<what>[^.;:!?]+?)\s*,?\s+(?:is|are)\s+(?:(?:a\s+)?(?:different|separate)\s+"
                          r"(?:matter|story|question|case|thing)|another\s+(?:matter|story|question|case|thing)|"
                          r"not\s+(?:covered|included|addressed)|out\s+of\s+scope)\b(?P<after>[^.;!?]*)", re.IGNORECASE)
# An example set off by commas inside it, ", for instance User3 in seed 7, ": the example's host, not the situation's.
_EXAMPLE_IN_COMMAS = re.compile(r",\s*(?:e\.\s?g\.|for\s+(?:example|instance)|such\s+as|say)\b[^,]*,?", re.IGNORECASE)


def _not_covered_asked(text: str, words: Wording, predicate) -> Optional[str]:
    """(r45s) A trigger that asks only a situation the text says its rule does not cover (_NOT_COVERED): the rule fires
    only where its words say it does not speak, the opposite of the text. (Read nowhere, such a sentence let a trigger at
    the level it set aside pass every check.)"""
    if isinstance(predicate, Always):
        return None
    subject = subject_of(words)
    for found in _NOT_COVERED.finditer(text or ""):
        if re.search(r":|-+>|=>|\u2192", found["after"]):
            continue
        what = claims(_EXAMPLE_IN_COMMAS.sub(" ", example_aside_away(found["what"])), subject)
        if what is None or all(atom.bare() for atom, _ in atoms_of(what)):
            continue  # (a host or class set aside bare is the except check's: `_EXCEPTED_ALONE`)
        if implies(predicate, what):
            return (f"except: the text sets {describe(what)[:60]} outside its rule ({found.group(0).strip()[:60]!r}), but "
                    "the trigger asks it: express the situation the rule covers")
    return None


def _storys_host(words: Wording, when_raw: Any, action_raw: Any) -> Optional[str]:
    """A lesson with its own subject (a host or class it names, or the host its "it" stands for) is about that, never
    about a host only its story names ("User1 was exploited and the attacker moved on. When Enterprise0 is scanned, put a
    decoy on it.": nothing about User1). A lesson with no subject of its own ("When this happens again, ...") may take
    the story's."""
    lesson = set(words.hosts) | set(words.excepted) | ({words.referent} if words.referent else set())
    if not lesson and not words.classes:
        return None
    # (r48c) and the hosts of a case the rule does not hold in ("Exception: Enterprise1 rooted.", clauses.listed_states):
    # a negated condition of the lesson's, which a predicate must state
    lesson |= {h for c in words.negated_conditions for h in c.hosts}
    story = set(hosts_in(words.text)) - lesson - hosts_of(words.classes) - _outside_of(f"{words.situation} {words.instruction}")
    for key, value in _places(when_raw) + _places(action_raw):
        if key in ("host", "target") and value in story:
            return (f"grounding: the entry names {value}, which only the text's story names: the rule is its lesson's "
                    f"({', '.join(sorted(lesson) or words.classes)})")
    return None


def _state_moved_off(words: Wording, generic: list[Atom]) -> bool:
    """A condition on hosts the text names of which the product reads no state ("When User2 acts up"): the reading is
    only that those hosts are shown, and a trigger that asks a state of any host ("some host shows activity") moved the
    condition off them: with User2 quiet and another host active it fires, which the text never said."""
    if not (words.conditions and words.hosts) or not any(a.host_class == ANY_CLASS and not a.bare() for a in generic):
        return False
    found = rule_claims(words.text, with_instruction=True, bare=False)
    return found is None or all(atom.bare() and atom.host is not None for atom, _ in atoms_of(found))


def _singled_out(words: Wording, predicate) -> Optional[str]:
    """A rule about one host the product cannot name ("when the second enterprise server is compromised", "if srv3 is
    scanned") compiled as a trigger on any host of a class, or on any host: the compiler dropped what singles the host
    out, so the rule would fire on hosts its text never meant. Where the product cannot read a part, the predicate may
    not silently drop it."""
    generic = [atom for atom, neg in atoms_of(predicate) if not neg and atom.host is None]
    if not generic:
        return None
    unread = unnamed_hosts(f"{words.situation} {words.instruction}")
    if not unread and _state_moved_off(words, generic):
        return (f"host: the product reads no state of the condition ({words.conditions[0].text[:60]!r}) but the hosts it "
                f"names ({', '.join(words.hosts)}), and the trigger asks a state of any host: keep to the hosts the text names")
    if not unread:
        return None
    return (f"host: the text singles out one host ({unread[0]!r}) that the product does not read as a host, but the trigger "
            f"is about any {generic[0].host_class if generic[0].host_class != 'any' else ''} host".replace("  ", " ")
            + ": name the host it means")


def _host_widened_to_class(words: Wording, predicate, action: Optional[dict]) -> Optional[str]:
    """An order with no condition about hosts the lesson names ("never Restore Op_Host1, in any state it is in")
    compiled with a trigger on any host of their class: the lesson speaks of no such class (a class word only the
    story uses, "a lesson about user hosts", is no part of it), so the rule would stand where only the class's other
    hosts are shown, about a host not there."""
    targets = _targets(action)
    if words.conditions or not targets or not targets <= set(words.hosts):
        # (an order aimed at the matched host, or at a class, is the scope check's; a condition's words, which may name
        # a class in shorthand the reading does not know, "2+ E srvs owned", are the claims check's)
        return None
    lesson = f"{words.situation} {words.instruction}"
    if set(classes_in(lesson)) | set(words.classes) or _HOSTS_IN_GENERAL.search(lesson) or _RELATIVE_WORDS.search(lesson) \
            or _EVERY_OTHER.search(lesson):
        return None
    for atom, neg in atoms_of(predicate):
        widened = atom.host is None and not neg and atom.host_class in HOST_CLASSES \
            and targets & set(HOST_CLASSES[atom.host_class])
        if widened:
            return (f"host: the lesson is about {', '.join(sorted(targets))} and names no {atom.host_class} hosts, but the "
                    f"trigger holds for any {atom.host_class} host: keep to the hosts the text names")
    return None


def _provision_host_asked(text: str, predicate, action: Optional[dict]) -> Optional[str]:
    """(r53l) A trigger restricted to, or an order aimed at, a host the text names only in what it leaves to another
    provision ("Any host showing an exploit gets a Remove, save as provided in the exception on file for the op server"):
    that host is the other provision's, and the rule is about every host it describes. Compiled as a Remove of the op
    server when the op server is exploited, the rule said the very move the exception it defers to turns down there,
    and nothing of the other hosts."""
    left = left_to_provision(text)
    if not left:
        return None
    asked = {atom.host for atom, negated in atoms_of(predicate) if not negated and atom.host is not None}
    for host in sorted(left & (asked | _targets(action))):
        return (f"provision: the text leaves {host} to another provision, but the entry is about {host}: keep to the hosts "
                "the rule's own words describe")
    return None


def _grounding(text: str, when_raw: Any, action_raw: Any) -> Optional[str]:
    """The entry names a place the text does not: a host it never names, or a class none of its hosts or
    class words belong to. Only a text that names hosts is checked (plain words for places are the compiler's)."""
    named = set(hosts_in(text))
    if not named:
        return _host_of_no_words(text, when_raw, action_raw)
    spoken = set(classes_in(text))
    classes = spoken | {c for c, hosts in HOST_CLASSES.items() if named & set(hosts)}
    words = read_wording(text)
    general = bool(_HOSTS_IN_GENERAL.search(f"{words.situation} {words.instruction}"))
    if general:
        classes = set(HOST_CLASSES)  # "when a host's row says Compromised Unknown": a host of any class
    # Hosts the text names as a group: a class it names, or the rest of a named host's subnet ("its neighbours"), or
    # every other host ("User1 is the only host showing anything").
    lesson = f"{words.situation} {words.instruction}"
    # (r37y: the lesson's own relative words, not the story's: "it spread through the rest of the subnet afterwards" in the
    # story lets no order aim at a neighbour of the host the lesson names)
    allowed = named | hosts_of(spoken) | (hosts_of(classes) if _RELATIVE_WORDS.search(lesson) else set()) \
        | (set(HOSTS) if _EVERY_OTHER.search(text) or any(map(_only_host, words.conditions)) else set()) \
        | (set(HOSTS) if general and _EVERY_HOST.search(f"{words.situation} {words.instruction}") else set())
    for key, value in _places(when_raw) + _places(action_raw):
        if key in ("host", "target") and value in HOSTS and value not in allowed:
            return f"grounding: the entry names {value}, which the text does not: keep to the hosts the text names"
        if key in ("class", "target") and value in HOST_CLASSES and value not in classes:
            return f"grounding: the entry is about {value} hosts, which the text does not name: keep to what the text names"
    return None


# (any word that may be a host in a shorthand the readers do not know, "OS0", "ent-srv2", the defender's own box,
# "ent one", "user two", "def")
_HOSTLIKE = re.compile(r"\b[A-Za-z][\w-]*\d+\b|\bdef(?:ender)?\b|\b(?:ent\w*|enterprise|users?|usr|ops?|operational|servers?|srv)\s*"
                       r"(?:zero|one|two|three|four)\b", re.IGNORECASE)


def _host_of_no_words(text: str, when_raw: Any, action_raw: Any) -> Optional[str]:
    """(r61l) A text that names no host and no class, not even in shorthand ("once red is on the box, Remove it", "when a
    host is rooted, Restore it"), compiled with a host of its own: the move is for whichever host the condition finds,
    and a host the compiler picks is one the words never name (the rule held there alone, and gave its move on it
    wherever the condition held on another)."""
    full = named_in_full(text)
    if hosts_in(full) or classes_in(full) or classes_in(text) or _HOSTLIKE.search(text):
        return None
    if not state_words_in(text) and not read_wording(text).conditions:
        return None  # (a note with no condition of its own, an edit cut from its log, "Decoy X, not Y": its host is elsewhere)
    stray = next((value for key, value in _places(when_raw) + _places(action_raw) if key in ("host", "target") and value in HOSTS), None)
    if stray is None:
        return None
    return (f"grounding: the entry names {stray}, but the text names no host: aim the move at $matched, the host its "
            "condition finds")


# A condition on a host of no class in particular ("a host", "any machine", "whichever host").
_HOSTS_IN_GENERAL = re.compile(r"\b(?:a|an|any|every|each|whichever|whatever)\s+(?:\w+\s+)?(?:host|machine|box|system)(?:'s)?\b(?!\s+(?:of|in)\b)",
                               re.IGNORECASE)
# Every host of the network ("for every host you analyse ..., with the exception of Op_Server0"): a predicate may spell
# it as the classes and hosts it is made of.
_EVERY_HOST = re.compile(r"\b(?:every|each|all|any)\s+(?:the\s+)?(?:hosts?|machines?|box(?:es)?|systems?)\b", re.IGNORECASE)
# A condition on all the hosts but the one named: "the only host showing anything", "no other host", "nothing else".
def _kept_out_by_class(condition: str, predicate, action: Optional[dict], about: set[str]) -> bool:
    """Whether a condition's negation only says the host the action is for is of none of the classes it names, and the
    predicate's trigger keeps to other hosts: its class restriction says it (no "not" is needed on hosts it never
    matches). Said of another host than the matched one, or with a named host, it stays a negation to express."""
    if hosts_in(condition) or not isinstance(action, dict) or action.get("target") != MATCHED:
        return False
    denied = classes_denied(condition)
    reach = set(positive_hosts(predicate))
    return bool(denied) and bool(reach) and not reach & hosts_of(denied) and not (about - hosts_of(denied))


# (r58m) Named hosts set aside from a class in the words that name it: "all user desks except User0 or User4", "the op
# machines (not Op_Host1)", "save Op_Server0".
_HOSTS_SET_ASIDE = re.compile(rf"\b(?:{EXCEPT_WORDS}|not|save|but)\s+(?:the\s+)?{HOST_NAME}"
                              rf"(?:\s*(?:,|/|&|\band\b|\bor\b|\bnor\b)\s*(?:the\s+)?{HOST_NAME})*\b", re.IGNORECASE)


def _excepted_kept_out(condition, words: Wording, predicate) -> bool:
    """(r58m) Whether a condition's only negation sets named hosts aside from a class it names (`_HOSTS_SET_ASIDE`), and the
    trigger keeps to the rest of that class: by matching none of the hosts set aside it says what the exception says, no
    "not" needed. A negation left once the hosts set aside are taken out ("... except User2, when not scanned") stays one
    to express, and so does a trigger that can match a host outside the class or one set aside (r58b: or a host set aside
    that the text names again elsewhere)."""
    if not condition.classes or not condition.hosts or not set(condition.hosts) <= set(words.excepted):
        return False
    if negations_in(_HOSTS_SET_ASIDE.sub(" ", condition.text)):
        return False
    # (r58b) nor where a host set aside is named again outside what sets it aside ("the user hosts except User1: if
    # User1 is exploited, decoy them"): there it is a condition's subject, which a trigger on the rest of the class drops
    if set(hosts_in(_HOSTS_SET_ASIDE.sub(" ", words.text))) & set(condition.hosts):
        return False
    # (r58b) nor where the class's words count fewer hosts than the rest ("the two enterprise machines (not Enterprise1)")
    if not all(count_kept(condition.text, c, words.excepted) for c in condition.classes):
        return False
    reach = set(positive_hosts(predicate))
    return bool(reach) and not reach & set(condition.hosts) and reach <= hosts_of(condition.classes)


_EVERY_OTHER = re.compile(r"\b(?:(?:the\s+)?only\s+(?:host|machine|box|one)|no\s+other|nothing\s+else|none\s+of\s+the\s+others|"
                          r"every\s+other|all\s+(?:the\s+)?other)\b", re.IGNORECASE)
_ONLY_HOST = re.compile(rf"\bonly\s+{HOST_NAME}\b", re.IGNORECASE)


def _only_host(condition) -> bool:
    """(r48c) Whether a condition restricts its state to the one host it names ("only User2 owned", "only Op_Host0 is
    rooted": "only" read as a restriction, markers.negations_in): no other host is in that state."""
    return "only" in condition.negations and bool(_ONLY_HOST.search(condition.text))


_RELATIVE_WORDS = re.compile(r"\b(?:neighbou?r\w*|rest\s+of|same\s+(?:subnet|network|segment)|other\s+hosts?|next\s+hop|"
                             r"subnet|segment|every\s+other|siblings?)\b", re.IGNORECASE)


def _places(raw: Any) -> list[tuple[str, str]]:
    """The hosts and classes a predicate's or action's JSON names outright (a phase names none)."""
    if isinstance(raw, list):
        return [place for part in raw for place in _places(part)]
    if not isinstance(raw, dict):
        return []
    found = [(key, value) for key in ("host", "class", "target") if isinstance(value := raw.get(key), str)]
    return found + [place for key in ("any", "all", "not", "over", "then") for place in _places(raw.get(key))]


# What a condition may say of a host that is no more than naming it.
_NAMING = frozenset("""a an the any some that this it its is are was were be been being has have had when whenever if
    once while as soon long until unless during host machine box server one there here you we see sees seen appear
    appears appeared show shows shown up listed mentioned named present visible reported in view alerts alert table
    context situation anything at all whatever state any for only just about applies apply
    analyse analyze analysing analyzing examine examining inspect inspecting triage triaging asked""".split()) \
    | frozenset("and or".split())  # the words that join a list of hosts ("Op_Host0, Op_Host1 and Op_Host2: ...")
# (the last line: the Analyst's call is about one host, "when you analyse Op_Server0", "the host you're analysing is
# Op_Server0": the context shows that host, no more)

# (r33m) "OpH2 excluded: never restore it": a heading that sets the host apart from an order it forbids names the host the
# prohibition holds on, and states nothing of it
_SET_APART = frozenset("excluded excepted exempt exempted spared off-limits untouchable".split())


def _heads_a_prohibition(words: Wording, condition: str) -> bool:
    """Whether a condition opens the text before a colon, and the text forbids something ("OpH2 excluded: never ...")."""
    return bool(words.prohibitions) and re.match(rf"\s*{re.escape(condition.strip())}\s*:", words.text) is not None


def _bare(words: Wording, predicate, unexpressed: str = "") -> Optional[str]:
    """A condition that says something of a host it names ("if User3 gets hit") compiled as the bare host (the
    context merely shows it): wider than the text, whatever the words the product does not know. (r39h) Not where the
    condition states no state of the host, only facts of kinds that predicates cannot state ("User1 rated high by the
    analyses"), and the unexpressed rest speaks of each such kind: the rest guards the rule with what it says, or, a
    rating judged.py judges, the gate holds the rule to it in the condition's own words (`retrieve._judged_of`)."""
    subject = subject_of(words)
    # (what the rest states: the kinds it guards with, and a rating judged.py judges, which it lists though need not guard)
    listed = facts_needed(guard_rest(unexpressed, predicate, words.text)) | judged_facts(unexpressed or "")
    for condition in words.conditions:
        facts = facts_needed(condition.text)
        if facts and facts <= listed \
                and state_of(condition.text) == ((None, None), None):
            continue
        if _evidence_guarded(condition.text, unexpressed):
            continue
        # (r39g: not the rating the analyses give the host, "U3 rated high by the analysis": the gate judges it, judged.py)
        said = [w for w in re.findall(r"[a-z][a-z'-]+", re.sub(r"\b(?:User|Enterprise|Op_Host|Op_Server)\d\b|\bDefender\b",
                                                                " ", without_host_names(rating_away(condition.text))).lower()) if w not in _NAMING
                and not (w in _SET_APART and _heads_a_prohibition(words, condition.text))]
        # (and the host its "it" stands for: "Op_Server0 must be restored the moment it is touched")
        named = condition.hosts or ((subject,) if subject and re.search(r"\b(?:it|its)\b", condition.text, re.I) else ())
        for host in named:
            atoms = [atom for atom, _ in atoms_of(predicate) if host in atom.hosts()]
            if said and atoms and all(atom.bare() for atom in atoms):
                return (f"bare: the condition says something of {host} ({condition.text[:60]!r}) but the predicate only "
                        f"asks that the context shows it: express what it says")
    return _stateless(words, predicate)


def _story_state_dropped(words: Wording, predicate) -> Optional[str]:
    """(r51h) A lesson with no condition of its own after a story that tells the state of the host it acts on
    (`condition.story_state`): that state is the situation the lesson is for, so a predicate that only asks that hosts be
    shown, in any state, is wider than the text (it ordered a Remove of a clean host)."""
    atoms = [atom for atom, _ in atoms_of(predicate)]
    if not atoms or not all(atom.bare() for atom in atoms):
        return None
    told = story_state(words)
    if told is None:
        return None
    state = "/".join(str(v) for k, v in told.items() if k != "host")
    return (f"bare: the story tells the state of {told['host']} ({state}) before a lesson with no condition of its own, "
            "but the predicate only asks that the context shows it: express the story's state")


def _evidence_guarded(condition: str, unexpressed: str = "") -> bool:
    """(r40k) A condition that says only what the analyst's evidence or the step's analyses report of the hosts it names
    ("when the analysis of that host lists a file at density 0.8 or more"), whose unexpressed rest states each kind of
    it: the gate judges the rest on the evidence (judged.py), so the bare host is no wider than the text. (Refused,
    such a rule was judged by claims that cannot read evidence, and silent.)"""
    said = {test.kind for test in evidence_tests(condition)}
    return bool(said) and said <= {test.kind for test in evidence_tests(unexpressed or "")} \
        and not [w for w in words_beside_evidence(condition) if w not in _NAMING]


def _stateless(words: Wording, predicate) -> Optional[str]:
    """A condition that states a state ("User hosts apart from User4: remove the attacker when exploited") compiled as
    hosts merely shown, none of them in any state: the state was dropped, and the rule fires on every host it lists."""
    atoms = [atom for atom, _ in atoms_of(predicate)]
    if not atoms or not all(atom.bare() for atom in atoms):
        return None
    # (the words that only name a host's presence, "in the alerts", state nothing)
    # (r40m: nor a state word inside what the evidence reports, a file "escalate.sh": the gate judges that, judged.py)
    # (r55l: and a compromise level said as a place, "if it is still at user level", "while user-level": no state word, it
    # is a state all the same; missed, "A: No, do not Remove it then if it is still at user level" passed as a never-Remove
    # of any host shown, a ban wider than its words)
    stated = next((c for c in words.conditions if any(w.lower() not in _NAMING for w in state_words_in(evidence_away(c.text)))
                   or _LEVEL_PHRASE.search(evidence_away(c.text))), None)
    if stated is None:
        return None
    return (f"bare: the condition states a state ({stated.text[:60]!r}) but the predicate only asks that the context shows "
            "hosts: express the state")


_BEFORE = re.compile(r"\b(?:before|ahead\s+of)\s+(?P<what>[^,;.]+)", re.IGNORECASE)


def _states_named(pattern: re.Pattern, text: str, words: Wording, predicate):
    """The states `pattern` names in `text` ("before <state>", "after <state>"), each with its match, where the trigger
    says something to hold them to. (A state, not a host merely named: "restore Op_Server0 before Enterprise2" orders one
    before the other.)"""
    if isinstance(predicate, Always):
        return
    for found in pattern.finditer(text):
        what = claims(found["what"], subject_of(words))
        if what is not None and any(not atom.bare() for atom, _ in atoms_of(what)):
            yield found, what


# (r57d) The state an order or a ban waits for with "after" ("Never Restore User2 after Enterprise0 is rooted", "Remove
# Op_Host1 after User3 gets exploited"): no condition the reader places, so no check held the predicate to it.
_AFTER_STATE = re.compile(r"\bafter\s+(?P<what>[^,;.:!?]+)", re.IGNORECASE)


def _after_excluded(words: Wording, predicate) -> Optional[str]:
    """(r57d) A predicate that excludes the state the text's move waits for with "after" (the host clean, or that state
    denied): the rule holds in the case before it, where the text gives no such move (a ban laid there forbids what the
    text leaves open; an order given there is given too early)."""
    for found, what in _states_named(_AFTER_STATE, words.text, words, predicate):
        if not may_overlap(predicate, what):
            return (f"after: the text's move waits for {describe(what)[:60]} ({found.group(0)[:50]!r}), but the trigger "
                    "excludes it: express the state it waits for")
    return None


def _before(words: Wording, predicate) -> Optional[str]:
    """An order given before something happens ("put a decoy on Enterprise2 before the attacker reaches it", "restore
    Enterprise1 before the attacker escalates on it") applies while it has not: a trigger that requires it fires only
    once it is too late, the opposite of the text."""
    for found, what in _states_named(_BEFORE, words.instruction, words, predicate):
        if implies(predicate, what):
            return (f"before: the order comes before {describe(what)[:60]} ({found.group(0)[:50]!r}), but the trigger "
                    "requires it: express the condition the order is given in, or leave it out")
    return None


def _claims(text: str, predicate, unexpressed: str = "") -> Optional[str]:
    """The predicate must imply what the product reads of the condition (claims.claims: the hosts it names
    with their states, a class with a state, a quiet network, a named phase), where that reading places every
    negation of it: a predicate that does not is wider than the text, or says something else. (A window of steps its
    unexpressed rest states is the guard's to judge, no predicate's: condition.windows_left_to.)"""
    # (r42m: a table of cases under a heading, any line's case, condition.listed_claims; every line read whole, so the
    # table is: a predicate that implies no line's case says something else)
    listed = listed_claims(text)
    found = listed or rule_claims(text, with_instruction=True, bare=False)
    if found is None or implies(predicate, windows_left_to(found, unexpressed) or Always()):
        return None
    if unexpressed and (guard := guard_claims(unexpressed, predicate)) is not None and implies(guard, found) \
            and may_overlap(predicate, guard):
        return None  # (r41m) "at least two op hosts held" in the rest: the gate holds the rule to it (its guard)
    if listed is not None or complete_claims(text, found):
        return f"claims: the predicate does not say what the condition says ({describe(found)[:90]}): express the condition"
    # Read in part, what the reading places must still be able to hold with the predicate: one that excludes it says
    # the opposite ("When Enterprise2 sits at user level ..." compiled as "Enterprise2 is not at user level").
    if not may_overlap(predicate, found):
        return f"claims: the predicate excludes what the condition says ({describe(found)[:90]}): express the condition"
    return _and_read_as_or(text, found, predicate) or _state_moved(found, predicate) or _state_widened(found, predicate)


# Words that say a choice of cases, or deny a joint case ("unless both ..."): a disjunction the text may say itself.
# (and a chain of cases, "...; failing that, if ...; if not, ...": each case its own alternative)
_ALTERNATIVES_SAID = re.compile(r"\b(?:or|either|whichever|any\s+of|one\s+of|unless|except|neither|nor|both|otherwise|"
                                r"but\s+not|else|failing|if\s+not|if\s+that\s+fails|instead|alternatively)\b|/", re.IGNORECASE)


# The words that join two conditions into one case: "and", "&", "as well as", "plus"
_JOINED_SAID = re.compile(r"\band\b|&|\bas\s+well\s+as\b|\bplus\b", re.IGNORECASE)


def _hosts_asked(literals) -> set[str]:
    """The hosts a conjunction of literals asks about (a class: each of its hosts)."""
    return {h for atom, _ in literals for h in atom.hosts()}


def _and_read_as_or(text: str, found, predicate) -> Optional[str]:
    """(r56e) Read in part, a condition the reading joins with "and" over several places ("If User2 is rooted and
    Enterprise0 is not clean") is still a conjunction: a predicate with an alternative that leaves out one of those places
    (`any[User2 rooted, not Enterprise0 clean]`) fires where the text asks both, an "or" the text never says. Where the text
    has words of choice or of a denied joint case, the disjunction may be its own, and is left to the other checks.
    (So is a reading that kept one part only, "Restore Enterprise0 if it is rooted, and when Op_Server0 is still clean"
    read as Enterprise0 rooted: `any[Enterprise0 rooted, Op_Server0 clean]` holds without the part it read.)"""
    read = dnf(found)
    # (only where the words join two cases with "and": where no word joins them, as "once they are beyond the user side
    # (by which I mean some enterprise box owned)", a reading of two places is the reader's, not a joint case of the text)
    if read is None or len(read) != 1 or _ALTERNATIVES_SAID.search(text) or not _JOINED_SAID.search(text):
        return None
    places = [_hosts_asked((literal,)) for literal in read[0] if not literal[0].bare()]  # (a host merely shown: no part)
    if not places:
        return None
    for alternative in dnf(predicate) or ():
        asked = _hosts_asked(alternative)
        if any(not (place & asked) for place in places):
            return (f"claims: the text joins what it asks with \"and\" ({describe(found)[:90]}), but the predicate "
                    f"holds without part of it, an \"or\" the text does not say: express every part")
    return None


def _state_moved(found, predicate) -> Optional[str]:
    """(r44c) Where the reading of a condition is partial, a place it reads in one state ("an enterprise box left at
    Unknown") that the predicate asks only in another state of that kind (the same class at Privileged) says something
    else: with several hosts of a class the two may hold together, but the rule fires on a host whose state its words never
    name, and is silent on the one they do."""
    asked = _states(predicate)
    for (place, key), values in _states(found).items():
        other = asked.get((place, key), set())
        # (r57d: or a place read in some state of a kind, "any user host with unknown malware", asked only quiet in it, as
        # Compromised No: the opposite, whatever else the reading left out)
        quiet = values == {"any"} and bool(other) and other <= {QUIET_ACTIVITY, QUIET_COMPROMISE}
        if quiet or other and "any" not in values and "any" not in other and not values & other:
            where = place if place in HOSTS else "any host" if place == ANY_CLASS else f"a {place} host"
            return (f"claims: the condition reads {where} as {'some ' + key if quiet else '/'.join(sorted(values))} ({key}), "
                    f"but the predicate asks it as {'/'.join(sorted(other))}: express the state the text says")
    return None


# Every value of a state, as the reading may list them: "compromised at user level or root" is any compromise.
_ALL_VALUES = {"activity": frozenset({"Scan", "Exploit"}), "compromise": frozenset({"User", "Privileged"})}


def _states(predicate) -> dict[tuple[str, str], set[str]]:
    """The values each place (a host, or a class) is asked in, per state (activity, compromise), by positive atoms."""
    out: dict[tuple[str, str], set[str]] = {}
    for atom, negated in atoms_of(predicate):
        place = atom.host or atom.host_class
        for key in ("activity", "compromise"):
            value = getattr(atom, key)
            if not negated and place and value is not None:
                out.setdefault((place, key), set()).add(value)
    return out


def _state_widened(found, predicate) -> Optional[str]:
    """(r37y) Where the reading of a condition is partial, the states it did place still hold: a named host it reads in
    one state ("Enterprise1 at Compromised User", "when Op_Server0 gets exploited") that the predicate asks in any state of
    that kind is wider than the text, whatever else the reading left out. (r41x) So is a class or any host it reads with
    one kind of activity ("when a user host gets probed") asked in any activity."""
    asked = _states(predicate)
    for (place, key), values in _states(found).items():
        # (a compromise level of a class or of any host, "a box at Unknown", is left alone: a compiler that reads it wider
        # is then kept semantic, and such a rule read in part is silent where the wider one helped)
        if (place not in HOSTS and key != "activity") or "any" in values or values >= _ALL_VALUES[key] \
                or values & {QUIET_ACTIVITY, QUIET_COMPROMISE}:
            continue
        if "any" in asked.get((place, key), set()):
            where = place if place in HOSTS else "any host" if place == ANY_CLASS else f"any {place} host"
            return (f"claims: the condition reads {where} as {'/'.join(sorted(values))} ({key}), but the predicate asks it in "
                    f"any {key}: express the state the text says")
    return None


# (r38x) A compromise level, said with the words that make it one ("Compromised User", "user-level", "root", "at
# Privileged"; r39x: a word of any compromise that a level follows, "owned at user level", is that level, and so is the
# table's value in shorthand, "@ User", "still User", "of User"), and the words that say a compromise of no level
# ("compromised", "owned", "breached", "any level"): a text that says only levels asks one of them, never any compromise.
_LEVEL_PHRASE = re.compile(
    r"\b(?:(?:compromis\w*|owned|pwned|popped|hacked|breached|held)\s+(?:(?:at|with|to)\s+)?(?:(?:a|the)\s+)?)?"
    r"(?:user(?:[\s-]level|\s+(?:access|privileges?|shell|rights))|"
    r"privileged|priv(?:ilege)?(?:\s+esc\w*)?|root(?:ed)?|admin(?:istrator)?|system[\s-]level|unknown)"
    r"(?:[\s-]+(?:level|access|privileges?|compromise|rights|shell|footholds?))?\b|"
    r"(?:\b(?:compromis\w*|at|to|of|still|reads?|shows?|showing|shown)\s+|@\s*)user\b(?![\s-]+(?:hosts?|box(?:es)?|machines?|workstations?|"
    r"subnet|side|accounts?|desktops?|laptops?|nodes?|systems?|ones?|network)\b)", re.IGNORECASE)
_ANY_LEVEL = re.compile(r"\b(?:compromis\w*|owned|pwned|popped|hacked|breach\w*|infect\w*|footholds?|taken\s+over|"
                        r"any\s+(?:level|access)|level\s+(?:at\s+all|whatever)|whatever\s+level|either\s+level)\b", re.IGNORECASE)
# An activity said by its kind ("scanned", "exploited", "recon"), and the words of any activity ("activity", "an alert",
# "shows anything"): a text that names only kinds asks one of them, never any activity. (r42x) "any sign of a scan" is
# that kind, the sign no activity of its own; nor is "the attack path" (where the attacker goes next) an attack seen.
_ACTIVITY_KIND = re.compile(r"\b(?:(?:(?:any|some|a)\s+)?(?:signs?|traces?|hints?|evidence)\s+of\s+(?:an?\s+)?(?:scan|exploit)\w*|activity\s+(?:of\s+)?(?:scan|exploit)\w*|(?:scan\w*|exploit\w*)\s+activity|scan\w*|exploit\w*|recon\w*|probe[sd]?|probing|"
                            r"discover\w*|initial\s+access)\b", re.IGNORECASE)
_ANY_ACTIVITY = re.compile(r"\b(?:activity|active|alerts?|alarms?|anything|something|signs?|suspicious|noise|noisy|"
                           r"touched|attacked|attacks?(?!\s+(?:path|chain|route|graph|surface|vector)s?\b)|hit|activity\s+of\s+any\s+kind)\b",
                           re.IGNORECASE)


def _names_phase(raw: Any) -> bool:
    """Whether a predicate's JSON names an attack phase anywhere (its states are the phase's definition, not the compiler's)."""
    if isinstance(raw, dict):
        return "phase" in raw or any(_names_phase(v) for v in raw.values())
    return isinstance(raw, list) and any(_names_phase(v) for v in raw)


def _phase_asks_any(text: str) -> bool:
    """Whether the text names an attack phase whose own definition asks a state in any level or kind ("the impact phase":
    Op_Server0 shows any compromise): a compiler that writes that definition out says what the phase says."""
    name = phase_named(text)
    return name is not None and any("any" in (atom.compromise, atom.activity)
                                    for atom, _ in atoms_of(parse_predicate(phase_predicate(name))))


def _level_widened(text: str, predicate, when_raw: Any) -> Optional[str]:
    """(r38x) A state the text names by its level or kind only ("Enterprise1 at Compromised User", "a workstation that has
    been rooted", "once a user host gets scanned") asked by the predicate in any level or kind: wider than the text, it
    fires on a host the text does not speak of. (A text that also says a compromise or an activity of no level or kind,
    or joins two levels as one, "user or root", may ask any: it is left alone; so is a predicate that names a phase.)"""
    if _names_phase(when_raw) or _phase_asks_any(text):
        return None
    asked = {key for atom, negated in atoms_of(predicate) if not negated
             for key in ("compromise", "activity") if getattr(atom, key) == "any" and (key == "compromise" or atom.host)}
    if "compromise" in asked and _LEVEL_PHRASE.search(text) and not _any_level_of_asked(text, predicate) \
            and not levels_joined(text):
        return ("claims: the text names a compromise level, but the predicate asks any compromise: express the level "
                "the text says")
    # (any activity is looked for in the instruction, the story and the reason left out: "it may have caught something
    # later" in the story says no activity of the rule. r41x: on any host, the kind is looked for in the lesson alone,
    # "before the exploit" in the story says no kind of the rule's "traffic looks unusual". An activity widened on a
    # class, "one of the operational hosts is being exploited" asked as any activity there, is still left alone: kept
    # semantic, such a rule lost more queries than it made wrong, in round 38 and again in round 41)
    words = read_wording(text)
    on_class = any(not negated and atom.activity == "any" and atom.host_class == ANY_CLASS for atom, negated in atoms_of(predicate))
    kind = _ACTIVITY_KIND.search(text) if "activity" in asked else \
        on_class and _ACTIVITY_KIND.search(f"{words.situation} {words.instruction}")
    if kind and not _ANY_ACTIVITY.search(_ACTIVITY_KIND.sub(" ", words.instruction)):
        return "claims: the text names a kind of activity, but the predicate asks any activity: express the kind the text says"
    return _level_denied(text, predicate)


# (r44c) A denial right before a word of a compromise: "!= compromised", "is not owned", "isn't yet compromised", "never
# breached", "no compromise".
_DENIED_BEFORE = re.compile(r"(?:!=|=/=|\bnot|n['\u2019]t|\bnever|\bno)\s*(?:(?:yet|really|actually|truly|been|even|fully)\s+)*$",
                            re.IGNORECASE)


def _any_level_of_asked(text: str, predicate) -> bool:
    """(r42x) Whether the text says a compromise of no level ("compromised", "owned") of what the predicate asks in any
    compromise: a clause that names only other hosts ("..., unless Op_Server0 is already compromised") says it of them,
    and leaves the level said of the rest ("a root foothold on an op box") the only one of those. A clause
    that names no host ("when it is compromised") may be of any, and counts."""
    asked = {atom.host or atom.host_class for atom, negated in atoms_of(predicate) if not negated and atom.compromise == "any"}
    rest = _LEVEL_PHRASE.sub(" ", text)
    for found in _ANY_LEVEL.finditer(rest):
        # (r44c) a compromise the text denies ("Unknown on a user box != compromised", "is not owned") asks none: the
        # level it says ("Unknown") is still the only state of the rule
        if _DENIED_BEFORE.search(rest[:found.start()]):
            continue
        clause = re.split(r"[,;.:!?(]|\b(?:unless|except|but|while|when|if)\b", rest[:found.start()], flags=re.IGNORECASE)[-1]
        named = set(hosts_in(clause))
        if not named or named & asked or set(classes_in(clause)) & asked:
            return True
    return False


def _level_turned(words: Wording, predicate, unexpressed: str = "") -> Optional[str]:
    """(r55l) A condition that says one compromise level only ("if it is still at user level", "while it sits at root")
    compiled as the other level alone, the opposite of its words, or with no compromise at all, the level dropped. Where the
    readers leave a word of it unplaced ("still" read as history), the claims check has no whole reading to hold the
    predicate to, and "Q: may we Remove User2 once it is scanned? A: No, do not Remove it then if it is still at user level"
    passed as a ban on any scanned User2. (A level denied, "unless it is at user level", or any compromise said beside it,
    leaves the level open: left alone; so is a rest that states a level, which the guard judges.)"""
    said: set[str] = set()
    for condition in words.conditions:
        body = evidence_away(condition.text)
        if _ANY_LEVEL.search(_LEVEL_PHRASE.sub(" ", body)):
            return None
        if LEVEL_RELATIVE.search(body) and levels_by_place_read(body) and any(atom.compromise is not None for atom, _ in atoms_of(predicate)):
            return None  # (r58l) "below root", "above user level" asked by a level: `_level_relative` judges it
        for found in _LEVEL_PHRASE.finditer(body):
            if condition.negations or _DENIED_BEFORE.search(body[:found.start()]):
                return None
            if not re.search(r"unknown", found.group(0), re.IGNORECASE):
                said.add("User" if re.search(r"\buser\b", found.group(0), re.IGNORECASE) else "Privileged")
    if len(said) != 1 or _LEVEL_PHRASE.search(unexpressed or ""):
        return None
    asked = {atom.compromise for atom, negated in atoms_of(predicate) if not negated and atom.compromise is not None}
    if not asked and not any(atom.compromise is not None for atom, _ in atoms_of(predicate)) \
            and any(not atom.bare() for atom, _ in atoms_of(predicate)):
        return (f"claims: the condition says {next(iter(said))} level, but the predicate asks no compromise: express the "
                "level the text says")
    if not asked or asked & said or "any" in asked:
        return None
    return (f"claims: the condition says {next(iter(said))} level only, but the predicate asks {'/'.join(sorted(asked))}: "
            "express the level the text says")


def _level_relative(text: str, predicate) -> Optional[str]:
    """(r55d) A level said by its place against another ("if it is above user level", "below root", "past user level":
    clauses.LEVEL_RELATIVE) compiled with a compromise level: most often the level it names, the opposite of its words
    ("above user level" is root), and no level of the table says "above" or "below" as such: refused."""
    lesson = example_aside_away(text or "")
    said = LEVEL_RELATIVE.search(lesson)
    if said is None or not any(atom.compromise is not None for atom, _ in atoms_of(predicate)):
        return None
    # (r58l) where the reader places each such level (claims.levels_by_place_read: "below root" is anything but root,
    # "above user level" root) and the predicate says no more than that reading, it is held to it: refused whatever it
    # said, the right reading of "less than root" was kept semantic and won no query
    found = rule_claims(text, with_instruction=True, bare=False)
    if levels_by_place_read(lesson) and found is not None and implies(predicate, found):
        return None
    return (f"claims: the text says a level by its place against another ({said.group(0).strip()!r}), but the predicate "
            "asks a level of the table its reading does not place: keep the rule semantic")


def _level_denied(text: str, predicate) -> Optional[str]:
    """(r38x) The other way round: a compromise the text denies with no level ("while none of the servers is compromised",
    "nothing owned anywhere") compiled as the absence of one level (`not ... Privileged`): wider than the text, the rule
    holds where a host sits at the level it left out."""
    places: dict[str, set[str]] = {}
    for atom, negated in atoms_of(predicate):
        if negated and atom.compromise is not None:
            places.setdefault(atom.host or atom.host_class or ANY_CLASS, set()).add(atom.compromise)
    # (both levels denied, or any compromise, denies every compromise the table shows: "Unknown" is no level of its own)
    denied = {level for levels in places.values() if "any" not in levels and not {"User", "Privileged"} <= levels
              for level in levels} & {"User", "Privileged"}
    if denied and not _LEVEL_PHRASE.search(text):
        return ("claims: the text denies a compromise of no level, but the predicate denies only "
                f"{'/'.join(sorted(denied))}: deny any compromise")
    return None


def _narrow(text: str, predicate, unexpressed: str, action=None) -> Optional[str]:
    """Where the product reads the whole of the condition, the predicate must not ask more than that reading (a history
    the story told, "owned for four steps", or a quiet network for "no host shows any compromise"): narrower, the rule
    stays silent where its words say it applies. Refused, it is kept semantic and judged by that whole reading."""
    # (a state said only in a concession is no condition whatever the compiler left over: the rest it lists, "entry point
    # again once", is the concession's own reason, "even when it is compromised: it gets exploited again at once")
    if _conceded_state(text, predicate):
        found = rule_claims(text, with_instruction=True)
        return (f"narrow: the text says a state only in a concession ('even if', 'whatever'), but the predicate asks it "
                f"({describe(found)[:90]}): express the condition, and no more")
    if guard_rest(unexpressed, predicate, text, action).strip():
        return None  # (a rest that is a condition, which the predicate leaves out, is judged as a guard; a story is none,
        # r56l: nor another case's own move)
    found = whole_claims(text)
    if found is None or implies(found, predicate):
        return None
    # (only a history where the whole reading has none, the story's: where the reading has one too, its words may
    # say more of it than the reading placed, "still compromised right after you removed it")
    told = any(atom.history() for atom, _ in atoms_of(predicate)) and not any(atom.history() for atom, _ in atoms_of(found))
    if not told and not _quiet_network(predicate) and not _one_level_of_two(text, predicate, found):
        return None
    return (f"narrow: the predicate asks more than the condition says ({describe(found)[:90]}): express the condition, "
            "and no more")


def _one_level_of_two(text: str, predicate, found) -> bool:
    """Whether the text names both compromise levels as one condition ("once Enterprise2 sits at user level or root"), its
    whole reading `found` asks any compromise and no one level, but the predicate asks only one of them: narrower, the
    rule would be silent at the level it left out."""
    read = {atom.compromise for atom, negated in atoms_of(found) if not negated}
    if not levels_joined(text) or "any" not in read or read & {"User", "Privileged"}:
        return False
    levels = {atom.compromise for atom, negated in atoms_of(predicate) if not negated}
    return len(levels & {"User", "Privileged"}) == 1 and not levels & {"any"}


def _conceded_state(text: str, predicate) -> bool:
    """Whether the predicate asks a host's state that the text says only in a concession ("never restore User3, even
    if it's rooted": its order holds whatever the host shows), where the product reads the whole of the rest of it (the
    hosts it names, as here): narrower, the rule would be silent on that host in any other state."""
    if not conceded_states(text):
        return False
    # (a pure prohibition only: where the text also orders a verb, "Do not restore User3, even when it's rooted; Remove is
    # as far as we go there", that order acts on the state, which may then be the condition of the whole rule)
    words = read_wording(text)
    forbidden = {p.verb for p in words.prohibitions}
    if not words.prohibitions or None in forbidden or not set(words.verbs) <= forbidden:
        return False
    found = rule_claims(text, with_instruction=True)
    # (whole as the reading reads it, without the concession and the reason it runs on to: "even when it is compromised:
    # it is the way in and gets exploited again at once" states no condition of the rule)
    if found is None or not complete_claims(conceded_away(text), found) or implies(found, predicate):
        return False
    return any(atom.activity is not None or atom.compromise is not None for atom, _ in atoms_of(predicate))


def _quiet_network(predicate) -> bool:
    """Whether a predicate asks every host quiet (no activity and no compromise anywhere)."""
    return any(isinstance(p, Not) and isinstance(p.part, AnyOf) and
               {(a.activity, a.compromise) for a in p.part.parts if isinstance(a, Atom) and a.host_class == ANY_CLASS}
               >= {("any", None), (None, "any")} for p in _conjuncts(predicate))


def _conjuncts(predicate) -> tuple:
    return predicate.parts if isinstance(predicate, AllOf) else (predicate,)


def _history(words: Wording, predicate, unexpressed: str) -> Optional[str]:
    """A condition that speaks of a kind of fact a predicate over the table cannot state (the defender's history,
    rewards, an action's outcome, priority, traffic, the step of the episode) needs it stated: history by a history
    atom, and any kind by an `unexpressed` rest that speaks of it (the rule is then guarded, and silent where the product
    cannot judge that rest). Any other rest does not cover it: an unexpressed rest never switches a check off, and a rest
    that does not guard (words of the story or the reason, `guard_rest`: "fell to Unknown, removed again") covers nothing."""
    flipped = _history_turned(words, predicate, unexpressed)
    if flipped:
        return flipped
    kept = facts_needed(guard_rest(unexpressed, predicate, words.text))
    # (a rest that states a rating judged.py judges lists it, though it need not guard where the condition is read whole:
    # the gate judges the rating in the text's own conditions, `retrieve._judged_of`)
    kept |= judged_facts(unexpressed or "")
    if any(atom.history() for atom, _ in atoms_of(predicate)):
        kept |= {"history"}
    kept |= outcome_stated(predicate)  # (r40m: "a failed Restore": the move left the host unchanged)
    # (r48m: as the gate reads them, `condition.text_facts`: not a later case the text only keeps another move for, "...
    # and keep a Restore for when the Remove did not take", which the note applies without)
    narrowed = narrower_cases_away(words.text)
    for spoken, kinds in spoken_facts(words if narrowed == words.text else read_wording(narrowed)):
        if rating_away(spoken) != spoken:  # (the rating the analyses give the one host named: the gate judges it there)
            kinds -= judged_facts(spoken)
        missing = sorted(kinds - kept)
        if missing == ["history"]:
            return (f"history: the condition speaks of the defender's history ({spoken[:60]!r}) but the predicate has no "
                    "history condition: use newly_compromised, unchanged_for, acted or scan_before_exploit, or list it in "
                    "\"unexpressed\"")
        if missing:
            return (f"facts: the condition speaks of {', '.join(m for m in missing if m != 'history')} ({spoken[:60]!r}), which "
                    "no predicate states: list it in \"unexpressed\"")
    return None


def _history_turned(words: Wording, predicate, unexpressed: str = "") -> Optional[str]:
    """A history condition the predicate turns around (`_history_direction`, `_fresh_in_every_branch`,
    `_history_in_every_branch`). (r46m) Asked before the claims: where the claims read the whole condition, history too
    ("clean at prev turn"), a compilation that turns its history around is named for what it does, not as a condition
    left unsaid."""
    return _history_direction(words, predicate) or _fresh_in_every_branch(words, predicate) \
        or _history_in_every_branch(words, predicate)


def _history_direction(words: Wording, predicate) -> Optional[str]:
    """A history condition turned around (r37y): the lesson speaks of a fresh compromise but the predicate asks a host
    compromised since before (or none fresh), of a compromise that a move left unchanged but the predicate asks a change
    (or the other way round), or of an exploit with no scan first but the predicate asks a scan first. Read over the whole
    text: a lesson often defines its words in a sentence of their own ("sideways spread: some box is newly compromised while
    another has been held since before")."""
    said = history_directions(words.text)  # (the reading's situation and instruction may leave out the clause that says it)
    flags = [(atom, negated) for atom, negated in atoms_of(predicate)]
    newly = {atom.newly_compromised for atom, negated in flags if not negated and atom.newly_compromised is not None}
    if said.fresh and newly and (True not in newly or False in newly and not said.held):
        return ("history: the condition speaks of a fresh compromise (clean at the previous step), but the predicate asks "
                "a host compromised since before: newly_compromised true")
    changed = {atom.changed for atom, negated in flags if not negated and atom.changed is not None}
    if changed and said.unchanged != said.turned and (not said.turned) in changed:
        return (f"history: the condition says the host {'changed' if said.turned else 'stayed as it was'} after the move, "
                f"but the predicate asks the opposite: changed {'true' if said.turned else 'false'}")
    scanned = {atom.scan_before_exploit for atom, negated in flags if not negated and atom.scan_before_exploit is not None}
    if scanned and said.unscanned == (True in scanned) and len(scanned) == 1:
        return ("history: the condition says whether the host was scanned before its exploit, but the predicate asks the "
                "opposite: turn scan_before_exploit around")
    return None


def _fresh_in_every_branch(words: Wording, predicate) -> Optional[str]:
    """(r39x) A lesson about a fresh compromise ("clean at the previous step", "a newly taken host"; lateral movement: a
    fresh foothold while another host is held since before) fires only with a fresh compromise: every way the predicate
    can hold that asks when a host was compromised asks one host fresh, and where the predicate pairs a fresh host with a
    held one, every such way pairs them. One branch turned around (held where the text says fresh, or two fresh hosts
    where it says one fresh and one held) fires on what the text does not speak of."""
    said = history_directions(words.text)
    branches = dnf(predicate) if said.fresh else None
    if not branches:
        return None
    flags = [{atom.newly_compromised for atom, positive in branch if positive and atom.newly_compromised is not None}
             for branch in branches]
    flags = [f for f in flags if f]
    if any(True not in f for f in flags):
        return ("history: the condition speaks of a fresh compromise, but one branch of the predicate asks only hosts "
                "compromised since before: newly_compromised true on the fresh host")
    if said.held and any(f == {True, False} for f in flags) and any(f != {True, False} for f in flags):
        return ("history: the condition pairs a fresh compromise with a host held since before, but one branch of the "
                "predicate does not: ask one host newly compromised and the other not, in every branch")
    return None


def _history_in_every_branch(words: Wording, predicate) -> Optional[str]:
    """(r39x) A condition about the defender's history ("stuck at the same level for four steps", "clean at the previous
    step", "no scan before the exploit") holds of every way the rule may fire: where the predicate asks it in one branch
    (one level of two, one host of several), a branch without it fires on a host whatever its history, which the text
    does not say. (A branch with no state asked of any host is left alone: it may be the text's own other condition.)"""
    if not any("history" in kinds for _, kinds in spoken_facts(words)):
        return None
    branches = dnf(predicate) or []
    told = [any(positive and atom.history() for atom, positive in branch) for branch in branches]
    if not any(told) or all(told):
        return None
    stated = [any(positive and (atom.activity or atom.compromise) for atom, positive in branch) for branch in branches]
    if any(s and not t for s, t in zip(stated, told)):
        return ("history: the condition speaks of the defender's history, but one branch of the predicate asks no history "
                "condition: ask it in every branch")
    return None


CHECKS = ("format", "reach", "never", "always", "negation", "prohibition", "permission", "disprefer", "polarity", "inverted", "verb", "host", "class", "except", "grounding",
          "bare", "before", "claims", "narrow", "history", "facts", "target", "reference", "case")


def text_problem(text: str, when_raw: Any, action_raw: Any, unexpressed: str = "") -> Optional[str]:
    """Why a CONTENT rule's predicate or action says more than its text, or the opposite (None: neither), as
    `<check>: <why>` (the check is one of CHECKS).
    `when_raw` / `action_raw`: the entry's JSON, already valid (compile.py parses it first)."""
    if when_raw is None:
        return None
    asked = _move_only_asked(text, action_raw) or _move_taken_back(text, action_raw) or _move_corrected(text, action_raw) \
        or _both_done(text, action_raw) or _defined_word_denied(text, action_raw) or _log_left_open(text, action_raw) \
        or _host_by_role_named(text, action_raw)
    if asked:
        return asked
    text = first_rung(text)  # (r46a) a ladder's compilation is held to its first case, whose condition and order pair
    problem = _whole_text_problem(text, when_raw, action_raw, unexpressed)
    cases = arrow_cases(text)
    if not cases or unexpressed:
        return problem
    # (r51a) a list of cases, "<situation> -> <order>" each: the compilation is held to one case, the situation and the
    # order of the same case (held to the whole list, one case's order passed under another's situation: "scan -> Analyse;
    # exploit -> Remove" compiled as a Remove of a scanned host), or to the whole where every case orders its moves. (A
    # compilation that states what it leaves of the other cases, `unexpressed`, is judged whole, as r42m's tables are.)
    moves = set(_action_verbs(action_raw))
    # (a case whose own order names every move the action makes: "any other row -> no move of ours" orders none)
    if any(moves <= set(verbs_in(case)) and _whole_text_problem(case, when_raw, action_raw, unexpressed) is None
           for case in cases):
        return None
    if problem is None and all(moves <= set(verbs_in(case)) for case in cases):
        return None
    return problem or (f"case: the text pairs each of its cases with its own order, but no case orders "
                       f"{'/'.join(sorted(moves))} in the situation the predicate states: keep to one case")


def _move_only_asked(text: str, action_raw: Any) -> Optional[str]:
    """(r56l) A move the text names only in a question nothing answers (forms.moves_only_asked: "Should we Restore User2
    once it is rooted?", "Why would anyone Restore it?") compiled as the rule's move: a question orders nothing, and
    whether it suggests the move or mocks it its words do not settle. Passed, the compiled order, or its "never", was the
    rule's word where the text gave none."""
    verb = _verb(action_raw.get("verb")) if isinstance(action_raw, dict) else None
    if not verb or not any(same_verb(asked, verb) for asked in moves_only_asked(named_in_full(text))):
        return None
    return (f"polarity: the text names {verb} only in a question that nothing answers: a question orders nothing and "
            "forbids nothing; keep the rule semantic")


def _host_by_role_named(text: str, action_raw: Any) -> Optional[str]:
    """(r61l) A move the text makes on a host it names only by its part in the story (forms.moves_on_host_by_role: "Analyse
    the box red came from") compiled as a move on a host it names: that host is the one attacked, not the one the move is
    for, which the words do not name."""
    verb = _verb(action_raw.get("verb")) if isinstance(action_raw, dict) else None
    target = str(action_raw.get("target") or "") if isinstance(action_raw, dict) else ""
    if not verb or not hosts_in(target) or not any(same_verb(v, verb) for v in moves_on_host_by_role(text)):
        return None
    return (f"target: the text aims {verb} at a host it names only by its part in the story (\"the box red came from\"), "
            f"not at {target}: keep the rule semantic")


def _log_left_open(text: str, action_raw: Any) -> Optional[str]:
    """(r61l) A move compiled from a chat log that never settles (transcript.log_unsettled: its last order doubted, turned
    down, laughed off or put off): read whole, one speaker's proposal passed for the rule, and the log orders nothing."""
    if not isinstance(action_raw, dict) or not action_raw.get("verb") or not log_unsettled(text):
        return None
    return (f"polarity: the text is a conversation that never settles on {action_raw.get('verb')} (its last order is "
            "doubted, turned down or put off): it orders nothing and forbids nothing; keep the rule semantic")


def _move_taken_back(text: str, action_raw: Any) -> Optional[str]:
    """(r59b) An order compiled from a text that takes a move back by a ban naming none (forbidding.move_taken_back:
    "It can't hurt to Restore User2 once it is exploited. Don't do it, though."): which move the ban takes back no
    reader places, and passed, the order was the rule's where the writer turned it down."""
    if not isinstance(action_raw, dict) or action_raw.get("mode") != "do" or not move_taken_back(text):
        return None
    return ("polarity: the text takes a move back by a ban that names none (\"don't do it\"): whether it orders "
            f"{action_raw.get('verb')} or turns it down is not certain; keep the rule semantic")


# (r60m) The writer correcting the move they just named: "Restore, no wait, Remove", "analyse it - nope, strike that: decoy
# it". (Not "..., sorry, I mean Restore" yet: kept semantic, a rule so corrected outlived the edit that replaced it, blind-53.)
# (r60b) Also a bare "Scratch that." or "strike that" before a stop, a comma or a dash, "I take that back", "on second
# thought": each takes back what was said before it (a new sentence after "Remove it." no less than a clause).
_CORRECTION = re.compile(r"\b(?:no\s*[,.!]?\s*wait(?!\s+(?:time|times|needed|for|period|at\s+all)\b)|wait\s*[,.!]?\s*no(?!\s+(?:one|body|longer|more|matter|need)\b)|"
                         r"(?:(?:no|nope|wait|sorry|oops)\s*[,.!]?\s*)?(?:scratch|strike|forget|cancel)\s+that(?=\s*(?:[,.:;!\u2013\u2014-]|$))|"
                         r"i\s+take\s+(?:that|it)\s+back|on\s+second\s+thoughts?)\b", re.IGNORECASE)
_HOSTS_ONLY_LEFT = re.compile(r"\b(?:on|to|of|for|at|the|host|box|and|or|i\s+mean)\b", re.IGNORECASE)
_NEGATED_AFTER = re.compile(r"\b(?:never|not|no|nor|avoid|stop|skip)\b|n['\u2019]t\b", re.IGNORECASE)


def _move_corrected(text: str, action_raw: Any) -> Optional[str]:
    """(r60m) A compilation of what the writer took back (`_CORRECTION`: "U1-U3 at User - Restore, no wait, Remove"):
    the rule is what follows the last correction, never what it takes back. (r60b) Held to that part whole, for a ban as
    for an order and for the host as for the move: "don't Remove it, no wait, do Remove it" compiled as the ban, "Restore
    User1, no wait, User2" as a Restore of User1, "Remove it. Scratch that: ..." and a correction of a correction
    ("Restore, no wait, Remove, no wait, Restore") as the move in between passed, each the opposite of the words."""
    marks = list(_CORRECTION.finditer(text or ""))
    if not isinstance(action_raw, dict) or not marks:
        return None
    verb, now = _verb(action_raw.get("verb")), text[marks[-1].end():]
    named = verbs_in(now)
    if not named and hosts_in(now):  # the host corrected: the move said before, on the host said after, and no more
        if action_raw.get("target") in hosts_in(now) and not _HOSTS_ONLY_LEFT.sub(" ", without_host_names(now)).strip(" ,.;:!-"):
            return None
        return (f"host: the text corrects the host it names (\"no wait\", \"scratch that\") to {hosts_in(now)[0]}: the rule "
                "is on the host after the correction")
    if not verbs_in(text[:marks[-1].start()]) and not hosts_in(text[:marks[-1].start()]):
        return None  # ("On second thought, <the rule>": nothing said before it here to take back)
    said = _said_after(now, verb) if verb else set()
    if ("never" if str(action_raw.get("mode", "")).lower() == "never" else "do") in said:
        return None
    what = verb if verb and any(same_verb(v, verb) for v in verbs_in(text[:marks[-1].start()])) else "what it said"
    return (f"polarity: the text takes {what} back (\"no wait\", \"scratch that\") and names "
            f"{named[0] if named else 'no move'} after it: the rule is what follows the correction")


# (r60b) A word the text defines as a move: "'contain' means the plan removes the host", "by quarantining we mean a Remove"
# (`word`, and `meant`, what it stands for)
_WORD_FOR_A_MOVE = re.compile(r"(?:^|[.;:!?]\s*|\bhere\s*,?\s*)(?:the\s+(?:word|term)\s+|to\s+|by\s+)?['\"\u2018\u201c]?"
                              r"(?P<word>[a-z][\w-]{2,})['\"\u2019\u201d]?\s+(?:means|stands\s+for|(?:we|i)\s+mean)\b(?P<meant>[^.;!?]*)",
                              re.IGNORECASE)


def _defined_word_denied(text: str, action_raw: Any) -> Optional[str]:
    """(r60b) An order of the move a word is defined as, where the text turns that word down ("'contain' means the plan
    removes the host; never contain User2"): the ban, said in the writer's own word, is no negation any reader places of
    the move (a "means" read as the order, r60m's MEANS_ADDRESSED, passed a Remove the text forbids)."""
    if not isinstance(action_raw, dict) or action_raw.get("mode") == "never" or not (verb := _verb(action_raw.get("verb"))):
        return None
    for found in _WORD_FOR_A_MOVE.finditer(text or ""):
        stem = found["word"][:max(4, len(found["word"]) - 3)]
        if verbs_in(found["word"]) or not any(same_verb(v, verb) for v in verbs_in(found["meant"])):
            continue
        if re.search(rf"(?:\b(?:never|not|no|nor)|n['\u2019]t)\s+(?:\w+\s+){{0,2}}?{re.escape(stem)}\w*", text, re.IGNORECASE):
            return (f"polarity: the text defines '{found['word']}' as {verb} and turns '{found['word']}' down: the order "
                    "of the move is the opposite of its words")
    return None


# (r60b) The text's "not both", "never both", "one or the other": the order makes one move of two, never the pair
_NOT_BOTH = re.compile(r"\b(?:(?:not|never)\s+both|one\s+or\s+the\s+other)\b", re.IGNORECASE)


def _both_done(text: str, action_raw: Any) -> Optional[str]:
    """(r60b) An order of two moves, one after the other, compiled from a text that says "not both" (a heading,
    instruction._ONE_NOT_BOTH, or `_ONE_NOT_BOTH_SAID`: its "not" is no negation of the order, so no check turned down
    "Restore User1 then Remove User1" where the words allow one of them): the opposite of the words."""
    if not isinstance(action_raw, dict) or not action_raw.get("then") or not _NOT_BOTH.search(text or ""):
        return None
    return ("polarity: the text says one move of two and \"not both\", but the action makes "
            f"{' then '.join(_action_verbs(action_raw))}: keep to one of them")


def _said_after(now: str, verb: str) -> set[str]:
    """How the text after a correction names `verb`: "never" where a negation stands in the few words before it ("not
    restore", "No decoy on ..."), "do" where none does."""
    said, last = set(), 0
    for found in VERB.finditer(now):
        if any(same_verb(n, verb) for n in verbs_in(found.group(0))):
            said.add("never" if _NEGATED_AFTER.search(now[max(last, found.start() - 20):found.start()]) else "do")
        last = found.end()
    return said


def _move_disowned(text: str, action: Optional[dict]) -> Optional[str]:
    """(r56e) An order or a ban the writer reports of another and turns down, or quotes and calls wrong
    (disowned.moves_disowned: "never Restore it, says Dana; I say ...", "Dana's team lives by the rule: ...; I disagree"),
    compiled as the rule's own: the rule is the one the writer rejects, the opposite of their words."""
    if not isinstance(action, dict) or action.get("mode") not in ("do", "never"):
        return None
    verb = _verb(action.get("verb"))
    if not verb or not any(mode == action["mode"] and same_verb(said, verb) for mode, said in moves_disowned(text)):
        return None
    return (f"polarity: the text's {action['mode']} {verb} is another's, or quoted, and the writer turns it down: no rule "
            "of the text; keep the rule semantic")


def _subnet_left_out_asked(text: str, predicate) -> Optional[str]:
    """(r56e) A form's subnet line that leaves a subnet out ("subnet: any but user", forms.subnets_left_out): a predicate
    that can match a host of that subnet holds the rule where the line says it is not for, the opposite of the words."""
    for left_out in subnets_left_out(text):
        if positive_hosts(predicate) & set(HOST_CLASSES[left_out]):
            return (f"scope: the text's subnet line leaves out the {left_out} subnet, but the predicate can match a "
                    f"{left_out} host: keep those hosts out")
    return None


def _class_left_out_asked(text: str, predicate) -> Optional[str]:
    """(r58h) A class the text leaves out of its rule, in its order's sentence or a clause of its own ("..., except on
    the op boxes", "rule 4 does not hold for user hosts": guard.classes_left_out), that the predicate can
    still match a host of: the rule would hold where its words say it does not apply."""
    asked = left_out_classes_asked(text, predicate)
    only = {h for cls in classes_set_apart_denied(text) for h in HOST_CLASSES[cls]}
    if only and set(positive_hosts(predicate)) - only:
        # (r58a) the hosts set apart from a class denied in their turn ("anything other than op hosts stays untouched",
        # guard.classes_set_apart_denied): the rule is for that class alone, never the others'
        return "scope: the text denies the hosts outside the class it sets apart, but the predicate can match one: keep to that class"
    if not asked:
        return None
    cls = sorted(asked)[0]
    return f"scope: the text leaves the {cls} hosts out, but the predicate can match a {cls} host: keep those hosts out"


def reason_states(reason: str) -> bool:
    """(r58d) Whether a reason said first (order.REASON_FIRST) tells of a state: "Because User1 is rooted: ...", "Given
    that the user hosts are at root: ...", or state words the claims do not read ("got exploited again"); not "Because
    the ops side scores: ..."."""
    found = claims(reason)
    return bool(state_words_in(reason)) if found is None else any(not atom.bare() for atom, _ in atoms_of(found))


def _reason_state_dropped(text: str, predicate) -> Optional[str]:
    """(r58d) A reason said first whose words tell of a host's state ("Because User1 is rooted: Restore User1", "Since
    Op_Server0 got exploited: Remove it"): that state is the case the order rests on, so the predicate must state it
    (with the reason cut as a justification, the order held on User1 whatever its state, a Restore of a clean host)."""
    found = REASON_FIRST.match(" ".join((text or "").split()))
    if found is None or not reason_states(found["reason"]):
        return None
    state = claims(found["reason"])
    if state is not None and implies(predicate, state):
        return None
    return (f"claims: the text's reason said first tells of a state ({found['reason'].strip()!r}), the case its order "
            "rests on, but the predicate does not state it: express it, or keep the rule semantic")


def _purpose_state_said(text: str) -> Optional[str]:
    """(r60b) A purpose said first that tells of a host's state (order.PURPOSE_FIRST: "To guard Op_Server0 against a rooted
    User1, ...", "To deny red the foothold it holds on User4, ..."): whether that state is the case the order waits on or
    the one it heads off is not certain, and the readers cut the purpose from the order (order.without_purpose_first), so
    no check saw its hosts or its state (a Restore of Op_Server0 on Op_Server0's own root passed)."""
    for sentence in sentences(" ".join((text or "").split())):
        if (found := PURPOSE_FIRST.match(sentence)) is not None and reason_states(found["reason"]):
            return (f"claims: the text's purpose said first tells of a state ({found['reason'].strip()!r}), the case its "
                    "order rests on or the one it heads off; keep the rule semantic")
    return None


def _line_referred_dropped(text: str, predicate) -> Optional[str]:
    """(r54h) A condition that points back at a table line the text quotes ("when that row comes back"): the predicate
    must state that line, its host at both of its values (forms.line_referred_back)."""
    if line_pointer_unclear(text):
        return ("scope: the text points back at a table line it quotes, but keeps that line out, says it of another host, or "
                "quotes several: which line the rule holds on its words do not settle; keep the rule semantic")
    rows = line_referred_back(text)
    if not rows or implies(predicate, line_claims(rows)):
        return None
    said = "; ".join(f"{h}: Activity {a}, Compromised {c}" for h, a, c in rows)
    return (f"scope: the text's condition points back at the line it quotes ({said!r}), but the predicate does not state "
            "it: give that host both of the line's values")


def _action_verbs(action_raw: Any) -> list[str]:
    """The catalog verbs a compiled action's JSON names (its move, what it is preferred over, its next steps)."""
    if not isinstance(action_raw, dict):
        return []
    found = [str(action_raw.get("verb"))]
    for part in [action_raw.get("over"), *(action_raw.get("then") or [])]:
        found += _action_verbs(part)
    return found


def _whole_text_problem(text: str, when_raw: Any, action_raw: Any, unexpressed: str = "") -> Optional[str]:
    """`text_problem` of one text (one rung, one case, or the whole)."""
    # (r50c) a host in a note's shorthand ("E1", "U2", "OpS0") read as the table names it, as every reader below knows it:
    # read in shorthand, some readers missed a condition or a scope they place when the name is written in full
    text = named_in_full(text)
    words = read_wording(text)
    predicate = parse_predicate(when_raw)
    action = completed_action(text, action_raw)
    return _never_holds(predicate) or _polarity(words, predicate, action, unexpressed) or _permitted_only(words, action) \
        or _move_disowned(text, action) or _reason_state_dropped(text, predicate) or _purpose_state_said(text) \
        or _ban_limited(words, predicate, action) \
        or _line_referred_dropped(text, predicate) \
        or _matched(predicate, action) \
        or _scope(words, predicate, when_raw, action) or _provision_host_asked(text, predicate, action) \
        or _singled_out(words, predicate) or _subnet_left_out_asked(text, predicate) or _class_left_out_asked(text, predicate) \
        or _host_widened_to_class(words, predicate, action) or _outside_widened(words, predicate) \
        or _not_covered_asked(text, words, predicate) \
        or _bare(words, predicate, unexpressed) or _story_state_dropped(words, predicate) \
        or _before(words, predicate) or _after_excluded(words, predicate) \
        or _history_turned(words, predicate, unexpressed) \
        or _claims(text, predicate, unexpressed) or _level_widened(text, predicate, when_raw) or _level_turned(words, predicate, unexpressed) \
        or _level_relative(text, predicate) \
        or _condition_hosts(words, predicate) \
        or _state_on_unnamed_host(text, predicate, when_raw) or _state_beyond_classes(text, predicate, when_raw) \
        or _alternative_widened(text, predicate, when_raw) or _scan_only_compromised(text, predicate) \
        or _phase_host_widened(text, predicate, when_raw) \
        or _narrow(text, predicate, unexpressed, action) \
        or _history(words, predicate, unexpressed) or _compromise_denied(words, predicate) \
        or _condition_elsewhere(text, predicate, action) or _fine_host_asked(text, predicate) \
        or _phase_unknown(text, unexpressed) or _minutes_unagreed(text, action) \
        or _server_on_named_host(words, predicate, action) or _class_order_distributed(words, predicate, action) \
        or _kept_case_reached(words, predicate, action, unexpressed)


def _kept_case_reached(words: Wording, predicate, action: Optional[dict], unexpressed: str = "") -> Optional[str]:
    """(r59n) A move the text keeps for another case than its order's ("Remove it at user level, keep the Restore for once it
    sits at root", clauses.moves_kept_for_another_case): that case is a branch of the note (round 43), so a trigger that
    can hold in it gives the order there, where the text keeps the other move. Passed only where the case is a branch of
    its own (said apart from the order's clause), the compilation tells that branch's order in its rest (`unexpressed`,
    "other case: ...") and its action does not turn the kept move down there: a preference over the kept move, or its
    "never", in the kept case is the opposite of the words. The kept case is read of the text's one host; unread, or of
    no one host, the trigger is refused."""
    banned = _moves(action)[1]
    for verb, case, aside in moves_kept_for_another_case(words.instruction):
        if verbs_in(case) or unexpressed and not aside and not any(same_verb(b, verb) for b, _ in banned):
            continue  # (r48m: a move kept for what was done, "for when the Remove did not take", is no case of a state)
        host = words.hosts[0] if len(words.hosts) == 1 else None
        kept = claims(re.sub(r"\bit\b", host, case)) if host else None
        if kept is None or may_overlap(predicate, kept):
            return (f"claims: the text keeps {verb} for another case ('{case[:50]}'), but the trigger can hold in it: "
                    "keep the order to its own case")
    return None


# (r58l) A condition said of the very hosts the order is on: with no subject of its own ("Restore every enterprise box once
# rooted", "..., once it sits at root", "when exploited"), or a relative clause on the class ("all user hosts that show an
# exploit"). The order is then distributive: each host on its own state. (Not "should one be rooted while the second stays
# clean, decoy the clean one": "one" picks among hosts, and the order's target is the one its words pick.)
_OWN_STATE_CONDITION = re.compile(r"^\W*(?:once|when(?:ever)?|as\s+soon\s+as|if|after|the\s+moment)\s+(?:(?:it|they)\b|"
                                  r"(?!any\b|some\b|an?\b|the\b|one\b|no\b)\w+(?:ed|en)\b|(?:at|under|on|in)\s)|"
                                  r"^(?!\W*(?:once|when|whenever|if|after|while|as\s+soon)\b)[^,;:]*\b(?:that|which|who|whose)\b",
                                  re.IGNORECASE)
# Words that put the order on the whole class at once: "the whole subnet", "all of them at once", "the entire class".
_WHOLE_CLASS_AT_ONCE = re.compile(r"\b(?:whole|entire|subnets?|at\s+once|all\s+at\s+the\s+same\s+time|in\s+one\s+go|"
                                  r"(?:all|every\s+one)\s+of\s+them)\b", re.IGNORECASE)


def _class_order_distributed(words: Wording, predicate, action: Optional[dict]) -> Optional[str]:
    """(r58l) An order on each host of a class in its own state ("Restore every enterprise box once rooted, Enterprise2
    included", `_OWN_STATE_CONDITION`) compiled as an order on the whole class: the action's move aimed at every host of
    the class, which the trigger fires on when any one host (or one named member) is in that state. The move then falls
    on the class's hosts that are not, wider than the words: aim it at $matched, on the class's hosts in that state."""
    classes = [target for _, target in _own_moves(action) if target in HOST_CLASSES]
    if not classes or str((action or {}).get("mode", "")).lower() != "do" or not words.conditions \
            or all(atom.bare() for atom, _ in atoms_of(predicate)) or _WHOLE_CLASS_AT_ONCE.search(words.text):
        return None
    if not all(_OWN_STATE_CONDITION.search(c.text) and not c.hosts and set(c.classes) <= set(classes) for c in words.conditions):
        return None
    return (f"scope: the text orders its move on each {classes[0]} host in its own state, but the action aims it at every "
            f"{classes[0]} host whenever the trigger holds: aim it at $matched")


def _server_on_named_host(words: Wording, predicate, action: Optional[dict]) -> Optional[str]:
    """(r57l) A lesson that speaks of "the server" where the text names no server (names.server_unnamed: "When User1 is
    rooted, Restore the server") compiled on the hosts it names alone, none a server: the server was read as one of
    them (the Restore aimed at User1, or "the server is rooted" placed on User1), a host it is not. Left alone: an entry
    with a class, a host in general, or any server among its places (the server may be one of those)."""
    if not server_unnamed(words.text, f"{words.situation} {words.instruction}"):
        return None
    places = {h for a, _ in atoms_of(predicate) for h in [a.host] if h is not None} \
        | {t for _, t in _own_moves(action) if isinstance(t, str) and t in HOSTS}
    if any(a.host is None for a, _ in atoms_of(predicate)) or not places or places & SERVER_HOSTS:
        return None
    return (f"host: the text speaks of the server, a host it does not name, but the entry is about "
            f"{', '.join(sorted(places))} alone, none of them a server: keep the server out of the hosts it names")


def _minutes_unagreed(text: str, action: Optional[dict]) -> Optional[str]:
    """(r55b) A meeting's minutes (minutes.py) compiled as a move no agreed item names: only an agreed item is the team's
    rule; a move turned down or left for later ("- PARKED: Restore User3 once it is rooted") orders nothing, and minutes that
    agreed no move order nothing at all. (The reading of the minutes is their agreed items alone, so a move named only in
    another item was a word no check saw.)"""
    if isinstance(action, dict) and request_turned_down(text):
        # (r58h) a request whose status line turns it down (minutes.request_turned_down): its move is no order
        return ("polarity: the text is a request or proposal that its status line or last clause turns down: it orders nothing; keep the "
                "rule semantic")
    if not isinstance(action, dict) or not _ITEMS_LABELLED.search(text):
        return None
    agreed = agreed_items(text)
    if agrees_nothing(text):
        return ("polarity: the text is minutes whose agreed items order no move (each move in it was turned down or left "
                "for later): it orders nothing; keep the rule semantic")
    done, banned = _moves(action)
    said = verbs_in(" ".join(agreed)) if agreed else ()
    moves = [v for v, _ in done + (banned if str(action.get("mode", "")).lower() == "never" else [])]
    stray = [v for v in moves if agreed and not any(same_verb(v, s) for s in said)]
    if stray:
        return (f"verb: the action uses {stray[0]}, but the minutes agreed only {', '.join(sorted(said))}: a move turned "
                "down or left for later is no order")
    return None


def _ban_limited(words: Wording, predicate, action: Optional[dict]) -> Optional[str]:
    """(r54l) A prohibition its own clause limits by a count or a time (forbidding.limited_bans: "never Restore a user host
    twice", "do not Restore User1 yet") compiled as a plain `never`: a count needs the move made before (an `acted`
    history atom), a time a state or a history the ban waits on; with neither, the `never` forbids the first move too, or
    for good, wider than the words."""
    if not isinstance(action, dict) or str(action.get("mode", "")).lower() != "never":
        return None
    verb = _verb(action.get("verb"))
    limits = [kind for banned, kind in limited_bans(words.instruction).items() if same_verb(banned, verb)]
    if not limits:
        return None
    atoms = [atom for atom, _ in atoms_of(predicate)]
    if "alone" in limits:
        return (f"prohibition: the text turns down {verb} only as the sole move (\"no {verb} only\"), it bans it nowhere, but "
                f"the action is a \"never\" of it: order the move the text adds, or keep the rule semantic")
    if "manner" in limits:
        # (r61l) "never Remove it blindly": the ban is of a way of making the move, which no predicate states
        return (f"prohibition: the text bans {verb} only made in a manner (\"blindly\", \"in a hurry\"), not the move "
                f"itself, but the action is a \"never\" of it: keep the rule semantic")
    if "count" in limits and not any(atom.acted for atom in atoms):
        return (f"prohibition: the text limits its ban of {verb} by a count (\"twice\", \"more than once\"), but "
                f"the \"never\" forbids the first {verb} too: ask the move made before (acted), or keep the rule semantic")
    if "time" in limits and re.search(rf"\b(?:{IN_ADVANCE})\b", words.instruction, re.IGNORECASE) and any(
            not negated and (atom.activity not in (None, QUIET_ACTIVITY) or atom.compromise not in (None, QUIET_COMPROMISE))
            for atom, negated in atoms_of(predicate)):
        # (r59l) a move banned only ahead of its time, "don't Remove User2 in advance: wait for the exploit", is what the
        # words want once the event shows: a "never" asking that event is their opposite
        return (f"prohibition: the text bans {verb} only ahead of its time (\"in advance\", \"prematurely\"), but the "
                f"\"never\" asks the event the ban waits on: keep the rule semantic")
    if "time" in limits and all(atom.bare() for atom in atoms):
        return (f"prohibition: the text puts {verb} off for a time (\"yet\", \"again\", \"first\", \"before\" another host), but the \"never\" "
                f"forbids it wherever the host is shown: state what the ban waits on, or keep the rule semantic")
    return None


def _fine_host_asked(text: str, predicate) -> Optional[str]:
    """(r54l) A host the text marks fine ("User1 ok, User2 rooted -> Restore User2", forms.hosts_marked_fine) asked in a
    state of attack (a scan, an exploit, a compromise): the mark joined the other host's condition, the opposite of it."""
    fine = hosts_marked_fine(text)
    asked = sorted({atom.host for atom, negated in atoms_of(predicate) if not negated and atom.host in fine
                    and (atom.activity not in (None, QUIET_ACTIVITY) or atom.compromise not in (None, QUIET_COMPROMISE))})
    if asked:
        return (f"claims: the text marks {', '.join(asked)} fine, but the predicate asks it in a state of attack: keep the mark "
                "out of the other hosts' condition")
    return None


def _phase_unknown(text: str, unexpressed: str) -> Optional[str]:
    """(r54l) A phase of the episode no phase defines ("in the early phase", phases.unknown_phase_named) that the predicate
    leaves out and the entry does not list as unexpressed: the rule would hold in every phase, wider than its words."""
    words = read_wording(text)
    phase = unknown_phase_named(f"{words.situation} {words.instruction}")  # (a phase of the story is no condition)
    if phase is None or unknown_phase_named(unexpressed) or any(w in unexpressed.lower() for w in phase.lower().split()[:1]):
        return None
    return (f"claims: the text holds the rule to a phase no predicate can ask ({phase!r}): list it as unexpressed, or keep the "
            "rule semantic")


# (r50c) A move the text only permits, and only in one case: "the only time we may Remove X is if ...", "the only
# time a Monitor is acceptable is when ...", "you may only Remove it once ...", "a Restore is allowed only if ...". What
# it names before "is when" is the move it allows there and forbids everywhere else; it orders it nowhere.
# (r51m) "the only time ..." read by forms.ONLY_TIME_ALLOWED (one pattern with the rewrite into "never <move> unless");
# here the two other ways of saying it.
_ONLY_PERMITTED = re.compile(
    r"\b(?:you|we|i|they|the\s+(?:planner|chooser|analyst|agent|defender))\s+(?:may|can|should|are\s+allowed\s+to|get\s+to)\s+only\s+"
    r"(?P<b>[^.;:]{0,60}?)\s+(?:when|if|once|while|after)\b|"
    r"(?P<c>\b[^.;:]{0,40}?)\s+(?:is|are)\s+(?:only\s+)?(?:allowed|permitted|acceptable|ok|okay|justified)\s+only\s+"
    r"(?:when|if|once|while|after)\b", re.IGNORECASE)


def _permitted_verbs(text: str) -> list[str]:
    """(r50c) The moves a text permits only in one case (`forms.ONLY_TIME_ALLOWED`, `_ONLY_PERMITTED`), which it forbids
    everywhere else."""
    return [v for m in ONLY_TIME_ALLOWED.finditer(text) for v in verbs_in(only_time_permitted(m) or "")] \
        + [v for m in _ONLY_PERMITTED.finditer(text) for v in verbs_in(m["b"] or m["c"] or "")]


def _permitted_only(words: Wording, action: Optional[dict]) -> Optional[str]:
    """(r50c) A move the text permits only in one case (`_ONLY_PERMITTED`) compiled as an order of it: a permission is no
    order; what the text forbids is the move where that case does not hold (a `never` under the negated condition)."""
    permitted = _permitted_verbs(words.text)
    done, _ = _moves(action)
    for verb, target in done:
        if any(same_verb(p, verb) for p in permitted):
            return (f"permission: the text only permits {verb} in one case (\"the only time ... may\"), it orders it nowhere, "
                    f"but the action orders {verb} {target or ''}".rstrip() + ": forbid it where that case does not hold "
                    "(a \"never\" under the negated condition)")
    return None


def _condition_elsewhere(text: str, predicate, action: Optional[dict] = None) -> Optional[str]:
    """(r43h) A text that takes part of its condition from another note it points to ("ditto the <host> note", "my take
    on <someone>'s note: the same <Verb>, but only while ..."): a predicate that asks a state of no host beyond those its
    own words speak of states that part alone, and is wider than the rule (it fired where the other note's condition
    did not hold). One that asks more has the other note's condition in it, and is checked as ever."""
    if not condition_elsewhere(text):
        return None
    own = rule_claims(text)
    spoken = {h for atom, _ in atoms_of(own) for h in atom.hosts()} if own is not None else set()
    asked = {h for atom, _ in atoms_of(predicate) if not atom.bare() for h in atom.hosts()}
    if not asked <= spoken:
        return None
    # (r50c) an order aimed at the hosts whose own states the predicate asks ("E2: same as kim's User1 note, but only while E2
    # is scanned"): the other note lends its shape, and the text restates the condition on its own host
    aimed = {h for t in _targets(action) if _concrete(t) for h in hosts_of([t])}
    if aimed and aimed <= asked and len(asked) < len(HOSTS):
        return None
    return ("reference: the text takes part of its condition from another note it points to, and the predicate states "
            "only what its own words add: state the other note's condition too, or keep the rule semantic")


# (r40x) A compromise the text denies a host outright, "not yet exploited", "not compromised", "no exploit yet", "still
# clean" (not a level, "not rooted", which leaves the other level; nor "unless / until it is compromised").
_NOT_COMPROMISED = re.compile(r"\b(?:not|isn't|hasn't|wasn't|never)\s+(?:(?:yet|been|actually|even|fully)\s+)*"
                              r"(?:exploited|compromised|owned|breached|taken)\b"
                              r"(?!\s+(?:at\s+|to\s+|with\s+)?(?:user|privileged|root\w*|admin\w*|unknown|level|beyond|past|further)\b)|"
                              r"\bno\s+(?:exploit|compromise)\s+yet\b|"
                              r"\bstill\s+clean\b", re.IGNORECASE)


def _compromise_denied(words: Wording, predicate) -> Optional[str]:
    """(r40x) A host the text says is not (yet) compromised ("User4 scanned, not exploited yet -> decoy it") that the
    predicate asks compromised, with no absence of a compromise on it anywhere: the opposite of the text. The host is the
    last one named before the words in their sentence, else the one "it" stands for."""
    asked = {atom.host for atom, negated in atoms_of(predicate)
             if not negated and atom.host and atom.compromise not in (None, QUIET_COMPROMISE)}
    if not asked:
        return None
    clean = {atom.host for atom, negated in atoms_of(predicate) if atom.host and (
        negated and atom.compromise is not None or not negated and atom.compromise == QUIET_COMPROMISE)}
    for sentence in re.split(r"(?<=[.;!?])\s+", words.text):
        for found in _NOT_COMPROMISED.finditer(sentence):
            chunks = re.split(r",|:|->|\b(?:and|but|while|when|whenever|if|once|or)\b", sentence[:found.start()])
            named, last = hosts_in(chunks[-1]), chunks[-1]
            # (nothing named in the words' own clause: "it", "yet" -- the host "it" stands for; a class or another word
            # of a place, "every user box yet clean", is no named host's)
            unnamed = not named and (classes_in(last) or _UNNAMED_PLACE.search(without_host_names(last))
                                     or re.search(r"\b(?:side|subnet|zone|rest|others?)\b", last, re.IGNORECASE))
            host = named[0] if len(named) == 1 else (subject_of(words) if not named and not unnamed else None)
            if host in asked and host not in clean:
                return (f"polarity: the text says {host} is not compromised ({found.group(0)!r}), but the predicate asks it "
                        "compromised: express the compromise it denies (Compromised No)")
    return None


# (r39x) Words that speak of a host the text does not name: a host noun, several, a place, a phase of the attack.
# (r40x) A word that may stand for a thing as well as a host ("anything", "none", "any", "whatever") speaks of a host only
# where a state or a part is said of it ("nothing else is compromised", "any of them", "whatever is being scanned"); as the
# object of an order or a comparison ("ahead of anything else", "nothing fancier", "a sign of a scan there") it is none.
_UNNAMED_PLACE = re.compile(r"\b\d+\s*\+|"  # (a count, "2+ servers owned", is several hosts, whichever they are)
                            r"\b(?:hosts?|machines?|box(?:es)?|servers?|s(?:e)?rvs?|svrs?|workstations?|systems?|nodes?|another|others?|"
                            r"anywhere|somewhere|elsewhere|nowhere|network|net|"
                            r"subnets?|segments?|phase|reconnaissance|recon|lateral\w*|sideways|impact)\b|"
                            r"\b(?:(?:anything|something|everything|nothing|none|any|some)(?:\s+(?:else|other))?|whichever|whatever)\s+"
                            r"(?:of|is|are|was|were|be|been|shows?|showing|shown|gets?|getting|got|has|have|had|looks?|seems?|"
                            r"appears?|turns?|goes|compromised|owned|pwned|scanned|exploited|rooted|active|hit|touched|flagged|"
                            r"happens|happening|going\s+on)\b",
                            re.IGNORECASE)


def _state_on_unnamed_host(text: str, predicate, when_raw: Any) -> Optional[str]:
    """(r39x) A text that speaks of the hosts it names and of no other ("User3 owned? take User3 off the net",
    "User2 getting scanned? a decoy on it") says each state of a host it names: a trigger that asks that state of any host
    fires where a host the text never speaks of shows it. Left alone: a text with a word of a host it does not name (a
    host in general, a class, several, a place, an attack phase), and a predicate that names a phase."""
    if not hosts_in(text) or _names_phase(when_raw) or phase_named(text) is not None:
        return None
    # (a host noun is a host in general, "the host you analyse", once the names of hosts are blanked: "the op server")
    if _UNNAMED_PLACE.search(without_host_names(text)) or classes_in(text):
        return None
    if _asks_state_of_any_host(predicate):
        return (f"host: the text speaks only of the hosts it names ({', '.join(hosts_in(text)[:3])}), but the trigger "
                "asks a state of any host: keep the state on the host the text says it of")
    # (r40x) nor of any host of a class: "Enterprise2 shows an exploit" asked of every enterprise server fires where only
    # Enterprise0 does (a word of a host's neighbours or of every other host is a host the text does not name)
    widened = _state_of_class(predicate)
    if widened and not _RELATIVE_WORDS.search(text) and not _EVERY_OTHER.search(text):
        return (f"host: the text speaks only of the hosts it names ({', '.join(hosts_in(text)[:3])}), but the trigger "
                f"asks a state of any {widened} host: keep the state on the host the text says it of")
    anchor = _anchor_widened(predicate)
    if anchor and not _RELATIVE_WORDS.search(text) and not _EVERY_OTHER.search(text):
        return (f"host: the text speaks only of the hosts it names ({', '.join(hosts_in(text)[:3])}), but the trigger "
                f"holds wherever {'any' if anchor == ANY_CLASS else 'any ' + anchor} host is shown: keep the trigger on "
                "the host the text names")
    return None


def _anchor_widened(predicate) -> Optional[str]:
    """(r41x) The class (or `any`) of a bare atom the predicate asks where it holds: a host merely shown. A rule about a
    host it names ("never restore User0 unless it is rooted") holds where that host is shown; its anchor widened to the
    host's class, or to any host, holds where the host is absent and another one is shown."""
    return next((atom.host_class for atom, negated in atoms_of(predicate)
                 if not negated and atom.host is None and atom.host_class is not None and atom.bare()), None)


def _state_of_class(predicate) -> Optional[str]:
    """The class of which a predicate asks, where it holds, a state of some host whichever (not under a `not`), if any."""
    return next((atom.host_class for atom, negated in atoms_of(predicate)
                 if not negated and atom.host is None and atom.host_class in HOST_CLASSES and not atom.bare()), None)


def _asks_state_of_any_host(predicate) -> bool:
    """Whether a predicate asks, where it holds, a state of some host whichever (not under a `not`): an activity, a
    compromise, or (r40x) a history ("a host removed last step": the defender's move on one host is a fact of that host)."""
    return any(not negated and atom.host is None and atom.host_class == ANY_CLASS and not atom.bare()
               for atom, negated in atoms_of(predicate))


def _in_class_phrase(text: str, found: re.Match) -> bool:
    """Whether a word of an unnamed host belongs to a phrase that names a class, "any user host", "the enterprise servers"
    (the word with the two words before it, or a determiner with the two words after it), or points back ("that box")."""
    before = " ".join(text[:found.start()].split()[-2:])
    after = " ".join(text[found.end():].split()[:2])
    # (a noun pointing back, "that box", is the one the text spoke of before)
    return bool(classes_in(f"{before} {found.group(0)}") or classes_in(f"{found.group(0)} {after}")
                or re.search(r"\b(?:that|this|same)\s*$", before, re.IGNORECASE))


def _state_beyond_classes(text: str, predicate, when_raw: Any) -> Optional[str]:
    """(r39x) A text whose every word of an unnamed host names a class ("restore a user box that gets rooted", "two
    enterprise servers held at once") says each state of a host of those classes: a trigger that asks the state of any
    host (in one of its branches, "a user host at User, or any host at Privileged") fires on a host of a class the text
    never speaks of. Left alone as `_state_on_unnamed_host` leaves it: any other word of a host in general, a place, a
    phase."""
    spared = without_host_names(text)
    if not classes_in(text) or _names_phase(when_raw) or phase_named(text) is not None:
        return None
    if any(not _in_class_phrase(spared, found) for found in _UNNAMED_PLACE.finditer(spared)):
        return None
    if _asks_state_of_any_host(predicate):
        return (f"class: the text speaks of {'/'.join(classes_in(text))} hosts only, but the trigger asks a state of any "
                "host: keep the state on the class the text says it of")
    return None


def _positive_alternatives(predicate, negated: bool = False) -> Iterable[tuple]:
    """The parts of every `any` of a predicate that stands where the predicate holds (under an even number of `not`s)."""
    if isinstance(predicate, Not):
        yield from _positive_alternatives(predicate.part, not negated)
    elif isinstance(predicate, (AnyOf, AllOf)):
        if isinstance(predicate, AnyOf) and not negated:
            yield predicate.parts
        for part in predicate.parts:
            yield from _positive_alternatives(part, negated)


def _same_kind(a: Atom, b: Atom) -> bool:
    """Whether two atoms ask a state of the same kind (both an activity, or both a compromise)."""
    return (a.activity is not None and b.activity is not None) or (a.compromise is not None and b.compromise is not None)


def _alternative_widened(text: str, predicate, when_raw: Any) -> Optional[str]:
    """(r41x) One alternative of a condition about a host the text names moved off it: "User3 at user level or at root"
    compiled as "User3 at user level, or any user host at root". Beside the host's own alternative, the one asked of its
    class (or of any host) fires where only another host is in that state, which the text never says; so does one asked
    of any host beside an alternative on a class the text names ("a foothold on some enterprise box, or root on any
    host"). Left alone: a text that names the wider class, or speaks of hosts in general, of neighbours or of every other
    host, or names a phase."""
    if _names_phase(when_raw) or phase_named(text) is not None:
        return None
    words = read_wording(text)
    lesson = f"{words.situation} {words.instruction}"
    if _RELATIVE_WORDS.search(lesson) or _EVERY_OTHER.search(lesson):
        return None
    named, spoken = set(hosts_in(text)), set(classes_in(text))
    general = bool(_HOSTS_IN_GENERAL.search(lesson) or _EVERY_HOST.search(lesson))
    for parts in _positive_alternatives(predicate):
        atoms = [x for x in parts if isinstance(x, Atom) and not x.bare()]
        for own in (a for a in atoms if a.host in named or a.host is None and a.host_class in spoken):
            for wide in (b for b in atoms if b.host is None and _same_kind(own, b) and _wider_place(b, own, spoken, general)):
                return (f"host: one alternative asks the state of {own.host or 'a ' + own.host_class + ' host'}, which the "
                        f"text names, and another asks it of any {'' if wide.host_class == ANY_CLASS else wide.host_class + ' '}"
                        "host: keep every alternative on the place the text says it of")
    return None


def _wider_place(wide: Atom, own: Atom, spoken: set[str], general: bool) -> bool:
    """Whether `wide` asks of a place the text does not speak of that holds `own`'s: any host (where the text speaks of
    no host in general), or the class of `own`'s named host (where the text does not name that class)."""
    if wide.host_class == ANY_CLASS:
        return not general and (own.host is not None and not spoken or own.host_class in spoken)
    return own.host is not None and wide.host_class in HOST_CLASSES and own.host in HOST_CLASSES[wide.host_class] \
        and wide.host_class not in spoken


def _phase_host_widened(text: str, predicate, when_raw: Any) -> Optional[str]:
    """(r41x) An attack phase the text names whose definition is the state of named hosts ("the impact phase": Op_Server0
    shows a compromise) keeps that state on those hosts: asked of their class, or of any host, it fires where only
    another host is in that state, which no phase of that name says. Left alone as `_alternative_widened` leaves it: a
    lesson that names the class, or speaks of hosts in general, of neighbours or of every other host."""
    name = phase_named(text)
    if name is None or _names_phase(when_raw):
        return None
    defined = [atom for atom, _ in atoms_of(parse_predicate(phase_predicate(name)))]
    if not defined or any(atom.host is None for atom in defined):
        return None
    words = read_wording(text)
    lesson = f"{words.situation} {words.instruction}"
    if _HOSTS_IN_GENERAL.search(lesson) or _EVERY_HOST.search(lesson) or _RELATIVE_WORDS.search(lesson) \
            or _EVERY_OTHER.search(lesson):
        return None
    hosts, spoken = {atom.host for atom in defined}, set(classes_in(lesson))
    for atom, negated in atoms_of(predicate):
        covers = set(HOSTS) if atom.host_class == ANY_CLASS else set(HOST_CLASSES.get(atom.host_class or "", ()))
        if not negated and atom.host is None and covers & hosts and atom.host_class not in spoken \
                and any(_same_kind(atom, d) for d in defined):
            return (f"host: the {name} phase the text names is the state of {', '.join(sorted(hosts))}, but the trigger asks "
                    f"it of any {'' if atom.host_class == ANY_CLASS else atom.host_class + ' '}host: keep it on "
                    f"{', '.join(sorted(hosts))}")
    return None


# (r41x) A scan and no more: "scan only", "scanned only", "only (being) scanned", "only a scan", "nothing but a scan", "all
# it shows is a scan", "a mere scan".
_SCAN_ONLY = re.compile(r"\b(?:(?:being\s+)?(?:scann\w*|prob\w*)|(?:(?:a|an|one)\s+)?(?:scan|probe))\s+only\b|"
                        r"\b(?:only|merely|just|nothing\s+but)\s+(?:being\s+|been\s+|(?:a|an|one)\s+)?(?:scan\w*|prob\w*)\b|"
                        r"\ball\s+(?:that\s+)?\S+\s+(?:shows?|showed|has|had)\s+(?:is|was)\s+(?:a\s+)?(?:scan|probe)\b|"
                        r"\b(?:a|one)\s+(?:mere|lone)\s+(?:scan|probe)\b|"
                        # (r53c) the other way round: "a scan is all it shows", "a probe is all we see on User2"
                        r"\b(?:scan|probe)\s+(?:is|was)\s+all\s+(?:that\s+)?\S+\s+(?:shows?|showed|has|had|sees?|saw)\b", re.IGNORECASE)


def _scan_only_compromised(text: str, predicate) -> Optional[str]:
    """(r41x) A host the text says shows a scan and no more ("E2 probe only", "as long as all it has is a scan") is not
    compromised: an atom asking a scan together with a compromise (any, or a level) says the opposite of those words."""
    if not _SCAN_ONLY.search(text):
        return None
    for atom, negated in atoms_of(predicate):
        if not negated and atom.activity == "Scan" and atom.compromise in ("any", "User", "Privileged"):
            return ("claims: the text says a scan and no more, but the predicate asks the scanned host compromised: "
                    "express the scan alone (Compromised No)")
    return None


def _condition_hosts(words: Wording, predicate) -> Optional[str]:
    """(r37y) A host the condition names ("once User1 gets owned, take it off the network") restricts the trigger: the action aimed at
    it is not enough, a trigger on any host in that state would hold where User3 is clean and another host owned. (A
    host the text excepts, concedes or names as one of a group the trigger is about is the scope check's.)"""
    trigger_hosts = {atom.host for atom, _ in atoms_of(predicate) if atom.host}
    spared = set(words.excepted) | set(words.contrasted) | set(conceded_hosts(words.text)) | _included(words.instruction) \
        | _named_in_reference_only(words.text)  # (r50c: "same as maria's User4 note": the other note's host, as the scope check has it)
    for condition in words.conditions:
        for host in condition.hosts:
            if host not in trigger_hosts and host not in spared and host in HOSTS:
                return (f"host: the condition names {host} ({condition.text[:60]!r}), but the trigger is not restricted to "
                        f"{host}: keep the condition on the host it names")
    return None


def _never_holds(predicate) -> Optional[str]:
    """A predicate whose parts exclude each other ("some host shows a scan, and no host shows any activity"): it holds
    nowhere, so it implies every claim and passed the checks, and the rule was silent everywhere."""
    if may_overlap(predicate, predicate):
        return None
    return ("never: the predicate can hold in no context (its parts exclude each other): express the condition the "
            "text states")


def completed_action(text: str, action: Optional[dict]) -> Optional[dict]:
    """The action a text's prohibition with no verb gives ("spend no actions on User0", "leave User0 alone"):
    every verb on that host forbidden. A compiler that gave no action, or forbade one verb only, gets it; any
    other action is returned as it was."""
    words = read_wording(text)
    verbless = [p for p in words.prohibitions if p.verb is None]
    if not verbless or any(p.verb is not None for p in words.prohibitions):
        return _prohibition_as_over(words, action)
    named = [h for p in verbless for h in (*p.hosts, *p.classes)]
    if action is None and len(named) == 1:
        return {"mode": "never", "verb": ANY_VERB, "target": named[0]}
    if isinstance(action, dict) and str(action.get("mode", "")).lower() == "never" and action.get("target") in named:
        return {**action, "verb": ANY_VERB}
    return action


def _prohibition_as_over(words: Wording, action: Optional[dict]) -> Optional[dict]:
    """(r45m) An order of one move beside the text's prohibition of another verb on the same host ("Op_Host1 rooted:
    restore it and never remove it"), compiled as the order alone: the prohibition is what the order is preferred
    over, `prefer <order> over <forbidden verb>` on its target (dropped, the rule met no other rule that orders that verb
    there, and both were injected as if they agreed)."""
    if not isinstance(action, dict) or str(action.get("mode", "")).lower() != "do" or action.get("then") \
            or len(words.prohibitions) != 1:
        return action
    forbidden, verb, target = words.prohibitions[0], _verb(action.get("verb")), action.get("target")
    places = hosts_of([*forbidden.hosts, *forbidden.classes])
    if forbidden.verb is None or same_verb(forbidden.verb, verb) or verb == ANY_VERB or not isinstance(target, str) \
            or places and not (target in HOSTS and hosts_of([target]) <= places) or target in RELATIVE_TARGETS:
        return action
    # (said together, in one sentence with no condition of its own between them: "restore it and never remove it")
    together = [s for s in re.split(r"(?<=[.;!?])\s+", words.instruction)
                if any(same_verb(v, verb) for v in verbs_in(s)) and any(same_verb(v, forbidden.verb) for v in verbs_in(s))]
    if len(together) != 1 or len([c for c in words.conditions if c.text in together[0]]) > 1:
        return action
    return {**action, "mode": "prefer", "over": {"verb": forbidden.verb, "target": target}}


__all__ = ["completed_action", "text_problem"]
