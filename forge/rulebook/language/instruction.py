"""A text's instruction (`instruction_of`): the text without its story, its justification and an explanation after its opening situation. Pure.

The *instruction*: the text without its story (a reflection's report of what happened, in the past, before it
gives an order), without its justification ("because ...", "so that ...", "lesson: ...", "; it is the attacker's
foothold") and without an explanation that follows an opening situation ("Enterprise2 showing an exploit: the
attacker is one hop from the op server. Remove ..."). A note that opens with its situation keeps that situation:
it is the condition. Headings, signatures, a teacher's view, another rule set aside and the lesson inside a part
are read here too.
"""

from __future__ import annotations

import re
from typing import Optional

from forge.rulebook.language.clauses import EXCEPTION_HEADING, RELATIVE
from forge.rulebook.language.episode import step_windows
from forge.rulebook.language.glossary import defines_word
from forge.rulebook.language.judged import evidence_tests
from forge.rulebook.language.forbidding import (EXCEPTED_HOST_LIST, EXCEPT_WORDS, MEANS_DISOWNED, NOT_WORTH, OTHERWISE, VERB_WORD,
                                                forbids_verb)
from forge.rulebook.language.markers import (CONDITION, CONDITION_MARKER, LEVEL_WORDS, clause_end, moves_not_made_away,
                                             negations_in, states_something)
from forge.rulebook.language.names import (HOST_NAME, HOST_SHORT, STATE_WORDS, VERB, VERB_FORMS, classes_in, hosts_in, verbs_in,
                                           without_host_names)
from forge.rulebook.language.order import (BUT_I_BELIEVE, EXPLANATION_LEAD, FIRST_PERSON, FROM_NOW_ON, HOST_AT_HAND,
                                           I_THINK_THAT, JUSTIFICATION, LEAD_WORD, OPENING, SENTENCE, STORY, SURE_THAT,
                                           TOLD_OF_IT, after_doubt, falls_short_scope, gives_order, opening_of,
                                           parts_of, without_justification)


EXCEPT = re.compile(r"\b(?:hosts?|box(?:es)?|machines?|servers?|workstations?|desktops?|laptops?|nodes?|systems?|subnet|"
                     r"network|everything|everywhere|all|ones)\b[^.;:]*?\b(?:" + EXCEPT_WORDS + r")\b\s+"
                     r"(?:(?:the|for)\s+)?(?P<what>[\w\s,]+?)(?=[.;:,)]|$|\s+(?:when|if|while|whenever|and\s+(?:restore|"
                     r"remove|analy)))", re.IGNORECASE)


# (r51h) A concession over the level of a state, said with the state: "whatever level Op_Host0 is taken at", "no matter
# which level User2 is owned at", "however deeply it is breached". It concedes the level, not the state: the host is
# held by the attacker, at some level (read as a concession of the whole, "whatever ...", the rule held with the host
# clean).
LEVEL_CONCEDED = re.compile(
    r"\b(?:(?:at\s+)?(?:whatever|whichever)|no\s+matter\s+(?:what|which|the)|regardless\s+of\s+(?:the|what|which))\s+"
    r"(?:level|degree|depth)\s+(?:of\s+compromise\s+)?(?P<subject>it|they|the\s+(?:host|box|server|machine)|"
    rf"{HOST_NAME}|{HOST_SHORT})\s+(?:is|are|'s|gets?|got|was|were|sits?)\s+(?:(?:compromised|owned|held|taken|breached|infected|"
    r"hit)\s+)?(?:at|to)?(?=\s*(?:[,.;:)]|$|\s+(?:and|but|so|then|my|our)\b))|"
    r"\bhowever\s+deep(?:ly)?\s+(?P<subject2>it|they|the\s+(?:host|box|server|machine)|" + HOST_NAME + r"|" + HOST_SHORT + r")\s+"
    r"(?:is|are|'s|gets?|got|was|were)\s+(?:compromised|owned|held|taken|breached|infected)\b|"
    # (r60h) the level said of the attacker's hold, "whichever level red holds there", "whatever access they have on User2":
    # the attacker holds the host, at some level (the place it holds, "there", "on it", is the sentence's host, "it")
    r"\b(?:(?:at\s+)?(?:whatever|whichever)|no\s+matter\s+(?:what|which)|regardless\s+of\s+(?:the|what|which))\s+"
    r"(?:level|degree|access)(?:\s+of\s+access)?\s+(?:red|they|the\s+(?:attacker|adversary|intruder|red\s+team))\s+"
    r"(?:holds?|has|have|gets?|got|reached|reaches|gained|gains?)(?:\s+(?:there|(?:on|in|over)\s+(?P<held>it|them|" + HOST_NAME + r"|"
    + HOST_SHORT + r")))?(?=\s*(?:[,.;:)]|$|\s+(?:and|but|so|then)\b))", re.IGNORECASE)


def level_conceded_said(text: str) -> str:
    """(r51h) `text` with a concession over the level of a compromise (`LEVEL_CONCEDED`) said as the condition it keeps,
    its host compromised, of any level (r60h: of the attacker's hold, the host it holds, else "it")."""
    return LEVEL_CONCEDED.sub(lambda m: f"when {m['subject'] or m['subject2'] or m['held'] or 'it'} is compromised at any level",
                              text or "")


_NOTHING_OF_IT = r"(?:no\s+(?:(?:a|an|the|further|more|other|second)\s+)?(?=" + VERB_WORD + r")|no\s+part\b|nothing\b|none\b)"


# An exception said on its own: "User0 is the exception", "this does not apply to User0", "except for User0" (a host
# right after it: "except when ..." is a condition), "leave User0 out of it", "exclude User0".
# (a host in a note's shorthand too: "not E0 though", "except U3 and U4", "OpS0 is the exception")
# (r54m) A host denied on its own inside a bracketed aside, at its start or after the aside's other words: "decoy the
# probed user boxes (not User2 though, it is a honeypot)", "(op hosts only, and never Op_Server0)", "(U1, U2, U3 - not
# U4)". With no state said of it, the aside leaves that host out of the hosts the rule is about, as "except User2" would
# (read as a negated condition, claims that left the host out were never the whole of it).
EXCEPTED_ASIDE = re.compile(rf"\((?:[^()]*?(?:,|:|;|\s-|\u2013|\u2014|\band\b)\s*)?(?:but\s+)?(?:not|never)\s+{EXCEPTED_HOST_LIST}"
                            rf"(?:\s+(?:though|tho|mind\s+you))?(?=\s*(?:[),;]|$))", re.IGNORECASE)


EXCEPTED_ALONE = tuple(re.compile(pattern, re.IGNORECASE) for pattern in (
    EXCEPTED_ASIDE.pattern,
    rf"\b(?:{EXCEPT_WORDS})\s+{EXCEPTED_HOST_LIST}\b",
    rf"{EXCEPTED_HOST_LIST}\s+(?:is|are)\s+(?:the\s+|an\s+|one\s+)?(?:(?:only|sole|one)\s+)?(?:exception|excluded|excepted|exempt)\b",
    # "(User0/User4 not covered by this.)", "Op_Host2 is out of scope here"
    rf"{EXCEPTED_HOST_LIST}\s+(?:(?:is|are)\s+)?(?:not\s+(?:covered|included|concerned|meant)|out\s+of\s+(?:scope|this))\b",
    rf"\b(?:this|that|it|the\s+(?:rule|above|same))(?:\s+(?:rule|order|lesson|advice|one))?\s+(?:does\s+not|doesn't|should\s+not|shouldn't|must\s+not|won't|"
    rf"will\s+not|cannot|can't)\s+(?:\w+\s+)?apply\s+to\s+{EXCEPTED_HOST_LIST}",
    # (r48h) a host said to get nothing from the rule itself: "User0 gets no Remove from this rule", "Op_Host1 receives
    # nothing from this lesson", "this note gives User0 no Restore" (as "this rule does not apply to User0"; read as a
    # prohibition alone, the rule was held to the class with User0 in it)
    # (r48a: what it gets none of is the rule's move, or nothing at all: "User0 gets no special treatment from this note"
    # says the note holds for it as for the rest)
    rf"{EXCEPTED_HOST_LIST}\s+(?:gets?|receives?|(?:is|are)\s+given)\s+{_NOTHING_OF_IT}[^.;:]{{0,40}}?\b(?:from|out\s+of|under)\s+"
    rf"(?:this|the\s+(?:above|same))\s+(?:note|rule|lesson|order|advice|tip|list)\b",
    rf"\b(?:this|the\s+(?:above|same))\s+(?:note|rule|lesson|order|advice|tip|list)\s+gives\s+{EXCEPTED_HOST_LIST}\s+{_NOTHING_OF_IT}",
    rf"\b(?:leave|leaving)\s+{EXCEPTED_HOST_LIST}\s+out\b",
    rf"\b(?:exclude|excluding|exempt)\s+{EXCEPTED_HOST_LIST}\b",
    rf"\bnot\s+(?:for|to)\s+{EXCEPTED_HOST_LIST}\b",
    # (r41h) "not on X" set off after an order on "it" or on a class, "decoy it (not on User0: ...)", "decoy the scanned
    # boxes, not on User0": the host the order leaves out (read as the condition's host, the rule held there alone). Not
    # after a named host: "decoy User2, not on User3" contrasts the order's target.
    rf"\b(?:it|them|there|hosts?|box(?:es)?|machines?|servers?|workstations?|desktops?|nodes?|ones)\s*"
    rf"(?:[(,\u2013\u2014]\s*|\s-\s*)(?:but\s+)?not\s+on\s+{EXCEPTED_HOST_LIST}\b",
    # "user boxes, not User3 though: ...": a class, then a host denied on its own after a comma
    # ("user hosts (not User3): ...": the same, in brackets)
    rf"\b(?:hosts?|box(?:es)?|machines?|servers?|srvs?|svrs?|workstations?|desktops?|nodes?|ones)\s*\(\s*(?:but\s+)?not\s+{EXCEPTED_HOST_LIST}\s*\)",
    rf"\b(?:hosts?|box(?:es)?|machines?|servers?|srvs?|svrs?|workstations?|desktops?|nodes?|ones)\s*,\s*(?:but\s+)?not\s+{EXCEPTED_HOST_LIST}"
    rf"(?:\s+(?:though|tho|mind\s+you))?(?=\s*(?:[:;,.)\u2013\u2014-]|$))",
    rf"\bunless\s+(?:it|that\s+(?:host|machine|box|one)|the\s+(?:host|machine|box))\s+is\s+{EXCEPTED_HOST_LIST}\b",
    # (r43h, r43m) "but" ("save", "bar") after a word of every host, "every user box but U3 that ...", "all of them but
    # User1", "all but E0": the host left out of the hosts the quantifier spans (left unread, "but" was no exception and
    # the rule fired on it alone)
    # (r51a: and the words of every host in one, "anything but User1", "everything save E0", "anywhere but U3")
    rf"\b(?:all|every|each|any|anything|everything|anywhere|everywhere|anyone|everyone|whatever)\b(?:\s+of\s+(?:them|those|these)|(?:\s+(?!(?:but|save|bar)\b)[\w-]+){{0,2}})\s*,?\s+(?:but|save|bar)\s+{EXCEPTED_HOST_LIST}"
    rf"(?=\s*(?:[.;:,)!]|$|\s+(?:that|which|who|where|when|if|while|whenever|once|unless|until|after|as|at|showing|reading|with)\b))",
    # (r32h; r32m read the same participle on its own, folded here) the host put aside after the order, "..., Enterprise0 excepted", "(User3 excluded)", "with Op_Host2 aside";
    # left unread, the host was read as a condition of the order (that it be compromised too)
    rf"(?:[,(\u2013\u2014]\s*|\s-\s*|\bwith\s+){EXCEPTED_HOST_LIST}\s+(?:excepted|excluded|exempted|aside|apart)\b",
    # (r38h, r38m) the same participle as a note's sentence of its own after the order, "... plan a Remove. Op server excluded."
    # (or a footnote's, "...a Restore.* * Op_Server0 excepted.", once footnotes_said has said it as a sentence, r41h, r41m)
    rf"(?:^|(?<=[.!?;]))\s*{EXCEPTED_HOST_LIST}\s+(?:excepted|excluded|exempted|exempt)\b(?=\s*(?:[.;!,()]|$))",
    # (r32h) a sentence of its own after the order that only denies a host, "Not E1 though (it carries decoys)", "Not
    # User4, mind you."
    rf"(?<=[.!?;])\s*not\s+{EXCEPTED_HOST_LIST}(?:\s+(?:though|tho|mind\s+you))?(?=\s*(?:[.;!,(]|$))"))


