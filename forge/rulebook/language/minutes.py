"""A meeting's minutes read as what they settled (`minutes_said`): "Minutes: - AGREED: ... - PARKED: ... - REJECTED: ...". Pure.

A team may hand its rule over as the minutes of the meeting that settled it: a heading ("Minutes of the sync:", "Ops
review minutes:"), then items, each labelled with what became of it: agreed (decided, approved, accepted), turned down
(rejected, declined, dropped), or left for later (parked, deferred, tabled, pending, open, to be decided). Only an
agreed item is the team's rule. An item turned down or left for later orders nothing and says no condition: read as
part of the rule, its hosts ("whose job the Defender is") and moves ("removing every op host too") were taken for the
rule's, its words were left unplaced, and the rule whose agreed item said a plain condition stayed silent where it held.

The rewrite keeps the agreed items alone, each a sentence of its own, the heading and the other items left out. A text
with no agreed item, or with fewer than two labelled items, is left as written. It only leaves out: the agreed items'
words stand as they were written, so the rule they make is no wider than they are.
"""

from __future__ import annotations

import re

from forge.rulebook.language.names import verbs_in

# An item's label, at the text's start, a line's start or after a list mark (a dash, a star, a bullet: the minutes'
# lines joined into one), then its colon: "AGREED:", "- PARKED:", "* AGREED (was parked):", "TBD:".
_SETTLED = r"agreed|decided|resolved|approved|accepted|adopted"
# (r55b: and an agreement denied in the label itself, "Not agreed:", "Agreed by nobody:", "No agreement:": no item agreed;
# unread as a label, its item ran on into the agreed item before it, and its move was taken for the agreed one's)
_NOT_SETTLED = r"rejected|declined|dropped|vetoed|parked|deferred|tabled|pending|open|undecided|tbd|to\s+be\s+decided|" \
    r"(?:not|never)\s+(?:agreed|decided|resolved|approved|accepted|adopted)|no\s+(?:agreement|decision|consensus)|disagreed|" \
    r"(?:agreed|decided|approved|accepted)\s+by\s+no(?:body|\s+one|ne)"
# (r55b: and a label after a sentence's stop or the heading's colon, the minutes' items written on one line: "Minutes:
# REJECTED: ... AGREED: ..."; unread there, the items stood as one rule, and the move turned down was compiled as the order)
_ITEM = re.compile(r"(?:^|(?<=\n)|(?<=\s)(?=[-*\u2022]\s)|(?<=[.;:]\s))\s*(?:[-*\u2022]\s*)?"
                   rf"(?P<label>{_SETTLED}|{_NOT_SETTLED})\b(?:\s*\([^)\n]{{0,40}}\))?\s*:\s*", re.IGNORECASE)

ITEM_LABEL = _ITEM  # (r55b) what marks a text as minutes, for the checks (authoring/checks.py, _minutes_unagreed)


def agreed_items(text: str) -> tuple[str, ...]:
    """The items `text`'s minutes agreed, each as its own sentence (see the module docstring); none where `text` is no
    such minutes (fewer than two labelled items, or none agreed). Curation reads each as an order of its own, so an
    agreed item withdrawn and taught again in other words is found."""
    items = list(_ITEM.finditer(text or ""))
    if len(items) < 2 or not any(re.fullmatch(_SETTLED, m["label"], re.IGNORECASE) for m in items):
        return ()
    agreed = []
    for found, after in zip(items, items[1:] + [None]):
        said = text[found.end():after.start() if after is not None else len(text)].strip().rstrip(".;")
        if re.fullmatch(_SETTLED, found["label"], re.IGNORECASE) and said:
            agreed.append(said[:1].upper() + said[1:] + ".")
    return tuple(agreed)


def agrees_nothing(text: str) -> bool:
    """(r55b) Whether `text` is minutes (two labelled items or more) none of whose agreed items orders a move: every item
    that names one was turned down or left for later ("- PARKED: Restore User3 once it is rooted. - REJECTED: ..."), or
    what was agreed names no move ("AGREED: nothing on Op_Server0 yet"). Such minutes order nothing: read as the text they
    are written in, or as an agreed item with no move of its own, the item parked was the order the rule gave."""
    items = list(_ITEM.finditer(text or ""))
    return len(items) >= 2 and not any(verbs_in(item) for item in agreed_items(text))


