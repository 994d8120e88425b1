"""Whether a text gives an order at all (`gives_order`): a note that only reports gives none. Pure.

A sentence instructs when it states a condition, a prohibition, an imperative or "X should be restored"; a
report of what happened, a judgement or a reason does not. Also here: the sentences and parts of a text
(`sentences`, `parts_of`), an opening situation before a colon (`opening_of`), and the clause before its
justification ("because ...", "so that ...", "lesson: ...": `without_justification`, `so_order`).
"""

from __future__ import annotations

import re
from typing import Optional

from forge.env.catalog import DECOY_SERVICES
from forge.rulebook.language.forbidding import (ADDRESSED_VERB, BAD_IDEA, BEATS, FALLS_SHORT, MEANS_ADDRESSED,
                                                MEANS_DENIED, VERB_WORD, bans_every_move, fails_in_condition, forbids_verb,
                                                modal_order)
from forge.rulebook.language.markers import (CONDITION, CONDITION_MARKER, DEFENDER_MOVED, IMPERATIVE_START,
                                             OPENING_VERB, OPENS_REPLY_WITH, clause_end, negations_in, states_something)
from forge.rulebook.language.names import HOST_NAME, HOST_SHORT, STATE_WORDS, VERB, VERB_FORMS, classes_in, hosts_in, verbs_in


_DECOY_NAMES = frozenset(f"decoy{service.lower()}" for service in DECOY_SERVICES)


# A verb named as the limit or the answer: "Remove is as far as we go there", "a Remove is all we need", "Restore is the
# right call", "a Monitor is usually sufficient there" (an order of that verb).
_AS_FAR = re.compile(r"^\s*(?:(?:a|an|the)\s+)?(?:" + "|".join(pattern for _, pattern in VERB_FORMS) + r")\s+(?:(?:on|of|for|there|it|\w+\d)\s+){0,2}"
                     r"(?:(?:is|are|'s)\s+(?:as\s+far\s+as\s+(?:we|you|i|they)\s+go|the\s+(?:most|furthest|limit|answer|way\s+to\s+go|"
                     r"right\s+(?:call|move|answer))|all\s+(?:we|you|i)\s+(?:do|need|want)|"
                     # (r37m) "an Analyse is generally the better opening move (than a Restore)": the move preferred
                     r"(?:(?:usually|often|always|generally|probably|normally|clearly)\s+)?the\s+(?:better|best|preferred|smarter|"
                     r"safer|wiser|"
                     # (r49m) a policy's order: "an Analyse of User4 is the required step", "... is mandatory"
                     r"prescribed|required|mandated|mandatory|expected|standard|correct|proper)\s+(?:first\s+|opening\s+)?"
                     r"(?:move|call|choice|option|answer|response|play|action|step|course(?:\s+of\s+action)?)|"
                     r"(?:mandatory|required|compulsory|obligatory|prescribed)|"
                     r"(?:(?:usually|always|often|quite|more\s+than)\s+)?(?:enough|sufficient|plenty)|"
                     # a move allowed: "Sleep is fine", "a Monitor is OK there" (a "do" of it)
                     r"(?:(?:perfectly|totally|quite|just)\s+)?(?:fine|ok|okay|acceptable|alright|all\s+right|allowed|permitted))|"
                     # ("a Remove will do for that", "a Remove does the job there")
                     r"(?:will|would|should|can)\s+(?:do|suffice)|suffices|does\s+the\s+(?:job|trick)|"
                     # (r53h) a case's move said to come first, "both rooted -> the Restore of User1 goes first": the order
                     r"(?:(?:should|must|has\s+to)\s+)?(?:goes?|comes?)\s+first|(?:is|'s)\s+first)\b", re.IGNORECASE)


# (r37m) A move named with no more to it, as a case's whole order ("-> the Remove alone", "just the Analyse", "a Restore
# and nothing else"): an order of that move (read as no order, the case was dropped from the note as a remark)
_VERB_ALONE = re.compile(r"^\s*(?:(?:just|only|simply)\s+)?(?:(?:a|an|the)\s+)?(?:" + "|".join(pattern for _, pattern in VERB_FORMS)
                         + r")(?:\s+(?:alone|only|and\s+nothing\s+(?:else|more)))?\s*[.!]?\s*$", re.IGNORECASE)


# A scope said before a verb named as enough, with no comma between them (r32m: "on Op_Host1 with a user foothold a Remove
# will do"; without the comma the lead was not seen, and the text gave no order).
_UNMARKED_SCOPE = re.compile(r"^(?:for|on|with|at|in)\s+[^,:;]{3,80}?\s+(?=(?:a|an|the)\s+(?:" +
                             "|".join(pattern for _, pattern in VERB_FORMS) + r")\b)", re.IGNORECASE)


# "since" that gives a reason ("since a Restore costs a step"), not one that says from when ("since step 4", "since
# episode 12", "since it was owned"): the reason openers of both readers of a rule, this one and compile.strip_justification
SINCE_AS_REASON = r"since(?!\s+(?:before|then|earlier|the\s+(?:last|previous|prior|start|beginning|first)|step|last|it\s+(?:was|got|became)|episode|turn|round|run|game|seed|version|yesterday|today|\d))"

# (r58l) A reason said first and closed by a colon, before the order it explains: "Because the ops side is what counts:
# Restore Op_Server0 once it is rooted", "Since ...: ...". The order is after the colon (compile._reason_first_cut), and
# (r58d) a state the reason tells of ("Because User1 is rooted: Restore User1") is the case the order rests on
# (checks._reason_state_dropped): `reason` is its words.
REASON_FIRST = re.compile(r"^\s*(?:because|" + SINCE_AS_REASON + r"|given\s+that|seeing\s+(?:as|that))\b(?P<reason>[^:.;!?]{1,200}):\s*(?=\S)",
                          re.IGNORECASE)

# (r60m) A purpose said first and closed by a comma or a colon, before the order it serves: "To shield the user side,
# put a DecoySvchost on User1 ...", "In order to spare the ops side: Restore ...". A purpose is neither a condition
# nor the order: the reason cut (compile.strip_justification) matched its opening "to keep" and took the whole text with
# it, and an empty directive dropped the rule. `reason` is its words (compile._reason_first_cut keeps what follows).
PURPOSE_FIRST = re.compile(r"^\s*(?:in\s+order\s+to|so\s+as\s+to|to\s+(?:prevent|stop|avoid|keep|make\s+sure|save|protect|"
                           r"guard|shield|deny|spare))\b(?P<reason>[^:,.;!?]{1,200})[:,]\s*(?=\S)", re.IGNORECASE)


# (r53m) "otherwise" that gives a reason ("..., otherwise it spreads"), not a default's "unless told otherwise", "until
# someone says otherwise": cut there as a reason, the default lost its order (the reason openers of both readers)
NOT_TOLD = r"(?<!\btold\s)(?<!\binstructed\s)(?<!\badvised\s)(?<!\binformed\s)(?<!\bsays\s)(?<!\bsay\s)"


