"""Where a condition starts and ends in a text (`CONDITION_MARKER`, `clause_end`), and the words that negate or restrict it (`negations_in`). Pure.

The markers of a condition: "when / if / while / unless / as long as / once ..." and the opening of a clause of
absence; where its clause ends (a comma, a full stop, "then", or the order that follows); and the negations and
restrictions inside it (no, none, nothing, not, never, without, unless, except, only, yet, rather than, and the
words of absence: clean, quiet, idle, uncompromised), less the moves the defender has not made lately
(`MOVES_NOT_MADE`), which are a history.
"""

from __future__ import annotations

import re
from typing import Optional

from forge.rulebook.language.forbidding import BAD_IDEA, HARM_DENIED, INVERTED_AUXILIARY, LIGHT_VERB, VERB_WORD
from forge.rulebook.language.names import ANALYSES_NOUN, HOST_NAME, HOST_SHORT, STATE_WORDS, VERB


# The prohibition words that start an order (a bare "not" or "without" inside a condition does not).
_ORDER_FORBID = (r"never(?:\s+ever)?|do\s+not|don'?t|must\s+not|mustn'?t|should\s+not|shouldn'?t|avoid|stop|"
                 r"refrain\s+from|no\s+need\s+to|quit|cease|hold\s+off")


# (r59m) A move denied as what the host gets, "an op box that was merely probed gets no Remove", "... should receive no
# decoy", "deserves no Analyse": the ban opens the main clause. Left in the condition, its "no" was read as a denial of
# the host's state, and the rule was for the hosts NOT merely probed (the opposite of its words).
_GETS_NO_MOVE = (r"(?:(?:should|must|will|shall|is\s+to)\s+)?(?:gets?|receives?|deserves?|merits?|warrants?|earns?)\s+no\s+"
                 r"(?:(?:further|more|other|extra)\s+)?(?=" + VERB_WORD + r")")


# (r58m) How long a standing order lasts, "until further notice", "until told otherwise": from now on, no condition.
# (r59l) In its other words, "till", "until I tell you otherwise", "until I say so", "until you hear otherwise", "until we
# decide otherwise": the writer's own word ends the order, no state the situation must show.
UNTIL_FURTHER_NOTICE = (r"\b(?:until|till|til)\s+(?:further\s+notice|(?:(?:you\s+are\s+|you['\u2019]re\s+)?told|"
                        r"(?:i|we)\s+(?:say|decide|tell\s+(?:you|u)|change\s+(?:it|this|that))|you\s+hear)\s+otherwise|"
                        r"(?:i|we)\s+say\s+so|(?:i|we)\s+(?:call|take)\s+(?:it|this|that)\s+off)\b")


# (r58m) What the writer wants kept from happening, said before the order: "make sure no one holds admin on User2:",
# "ensure nobody reaches the server -". Its "no one" is the goal's, and the state it names ("holds admin") is what the
# order is meant to forestall, no condition of it.
GOAL_AVERTED = re.compile(r"\b(?:make\s+sure|ensure|see\s+to\s+it|be\s+sure)\s+(?:that\s+)?(?:nobody|no\s*one|no\s+\w+)\b"
                          r"[^,;:.!?\u2013\u2014]*", re.IGNORECASE)
# ... and such a goal, or a concession opening a sentence ("though User2 is seldom touched,"): a negation or a doubt
# that is theirs, never the order's (checks._unplaced_negation sets one aside only where it names no move).
GOAL_OR_CONCESSION = re.compile(GOAL_AVERTED.pattern + r"|(?:^|(?<=[.;:!?]\s)|(?<=[.;:!?]))\s*(?:al)?though\s+[^,;:.!?]{3,80}?,",
                                re.IGNORECASE)


# (r60l) "until" as notes shorten it, "till" / "til" ("don't Restore User2 till it is rooted"): unread as "until", the
# clause after it was read as the rule's condition, a ban WHEN rooted where the text bans it until then (the opposite in
# time). Not the noun, "the till", "a till".
TILL = r"(?<!\bthe\s)(?<!\ba\s)(?:till|til)(?=\s+(?!\s*[.;,!?]))"


# What negates or restricts a condition (the list, and the words of absence).
_NEGATION = re.compile(r"\b(?:no|not|none|nothing|nobody|never|without|unless|until|" + TILL + r"|except|neither|nor|no\s+longer|"
                       r"rather\s+than|yet|only)\b|n['\u2019]t\b|\bun(?:compromised|exploited|touched|scanned|infected|breached)\b|"
                       r"\b(?:clean|quiet|idle|calm|untouched)\b", re.IGNORECASE)


# The gloss in brackets after "newly <state>" that says what "newly" says ("newly owned (clean at the previous step)")
NEWLY_GLOSS = (r"\s*\(\s*(?:it\s+was\s+|was\s+)?(?:clean|quiet|uncompromised|not\s+compromised)\s+(?:at|on|in|for)\s+the\s+"
               r"(?:previous|prior|last)\s+(?:step|turn)\s*\)")


# (r48c) A host's state said right after its name with no verb, as notes write it: "User2 owned", "Op_Host0 rooted",
# "User1 at Privileged", "E2 still compromised"
BARE_STATE = (r"(?:(?:still|now|currently)\s+)?(?:owned|rooted|pwned|popped|hacked|hit|compromised|exploited|breached|infected|"
              r"scanned|probed|taken(?:\s+over)?|under\s+(?:attack|exploit|scan)|at\s+(?:user|privileged|root|admin|unknown)\w*)\b")


# (r53b) Not right after a word of condition, "when / if / once (there is) ...": what follows is the condition, whatever it says.
_NOT_AS_CONDITION = "".join(rf"(?<!\b{word}\s{then})" for word in ("when", "whenever", "if", "once", "while", "unless", "until", "till")
                            for then in ("", r"there\sis\s", r"there's\s", r"there\u2019s\s", r"we\shave\s", r"you\shave\s"))


# (r54m) A class said to be all the rule is for, after its noun: "(enterprise servers only)", "usr boxes only".
CLASS_ONLY = r"\b(?:user|usr|enterprise|ent|op|ops|operational)[\s-]*(?:hosts?|servers?|srvs?|box(?:es)?|machines?)\s+only\b"

# (r54b) ... and so only where it stands as a clause of its own, "(ent servers only, ...)", "Remove it, usr boxes only.":
# inside a clause, "once user boxes only show up in the alerts", "if the probes touch user machines only", it restricts
# the situation (no host of another class so) and is read as a restriction, as "when only user hosts are" is.
_CLASS_ONLY_ALONE = (r"(?:(?<=[(,;:])|(?<=[(,;:]\s)|(?<=\s[-\u2013\u2014]\s)|^)\s*" + CLASS_ONLY
                     + r"(?=\s*(?:[),;:]|[.!]?\s*$|\s[-\u2013\u2014]\s))")


# (r59m) A tag that asks assent to the sentence it closes: "a decoy there is worth it, isn't it?", "that would be best,
# wouldn't it?", "..., don't you think?" (or as the reader spells it out, "is not it?"). Its "not" is the question's
# form, no denial of the move before it.
NEGATIVE_TAG = (r"[,;]\s*(?:(?:is|are|was|were|would|will|does|do|did|could|can|should|has|have|had)(?:n['\u2019]?t|\s+not)|"
                r"won['\u2019]?t|can['\u2019]?t|cannot|shan['\u2019]?t)\s+(?:it|they|you|we|that|there|this|he|she)(?:\s+think)?\s*\?")