def minutes_said(text: str) -> str:
    """`text` as the items its minutes agreed, each a sentence (`agreed_items`); `text` itself where it is no such
    minutes."""
    return " ".join(agreed_items(text)) or text


# (r58h) A request handed over with what became of it: a change request, a ticket, a proposal, then a line that gives its
# status or the decision on it ("Status: rejected", "Decision: declined (...)", "Resolution: won't fix"). Turned down, the
# request orders nothing: read as written, its move was compiled as the team's order, the opposite of the decision. (A
# text that also says what was accepted instead is left to the readers of that order; so is a request still open.)
_DECISION_LINE = re.compile(r"(?:^|\n|(?<=[.;]\s))\s*(?:[-*\u2022]\s*)?(?:status|decision|resolution|outcome|verdict|review)\s*[:=-]\s*"
                            r"(?P<value>rejected|declined|denied|refused|vetoed|turned\s+down|not\s+(?:approved|accepted|agreed)|"
                            r"won['\u2019]?t\s+(?:fix|do)|will\s+not\s+(?:fix|do)|closed\s*[-(,:]?\s*(?:as\s+)?(?:rejected|won['\u2019]?t\s+(?:fix|do)))\b",
                            re.IGNORECASE)
_REQUEST_WORD = re.compile(r"\b(?:change\s+request|request|ticket|proposal|proposed|suggestion|rfc|cr-?\d+)\b", re.IGNORECASE)
_ACCEPTED_INSTEAD = re.compile(r"\b(?:accepted|approved|agreed|adopted|decided)\s*(?:instead|rather)?\s*:|"
                               r"\binstead\s*[:,]|\b(?:status|decision|resolution|outcome)\s*[:=-]\s*(?:accepted|approved|agreed|adopted|done|merged)\b",
                               re.IGNORECASE)


# (r58q) A proposal told in prose ("someone proposed ...", "it was argued that ...", "a colleague suggested ...") whose
# last clause turns it down ("we rejected that", "nobody agreed", "it was voted down"), nothing ordered after the verdict:
# read as written, the proposal's move was stored as an order, the opposite of the decision.
_PROPOSED_IN_PROSE = re.compile(r"\b(?:proposed|suggested|argued|floated|pitched|put\s+forward|recommended|(?:the|an?)\s+idea\s+of)\b",
                                re.IGNORECASE)
_VERDICT_LAST = re.compile(r"(?:^|[.;,!]\s*|\s(?:but|and)\s+)(?:(?:we|they|i|everyone|the\s+(?:team|lead|group|room))\s+)?"
                           r"(?:(?:it|that|this|the\s+(?:idea|proposal|suggestion))\s+)?(?:was\s+|got\s+|has\s+been\s+)?"
                           r"(?:rejected|declined|vetoed|overruled|voted\s+down|shot\s+down|turned\s+down|"
                           r"turned\s+(?:it|that|this)\s+down|shot\s+(?:it|that|this)\s+down|"
                           r"(?:nobody|no\s+one|none\s+of\s+us)\s+(?:agreed|went\s+along|bought\s+it))"
                           r"(?:\s+(?:it|that|this|the\s+(?:idea|proposal|suggestion)))?(?:\s+(?:at\s+once|outright|flat(?:ly)?|unanimously))?"
                           r"\s*[.!]?\s*$", re.IGNORECASE)


# (r59l) A revert commit's message: its heading quotes the change it takes back, 'Revert "Never Restore User2"', and its
# body says so, "This reverts commit 1a2b3c4." Both withdraw that change, a withdrawal, never the order itself (read as
# written, the quoted order was the note's own, or "revert" a Restore). What the body orders after them is the note's.
_REVERT_HEADING = re.compile(r"^\s*(?:[-*\u2022]\s*)?revert(?:ed|ing)?\s*:?\s*[\"'\u201c\u2018`][^\n]*[\"'\u201d\u2019`]\s*(?=\n|$)",
                             re.IGNORECASE)