JUSTIFICATION = re.compile(
    r"\s*(?:[,;:(\u2013\u2014-]\s*)?\b(?:(?<!just\s)(?<!only\s)(?<!merely\s)(?<!simply\s)(?<!solely\s)because|" + SINCE_AS_REASON + r"|as\s+otherwise|so\s+that|in\s+order\s+to|"
    + NOT_TOLD + r"otherwise(?!\s*,?\s*(?:if|when|whenever|once)\b)|given\s+that|"
    # (r60m) "or else" and what it threatens, said of a subject ("..., or else red walks in", "or else we
    # lose the reward"): a reason, where it ends the text. Not an order after it ("or else restore it"), nor a case ("or
    # else, if ..."), nor a threat the text goes on after ("..., or else it stays rooted: Restore ..."), whose cut took that order
    r"or\s+else\s+(?=(?:the|its|their|our|your|my|red|we|you|they|it|that|this|he|she)\b)(?![^.;:!?]*[.;:!?]\s*\S)|"
    r"to\s+(?:prevent|stop|avoid|keep|make\s+sure|save)|"
    # ("a host which is scanned and nothing more should never be restored": right after the noun it restricts, with no
    # comma, "which" opens the condition, no reason)
    # (r46a: nor "that way" after "stays" / "remains", "so long as the box remains that way plus ...": what it remains, no reason; cut
    # there, the rest of the condition was lost with it)
    r"(?<!host\s)(?<!hosts\s)(?<!box\s)(?<!boxes\s)(?<!machine\s)(?<!machines\s)(?<!server\s)(?<!servers\s)"
    r"(?<!node\s)(?<!nodes\s)(?<!one\s)(?<!ones\s)which\s+(?:is|was|would|will|means|costs?)|(?<!stays\s)(?<!stay\s)(?<!remains\s)(?<!remain\s)that\s+way|"
    r"lesson(?:\s+learn[te]d)?\s*:|the\s+lesson\s+is)\b.*$|,\s*so\s+(?!that\b)(?!long\s+as\b).*$", re.IGNORECASE | re.DOTALL)


# (r46a: not ", so long as ...": a condition, as "as long as" is; read as the reason after ", so", it was cut off the rule)
# A clause after the order that explains rather than instructs: "; it is the attacker's foothold".
EXPLANATION_LEAD = re.compile(r"^(?:it|it's|its|they|they're|this|that|that's|there|the\s+attacker|red|these|those|"
                               r"which|as|we|i|our|my)\b", re.IGNORECASE)


_PAST = (r"was|were|had|did|got|went|lost|spent|left|took|made|kept|forgot|saw|caught|fell|ran|came|became|began|"
         r"brought|found|held|knew|led|meant|met|paid|said|sent|sat|stood|thought|told|won|wrote|gave|cost|happened|"
         r"wasted|missed|waited|tried|failed|worked|cleared|stayed|remained|looked|seemed|showed|reached|moved|"
         r"spread|escalated|exploited|compromised|scanned|re-?entered|returned|succeeded|"
         # (irregular pasts of what a teacher did: "When Op_Server0 first showed a scan I chose Monitor")
         r"chose|drew|felt|froze|heard|hid|struck|sold|taught|threw|understood|woke|bought|built|dealt|fought|grew|"
         r"sought|shot|slept|spoke|swept|swore|tore|undid|overlooked|overdid|mistook|misread|forgave|rebuilt")


# Verbs that tell what happened (not participles that state a situation: "Op_Server0 compromised").
_TOLD_VERB = (r"was|were|had|did|didn't|got|went|came|became|stayed|remained|cost|lost|wasted|spent|fell|ran|kept|"
              r"showed|reached|moved|spread|escalated|re-?entered|returned|failed|worked|cleared|let|made|took")


# (r47b) "no <level or state>" just before a participle: "(no root reached)", "no foothold gained" deny that state (fixed-width
# lookbehinds, one for each noun)
_NO_STATE_BEFORE = "".join(rf"(?<!\bno\s{noun}\s)" for noun in ("root", "admin", "privilege", "privileges", "foothold",
                                                                  "compromise", "escalation", "access", "exploit", "scan",
                                                                  "probe", "host", "box", "root level", "privileged level",
                                                                  "admin level", "root access", "admin rights"))


STORY = re.compile(
    # what the author did ("I restored User0", "we waited", "my plan at turn 9 asked for ..."), or when ("last time")
    rf"\b(?:i|we|my|our)\s+(?:\w+\s+)?(?:(?:at|on|in|during|around)\s+(?:step|turn)\s+\d+\s*,?\s+)?(?:\w+ed|{_PAST})\b|"
    # (r49m: with an adverb before the verb, "my plan still opened with ...", "we then waited", "our Remove only bought")
    rf"\b(?:i|we|my|our)\s+(?:\w+\s+)?(?:still|then|already|just|only|also|even|again|instead)\s+(?:\w+ed|{_PAST})\b|"
    rf"\blast\s+time\b|\bearlier\s+(?:today|on)\b|"
    # what one named host went through ("User1 was scanned and then exploited", "Remove did not clear User1")
    # (after the moment it happened: "At step 3 User2 was exploited and I removed it ...")
    # (or after a look back: "In hindsight the Remove had done its job ...")
    rf"^\s*(?:(?:here|there|then|so|and|but)\s*,?\s+)?(?:(?:in\s+hindsight|in\s+retrospect|with\s+hindsight|looking\s+back)\s*,?\s+)?"
    rf"(?:(?:at|on|by|in|during|around)\s+(?:step|turn)\s+\d+\s*,?\s+)?"
    rf"(?:the\s+)?(?:(?:user|enterprise|op[\s_-]?host|op[\s_-]?server)[\s_-]?\d|op\s+server|defender|it|red|the\s+attacker|"
    # (r47a: not a participle denied, "Enterprise1 at user level (root not reached)", "root not yet reached": the state it is
    # in, no event told; read as a story, the note's whole situation was dropped and the rule held on every host)
    # (r47b: nor a level or state denied with "no", "(no root reached)", "no foothold gained": the same denial said of the
    # noun, as "not root"; "no root was reached" still tells it)
    rf"the\s+red\s+agent|the\s+episode|(?:remove|restore|analy[sz]e|decoy\w*|monitor)\b)\b[^.;:]*?\b(?<!\bnot\s)(?<!\byet\s)(?<!\bnever\s)"
    rf"{_NO_STATE_BEFORE}(?:{_TOLD_VERB})\b|"
    # a report that opens with what was done ("Restoring User0 cost ..."); words that only end like a gerund
    # ("Nothing is happening ...", "Something on User1 ...", "During a scan ...") open no report
    r"^\s*(?!(?:no|some|any|every)thing\b|during\b)\w+ing\b(?!\s+(?:host|hosts|box|machine|server)s?\b)", re.IGNORECASE)


# (r38m) A host's state said as a participle, looked back at: "(each) compromised", "exploited", "scanned", "owned".
_STATE_PARTICIPLE = "(?:" + "|".join(f"(?<={word})" for word in ("compromised", "exploited", "scanned", "infected", "owned",
                                                                  "rooted", "breached", "hacked", "pwned", "affected")) + ")"


# After a verb at the start, what shows the sentence reports rather than orders ("Remove did not clear User1").
# (r47m: not the host the order is on, said as "whichever (one) it is": "Analyse whichever it is" orders the move)
_REPORT_AFTER_VERB = re.compile(rf"^(?!\s*(?:whichever|whatever)\s+(?:one\s+|host\s+|box\s+)?(?:it|they)\s+(?:is|are)\b)\s*(?:\w+\s+){{0,3}}?(?:did|does|do|was|were|is|are|has|had|won't|didn't|doesn't|wasn't|"
                                # what a move does there, said in the present: "Remove keeps failing there"
                                rf"keeps|fails|works|helps|seems|tends|never\s+works|"
                                # a move said to do something, with an adverb: "Remove evidently leaves a foothold",
                                # "Restore usually takes two steps" (a verb in the third person: no imperative)
                                rf"(?:\w+ly|often|never|seldom|sometimes)\s+(?!(?:hosts|boxes|machines|servers|ones|systems|"
                                rf"nodes|workstations|alerts|users|decoys)\b)[a-z]+[^s\W]s|"
                                rf"isn't|only(?!\s+(?:as|if|when|after|once|where|while|in\s+case)\b|\s*$)|alone|{_PAST})\b"
                                # a participle before what it describes is no report: "restore compromised user hosts"
                                rf"(?!\s+(?:\w+\s+)?(?:hosts?|box(?:es)?|machines?|servers?|workstations?|nodes?|ones|systems?|"
                                rf"desktops?|laptops?|(?:user|enterprise|op_host|op_server)\d)"
                                # (r38m) nor a state's participle before "one": "restore each compromised one"
                                rf"|{_STATE_PARTICIPLE}\s+one\b(?!\s+(?:time|step|turn|round|more)\b))", re.IGNORECASE)


