"""A reply under a quoted note read as what it settles (`reply_said`): "> Proposal: ... / Agreed, but not User4: ...". Pure.

A teacher may answer another's note the way mail does: the note quoted line by line after ">" (under a subject, "Re: ..."),
then the answer, which opens with its verdict. Turned down ("Disagree.", "No.", "Not agreed."), the quoted note is the
rule the answer rejects: the answer's own order is the rule. Agreed ("Agreed.", "Yes,", "+1"), the quoted note is the rule,
with what the answer adds to it ("Agreed, but not User4: ..." leaves a host out). Read as one text, the quoted note's
condition and move stood beside the answer's, its quote marks and verdict were words no reading placed, and the rule stayed
silent where it held.

Only a text that opens on its quoted lines (after a subject line, if any) and whose answer opens with a verdict of its
own, closed by a stop, a comma or a colon, is read so; any other text is left as written. It only chooses between the
note's own words and the answer's: what it keeps is no wider than they are.
"""

from __future__ import annotations

import re

from forge.rulebook.language.names import verbs_in

# The subject line, the quoted lines (each opened by ">"), then the answer's verdict at a line's or a sentence's start.
_REPLY = re.compile(r"^\s*(?:(?:re|fwd?)\s*:[^>\n]{0,80}?)?\s*(?P<quoted>>.+?)(?:\n\s*|(?<=[.!?])\s+)"
                    r"(?P<verdict>(?:i\s+)?disagree(?:d)?|no|nope|not\s+agreed|rejected|(?:i\s+)?agree(?:d)?|yes|ok(?:ay)?|\+1)"
                    r"\s*(?P<close>[.,:;!]|(?=\s+but\b))\s*(?P<answer>.*)$", re.IGNORECASE | re.DOTALL)
_TURNED_DOWN = re.compile(r"(?:i\s+)?disagree|no|nope|not\s+agreed|rejected", re.IGNORECASE)
# A label before the quoted note's words: "Proposal:", "Suggestion:", "Draft:"
_QUOTED_LABEL = re.compile(r"^\s*(?:proposal|proposed|suggestion|draft|idea|motion)\s*:\s*", re.IGNORECASE)


def reply_said(text: str) -> str:
    """`text` as the rule a reply under a quoted note settles (see the module docstring); `text` itself where it is no such
    reply, or where what it would keep gives no order."""
    found = _REPLY.match(text or "")
    if found is None:
        return text
    quoted = _QUOTED_LABEL.sub("", re.sub(r"(?:^|\n)\s*>\s?", " ", found["quoted"]).strip())
    quoted, answer = quoted[:1].upper() + quoted[1:], found["answer"].strip()
    if _TURNED_DOWN.fullmatch(found["verdict"]):
        return answer[:1].upper() + answer[1:] if verbs_in(answer) else text
    if not verbs_in(quoted):
        return text
    if not answer:
        return quoted
    # (what the answer adds: "but not User4: ..." leaves a host out of the note it agrees to, as a clause of it)
    if re.match(r"but\b", answer, re.IGNORECASE):
        return f"{quoted.rstrip(' .;')}, {answer}"
    return f"{quoted.rstrip(' .;')}. {answer}"
