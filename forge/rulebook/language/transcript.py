"""A rule pasted inside a record of what happened: a chat log (the line the conversation settles on), a post-mortem form
(its line labelled as the rule). Pure.

Teachers paste a conversation as it stood, one message a line, each with its time and its speaker:

    [09:14] ann: the decoy on that box never catches anything
    [09:15] ben: so what then
    [09:16] ann: ok, decided: whenever Enterprise1 gets owned, we reimage it with a Restore
    [09:17] ben: fine. who has the keys to the lab?

The rule is the message that settles it: the last one that orders a move of the catalog, without the talk before the
colon that only says it is settled ("ok, decided:"). The other messages are the story, a proposal turned down or
small talk: a host they name is no host of the rule, an "again" in them no history of its condition, a question
("so stop bothering with it?") no prohibition. Read whole, the log was one sentence of every speaker's words, the
times a situation ("[09"), and a compilation faithful to the settled line was refused for what the others said.

A post-mortem written as labelled lines, what the situation was, what was done, what happened, and the rule drawn:

    when: User4 showed an exploit
    what I did: analysed Enterprise1
    what happened: User4 was owned a step later
    rule: a user host under exploit -> Remove it the same step

is taught as its rule line: the others are its story (the "when:" line is the failure's situation, not the rule's).
"""

from __future__ import annotations

import re

from forge.rulebook.language.names import classes_in, hosts_in, verbs_in
from forge.rulebook.language.order import gives_order

# "[09:14] ann: ...", "09:14 ann: ...", "[09:14:02] <ann> ...": a time, then the speaker.
# (r56n: or the speaker first, then the time and a ">" before the message: "kim 16:05 > ...")
_MESSAGE = re.compile(r"^\s*(?:(?:\[\s*\d{1,2}:\d{2}(?::\d{2})?\s*\]|\(\s*\d{1,2}:\d{2}(?::\d{2})?\s*\)|\d{1,2}:\d{2}(?::\d{2})?)\s*"
                      r"(?:<\s*(?P<angled>[\w./@-]{1,30})\s*>|(?P<named>[\w./@-]{1,30})\s*:)|"
                      r"(?P<first>[\w./@-]{1,30})\s+\[?\d{1,2}:\d{2}(?::\d{2})?\]?\s*>)\s*(?P<said>\S.*?)\s*$")
# (r60l) A log pasted without its times, one message a line, "kim: ...", "[kim] ...", "<kim> ...": read whole, every
# speaker's words were one rule, and a move the conversation turned down passed for its order. Only where it is plainly
# a conversation (`_untimed_log`): three lines or more, two speakers or more, one of whom speaks again, each a bare name
# (no label of a rule's form, "when:", "do:", "why:", no role, "analyst:", no host, class or move).
_UNTIMED_MESSAGE = re.compile(r"^\s*(?:\[\s*(?P<first>[A-Za-z][A-Za-z.'-]{1,20})\s*\]|<\s*(?P<angled>[A-Za-z][A-Za-z.'-]{1,20})\s*>|"
                              r"(?P<named>[A-Za-z][A-Za-z.'-]{1,20})\s*:)\s*(?P<said>\S.*?)\s*$")
_NOT_A_SPEAKER = re.compile(r"^(?:when|whenever|if|then|do|does|action|actions|rule|rules|note|notes|nb|ps|lesson|situation|condition|"
                            r"case|cases|host|hosts|target|status|decision|resolution|outcome|verdict|review|analyst|planner|chooser|"
                            r"plan|edit|update|re|fwd|subject|q|a|answer|question|why|because|reason|context|example|eg|fix|"
                            r"result|step|steps|evidence|proposal|suggestion|draft|idea|agreed|rejected|parked|decided|todo|"
                            r"warning|caveat|scope|exception|exceptions|else|otherwise|never|always|also|today|now|later|"
                            r"first|second|third|finally|summary|tldr|update|prio|priority|who|what|where|how|trigger|move|"
                            r"order|orders|policy|default|override|reply|response|comment|comments|me|you|us|them|ok|yes|no|"
                            r"users?|usr|enterprises?|ent|ops?|operational|servers?|boxes|machines|network|subnet|defender|"
                            r"red|blue|attacker|team|all|everyone|everybody|others?)$",
                            re.IGNORECASE)