# an order on how the reply opens or closes ("Start every report with the risk level in capitals")
# (r48m: or said of the reply itself, "analysis opens with the host name", "each report should end with the risk")
OPENS_REPLY = re.compile(rf"\b{OPENING_VERB}{OPENS_REPLY_WITH}|"
                         r"\b(?:reports?|repl(?:y|ies)|answers?|analys[ie]s|plans?|messages?|responses?|recommendations?|"
                         r"summar(?:y|ies)|outputs?)\s+(?:(?:always|should|must|shall|will|has\s+to|needs\s+to)\s+)?"
                         rf"{OPENING_VERB}(?:s|es)?\s+(?:with\b|w/)", re.IGNORECASE)


# The move put first in a cleft, as the object of the order a Planner or an Analyst gives: "a Restore is what we must
# recommend", "an Analyse is what I'd plan" (the move named as a noun). (Not the same object after a modal, "we must
# recommend a Restore": read so, a story's "I should plan a ..." became an order and a lesson fired where it did not
# speak: taken back in round 26)
_ROLE_ORDER_VERB = r"(?:recommend|plan|propose|suggest|schedule|queue|advise)"


_CLEFT_ORDER = re.compile(r"\b(?:an?\s+|one\s+)?(?=" + VERB_WORD + r"\s+is\s+what\b)\w+\s+is\s+what\s+(?:i|we|you)"
                          r"(?:\s+(?:should|must|need\s+to|ought\s+to|have\s+to|will|would)|['\u2019]d)\s+(?:always\s+)?"
                          + _ROLE_ORDER_VERB + r"\b",
                          re.IGNORECASE)


# The teacher's own preference between moves, in the present: "I'd prefer DecoyTomcat over DecoyApache", "we would prefer a
# Remove to a Restore there": an order of the first move (told in the past, "I preferred ...", it is a report).
_OWN_PREFERENCE = re.compile(r"\b(?:i|we)(?:['\u2019]d)?(?:\s+(?:would|do|still|now|really|also|much|definitely|strongly|"
                             r"generally))*\s+prefer\s+(?:(?:a|an|the|one|to)\s+)?(?=" + VERB.pattern + ")", re.IGNORECASE)


SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])|\n+|"
                       # (a note's next order in lower case, "OpS0 hit. plan Restore OpS0": a sentence of its own; after a
                       # word of two letters or more, not an abbreviation's "e.g.")
                       r"(?<=[a-z0-9]{2}[.!])\s+(?=(?:plan|recommend|restore|remove|analy[sz]e|decoy\w*|never|don'?t|do\s+not)\s)")


OPENING = re.compile(r"^(?P<situation>[^:;\u2013\u2014]{3,160}?)\s*(?::|\s[\u2013\u2014-]{1,2}\s)\s*(?P<rest>.+)$")


def sentences(text: str) -> list[str]:
    return [s.strip() for s in SENTENCE.split(" ".join((text or "").replace("\n", " \n ").split(" ")).strip()) if s.strip()]


# (r42h) A case a note closes with and says it gives no order for, in a sentence of its own ("... -> Restore each. a lone
# one hit -> the rule does not apply."): where the rule does not apply, no part of its order (kept, its state was read as
# a case the order also holds in)
_CASE_NOT_APPLYING = re.compile(r"(?<=[.!?])\s+[^.;:!?]{1,80}:\s*(?:(?:this|the)\s+(?:note|rule|lesson|list|checklist|tree)\s+"
                                r"(?:says\s+nothing|does\s+not\s+apply|doesn['\u2019]t\s+apply)|n/?a|not\s+applicable|"
                                r"(?:it|this)\s+(?:does\s+not|doesn['\u2019]t)\s+apply|nothing\s+from\s+this\s+(?:note|rule))\b[^.;]*[.!]?\s*$",
                                re.IGNORECASE)


def without_justification(text: str) -> str:
    """The clause before any "because / so that / lesson: ..." (and an explanation after a semicolon)."""
    text = _CASE_NOT_APPLYING.sub("", " ".join((text or "").split()))
    parts = [_without_explanation(so_order(p)) for p in re.split(r"\s*;\s*", without_purpose_first(text))]
    kept = [parts[0]] + [p for p in parts[1:] if not EXPLANATION_LEAD.match(p) and gives_order(p)]
    return "; ".join(JUSTIFICATION.sub("", p).strip(" ,") for p in kept if JUSTIFICATION.sub("", p).strip(" ,"))


def without_purpose_first(line: str) -> str:
    """`line` without a purpose said first (PURPOSE_FIRST), "To shield the user side, decoy ...", where what follows
    gives an order; else `line` (`gives_order` reads past it too). Not a purpose that holds a condition of its own ("To stop red when it scans Op_Server0,
    ..."): cut, the order would lose that condition."""
    found = PURPOSE_FIRST.match(line)
    if found is None or CONDITION.search(found["reason"]) or not gives_order(line[found.end():]):
        return line
    return line[found.end():]


