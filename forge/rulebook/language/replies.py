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

from forge.rulebook.language.names import hosts_in, state_words_in, verbs_in

# The subject line, the quoted lines (each opened by ">"), then the answer's verdict at a line's or a sentence's start.
# (r59n, after r59h's reverted reader) Or, in place of the subject, who wrote the note: "Kim wrote:", "Quoting Kim:". And a verdict that turns the
# note down in one case only, "I don't agree for a rooted box:": what the answer orders is the rule in that case, the
# case the answer must state itself (`case`).
_REPLY = re.compile(r"^\s*(?:(?:re|fwd?)\s*:[^>\n]{0,80}?|(?:quoting\s+)?[\w'\u2019]+(?:\s+[\w'\u2019]+)?"
                    r"(?:\s+(?:wrote|writes|said|says|posted))?\s*:(?=\s*>))?\s*(?P<quoted>>.+?)(?:\n\s*|(?<=[.!?])\s+)"
                    r"(?P<verdict>(?:i\s+)?disagree(?:d)?|no|nope|not\s+agreed|rejected|(?:i\s+)?agree(?:d)?|yes|ok(?:ay)?|\+1|"
                    r"i\s+(?:don'?t|do\s+not)\s+agree(?P<case>\s+(?:for|with|on|about|in)\s+[^.,:;!?\n]{3,60})?)"
                    r"\s*(?P<close>[.,:;!]|(?=\s+but\b))\s*(?P<answer>.*)$", re.IGNORECASE | re.DOTALL)
_TURNED_DOWN = re.compile(r"(?:i\s+)?disagree|no|nope|not\s+agreed|rejected|i\s+(?:don'?t|do\s+not)\s+agree.*", re.IGNORECASE | re.DOTALL)
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
    if found["case"] and not state_words_in(answer):
        return text  # (turned down in a case the answer does not state: read alone, it held beyond that case)
    if _TURNED_DOWN.fullmatch(found["verdict"]):
        return _answer_in_its_case(answer, quoted) if verbs_in(answer) else text
    if not verbs_in(quoted):
        return text
    if not answer:
        return quoted
    # (what the answer adds: "but not User4: ..." leaves a host out of the note it agrees to, as a clause of it)
    # (r55b: and so does an answer that goes on in the verdict's sentence, "Ok, if User3 is not the only box rooted": a
    # condition of the note it agrees to; set off as a sentence of its own, "... rooted. if ...", it was read as no
    # condition of the rule, and the rule held without it)
    if re.match(r"but\b", answer, re.IGNORECASE) or (found["close"] == "," and answer[:1].islower()):
        return f"{quoted.rstrip(' .;')}, {answer}"
    return f"{quoted.rstrip(' .;')}. {answer}"


# (r55e) The quoted lines at a text's start (after a subject line, if any), then what follows them
_QUOTED_THEN = re.compile(r"^\s*(?:(?:re|fwd?)\s*:[^>\n]{0,80}?)?\s*(?P<quoted>(?:>[^\n]*(?:\n|$)\s*)+)(?P<after>.*)$",
                          re.IGNORECASE | re.DOTALL)


def proposal_unsettled(text: str) -> bool:
    """(r55e) Whether `text` is a quoted note with no verdict under it: nothing, or only a question ("> Restore User2 once
    it is rooted. / Agreed?"). A proposal asked about, or only quoted, is not agreed: read as written, the note's order was
    the rule's."""
    found = _QUOTED_THEN.match(text or "")
    if found is None or not verbs_in(found["quoted"]) or _REPLY.match(text or ""):
        return False
    after = found["after"].strip()
    return not after or all(s.strip().endswith("?") for s in re.split(r"(?<=[.!?])\s+", after) if s.strip()) \
        and not verbs_in(after)


# (r55b) A condition clause of the quoted note ("when it is scanned"), and the words of one in the answer
_CONDITION = re.compile(r"\b(?:when|whenever|if|once|while|as\s+soon\s+as|after|unless|until|as\s+long\s+as)\b[^.;:!?,]*", re.IGNORECASE)


def _answer_in_its_case(answer: str, quoted: str) -> str:
    """(r55b) A turned-down note's answer read in the case the note was for: "> Put a decoy on User2 when it is scanned. / Nope,
    Analyse User2": the answer's move when User2 is scanned, not in every state of User2 (read alone, its order held
    wherever User2 was shown). An answer that states a condition of its own is read as written; where the note's condition
    cannot be said of one host, the reply is left as written."""
    said = answer[:1].upper() + answer[1:]
    case = _CONDITION.search(quoted)
    if case is None or _CONDITION.search(answer) or state_words_in(answer):
        return said
    named = hosts_in(quoted)
    # (nor where the note's condition names a move, "if it is rooted or was Restored": the note turned down says it)
    if len(named) != 1 or verbs_in(case.group(0)):
        return f"> {quoted} {said}"
    condition = re.sub(r"\bit\b", named[0], case.group(0).strip())
    return f"{said.rstrip(' .;!')}, {condition}."
