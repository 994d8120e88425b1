"""A rule taught as a chat log: the line the conversation settles on. Pure.

Teachers paste a conversation as it stood, one message a line, each with its time and its speaker:

    [09:14] ann: the decoy on that box never catches anything
    [09:15] ben: so what then
    [09:16] ann: ok, decided: whenever Enterprise1 is owned, plan a Restore of Enterprise1
    [09:17] ben: fine. who has the keys to the lab?

The rule is the message that settles it: the last one that orders a move of the catalog, without the talk before the
colon that only says it is settled ("ok, decided:"). The other messages are the story, a proposal turned down or
small talk: a host they name is no host of the rule, an "again" in them no history of its condition, a question
("so stop bothering with it?") no prohibition. Read whole, the log was one sentence of every speaker's words, the
times a situation ("[09"), and a compilation faithful to the settled line was refused for what the others said.
"""

from __future__ import annotations

import re

from forge.rulebook.language.wording import gives_order, hosts_in, verbs_in

# "[09:14] ann: ...", "09:14 ann: ...", "[09:14:02] <ann> ...": a time, then the speaker.
_MESSAGE = re.compile(r"^\s*(?:\[\s*\d{1,2}:\d{2}(?::\d{2})?\s*\]|\(\s*\d{1,2}:\d{2}(?::\d{2})?\s*\)|\d{1,2}:\d{2}(?::\d{2})?)\s*"
                      r"(?:<\s*[\w./@-]{1,30}\s*>|[\w./@-]{1,30}\s*:)\s*(?P<said>\S.*?)\s*$")
# The talk that opens the settling message before its colon: "fine. agreed then:", "not quite. settled:"
# (a colon between digits is a time, one before a bracket a smiley: neither opens anything).
_LEAD_COLON = re.compile(r":(?=\s)")


def settled_line(text: str) -> str:
    """A chat log's rule: the last message that orders a move (`verbs_in`, `gives_order`), without the talk before its
    colon (no move, and no host the rest does not name again); any other text as it stands. A log is two messages or
    more and nothing else, each line a time and a speaker."""
    lines = [line for line in (text or "").splitlines() if line.strip()]
    said = [_MESSAGE.match(line) for line in lines]
    if len(lines) < 2 or not all(said):
        return text
    ordering = [m["said"] for m in said if verbs_in(m["said"]) and gives_order(m["said"])]
    if not ordering:
        return text
    return _without_talk(ordering[-1])


def _without_talk(message: str) -> str:
    """The settling message from the colon after which its order starts: the lead before it names no move, and no host
    unless the order names one of its own ("we agreed only Enterprise2 counts: when Enterprise2 ...")."""
    for colon in _LEAD_COLON.finditer(message):
        lead, rest = message[:colon.start()], message[colon.end():].strip()
        if verbs_in(lead) or not verbs_in(rest):
            break
        if not hosts_in(lead) or hosts_in(rest):
            return rest
    return message