# A heading that names the host the analyst's context is about ("analysed host", "inspected box"): the scope of what follows.
_AT_HAND_HEADING = re.compile(r"^(?:the\s+)?(?:analy[sz]ed|inspected|examined)\s+(?:host|box|machine|server|node)$", re.IGNORECASE)


# A sentence after the order that states when it holds: "This only matters while Op_Server0 is clean." (a condition
# of the rule, not an explanation).
_SCOPE_NOTE = re.compile(rf"^(?:this|that|it|the\s+(?:rule|above|order))\s+(?:(?:only|just)\s+)?(?:matters|applies|holds|counts|"
                         rf"is\s+(?:valid|true|meant|needed|for)|works|makes\s+sense)\b[^.;]*?\b(?:{CONDITION_MARKER})\b", re.IGNORECASE)


# What a teacher says of their rules, not of the network: "This replaces my earlier rule", "an update to the note on ...".
_ABOUT_RULES = re.compile(r"\b(?:replac|supersed|overrid|updat|correct|amend|revis|withdraw|chang)\w*\s+(?:to\s+)?(?:my|the|our|that|this|an?)\s+"
                          r"(?:\w+\s+)?(?:note|rule|advice|instruction|order|lesson|guidance)s?\b", re.IGNORECASE)


# Another rule said to stand, but for the hosts put aside: "the model's advice on op hosts stands, except for Op_Host2",
# "that Restore-first habit is right for the rest, but not for User3". The order after it is about the hosts put aside:
# they are its scope, and the "except" / "not" is no negation of its condition.
_OTHER_RULE_STANDS = re.compile(r"^(?:the|my|our|your|that|this|their|[\w-]+['\u2019]s)\s+(?:[\w'-]+\s+){0,3}?(?:note|rule|advice|"
                                r"plan|habit|lesson|order|guidance|approach|policy|default)s?\b[^:;]*?\b(?:holds?|stands?|"
                                r"(?:is|are)\s+(?:still\s+)?(?:fine|right|good|ok(?:ay)?|correct|sound)|works?|applies)\b[^:;]*?"
                                r"(?:,\s*|\s+)(?:except(?:\s+for)?|but\s+not(?:\s+for|\s+on)?|apart\s+from|save\s+for|other\s+than)"
                                r"\s+(?P<aside>[^:;]+)$", re.IGNORECASE)


# (r34h) Another rule said to be wrong for some hosts: "the model's restore-first habit is wrong for User3: ...". The order
# after it is for those hosts, as after `_OTHER_RULE_STANDS` (read as a condition, its words were never placed and the
# correction stayed silent while the rule it corrects spoke).
# (r49m: or said not to reach them, "article 5 does not cover User4:", "that procedure doesn't apply to the op hosts:":
# the order after it is for the hosts the other rule leaves out)
_OTHER_RULE_WRONG = re.compile(r"^(?:(?:the|my|our|your|that|this|their|[\w-]+['\u2019]s)\s+(?:[\w'-]+\s+){0,3}?(?:note|rule|advice|"
                               r"plan|habit|lesson|order|guidance|approach|policy|default|procedure|clause|section|article|paragraph)s?"
                               r"|(?:clause|section|article|paragraph|rule|policy)\s+[\d.]+[a-z]?)\b[^:;]*?\b(?:(?:is|are)\s+"
                               r"(?:just\s+|simply\s+|plainly\s+)?(?:wrong|mistaken|bad|not\s+right|a\s+mistake)\s+(?:for|on|with)|"
                               r"(?:(?:does|do)\s+not|doesn['\u2019]t|don['\u2019]t)\s+(?:extend\s+to|apply\s+to|reach|cover))\s+"
                               r"(?P<aside>[^:;]+)$", re.IGNORECASE)
# (a section mark before it, "\u00a73 That habit ...", labels the entry)
_SECTION_MARK = re.compile(r"^\s*\u00a7\s*[\d.]+[a-z]?\s+")


# (r49m) Another's note said to hold but in a case, before the order for that case: "What the day shift said, except when
# User4 is owned as well: then ...", "Kim's note, but not while Enterprise0 is probed: ...". The case is the condition
# of the order after the colon (read with its "except", the condition was negated, and a faithful compilation of the
# case was refused); what the other note says elsewhere is no part of this one.
_OTHER_SAID_EXCEPT = re.compile(r"^(?:(?:what|as)\s+(?:[\w'/.-]+\s+){1,4}?(?:said|says|wrote|writes|put\s+it|suggested|proposed|"
                                r"recommended|told\s+(?:us|you|me))|(?:the|my|our|your|that|this|their|[\w/.-]+['\u2019]s)\s+"
                                r"(?:[\w'-]+\s+){0,3}?(?:note|rule|advice|call|line|order|tip)s?)\s*,?\s*(?:(?:still\s+)?(?:stands|holds|"
                                r"applies)\s*,?\s*)?(?:except|but\s+not|save|other\s+than)\s+"
                                r"(?P<case>(?:when|whenever|if|while|once|where)\b[^:;]+)$", re.IGNORECASE)


_CONCLUDED = re.compile(r":|,\s*so\b(?!\s+that\b)", re.IGNORECASE)


def put_aside_for_this_rule(text: str) -> set[str]:
    """The hosts an opening puts aside from another rule said to stand (_OTHER_RULE_STANDS) before the order after its
    colon: the hosts the order is for, never hosts it excepts."""
    heads = (sentence.split(":", 1)[0].strip() for sentence in SENTENCE.split(text) if ":" in sentence)
    return {h for head in heads if (found := _other_rule_aside(head)) for h in hosts_in(found["aside"])}


def _other_rule_aside(opening: str) -> Optional[re.Match]:
    """The match of an opening that says another rule stands but for some hosts, or is wrong for them (the hosts put
    aside, `aside`, are the order's scope); None otherwise."""
    opening = _SECTION_MARK.sub("", opening)
    return _OTHER_RULE_STANDS.match(opening) or _OTHER_RULE_WRONG.match(opening)


# (r56l) A restriction said after a statement, at its end: ", unless ...", "(except when ...)", ", as long as ...".
_RESTRICTION_AFTER = re.compile(r"(?:[,;(\u2013\u2014]|\s-)\s*(?P<restriction>(?:unless|except(?:\s+(?:if|when|while|where))?|provided(?:\s+that)?|"
                                r"(?:as|so)\s+long\s+as|only\s+(?:if|when|while)|but\s+only\s+(?:if|when|while)|but\s+not\s+(?:if|when|while))\b"
                                r"[^;:]*)$", re.IGNORECASE)


