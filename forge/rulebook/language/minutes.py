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

# An item's label, at the text's start, a line's start or after a list mark (a dash, a star, a bullet: the minutes'
# lines joined into one), then its colon: "AGREED:", "- PARKED:", "* AGREED (was parked):", "TBD:".
_SETTLED = r"agreed|decided|resolved|approved|accepted|adopted"
_NOT_SETTLED = r"rejected|declined|dropped|vetoed|parked|deferred|tabled|pending|open|undecided|tbd|to\s+be\s+decided"
_ITEM = re.compile(r"(?:^|(?<=\n)|(?<=\s)(?=[-*\u2022]\s))\s*(?:[-*\u2022]\s*)?"
                   rf"(?P<label>{_SETTLED}|{_NOT_SETTLED})\b(?:\s*\([^)\n]{{0,40}}\))?\s*:\s*", re.IGNORECASE)


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


def minutes_said(text: str) -> str:
    """`text` as the items its minutes agreed, each a sentence (`agreed_items`); `text` itself where it is no such
    minutes."""
    return " ".join(agreed_items(text)) or text
