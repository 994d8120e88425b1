"""What a text forbids and disprefers: its prohibitions ("never / do not / don't / stop / avoid VERB") and the moves it puts second. Pure.

A prohibition has its verb (None: a prohibition with no verb, "spend no actions on User0", forbids every verb) and
the host it is about; a preference "X rather than / instead of Y" makes Y dispreferred. Also here: the moves a text
says fall short or can wait (`falling_short`, `falls_short_away`), the hosts an order is contrasted with
(`contrasted_hosts`) or leaves out as "the others" (`told_others`), and the classes it names only to sequence or
compare its order (`classes_sequenced_only`, `classes_compared_only`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

from forge.env.catalog import HOSTS, HOST_CLASSES
from forge.rulebook.language.names import (CLASS_FORMS, HOST_FORMS, HOST_NAME, HOST_SHORT, VERB, VERB_FORMS,
                                           canonical_verb, classes_in, hosts_in, verbs_in)


# A warning against a move, "you'll regret ...", "we would surely regret ...": the move after it is forbidden.
_WARNED_AGAINST = (r"(?:you|we|i)(?:['\u2019]ll|['\u2019]d|\s+will|\s+would|\s+are\s+going\s+to)\s+"
                  r"(?:surely\s+|only\s+|soon\s+)?regret")


# (r44x) A situation said to be no case for a move: "(this is) not the time for a Remove", "no case for Restore", "not a
# job for an Analyse", "(it) is not one to restore": a verdict against that move there, a prohibition of it (after "is"
# as well: no condition, "if it is not restored", but the verdict's own verb; read as none, the move was an order).
NOT_A_CASE_FOR = (r"(?:not|no|never)\s+(?:(?:the|a|an|one)\s+)?(?:(?:right|good|proper|usual|ideal)\s+)?"
                   r"(?:time|moment|case|job|place|occasion|situation|stage|spot|one|host|box|machine|server)\s+(?:for|to)\b")


# (r59m) Advice said by denying its harm: "it wouldn't hurt to decoy it", "can't hurt to Analyse first", "never hurts to",
# "no harm in a Remove" (and with the apostrophe lost, "wouldnt hurt", "wouldn hurt"): the writer urges the move. Its
# "not" denies no state of a host: read as a negation of the condition, the rule was refused or kept silent.
# (r59b: here, beside the words of forbidding, since its "can't" / "never" / "no" opens no ban of the move after it:
# `_forbidding` and `forbids_verb` pass over it; read as one, "no harm in a Remove on User1" was a "never" of that Remove)
HARM_DENIED = (r"(?:\b(?:would|could|can|will|does|do|did|should|might|shall)\s*(?:not|n['\u2019]?t|n)|\bwon['\u2019]?t|"
               r"\bcan['\u2019]?t|\bcannot|\bnever)\s+(?:really\s+)?hurts?\b|\bno\s+harm\s+(?:in|to|done\s+by)\b")
_HARM_DENIED = re.compile(HARM_DENIED, re.IGNORECASE)


def _harm_denied(text: str, match: re.Match) -> bool:
    """(r59b) Whether a word of forbidding `match` found is the "can't" / "never" / "no" of a denied harm (HARM_DENIED):
    an urging of the move, no ban of it."""
    return any(found.start() <= match.start() < found.end() for found in _HARM_DENIED.finditer(text))


# (r59b) A ban that names no move, only a pronoun or nothing, standing alone at a sentence's start or after "so / or
# rather / but / actually": "Don't do it, though.", "...; never do that.", "- except it can, so don't.". It takes back
# the move said before it (no reader places which one), and read as nothing, the order before it was the rule's: the
# opposite of the words. A ban with words after its pronoun ("never do that on a scan") is the polarity check's.
_TAKEN_BACK = re.compile(r"(?:^|[.!?;:]\s+|\s[-\u2013\u2014]\s*|,\s*(?=(?:so|but|or\s+rather|actually|then)\b))"
                         r"(?:(?:but|so|or\s+rather|actually|then|and|well|honestly|yes|no|nope|on\s+second\s+thought)\W+){0,2}(?:please\s+)?"
                         r"(?:don['\u2019]?t|do\s+not|never)(?:\s+(?:ever\s+)?do\s+(?:it|that|this|so))?"
                         r"(?:\W+(?:though|then|again|ever|please|either|after\s+all))?\s*(?:[.!]|$)", re.IGNORECASE)


def move_taken_back(text: str) -> bool:
    """(r59b) Whether the text takes back a move by a ban that names none (_TAKEN_BACK: "Don't do it, though.")."""
    return bool(_TAKEN_BACK.search(text or ""))


# Words that, standing before a verb, forbid it.
_FORBID = (NOT_A_CASE_FOR + "|" + r"never(?:\s+ever)?|do\s+not|don'?t|does\s+not|doesn'?t|must\s+not|mustn'?t|should\s+not|shouldn'?t|"
           # a prohibition said politely: "I'd rather we didn't restore ...", "we would prefer you did not ..."
           r"(?:rather|prefer)\s+(?:(?:that\s+)?(?:we|you|they|people|nobody)\s+)?(?:not|didn'?t|did\s+not|wouldn'?t|would\s+not)|"
           r"cannot|can'?t|may\s+not|avoid|stop|refrain\s+from|no\s+need\s+to|quit|cease|hold\s+off(?:\s+on)?|skip|"
           r"under\s+no\s+circumstances|in\s+no\s+case|hold\s+back\s+(?:on|from)|"
           r"no\s+(?:point|use|sense)(?:\s+in)?|(?:pointless|useless|futile|counterproductive|wrong|a\s+mistake|"
           # (r49m) "It is prohibited to pick a Remove on ...", "it is not permitted to ..."
           r"forbidden|prohibited|not\s+permitted|not\s+allowed|"
           r"a\s+waste(?:\s+of\s+\w+)?)\s+to|not|no\s+more|"
           # (r58q) a negative inversion that carries on a ban: "Nor should anyone remove ...", "Neither do we restore ...";
           # read as no prohibition, the move after it was stored as an order, the opposite of the words
           r"(?:nor|neither)\s+(?:should|shall|must|may|can|could|will|would|do|does|did)|"
           # ("a host that had no foothold to remove", "nothing left to restore": what there was to act on, no prohibition)
           # (r42m: nor "no one has inspected it yet", what was not done so far: a report, no prohibition)
           r"no(?!\s+(?!(?:need|reason|call|point|use|sense|cause)\b)\w+(?:\s+left)?\s+to\s)(?!\s+one\s+(?:has|have|had)\b)|without|"
           # (r33h) a warning against the move: "we'll regret a Remove of Op_Host0 whilst ..."
           + _WARNED_AGAINST)


# Between a prohibition word and its verb, up to three words of any kind ("do not use Restore on", "never pick a Remove
# for", "must not ever be restored"), but none that ends its clause, and none of the idioms that urge the verb ("never
# hesitate to restore", "don't wait to restore"), nor words of doubt or knowing: "I can't be sure the Remove would have
# held", "I can't be certain a Restore would have saved it", "I'm not sure Remove works there" doubt what the verb did or
# does, and forbid nothing.
_FORBID_FILLER = (r"(?:\s+(?!(?:and|but|or|then|if|when|whenever|unless|while|until|so|because|hesitate\w*|forget\w*|fail\w*|"
                  r"wait\w*|delay\w*|neglect\w*|omit\w*|postpone\w*|hurry\w*|be\s+afraid|be\s+slow|hold\s+back|"
                  r"(?:be\s+)?(?:sure|certain|confident|convinced)|know\w*|tell|say|prove|rule\s+out|guarantee|judge|think|"
                  r"believe|confirm|whether)\b)"
                  r"[\w'][\w'-]*){0,3}?")


# (r55h) The move named as what a turn is spent on, "do not close your turn with a Sleep", "never spend a step on an
# Analyse there", "do not waste your move doing a Remove": that move forbidden (five words and more between the word of
# forbidding and the verb, the filler's three did not reach it and the text was read as an order of the move).
_TURN_SPENT = (r"(?:\s+(?:ever|just|simply))?\s+(?:pass|spend|use|burn|waste|end|close|take)\w*\s+(?:(?:the|a|this|that|your|our|one|"
               r"a\s+whole)\s+)?(?:turn|step|move|go|round)\s+(?:with|on|for|doing|by|in)(?:\s+(?:a|an|the|another))?")
# (r55a) ... after a word that forbids plainly only: after a bare "not", a judgement or a "no" ("why not spend the turn on an
# Analyse?", "it's never wrong to spend the step on a Restore", "it is not a mistake to use the turn for a Remove"), the
# spending is proposed or approved, and read as forbidden, the move the text urges was a "never"
_TURN_SPENT_LEAD = (r"never(?:\s+ever)?|do\s+not|don'?t|must\s+not|mustn'?t|should\s+not|shouldn'?t|avoid|stop|quit|"
                    r"refrain\s+from|no\s+need\s+to|under\s+no\s+circumstances|in\s+no\s+case")


_FORBIDDEN_VERB = re.compile(rf"\b(?:(?:{_TURN_SPENT_LEAD}){_TURN_SPENT}|(?:{_FORBID})\b{_FORBID_FILLER})\s+(?={VERB.pattern})",
                             re.IGNORECASE)


# After a verb, words that forbid it: "restoring User1 is pointless", "Restore is not the answer for User1", "Remove must
# not be used on Op_Server0" (present tense: "restoring User1 was pointless" tells what happened).
# (r46m: and a note's "=" for "is": "Restore = waste of a step")
BAD_IDEA = re.compile(r"(?:(?:is|are|'s|would\s+be|(?<=\s)=)\s+(?:(?:just|simply|always|usually|often)\s+)?(?:a\s+)?(?:pointless|useless|"
                       # (r49m) a policy's prohibition: "Removes are not to be run on User2", "an Analyse is not to be
                       # picked there"
                       # (r60h: and "never to be", "a reimage of Op_Host1 is never to be tried": read as no prohibition, the
                       # rule had no meaning in a dispute, and the general rule it excepts from spoke beside it)
                       r"(?:not|never)\s+to\s+be\s+(?:issued|used|planned|recommended|chosen|picked|run|applied|performed|made|considered|"
                       r"spent|ordered|attempted|given|tried|done|carried\s+out)\b|"
                       r"futile|wasteful|waste(?:\s+of\s+\w+)?|wasted|overkill|needless|unnecessary|redundant|"
                       # a verb judged out of its time or measure: "a Remove is premature", "Restore is too drastic there"
                       r"premature|too\s+(?:early|soon|hasty|rash|drastic|heavy|aggressive|much)|hasty|rash|excessive|"
                       r"bad\s+(?:idea|move|call|choice)|(?:not|never)\s+worth\s+(?:it|\w+)|no\s+use|off\s+the\s+table|not\s+an\s+option|counterproductive|mistake|"
                       r"forbidden|not\s+allowed|banned|off[- ]limits|"
                       # a verb judged out of place: "Sleep is never the right move", "is not an acceptable answer", "is never OK"
                       r"(?:not|never)\s+(?:(?:a|an|the)\s+)?(?:right|correct|proper|appropriate|acceptable|good|best|wise|safe|smart)"
                       r"(?:\s+(?:answer|fix|solution|way|move|call|choice|option|response|play|action|thing(?:\s+to\s+do)?))?|"
                       r"(?:not|never)\s+(?:the|a|an)\s+(?:answer|fix|solution|way|move|call|choice|option|response|play)|"
                       r"(?:not|never)\s+(?:ok|okay|fine|allowed|permitted|justified|warranted)|unacceptable|"
                       # (r54h: and "enough" in a chat's spelling, "not enuf", "never enuff": read as no word, the move judged
                       # short was taken for no dispreference at all, and two teachers' dispute went unread)
                       r"not\s+(?:enough|enuf|enuff)|never\s+(?:enough|enuf|enuff)|insufficient|"
                       r"the\s+wrong\s+(?:move|call|answer|choice))|(?:must|should|may|is\s+to|are\s+to)\s*(?:not|never|n't)\s+"
                       # (r60h: "a Restore of it must never be attempted", "should not be tried": as "not to be attempted")
                       r"be\s+(?:used|applied|chosen|run|an\s+option|attempted|tried|performed|made|issued|planned|ordered|"
                       r"carried\s+out))\b", re.IGNORECASE)


# "X rather than / instead of / in preference to / over / not / before Y": Y is what the text disprefers.
# ("not sure the Analyse helped", "not certain a Restore would hold": a doubt about a move, no dispreference of it)
# ("restore it at once, without waiting on an Analyse": the verb waited on is the one put off)
_DISPREFER = re.compile(r"\b(?:rather\s+than|instead\s+of|in\s+preference\s+to|in\s+place\s+of|over|and\s+not|but\s+not|"
                        r"without\s+(?:first\s+)?waiting\s+(?:on|for)|"
                        r"not(?!\s+(?:sure|certain|confident|convinced)\b)|(?:swap(?:ping)?|replac(?:e|ing)|trad(?:e|ing))(?=[^.;]{0,60}?\b(?:for|with|by)\b)|switch(?:ing)?\s+(?:\w+\s+)?from|"
                        # (r33h) "I'd rather Restore User3 than Analyse it": the move after "than", said with what it
                        # is done to, is the one put aside ("rather restore it than watch" leaves the watching unread)
                        r"(?:would|(?<=['\u2019])d)\s+(?:much\s+|far\s+)?(?:rather|sooner)\s+(?:[\w-]+\s+){1,4}?than(?=\s+\w+\s+(?:it|them|that\s+host|\w+\d)\b)|"
                        # (r57m) "rather a Remove of User1 than a Restore of it", "Rather an Analyse of the new box than
                        # another Remove": the move said first (after "rather a") is preferred, the one after "than" put aside
                        # (r57b: not where the preference is denied, "never rather a Restore than a Remove", "I'd not rather")
                        r"(?<![\w'\u2019])(?<!not\s)(?<!never\s)(?<!n't\s)(?<!hardly\s)(?<!nor\s)(?<!not\shave\s)(?<!n't\shave\s)(?<!never\shave\s)rather\s+(?:a|an|one)\s+(?=" + "|".join(pattern for _, pattern in VERB_FORMS) + r")[^.;:!?]{1,80}?\bthan)\s+"
                        # ("instead of reaching for a Restore", "rather than jumping straight to a Remove": the move reached for)
                        # (r42m: "instead of guessing with a Remove", "rather than gambling on a Restore": the move tried)
                        r"(?:(?:reach(?:ing)?|go(?:ing)?|opt(?:ing)?|jump(?:ing)?|rush(?:ing)?|head(?:ing)?)\s+(?:straight\s+)?(?:for|to|into)\s+|"
                        r"(?:guess(?:ing)?|gambl(?:e|ing)|bet(?:ting)?|settl(?:e|ing)|lead(?:ing)?|open(?:ing)?|start(?:ing)?)\s+(?:with|on|for)\s+)?"
                        r"(?:\w+\s+){0,2}?(?=(?:" + VERB.pattern + r"))", re.IGNORECASE)


# "... as a last resort", "fall back to Restore", "restore only if that fails": the verb so named is dispreferred.
VERB_WORD = r"\b(?:" + "|".join(pattern for _, pattern in VERB_FORMS) + ")"  # VERB without its groups


# (r41m, r41h) A move said to fail at what the order is for, "a Remove won't clear root", "Restore alone does not fix it",
# "Remove doesn't help on it": the order's other move, dispreferred (not forbidden: it is said to fall short, not to be
# wrong). Said after "if" / "when" ("if a Remove doesn't clear it, restore"), it is the condition of a fallback and no
# dispreference (fails_in_condition). (r47h: or "won't do", "will not suffice", "won't cut it", the clause ending there)
FALLS_SHORT = re.compile(r"(?P<verb>" + VERB_WORD + r")\w*(?:\s+(?:(?:on|of|for)\s+(?:it|them|\w+\d)|there|here|it|\w+\d|alone|"
                          r"by\s+itself)){0,2}\s+(?:does\s+not|doesn['\u2019]?t|will\s+not|won['\u2019]?t|would\s+not|wouldn['\u2019]?t|"
                          r"cannot|can\s+not|can['\u2019]?t)\s+(?:(?:really|actually|fully|reliably|ever)\s+)?"
                          r"(?:clear|fix|cure|undo|dislodge|evict|get\s+rid\s+of|help|work|solve|shift|stick|hold|"
                          r"do\s+(?:it|the\s+job|the\s+trick|much|anything)|suffice|cut\s+it|"
                          # (r49h) "a lone Restore does not keep up", "Remove can't keep pace": it falls behind the attacker
                          r"keep\s+(?:up|pace)|"
                          # (r47h) "a plain Restore will not do.", "Remove won't do here": "do" ending its clause is "do the job"
                          # (r48b) or before where it falls short, "won't do on User1 at root", "won't do while it is rooted"
                          r"do(?=\s*(?:[.;:,!)\u2013\u2014-]|$)|\s+(?:(?:on|for|at|with|in|here|there)\s|(?:when|whenever|while|once|if|as\s+long\s+as)\b)))\b",
                          re.IGNORECASE)


# (r46h) A move said to cost too much, as its clause's subject: "Restore costs a lot", "a Restore is expensive", "Restores
# are too costly": the move the text puts aside for a cheaper one (not "..., but worth it": a cost the order accepts).
# (one vocabulary of cost for `_COSTLY`, a move said to cost, and `_COST_SAID`, its omission said to: r46h, r46b)
_COST_DEGREE = r"(?:(?:very|really|quite|so|too|far\s+too|way\s+too|rather|pretty)\s+)?"


_COST_WORDS = r"expensive|costly|pricey"


_COSTLY = re.compile(r"(?P<verb>" + VERB_WORD + r")\w*(?:\s+(?:of|on|for)\s+(?:it|them|\w+\d))?\s+(?:is|are|'s|costs?)\s+"
                     + _COST_DEGREE + r"(?:" + _COST_WORDS + r"|"
                     # (r55h) "Restores are dear on that box": dear as costly, as the omission's `_COST_SAID` has it
                     # (r55a: not "dear to me", "dear to the team": a move held dear is liked, no cost)
                     r"dear(?!\s+to\b)|a\s+lot(?!\s+(?:less|more)\b)|(?:too\s+)?much(?!\s+(?:less|more)\b)|a\s+fortune)\b(?!\s*,?\s*but\b)", re.IGNORECASE)

# (r49m) A verdict against a move on a host: "User4 is not worth a Remove", "Enterprise2 isn't worth the Restore". The
# move is turned down (`falling_short`, read in the whole text); said before the colon of the order, "User4 is not worth a
# Remove: once ..., Restore User4", it states no situation (instruction._opening_situation: read as one, its "not" negated
# the condition, and a faithful compilation was refused).
NOT_WORTH = re.compile(rf"\b(?:(?:is|are|'s)\s+(?:really\s+|just\s+|simply\s+)?(?:not|never|hardly)|isn'?t|aren'?t)\s+worth\s+"
                       rf"(?:(?:a|an|the|any)\s+)?(?P<verb>{VERB_WORD}\w*)", re.IGNORECASE)


# (r57n) A move said to bring nothing new, in the present: "one more Analyse of Op_Host1 shows us nothing new", "a second
# Analyse adds nothing", "a Restore there buys us nothing": the move put aside (read as no word of it, a
# teacher's "..., Remove it" beside it was a plain order and never disputed another teacher's Analyse of that host).
# (the present tense only: "the Analyse told us nothing" is a report of what happened)
_GAINS_NOTHING = re.compile(r"(?P<verb>" + VERB_WORD + r")\w*(?:\s+(?:(?:on|of|for)\s+(?:it|them|the\s+box|\w+\d)|there|here)){0,2}\s+"
                            r"(?:(?:just|simply|really|only)\s+)?(?:tells|shows|gives|teaches|buys|gains|gets|adds|brings)\s+"
                            r"(?:(?:us|you|me|them)\s+)?(?:nothing|no\s+(?:new\s+)?(?:information|info|news|insight))\b", re.IGNORECASE)


# What a move that is put off is said to do: "(of it) can wait", "should just wait" (read by _LAST_RESORT in the order,
# by _CAN_WAIT in a clause of its own).
_WAITS = r"\s+(?:(?:of|on|for)\s+(?:it|them|\w+\d)\s+)?(?:can|could|may|will|should|must)\s+(?:just\s+|safely\s+|easily\s+)?wait\b"


_LAST_RESORT = re.compile(r"(?:\b(?:fall(?:ing)?\s+back\s+(?:on|to)|resort(?:ing)?\s+to)\s+(?:\w+\s+){0,1}?(?=" + VERB_WORD + r"))|"
                          r"(?:" + VERB_WORD + r")(?=[^.;:,]{0,40}?\b(?:(?:only\s+)?as\s+a\s+last\s+resort|only\s+(?:if|when)\s+"
                          r"(?:that|this|it|the\s+\w+)\s+(?:fails|failed|does\s+not\s+work|doesn't\s+work)|(?:is|as)\s+(?:the|a|our|your)\s+"
                          r"(?:fallback|fall-back|backup|back-up|plan\s+b|second\s+choice)|"
                          # (r57m) "a Restore of Op_Host1 is only for the times when no Remove is available": the move
                          # kept for when the other cannot be made
                          r"(?:is|are)\s+only\s+for\s+(?:the\s+)?(?:turns?|times?|cases?|steps?|moments?)\s+(?:when|where|in\s+which)\s+"
                          r"(?:there\s+is\s+)?no\s+[\w-]+\s+(?:is|was)\s+(?:possible|available|an\s+option)))|"
                          # (r33h) "the Restore can wait; Remove User4 first": the move that can wait is put off
                          r"(?:" + VERB_WORD + r")(?=" + _WAITS + r")|"
                          # (r41h) "a Restore suits it, a Remove won't shift the attacker": a move that falls short, said as
                          # its clause's subject (its "n't" was read as a doubt of the order beside it)
                          r"(?:^|(?<=[,;:]\s)|(?<=\band\s)|(?<=\bbut\s))(?:(?:a|an|the)\s+)?(?=" + FALLS_SHORT.pattern + r")",
                          re.IGNORECASE)


# (r41m) "a Remove of Op_Host2 can wait": the move put off (as _LAST_RESORT reads it in the order), in a clause of
# its own after the order
_CAN_WAIT = re.compile(r"(?P<verb>" + VERB_WORD + r")\w*" + _WAITS, re.IGNORECASE)


# (r42m) A move the text asks what good it would do, "What would one more Restore fix?", "Why spend a second Restore
# on it?": a question that expects "nothing" puts the move aside (not "why not ...", "what about ...", which propose it).
_QUESTIONED = re.compile(r"\b(?:what\s+(?:would|will|could|can|does|did)(?!\s+(?:about|if)\b)|why\s+(?:would|should|spend|waste|"
                         r"bother|pay\s+for)(?!\s+not\b))\b[^?.;!]{0,40}?\b(?:another|one\s+more|a\s+second|yet\s+another|"
                         r"a|an|the)\s+(?P<verb>" + VERB_WORD + r")\w*\b[^?.;!]{0,60}\?", re.IGNORECASE)


# A move put second after one done first is put off, as "the Remove can wait" puts it off: "we Analyse that server
# first, before any Restore" (r34h), "schedule Op_Host1's Restore first, and the Analyse afterwards" (r34m). A plan's
# "first X, then Y" orders both and says no "before" / "after it"; "after it is exploited" is a condition.
_PUT_SECOND = re.compile(r"\bfirst\b(?:[^.;:]{0,40}?\bbefore\s+(?:(?:any|a|an|the|doing\s+(?:a|an|any))\s+)(?P<before>" + VERB_WORD + r")"
                         r"|[^.;:]*?(?:\band|,)\s+(?:then\s+)?(?:(?:any|the|all|its|an?)\s+)?(?P<after>" + VERB_WORD + r")\w*"
                         r"(?:\s+(?:of|on|for)\s+(?:it|them|\w+\d))?\s+(?:after|afterwards)(?:\s+(?:it|that|this|them))?\b"
                         r"(?!\s+(?:is|are|was|were|gets?|got|has|have|shows?)\b))", re.IGNORECASE)


def verbs_put_after(instruction: str) -> set[str]:
    """(r45m) The catalog verbs an order puts after its first move with "after" / "afterwards" ("plan a Remove of it
    first and an Analyse on it later"): the plan's second move, which an action may give in its `then`."""
    return {v for m in _PUT_SECOND.finditer(instruction) if m["after"] for v in verbs_in(m["after"])}


# "Remove is better than Restore", "Restore is worse than Remove": (preferred, dispreferred) verbs around a comparison.
# ("a DecoyHarakaSMTP on Op_Server0 is the better use of the step than watching": what the move is on, and what it is
# better as, may stand between)
_COMPARED = re.compile(r"(?P<first>" + VERB_WORD + r")\s+(?:(?:on|of|for|to|against)\s+(?:the\s+)?[\w-]+\s+)?"
                       r"(?:is|are|works?|does|'s|would\s+be|will\s+be)\s+(?:\w+\s+){0,2}?"
                       r"(?P<how>better|worse|safer|riskier|cheaper|costlier)\s+(?:(?:first|opening)\s+)?(?:(?:use|way|move|call|choice|option|bet|spend)\s+"
                       r"(?:of\s+(?:the|a|our|your)\s+(?:step|turn|move|action|time)\s+)?)?than\s+(?:\w+\s+)?(?P<second>"
                       + VERB_WORD + r")", re.IGNORECASE)


# (r57n) One move said to rank first, in words of order: "an Analyse comes before another Remove", "goes ahead of",
# "ranks above": the move after it is put second (a preference, as "beats" says it).
RANKED_FIRST = r"(?:comes?|goes?|ranks?|sits?)\s+(?:first\s+)?(?:before|ahead\s+of|above)"


# "a DecoyTomcat beats a Monitor", "Remove trumps Restore there", "Analyse is preferable to Restore": the second verb is
# dispreferred (a comparison in another verb than "better than", _COMPARED).
# (r40h, r40m: what the move is on may be said at length, "an Analyse on any probed enterprise box with nothing worse
# on it beats a Restore": one word there was all it read, and the rule was left semantic, its dispute unseen)
BEATS = re.compile(r"(?P<first>" + VERB_WORD + r")\s+(?:(?:on|of|for|to|against)\s+(?:the\s+)?[\w-]+\s+(?:[^.;:,!?]{0,80}?\s)?)?"
                    r"(?:(?:always|still|easily|clearly)\s+)?"
                    r"(?:beats|trumps|outranks|wins\s+over|(?:is|are)\s+(?:preferable|preferred)\s+(?:to|over)|" + RANKED_FIRST + r")\s+"
                    r"(?:(?:a|an|the|any|another)\s+)?(?P<second>" + VERB_WORD + r")", re.IGNORECASE)


# (r57n) "A Remove on User1 is preferred over a Restore on User2", "an Analyse of Op_Host2 ranks above any Restore of
# Enterprise0": a preference whose two moves each name their own host. Each move keeps its host (read as one verb over
# the other on every host the text names, the rule disputed a Restore on User1 it never spoke of).
PREFERRED_ACROSS_HOSTS = re.compile(
    r"(?P<first>" + VERB_WORD + r")\w*\s+(?:on|of|for|to|against|at)\s+(?P<first_host>" + HOST_NAME + "|" + HOST_SHORT + r")\b"
    r"[\s,]+(?:(?:always|still|clearly|generally|usually)\s+)?(?:over|rather\s+than|instead\s+of|in\s+preference\s+to|in\s+place\s+of|"
    r"beats|trumps|outranks|wins\s+over|(?:is|are)\s+(?:preferable|preferred)\s+(?:to|over)|" + RANKED_FIRST + r")\s+"
    r"(?:(?:a|an|the|any|another|one)\s+)?(?P<second>" + VERB_WORD + r")\w*\s+(?:on|of|for|to|against|at)\s+"
    r"(?P<second_host>" + HOST_NAME + "|" + HOST_SHORT + r")\b", re.IGNORECASE)


def preferred_across_hosts(text: str) -> Optional[tuple[tuple[str, str], tuple[str, str]]]:
    """((verb, host) preferred, (verb, host) put second) when the text prefers one move on a host it names over another
    move on another host it names, each said with its own host (`PREFERRED_ACROSS_HOSTS`); None otherwise, or when it says
    so more than once (which pair is the rule is then not plain)."""
    found = list(PREFERRED_ACROSS_HOSTS.finditer(text))
    if len(found) != 1:
        return None
    match = found[0]
    moves = []
    for verb_group, host_group in (("first", "first_host"), ("second", "second_host")):
        verbs, hosts = verbs_in(match[verb_group]), hosts_in(match[host_group])
        if len(verbs) != 1 or len(hosts) != 1:
            return None
        moves.append((verbs[0], hosts[0]))
    if moves[0][1] == moves[1][1] or moves[0][0] == moves[1][0]:
        return None
    return moves[0], moves[1]


# Before a host: what the text contrasts it with ("restore Op_Server0 before Enterprise2", "decoy User2, not User3").
_CONTRAST = re.compile(r"(?:\b(?:rather\s+than|instead\s+of|in\s+preference\s+to|in\s+place\s+of|over|before|ahead\s+of|"
                       r"and\s+not|but\s+not|not|never)|,\s*not)\s+(?:(?:on|to|for|at|with|from)\s+)?(?:the\s+)?", re.IGNORECASE)


# After a contrasted host, words that make it a condition ("before Enterprise2 gets exploited"), not a contrast.
_STATED_AFTER = re.compile(r"^\s*(?:is|are|was|were|gets?|got|shows?|showed|becomes?|became|has|have|had|does|did|turns?|"
                           r"goes|falls|ends\s+up|starts?|stays?|remains?|can|could|will|would|may|might)\b", re.IGNORECASE)


# A prohibition that names no verb: every verb on what follows it is forbidden.
ANY_VERB = re.compile(
    r"\b(?!\w*ed\b)(?:spend|waste|use|burn)\w*\s+(?:no|zero|nothing|not\s+(?:a\s+single|any|one))\s+(?:more\s+)?(?:actions?|time|"
    r"steps?|turns?|effort|moves?)?\s*(?:at\s+all\s+)?on\b|"
    r"\b(?:never|do\s+not|don'?t|stop|avoid|no\s+need\s+to)\s+(?:\w+\s+)?(?:touch\w*|bother\w*(?:\s+with)?|"
    r"(?:waste|spend|use|burn)\w*\s+(?:\w+\s+){0,2}?(?:actions?|time|steps?|turns?|effort|moves?)\s+(?:at\s+all\s+)?on|"
    r"act\w*\s+on|do\s+anything\s+(?:to|on|with|about)|interfere\w*\s+with|mess\w*\s+with)\b|"
    r"\bleave\b(?=[^.;:]*\b(?:alone|be)\b)|\bhands\s+off\b|\bno\s+actions?\s+(?:at\s+all\s+)?on\b|"
    # (r61h) not what the teacher said before, "ignore what I wrote on Op_Host1", "ignore my earlier note": a note about a
    # note, no ban of every move on the host it names (read as one, a correction that orders a move there was refused)
    r"\bignore\b(?!\s+(?:what(?:ever)?\b|(?:(?:my|the|that|this|our|your|his|her|their)\s+)?(?:(?:earlier|previous|last|old|"
    r"first|other|above|original)\s+)?(?:notes?|rules?|advice|instructions?|orders?|lessons?|guidance|messages?|comments?|words?)\b))|"
    r"\b(?:keep|stay)\s+(?:off|away\s+from|clear\s+of|out\s+of)\b|\bsteer\s+clear\s+of\b|\boff[- ]limits\b|"
    # a role's own order of nothing: "plan nothing (at all) for the user hosts", "recommend nothing on User2" (told in the
    # past, "I planned nothing for it", "we wasted no time on User2", it is a report)
    r"\b(?!\w*ed\b)(?:plan|schedule|queue|recommend|propose|prescribe)\w*\s+nothing\s+(?:(?:at\s+all|more|else|whatsoever)\s+)?"
    r"(?:for|on|to|against|about)\b|"
    # (r55h) a house norm said of nobody, "nobody touches User4", "no one is to lay a finger on the server": every move on
    # it forbidden (read as none, a Decoy ordered on the host passed as the text); the present or a modal only, what nobody
    # did ("nobody touched it", "no one has touched it yet") is a report
    r"\b(?:nobody|no[\s-]one)\s+(?:(?:should|must|may|shall|will|can|is\s+to|gets?\s+to|is\s+allowed\s+to)\s+)?(?:ever\s+)?"
    r"(?:touch(?:es)?|lays?\s+(?:a\s+)?(?:finger|hand)s?\s+on|acts?\s+on|interferes?\s+with|mess(?:es)?\s+with)\b",
    re.IGNORECASE)


EXCEPT_WORDS = (r"except(?:\s+(?:for|on))?|other\s+than|apart\s+from|aside\s+from|but\s+not|excluding|save\s+for|besides|"
                 r"with\s+the\s+(?:sole\s+)?exception\s+of|not\s+counting|leaving\s+out|barring")


EXCEPTED_HOST_LIST = (r"(?P<what>(?:the\s+)?(?:(?:user|enterprise|op[\s_-]?(?:host|server)|defender)[\s_-]?\d?|" + HOST_SHORT + r")"
              r"(?:\s*(?:,|and|or|nor|/)\s*(?:the\s+)?(?:(?:user|enterprise|op[\s_-]?(?:host|server))[\s_-]?\d|" + HOST_SHORT + r"))*)")


# A light verb that carries the move as its noun: "run an Analyse of User2", "carry out a Remove on it", "do a Restore".
LIGHT_VERB = r"(?:run|do|perform|carry\s+out|launch|issue|execute)\s+(?:an?|the|one)\s+"


# (r47m) the move said as what the plan (or the reply) holds, after a modal: "every plan must include a DecoyTomcat on ...",
# "your answer should contain a Remove of User2" (the order of that move; read as none, a later clause was the order and
# the whole of this one its condition)
# (r47a: not "hold": "we must hold the Restore of Op_Host1 while ..." keeps the move back, the opposite of an order of it)
_HOLDING_VERB = r"(?:include|contain|carry|feature)\s+(?:an?|the|one)\s+"


# (r60m) The host said to be put down for the move, in the passive after a modal: "a box stuck at one level for four
# steps is to be scheduled for a Restore", "... should be slated for a Remove": the order of that move.
_PLANNED_FOR = r"(?:planned|scheduled|slated|earmarked|lined\s+up|queued(?:\s+up)?)\s+for\s+(?:an?|the|one)\s+"


# (r48h) The move said as what the one addressed does, after "means": "a scan on User1 means you plan a decoy there", "an
# exploit there means we remove it" (the order, in the situation before "means"; read as no order, that situation was no
# condition and a predicate of the bare host passed the checks). The verbs a Planner's or an Analyst's order puts before
# the move are `ADDRESSED_VERB` ("you plan / recommend / choose a Remove").
ADDRESSED_VERB = r"(?:plan|recommend|choose|pick|use)"


# (r48a) Not a "means" that is denied or made rare by the word before it, "a scan there never / hardly / no longer means
# you plan a decoy": no order (read as one, its situation "a scan there never" was a condition the checks placed, and a
# compiled order of the move passed)
MEANS_DENIED = (r"(?<!\bnever\s)(?<!\bhardly\s)(?<!\brarely\s)(?<!\bseldom\s)(?<!\bscarcely\s)(?<!\bbarely\s)"
                 r"(?<!\bno\slonger\s)(?<!\bnecessarily\s)(?<!\bautomatically\s)(?<!\bnot\salways\s)")


# (r60m) The one addressed also named by its reply, "a probe there means the plan decoys the host", "... means your report
# recommends a Remove": the move that reply holds, its order.
MEANS_ADDRESSED = (MEANS_DENIED + r"means(?:\s+(?:that\s+)?(?:you|we|(?:the|your|our|my)\s+(?:plan|report|reply|answer))(?:\s+(?:should|must|need\s+to|have\s+to|ought\s+to|will|can))?"
                    r"(?:\s+" + ADDRESSED_VERB + r")?)?")


# (r58h: "shall", the modal of a written procedure's clauses, "the defender shall reimage it then": read as no order, the move
# a ban sends the reader to was no part of the rule, and a faithful compilation of it was refused as a verb the text
# never ordered)
_MODAL_ORDER = re.compile(r"\b(?:should|shall|must|needs?\s+to|has\s+to|have\s+to|ought\s+to|is\s+to\s+be|gets?|"
                          # "an exploit on User2 means Remove User2", "calls for a Remove", "warrants a Restore"
                          + MEANS_ADDRESSED + r"|calls?\s+for|warrants?|deserves?|demands?|requires?|"
                          # ("a user host exploited right after a Restore needs a Remove"; "needs no Restore" is no order of it)
                          r"needs?(?!\s+(?:to|no|not|nothing|never|none|neither|any)\b)|"
                          # "the better call is to Remove User2", "the right move would be to ...": a judgement that orders
                          r"(?:better|best|right|smarter|safer|wiser|correct|cheaper)\s+(?:call|move|choice|play|option|answer|"
                          r"response|thing\s+to\s+do)\s+(?:is|would\s+be|will\s+be))\s+"
                          # (r39k) a hedge or a degree between the modal and the passive, "should probably be removed",
                          # "must really get restored": still the order (read as none, the rule's clauses ran together)
                          r"(?:(?:probably|likely|really|definitely|certainly|surely|always|also|still|then|perhaps|maybe|"
                          r"usually|normally|generally|ideally|just|simply)\s+(?=(?:be|get)\s))?(?:be\s+|get\s+)?"
                          # ("I should run an Analyse of that host", "must carry out a Remove there": the move said as a
                          # noun after a light verb)
                          # (r48b: not a hedge, "means we may / might / could decoy it": no order, as "we might decoy it" is none)
                          r"(?:(?!(?:might|could|may)\b)\w+\s+)?(?:" + LIGHT_VERB + "|" + _HOLDING_VERB + "|" + _PLANNED_FOR + r")?(?="
                          + VERB.pattern + ")", re.IGNORECASE)


# -- the reading --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Prohibition:
    """A verb the text forbids (None: every verb), on the hosts named right after it (empty: not named)."""

    verb: Optional[str]
    hosts: tuple[str, ...] = ()
    classes: tuple[str, ...] = ()


# (r52h) A move proposed only to be mocked: "Sure, reimage it at the first scan, what could possibly go wrong", "Remove
# the admin box? Great, if you like handing the red team a free step." The sarcasm turns the proposal down: the move
# it names is forbidden on its hosts, never ordered (read as an order, the rule prescribed what its writer scorns).
# (The question is a tag that closes its clause, "..., what could go wrong."; asked in the sentence, "think about what
# could go wrong before a Restore", it mocks nothing.)
_MOCKED = re.compile(r"(?:^|(?<=[,;:(]\s)|(?<=[-\u2013\u2014]\s))(?:(?:what|how)\s+(?:could|can|might)\s+(?:that\s+|this\s+|it\s+)?"
                     r"(?:possibly\s+)?go\s+wrong|what(?:['\u2019]s|\s+is)\s+the\s+worst\s+that\s+(?:could|can)\s+happen)"
                     r"(?=\s*(?:[.!?)]|$))|"
                     r"\bif\s+you\s+(?:really\s+)?(?:enjoy|like|love|fancy|relish)\s+(?:losing|wasting|burning|throwing|"
                     r"giving|handing|gifting|donating)\b|"
                     r"\bsaid\s+no\s*(?:one|body)\s+ever\b|\bgood\s+luck\s+with\s+that\b|"
                     r"\b(?:because|since)\s+that\s+(?:always\s+)?(?:works|worked)\s+so\s+well\b", re.IGNORECASE)


# (r52a) What lets a mockery answer the sentence before it: its own sentence holds nothing before it but an assent
# ("Lovely, ", "Oh sure, ", none), and the sentence before is a proposal, asked ("Restore it while it idles?") or granted
# in the same scorn ("Sure, reimage it at the first scan."). An order said plainly before a mockery of something else is
# no proposal of it: read as one, "Remove it at once. Waiting a turn, because that always works so well." forbade the
# Remove the writer orders.
_ONLY_ASSENT = re.compile(r"^\s*(?:(?:oh|ah|yeah|yes|well|right|sure|great|lovely|grand|brilliant|perfect|fine|wonderful|"
                          r"fantastic|excellent|splendid|super|cool|ok(?:ay)?|of\s+course|absolutely|totally)[\s,.!-]*)*$",
                          re.IGNORECASE)
_PROPOSED = re.compile(r"\?\s*$|^\s*(?:(?:oh|ah|yeah|well)[\s,]+)?(?:sure|of\s+course|absolutely|totally|by\s+all\s+means)\b",
                       re.IGNORECASE)
# (r52a) A clause after the mockery in its sentence ("if you like handing red an easy target, skip the decoy"): the
# mockery is the condition of that clause, and what it mocks is the other move; the sentence before is no part of it.
_MOCKERY_LEADS = re.compile(r"^[^.;!?,]*,\s*(?!(?:then|honestly|really|frankly|mate|though|i\s+guess|i\s+suppose)\s*[.!?]*\s*$)"
                            r"\w", re.IGNORECASE)


def mocked_moves(text: str) -> tuple[Prohibition, ...]:
    """(r52h) The moves a text proposes only to mock (`_MOCKED`), each a prohibition on the hosts and classes named with
    it: the verbs of the mocking clause before its mockery, or, where it names none there ("Restore it while it idles?
    Grand, if you like wasting a step."), of the clause just before it, the proposal it answers (the order that follows
    the mockery, "...; Remove it instead", is no part of it)."""
    parts = [p for p in re.split(r"(?<=[.!?;])\s+", text) if p.strip()]
    found: list[Prohibition] = []
    for number, sentence in enumerate(parts):
        mockery = _MOCKED.search(sentence)
        if mockery is None:
            continue
        if _MOCKERY_LEADS.search(sentence[mockery.end():]):
            continue  # "if you like giving red a free target, skip it": the mockery is the condition of what follows it
        proposal = sentence[:mockery.start()]
        if not verbs_in(proposal):
            # (r52a) the proposal before it, only where the mockery stands alone answering it ("...? Lovely, if you like
            # wasting a step."): a sentence of its own words before the mockery mocks those, not the order before them
            # ("Remove it on a user foothold. Sitting on your hands, because that always works so well.")
            answered = number and _ONLY_ASSENT.match(proposal) and _PROPOSED.search(parts[number - 1])
            proposal = parts[number - 1] if answered else ""
        found += [Prohibition(verb, hosts_in(proposal), classes_in(proposal)) for verb in dict.fromkeys(verbs_in(proposal))]
    return tuple(found)


def modal_order(body: str) -> bool:
    """Whether a sentence orders with a modal or "means" (`_MODAL_ORDER`): (r48a) not a "means" its own clause disowns
    or reports from another (`MEANS_DISOWNED`: "someone said a scan there means we plan a decoy")."""
    return any(not (found.group(0).lower().startswith("means")
                    and MEANS_DISOWNED.search(re.split(r"[,;:.]", body[:found.start()])[-1]))
               for found in _MODAL_ORDER.finditer(body))


def forbids_verb(sentence: str) -> bool:
    """Whether a sentence forbids a verb: "never" / "not" after an auxiliary ("... which did not actually evict the
    attacker", "if it was not restored") reports what a move did or states a condition, and forbids nothing (as
    `prohibitions_in` reads it)."""
    return any(not _after_auxiliary(sentence, match) and not _told_never(sentence, match)
               and not _LIMIT_NOT_BAN.match(match.group(0)) and not _harm_denied(sentence, match)
               for match in _FORBIDDEN_VERB.finditer(sentence))


# (r48b) A "no" / "never" whose words before the move say a count or a time beside it, "User1 gets no more than one
# Restore", "no warning before a Restore", "never more than two decoys": a limit on the move, or something said of the
# time around it, and no ban of the move (read as one, a compiled "never" on the host passed, and an order of the one
# move the words allow was refused as their opposite).
_LIMIT_NOT_BAN = re.compile(r"^(?:no|never)\b(?:\s+[\w'-]+){0,2}?\s+(?:than|before|after|until|till|ahead\s+of|prior\s+to|"
                            r"following|beyond)\b", re.IGNORECASE)


# "not" before a state said of a host ("exploited but not rooted needs a Remove", "scanned, not yet compromised, gets a
# decoy"): it denies that state; the move after it is ordered, not forbidden.
_DENIED_STATE = re.compile(r"\s*not\s+(?:yet\s+|even\s+|fully\s+)?(?:compromised|exploited|scanned|rooted|privileged|owned|"
                           r"escalated|breached|infected|hacked|pwned|popped)\b", re.IGNORECASE)


# "no" / "without" before a state said as a noun ("scanned, but no compromise", "a host at root with no alerts", "no
# foothold yet"): it denies that state, and the verb after it is the order's ("op hosts scanned with no compromise
# receive a DecoyApache"), not one it forbids. ("no access to X" is a prohibition's object, not a state.)
_DENIED_STATE_NOUN = re.compile(r"\s*(?:no|without)\s+(?:(?:any|further|more|new|current)\s+)?(?:compromises?|foothold|access|"
                                r"escalation|exploits?|exploitation|alerts?|alarms?|activity|activities|scans?|scanning|"
                                r"intrusion|breach)\b(?!\s+(?:to|is|was)\b)", re.IGNORECASE)


# (r45m) A prohibition word that is itself denied: "don't skip the Analyse", "never leave out the Remove", "do not hold
# off on a Restore", "never stop analysing it": two negations, an order of the verb (read as one, its "do not" forbade it).
_HOLDING_OFF = (r"(?:skip|avoid|omit|neglect|stop(?!\s+(?:at|with|there|short)\b)|quit|cease|leave\s+out|refrain\s+from|"
                r"hold\s+off(?:\s+on)?|hold\s+back\s+(?:on|from)|put\s+off|pass\s+up\s+on|pass\s+on|forgo|drop)\b")


_DENYING = r"(?:never(?:\s+ever)?|do\s+not|don['\u2019]?t|must\s+not|mustn['\u2019]?t|should\s+not|shouldn['\u2019]?t)\s+(?:(?:ever|just|simply)\s+)?"


HOLDING_OFF_DENIED = re.compile(r"\b" + _DENYING + _HOLDING_OFF, re.IGNORECASE)


_HOLDING_OFF_START = re.compile(_HOLDING_OFF, re.IGNORECASE)


_DENIED_BEFORE = re.compile(r"\b" + _DENYING + r"$", re.IGNORECASE)


# (r51a) ... or turned off as a setting after its verb: "skip restore = no", "avoid Remove: false", "skip Analyse = off":
# the omission switched off, no ban of the move (read as one, a setting that keeps the Restore forbade it everywhere)
_SET_OFF_AFTER = re.compile(rf"(?:{VERB.pattern})\w*\s*(?:=|:)\s*(?:no|false|off|0|disabled)\b", re.IGNORECASE)


def _forbidding(instruction: str):
    """The matches of _FORBIDDEN_VERB, less a "not" that denies a state (_DENIED_STATE) or a "no" before a state's noun
    (_DENIED_STATE_NOUN): the search goes on after that state ("a host not compromised needs no Restore" still forbids
    the Restore); and less a prohibition word itself denied, "don't skip the Analyse" (HOLDING_OFF_DENIED): an order,
    the search going on after its verb."""
    position = 0
    while (match := _FORBIDDEN_VERB.search(instruction, position)) is not None:
        if HOLDING_OFF_DENIED.match(match.group(0)) or _HOLDING_OFF_START.match(match.group(0)) \
                and (_DENIED_BEFORE.search(instruction[:match.start()]) or _SET_OFF_AFTER.match(instruction, match.end())) \
                or _LIMIT_NOT_BAN.match(match.group(0)) or _harm_denied(instruction, match):
            position = match.end()
            continue
        if _told_never(instruction, match) or _keeping_turned(instruction, match) or _without_denied(instruction, match) \
                or _WHY_NOT.search(instruction[:match.start()]) or _availability_denied(instruction, match):
            position = match.end()
            continue
        denied = _DENIED_STATE.match(match.group(0)) or _DENIED_STATE_NOUN.match(match.group(0))
        if denied is None:
            yield match
            position = match.end()
        else:
            position = match.start() + denied.end()


# (r55e) A "without" in a clause a negation already opens, "do not close the turn without a Restore of User1", "never let
# a step pass without restoring it": two negations, the move after "without" is the one demanded (read as "no Restore",
# the text was a "never" of the very move it asks for: the opposite)
_NEGATION_OPENS_CLAUSE = re.compile(r"\b(?:not|never|no|nobody|none|cannot)\b|n['\u2019]t\b", re.IGNORECASE)


# (r55e) A word of forbidding right after "why", "why not Restore User2 when it is rooted?", "why don't we Remove it?", "why
# shouldn't we decoy User1?": the move proposed as a question, no ban (read as one, the text was a "never" of its proposal)
_WHY_NOT = re.compile(r"\bwhy\s+(?:ever\s+)?$", re.IGNORECASE)


# (r55e) A clause that ends a ban's time or lifts it: "never touch it until User3 is restored", "... unless Op_Server0 is
# rooted", "hands off till Enterprise0 is clean"
# (r56h) The auxiliary and subject a negative inversion puts after its condition, "Not unless Enterprise2 is owned should
# anyone Restore Op_Host0", "only once it is clean may we decoy it": the main clause starts there.
INVERTED_AUXILIARY = (r"\b(?:should|shall|may|must|can|could|will|would)\s+(?:anyone|anybody|any\s+one|someone|we|you|one|i|they|"
                      r"the\s+(?:defender|chooser|planner|analyst|team))\b")


# (r56h: up to an inverted auxiliary, INVERTED_AUXILIARY: the ban's own clause starts there, and its host is the ban's
# place, not one waited on)
_BAN_LIFTED = re.compile(r"\b(?:until|till|til|unless|before|ahead\s+of|prior\s+to)\b(?:(?!" + INVERTED_AUXILIARY + r")[^.;:!?,])*", re.IGNORECASE)


def hosts_waited_on(text: str) -> set[str]:
    """(r55e) The hosts named in the clauses that end or lift a ban (`_BAN_LIFTED`): the state waited on, no place of the
    ban, unless the text names them elsewhere too."""
    waited = {h for m in _BAN_LIFTED.finditer(text or "") for h in hosts_in(m.group(0))}
    return waited - set(hosts_in(_BAN_LIFTED.sub(" ", text or "")))


def _without_denied(instruction: str, match: re.Match) -> bool:
    """(r55e) Whether `match` is a "without" in a clause a negation opens before it (`_NEGATION_OPENS_CLAUSE`)."""
    if not match.group(0).lower().startswith("without"):
        return False
    clause = re.split(r"[.;:!?,]", instruction[:match.start()])[-1]
    return _NEGATION_OPENS_CLAUSE.search(clause) is not None


# (r57m) A move said not to be open this turn: "if a Remove isn't available that step", "when no Restore is open to
# us", "if a Remove can't be done" (`move`: the move's word). A case no row of the table states: the fallback's, which the
# checks let a compilation keep in its unexpressed rest, and the guard reader keeps from silencing the move itself.
MOVE_UNAVAILABLE = re.compile(r"(?:(?:if|when|whenever|while|once|in\s+turns?\s+when)\s+)?(?:(?:there\s+is\s+)?no|a|an|the|any)\s+"
                              r"(?P<move>[\w-]+)\s+(?:(?:is|was)\s*(?:not|n['\u2019]t)?\s*(?:possible|available|an\s+option|"
                              r"on\s+offer|open\s+to\s+(?:me|us|you))|can(?:not|['\u2019]t|\s+not)\s+be\s+(?:done|made|run|played))"
                              r"(?:\s+(?:this|that|the)\s+(?:turn|step))?", re.IGNORECASE)


def denies_availability(found: re.Match) -> bool:
    """(r57m) Whether a match of MOVE_UNAVAILABLE says the move is NOT open ("no Restore is possible", "isn't
    available"), not that it is."""
    return re.search(r"(?:\bno\b|\bnot\b|n['\u2019]t\b|\bcannot\b)", found.group(0), re.IGNORECASE) is not None


# (r57m) "no <move> is possible", "while no Remove is available": a move said not to be open, the case a fallback
# waits for, no prohibition of it (read as one, the order of that very move in the other case was refused as its opposite)
# (not "no Remove is an option on User1": a verdict against the move, which stays a ban)
_AVAILABLE_AFTER = re.compile(r"\w*\s+(?:is|was)\s+(?:possible|available|on\s+offer|open\s+to\s+(?:me|us|you))\b",
                              re.IGNORECASE)


# (r57b) The word that makes "no <move> is available" a case ("when no Remove is available", "in turns where there is no
# Restore possible"): said on its own, "No Restore is available for User1 this game", the words tell the chooser not to
# reach for the move, and stay a ban
_CASE_OPENS = re.compile(r"\b(?:if|when|whenever|while|once|where|unless|until|till|in\s+which)\s+(?:there\s+is\s+)?$",
                         re.IGNORECASE)


def _availability_denied(text: str, match: re.Match) -> bool:
    """(r57m) Whether a "no" of _FORBIDDEN_VERB says only that its move is not open (`_AVAILABLE_AFTER`)."""
    verb = VERB.match(text, match.end())
    return bool(re.match(r"\s*no\s*$", match.group(0), re.IGNORECASE) and verb is not None
                and _AVAILABLE_AFTER.match(text, verb.end()) and _CASE_OPENS.search(text[:match.start()]))


# (r48m) A "never" before a verb in the past: "(I) never analysed it after that", "(we) never restored it".
_TOLD_NEVER = re.compile(r"\s*never\s+(?:once\s+|again\s+)?(?:\w+ed|took|made|gave|ran|saw|went|got|kept|left|sent|chose|did|set|put)\b",
                         re.IGNORECASE)


# (r54l) A prohibition word before "keep(ing) <the move> off <host>": "stop keeping the decoys off Enterprise1", "never keep
# a Remove away from User2" deny the keeping, and want the move there (read as a ban of the move, a "never" of the move,
# the opposite, passed as the text). `prohibitions_in` reads the keeping itself (_MOVE_KEPT_OFF, _KEEPING_DENIED).
_KEEPING_BEFORE = re.compile(r"\b(?:keep(?:s|ing)?|hold(?:s|ing)?)\s+(?:(?:a|an|the|any|every|all|each|your|our|further|more)\s+)*$",
                             re.IGNORECASE)


def _keeping_turned(text: str, match: re.Match) -> bool:
    """(r54l) Whether a match of _FORBIDDEN_VERB denies the keeping of its move off a place (`_KEEPING_BEFORE`), no move."""
    return bool(_KEEPING_BEFORE.search(match.group(0))
                and re.match(r"[\w-]+\s+(?:[\w-]+\s+)?" + _KEPT_FROM + r"\b", text[match.end():], re.IGNORECASE))


def _told_never(text: str, match: re.Match) -> bool:
    """(r48m) Whether a match of _FORBIDDEN_VERB is the teacher telling what they never did ("... and I never analysed it
    after that", "we never restored it"): a "never" after "I" / "we" before a verb in the past, a story, no prohibition."""
    return bool(_TOLD_NEVER.match(text, match.start()) and re.search(r"\b(?:i|we)\s*$", text[:match.start()], re.IGNORECASE))


_PLAIN_FORBID = re.compile(r"\s*(?:never|do\s+not|don'?t|does\s+not|doesn'?t|must\s+not|mustn'?t|should\s+not|shouldn'?t|"
                           r"cannot|can'?t|may\s+not|avoid|refrain\s+from|under\s+no\s+circumstances)\s*", re.IGNORECASE)


def forbidding_away(instruction: str) -> str:
    """(r42x) An order without the words that forbid its verb ("never Restore an exploited user host": "Restore an
    exploited user host"): what the order acts on, read for its states, without the prohibition's "never" read as a
    denial of them. Only a plain word that forbids, right before the verb, is taken out; a "not" that denies a state, or
    one after an auxiliary (a report or a condition), is kept."""
    kept, position = [], 0
    for match in _forbidding(instruction):
        # (only the words that forbid plainly, right before the verb: a bare "no" or "not" may be a state ("back to No
        # right after a Restore"), and words between may name what it acts on ("don't want User1 restored"))
        if _PLAIN_FORBID.fullmatch(match.group(0)) and not _after_auxiliary(instruction, match):
            kept.append(instruction[position:match.start()])
            position = match.end()
    return " ".join(kept + [instruction[position:]])


# "not / never to be VERBed" after "is / are": the "is to" of an order ("Op_Server0 is not to be reimaged"), no state
_TO_BE_DONE = re.compile(r"\s*(?:not|never)\s+to\s+(?:be|get)\b", re.IGNORECASE)


_NOT_A_CASE_FOR_START = re.compile(r"\s*" + NOT_A_CASE_FOR, re.IGNORECASE)


# (r56m) The move named as the answer or the call, turned down: "on User1 our answer is never an Analyse", "your pick is not
# a Restore". The "is" there names what the move is, so the "never" after it forbids the move; read as "it is never ...", a
# state of a host, it was taken for a condition and the prohibition was lost.
_ANSWER_IS = re.compile(r"\b(?:the|my|our|your)\s+(?:answer|move|call|pick|choice|response|recommendation|play)\s+(?:is|will\s+be)\s*$",
                        re.IGNORECASE)


# (r56b) ... the "not" / "never" right before the move, with an article or a "to" at most: "the answer is not only a Restore",
# "our answer is not always a Restore", "your pick is not necessarily a Restore", "the answer is not just a Remove" limit
# how often or how alone the move is the answer, and forbid nothing (read as "never <move>", the move the text urges
# was turned down).
_ANSWER_DENIED = re.compile(r"\s*(?:not|never)(?:\s+(?:a|an|the|to))?\s*", re.IGNORECASE)


# (r57m) A standing "never" said in the present passive of a clause with no condition, its move ending the clause or
# followed by a concession: "Op_Host1 is never removed, whatever its row says", "the op hosts are never reimaged." A policy,
# which forbids the move on its subject (read as the state after an auxiliary, "if it is never restored", the ban had no
# place and a faithful "never" was refused as the opposite of the text). Not "is never removed in time", "... until ...":
# a report of how things go, or a limit, which stay as they read.
_NEVER_DONE_POLICY = re.compile(r"\s*never\s*$", re.IGNORECASE)
_POLICY_CLAUSE_END = re.compile(r"\s*(?:[,;.!:]\s*(?:whatever|whichever|no\s+matter|regardless|in\s+any|under\s+any|at\s+any|"
                                r"ever|full\s+stop|period)\b|[;.!:]|$)", re.IGNORECASE)
_CONDITION_WORDS = re.compile(r"\b(?:if|when|whenever|unless|once|while|whether|until|till|after|before|as\s+long\s+as)\b",
                              re.IGNORECASE)


# (r57b) What makes a passive "never" a report rather than a policy: it said in a clause of its own ("the trouble is
# that ...", "I see ...", "which is ..."), not as the subject alone
_REPORTED = re.compile(r"\b(?:that|which|who|whom|whose|is|are|was|were|been|i|we|you|they|he|she|seems?|says?|said|"
                       r"reads?|saw|see|sees|notic\w*|finds?|found|shows?|showed|means?|problem|trouble|issue|pity|shame)\b",
                       re.IGNORECASE)


def _passive_never(before: str, match: re.Match) -> bool:
    """(r57m) Whether a "never" stands after "is" / "are" (`_NEVER_DONE_POLICY`): "Op_Host1 is never removed"."""
    return _NEVER_DONE_POLICY.match(match.group(0)) is not None and re.search(r"\b(?:is|are)\s*$", before, re.IGNORECASE) is not None


def _standing_never(text: str, match: re.Match) -> bool:
    """(r57m) Whether a "never" after "is" / "are" is a standing ban said in the passive (`_passive_never`): its clause
    opens with no condition and its move ends the clause, or a concession follows it."""
    before = text[:match.start()]
    if not _passive_never(before, match):
        return False
    verb = VERB.match(text, match.end())
    if verb is None or not re.search(r"(?:ed|en|t)$", verb.group(0), re.IGNORECASE):
        return False
    clause = re.split(r"[.;:!?,]", before)[-1]
    # (r57b) the clause opens its sentence and says only its subject: "The trouble is that User2 is never restored",
    # "In the logs I read, Enterprise0 is never restored" report how things went (or complain of it), no standing ban
    opens = re.split(r"[.;:!?\n]", before)[-1].strip() == clause.strip()
    subject = re.sub(r"\b(?:is|are)\s*$", "", clause, flags=re.IGNORECASE)
    return opens and _REPORTED.search(subject) is None and _CONDITION_WORDS.search(clause) is None \
        and _POLICY_CLAUSE_END.match(text, verb.end()) is not None


def _after_auxiliary(text: str, match: re.Match) -> bool:
    before = text[:match.start()]
    if _standing_never(text, match):
        return False
    if _NOT_A_CASE_FOR_START.match(match.group(0)):
        return False  # (r44x) "this is not the time for a Remove": a verdict against the move, not a condition
    if _TO_BE_DONE.match(match.group(0)) and re.search(r"\b(?:is|are|'s|'re)\s*$", before, re.IGNORECASE):
        return False  # "User2 and User3 are never to be restored": an order said with "is to", not a condition
    if re.match(r"\s*not\s+(?:permitted|allowed)\s+to\b", match.group(0), re.IGNORECASE):
        return False  # (r49m) "it is not permitted to restore ...": a policy's prohibition, not a condition
    if _ANSWER_IS.search(before) and _ANSWER_DENIED.fullmatch(match.group(0)) and not re.search(r"\b(?:if|when|whenever|unless|once|while|whether)\b",
                                                     re.split(r"[.;:!?,]", before)[-1], re.IGNORECASE):
        return False  # (r56m) "our answer is never a Sleep", "the move is not a Restore": the move turned down, no condition
    return bool(re.match(r"\s*(?:not|never)\b", match.group(0), re.IGNORECASE) and re.search(
        r"\b(?:is|are|was|were|has|have|had|did|does|do)\s*$", before, re.IGNORECASE))


def _said_of_subject(before: str, match: re.Match) -> bool:
    """Whether a prohibition is said of the subject before it: after a modal ("User1 should never be restored"), what it
    gets none of ("User3 gets no decoy"), with its modal in it ("User3 should not be restored", "User2 mustn't get a Remove") or as an "is to" ("Op_Server0 is not
    to be reimaged")."""
    return bool(re.search(r"\b(?:should|must|may|can|is\s+to|are\s+to|shall|will)\s*$", before, re.IGNORECASE)
                or re.match(r"\s*(?:(?:should|must|may|shall)\s*(?:not|n'?t)|cannot|can'?t)\b", match.group(0), re.IGNORECASE)
                or _TO_BE_DONE.match(match.group(0)) and re.search(r"\b(?:is|are|'s|'re)\s*$", before, re.IGNORECASE)
                or re.match(r"\s*no\b", match.group(0), re.IGNORECASE) and bool(_RECEIVES.search(before))
                # (r57m) "Op_Host1 is never removed": a standing ban in the passive (_standing_never), said of its subject
                or _passive_never(before, match))


# (r48a) What in a prohibition's subject is not the subject: a host it leaves out or names only as a place beside it
# ("every server except Enterprise0 gets no Restore", "any host but User1", "the box next to User1 gets no decoy"), and a
# condition said before it with no comma ("once User2 is owned Enterprise0 needs no Restore"). Read as the subject, the
# prohibition was placed on the very host the words leave out (or on the condition's host).
_NOT_THE_SUBJECT = re.compile(r"\b(?:" + EXCEPT_WORDS + r"|but|not|unlike|next\s+to|near|beside|behind|than|like|after|before)\s+"
                              + EXCEPTED_HOST_LIST.replace("(?P<what>", "(?:") + r"|"
                              r"^\s*(?:if|when|whenever|once|while|as\s+soon\s+as|after|unless|until)\b[^,]*?\b(?:is|are|was|were|"
                              r"gets?|got|shows?|showed|reads?|turns?|goes|went)\s+(?:(?:a|an|the)\s+)?[\w-]+", re.IGNORECASE)


def _subject_itself(subject: str) -> str:
    """A prohibition's subject without what is not the subject (`_NOT_THE_SUBJECT`)."""
    return _NOT_THE_SUBJECT.sub(" ", subject)


# (r48b) "no <move>" joined to the next one, "no Restore and ", "no Remove, nor ": what stands between the subject and a
# second "no <move>" said of it
_NO_MOVE_JOINED = re.compile(r"(?:\bno\s+(?:(?:a|an|the|further|more|other|second)\s+)?" + VERB_WORD + r"\w*"
                             r"(?:\s+(?:on|of|for)\s+(?:it|them))?\s*(?:,\s*(?:and|or|nor)?|and|or|nor)\s*)+$", re.IGNORECASE)


# (r48b) "and" opening a clause with its own subject and verb, "... and User1 gets no Remove", "and Enterprise2 should
# never be restored": the clause of another prohibition, whose subject is its own
_NEXT_SUBJECT = (r"\band\s+(?=(?:the\s+)?[\w-]+\s+(?:gets?|needs?|receives?|deserves?|should|must|may|shall|can|will|is\s+to|"
                 r"are\s+to)\b)")

# (r57l) The words that open the clause a ban lasts until, or starts at: "until / till / before <state>", "once / after
# <state>", "as long as <state>". The hosts after them are the ban's condition, never its place.
BAN_ENDS = r"until|till|before|once|after|as\s+long\s+as|so\s+long\s+as"


# (r48h, r48m) The subject as the one a move is given to, before "no <move>": "User4 gets no decoy", "Enterprise1 needs no
# Restore", "the op boxes receive no Remove", "Defender merits no Restore" (the prohibition is on the subject; read as on
# no host, it forbade the move everywhere, and an order of it on the other hosts of the text was refused as its opposite).
_RECEIVES = re.compile(r"\b(?:gets?|receives?|deserves?|needs?|merits?|warrants?|(?:is|are)\s+given|(?:should|must|may|shall|will|can)\s+"
                       r"(?:get|receive|be\s+given))\s*$", re.IGNORECASE)


# (r48a) A "means" the teacher disowns or reports from another, in the words before it: "it is a myth that a scan there
# means you plan a decoy", "someone said an exploit means we remove it" (what follows is no order of the text: read as
# its situation, the doubt was placed in a condition and an order of the move passed the polarity check).
MEANS_DISOWNED = re.compile(r"\b(?:wrong|false|untrue|myth|mistaken|mistake|nonsense|not\s+true|not\s+(?:every|all|each))\b|"
                             r"\b(?:someone|somebody|people|they|others?|he|she|many|some)\s+(?:\w+\s+)?(?:said|says|say|think|thinks|"
                             r"thought|believe|believes|believed|assume|assumes|assumed|told)\b|"
                             r"(?<!\bi\s)(?<!\bwe\s)\b(?:claims?|claimed|insists?|insisted)\b|\b(?:allegedly|supposedly)\b",
                             re.IGNORECASE)


_RUNG_AFTER = re.compile(r"(?:[;,.!]|\s[-\u2013\u2014]+)\s*(?=(?:or\s+)?(?:else|otherwise)\s*,?\s*(?:if|when|whenever|once)\b)", re.IGNORECASE)


def first_rung(text: str) -> str:
    """(r46a) The first case of an if / else-if ladder: the text up to its next rung ("If E1 is owned, Restore it;
    otherwise, if a scan is all it shows, decoy it" -> "If E1 is owned, Restore it"); the text as it stands where it has none.
    Each rung pairs its own condition with its own order: one compiled predicate and action are held to one rung (held to
    the ladder's conditions and orders at once, a Restore compiled for the scanned case passed, the opposite of its rung)."""
    # (r46b: not a rung that only leaves a host alone, "otherwise, if it is User0, leave it be": the order's exception)
    found = next((m for m in _RUNG_AFTER.finditer(text or "") if not LEFT_ALONE_CASE.match(text, m.start())), None)
    return text[:found.start()].rstrip() if found and found.start() > 0 else text


OTHERWISE = re.compile(r"\b(?:otherwise|or\s+else|(?<!\bnothing\s)(?<!\banything\s)(?<!\bsomething\s)(?<!\beverything\s)else|in\s+(?:all\s+)?other\s+cases|the\s+rest\s+of\s+the\s+time)\b", re.IGNORECASE)


def contrasted_hosts(instruction: str) -> tuple[str, ...]:
    """The hosts the order is contrasted with: named right after "rather than / instead of / before / over / not"
    ("restore Op_Server0 before Enterprise2", "put a decoy on User2, not User3"), unless what follows states
    something of them ("before Enterprise2 gets exploited" is a condition)."""
    found = []
    for match in _CONTRAST.finditer(instruction):
        after = instruction[match.end():]
        # ("plan its Restore before any Restore of an enterprise server": the move put second is on the hosts after it)
        moved = _MOVE_PUT_SECOND.match(after) if re.match(r"before|ahead", match.group(0).strip(), re.IGNORECASE) else None
        if moved is not None:
            after = after[moved.end():]
            group = next((c for pattern, c in CLASS_FORMS if pattern.match(after)), None)
            if group is not None:
                named = hosts_in(instruction[:match.start()])  # (the order's own host is not put second)
                found += [h for h in HOST_CLASSES[group] if h not in named]
                continue
        listed = _hosts_listed(after)
        if listed and not _STATED_AFTER.match(after[listed[-1][1]:]):
            found += [h for h, _ in listed]
    return tuple(dict.fromkeys(found))


def _hosts_listed(text: str) -> list[tuple[str, int]]:
    """The hosts a text opens with, one or a list ("User1", "User1, User2 and User3", "User1-4" written out), each with
    where it ends (r31m: "analyse User0, not User1-4" contrasts the order with every host of the list, not its first)."""
    found: list[tuple[str, int]] = []
    at = 0
    while True:
        host = next(((h, m) for pattern, h in HOST_FORMS if (m := pattern.match(text, at))), None)
        if host is None:
            return found
        found.append((host[0], host[1].end()))
        joined = re.compile(r"\s*(?:,\s*(?:and\s+|or\s+|nor\s+)?|\s+(?:and|or|nor)\s+)").match(text, host[1].end())
        if joined is None:
            return found
        at = joined.end()


# After "before" / "ahead of", a move named before the hosts it is on: "any Restore of", "a Remove on", "restoring".
_MOVE_PUT_SECOND = re.compile(r"(?:(?:any|a|an|every|each)\s+)?" + VERB_WORD + r"\s+(?:(?:of|on|to|for)\s+)?(?:(?:a|an|the|any|every|each)\s+)?",
                              re.IGNORECASE)


_OTHERS = re.compile(r"\b(?:the\s+)?(?:other|rest\s+of\s+the|remaining|every\s+other|all\s+(?:the\s+)?other)\b", re.IGNORECASE)


def _others(scope: str, instruction: str, hosts: tuple[str, ...], classes: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A prohibition on "the other user hosts" ("restore User1, but never the other user hosts"): the hosts of the
    class the text does not name, not the whole class."""
    if not classes or not _OTHERS.search(scope):
        return hosts, classes
    named = set(hosts_in(instruction))
    return tuple(dict.fromkeys([*hosts, *(h for c in classes for h in HOST_CLASSES[c] if h not in named)])), ()


def told_others(flat: str, whole: str, instruction: str) -> tuple[str, ...]:
    """The hosts an order leaves out by calling the rest of their class "the other ..." when the text names them only
    outside the order, in its story ("DecoyApache on Enterprise0 paid off. Put one on the other enterprise servers too
    whenever they get scanned.": Enterprise1 and Enterprise2, not Enterprise0). A host the order itself names stays
    (it may be its condition or its first move)."""
    told = set(hosts_in(flat)) - set(hosts_in(whole))
    return tuple(h for m in _OTHERS.finditer(instruction) if not _counted_other(instruction[:m.start()])
                 for cls in classes_in(" ".join(instruction[m.end():].split()[:3]))[:1] for h in HOST_CLASSES[cls] if h in told)


# (r57h) "The other two enterprise servers", "the remaining three user boxes", "the two other op hosts": a class less the
# hosts the text names before, counted.
_OTHERS_COUNTED = re.compile(r"\b(?:the\s+(?:other|remaining)\s+(?P<count>two|three|four|[2-4])|the\s+(?P<count2>two|three|four|[2-4])\s+"
                             r"(?:other|remaining))\s+(?P<noun>(?:[\w-]+\s+){0,2}?(?:hosts?|box(?:es)?|machines?|servers?|"
                             r"workstations?|nodes?|ones))\b", re.IGNORECASE)
_COUNT_WORDS = {"two": 2, "three": 3, "four": 4, "2": 2, "3": 3, "4": 4}


def counted_others(flat: str) -> tuple[str, ...]:
    """(r57h) The hosts "the other two <class>" leaves out (`_OTHERS_COUNTED`): those of the class the text names outside
    that phrase's sentence ("Enterprise0 belongs to another team. The remaining two enterprise servers get a DecoyTomcat
    whenever one of them is probed"), and, where the class's other hosts outnumber the count, the one named for no
    number of the class (the Defender beside numbered enterprise servers: Enterprise1 and Enterprise2 are the two).
    Where the count fits no such reading, none (the class as it stands). Read as the whole class, the note spoke where
    only the host it set apart, or the Defender, was probed."""
    left: list[str] = []
    for found in _OTHERS_COUNTED.finditer(flat or ""):
        classes = classes_in(found["noun"])
        if len(classes) != 1:
            continue
        start = max(flat.rfind(".", 0, found.start()), flat.rfind(";", 0, found.start())) + 1
        end = min((i for i in (flat.find(".", found.end()), flat.find(";", found.end())) if i >= 0), default=len(flat))
        named = set(hosts_in(flat[:start] + " " + flat[end:])) & set(HOST_CLASSES[classes[0]])
        if not named:
            continue
        count = _COUNT_WORDS[(found["count"] or found["count2"]).lower()]
        rest = [h for h in HOST_CLASSES[classes[0]] if h not in named]
        numbered = [h for h in rest if h[-1].isdigit()]
        if len(rest) == count:
            left += sorted(named)
        elif len(numbered) == count:
            left += [*sorted(named), *(h for h in rest if h not in numbered)]
    return tuple(dict.fromkeys(left))


# (r38h) "other" after a count or a negation ("just one enterprise server is hit, no other server is", "any other
# box", "one other server"): the others of the condition's own subject, never the hosts the story told of.
_COUNTED_BEFORE = re.compile(r"\b(?:no|any|one|a\s+single|some|each|an|two|three|more\s+than\s+one)\s*$", re.IGNORECASE)


def _counted_other(before: str) -> bool:
    """Whether an "other" comes right after a count or a negation (`_COUNTED_BEFORE`)."""
    return bool(_COUNTED_BEFORE.search(before))


# A list of named hosts, "User1, User2 and User3" (a range written out is one): its commas join names and end no clause,
# so a prohibition's scope, cut at a comma, must not lose the list's other hosts. (an item is a host's name or shorthand,
# a word with its number: "Op_Host0", "U2"; the Defender host has none. The last item comes after "and" / "or": "never
# restore User1, User2 is the one to restore" is no list)
_HOST_ITEM = r"(?:[A-Za-z][\w-]*\d|Defender)\b"


_HOST_LIST = re.compile(rf"\b{_HOST_ITEM}(?:\s*,\s*{_HOST_ITEM})*\s*,?\s+(?:and|or|nor)\s+{_HOST_ITEM}")


def _host_lists_joined(text: str) -> str:
    """The text with each list of named hosts' commas made spaces (same length): "never restore User1, User2 or User3"
    forbids it on all three, "User0, User1 and User2 should never be restored" too."""
    def joined(match: re.Match) -> str:
        items = re.split(r"\s*,\s*|\s+(?:and|or|nor)\s+", match.group(0))
        return match.group(0).replace(",", " ") if all(len(hosts_in(item)) == 1 for item in items) else match.group(0)
    return _HOST_LIST.sub(joined, text)


# "Neither User1 nor User2 should be restored", "neither user host is to be reimaged ... nor": the hosts a passive
# prohibition names before its verb, joined by "neither ... nor" (r31m; left unread the rule's "never" was refused as
# inverting a text that "orders" the verb)
_NEITHER_NOR = re.compile(r"\bneither\s+(?P<first>[^,;.:]{1,40}?)\s+nor\s+(?P<second>[^,;.:]{1,40}?)\s+"
                          r"(?:should|must|shall|will|may|can|is\s+to|are\s+to|ought\s+to)\s+(?:ever\s+)?(?:be|get)\s+",
                          re.IGNORECASE)


# (r38h) Where the words a judgement is said of begin: after the last comma, or after an "and" / "but" / "while" that
# joins a clause of its own to it ("a decoy goes on it first, and a Remove now would be premature": the Remove is
# judged, not the decoy).
# (r54h: and a dash set between two clauses, "Restore User4 - a Remove is not enough there": read from the clause's start,
# the judgement fell on the Restore, the very move ordered, and the order was read as its own prohibition)
_JUDGED_CLAUSE_START = re.compile(r",|\s[-\u2013\u2014]+\s|\b(?:and|but|while|whereas)\s+(?=(?:(?:a|an|the)\s+)?(?:" +
                                  "|".join(pattern for _, pattern in VERB_FORMS) + r")\b)", re.IGNORECASE)


# (r55l) A judgement's subject that is every move but the one ordered: "anything less", "anything short of that", "nothing
# else", "any lesser move", "half measures". Its clause has no verb of its own, and the order's verb before it was taken for
# what it judges: "Restore E0 - anything less is not enough" read as a ban on the very Restore it urges.
# (r55d) ... and the other way, every move beyond the order: "Remove the attacker from User2 - anything more is overkill"
# (read as a ban on the Remove it orders)
_OTHER_THAN_MOVE = re.compile(r"(?:(?:anything|something|nothing|any\s+thing)\s+(?:less|else|short(?:\s+of\s+(?:that|it|this))?|"
                              r"other|weaker|softer|smaller|lighter|more|further|stronger|harsher|heavier|bigger|beyond(?:\s+(?:that|it|this))?)"
                              r"(?:\s+than\s+(?:that|it|this))?|"
                              r"(?:any|a|every)\s+(?:lesser|weaker|softer|lighter|smaller|other|stronger|harsher|heavier|bigger|further)\s+"
                              r"(?:move|action|step|response|fix|measure)s?|"
                              r"half[\s-]+measures?|(?:less|more)(?:\s+than\s+(?:that|it|this))?)", re.IGNORECASE)
# (r55d) The same said of a move it names: "anything less than a Restore", "anything but a Restore", "any move short of a
# Restore": the move named is the measure of what is judged, the one urged, never what is judged (read as the judged move,
# "anything less than a Restore is a mistake" was a ban on the Restore). (The other way, "anything more than an Analyse is
# too much", the move named is the most allowed, no order: left to the readers as it was.)
_OTHER_THAN_NAMED = re.compile(r"\b(?:anything|something|nothing|everything|any\s+thing|any\s+(?:other\s+)?(?:move|action|step|"
                               r"response|fix|measure))\s+(?:(?:less|other|else|weaker|softer|smaller|lighter)\s+than|but|except|"
                               r"besides|short\s+of|instead\s+of|other\s+than|apart\s+from)\s+(?:(?:a|an|the|any)\s+)?$", re.IGNORECASE)


# (r56h) A condition that opens a judged clause before its subject: "While Op_Host2 is quiet, removing that box is
# overkill", "if User1 is quiet, a Remove there is overkill". The host it names is what the judgement waits on, no place
# of the move judged (read as its place, the ban fell on Enterprise2, and a faithful "never" on the server was disputed).
_CONDITION_BEFORE_SUBJECT = re.compile(r"^\s*(?:with|if|when|whenever|while|once|unless|as\s+long\s+as|after|until|given|so\s+long\s+as)\b",
                                       re.IGNORECASE)


def _judged_condition_away(clause: str, subject: str) -> str:
    """(r56h) A judged clause without the condition that opens it before its subject (`_CONDITION_BEFORE_SUBJECT`)."""
    at = clause.find(subject) if subject.strip() else -1
    if at > 0 and _CONDITION_BEFORE_SUBJECT.match(clause[:at]):
        return clause[at:]
    return clause


def _judged_subject(before: str) -> str:
    """The words before a judgement ("... is pointless") that it is said of: its own clause (`_JUDGED_CLAUSE_START`)."""
    return _JUDGED_CLAUSE_START.split(before)[-1]


def falling_short(text: str) -> tuple[str, ...]:
    """(r41m) The moves the text says fall short ("a Remove won't clear root"), can wait ("the Restore of User2 can
    wait a turn"), are not worth it (r49m, `NOT_WORTH`), bring nothing new (r57n, `_GAINS_NOTHING`) or asks what good
    they would do (r42m, `_QUESTIONED`), read in the whole text: the words that say so are often a clause after the order
    (an order, then "; Remove falls short at root"), which the order's reading drops."""
    text = " ".join(text.split())
    return tuple(dict.fromkeys(verb for pattern in (FALLS_SHORT, _CAN_WAIT, _QUESTIONED, _COSTLY, NOT_WORTH, _GAINS_NOTHING)
                               for match in pattern.finditer(text)
                               if not fails_in_condition(text[:match.start()]) and not _move_put_off(text[:match.start("verb")])
                               and not _OTHER_THAN_NAMED.search(text[:match.start("verb")])  # (r55d: the measure, not the move)
                               and not (pattern is _COSTLY and _cost_accepted(text, match))
                               for verb in verbs_in(match["verb"])[:1]))


# (r46a) The move as the object of its delay or omission, "delaying a Restore", "skipping the Remove", "not restoring",
# "waiting on a Restore", "a late Restore": what is judged (costly, wasteful) is the delay, not the move (read as the move,
# "delaying a Restore is costly, restore it at once" was a Restore put aside: the opposite of its words)
_PUT_OFF_BEFORE = re.compile(r"\b(?:delay(?:s|ed|ing)?|skip(?:s|ped|ping)?|postpon\w*|defer(?:s|red|ring)?|wait(?:s|ed|ing)?(?:\s+(?:for|on))?|"
                             r"put(?:s|ting)?\s+off|hold(?:s|ing)?\s+off(?:\s+on)?|held\s+off(?:\s+on)?|miss(?:es|ed|ing)?|forgo\w*|"
                             r"forget\w*|forgot\w*|omit\w*|fail(?:s|ed|ing)?\s+to|not|no|never|without|lack\s+of|absence\s+of|late|"
                             r"belated|slow)\s+(?:(?:a|an|the|that|this|its|our|your|their|any)\s+)?$", re.IGNORECASE)


# (r46a) A cost the text accepts: "although a Restore is costly, ...", "a Restore is expensive, yet it pays ..."
_CONCEDED_BEFORE = re.compile(r"\b(?:although|though|even\s+if|even\s+though|granted|admittedly|sure|yes)\b", re.IGNORECASE)


_CONCEDED_AFTER = re.compile(r"\b(?:but|yet|though|still|however|nevertheless|nonetheless|worth|pays?)\b", re.IGNORECASE)


def _move_put_off(before: str) -> bool:
    """(r46a) Whether the words before a verb make it the object of its delay or omission (`_PUT_OFF_BEFORE`)."""
    return bool(_PUT_OFF_BEFORE.search(before))


# (r46b) A cost said of the words a move heads ("restoring (it) is expensive", "skipping a Restore costs us"): read with
# `_move_put_off`, the cost of its omission or delay
_COST_SAID = re.compile(r"\w*(?:\s+(?!(?:as|because|since|for|it|that|this|which|they|so|and|but|or|if|when|while)\b)[\w-]+){0,4}?\s+(?:is|are|'s|would\s+be|will\s+be|proves?|costs?|would\s+cost|will\s+cost|"
                        r"can\s+cost)\s+" + _COST_DEGREE + r"(?:" + _COST_WORDS + r"|dear(?:ly)?|us\b|you\b|a\s+lot|(?:too\s+)?much|a\s+fortune|heavy|heavily)", re.IGNORECASE)


def _omission_costly(text: str, verb: re.Match) -> bool:
    """(r46b) Whether a move put off (`_move_put_off`) is said to cost (`_COST_SAID`): "not restoring is expensive",
    "skipping the Restore of it costs us" judge the omission, urging the move."""
    before = text[:verb.start()]
    return (_move_put_off(before) and bool(_COST_SAID.match(text, verb.end()))
            and not re.search(r"\b(?:do|does|did|should|must|will|would|can|could|may|please)(?:\s+not|n['\u2019]?t)\s+$", before, re.IGNORECASE))


def _cost_accepted(text: str, found: re.Match) -> bool:
    """(r46a) Whether a move said to cost a lot (`_COSTLY`) is a cost its sentence accepts: conceded before it in its
    clause, or answered after it in its sentence (`_CONCEDED_BEFORE`, `_CONCEDED_AFTER`)."""
    before = re.split(r"[.;:!?,]", text[:found.start()])[-1]
    after = re.split(r"[.;:!?]", text[found.end():])[0]
    return bool(_CONCEDED_BEFORE.search(before) or _CONCEDED_AFTER.search(after))


# (r41m) What an order is set against as unlike it: "Enterprise2, unlike the op hosts, gets a Remove", "as opposed
# to the user boxes": a class named to say the order is not about it.
UNLIKE_WORDS = r"(?:unlike|as\s+opposed\s+to|in\s+contrast\s+(?:to|with)|contrary\s+to|not\s+like)"


_UNLIKE = re.compile(r"\b" + UNLIKE_WORDS + r"\s+[^,;.:()!?]*", re.IGNORECASE)


# (r43m) A class named only as the place of a move the order sequences with its own: "..., then a DecoyApache on the op
# subnet", "put the Restore of it ahead of any work on the op hosts", "... before any op host is touched". Where
# the order goes next or what it goes ahead of, no class its condition is about (read as one, a state was asked of it).
_SEQUENCE_CLASS = r"(?:user|usr|enterprise|ent|op|ops|operational)[\s-]+(?:hosts?|box(?:es)?|machines?|servers?|srvs?|subnet|network|side|zone|segment|nodes?)"


_SEQUENCED_CLASS = re.compile(
    rf"(?:,\s*|\s+)(?:and\s+)?(?:then|after\s+that|afterwards|followed\s+by)\s+(?:[\w-]+\s+){{1,3}}?(?:on|to|for|across|in)\s+"
    rf"(?:the\s+|an?\s+|any\s+)?{_SEQUENCE_CLASS}\b|"
    rf"\s+(?:ahead\s+of|before)\s+(?:anything|any\s+(?:other\s+)?(?:move|action|work|step))\s+(?:on|to|for|in)\s+(?:the\s+|an?\s+|any\s+)?{_SEQUENCE_CLASS}\b|"
    rf"\s+before\s+(?:any|a|the)\s+{_SEQUENCE_CLASS}\s+(?:is|are|gets?)\s+(?:touched|restored|removed|analy[sz]ed|decoyed|handled|"
    # (r48m) "before the user boxes get attention", "... are seen to"
    rf"looked\s+at|dealt\s+with|seen\s+to|(?:any|some|the)\s+attention|attention|attended\s+to)\b|"
    # (r45m) "Remove it before handling any op box", "before you do anything about the user boxes": the class the
    # order goes ahead of, said with the verb of handling it
    rf"\s+(?:ahead\s+of|before|prior\s+to)\s+(?:(?:you|we)\s+)?(?:touch\w*|handl\w*|work\w*\s+on|deal\w*\s+with|"
    rf"do(?:ing|es)?\s+anything\s+(?:else\s+)?(?:about|to|on|with|for)|look\w*\s+(?:at|into)|turn\w*\s+to|mov\w*\s+on\s+to|"
    rf"go(?:ing|es)?\s+(?:on\s+)?to|bother\w*\s+with|attend\w*\s+to|spend\w*\s+\w+\s+on)\s+(?:the\s+|an?\s+|any\s+)?(?:other\s+)?"
    rf"{_SEQUENCE_CLASS}\b", re.IGNORECASE)


def sequenced_away(text: str) -> str:
    """(r43m) `text` without the moves it sequences with its order on a class (`_SEQUENCED_CLASS`)."""
    return _SEQUENCED_CLASS.sub(" ", text or "")


def classes_sequenced_only(text: str) -> set[str]:
    """(r43m) The classes a text names only where its order goes next or what it goes ahead of (`_SEQUENCED_CLASS`)."""
    return set(classes_in(text)) - set(classes_in(sequenced_away(text)))


def classes_compared_only(text: str) -> set[str]:
    """(r41m) The classes a text names only in what it sets its order against (_UNLIKE): no class the order is about."""
    return set(classes_in(text)) - set(classes_in(_UNLIKE.sub(" ", text)))


_FALLS_SHORT_CLAUSE = re.compile(FALLS_SHORT.pattern + r"[^.;:,]*", re.IGNORECASE)


def falls_short_away(text: str) -> str:
    """(r41m, r41h) The text without the clauses that say a move falls short ("a Remove won't clear root"): what a move
    does, a reason against it, no condition of the order and no move the defender made (no history)."""
    text = text or ""
    return _FALLS_SHORT_CLAUSE.sub(lambda m: m.group(0) if fails_in_condition(text[:m.start()]) else " ", text)


def fails_in_condition(before: str) -> bool:
    """(r41m) A move said to fall short inside a condition, "if a Remove doesn't clear it, ...": the fallback's
    condition, not a dispreference (the words of its own clause before it)."""
    return bool(re.search(r"\b(?:if|when|whenever|unless|once|in\s+case|should|whether|until)\b",
                          re.split(r"[.;:!?,]", before)[-1], re.IGNORECASE))


# (r48a) A host kept from a move, "keep User1 out of any Restore", "hold Op_Host0 clear of Remove actions", or a move
# kept off a host, "keep the decoys off User3", "keep any Remove away from Enterprise0": a prohibition of the move on
# that host (read as none, the move's name was the order and a compiled order of it on the host passed as the text).
# (r53m: "leave Op_Host2 out of every Restore we plan": the same, said with "leave")
_KEPT_FROM = r"(?:out\s+of|away\s+from|off|clear\s+of|free\s+(?:of|from)|safe\s+from)"


_KEPT_FROM_MOVE = re.compile(r"\b(?:keep|hold|leave)\s+(?P<what>(?:(?!\b(?:" + _KEPT_FROM + r")\b)[^.;:,!?]){1,50}?)\s+" + _KEPT_FROM + r"\s+"
                             r"(?:(?:a|an|the|any|every|all|each|your|our|further|more|another)\s+)*(?P<verb>(?=" + VERB_WORD + r"))",
                             re.IGNORECASE)


# (r53b) The same said under a negation, "don't leave Op_Server0 out of any Restore", "never keep User1 off the Remove list":
# the move is wanted there, the opposite of a prohibition (read as one, a "never" of the move passed as the text).
_KEEPING_DENIED = re.compile(r"\b(?:don['\u2019]?t|do\s+not|never|not|no\s+need\s+to|shouldn['\u2019]?t|should\s+not|mustn['\u2019]?t|"
                             r"must\s+not|can['\u2019]?t|cannot|stop|quit)\s+(?:(?:ever|just|simply|now|again)\s+)?$", re.IGNORECASE)


# (r54d) The order "keep <move> off <host>" only: "keeping" / "keeps" name the keeping, in a question ("Is keeping Remove away
# from User3 wise? No: ..."), a story or a verdict on it, and read as a ban they turned the move the text wants into a
# "never" ("stop keeping ..." is denied, forbidding._keeping_turned).
_MOVE_KEPT_OFF = re.compile(r"\bkeep\s+(?:(?:a|an|the|any|every|all|each|your|our|further|more)\s+)*(?P<verb>(?=" + VERB_WORD + r"))"
                            r"[\w-]+\s+(?:[\w-]+\s+)?" + _KEPT_FROM + r"\s+(?P<what>[^.;:,!?]{1,60})", re.IGNORECASE)


# (r55a) After a prohibition of every move, what narrows it: one move named ("never spend a step on an Analyse of X", "don't
# spend two steps on a Restore": that move alone is forbidden, `_MOVE_NAMED_AFTER`), or every move but one ("never spend a
# step on anything but a Remove": no move forbidden by it, `_BUT_MOVES`). Read as every move forbidden on the host, a "never" of any action there passed
# as the text, and the Remove it orders was forbidden with the rest.
# (a participle names what the place went through, "never waste a step on a restored host": every move on it, as before)
_MOVE_NAMED_AFTER = re.compile(r"\s*(?:a|an|the|another|one|more|further|extra)\s+(?!\w+ed\b)(?=" + VERB.pattern + r")",
                               re.IGNORECASE)
_BUT_MOVES = re.compile(r"\s*(?:anything|everything|any\s+(?:other\s+)?(?:move|action|step)|all)\s+(?:" + EXCEPT_WORDS + r"|but)\b",
                        re.IGNORECASE)
# (r55a) ... or an exception that is a move: "no one touches it except to put a decoy on it", "never touch User1 but for a
# Remove"
_BUT_A_MOVE = re.compile(r"\b(?:" + EXCEPT_WORDS + r"|but)\s+(?:(?:to|for|with|by)\s+)?(?:(?:put(?:ting)?|plac\w*)\s+)?"
                         r"(?:(?:a|an|the|one|its)\s+)?(?!\w+ed\b)(?=" + VERB.pattern + r")", re.IGNORECASE)
# (r55a) The house norm said of nobody (ANY_VERB's "nobody touches <host>") is the text's own order where it opens a sentence
# or a clause of it ("Once Op_Host1 is probed, no one is to lay a finger on it"), the sentence not a question: asked ("does
# nobody touch User2?"), quoted ("the lead said 'nobody touches User2'") or told inside a story ("we had a rule that nobody
# touches it"), it is no prohibition of the text, and read as one, the order the text gives there was its opposite.
_NORM_OF_NOBODY = re.compile(r"(?:nobody|no[\s-]one)\b", re.IGNORECASE)


def _norm_said(text: str, match: re.Match) -> bool:
    """(r55a) Whether a norm said of nobody (`_NORM_OF_NOBODY`) opens its sentence or a clause after a comma, in a sentence
    that asks nothing."""
    sentence_end = re.search(r"[.!?;]|$", text[match.end():])
    # (after a joining word, "..., and nobody touches User2", or an order to see to it, "make sure no one touches it")
    return bool(re.search(r"(?:^|[.!;:,\u2013\u2014(]|\s-)\s*(?:(?:and|so|then|but|also)\s+)?"
                          r"(?:(?:make\s+sure|ensure|see\s+to\s+it)\s+(?:that\s+)?)?$", text[:match.start()], re.IGNORECASE)) \
        and not text[match.end():][sentence_end.start():].startswith("?")


def bans_every_move(text: str) -> bool:
    """(r55a) Whether `text` says a prohibition of every move (ANY_VERB) of its own: a norm of nobody only where it is
    said (`_norm_said`), not asked, quoted or told. Whether a sentence gives an order (order.gives_order) asks it: a story
    that quotes such a norm gives none, and kept as a rule it was injected by retrieval."""
    return any(not _NORM_OF_NOBODY.match(m.group(0)) or _norm_said(text, m) for m in ANY_VERB.finditer(text))


def prohibitions_in(instruction: str) -> tuple[tuple[Prohibition, ...], tuple[str, ...]]:
    # "...; leave it alone otherwise": a prohibition for the other cases is no part of this rule's order
    instruction = "; ".join(p for p in re.split(r"\s*;\s*|(?<=[.!?])\s+", instruction) if not OTHERWISE.search(p))
    instruction = _host_lists_joined(instruction)
    found: list[Prohibition] = []
    for match in ANY_VERB.finditer(instruction):
        after = instruction[match.end():]
        if VERB.match(after.lstrip()):
            continue  # "don't bother analysing X": a prohibition of that verb (below)
        if _BUT_MOVES.match(after) or _NORM_OF_NOBODY.match(match.group(0)) and not _norm_said(instruction, match):
            continue  # (r55a) every move but one, or a norm asked, quoted or told: not every move forbidden
        # (r55a: nor past a condition of its own, "nobody is to touch Enterprise2 until Op_Server0 is clean": the host the
        # condition waits on is no place of the prohibition, and read as one, every move on it was forbidden, its Restore too)
        scope = re.split(r"[.;:!?]|,\s*(?:but|and|then|instead)\b|\b(?:until|till|before|unless|once|when|whenever|while|if|"
                         r"after|as\s+long\s+as)\b", after, maxsplit=1, flags=re.IGNORECASE)[0]
        if _BUT_A_MOVE.search(scope):
            continue  # (r55a) "nobody touches Op_Host1 except to put a decoy on it": every move but that one
        named = _MOVE_NAMED_AFTER.match(after)  # (r55a) "never spend a step on an Analyse of X": that move
        if match.group(0).lower().startswith("leave"):
            scope = after[:after.lower().find("alone")]
        hosts, classes = _others(scope, instruction, hosts_in(scope), classes_in(scope))
        # "don't touch Op_Server0 with a Remove": the move named after "with" is the one forbidden, not every move
        tool = re.search(r"\bwith\s+(?:(?:a|an|the|any)\s+)?", scope, re.IGNORECASE)
        verb = VERB.match(after, named.end()) if named else VERB.match(scope, tool.end()) if tool else None
        if hosts or classes or re.search(r"\b(?:it|that host|them|this host)\b", scope, re.IGNORECASE):
            found.append(Prohibition(canonical_verb(verb, scope[verb.end():]) if verb else None, hosts, classes))
    found += _forbidden_by_word(instruction) + _nothing_moved(instruction) + listed_to_avoid(instruction) + _inverted_bans(instruction)
    for match in (*_KEPT_FROM_MOVE.finditer(instruction), *_MOVE_KEPT_OFF.finditer(instruction)):
        # (r48a) "keep User1 out of any Restore", "keep the decoys off User3": the move forbidden on what is kept from it
        if _KEEPING_DENIED.search(instruction[:match.start()]):
            continue  # (r53b) "don't leave User1 out of a Restore": the move wanted there, no prohibition
        verb = VERB.search(instruction, match.start("verb"))
        hosts, classes = hosts_in(match["what"]), classes_in(match["what"])
        if verb is not None and (hosts or classes or re.fullmatch(r"\s*(?:it|them|that\s+host|this\s+host)\s*", match["what"], re.IGNORECASE)):
            found.append(Prohibition(canonical_verb(verb, instruction[verb.end():]), hosts, classes))
    for match in _NEITHER_NOR.finditer(instruction):  # "neither User1 nor User2 should be restored": both hosts
        verb = VERB.match(instruction, match.end())
        if verb is not None:
            named = f"{match['first']} {match['second']}"
            found.append(Prohibition(canonical_verb(verb, instruction[verb.end():]), hosts_in(named), classes_in(named)))
    for clause, end in re.findall(r"([^.;:!?]*)([.;:!?]?)", instruction):
        # (r60a) not a judgement asked ("Who said a Restore of User3 must never be attempted?", "Is a Remove pointless
        # there?"): a question judges nothing, save one that asserts it by a denied auxiliary ("Isn't a Restore overkill?")
        bad = BAD_IDEA.search(clause) if end != "?" or _ASSERTING_QUESTION.match(clause) else None
        # the verb judged is the subject of the judgement: the first of the words after the last comma before it ("plan a
        # Remove, a Restore there is overkill" judges the Restore), else the clause's first ("Restoring Enterprise1, in my
        # view, is pointless")
        subject = _judged_subject(clause[:bad.start()]) if bad else ""
        verb = (VERB.search(subject) and VERB.search(clause, bad.start() - len(subject))) or VERB.search(clause[:bad.start()]) \
            if bad else None
        if verb is not None and _move_put_off(clause[:verb.start()]):
            verb = None  # (r46a) "waiting on a Restore = waste of a step": the wait is the waste, not the Restore
        if bad and _OTHER_THAN_MOVE.fullmatch(subject.strip(" -\u2013\u2014")):
            verb = None  # (r55l) "Restore E0 - anything less is not enough": what is judged is every move short of the order
        if verb is not None and _OTHER_THAN_NAMED.search(clause[:verb.start()]):
            verb = None  # (r55d) "anything less than a Restore is a mistake": the Restore is the measure, not the fault
        if verb is not None:  # "restoring Enterprise1 is pointless", "Restore is not the answer for User1"
            named = _judged_condition_away(clause, subject)
            found.append(Prohibition(canonical_verb(verb, clause[verb.end():]), hosts_in(named), classes_in(named)))
    return tuple(found), tuple(dict.fromkeys(_dispreferred(instruction, found)))


_ASSERTING_QUESTION = re.compile(r"\s*(?:(?:is|are|was|were|would|wouldn|does|do|did|should|must)n['\u2019]?t|(?:is|are|would|does)\s+(?:it|that|this)\s+not|"
                                 r"surely)\b", re.IGNORECASE)


# (r56h) A ban said by a negative inversion, its condition first: "Not unless Enterprise2 is owned should anyone Restore
# Op_Server0", "not till the scan stops again may we decoy User1": the move after the inverted auxiliary
# (INVERTED_AUXILIARY) is forbidden on the hosts after it, save in that case (read as no ban, the rule's "never" had no
# place, and it was no party to a dispute with an order of that move there).
# (r56a) Only where the case keeps a word every reader takes as the ban's lift ("unless", "until": the checks then ask the
# predicate for the case's absence). Not an "only if / only once / only when <case>" inversion, nor "not until" written
# "only once" (forms._NOT_UNTIL), nor "not before": their case is said as a plain condition, so the ban was read IN the
# case where the move is let ("Only once User1 is rooted should anyone Remove User1" stored as never Remove User1 while
# it is rooted, the opposite; "not before User2 is owned ..." as never Remove User2 in any state). Those stay as the
# inverted order reads them (forms._INVERTED_ORDER: the move in the case).
_INVERTED_BAN = re.compile(r"\bnot\s+(?:unless|until|till)\b[^.;:!?]*?" + INVERTED_AUXILIARY + r"\s+(?:ever\s+)?", re.IGNORECASE)


def _inverted_bans(instruction: str) -> list[Prohibition]:
    """(r56h) The bans `_INVERTED_BAN` says, each on the hosts (or classes) its clause names after its move."""
    found: list[Prohibition] = []
    for match in _INVERTED_BAN.finditer(instruction):
        verb = VERB.match(instruction, match.end())
        if verb is None:
            continue
        after = instruction[verb.end():]
        scope = re.split(r"[.;:!?,]|\b(?:but|and|then|instead|rather)\b", after, maxsplit=1)[0]
        hosts, classes = hosts_in(scope), classes_in(scope)
        if hosts or classes or re.search(r"\b(?:it|that host|them|this host)\b", scope, re.IGNORECASE):
            found.append(Prohibition(canonical_verb(verb, after), hosts, classes))
    return found


def _forbidden_by_word(instruction: str) -> list[Prohibition]:
    """The prohibitions a word of forbidding says ("never", "do not", "no <move>", `_forbidding`), each on the hosts
    after its move or, with none there, on the subject before it ("User1 should never be restored")."""
    found: list[Prohibition] = []
    for match in _forbidding(instruction):
        before = instruction[:match.start()]
        if _after_auxiliary(instruction, match):
            continue  # "if it is not restored", "if it has never been restored": a condition, not an order
        verb = VERB.match(instruction, match.end())
        if verb is None or _omission_costly(instruction, verb):
            continue  # (r46b) "not restoring is expensive": the omission is the cost, the Restore is urged
        after = instruction[verb.end():]
        # (r48b: nor past "and <subject> gets ...", "no Restore and User1 gets no Remove": a clause of its own subject)
        # (r57l: nor past the clause that ends or lifts the ban, "Do not Restore User2 until Enterprise0 gets rooted": the
        # host it waits on is the ban's end, no place of it; read as one, Enterprise0 was banned too, as "unless" never was)
        scope = re.split(r"[.;:!?,]|\b(?:but|instead|rather|then|when|if|while|unless|whenever|" + BAN_ENDS + r")\b|" + _NEXT_SUBJECT,
                         after, maxsplit=1)[0]
        hosts, classes = hosts_in(scope), classes_in(scope)
        # (r48b) "Enterprise0 gets no Restore and no Remove", "..., no Remove": a second "no <move>" joined to the first is
        # said of the same subject (read alone, its subject was none and the move was forbidden on every host)
        if re.match(r"no\b", match.group(0), re.IGNORECASE):
            before = _NO_MOVE_JOINED.sub("", before)
        if not hosts and not classes and _said_of_subject(before, match):
            subject = re.split(r"[.;:!?,]", before)[-1]  # "User1 should never be restored": the host before it
            # (r48b) the subject of the last clause, after a move of its own: "Enterprise0 gets no Restore and User1 gets"
            joined = [m for m in re.finditer(_NEXT_SUBJECT, subject) if VERB.search(subject[:m.start()])]
            subject = subject[joined[-1].end():] if joined else subject
            hosts, classes = hosts_in(_subject_itself(subject)), classes_in(_subject_itself(subject))
            if not hosts and not classes and re.search(r"\b(?:" + EXCEPT_WORDS + r"|but)\b", subject, re.IGNORECASE):
                # (r48a) "any host but User1 gets no Remove", "every server except Enterprise0 ...": the hosts the
                # subject's word covers but those it leaves out (read as the host left out, the prohibition was its opposite)
                covered = (*HOST_CLASSES["Enterprise"], "Op_Server0") if re.search(r"\bservers?\b", subject, re.IGNORECASE) \
                    else HOSTS
                hosts = tuple(h for h in covered if h not in hosts_in(subject))
        hosts, classes = _others(scope, instruction, hosts, classes)
        found.append(Prohibition(canonical_verb(verb, after), hosts, classes))
    return found


# (r60l) A preference that is itself banned: "never reimage it rather than Remove it", "don't Restore User4 in place of a
# Remove": the move banned is the one put aside, and the move after "rather than" the one the writer keeps (read as a
# plain preference, the kept move was dispreferred, the opposite of the text). The ban and the "rather than" in one clause.
PREFERENCE_BANNED = re.compile(r"(?:\bnever|\b(?:do|does|should|must)\s+not|\b(?:don|doesn|shouldn|mustn)['\u2019]?t)\s+(?:ever\s+)?"
                                r"(?:" + VERB_WORD + r")(?:(?!\b(?:and|but|or|then|so|yet|always|instead)\b|" + VERB_WORD + r")[^.;:!?,]){0,60}$",
                                re.IGNORECASE)
# (r60d: nor a ban before another clause, "we never Analyse User4 and always Restore it over a Remove": the
# preference after "and" is no banned one, and read as one, its put-aside Remove was kept, the opposite of the words)


def _dispreferred(instruction: str, found: list[Prohibition]) -> list[str]:
    """The moves the text puts after another or turns down in favour of one ("rather than", "before any Remove", "as a
    last resort", "worse than", "beats"), and with "instead" the moves `found` forbids."""
    dispreferred: list[str] = []
    for match in _DISPREFER.finditer(instruction):
        verb = VERB.match(instruction, match.end())
        if re.match(r"\s*not\b", match.group(0), re.IGNORECASE) and re.search(
                r"\b(?:is|are|was|were|has|have|had|did|does|do)\s*$", instruction[:match.start()], re.IGNORECASE):
            continue  # "if User1 is not compromised restore User0": a condition
        if _WHY_NOT.search(instruction[:match.start()]):
            continue  # (r55e) "why not Restore User2?": proposed
        if verb is not None and _omission_costly(instruction, verb):
            continue  # (r46b) "not restoring is expensive": the omission is the cost, the Restore is urged
        if verb is not None and PREFERENCE_BANNED.search(instruction[:match.start()]) \
                and re.match(r"\s*(?:rather\s+than|instead\s+of|in\s+preference\s+to|in\s+place\s+of|over)\b", match.group(0), re.IGNORECASE):
            continue  # (r60l) "never reimage it rather than Remove it": the move after it is the one kept, not put aside
        if verb is not None:
            dispreferred.append(canonical_verb(verb, instruction[verb.end():]))
    for match in _PUT_SECOND.finditer(instruction):  # "Analyse it first, before any Remove": the Remove waits
        verb = VERB.match(instruction, match.start("before") if match["before"] else match.start("after"))
        if verb is not None:
            dispreferred.append(canonical_verb(verb, instruction[verb.end():]))
    for match in _LAST_RESORT.finditer(instruction):
        verb = VERB.search(instruction, match.start())
        if verb is not None:
            dispreferred.append(canonical_verb(verb, instruction[verb.end():]))
    for match in _COMPARED.finditer(instruction):
        first, second = verbs_in(match["first"]), verbs_in(match["second"])
        worse = first if match["how"].lower() in ("worse", "riskier", "costlier") else second
        dispreferred += list(worse[:1])
    for match in BEATS.finditer(instruction):
        dispreferred += list(verbs_in(match["second"])[:1])
    if re.search(r"\binstead\b", instruction, re.IGNORECASE):
        # "Don't restore X; remove it instead": the forbidden verb is the dispreferred one.
        dispreferred += [p.verb for p in found if p.verb is not None]
    return dispreferred


_LEFT_ALONE = (r"(?:leave\s+(?:it|them|that\s+(?:one|host|box))(?:\s+(?:alone|be|untouched|as\s+it\s+is|in\s+peace|out))?|"
               r"(?:keep\s+(?:your\s+)?)?hands\s+off(?:\s+(?:it|them))?|let\s+(?:it|them)\s+be|(?:do\s+not|don['\u2019]?t)\s+touch\s+(?:it|them)|"
               r"skip\s+(?:it|them)|(?:do\s+)?nothing(?:\s+(?:to|on)\s+(?:it|them))?)(?=\s*(?:[.;!]|$))")


LEFT_ALONE_CASE = re.compile(r"\s*(?:[;,.!:]|\s[-\u2013\u2014]+)\s*(?:(?:or\s+)?(?:else|otherwise)\s*,?\s*(?:if|when)\s+(?:it|that|this|the\s+host|"
                              r"that\s+host)\s*(?:is|['\u2019]s)\s+|but\s+(?:for|with|on)\s+)"
                              r"(?P<hosts>[A-Za-z_]+\d(?:\s*(?:,|or|and|/)\s*[A-Za-z_]+\d)*)\s*[,:]?\s*(?:[-\u2013\u2014]+\s*)?(?:then\s+)?"
                              + _LEFT_ALONE, re.IGNORECASE)


# (r54l) A prohibition limited in its own clause by a count or a time beside the ban: "never Restore a user host twice",
# "don't Remove Enterprise0 more than once", "no Analyse of it a second time" (a count: the move is banned after it was
# made, not before), "do not Restore User1 yet", "don't Analyse it again" (said with a state it waits on, "again while it
# shows Unknown", as a time), "hold off on the Remove for now", "never Restore it first" (a time: the move is
# put off, not banned). Stored as a plain "never" on the host or class, the ban spoke where the first move was meant, or
# for good where the teacher only put the move off: wider than the words.
_COUNT_LIMIT = (r"twice|thrice|(?:two|three|four|five|\d+)\s+times|(?:more|other)\s+than\s+(?:once|twice|one|\w+\s+times)|"
                r"(?:a|any)\s+(?:second|third|2nd|3rd|further)\s+(?:time|go|round|pass)|(?:once|one\s+time)\s+more|"
                r"repeatedly|in\s+a\s+row|back[\s-]to[\s-]back|over\s+and\s+over|"
                # (r60b) "again and again", "time after time": a count as "over and over" is (read as the "again" of a time,
                # "don't Restore User1 again and again when it is exploited" was kept as a "never" of the first Restore too)
                r"again\s+and\s+again|time\s+after\s+time|"
                # (r55e) the steps the move may take, "don't spend two steps on a Restore of User2": the move in more than one
                r"(?:two|three|four|five|several|many|multiple|\d+)\s+(?:whole\s+)?(?:steps|turns|moves|rounds)\s+(?:on|for|doing)\b")
# (r59l) A move made before its time, "never Restore Op_Host1 ahead of time", "don't Remove it in advance", "prematurely":
# banned only until the event it waits on (a plain "never" is wider in time, and a "never" once the event shows is the
# opposite of the words).
# (r60l) and "too early", "too soon", "so soon", "before its time": the same ban ahead of the event (read as a time limit
# alone, "don't Remove User2 too early; wait for the exploit" was stored as a "never" once the exploit shows)
IN_ADVANCE = (r"ahead\s+of\s+(?:time|schedule|need)|in\s+advance|beforehand|prematurely|pre-?emptively|"
              r"(?:too|so)\s+(?:early|soon)|before\s+(?:its|their)\s+time|"
              r"before\s+(?:it\s+is|it['\u2019]s|they\s+are|they['\u2019]re)\s+(?:needed|necessary|called\s+for|time|due)")
_TIME_LIMIT = (r"yet|again|(?:for|at)\s+(?:now|the\s+moment|the\s+time\s+being|this\s+point)|so\s+(?:soon|early|fast)|"
               r"too\s+(?:soon|early|fast)|right\s+(?:away|now)|straight\s+away|immediately|at\s+once|"
               r"(?:at\s+)?first|as\s+(?:a|an|the|our|your)\s+(?:first|opening)\s+(?:move|step|action|reaction|response)|"
               r"early(?:\s+on)?|in\s+the\s+first\s+(?:step|steps|turn|turns|round)|"
               # (r55e) a window of steps at the episode's end or start, "during the last 5 steps", "over the final turns"
               r"(?:in|during|over|for|within)\s+the\s+(?:last|final|closing|opening|first)\s+(?:\w+\s+)?(?:steps?|turns?|rounds?)|"
               # (r59l) before the time comes (IN_ADVANCE): the ban holds only until the event it waits on
               + IN_ADVANCE)
# (r61l) ... or by the manner of the move: "never Remove it blindly", "don't Restore User1 in a hurry", "never Analyse it on a
# whim". The move made with care is left free: read as a plain "never", the ban forbade it in every state, wider than the words.
_MANNER_LIMIT = (r"blindly|hastily|rashly|recklessly|carelessly|thoughtlessly|impulsively|sloppily|mindlessly|reflexively|lightly|"
                 r"casually|willy[\s-]nilly|in\s+(?:a|such\s+a)\s+(?:hurry|rush|panic)|in\s+(?:haste|panic)|on\s+(?:a\s+)?(?:whim|impulse|autopilot)|"
                 r"by\s+reflex|without\s+(?:(?:a\s+)?(?:second\s+)?thought|thinking|looking)")
_BAN_LIMIT = re.compile(rf"\b(?:(?P<count>{_COUNT_LIMIT})|(?P<time>{_TIME_LIMIT})|(?P<manner>{_MANNER_LIMIT}))\b", re.IGNORECASE)
# The end of a prohibition's own clause: a stop, a comma, a dash, or a condition or reason of its own after it.
# (r60b: nor the "after" of "time after time", the ban's own count)
# (r59d: not "before it is needed", the ban's own limit in time, `IN_ADVANCE`: cut there, the limit went unread and
# "don't Restore Enterprise1 before it is needed" was kept as a plain "never", wider in time than its words)
_BAN_CLAUSE_END = re.compile(r"[.;:!?,()]|\s[-\u2013\u2014]\s|(?<!\bthan)(?<!\bmore)\sonce\b(?!\s+more)|\s(?:when|whenever|if|unless|while|until|till|"
                             r"before(?!\s+(?:it\s+is|it['\u2019]s|they\s+are|they['\u2019]re)\s+(?:needed|necessary|called\s+for|time|due)\b)(?!\s+(?:its|their)\s+time\b)|"
                             r"after(?!\s+time\b)|because|since|as\s+long\s+as|even|so(?!\s+(?:soon|early|fast)\b)|but)\b", re.IGNORECASE)


# (r54l) ... or by "only" right after the move and what it is done to: "no Remove only", "never an Analyse alone on it":
# the move is not to be the only one, no ban of it (read as one, a "never" of the move the text wants with another).
_MOVE_ALONE = re.compile(r"[\w-]*(?:\s+(?:it|them|there|\w+\d|(?:on|of|for)\s+(?:it|them|\w+\d)))?\s+(?:only|alone|by\s+itself|"
                         r"on\s+its\s+own)\b", re.IGNORECASE)
_LIMIT_RANK = ("time", "count", "alone", "manner")
# (r58l) A ban put before the move on another named host, said with nothing after that host: "do not Restore User1
# before User2", "never Remove E1 ahead of E0". It holds until that host has had the move, a time the ban waits on; read
# as a plain "never", the move on its host was forbidden for good, wider in time than the words.
_BEFORE_ANOTHER_HOST = re.compile(rf"[^.;:!?]*?\b(?:before|ahead\s+of|prior\s+to)\s+(?:the\s+)?(?:{HOST_NAME}|{HOST_SHORT})\b"
                                  r"(?:['\u2019]s\s+(?:\w+\s+)?(?:is|gets|has\s+been)\s+(?:done|made|run|through))?\s*(?=[.;!?,)]|$|\s(?:and|but)\b)",
                                  re.IGNORECASE)

# (r61l) ... or before an event of the attack, "never Restore User4 before red roots it", "don't Remove it before the
# exploit lands", "do not Analyse Op_Host1 before they get in": the ban holds until then, as "until" says. Read as a plain
# "never", the move was forbidden once the event came too, the opposite in time.
_BEFORE_EVENT = re.compile(r"[^.;:!?,]*?\b(?:before|ahead\s+of)\s+(?:red|blue|the\s+(?:attacker|adversary|red\s+team|exploit|scan|"
                           r"compromise|attack|intruder)|(?:it|they|he|she)(?!\s+(?:is|are|'s|\u2019s)\s+(?:needed|necessary|called\s+for|time|due)\b))\b",
                           re.IGNORECASE)


# (r56l) Steps spent on a move, counted past one, and turned down: "never spend more than one step restoring User1", "don't
# sink over two turns into a Remove", "do not waste three moves analysing it". The move may be made, in fewer steps: a
# count, no ban of the move (read as none, the words were an order of the move; read as a "never", the first move too).
_STEPS_ON_MOVE = re.compile(r"\b(?:never|do\s+not|don'?t|no\s+need\s+to|avoid|stop)\s+(?:\w+\s+)?(?:spend|waste|use|burn|sink|pour)\w*\s+"
                            r"(?:more\s+than\s+(?:one|a\s+single|\d+)|over\s+(?:one|a\s+single|\d+)|two|three|four|five|several|many|"
                            r"multiple|\d+)\s+(?:whole\s+)?(?:steps?|turns?|moves?|rounds?|actions?)\s+"
                            # (r56d) a run of them, "three steps in a row restoring User1": still a count
                            r"(?:(?:in\s+a\s+row|running|straight|on\s+end|back[\s-]to[\s-]back|in\s+succession)\s+)?(?:(?:on|for|doing|into)\s+)?"
                            r"(?:(?:a|an|the|another|one)\s+)?(?!\w+ed\b)(?=" + VERB.pattern + r")", re.IGNORECASE)


def limited_bans(instruction: str) -> dict[str, str]:
    """(r54l) The verbs whose prohibition (`_forbidding`) its own clause limits by a count or a time (`_BAN_LIMIT`) or
    says of the move alone (`_MOVE_ALONE`), each with the kind of its limit, "time", "count" or "alone" (the last of
    them wins): what a plain "never" of the verb would say wider."""
    found: dict[str, str] = {}
    for match in _forbidding(instruction):
        verb = VERB.search(instruction, match.end())
        if verb is None:
            continue
        end = _BAN_CLAUSE_END.search(instruction, verb.end())
        clause = instruction[match.start():end.start() if end else len(instruction)]
        limit = _BAN_LIMIT.search(clause)
        kind = "alone" if _MOVE_ALONE.match(instruction, verb.end()) else None if limit is None else \
            "count" if limit["count"] else "manner" if limit["manner"] else "time"
        if kind is None and (_BEFORE_ANOTHER_HOST.match(instruction, verb.end()) or _BEFORE_EVENT.match(instruction, verb.end())):
            kind = "time"
        if kind is not None:
            name = canonical_verb(verb, instruction[verb.end():])
            found[name] = max(kind, found.get(name, kind), key=_LIMIT_RANK.index)
    for name, kind in _passive_bans_limited(instruction):
        found[name] = max(kind, found.get(name, kind), key=_LIMIT_RANK.index)
    for match in _STEPS_ON_MOVE.finditer(instruction):  # (r56l) "never spend more than one step restoring User1"
        verb = VERB.match(instruction, match.end())
        if verb is not None:
            name = canonical_verb(verb, instruction[verb.end():])
            found[name] = max("count", found.get(name, "count"), key=_LIMIT_RANK.index)
    for match in ANY_VERB.finditer(instruction):  # (r55e) "don't spend two steps on a Restore of User2": the move named after
        after = instruction[match.end():]
        named, limit = _MOVE_NAMED_AFTER.match(after), _BAN_LIMIT.search(match.group(0))
        verb = VERB.match(after, named.end()) if named and limit else None
        if verb is not None:
            name = canonical_verb(verb, after[verb.end():])
            kind = "count" if limit["count"] else "manner" if limit["manner"] else "time"
            found[name] = max(kind, found.get(name, kind), key=_LIMIT_RANK.index)
    return found


# (r60a) A move named as a noun and turned down in the passive (BAD_IDEA: "a Restore of User1 is not to be attempted",
# "... must never be tried"), the ban then limited in its own clause by a time or a count, or said of the move alone, as
# `limited_bans` reads the active ban: "... is never to be tried yet", "... must not be used twice", "... alone". Read as a plain ban (r60h's "never to be"
# forms among them), a "never" passed that forbade the move for good, or the first one too.
_PASSIVE_BAN = re.compile(r"\b(?:(?:is|are|'s)\s+(?:not|never)\s+to\s+be|(?:must|should|may|is\s+to|are\s+to)\s*(?:not|never|n't)\s+be)"
                          r"\s+\w+(?:\s+out)?\b", re.IGNORECASE)


def _passive_bans_limited(instruction: str) -> list[tuple[str, str]]:
    """(r60a) (verb, "time", "count" or "alone") of each passive ban (`_PASSIVE_BAN`) whose own clause limits it."""
    found = []
    for clause in re.split(r"[.;:!?]", instruction):
        ban = _PASSIVE_BAN.search(clause)
        verb = VERB.search(clause[:ban.start()]) if ban else None
        if verb is None:
            continue
        end = _BAN_CLAUSE_END.search(clause, ban.end())
        limit = _BAN_LIMIT.search(clause[verb.end():end.start() if end else len(clause)])
        kind = "alone" if _MOVE_ALONE.match(clause, ban.end()) else None if limit is None else "count" if limit["count"] else "manner" if limit["manner"] else "time"
        if kind is None and _BEFORE_ANOTHER_HOST.match(clause, ban.end()):
            kind = "time"
        if kind is not None:
            found.append((canonical_verb(verb, clause[verb.end():]), kind))
    return found


# (r54l) A move with nothing for its object, on a place: "Remove nothing on User2", "restore none of the user hosts", "we
# Analyse nothing there": a prohibition of the move there (read as none, the move's name was the order, and a compiled
# "do" of it on that host passed as the text). Not where an exception lets the move ("Remove nothing from User2 except
# when ...", clauses._DENIED_OBJECT: the move is ordered in the exception), nor after a subject's auxiliary ("it needs
# nothing", "there was nothing to restore": no move of ours).
# (r54d) Nor where the move with nothing is asked ("Remove nothing on User2? Wrong: ...": a question forbids nothing), nor
# where a clause of what follows is joined to it ("Restore nothing on User2 and you lose the network", ", or it spreads":
# the imperative is a warning of what comes of the move not made, and wants the move).
_CONSEQUENCE_JOINED = r"\b(?:and|or)\s+(?:else\b|(?:you|we|i|they|it|he|she|that|this|then|soon)\b)"
_NOTHING_MOVED = re.compile(rf"(?<!\bto\s)(?P<verb>{VERB_WORD})(?<!ed)\s+(?:nothing|none)(?:\s+(?:at\s+all|whatsoever))?"
                            r"(?P<place>\s+(?:on|for|to|at|in|of|from|within|inside|across|among|with)\s+"
                            r"(?:(?!\b(?:except|other|save|unless|but|when|whenever|if|while|once|until|before|after)\b|" + _CONSEQUENCE_JOINED + r")"
                            r"[^.;:,!?()]){1,40}?|\s+there)?"
                            r"\s*(?=[.;:!)]|$|,\s*(?!(?:except|other|save|unless|but)\b|" + _CONSEQUENCE_JOINED + r")|"
                            r"\s+(?:when|whenever|if|while|once|until|as\s+long\s+as)\b)",
                            re.IGNORECASE)


def _nothing_moved(instruction: str) -> list[Prohibition]:
    """(r54l) The prohibitions `_NOTHING_MOVED` says: the move, on the hosts and classes its place names."""
    found = []
    for match in _NOTHING_MOVED.finditer(instruction):
        verb = VERB.match(instruction, match.start("verb"))
        if verb is not None:
            place = match["place"] or ""
            found.append(Prohibition(canonical_verb(verb, instruction[verb.end():]), hosts_in(place), classes_in(place)))
    return found


# (r54l) A move put on a list of moves to avoid: "Restore comes first on the list of moves to avoid", "a Remove tops our
# list of things never to do there", "Analyse is on my don'ts for User2": a prohibition of the move (read as none, "comes
# first" made it the order, the move its writer lists to avoid).
# (r54d) A list of things "we never skip / miss / forget" is a list of things always done: no list to avoid.
_NEVER_LEFT_UNDONE = r"(?:skip|miss|forget|neglect|omit|drop|leave|overlook|fail|hesitate|delay|postpone|question|doubt|regret)"
_AVOID_LIST = (r"(?:(?:the|my|our|your|a|this|that)\s+)?(?:(?:short|long|own|usual|standing)\s+)?(?:(?:list|set|pile)\s+of\s+"
               r"(?:(?:moves?|things?|actions?|steps?|options?|choices?)\s+)?(?:(?:to\s+)?(?:avoid|skip|shun)|(?:never|not)\s+to\s+"
               r"(?:make|do|take|play|pick|choose|plan|try)|(?:we|i|you)\s+(?:avoid|skip|never\s+(?!" + _NEVER_LEFT_UNDONE + r")\w+))|don['\u2019]?ts|"
               r"(?:black|block|ban|no[\s-]?go|do[\s-]?not)[\s-]?list|banned\s+(?:moves?|list))")
# (r54d) A move said to be kept off the list ("Restore does not belong on ...", "no longer sits on", "hardly belongs on"),
# or a listing only reported ("someone said Restore is on our don'ts"): no prohibition (read as one, a "never" of the move
# the text wants passed as the text).
_LISTING_DENIED = re.compile(r"\b(?:not|no|never|hardly|barely|rarely|seldom|scarcely|nowhere)\b|n['\u2019]t\b", re.IGNORECASE)
_LISTING_REPORTED = re.compile(r"\b(?:said|says|say|claim(?:s|ed)?|think(?:s)?|thought|heard|told|believe[sd]?|assume[sd]?|"
                               r"argue[sd]?|insist(?:s|ed)?|suggest(?:s|ed)?|rumou?r)\b", re.IGNORECASE)
LISTED_TO_AVOID = re.compile(rf"(?P<verb>{VERB_WORD})\w*\s+(?:(?:[\w-]+\s+){{0,2}}?)(?:(?:comes?|goes?|sits?|stands?|is|are|belongs?)\s+"
                             rf"(?:(?:first|top|high|highest|right|squarely)\s+)?(?:on|in|at\s+the\s+top\s+of)|tops|heads|leads)\s+(?P<list>)"
                             + _AVOID_LIST, re.IGNORECASE)


def listed_to_avoid(instruction: str) -> list[Prohibition]:
    """(r54l) The prohibitions `LISTED_TO_AVOID` says: the move, on the hosts and classes its clause names (r54d: and the
    words between the move and the list, "Restore User2 is on ..."; none where the listing is denied or only reported,
    `_LISTING_DENIED`, `_LISTING_REPORTED`)."""
    found = []
    for match in LISTED_TO_AVOID.finditer(instruction):
        verb = VERB.match(instruction, match.start("verb"))
        clause = instruction[verb.end() if verb else match.start():match.start("list")] + \
            re.split(r"[.;:!?]", instruction[match.end():], maxsplit=1)[0]
        if verb is not None and not _LISTING_DENIED.search(instruction, verb.end(), match.start("list")) \
                and not _LISTING_REPORTED.search(re.split(r"[.;:!?]", instruction[:match.start()])[-1]):
            found.append(Prohibition(canonical_verb(verb, instruction[verb.end():]), hosts_in(clause), classes_in(clause)))
    return found