def _stated_consequence(parts: list[str], first: int) -> tuple[str, int]:
    """(situation, index of the order in `parts`) where the first part that looks like an order is a condition with a statement
    for its main clause and the order comes after it ("If an enterprise server and a user host are both compromised,
    the attacker already has a foothold in two subnets; make restoring the enterprise server part of the plan"): the
    condition is the order's situation, and what the statement says of it (no verb of the catalogue) is its reason,
    no part of the order. Else ("", first)."""
    part = parts[first]
    marker = CONDITION.match(part)
    if marker is None:
        return "", first
    end = clause_end(part, marker.end())
    main = part[end:].lstrip(" ,:;\u2013\u2014-")
    # (or ", so": "When ..., the attacker already knows its services, so restore it")
    split = _CONCLUDED.search(main)
    said, colon, order = (main[:split.start()], split.group(0), main[split.end():]) if split else (main, "", "")
    if colon and said.strip() and not gives_order(said) and gives_order(order) and not CONDITION.match(order.strip()):
        # "If ..., the Remove didn't work: escalate to Restore": what the statement concludes is the reason
        parts[first] = order.strip()
        # (r56l: but a restriction after the statement, "If E0 is rooted, it takes priority, unless OpS0 is hit: Restore
        # E0", restricts the condition: dropped with the reason, the order held in the very case it sets aside)
        restricted = _RESTRICTION_AFTER.search(said)
        kept = f", {restricted['restriction'].strip(' ()')}" if restricted else ""
        return part[:end].strip() + kept, first
    if not main or gives_order(main) or VERB.search(main):
        return "", first
    later = next((j for j in range(first + 1, len(parts)) if gives_order(parts[j]) and not CONDITION.match(parts[j])), None)
    if later is not None and STORY.search(part):
        # (r49m) "Late in seed 9 our plan still led with decoys. ...: <order>": a moment of the story and what was done in
        # it, no situation of the order after it (read as one, its hosts were hosts the rule had to name)
        return "", later
    return ("", first) if later is None else (part[:end].strip(), later)


# The teacher's view before the lesson itself: "I think the lesson is that when ...", "The lesson is: ...".
_VIEW_LEAD = re.compile(r"^(?:(?:i|we)\s+(?:now\s+|really\s+|also\s+)?(?:think|believe|reckon|feel)\s+(?:that\s+)?(?=the\s+lesson\b)|)"
                        r"(?:the|my|our)\s+lesson(?:\s+here)?\s+is(?:\s+that)?\s*[:,]?\s*(?=\S)", re.IGNORECASE)


# (r34h) A lead that says the rule is said again in other words: "Put another way: ...", "Said differently, ...". It is no
# part of the rule ("put" read as its order, the situation after it was lost).
_RESTATED_LEAD = re.compile(r"^(?:(?:to\s+)?put(?:\s+it)?\s+(?:another\s+way|differently|(?:more\s+)?simply|plainly|briefly|shortly|"
                            r"bluntly|succinctly)|(?:said|stated|phrased|worded)\s+(?:another\s+way|differently|otherwise|"
                            r"(?:more\s+)?simply|plainly))\s*[,:\u2013\u2014-]\s*(?=\S)", re.IGNORECASE)


# The lesson a learner draws, named inside its sentence after a hedge or a story: "..., but the rule I would take away
# is to remove it", "the takeaway is: ...", "what I'd take from this is that ...". What follows it is the order; the
# words before it (the hedge, the story) are none of it.
# (r31m: the writer's hedge on it, "my hedged takeaway", "our cautious lesson", is no story either)
# (r56n: and the teacher's own, "correcting my own habit: ...", "our own lesson:": whose it is, the same lead)
_LESSON_LEAD = re.compile(r"^.*?\b(?:(?:the|my|our)\s+(?:own\s+)?(?:(?:new|simple|one|main|real|true|actual|proper|key|right|better|hedged|"
                          r"cautious|rough|provisional|working|[a-z]+(?:ble|est|er|ful|ive))\s+)?"
                          r"(?:rule|lesson|takeaway|take-away|moral|conclusion|sequence|order\s+of\s+moves|habit)"
                          # (r53m: "the habit to keep:", "the rule to remember is": what the teacher keeps, said with "to")
                          r"(?:\s+to\s+(?:keep|remember|follow|take\s+away|carry\s+forward))?"
                          # (when or where it holds: "my rule from now on is", "the lesson for the quiet case is:")
                          r"(?:\s+(?:from\s+now\s+on|going\s+forward|for\s+(?:the\s+|a\s+)?[\w-]+(?:\s+[\w-]+)?\s+(?:case|cases|time)))?|what|"
                          # ("..., but for next time: if ..., ...": the lesson, headed by when it is for)
                          # (r51m: and with a word of its own before the colon, "Next time, then: ...", "next time, though:")
                          r"(?:for\s+)?(?:the\s+)?next\s+time(?:\s*,\s*(?:then|though|therefore|anyway|at\s+least))?(?=\s*:))"
                          # (who draws it: "I would take away", "I'd give myself", "we should learn from this")
                          r"(?:\s+(?:that\s+)?(?:i|we)(?:'d|'ll)?\b(?:\s+[\w']+){1,5}?)?"
                          r"(?:\s+(?:here\s+)?(?:is|should\s+be|would\s+be|will\s+be)(?:\s+(?:probably|simply|really|just))?"
                          r"(?:\s+(?:simple|clear|plain|easy|this|short))?"
                          # ("the real lesson is narrower: ...": what the teacher says of the lesson, before a colon)
                          r"(?:\s+(?:more\s+|much\s+|a\s+bit\s+|far\s+)?(?!(?:n?ever|n?either|other|rather|whether|over|after|under)\b)"
                          r"[a-z]{3,}er(?=\s*:))?"
                          # ("the lesson I'd keep: when ...", "the sequence should be: ...")
                          r"(?:\s+(?:to|that))?\s*[:,]?|\s*:)\s*(?=\S)",
                          re.IGNORECASE)


# (r56m) "one rule only: ...", "just one rule:": how many rules the note gives, no condition of it. (r56b) Only where it
# opens its part, after a word that links it to what came before at most ("Even so, one rule only: ..."): after anything
# else, the rule is another's or an old one ("Dana's team lives by one rule only: never Remove User2. I disagree"), or
# its condition comes before it ("If User0 is rooted, one rule only: ..."), and read from the colon on, the story was
# dropped and the rule was the one the writer turns down, or held in every state.
_ONE_RULE_LEAD = re.compile(r"^\s*(?:(?:even\s+so|still|so|anyway|anyhow|and|but|then|ok(?:ay)?|fine|well|in\s+short|in\s+sum|"
                            r"all\s+the\s+same|nonetheless|regardless|bottom\s+line|long\s+story\s+short|for\s+now|from\s+now\s+on|"
                            r"going\s+forward|hence|therefore|thus|now)\s*[,:\u2013\u2014-]?\s*)?"
                            r"(?:(?:just|only)\s+)?one\s+(?:rule|lesson)(?:\s+(?:only|then|here))?\s*:\s*(?=\S)", re.IGNORECASE)


# The teacher's own hypothetical before a colon: "If I had to write one rule from it: ...", "If we were to sum it up: ...":
# what the teacher would do, said of no host, so no condition of the order after it.
_HYPOTHETICAL_LEAD = re.compile(r"^\s*if\s+(?:i|we)\s+(?:had|were|was)\s+to\s+(?![^:]*\b(?:user|enterprise|op|defender|host|"
                                r"box|server|machine)\w*\b)[^:;.]{1,60}?:\s*(?=\S)", re.IGNORECASE)


# (r56e) A lesson lead that says whose rule it is, another's or an old document's: "The old card said the rule: ...",
# "Dana's team lives by the rule: ...; I disagree". The rule after the colon is theirs, reported: read as the teacher's
# lesson, the story was dropped and the rule was the one the writer reports or turns down. (Said by the teacher, "I'd
# say", "we keep", it is theirs.)
_ANOTHERS_LEAD = re.compile(r"(?<![\w'])(?!(?:i|we|i'd|we'd|i'll|we'll|i've|we've|myself|ourselves|us|me)\b)[\w']+\s+"
                            r"(?:(?:still|always|once|all)\s+)?(?:said|says|lives?\s+by|lived\s+by|follows?|followed|goes\s+by|"
                            r"go\s+by|went\s+by|swears?\s+by|swore\s+by|keeps?|kept|wrote|writes|teaches|taught|preaches|"
                            r"preached|stated|states|read|reads|has|had|used|uses|insists?\s+on|insisted\s+on|gave|gives)\s+"
                            r"(?:(?:by|on|to|us|me)\s+)?(?:the|their|his|her|its|an?|this|that)\s+"
                            r"(?:[\w-]+\s+)?(?:rule|lesson|takeaway|moral|habit|sequence)\b", re.IGNORECASE)