# (r59m) Emphasis said with a "no" that closes its clause: "Restore it, no half measures", "no exceptions", "no delay",
# "no second thoughts", "no ifs or buts". How firmly the order stands, no absence of a host's state: read as a denial of
# the clause it closes, an operational host under exploit became none under exploit (a rule that never held).
EMPHATIC_NO = (r"\bno\s+(?:half[\s-]+measures|exceptions?|excuses|delays?|hesitation|hesitating|waiting(?:\s+around)?|dithering|"
               r"second\s+thoughts|shortcuts|messing\s+about|messing\s+around|fuss|debate|discussion|arguments?|arguing|"
               r"ifs\s+(?:or|and)\s+buts|questions\s+asked)\b(?=\s*(?:[.,;:!)\u2014\u2013-]|$))")


_NOT_A_RESTRICTION = re.compile(r"\bonly\s+(?:when|if|while|once|after|as\s+long\s+as|as\s+soon\s+as|in\s+case|then)\b|"
                                # "(only) Unknown and no confirmed compromise": what Unknown is, said again (shorthand.spelled_out)
                                r"(?:\b(?:only|just|merely|solely)\s+)?\bunknown\b[^.;:]*?\s*,?\s+(?:and|but|with)\s+(?:no|not\s+(?:a|any)|"
                                r"without\s+(?:a|any))\s+(?:confirmed|real|actual|genuine|verified)\s+compromise\b|"
                                # "Unknown rather than / instead of a confirmed compromise": the same, said as a contrast
                                r"\bunknown\b\s*,?\s+(?:rather\s+than|instead\s+of)\s+(?:an?\s+|any\s+)?(?:confirmed|real|actual|"
                                r"genuine|verified)\s+(?:compromise|foothold|infection)\b|"
                                # a level said to be all there is: "only user-level", "just a user-level foothold",
                                # "privileged only" (the level itself, which a predicate states exactly)
                                # ("while it only shows Unknown": the level the table reads, stated exactly)
                                # (r48c: not over a host's name, "only Op_Host0 rooted", "only User2 is at Privileged": which
                                # host, a restriction of the hosts)
                                r"\b(?:only|just|merely|solely)\s+(?:(?!(?:user|enterprise|op_host|op_server)\d)\w+\s+){0,2}?(?:user[- ]level|user[- ]compromised|privileged|"
                                r"root\w*|admin\w*|system[- ]level|unknown)\b|\b(?:privileged|root|user[- ]level)\s+only\b|"

                                # the user level, and the higher one denied beside it: "at user level (not root)", "a
                                # user shell, not admin" (the level is exact: no further restriction)
                                r"\buser[- ](?:level|shell|access|foothold|privileges?)\s*(?:\(\s*|,\s*|\s[\u2013\u2014-]{1,2}\s*)?"
                                # ("at user level rather than privileged", "user-level instead of root": the same)
                                r"(?:(?:and|but)\s+)?(?:not|never|no|rather\s+than|instead\s+of)\s+(?:yet\s+)?(?:at\s+)?(?:root|admin\w*|privileged|system)"
                                r"(?:[- ]level)?(?:\s+(?:yet|so\s+far))?\b\s*\)?|"  # ("user-level, no root yet")
                                # (r52m) and any other level said with a level denied beside it: "root (Privileged, not
                                # Unknown)", "Unknown, not user level": the level is exact, the denial says it again
                                r"\b(?:privileged|root\w*|admin\w*|unknown)\s*(?:\(\s*|,\s*|\s[\u2013\u2014-]{1,2}\s*)?(?:(?:and|but)\s+)?"
                                r"(?:not|never|rather\s+than|instead\s+of)\s+(?:at\s+)?(?:unknown|privileged|root|user[- ]level)\b\s*\)?|"
                                # (r53m) the level above with the lower one it goes beyond, "Privileged, not just user", "root,
                                # not merely user level": an addition (more than user), the level exact, no absence
                                r"\b(?:privileged|root\w*|admin\w*)\s*(?:\(\s*|,\s*|\s[\u2013\u2014-]{1,2}\s*)?(?:(?:and|but)\s+)?"
                                r"not\s+(?:just|merely|only|simply)\s+(?:at\s+)?user(?:[- ]level)?\b(?![\s_-]*(?:\d|hosts?\b|box\w*|machines?\b))\s*\)?|"
                                # (r53m) double negatives that deny nothing of a host: a likeness said by "not unlike" ("not unlike
                                # the User1 case": like it) and an urging said by "no reason / no time to hesitate" (act)
                                r"\bnot\s+unlike\b|"
                                # (r59m) and advice said by denying its harm (HARM_DENIED): an urging of the move, no absence
                                + HARM_DENIED + "|"
                                # (r59m) and emphasis said with a "no" (EMPHATIC_NO): how firmly the order stands
                                + EMPHATIC_NO + "|"
                                # (r58m) how long a standing order lasts, "until further notice": no end the situation must show
                                + UNTIL_FURTHER_NOTICE + "|"
                                # (r53b: not said as the condition itself, "when there is no reason to hold back": an
                                # absence the situation must show, which no predicate states)
                                + _NOT_AS_CONDITION +
                                r"\bno\s+(?:place|time|moment|reason|need)\s+(?:to|for)\s+(?:hold(?:ing)?\s+back|hesitat\w*|wait\w*|delay\w*|dither\w*)\b|"
                                # a judgement on a verb ("there is nothing to gain from watching"), not an absence
                                r"\bnothing\s+to\s+(?:gain|win|learn)\b|\bno\s+(?:point|use|sense|benefit|value)\s+in\b|"
                                # (r39m) a lower bound on a count, "no fewer than 4 op machines", "not less than 2": "at least"
                                r"\b(?:no|not)\s+(?:fewer|less)\s+than\s+(?=(?:one|two|three|four|five|[1-5])\b)|"
                                # (r39m) and a level bounded by the lowest, "no worse than user level": at user level
                                r"\b(?:no|not)\s+(?:worse|higher|deeper|further|more)\s+than\s+(?:at\s+)?(?:the\s+)?(?=user[\s-]level\b)|"
                                r"\bnot\s+only\b|\bif\s+not\s+already\b|(?:\bnot|n['\u2019]t)\s+(?:be\s+)?(?:sure|certain|clear\s+(?:whether|if|what|which|how))\b|(?:do\s+not|don'?t)\s+know\b|"
                                # "only for User3", "and only Op_Server0": the rule's scope, said twice
                                r"\bonly\s+(?:for\s+|on\s+|about\s+|to\s+)?(?:the\s+)?(?:(?:user|enterprise|op[\s_]?(?:host|server))[\s_-]?\d|"
                                r"defender|user\s+hosts?|enterprise\s+hosts?|op\w*\s+hosts?)\b"
                                # ("when only user hosts are compromised" restricts the situation: no other host is)
                                r"(?!\s+(?:is|are|was|were|shows?|showed|gets?|got|has|have|remains?|stays?)\b)"
                                # (r48c) nor "only User2 owned", "only Op_Host0 rooted", "only User1 at Privileged": a note's
                                # state without its verb, the same restriction (no other host in that state)
                                r"(?!\s+" + BARE_STATE + r")|"
                                # "for Enterprise2 only", "applies to User1 only": the same, said after
                                r"\b(?:(?:user|enterprise|op[\s_]?(?:host|server))[\s_-]?\d|defender|hosts?)\s+only\b"
                                # (r54b: not a class's hosts, "the scans hit user hosts only": _CLASS_ONLY_ALONE reads those)
                                + "".join(rf"(?<!\b{word}\shosts\sonly)(?<!\b{word}\shost\sonly)(?<!\b{word}-hosts\sonly)"
                                          for word in ("user", "usr", "enterprise", "ent", "op", "ops", "operational")) + "|"
                                # (r54m) and a class so, "(enterprise servers only)", "usr boxes only": the class the rule
                                # is for (guard._classes_unclaimed holds its claims to that class)
                                + _CLASS_ONLY_ALONE + "|"
                                # "while they merely read User", "only at User": the user level by its bare name after a
                                # verb that reads the table (r31m; no host "User2", no "user hosts": those restrict scope)
                                r"\b(?:only|just|merely|solely)\s+(?:(?:reads?|reading|shows?|showing|sits?|sitting)\s+(?:at\s+)?|at\s+)"
                                r"user\b(?![\s_-]*(?:\d|hosts?\b|box\w*|machines?\b|subnet\b|one\b|level\b|[- ]compromised\b))|"
                                # "until the box no longer shows root", "until the host stops showing a scan": "until not X" is
                                # "while X", no absence (r31m)
                                r"\b(?:until|" + TILL + r")\s+(?:it|they|the\s+(?:host|box|machine|server)|[\w]+\d|defender)\s+"
                                r"(?:no\s+longer|stops?\s+(?=reading|showing))\b|"
                                # "newly owned (clean at the previous step)": the gloss of "newly" (NEWLY_GLOSS)
                                r"(?<=\bnewly\s)[\w-]+" + NEWLY_GLOSS, re.IGNORECASE)


