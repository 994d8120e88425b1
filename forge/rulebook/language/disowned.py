"""Orders and bans the writer reports of another, or quotes, and turns down (r56e). Pure.

"never Restore it, says Dana; I say always Restore it", "Dana's team lives by the rule: Restore User0; I disagree",
'"Never Restore User2" is wrong: ...', "The old card said the rule: ...": the move after the attribution, or inside the
quotes, is the rule the writer rejects or reports as superseded, no rule of the text. Read as the text's own, a compiled
"never" (or "do") of it was the opposite of what the writer says.
"""

from __future__ import annotations

import re

from forge.rulebook.language.forbidding import forbids_verb
from forge.rulebook.language.names import verbs_in

# Who said it, before the words ("Dana says:", "Dana's team lives by the rule:", "the card said"), never the writer.
_SAID_BY_BEFORE = re.compile(r"(?<![\w'])(?!(?:i|we|you)\b)(?P<who>[\w']+)\s+(?:(?:still|always|once|all)\s+)?"
                             r"(?:says?|said|insists?(?:\s+on)?|insisted(?:\s+on)?|claims?|claimed|thinks?|thought|believes?|"
                             r"believed|lives?\s+by|lived\s+by|goes\s+by|went\s+by|swears?\s+by|swore\s+by|follows?|followed|"
                             r"preach(?:es|ed)|wrote|writes|told\s+(?:us|me))\b|"
                             # (r61l) or the writer told it by someone unnamed, "I was told to Remove User1", "we've been
                             # told to ...": the order is another's, reported (read as the writer's, the order they go on
                             # to disagree with was stored as theirs)
                             r"(?<![\w'])(?:i|we)\s+(?:was|were|(?:'ve|have|had)\s+been|got|get)\s+(?:(?:once|always|often)\s+)?told\b",
                             re.IGNORECASE)

# Who said it, after the words: "never Restore it, says Dana", "..., according to the old card".
_SAID_BY_AFTER = re.compile(r",\s*(?:(?:says?|said|insists?|insisted|claims?|claimed|writes|wrote)\s+(?!(?:i|we|me|us)\b)[\w']+|"
                            r"according\s+to\s+(?!(?:me|us)\b)[\w']+|per\s+(?!(?:me|us)\b)[\w']+|"
                            # (r58d) and the speaker before the verb, closing the clause: "Restore User1 at once, they say",
                            # "..., Dana thinks" (read as said before words that come after it, nothing was reported, and
                            # the order the writer calls wrong stood as the writer's)
                            r"(?!(?:i|we)\b)(?:[\w']+\s+){0,3}?(?<!\bi\s)(?<!\bwe\s)[\w']+\s+(?:(?:still|always|all)\s+)?(?:says?|said|claims?|claimed|thinks?|thought|"
                            r"insists?|insisted|believes?|believed|reckons?|reckoned)\s*[.!]?\s*$)", re.IGNORECASE)

# A source the writer calls superseded: "the old card", "the former runbook", "last year's playbook".
_OLD_SOURCE = re.compile(r"\b(?:old|older|former|previous|outdated|obsolete|retired|superseded|last\s+year's)\b", re.IGNORECASE)

# The writer turning down what was reported: "I disagree", "I say <something else>", "not me", "that's wrong".
_WRITER_REJECTS = re.compile(r"\b(?:i|we)\s+(?:(?:strongly|completely|respectfully|totally|still)\s+)?(?:disagree|object|reject\s+(?:it|that|this)|"
                             r"don'?t\s+(?:agree|buy\s+it|think\s+so)|say\s+(?!(?:the\s+same|so|too|likewise|yes|amen|ditto|agree)\b))|"
                             r"\bnot\s+me\b|\b(?:that|this|it)(?:'s|\s+is|\s+was)\s+(?:just\s+|plain\s+|simply\s+|dead\s+)?"
                             r"(?:wrong|mistaken|backwards|nonsense|a\s+mistake|outdated|bad\s+advice)\b|"
                             # (r58l) the reporters themselves called wrong, "people say ...; they are wrong", "folks claim
                             # ...; they're mistaken": read as no rebuttal, the claim reported was stored as the writer's ban
                             r"\b(?:they|those\s+(?:people|folks|guys))(?:'re|\s+are|\s+were)\s+(?:just\s+|plain\s+|simply\s+|dead\s+|all\s+|flat\s+)?"
                             r"(?:wrong|mistaken)\b", re.IGNORECASE)