def _untimed_log(lines: list[str]) -> list:
    """(r60l) The messages of a log pasted without times (`_UNTIMED_MESSAGE`), or [] where the lines are no such log."""
    said = [_UNTIMED_MESSAGE.match(line) for line in lines]
    if len(lines) < 3 or not all(said):
        return []
    speakers = [_speaker(m) for m in said]
    if any(_NOT_A_SPEAKER.match(who) or hosts_in(who) or verbs_in(who) or classes_in(who) for who in speakers) \
            or len(set(speakers)) < 2 or len(set(speakers)) == len(speakers):
        return []
    return said


# The talk that opens the settling message before its colon: "fine. agreed then:", "not quite. settled:"
# (a colon between digits is a time, one before a bracket a smiley: neither opens anything).
_LEAD_COLON = re.compile(r":(?=\s)")


def pasted_rule(text: str) -> str:
    """The rule of a text pasted from a record: a chat log's settled line (`settled_line`), a post-mortem form's rule line
    (`rule_line`); any other text as it stands."""
    return rule_line(settled_line(text))


# A post-mortem form: every line "<label>: <value>", one labelled as the rule, one as what was done or came of it.
_FORM_LINE = re.compile(r"^\s*(?:[-*\u2022]\s*)?(?P<key>[a-z][a-z' ]{0,24}?)\s*:\s*(?P<value>\S.*?)\s*$", re.IGNORECASE)
_RULE_LABEL = re.compile(r"^(?:(?:the|my|our|new)\s+)?(?:rule|lesson(?:\s+learn[te]d)?|takeaway|take-away|fix|from\s+now\s+on|"
                         r"next\s+time|going\s+forward)$", re.IGNORECASE)
_STORY_LABEL = re.compile(r"^(?:what\s+(?:i|we)\s+did|what\s+(?:happened|went\s+wrong|followed)|(?:the\s+)?(?:outcome|result|"
                          r"consequence|mistake|error|impact|cost))$", re.IGNORECASE)


def rule_line(text: str) -> str:
    """A post-mortem form's rule: the value of its one line labelled as the rule (`_RULE_LABEL`), where another line tells
    what was done or what came of it (`_STORY_LABEL`); any other text as it stands (a form of a rule's own parts, "when:
    ... do: ...", is read as one by wording)."""
    lines = [line for line in (text or "").splitlines() if line.strip()]
    found = [_FORM_LINE.match(line) for line in lines]
    if len(lines) < 3 or not all(found):
        return text
    rules = [m["value"] for m in found if _RULE_LABEL.match(m["key"].strip())]
    if len(rules) != 1 or not any(_STORY_LABEL.match(m["key"].strip()) for m in found):
        return text
    return rules[0]


def _log(text: str) -> tuple[list, bool]:
    """The messages of a chat log (timed, `_MESSAGE`, or untimed, `_untimed_log`) and whether it is untimed; [] where the
    text is no log."""
    lines = [line for line in (text or "").splitlines() if line.strip()]
    said = [_MESSAGE.match(line) for line in lines]
    timeless = not all(said)
    if timeless:
        said = _untimed_log(lines)  # (r60l) the same log pasted without its times
    if len(lines) < 2 or not said or not all(said):
        return [], timeless
    return said, timeless


def _ordering(said: list) -> list:
    return [m for m in said if verbs_in(m["said"]) and gives_order(_REPLY_LEAD.sub("", m["said"]))]


def _left_open(said: list, ordering: list, timeless: bool) -> bool:
    """Whether the conversation leaves its last order open: a later message names a move and orders none (asked, doubted,
    turned down), turns it down ("I still disagree"), or doubts it, defers it or laughs it off ("hmm", "let's talk
    tomorrow", "lol no")."""
    later = said[said.index(ordering[-1]) + 1:]
    if timeless and [m for m in said if verbs_in(m["said"])][-1] is not ordering[-1]:
        return True  # (r60l) a later message names a move and orders none (asked, doubted, turned down): nothing settled
    if timeless and any(_TURNED_DOWN.match(m["said"]) for m in later):
        return True  # (r60l) "kim: I still disagree" after it: the conversation did not settle on it
    return any(_DOUBTED_OR_DEFERRED.search(m["said"]) for m in later)