def lesson_of(part: str) -> str:
    """A part that names the lesson inside it (_LESSON_LEAD): the lesson, when it orders; else the part."""
    hypothetical = _HYPOTHETICAL_LEAD.match(part)
    if hypothetical is not None and gives_order(part[hypothetical.end():]):
        rest = part[hypothetical.end():]
        return rest[:1].upper() + rest[1:]
    found = _ONE_RULE_LEAD.match(part) or _LESSON_LEAD.match(part)
    if found is None or _ANOTHERS_LEAD.search(found.group(0)) or not re.search(r"\b(?:rule|lesson|takeaway|take-away|moral|conclusion|take\s+away|take|draw|learn|"
                                      r"sequence|order\s+of\s+moves|habit|tell\s+(?:myself|ourselves)|recommend|next\s+time)\b",
                                      found.group(0), re.IGNORECASE):
        return part
    rest = part[found.end():]
    rest = rest if gives_order(rest) else _resolved(rest)  # (said as the teacher's resolution: the order it is)
    rest = rest[:1].upper() + rest[1:]
    # (a lesson may name its move as a noun: "the rule I'd give myself is simple: a DecoySvchost on Enterprise0 whenever
    # it is scanned" orders it, as "put a DecoySvchost on ..." would)
    if not (gives_order(rest) or _NOUN_MOVE.match(rest) and not STORY.search(rest)):
        return part
    # A condition that opens the part, its clause ending where the lead begins ("Once User1 and the ops server are both
    # owned, the order of play should be: ..."), is the lesson's own condition, no story (one told in the past,
    # "When I removed User1, the lesson was ...", is the story's): dropped, the lesson was wider than its words.
    lead = part[:found.end()]
    marker = CONDITION.match(lead.lstrip())
    if marker is not None and not STORY.search(lead) and not TOLD_OF_IT.match(lead.lstrip()) \
            and not CONDITION.match(rest):
        opening = lead.lstrip()
        end = clause_end(opening, marker.end())
        # (r56e) the lead after the condition is matched with the lesson that follows it: alone, a lead that ends in a
        # bare colon ("If User0 is rooted, the rule: ...") had nothing after it, and its condition was dropped
        after = part[len(part) - len(part.lstrip()) + end + 1:].lstrip()
        if opening[end:end + 1] == "," and _LESSON_LEAD.match(after) is not None:
            return f"{opening[:end].strip()}, {rest[:1].lower() + rest[1:]}"
    return rest


# The teacher's resolution in the first person, in the present ("my rule from now on is that for Enterprise0 at
# Privileged I recommend a Remove", "the lesson: I put a decoy on ..."): the order, said of themselves.
# (r47m: and a phase or a stretch the resolution is for, "in the recon stage I always plan ...", "during recon we ...")
_RESOLVED = re.compile(r"^(?P<scope>(?:(?:for|on|with|at|in|during|when|whenever|if|once|as\s+long\s+as|"
                       # (a moment of the defender's own: "right after I remove Enterprise0 I analyse it")
                       r"(?:(?:right|just|immediately|directly)\s+)?after|as\s+soon\s+as|every\s+time|each\s+time)\b[^,;:]{3,80}?)?)\s*,?\s*"
                       r"\b(?:i|we)\s+(?:will\s+|shall\s+|now\s+|always\s+|just\s+|only\s+|simply\s+)*"
                       r"(?=(?:recommend|plan|propose|suggest|schedule|queue|put|place|deploy|use|choose|pick|go\s+for|"
                       + "|".join(pattern for _, pattern in VERB_FORMS) + r")\b)", re.IGNORECASE)


def _resolved(lesson: str) -> str:
    """A lesson said as the teacher's own resolution ("for X I recommend Y") as the order it is ("for X, recommend Y")."""
    found = _RESOLVED.match(lesson)
    if found is None:
        return lesson
    scope = found["scope"].strip()
    return f"{scope}, {lesson[found.end():]}" if scope else lesson[found.end():]


# A move named as a noun before what it is on: "a DecoySvchost on Enterprise0", "one Remove per compromised host".
_NOUN_MOVE = re.compile(r"^(?:a|an|one)\s+" + VERB_WORD + r"\s+(?:on|for|against|of|to|per)\s+\S", re.IGNORECASE)
# (r56n) A move named alone as a sentence of its own, with when it comes: "an Analyse first.", "a Restore instead".
_NOUN_MOVE_ALONE = re.compile(r"^\s*(?:a|an|one)\s+" + VERB_WORD + r"\s+(?:first|instead)\s*[.!]?\s*$", re.IGNORECASE)


# A heading before the order ("Lesson: any user host that ..."): it names what follows, no situation.
_HEADING_ONLY = re.compile(r"^(?:(?:the|my|our|one)\s+)?(?:lesson(?:\s+(?:learn(?:ed|t)|drawn|taken))?|takeaway|take-away|moral|conclusion|rule|"
                           r"note|reminder|tip|runbook|playbook|procedure|policy|sop|checklist|section|"
                           # (r49m: "Clause 4.1:", "Article 3:", "Item 2b:": a numbered entry of a rulebook of its own)
                           r"clause|article|paragraph|para|item|provision|regulation|standing\s+order|"
                           # (r54m: a post-mortem's "Action item(s):", "Follow-up action:", the order it draws)
                           r"(?:follow[\s-]*up\s+)?action(?:\s+items?|s)?|fix|remedy|remediation)"
                           # ("runbook 4.2:", "SOP #7", "rule 3b:": the label of a document's entry, no condition)
                           r"(?:\s*(?:#\s*|no\.?\s*)?\d+(?:\.\d+)*[a-z]?\)?)?"
                           r"(?:\s+(?:here|for\s+next\s+time|for\s+the\s+future))?$|"
                           # ("Tentatively: for User4 ...": the teacher's doubt as a heading, no situation)
                           r"^(?:tentatively|provisionally|probably|perhaps|maybe|possibly|cautiously|hesitantly|honestly|"
                           r"frankly|on\s+balance|all\s+told|in\s+short|bottom\s+line)$", re.IGNORECASE)


# The teacher saying who speaks before the lesson: "Dana here:", "night shift speaking -". It signs the note; it states no
# situation of the rule. (One or two words, never a time, "late game here:", nor a host, class, state or access.)
_SIGNATURE = re.compile(r"^[A-Za-z][\w'.-]*(?:\s+[A-Za-z][\w'.-]*)?\s+(?:here|speaking)$", re.IGNORECASE)


_TIME_WORDS = re.compile(r"\b(?:late|early|now|then|step|turn|phase|stage|game|episode|start|end|today|tonight)\b",
                         re.IGNORECASE)


# (r49m) An opening that says the note is told again, or who tells it again: "Kim again", "me once more", "same mistake
# as last time, said again", with what the note is after a comma ("the wider line from that thread"). Its "again" is
# the telling's, no history of the rule's condition (read as a situation, a faithful compilation was refused for the
# history it lacked, and the rule was missed).
_RETOLD = re.compile(r"^(?:[A-Za-z][\w'.-]*\s+(?:again|once\s+more)|(?:the\s+)?same\s+(?:failure|mistake|error|lesson|point|story|"
                     r"problem|issue|note|rule|thing)\s+as\s+(?:before|last\s+time|earlier|yesterday)|"
                     r"(?:told|said|repeated|restated|stated)\s+(?:again|once\s+more)|again|once\s+more)$", re.IGNORECASE)
# (what the note is, after the comma: the line, note or rule, of a chat, a thread, a meeting)
_NOTE_NAMED = re.compile(r"\b(?:line|note|rule|lesson|point|word|message|chat|thread|meeting|call|call-out|reminder)s?\b",
                         re.IGNORECASE)


def _signed(opening: str) -> bool:
    """Whether an opening only says who speaks (`_SIGNATURE`), or that the note is told again (`_RETOLD`)."""
    opening = opening.strip(" ,")
    heads = [part.strip() for part in opening.split(",")]
    retold = bool(_RETOLD.match(heads[0])) and all(_RETOLD.match(part) or _NOTE_NAMED.search(part) for part in heads[1:])
    return bool(_SIGNATURE.match(opening) or retold) and not (
        hosts_in(opening) or classes_in(opening) or STATE_WORDS.search(opening) or _ACCESS_WORDS.search(opening)
        or _TIME_WORDS.search(opening))


# (r39m) A note addressed to a role before its order: "Planner:", "chooser only:", "Analyst, this one is for you, not the
# planner:". Who the note is for is the rule's roles (the compiler's), no situation of its trigger: with the roles named
# taken away, only words of address are left (a host, a class, a state or a time would be a situation).
_ROLE_NAME = re.compile(r"\b(?:(?:the|a|an|my|our|every|each)\s+)?(?:planner|analyst|(?:action[\s_-]?)?chooser)s?(?:'s?)?(?=\W|$)",
                        re.IGNORECASE)


_ADDRESS_WORDS = frozenset("""this that these the note notes rule rules one message word reminder is it's its are meant intended
written aimed addressed goes go applies apply for to you your yours and not only just alone solely but also here hey dear
from me please part section folks team teams people crew everyone everybody all guys colleagues friends""".split())
# (r47m: "planner part", "the chooser's section": the part of a document for it; r54l: "planner folks", "chooser team",
# "analysts, everyone": the people the role's note is for, an address that states no situation)


# A teacher's verdict on what was taught before, as the opening of a correction: "That is backwards:", "No, that's
# wrong -", "I disagree:", "Scratch that:". It judges an earlier rule, and states no situation of this one (read as its
# condition, it was a clause no reading placed, and its "wrong" or "not" a negation).
_VERDICT_ON_BEFORE = re.compile(r"^(?:(?:no|nope|wrong|wait|actually|sorry|oops|hmm)\s*[,!.]?\s*)?(?:(?:that|this|it)(?:'s|\u2019s|\s+is|\s+was)|"
                                r"i\s+had\s+it)\s+(?:(?:all|just|plain|completely|exactly|simply)\s+)?(?:backwards?|wrong|the\s+wrong\s+way\s+"
                                r"(?:round|around)|mistaken|incorrect|a\s+mistake|not\s+right|upside[\s-]down|reversed|inverted)$|"
                                r"^(?:(?:no|nope|actually)\s*[,!.]?\s*)?(?:i\s+(?:strongly\s+)?disagree|not\s+so|wrong|backwards?)$|"
                                r"^(?:scratch|scrap|forget|ignore)\s+(?:that|this|what\s+i\s+(?:said|wrote))$|"
                                # ("broader than 'never touch the op boxes':", "stricter than my last note:": this rule
                                # measured against another, quoted or named as a rule)
                                r"^(?:(?:it|this|that|the\s+(?:rule|lesson))(?:'s|\s+is)\s+)?(?:a\s+bit\s+|much\s+)?(?:narrower|broader|wider|"
                                r"stricter|looser|tighter|more\s+(?:specific|general|precise))\s+than\s+(?:['\"\u2018\u201c].*['\"\u2019\u201d]|"
                                r"(?:the|my|our|that|this)\s+(?:\w+\s+)?(?:rule|note|lesson|one|habit|advice)|before)$", re.IGNORECASE)