# What a condition of absence is about: "absent any exploitation", "barring a real compromise", "without root access".
# (r42m: not "without waiting for root", "without delaying until it is compromised": how to act, at once, no state lacked)
ABSENT_WHAT = (r"(?!\s+(?:first\s+)?(?:wait\w*|delay\w*|hesitat\w*|holding\s+out|hanging\s+on)\b)"
                r"(?=\s+(?:[\w-]+\s+){0,3}?(?:exploit\w*|compromis\w*|access|root|privilege\w*|admin\w*|scan\w*|activity|"
                r"signs?|evidence|breach\w*|intrusion|foothold|alerts?|attack\w*|escalation|infection)\b)")


_PAST_EPISODE = (r"\s+(?:one|a|an|that|some|another|my|our|(?:an|the|my|our)\s+(?:earlier|previous|past|last|old))\s+"
                 r"(?:[\w-]+\s+)?(?:seed|episode|run|game|match)\b")


# (r41m: "once more than three hosts are held" is a condition, its "more" the count's; "once more" alone is "again")
# The defender's own move, just made and told in the past ("we removed", "you had restored"): what a history
# condition on the defender's moves reads, as a condition marker (r42m) and as an order's leading clause (r42h).
# (r44h: or in the present, as a habit is said, "just after you reimage User3, ...": the same condition on the
# defender's last move; left unread, the clause was lost and the rule held at any step its state did)
# (r49h: or the move as the defender's plan or choice, "after I chose a Decoy for Op_Host0", "once we picked a Restore on
# it": the move it made, as "after we removed it" says; unread, "just after I plan a Remove of a box and it reads
# Unknown, ..." was no condition and the rule held wherever a host read Unknown)
# The verb of planning or choosing and its article, before the move's name (history_words reads it as the move made)
PLANNED = r"(?:plan(?:s|ned)?|chose|choose|picked?|ordered?|issued?|queued?)\s+(?:a|an|the|another|one)\s+"
# (r49a) PLANNED in the past only: after "once" / "since" the present is the choice being made, "once you choose a Remove
# for it, analyse it instead" (no move made: read as one, the rule held only in the steps after a Remove of it)
PLANNED_MADE = r"(?:planned|chose|picked|ordered|issued|queued)\s+(?:a|an|the|another|one)\s+"
DEFENDER_MOVED = (r"(?:we|you|i|the\s+defender)\s+(?:have\s+|had\s+|just\s+)*(?:(?:remov|restor|re-?imag|analy[sz])\w*ed|"
                  r"(?:remove|restore|re-?image|analy[sz]e)s?|" + PLANNED +
                  r"(?:remove|removal|restore|re-?image|analy[sz]e|analysis|decoy\w*))\b")