def log_unsettled(text: str) -> bool:
    """(r61l) Whether the text is a chat log whose conversation never settles on an order (`_left_open`): read whole, it
    orders nothing and forbids nothing (a compiled "do" of one speaker's proposal was stored as the rule)."""
    said, timeless = _log(text)
    ordering = _ordering(said) if said else []
    return bool(ordering) and _left_open(said, ordering, timeless)


def settled_line(text: str) -> str:
    """A chat log's rule: the last message that orders a move (`verbs_in`, `gives_order`), without the talk before its
    colon (no move, and no host the rest does not name again); any other text as it stands. A log is two messages or
    more and nothing else, each line a time and a speaker."""
    said, timeless = _log(text)
    ordering = _ordering(said) if said else []
    if not ordering or _left_open(said, ordering, timeless):
        return text
    if any(_AMENDED.search(m["said"]) or (_CONDITION_ADDED.search(m["said"]) and not _ASSENT_LEAD.match(m["said"]))
           for m in said[said.index(ordering[-1]) + 1:]):
        return text  # (r60d) "lee: only if User1 is clean", "kim: hmm, are you sure?" after it: not settled as it stands
    if timeless and not hosts_in(ordering[-1]["said"]) and hosts_in(text):
        return text  # (r60l) "lee: nope, Restore it": its host is an earlier message's; read alone, the rule lost it
    return _edit_joined(ordering[-1], said) or _without_talk(_REPLY_LEAD.sub("", ordering[-1]["said"]))


# (r60d) A later message that narrows the settled one or doubts it, with no order of its own: a condition or an exception
# it adds ("lee: only if User1 is clean", "kim: but never when Op_Server0 is rooted"), a doubt or a pause ("hmm, are you
# sure?", "wait", "let me think": `_DOUBTED_OR_DEFERRED`). Read as settled on the message before it, the rule dropped the condition the log
# added (wider than the conversation) or took a proposal still in doubt for its order. Small talk after it ("who has
# the keys to the lab?") settles nothing else and leaves it. A condition said after an assent, "agreed, cheap until it
# spreads", is the settled rule's said again (`_CONDITION_ADDED` only where no assent opens the message).
_AMENDED = re.compile(r"\b(?:unless|only|except|but\s+(?:not|never|only)|never)\b", re.IGNORECASE)
# (r61l) ... of which a doubt, a pause, a deferral or a joke leaves the order open (not a condition added, which the
# compiler may read whole): "hmm", "not sure", "let's talk tomorrow", "let's pick it up later", "lol no", "haha, sure".
# Read as settled, a proposal the log laughed off or put off was stored as its order.
_DOUBTED_OR_DEFERRED = re.compile(r"\b(?:not\s+(?:sure|convinced|agreed|so\s+fast)|unsure|doubt\w*|(?:are|r)\s+(?:you|u)\s+sure|"
                                  r"hmm+|wait|hold\s+(?:on|off)|let\s+me\s+think|sleep\s+on\s+it|"
                                  r"(?:ask|check\s+with|run\s+(?:it|this|that)\s+(?:by|past))\s+(?:the\s+)?(?:lead|boss|manager|team|them)|"
                                  r"lol|lmao|rofl|haha\w*|heh|jk|just\s+kidding|kidding|"
                                  r"(?:let['\u2019]?s|we(?:['\u2019]ll|\s+will|\s+can)?)\s+(?:talk|discuss|decide|pick\s+(?:it|this|that)\s+up|"
                                  r"revisit|come\s+back\s+to|circle\s+back|chat|sync)\b[^.!?]*?\b(?:tomorrow|later|monday|next\s+\w+|another\s+time|after)|"
                                  r"(?:talk|discuss\s+(?:it|this|that))\s+(?:tomorrow|later)|park\s+(?:it|this|that)|table\s+(?:it|this|that))\b",
                                  re.IGNORECASE)