# (r45m) A document's heading that names what the note is for, and possibly whom: "Checklist for Enterprise2, action
# chooser", "Op_Server0 drill", "runbook for the user hosts". Its host or class is the order's (which names it again): no
# situation of the trigger (read as one, its label words were a condition no claim placed, and the note was never read).
_LABELLED_HEADING = re.compile(r"^(?:(?:the|my|our|a|an)\s+)?(?:(?P<before>[\w-]+(?:\s+[\w-]+)?)\s+)?(?:checklist|check\s*list|checks?|drill|runbook|"
                               r"playbook|procedure|routine|list|steps|sop|plan|rules?|notes?)(?:\s+(?:for|on|about)\s+(?P<after>[^,;:]+))?"
                               r"(?:\s*,\s*(?P<role>[^,;:]+))?$", re.IGNORECASE)


# (r47m) The part of a document a role's note is, before the document: "Planner part of the Op_Host1 runbook",
# "chooser section of our Op_Server0 runbook".
_PART_OF_DOCUMENT = re.compile(r"^(?P<role>[^,;:]+?)\s+(?:part|section|half|bit)\s+of\s+(?:the|this|that|our|my)\s+(?P<document>[^,;:]+)$",
                               re.IGNORECASE)


def _labelled_heading(opening: str, rest: str) -> bool:
    """(r45m) Whether an opening is a heading that only names the document (`_LABELLED_HEADING`), the hosts or class it
    is for (each named again in the order), and the role it is for. (r47m: the role's part of it said first, "chooser
    section of our User2 drill", is the same heading.)"""
    part = _PART_OF_DOCUMENT.match(opening.strip(" ,"))
    if part is not None and _addressed(part["role"]):
        return _labelled_heading(part["document"], rest)
    found = _LABELLED_HEADING.match(opening.strip(" ,"))
    if found is None or (found["role"] and not _addressed(found["role"])):
        return False
    scope = " ".join(p for p in (found["before"], found["after"]) if p)
    if STATE_WORDS.search(scope) or _ACCESS_WORDS.search(scope) or _TIME_WORDS.search(scope):
        return False
    left = re.findall(r"[a-z][a-z']*", without_host_names(scope).lower())
    named, spoken = hosts_in(scope), classes_in(scope)
    return (bool(named) or bool(spoken)) and set(named) <= set(hosts_in(rest)) and set(spoken) <= set(classes_in(rest)) \
        and not [w for w in left if w not in ("the", "a", "an", "my", "our")]


def _addressed(opening: str) -> bool:
    """Whether an opening only says which role the note is for (`_ROLE_NAME`, `_ADDRESS_WORDS`)."""
    if not _ROLE_NAME.search(opening) or hosts_in(opening) or classes_in(opening) or STATE_WORDS.search(opening) \
            or _ACCESS_WORDS.search(opening) or _TIME_WORDS.search(opening):
        return False
    left = re.findall(r"[a-z][a-z']*", _ROLE_NAME.sub(" ", opening).lower())
    # (r48h) or a heading that calls itself a note for the role, with who wrote it or agrees with it: "Blue team memo to
    # the chooser, and the red team agrees", "a memo to the planner from dana" (nothing of a situation: no condition, no
    # move, no negation)
    return all(word in _ADDRESS_WORDS for word in left) or bool(_NOTE_FOR_ROLE.search(opening)) \
        and not (CONDITION.search(opening) or verbs_in(opening) or negations_in(opening) or STORY.search(opening))


_NOTE_FOR_ROLE = re.compile(r"\b(?:note|memo|message|reminder|tip|heads[\s-]?up|word)s?\s+(?:for|to)\s+" + _ROLE_NAME.pattern, re.IGNORECASE)


def teachers_view(opening: str, rest: str = "") -> bool:
    # (hosts it names are what the teacher knows of, "I have not seen enough of User4 to say": no state of theirs)
    # (nor, before an order that states its own condition, a judgement in the first person that names states: "Still,
    # an unanswered scan is a gamble I'd rather not repeat: when the Defender shows a Scan, ...")
    return bool(FIRST_PERSON.search(opening)) and (bool(CONDITION.match(rest)) or not (
        STATE_WORDS.search(opening) or _ACCESS_WORDS.search(opening) or CONDITION.search(opening)))


_VIEW_SCOPE = re.compile(r"(?:for|on|as\s+for|as\s+to|about|with|when\s+it\s+comes\s+to)\b", re.IGNORECASE)


def reason_before(opening: str, rest: str) -> bool:
    """Whether an opening before a colon is the reason for an order that states its own condition, said of no host: "a
    host clean a step ago and compromised now is when a Remove is cheapest, so: when a user host is newly compromised,
    remove ..." (no condition of it)."""
    # (a general remark about "a host" / "any box", never one about a named host, a class or the network: "User2 is
    # compromised, so: ...", "the user subnet is under attack, so: ..." state the situation the order is for)
    return bool(re.search(r",\s*so\s*$", opening.strip(), re.IGNORECASE)) and bool(CONDITION.match(rest.strip())) \
        and bool(re.match(r"\s*(?:a|an|any|every)\s+(?:host|box|machine|server|node)\b", opening, re.IGNORECASE)) \
        and not hosts_in(opening) and not classes_in(opening)


# (r48m) An opening that grants another teacher's note before its own, up to its "but": "You were right about User0, but
# ...", "You drew the right moral for the op hosts, but ...", "Good call on Enterprise1, but ...": what it names is
# the other note's, no situation of this one. (Matched on the text as `read_wording` joins it, where "lesson for X" is
# already said "For X", `scope_labels_said`.)
GRANTED = re.compile(r"^\s*(?:you(?:['\u2019]re|\s+are|\s+were)\s+(?:quite\s+|absolutely\s+)?right\s+(?:about|on|with|for)|"
                     r"you(?:['\u2019]ve|\s+have)?\s+(?:learned|learnt|drew|drawn|took|taken)\s+the\s+right\s+(?:(?:lesson|moral|conclusion|takeaway)\s+)?(?:for|about|on|from)|"
                     r"good\s+call\s+on|fair\s+(?:point|enough)\s+(?:on|about))\s+[^:;.!?]*?,\s*but\b", re.IGNORECASE)


# (r48m) A bracketed note that keeps a condition to the hosts it names and none other of their kind: "(only Op_Host1, not
# the other op hosts)", "(just Enterprise1 -- not the rest of the servers)"
# (r56m: and the note with its "not" alone, right after the host it keeps the condition to: "once I look at User2
# specifically (not the other user boxes)", "Op_Server0 (but not the rest of the op hosts)": `named` is then
# that host, `only_named_hosts`)
ONLY_NAMED = re.compile(r"\(\s*(?:(?:only|just)\s+(?P<named>[^,()]+?)\s*(?:,|--?|\u2014|\u2013|;)\s*|(?:but\s+)?)(?:not|never)\s+"
                        r"(?:the\s+|any\s+)?(?:other|others|remaining|rest\s+of\s+the)\b[^()]*\)", re.IGNORECASE)
_HOST_BEFORE_NOTE = re.compile(rf"\b(?P<host>{HOST_NAME})(?:\s+(?:specifically|alone|only|itself|in\s+particular))?\s*$", re.IGNORECASE)


# (r56b) A state said of the host right after such a note, "If User1 alone (not the other user hosts) is rooted", "when
# Op_Host1 (but not the other op hosts) shows an exploit": the note then denies that state of the others, a condition of
# the rule ("only User1 is rooted"); taken for a note that keeps the rule to the host, the others' state was dropped and
# the rule held whatever they showed.
_STATE_AFTER_NOTE = re.compile(r"\s*(?:is|are|was|were|has|have|had|gets?|got|shows?|showed|becomes?|became|goes|went|falls?|"
                               r"fell|stays?|remains?|looks?|reads?|sits?|turns?|'s)\b", re.IGNORECASE)


def only_named_hosts(text: str, found: re.Match) -> set[str]:
    """(r48m, r56m) The hosts a note of ONLY_NAMED keeps its condition to: those it names, or, where it names none, the host
    right before it ("Enterprise1 specifically (not the other ...)"); none where neither."""
    if found["named"]:
        return set(hosts_in(found["named"]))
    if _STATE_AFTER_NOTE.match(text, found.end()):
        return set()  # (r56b) "when User1 (not the other user hosts) is rooted": the state denied of the others, a condition
    before = _HOST_BEFORE_NOTE.search(text[:found.start()])
    return set(hosts_in(before["host"])) if before else set()


def only_named_away(text: str) -> str:
    """(r48m) `text` without its notes that keep a condition to the hosts they name (ONLY_NAMED), where the text names
    those hosts outside them as well: what the condition claims is said of those hosts; the other hosts it sets aside
    are no part of it (read as a condition, "not the other user boxes" asked them quiet, or the note's "other user
    boxes" them shown)."""
    for found in reversed(list(ONLY_NAMED.finditer(text or ""))):
        named = only_named_hosts(text, found)
        rest = f"{text[:found.start()]} {text[found.end():]}"
        if named and named <= set(hosts_in(rest)):
            text = f"{text[:found.start()].rstrip()}{text[found.end():]}"
    return text or ""