# (r49m) "Where <state>, <order>": a policy's "where" opening its sentence or its clause after a colon is its "if" (read
# as nothing, "Where two or more servers are compromised, restore each" lost its count and held on one); never a "where"
# after a word or a comma, which tells where ("the host where it landed", "..., where a decoy catches nothing").
CONDITION_MARKER = (r"whenever|when|(?<![\w,)'\"]\s)(?<![\w,(-])where(?!\s+(?:possible|needed|necessary|applicable|appropriate)\b)"
                    # (not "Where this does not hold: ...", the rule's own exceptions listed after it)
                    r"(?!\s+(?:this|that|it|the\s+(?:rule|note|above|order))\s+(?:does|do|did|is|will)\b)|"
                    r"if(?!\s+(?:that|this|it)\s+is\s+(?:alright|all\s+right|ok|okay|fine|possible|acceptable)\b)|"
                     # (r59m: nor a "once" that ends its sentence, "Never Sleep then. Not once.", "... just once!": a count)
                     r"while|(?<!at\s)once(?!\s*(?:[.!?;)]|$))(?!\s+(?:more(?!\s+than\b)|again|all\s+(?:week|day|night|game|episode|shift|month|year)|in\s+a\s+while|or\s+twice|"
                     # (r52m: nor a count of times, "has not shown up once all week", "once in a while", "once a day")
                     r"a\s+(?:day|week|turn|step|game|shift|night)|per\s+(?:day|week|turn|step|game|shift|episode))\b)|(?:the\s+)?next\s+time(?=\s+(?:a|an|the|any|some|it|that|this|we|you|they|there|user|enterprise|op|\w+\d)\b)|at\s+the\s+(?:start|beginning|end)\s+of|"
                     # (not "late in seed 1001", "early in run 3": a moment of an episode told, r32m)
                     # (r36m: nor "late in one run", "in the final turns of seed 4", "in the first turns of an earlier game":
                     # a moment of a past episode, its "one / an earlier / that" not the episode under way)
                     r"(?:early|late)\s+in(?!\s+(?:seed|episode|run|game)\s+#?\d)(?!" + _PAST_EPISODE + r")|"
                     r"in\s+the\s+(?:first|last|final|opening)\s+(?:\w+\s+)?(?:steps?|turns?|moves?)"
                     r"(?!\s+of\s+(?:seed|episode|run|game)\s+#?\d)(?!\s+of" + _PAST_EPISODE + r")|"
                     # "in the impact phase", "at the reconnaissance stage"
                     r"(?:in|at)\s+(?:the\s+)?(?:recon\w*|discovery|scanning|exploitation|initial\s+access|(?:privilege\s+)?escalation|"
                     r"lateral[\s-]+movement|impact)\s+(?:phase|stage)(?=\s*[,;:.]|\s+(?:of|on|for|against)\b)|"
                     # (r39m) a window after the defender's move: "within 3 turns after a Restore of Op_Host1", "for the next
                     # three turns after you restore it" (left unread, the rule held at any time the state did)
                     # (r46m: not "leave the Analyse for the turn after.", with nothing after it: the turn after this one)
                     r"(?:within|for|in|during)\s+(?:the\s+)?(?:next\s+|first\s+)?(?:\w+\s+)?(?:steps?|turns?)\s+(?:after|following)\b(?!\s*(?:[.;,!)]|$))|"
                     # (r42m) the defender's own move just made, "right after we removed Enterprise0, ...", "just after a
                     # Restore of it": a history condition (history_words reads it), left unread the rule held at any step
                     # (where a clause opens: "a box still held after we restored it" is a relative clause's)
                     r"(?<![\w-]\s)(?:(?:right|just|immediately|directly)\s+)?(?:after|following)(?=\s+(?:" + DEFENDER_MOVED + r"|"
                     r"(?:a|an|the|our|my|your)\s+(?:own\s+)?"
                     r"(?:remove|restore|re-?image|analy[sz]e|analysis)\s+(?:of|on)\s+(?:it|\w+\d|defender)\b))|"
                     # (r46m: not "during that step", the step the order is for, said again)
                     # (r46m: nor "as long as it remains so", the condition before it said again)
                     r"as\s+soon\s+as|(?:as|so)\s+long\s+as(?!\s+(?:it|they|that|this)\s+(?:stays?|remains?)(?:\s+(?:that\s+way|so|"
                     r"like\s+that|the\s+same|as\s+(?:it|they)\s+(?:is|are)))?\s*(?:[.;,!]|$))|unless|until|" + TILL + r"|during(?!\s+(?:that|this|the\s+same)\s+(?:same\s+)?(?:step|turn)\b)|"
                     # "should Op_Host2 be compromised", "upon seeing an exploit", "given that", "for any privileged
                     # compromise on ...", "where a user host ...", "as it gets exploited", "the step it is compromised"
                     # "do not restore it just because it was scanned", "no restoring User0 for a mere scan"
                     r"(?:just|only|merely|simply|solely)\s+because|(?:for|on)(?=\s+(?:(?:a|an|one)\s+)?(?:(?:mere|single|lone|simple)\s+)?"
                     r"(?:scan|exploit|probe)\w*\b)|"
                     r"should(?=\s+(?:\w+\d|it|a|an|any|the|one)\b[^,;.]*?\bbe\b)|"
                     # (r39m) "should it sit at Unknown", "should Op_Host2 show a probe": the same, with the state's own verb
                     r"should(?=\s+(?:\w+\d|it|they|(?:the|that|this)\s+(?:host|box|machine|server))\s+(?:sit|show|read|get|become|stay|"
                     r"remain|turn|go|reach|fall|land|drop)\b)|upon|on\s+(?=seeing|noticing|spotting)|given\s+that|"
                     r"for\s+(?:any|every|each)(?=\s+(?:\w+[\s-]+){0,2}?(?:compromise|exploit|scan|alert|breach|intrusion)s?\b)|"
                     r"where(?=\s+(?:a|an|any|some|the)\s+(?:\w+\s+)?(?:host|box|machine|server|workstation)s?\b)|"
                     # "where Op_Server0 sits at Unknown, ...", "wherever U2 shows a scan": a named host, then its state
                     r"where(?:ver)?(?=\s+(?:(?:user|enterprise|op[\s_-]?(?:host|server))[\s_-]?\d|defender|"
                     r"(?:e|ent|u|usr)[_-]?\d|op[_-]?(?:s(?:rv|vr)?|h(?:st)?)[_-]?\d)\s+(?:(?:still|now|only|just)\s+)?"
                     r"(?:is|are|sits?|shows?|gets?|has|becomes?|remains?|stays?|reads?|looks?)\b)|"
                     # (r33m) "where an Analyse has just shown a box rooted, ...": the defender's move, then what it did
                     r"where(?=\s+(?:a|an|the|your|our|my)\s+(?:analy[sz]e|restore|remove|monitor|decoy\w*)\s+(?:has|had|just)\b)|"
                     # (not "as it is", "as they are" with no state after: "keep that box as it is for the lab" is "unchanged")
                     r"(?<!such\s)as(?!\s+(?:it|they|\w+\d)\s+(?:is|are)\s*(?:$|[,;.:)!]|(?:for|and|but|so|now|then)\b))"
                     r"(?=\s+(?:it|they|the\s+host|\w+\d)\s+(?:gets?|is|becomes|shows|starts))|"
                     r"the\s+(?:step|turn|instant|minute)(?=\s+(?:it|they|\w+\d)\s+(?:gets?|is|becomes|shows))|"
                     r"the\s+moment(?!\s+(?:for|to)\b)|any\s*time|every\s+time|each\s+time|in\s+case|provided(?:\s+that)?|except\s+when|"
                     # (r41m) "however often User1 is taken, a Remove": each time it is
                     r"however\s+(?:many\s+times|often)|no\s+matter\s+how\s+(?:many\s+times|often)|"
                     # "whichever of User1, User2 or User4 is owned, ...": the one of them in that state
                     r"whichever\s+of(?=\s+(?:the\s+)?(?:\w+\d|user|enterprise|op|defender)[^.;:]*?\b(?:is|gets|shows|becomes)\b)|"
                     # a situation opened by its absence: "without an exploit on it, never restore User2" (after a word,
                     # "without" is read where it stands: "Op_Host2 without privileged access" is a relative clause)
                     r"(?<![\w-]\s)without" + ABSENT_WHAT + "|"
                     # (r45m) a situation opened by "with" and a state, then a comma: "with mere probes and no box owned
                     # yet, plant a decoy", "with U3 rooted, restore it" (after a word, "with" is what a host
                     # has or what the order uses: "Restore User1 with priority")
                     # (nor one that goes on to tell what someone did: "With User0 owned I removed it, ...", a story)
                     r"(?<![\w-]\s)with(?=\s+(?:(?!\b(?:i|we|you|they)\b)[^,;.:!?]){0,60}?\b(?:scan\w*|exploit\w*|compromis\w*|owned|rooted|"
                     r"pwned|held|taken|breached|quiet|clean|untouched|privileged|root|unknown|activity|alerts?)\b"
                     r"(?:(?!\b(?:i|we|you|they)\b)[^,;.:!?]){0,30},)")


CONDITION = re.compile(rf"\b(?:{CONDITION_MARKER})\b", re.IGNORECASE)


# what follows a verb of opening or closing when its object is the reply ("every report with", "the plan with")
OPENS_REPLY_WITH = (r"\s+(?:(?:each|every|all|any|the|your|my|our|its|their)\s+)?(?:[\w-]+\s+){0,2}?(?:reports?|repl(?:y|ies)|"
                     r"answers?|analys[ie]s|plans?|messages?|responses?|recommendations?|summar(?:y|ies)|outputs?|notes?)\s+with\b")


OPENING_VERB = r"(?:start|begin|end|open|close|finish|conclude|preface|prefix)"


# the nouns a count of hosts is said with ("one host", "a single user box")
_COUNTED_NOUN = r"(?:hosts?|box(?:es)?|machines?|servers?|s(?:e)?rvs?|svrs?|workstations?|nodes?|systems?)\b"


# the states a count of hosts is said with where no noun follows it ("only one owned", "just one is compromised")
COUNTED_STATE = r"(?:compromised|owned|exploited|rooted|hit|scanned|infected|breached|hacked|pwned|popped)\b"


