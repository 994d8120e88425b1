"""What a condition's words say of the defender's history, as the history conditions of predicate.py. Pure.

claims.py reads what a condition claims of what the hosts show now; a clause about earlier steps ("clean at the
previous step", "compromised for three steps in a row", "still compromised after we removed it", "scanned before it
was exploited") is a claim on the context's history lines instead (`Recent steps:`, `Host history`), and the gate
judges it three-valued like any history atom: unknown, so silent, on a context without those lines. This module turns
such a clause into the atom's history keys, in the product's own vocabulary (the surrogate keeps its own):

- `newly_compromised: true`: newly / just / freshly compromised, for the first time, clean at the previous step (or a
  step ago), went from clean to ...; `false`: still compromised (not "after" an action), compromised since before (not
  "already compromised", which says it is compromised now);
- `unchanged_for: n`: a state held for n steps (in a row, running, straight; "a couple of" is 2);
- `acted: VERB` (`within` the last n steps, else `RECENT_STEPS`, the language's default: the last step): after we removed it,
  following a Restore, once it has been reimaged; with `changed: false` where the action did not change it ("still
  compromised after a Remove", "a Remove did not clear it");
- `scan_before_exploit: true`: scanned before (it was) exploited, scanned and then exploited.

Anything else about the past ("keeps coming back", "again", "the reward dropped") is history this reading cannot
place: `history_conditions` answers None, and a rule judged by its claims stays silent.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

from forge.rulebook.language.markers import MOVES_NOT_MADE, PLANNED, PLANNED_MADE
from forge.rulebook.language.names import verbs_in

RECENT_STEPS = 4  # "after a Remove" with no count: any step the context's history lines show (agent.history_steps)

_COUNT = {"one": 1, "a": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "a couple of": 2,
          "a few": 3, "several": 3}
_N = r"(?P<n>\d+|one|two|three|four|five|six|seven|eight|a\s+couple\s+of|a\s+few|several)"
# (r40h: "held" as situation.py reads it, the attacker's hold on a host: "still held" was history left unplaced)
_STATE = r"(?:compromis\w*|exploit\w*|breach\w*|infect\w*|hit|owned|pwned|popped|rooted|hacked|taken\s+over|held(?!\s+(?:back|off|up|for|until|steady)\b))"
# (r52a) a level said as a place, "still at root", "stays at user level", where _UNCHANGED_AFTER reads a state: left out,
# "stay at root the very turn after our Restore" was no unchanged row, the rule holding for four steps whatever came between
_LEVEL_HELD = r"(?:at\s+(?:root|admin|user[\s-]+level|privileged|system)(?:[\s-]+level)?|privileged|under\s+(?:an?\s+)?exploit)"
_DONE = r"(?P<verb>remov\w*|restor\w*|re-?imag\w*|analy[sz]\w*|decoy\w*|clean\w*|evict\w*|kill\w*|kick\w*|wip\w*|rebuil\w*)"

def _any(*patterns: str) -> tuple[re.Pattern, ...]:
    """Alternatives kept apart (each names its own groups)."""
    return tuple(re.compile(p, re.IGNORECASE) for p in patterns)


_NEWLY = _any(
    rf"\b(?:newly|just|freshly)\s+(?:been\s+|got\s+|gotten\s+|become\s+|turned\s+)?{_STATE}", r"\bfor\s+the\s+first\s+time\b",
    r"\b(?:was|were)\s+(?:still\s+)?(?:clean|uncompromised|fine|untouched)\s+(?:at|in|on|during)\s+the\s+(?:previous|last|prior)\s+"
    r"(?:step|turn)\b",
    r"\b(?:was|were)\s+(?:still\s+)?(?:clean|uncompromised|fine|untouched)\s+(?:a|one)\s+(?:step|turn)\s+(?:ago|earlier|before)\b",
    r"\bwent\s+from\s+(?:clean|no|compromised\s+no|uncompromised)\s+to\b", rf"\bhas\s+just\s+(?:been\s+|become\s+|got\s+)?{_STATE}",
    # (r46m) a note's "clean previous step", "clean at the prior turn", with no "was": the same
    r"(?<!\bwas\s)(?<!\bwere\s)\b(?:clean|uncompromised|untouched)\s+(?:(?:at|in|on|during)\s+)?(?:the\s+)?(?:previous|prev|prior|last)\s+(?:step|turn)\b")
# ("is already compromised" says it is compromised by now, as people write it, not since the step before: "still" does)
_SINCE_BEFORE = _any(
    rf"\bstill\s+(?:been\s+)?{_STATE}(?!\s+(?:\w+\s+){{0,2}}?(?:after|following|despite|in\s+spite))",
    # (r45m: "held since before the previous turn", "since before the prior step")
    rf"\b{_STATE}\s+since\s+(?:before(?:\s+the\s+(?:previous|last|prior)\s+(?:step|turn))?|the\s+(?:previous|last|prior)\s+(?:step|turn)|earlier)\b",
    rf"\b(?:was|were)\s+already\s+{_STATE}\s+(?:at|in|on)\s+the\s+(?:previous|last|prior)\s+step\b")
# (r48c) a count said as its least: "3+ steps", "three or more turns", "2 or longer turns" hold at least that long
_OR_MORE = r"(?:\+|\s+or\s+(?:more|longer))"
_AT_LEAST = _OR_MORE + "?"
_HELD = _any(
    # (r39m: "for at least 3 turns running": held that long, as "for 3 turns")
    rf"\b(?:for|over)\s+(?:the\s+)?(?:last\s+|past\s+)?(?:at\s+least\s+)?{_N}{_AT_LEAST}\s+(?:more\s+)?(?:consecutive\s+|straight\s+)?(?:steps|turns)"
    rf"(?:\s+(?:in\s+a\s+row|running|straight|on\s+end))?\b",
    # (r48c) "owned 3+ steps", "rooted three or more turns": the state word, then its least count, with no "for" (not
    # "owned 3 steps ago": a step of the past, no span)
    rf"\b{_STATE}\s+(?:at\s+least\s+)?{_N}{_OR_MORE}\s+(?:consecutive\s+)?(?:steps|turns)\b(?!\s+(?:ago|earlier|back|before)\b)",
    # ("3+ steps straight": at least three, held as long)
    rf"\b{_N}\+?\s+(?:steps|turns)\s+(?:in\s+a\s+row|running|straight|on\s+end)\b",
    # a note's "unchanged 4 steps", "same state 3 turns": the count said right after the word of holding, with no "for"
    rf"\b(?:unchanged|(?:the\s+)?same(?:\s+state)?)\s+{_N}\+?\s+(?:steps|turns)\b",
    # (r36m) the state now and at each recorded step before it: "User at present and at each of the past 4 steps" is
    # not read, but "Unknown now and in all of the previous 4 turns", "rooted now + on both of the prior 2 steps" are
    rf"\bnow\s+(?:and|\+|&)\s+(?:(?:also|still)\s+)?(?:at|in|on|for|during)\s+(?:all|both|each|every\s+one)\s+of\s+(?:the\s+)?"
    rf"(?:last|past|previous|prior)\s+{_N}\s+(?:(?:history|recorded)\s+)?(?:steps|turns)\b")
_HELD_WORDS = _any(r"\b(?:stay(?:s|ed)?|remain(?:s|ed)?|(?:has|have|had)\s+been|sat|sits?|stuck|unchanged|"
                   r"(?:has|have)(?:\s+not|n't)\s+changed|keeps?\s+showing|kept\s+showing|still|consecutive(?:ly)?)\b")
# (r39m) "for the next 4 turns after a Restore", "in the 2 steps following it": the window after the move
_WINDOW_AFTER = _any(rf"\b(?:for|in|during)\s+(?:the\s+)?(?:next\s+|first\s+)?{_N}\s+(?:steps|turns)\s+(?=after\b|following\b)")
_WINDOWS = (*_any(rf"\b(?:within|in)\s+(?:the\s+)?(?:last|past|previous)\s+{_N}\s+(?:steps|turns)\b",
                  rf"\bwithin\s+{_N}\s+(?:steps|turns)\b"), *_WINDOW_AFTER)
_WITHIN = (*_WINDOWS,
           # "just after a Restore of it": the step after the action, not any step the history shows
           # (r44x: "one step after", "a turn after" the move: the step after it as well)
           *_any(r"\b(?:right|just|immediately|directly|(?:one|a|a\s+single)\s+(?:step|turn))\s+(?:after|following)\b",
                 # (r46m) "the step after you removed it", a note's "step after u Remove E0": that one step (read as any
                 # step the history shows, the rule spoke for four steps); not "still owned the step after the Remove",
                 # where that step is when the failed move shows, and the rule holds while it stays so
                 r"(?:^|\b(?:the|that|this|on\s+the|in\s+the)\s+)(?:next\s+)?(?:step|turn)\s+(?:right\s+)?(?:after|following)\s+(?:we|you|u|i)\b",
                 # (r40m) "after just restored", "once it has just been removed": the step after it as well
                 r"\b(?:after|following|once|since)\s+(?:(?:it|we|you|i|they)\s+)?(?:(?:has|have|had|was|were)\s+)?just\b"))
# the action did change it: "turned Privileged right after we analysed it", "went to Unknown after the Remove" (r52a: not
# the noun "turn" after a word that counts or points at it, "the very turn after", "a single turn after": a time)
_CHANGED_AFTER = _any(r"\b(?<!\bthe\s)(?<!\bthat\s)(?<!\bthis\s)(?<!\bnext\s)(?<!\bvery\s)(?<!\bone\s)(?<!\ba\s)(?<!\bsingle\s)(?<!^)(?:turn(?:s|ed)?|became|becomes|went|goes|flipped|changed|jumped|escalated)\s+(?:to\s+)?(?:\w+\s+){0,2}?"
                      r"(?:(?:right|just|immediately|directly)\s+)?(?:after|following)\b")
_ACTED_SUBJECT = r"(?:(?:we|you|u|i|the\s+defender)\s+)?(?:(?:have|had|has|just|already)\s+)*"
_ITS = r"(?:a|an|the|our|my|one|your|its|their|that|this)\s+(?:own\s+)?"
_ACTED = _any(
    # (r44x: "after its Restore", "following that Remove": the host's own move; unread, the state stood alone)
    # (r49h: or the move it planned, "after I chose a Decoy for it", "once we picked a Restore": the move made)
    # (r49a: after "once" / "since", a plan said in the past only, PLANNED_MADE: "once you choose a Remove" is the choice)
    rf"\b(?:(?:after|following)\s+{_ACTED_SUBJECT}(?:{PLANNED}|{_ITS})?|(?:since|once)\s+{_ACTED_SUBJECT}(?:{PLANNED_MADE}|{_ITS})?)"
    rf"(?:been\s+)?{_DONE}",
    rf"\b(?:we|you|i|the\s+defender)\s+(?:have\s+|had\s+|just\s+|already\s+)*{_DONE}(?:(?<=ed)|(?<=lt))\b",  # past: "we removed it"
    rf"\b(?:it|that\s+host|the\s+host)\s+(?:was|has\s+been|had\s+been)\s+(?:just\s+|already\s+)?{_DONE}",
    # a note's bare participle with its time: "U2 removed within the last 2 steps", "User1 restored in the past 3 turns"
    rf"\b{_DONE}(?<=ed)(?=\s+(?:within\b|in\s+the\s+(?:last|past|previous)\b))")
# the action did not change it: "still compromised after a Remove", "a Remove did not clear it", "despite a Restore"
_UNCHANGED_AFTER = _any(
    # (r40h: "stays owned just after the Restore": the step after the move, as "just after" is in _WITHIN; the
    # state and the unchanged row were lost, and the rule fired wherever the move was made, the host clean or not shown)
    # (r52h: "still hit a single step after the Remove", "stays held a turn after the Restore": the step after the move, as
    # _WITHIN reads it; read as no unchanged row, the rule held wherever the move was made, the host gone to Unknown too;
    # r52a: "still rooted the step after the Restore" too, read as a window of four steps and no state at all)
    # (the state stays in the clause, `keep`, for the reading of its state: taken out with the history, "still
    # Privileged right after I analysed it" asked any compromise, and the level the text says was left unread)
    rf"\b(?:still|remains?|remained|stays?|stayed)\s+(?P<keep>{_STATE}|{_LEVEL_HELD})\s+(?:even\s+)?(?:(?:right|just|immediately|directly|"
    rf"(?:one|a|a\s+single|the|the\s+very)\s+(?:step|turn))\s+)?"
    rf"(?:after|following|despite|in\s+spite\s+of)\s+"
    rf"(?:(?:we|you|i)\s+)?(?:(?:a|an|the|our|my|your)\s+)?{_DONE}",
    rf"\b{_DONE}\s+(?:did\s+not|didn't|does\s+not|doesn't|failed\s+to|could\s+not|couldn't|won't|did\s+nothing\s+to)\s+"
    # (r44x: "did not take", "didn't hold": the same as "did not work"; "had no effect", "did nothing", "came to nothing")
    rf"(?:clear|fix|clean|help|work|stick|take|hold|change|evict|remove|get\s+rid)",
    rf"\b{_DONE}\s+(?:had\s+no\s+effect|did\s+nothing|came\s+to\s+nothing|changed\s+nothing)\b",
    rf"\bdespite\s+(?:a|an|the|our|my)?\s*{_DONE}")
# ("scanned before it was exploited": the exploit, said in the past, is the history's too, not the row's now)
_SCAN_FIRST = _any(r"\bscanned\s+(?:first\s+)?(?:before|and\s+then|then)(?:\s+(?:it|that\s+host|the\s+host)\s+(?:was|got)\s+exploit\w*)?\b",
                   # "the attacker scanned a host before exploiting it", "scanned User2 and then exploited it"
                   r"\bscanned\s+(?P<keep>(?:(?:a|an|the|that|this|any)\s+)?(?:\w+\s+)?(?:host|machine|box|server|it|\w+\d))\s+"
                   r"(?:first\s+)?(?:before|and\s+then|then)\s+(?:\w+\s+){0,2}?exploit\w*",
                   r"\b(?:showed|shows|showing)\s+(?:a\s+)?scan\s+(?:before|and\s+then|then)\s+(?:it\s+)?(?:showed|shows|showing|was|got)?\s*"
                   r"(?:an?\s+)?exploit\w*", r"\bscan(?:ned)?\s+(?:and\s+)?then\s+exploit\w*",
                   r"\bafter\s+(?:a\s+|being\s+)?scan(?:ned)?\b.*\bexploit\w*", r"\bprobed\s+(?:first|before)\b")
# (r39m) A move the defender has NOT made lately (markers.MOVES_NOT_MADE): the `not` of an `acted` history.
_DENIED_MOVE = MOVES_NOT_MADE


@dataclass(frozen=True)
class DeniedMove:
    """A move not made on a host lately: its verb (the catalogue's), what it was said of ("it", a host's name) and the
    window in steps."""
    verb: str
    who: str
    within: int


def denied_moves(clause: str) -> list[DeniedMove]:
    """The moves a clause says were not made lately (`_DENIED_MOVE`); a verb the catalogue cannot name is left out."""
    found = []
    for pattern in _DENIED_MOVE:
        for m in pattern.finditer(clause):
            verb = "any" if m["verb"].lower() in ("action", "move") else next(iter(verbs_in(m["verb"])), None)
            if verb is not None:  # (r40m: "Decoy" too, any decoy: claims._denied_move_parts denies each)
                found.append(DeniedMove(verb, m["who"], min(_count(m), 30)))
    return found


def without_denied_moves(clause: str) -> str:
    """The clause with the phrases `denied_moves` reads taken out."""
    for pattern in _DENIED_MOVE:
        clause = pattern.sub(" ", clause)
    return clause


# (r39m: a window after a move first, "for the next 4 turns", before the "after you ..." that follows it is taken out)
# (r44x: "one step after its Restore": the step before the "after" it is counted from, read by _WITHIN, taken out too)
_STEP_AFTER = _any(r"\b(?:one|a|a\s+single)\s+(?:step|turn)\s+(?=(?:after|following)\b)",
                   # (r46m) "the step after ...", a note's "step after ..."
                   r"(?:^|\b(?:the|that|this|on\s+the|in\s+the)\s+)(?:next\s+)?(?:step|turn)\s+(?=(?:right\s+)?(?:after|following)\s+(?:we|you|u|i)\b)")
_PATTERNS = (*_DENIED_MOVE, *_WINDOW_AFTER, *_STEP_AFTER, *_UNCHANGED_AFTER, *_ACTED, *_NEWLY, *_SINCE_BEFORE, *_HELD, *_HELD_WORDS, *_WITHIN,
             *_SCAN_FIRST)


def _search(patterns: tuple[re.Pattern, ...], text: str) -> Optional[re.Match]:
    return next((m for p in patterns if (m := p.search(text))), None)


def _count(found: re.Match) -> int:
    word = " ".join(found["n"].lower().split())
    return int(word) if word.isdigit() else _COUNT[word]


def _windowless(clause: str) -> str:
    """(r39m) The clause without its window of steps ("within 2 turns after ...": its "turns after" is no change)."""
    for pattern in _WINDOWS:
        clause = pattern.sub(" ", clause)
    return clause


def history_conditions(clause: str) -> Optional[dict]:
    """The history conditions one clause states, as predicate keys (`{}`: none), or None where it speaks of
    history this reading cannot place. `remaining` words are checked by the caller (general_claims.py)."""
    out: dict = {}
    if _search(_SCAN_FIRST, clause):
        out["scan_before_exploit"] = True
    unchanged = _search(_UNCHANGED_AFTER, clause)
    acted = unchanged or _search(_ACTED, clause)
    if acted is not None:
        verb = next(iter(verbs_in(acted["verb"] or "")), None)
        if verb is None or verb == "Decoy":
            return None  # a verb the product cannot name ("after we cleaned it", "after a decoy")
        out["acted"] = verb
        within = _search(_WITHIN, clause)
        out["within"] = (min(_count(within), 30) if "n" in within.re.groupindex else 1) if within else RECENT_STEPS
        if unchanged is not None:
            out["changed"] = False
        elif _search(_CHANGED_AFTER, _windowless(clause)):
            out["changed"] = True
    if _search(_NEWLY, clause):
        out["newly_compromised"] = True
    elif _search(_SINCE_BEFORE, clause) and "acted" not in out:
        out["newly_compromised"] = False
    held = _search(_HELD, clause)
    if held is not None and "acted" not in out:
        out["unchanged_for"] = min(_count(held), 30)
    return out


def without_history(clause: str) -> str:
    """The clause with the words `history_conditions` read taken out (what is left must be read as a state, or is
    history it could not place)."""
    for pattern in _PATTERNS:  # (the host a pattern names, `keep`, stays: what the history is said of)
        clause = pattern.sub(lambda m: f" {m['keep']} " if "keep" in pattern.groupindex else " ", clause)
    return clause



# (r37y, for the checks) The direction of a history a lesson speaks of, in looser words than the conditions above: the
# checks ask only which way a compiled history flag must point. A fresh compromise: "newly owned", "freshly hit", "has
# just been compromised", "clean one step earlier" / "clean at the prior step", "went from clean to ...", "a new box".
_FRESH_WORDS = re.compile(r"\b(?:newly|fresh(?:ly)?|brand[\s-]new|just\s+(?:been\s+)?(?:compromised|owned|hit|breached|exploited|"
                          r"taken|fallen|turned)|clean\s+(?:(?:at|on)\s+(?:the\s+)?)?(?:previous|prev|last|prior)\s+(?:step|turn)|"
                          r"clean\s+(?:the\s+step\s+before|a\s+step\s+ago)|(?:went|gone|goes)\s+from\s+clean|"
                          r"new\s+(?:host|box|one|machine|server|foothold))\b", re.IGNORECASE)
# One held for a while: "already owned", "compromised since before", "held for a while", "had been owned a long time".
_HELD_BEFORE_WORDS = re.compile(r"\b(?:already|since\s+(?:before|step)|for\s+(?:a\s+while|some\s+time|several\s+steps)|long\s+(?:since|been)|"
                                r"had\s+been|has\s+been\s+(?:held|owned|compromised)|older|earlier)\b", re.IGNORECASE)
# No change after a move: "still compromised after the Remove", "at the same level", "the Remove didn't take".
_UNCHANGED_WORDS = re.compile(r"\b(?:still|same\s+level|unchanged|didn['\u2019]?t\s+(?:take|work|stick)|did\s+nothing|"
                              r"(?:did|does)\s+not\s+(?:take|work|stick))\b", re.IGNORECASE)
# A change after a move: "turned Privileged", "flipped to", "went up to root".
_TURNED_WORDS = re.compile(r"\b(?:turned|turns|flipped|flips|jumped|escalated|went\s+(?:up\s+)?to|changed)\b", re.IGNORECASE)
# No scan first: "an exploit that came without a scan", "exploited with no scan ahead of it".
_UNSCANNED_WORDS = re.compile(r"\b(?:without|no|never)\s+(?:\w+\s+){0,2}scan\w*\b|\bnot\s+(?:been\s+)?scanned\b", re.IGNORECASE)

@dataclass(frozen=True)
class HistoryDirections:
    """Which way the history a text speaks of points, for the checks: a fresh compromise, one held since before, a host
    a move left unchanged or changed, an exploit with no scan first."""
    fresh: bool
    held: bool
    unchanged: bool
    turned: bool
    unscanned: bool


# (r40m) A change said in an exception or denied, "unless its row has changed", "if it has not changed": no change.
_CHANGE_DENIED_BEFORE = re.compile(r"\b(?:unless|until|except\s+(?:if|when|where)|not|never|no)\b[^.;,:]*$|n['\u2019]t\s+(?:\w+\s+)?$",
                                   re.IGNORECASE)


def _changes(text: str) -> tuple[bool, bool]:
    """(said changed, said unchanged by a change denied) of `text`'s change words (`_TURNED_WORDS`)."""
    denied = [bool(_CHANGE_DENIED_BEFORE.search(text[:m.start()])) for m in _TURNED_WORDS.finditer(text)]
    return False in denied, True in denied


def history_directions(text: str) -> HistoryDirections:
    turned, kept = _changes(text)
    return HistoryDirections(fresh=bool(_FRESH_WORDS.search(text)), held=bool(_HELD_BEFORE_WORDS.search(text)),
                             unchanged=bool(_UNCHANGED_WORDS.search(text)) or kept, turned=turned,
                             unscanned=bool(_UNSCANNED_WORDS.search(text)))


__all__ = ["RECENT_STEPS", "DeniedMove", "HistoryDirections", "denied_moves", "history_conditions", "history_directions",
           "without_denied_moves", "without_history"]