def so_order(part: str) -> str:
    """ "REASON, so ORDER" ("User2 is the box the exercise must find, so leave User2 alone"): the order (a ", so ..."
    that does not order is a consequence, left out as a justification)."""
    found = re.search(r",\s*so\s+(?!that\b)(?P<order>.+)$", part, re.IGNORECASE)
    condition = CONDITION.match(part) if found and IMPERATIVE_START.match(found["order"]) else None
    if condition:
        # (r37m) "once it shows root a Remove would be wasted, so Restore it": the condition heads the order, the
        # judgement between them is its reason
        end = clause_end(part, condition.end())
        if end < found.start() and STATE_WORDS.search(part[:end]) and not verbs_in(part[:end]):
            return f"{part[:end].rstrip(' ,')}, {found['order']}"
    scoped = _SCOPED_REASON.match(part[:found.start()]) if found and IMPERATIVE_START.match(found["order"]) else None
    # (r46a: not where the order names a host or class of its own, "for a user host the usual fix is a Remove, so restore
    # Op_Server0 ...": the scope is the reason's, and the order's own object its scope)
    if scoped and (hosts_in(scoped["scope"]) or classes_in(scoped["scope"])) \
            and not hosts_in(found["order"]) and not classes_in(found["order"]):
        # (r46h) "on an op server at root the best cure is a Restore, so restore it": the scope heads the order, the
        # judgement after it is its reason (dropped with the reason, the rule was for every host)
        return f"{scoped['scope']}, {found['order']}"
    fallen = falls_short_scope(part[:found.start()]) if found and IMPERATIVE_START.match(found["order"]) else ""
    # (not where the order is on a host the scope does not name: "..., so restore Enterprise0" is its own)
    if fallen and set(hosts_in(found["order"])) <= set(hosts_in(fallen)) \
            and (not classes_in(found["order"]) or set(classes_in(found["order"])) <= set(classes_in(fallen))):
        # (r48b) "a Remove alone won't suffice on User1 at root, so add a Restore": where the move falls short is where
        # the other one is ordered (dropped with the reason, the order held on User1 in any state)
        return f"{fallen}, {found['order']}"
    resolved = _SCOPED_RESOLVE.match(found["order"]) if found else None
    # (r50a) only a scope that states what it holds of ("for each box at Unknown"), none that sets a host aside ("for anything
    # but User1"): a scope that names a host bare, "so for User1 we should ...", takes its state from the reason, and
    # dropped with it, the order held on that host in any state (and on the very host "anything but" set aside)
    if resolved and (not states_something(resolved["scope"]) or _SCOPE_SET_ASIDE.search(resolved["scope"])):
        resolved = None
    if resolved and _RESOLVED_MODAL.match(found["order"][resolved.end():]) and not gives_order(part[:found.start()]):
        # (r50g) "a quiet row at Unknown tells little, so for each box at Unknown we should suggest an Analyse": the
        # scope and the teacher's resolve after it are the order (dropped with the reason, the scope's state was lost and
        # the reason's words were read as the rule's condition)
        return f"{resolved['scope']}, {_RESOLVED_MODAL.sub('', found['order'][resolved.end():], count=1)}"
    if found and _ban_drawn(found["order"]) and not gives_order(part[:found.start()]) and STATE_WORDS.search(part[:found.start()]) \
            and not CONDITION.match(part):
        # (r60l) a ban drawn from a state the reason states, "Op_Server0 is only scanned, so it gets no Restore": the ban
        # holds in that state (read without it, the "never" held in every state of the host, wider than its words)
        # (r60d: its pronoun said as the reason's host, `_ban_drawn_said`)
        drawn = _ban_drawn_said(part[:found.start()], found["order"])
        return f"When {part[:found.start()].strip()}, {drawn}" if drawn else part
    # (r60l) or a ban said as what follows, "User2 is our canary, so it gets no Restore", "..., so no Remove for it": the
    # consequence the writer draws is the order (left out as a justification, the ban was lost and a "do" of the very
    # move passed for the text)
    drawn = _ban_drawn_said(part[:found.start()], found["order"]) if found else ""
    return drawn if drawn and (not gives_order(part[:found.start()]) or _NO_NEED.search(part[:found.start()])
                                        or _ban_concluded(part[:found.start()], found["order"])) \
        and (IMPERATIVE_START.match(found["order"]) or MEANS.search(found["order"]) or _ban_drawn(found["order"])) \
        and (not CONDITION.match(found["order"]) or _general_reason(part[:found.start()])) else part


def _ban_drawn(consequence: str) -> bool:
    """(r60l) Whether the clause after ", so" is a ban of a move (forbidding.forbids_verb) said as an order for what comes:
    "it gets no Restore", "we never Remove it", "no Remove for it" (not "it got no Restore", what was done: no order)."""
    return gives_order(consequence) and forbids_verb(consequence)


# (r60d) The host a drawn ban's pronoun stands for: "Enterprise0 is our canary, so it gets no Remove, unlike User2": cut
# from its reason, "it" lost its host, and the ban was read of the one host left in the words, the very host the text sets
# apart from it (the opposite). Said as the reason's one host; where the reason names none or several, not drawn.
_DRAWN_PRONOUN = re.compile(r"\b(?:it|they|them)\b", re.IGNORECASE)


def _ban_drawn_said(reason: str, consequence: str) -> str:
    """(r60d) `consequence` with the pronoun of a drawn ban (`_ban_drawn`) said as the one host `reason` names; "" where
    it has no such host; any other consequence as it stands."""
    if not _ban_drawn(consequence) or IMPERATIVE_START.match(consequence) or MEANS.search(consequence) \
            or not _DRAWN_PRONOUN.search(consequence):
        return consequence
    hosts = hosts_in(reason)
    return _DRAWN_PRONOUN.sub(hosts[0], consequence) if len(hosts) == 1 else ""


# (r48b) Where a move is said to fall short, "(on User1 at root,) a Remove alone won't suffice (on User1 at root)", "a Remove of
# Enterprise1 won't do while it is rooted": the host or state said with it, before it or after it (`falls_short_scope`).
_FALLEN_HEAD = re.compile(r"^\s*(?P<scope>(?:for|on|at|with|in)\s+[^,;:]{3,80}?)\s*,", re.IGNORECASE)


_FALLEN_TAIL = re.compile(r"^\s*(?P<scope>(?:(?:on|for|at|with|in|against)\s|(?:" + CONDITION_MARKER + r")\b|(?P<host>(?:the\s+)?"
                          + HOST_NAME + r"\b))[^,;:]{0,80})", re.IGNORECASE)


def falls_short_scope(reason: str) -> str:
    """(r48b) The situation a reason that a move falls short says ("a Remove alone won't suffice on User1 at root",
    "on User1 at root, a Remove won't do"): the host and state where the other move is ordered; "" where it says neither
    host nor state, or the move falls short inside a condition (`fails_in_condition`: the fallback's own)."""
    short = FALLS_SHORT.search(reason)
    if short is None or fails_in_condition(reason[:short.start()]):
        return ""
    head = _FALLEN_HEAD.match(reason[:short.start()])
    named = [h for h in hosts_in(short.group(0))]
    tail = _FALLEN_TAIL.match(reason[short.end():])
    scope = " ".join(part for part in (head["scope"] if head else "", " and ".join(f"on {h}" for h in named) if named
                                       and not (head and set(named) <= set(hosts_in(head["scope"]))) else "",
                                       # ("won't clear User1 at root": the host it fails to clear, the one the order is on)
                                       ("on " if tail and tail["host"] else "") + tail["scope"].strip() if tail else "") if part)
    return scope if states_something(scope) or hosts_in(scope) or classes_in(scope) else ""


# (r46h) A scope, then a judgement of the move for it with no comma between: "for an enterprise host at root the surest
# cure is a Restore", "on Op_Host1 the safer move would be a Remove".
# (r50g) A scope, then the teacher's resolve with no comma between them: "for any host at Unknown I should recommend ..."
_SCOPED_RESOLVE = re.compile(r"^(?P<scope>(?:for|on|at|with|in)\s+[^,;:]{3,120}?)\s*,?\s+(?=(?:i|we)\s+(?:should|must|need\s+to|"
                             r"ought\s+to|have\s+to|will|shall)\b)", re.IGNORECASE)


_SCOPE_SET_ASIDE = re.compile(r"\b(?:but|except(?:ing)?|save|other\s+than|besides|apart\s+from|excluding|aside\s+from)\b", re.IGNORECASE)


_SCOPED_REASON = re.compile(r"^(?P<scope>(?:for|on)\s+[^,;:]{3,80}?)\s+(?=(?:the|a|an|my|our|its)\s+(?:\w+\s+){0,2}?(?:fix|move|cure|"
                            r"remedy|answer|option|choice|call|response|step|action)\s+(?:is|are|would\s+be|will\s+be)\b)", re.IGNORECASE)


def _general_reason(reason: str) -> bool:
    """Whether what comes before ", so when ..., ORDER" is a general reason, said of no host or class and telling
    nothing ("a live exploit matters more than a scan, so when E0 shows one, remove it": r32m): the order, with its own
    condition, is what follows "so" (read as a consequence, the order was dropped with it). (r48h) So is one that names
    hosts or a class but says no state of them ("the blue lead looks after Op_Host1 in person, so when it shows a
    scan, decoy it": who looks after the host, no situation of it; read as the whole rule, its order was lost and a rule
    kept semantic fired wherever that host was shown)."""
    if STORY.search(reason) or CONDITION.search(reason):
        return False
    # (r48a: not one that denies or restricts what it says of them, "we never cover Op_Host1, so when a host shows a
    # scan, ...", "only User2 matters, so ...": whom the order is for, said in the reason; read as general, the order
    # fired on the host the reason leaves out)
    return not (hosts_in(reason) or classes_in(reason)) or not (states_something(reason) or negations_in(reason))