IMPERATIVE_START = re.compile(
    # ("First step, no alerts, and I ...": a time, not "first, restore ...")
    # ("only one host owned -> ...": a count of hosts, the heading's condition, not "only restore ...")
    # (r42h: nor "only one owned -> ...", the count said with its state and no noun: the case the note sets apart)
    # (r47m: and the count in a digit, "only 1 usr box owned -> ...")
    rf"^(?:(?:{CONDITION_MARKER})\b|(?:please|always|never|(?:only|just)(?!\s+(?:one|1|a\s+single)\s+(?:(?:[\w-]+\s+)?{_COUNTED_NOUN}|"
    rf"(?:(?:is|are)\s+)?{COUNTED_STATE}))|"
    # (r46m: nor "first 8 turns of the game", "first few steps": a window of steps)
    rf"first(?!\s+(?:step|turn|round|episode|move)\b)(?!\s+(?:\d+|few|two|three|four|five|six|seven|eight|nine|ten|"
    rf"fifteen|twenty)\s+(?:steps|turns|rounds|moves)\b)|then|also|so|now|"
    rf"instead|rather|prefer|"
    rf"make\s+sure|be\s+sure\s+to|remember\s+to|try\s+to|do\s+not|don'?t|avoid|stop|refrain|keep|leave|put|place|"
    rf"deploy|set\s+up|plant|use|spend|waste|take|treat|consider|prioriti[sz]e|focus|respond|handle|ignore|go|"
    rf"kick|throw|get\s+rid|clean|isolate|contain|block|quarantine|hands\s+off|flag|mark|report|raise|escalate|note|record|"
    rf"assume|expect|answer|reply|choose|pick|select|wait|hold|act|trust|verify|confirm|double-check|give|apply|"
    rf"favou?r|reserve|save|spare|protect|defend|secure|patch|harden|bait|seed|let|"
    # the Planner's and the Analyst's orders: "plan a DecoyTomcat on ...", "recommend Remove"
    rf"plan|recommend|suggest|propose|schedule|queue|advise|"
    # (r43m) the Analyst's verdict: "rate it high", "grade the box medium", "call it critical" (an order as "flag it" is)
    rf"rate|grade|classify|label|call(?=\s+(?:it|them|this|that|the\s+(?:host|box|machine|risk))\b)|"
    # orders on the reply's form: "write the plan in two bullets", "limit the answer to one line"
    # (r45m: "cap each plan at two moves", "restrict the answer to one line")
    rf"write|format|limit|omit|cap|restrict|shorten|trim|"
    # (r47m) what the reply says or leaves out: "say nothing of the other hosts", "mention only the host at hand"
    # (r47a: not "say" for "suppose", "say nothing is running on Op_Host1 and it is rooted: ...", "say only User2 is owned
    # -> ...": a case put, whose verb follows within a few words (read as an order, its case was no condition)
    # (r61m) the Analyst's verdict said before its recommendation: "say that the row may be stale and recommend ...", "say so, then
    # suggest ...": what to tell, then the move (a case put, "say it is rooted -> ...", has no recommendation after it)
    rf"say(?=\s+(?:so|it|that)\b[^.;:!?]{{0,60}}?\b(?:and|then)\s+(?:also\s+)?(?:recommend|suggest|advise|propose|rate|flag)\b)|"
    rf"say(?=\s+(?:nothing|no|only|little|just)\b)(?!\s+(?:nothing|no|only|little|just)\s+(?:(?!(?:what|which|how|whether|"
    rf"if|when|where|why|who|about|of|on|in|regarding|concerning)\b)[\w-]+\s+){{0,4}}?(?:is|are|was|were|gets?|got|sits?|"
    rf"shows?|has|have|had|runs?|stays?|remains?|looks?)\b)|mention(?!\s+of\b)|"
    # how the reply opens or closes: "start every report with the risk level", "end each answer with a summary line"
    rf"{OPENING_VERB}(?={OPENS_REPLY_WITH})|"
    # "make restoring Enterprise0 part of the plan", "include a Remove of User2", "add a DecoySSHD on User1"
    rf"make(?=\s+(?:(?:a|an|the)\s+)?(?:\w+\s+){{0,7}}?(?:part\s+of|a\s+priority|(?:the|your)\s+(?:first|top|next))\b)|include|add)\b|"
    rf"{LIGHT_VERB}(?={VERB_WORD})|(?:{VERB.pattern}))", re.IGNORECASE)


# (r42h) The step's analyses as the subject right before a negation: "the analyses do not mention <host>".
_ANALYSES_SAY_NOT = re.compile(r"\b(?:the|step(?:'s|\u2019s))\s+analys[ie]s$", re.IGNORECASE)


# A state said with a word of taking over a host ("owned", "popped") or a level alone ("at user level"): a state as well.
TAKEN_OVER = re.compile(r"\b(?:owned|pwned|popped|hacked)\b", re.IGNORECASE)


def states_something(clause: str) -> bool:
    """Whether a clause says a state: a word of state, a level, or a word of taking over a host."""
    return bool(STATE_WORDS.search(clause) or LEVEL_WORDS.search(clause) or TAKEN_OVER.search(clause))


_HOST_BEFORE = re.compile(rf"\b{HOST_NAME}\s*$", re.IGNORECASE)


_HOST_AFTER = re.compile(rf"\s*(?:(?:and|or|as\s+well\s+as|plus)\s+)?{HOST_NAME}\b", re.IGNORECASE)


# (r40m: and a move's judgement over another, "beats a Monitor", which ends the condition said before it)
# (r45m: or the inaction it replaces, "instead of leaving it be", "rather than ignoring it")
_INSTEAD_OF_VERB = re.compile(r"\s(?:rather\s+than|instead\s+of|in\s+preference\s+to|in\s+place\s+of|beats|trumps|outranks|"
                              r"wins\s+over)\s+(?:\w+\s+){0,2}?(?="
                              + VERB_WORD + r"|leav(?:e|es|ing)\s+(?:it|them|that\s+\w+|the\s+\w+)\s+(?:be|alone)\b|ignor(?:e|es|ing)\b)",
                              re.IGNORECASE)


# The teacher's modal opening the main clause after a condition said without a comma ("when User0 is compromised at user
# level I'd Analyse User0")
_FIRST_PERSON_MODAL = re.compile(r"\s(?:i|we|you)(?:['\u2019]d|['\u2019]ll|\s+(?:should|would|will|must|need\s+to|ought\s+to|"
                                 r"have\s+to|had\s+better))\b|"
                                 # (r34h) or the role's: "whenever an op host shows a scan the planner should decoy it"
                                 r"\s(?:the|our|my)\s+(?:plan|planner|chooser|analyst)\s+(?:should|must|needs?\s+to|ought\s+to|"
                                 r"has\s+to)\b", re.IGNORECASE)


# The teacher's own present-tense move opening the main clause after a condition said without a comma, once that
# condition has stated a state ("when Enterprise1 shows Unknown I analyse Enterprise1", "if an ent server is exploited we
# remove the attacker"); not after a joining word ("if it is exploited and we restore it", "once it shows root after we
# remove it"), which keeps the move in the condition, nor a past move ("when it showed root we restored it": the story).
_FIRST_PERSON_MOVE = re.compile(r"(?<!\band)(?<!\bor)(?<!\bbut)(?<!\bafter)(?<!\bbefore)(?<!\bsince)(?<!\bonce)(?<!\buntil)"
                                r"(?<!\bwhen)(?<!\bif)(?<!\bthat)(?<!\bas)(?<!\bbecause)\s(?:i|we|you)\s+"
                                r"(?:(?:always|first|then|immediately|just|now|simply)\s+)?(?=(?:analy[sz]e|remove|restore|reimage|"
                                r"rebuild|wipe|evict|kick|purge|inspect|investigate|examine|check|triage|monitor|watch|decoy|"
                                # (r45m: the role addressed, "once User4 is rooted you plan a Restore of User4")
                                r"deploy|plant|put|sleep|pick|choose|select|go\s+for|plan|recommend|schedule)\b)", re.IGNORECASE)