_CONDITION_ADDED = re.compile(r"\b(?:if|when|whenever|once|until|till)\b", re.IGNORECASE)
_ASSENT_LEAD = re.compile(r"^\W*(?:ok(?:ay)?|fine|fair(?:\s+enough)?|agreed|yes|yeah|yep|sure|deal|right|good|sounds\s+good)\b",
                          re.IGNORECASE)
# (r60l) A reply that turns the message before it down, with no order of its own: "no", "I still disagree", "not agreed"
_TURNED_DOWN = re.compile(r"^\W*(?:no\b(?!\s+(?:doubt|question)\b)|nope|nah|(?:i\s+)?(?:still\s+)?disagree|not\s+agreed|"
                          r"(?:i\s+)?(?:still\s+)?(?:don['\u2019]?t|do\s+not)\s+agree|wrong|rejected|veto)", re.IGNORECASE)
# (r60l) The verdict a message opens with on the one before it, "nope, Restore it", "fair, Restore it then", "disagree,
# ...": the reply's, not the order's (left on, the order was read as no order, or as negated, and an earlier message
# the reply turns down was taken for the settled one). Only closed by a comma or a stop: "no Restore on it" is a ban.
_REPLY_LEAD = re.compile(r"^\s*(?:(?:ok(?:ay)?|fine|fair(?:\s+enough)?|agreed|yes|yeah|yep|no(?:\s+way)?|nope|nah|(?:i\s+)?disagree[ds]?|right|"
                         r"sure|true|good\s+(?:point|call)|deal|hmm+|well)\s*[,.!;\u2013\u2014]+\s*)+", re.IGNORECASE)


# (r53h) A message its speaker edits, "[08:03] kim: edit: Remove, not Analyse": the edit amends the speaker's own
# earlier message, whose situation it does not say again ("[08:01] kim: E0 exploited -> Analyse E0"). The rule
# is that situation with the edit's order. Read alone, the edit lost the situation: the rule held wherever its host was
# shown (or anywhere), whatever state the earlier message asked.
# (r53m: and "erratum", "amended", "update", and a dash after the label, "EDIT - ...")
_EDIT_LABEL = re.compile(r"^\s*(?:edit(?:ed)?|correction|erratum|typo|fix(?:ed)?|amend(?:ed|ment)?|update)\s*(?::|-+|\u2013|\u2014)\s*"
                         r"(?P<rest>\S.*)$", re.IGNORECASE | re.DOTALL)


def _speaker(message: re.Match) -> str:
    """(r53d) The speaker a log line names after its time (`_MESSAGE`): searched for in the line, the first "<word>:" was
    the time's hour ("[08:03]"), and every message of that hour was one speaker's, another's edit joined to it."""
    return (message["angled"] or message["named"] or message["first"]).lower()


def _edit_joined(message: re.Match, log: list) -> str:
    """The edited rule of a log whose settling message is an edit (`_EDIT_LABEL`): the situation of the speaker's last
    earlier message that states one apart from its order, then "->", then the edit's words; "" where there is none."""
    from forge.rulebook.language.wording import read_wording  # lazy: wording reads what this module settles on

    edit = _EDIT_LABEL.match(message["said"])
    if edit is None:
        return ""
    edited = read_wording(edit["rest"])
    if (edited.situation or edited.conditions) and hosts_in(edit["rest"]):
        # (r53d) an edit that says its own case of a host it names ("edit: when E0 is rooted, Restore E0") replaces the
        # earlier one; a case said of no host ("edit: Restore, only at root") narrows the earlier message's
        return ""
    earlier = [m for m in log[:log.index(message)] if _speaker(m) == _speaker(message) and verbs_in(m["said"])]
    situation = read_wording(earlier[-1]["said"]).situation if earlier else ""
    return f"{situation} -> {edit['rest']}" if situation else ""



def _without_talk(message: str) -> str:
    """The settling message from the colon after which its order starts: the lead before it names no move, and no host
    unless the order names one of its own ("we settled it, User4 alone matters: once User4 ...")."""
    for colon in _LEAD_COLON.finditer(message):
        lead, rest = message[:colon.start()], message[colon.end():].strip()
        if verbs_in(lead) or not verbs_in(rest):
            break
        if not hosts_in(lead) or hosts_in(rest):
            return rest
    return message