# A judgement that something is not needed, said of a subject ("A host that was only probed doesn't need rebuilding"): it
# reads like a prohibition, yet before ", so ORDER" it is the reason, and the order is what follows it.
# (r60h) An order that opens with a ban of its own, "never Restore ...", "don't Remove ...".
_BAN_OPENS = re.compile(r"^\s*(?:never|do\s+not|don['\u2019]?t|no)\s+(?:(?:a|an|the|any)\s+)?(?P<verb>" + "|".join(p for _, p in VERB_FORMS) + r")",
                        re.IGNORECASE)


def _ban_concluded(reason: str, order: str) -> bool:
    """(r60h) Whether the reason before ", so" judges a move in general ("a Remove of a box merely probed gains nothing") and
    the order after it bans that very move in so many words ("never Remove Op_Host0 for a probe by itself"): the ban is
    the lesson, the judgement its reason. Read as the order, the judgement was kept and the ban cut away with the reason:
    the rule stood on any host, not on the host its lesson names."""
    # (r60a) In general only: a judgement of the move on a host of its own, or in a case of its own the ban points back to
    # ("a Restore of Enterprise0 is overkill when it is scanned, so never Restore Enterprise1 then"), is the ban's case; cut
    # away with the reason, the ban stood on its host in any state.
    if hosts_in(reason) or _POINTS_BACK.search(order):
        return False
    ban = _BAN_OPENS.match(order)
    judged = BAD_IDEA.search(reason)
    return bool(ban and judged) and set(verbs_in(ban.group(0))) == set(verbs_in(reason[:judged.start()])) != set()


_POINTS_BACK = re.compile(r"\b(?:then|in\s+(?:that|such\s+a|this)\s+case|at\s+that\s+(?:point|time|stage)|there)\b", re.IGNORECASE)


_NO_NEED = re.compile(r"^\s*(?:(?:a|an|the|any|every|each)\s+)?(?!(?:do|don'?t|never|please)\b)\w+\b[^,;:]*?\b"
                      r"(?:(?:does|do|did)\s+not|doesn'?t|don'?t|didn'?t)\s+(?:really\s+)?need\s+(?:\w+ing|to\s+be\s+\w+ed)\b[^,;:]*$|"
                      r"^\s*(?:(?:a|an|the|any|every|each)\s+)?\w+\b[^,;:]*?\b(?:needn'?t\s+be|(?:is|are)\s+not\s+worth|(?:isn'?t|aren'?t)\s+worth)\b[^,;:]*$",
                      re.IGNORECASE)


def _without_explanation(part: str) -> str:
    """An order without what a colon (or a comma and a pronoun) adds after it when that says nothing of hosts or states
    and orders nothing ("Do not restore User3, even when it is rooted: the lab runs on it.", "Avoid DecoyVsftpd on the
    enterprise hosts, they already run vsftpd.")."""
    found = re.match(r"^(?P<head>.+?)\s*:\s+(?P<tail>[^:]+)$", part) or \
        re.match(r"^(?P<head>.+?)(?:,|\s[\u2013\u2014-]{1,2})\s+(?P<tail>(?:it|they|this|that|these|those|there)\b[^,;:]*)$", part,
                 re.IGNORECASE)  # (or after a dash: "must not be restored -- it is the attacker's way in")
    if found is None or not gives_order(found["head"]) or gives_order(found["tail"]):
        return part
    tail = found["tail"]
    if STORY.match(tail) and not CONDITION.search(tail):
        return found["head"]  # "...: restoring User3 kills the green agents' sessions", what doing it would do
    # (a state the host falls back into after the move, "it gets re-exploited at once", is what the order is up against,
    # its reason, no state the order asks of it)
    states = STATE_WORDS.search(_RETAKEN.sub(" ", tail))
    if hosts_in(tail) or classes_in(tail) or states or CONDITION.search(tail) or VERB.search(tail):
        return part
    return found["head"]


# A host taken again, said as what happens to it ("gets re-exploited", "would be compromised again", "is owned right
# back"): the outcome the order foresees, never the state it asks of the host now.
_RETAKEN = re.compile(r"\b(?:gets?|got|will\s+(?:be|get)|would\s+(?:be|get)|is|are)\s+(?:(?:just|simply|only|immediately|"
                      r"instantly|always)\s+)?(?:re-?(?:exploit|compromis|infect|breach|own|pwn|scan)\w*|"
                      r"(?:exploit|compromis|infect|breach|own|pwn|scann)\w*\s+(?:again|right\s+back|straight\s+back))\b",
                      re.IGNORECASE)


LEAD_WORD = re.compile(r"^(?:actually|ok(?:ay)?|so|now|also|and|but|correction|note|important|update|new\s+rule|"
                        r"rule|reminder|tip|please\s+note|heads\s+up|fyi|team|operators?|defenders?|folks|all|"
                        # (a concession before the order, after the teacher's doubt: "Even so, when ..., put ...")
                        # ("Still, when ...": the same concession in one word; "anyway", "in any case", "either way")
                        r"even\s+so|nonetheless|nevertheless|all\s+the\s+same|that\s+said|having\s+said\s+that|regardless|"
                        r"still|anyway|anyhow|in\s+any\s+case|either\s+way|even\s+then|"
                        # (r34m: a checklist's count, "step one, if ..., ...; step two, ...", a step of the list, not of
                        # the episode, which is told in digits)
                        r"step\s+(?:one|two|three|four|five)|"
                        # (r45m: a hedge or a default before the order, "As a rule of thumb, remove ...", "By default: ...",
                        # "Usually, ...": how firmly the order holds, no condition and no story)
                        r"as\s+a\s+(?:general\s+)?rule(?:\s+of\s+thumb)?|by\s+default|as\s+a\s+default|usually|normally|generally|"
                        r"typically|ideally|preferably|in\s+most\s+cases|most\s+of\s+the\s+time|as\s+a\s+habit|in\s+principle)"
                        r"\s*[,:!\u2013\u2014-]\s*",
                        re.IGNORECASE)


# (r45m) The teacher's resolve said with a modal, "I should recommend a Remove", "we must plan a Restore": after a lead that
# says the note is for what comes ("next time", "from now on"), the order itself (in a story, "I should plan ..." may tell
# what the teacher thought then, so it is read so only after such a lead).
_RESOLVED_MODAL = re.compile(r"(?:(?<=,)|(?<=^))\s*(?:i|we)\s+(?:should|must|need\s+to|ought\s+to|have\s+to|will|shall)\s+(?:(?:always|then|instead)\s+)?"
                             r"(?=(?:rate|grade|flag|mark|call|classify|label|recommend|plan|propose|suggest|schedule|queue|put|place|"
                             r"deploy|use|choose|pick|go\s+for|" + "|".join(pattern for _, pattern in VERB_FORMS) + r")\b)", re.IGNORECASE)


FROM_NOW_ON = re.compile(r"^(?:next\s+time(?!\s+(?:a|an|the|any|some|it|that|this|we|you|they|there|user|enterprise|op|\w+\d)\b)|from\s+now\s+on|in\s+(?:the\s+)?future|going\s+forward|henceforth|"
                          r"from\s+here\s+on)\b\s*[,:\u2013\u2014-]?\s*", re.IGNORECASE)