_STATED_BEFORE = re.compile(r"\b(?:shows?|showing|is|are|sits?|gets?|has|goes|turns|reaches|hits?)\b", re.IGNORECASE)


# The move a plural subject is given, opening the main clause ("user hosts showing a scan get a DecoySmss"), as "gets"
# does for one host (_JUDGED_VERB)
_GIVEN_TO_MANY = re.compile(r"\s(?:get|receive|deserve|warrant)(?=\s+(?:a|an)\s+" + VERB_WORD + r")", re.IGNORECASE)


def _first_person_move(clause: str) -> Optional[int]:
    """Where the teacher's own move (_FIRST_PERSON_MOVE), or the move a plural subject is given (_GIVEN_TO_MANY), opens
    the main clause of `clause` once a state is stated before it; None if neither does."""
    move = _FIRST_PERSON_MOVE.search(clause) or _GIVEN_TO_MANY.search(clause)
    # (r44h: the clause may open with the defender's own earlier move, "just after we reimage Op_Host1 we analyse it": its
    # history is the state, and the teacher's move after it opens the main clause)
    if move is not None and move.start() == 0 and _MOVE_BEFORE.match(clause):
        move = next((m for m in _FIRST_PERSON_MOVE.finditer(clause) if m.start() > 0), None)
    # (the state may be the clause's first words, after the "showing" that opened it: "hosts showing a scan get ...")
    if move is None or not (_STATED_BEFORE.search(clause[:move.start()]) or STATE_WORDS.search(clause[:move.start()])
                            or _MOVE_BEFORE.match(clause[:move.start()])):
        return None
    return move.start()


# (the clause opens with the move, its "after" the condition's marker)
_MOVE_BEFORE = re.compile(r"^\s*" + DEFENDER_MOVED, re.IGNORECASE)


# How long a state held, said between commas after it: part of the condition, not its end.
_HELD_ASIDE = re.compile(r"\s*(?:unchanged|unchanging|still|(?:for|over)\s+(?:the\s+)?(?:last\s+|past\s+)?(?:\d+|one|two|three|four|five|"
                         r"six|a\s+few|several|a\s+couple\s+of)\s+(?:more\s+)?(?:consecutive\s+|straight\s+)?(?:steps|turns)|"
                         r"(?:\d+|two|three|four|five|six)\s+(?:steps|turns)\s+(?:running|in\s+a\s+row|straight))\s*(?=[,;:.]|$)",
                         re.IGNORECASE)


# (r45h) A state of another host (or of the same one) joined to a condition after its comma, "if Op_Host0 stays quiet,
# and E2 is under exploit, evict the intruder there": the condition goes on (cut at the comma, its second half was read
# as the order's and the condition read whole without it). Only a subject and a verb of state, up to the next stop.
_STATE_JOINED = re.compile(rf"\s*(?:and|but|or)\s+(?:(?:the\s+)?(?:{HOST_NAME}|{HOST_SHORT})|it|they)\s+"
                           r"(?:is|are|shows?|has|have|reads?|remains?|stays?|sits?)\b[^,;:.!?]*", re.IGNORECASE)


_HOW_LONG = re.compile(r"\s*(?:for|over)\s+(?:the\s+)?(?:last\s+|past\s+)?(?:\d+|one|two|three|four|five|six|a\s+few|several|"
                       r"a\s+couple\s+of)\s+(?:more\s+)?(?:consecutive\s+|straight\s+)?(?:steps|turns)\b", re.IGNORECASE)


_ABSENCES_SPELLED = re.compile(r"\s*(?:and\s+|or\s+|nor\s+)?(?:no|zero)\s+(?:scans?|scanning|exploits?|"
                               r"compromises?|activity|alerts?)\b(?:\s+(?:anywhere|at\s+all|on\s+any\s+host))?\s*(?=[,;:.]|\s+(?:and|or|nor)\s|$)",
                               re.IGNORECASE)


# "a host that is still compromised after we removed it should be restored": the order, said in the passive, after the
# relative clause that states its condition
_PASSIVE_ORDER = re.compile(r"\s(?:should|must|needs?\s+to|ought\s+to|has\s+to|is\s+to)\s+(?:not\s+|never\s+)?(?:be|get)\s+"
                            r"(?:(?:a|an|the|any)\s+)?(?="  # ("should never get a Restore recommendation")
                            + VERB_WORD + r")", re.IGNORECASE)


# The judgement that opens the main clause after a condition said without a comma ("when the Defender shows an exploit
# the move is a Restore of the Defender", "a user host showing root calls for Restore"): the order, no part of the condition.
_JUDGED_VERB = re.compile(r"\s(?:(?:the|my|our|your)\s+(?:\w+\s+){0,2}?(?:call|move|choice|answer|response|play|fix|remedy|option|"
                          # ("a user box that shows a scan gets an Analyse": the move the host is given)
                          r"thing\s+to\s+do)\s+(?:is|would\s+be|will\s+be|should\s+be)|means|calls?\s+for|warrants?|deserves?|"
                          # (r51m: or the move by its catalog name, capitalised, "... gets Monitor in my plan": a noun, as
                          # "a Monitor" is, never the participle of "gets restored")
                          r"(?:gets|receives|should\s+get|should\s+receive)(?=\s+(?:(?:a|an)\s|(?-i:(?:Restore|Remove|Analyse|Monitor|Sleep|Decoy)\w*\b)))|"
                          r"demands?|requires?)\s+(?:(?:simply|just)\s+)?(?:(?:a|an|the|to)\s+)?(?=" + VERB_WORD + r")", re.IGNORECASE)


# A move named as the subject of a judgement: "an Analyse is pointless by then", "the Restore would be wasted" (r37m)
_MOVE_JUDGED = re.compile(r"\s(?:a|an|the|any)\s+" + VERB_WORD + r"\w*\s+(?:is|are|would\s+be|will\s+be)\b", re.IGNORECASE)


def _states_said_on(after: str) -> bool:
    """(r45m) Whether the piece after a condition's comma, up to the next comma, goes on stating the situation: states of
    the network or its hosts with no verb of ours, no one who acts and no order ("probes seen and no box owned
    anywhere", "E2 quiet"), or another host's state joined to it (`_STATE_JOINED`, "and E2 is under exploit"). Cut
    before it, the condition lost it, and the reading, whole without it, was wider than the text; the order comes after
    the next comma."""
    joined = _STATE_JOINED.match(after)
    if joined and states_something(joined.group(0)):
        return True
    found = re.match(r"\s*(?P<piece>[^,;:.!?]{3,80}),", after)
    if found is None:
        return False
    piece = found["piece"].strip()
    # (not a gloss or a contrast of the state before, "meaning Privileged rather than user", "not Privileged", "even at root")
    if re.match(r"(?:not|nor|but|rather|meaning|i\.?e\.?|that\s+is|namely|as|like|even|only|just|especially|particularly|"
                r"say|e\.?g\.?)\b", piece, re.IGNORECASE):
        return False
    return bool(STATE_WORDS.search(piece)) and not VERB.search(piece) and not IMPERATIVE_START.match(piece) \
        and not CONDITION.match(piece) and not re.search(r"\b(?:i|we|you|my|our|your|which|that|since|because|so)\b", piece, re.IGNORECASE)