# (r55n) A bracketed aside that leaves hosts out, set between the hosts a condition names and the state it says of them:
# "OpH0/OpH1 (not the Defender) probed". Read in place, the state after it was said of the host it names last.
_ASIDE_BEFORE_STATE = re.compile(rf"(?P<before>{HOST_NAME}|{HOST_SHORT})\s*(?P<aside>{EXCEPTED_ASIDE.pattern}\s*\))(?=\s*[A-Za-z])", re.IGNORECASE)


def excepted_between_away(text: str) -> str:
    """(r55n) `text` without a bracketed aside that leaves hosts out (EXCEPTED_ASIDE) where it stands between named hosts
    and the state said of them (`_ASIDE_BEFORE_STATE`): the state is the named hosts', and the hosts set aside are no
    part of the condition (its negation is placed by their being left out, guard._aside_left_out). Kept where the aside
    follows a class ("user boxes (not User2) scanned": read without it, the class would take User2 back in) or where it
    leaves out a host named before it."""
    for found in reversed(list(_ASIDE_BEFORE_STATE.finditer(text or ""))):
        named = set(hosts_in(text[:found.start("aside")]))
        left_out = set(hosts_in(found["what"]))
        if named and left_out and not named & left_out and not classes_in(text[:found.start("aside")]):
            text = f"{text[:found.start('aside')].rstrip()} {text[found.end('aside'):].lstrip()}"
    return text or ""


def _claim_before(opening: str, rest: str) -> bool:
    """(r48m) Whether an opening before a colon is a claim the order rests on, where the order states its own condition
    on every host the opening names: "Op_Server0 is the keystone, not a spare brick: when Op_Server0 is hit, ...",
    "Enterprise0 is no mere workstation: when Enterprise0 is owned, ...", "Nobody else is on watch here: when ...". It
    says no state (no word of state, level or taking over) and names no class; read as a condition, its "not" or "no"
    asked a host quiet that the order's own condition asks compromised. (Not one that names a move, "Enterprise0
    deserves no Restore": a verdict on the move.)"""
    rest = rest.strip()
    return bool(CONDITION.match(rest)) and gives_order(rest) and not states_something(opening) \
        and not classes_in(opening) and set(hosts_in(opening)) <= set(hosts_in(rest)) \
        and not step_windows(opening) and not EXCEPT.search(opening) and not verbs_in(opening) \
        and bool(re.search(r"\b(?:is|are|isn['\u2019]t|aren['\u2019]t)\b", opening, re.IGNORECASE))  # (a claim, no heading)


# (r32h) The defender's own move said as the time of a state, "Ent1 still held after I restored it", "User4 back at User
# since I restored it": the history of a situation (history_words reads it), no story told in the first person.
# (r44h: or by its noun, "User4 at Unknown just after my own Restore of it: ...": read as the teacher's view for its
# "our", the situation was dropped and the order held in every state)
_MOVE_SINCE = re.compile(r"\b(?:after|since|once)\s+(?:(?:i|we)\s+(?:had\s+|have\s+|just\s+|already\s+)?"
                         r"(?:removed|restored|reimaged|analy[sz]ed|cleaned|wiped)\b(?:\s+(?:it|them|\w+\d|defender)\b)?|"
                         r"(?:our|my)\s+(?:own\s+|last\s+)?(?:remove|restore|re-?image|analy[sz]e|analysis)\s+(?:of|on)\s+"
                         r"(?:it|them|\w+\d|defender)\b)",
                         re.IGNORECASE)


# (r43h) An opening that revises the teacher's earlier note on some hosts: "forget my last rule about E1 and E2", "scratch
# the previous note on Op_Host0". The hosts it names are those the new order is about (its "both", its "them").
_EARLIER_NOTE_ON = re.compile(r"\b(?:my|the|our)\s+(?:earlier|previous|last|old|first|other)\s+(?:note|rule|advice|order|call|one)"
                              r"\s+(?:on|about|for|re|regarding|concerning)\s+(?P<hosts>[^:;.,]+)$", re.IGNORECASE)


def _earlier_note_hosts(opening: str, rest: str) -> str:
    """The hosts an opening that revises an earlier note names, as the scope of the order after it where that order
    does not name them again ("" otherwise). Read as the teacher's view, they were dropped, and "both" spoke of no host."""
    found = _EARLIER_NOTE_ON.search(opening.strip())
    named = hosts_in(found["hosts"]) if found else ()
    return " and ".join(named) if named and not set(named) <= set(hosts_in(rest)) else ""


# (r60m) The attacker's next move or aim told before the colon, as the order's reason: "Red will head for User2 after it takes
# User1, so stop it: with User1 owned, ...", "the attacker wants the Defender as a stepping stone, so block that:
# ...". A forecast of what red will do is no state of the network the order waits on (read as the situation, the host red
# aims at was a condition no predicate should say): none, where the order after the colon opens with a case of its own.
_ATTACKER_AIM = re.compile(r"^\s*(?:red|the\s+(?:attacker|adversary|intruder|red\s+(?:team|agent)))\s+(?:will|['\u2019]ll|would|"
                           r"is\s+going\s+to|wants?|is\s+after|aims?\s+(?:at|for)|plans?\s+to|means\s+to|heads?\s+for|goes\s+for)\b",
                           re.IGNORECASE)
# (r60m) A heading that says the order picks one move of two, before the colon: "One or the other, never both: with ...",
# "Either one, never both:", "Not both:". It tells the order's choice, no state of a host (read as the situation, its "not"
# was a negated condition no predicate could say).
_ONE_NOT_BOTH = re.compile(r"^\s*(?:(?:(?:only|just)\s+)?one\s+or\s+the\s+other|either\s+one|(?:only|just)\s+one\s+of\s+(?:the\s+)?"
                           r"(?:two|pair))?\s*,?\s*(?:(?:but|and)\s+)?(?:not|never)\s+both\s*$", re.IGNORECASE)
def _aim_states(opening: str, rest: str) -> bool:
    """(r60b) Whether red's aim before the colon holds a case or a state of a host the order's own case does not name
    ("Red is after Op_Server0 whenever User1 is rooted: when ...", "Red will use a rooted User1 to reach ...", "... only
    when User1 is clean:"): a condition of the order, no reason only (read as none, a predicate without that host or
    state passed). A case the order says again after the colon ("... once User3 falls, so deny it: with User3
    compromised, ...") is no more than the order's."""
    spans = [opening[m.start():] for m in CONDITION.finditer(opening)] \
        + [opening[max(0, m.start() - 30):m.end() + 30] for m in STATE_WORDS.finditer(opening)]
    case = _OWN_CASE_FIRST.match(rest)
    said = set(hosts_in(" ".join(spans)))
    return bool(spans) and (not said or not said <= set(hosts_in(case.group(0) if case else "")))


_OWN_CASE_FIRST = re.compile(r"^\s*(?:with|once|when|whenever|if|as\s+soon\s+as|while)\b[^,:;]{3,80},", re.IGNORECASE)


def _opening_situation(opening: str, rest: str = "") -> str:
    """The situation an opening before a colon (and before `rest`, the order) states: none for a story, a note on the
    teacher's rules, a one-word heading or "from now on"; for the teacher's own view, only the scope it hands over to
    after its last "but" ("I'm not sure Remove is always wrong elsewhere, but for Defender: ..." is about Defender)."""
    # (r47m: the role it is for after the heading's comma, "Playbook for <situation>, planner part", is no part of it)
    addressed = re.match(r"^(?P<head>[^,;:]+?)\s*,\s*(?P<role>[^,;:]+)$", opening.strip())
    if addressed is not None and _addressed(addressed["role"]):
        opening = addressed["head"]
    # (r54l) and the role it is for before the situation's comma, an address ("planner folks, User2 rooted -> ...",
    # "chooser team, once E1 is hit: ..."): no part of it (read as one, the words were a condition no reading placed)
    leading = re.match(r"^(?P<role>[^,;:]+?)\s*,\s*(?P<rest>[^,;:].*)$", opening.strip())
    if leading is not None and _addressed(leading["role"]) and not _addressed(opening):
        opening = leading["rest"]
    said = _MOVE_SINCE.sub("", opening)  # (the defender's move as the time of a state is no story or view of the teacher)
    if STORY.search(said) or _ABOUT_RULES.search(opening) or _HEADING_ONLY.match(opening.strip()) \
            or not FROM_NOW_ON.sub("", opening.strip()) or _signed(opening) or _addressed(opening) \
            or _VERDICT_ON_BEFORE.match(opening.strip(" ,")) or _labelled_heading(opening, rest):
        return ""
    if reason_before(opening, rest) or _claim_before(opening, rest) or GRANTED.match(opening):
        return ""
    if (_ONE_NOT_BOTH.match(opening) or _ATTACKER_AIM.match(opening) and not _aim_states(opening, rest)) and _OWN_CASE_FIRST.match(rest):
        return ""  # (r60m) red's aim, the order's reason ("Red will head for <host> ..., so stop it: with ..."); a choice
    if (worth := NOT_WORTH.search(opening)) is not None and not opening[worth.end():].strip():
        return ""  # (r49m) "<host> is not worth a Remove: once ...": a verdict against a move, no situation
    if (case := _OTHER_SAID_EXCEPT.match(opening.strip())) is not None:
        return case["case"].strip()  # (r49m) the case another's note is set aside in: this order's condition
    stands = _other_rule_aside(opening.strip())
    if stands and hosts_in(stands["aside"]):
        aside = hosts_in(stands["aside"])
        # (r34h) with the state it is put aside in, if it says one: "but not for User1 at root level"
        stated = states_something(stands["aside"]) or LEVEL_WORDS.search(stands["aside"])
        return "" if set(aside) <= set(hosts_in(rest)) else stands["aside"].strip() if stated else " and ".join(aside)
    if stands and (states_something(stands["aside"]) or LEVEL_WORDS.search(stands["aside"])) and CONDITION.match(rest.strip()):
        # (r61h) set aside in a state, not on hosts ("My old rule is fine, except at root level: once Op_Host1 is rooted,
        # ..."): the order after the colon states that case as its own condition; the "except" is the other note's, no
        # negation of this one (read as one, a faithful compilation of the case was refused and the note it excepts spoke)
        return ""
    if (revised := _earlier_note_hosts(opening, rest)):
        return revised
    if teachers_view(said, rest):
        tail = re.split(r"\bbut\b", opening, flags=re.IGNORECASE)[-1].strip(" ,")
        scope = _VIEW_SCOPE.match(tail) if tail != opening.strip(" ,") else None
        return tail if scope and (hosts_in(tail) or classes_in(tail)) else ""
    return opening.strip()