# The teacher's doubt, then their view, then the lesson: "I may be wrong about this, but I think that when ...".
BUT_I_BELIEVE = re.compile(r"^(?:i|i'm|i\s+am|we|we're)\b[^;]*?,\s*but\s+(?:i|we)\s+(?:now\s+|still\s+|really\s+|do\s+)?"
                            r"(?:think|believe|reckon|feel|would\s+say|'d\s+say|suspect)\s+(?:that\s+)?(?P<rest>.+)$", re.IGNORECASE)


# The teacher's doubt, then the order: "I could be overgeneralising, but while User1 is ..., Remove User1", "I'm not sure
# Remove is always wrong elsewhere, but for Defender: ..." (what follows "but" orders: the doubt is no part of it)
_BUT_THEN = re.compile(r"^(?:(?:perhaps|maybe|honestly|admittedly|granted|sure|ok(?:ay)?)\s*,?\s+)?(?:i|i'm|i\s+am|we|we're)\b"
                       r"[^;:]*?,\s*but\s+(?P<rest>.+)$", re.IGNORECASE)


# (r33m) the doubt said of the story, not of the teacher: "Perhaps it made no difference, but I'd sooner ...", "Maybe that
# was bad luck, but from here on ..."
# (r40h, r40m: or said as a possibility of the story, "It is possible red had moved on already, but ...")
_MAYBE_IT_BUT = re.compile(r"^(?:(?:perhaps|maybe|possibly)\s*,?\s+(?:it|that|this)|it\s+(?:is|was|'s)\s+(?:(?:quite|entirely|just)\s+)?"
                           r"(?:possible|conceivable|likely)|it\s+(?:may|might|could)\s+(?:be|have\s+been))\b[^;:]*?,\s*but\s+(?P<rest>.+)$",
                           re.IGNORECASE)


# (r33m) "I'd rather reimage Op_Host2 than analyse it", "we would sooner plan a Restore than ...": the verb preferred
_RATHER_ORDER = re.compile(r"^(?:i|we)(?:['\u2019]d|\s+would)\s+(?:much\s+|far\s+)?(?:rather|sooner)\s+"
                           r"(?:(?:plan|use|pick|choose|recommend)\s+(?:a\s+|an\s+)?)?(?=" + VERB_WORD + r")", re.IGNORECASE)


def after_doubt(part: str) -> Optional[re.Match]:
    """`_BUT_THEN`'s match, unless what follows "but" is a judgement before a colon ("..., but User0 looks like the
    exception: when ..."): the whole part is then read as before, its opening the teacher's view (a scope, "but for
    Defender: ...", or a situation that names a state, stays the order's)."""
    found = _BUT_THEN.match(part) or _MAYBE_IT_BUT.match(part)
    opening = OPENING.match(found["rest"]) if found else None
    if opening and not re.match(r"(?:for|on|with)\b", opening["situation"], re.IGNORECASE) \
            and not STATE_WORDS.search(opening["situation"]):
        return None
    return found


# The teacher's view, a doubt said aside, then the order: "I think, though I am not fully certain it generalises, that
# when ..., I should ..."
I_THINK_THAT = re.compile(r"^(?:i|we)\s+(?:now\s+|really\s+|still\s+|also\s+)?(?:think|believe|reckon|feel|suspect|guess)\s*"
                           r"(?:(?:,[^,;:]{0,120},\s*)?that\s+|,\s*)(?P<rest>.+)$", re.IGNORECASE)  # (r37m: or "I think, <view>")


# The teacher's confidence, then the order: "Looking back I'm fairly, not completely, sure that whenever ..., I should ..."
SURE_THAT = re.compile(r"^(?:[^.;:]*?\s)?(?:i'm|i\s+am|we're|we\s+are)\s+(?:[\w,]+\s+){0,4}?(?<!not\s)(?:sure|certain|convinced|"
                        r"confident)\s+(?:now\s+)?that\s+(?P<rest>.+)$", re.IGNORECASE)


_HOST_NAME_WORD = r"\b" + HOST_NAME + r"\b"


_HOST_LIST_LEAD = re.compile(r"^(?:for|on|to|with)\s+(?:(?:the\s+)?" + _HOST_NAME_WORD + r"(?:\s*,\s*|\s+(?:and|or)\s+|\s*,\s*(?:and|or)\s+))+"
                             + _HOST_NAME_WORD + r"\s*[,:]\s*(?P<rest>.+)$", re.IGNORECASE)


_JUDGED_ORDER = re.compile(r"\b(?:the|my|our|a)\s+(?:\w+\s+){0,2}?(?:call|move|choice|habit|approach|practice|course|option|"
                           r"policy|rule|lesson|takeaway|thing\s+to\s+do)\s+(?:is|would\s+be|will\s+be)\s+(?:simply\s+)?to\s+"
                           r"(?P<rest>[^;]+)$", re.IGNORECASE)


# (r39h) The step's analyses as the subject of what they report, "analyses this step rate ...", "analysis shows ..." (not
# the name of a section, "analyses block:", nor the defender's move).
_ANALYSES_REPORT = re.compile(r"analys[ie]s\b(?:\s+(?:this|of\s+(?:the|this)|for\s+(?:the|this))\s+step)?\s+(?:rate[sd]?|show(?:s|ed)?|"
                              r"report(?:s|ed)?|say|says|said|find|finds|found|flag(?:s|ged)?|give[sn]?|gave)\b", re.IGNORECASE)


# The defender's own last move leading an order ("just after you restored User3, put a decoy on it"), where no step
# of the episode is told: a condition on its history (history_words reads it: `acted` within 1), not a story.
ACTED_LEAD = re.compile(r"^(?:(?:right|just|immediately|directly|shortly|soon)\s+)?after\s+" + DEFENDER_MOVED +
                         r"(?![^,:;]*\bstep\s+\d)[^,:;]*(?=,)", re.IGNORECASE)


# (r43h) Another note a text points to for part of its condition: "ditto the <host> note", "same as the <topic> note above,
# but ...", "my take on <someone>'s note: the same <Verb>, but only while ...". What the other note says is when this one
# applies too, and its words are not here: this text's own words are not the whole of its condition. (A note that points
# to another only for its form and then says its own condition, "same as <someone>'s note, i.e. at root -> Restore U2",
# has no "but": it is read as ever.)
_NOTE_WORD = r"(?:the\s+|my\s+|our\s+|that\s+)?(?:[\w-]+['\u2019]s\s+)?(?:[\w-]+\s+){0,3}?(?:note|rule|lesson|advice|order|one)\b"


_CONDITION_ELSEWHERE = re.compile(
    # (r52h: not a table's cell that repeats the one above it, "| ditto |": forms.table_cases_said)
    # (r61m: nor one that repeats the case before it for a host it names, "... -> Remove. ditto U4.": forms.ellipsis_filled)
    rf"(?<!\|\s)(?<!\|)\bditto\b(?!\s*\|)(?!\s+(?:{HOST_NAME}|{HOST_SHORT})\s*(?:[.;!]|$))|"
    rf"\b(?:same\s+as|just\s+like|as\s+in|as\s+per)\s+{_NOTE_WORD}(?:\s+(?:above|before|earlier))?\s*[,;:]?\s*but\b|"
    rf"\b(?:my|our)\s+(?:take|spin|version|variant)\s+(?:on|of)\s+{_NOTE_WORD}|"
    rf"\b(?:the\s+)?same\s+{VERB_WORD}[^.;]*?\bbut\b|"
    # (r53h) an override of the teacher's own earlier note whose condition is said to hold "too": "An exception to my rule
    # above: if Enterprise0 is rooted too, ...": the other state is the earlier note's condition
    r"\b(?:my|our|the|that)\s+(?:own\s+)?(?:default|(?:earlier|previous|last)\s+(?:note|rule|order|lesson|advice)|"
    r"(?:default|note|rule|order|lesson|advice)\s+(?:above|before|earlier))\s*[,:;.\u2013\u2014-]\s*"
    r"(?:(?!\b(?:when|whenever|if|once|while)\b)[^.;])*?"
    # ("as well as" joins a second state within the note's own condition, "an exploit as well as a scan": no "too")
    r"\b(?:when|whenever|if|once|while)\b(?:(?!\b(?:and|while|when|if|with)\b)[^.;,])*?\b(?:too|as\s+well(?!\s+as\b)|also)\b|"
    # (r58h) a provision made subject to another by its number, "(3) Subject to clause (2), no Remove on User1 while
    # ...": it holds within the other's case, whose words are not here (read alone, the ban and its move instead held
    # wherever its own condition did, on a host the other clause's case leaves out)
    r"\bsubject\s+to\s+(?:the\s+)?(?:clause|section|rule|paragraph|item|point|provision|article|sub-?clause)s?\s+\(?[\w.]{1,6}\)?",
    re.IGNORECASE)