# (r46m) "I'd sooner Analyse it while the scan is still on than let it ...": after "rather" (or "sooner") split from its
# "than" by the order and its condition, the "than" opens the alternative put aside, no part of the condition (left in,
# its "let it sink to root" was read as a level the condition asked)
_RATHER_BEFORE = re.compile(r"\b(?:rather|sooner)\b(?!\s+than\b)", re.IGNORECASE)


_THAN = re.compile(r"\s+than\s+(?=(?:to\s+)?\w)", re.IGNORECASE)


_COMPARED_BEFORE_THAN = re.compile(r"\b(?:more|less|fewer|worse|better|higher|lower|other|further|deeper|later|earlier|"
                                   r"greater|smaller|bigger|stronger|weaker)\s*$", re.IGNORECASE)


def _rather_than_end(before: str, clause: str, end: int) -> int:
    """(r46m) Where a condition clause ends at the "than" of a "rather" said before it (`_RATHER_BEFORE`): `end` where
    there is none."""
    if not _RATHER_BEFORE.search(before.split(".")[-1]):
        return end
    # (r46a: not the "than" of a comparison the condition makes, "nothing worse than a scan", "no more than a probe":
    # cut there, the condition lost its state and the rule was silent)
    found = next((m for m in _THAN.finditer(clause) if not _COMPARED_BEFORE_THAN.search(clause[:m.start()])), None)
    return found.start() if found else end


# (r60l) Advice said by denying its harm (HARM_DENIED) with the move it urges after "to" / "in": "it wouldn't hurt to
# drop a decoy there", "there's no harm in a Remove". Not a harm denied of something else, "if a Remove wouldn't hurt
# the score".
_HARM_DENIED_ADVICE = re.compile(r"(?:\b(?:it|that|this|there\s+is|there['\u2019]s)\s+)?(?:" + HARM_DENIED + r")"
                                 r"(?:\s+(?:at\s+all|much|anyone|anything|us|you))?\s*(?:(?<=\bin)|(?<=\bto)|\s+(?:to|in)\b)",
                                 re.IGNORECASE)


def clause_end(text: str, start: int) -> int:
    """Where a condition clause starting at `start` ends: a comma, semicolon, colon, full stop, "then", or the
    order that follows it."""
    rest = text[start:]
    end = len(rest)
    # (r40h: not the dot of a file name or a decimal, "escalate.exe", "density 0.9": the condition was cut there, and its
    # first half, "lists an escalate", read as a host at root; a code comparison's "E1.activity" still ends at its dot)
    for stop in re.finditer(r"[,;:!?]|\.(?!(?:sh|exe|py|bat|ps1)\b|\d)|\s(?:then)\s|\s[\u2013\u2014-]\s", rest):
        if stop.group(0) == "," and _HOST_BEFORE.search(rest[:stop.start()]) and _HOST_AFTER.match(rest[stop.end():]):
            continue  # a list of hosts ("if User2, User3 or User4 is compromised") goes on
        if stop.group(0) == "," and _HELD_ASIDE.match(rest[stop.end():]):
            continue  # "if a user host has shown Compromised Unknown, unchanged, for three steps": how long, said aside
        if stop.group(0) == "," and re.search(r"\b(?:unchanged|unchanging)\s*$", rest[:stop.start()], re.IGNORECASE) \
                and _HOW_LONG.match(rest[stop.end():]):
            continue  # (r40m) "..., unchanged, over the past 2 turns gets ...": the aside's own "how long", then its verb
        if stop.group(0) == "," and _ABSENCES_SPELLED.match(rest[stop.end():]):
            continue  # "if nothing is happening, no scan, no exploit and no compromise anywhere, ...": the same, spelled out
        if stop.group(0) == "," and _states_said_on(rest[stop.end():]):
            continue  # (r45m) "during reconnaissance, probes seen and no box owned on the network, ..."
        if stop.group(0).strip() == "then" and re.search(r"\band\s*$", rest[:stop.start()]) \
                and STATE_WORDS.match(rest[stop.end():]):
            continue  # "if red scanned User2 and then exploited it": what happened next, not the order
        end = stop.start()
        break
    # (r37m) "once it shows root a Remove would be wasted": a move as the subject of a judgement, after the state,
    # opens the main clause
    judged = _MOVE_JUDGED.search(rest[:end])
    bad = BAD_IDEA.search(rest[:end])  # "Analysing X on a mere scan is wasted": the judgement is no part of the condition
    end = bad.start() if bad else end
    end = judged.start() if judged and judged.start() < end and STATE_WORDS.search(rest[:judged.start()]) else end
    # "Remove User2 when it is compromised rather than restoring it": the verb so dispreferred is the order's, no
    # restriction of the condition ("scanned rather than exploited", no verb of ours, still restricts it)
    other = _INSTEAD_OF_VERB.search(rest[:end])
    end = other.start() if other else end
    end = _rather_than_end(text[:start], rest[:end], end)
    # "whenever Enterprise0 shows Compromised Privileged I should recommend ...": the teacher's modal opens the main clause
    # (r56h: and so does the auxiliary a negative inversion puts after its condition, "not unless E2 is owned should
    # anyone restore it": kept in the condition, it was no state, and the condition was read as nothing)
    main = _FIRST_PERSON_MODAL.search(rest[:end]) or _PASSIVE_ORDER.search(rest[:end]) \
        or re.search(INVERTED_AUXILIARY, rest[:end], re.IGNORECASE)
    end = main.start() if main else end
    # (r60l) advice said by denying its harm, "while a box is being probed it wouldn't hurt to decoy it": the main clause
    # (kept in the condition, the urged move was no order, and a "never" of it passed for the text)
    advice = _HARM_DENIED_ADVICE.search(rest[:end])
    end = advice.start() if advice and STATE_WORDS.search(rest[:advice.start()]) else end
    # "when Enterprise1 shows Unknown I analyse Enterprise1": the teacher's present move opens the main clause
    move = _first_person_move(rest[:end])
    end = move if move is not None else end
    # "when the Defender shows an exploit the move is a Restore", "a user host showing root calls for Restore": the
    # judgement that names the verb (or "X calls for / warrants VERB") opens the main clause
    main = _JUDGED_VERB.search(rest[:end])
    end = main.start() if main else end
    # (r42h: not the step's analyses by their noun, "... and this step's analyses rate it medium": no Analyse, and the
    # condition was cut before its rating, which the gate then never judged; nor what they do not report, "the analyses
    # do not mention it", their negation and no prohibition)
    order = next((m for m in re.finditer(rf"\s(?:{_ORDER_FORBID}|does\s+not|doesn'?t|need\s+not|needn'?t|needs?\s+no|{_GETS_NO_MOVE}|{VERB.pattern})\b",
                                         rest[:end], re.IGNORECASE)
                  if not ANALYSES_NOUN.match(rest, m.start() + 1) and not _ANALYSES_SAY_NOT.search(rest[:m.start()])), None)
    # The clause's own verbs ("if it was restored") are part of it; an order starts a new one only after a
    # subject-less imperative: a verb that is not preceded by an auxiliary.
    # (r35m: nor by a word that makes it the defender's earlier move, "if the last Remove on User4 failed", "our Restore")
    if order and not re.search(r"\b(?:is|are|was|were|been|be|being|under|has|have|had|it|we|i|you|they|got|get|gets|after|before|by|following|"
                               r"since|with|without|from|of|any|an?|the|repeated|its|both|all|only|two|three|last|previous|latest|earlier|"
                               r"recent|our|my|already|just|recently)\s*$",  # (r40m: "we already removed it": done, no order)
                               rest[:order.start()], re.IGNORECASE) and order.start() > 0 \
            and not _move_not_made_at(rest, order.start() + 1) and not _subjects_denial(rest, order):
        end = min(end, order.start())
    return start + end


