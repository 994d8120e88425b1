"""What a rule's text claims and needs at the gate: its condition, the kinds of fact it needs stated, and the claims a semantic or compiled rule is held to. Pure.

The condition of a text is what wording.py reads as its conditions (its "when / if ..." clauses, a relative
clause on what the order is about, a note's opening situation), or, when it states none, its instruction (the
rule after the reflection's narrative): the narrative ("my Restore failed") says why the rule was written,
not when it applies (`condition_of`).

The kinds of fact are facts.py's (`FACTS`); the claims on named hosts claims.py's; this module puts them
together for the gate and the checks: `text_facts`, `facts_unread`, `semantic_claims`, `text_claims`,
`listed_claims`, `evidence_rest`, `claims_decide`, and the keys that say two conditions are one (`words_key`,
`same_condition`).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Optional

from forge.env.catalog import HOST_CLASSES, QUIET_ACTIVITY, QUIET_COMPROMISE
from forge.rulebook.language.claims import STATE_SPOKEN, all_of, claims
from forge.rulebook.language.episode import EpisodeStep, episode_claims, without_episode_claims
from forge.rulebook.language.facts import MOVE_NAMES, facts_needed
from forge.rulebook.language.disowned import only_disowned
from forge.rulebook.language.forbidding import IN_ADVANCE, falls_short_away
from forge.rulebook.language.phases import unknown_phase_named
from forge.rulebook.language.replies import proposal_unsettled
from forge.rulebook.language.forms import bans_only_asked, line_pointer_unclear, line_referred_back, moves_answered, moves_only_suggested, nothing_ticked, points_back_at_line
from forge.rulebook.language.general_claims import history_unread
from forge.rulebook.language.guard import classes_left_out, complete_claims, confirmed, reads_whole
from forge.rulebook.language.judged import evidence_away, evidence_tests, without_evidence
from forge.rulebook.language.markers import negations_in, other_host_away
from forge.rulebook.language.names import classes_in, hosts_in, named_in_full, state_words_in, verbs_in
from forge.rulebook.language.minutes import agrees_nothing, asks_nothing, request_turned_down
from forge.rulebook.language.order import condition_elsewhere, sentences
from forge.rulebook.language.rule_claims import (ORDER_ENDED, conceded_away, conceded_states, excepting,
                                                 narrower_cases_away, rule_claims)
from forge.rulebook.language.scope import NOT_APPLYING, subject_of
from forge.rulebook.language.shorthand import spelled_out
from forge.rulebook.language.transcript import log_unsettled
from forge.rulebook.language.wording import conditions_left_out, read_wording


def condition_of(text: str) -> str:
    """The part of a rule's text that says when it applies (see the module docstring); (r44m) not a later case it only
    keeps another move for (`narrower_cases_away`)."""
    words = read_wording(narrower_cases_away(text))
    if words.conditions:
        return "; ".join(c.text for c in words.conditions)
    if words.instruction:
        return words.instruction
    parts = sentences(text)
    return parts[-1] if parts else " ".join((text or "").split())


def windows_left_to(found, rest: str):
    """(r36m) Claims without the windows of steps that `rest` (a compiled rule's unexpressed rest, judged as its guard)
    states: the predicate need not say them (None: nothing else is claimed)."""
    from forge.rulebook.language.predicate import AllOf  # lazy: as in `claims`

    guarded = set(episode_claims(rest or ""))
    if found is None or not guarded:
        return found
    # (r41m: or one a window it states implies: "in the first six steps" says "not after step 6", said where the rule
    # hands over to the others)
    return all_of([p for p in (found.parts if isinstance(found, AllOf) else (found,))
                    if p not in guarded and not any(_window_implies(g, p) for g in guarded)])


def _window_implies(window, other) -> bool:
    """(r41m) Whether a window of steps holds only where another does, on every step of episodes of the usual lengths
    (a window counted from the end needs one). Anything but two windows: no."""
    if not isinstance(window, EpisodeStep) or not isinstance(other, EpisodeStep):
        return False
    return all(other.truth(step, step, length) is True for length in (20, 30, 50, 100) for step in range(1, length + 1)
               if window.truth(step, step, length) is True)


def facts_unread(condition: str, subject: Optional[str] = None) -> frozenset[str]:
    """(r36m) `facts_needed` of a condition whose claims hold its windows of steps (episode.py): those windows are read,
    so the words that state them need no fact of their own (any other word for the episode's time still does).
    (r39m) Likewise its history, where every clause of it is read (`history_unread`) and its claims (`subject`: the host
    its "it" stands for) hold a history atom: they judge it three-valued, and a state now that already decides them ("not
    at Privileged for two steps" of a host at User) needs no history lines."""
    condition = evidence_away(without_episode_claims(condition or ""))
    found = facts_needed(condition)
    if "history" in found and not history_unread(condition) and _claims_history(condition, subject):
        found = found - {"history"}
    return found


def _claims_history(condition: str, subject: Optional[str]) -> bool:
    """Whether the claims of a condition hold a history atom (or its `not`)."""
    from forge.rulebook.language.predicate import atoms_of  # lazy: as in `claims`

    found = claims(condition, subject)
    return found is not None and any(atom.history() for atom, _ in atoms_of(found))


# "many connections on port 22 from one address mean a brute force, so recommend a Restore": what the evidence means
# is the reason, and the evidence itself the condition of the order after the "so".
_MEANS_SO = re.compile(r"(?P<what>[^.;:,]+?)\s+(?:means?|indicates?|signals?|signifies|points?\s+to)\s+[^.;:,]+,\s*so\s+(?!that\b)",
                       re.IGNORECASE)


# What an order tells the agent to say of a host ("call it low risk", "rate it critical", "flag it as high priority"):
# its answer, not a condition on a fact.
# (r48m: in any person, "the analyst rates it critical", "flags it high risk"; and a rating that closes an order, "...
# means recommend Remove, high risk": the answer's rating, said after the move it recommends)
_VERDICT = re.compile(r"\b(?:call|rate|label|flag|mark|report|classify|tag|score|treat|consider)(?P<person>s|d|ed|es)?\s+(?:it|them|this|that|the\s+host)\s+"
                      r"(?:as\s+)?(?:(?:a|an)\s+)?(?:low|medium|high|critical|urgent|minor|major)[\s-]*(?:risk|priority|severity)?\b",
                      re.IGNORECASE)


_CLOSING_RATING = re.compile(rf"(?P<move>\b(?:{MOVE_NAMES})(?:\s+(?:it|them|\w+\d))?)\s*,\s*(?:low|medium|high|critical)[\s-]+risk\s*(?=[.;]|$)",
                             re.IGNORECASE)


def verdict_away(text: str) -> str:
    """`text` without what an order tells the agent to say of a host ("rate it high risk"): an answer, no condition."""
    return _CLOSING_RATING.sub(lambda m: m["move"], _VERDICT.sub(
        lambda m: m.group(0) if m["person"] and _RATING_AS_CASE.search(re.split(r"[,;.:]", text[:m.start()])[-1]) else " ", text))


# (r48m) A rating told in the third person after a word of condition, "when the analysis rates it high risk": the case,
# no answer asked for
_RATING_AS_CASE = re.compile(r"\b(?:when|whenever|if|once|after|unless|while|until|since|as\s+soon\s+as)\b", re.IGNORECASE)


def spoken_facts(words) -> list[tuple[str, frozenset[str]]]:
    """Each part of a rule's words that speaks of kinds of fact (FACTS), with them: its conditions, and its order itself
    ("restore any host stuck at Unknown for two steps"; not the order's "before anything else", which orders, or
    "before they arrive", which is the future; nor "still", which mostly says "now")."""
    # (nor what the order puts aside: "instead of analysing it again" is the move not to make, no condition)
    # (nor what it concedes: "never restore User0, even when it has been owned twice: ..." holds whatever the host's past)
    # (nor the other host an order on a named one is set against: "..., not on the box that was hit earlier", r34m)
    # (nor what a move is said to fall short at, r41m, r41h: "a Remove won't clear root" says what the move does, no past move)
    # (r49m: nor the order's own move said again, "recommend Analyse again next step": what the order repeats, no past it
    # asks for)
    # (r60m: nor its move made again and again, `_MOVE_OVER_AND_OVER`)
    order = _MOVE_OVER_AND_OVER.sub(lambda m: m["move"], falls_short_away(other_host_away(conceded_away(
        _told_aside_away(words.instruction)))))
    order = re.sub(r"\b(?:before|instead\s+of|rather\s+than)\b[^,;.]*", " ", _MOVE_AGAIN.sub(lambda m: m["move"], order))
    said = [c.text for c in words.conditions] + [verdict_away(order)] \
        + [m["what"] for m in _MEANS_SO.finditer(words.text)]
    # (nor where an order ends, ORDER_ENDED: "after it is rooted, the trap no longer helps" says what stops, no past)
    # (r48m: nor what the move stops being there, "the eviction stops being urgent": no priority to state)
    said = [ORDER_ENDED.sub(lambda m: re.sub(r"\b(?:stops?\s+being|ceases?\s+to\s+be)\b.*$", " not ", re.sub(
        r"\bno\s+longer\b", " not ", m.group(0), flags=re.IGNORECASE), flags=re.IGNORECASE), t) for t in said]
    # (r44x: "still" taken out with its space: "an exploit still running" is "an exploit running", the activity now, which
    # the history words leave out only as two words side by side; with a gap between them it read as a run of steps)
    found = [(t, facts_needed(_UNTIL_NO_LONGER.sub(" while ", re.sub(r"\bstill\b\s*", "", t)))) for t in said]
    return [(t, kinds) for t, kinds in found if kinds]


# (r49m) The order's move, repeated: "Analyse it again", "recommend Analyse again next step", "Restore User2 once more".
_MOVE_AGAIN = re.compile(rf"(?P<move>\b(?:{MOVE_NAMES})(?:\s+(?:it|them|that\s+host|the\s+host|\w+\d))?)\s+(?:again|once\s+more)\b"
                         r"(?:\s+(?:at\s+|on\s+|in\s+)?(?:the\s+)?next\s+(?:step|turn))?", re.IGNORECASE)
# (r60m) And the order's move said to be made again and again, its host in words or in a call's brackets, the frequency
# after the call's full stop too: "Restore(User0). again and again, each time it lights up", "restore it over and over":
# the order made each time its case comes back, no past move the condition asks for. Not a move told in the past or as a
# participle ("removed User3 again and again", "having removed it over and over"): that is the defender's history.
_MOVE_OVER_AND_OVER = re.compile(rf"(?P<move>\b(?:{MOVE_NAMES})(?<!ed)(?<!ing)(?:\s+(?:it|them|that\s+host|the\s+host|\w+\d)|"
                                 r"\s*\(\s*\w+\s*\))?)\s*[.,]?\s+(?:again\s+and\s+again|over\s+and\s+over(?:\s+again)?)\b",
                                 re.IGNORECASE)


# (r41m) An aside in brackets that tells what happened, its verbs all past ("(the Remove never held there: two tries,
# three re-exploits)", "(that is what went wrong last time)"): the order's reason, no condition of it.
# (Not one that states a condition, "(if it was hit twice)", nor one in the present.)
_TOLD_ASIDE = re.compile(r"\((?![^()]*\b(?:is|are|shows?|has|have|gets?|reads?|sits?|stays?|remains?|if|when|whenever|while|"
                         r"once|unless|until|after|since)\b)"
                         r"(?=[^()]*\b(?:was|were|had|did|got|went|came|stuck|failed|tried|tries|worked)\b)[^()]*\)", re.IGNORECASE)


# (r41m) A condition said in other words and then glossed as a state: "Ahead of the red team getting to the op subnet,
# i.e. while no op host is held, ...": the gloss says what it means; the words it glosses need no fact.
_GLOSSED = re.compile(r"[^,;.:()]+,\s*(?=(?:meaning|i\.\s?e\.|that\s+is(?:\s+to\s+say)?|in\s+other\s+words)\s*,?\s+"
                      r"(?:while|when|whenever|if|as\s+long\s+as|until|once)\b)", re.IGNORECASE)


def _told_aside_away(text: str) -> str:
    """(r41m) The text without its told asides in brackets (_TOLD_ASIDE), and a condition's words its gloss restates
    (_GLOSSED)."""
    return _GLOSSED.sub(" ", _TOLD_ASIDE.sub(" ", text))


# "until the box no longer shows root": while it reads Unknown now, no history (r31m)
_UNTIL_NO_LONGER = re.compile(r"\buntil\s+(?:it|they|the\s+(?:host|box|machine|server)|\w+\d|defender)\s+no\s+longer\b",
                              re.IGNORECASE)


# A semantic rule whose predicate a check refused, or whose instruction the compiler dropped: its text is about
# what the table shows, and the cosine cannot keep its scope or polarity. It is judged by its claims alone.
_REFUSED = ("predicate refused", "invalid predicate", "compiled as written: the compiler dropped an instruction")


def refused_predicate(semantic_reason: str) -> bool:
    """Whether a semantic rule is one whose compiled predicate the product refused (or whose instruction the
    compiler dropped): judged by its claims alone (`semantic_claims`)."""
    return (semantic_reason or "").startswith(_REFUSED)


def cut_conditions(directive: str, text: str) -> tuple[str, ...]:
    """The conditions a rule's whole text states that its directive (compile.fitted: a long text cut to its
    instruction as the reader found it) does not hold: read from the directive alone, the rule would speak where its
    text says it does not apply ("..., I think, that when Enterprise1 is scanned but not compromised I should put a
    decoy on it" cut to the story's first sentence, which names Enterprise1 and nothing of its state)."""
    if not text or " ".join(text.split()) == " ".join((directive or "").split()):
        return ()
    text, directive = narrower_cases_away(text), narrower_cases_away(directive)  # (r44m: on both sides alike)
    words = read_wording(text)
    stated = [c.text for c in words.conditions] + list(conditions_left_out(text))
    # (r50m: or as the reader says it, a form's lines said as a sentence, "When <state>: <order>", on both sides alike)
    kept = " ".join(f"{directive or ''} {read_wording(directive or '').text}".split()).lower()
    # (r39m: an opening read whole as the situation, "the sequence should be, whenever X ...", is kept where the directive
    # holds it from its condition's first word on)
    return tuple(c for c in stated if " ".join(c.split()).lower() not in kept and _says_something(c)
                 and " ".join(_from_its_marker(c).split()).lower() not in kept)


_MARKER_AFTER_COMMA = re.compile(r",\s*(?=(?:whenever|when|if|once|while|as\s+soon\s+as)\b)", re.IGNORECASE)


def _from_its_marker(condition: str) -> str:
    """A condition from the marker after its lead's comma on ("the order should be, whenever X ..." -> "whenever X ...")."""
    found = _MARKER_AFTER_COMMA.search(condition)
    return condition[found.end():] if found else condition


def cut_exceptions(directive: str, text: str) -> tuple[str, ...]:
    """The hosts a rule's whole text excepts that its directive (cut to its instruction) does not: an exception said in
    a sentence of its own after the order ("...; User1 is the exception") is still the rule's."""
    if not text:
        return ()
    kept = read_wording(directive).excepted
    return tuple(h for h in read_wording(text).excepted if h not in kept)


def _says_something(condition: str) -> bool:
    """Whether a condition names a host, a class, a state or a kind of fact (not a heading such as "Lesson"); a word
    that may mark history with no state to mark ("the one that is still shallow", said of a foothold) says none."""
    if hosts_in(condition) or classes_in(condition) or STATE_SPOKEN.search(condition):
        return True
    facts = facts_needed(condition)
    if facts == {"history"} and not facts_needed(_HISTORY_MARK.sub(" ", condition)):
        return False
    return bool(facts) and not _lone_word(condition)


_HISTORY_MARK = re.compile(r"\b(?:still|again|already|yet|any\s*more|no\s+longer)\b", re.IGNORECASE)


def _lone_word(condition: str) -> bool:
    """A "condition" of one word that names no host, class or state ("Still: do not restore ...", "Then: ..."): a
    connective before a colon, not a condition; a word that may mark history ("still", "again") needs a state to mark."""
    return len(re.findall(r"[A-Za-z_0-9']+", condition)) == 1


def story_state(words) -> Optional[dict]:
    """(r51h) The state a lesson's story tells of the host its order acts on, as predicate JSON, where the lesson states no
    condition of its own ("Op_Host1 got exploited while my plan only monitored. Better: Remove Op_Host1, then ..." ->
    Op_Host1 at Activity Exploit); None elsewhere. The story is the text's opening sentence, the host its
    subject and the state told in the past ("<host> was / got / sat ..."), and it names no other host. It says why the
    lesson was written, and where the lesson names no situation, the one the story tells of its own host is the situation
    it is for: read as the host shown in any state, the lesson ordered a Remove of a clean host. (`words`: the text's
    Wording, its hosts named in full.)"""
    from forge.rulebook.language.situation import host_statements  # lazy: situation reads conditions

    if any(c.hosts or c.classes or state_words_in(c.text) or _says_something(c.text) for c in words.conditions):
        return None
    if state_words_in(words.instruction) or STATE_SPOKEN.search(words.instruction):
        return None  # (a state in the lesson's own words, read as a condition or not, is its own situation)
    opening = next(iter(sentences(words.text)), "")
    told = _TOLD_IN_THE_PAST.match(opening) or _MY_MOVE_TOLD.match(opening)
    if told is None or set(hosts_in(opening)) != set(hosts_in(told["host"])) \
            or any(part and (part in opening or opening in part) for part in (words.instruction, words.situation)):
        return None
    for host, (activity, compromise), negated in host_statements(opening):
        if not negated and host in hosts_in(words.instruction) and (activity in ("Scan", "Exploit") or compromise in ("User", "Privileged")):
            return {"host": host, **({"activity": activity} if activity in ("Scan", "Exploit") else {}),
                    **({"compromise": compromise} if compromise in ("User", "Privileged") else {})}
    return None


def _lesson_says_when(words) -> bool:
    """(r51a) Whether a lesson's own words say when it holds: a window of steps, a trend, a time or a condition no
    reading places ("Remove User3, except on the first step", "but only in the last ten steps", "before an Analyse")."""
    return bool(episode_claims(words.instruction) or facts_needed(words.instruction)
                or any(c.text in words.instruction for c in words.conditions))


# (r51h) A story's opening told of one host in the past, the host its subject: "Op_Host1 was exploited ...", "User4 got
# scanned ...", "User3 sat at root ..."
_TOLD_IN_THE_PAST = re.compile(r"^\s*(?:the\s+)?(?P<host>[A-Za-z_]+\d|Defender)\s+(?:was|got|sat|went|had\s+been|became|fell|stood)\b",
                               re.IGNORECASE)
# (r52h) ... or the writer's own move on the host, told with the state the host was in: "I reimaged User3 on step 4
# while it stood at root", "we removed Op_Host0 as it was being exploited" (the host the move's object, "it" its state's
# subject). Read as no story, the lesson after it ("in that spot, a Remove is the better call") held on the host in any
# state.
_MY_MOVE_TOLD = re.compile(r"^\s*(?:i|we)\s+(?:\w+ly\s+)?\w+ed\s+(?:the\s+)?(?P<host>[A-Za-z_]+\d)\b[^.;!?]*?"
                           r"\b(?:while|when|as|though)\s+it\s+(?:was|sat|stood|showed|had|read|still)\b", re.IGNORECASE)


@lru_cache(maxsize=8192)  # (the gate reads every rule again whenever the book changes: each rule's words once)
def decides_nothing(text: str) -> bool:
    """(r54h) Whether a note names moves only to leave them open: each one suggested, or asked about in a question its
    answer does not settle ("Q: is a Remove due on Op_Host1 once probed? A: depends", forms.moves_answered). Kept semantic, it was
    injected where its question's situation held, as if it ordered the move its answer declines to."""
    # (and the moves it only suggests, "it might be worth a Remove there": forms.moves_only_suggested)
    left_open = moves_answered(text or "")[1] | moves_only_suggested(text or "")
    # (and a checklist none of whose items is ticked, forms.nothing_ticked: every item only put forward; (r55b) and a
    # meeting's minutes that agreed no move, minutes.agrees_nothing: every move in them turned down or left for later)
    # (r55e: and a quoted note with no verdict under it, only a question or nothing, replies.proposal_unsettled)
    # (r58h: and a request whose status line turns it down, minutes.request_turned_down; and a note that says it asks for no
    # move, minutes.asks_nothing)
    # (r61l: and a note whose every move the writer disowns or denies, disowned.only_disowned, or names only inside a
    # question about a ban, forms.bans_only_asked: "Who said never Remove User1?"; or a chat log that never settles,
    # transcript.log_unsettled)
    return bool(left_open) and set(verbs_in(text or "")) <= left_open or nothing_ticked(text or "") or agrees_nothing(text or "") \
        or proposal_unsettled(text or "") or request_turned_down(text or "") or asks_nothing(text or "") \
        or only_disowned(text or "") or bans_only_asked(text or "") or log_unsettled(text or "")


def line_claims(rows):
    """(r54h) The claims of table lines a note quotes (forms.line_referred_back): any of them, each its host at both values."""
    from forge.rulebook.language.predicate import AnyOf, Atom  # lazy: as in `claims`

    atoms = tuple(Atom(host=h, activity=a, compromise=c) for h, a, c in rows)
    return atoms[0] if len(atoms) == 1 else AnyOf(atoms)


def semantic_claims(directive: str, semantic_reason: str = "", text: str = ""):
    """The claims a semantic rule must meet (None: none, its cosine decides). Claims that read the whole of its
    condition (and the states its order names) decide alone (`claims_decide`): its cosine adds nothing. A rule whose
    compiled predicate was refused (checks.py) is held to them strictly: claims that are not the whole of it, or no
    claims at all, leave it unknown, so silent (a predicate that never holds); so does a condition it states that they
    cannot read in full, whoever compiled it (a reflection's lesson the compiler kept semantic used to fire on its likeness
    to the context), and so does a condition of its whole `text` that its directive left out (`cut_conditions`). Only a
    rule that states no condition at all is left to its cosine."""
    from forge.rulebook.language.predicate import Always, Not  # lazy: as in `claims`

    if cut_conditions(directive, text):  # a condition of its text that the directive left out is not read: unknown
        return Not(Always())
    if condition_elsewhere(text or directive):  # (r43h) part of its condition is another note's, not here: unknown
        return Not(Always())
    if decides_nothing(text or directive):  # (r54h) every move it names is asked about and left open: no rule to apply
        return Not(Always())
    if line_pointer_unclear(text or directive):  # (r54a) a pointer at a quoted line that keeps it out, or at one of several
        return Not(Always())
    rows = line_referred_back(text or directive)
    if rows and all(points_back_at_line(c.text) for c in read_wording(named_in_full(text or directive)).conditions):
        return line_claims(rows)  # (r54h) its condition points back at a line it quotes: that line, as the table states it
    lesson = read_wording(named_in_full(text or directive))
    told = story_state(lesson)
    if told is not None:  # (r51h) a lesson with no condition of its own is for the state its story tells of its host
        from forge.rulebook.language.predicate import parse_predicate  # lazy: as above
        story = confirmed(parse_predicate(told))
        if not _lesson_says_when(lesson):
            return story
        # (r51a) and, where the lesson says when it holds, then too: the story's state alone held it at every step, in
        # the very step the lesson leaves out; where what it says of the time is not read, unknown
        rest = _claims_read(directive, semantic_reason, text)
        return Not(Always()) if rest is None or rest == Not(Always()) else all_of([story, rest])
    if lesson.prohibitions and not lesson.conditions and _AHEAD_OF_TIME.search(lesson.instruction) \
            and not _AFTER_ITS_EVENT.search(lesson.instruction):
        return _before_its_time(_claims_read(directive, semantic_reason, text), lesson.instruction)
    return _claims_read(directive, semantic_reason, text)


# (r61l) A ban only ahead of its time (forbidding.IN_ADVANCE: "never Remove User2 prematurely", "don't Restore it too
# early; wait for the exploit"): the event its words wait on is when the ban lifts. Read as its condition, the ban was
# injected once the exploit showed, where its words leave the move free.
_AHEAD_OF_TIME = re.compile(rf"\b(?:{IN_ADVANCE})\b", re.IGNORECASE)


# (r61d) ... only where its words wait on the event, and say no state but that event (`_WAITED_EVENT`: "wait for the
# exploit", "until it is rooted", "let it show first"): a state said otherwise ("too soon on a privileged compromise",
# "prematurely during a scan") is when the ban holds, and read as the event it waited on, the ban was injected everywhere
# but there. An event that is an ending ("wait for the scan to end", "until it is clean") holds the ban in its state too,
# and one said "after" the ban ("too soon after the exploit") is the time it holds in: the state as read
# (`_AFTER_ITS_EVENT`), or, "after" elsewhere, unknown.
_WAITED_EVENT = re.compile(r"\b(?:wait(?:s|ed|ing)?\s+(?:\w+\s+)?(?:for|until|till|on)|until|till|before|in\s+advance\s+of|"
                           r"ahead\s+of|let)\b[^.;:!?]*", re.IGNORECASE)
_EVENT_ENDS = re.compile(r"\b(?:end(?:s|ed)?|over|finish\w*|stops?|stopped|done|gone|leaves?|left|clean\w*|clear\w*|quiet\w*|"
                         r"pass(?:es|ed)|subsides?|after)\b", re.IGNORECASE)
_AFTER_ITS_EVENT = re.compile(rf"\b(?:{IN_ADVANCE})\s+(?:after|once|following)\b", re.IGNORECASE)


def _before_its_time(read, instruction: str):
    """The claims of a ban only ahead of its time (`instruction`), from those its words read (`read`): its hosts shown,
    the event read (a state of them) not yet so; with no event read, or a scan (which an exploit and a compromise come
    after), its hosts quiet (any event of the attack may be the one it waits on). Unknown (silent) where it names no
    host, its words read no claims, or say a state as no event waited on (`_WAITED_EVENT`, `_EVENT_ENDS`)."""
    from forge.rulebook.language.predicate import AllOf, Always, AnyOf, Atom, Not, atoms_of  # lazy: as in `claims`

    hosts = hosts_in(instruction)
    if not hosts or read is None or read == Not(Always()):
        return Not(Always())
    quiet = all_of([Atom(host=h, activity=QUIET_ACTIVITY, compromise=QUIET_COMPROMISE) for h in hosts])
    if all(atom.bare() for atom, _ in atoms_of(read)):
        return quiet
    if any(negated for _, negated in atoms_of(read)):
        return Not(Always())  # (an event said by a denial of its own is not read here: unknown)
    untimed = _AHEAD_OF_TIME.sub(" ", instruction)  # ("before its time" is the ban's own time, no event waited on)
    events = [m[0] for m in _WAITED_EVENT.finditer(untimed)]
    besides = claims(_WAITED_EVENT.sub(" ", untimed))
    if not events or any(_EVENT_ENDS.search(e) for e in events) or (
            besides is not None and not all(atom.bare() for atom, _ in atoms_of(besides))):
        return Not(Always())
    if isinstance(read, Atom) and read.activity == "Scan" and read.compromise is None and read.host in hosts:
        return quiet  # (a host that shows an exploit or a compromise has been scanned: the time has come then too)
    if isinstance(read, Atom) and read.activity == "Exploit" and read.compromise is None and read.host:
        # (an exploit that landed leaves the host held once the alert is gone: the time has come then too)
        read = AnyOf((read, Atom(host=read.host, compromise="any")))
    return AllOf((*(Atom(host=h) for h in hosts), Not(read)))


# (r54h) A prohibition conceded in a state ("never Analyse Enterprise0, even if it is held"), said with the move to make
# instead ("- Restore it", "; a Remove instead"): the other move is for that state (a Remove of a host nothing holds
# clears nothing). Read without the concession, as a prohibition alone is, the note was injected with its Remove wherever
# the host was shown, scanned and clean too.
_CONCEDED_CASE = re.compile(r"\beven\s+(?=(?:if|when|while|with|once)\b)", re.IGNORECASE)


def conceded_with_alternative(text: str) -> str:
    """(r54h) `text` with its concession said as its condition (`_CONCEDED_CASE`: "even when X" -> "when X") where it
    forbids a move and orders another; else as it stands."""
    if not _CONCEDED_CASE.search(text or "") or not conceded_states(text):
        return text
    words = read_wording(text)
    banned = {p.verb for p in words.prohibitions} | set(words.dispreferred)
    if not banned or not set(verbs_in(words.instruction)) - banned:
        return text
    return _CONCEDED_CASE.sub("", text)


def _rule_claims_kept(directive: str):
    """The claims of a rule's words (rule_claims.rule_claims, its order's sentence too), less (r58h) the hosts of a class
    the text leaves out of the rule ("clause 1 does not hold for op hosts", guard.classes_left_out): the claims stand for
    the other classes' hosts alone, as they do for a host the text excepts."""
    return excepting(rule_claims(directive, with_instruction=True),
                     {h for cls in classes_left_out(directive) for h in HOST_CLASSES[cls]})


def _claims_read(directive: str, semantic_reason: str = "", text: str = ""):
    """`semantic_claims` read of the rule's own words (its story aside)."""
    from forge.rulebook.language.predicate import Always, Not  # lazy: as in `claims`

    if _table_cases(text or directive) is not None:
        # (r45m) a table of cases under a heading: any case's claims, each read whole, or none at all (read as prose, its
        # heading alone was the condition, "an op host is shown", and it fired whatever the host showed)
        listed = listed_claims(text or directive)
        return confirmed(listed) if listed is not None else Not(Always())
    directive = conceded_with_alternative(directive)
    found = _rule_claims_kept(directive)
    # (whole as `rule_claims` reads it, without what the order concedes: "never restore User0, even when it is owned: it
    # gets owned again at once" is read whole as "User0 is shown")
    if complete_claims(directive, found) or conceded_states(directive) and complete_claims(conceded_away(directive), found):
        # (an order's "not rooted" is not met by a row at Unknown either; a prohibition's exception, "unless it is
        # rooted", "short of a confirmed root", stands in that doubt: the prohibition holds there)
        words = read_wording(directive)
        kept = excepting(confirmed(found, levels=not (words.prohibitions or words.dispreferred)), cut_exceptions(directive, text))
        # (r41h) claims only of the hosts the text excepts leave nothing the rule applies to: it never holds (None would
        # leave it to its cosine, and it fired everywhere)
        return kept if kept is not None or found is None else Not(Always())
    held = evidence_rest(directive)
    if held is not None:  # (r40g) what is left of it once the evidence judged.py judges is taken away
        return held
    if refused_predicate(semantic_reason):
        return Not(Always())
    words = read_wording(directive)
    # a condition the product cannot read in full: never judged by likeness alone (r61h: nor a time of the episode it
    # has no window for, "avoid a Restore there early on": read as its host alone, the ban held at every step)
    if words.conditions or unknown_phase_named(f"{words.situation} {words.instruction}"):
        return Not(Always())
    return excepting(claims(condition_of(directive), subject_of(words)), words.excepted)


# (r40g) The evidence named as what shows what judged.py reads, "its evidence lists", "whose evidence has": the source of
# that reading, no word of a state (left, the verb was one the claims do not place).
# (r43m: and in a note, with no article, or with the verb of what it says: "evidence says ...", "the evidence mentions ...")
_EVIDENCE_SOURCE = re.compile(r"(?:\b(?:its|the|whose|their)\s+|^\s*)evidence\s+(?:lists|shows|reports|has|holds|contains|includes|says|"
                              r"mentions|names|reads)\b", re.IGNORECASE)


# (r43h) The words that only frame what the evidence lists, once judged.py took it away: the host at hand it is of ("on
# the box under inspection,"), "a file called", "in its evidence". Left, they were words no claim placed, and a rule all
# of whose condition is evidence was silent where the evidence showed it.
_EVIDENCE_FRAME = re.compile(r"^\s*(?:for|on)\s+(?:the|this|that)\s+(?:host|box|machine|server|node)\s+(?:under|being)\s+(?:analysis|inspection"
                             r"|analy[sz]ed|inspected)?\s*,|\b(?:an?\s+|any\s+)?files?\s+(?:named|called)\b|"
                             r"\b(?:in|on)\s+(?:the|its|their)\s+evidence\b", re.IGNORECASE)


@lru_cache(maxsize=8192)
def evidence_rest(directive: str):
    """(r40g) The claims of a rule's one condition where part of it is what the evidence shows, which judged.py reads
    and the gate judges of the hosts these claims match (retrieve._judged_of): what is left once that is taken away, read
    whole ("a user host at Unknown whose evidence lists no escalate file"), or the one class it keeps the rule to where
    it states nothing more (`_class_alone`). None where no evidence is read in it, it excepts a host, or what is left
    is not read whole. Without it the evidence was a part no claim placed, and a rule kept semantic was silent everywhere."""
    words = read_wording(directive)
    if len(words.conditions) != 1 or words.excepted or not evidence_tests(words.conditions[0].text):
        return None
    said = words.conditions[0].text
    rest = _EVIDENCE_FRAME.sub(" ", _EVIDENCE_SOURCE.sub(" ", without_evidence(said)))
    if not rest.strip(" ,.;:"):  # (r43h) all of it was the evidence of the host at hand: some host, any
        return _class_alone(rest, words)
    # (only the condition's evidence: "the host under analysis" in the order's lead is no analysis this step reports)
    stripped = directive.replace(said, rest) if said in directive else _EVIDENCE_SOURCE.sub(" ", without_evidence(directive))
    found = rule_claims(stripped, with_instruction=True)
    if found is not None:
        return confirmed(found) if complete_claims(stripped, found) else None
    return _class_alone(rest, words)


def _class_alone(rest: str, words):
    """Some host of the one class a condition's rest names, where it names no host, no state and no negation and every
    word of it is placed ("a user box with  in this step's analyses", "the box you inspect is an ops machine
    and  "); some host at all where it names no class either (the condition was all evidence, "when the evidence
    shows  "); None otherwise, and where the whole text names a host or a class besides (a class word the condition
    lost, "ent server with a shell" read as "server with ...", is no "any host")."""
    from forge.rulebook.language.predicate import Atom  # lazy: as in `claims`

    named = classes_in(spelled_out(rest)) or ("any",)
    if len(named) != 1 or hosts_in(rest) or negations_in(rest) or claims(rest) is not None or words.hosts \
            or not set(words.classes) <= set(named):
        return None
    found = Atom(host_class=named[0])
    return found if reads_whole(rest, found, negated=False) else None


def evidence_judged_away(text: str) -> str:
    """(r42h) A rule's text with the evidence its conditions state, which judged.py judges (`judged.without_evidence`),
    taken out of them: what is left is for the claims. Read by them too, "a shell on an op box" was some op box
    compromised for sure, and a rule on the shell was silent where the host's row read Unknown."""
    for condition in read_wording(text).conditions:
        if condition.text in text and evidence_tests(condition.text):
            text = text.replace(condition.text, without_evidence(condition.text))
    return text


def text_claims(text: str):
    """What a rule's own words claim of its condition, for the gate on a compiled predicate: (claims, whole), claims
    None where this reading places nothing. A predicate is the compiler's reading of the text, and may be wider than it
    in ways no check sees (a word the product does not know may hide a history, a level, a phase); where the product
    reads the whole of the condition, what it reads must hold (the checks already refuse a predicate that does not imply
    it), and where it reads only part, that part must not be false: a rule never fires where its own words, as the
    product reads them, say it does not apply."""
    branches = _fallback_branches(text)
    if branches:  # (r42m) "<case>, <order>; failing that, <case>, <order>; ...": any branch's case
        first = rule_claims(branches[0], with_instruction=True, bare=False)
        return _any_case(first, branches[1:], text) if first is not None else (None, False)
    listed = listed_claims(text)
    if listed is not None:
        return listed, False
    found = rule_claims(text, with_instruction=True, bare=False)
    if found is None:
        return None, False
    cases = _further_cases(text)
    if cases:
        return _any_case(found, cases, text)
    # Whole, the reading is what the rule's words say for sure, as a semantic rule's are (`confirmed`): "when Enterprise2 is
    # compromised" compiled as "Enterprise2 shows any compromise" does not fire on its row at Compromised Unknown.
    whole = complete_claims(text, found)
    return (confirmed(found), True) if whole else (found, False)


# One case and its order in a sentence of its own: "<situation> -> <order>" (an arrow, not a colon: a colon also opens a
# heading or a label).
_ARROW_CASE = re.compile(r"^\s*(?P<case>[^.;:>]{2,80}?)\s*(?:-+>|=>|\u2192)\s*(?P<order>\S.*)$")


def _further_cases(text: str) -> list[str]:
    """(r39g) The situations of the cases a text lists after its first, each "<situation> -> <order>" in a sentence of
    its own ("Op_Host2: probed -> a decoy on it. rooted -> Restore it."): the rule's condition is any of
    them, not the first alone (its claims held the rule to the first case, silent in the others)."""
    sentences = [s for s in re.split(r"(?<=[.;!?])\s+|\n+", text or "") if re.search(r"-+>|=>|\u2192", s)]
    later = [_ARROW_CASE.match(s) for s in sentences[1:]]
    # (r42h: not a case the note says it does not apply in, "a single box hit -> the note is silent there": its opposite)
    return [m["case"] for m in later if not NOT_APPLYING.search(m["order"])] if all(later) else []


def arrow_cases(text: str) -> list[str]:
    """(r51a) A text that lists its cases as "<situation> -> <order>", each in a sentence of its own ("scan on a user box
    -> Analyse; exploit on a user box -> Remove"), as one text per case: that case's sentence with the text's other words
    (a heading before the first case's situation, "Op_Host2: probed -> ...", said before each case; a sentence of no
    case, said with each). Each case pairs its own situation with its own order, as the rungs of a ladder do
    (`forbidding.first_rung`): a compiled predicate and action are held to one case, never to one case's situation with
    another's order. [] where the text lists fewer than two such cases (`_further_cases`)."""
    parts = [s for s in re.split(r"(?<=[.;!?])\s+|\n+", text or "") if s.strip()]
    at = [i for i, s in enumerate(parts) if re.search(r"-+>|=>|\u2192", s)]
    # (a case tried only when those before it fail, "2) otherwise, an exploit -> Remove", is a rung of a ladder: the
    # earlier cases' failing is part of it, and it is never read alone)
    if len(at) < 2 or not all(_ARROW_CASE.match(parts[i]) for i in at[1:]) \
            or any(_FALLBACK_OPENING.match(re.sub(r"^\s*(?:\(?\w{1,2}[).:]|[-*\u2022])\s*", "", parts[i])) for i in at[1:]) \
            or any(parts[i].rstrip().endswith("?") for i in at):
        # (r54d: nor where a case's order is asked, "User2 rooted -> Remove? No -> Restore User2": the question is the
        # text's own, its answer turns the move down (forms._answered_no_said), and held to the asked "case" alone, the
        # order of the move answered "no" passed)
        return []
    first = parts[at[0]]
    heading = first[:first.rfind(":", 0, re.search(r"-+>|=>|\u2192", first).start()) + 1].strip()
    return [" ".join(p if j != i or j == at[0] or not heading else f"{heading} {p}" for j, p in enumerate(parts)
                     if j not in at or j == i) for i in at]


# (r42m) A branch tried when the ones before it do not hold: "failing that, if ...", "if not, when ...", "otherwise, if ...".
_FALLBACK_OPENING = re.compile(r"^\s*(?:failing\s+that|if\s+(?:not|neither|none)|otherwise|else|if\s+that\s+fails)\s*,?\s*",
                               re.IGNORECASE)


def _fallback_branches(text: str) -> list[str]:
    """(r42m) A text of branches, each after a semicolon and opened by a fallback ("If Op_Server0 is compromised, restore
    it; failing that, if Enterprise2 is, remove it; if not, ..."): the first branch's words, then each later branch's
    condition (its fallback word aside; that earlier branches fail is no condition of the rule, which applies in them
    too). Read as one condition, the branches were all asked at once. [] where the text is no such list, or a branch
    states no condition of its own ("...; otherwise, decoy it": the rest of the cases, which no reading places)."""
    parts = [p for p in re.split(r"\s*;\s*", " ".join((text or "").split())) if p]
    if len(parts) < 2 or not all(_FALLBACK_OPENING.match(p) for p in parts[1:]):
        return []
    cases = []
    for part in parts[1:]:
        conditions = read_wording(_FALLBACK_OPENING.sub("", part, count=1)).conditions
        if not conditions:
            return []
        cases.append(" and ".join(c.text for c in conditions))
    return [parts[0], *cases]


# (r42m) A table of cases under a heading, one bulleted line each: "<heading>:" then "- <case> -> <move>" lines.
# What names the table in its heading, no condition: "decoy map, ...", "default decoy for ...", "move table: ...".
_TABLE_LABEL = re.compile(r"^\s*(?:(?:the|my|our)\s+)?(?:default\s+)?(?:decoys?|moves?|actions?|responses?|plays?)\s+"
                          r"(?:map|table|list|sheet|plan|for)\b\s*[,:]?\s*", re.IGNORECASE)


# (r45m) ... or after the scope, what the heading calls the list: "op boxes - our list", "Op_Host2, the drill", "user hosts
# (checklist)".
_LIST_LABEL = re.compile(r"\s*(?:[-,\u2013\u2014(]\s*)?(?:(?:my|our|the|a)\s+)?(?:(?:short|quick|usual|own)\s+)?(?:list|checklist|"
                         r"drill|notes?|cases|table|runbook|playbook|cheat\s*sheet)\s*\)?\s*$", re.IGNORECASE)


_LISTED_LINE = re.compile(r"^\s*[-*\u2022]\s+(?P<case>[^\n]{1,80}?)\s*(?:-+>|=>|\u2192)\s*\S")


def listed_claims(text: str):
    """(r42m) The claims of a note that lists its cases under a heading, one bulleted line each ("ent srvs:" / "- scan
    only -> DecoyApache it" / "- root -> Restore it"; "a probed host, nothing held on it:" / "- U1 -> DecoyTomcat"): any
    line's case, said with the heading (the scope or the state every line shares), read whole; None where the text is no
    such table or a line cannot be read whole. Flattened, its first line was its one condition, or none was read. A line
    after the table that is no case ("every other host: not covered here") says where the note does not apply."""
    from forge.rulebook.language.predicate import AnyOf  # lazy: as in `claims`

    table = _table_cases(text)
    if table is None:
        return None
    heading, cases = table
    found = []
    for case in cases:
        said = f"{named_in_full(case)}: {heading}" if hosts_in(case) else f"{heading}: {case}"
        claim = claims(said)
        if claim is None or not reads_whole(said, claim):
            return None
        found.append(claim)
    return AnyOf(tuple(found))


def _table_cases(text: str) -> Optional[tuple[str, list[str]]]:
    """(r45m) A note's table of cases under a heading (`listed_claims`): its heading, without what it calls the table, and
    the cases of its lines; None where the text is no such table."""
    lines = [line for line in (text or "").splitlines() if line.strip()]
    if len(lines) == 1:  # (flattened, its lines joined: "<heading>: - <case> -> <move> - <case> -> <move>")
        lines = [part if i == 0 else f"- {part}" for i, part in enumerate(re.split(r"(?<=:)\s+[-*\u2022]\s+|\s+[-*\u2022]\s+(?=[^-]{1,80}?(?:-+>|=>|\u2192))", lines[0]))]
    head = next((i for i, line in enumerate(lines) if _LISTED_LINE.match(line)), None)
    if not head or not lines[head - 1].rstrip().endswith(":"):
        return None
    heading = _TABLE_LABEL.sub("", _LIST_LABEL.sub("", " ".join(lines[:head]).rstrip().rstrip(":")))
    cases = []
    for line in lines[head:]:
        m = _LISTED_LINE.match(line)
        if m is None:
            break
        cases.append(m["case"])
    return (heading, cases) if len(cases) >= 2 else None


def _any_case(first, cases: list[str], text: str):
    """(r39g) The claims of a text that lists cases: any case's, read of the one host its words name (its heading's),
    never whole; (None, False) where a case cannot be read whole (nothing then holds the predicate to the words)."""
    from forge.rulebook.language.predicate import AnyOf  # lazy: as in `claims`

    named = hosts_in(text)
    subject = named[0] if len(set(named)) == 1 else None
    found = [first]
    for case in cases:
        said = claims(case, subject)
        if said is None or not reads_whole(case, said, subject=subject):
            return None, False
        found.append(said)
    return AnyOf(tuple(found)), False


@lru_cache(maxsize=8192)
def text_facts(text: str) -> frozenset[str]:
    """The kinds of fact (FACTS) a rule's own words speak of in its conditions and order (`spoken_facts`): a compiled
    predicate that states none of them (no history atom for history) leaves them unjudged. (r39g) Not the kinds only
    the words of what the step's analyses report speak of (a rating the step's analyses give the host): the gate
    judges that itself (judged.py), and read as an alert priority it held the rule silent where the rating was so."""
    return frozenset(kind for said, kinds in spoken_facts(read_wording(narrower_cases_away(text)))
                     for kind in kinds - (facts_needed(said) - facts_needed(evidence_away(said))))


def claims_decide(directive: str, semantic_reason: str = "") -> bool:
    """Whether a semantic rule is judged by its claims alone, whatever its cosine: its predicate was refused, or its
    claims read the whole of its condition."""
    # (r43m: or a condition that is what the evidence shows, with what is left of it read whole, `evidence_rest`: judged.py
    # judges the evidence and the claims the rest, so the cosine adds nothing; left to it, a note in shorthand was silent)
    return refused_predicate(semantic_reason) or complete_claims(directive, _rule_claims_kept(directive)) \
        or evidence_rest(directive) is not None


def words_key(text: str) -> tuple:
    """What two wordings of one rule share (curation.py: a withdrawn rule taught again in other words): the hosts
    and classes named, the verbs with whether each is forbidden, what its condition and the objects of its order
    claim, and the kinds of fact it needs. Equal keys: the same rule."""
    words = read_wording(text)
    banned = {p.verb or "any" for p in words.prohibitions} | set(words.dispreferred)

    def kind(verb: str) -> str:  # "put a decoy" and "deploy DecoyApache" are one move
        return "Decoy" if verb.startswith("Decoy") else verb
    # (r49h: not a move only said to fall short, "..., a Restore can't keep pace": a reason, which one wording keeps in its
    # order's sentence and another drops with the sentence it stands in; counted, the two were other rules)
    spoken = set(verbs_in(falls_short_away(words.instruction)))
    verbs = frozenset((kind(v), v in banned) for v in words.verbs if v in spoken) | frozenset(("any", True) for p in words.prohibitions
                                                                                               if p.verb is None)
    found = rule_claims(text, with_instruction=True, bare=False)
    return (frozenset(words.hosts), frozenset(words.classes), verbs, None if found is None else repr(found),
            facts_needed(condition_of(text)))


def ordered_key(text: str) -> Optional[tuple]:
    """(r34h) `words_key` with only the verbs its order names outside its conditions: a verb named in a condition ("still
    compromised after we removed it", "still owned after an Analyse of it") is read in its claims (what the defender did),
    so two wordings that put it inside or outside the order's sentence are one rule. None where the claims read nothing
    (the condition's verb is then all that tells two rules apart)."""
    key = words_key(text)
    if key[3] is None:
        return None
    words = read_wording(text)
    order = words.order
    ordered = {"Decoy" if v.startswith("Decoy") else v for v in verbs_in(order)} | {"any"}
    return key[0], key[1], frozenset(v for v in key[2] if v[0] in ordered), key[3], key[4]


def skeleton(text: str) -> tuple:
    """The marked part of `words_key`: hosts, classes and verbs (with whether each is forbidden)."""
    return words_key(text)[:3]


def same_condition(a: str, b: str) -> bool:
    """Whether two texts state one condition (the same hosts and classes, equal claims of their conditions, the
    same kinds of fact), whatever they order: a teacher's second word on the same situation."""
    first, second = read_wording(a), read_wording(b)
    claims_a, claims_b = rule_claims(a), rule_claims(b)
    return claims_a is not None and claims_a == claims_b and complete_claims(a, claims_a) and complete_claims(b, claims_b) \
        and set(first.hosts) == set(second.hosts) and set(first.classes) == set(second.classes) \
        and facts_needed(condition_of(a)) == facts_needed(condition_of(b))