def condition_elsewhere(text: str) -> bool:
    """(r43h) Whether a text takes part of its condition from another note it points to (`_CONDITION_ELSEWHERE`)."""
    return bool(_CONDITION_ELSEWHERE.search(text or ""))


# A connective that leads no order of its own ("Then once more.", "..., and then sat back"): what follows it must order;
# "instead it went for User2 and the step was gone" tells what happened in place of what was expected; (r46m) a
# ladder's next rung, "else if it only shows a probe, decoy it", "otherwise, when ...", is its own case.
# (r61m: not the "so" of "so long as", a condition's own word)
_LEADING_CONNECTIVE = re.compile(r"^(?:then|also|so(?!\s+long\s+as\b)|now|instead(?!\s+of\b)|rather(?!\s+than\b)|(?:or\s+)?else(?=\s*,?\s*(?:if|when)\b)|"
                                 r"otherwise(?=\s*,?\s*(?:if|when)\b))\b\s*,?\s*(?P<rest>.*)$", re.IGNORECASE | re.DOTALL)


# (r54m) A list entry's enumerator in brackets, "(1)", "(b)", "(ii)": no word of the entry (`gives_order` reads the entry
# after it, "(1) when ..., Restore ...")
_ENUMERATOR = re.compile(r"^\(\s*(?:\d{1,2}|[a-h]|i{1,3}|iv|v)\s*\)\s*", re.IGNORECASE)


def gives_order(sentence: str) -> bool:
    """Whether a sentence instructs (a condition, a prohibition, an imperative, "X should be restored")
    rather than reports ("I restored User0 and lost the step")."""
    body = without_purpose_first(LEAD_WORD.sub("", _ENUMERATOR.sub("", sentence.strip().lstrip("-*0123456789.) ").strip())))  # (r60m)
    future = FROM_NOW_ON.match(body)
    body = FROM_NOW_ON.sub("", body)  # "Next time, remove ...": an order for what comes
    if future:  # (r45m) "Next time, for ..., I should rate it high and recommend ...": the teacher's resolve, the order
        body = _RESOLVED_MODAL.sub("", body, count=1)
    # ("Right after you restore a host, ...": the moment, said with its adverb)
    # (r40m: "From step 26 onwards, ...": a window of steps that opens the order)
    # (r48m: a scope of up to 120 characters, "On any machine that has held one and the same level in its row over the
    # latest several steps, reimage it")
    lead = re.match(r"^(?:(?:right|just|immediately|directly|shortly|soon)\s+)?(?:for|on|in|at|with|upon|after|before|against|from)\b"
                    r"[^,:;]{3,120}[,:]\s*(?P<rest>.+)$", body, re.IGNORECASE)
    # ("right after we removed Enterprise1, plan an Analyse of it": the defender's own last move, a condition on its
    # history, not a story, where no step of the episode is told)
    acted = lead and ACTED_LEAD.match(body)
    if lead and STORY.search(body[:lead.start("rest")]) and not (acted and gives_order(lead["rest"])):
        return False  # "At step 7 I saw Enterprise1 light up and, without ... , I spent a Restore on it": a story
    if lead and gives_order(lead["rest"]):
        return True  # "For an Enterprise host with only a user-level compromise, prefer Remove over Restore."
    unmarked = _UNMARKED_SCOPE.match(body)
    if unmarked and _AS_FAR.match(body[unmarked.end():]):
        return True  # "on Op_Host1 with a user foothold a Remove will do": the scope, with no comma, then the verb enough there
    hedged = BUT_I_BELIEVE.match(body) or after_doubt(body) or SURE_THAT.match(body) or I_THINK_THAT.match(body)
    if hedged and gives_order(hedged["rest"]):
        return True  # "I'm not sure this always holds, but I believe that when ..., the plan should ..."
    listed = _HOST_LIST_LEAD.match(body)
    if listed and gives_order(listed["rest"]):
        return True  # "For User1, User2 and User3, if any of them is exploited, Remove it": the lead names a list
    # ("the safe habit is to put the action first", "my rule would be to leave User0 alone": a judgement, then the order)
    judged = _JUDGED_ORDER.search(body)
    if judged and gives_order(judged["rest"]):
        return True
    reasoned = so_order(body)  # ("a live exploit outranks a scan, so when ..., remove it": a reason, then the order)
    # (r48b: or where the reason says where its move falls short, "a Remove won't do on User1 at root, so restore it")
    if reasoned is not body and (CONDITION.match(reasoned) or _FALLEN_HEAD.match(reasoned)):
        return gives_order(reasoned)
    # ("Having seen both outcomes, I think the better call is to Remove ...": a participle's clause, then the order)
    participle = re.match(r"^\w+ing\b[^,:;]{0,80},\s*(?P<rest>.+)$", body, re.IGNORECASE)
    if participle and gives_order(participle["rest"]):
        return True
    if _AS_FAR.match(body) or _VERB_ALONE.match(body):
        return True  # "Remove is as far as we go there": an order of that verb, and no further
    if _RATHER_ORDER.match(body):
        return True  # (r33m) "I'd sooner restore User3 than remove it": the teacher's preference is the order
    bad = BAD_IDEA.search(body)
    if bad and VERB.search(body[:bad.start()]) and not re.search(rf"\b(?:{_TOLD_VERB})\b|\b(?:i|we)\b", body[:bad.start()], re.I):
        return True  # "Restoring Enterprise1 is pointless": a prohibition, said as a judgement
    connective = _LEADING_CONNECTIVE.match(body)  # ("Then once more.": no order of its own; what follows it must order)
    if connective:
        return bool(connective["rest"].strip()) and gives_order(connective["rest"])
    start = IMPERATIVE_START.match(body)
    if start:
        if CONDITION.match(body):
            # ("Each time it looked clean for a step and then it did not.": a moment told in the past, no order after it)
            return not (_TOLD_MOMENT.search(body) or TOLD_OF_IT.search(body) or _TOLD_WHEN.match(body)) or _orders_after(body)
        first = body.split()[0].lower()
        verb = VERB.match(body)
        # (a decoy's full name is the verb, whatever its last letter: "DecoySmss User3" orders it)
        plural = first.endswith("s") and first.rstrip(".,:;!") not in _DECOY_NAMES
        if first.endswith(("ed", "ing")) or (verb and (plural or _REPORT_AFTER_VERB.match(CONDITION.split(body[verb.end():])[0]))):
            # ("analysed host: exploit in progress -> rec Remove": a heading in a participle, then the order)
            # (r39h) so does the noun for the step's analyses, "the analyses for the step rate a box medium & row at User
            # -> Remove the box": what they report is the situation, however long, not a report of the defender's move)
            analyses = _ANALYSES_REPORT.match(body)
            opening = OPENING.match(body) if first.endswith("ed") or analyses else None
            return bool(opening and not STORY.search(opening["situation"]) and not FIRST_PERSON.search(opening["situation"])
                        # ("analysed box at Unknown -> rec ...": a heading on the host at hand and its state, however long)
                        and (len(opening["situation"].split()) <= 3 or AT_HAND_START.match(opening["situation"]) or analyses)
                        and gives_order(opening["rest"]))
            # ("Restoring X cost ...", "Decoys on X caught ...", "Remove did not clear X": reports)
        return True
    # (r40h, r40m) one move said to beat another, "an Analyse on a probed server beats a Restore": the teacher's
    # preference in the present tense is an order, as "I'd prefer ..." is (a comparison told of the past, "beat", is no match)
    if modal_order(body) or _CLEFT_ORDER.search(body) or _OWN_PREFERENCE.search(body) or bans_every_move(body) \
            or forbids_verb(body) or BEATS.search(body):
        return not STORY.match(body) or bans_every_move(body)
    opening = OPENING.match(body)
    return bool(opening and gives_order(opening["rest"]))