def _subjects_denial(rest: str, order: re.Match) -> bool:
    """(r46b) Whether a "does not" / "doesn't" is the condition's own verb, denied of the host or row before it ("if E1
    does not read Compromised User", "when its row doesn't show an exploit"): no order (cut there, the host was claimed
    with no state, wider than the words). Only with its verb of the table said: the elliptic "but E0 does not" is left as
    it was read."""
    return bool(re.match(r"\s(?:does\s+not|doesn'?t)\s+(?:read|show|say|list|print|display)\b", rest[order.start():], re.IGNORECASE)
                and re.search(r"(?:\b[A-Za-z_]+\d|\b(?:row|line|host|box|server|machine|desktop|workstation))\s*$", rest[:order.start()],
                              re.IGNORECASE))


# (r39m) A move the defender has NOT made lately, said of a host: "no Analyse of it (was picked) within the past 4 turns",
# "User1 has not been removed within the last 3 turns", "we haven't analysed it in the past two steps". Its verb is the
# history's (history_words.denied_moves reads it as the `not` of an `acted` history), no order: a condition that says it
# goes on past the verb, and an opening that says it is a situation.
# (r40m: a decoy too, "no decoy set up on it over the past 3 turns", and the host said with its class, "that user host")
_MOVE_WHO = (r"(?P<who>it|them|(?:that|the)\s+(?:(?:user|enterprise|op|operational)[\s-]+)?(?:host|box|server|machine)|"
             r"[A-Za-z_]+\d)")


_MOVE_DONE = r"(?P<verb>remov\w*|restor\w*|re-?imag\w*|analy[sz]\w*|analysis|decoy\w*|action|move)"  # ("no action": any move)


# how a decoy is said to be made: "put", "placed", "deployed" (on the host)
_DECOY_MADE = r"(?:\s+(?:(?:was|were|has\s+been|have\s+been|been|got)\s+)?(?:put|placed|deployed|set(?:\s+up)?|dropped|planted|laid|added))?"


_LATELY = (r"\s+(?:in|within|during|over)\s+(?:(?:the\s+)?(?:last|past|previous|prior)|those|these)\s+"  # ("in those 3 steps")
           r"(?P<n>\d+|one|two|three|four|five|six|seven|eight|a\s+couple\s+of|a\s+few|several)\s+(?:steps|turns)\b")


MOVES_NOT_MADE = tuple(re.compile(p, re.IGNORECASE) for p in (
    rf"\b(?:(?:took|taken|made|did|picked|chose|played)\s+)?no\s+(?:(?:other|further|new|fresh)\s+)?{_MOVE_DONE}{_DECOY_MADE}\s+"
    rf"(?:of|on|for|against)\s+{_MOVE_WHO}"
    rf"(?:\s+(?:(?:has|have|had)\s+been|was|were|is|got))?(?:\s+(?:planned|picked|chosen|made|done|taken|sent|issued|"
    rf"tried|run|ordered|seen|appears?|appeared|shows?\s+up|showed\s+up|happened))?{_LATELY}",
    rf"\b{_MOVE_WHO}\s+(?:has|have|had|was|were)\s*(?:not|n['\u2019]t|never)\s+(?:been\s+)?{_MOVE_DONE}{_LATELY}",
    rf"\b(?:we|you|i|the\s+defender)\s+(?:have|has|had|did)\s*(?:not|n['\u2019]t|never)\s+{_MOVE_DONE}\s+{_MOVE_WHO}{_LATELY}"))


def _move_not_made_at(text: str, position: int) -> bool:
    """Whether a phrase of `MOVES_NOT_MADE` covers `position` of `text`."""
    return any(m.start() <= position < m.end() for p in MOVES_NOT_MADE for m in p.finditer(text))


def moves_not_made_away(text: str) -> str:
    """The text without the phrases of `MOVES_NOT_MADE` (what is left says whether it gives an order)."""
    for pattern in MOVES_NOT_MADE:
        text = pattern.sub(" ", text)
    return text


def negations_in(condition: str) -> tuple[str, ...]:
    """The words that negate or restrict a condition ("not", "no", "only", "clean", ...), in order; "only when" or
    "not sure" restrict nothing."""
    # (r39m: nor does a move not made lately, "no Remove of it in the last two steps": history, placed by the `not` of an
    # `acted` atom, which the history check asks for)
    cleaned = moves_not_made_away(_NOT_A_RESTRICTION.sub(" ", condition or ""))
    return tuple(m.group(0).lower() for m in _NEGATION.finditer(cleaned))


# The hosts listed before the one a relative clause starts at, with what picks among them: "any of User1, User2 or
# User3 showing an exploit" (the clause is about one of the list, not its last member).
_LISTED_BEFORE = re.compile(r"(?:\b(?:any|one|either|each|whichever|none|all|both)\s+of\s+(?:the\s+)?)?"
                            r"(?:\b(?:User\d|Enterprise\d|Op_Host\d|Op_Server0|Defender)\s*(?:,\s*(?:and\s+|or\s+)?|and\s+|or\s+))+$",
                            re.IGNORECASE)


def list_start(instruction: str, start: int) -> int:
    """Where a relative clause that starts at a host begins once the hosts listed right before it are counted in."""
    listed = _LISTED_BEFORE.search(instruction[:start])
    # (only a list that picks one of its hosts, "or" / "any of": a list joined by "and" may be read host by host or all
    # at once, and is left as it was read)
    return listed.start() if listed and re.search(r"\bor\b|\bof\b", listed.group(0), re.IGNORECASE) else start


# (r33h) A state said of the host right before its name: "a probed Op_Host2 with no compromise", "an exploited user
# host that ..." (the relative clause alone left the scan out, and the rule fired on the host's quiet row)
_STATE_BEFORE_HOST = re.compile(r"\b(?:(?:newly|freshly|recently|already|just)\s+)?(?:scanned|probed|exploited|compromised|"
                                r"rooted|owned|pwned|popped|breached|infected|hacked)\s+$", re.IGNORECASE)


def state_said_before(instruction: str, start: int) -> int:
    """Where a relative clause that starts at a host begins once a state said right before the host is counted in."""
    found = _STATE_BEFORE_HOST.search(instruction[:start])
    return found.start() if found else start


# (r34m) An order on a host it names, set against another host it only describes ("Remove on User2 alone, not on
# that server which fell before it"): the description says which host the order is not for, never when the
# order holds (an order on a class, "every user box, not the one that ...", keeps its relative clause as a condition).
OTHER_AFTER_NAMED = re.compile(r"(?P<named>\b(?:User\d|Enterprise\d|Op_Host\d|Op_Server0|Defender)(?:\s+(?:itself|alone))?)\s*,\s*"
                                r"(?:and\s+|but\s+)?not\s+(?:on\s+|to\s+|at\s+|for\s+|from\s+)?(?:the|that)\s+(?:[\w-]+\s+){0,3}?"
                                r"(?:one|box|host|server|machine|desk|workstation)\b(?:\s+(?:that|which)\s+[^,.;:()]*)?", re.IGNORECASE)


def other_host_away(text: str) -> str:
    """The text without the other host a named host's order is set against (OTHER_AFTER_NAMED)."""
    return OTHER_AFTER_NAMED.sub(lambda m: m["named"], text)


LEVEL_WORDS = re.compile(r"\b(?:unknown|user[- ]level|privileged|root\w*|admin\w*)\b", re.IGNORECASE)