_REVERTS_SAID = re.compile(r"\bthis\s+(?:reverts|undoes|rolls\s+back)\s+(?:commit\s+|change\s+|pr\s+|merge\s+)?[^\s.:;,]+\s*[.:;,]?",
                           re.IGNORECASE)


_BODY_SENTENCE = re.compile(r"(?<=[.!?;:])\s+")


def revert_away(text: str) -> str:
    """`text` without a revert commit's heading and the body's "This reverts <commit>" (`_REVERT_HEADING`,
    `_REVERTS_SAID`); `text` itself where it is no revert. (r59d) Where no sentence of the body names a move but those of
    the change taken back, nor those sentences: "Never Restore Op_Host1 was too strict", "the ban on Restoring it cost us"
    tell why it is taken back (read as the note's order, the withdrawn ban stood, the opposite of the revert). A body
    that orders another move keeps them: they say what its "instead" replaces."""
    heading = _REVERT_HEADING.search(text or "")
    if not heading:
        return text
    # (the moves of what it quotes, never the "Revert" before it, which reads as a Restore)
    taken_back = set(verbs_in(re.sub(r"^\s*(?:[-*\u2022]\s*)?revert\w*", " ", heading.group(0), flags=re.IGNORECASE)))
    body = _REVERTS_SAID.sub(" ", _REVERT_HEADING.sub(" ", text, count=1)).strip()
    sentences = _BODY_SENTENCE.split(body)
    if any(verbs_in(s) and not set(verbs_in(s)) <= taken_back for s in sentences):
        return body
    return " ".join(s for s in sentences if not verbs_in(s)).strip()


def _reverts_only(text: str) -> bool:
    """(r59l) Whether `text` is a revert commit's message that orders no move of its own besides the change it takes back."""
    rest = revert_away(text or "")
    return rest != (text or "") and not verbs_in(rest)


def request_turned_down(text: str) -> bool:
    """(r58h) Whether `text` is a request whose status or decision line turns it down (`_DECISION_LINE`), with nothing
    accepted in its place (`_ACCEPTED_INSTEAD`): it orders nothing, and no condition of it is the rule's. (r58q: so is a
    proposal told in prose whose last clause turns it down, `_VERDICT_LAST`; r59l: and a revert commit's message,
    `_reverts_only`.)"""
    text = text or ""
    if _reverts_only(text):
        return True
    if _PROPOSED_IN_PROSE.search(text) and _VERDICT_LAST.search(text) and not _ACCEPTED_INSTEAD.search(text):
        return True
    return bool(_DECISION_LINE.search(text)) and bool(_REQUEST_WORD.search(text)) and not _ACCEPTED_INSTEAD.search(text)


# (r58h) A note that says of itself that it asks for nothing: "No action needed, just context.", "For information only.",
# "Nothing to do here, background for the planner." It orders no move: kept as a rule, its likeness to a context
# injected it as if it ordered one.
_ASKS_NOTHING = re.compile(r"\b(?:no|nothing)\s+(?:action|move|change|order|response)s?\s+(?:is\s+|are\s+)?(?:needed|required|necessary|"
                           r"asked|requested|expected|wanted)\b|\bno\s+(?:action|move)\s+to\s+take\b|\bnothing\s+to\s+do\s+(?:here|about\s+it)\b|"
                           r"\bjust\s+(?:context|background|so\s+you\s+know)\b|\b(?:for\s+(?:your\s+)?(?:info|information|awareness)|"
                           r"informational|background)\s+only\b", re.IGNORECASE)


def asks_nothing(text: str) -> bool:
    """(r58h) Whether `text` says it asks for no move (`_ASKS_NOTHING`) and names none of the defender's moves: a note of
    context, no rule to apply."""
    return bool(_ASKS_NOTHING.search(text or "")) and not verbs_in(text or "")