# The host the analyst's context is about, named by what is done with it: "the host under analysis", "the host you
# analyse", "an analysed box", "the machine being examined". Any host: the one whose record the context is.
HOST_AT_HAND = (r"(?:(?:the|a|an|any|each|every)\s+)?(?:(?:analy[sz]ed|inspected|examined)\s+(?:host|box|machine|server|node)|"
                r"(?:host|box|machine|server|node)\s+(?:under\s+(?:analysis|inspection|examination)|being\s+(?:analy[sz]ed|"
                r"inspected|examined)|(?:that\s+)?(?:you|we|i)\s+(?:(?:are|were|am|was)\s+)?(?:analy[sz]|inspect|examin)\w*))")


# (r44m: and the teacher's own, "the host I analyse": the host at hand as well, not one a story before it names)
# (a heading that opens with it: "analysed box at Unknown", "inspected machine, root level")
AT_HAND_START = re.compile(r"^\s*" + HOST_AT_HAND + r"\b", re.IGNORECASE)
# ... and anywhere in a text ("For the box we inspect: when it is merely probed, ...")
AT_HAND_SAID = re.compile(r"\b" + HOST_AT_HAND + r"\b", re.IGNORECASE)


# A moment of the episode told in the past ("When Op_Server0 was exploited at step 13 I was still removing ..."): a story's
# "when", not a condition the rule is for.
# (or of a run: "When Enterprise2 was exploited in seed 1001 I removed it")
_TOLD_MOMENT = re.compile(rf"\b(?:{_TOLD_VERB})\b[^.;:]*?\b(?:at|on|in|by|during|around)\s+(?:step|turn|seed|episode|run)\s+\d+\b|"
                          rf"\b(?:at|on|in|by|during|around)\s+(?:step|turn|seed|episode|run)\s+\d+\b[^.;:]*?\b(?:{_TOLD_VERB})\b|"
                          # (r37m) the teacher's own past move at a told moment: "When we restored Op_Host1 on turn 12 ..."
                          rf"\b(?:i|we)\s+\w+ed\b[^.;:]*?\b(?:at|on|in|by|during|around)\s+(?:step|turn|seed|episode|run)\s+\d+\b",
                          re.IGNORECASE)


# (r37m) A condition told in the past, then the teacher's own past move: "when an ops box got probed we went on
# waiting" is a story's moment, no order
# (r61m: and "every time" / "each time", "Each time Op_Host2 got probed we rushed to ...")
_TOLD_WHEN = re.compile(rf"^\W*(?:when|whenever|once|as\s+soon\s+as|after|(?:every|each)\s+time)\s+"
                        rf"(?:(?!\b(?:is|are|shows?|gets|becomes?|turns|reads|sits|goes|has|have|stays|remains)\b)[^.;:,])*?"
                        rf"\b(?:{_TOLD_VERB})\b[^.;:,]*?\b(?:i|we)\s+(?:(?:just|still|then)\s+)?(?:{_TOLD_VERB}|\w+ed)\b",
                        re.IGNORECASE)


# What a host did or how it looked, told in the past after a condition word ("each time it looked clean", "whenever it
# seemed quiet"): a story's moment, unless an order follows it.
TOLD_OF_IT = re.compile(rf"^\W*\w+(?:\s+\w+)?\s+(?:it|they)\s+(?:{_TOLD_VERB}|looked|seemed|appeared|sat)\b", re.IGNORECASE)


def _orders_after(sentence: str) -> bool:
    """Whether what follows a sentence's opening condition gives an order ("When ... at step 13, restore it")."""
    marker = CONDITION.match(sentence)
    main = sentence[clause_end(sentence, marker.end()):].lstrip(" ,:;\u2013\u2014-") if marker else ""
    return bool(main) and gives_order(main)


def opening_of(sentence: str) -> tuple[str, str]:
    """(situation, rest) of a sentence that opens with a situation before a colon or dash ("Op_Server0
    compromised: restore it", "Reconnaissance under way: the attacker is mapping the network"), else ("", it).
    A story before the colon ("The op server was compromised while I analysed other hosts: ...") is no
    situation, and neither is an exception heading ("Except for User0: ...")."""
    found = OPENING.match(sentence)
    if found and not gives_order(found["situation"]) and not STORY.search(found["situation"]):
        return found["situation"].strip(), found["rest"]
    return "", sentence


def parts_of(text: str) -> list[str]:
    """Sentences, and the clauses of a sentence joined by semicolons."""
    return [p.strip() for s in sentences(text) for p in re.split(r"\s*;\s*", s) if p.strip()]


# The teacher speaking of themselves before the lesson: "I can't say for sure it would have helped, but the lesson seems
# to be: ...", "I'm not sure how much it weighs, but I shouldn't soften it: ...". Said in the first person and of no
# state, access or condition, it is their doubt or their resolve, no situation of the rule.
FIRST_PERSON = re.compile(r"\b(?:i|i'm|i'd|i've|i'll|we|we're|we'd|my|our|myself)\b", re.IGNORECASE)


# What an order's "X means / calls for / warrants VERB" says of when: X, a situation ("Enterprise0 rooted means restore
# Enterprise0", "an exploit on a user host calls for Remove on that host").
# (r44x: not "X doesn't call for VERB", a verdict against the move, _NO_CASE_FOR: its "doesn't" was read as a denial)
# (r48b: or one said with a hedge, "a scan on User1 means you might / could / may plan a decoy": no order, as "you might plan
# a decoy on User1 when it shows a scan" is none, but its situation is the one the words speak of, as that "when" is; read
# as none, a compiled predicate of the bare host passed)
MEANS = re.compile(r"(?P<situation>[^,;:.]+?)(?<!\bnot)(?<!n't)(?<!n\u2019t)\s+(?:" + MEANS_ADDRESSED + r"|" + MEANS_DENIED
                    + r"means\s+(?:that\s+)?(?:you|we)\s+(?:might|could|may)(?:\s+(?:want\s+to|wish\s+to|consider|like\s+to))?"
                    r"(?:\s+" + ADDRESSED_VERB + r")?|calls?\s+for|warrants?|deserves?|demands?|requires?|"
                    r"needs?(?!\s+(?:to|no|not|nothing|never|none|neither|any)\b))\s+(?:(?:a|an|the)\s+)?"
                    r"(?=" + VERB_WORD + r")", re.IGNORECASE)
