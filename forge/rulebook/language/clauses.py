"""The conditions a text's instruction states (`conditions_in`), each with the negations and hosts inside it (`Condition`). Pure.

Its conditions: "when / if / while / unless / as long as / once ..." clauses, a relative clause on what the order
is about ("a host that is not compromised"), and the opening situation; a list of exceptions under its heading
read as cases of their own (`listed_exceptions`, `listed_states`); and the order left when they are taken out
(`order_without_conditions`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

from forge.rulebook.language.forbidding import EXCEPTED_HOST_LIST, MEANS_DISOWNED, NOT_A_CASE_FOR, VERB_WORD
from forge.rulebook.language.markers import (ABSENT_WHAT, BARE_STATE, CONDITION, LEVEL_WORDS, MOVES_NOT_MADE,
                                             OTHER_AFTER_NAMED, TAKEN_OVER, clause_end, list_start, negations_in,
                                             state_said_before, states_something)
from forge.rulebook.language.names import STATE_WORDS, VERB_FORMS, classes_in, hosts_in, verbs_in
from forge.rulebook.language.order import ACTED_LEAD, AT_HAND_START, FIRST_PERSON, LEAD_WORD, MEANS, gives_order


# (r51h: the class in a note's shorthand too, "usr box showing Unknown", "ent srv that is hit": left out, the condition
# began at the noun and lost its class, and a rule on user boxes fired on an enterprise host)
RELATIVE = re.compile(r"\b(?:(?:user|usr|enterprise|ent|entp|op|ops|operational)[\s-]+)?(?:host|hosts|box|boxes|machine|machines|server|servers|workstation|workstations|ones?|"
                       # ("with" before a verb is what the order uses: "don't touch Defender with Restore")
                       # ("Restore Op_Server0 that same step": a time, no relative clause)
                       r"User\d|Enterprise\d|Op_Host\d|Op_Server0|Defender)\s+"
                       # ("a host you analyse that is scanned only": the host at hand, then what it is)
                       r"(?:(?:you|we)(?:\s+are|'re)?\s+(?:analy[sz](?:e|ing)|inspect(?:ing)?|examin(?:e|ing)|"
                       r"look(?:ing)?\s+at|check(?:ing)?)\s+(?=that\b|which\b))?(?:that(?!\s+(?:same\s+|very\s+)?(?:step|turn|move|round|"
                       r"time|moment|instant)\b)|which|who|whose|showing|"
                       # ("every user host with the exception of User0": what it excepts, no state of the host)
                       r"with(?!out\b)(?!\s+the\s+(?:sole\s+|one\s+)?exceptions?\s+of\b)(?!\s+(?:a\s+|an\s+)?(?:"
                       + "|".join(pattern for _, pattern in VERB_FORMS) + r"))|"
                       # ("Op_Host2 without privileged access": what it lacks; "restore User1 at once, without waiting
                       # for an Analyse" says how to act, no state of the host)
                       r"without" + ABSENT_WHAT + r"|"
                       # "any user host the attacker controls"
                       r"(?=(?:the\s+)?(?:attacker|red|intruder|adversary)\s+(?:(?:merely|only|just|already|has)\s+)?"
                       r"(?:controls?|owns?|holds?|is\s+on|has|probes?|probed|is\s+probing|scans?|scanned|is\s+scanning|exploits?|"
                       r"exploited|is\s+exploiting|compromised|hit|touched)\b))",
                       re.IGNORECASE)


# (r48h) A heading that introduces where the rule does not hold, before a colon and the list of those cases: "Where it
# does not apply: - User1, another teacher covers it; - ...", "Exceptions: User0 and User2", "This note does not apply
# to: User1". Each case of the list that opens with a named host leaves that host out (`listed_exceptions`); a case that
# is a situation ("a box at root level") is no host excepted.
_EXCEPTIONS_HEADING = re.compile(r"(?:\b(?:where|when|in\s+which\s+cases?)\s+)?\b(?:this|it|the\s+(?:rule|note|order|above))"
                                 r"(?:\s+(?:rule|note|order|lesson|advice))?\s+(?:does\s+not|doesn['\u2019]?t|will\s+not|won['\u2019]?t)\s+"
                                 r"(?:hold|apply)(?:\s+(?:to|for))?\s*:|\b(?:exceptions?|excepted|exempt(?:ed|ions?)?)\s*:",
                                 re.IGNORECASE)


_LISTED_CASE = re.compile(r"\s*(?:[-*\u2022]\s*)?" + EXCEPTED_HOST_LIST + r"(?=\s*(?:[,;.)(:]|$|\s+(?:which|who|that|is|are|has|have|"
                          r"does|do|gets?|counts?|stays?|as)\b|\s+" + BARE_STATE + r"))", re.IGNORECASE)


_NO_CASES = re.compile(r"\s*(?:none|nothing|no\s+exceptions?|n/?a)\b", re.IGNORECASE)


def listed_exceptions(flat: str) -> tuple[str, ...]:
    """(r48h) The hosts a list of exceptions under its heading (`_EXCEPTIONS_HEADING`) names, each as a case of its own."""
    found = []
    for heading in _EXCEPTIONS_HEADING.finditer(flat):
        listed = flat[heading.end():]
        if _NO_CASES.match(listed):
            continue  # (r48a) "Exceptions: none.": no host left out (its next sentence is none of the list)
        # the cases: up to the end of the text, one by ";" or by a dash that opens an item
        for case in re.split(r";|\s[-*\u2022]\s", listed):
            named = _LISTED_CASE.match(case)
            if named and not _listed_state(case):
                found += hosts_in(named["what"])
    return tuple(found)


def _listed_state(case: str) -> str:
    """(r48b) A case of a list of exceptions that states a host's state, "- User2 is rooted at the same time", "- User3
    shows an exploit": the rule does not hold while it holds (the negated condition "unless <case>"); no host left out
    (read as User2 excepted, the rule fired on its own host while User2 was rooted). "" for a case that states none."""
    named = _LISTED_CASE.match(case)
    rest = case[named.end():] if named else ""
    # (r48c: or its state with no verb, "Exception: User1 owned.", "- Enterprise1 rooted": the same case, `BARE_STATE`)
    said = re.match(r"\s*(?P<said>(?:(?:is|are|has|have|gets?|shows?|reads?|sits?|stays?)\b|(?=" + BARE_STATE + r"))[^.;:]*)", rest,
                    re.IGNORECASE)
    return f"unless {named['what'].strip()} {said['said'].strip()}" if said and states_something(said["said"]) else ""


# (r48b) The same said in a sentence of its own, "This does not hold while User2 is rooted.", "The rule won't apply when
# Op_Host1 shows an exploit": the state after the marker is where the rule does not hold (read as a condition left out,
# a compiled predicate without it passed)
_NOT_HOLDING_WHILE = re.compile(r"\b(?:this|it|the\s+(?:rule|note|order|above))(?:\s+(?:rule|note|order|lesson|advice))?\s+"
                                r"(?:does\s+not|doesn['\u2019]?t|will\s+not|won['\u2019]?t)\s+(?:hold|apply)\s+"
                                r"(?:while|when|whenever|if|as\s+long\s+as)\s+(?P<state>[^.;:!?]+)", re.IGNORECASE)


def listed_states(flat: str) -> tuple[str, ...]:
    """(r48b) The negated conditions a list of exceptions states (`_listed_state`), each "unless <case>", and those a
    sentence says the rule does not hold in (`_NOT_HOLDING_WHILE`)."""
    return tuple(found for heading in _EXCEPTIONS_HEADING.finditer(flat) if not _NO_CASES.match(flat[heading.end():])
                 for case in re.split(r";|\s[-*\u2022]\s", flat[heading.end():]) if (found := _listed_state(case))) \
        + tuple(f"unless {m['state'].strip()}" for m in _NOT_HOLDING_WHILE.finditer(flat)
                if (hosts_in(m["state"]) or classes_in(m["state"])) and states_something(m["state"]))


@dataclass(frozen=True)
class Condition:
    """One condition of the text, with the negation or restriction words inside it."""

    text: str
    negations: tuple[str, ...]
    hosts: tuple[str, ...]
    classes: tuple[str, ...]


def order_without_conditions(instruction: str, conditions: Iterable["Condition"], ended: Iterable[str] = ()) -> str:
    """An instruction with the spans `ended` (first: an ending holds a condition of its own, "not later once it is
    exploited") and its conditions' texts taken out."""
    order = instruction
    for span in (*ended, *(condition.text for condition in conditions)):
        order = order.replace(span, " ")
    return order


# (r33h) "every time", "each single time" said alone after the order: it says "always", and states no condition
_EMPHASIS_ONLY = re.compile(r"(?:every|each|any)\s*(?:single\s+)?time\s*[.!]*", re.IGNORECASE)


# (r40k) An example said right before a condition's marker: "for instance when ...", "e.g. if ...".
_EXAMPLE_BEFORE = re.compile(r"(?:\bfor\s+(?:instance|example)|\be\.\s?g\.)\s*,?\s*$", re.IGNORECASE)


# (r59n) A move kept for another case than the order's: "Remove it at user level, and keep the Restore for once it sits at
# root", "save a Restore for once it reaches root". In the order's case that move is put aside, as "rather than" says
# it; the kept case is the other move's (a branch of the note, scope.branches_of, where a stop or a semicolon sets it
# apart), and a trigger that reaches it with the first move gives that move where the text keeps the other
# (checks._kept_case_reached).
KEPT_FOR_ANOTHER_CASE = re.compile(r"\b(?:keep(?:s|ing)?|sav(?:e|es|ing)|reserv(?:e|es|ing))\s+(?P<what>(?:(?:the|any|all|its|"
                                   r"their|a|an)\s+)?(?:[\w-]+\s+){0,2}?[\w-]+)\s+for\s+(?P<case>(?:when|whenever|once|if)\b"
                                   r"[^.;:!?,]*)", re.IGNORECASE)

# (r59n) The same words right before the kept case's marker, in the order's own clause, after a comma: an aside on the
# other move, its case neither a condition of the order (read as one, the order held only where a host was at two levels at
# once, which never is) nor a case the rule speaks in. (Set apart by a stop or a semicolon, "...; save a Restore for once it
# is at root", the case is a branch of the note: scope.branches_of, round 43.)
_KEPT_IN_THE_ORDERS_CLAUSE = re.compile(r",\s+(?:and\s+|but\s+)?(?:keep(?:s|ing)?|sav(?:e|es|ing)|reserv(?:e|es|ing))\s+"
                                        r"(?:(?:the|any|all|its|their|a|an)\s+)?(?:[\w-]+\s+){0,2}?[\w-]+\s+for\s*$",
                                        re.IGNORECASE)


def moves_kept_for_another_case(instruction: str) -> tuple[tuple[str, str, bool], ...]:
    """(r59n) Each move `instruction` keeps for another case than its order's (`KEPT_FOR_ANOTHER_CASE`), with the words of
    that case, and whether it is said in the order's own clause (`_KEPT_IN_THE_ORDERS_CLAUSE`: an aside, no branch)."""
    return tuple((verb, kept["case"].strip(), bool(_KEPT_IN_THE_ORDERS_CLAUSE.search(instruction[:kept.start("case")])))
                 for kept in KEPT_FOR_ANOTHER_CASE.finditer(instruction) for verb in verbs_in(kept["what"]))


# (r40k) The words that make a condition an exception, right before its marker: "but not (if)", "except (when)".
_EXCEPTED_CONDITION = re.compile(r"\b(?:(?:but|and|yet)\s+not|except|but\s+never)\s+$", re.IGNORECASE)
# (r52c) The same words before a host described by a relative clause, with the preposition the order gives it: "...,
# but not on hosts that are at root", "except for boxes which are rooted", ", never hosts that are owned". Left out, the
# description was a condition the rule holds in: the hosts it keeps away from became the ones it acts on.
_EXCEPTED_RELATIVE = re.compile(r"(?:\b(?:(?:but|and|yet)\s+not|except|never|not|other\s+than|(?<=,\s)save)(?:\s+(?:on|for|to|with|in|at|"
                                r"from))?\s+(?:(?:the|any|those|these)\s+)?|\bexcept\s+for\s+(?:(?:the|any|those|these)\s+)?)$",
                                re.IGNORECASE)

# (r52a) A move whose object the clause before such an exception already denies ("restore nothing other than hosts that
# are at root", "Restore no box except for boxes which are rooted"): the two negations let the move where the description
# holds, so the described hosts are the ones the order is for. Read as kept out, the rule held where no host was rooted,
# the opposite of its words. (A "never"/"don't" before it is a prohibition, read as one: "don't Restore anything, except
# ones that are rooted" forbids it where none is, as the kept-out reading says.) "save" opens an exception only after a
# comma: in "to save hosts that are at root" it is a verb.
_NEGATED_ORDER = re.compile(r"\b(?:nothing|none|nobody|no\s+one|no(?:\s+[\w-]+){1,2})\s*,?\s*$", re.IGNORECASE)
# (r53l) ... and before an exception that is a condition, the denied object with the place it is denied on: "restore
# nothing on Enterprise1 except when ...", "no Remove for the user boxes, except once ..."
# (r53a: the place by any preposition, "remove nothing from User2", "restore nothing within the user subnet": read without
# it, the exception was kept out and the rule held where User2 showed no exploit, the opposite of its words)
DENIED_PLACE = r"(?:\s+(?:on|for|to|at|in|of|from|within|inside|across|among|with)\s+(?:[\w-]+\s*){1,3}?)?"
_DENIED_OBJECT = re.compile(r"\b(?:nothing|none|nobody|no\s+one|no(?:\s+[\w-]+){1,2})" + DENIED_PLACE + r"\s*,?\s*$", re.IGNORECASE)
# (which exceptions it turns: those of "except", "other than", "save"; "but not" and "never" keep hosts out of an order
# said plainly, they are no exception to a denial)
_LETS_BY_EXCEPTION = re.compile(r"^(?:except|other|save)", re.IGNORECASE)


def conditions_in(instruction: str, situation: str) -> tuple[Condition, ...]:
    spans: list[str] = []
    for marker in CONDITION.finditer(instruction):
        if re.search(r"\b(?:even|even\s+though)\s*$", instruction[:marker.start()], re.IGNORECASE):
            continue  # "never restore Enterprise1, even if it is compromised": a concession, not a condition
        if _EXAMPLE_BEFORE.search(instruction[:marker.start()]) or _KEPT_IN_THE_ORDERS_CLAUSE.search(instruction[:marker.start()]):
            continue  # (r40k) an example's case, not the rule's; (r59n) nor the case of a move kept for it (_KEPT_IN_THE_ORDERS_CLAUSE)
        # (r40k) "..., but not if it is compromised", "except once it is rooted": the exception is the condition's
        # own words (read from its marker on, it was the opposite: a condition the rule holds in)
        excepted = _EXCEPTED_CONDITION.search(instruction[:marker.start()])
        start = excepted.start() if excepted else marker.start()
        denied = _DENIED_OBJECT.search(instruction[:start])
        # (not a move denied, "no Remove for the user boxes except once ...": a prohibition, its exception kept out of it)
        if _LETS_BY_EXCEPTION.match(instruction[start:]) and denied and not verbs_in(denied.group(0)) \
                and verbs_in(instruction[:denied.start()]):
            # (r53l) "Restore nothing except when it is rooted", "remove no box except if ...": the exception to a denied
            # object is where the move is let, the order's own condition (read as kept out, the rule ordered the Restore
            # where the host was not rooted, the opposite of its words)
            start = marker.start() + (len(re.match(r"except\s+", marker.group(0)).group(0)) if re.match(r"except\s", marker.group(0)) else 0)
        span = instruction[start:clause_end(instruction, marker.end())]
        if _EMPHASIS_ONLY.fullmatch(span.strip()):
            continue  # (r33h) "Restore it. Every time.": the order's emphasis, no condition of its own
        spans.append(span)
    for relative in RELATIVE.finditer(instruction):
        if any(m.start() < relative.start() < m.end() for m in OTHER_AFTER_NAMED.finditer(instruction)):
            continue  # (r34m) "remove User0 itself, not the box that was hit earlier": the other host, no condition
        start = state_said_before(instruction, list_start(instruction, relative.start()))
        excepted = _EXCEPTED_RELATIVE.search(instruction[:start])
        if excepted and _LETS_BY_EXCEPTION.match(excepted.group(0)) \
                and _NEGATED_ORDER.search(instruction[:excepted.start()]):
            excepted = None  # (r52a) "restore no box except ones that are rooted": the exception is where the move is let
        spans.append(instruction[excepted.start() if excepted else start:clause_end(instruction, relative.end())])
    # (r44x: and the subject of a verdict against a move, "Op_Host1 at root a step after its Restore is no case for a
    # Remove", the level and the history with it; not a subject that opens a condition or a relative clause of its own,
    # which those read; a level is a state there, not in "Unknown after a Remove means the Remove worked", a gloss)
    verdicts = [m for m in _NO_CASE_FOR.finditer(instruction)
                if not CONDITION.search(m["situation"]) and not RELATIVE.search(m["situation"])]
    # (one whose subject holds a condition or a relative clause of its own, "any op box that shows a scan gets a decoy",
    # is read by them; so is one said of every host of a class, "every ent srv under a scan gets ...": each in turn, which
    # a condition "every ... under a scan" would read as all of them at once)
    gets = [m for m in _STATE_GETS_MOVE.finditer(instruction) if LEVEL_WORDS.search(m["situation"])
            and not CONDITION.search(m["situation"]) and not RELATIVE.search(m["situation"])
            and not re.search(r"\b(?:every|each|all|any)\b", m["situation"], re.IGNORECASE)
            and not _GETS_NOT_PLAIN.search(m["situation"])]
    for means in (*MEANS.finditer(instruction), *gets, *verdicts):  # "User2 under exploit means Remove User2": when it shows an exploit
        if means not in verdicts and MEANS_DISOWNED.search(means["situation"]):
            continue  # (r48a) "it is wrong to think a scan there means you plan a decoy": no situation of an order
        if STATE_WORDS.search(means["situation"]) or means in verdicts and states_something(means["situation"]) or means in gets:
            # ("For an inspected machine, root access means Restore": the scope before it says whose state it is)
            scope = _MEANS_SCOPE.search(instruction[:means.start("situation")])
            spans.append(f"{scope['scope'] if scope else ''} {means['situation'].strip()}".strip())
    scope = _SCOPE_STATE.match(instruction)
    # (r49h: or the host at hand, "for the box under inspection at Privileged, suggest ...": any host, in that state; read
    # as no condition, the claims took their state from the answer the order turns down, "instead of reporting it quiet")
    if scope and (hosts_in(scope["situation"]) or classes_in(scope["situation"]) or _ANY_HOST.match(scope["situation"])
                  or AT_HAND_START.match(scope["situation"])) \
            and not re.search(r"\b(?:i|we|my|our|me|us)\b", scope["situation"], re.IGNORECASE) \
            and (STATE_WORDS.search(scope["situation"]) or LEVEL_WORDS.search(scope["situation"])):
        spans.append(scope["situation"].strip())  # "for Enterprise0 at Unknown, plan an Analyse": when it is at Unknown
    # (r42h) "Just after you restored User3, when it shows a scan, ...": the move that leads the order is a condition of
    # its own beside the one after it (left out, the rule spoke at every step the later one held)
    if acted := ACTED_LEAD.match(instruction.strip()):
        spans.append(acted.group(0))
    # (r39m) "..., and no Restore of it in the last two steps": the move not made, with its window, is one condition
    spans.extend(m.group(0) for p in MOVES_NOT_MADE for m in p.finditer(instruction))
    spans.extend(_at_level(instruction))
    spans.extend(_with_state(instruction))
    spans.extend(_later_situations(instruction))
    # (r34h) "facing an intruder who is driving directly at Enterprise1, ...": what the rule is for, a condition on
    # the attacker (read as no condition, the order's own state decided alone)
    spans.extend(m.group(0) for m in _AGAINST_ATTACKER.finditer(instruction))
    if situation:
        # ("Enterprise1 is the exception: when it shows ..., ...": a heading that names the host the rule is for)
        spans.append(LEAD_WORD.sub("", EXCEPTION_HEADING.sub("", _GLOSS.sub("", situation))))
    out = []
    unique = list(dict.fromkeys(s.strip() for s in spans if s.strip()))
    for span in (u for u in unique if not any(u != other and u in other for other in unique)):  # "during a step" in
        # "When no alert fires during a step" is part of that condition, not another one
        out.append(Condition(span, negations_in(span), hosts_in(span), classes_in(span)))
    return tuple(out)


# (r38m) An order opened by a phrase of state: "With User1 compromised, remove it", "with two or more user boxes owned,
# restore them", "At root, Restore it instead" (a step of a list on the host its heading names). The phrase is
# when the order holds (read as no condition, a compiled predicate that left its count or its state out passed the
# checks, and a list's later step stood with no condition of its own).
_STATE_OPENER = re.compile(r"^\s*(?:(?:\d+[.)]|[-*])\s*)?(?P<lead>with|at)\s+(?P<situation>[^,;:.]{3,80}?)\s*,\s*(?P<rest>\S.*)$",
                           re.IGNORECASE)


def _with_state(instruction: str) -> list[str]:
    """The phrase of state that opens an order or a step of a list (`_STATE_OPENER`): one that names a host's level
    ("at user level", "at root"), or hosts or a class and their state ("with User1 compromised"), no move and no teller,
    with an order after it; [] where there is none."""
    found = []
    for piece in re.split(r"\s*;\s*", instruction):
        opened = _STATE_OPENER.match(piece)
        if opened is None or not gives_order(opened["rest"]):
            continue
        said = opened["situation"]
        if verbs_in(said) or FIRST_PERSON.search(said):
            continue
        if opened["lead"].lower() == "at":
            # ("at step 4, ...", "at the start, ...": a moment, no state; a level alone is the state of the host at hand)
            if LEVEL_WORDS.match(said.strip()) and len(said.split()) <= 3:
                found.append(f"{opened['lead']} {said.strip()}")
            continue
        if (hosts_in(said) or classes_in(said)) and (STATE_WORDS.search(said) or LEVEL_WORDS.search(said)
                                                     or TAKEN_OVER.search(said)):
            found.append(f"{opened['lead']} {said.strip()}")
    return found


def _later_situations(instruction: str) -> list[str]:
    """(r37m) The situation of a later case in a note of cases, each "<situation> -> <order>" ("E0 scan only -> decoy it;
    E0 under exploit -> Remove it instead", the arrows read as colons): after a semicolon, what comes before the colon
    when it names a host or class and a state, and no move and no teller. The first case's situation is the note's
    opening; left unread, a later case's order stood with no condition of its own."""
    found = []
    for piece in re.split(r"\s*;\s*", instruction)[1:]:
        head, colon, order = piece.partition(":")
        if not colon or not order.strip() or verbs_in(head) or FIRST_PERSON.search(head) or CONDITION.search(head):
            continue
        if (hosts_in(head) or classes_in(head)) and (STATE_WORDS.search(head) or LEVEL_WORDS.search(head)):
            found.append(head.strip())
    return found


# The attacker the rule is for, said before the order: "against an attacker that ...", "facing the b_line kind of red"
_AGAINST_ATTACKER = re.compile(r"\b(?:against|facing|versus|vs\.?)\s+(?:an?\s+|the\s+)?(?:[\w-]+\s+){0,3}?"
                               r"(?:attacker|adversary|red(?:\s+agent)?|intruder|opponent|enemy)\b[^,;:.]*", re.IGNORECASE)


# Whose view an exception heading states, "for me", "in my book": no part of what it excepts.
WHOSE_VIEW = r"(?:for\s+(?:me|us|now)|in\s+my\s+(?:book|view))"


# (r37h) An aside in brackets after the heading, "U3 is the exception (the lab's box): ...", says why, no condition.
HEADING_ASIDE = r"(?:\s*\([^()]{1,100}\))?"  # (r41h, r41m: an aside of a sentence's length)


EXCEPTION_HEADING = re.compile(r"(?<=\w)\s+(?:is|are)\s+(?:the|an|a)\s+(?:(?:one|big|main|only)\s+)?(?:exception|special\s+case|odd\s+one\s+out)"
                                r"(?:\s+(?:here|to\s+(?:that|this|the\s+rule)|to\s+[^.;:!?]{1,60}|" + WHOSE_VIEW + r"))?"
                                + HEADING_ASIDE + r"\s*$", re.IGNORECASE)


# A situation glossed: "Op_Server0 compromised means we are in the impact phase", "..., i.e. the impact phase": the
# gloss names what the situation is, no further condition.
_GLOSS = re.compile(r"\s*,?\s+(?:which\s+)?(?:means|i\.e\.|that\s+is)\s+(?!(?:(?:a|an|the)\s+)?" + VERB_WORD + r")[^.;:]*$",
                    re.IGNORECASE)


# The scope a sentence opens with, before the situation its "means" is said of: "For User3, ...".
# (r44x) "<situation> is no case for / doesn't call for / needs no <move>": the situation a verdict against a move is said
# of, as its subject (the verdict itself is read as a prohibition, NOT_A_CASE_FOR, _FORBID)
# (its subject within its clause: not over a "that" or a "but" that opens it, "my takeaway is that <situation> needs no ...")
# (r53h) A level that "gets" a move, as a case gets its order: "a Privileged on User4 gets a Restore rather than a
# Remove", "an Unknown on it gets an Analyse". The level (a state here: the sentence glosses nothing) is the order's
# situation, as "means" / "calls for" say it. (A state word, "an exploit on X gets ...", is read as before.) Read as no
# condition, a compilation of the bare host passed and fired in any state.
# (the whole clause before "gets", from its sentence's start or a colon: not a piece of a list cut at its last comma)
_STATE_GETS_MOVE = re.compile(r"(?:^|[.;:!?]\s*)(?P<situation>[^,;:.!?()]+?)\s+gets\s+(?:a|an|the)\s+(?=" + VERB_WORD + r")",
                              re.IGNORECASE)


# (r53d) What keeps the words before "gets" from being a plain case: a negation or a rare-ness of the getting ("a Privileged
# on User4 never / no longer / seldom gets a Remove": a prohibition, read by its own readers, whose words are no state), or
# a frame of doubt or report around it ("I doubt ...", "nobody said ...", "whether ..."): taken for the situation, its
# negation denied the case the note is about, and the rule held nowhere, or where the level is absent.
_GETS_NOT_PLAIN = re.compile(r"\b(?:no|not|never|nobody|none|hardly|rarely|seldom|barely|scarcely|whether|if|unless|doubts?|"
                             r"said|says|say|think|thinks|thought|believe[sd]?|claims?|claimed|wonder\w*|unsure|sure)\b|n['\u2019]t\b",
                             re.IGNORECASE)


_NO_CASE_FOR = re.compile(r"(?P<situation>\b(?:(?!\b(?:that|but)\s)[^,;:.])+?)\s+(?:(?:is|are|was|'s)\s+" + NOT_A_CASE_FOR + r"|"
                          r"(?:does\s+not|doesn['\u2019]?t|do\s+not|don['\u2019]?t)\s+(?:call\s+for|need|warrant|require|deserve|"
                          r"demand|justify|mean)|(?:needs?|calls?\s+for|warrants?|deserves?)\s+no)\s+(?:(?:a|an|the|any)\s+)?"
                          r"(?=" + VERB_WORD + r")", re.IGNORECASE)


_MEANS_SCOPE = re.compile(r"(?:^|[.;:]\s*)(?P<scope>(?:for|on)\s+[^,;:.]{2,60},)\s*$", re.IGNORECASE)


# (or of a host of any class: "for a machine at Unknown with no scan showing, suggest an Analyse")
_ANY_HOST = re.compile(r"(?:a|an|any)\s+(?:host|machine|box|system)\s", re.IGNORECASE)


# A scope that opens the order and states its host's state: "for Enterprise0 at Unknown, plan an Analyse", "on a user
# box with an exploit: Remove it". The state is the order's condition (read as no condition, a compiled predicate that
# only asked that Enterprise0 be shown passed every check and fired on its row at Compromised User).
# (a host or class of at most three words, then its state in at most seven, told by no "I" or "we": "For User0 and User1
# both compromised I removed them one at a time, ..." is a story, no scope)
_SCOPE_STATE = re.compile(r"^\s*(?:for|on)\s+(?P<situation>(?:(?:a|an|any|every|each|the)\s+)?(?:[\w-]+\s+){0,2}?[\w-]+\s+"
                          r"(?:at|showing|shows|with|in|under|that\s+(?:is|shows)|which\s+(?:is|shows)|(?:still\s+)?(?:sitting|stuck)\s+at)"
                          r"(?:\s+[\w-]+){1,7}?)\s*[,:]\s*(?=\S)", re.IGNORECASE)


# A level said after the host or class it is of, with no condition word ("Restore User1 at root", "Remove Enterprise2 at
# user level, never Restore it", "the move for the user hosts at Privileged"): the state of that subject, when the rule
# applies (left unread, a predicate that only asks the host be shown passed as the whole condition).
# (r55l) ... and a second level joined to it by "or" ("Restore any user box at user level or root"): either level, the
# condition; cut after the first, the rule read as "at user level" alone and was silent on a rooted box it names.
_LEVEL_SAID = (r"(?:user[\s-]level|user|root|privileged|unknown|admin(?:istrator)?|system)\b"
               r"(?:[\s-]+(?:level|access|privileges?|compromise|rights))?")
_AT_LEVEL = re.compile(r"\s+(?:(?:is|are)\s+)?(?:(?:still|sitting|stuck)\s+)?at\s+(?:(?:a|the)\s+)?" + _LEVEL_SAID +
                       r"(?:\s*,?\s*(?:or|/)\s*(?:at\s+)?(?:(?:a|the)\s+)?" + _LEVEL_SAID + ")?", re.IGNORECASE)


# (r55d) A level said by its place against another, "above user level", "below root", "past user level", "higher than
# user": not that level, most often the other one (or none). Read as the level it names, "Restore User2 if it is above
# user level" held at user level and never at root, the opposite of its words. ("exploited up to user level" is the level
# reached: that level.)
LEVEL_RELATIVE = re.compile(r"\b(?:above|below|over|under(?:neath)?|beyond|past|(?:higher|lower|more|less|further|greater)\s+than|"
                            r"short\s+of|at\s+(?:least|most))\s+(?:(?:a|the)\s+)?(?=(?:user(?:[\s-]level|\s+(?:access|privileges?|"
                            r"rights))|root|privileged|admin(?:istrator)?|system[\s-]level)\b)", re.IGNORECASE)


# A quiet state said right after the level ("User4 at root with no alerts ought to be reimaged"): part of the
# same condition (left out, the rule reads as "at user level" in any activity, and its "no" as a prohibition's)
# (r47h: or "with nothing running (on it)", "and nothing going on": the same quiet row in other words, shorthand.nothing_on_it_said)
_QUIET_AFTER_LEVEL = re.compile(r"\s*,?\s*(?:(?:with|and|showing|but)\s+(?:no|zero)\s+(?:(?:further|current|new)\s+)?"
                                r"(?:activity|alerts?|exploits?|scans?|scanning)\b|(?:with|and)\s+nothing\s+(?:(?P<others>else)\s+)?(?:is\s+|'s\s+)?"
                                r"(?:running|happening|going\s+on|active)(?:\s+(?:on|in)\s+it\b|"
                                # (r47a) the other hosts' quiet ("with nothing else running", "... anywhere else", "... on the
                                # op side"): kept in the condition as said, which no reading places (not this host's row)
                                r"(?(others)|(?=\s+(?:anywhere|elsewhere|else|across|around|beyond|outside|on|in|at)\b))[^,;.:!?]*)?"
                                r"\b(?!\s*,?\s*(?:but|except|besides|save|bar|apart\s+from|other\s+than|aside\s+from)\b))", re.IGNORECASE)


def _at_level(instruction: str) -> list[str]:
    """The conditions "<host or class> at <level>" said after the order's subject (`_AT_LEVEL`), with a quiet state said
    right after it (`_QUIET_AFTER_LEVEL`)."""
    found = []
    for level in _AT_LEVEL.finditer(instruction):
        quiet = _QUIET_AFTER_LEVEL.match(instruction, level.end())
        said = level.group(0) + (quiet.group(0) if quiet else "")
        words = instruction[:level.start()].split()
        # the host right before it ("User1"), or the nearest words that name a class ("ent srvs", "the user hosts");
        # never a host further back ("User4 still sat at user level" tells a story)
        for size in (1, 2, 3):
            subject = " ".join(words[-size:])
            if len(words) >= size and (hosts_in(subject) if size == 1 else classes_in(subject)):
                found.append(f"{subject}{said}")
                break
    return found