def _past_belief(hedged: re.Match, view: str) -> str:
    """A view the teacher is sure of (or thinks) said before a colon, then an order that states its own condition: "I am
    quite sure that my Analyse gave the attacker its turn: if User3 shows ..., remove ...". What they believe is their
    reason, no situation of the rule (the order says when it holds): the order alone. Else the view as it is."""
    found = OPENING.match(view)
    if hedged.re not in (SURE_THAT, I_THINK_THAT, BUT_I_BELIEVE) or found is None \
            or _VIEW_SCOPE.match(found["situation"].strip()):
        return view
    rest = found["rest"].strip()
    return rest if CONDITION.match(rest) and gives_order(rest) else view


def _order_first(parts: list[str], drawn: Optional[int]) -> Optional[int]:
    """The part that gives the order: the first that gives one, or a lesson after a story that reads like one."""
    first = next((i for i, part in enumerate(parts) if gives_order(part)), None)
    # (a lesson drawn inside its sentence is the order: a story before it that reads like one, "When Op_Server0 first
    # showed a scan I filed it under noise, ...", told in the first person, is no part of it)
    if drawn is not None and (first is None or all(FIRST_PERSON.search(parts[i]) for i in range(drawn) if gives_order(parts[i]))):
        return drawn
    # (r53m) a lesson under its heading, "Lesson: when ..., Restore it", after a story told in the first person that reads
    # like an order ("I kept analysing Enterprise0 ... and never acted on it"): the headed part is the order, the story none
    # of it (read as the order, its "never acted" forbade every move, and the lesson's own order was refused)
    headed_at = next((i for i, part in enumerate(parts) if first is not None and i > first and _lesson_headed(part)), None)
    if drawn is None and headed_at is not None \
            and all(STORY.search(parts[i]) for i in range(headed_at) if gives_order(parts[i])):
        return headed_at
    return first


def _lesson_headed(part: str) -> bool:
    """(r53m) Whether a part is an order under a heading that names it the lesson ("Lesson: ...", "Rule: ...")."""
    found = OPENING.match(part)
    return bool(found and _HEADING_ONLY.match(found["situation"].strip()) and gives_order(found["rest"]))


def instruction_of(text: str) -> tuple[str, str, bool]:
    """(instruction, opening situation, gives an order)."""
    said = [_RESTATED_LEAD.sub("", _VIEW_LEAD.sub("", part)) for part in parts_of(text)]
    parts = [lesson_of(part) for part in said]
    drawn = next((i for i, (part, lesson) in enumerate(zip(said, parts)) if lesson != part), None)
    first = _order_first(parts, drawn)
    if first is None:
        # (r43h: a lesson's heading before it, "Lesson: <state> means ..., so <order>", is none of the state)
        glossed = next(((part, _glossed_state(part)) for part in map(_heading_away, parts) if _glossed_state(part)), None)
        if glossed is not None:  # "<state> means <what it is>, so <order>": the order, in that state
            return without_justification(glossed[0]), glossed[1], True
        return without_justification(" ".join(parts)), "", False
    hedged = BUT_I_BELIEVE.match(parts[first]) or after_doubt(parts[first]) or SURE_THAT.match(parts[first]) \
        or I_THINK_THAT.match(parts[first])
    if hedged and gives_order(hedged["rest"]):
        parts[first] = hedged["rest"]  # (the doubt before the view, or before the scope, is no part of the order)
        parts[first] = _past_belief(hedged, parts[first])
    situation, first = _stated_consequence(parts, first)  # (may put the order in the place of its part)
    role = OPENING.match(parts[first])
    if role and _ROLE_HEADING.match(role["situation"].strip()) and OPENING.match(role["rest"]):
        parts[first] = role["rest"]  # "plan: OpS0 at user level ... -> Restore OpS0": the role it is for, no situation
    found = OPENING.match(parts[first])
    order = parts[first]
    # ("Lesson: ..." heads the order: what came before it is the story, no situation of it)
    headed = bool(found and _HEADING_ONLY.match(found["situation"].strip()))
    if found and not situation and not gives_order(moves_not_made_away(found["situation"])) and gives_order(found["rest"]):
        # ("Next time: ...", "From now on: ..." open the order; they state no situation)
        # (nor does a note on the teacher's rules: "This replaces my earlier rule on Op_Server0: ...")
        situation = _opening_situation(found["situation"], found["rest"])
        order = found["rest"]
        inner = OPENING.match(order)
        if situation and not STATE_WORDS.search(situation) and inner and states_something(inner["situation"]) \
                and not gives_order(inner["situation"]) and gives_order(inner["rest"]):
            # a heading before the situation ("analyst / User1: Compromised User without any activity: recommend ..."):
            # the situation is what follows it ("ops hosts: any exploit: Restore": a heading that names hosts or a class is
            # the scope of that situation, kept with it; one that excepts a host, "usr boxes, not User3 though", is read as
            # the exception it is)
            # (so is one that names the host the analyst is looking at, "analysed machine: root level, no activity -> ...")
            # ("U3 is the exception: pwned at user lvl -> ...": the host the exception is for is the scope)
            situation = EXCEPTION_HEADING.sub("", situation)
            # (r39h) so is a heading that states a window of steps, "from step 18 on: an op host at root -> ...": when in
            # the episode the situation holds, dropped, the rule held at every step)
            scope = situation if (hosts_in(situation) or classes_in(situation) or _AT_HAND_HEADING.match(situation.strip())
                                  or step_windows(situation)) \
                and not negations_in(situation) and not EXCEPT.search(situation) else _scope_besides(situation)
            situation, order = inner["situation"].strip(), inner["rest"]
            scope = re.sub(r"^\s*(?:analyst|planner|(?:action[\s_-]*)?chooser)\s*[/:,-]\s*", "", scope, flags=re.IGNORECASE)
            situation = f"{scope}: {situation}" if scope else situation  # (the role it is for is no part of it)
    verdict = OPENING.match(order)
    if not situation and verdict and forbids_verb(verdict["situation"]) and _verdict_before(verdict["situation"], verdict["rest"]):
        # (r44x) the verdict before the colon turns the move down, "No case for a Remove: <situation>.": it is the order
        # (a prohibition), the situation after the colon its condition (read in the order, that situation's history, "just
        # after our Restore of it", was lost and the rest of it read as whole)
        situation, order = verdict["rest"].strip().rstrip("."), verdict["situation"]
    if not situation:
        # ("User4 compromised means the attacker has a desk to work from, so plan a Remove of it": the state glossed before
        # ", so" is the order's condition, the gloss its reason; read as no condition, a compiled "any compromise" on the
        # host fired on its row at Compromised Unknown, which its words do not say for sure)
        situation = _glossed_state(order)
    # (a lesson drawn in its own words, "The lesson I'd keep: ...", is the whole rule: the sentences before it are its
    # story, none of them its situation)
    if not situation and first > 0 and not headed and first != drawn and not CONDITION.search(order) \
            and not RELATIVE.search(order):
        situation = _situation_told_first(parts[:first])
    if not situation and not CONDITION.search(order) and not RELATIVE.search(order):
        order, situation = _situation_after(order, parts[first + 1:first + 2])
    # (an order for the other cases, "...; leave it alone otherwise", is no part of this rule)
    # (r46m: not a ladder's next rung, "else if it only shows a probe, decoy it": a case with its own condition)
    # (r56n: and a move named alone as what comes first or instead, "...; an Analyse first.": the order that follows a ban)
    orders = [order] + [p for p in parts[first + 1:] if (gives_order(p) and not EXPLANATION_LEAD.match(p) or _SCOPE_NOTE.match(p)
                                                         or _NOUN_MOVE_ALONE.match(p))
                        and (not OTHERWISE.search(p) or _NEXT_RUNG.match(p))]
    instruction = "; ".join(j for j in (without_justification(LEAD_WORD.sub("", o)) for o in orders) if j)
    heading = re.match(r"^\s*(?:except(?:\s+for)?|exception\s*(?:for)?|but)\b", situation, re.IGNORECASE)
    return instruction, "" if heading else without_justification(situation).rstrip("."), True


# (r49a) A heading that says what follows no longer holds ("Outdated:", "Retracted:", "No longer:"), as MEANS_DISOWNED
# says it never did
_DISOWNED_HEADING = re.compile(r"\b(?:outdated|obsolete|superseded|retracted|withdrawn|scrapped|dropped|no\s+longer|"
                               r"not\s+any\s*more|old\s+(?:advice|rule|note|guidance))\b", re.IGNORECASE)