# Quoted words and what follows them in their sentence: '"Never Restore User2" is wrong', "“Restore it” is a mistake".
_QUOTED = re.compile(r"[\"\u201c](?P<quoted>[^\"\u201c\u201d]{3,160})[\"\u201d](?P<after>[^.;!?]{0,60})")
_CALLED_WRONG = re.compile(r"^\s*(?:is|was|'s|sounds|seems|would\s+be)\s+(?:(?:just|plain|simply|dead|flat|completely|all)\s+)?"
                           r"(?:wrong|mistaken|backwards|nonsense|a\s+mistake|outdated|bad\s+advice|false|misguided|not\s+right|"
                           r"a\s+myth|rubbish)\b", re.IGNORECASE)

# (r61l) The writer denying that an order holds: "it's false that we should Restore User1", "it is not true that User3
# needs a Remove", "it isn't the case that ...". The clause after it (to its sentence's end, or a ", so" / ", but" that
# draws the writer's own order) is no rule of the text; read as the writer's, its order was stored as theirs.
_DENIED_THAT = re.compile(r"\b(?:it|that)(?:'s|\s+is|\s+was)(?:n't|\s+not)?\s+(?:(?:just|simply|plainly|flat|completely)\s+)?"
                          r"(?:(?<=not\s)(?:true|the\s+case|so)|(?<=n't\s)(?:true|the\s+case|so)|false|untrue|a\s+myth|"
                          r"(?:wrong|mistaken)\s+to\s+(?:say|claim|think))\s+that\b(?P<denied>[^.;:!?]*?)(?=,\s*(?:so|but|instead|rather)\b|[.;:!?]|$)",
                          re.IGNORECASE)


def _moves(words: str) -> set[tuple[str, str]]:
    """The moves some words say, each with whether they forbid it ("never") or order it ("do")."""
    # (r58l: or a judgement that puts the move down, "restoring it is never worth the step", "a Remove there is pointless",
    # as the wording reader reads a ban: `forbids_verb` alone read those as orders, and the claim rebutted stayed a ban)
    from forge.rulebook.language.wording import read_wording  # lazy: wording reads far more than this needs

    mode = "never" if forbids_verb(words) or read_wording(words).prohibitions or read_wording(words).dispreferred else "do"
    return {(mode, verb) for verb in verbs_in(words)}


def _disowned_spans(text: str) -> list[tuple[int, int]]:
    """Where `text` says what the writer reports of another and turns down, quotes and calls wrong, or denies."""
    spans = [m.span("denied") for m in _DENIED_THAT.finditer(text)]
    spans += [m.span("quoted") for m in _QUOTED.finditer(text) if _CALLED_WRONG.match(m["after"])]
    start = 0
    for clause in re.split(r"(?<=[.;!?])\s+|;\s*", text):
        start = text.find(clause, start)
        later = text[start + len(clause):]
        before, after = _SAID_BY_BEFORE.search(clause), _SAID_BY_AFTER.search(clause)
        if before is not None and after is not None and not re.search(r"\w", clause[before.end():]):
            before = None  # (r58d) "..., they say": the speaker closes the clause, the words are before it
        if before is not None and (_OLD_SOURCE.search(clause[:before.start("who") + len(before["who"] or "")])
                                   or _WRITER_REJECTS.search(clause[before.end():] + " " + later)):
            spans.append((start + before.end(), start + len(clause)))
        elif after is not None and _WRITER_REJECTS.search(clause[after.end():] + " " + later):
            spans.append((start, start + after.start()))
    return spans


def moves_disowned(text: str) -> frozenset[tuple[str, str]]:
    """The (mode, verb) pairs the writer reports of another (`_SAID_BY_BEFORE`, `_SAID_BY_AFTER`) and turns down after
    (`_WRITER_REJECTS`) or reports from a superseded source (`_OLD_SOURCE`), quotes and calls wrong (`_CALLED_WRONG`),
    or denies (`_DENIED_THAT`)."""
    text = text or ""
    return frozenset(move for a, b in _disowned_spans(text) for move in _moves(text[a:b]))


def only_disowned(text: str) -> bool:
    """(r61l) Whether every move the text names is one it disowns ("I was told to Remove User3; I disagree", "it is not
    true that User1 needs a Restore"): the writer orders nothing of their own. Kept semantic, such a note was injected
    where the order it turns down applied."""
    text = text or ""
    spans = _disowned_spans(text)
    if not spans:
        return False
    rest, end = [], 0
    for a, b in sorted(spans):
        rest.append(text[end:a])
        end = max(end, b)
    rest.append(text[end:])
    return not verbs_in(" ".join(rest))