def _situation_told_first(before: list[str]) -> str:
    """A note whose first sentences state the situation (a host's state, then what phase that means, then the order):
    its first statement before the order that is not a story is its condition (what follows a colon in it explains,
    and is left out); "" if none is."""
    for part in before:
        # (r49h) a heading that states nothing, names no host, class or move, "Following up on ann's R-4:", "Follow-up:":
        # the situation is what follows its colon (read as a story for its "-ing", "for Op_Host2 ... only while it reads
        # Privileged; then Restore Op_Host2" stood with no condition and held wherever Op_Host2 was shown)
        # (r49a: not one that disowns what follows, "Myth:", "Wrong:", "Outdated:": its words are no situation of the
        # note's; read as one, "Myth: <host> at <state> is clean. Analyse <host> anyway." held only where the myth did)
        labelled = OPENING.match(part)
        if labelled and not (states_something(labelled["situation"]) or hosts_in(labelled["situation"])
                             or classes_in(labelled["situation"]) or verbs_in(labelled["situation"])
                             or MEANS_DISOWNED.search(labelled["situation"]) or _DISOWNED_HEADING.search(labelled["situation"])):
            # (r49a: one that restricts, "Late game only:", "Night shift only:", states a condition the tables never
            # show: kept before the situation, it is part of the note's condition, not dropped with the heading)
            part = labelled["rest"] if not re.search(r"\bonly\b", labelled["situation"], re.IGNORECASE) \
                else f"{labelled['situation'].strip()}, {labelled['rest']}"
        head, said = opening_of(part)
        # (r44h) a verdict on a move before the colon, "Not the moment for a Remove: <situation>.", states no
        # situation itself: the one it is about follows the colon (left out, the order held in every state)
        head = said.strip() if _verdict_before(head, said) else head or part
        # (r48b) a move said to fall short there, "a Remove won't do on User1 at root": the situation is where (read
        # whole, the move's "won't" was the situation's negation)
        head = falls_short_scope(head) or head
        # (a sentence that says what a host is or whose it is, the team that runs it, states no situation)
        # (nor does a moment told in the past, "Every time it seemed quiet for a turn, it was owned again")
        # (r44h: the defender's move as the time of the state, "... just after we restored it", is no story told)
        # (r57h: nor one that says what a word of the note means, "root is for Privileged only", glossary.defines_word)
        if not STORY.search(_MOVE_SINCE.sub("", head)) and not EXPLANATION_LEAD.match(head) and states_something(head) \
                and not TOLD_OF_IT.search(head) and not defines_word(head):
            return head
    return ""


def _verdict_before(head: str, said: str) -> bool:
    """(r44h, r44x) Whether `head`, before a colon, is a verdict on a move ("Not the moment for a Remove", "No case for
    Restore") and `said`, after it, the situation it is about: the head names a move but no host and no state, the
    rest a state and no order."""
    return bool(head and verbs_in(head) and not states_something(head) and not hosts_in(head)
                and states_something(said) and not gives_order(said))


# "<state> means <what it is>, so <order>": the state and the order (the gloss is no move: "means restore" orders, MEANS).
# (r43h: a file's name keeps its dot, "cmd.exe in the evidence means ...", and the host at hand may lead it, "for the host
# under analysis, a <file> in the evidence means ...")
_GLOSSED_STATE = re.compile(r"^\s*(?P<state>(?:(?:for|on)\s+" + HOST_AT_HAND + r"\s*,\s*)?(?:[^,;:.]|\.(?=\w))+?)\s+"
                            r"(?:means?|indicates?|signals?|signifies|points?\s+to|(?:is|are)\s+(?:a|an)(?=\s))\s+"
                            r"(?!(?:(?:a|an|the)\s+)?" + VERB_WORD + r")[^.;:,]+,\s*so\s+(?!that\b)(?P<order>.+)$", re.IGNORECASE)


def _heading_away(part: str) -> str:
    """(r43h) A sentence without a heading that only labels it ("Lesson: ...", "Rule: ..."; r56h: or names the role it
    is for, "For the analyst: ...", which states no situation)."""
    found = OPENING.match(part)
    heading = found["situation"].strip() if found else ""
    return found["rest"] if found and (_HEADING_ONLY.match(heading) or _FOR_ROLE.match(heading)) else part


# (r56h) The role a heading says the sentence is for: "For the analyst", "for the Planner", "Chooser".
_FOR_ROLE = re.compile(r"^(?:for\s+(?:the\s+)?)?(?:plan|planner|analyst|action[\s_-]?chooser|chooser)$", re.IGNORECASE)


def _glossed_state(part: str) -> str:
    """The state a sentence glosses before ", so ORDER" ("User2 rooted means the attacker owns the lab box, so plan a
    Restore of User2" -> "User2 rooted"), where it names a host or a class and a state and tells no story; else ""."""
    found = _GLOSSED_STATE.match(part)
    if found is None or not gives_order(found["order"]):
        return ""
    state = found["state"].strip()
    if STORY.search(state) or FIRST_PERSON.search(state):
        return ""
    if _EVIDENCE_GLOSSED.search(state) or evidence_tests(state):
        # (r43h) what the analyst's evidence shows, of the host at hand: judged.py reads it; (r56h) so is a line of that
        # evidence said alone and named for what it is, "an outbound link to port 4444 is an attacker shell, so ...":
        # the order holds where the evidence shows it (read as no state, the order stood with no condition, and fired on
        # every analysis it looked like)
        return state
    if not (hosts_in(state) or classes_in(state)) or not states_something(state):
        return ""
    return state


# (r43h) A glossed state that is what the evidence lists: "cmd.exe in its evidence means root, so ...". Read as no state
# (it names no host), the order after it stood with no condition and fired by its likeness to any analysis.
_EVIDENCE_GLOSSED = re.compile(r"\b(?:in|on)\s+(?:the|its|their)\s+evidence\b|\bevidence\s+(?:lists|shows|has|holds|contains)\b",
                               re.IGNORECASE)


def _scope_besides(heading: str) -> str:
    """The class a heading names before the host it excepts ("usr boxes, not User3 though", "user hosts except User3"):
    the scope of the situation that follows it, without its exception (the exception is read as such, `excepted`);
    "" where the heading names a host outside its exception, or is negated before it."""
    cut = re.search(rf"\s*(?:[,(]|\b(?:{EXCEPT_WORDS}|not)\b)", heading, re.IGNORECASE)
    if cut is None:
        return ""
    head, rest = heading[:cut.start()], heading[cut.start():]
    told = [h for m in (*EXCEPT.finditer(heading), *(m for p in EXCEPTED_ALONE for m in p.finditer(heading)))
            for h in hosts_in(m["what"])]
    if not classes_in(head) or hosts_in(head) or negations_in(head) or not hosts_in(rest) \
            or not set(hosts_in(rest)) <= set(told):
        return ""
    return head.strip()


# A role named before the rule's own situation ("plan: OpS0 at user level -> Restore OpS0"): whom it is for.
_ROLE_HEADING = re.compile(r"^(?:plan|planner|analyst|action[\s_-]?chooser|chooser)$", re.IGNORECASE)


# A statement after an order, of how far things have gone on its host: "do not restore User1 yet; it only shows a
# scan", "don't restore Enterprise0: the attacker has only user-level access there". Said of the host the order is
# about, in the present, it is the situation the order is given in (the order says nothing of the host once it stands
# otherwise).
_TRAILING = re.compile(r"^(?P<order>.+?)(?:\s*[,:]\s*|\s+[\u2013\u2014-]{1,2}\s+)(?P<tail>(?:it|the\s+(?:host|machine|box|server)|the\s+attacker|"
                       r"red|" + HOST_NAME + r")\b[^,;:]+)$", re.IGNORECASE)


_NOW = re.compile(r"^(?:it|the\s+(?:host|machine|box|server)|the\s+attacker|red|" + HOST_NAME + r")(?:'s|\s+(?:is|are|has|only|just|"
                  r"merely|still|shows|has\s+only|is\s+only|(?:only|just|merely|still)\s+(?:shows|has|is)))\b", re.IGNORECASE)


# What makes such a statement the bound of the order rather than its reason ("it is the attacker's foothold"): it
# says how far things have gone, and no further.
_HOLDS_BACK = re.compile(r"\b(?:only|just|merely|simply|solely|still|yet|not|no|nothing)\b", re.IGNORECASE)


_ACCESS_WORDS = re.compile(r"\b(?:access|foothold|user[\s-]level|admin\w*|system[\s-]level)\b", re.IGNORECASE)


def _situation_after(order: str, following: list[str]) -> tuple[str, str]:
    """(order, situation) where the order is followed by a statement of how its host stands now (_TRAILING): in the
    same sentence after a comma, colon or dash, or as the next clause; else (order, "")."""
    tail = _TRAILING.match(order)
    for candidate, rest in ([(tail["tail"], tail["order"])] if tail else []) + [(f, order) for f in following]:
        candidate = candidate.strip().rstrip(".!")
        if _NOW.match(candidate) and _HOLDS_BACK.search(candidate) \
                and (STATE_WORDS.search(candidate) or _ACCESS_WORDS.search(candidate)) \
                and not gives_order(candidate) \
                and not STORY.search(candidate) and not JUSTIFICATION.match(candidate) \
                and not CONDITION.search(candidate):
            return rest, candidate
    return order, ""


# ("a probe on it and nothing else, ...": "nothing else" / "anything else" is what the host shows, not the other cases;
# read as "else", the whole sentence was dropped, its "rather than any Remove" with it)
_NEXT_RUNG = re.compile(r"^\s*(?:or\s+)?(?:else|otherwise)\s*,?\s*(?:if|when|whenever|once)\b(?![^,;:]*\b(?:otherwise|else)\b)", re.IGNORECASE)
