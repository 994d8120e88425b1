"""What a rule's own words say, read by the product to check a compilation against its text. Pure.

A compiler (a model, the surrogate or a case author's reference) turns a text into a predicate and an action;
the product never trusts it to have kept the text's scope or polarity. This module reads the few things a
compilation must agree with, in the product's own vocabulary (the surrogate keeps its own: a stand-in must
not share the product's reader):

- the *instruction*: the text without its story (a reflection's report of what happened, in the past, before
  it gives an order), without its justification ("because ...", "so that ...", "lesson: ...", "; it is the
  attacker's foothold") and without an explanation that follows an opening situation ("Enterprise2 showing an
  exploit: the attacker is one hop from the op server. Remove ..."). A note that opens with its situation
  keeps that situation: it is the condition (`situation`).
- the hosts and host classes the instruction names (`hosts`, `classes`), and the hosts it excepts ("every
  user host except User0");
- its conditions: "when / if / while / unless / as long as / once ..." clauses, a relative clause on what the
  order is about ("a host that is not compromised"), and the opening situation; and the negations and
  restrictions inside them (no, none, nothing, not, never, without, unless, except, only, yet, rather than,
  and the words of absence: clean, quiet, idle, uncompromised);
- its prohibitions ("never / do not / don't / stop / avoid VERB"), with the verb (None: a prohibition with no
  verb, "spend no actions on User0", forbids every verb) and the host they are about; and its preferences
  ("X rather than / instead of Y": Y is dispreferred);
- whether it gives an order at all (`gives_order`): a note that only reports gives none.

It never decides what a rule means: it only says what a compilation must not contradict (checks.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, Optional

from forge.env.catalog import DECOY_SERVICES, HOST_CLASSES, HOSTS
from forge.rulebook.language.episode import step_windows
from forge.rulebook.language.spelling import misspellings_mended

# -- vocabulary ---------------------------------------------------------------------------------------

_NUMBER_WORDS = ("zero", "one", "two", "three", "four")
_HOST_FORMS: tuple[tuple[re.Pattern, str], ...] = tuple(
    [(re.compile(rf"\b{name}[\s_-]?{n}\b", re.IGNORECASE), f"{name.capitalize()}{n}")
     for name in ("user", "enterprise") for n in range(5 if name == "user" else 3)]
    + [(re.compile(rf"\bop[\s_-]?host[\s_-]?{n}\b", re.IGNORECASE), f"Op_Host{n}") for n in range(3)]
    + [(re.compile(r"\bop[\s_-]?server[\s_-]?0\b|\b(?:the\s+)?(?:op|operational|ot|operations)[\s_-]*server\b(?!s)|"
                   # the shorthand of notes for the one operational server: "ops server", "ops srv", "op srv"
                   r"\b(?:the\s+)?(?:ops|opr|op)\.?[\s_-]*(?:server|srv|svr)\b(?!s)", re.IGNORECASE),
        "Op_Server0"),
       # a host's number said in words or after "number" / "#" / "no.": "User three", "enterprise server number 1",
       # "op host #2" (a class word may stand between: "user box 3")
       # (not after a determiner: "any user one" is some user host; nor "one" after "the"/"that": "the user one" is
       # the pronoun, the user host the text spoke of, as in "the enterprise foothold and the user one")
       *[(re.compile(rf"(?<!\ba\s)(?<!\ban\s)(?<!\bany\s)(?<!\beach\s)(?<!\bevery\s)(?<!\bno\s)(?<!\bwhich\s)"
                     rf"(?:(?<!\bthe\s)(?<!\bthat\s)(?<!\bthis\s)|(?!{name}(?:[\s-]+{kinds})?\s+one\b))"
                     rf"\b{name}(?:[\s-]+{kinds})?[\s_-]*(?:number\s+|no\.\s*|#\s*)?(?:{n}|{_NUMBER_WORDS[n]})\b", re.IGNORECASE),
          f"{host}{n}")
         for name, kinds, host, count in (("user", r"(?:host|box|machine|workstation)", "User", 5),
                                          ("enterprise", r"(?:host|server|box|machine)", "Enterprise", 3),
                                          ("op(?:erational)?[\s_-]?host", "(?!)", "Op_Host", 3),
                                          ("op(?:erational)?[\s_-]?server", "(?!)", "Op_Server", 1))
         for n in range(count)],
       # the shorthand of operators' notes: "E2", "Ent1", "U3", "OpS0", "OpH1" (a letter of the class, its number)
       *[(re.compile(rf"\b(?:e|ent)[_-]?{n}\b", re.IGNORECASE), f"Enterprise{n}") for n in range(3)],
       *[(re.compile(rf"\b(?:u|usr)[_-]?{n}\b", re.IGNORECASE), f"User{n}") for n in range(5)],
       *[(re.compile(rf"\bop[_-]?h(?:st)?[_-]?{n}\b", re.IGNORECASE), f"Op_Host{n}") for n in range(3)],
       (re.compile(r"\bop[_-]?s(?:rv|vr)?[_-]?0\b", re.IGNORECASE), "Op_Server0"),
       (re.compile(r"\bDefender\b(?!'s)"), "Defender"),
       (re.compile(r"\bdefender[\s-]+(?:host|machine|box|server)\b", re.IGNORECASE), "Defender")])
_CLASS_FORMS: tuple[tuple[re.Pattern, str], ...] = (
    (re.compile(r"\buser[\s-]*(?:hosts?|box(?:es)?|machines?|workstations?|desktops?|laptops?|computers?|nodes?|"
                r"endpoints?|systems?|subnet|network|zone|segment|side|tier)\b|\b(?:workstations?|desktops?|laptops?)\b",
                re.IGNORECASE), "User"),
    (re.compile(r"\benterprise[\s-]*(?:hosts?|servers?|box(?:es)?|machines?|nodes?|systems?|subnet|network|zone|"
                r"segment|side|tier)\b", re.IGNORECASE), "Enterprise"),
    (re.compile(r"\b(?:op|operational|ot|operations)[\s-]*(?:hosts?|servers|box(?:es)?|machines?|nodes?|systems?|"
                r"subnet|network|zone|segment|side|tier)\b", re.IGNORECASE), "Operational"),
    # the shorthand of operators' notes for a class: "ent server", "entp boxes", "usr hosts", "ops machines" (a single
    # "op server" is Op_Server0, a host: _HOST_FORMS are blanked first)
    (re.compile(r"\b(?:ent|entr|entp|enter)\.?[\s-]*(?:hosts?|servers?|srvs?|svrs?|box(?:es)?|machines?|nodes?|systems?|subnet|network|"
                r"zone|segment|side|tier)\b", re.IGNORECASE), "Enterprise"),
    (re.compile(r"\busr[\s-]*(?:hosts?|box(?:es)?|machines?|workstations?|nodes?|systems?|subnet|network|zone|segment|"
                r"side|tier)\b", re.IGNORECASE), "User"),
    # the class's letter, hyphenated to a class noun: "E-hosts", "U-boxes", "the E-host" (a letter with a number is a
    # host: "E2")
    (re.compile(r"\bE-(?:hosts?|servers?|srvs?|box(?:es)?|machines?|nodes?|systems?)\b", re.IGNORECASE), "Enterprise"),
    (re.compile(r"\bU-(?:hosts?|box(?:es)?|machines?|workstations?|nodes?|systems?)\b", re.IGNORECASE), "User"),
    (re.compile(r"\b(?:ops|opr|opl)\.?[\s-]*(?:hosts?|servers|box(?:es)?|machines?|nodes?|systems?|subnet|network|zone|"
                r"segment|side|tier)\b", re.IGNORECASE), "Operational"),
)
# Catalog verbs by the words people use for them (the product's own list; the surrogate keeps another).
_VERB_FORMS: tuple[tuple[str, str], ...] = (
    ("Restore", r"restor\w*|re-?imag\w*|rebuild\w*|rebuilt|wip(?:e|es|ed|ing)\b|re-?install\w*|reset\w*|revert\w*|"
                r"roll(?:s|ed|ing)? (?:it |them )?back|recover\w*"),
    ("Remove", r"remov\w*|evict\w*|kill\w*|purg\w*|kick\w*|terminat\w*|expel\w*|get(?:ting)? rid of|"
               r"clean(?:s|ed|ing)? (?:out|up|off)|throw\w* (?:the attacker )?out"),
    ("Analyse", r"analy[sz](?!ts?\b)\w*|inspect\w*|investigat\w*|examin\w*|check(?!\s?-?lists?\b|points?\b|box(?:es)?\b)\w*|look(?:s|ed|ing)? (?:at|into)|triag\w*|"
                # (r33m) "a Restore, not another look": a look at the host, counted as one more
                r"(?:another|(?:a )?(?:second|2nd)|one more|a closer|a fresh|a further) look\b(?! (?:at|into))"),
    ("Decoy", r"decoy\w*|honey-?pot\w*|lure\w*|bait\w*"),
    ("Monitor", r"monitor\w*|watch(?!\s?-?lists?\b)\w*|observ\w*"),
    ("Sleep", r"sleep\w*|do nothing|sit tight|stand(?:s|ing)? by|wait(?:s|ing)?\b(?! (?:for|on|until|till)\b)"),
)
_VERB = re.compile("|".join(f"(?P<{name}>\\b(?:{pattern}))" for name, pattern in _VERB_FORMS), re.IGNORECASE)
_DECOY_NAMES = frozenset(f"decoy{service.lower()}" for service in DECOY_SERVICES)
_SERVICE = re.compile(r"(apache|femitter|haraka\w*|smss|ssh\w*|svchost|tomcat|vsftpd)", re.IGNORECASE)
# A warning against a move, "you'll regret ...", "we would surely regret ...": the move after it is forbidden.
_WARNED_AGAINST = (r"(?:you|we|i)(?:['\u2019]ll|['\u2019]d|\s+will|\s+would|\s+are\s+going\s+to)\s+"
                  r"(?:surely\s+|only\s+|soon\s+)?regret")
# (r44x) A situation said to be no case for a move: "(this is) not the time for a Remove", "no case for Restore", "not a
# job for an Analyse", "(it) is not one to restore": a verdict against that move there, a prohibition of it (after "is"
# as well: no condition, "if it is not restored", but the verdict's own verb; read as none, the move was an order).
_NOT_A_CASE_FOR = (r"(?:not|no|never)\s+(?:(?:the|a|an|one)\s+)?(?:(?:right|good|proper|usual|ideal)\s+)?"
                   r"(?:time|moment|case|job|place|occasion|situation|stage|spot|one|host|box|machine|server)\s+(?:for|to)\b")
# Words that, standing before a verb, forbid it.
_FORBID = (_NOT_A_CASE_FOR + "|" + r"never(?:\s+ever)?|do\s+not|don'?t|does\s+not|doesn'?t|must\s+not|mustn'?t|should\s+not|shouldn'?t|"
           # a prohibition said politely: "I'd rather we didn't restore ...", "we would prefer you did not ..."
           r"(?:rather|prefer)\s+(?:(?:that\s+)?(?:we|you|they|people|nobody)\s+)?(?:not|didn'?t|did\s+not|wouldn'?t|would\s+not)|"
           r"cannot|can'?t|may\s+not|avoid|stop|refrain\s+from|no\s+need\s+to|quit|cease|hold\s+off(?:\s+on)?|skip|"
           r"under\s+no\s+circumstances|in\s+no\s+case|hold\s+back\s+(?:on|from)|"
           r"no\s+(?:point|use|sense)(?:\s+in)?|(?:pointless|useless|futile|counterproductive|wrong|a\s+mistake|"
           r"a\s+waste(?:\s+of\s+\w+)?)\s+to|not|no\s+more|"
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
_FORBIDDEN_VERB = re.compile(rf"\b(?:{_FORBID})\b{_FORBID_FILLER}\s+(?={_VERB.pattern})", re.IGNORECASE)
# After a verb, words that forbid it: "restoring User1 is pointless", "Restore is not the answer for User1", "Remove must
# not be used on Op_Server0" (present tense: "restoring User1 was pointless" tells what happened).
# (r46m: and a note's "=" for "is": "Restore = waste of a step")
_BAD_IDEA = re.compile(r"(?:(?:is|are|'s|would\s+be|(?<=\s)=)\s+(?:(?:just|simply|always|usually|often)\s+)?(?:a\s+)?(?:pointless|useless|"
                       r"futile|wasteful|waste(?:\s+of\s+\w+)?|wasted|overkill|needless|unnecessary|redundant|"
                       # a verb judged out of its time or measure: "a Remove is premature", "Restore is too drastic there"
                       r"premature|too\s+(?:early|soon|hasty|rash|drastic|heavy|aggressive|much)|hasty|rash|excessive|"
                       r"bad\s+(?:idea|move|call|choice)|not\s+worth\s+(?:it|\w+)|no\s+use|off\s+the\s+table|not\s+an\s+option|counterproductive|mistake|"
                       r"forbidden|not\s+allowed|banned|off[- ]limits|"
                       # a verb judged out of place: "Sleep is never the right move", "is not an acceptable answer", "is never OK"
                       r"(?:not|never)\s+(?:(?:a|an|the)\s+)?(?:right|correct|proper|appropriate|acceptable|good|best|wise|safe|smart)"
                       r"(?:\s+(?:answer|fix|solution|way|move|call|choice|option|response|play|action|thing(?:\s+to\s+do)?))?|"
                       r"(?:not|never)\s+(?:the|a|an)\s+(?:answer|fix|solution|way|move|call|choice|option|response|play)|"
                       r"(?:not|never)\s+(?:ok|okay|fine|allowed|permitted|justified|warranted)|unacceptable|"
                       r"not\s+enough|never\s+enough|insufficient|"
                       r"the\s+wrong\s+(?:move|call|answer|choice))|(?:must|should|may|is\s+to|are\s+to)\s*(?:not|never|n't)\s+"
                       r"be\s+(?:used|applied|chosen|run|an\s+option))\b", re.IGNORECASE)
# A verb named as the limit or the answer: "Remove is as far as we go there", "a Remove is all we need", "Restore is the
# right call", "a Monitor is usually sufficient there" (an order of that verb).
_AS_FAR = re.compile(r"^\s*(?:(?:a|an|the)\s+)?(?:" + "|".join(pattern for _, pattern in _VERB_FORMS) + r")\s+(?:(?:on|of|for|there|it|\w+\d)\s+){0,2}"
                     r"(?:(?:is|are|'s)\s+(?:as\s+far\s+as\s+(?:we|you|i|they)\s+go|the\s+(?:most|furthest|limit|answer|way\s+to\s+go|"
                     r"right\s+(?:call|move|answer))|all\s+(?:we|you|i)\s+(?:do|need|want)|"
                     # (r37m) "an Analyse is generally the better opening move (than a Restore)": the move preferred
                     r"(?:(?:usually|often|always|generally|probably|normally|clearly)\s+)?the\s+(?:better|best|preferred|smarter|"
                     r"safer|wiser)\s+(?:first\s+|opening\s+)?(?:move|call|choice|option|answer|response|play)|"
                     r"(?:(?:usually|always|often|quite|more\s+than)\s+)?(?:enough|sufficient|plenty)|"
                     # a move allowed: "Sleep is fine", "a Monitor is OK there" (a "do" of it)
                     r"(?:(?:perfectly|totally|quite|just)\s+)?(?:fine|ok|okay|acceptable|alright|all\s+right|allowed|permitted))|"
                     # ("a Remove will do for that", "a Remove does the job there")
                     r"(?:will|would|should|can)\s+(?:do|suffice)|suffices|does\s+the\s+(?:job|trick))\b", re.IGNORECASE)
# (r37m) A move named with no more to it, as a case's whole order ("-> the Remove alone", "just the Analyse", "a Restore
# and nothing else"): an order of that move (read as no order, the case was dropped from the note as a remark)
_VERB_ALONE = re.compile(r"^\s*(?:(?:just|only|simply)\s+)?(?:(?:a|an|the)\s+)?(?:" + "|".join(pattern for _, pattern in _VERB_FORMS)
                         + r")(?:\s+(?:alone|only|and\s+nothing\s+(?:else|more)))?\s*[.!]?\s*$", re.IGNORECASE)
# A scope said before a verb named as enough, with no comma between them (r32m: "on Op_Host1 with a user foothold a Remove
# will do"; without the comma the lead was not seen, and the text gave no order).
_UNMARKED_SCOPE = re.compile(r"^(?:for|on|with|at|in)\s+[^,:;]{3,80}?\s+(?=(?:a|an|the)\s+(?:" +
                             "|".join(pattern for _, pattern in _VERB_FORMS) + r")\b)", re.IGNORECASE)
# The prohibition words that start an order (a bare "not" or "without" inside a condition does not).
_ORDER_FORBID = (r"never(?:\s+ever)?|do\s+not|don'?t|must\s+not|mustn'?t|should\s+not|shouldn'?t|avoid|stop|"
                 r"refrain\s+from|no\s+need\s+to|quit|cease|hold\s+off")
# "X rather than / instead of / in preference to / over / not / before Y": Y is what the text disprefers.
# ("not sure the Analyse helped", "not certain a Restore would hold": a doubt about a move, no dispreference of it)
# ("restore it at once, without waiting on an Analyse": the verb waited on is the one put off)
_DISPREFER = re.compile(r"\b(?:rather\s+than|instead\s+of|in\s+preference\s+to|in\s+place\s+of|over|and\s+not|but\s+not|"
                        r"without\s+(?:first\s+)?waiting\s+(?:on|for)|"
                        r"not(?!\s+(?:sure|certain|confident|convinced)\b)|(?:swap(?:ping)?|replac(?:e|ing)|trad(?:e|ing))(?=[^.;]{0,60}?\b(?:for|with|by)\b)|switch(?:ing)?\s+(?:\w+\s+)?from|"
                        # (r33h) "I'd rather Restore User3 than Analyse it": the move after "than", said with what it
                        # is done to, is the one put aside ("rather restore it than watch" leaves the watching unread)
                        r"(?:would|(?<=['\u2019])d)\s+(?:much\s+|far\s+)?(?:rather|sooner)\s+(?:[\w-]+\s+){1,4}?than(?=\s+\w+\s+(?:it|them|that\s+host|\w+\d)\b))\s+"
                        # ("instead of reaching for a Restore", "rather than jumping straight to a Remove": the move reached for)
                        # (r42m: "instead of guessing with a Remove", "rather than gambling on a Restore": the move tried)
                        r"(?:(?:reach(?:ing)?|go(?:ing)?|opt(?:ing)?|jump(?:ing)?|rush(?:ing)?|head(?:ing)?)\s+(?:straight\s+)?(?:for|to|into)\s+|"
                        r"(?:guess(?:ing)?|gambl(?:e|ing)|bet(?:ting)?|settl(?:e|ing)|lead(?:ing)?|open(?:ing)?|start(?:ing)?)\s+(?:with|on|for)\s+)?"
                        r"(?:\w+\s+){0,2}?(?=(?:" + _VERB.pattern + r"))", re.IGNORECASE)
# "... as a last resort", "fall back to Restore", "restore only if that fails": the verb so named is dispreferred.
_VERB_WORD = r"\b(?:" + "|".join(pattern for _, pattern in _VERB_FORMS) + ")"  # _VERB without its groups
# (r41m, r41h) A move said to fail at what the order is for, "a Remove won't clear root", "Restore alone does not fix it",
# "Remove doesn't help on it": the order's other move, dispreferred (not forbidden: it is said to fall short, not to be
# wrong). Said after "if" / "when" ("if a Remove doesn't clear it, restore"), it is the condition of a fallback and no
# dispreference (_fails_in_condition). (r47h: or "won't do", "will not suffice", "won't cut it", the clause ending there)
_FALLS_SHORT = re.compile(r"(?P<verb>" + _VERB_WORD + r")\w*(?:\s+(?:(?:on|of|for)\s+(?:it|them|\w+\d)|there|here|it|\w+\d|alone|"
                          r"by\s+itself)){0,2}\s+(?:does\s+not|doesn['\u2019]?t|will\s+not|won['\u2019]?t|would\s+not|wouldn['\u2019]?t|"
                          r"cannot|can\s+not|can['\u2019]?t)\s+(?:(?:really|actually|fully|reliably|ever)\s+)?"
                          r"(?:clear|fix|cure|undo|dislodge|evict|get\s+rid\s+of|help|work|solve|shift|stick|hold|"
                          r"do\s+(?:it|the\s+job|the\s+trick|much|anything)|suffice|cut\s+it|"
                          # (r47h) "a plain Restore will not do.", "Remove won't do here": "do" ending its clause is "do the job"
                          # (r48b) or before where it falls short, "won't do on User1 at root", "won't do while it is rooted"
                          r"do(?=\s*(?:[.;:,!)\u2013\u2014-]|$)|\s+(?:(?:on|for|at|with|in|here|there)\s|(?:when|whenever|while|once|if|as\s+long\s+as)\b)))\b",
                          re.IGNORECASE)
# (r46h) A move said to cost too much, as its clause's subject: "Restore costs a lot", "a Restore is expensive", "Restores
# are too costly": the move the text puts aside for a cheaper one (not "..., but worth it": a cost the order accepts).
# (one vocabulary of cost for `_COSTLY`, a move said to cost, and `_COST_SAID`, its omission said to: r46h, r46b)
_COST_DEGREE = r"(?:(?:very|really|quite|so|too|far\s+too|way\s+too|rather|pretty)\s+)?"
_COST_WORDS = r"expensive|costly|pricey"
_COSTLY = re.compile(r"(?P<verb>" + _VERB_WORD + r")\w*(?:\s+(?:of|on|for)\s+(?:it|them|\w+\d))?\s+(?:is|are|'s|costs?)\s+"
                     + _COST_DEGREE + r"(?:" + _COST_WORDS + r"|"
                     r"a\s+lot(?!\s+(?:less|more)\b)|(?:too\s+)?much(?!\s+(?:less|more)\b)|a\s+fortune)\b(?!\s*,?\s*but\b)", re.IGNORECASE)
# What a move that is put off is said to do: "(of it) can wait", "should just wait" (read by _LAST_RESORT in the order,
# by _CAN_WAIT in a clause of its own).
_WAITS = r"\s+(?:(?:of|on|for)\s+(?:it|them|\w+\d)\s+)?(?:can|could|may|will|should|must)\s+(?:just\s+|safely\s+|easily\s+)?wait\b"
_LAST_RESORT = re.compile(r"(?:\b(?:fall(?:ing)?\s+back\s+(?:on|to)|resort(?:ing)?\s+to)\s+(?:\w+\s+){0,1}?(?=" + _VERB_WORD + r"))|"
                          r"(?:" + _VERB_WORD + r")(?=[^.;:,]{0,40}?\b(?:(?:only\s+)?as\s+a\s+last\s+resort|only\s+(?:if|when)\s+"
                          r"(?:that|this|it|the\s+\w+)\s+(?:fails|failed|does\s+not\s+work|doesn't\s+work)|(?:is|as)\s+(?:the|a|our|your)\s+"
                          r"(?:fallback|fall-back|backup|back-up|plan\s+b|second\s+choice)))|"
                          # (r33h) "the Restore can wait; Remove User4 first": the move that can wait is put off
                          r"(?:" + _VERB_WORD + r")(?=" + _WAITS + r")|"
                          # (r41h) "a Restore suits it, a Remove won't shift the attacker": a move that falls short, said as
                          # its clause's subject (its "n't" was read as a doubt of the order beside it)
                          r"(?:^|(?<=[,;:]\s)|(?<=\band\s)|(?<=\bbut\s))(?:(?:a|an|the)\s+)?(?=" + _FALLS_SHORT.pattern + r")",
                          re.IGNORECASE)
# (r41m) "a Remove of Op_Host2 can wait": the move put off (as _LAST_RESORT reads it in the order), in a clause of
# its own after the order
_CAN_WAIT = re.compile(r"(?P<verb>" + _VERB_WORD + r")\w*" + _WAITS, re.IGNORECASE)
# (r42m) A move the text asks what good it would do, "What would one more Restore fix?", "Why spend a second Restore
# on it?": a question that expects "nothing" puts the move aside (not "why not ...", "what about ...", which propose it).
_QUESTIONED = re.compile(r"\b(?:what\s+(?:would|will|could|can|does|did)(?!\s+(?:about|if)\b)|why\s+(?:would|should|spend|waste|"
                         r"bother|pay\s+for)(?!\s+not\b))\b[^?.;!]{0,40}?\b(?:another|one\s+more|a\s+second|yet\s+another|"
                         r"a|an|the)\s+(?P<verb>" + _VERB_WORD + r")\w*\b[^?.;!]{0,60}\?", re.IGNORECASE)
# A move put second after one done first is put off, as "the Remove can wait" puts it off: "we Analyse that server
# first, before any Restore" (r34h), "schedule Op_Host1's Restore first, and the Analyse afterwards" (r34m). A plan's
# "first X, then Y" orders both and says no "before" / "after it"; "after it is exploited" is a condition.
_PUT_SECOND = re.compile(r"\bfirst\b(?:[^.;:]{0,40}?\bbefore\s+(?:(?:any|a|an|the|doing\s+(?:a|an|any))\s+)(?P<before>" + _VERB_WORD + r")"
                         r"|[^.;:]*?(?:\band|,)\s+(?:then\s+)?(?:(?:any|the|all|its|an?)\s+)?(?P<after>" + _VERB_WORD + r")\w*"
                         r"(?:\s+(?:of|on|for)\s+(?:it|them|\w+\d))?\s+(?:after|afterwards)(?:\s+(?:it|that|this|them))?\b"
                         r"(?!\s+(?:is|are|was|were|gets?|got|has|have|shows?)\b))", re.IGNORECASE)


def verbs_put_after(instruction: str) -> set[str]:
    """(r45m) The catalog verbs an order puts after its first move with "after" / "afterwards" ("plan a Remove of it
    first and an Analyse on it later"): the plan's second move, which an action may give in its `then`."""
    return {v for m in _PUT_SECOND.finditer(instruction) if m["after"] for v in verbs_in(m["after"])}


# "Remove is better than Restore", "Restore is worse than Remove": (preferred, dispreferred) verbs around a comparison.
# ("a DecoyHarakaSMTP on Op_Server0 is the better use of the step than watching": what the move is on, and what it is
# better as, may stand between)
_COMPARED = re.compile(r"(?P<first>" + _VERB_WORD + r")\s+(?:(?:on|of|for|to|against)\s+(?:the\s+)?[\w-]+\s+)?"
                       r"(?:is|are|works?|does|'s|would\s+be|will\s+be)\s+(?:\w+\s+){0,2}?"
                       r"(?P<how>better|worse|safer|riskier|cheaper|costlier)\s+(?:(?:first|opening)\s+)?(?:(?:use|way|move|call|choice|option|bet|spend)\s+"
                       r"(?:of\s+(?:the|a|our|your)\s+(?:step|turn|move|action|time)\s+)?)?than\s+(?:\w+\s+)?(?P<second>"
                       + _VERB_WORD + r")", re.IGNORECASE)
# "a DecoyTomcat beats a Monitor", "Remove trumps Restore there", "Analyse is preferable to Restore": the second verb is
# dispreferred (a comparison in another verb than "better than", _COMPARED).
# (r40h, r40m: what the move is on may be said at length, "an Analyse on any probed enterprise box with nothing worse
# on it beats a Restore": one word there was all it read, and the rule was left semantic, its dispute unseen)
_BEATS = re.compile(r"(?P<first>" + _VERB_WORD + r")\s+(?:(?:on|of|for|to|against)\s+(?:the\s+)?[\w-]+\s+(?:[^.;:,!?]{0,80}?\s)?)?"
                    r"(?:(?:always|still|easily|clearly)\s+)?"
                    r"(?:beats|trumps|outranks|wins\s+over|(?:is|are)\s+(?:preferable|preferred)\s+(?:to|over))\s+"
                    r"(?:(?:a|an|the|any)\s+)?(?P<second>" + _VERB_WORD + r")", re.IGNORECASE)
# Before a host: what the text contrasts it with ("restore Op_Server0 before Enterprise2", "decoy User2, not User3").
_CONTRAST = re.compile(r"(?:\b(?:rather\s+than|instead\s+of|in\s+preference\s+to|in\s+place\s+of|over|before|ahead\s+of|"
                       r"and\s+not|but\s+not|not|never)|,\s*not)\s+(?:(?:on|to|for|at|with|from)\s+)?(?:the\s+)?", re.IGNORECASE)
# After a contrasted host, words that make it a condition ("before Enterprise2 gets exploited"), not a contrast.
_STATED_AFTER = re.compile(r"^\s*(?:is|are|was|were|gets?|got|shows?|showed|becomes?|became|has|have|had|does|did|turns?|"
                           r"goes|falls|ends\s+up|starts?|stays?|remains?|can|could|will|would|may|might)\b", re.IGNORECASE)
# A prohibition that names no verb: every verb on what follows it is forbidden.
_ANY_VERB = re.compile(
    r"\b(?!\w*ed\b)(?:spend|waste|use|burn)\w*\s+(?:no|zero|nothing|not\s+(?:a\s+single|any|one))\s+(?:more\s+)?(?:actions?|time|"
    r"steps?|turns?|effort|moves?)?\s*(?:at\s+all\s+)?on\b|"
    r"\b(?:never|do\s+not|don'?t|stop|avoid|no\s+need\s+to)\s+(?:\w+\s+)?(?:touch\w*|bother\w*(?:\s+with)?|"
    r"(?:waste|spend|use|burn)\w*\s+(?:\w+\s+){0,2}?(?:actions?|time|steps?|turns?|effort|moves?)\s+(?:at\s+all\s+)?on|"
    r"act\w*\s+on|do\s+anything\s+(?:to|on|with|about)|interfere\w*\s+with|mess\w*\s+with)\b|"
    r"\bleave\b(?=[^.;:]*\b(?:alone|be)\b)|\bhands\s+off\b|\bno\s+actions?\s+(?:at\s+all\s+)?on\b|\bignore\b|"
    r"\b(?:keep|stay)\s+(?:off|away\s+from|clear\s+of|out\s+of)\b|\bsteer\s+clear\s+of\b|\boff[- ]limits\b|"
    # a role's own order of nothing: "plan nothing (at all) for the user hosts", "recommend nothing on User2" (told in the
    # past, "I planned nothing for it", "we wasted no time on User2", it is a report)
    r"\b(?!\w*ed\b)(?:plan|schedule|queue|recommend|propose|prescribe)\w*\s+nothing\s+(?:(?:at\s+all|more|else|whatsoever)\s+)?"
    r"(?:for|on|to|against|about)\b",
    re.IGNORECASE)
# What negates or restricts a condition (the issue's list, and the words of absence).
_NEGATION = re.compile(r"\b(?:no|not|none|nothing|nobody|never|without|unless|until|except|neither|nor|no\s+longer|"
                       r"rather\s+than|yet|only)\b|n['\u2019]t\b|\bun(?:compromised|exploited|touched|scanned|infected|breached)\b|"
                       r"\b(?:clean|quiet|idle|calm|untouched)\b", re.IGNORECASE)
# The gloss in brackets after "newly <state>" that says what "newly" says ("newly owned (clean at the previous step)")
NEWLY_GLOSS = (r"\s*\(\s*(?:it\s+was\s+|was\s+)?(?:clean|quiet|uncompromised|not\s+compromised)\s+(?:at|on|in|for)\s+the\s+"
               r"(?:previous|prior|last)\s+(?:step|turn)\s*\)")
# (r48c) A host's state said right after its name with no verb, as notes write it: "User2 owned", "Op_Host0 rooted",
# "User1 at Privileged", "E2 still compromised"
BARE_STATE = (r"(?:(?:still|now|currently)\s+)?(?:owned|rooted|pwned|popped|hacked|hit|compromised|exploited|breached|infected|"
              r"scanned|probed|taken(?:\s+over)?|under\s+(?:attack|exploit|scan)|at\s+(?:user|privileged|root|admin|unknown)\w*)\b")
_NOT_A_RESTRICTION = re.compile(r"\bonly\s+(?:when|if|while|once|after|as\s+long\s+as|as\s+soon\s+as|in\s+case|then)\b|"
                                # "(only) Unknown and no confirmed compromise": what Unknown is, said again (condition.spelled_out)
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
                                # a judgement on a verb ("there is nothing to gain from watching"), not an absence
                                r"\bnothing\s+to\s+(?:gain|win|learn)\b|\bno\s+(?:point|use|sense|benefit|value)\s+in\b|"
                                # (r39m) a lower bound on a count, "no fewer than 4 op machines", "not less than 2": "at least"
                                r"\b(?:no|not)\s+(?:fewer|less)\s+than\s+(?=(?:one|two|three|four|five|[1-5])\b)|"
                                # (r39m) and a level bounded by the lowest, "no worse than user level": at user level
                                r"\b(?:no|not)\s+(?:worse|higher|deeper|further|more)\s+than\s+(?:at\s+)?(?:the\s+)?(?=user[\s-]level\b)|"
                                r"\bnot\s+only\b|\bif\s+not\s+already\b|\bnot\s+(?:sure|certain|clear\s+(?:whether|if|what|which|how))\b|(?:do\s+not|don'?t)\s+know\b|"
                                # "only for User3", "and only Op_Server0": the rule's scope, said twice
                                r"\bonly\s+(?:for\s+|on\s+|about\s+|to\s+)?(?:the\s+)?(?:(?:user|enterprise|op[\s_]?(?:host|server))[\s_-]?\d|"
                                r"defender|user\s+hosts?|enterprise\s+hosts?|op\w*\s+hosts?)\b"
                                # ("when only user hosts are compromised" restricts the situation: no other host is)
                                r"(?!\s+(?:is|are|was|were|shows?|showed|gets?|got|has|have|remains?|stays?)\b)"
                                # (r48c) nor "only User2 owned", "only Op_Host0 rooted", "only User1 at Privileged": a note's
                                # state without its verb, the same restriction (no other host in that state)
                                r"(?!\s+" + BARE_STATE + r")|"
                                # "for Enterprise2 only", "applies to User1 only": the same, said after
                                r"\b(?:(?:user|enterprise|op[\s_]?(?:host|server))[\s_-]?\d|defender|hosts?)\s+only\b|"
                                # "while they merely read User", "only at User": the user level by its bare name after a
                                # verb that reads the table (r31m; no host "User2", no "user hosts": those restrict scope)
                                r"\b(?:only|just|merely|solely)\s+(?:(?:reads?|reading|shows?|showing|sits?|sitting)\s+(?:at\s+)?|at\s+)"
                                r"user\b(?![\s_-]*(?:\d|hosts?\b|box\w*|machines?\b|subnet\b|one\b|level\b|[- ]compromised\b))|"
                                # "until the box no longer shows root", "until the host stops showing a scan": "until not X" is
                                # "while X", no absence (r31m)
                                r"\buntil\s+(?:it|they|the\s+(?:host|box|machine|server)|[\w]+\d|defender)\s+"
                                r"(?:no\s+longer|stops?\s+(?=reading|showing))\b|"
                                # "newly owned (clean at the previous step)": the gloss of "newly" (NEWLY_GLOSS)
                                r"(?<=\bnewly\s)[\w-]+" + NEWLY_GLOSS, re.IGNORECASE)
# What a condition of absence is about: "absent any exploitation", "barring a real compromise", "without root access".
# (r42m: not "without waiting for root", "without delaying until it is compromised": how to act, at once, no state lacked)
_ABSENT_WHAT = (r"(?!\s+(?:first\s+)?(?:wait\w*|delay\w*|hesitat\w*|holding\s+out|hanging\s+on)\b)"
                r"(?=\s+(?:[\w-]+\s+){0,3}?(?:exploit\w*|compromis\w*|access|root|privilege\w*|admin\w*|scan\w*|activity|"
                r"signs?|evidence|breach\w*|intrusion|foothold|alerts?|attack\w*|escalation|infection)\b)")
# Prepositions of absence, written as the one the reader knows ("without"): "do not restore Op_Host1 absent any
# exploitation", "in the absence of a compromise", "barring an exploit", "short of privileged access", "failing /
# lacking / pending a confirmed compromise". Only before what a host shows: "barring User0" is an exception.
_ABSENCE = re.compile(r"\b(?:in\s+the\s+(?:absence|lack)\s+of|absent|barring|short\s+of|failing|lacking|pending)\b"
                      + _ABSENT_WHAT, re.IGNORECASE)


_PAST_EPISODE = (r"\s+(?:one|a|an|that|some|another|my|our|(?:an|the|my|our)\s+(?:earlier|previous|past|last|old))\s+"
                 r"(?:[\w-]+\s+)?(?:seed|episode|run|game|match)\b")
# (r41m: "once more than three hosts are held" is a condition, its "more" the count's; "once more" alone is "again")
# The defender's own move, just made and told in the past ("we removed", "you had restored"): what a history
# condition on the defender's moves reads, as a condition marker (r42m) and as an order's leading clause (r42h).
# (r44h: or in the present, as a habit is said, "just after you reimage User3, ...": the same condition on the
# defender's last move; left unread, the clause was lost and the rule held at any step its state did)
_DEFENDER_MOVED = (r"(?:we|you|i|the\s+defender)\s+(?:have\s+|had\s+|just\s+)*(?:(?:remov|restor|re-?imag|analy[sz])\w*ed|"
                   r"(?:remove|restore|re-?image|analy[sz]e)s?)\b")
_CONDITION_MARKER = (r"whenever|when|if(?!\s+(?:that|this|it)\s+is\s+(?:alright|all\s+right|ok|okay|fine|possible|acceptable)\b)|"
                     r"while|(?<!at\s)once(?!\s+(?:more(?!\s+than\b)|again)\b)|(?:the\s+)?next\s+time(?=\s+(?:a|an|the|any|some|it|that|this|we|you|they|there|user|enterprise|op|\w+\d)\b)|at\s+the\s+(?:start|beginning|end)\s+of|"
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
                     r"(?<![\w-]\s)(?:(?:right|just|immediately|directly)\s+)?(?:after|following)(?=\s+(?:" + _DEFENDER_MOVED + r"|"
                     r"(?:a|an|the|our|my|your)\s+(?:own\s+)?"
                     r"(?:remove|restore|re-?image|analy[sz]e|analysis)\s+(?:of|on)\s+(?:it|\w+\d|defender)\b))|"
                     # (r46m: not "during that step", the step the order is for, said again)
                     # (r46m: nor "as long as it remains so", the condition before it said again)
                     r"as\s+soon\s+as|(?:as|so)\s+long\s+as(?!\s+(?:it|they|that|this)\s+(?:stays?|remains?)(?:\s+(?:that\s+way|so|"
                     r"like\s+that|the\s+same|as\s+(?:it|they)\s+(?:is|are)))?\s*(?:[.;,!]|$))|unless|until|during(?!\s+(?:that|this|the\s+same)\s+(?:same\s+)?(?:step|turn)\b)|"
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
                     r"(?<![\w-]\s)without" + _ABSENT_WHAT + "|"
                     # (r45m) a situation opened by "with" and a state, then a comma: "with mere probes and no box owned
                     # yet, plant a decoy", "with U3 rooted, restore it" (after a word, "with" is what a host
                     # has or what the order uses: "Restore User1 with priority")
                     # (nor one that goes on to tell what someone did: "With User0 owned I removed it, ...", a story)
                     r"(?<![\w-]\s)with(?=\s+(?:(?!\b(?:i|we|you|they)\b)[^,;.:!?]){0,60}?\b(?:scan\w*|exploit\w*|compromis\w*|owned|rooted|"
                     r"pwned|held|taken|breached|quiet|clean|untouched|privileged|root|unknown|activity|alerts?)\b"
                     r"(?:(?!\b(?:i|we|you|they)\b)[^,;.:!?]){0,30},)")
_CONDITION = re.compile(rf"\b(?:{_CONDITION_MARKER})\b", re.IGNORECASE)
_RELATIVE = re.compile(r"\b(?:(?:user|enterprise|op|operational)[\s-]+)?(?:host|hosts|box|boxes|machine|machines|server|servers|workstation|workstations|one|"
                       # ("with" before a verb is what the order uses: "don't touch Defender with Restore")
                       # ("Restore Op_Server0 that same step": a time, no relative clause)
                       r"User\d|Enterprise\d|Op_Host\d|Op_Server0|Defender)\s+"
                       # ("a host you analyse that is scanned only": the host at hand, then what it is)
                       r"(?:(?:you|we)(?:\s+are|'re)?\s+(?:analy[sz](?:e|ing)|inspect(?:ing)?|examin(?:e|ing)|"
                       r"look(?:ing)?\s+at|check(?:ing)?)\s+(?=that\b|which\b))?(?:that(?!\s+(?:same\s+|very\s+)?(?:step|turn|move|round|"
                       r"time|moment|instant)\b)|which|who|whose|showing|"
                       # ("every user host with the exception of User0": what it excepts, no state of the host)
                       r"with(?!out\b)(?!\s+the\s+(?:sole\s+|one\s+)?exceptions?\s+of\b)(?!\s+(?:a\s+|an\s+)?(?:"
                       + "|".join(pattern for _, pattern in _VERB_FORMS) + r"))|"
                       # ("Op_Host2 without privileged access": what it lacks; "restore User1 at once, without waiting
                       # for an Analyse" says how to act, no state of the host)
                       r"without" + _ABSENT_WHAT + r"|"
                       # "any user host the attacker controls"
                       r"(?=(?:the\s+)?(?:attacker|red|intruder|adversary)\s+(?:(?:merely|only|just|already|has)\s+)?"
                       r"(?:controls?|owns?|holds?|is\s+on|has|probes?|probed|is\s+probing|scans?|scanned|is\s+scanning|exploits?|"
                       r"exploited|is\s+exploiting|compromised|hit|touched)\b))",
                       re.IGNORECASE)
_EXCEPT_WORDS = (r"except(?:\s+(?:for|on))?|other\s+than|apart\s+from|aside\s+from|but\s+not|excluding|save\s+for|besides|"
                 r"with\s+the\s+(?:sole\s+)?exception\s+of|not\s+counting|leaving\s+out|barring")
EXCEPT_WORDS = _EXCEPT_WORDS  # (the words that leave hosts out, for condition.py's readers)
_EXCEPT = re.compile(r"\b(?:hosts?|box(?:es)?|machines?|servers?|workstations?|desktops?|laptops?|nodes?|systems?|subnet|"
                     r"network|everything|everywhere|all|ones)\b[^.;:]*?\b(?:" + _EXCEPT_WORDS + r")\b\s+"
                     r"(?:(?:the|for)\s+)?(?P<what>[\w\s,]+?)(?=[.;:,)]|$|\s+(?:when|if|while|whenever|and\s+(?:restore|"
                     r"remove|analy)))", re.IGNORECASE)
# An exception said on its own: "User0 is the exception", "this does not apply to User0", "except for User0" (a host
# right after it: "except when ..." is a condition), "leave User0 out of it", "exclude User0".
# (a host in a note's shorthand too: "not E0 though", "except U3 and U4", "OpS0 is the exception")
# A host by its full name, in any spacing ("User3", "op host 1", "Op_Server0"): the readers below and condition.py's
HOST_NAME = r"(?:(?:user|enterprise)[\s_-]?\d|op[\s_-]?(?:host|server)[\s_-]?\d|defender)"
# A host in a note's shorthand ("E2", "usr3", "OpS0"): these readers and judged.py's
HOST_SHORT = r"(?:(?:e|ent|u|usr)[_-]?\d|op[_-]?(?:s(?:rv|vr)?|h(?:st)?)[_-]?\d)\b"
_EXCEPTED_HOST_LIST = (r"(?P<what>(?:the\s+)?(?:(?:user|enterprise|op[\s_-]?(?:host|server)|defender)[\s_-]?\d?|" + HOST_SHORT + r")"
              r"(?:\s*(?:,|and|or|nor|/)\s*(?:the\s+)?(?:(?:user|enterprise|op[\s_-]?(?:host|server))[\s_-]?\d|" + HOST_SHORT + r"))*)")
_NOTHING_OF_IT = r"(?:no\s+(?:(?:a|an|the|further|more|other|second)\s+)?(?=" + _VERB_WORD + r")|no\s+part\b|nothing\b|none\b)"
_EXCEPTED_ALONE = tuple(re.compile(pattern, re.IGNORECASE) for pattern in (
    rf"\b(?:{_EXCEPT_WORDS})\s+{_EXCEPTED_HOST_LIST}\b",
    rf"{_EXCEPTED_HOST_LIST}\s+(?:is|are)\s+(?:the\s+|an\s+|one\s+)?(?:(?:only|sole|one)\s+)?(?:exception|excluded|excepted|exempt)\b",
    # "(User0/User4 not covered by this.)", "Op_Host2 is out of scope here"
    rf"{_EXCEPTED_HOST_LIST}\s+(?:(?:is|are)\s+)?(?:not\s+(?:covered|included|concerned|meant)|out\s+of\s+(?:scope|this))\b",
    rf"\b(?:this|that|it|the\s+(?:rule|above|same))(?:\s+(?:rule|order|lesson|advice|one))?\s+(?:does\s+not|doesn't|should\s+not|shouldn't|must\s+not|won't|"
    rf"will\s+not|cannot|can't)\s+(?:\w+\s+)?apply\s+to\s+{_EXCEPTED_HOST_LIST}",
    # (r48h) a host said to get nothing from the rule itself: "User0 gets no Remove from this rule", "Op_Host1 receives
    # nothing from this lesson", "this note gives User0 no Restore" (as "this rule does not apply to User0"; read as a
    # prohibition alone, the rule was held to the class with User0 in it)
    # (r48a: what it gets none of is the rule's move, or nothing at all: "User0 gets no special treatment from this note"
    # says the note holds for it as for the rest)
    rf"{_EXCEPTED_HOST_LIST}\s+(?:gets?|receives?|(?:is|are)\s+given)\s+{_NOTHING_OF_IT}[^.;:]{{0,40}}?\b(?:from|out\s+of|under)\s+"
    rf"(?:this|the\s+(?:above|same))\s+(?:note|rule|lesson|order|advice|tip|list)\b",
    rf"\b(?:this|the\s+(?:above|same))\s+(?:note|rule|lesson|order|advice|tip|list)\s+gives\s+{_EXCEPTED_HOST_LIST}\s+{_NOTHING_OF_IT}",
    rf"\b(?:leave|leaving)\s+{_EXCEPTED_HOST_LIST}\s+out\b",
    rf"\b(?:exclude|excluding|exempt)\s+{_EXCEPTED_HOST_LIST}\b",
    rf"\bnot\s+(?:for|to)\s+{_EXCEPTED_HOST_LIST}\b",
    # (r41h) "not on X" set off after an order on "it" or on a class, "decoy it (not on User0: ...)", "decoy the scanned
    # boxes, not on User0": the host the order leaves out (read as the condition's host, the rule held there alone). Not
    # after a named host: "decoy User2, not on User3" contrasts the order's target.
    rf"\b(?:it|them|there|hosts?|box(?:es)?|machines?|servers?|workstations?|desktops?|nodes?|ones)\s*"
    rf"(?:[(,\u2013\u2014]\s*|\s-\s*)(?:but\s+)?not\s+on\s+{_EXCEPTED_HOST_LIST}\b",
    # "user boxes, not User3 though: ...": a class, then a host denied on its own after a comma
    # ("user hosts (not User3): ...": the same, in brackets)
    rf"\b(?:hosts?|box(?:es)?|machines?|servers?|srvs?|svrs?|workstations?|desktops?|nodes?|ones)\s*\(\s*(?:but\s+)?not\s+{_EXCEPTED_HOST_LIST}\s*\)",
    rf"\b(?:hosts?|box(?:es)?|machines?|servers?|srvs?|svrs?|workstations?|desktops?|nodes?|ones)\s*,\s*(?:but\s+)?not\s+{_EXCEPTED_HOST_LIST}"
    rf"(?:\s+(?:though|tho|mind\s+you))?(?=\s*(?:[:;,.)\u2013\u2014-]|$))",
    rf"\bunless\s+(?:it|that\s+(?:host|machine|box|one)|the\s+(?:host|machine|box))\s+is\s+{_EXCEPTED_HOST_LIST}\b",
    # (r43h, r43m) "but" ("save", "bar") after a word of every host, "every user box but U3 that ...", "all of them but
    # User1", "all but E0": the host left out of the hosts the quantifier spans (left unread, "but" was no exception and
    # the rule fired on it alone)
    rf"\b(?:all|every|each|any)\b(?:\s+of\s+(?:them|those|these)|(?:\s+(?!(?:but|save|bar)\b)[\w-]+){{0,2}})\s*,?\s+(?:but|save|bar)\s+{_EXCEPTED_HOST_LIST}"
    rf"(?=\s*(?:[.;:,)!]|$|\s+(?:that|which|who|where|when|if|while|whenever|once|unless|until|after|as|at)\b))",
    # (r32h; r32m read the same participle on its own, folded here) the host put aside after the order, "..., Enterprise0 excepted", "(User3 excluded)", "with Op_Host2 aside";
    # left unread, the host was read as a condition of the order (that it be compromised too)
    rf"(?:[,(\u2013\u2014]\s*|\s-\s*|\bwith\s+){_EXCEPTED_HOST_LIST}\s+(?:excepted|excluded|exempted|aside|apart)\b",
    # (r38h, r38m) the same participle as a note's sentence of its own after the order, "... plan a Remove. Op server excluded."
    # (or a footnote's, "...a Restore.* * Op_Server0 excepted.", once _footnotes_said has said it as a sentence, r41h, r41m)
    rf"(?:^|(?<=[.!?;]))\s*{_EXCEPTED_HOST_LIST}\s+(?:excepted|excluded|exempted|exempt)\b(?=\s*(?:[.;!,()]|$))",
    # (r32h) a sentence of its own after the order that only denies a host, "Not E1 though (it carries decoys)", "Not
    # User4, mind you."
    rf"(?<=[.!?;])\s*not\s+{_EXCEPTED_HOST_LIST}(?:\s+(?:though|tho|mind\s+you))?(?=\s*(?:[.;!,(]|$))"))
# (r48h) A heading that introduces where the rule does not hold, before a colon and the list of those cases: "Where it
# does not apply: - User1, another teacher covers it; - ...", "Exceptions: User0 and User2", "This note does not apply
# to: User1". Each case of the list that opens with a named host leaves that host out (`_listed_exceptions`); a case that
# is a situation ("a box at root level") is no host excepted.
_EXCEPTIONS_HEADING = re.compile(r"(?:\b(?:where|when|in\s+which\s+cases?)\s+)?\b(?:this|it|the\s+(?:rule|note|order|above))"
                                 r"(?:\s+(?:rule|note|order|lesson|advice))?\s+(?:does\s+not|doesn['\u2019]?t|will\s+not|won['\u2019]?t)\s+"
                                 r"(?:hold|apply)(?:\s+(?:to|for))?\s*:|\b(?:exceptions?|excepted|exempt(?:ed|ions?)?)\s*:",
                                 re.IGNORECASE)
_LISTED_CASE = re.compile(r"\s*(?:[-*\u2022]\s*)?" + _EXCEPTED_HOST_LIST + r"(?=\s*(?:[,;.)(:]|$|\s+(?:which|who|that|is|are|has|have|"
                          r"does|do|gets?|counts?|stays?|as)\b|\s+" + BARE_STATE + r"))", re.IGNORECASE)


_NO_CASES = re.compile(r"\s*(?:none|nothing|no\s+exceptions?|n/?a)\b", re.IGNORECASE)


def _listed_exceptions(flat: str) -> tuple[str, ...]:
    """(r48h) The hosts a list of exceptions under its heading (`_EXCEPTIONS_HEADING`) names, each as a case of its own."""
    found = []
    for heading in _EXCEPTIONS_HEADING.finditer(flat):
        listed = flat[heading.end():]
        if _NO_CASES.match(listed):
            continue  # (r48a) "Exceptions: none.": no host left out (its next sentence is none of the list)
        # the cases: up to the end of the text, one by ";" or by a dash that opens an item
        for case in re.split(r";|\s[-*\u2022]\s", listed):
            named = _LISTED_CASE.match(case)
            if named and not _listed_state(case):
                found += hosts_in(named["what"])
    return tuple(found)


def _listed_state(case: str) -> str:
    """(r48b) A case of a list of exceptions that states a host's state, "- User2 is rooted at the same time", "- User3
    shows an exploit": the rule does not hold while it holds (the negated condition "unless <case>"); no host left out
    (read as User2 excepted, the rule fired on its own host while User2 was rooted). "" for a case that states none."""
    named = _LISTED_CASE.match(case)
    rest = case[named.end():] if named else ""
    # (r48c: or its state with no verb, "Exception: User1 owned.", "- Enterprise1 rooted": the same case, `BARE_STATE`)
    said = re.match(r"\s*(?P<said>(?:(?:is|are|has|have|gets?|shows?|reads?|sits?|stays?)\b|(?=" + BARE_STATE + r"))[^.;:]*)", rest,
                    re.IGNORECASE)
    return f"unless {named['what'].strip()} {said['said'].strip()}" if said and states_something(said["said"]) else ""


# (r48b) The same said in a sentence of its own, "This does not hold while User2 is rooted.", "The rule won't apply when
# Op_Host1 shows an exploit": the state after the marker is where the rule does not hold (read as a condition left out,
# a compiled predicate without it passed)
_NOT_HOLDING_WHILE = re.compile(r"\b(?:this|it|the\s+(?:rule|note|order|above))(?:\s+(?:rule|note|order|lesson|advice))?\s+"
                                r"(?:does\s+not|doesn['\u2019]?t|will\s+not|won['\u2019]?t)\s+(?:hold|apply)\s+"
                                r"(?:while|when|whenever|if|as\s+long\s+as)\s+(?P<state>[^.;:!?]+)", re.IGNORECASE)


def _listed_states(flat: str) -> tuple[str, ...]:
    """(r48b) The negated conditions a list of exceptions states (`_listed_state`), each "unless <case>", and those a
    sentence says the rule does not hold in (`_NOT_HOLDING_WHILE`)."""
    return tuple(found for heading in _EXCEPTIONS_HEADING.finditer(flat) if not _NO_CASES.match(flat[heading.end():])
                 for case in re.split(r";|\s[-*\u2022]\s", flat[heading.end():]) if (found := _listed_state(case))) \
        + tuple(f"unless {m['state'].strip()}" for m in _NOT_HOLDING_WHILE.finditer(flat)
                if (hosts_in(m["state"]) or classes_in(m["state"])) and states_something(m["state"]))


# "since" that gives a reason ("since a Restore costs a step"), not one that says from when ("since step 4", "since
# episode 12", "since it was owned"): the reason openers of both readers of a rule, this one and compile.strip_justification
SINCE_AS_REASON = r"since(?!\s+(?:before|then|earlier|the\s+(?:last|previous|prior|start|beginning|first)|step|last|it\s+(?:was|got|became)|episode|turn|round|run|game|seed|version|yesterday|today|\d))"
_JUSTIFICATION = re.compile(
    r"\s*(?:[,;:(\u2013\u2014-]\s*)?\b(?:(?<!just\s)(?<!only\s)(?<!merely\s)(?<!simply\s)(?<!solely\s)because|" + SINCE_AS_REASON + r"|as\s+otherwise|so\s+that|in\s+order\s+to|otherwise(?!\s*,?\s*(?:if|when|whenever|once)\b)|given\s+that|"
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
_EXPLANATION_LEAD = re.compile(r"^(?:it|it's|its|they|they're|this|that|that's|there|the\s+attacker|red|these|those|"
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
_STORY = re.compile(
    # what the author did ("I restored User0", "we waited", "my plan at turn 9 asked for ..."), or when ("last time")
    rf"\b(?:i|we|my|our)\s+(?:\w+\s+)?(?:(?:at|on|in|during|around)\s+(?:step|turn)\s+\d+\s*,?\s+)?(?:\w+ed|{_PAST})\b|"
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
# A light verb that carries the move as its noun: "run an Analyse of User2", "carry out a Remove on it", "do a Restore".
_LIGHT_VERB = r"(?:run|do|perform|carry\s+out|launch|issue|execute)\s+(?:an?|the|one)\s+"
# (r47m) the move said as what the plan (or the reply) holds, after a modal: "every plan must include a DecoyTomcat on ...",
# "your answer should contain a Remove of User2" (the order of that move; read as none, a later clause was the order and
# the whole of this one its condition)
# (r47a: not "hold": "we must hold the Restore of Op_Host1 while ..." keeps the move back, the opposite of an order of it)
_HOLDING_VERB = r"(?:include|contain|carry|feature)\s+(?:an?|the|one)\s+"
# what follows a verb of opening or closing when its object is the reply ("every report with", "the plan with")
_OPENS_REPLY_WITH = (r"\s+(?:(?:each|every|all|any|the|your|my|our|its|their)\s+)?(?:[\w-]+\s+){0,2}?(?:reports?|repl(?:y|ies)|"
                     r"answers?|analys[ie]s|plans?|messages?|responses?|recommendations?|summar(?:y|ies)|outputs?|notes?)\s+with\b")
_OPENING_VERB = r"(?:start|begin|end|open|close|finish|conclude|preface|prefix)"
# an order on how the reply opens or closes ("Start every report with the risk level in capitals")
# (r48m: or said of the reply itself, "analysis opens with the host name", "each report should end with the risk")
OPENS_REPLY = re.compile(rf"\b{_OPENING_VERB}{_OPENS_REPLY_WITH}|"
                         r"\b(?:reports?|repl(?:y|ies)|answers?|analys[ie]s|plans?|messages?|responses?|recommendations?|"
                         r"summar(?:y|ies)|outputs?)\s+(?:(?:always|should|must|shall|will|has\s+to|needs\s+to)\s+)?"
                         rf"{_OPENING_VERB}(?:s|es)?\s+(?:with\b|w/)", re.IGNORECASE)
# the nouns a count of hosts is said with ("one host", "a single user box")
_COUNTED_NOUN = r"(?:hosts?|box(?:es)?|machines?|servers?|s(?:e)?rvs?|svrs?|workstations?|nodes?|systems?)\b"
# the states a count of hosts is said with where no noun follows it ("only one owned", "just one is compromised")
_COUNTED_STATE = r"(?:compromised|owned|exploited|rooted|hit|scanned|infected|breached|hacked|pwned|popped)\b"
_IMPERATIVE_START = re.compile(
    # ("First step, no alerts, and I ...": a time, not "first, restore ...")
    # ("only one host owned -> ...": a count of hosts, the heading's condition, not "only restore ...")
    # (r42h: nor "only one owned -> ...", the count said with its state and no noun: the case the note sets apart)
    # (r47m: and the count in a digit, "only 1 usr box owned -> ...")
    rf"^(?:(?:{_CONDITION_MARKER})\b|(?:please|always|never|(?:only|just)(?!\s+(?:one|1|a\s+single)\s+(?:(?:[\w-]+\s+)?{_COUNTED_NOUN}|"
    rf"(?:(?:is|are)\s+)?{_COUNTED_STATE}))|"
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
    rf"say(?=\s+(?:nothing|no|only|little|just)\b)(?!\s+(?:nothing|no|only|little|just)\s+(?:(?!(?:what|which|how|whether|"
    rf"if|when|where|why|who|about|of|on|in|regarding|concerning)\b)[\w-]+\s+){{0,4}}?(?:is|are|was|were|gets?|got|sits?|"
    rf"shows?|has|have|had|runs?|stays?|remains?|looks?)\b)|mention(?!\s+of\b)|"
    # how the reply opens or closes: "start every report with the risk level", "end each answer with a summary line"
    rf"{_OPENING_VERB}(?={_OPENS_REPLY_WITH})|"
    # "make restoring Enterprise0 part of the plan", "include a Remove of User2", "add a DecoySSHD on User1"
    rf"make(?=\s+(?:(?:a|an|the)\s+)?(?:\w+\s+){{0,7}}?(?:part\s+of|a\s+priority|(?:the|your)\s+(?:first|top|next))\b)|include|add)\b|"
    rf"{_LIGHT_VERB}(?={_VERB_WORD})|(?:{_VERB.pattern}))", re.IGNORECASE)
# (r48h) The move said as what the one addressed does, after "means": "a scan on User1 means you plan a decoy there", "an
# exploit there means we remove it" (the order, in the situation before "means"; read as no order, that situation was no
# condition and a predicate of the bare host passed the checks). The verbs a Planner's or an Analyst's order puts before
# the move are `_ADDRESSED_VERB` ("you plan / recommend / choose a Remove").
_ADDRESSED_VERB = r"(?:plan|recommend|choose|pick|use)"
# (r48a) Not a "means" that is denied or made rare by the word before it, "a scan there never / hardly / no longer means
# you plan a decoy": no order (read as one, its situation "a scan there never" was a condition the checks placed, and a
# compiled order of the move passed)
_MEANS_DENIED = (r"(?<!\bnever\s)(?<!\bhardly\s)(?<!\brarely\s)(?<!\bseldom\s)(?<!\bscarcely\s)(?<!\bbarely\s)"
                 r"(?<!\bno\slonger\s)(?<!\bnecessarily\s)(?<!\bautomatically\s)(?<!\bnot\salways\s)")
_MEANS_ADDRESSED = (_MEANS_DENIED + r"means(?:\s+(?:that\s+)?(?:you|we)(?:\s+(?:should|must|need\s+to|have\s+to|ought\s+to|will|can))?"
                    r"(?:\s+" + _ADDRESSED_VERB + r")?)?")
_MODAL_ORDER = re.compile(r"\b(?:should|must|needs?\s+to|has\s+to|have\s+to|ought\s+to|is\s+to\s+be|gets?|"
                          # "an exploit on User2 means Remove User2", "calls for a Remove", "warrants a Restore"
                          + _MEANS_ADDRESSED + r"|calls?\s+for|warrants?|deserves?|demands?|requires?|"
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
                          r"(?:(?!(?:might|could|may)\b)\w+\s+)?(?:" + _LIGHT_VERB + "|" + _HOLDING_VERB + r")?(?=" + _VERB.pattern + ")", re.IGNORECASE)
# The move put first in a cleft, as the object of the order a Planner or an Analyst gives: "a Restore is what we must
# recommend", "an Analyse is what I'd plan" (the move named as a noun). (Not the same object after a modal, "we must
# recommend a Restore": read so, a story's "I should plan a ..." became an order and a lesson fired where it did not
# speak: taken back in round 26)
_ROLE_ORDER_VERB = r"(?:recommend|plan|propose|suggest|schedule|queue|advise)"
_CLEFT_ORDER = re.compile(r"\b(?:an?\s+|one\s+)?(?=" + _VERB_WORD + r"\s+is\s+what\b)\w+\s+is\s+what\s+(?:i|we|you)"
                          r"(?:\s+(?:should|must|need\s+to|ought\s+to|have\s+to|will|would)|['\u2019]d)\s+(?:always\s+)?"
                          + _ROLE_ORDER_VERB + r"\b",
                          re.IGNORECASE)
# The teacher's own preference between moves, in the present: "I'd prefer DecoyTomcat over DecoyApache", "we would prefer a
# Remove to a Restore there": an order of the first move (told in the past, "I preferred ...", it is a report).
_OWN_PREFERENCE = re.compile(r"\b(?:i|we)(?:['\u2019]d)?(?:\s+(?:would|do|still|now|really|also|much|definitely|strongly|"
                             r"generally))*\s+prefer\s+(?:(?:a|an|the|one|to)\s+)?(?=" + _VERB.pattern + ")", re.IGNORECASE)
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])|\n+|"
                       # (a note's next order in lower case, "OpS0 hit. plan Restore OpS0": a sentence of its own; after a
                       # word of two letters or more, not an abbreviation's "e.g.")
                       r"(?<=[a-z0-9]{2}[.!])\s+(?=(?:plan|recommend|restore|remove|analy[sz]e|decoy\w*|never|don'?t|do\s+not)\s)")
_OPENING = re.compile(r"^(?P<situation>[^:;\u2013\u2014]{3,160}?)\s*(?::|\s[\u2013\u2014-]{1,2}\s)\s*(?P<rest>.+)$")


def _canonical_verb(match: re.Match, text_after: str = "") -> str:
    name = next(k for k, v in match.groupdict().items() if v is not None)
    if name == "Decoy":
        service = _SERVICE.search(match.group(0) + " " + text_after[:30])
        if service:
            word = service.group(1).lower()
            return next((f"Decoy{s}" for s in DECOY_SERVICES if s.lower().startswith(word[:4])), "Decoy")
    return name


# A range of hosts of one kind: "User1-User4", "User1 through User4", "User1 to 4", "Op_Host0-2".
# (in shorthand too, "U1-U3", "ent0-2", "usr1 to usr4")
_RANGE = re.compile(r"\b(?P<kind>user|usr|u|enterprise|ent|e|op[\s_-]?host|op[\s_-]?h(?:st)?)[\s_-]?(?P<first>\d)\s*"
                    r"(?:-|\u2013|\.\.|to|through|thru|till|until)\s*"
                    r"(?:(?P=kind)[\s_-]?)?(?P<last>\d)\b", re.IGNORECASE)
_ONE_OF = re.compile(r"\b(?:one|any|either|each|whichever|some|none)\s+of\s+(?:the\s+(?:hosts\s+)?)?$", re.IGNORECASE)
# What a text goes on to say of one host of the range, whichever it is ("User2-User4 exploited -> Remove that host"): the
# range's state is each host's by itself, not all of theirs at once.
_ONE_AT_A_TIME = re.compile(r"\b(?:that|this|the\s+same|the\s+affected)\s+(?:host|box|machine|one|server|workstation)\b(?!s)|"
                            r"\bwhichever\b", re.IGNORECASE)


def expand_ranges(text: str) -> str:
    """A text with each range of hosts written as the list it stands for ("one of User1-User3" -> "one of User1, User2
    or User3"; "User1 to User3 are compromised" -> "User1, User2 and User3 are compromised")."""
    def listed(match: re.Match) -> str:
        kind = {"user": "User", "usr": "User", "u": "User", "enterprise": "Enterprise", "ent": "Enterprise",
                "e": "Enterprise"}.get(match["kind"].lower(), "Op_Host")
        first, last = int(match["first"]), int(match["last"])
        if last <= first or (kind, last) not in _HOST_LIMITS:
            return match.group(0)
        names = [f"{kind}{n}" for n in range(first, last + 1)]
        after = match.string[match.end():]
        joiner = " or " if _ONE_OF.search(match.string[:match.start()]) or \
            re.match(r"\s*(?:is|shows|has|gets|was)\b", after, re.IGNORECASE) or \
            (_ONE_AT_A_TIME.search(after) or _order_on_each(after)) and \
            not re.match(r"\s*(?:are|were|have|all|both|together)\b", after, re.IGNORECASE) else " and "
        return ", ".join(names[:-1]) + joiner + names[-1]
    return _RANGE.sub(listed, text or "")


# A note's order after its arrow: "U2-U4 owned => Remove" (its verb, and what it names).
_NOTE_ORDER = re.compile(r"(?:->|=>|\u2192)\s*(?P<order>[^;.\n]*)")


def _order_on_each(after: str) -> bool:
    """Whether a range's note orders a move that names no host, no class and no plural ("U2-U4 owned => Remove"): the
    move is on each host of the range that is in that state, so the state is each host's by itself, not all of theirs."""
    found = _NOTE_ORDER.search(after)
    order = found["order"] if found else ""
    return bool(verbs_in(order)) and not hosts_in(order) and not classes_in(order) \
        and not re.search(r"\b(?:them|all|both|each|every|together)\b", order, re.IGNORECASE)


_HOST_LIMITS = frozenset((name, n) for name, count in (("User", 5), ("Enterprise", 3), ("Op_Host", 3)) for n in range(count))


# Cached (pure, on immutable text): compiling and gating read the same rule and context texts thousands of times. On
# dc_bench's blind-27 split these three caches took the bench's CPU time to 0.57 of what it was (farm-bench, 3 runs
# side by side, identical results).
@lru_cache(maxsize=1 << 14)
def hosts_in(text: str) -> tuple[str, ...]:
    """The CAGE-2 hosts a text names, in order of first mention (a range names each host in it)."""
    found: list[tuple[int, str]] = []
    text = expand_ranges(text)
    for pattern, host in _HOST_FORMS:
        found += [(m.start(), host) for m in pattern.finditer(text or "")]
    return tuple(dict.fromkeys(host for _, host in sorted(found)))


# Words that single out one host without a name the product reads: an ordinal ("the second enterprise server"), a number
# after a host word ("server number 2", "box #3"), a superlative ("the host with the most alerts"), a name with a
# number that is no CAGE-2 host ("srv3", "WS2"), or a reference to the host or case the story told of ("a box like that").
_SINGLES_OUT = re.compile(
    r"\b(?:first|second|third|fourth|fifth|1st|2nd|3rd|4th|5th)\s+(?:(?:user|enterprise|op|operational)[\s-]+)?"
    r"(?:host|box|machine|server|workstation|desktop|node)\b|"
    r"\b(?:host|box|machine|server|workstation|desktop|node)\s+(?:number\s+|no\.\s*|#\s*)\d+\b|"
    # a superlative: "the host with the most alerts", "the most compromised box", "the worst-hit server"
    r"\b(?:host|box|machine|server|workstation|desktop|node)\s+(?:with|that\s+has|having|showing)\s+the\s+"
    r"(?:most|least|fewest|highest|lowest|largest|smallest|biggest)\b|"
    r"\bthe\s+(?:(?:most|least)\s+\w+|\w{3,}est|worst[\s-]+\w+)\s+(?:(?:user|enterprise|op|operational)[\s-]+)?"
    r"(?:host|box|machine|server|workstation|desktop|node)\b|"
    r"\b(?!(?:step|turn|round|t|ipv)\d)[A-Za-z][A-Za-z_-]*\d+\b|"
    # the host (or case) the story told of, by reference: "a box like that", "such a host", "in the same situation"
    r"\b(?:host|box|machine|server|workstation|desktop|node|one|case)s?\s+like\s+(?:that|this|those|these|it)\b|"
    r"\bsuch\s+(?:a\s+)?(?:host|box|machine|server|workstation|desktop|node|case|situation)s?\b|"
    r"\b(?:the\s+same|a\s+similar|that\s+kind\s+of|this\s+kind\s+of)\s+(?:situation|case|pattern|scenario|spot)\b|"
    # a host by the role it serves, which no CAGE-2 host or class is: "the db server", "web boxes", "the jump host" (not
    # a decoy's service: "a web server decoy")
    r"\b(?:db|database|web|mail|e-?mail|file|dns|domain|sql|app|application|proxy|gateway|jump|bastion|backup|print|"
    r"build|log|auth|vpn|ftp)[\s-]+(?:servers?|box(?:es)?|hosts?|machines?|nodes?)\b"
    r"(?!\s+(?:decoy|lure|bait|honey-?pot|service)s?\b)",
    re.IGNORECASE)


@lru_cache(maxsize=1 << 14)
def without_host_names(text: str) -> str:
    """`text` with every name of a host `hosts_in` reads blanked out (what is left is what a reading must place)."""
    for pattern, _ in _HOST_FORMS:
        text = pattern.sub(" ", text or "")
    return text


def named_in_full(text: str, prose: bool = False) -> str:
    """`text` with every name of a host `hosts_in` reads that carries its number written as the table writes it ("E0" ->
    "Enterprise0", "OpS0" -> "Op_Server0", "user box 3" -> "User3"): the situation reader knows only those. (A host
    named by prose, "the operational server", is left as written, unless `prose`.)"""
    for pattern, host in _HOST_FORMS:
        text = pattern.sub(lambda m: host if prose or re.search(r"\d", m.group(0)) else m.group(0), text or "")
    return text


def without_class_names(text: str) -> str:
    """`text` with every word for a class `classes_in` reads blanked out ("usr box", "ent srv")."""
    for pattern, _ in _CLASS_FORMS:
        text = pattern.sub(" ", text or "")
    return text


def state_words_in(text: str) -> tuple[str, ...]:
    """The words of a host's state a text says ("exploited", "compromised", "scanned", "clean", ...)."""
    return tuple(m.group(0) for m in _STATE_WORDS.finditer(text or ""))


def unnamed_hosts(text: str) -> tuple[str, ...]:
    """The words of a text that single out one host by no name `hosts_in` reads ("the second enterprise server", "srv3"):
    a reading that leaves them out is wider than the text."""
    return tuple(m.group(0) for m in _SINGLES_OUT.finditer(text or "") if not hosts_in(m.group(0)))


@lru_cache(maxsize=1 << 14)
def classes_in(text: str) -> tuple[str, ...]:
    """The host classes (User, Enterprise, Operational) a text names by a class word ("user boxes")."""
    spared = without_host_names(text)  # "the op server" is a host, not the Operational class
    return tuple(dict.fromkeys(cls for pattern, cls in _CLASS_FORMS if pattern.search(spared)))


def verbs_in(text: str) -> tuple[str, ...]:
    """The catalog verbs a text names (`Decoy` for a decoy of no named service); not the verb of a relative clause that
    names the host the agent is working on ("the host you analyse", "the box we're inspecting"): no move of it."""
    text = _SUBJECT_AT_HAND.sub(lambda m: m["noun"] + " " * (len(m.group(0)) - len(m["noun"])), text or "")
    # (and "the analysed host", "the host being analysed", "the host under analysis": the analyst's host, no move)
    text = _ANALYSED_HOST.sub(lambda m: " " * len(m.group(0)), text)
    # (r42h: nor the step's analyses, "the host this step's analyses rate high", "a shell in the analyses for the step": what
    # they report, no Analyse; counted, a rule that orders one move named two, and its order was read in no dispute)
    text = _ANALYSES_NOUN.sub(lambda m: " " * len(m.group(0)), text)
    return tuple(dict.fromkeys(_canonical_verb(m, text[m.end():]) for m in _VERB.finditer(text)))


# (r42h) The step's analyses as the subject right before a negation: "the analyses do not mention <host>".
_ANALYSES_SAY_NOT = re.compile(r"\b(?:the|step(?:'s|\u2019s))\s+analys[ie]s$", re.IGNORECASE)
# (r42h) The step's analyses by their noun: "this step's analyses", "the analyses of this step", "analyses ... rate X".
_ANALYSES_NOUN = re.compile(r"(?<=\bstep's\s)analys[ie]s\b|(?<=\bstep\u2019s\s)analys[ie]s\b|"
                            r"\banalys[ie]s\b(?=\s+(?:this|of\s+(?:the|this)|for\s+(?:the|this))\s+step\b)|"
                            r"\banalys[ie]s\b(?=\s+(?:rate[sd]?|report(?:s|ed)?|show(?:s|ed)?|flag(?:s|ged)?|gave|give[sn]?|list(?:s|ed)?|"
                            r"count(?:s|ed)?|mention(?:s|ed)?|finds?|found|says?|said)\b)",
                            re.IGNORECASE)


# (in the words of HOST_AT_HAND: "the inspected box", "the machine under examination" are no Analyse either)
_AT_HAND_PARTICIPLE = r"(?:being\s+(?:analy[sz]ed|inspected|examined)|under\s+(?:analysis|inspection|examination))\b"
_ANALYSED_HOST = re.compile(r"\b(?:analy[sz]ed|inspected|examined)(?=\s+(?:host|box|machine|server|node)\b)|"
                            r"(?<=host\s)" + _AT_HAND_PARTICIPLE + r"|(?<=box\s)" + _AT_HAND_PARTICIPLE + r"|"
                            r"(?<=machine\s)" + _AT_HAND_PARTICIPLE + r"|(?<=server\s)" + _AT_HAND_PARTICIPLE, re.IGNORECASE)
_SUBJECT_AT_HAND = re.compile(r"\b(?P<noun>host|box|machine|server|system|node)\s+(?:that\s+)?(?:you|we|i)(?:\s+are|'re|\s+am|'m)?\s+(?:"
                              + "|".join(pattern for _, pattern in _VERB_FORMS) + r")", re.IGNORECASE)


def same_verb(named: str, verb: str) -> bool:
    """Whether a verb the text names (`Decoy`: any decoy) is this catalog verb (`any`: every verb)."""
    return verb == "any" or named == verb or (named == "Decoy" and verb.startswith("Decoy"))


# -- the reading --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Prohibition:
    """A verb the text forbids (None: every verb), on the hosts named right after it (empty: not named)."""

    verb: Optional[str]
    hosts: tuple[str, ...] = ()
    classes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Condition:
    """One condition of the text, with the negation or restriction words inside it."""

    text: str
    negations: tuple[str, ...]
    hosts: tuple[str, ...]
    classes: tuple[str, ...]


@dataclass(frozen=True)
class Wording:
    text: str  # the whole text, one line
    instruction: str  # story, justification and explanation left out; the opening situation kept
    situation: str  # the opening situation of a note ("Op_Server0 compromised."), "" if none
    gives_order: bool
    hosts: tuple[str, ...]
    classes: tuple[str, ...]
    excepted: tuple[str, ...]  # hosts the text excepts ("... except User0")
    conditions: tuple[Condition, ...]
    prohibitions: tuple[Prohibition, ...]
    dispreferred: tuple[str, ...]  # verbs the text disprefers ("rather than restoring")
    verbs: tuple[str, ...]  # every catalog verb the instruction names
    contrasted: tuple[str, ...] = ()  # hosts the order is contrasted with ("before Enterprise2", "not User3")
    # The host "it" stands for when the order names none: the one host its story names ("I restored Enterprise1 too
    # late. Restore it as soon as it is compromised."): a rule learned on one host, said of that host.
    referent: Optional[str] = None

    @property
    def negated_conditions(self) -> tuple[Condition, ...]:
        return tuple(c for c in self.conditions if c.negations)

    @property
    def forbids(self) -> bool:
        return bool(self.prohibitions or self.dispreferred)

    @property
    def order(self) -> str:
        """The instruction without its conditions: the words that give the order itself."""
        return order_without_conditions(self.instruction, self.conditions)


def order_without_conditions(instruction: str, conditions: Iterable["Condition"], ended: Iterable[str] = ()) -> str:
    """An instruction with the spans `ended` (first: an ending holds a condition of its own, "not later once it is
    exploited") and its conditions' texts taken out."""
    order = instruction
    for span in (*ended, *(condition.text for condition in conditions)):
        order = order.replace(span, " ")
    return order


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.split(" ".join((text or "").replace("\n", " \n ").split(" ")).strip()) if s.strip()]


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
    parts = [_without_explanation(_so_order(p)) for p in re.split(r"\s*;\s*", text)]
    kept = [parts[0]] + [p for p in parts[1:] if not _EXPLANATION_LEAD.match(p) and gives_order(p)]
    return "; ".join(_JUSTIFICATION.sub("", p).strip(" ,") for p in kept if _JUSTIFICATION.sub("", p).strip(" ,"))


def _so_order(part: str) -> str:
    """ "REASON, so ORDER" ("User2 is the box the exercise must find, so leave User2 alone"): the order (a ", so ..."
    that does not order is a consequence, left out as a justification)."""
    found = re.search(r",\s*so\s+(?!that\b)(?P<order>.+)$", part, re.IGNORECASE)
    condition = _CONDITION.match(part) if found and _IMPERATIVE_START.match(found["order"]) else None
    if condition:
        # (r37m) "once it shows root a Remove would be wasted, so Restore it": the condition heads the order, the
        # judgement between them is its reason
        end = _clause_end(part, condition.end())
        if end < found.start() and _STATE_WORDS.search(part[:end]) and not verbs_in(part[:end]):
            return f"{part[:end].rstrip(' ,')}, {found['order']}"
    scoped = _SCOPED_REASON.match(part[:found.start()]) if found and _IMPERATIVE_START.match(found["order"]) else None
    # (r46a: not where the order names a host or class of its own, "for a user host the usual fix is a Remove, so restore
    # Op_Server0 ...": the scope is the reason's, and the order's own object its scope)
    if scoped and (hosts_in(scoped["scope"]) or classes_in(scoped["scope"])) \
            and not hosts_in(found["order"]) and not classes_in(found["order"]):
        # (r46h) "on an op server at root the best cure is a Restore, so restore it": the scope heads the order, the
        # judgement after it is its reason (dropped with the reason, the rule was for every host)
        return f"{scoped['scope']}, {found['order']}"
    fallen = _falls_short_scope(part[:found.start()]) if found and _IMPERATIVE_START.match(found["order"]) else ""
    # (not where the order is on a host the scope does not name: "..., so restore Enterprise0" is its own)
    if fallen and set(hosts_in(found["order"])) <= set(hosts_in(fallen)) \
            and (not classes_in(found["order"]) or set(classes_in(found["order"])) <= set(classes_in(fallen))):
        # (r48b) "a Remove alone won't suffice on User1 at root, so add a Restore": where the move falls short is where
        # the other one is ordered (dropped with the reason, the order held on User1 in any state)
        return f"{fallen}, {found['order']}"
    return found["order"] if found and (not gives_order(part[:found.start()]) or _NO_NEED.search(part[:found.start()])) \
        and (_IMPERATIVE_START.match(found["order"]) or _MEANS.search(found["order"])) \
        and (not _CONDITION.match(found["order"]) or _general_reason(part[:found.start()])) else part


# (r48b) Where a move is said to fall short, "(on User1 at root,) a Remove alone won't suffice (on User1 at root)", "a Remove of
# Enterprise1 won't do while it is rooted": the host or state said with it, before it or after it (`_falls_short_scope`).
_FALLEN_HEAD = re.compile(r"^\s*(?P<scope>(?:for|on|at|with|in)\s+[^,;:]{3,80}?)\s*,", re.IGNORECASE)
_FALLEN_TAIL = re.compile(r"^\s*(?P<scope>(?:(?:on|for|at|with|in|against)\s|(?:" + _CONDITION_MARKER + r")\b|(?P<host>(?:the\s+)?"
                          + HOST_NAME + r"\b))[^,;:]{0,80})", re.IGNORECASE)


def _falls_short_scope(reason: str) -> str:
    """(r48b) The situation a reason that a move falls short says ("a Remove alone won't suffice on User1 at root",
    "on User1 at root, a Remove won't do"): the host and state where the other move is ordered; "" where it says neither
    host nor state, or the move falls short inside a condition (`_fails_in_condition`: the fallback's own)."""
    short = _FALLS_SHORT.search(reason)
    if short is None or _fails_in_condition(reason[:short.start()]):
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
_SCOPED_REASON = re.compile(r"^(?P<scope>(?:for|on)\s+[^,;:]{3,80}?)\s+(?=(?:the|a|an|my|our|its)\s+(?:\w+\s+){0,2}?(?:fix|move|cure|"
                            r"remedy|answer|option|choice|call|response|step|action)\s+(?:is|are|would\s+be|will\s+be)\b)", re.IGNORECASE)


def _general_reason(reason: str) -> bool:
    """Whether what comes before ", so when ..., ORDER" is a general reason, said of no host or class and telling
    nothing ("a live exploit matters more than a scan, so when E0 shows one, remove it": r32m): the order, with its own
    condition, is what follows "so" (read as a consequence, the order was dropped with it). (r48h) So is one that names
    hosts or a class but says no state of them ("the blue lead looks after Op_Host1 in person, so when it shows a
    scan, decoy it": who looks after the host, no situation of it; read as the whole rule, its order was lost and a rule
    kept semantic fired wherever that host was shown)."""
    if _STORY.search(reason) or _CONDITION.search(reason):
        return False
    # (r48a: not one that denies or restricts what it says of them, "we never cover Op_Host1, so when a host shows a
    # scan, ...", "only User2 matters, so ...": whom the order is for, said in the reason; read as general, the order
    # fired on the host the reason leaves out)
    return not (hosts_in(reason) or classes_in(reason)) or not (states_something(reason) or negations_in(reason))


# A judgement that something is not needed, said of a subject ("A host that was only probed doesn't need rebuilding"): it
# reads like a prohibition, yet before ", so ORDER" it is the reason, and the order is what follows it.
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
    if _STORY.match(tail) and not _CONDITION.search(tail):
        return found["head"]  # "...: restoring User3 kills the green agents' sessions", what doing it would do
    # (a state the host falls back into after the move, "it gets re-exploited at once", is what the order is up against,
    # its reason, no state the order asks of it)
    states = _STATE_WORDS.search(_RETAKEN.sub(" ", tail))
    if hosts_in(tail) or classes_in(tail) or states or _CONDITION.search(tail) or _VERB.search(tail):
        return part
    return found["head"]


# A host taken again, said as what happens to it ("gets re-exploited", "would be compromised again", "is owned right
# back"): the outcome the order foresees, never the state it asks of the host now.
_RETAKEN = re.compile(r"\b(?:gets?|got|will\s+(?:be|get)|would\s+(?:be|get)|is|are)\s+(?:(?:just|simply|only|immediately|"
                      r"instantly|always)\s+)?(?:re-?(?:exploit|compromis|infect|breach|own|pwn|scan)\w*|"
                      r"(?:exploit|compromis|infect|breach|own|pwn|scann)\w*\s+(?:again|right\s+back|straight\s+back))\b",
                      re.IGNORECASE)


_LEAD_WORD = re.compile(r"^(?:actually|ok(?:ay)?|so|now|also|and|but|correction|note|important|update|new\s+rule|"
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
                             r"deploy|use|choose|pick|go\s+for|" + "|".join(pattern for _, pattern in _VERB_FORMS) + r")\b)", re.IGNORECASE)
_FROM_NOW_ON = re.compile(r"^(?:next\s+time(?!\s+(?:a|an|the|any|some|it|that|this|we|you|they|there|user|enterprise|op|\w+\d)\b)|from\s+now\s+on|in\s+(?:the\s+)?future|going\s+forward|henceforth|"
                          r"from\s+here\s+on)\b\s*[,:\u2013\u2014-]?\s*", re.IGNORECASE)


# The teacher's doubt, then their view, then the lesson: "I may be wrong about this, but I think that when ...".
_BUT_I_BELIEVE = re.compile(r"^(?:i|i'm|i\s+am|we|we're)\b[^;]*?,\s*but\s+(?:i|we)\s+(?:now\s+|still\s+|really\s+|do\s+)?"
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
                           r"(?:(?:plan|use|pick|choose|recommend)\s+(?:a\s+|an\s+)?)?(?=" + _VERB_WORD + r")", re.IGNORECASE)


def _after_doubt(part: str) -> Optional[re.Match]:
    """`_BUT_THEN`'s match, unless what follows "but" is a judgement before a colon ("..., but User0 looks like the
    exception: when ..."): the whole part is then read as before, its opening the teacher's view (a scope, "but for
    Defender: ...", or a situation that names a state, stays the order's)."""
    found = _BUT_THEN.match(part) or _MAYBE_IT_BUT.match(part)
    opening = _OPENING.match(found["rest"]) if found else None
    if opening and not re.match(r"(?:for|on|with)\b", opening["situation"], re.IGNORECASE) \
            and not _STATE_WORDS.search(opening["situation"]):
        return None
    return found


# The teacher's view, a doubt said aside, then the order: "I think, though I am not fully certain it generalises, that
# when ..., I should ..."
_I_THINK_THAT = re.compile(r"^(?:i|we)\s+(?:now\s+|really\s+|still\s+|also\s+)?(?:think|believe|reckon|feel|suspect|guess)\s*"
                           r"(?:(?:,[^,;:]{0,120},\s*)?that\s+|,\s*)(?P<rest>.+)$", re.IGNORECASE)  # (r37m: or "I think, <view>")
# The teacher's confidence, then the order: "Looking back I'm fairly, not completely, sure that whenever ..., I should ..."
_SURE_THAT = re.compile(r"^(?:[^.;:]*?\s)?(?:i'm|i\s+am|we're|we\s+are)\s+(?:[\w,]+\s+){0,4}?(?<!not\s)(?:sure|certain|convinced|"
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
_ACTED_LEAD = re.compile(r"^(?:(?:right|just|immediately|directly|shortly|soon)\s+)?after\s+" + _DEFENDER_MOVED +
                         r"(?![^,:;]*\bstep\s+\d)[^,:;]*(?=,)", re.IGNORECASE)


# (r43h) Another note a text points to for part of its condition: "ditto the <host> note", "same as the <topic> note above,
# but ...", "my take on <someone>'s note: the same <Verb>, but only while ...". What the other note says is when this one
# applies too, and its words are not here: this text's own words are not the whole of its condition. (A note that points
# to another only for its form and then says its own condition, "same as <someone>'s note, i.e. at root -> Restore U2",
# has no "but": it is read as ever.)
_NOTE_WORD = r"(?:the\s+|my\s+|our\s+|that\s+)?(?:[\w-]+['\u2019]s\s+)?(?:[\w-]+\s+){0,3}?(?:note|rule|lesson|advice|order|one)\b"
_CONDITION_ELSEWHERE = re.compile(
    r"\bditto\b|"
    rf"\b(?:same\s+as|just\s+like|as\s+in|as\s+per)\s+{_NOTE_WORD}(?:\s+(?:above|before|earlier))?\s*[,;:]?\s*but\b|"
    rf"\b(?:my|our)\s+(?:take|spin|version|variant)\s+(?:on|of)\s+{_NOTE_WORD}|"
    rf"\b(?:the\s+)?same\s+{_VERB_WORD}[^.;]*?\bbut\b", re.IGNORECASE)


def condition_elsewhere(text: str) -> bool:
    """(r43h) Whether a text takes part of its condition from another note it points to (`_CONDITION_ELSEWHERE`)."""
    return bool(_CONDITION_ELSEWHERE.search(text or ""))


# A connective that leads no order of its own ("Then once more.", "..., and then sat back"): what follows it must order;
# "instead it went for User2 and the step was gone" tells what happened in place of what was expected; (r46m) a
# ladder's next rung, "else if it only shows a probe, decoy it", "otherwise, when ...", is its own case.
_LEADING_CONNECTIVE = re.compile(r"^(?:then|also|so|now|instead(?!\s+of\b)|rather(?!\s+than\b)|(?:or\s+)?else(?=\s*,?\s*(?:if|when)\b)|"
                                 r"otherwise(?=\s*,?\s*(?:if|when)\b))\b\s*,?\s*(?P<rest>.*)$", re.IGNORECASE | re.DOTALL)


def gives_order(sentence: str) -> bool:
    """Whether a sentence instructs (a condition, a prohibition, an imperative, "X should be restored")
    rather than reports ("I restored User0 and lost the step")."""
    body = _LEAD_WORD.sub("", sentence.strip().lstrip("-*0123456789.) ").strip())
    future = _FROM_NOW_ON.match(body)
    body = _FROM_NOW_ON.sub("", body)  # "Next time, remove ...": an order for what comes
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
    acted = lead and _ACTED_LEAD.match(body)
    if lead and _STORY.search(body[:lead.start("rest")]) and not (acted and gives_order(lead["rest"])):
        return False  # "At step 7 I saw Enterprise1 light up and, without ... , I spent a Restore on it": a story
    if lead and gives_order(lead["rest"]):
        return True  # "For an Enterprise host with only a user-level compromise, prefer Remove over Restore."
    unmarked = _UNMARKED_SCOPE.match(body)
    if unmarked and _AS_FAR.match(body[unmarked.end():]):
        return True  # "on Op_Host1 with a user foothold a Remove will do": the scope, with no comma, then the verb enough there
    hedged = _BUT_I_BELIEVE.match(body) or _after_doubt(body) or _SURE_THAT.match(body) or _I_THINK_THAT.match(body)
    if hedged and gives_order(hedged["rest"]):
        return True  # "I'm not sure this always holds, but I believe that when ..., the plan should ..."
    listed = _HOST_LIST_LEAD.match(body)
    if listed and gives_order(listed["rest"]):
        return True  # "For User1, User2 and User3, if any of them is exploited, Remove it": the lead names a list
    # ("the safe habit is to put the action first", "my rule would be to leave User0 alone": a judgement, then the order)
    judged = _JUDGED_ORDER.search(body)
    if judged and gives_order(judged["rest"]):
        return True
    reasoned = _so_order(body)  # ("a live exploit outranks a scan, so when ..., remove it": a reason, then the order)
    # (r48b: or where the reason says where its move falls short, "a Remove won't do on User1 at root, so restore it")
    if reasoned is not body and (_CONDITION.match(reasoned) or _FALLEN_HEAD.match(reasoned)):
        return gives_order(reasoned)
    # ("Having seen both outcomes, I think the better call is to Remove ...": a participle's clause, then the order)
    participle = re.match(r"^\w+ing\b[^,:;]{0,80},\s*(?P<rest>.+)$", body, re.IGNORECASE)
    if participle and gives_order(participle["rest"]):
        return True
    if _AS_FAR.match(body) or _VERB_ALONE.match(body):
        return True  # "Remove is as far as we go there": an order of that verb, and no further
    if _RATHER_ORDER.match(body):
        return True  # (r33m) "I'd sooner restore User3 than remove it": the teacher's preference is the order
    bad = _BAD_IDEA.search(body)
    if bad and _VERB.search(body[:bad.start()]) and not re.search(rf"\b(?:{_TOLD_VERB})\b|\b(?:i|we)\b", body[:bad.start()], re.I):
        return True  # "Restoring Enterprise1 is pointless": a prohibition, said as a judgement
    connective = _LEADING_CONNECTIVE.match(body)  # ("Then once more.": no order of its own; what follows it must order)
    if connective:
        return bool(connective["rest"].strip()) and gives_order(connective["rest"])
    start = _IMPERATIVE_START.match(body)
    if start:
        if _CONDITION.match(body):
            # ("Each time it looked clean for a step and then it did not.": a moment told in the past, no order after it)
            return not (_TOLD_MOMENT.search(body) or _TOLD_OF_IT.search(body) or _TOLD_WHEN.match(body)) or _orders_after(body)
        first = body.split()[0].lower()
        verb = _VERB.match(body)
        # (a decoy's full name is the verb, whatever its last letter: "DecoySmss User3" orders it)
        plural = first.endswith("s") and first.rstrip(".,:;!") not in _DECOY_NAMES
        if first.endswith(("ed", "ing")) or (verb and (plural or _REPORT_AFTER_VERB.match(_CONDITION.split(body[verb.end():])[0]))):
            # ("analysed host: exploit in progress -> rec Remove": a heading in a participle, then the order)
            # (r39h) so does the noun for the step's analyses, "the analyses for the step rate a box medium & row at User
            # -> Remove the box": what they report is the situation, however long, not a report of the defender's move)
            analyses = _ANALYSES_REPORT.match(body)
            opening = _OPENING.match(body) if first.endswith("ed") or analyses else None
            return bool(opening and not _STORY.search(opening["situation"]) and not _FIRST_PERSON.search(opening["situation"])
                        # ("analysed box at Unknown -> rec ...": a heading on the host at hand and its state, however long)
                        and (len(opening["situation"].split()) <= 3 or _AT_HAND_START.match(opening["situation"]) or analyses)
                        and gives_order(opening["rest"]))
            # ("Restoring X cost ...", "Decoys on X caught ...", "Remove did not clear X": reports)
        return True
    # (r40h, r40m) one move said to beat another, "an Analyse on a probed server beats a Restore": the teacher's
    # preference in the present tense is an order, as "I'd prefer ..." is (a comparison told of the past, "beat", is no match)
    if _modal_order(body) or _CLEFT_ORDER.search(body) or _OWN_PREFERENCE.search(body) or _ANY_VERB.search(body) \
            or _forbids(body) or _BEATS.search(body):
        return not _STORY.match(body) or bool(_ANY_VERB.search(body))
    opening = _OPENING.match(body)
    return bool(opening and gives_order(opening["rest"]))


def _modal_order(body: str) -> bool:
    """Whether a sentence orders with a modal or "means" (`_MODAL_ORDER`): (r48a) not a "means" its own clause disowns
    or reports from another (`_MEANS_DISOWNED`: "someone said a scan there means we plan a decoy")."""
    return any(not (found.group(0).lower().startswith("means")
                    and _MEANS_DISOWNED.search(re.split(r"[,;:.]", body[:found.start()])[-1]))
               for found in _MODAL_ORDER.finditer(body))


def _forbids(sentence: str) -> bool:
    """Whether a sentence forbids a verb: "never" / "not" after an auxiliary ("... which did not actually evict the
    attacker", "if it was not restored") reports what a move did or states a condition, and forbids nothing (as
    `_prohibitions` reads it)."""
    return any(not _after_auxiliary(sentence, match) and not _told_never(sentence, match)
               and not _LIMIT_NOT_BAN.match(match.group(0))
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


def _forbidding(instruction: str):
    """The matches of _FORBIDDEN_VERB, less a "not" that denies a state (_DENIED_STATE) or a "no" before a state's noun
    (_DENIED_STATE_NOUN): the search goes on after that state ("a host not compromised needs no Restore" still forbids
    the Restore); and less a prohibition word itself denied, "don't skip the Analyse" (HOLDING_OFF_DENIED): an order,
    the search going on after its verb."""
    position = 0
    while (match := _FORBIDDEN_VERB.search(instruction, position)) is not None:
        if HOLDING_OFF_DENIED.match(match.group(0)) or _HOLDING_OFF_START.match(match.group(0)) \
                and _DENIED_BEFORE.search(instruction[:match.start()]) or _LIMIT_NOT_BAN.match(match.group(0)):
            position = match.end()
            continue
        if _told_never(instruction, match):
            position = match.end()
            continue
        denied = _DENIED_STATE.match(match.group(0)) or _DENIED_STATE_NOUN.match(match.group(0))
        if denied is None:
            yield match
            position = match.end()
        else:
            position = match.start() + denied.end()


# (r48m) A "never" before a verb in the past: "(I) never analysed it after that", "(we) never restored it".
_TOLD_NEVER = re.compile(r"\s*never\s+(?:once\s+|again\s+)?(?:\w+ed|took|made|gave|ran|saw|went|got|kept|left|sent|chose|did|set|put)\b",
                         re.IGNORECASE)
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
_NOT_A_CASE_FOR_START = re.compile(r"\s*" + _NOT_A_CASE_FOR, re.IGNORECASE)


def _after_auxiliary(text: str, match: re.Match) -> bool:
    before = text[:match.start()]
    if _NOT_A_CASE_FOR_START.match(match.group(0)):
        return False  # (r44x) "this is not the time for a Remove": a verdict against the move, not a condition
    if _TO_BE_DONE.match(match.group(0)) and re.search(r"\b(?:is|are|'s|'re)\s*$", before, re.IGNORECASE):
        return False  # "User2 and User3 are never to be restored": an order said with "is to", not a condition
    return bool(re.match(r"\s*(?:not|never)\b", match.group(0), re.IGNORECASE) and re.search(
        r"\b(?:is|are|was|were|has|have|had|did|does|do)\s*$", before, re.IGNORECASE))


def _said_of_subject(before: str, match: re.Match) -> bool:
    """Whether a prohibition is said of the subject before it: after a modal ("User1 should never be restored"), what it
    gets none of ("User3 gets no decoy"), with its modal in it ("User3 should not be restored", "User2 mustn't get a Remove") or as an "is to" ("Op_Server0 is not
    to be reimaged")."""
    return bool(re.search(r"\b(?:should|must|may|can|is\s+to|are\s+to|shall|will)\s*$", before, re.IGNORECASE)
                or re.match(r"\s*(?:(?:should|must|may|shall)\s*(?:not|n'?t)|cannot|can'?t)\b", match.group(0), re.IGNORECASE)
                or _TO_BE_DONE.match(match.group(0)) and re.search(r"\b(?:is|are|'s|'re)\s*$", before, re.IGNORECASE)
                or re.match(r"\s*no\b", match.group(0), re.IGNORECASE) and bool(_RECEIVES.search(before)))


# (r48a) What in a prohibition's subject is not the subject: a host it leaves out or names only as a place beside it
# ("every server except Enterprise0 gets no Restore", "any host but User1", "the box next to User1 gets no decoy"), and a
# condition said before it with no comma ("once User2 is owned Enterprise0 needs no Restore"). Read as the subject, the
# prohibition was placed on the very host the words leave out (or on the condition's host).
_NOT_THE_SUBJECT = re.compile(r"\b(?:" + _EXCEPT_WORDS + r"|but|not|unlike|next\s+to|near|beside|behind|than|like|after|before)\s+"
                              + _EXCEPTED_HOST_LIST.replace("(?P<what>", "(?:") + r"|"
                              r"^\s*(?:if|when|whenever|once|while|as\s+soon\s+as|after|unless|until)\b[^,]*?\b(?:is|are|was|were|"
                              r"gets?|got|shows?|showed|reads?|turns?|goes|went)\s+(?:(?:a|an|the)\s+)?[\w-]+", re.IGNORECASE)


def _subject_itself(subject: str) -> str:
    """A prohibition's subject without what is not the subject (`_NOT_THE_SUBJECT`)."""
    return _NOT_THE_SUBJECT.sub(" ", subject)


# (r48b) "no <move>" joined to the next one, "no Restore and ", "no Remove, nor ": what stands between the subject and a
# second "no <move>" said of it
_NO_MOVE_JOINED = re.compile(r"(?:\bno\s+(?:(?:a|an|the|further|more|other|second)\s+)?" + _VERB_WORD + r"\w*"
                             r"(?:\s+(?:on|of|for)\s+(?:it|them))?\s*(?:,\s*(?:and|or|nor)?|and|or|nor)\s*)+$", re.IGNORECASE)
# (r48b) "and" opening a clause with its own subject and verb, "... and User1 gets no Remove", "and Enterprise2 should
# never be restored": the clause of another prohibition, whose subject is its own
_NEXT_SUBJECT = (r"\band\s+(?=(?:the\s+)?[\w-]+\s+(?:gets?|needs?|receives?|deserves?|should|must|may|shall|can|will|is\s+to|"
                 r"are\s+to)\b)")
# (r48h, r48m) The subject as the one a move is given to, before "no <move>": "User4 gets no decoy", "Enterprise1 needs no
# Restore", "the op boxes receive no Remove", "Defender merits no Restore" (the prohibition is on the subject; read as on
# no host, it forbade the move everywhere, and an order of it on the other hosts of the text was refused as its opposite).
_RECEIVES = re.compile(r"\b(?:gets?|receives?|deserves?|needs?|merits?|warrants?|(?:is|are)\s+given|(?:should|must|may|shall|will|can)\s+"
                       r"(?:get|receive|be\s+given))\s*$", re.IGNORECASE)


# A heading that names the host the analyst's context is about ("analysed host", "inspected box"): the scope of what follows.
_AT_HAND_HEADING = re.compile(r"^(?:the\s+)?(?:analy[sz]ed|inspected|examined)\s+(?:host|box|machine|server|node)$", re.IGNORECASE)
# The host the analyst's context is about, named by what is done with it: "the host under analysis", "the host you
# analyse", "an analysed box", "the machine being examined". Any host: the one whose record the context is.
HOST_AT_HAND = (r"(?:(?:the|a|an|any|each|every)\s+)?(?:(?:analy[sz]ed|inspected|examined)\s+(?:host|box|machine|server|node)|"
                r"(?:host|box|machine|server|node)\s+(?:under\s+(?:analysis|inspection|examination)|being\s+(?:analy[sz]ed|"
                r"inspected|examined)|(?:that\s+)?(?:you|we|i)\s+(?:(?:are|were|am|was)\s+)?(?:analy[sz]|inspect|examin)\w*))")
# (r44m: and the teacher's own, "the host I analyse": the host at hand as well, not one a story before it names)
# (a heading that opens with it: "analysed box at Unknown", "inspected machine, root level")
_AT_HAND_START = re.compile(r"^\s*" + HOST_AT_HAND + r"\b", re.IGNORECASE)


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
_TOLD_WHEN = re.compile(rf"^\W*(?:when|whenever|once|as\s+soon\s+as|after)\s+"
                        rf"(?:(?!\b(?:is|are|shows?|gets|becomes?|turns|reads|sits|goes|has|have|stays|remains)\b)[^.;:,])*?"
                        rf"\b(?:{_TOLD_VERB})\b[^.;:,]*?\b(?:i|we)\s+(?:(?:just|still|then)\s+)?(?:{_TOLD_VERB}|\w+ed)\b",
                        re.IGNORECASE)


# What a host did or how it looked, told in the past after a condition word ("each time it looked clean", "whenever it
# seemed quiet"): a story's moment, unless an order follows it.
_TOLD_OF_IT = re.compile(rf"^\W*\w+(?:\s+\w+)?\s+(?:it|they)\s+(?:{_TOLD_VERB}|looked|seemed|appeared|sat)\b", re.IGNORECASE)


def _orders_after(sentence: str) -> bool:
    """Whether what follows a sentence's opening condition gives an order ("When ... at step 13, restore it")."""
    marker = _CONDITION.match(sentence)
    main = sentence[_clause_end(sentence, marker.end()):].lstrip(" ,:;\u2013\u2014-") if marker else ""
    return bool(main) and gives_order(main)


def _opening(sentence: str) -> tuple[str, str]:
    """(situation, rest) of a sentence that opens with a situation before a colon or dash ("Op_Server0
    compromised: restore it", "Reconnaissance under way: the attacker is mapping the network"), else ("", it).
    A story before the colon ("The op server was compromised while I analysed other hosts: ...") is no
    situation, and neither is an exception heading ("Except for User0: ...")."""
    found = _OPENING.match(sentence)
    if found and not gives_order(found["situation"]) and not _STORY.search(found["situation"]):
        return found["situation"].strip(), found["rest"]
    return "", sentence


def _parts(text: str) -> list[str]:
    """Sentences, and the clauses of a sentence joined by semicolons."""
    return [p.strip() for s in sentences(text) for p in re.split(r"\s*;\s*", s) if p.strip()]


# A sentence after the order that states when it holds: "This only matters while Op_Server0 is clean." (a condition
# of the rule, not an explanation).
_SCOPE_NOTE = re.compile(rf"^(?:this|that|it|the\s+(?:rule|above|order))\s+(?:(?:only|just)\s+)?(?:matters|applies|holds|counts|"
                         rf"is\s+(?:valid|true|meant|needed|for)|works|makes\s+sense)\b[^.;]*?\b(?:{_CONDITION_MARKER})\b", re.IGNORECASE)


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
_OTHER_RULE_WRONG = re.compile(r"^(?:the|my|our|your|that|this|their|[\w-]+['\u2019]s)\s+(?:[\w'-]+\s+){0,3}?(?:note|rule|advice|"
                               r"plan|habit|lesson|order|guidance|approach|policy|default)s?\b[^:;]*?\b(?:is|are)\s+"
                               r"(?:just\s+|simply\s+|plainly\s+)?(?:wrong|mistaken|bad|not\s+right|a\s+mistake)\s+(?:for|on|with)\s+"
                               r"(?P<aside>[^:;]+)$", re.IGNORECASE)
_CONCLUDED = re.compile(r":|,\s*so\b(?!\s+that\b)", re.IGNORECASE)


def _put_aside_for_this_rule(text: str) -> set[str]:
    """The hosts an opening puts aside from another rule said to stand (_OTHER_RULE_STANDS) before the order after its
    colon: the hosts the order is for, never hosts it excepts."""
    heads = (sentence.split(":", 1)[0].strip() for sentence in _SENTENCE.split(text) if ":" in sentence)
    return {h for head in heads if (found := _other_rule_aside(head)) for h in hosts_in(found["aside"])}


def _other_rule_aside(opening: str) -> Optional[re.Match]:
    """The match of an opening that says another rule stands but for some hosts, or is wrong for them (the hosts put
    aside, `aside`, are the order's scope); None otherwise."""
    return _OTHER_RULE_STANDS.match(opening) or _OTHER_RULE_WRONG.match(opening)


def _stated_consequence(parts: list[str], first: int) -> tuple[str, int]:
    """(situation, index of the order in `parts`) where the first part that looks like an order is a condition with a statement
    for its main clause and the order comes after it ("If an enterprise server and a user host are both compromised,
    the attacker already has a foothold in two subnets; make restoring the enterprise server part of the plan"): the
    condition is the order's situation, and what the statement says of it (no verb of the catalogue) is its reason,
    no part of the order. Else ("", first)."""
    part = parts[first]
    marker = _CONDITION.match(part)
    if marker is None:
        return "", first
    end = _clause_end(part, marker.end())
    main = part[end:].lstrip(" ,:;\u2013\u2014-")
    # (or ", so": "When ..., the attacker already knows its services, so restore it")
    split = _CONCLUDED.search(main)
    said, colon, order = (main[:split.start()], split.group(0), main[split.end():]) if split else (main, "", "")
    if colon and said.strip() and not gives_order(said) and gives_order(order) and not _CONDITION.match(order.strip()):
        # "If ..., the Remove didn't work: escalate to Restore": what the statement concludes is the reason
        parts[first] = order.strip()
        return part[:end].strip(), first
    if not main or gives_order(main) or _VERB.search(main):
        return "", first
    later = next((j for j in range(first + 1, len(parts)) if gives_order(parts[j]) and not _CONDITION.match(parts[j])), None)
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
_LESSON_LEAD = re.compile(r"^.*?\b(?:(?:the|my|our)\s+(?:(?:new|simple|one|main|real|true|actual|proper|key|right|better|hedged|"
                          r"cautious|rough|provisional|working|[a-z]+(?:ble|est|er|ful|ive))\s+)?"
                          r"(?:rule|lesson|takeaway|take-away|moral|conclusion|sequence|order\s+of\s+moves|habit)"
                          # (when or where it holds: "my rule from now on is", "the lesson for the quiet case is:")
                          r"(?:\s+(?:from\s+now\s+on|going\s+forward|for\s+(?:the\s+|a\s+)?[\w-]+(?:\s+[\w-]+)?\s+(?:case|cases|time)))?|what|"
                          # ("..., but for next time: if ..., ...": the lesson, headed by when it is for)
                          r"(?:for\s+)?(?:the\s+)?next\s+time(?=\s*:))"
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


# The teacher's own hypothetical before a colon: "If I had to write one rule from it: ...", "If we were to sum it up: ...":
# what the teacher would do, said of no host, so no condition of the order after it.
_HYPOTHETICAL_LEAD = re.compile(r"^\s*if\s+(?:i|we)\s+(?:had|were|was)\s+to\s+(?![^:]*\b(?:user|enterprise|op|defender|host|"
                                r"box|server|machine)\w*\b)[^:;.]{1,60}?:\s*(?=\S)", re.IGNORECASE)


def _lesson(part: str) -> str:
    """A part that names the lesson inside it (_LESSON_LEAD): the lesson, when it orders; else the part."""
    hypothetical = _HYPOTHETICAL_LEAD.match(part)
    if hypothetical is not None and gives_order(part[hypothetical.end():]):
        rest = part[hypothetical.end():]
        return rest[:1].upper() + rest[1:]
    found = _LESSON_LEAD.match(part)
    if found is None or not re.search(r"\b(?:rule|lesson|takeaway|take-away|moral|conclusion|take\s+away|take|draw|learn|"
                                      r"sequence|order\s+of\s+moves|habit|tell\s+(?:myself|ourselves)|recommend|next\s+time)\b",
                                      found.group(0), re.IGNORECASE):
        return part
    rest = part[found.end():]
    rest = rest if gives_order(rest) else _resolved(rest)  # (said as the teacher's resolution: the order it is)
    rest = rest[:1].upper() + rest[1:]
    # (a lesson may name its move as a noun: "the rule I'd give myself is simple: a DecoySvchost on Enterprise0 whenever
    # it is scanned" orders it, as "put a DecoySvchost on ..." would)
    if not (gives_order(rest) or _NOUN_MOVE.match(rest) and not _STORY.search(rest)):
        return part
    # A condition that opens the part, its clause ending where the lead begins ("Once User1 and the ops server are both
    # owned, the order of play should be: ..."), is the lesson's own condition, no story (one told in the past,
    # "When I removed User1, the lesson was ...", is the story's): dropped, the lesson was wider than its words.
    lead = part[:found.end()]
    marker = _CONDITION.match(lead.lstrip())
    if marker is not None and not _STORY.search(lead) and not _TOLD_OF_IT.match(lead.lstrip()) \
            and not _CONDITION.match(rest):
        opening = lead.lstrip()
        end = _clause_end(opening, marker.end())
        if opening[end:end + 1] == "," and _LESSON_LEAD.match(opening[end + 1:].lstrip()) is not None:
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
                       + "|".join(pattern for _, pattern in _VERB_FORMS) + r")\b)", re.IGNORECASE)


def _resolved(lesson: str) -> str:
    """A lesson said as the teacher's own resolution ("for X I recommend Y") as the order it is ("for X, recommend Y")."""
    found = _RESOLVED.match(lesson)
    if found is None:
        return lesson
    scope = found["scope"].strip()
    return f"{scope}, {lesson[found.end():]}" if scope else lesson[found.end():]


# A move named as a noun before what it is on: "a DecoySvchost on Enterprise0", "one Remove per compromised host".
_NOUN_MOVE = re.compile(r"^(?:a|an|one)\s+" + _VERB_WORD + r"\s+(?:on|for|against|of|to|per)\s+\S", re.IGNORECASE)


# The teacher speaking of themselves before the lesson: "I can't say for sure it would have helped, but the lesson seems
# to be: ...", "I'm not sure how much it weighs, but I shouldn't soften it: ...". Said in the first person and of no
# state, access or condition, it is their doubt or their resolve, no situation of the rule.
_FIRST_PERSON = re.compile(r"\b(?:i|i'm|i'd|i've|i'll|we|we're|we'd|my|our|myself)\b", re.IGNORECASE)


# A heading before the order ("Lesson: any user host that ..."): it names what follows, no situation.
_HEADING_ONLY = re.compile(r"^(?:(?:the|my|our|one)\s+)?(?:lesson(?:\s+(?:learn(?:ed|t)|drawn|taken))?|takeaway|take-away|moral|conclusion|rule|"
                           r"note|reminder|tip|runbook|playbook|procedure|policy|sop|checklist|section)"
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


def _signed(opening: str) -> bool:
    """Whether an opening only says who speaks (`_SIGNATURE`)."""
    opening = opening.strip(" ,")
    return bool(_SIGNATURE.match(opening)) and not (hosts_in(opening) or classes_in(opening) or _STATE_WORDS.search(opening)
                                                    or _ACCESS_WORDS.search(opening) or _TIME_WORDS.search(opening))


# (r39m) A note addressed to a role before its order: "Planner:", "chooser only:", "Analyst, this one is for you, not the
# planner:". Who the note is for is the rule's roles (the compiler's), no situation of its trigger: with the roles named
# taken away, only words of address are left (a host, a class, a state or a time would be a situation).
_ROLE_NAME = re.compile(r"\b(?:(?:the|a|an|my|our|every|each)\s+)?(?:planner|analyst|(?:action[\s_-]?)?chooser)s?(?:'s?)?(?=\W|$)",
                        re.IGNORECASE)
_ADDRESS_WORDS = frozenset("""this that these the note notes rule rules one message word reminder is it's its are meant intended
written aimed addressed goes go applies apply for to you your yours and not only just alone solely but also here hey dear
from me please part section""".split())  # (r47m: "planner part", "the chooser's section": the part of a document for it)


# A teacher's verdict on what was taught before, as the opening of a correction: "That is backwards:", "No, that's
# wrong -", "I disagree:", "Scratch that:". It judges an earlier rule, and states no situation of this one (read as its
# condition, it was a clause no reading placed, and its "wrong" or "not" a negation).
_VERDICT_ON_BEFORE = re.compile(r"^(?:(?:no|nope|wrong|wait|actually|sorry|oops|hmm)\s*[,!.]?\s*)?(?:(?:that|this|it)(?:'s|\u2019s|\s+is|\s+was)|"
                                r"i\s+had\s+it)\s+(?:(?:all|just|plain|completely|exactly|simply)\s+)?(?:backwards?|wrong|the\s+wrong\s+way\s+"
                                r"(?:round|around)|mistaken|incorrect|a\s+mistake|not\s+right|upside[\s-]down|reversed|inverted)$|"
                                r"^(?:(?:no|nope|actually)\s*[,!.]?\s*)?(?:i\s+(?:strongly\s+)?disagree|not\s+so|wrong|backwards?)$|"
                                r"^(?:scratch|forget|ignore)\s+(?:that|this|what\s+i\s+(?:said|wrote))$|"
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
    if _STATE_WORDS.search(scope) or _ACCESS_WORDS.search(scope) or _TIME_WORDS.search(scope):
        return False
    left = re.findall(r"[a-z][a-z']*", without_host_names(scope).lower())
    named, spoken = hosts_in(scope), classes_in(scope)
    return (bool(named) or bool(spoken)) and set(named) <= set(hosts_in(rest)) and set(spoken) <= set(classes_in(rest)) \
        and not [w for w in left if w not in ("the", "a", "an", "my", "our")]


def _addressed(opening: str) -> bool:
    """Whether an opening only says which role the note is for (`_ROLE_NAME`, `_ADDRESS_WORDS`)."""
    if not _ROLE_NAME.search(opening) or hosts_in(opening) or classes_in(opening) or _STATE_WORDS.search(opening) \
            or _ACCESS_WORDS.search(opening) or _TIME_WORDS.search(opening):
        return False
    left = re.findall(r"[a-z][a-z']*", _ROLE_NAME.sub(" ", opening).lower())
    # (r48h) or a heading that calls itself a note for the role, with who wrote it or agrees with it: "Blue team memo to
    # the chooser, and the red team agrees", "a memo to the planner from dana" (nothing of a situation: no condition, no
    # move, no negation)
    return all(word in _ADDRESS_WORDS for word in left) or bool(_NOTE_FOR_ROLE.search(opening)) \
        and not (_CONDITION.search(opening) or verbs_in(opening) or negations_in(opening) or _STORY.search(opening))


_NOTE_FOR_ROLE = re.compile(r"\b(?:note|memo|message|reminder|tip|heads[\s-]?up|word)s?\s+(?:for|to)\s+" + _ROLE_NAME.pattern, re.IGNORECASE)


def _teachers_view(opening: str, rest: str = "") -> bool:
    # (hosts it names are what the teacher knows of, "I have not seen enough of User4 to say": no state of theirs)
    # (nor, before an order that states its own condition, a judgement in the first person that names states: "Still,
    # an unanswered scan is a gamble I'd rather not repeat: when the Defender shows a Scan, ...")
    return bool(_FIRST_PERSON.search(opening)) and (bool(_CONDITION.match(rest)) or not (
        _STATE_WORDS.search(opening) or _ACCESS_WORDS.search(opening) or _CONDITION.search(opening)))


_VIEW_SCOPE = re.compile(r"(?:for|on|as\s+for|as\s+to|about|with|when\s+it\s+comes\s+to)\b", re.IGNORECASE)


def _reason_before(opening: str, rest: str) -> bool:
    """Whether an opening before a colon is the reason for an order that states its own condition, said of no host: "a
    host clean a step ago and compromised now is when a Remove is cheapest, so: when a user host is newly compromised,
    remove ..." (no condition of it)."""
    # (a general remark about "a host" / "any box", never one about a named host, a class or the network: "User2 is
    # compromised, so: ...", "the user subnet is under attack, so: ..." state the situation the order is for)
    return bool(re.search(r",\s*so\s*$", opening.strip(), re.IGNORECASE)) and bool(_CONDITION.match(rest.strip())) \
        and bool(re.match(r"\s*(?:a|an|any|every)\s+(?:host|box|machine|server|node)\b", opening, re.IGNORECASE)) \
        and not hosts_in(opening) and not classes_in(opening)


# (r48m) An opening that grants another teacher's note before its own, up to its "but": "You were right about User0, but
# ...", "You drew the right moral for the op hosts, but ...", "Good call on Enterprise1, but ...": what it names is
# the other note's, no situation of this one. (Matched on the text as `read_wording` joins it, where "lesson for X" is
# already said "For X", `_scope_labels_said`.)
GRANTED = re.compile(r"^\s*(?:you(?:['\u2019]re|\s+are|\s+were)\s+(?:quite\s+|absolutely\s+)?right\s+(?:about|on|with|for)|"
                     r"you(?:['\u2019]ve|\s+have)?\s+(?:learned|learnt|drew|drawn|took|taken)\s+the\s+right\s+(?:(?:lesson|moral|conclusion|takeaway)\s+)?(?:for|about|on|from)|"
                     r"good\s+call\s+on|fair\s+(?:point|enough)\s+(?:on|about))\s+[^:;.!?]*?,\s*but\b", re.IGNORECASE)


# (r48m) A bracketed note that keeps a condition to the hosts it names and none other of their kind: "(only Op_Host1, not
# the other op hosts)", "(just Enterprise1 -- not the rest of the servers)"
ONLY_NAMED = re.compile(r"\(\s*(?:only|just)\s+(?P<named>[^,()]+?)\s*(?:,|--?|\u2014|\u2013|;)\s*(?:not|never)\s+(?:the\s+|any\s+)?"
                        r"(?:other|others|remaining|rest\s+of\s+the)\b[^()]*\)", re.IGNORECASE)


def only_named_away(text: str) -> str:
    """(r48m) `text` without its notes that keep a condition to the hosts they name (ONLY_NAMED), where the text names
    those hosts outside them as well: what the condition claims is said of those hosts; the other hosts it sets aside
    are no part of it (read as a condition, "not the other user boxes" asked them quiet, or the note's "other user
    boxes" them shown)."""
    for found in reversed(list(ONLY_NAMED.finditer(text or ""))):
        named = set(hosts_in(found["named"]))
        rest = f"{text[:found.start()]} {text[found.end():]}"
        if named and named <= set(hosts_in(rest)):
            text = f"{text[:found.start()].rstrip()}{text[found.end():]}"
    return text or ""


def _claim_before(opening: str, rest: str) -> bool:
    """(r48m) Whether an opening before a colon is a claim the order rests on, where the order states its own condition
    on every host the opening names: "Op_Server0 is the keystone, not a spare brick: when Op_Server0 is hit, ...",
    "Enterprise0 is no mere workstation: when Enterprise0 is owned, ...", "Nobody else is on watch here: when ...". It
    says no state (no word of state, level or taking over) and names no class; read as a condition, its "not" or "no"
    asked a host quiet that the order's own condition asks compromised. (Not one that names a move, "Enterprise0
    deserves no Restore": a verdict on the move.)"""
    rest = rest.strip()
    return bool(_CONDITION.match(rest)) and gives_order(rest) and not states_something(opening) \
        and not classes_in(opening) and set(hosts_in(opening)) <= set(hosts_in(rest)) \
        and not step_windows(opening) and not _EXCEPT.search(opening) and not verbs_in(opening) \
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


def _opening_situation(opening: str, rest: str = "") -> str:
    """The situation an opening before a colon (and before `rest`, the order) states: none for a story, a note on the
    teacher's rules, a one-word heading or "from now on"; for the teacher's own view, only the scope it hands over to
    after its last "but" ("I'm not sure Remove is always wrong elsewhere, but for Defender: ..." is about Defender)."""
    # (r47m: the role it is for after the heading's comma, "Playbook for <situation>, planner part", is no part of it)
    addressed = re.match(r"^(?P<head>[^,;:]+?)\s*,\s*(?P<role>[^,;:]+)$", opening.strip())
    if addressed is not None and _addressed(addressed["role"]):
        opening = addressed["head"]
    said = _MOVE_SINCE.sub("", opening)  # (the defender's move as the time of a state is no story or view of the teacher)
    if _STORY.search(said) or _ABOUT_RULES.search(opening) or _HEADING_ONLY.match(opening.strip()) \
            or not _FROM_NOW_ON.sub("", opening.strip()) or _signed(opening) or _addressed(opening) \
            or _VERDICT_ON_BEFORE.match(opening.strip(" ,")) or _labelled_heading(opening, rest):
        return ""
    if _reason_before(opening, rest) or _claim_before(opening, rest) or GRANTED.match(opening):
        return ""
    stands = _other_rule_aside(opening.strip())
    if stands and hosts_in(stands["aside"]):
        aside = hosts_in(stands["aside"])
        # (r34h) with the state it is put aside in, if it says one: "but not for User1 at root level"
        stated = states_something(stands["aside"]) or _LEVEL_WORDS.search(stands["aside"])
        return "" if set(aside) <= set(hosts_in(rest)) else stands["aside"].strip() if stated else " and ".join(aside)
    if (revised := _earlier_note_hosts(opening, rest)):
        return revised
    if _teachers_view(said, rest):
        tail = re.split(r"\bbut\b", opening, flags=re.IGNORECASE)[-1].strip(" ,")
        scope = _VIEW_SCOPE.match(tail) if tail != opening.strip(" ,") else None
        return tail if scope and (hosts_in(tail) or classes_in(tail)) else ""
    return opening.strip()


def _past_belief(hedged: re.Match, view: str) -> str:
    """A view the teacher is sure of (or thinks) said before a colon, then an order that states its own condition: "I am
    quite sure that my Analyse gave the attacker its turn: if User3 shows ..., remove ...". What they believe is their
    reason, no situation of the rule (the order says when it holds): the order alone. Else the view as it is."""
    found = _OPENING.match(view)
    if hedged.re not in (_SURE_THAT, _I_THINK_THAT, _BUT_I_BELIEVE) or found is None \
            or _VIEW_SCOPE.match(found["situation"].strip()):
        return view
    rest = found["rest"].strip()
    return rest if _CONDITION.match(rest) and gives_order(rest) else view


def _instruction(text: str) -> tuple[str, str, bool]:
    """(instruction, opening situation, gives an order)."""
    said = [_RESTATED_LEAD.sub("", _VIEW_LEAD.sub("", part)) for part in _parts(text)]
    parts = [_lesson(part) for part in said]
    # (a lesson drawn inside its sentence is the order: a story before it that reads like one, "When Op_Server0 first
    # showed a scan I filed it under noise, ...", told in the first person, is no part of it)
    drawn = next((i for i, (part, lesson) in enumerate(zip(said, parts)) if lesson != part), None)
    first = next((i for i, part in enumerate(parts) if gives_order(part)), None)
    if drawn is not None and (first is None or all(_FIRST_PERSON.search(parts[i]) for i in range(drawn) if gives_order(parts[i]))):
        first = drawn
    if first is None:
        # (r43h: a lesson's heading before it, "Lesson: <state> means ..., so <order>", is none of the state)
        glossed = next(((part, _glossed_state(part)) for part in map(_heading_away, parts) if _glossed_state(part)), None)
        if glossed is not None:  # "<state> means <what it is>, so <order>": the order, in that state
            return without_justification(glossed[0]), glossed[1], True
        return without_justification(" ".join(parts)), "", False
    hedged = _BUT_I_BELIEVE.match(parts[first]) or _after_doubt(parts[first]) or _SURE_THAT.match(parts[first]) \
        or _I_THINK_THAT.match(parts[first])
    if hedged and gives_order(hedged["rest"]):
        parts[first] = hedged["rest"]  # (the doubt before the view, or before the scope, is no part of the order)
        parts[first] = _past_belief(hedged, parts[first])
    situation, first = _stated_consequence(parts, first)  # (may put the order in the place of its part)
    role = _OPENING.match(parts[first])
    if role and _ROLE_HEADING.match(role["situation"].strip()) and _OPENING.match(role["rest"]):
        parts[first] = role["rest"]  # "plan: OpS0 at user level ... -> Restore OpS0": the role it is for, no situation
    found = _OPENING.match(parts[first])
    order = parts[first]
    # ("Lesson: ..." heads the order: what came before it is the story, no situation of it)
    headed = bool(found and _HEADING_ONLY.match(found["situation"].strip()))
    if found and not situation and not gives_order(moves_not_made_away(found["situation"])) and gives_order(found["rest"]):
        # ("Next time: ...", "From now on: ..." open the order; they state no situation)
        # (nor does a note on the teacher's rules: "This replaces my earlier rule on Op_Server0: ...")
        situation = _opening_situation(found["situation"], found["rest"])
        order = found["rest"]
        inner = _OPENING.match(order)
        if situation and not _STATE_WORDS.search(situation) and inner and states_something(inner["situation"]) \
                and not gives_order(inner["situation"]) and gives_order(inner["rest"]):
            # a heading before the situation ("analyst / User1: Compromised User without any activity: recommend ..."):
            # the situation is what follows it ("ops hosts: any exploit: Restore": a heading that names hosts or a class is
            # the scope of that situation, kept with it; one that excepts a host, "usr boxes, not User3 though", is read as
            # the exception it is)
            # (so is one that names the host the analyst is looking at, "analysed machine: root level, no activity -> ...")
            # ("U3 is the exception: pwned at user lvl -> ...": the host the exception is for is the scope)
            situation = _EXCEPTION_HEADING.sub("", situation)
            # (r39h) so is a heading that states a window of steps, "from step 18 on: an op host at root -> ...": when in
            # the episode the situation holds, dropped, the rule held at every step)
            scope = situation if (hosts_in(situation) or classes_in(situation) or _AT_HAND_HEADING.match(situation.strip())
                                  or step_windows(situation)) \
                and not negations_in(situation) and not _EXCEPT.search(situation) else _scope_besides(situation)
            situation, order = inner["situation"].strip(), inner["rest"]
            scope = re.sub(r"^\s*(?:analyst|planner|(?:action[\s_-]*)?chooser)\s*[/:,-]\s*", "", scope, flags=re.IGNORECASE)
            situation = f"{scope}: {situation}" if scope else situation  # (the role it is for is no part of it)
    verdict = _OPENING.match(order)
    if not situation and verdict and _forbids(verdict["situation"]) and _verdict_before(verdict["situation"], verdict["rest"]):
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
    if not situation and first > 0 and not headed and first != drawn and not _CONDITION.search(order) \
            and not _RELATIVE.search(order):
        situation = _situation_told_first(parts[:first])
    if not situation and not _CONDITION.search(order) and not _RELATIVE.search(order):
        order, situation = _situation_after(order, parts[first + 1:first + 2])
    # (an order for the other cases, "...; leave it alone otherwise", is no part of this rule)
    # (r46m: not a ladder's next rung, "else if it only shows a probe, decoy it": a case with its own condition)
    orders = [order] + [p for p in parts[first + 1:] if (gives_order(p) and not _EXPLANATION_LEAD.match(p) or _SCOPE_NOTE.match(p))
                        and (not _OTHERWISE.search(p) or _NEXT_RUNG.match(p))]
    instruction = "; ".join(j for j in (without_justification(_LEAD_WORD.sub("", o)) for o in orders) if j)
    heading = re.match(r"^\s*(?:except(?:\s+for)?|exception\s*(?:for)?|but)\b", situation, re.IGNORECASE)
    return instruction, "" if heading else without_justification(situation).rstrip("."), True


def _situation_told_first(before: list[str]) -> str:
    """A note whose first sentences state the situation (a host's state, then what phase that means, then the order):
    its first statement before the order that is not a story is its condition (what follows a colon in it explains,
    and is left out); "" if none is."""
    for part in before:
        head, said = _opening(part)
        # (r44h) a verdict on a move before the colon, "Not the moment for a Remove: <situation>.", states no
        # situation itself: the one it is about follows the colon (left out, the order held in every state)
        head = said.strip() if _verdict_before(head, said) else head or part
        # (r48b) a move said to fall short there, "a Remove won't do on User1 at root": the situation is where (read
        # whole, the move's "won't" was the situation's negation)
        head = _falls_short_scope(head) or head
        # (a sentence that says what a host is or whose it is, the team that runs it, states no situation)
        # (nor does a moment told in the past, "Every time it seemed quiet for a turn, it was owned again")
        # (r44h: the defender's move as the time of the state, "... just after we restored it", is no story told)
        if not _STORY.search(_MOVE_SINCE.sub("", head)) and not _EXPLANATION_LEAD.match(head) and states_something(head) \
                and not _TOLD_OF_IT.search(head):
            return head
    return ""


def _verdict_before(head: str, said: str) -> bool:
    """(r44h, r44x) Whether `head`, before a colon, is a verdict on a move ("Not the moment for a Remove", "No case for
    Restore") and `said`, after it, the situation it is about: the head names a move but no host and no state, the
    rest a state and no order."""
    return bool(head and verbs_in(head) and not states_something(head) and not hosts_in(head)
                and states_something(said) and not gives_order(said))


# "<state> means <what it is>, so <order>": the state and the order (the gloss is no move: "means restore" orders, _MEANS).
# (r43h: a file's name keeps its dot, "cmd.exe in the evidence means ...", and the host at hand may lead it, "for the host
# under analysis, a <file> in the evidence means ...")
_GLOSSED_STATE = re.compile(r"^\s*(?P<state>(?:(?:for|on)\s+" + HOST_AT_HAND + r"\s*,\s*)?(?:[^,;:.]|\.(?=\w))+?)\s+"
                            r"(?:means?|indicates?|signals?|signifies|points?\s+to)\s+"
                            r"(?!(?:(?:a|an|the)\s+)?" + _VERB_WORD + r")[^.;:,]+,\s*so\s+(?!that\b)(?P<order>.+)$", re.IGNORECASE)


def _heading_away(part: str) -> str:
    """(r43h) A sentence without a heading that only labels it ("Lesson: ...", "Rule: ...")."""
    found = _OPENING.match(part)
    return found["rest"] if found and _HEADING_ONLY.match(found["situation"].strip()) else part


def _glossed_state(part: str) -> str:
    """The state a sentence glosses before ", so ORDER" ("User2 rooted means the attacker owns the lab box, so plan a
    Restore of User2" -> "User2 rooted"), where it names a host or a class and a state and tells no story; else ""."""
    found = _GLOSSED_STATE.match(part)
    if found is None or not gives_order(found["order"]):
        return ""
    state = found["state"].strip()
    if _STORY.search(state) or _FIRST_PERSON.search(state):
        return ""
    if _EVIDENCE_GLOSSED.search(state):
        return state  # (r43h) what the analyst's evidence shows, of the host at hand: judged.py reads it
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
    cut = re.search(rf"\s*(?:[,(]|\b(?:{_EXCEPT_WORDS}|not)\b)", heading, re.IGNORECASE)
    if cut is None:
        return ""
    head, rest = heading[:cut.start()], heading[cut.start():]
    told = [h for m in (*_EXCEPT.finditer(heading), *(m for p in _EXCEPTED_ALONE for m in p.finditer(heading)))
            for h in hosts_in(m["what"])]
    if not classes_in(head) or hosts_in(head) or negations_in(head) or not hosts_in(rest) \
            or not set(hosts_in(rest)) <= set(told):
        return ""
    return head.strip()


# A role named before the rule's own situation ("plan: OpS0 at user level -> Restore OpS0"): whom it is for.
_ROLE_HEADING = re.compile(r"^(?:plan|planner|analyst|action[\s_-]?chooser|chooser)$", re.IGNORECASE)
# (r46m: and a probe, a scan in other words: "probe seen, nothing more -> ..." after a heading is the state its order is for)
_STATE_WORDS = re.compile(r"\b(?:compromis\w*|exploit\w*|scan\w*|prob(?:e|es|ed|ing)\b|breach\w*|infect\w*|root\w*|privileged|"
                          r"reconnaissance|recon|escalat\w*|lateral\w*|impact|quiet|clean|active|activity|alerts?|"
                          r"happening|going\s+on)\b",
                          re.IGNORECASE)


# A state said with a word of taking over a host ("owned", "popped") or a level alone ("at user level"): a state as well.
_TAKEN_OVER = re.compile(r"\b(?:owned|pwned|popped|hacked)\b", re.IGNORECASE)


def states_something(clause: str) -> bool:
    """Whether a clause says a state: a word of state, a level, or a word of taking over a host."""
    return bool(_STATE_WORDS.search(clause) or _LEVEL_WORDS.search(clause) or _TAKEN_OVER.search(clause))


_HOST_BEFORE = re.compile(rf"\b{HOST_NAME}\s*$", re.IGNORECASE)
_HOST_AFTER = re.compile(rf"\s*(?:(?:and|or|as\s+well\s+as|plus)\s+)?{HOST_NAME}\b", re.IGNORECASE)


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
                and (_STATE_WORDS.search(candidate) or _ACCESS_WORDS.search(candidate)) \
                and not gives_order(candidate) \
                and not _STORY.search(candidate) and not _JUSTIFICATION.match(candidate) \
                and not _CONDITION.search(candidate):
            return rest, candidate
    return order, ""


# (r40m: and a move's judgement over another, "beats a Monitor", which ends the condition said before it)
# (r45m: or the inaction it replaces, "instead of leaving it be", "rather than ignoring it")
_INSTEAD_OF_VERB = re.compile(r"\s(?:rather\s+than|instead\s+of|in\s+preference\s+to|in\s+place\s+of|beats|trumps|outranks|"
                              r"wins\s+over)\s+(?:\w+\s+){0,2}?(?="
                              + _VERB_WORD + r"|leav(?:e|es|ing)\s+(?:it|them|that\s+\w+|the\s+\w+)\s+(?:be|alone)\b|ignor(?:e|es|ing)\b)",
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
_GIVEN_TO_MANY = re.compile(r"\s(?:get|receive|deserve|warrant)(?=\s+(?:a|an)\s+" + _VERB_WORD + r")", re.IGNORECASE)


def _first_person_move(clause: str) -> Optional[int]:
    """Where the teacher's own move (_FIRST_PERSON_MOVE), or the move a plural subject is given (_GIVEN_TO_MANY), opens
    the main clause of `clause` once a state is stated before it; None if neither does."""
    move = _FIRST_PERSON_MOVE.search(clause) or _GIVEN_TO_MANY.search(clause)
    # (r44h: the clause may open with the defender's own earlier move, "just after we reimage Op_Host1 we analyse it": its
    # history is the state, and the teacher's move after it opens the main clause)
    if move is not None and move.start() == 0 and _MOVE_BEFORE.match(clause):
        move = next((m for m in _FIRST_PERSON_MOVE.finditer(clause) if m.start() > 0), None)
    # (the state may be the clause's first words, after the "showing" that opened it: "hosts showing a scan get ...")
    if move is None or not (_STATED_BEFORE.search(clause[:move.start()]) or _STATE_WORDS.search(clause[:move.start()])
                            or _MOVE_BEFORE.match(clause[:move.start()])):
        return None
    return move.start()


# (the clause opens with the move, its "after" the condition's marker)
_MOVE_BEFORE = re.compile(r"^\s*" + _DEFENDER_MOVED, re.IGNORECASE)


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
                            + _VERB_WORD + r")", re.IGNORECASE)


# The judgement that opens the main clause after a condition said without a comma ("when the Defender shows an exploit
# the move is a Restore of the Defender", "a user host showing root calls for Restore"): the order, no part of the condition.
_JUDGED_VERB = re.compile(r"\s(?:(?:the|my|our|your)\s+(?:\w+\s+){0,2}?(?:call|move|choice|answer|response|play|fix|remedy|option|"
                          # ("a user box that shows a scan gets an Analyse": the move the host is given)
                          r"thing\s+to\s+do)\s+(?:is|would\s+be|will\s+be|should\s+be)|means|calls?\s+for|warrants?|deserves?|"
                          r"(?:gets|receives|should\s+get|should\s+receive)(?=\s+(?:a|an)\s)|"
                          r"demands?|requires?)\s+(?:(?:simply|just)\s+)?(?:(?:a|an|the|to)\s+)?(?=" + _VERB_WORD + r")", re.IGNORECASE)


# A move named as the subject of a judgement: "an Analyse is pointless by then", "the Restore would be wasted" (r37m)
_MOVE_JUDGED = re.compile(r"\s(?:a|an|the|any)\s+" + _VERB_WORD + r"\w*\s+(?:is|are|would\s+be|will\s+be)\b", re.IGNORECASE)


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
    return bool(_STATE_WORDS.search(piece)) and not _VERB.search(piece) and not _IMPERATIVE_START.match(piece) \
        and not _CONDITION.match(piece) and not re.search(r"\b(?:i|we|you|my|our|your|which|that|since|because|so)\b", piece, re.IGNORECASE)


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


def _clause_end(text: str, start: int) -> int:
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
                and _STATE_WORDS.match(rest[stop.end():]):
            continue  # "if red scanned User2 and then exploited it": what happened next, not the order
        end = stop.start()
        break
    # (r37m) "once it shows root a Remove would be wasted": a move as the subject of a judgement, after the state,
    # opens the main clause
    judged = _MOVE_JUDGED.search(rest[:end])
    bad = _BAD_IDEA.search(rest[:end])  # "Analysing X on a mere scan is wasted": the judgement is no part of the condition
    end = bad.start() if bad else end
    end = judged.start() if judged and judged.start() < end and _STATE_WORDS.search(rest[:judged.start()]) else end
    # "Remove User2 when it is compromised rather than restoring it": the verb so dispreferred is the order's, no
    # restriction of the condition ("scanned rather than exploited", no verb of ours, still restricts it)
    other = _INSTEAD_OF_VERB.search(rest[:end])
    end = other.start() if other else end
    end = _rather_than_end(text[:start], rest[:end], end)
    # "whenever Enterprise0 shows Compromised Privileged I should recommend ...": the teacher's modal opens the main clause
    main = _FIRST_PERSON_MODAL.search(rest[:end]) or _PASSIVE_ORDER.search(rest[:end])
    end = main.start() if main else end
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
    order = next((m for m in re.finditer(rf"\s(?:{_ORDER_FORBID}|does\s+not|doesn'?t|need\s+not|needn'?t|needs?\s+no|{_VERB.pattern})\b",
                                         rest[:end], re.IGNORECASE)
                  if not _ANALYSES_NOUN.match(rest, m.start() + 1) and not _ANALYSES_SAY_NOT.search(rest[:m.start()])), None)
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


def _list_start(instruction: str, start: int) -> int:
    """Where a relative clause that starts at a host begins once the hosts listed right before it are counted in."""
    listed = _LISTED_BEFORE.search(instruction[:start])
    # (only a list that picks one of its hosts, "or" / "any of": a list joined by "and" may be read host by host or all
    # at once, and is left as it was read)
    return listed.start() if listed and re.search(r"\bor\b|\bof\b", listed.group(0), re.IGNORECASE) else start


# (r33h) A state said of the host right before its name: "a probed Op_Host2 with no compromise", "an exploited user
# host that ..." (the relative clause alone left the scan out, and the rule fired on the host's quiet row)
_STATE_BEFORE_HOST = re.compile(r"\b(?:(?:newly|freshly|recently|already|just)\s+)?(?:scanned|probed|exploited|compromised|"
                                r"rooted|owned|pwned|popped|breached|infected|hacked)\s+$", re.IGNORECASE)


def _state_said_before(instruction: str, start: int) -> int:
    """Where a relative clause that starts at a host begins once a state said right before the host is counted in."""
    found = _STATE_BEFORE_HOST.search(instruction[:start])
    return found.start() if found else start


# (r33h) "every time", "each single time" said alone after the order: it says "always", and states no condition
_EMPHASIS_ONLY = re.compile(r"(?:every|each|any)\s*(?:single\s+)?time\s*[.!]*", re.IGNORECASE)


# (r34m) An order on a host it names, set against another host it only describes ("Remove on User2 alone, not on
# that server which fell before it"): the description says which host the order is not for, never when the
# order holds (an order on a class, "every user box, not the one that ...", keeps its relative clause as a condition).
_OTHER_AFTER_NAMED = re.compile(r"(?P<named>\b(?:User\d|Enterprise\d|Op_Host\d|Op_Server0|Defender)(?:\s+(?:itself|alone))?)\s*,\s*"
                                r"(?:and\s+|but\s+)?not\s+(?:on\s+|to\s+|at\s+|for\s+|from\s+)?(?:the|that)\s+(?:[\w-]+\s+){0,3}?"
                                r"(?:one|box|host|server|machine|desk|workstation)\b(?:\s+(?:that|which)\s+[^,.;:()]*)?", re.IGNORECASE)


def other_host_away(text: str) -> str:
    """The text without the other host a named host's order is set against (_OTHER_AFTER_NAMED)."""
    return _OTHER_AFTER_NAMED.sub(lambda m: m["named"], text)


# (r40k) An example said right before a condition's marker: "for instance when ...", "e.g. if ...".
_EXAMPLE_BEFORE = re.compile(r"(?:\bfor\s+(?:instance|example)|\be\.\s?g\.)\s*,?\s*$", re.IGNORECASE)


# (r40k) The words that make a condition an exception, right before its marker: "but not (if)", "except (when)".
_EXCEPTED_CONDITION = re.compile(r"\b(?:(?:but|and|yet)\s+not|except|but\s+never)\s+$", re.IGNORECASE)


def _conditions(instruction: str, situation: str) -> tuple[Condition, ...]:
    spans: list[str] = []
    for marker in _CONDITION.finditer(instruction):
        if re.search(r"\b(?:even|even\s+though)\s*$", instruction[:marker.start()], re.IGNORECASE):
            continue  # "never restore Enterprise1, even if it is compromised": a concession, not a condition
        if _EXAMPLE_BEFORE.search(instruction[:marker.start()]):
            continue  # (r40k) "never restore it; for instance when it turns root late, ...": the example's, not the rule's
        # (r40k) "..., but not if it is compromised", "except once it is rooted": the exception is the condition's
        # own words (read from its marker on, it was the opposite: a condition the rule holds in)
        excepted = _EXCEPTED_CONDITION.search(instruction[:marker.start()])
        span = instruction[excepted.start() if excepted else marker.start():_clause_end(instruction, marker.end())]
        if _EMPHASIS_ONLY.fullmatch(span.strip()):
            continue  # (r33h) "Restore it. Every time.": the order's emphasis, no condition of its own
        spans.append(span)
    for relative in _RELATIVE.finditer(instruction):
        if any(m.start() < relative.start() < m.end() for m in _OTHER_AFTER_NAMED.finditer(instruction)):
            continue  # (r34m) "remove User0 itself, not the box that was hit earlier": the other host, no condition
        start = _state_said_before(instruction, _list_start(instruction, relative.start()))
        spans.append(instruction[start:_clause_end(instruction, relative.end())])
    # (r44x: and the subject of a verdict against a move, "Op_Host1 at root a step after its Restore is no case for a
    # Remove", the level and the history with it; not a subject that opens a condition or a relative clause of its own,
    # which those read; a level is a state there, not in "Unknown after a Remove means the Remove worked", a gloss)
    verdicts = [m for m in _NO_CASE_FOR.finditer(instruction)
                if not _CONDITION.search(m["situation"]) and not _RELATIVE.search(m["situation"])]
    for means in (*_MEANS.finditer(instruction), *verdicts):  # "User2 under exploit means Remove User2": when it shows an exploit
        if means not in verdicts and _MEANS_DISOWNED.search(means["situation"]):
            continue  # (r48a) "it is wrong to think a scan there means you plan a decoy": no situation of an order
        if _STATE_WORDS.search(means["situation"]) or means in verdicts and states_something(means["situation"]):
            # ("For an inspected machine, root access means Restore": the scope before it says whose state it is)
            scope = _MEANS_SCOPE.search(instruction[:means.start("situation")])
            spans.append(f"{scope['scope'] if scope else ''} {means['situation'].strip()}".strip())
    scope = _SCOPE_STATE.match(instruction)
    if scope and (hosts_in(scope["situation"]) or classes_in(scope["situation"]) or _ANY_HOST.match(scope["situation"])) \
            and not re.search(r"\b(?:i|we|my|our|me|us)\b", scope["situation"], re.IGNORECASE) \
            and (_STATE_WORDS.search(scope["situation"]) or _LEVEL_WORDS.search(scope["situation"])):
        spans.append(scope["situation"].strip())  # "for Enterprise0 at Unknown, plan an Analyse": when it is at Unknown
    # (r42h) "Just after you restored User3, when it shows a scan, ...": the move that leads the order is a condition of
    # its own beside the one after it (left out, the rule spoke at every step the later one held)
    if acted := _ACTED_LEAD.match(instruction.strip()):
        spans.append(acted.group(0))
    # (r39m) "..., and no Restore of it in the last two steps": the move not made, with its window, is one condition
    spans.extend(m.group(0) for p in MOVES_NOT_MADE for m in p.finditer(instruction))
    spans.extend(_at_level(instruction))
    spans.extend(_with_state(instruction))
    spans.extend(_later_situations(instruction))
    # (r34h) "facing an intruder who is driving directly at Enterprise1, ...": what the rule is for, a condition on
    # the attacker (read as no condition, the order's own state decided alone)
    spans.extend(m.group(0) for m in _AGAINST_ATTACKER.finditer(instruction))
    if situation:
        # ("Enterprise1 is the exception: when it shows ..., ...": a heading that names the host the rule is for)
        spans.append(_LEAD_WORD.sub("", _EXCEPTION_HEADING.sub("", _GLOSS.sub("", situation))))
    out = []
    unique = list(dict.fromkeys(s.strip() for s in spans if s.strip()))
    for span in (u for u in unique if not any(u != other and u in other for other in unique)):  # "during a step" in
        # "When no alert fires during a step" is part of that condition, not another one
        out.append(Condition(span, negations_in(span), hosts_in(span), classes_in(span)))
    return tuple(out)


# (r38m) An order opened by a phrase of state: "With User1 compromised, remove it", "with two or more user boxes owned,
# restore them", "At root, Restore it instead" (a step of a list on the host its heading names). The phrase is
# when the order holds (read as no condition, a compiled predicate that left its count or its state out passed the
# checks, and a list's later step stood with no condition of its own).
_STATE_OPENER = re.compile(r"^\s*(?:(?:\d+[.)]|[-*])\s*)?(?P<lead>with|at)\s+(?P<situation>[^,;:.]{3,80}?)\s*,\s*(?P<rest>\S.*)$",
                           re.IGNORECASE)


def _with_state(instruction: str) -> list[str]:
    """The phrase of state that opens an order or a step of a list (`_STATE_OPENER`): one that names a host's level
    ("at user level", "at root"), or hosts or a class and their state ("with User1 compromised"), no move and no teller,
    with an order after it; [] where there is none."""
    found = []
    for piece in re.split(r"\s*;\s*", instruction):
        opened = _STATE_OPENER.match(piece)
        if opened is None or not gives_order(opened["rest"]):
            continue
        said = opened["situation"]
        if verbs_in(said) or _FIRST_PERSON.search(said):
            continue
        if opened["lead"].lower() == "at":
            # ("at step 4, ...", "at the start, ...": a moment, no state; a level alone is the state of the host at hand)
            if _LEVEL_WORDS.match(said.strip()) and len(said.split()) <= 3:
                found.append(f"{opened['lead']} {said.strip()}")
            continue
        if (hosts_in(said) or classes_in(said)) and (_STATE_WORDS.search(said) or _LEVEL_WORDS.search(said)
                                                     or _TAKEN_OVER.search(said)):
            found.append(f"{opened['lead']} {said.strip()}")
    return found


def _later_situations(instruction: str) -> list[str]:
    """(r37m) The situation of a later case in a note of cases, each "<situation> -> <order>" ("E0 scan only -> decoy it;
    E0 under exploit -> Remove it instead", the arrows read as colons): after a semicolon, what comes before the colon
    when it names a host or class and a state, and no move and no teller. The first case's situation is the note's
    opening; left unread, a later case's order stood with no condition of its own."""
    found = []
    for piece in re.split(r"\s*;\s*", instruction)[1:]:
        head, colon, order = piece.partition(":")
        if not colon or not order.strip() or verbs_in(head) or _FIRST_PERSON.search(head) or _CONDITION.search(head):
            continue
        if (hosts_in(head) or classes_in(head)) and (_STATE_WORDS.search(head) or _LEVEL_WORDS.search(head)):
            found.append(head.strip())
    return found


# The attacker the rule is for, said before the order: "against an attacker that ...", "facing the b_line kind of red"
_AGAINST_ATTACKER = re.compile(r"\b(?:against|facing|versus|vs\.?)\s+(?:an?\s+|the\s+)?(?:[\w-]+\s+){0,3}?"
                               r"(?:attacker|adversary|red(?:\s+agent)?|intruder|opponent|enemy)\b[^,;:.]*", re.IGNORECASE)
# Whose view an exception heading states, "for me", "in my book": no part of what it excepts.
_WHOSE_VIEW = r"(?:for\s+(?:me|us|now)|in\s+my\s+(?:book|view))"


# (r37h) An aside in brackets after the heading, "U3 is the exception (the lab's box): ...", says why, no condition.
_HEADING_ASIDE = r"(?:\s*\([^()]{1,100}\))?"  # (r41h, r41m: an aside of a sentence's length)
_EXCEPTION_HEADING = re.compile(r"(?<=\w)\s+(?:is|are)\s+(?:the|an|a)\s+(?:(?:one|big|main|only)\s+)?(?:exception|special\s+case|odd\s+one\s+out)"
                                r"(?:\s+(?:here|to\s+(?:that|this|the\s+rule)|to\s+[^.;:!?]{1,60}|" + _WHOSE_VIEW + r"))?"
                                + _HEADING_ASIDE + r"\s*$", re.IGNORECASE)
# A situation glossed: "Op_Server0 compromised means we are in the impact phase", "..., i.e. the impact phase": the
# gloss names what the situation is, no further condition.
_GLOSS = re.compile(r"\s*,?\s+(?:which\s+)?(?:means|i\.e\.|that\s+is)\s+(?!(?:(?:a|an|the)\s+)?" + _VERB_WORD + r")[^.;:]*$",
                    re.IGNORECASE)
# What an order's "X means / calls for / warrants VERB" says of when: X, a situation ("Enterprise0 rooted means restore
# Enterprise0", "an exploit on a user host calls for Remove on that host").
# (r44x: not "X doesn't call for VERB", a verdict against the move, _NO_CASE_FOR: its "doesn't" was read as a denial)
# (r48b: or one said with a hedge, "a scan on User1 means you might / could / may plan a decoy": no order, as "you might plan
# a decoy on User1 when it shows a scan" is none, but its situation is the one the words speak of, as that "when" is; read
# as none, a compiled predicate of the bare host passed)
_MEANS = re.compile(r"(?P<situation>[^,;:.]+?)(?<!\bnot)(?<!n't)(?<!n\u2019t)\s+(?:" + _MEANS_ADDRESSED + r"|" + _MEANS_DENIED
                    + r"means\s+(?:that\s+)?(?:you|we)\s+(?:might|could|may)(?:\s+(?:want\s+to|wish\s+to|consider|like\s+to))?"
                    r"(?:\s+" + _ADDRESSED_VERB + r")?|calls?\s+for|warrants?|deserves?|demands?|requires?|"
                    r"needs?(?!\s+(?:to|no|not|nothing|never|none|neither|any)\b))\s+(?:(?:a|an|the)\s+)?"
                    r"(?=" + _VERB_WORD + r")", re.IGNORECASE)


# (r48a) A "means" the teacher disowns or reports from another, in the words before it: "it is a myth that a scan there
# means you plan a decoy", "someone said an exploit means we remove it" (what follows is no order of the text: read as
# its situation, the doubt was placed in a condition and an order of the move passed the polarity check).
_MEANS_DISOWNED = re.compile(r"\b(?:wrong|false|untrue|myth|mistaken|mistake|nonsense|not\s+true|not\s+(?:every|all|each))\b|"
                             r"\b(?:someone|somebody|people|they|others?|he|she|many|some)\s+(?:\w+\s+)?(?:said|says|say|think|thinks|"
                             r"thought|believe|believes|believed|assume|assumes|assumed|told)\b|"
                             r"(?<!\bi\s)(?<!\bwe\s)\b(?:claims?|claimed|insists?|insisted)\b|\b(?:allegedly|supposedly)\b",
                             re.IGNORECASE)
# The scope a sentence opens with, before the situation its "means" is said of: "For User3, ...".
# (r44x) "<situation> is no case for / doesn't call for / needs no <move>": the situation a verdict against a move is said
# of, as its subject (the verdict itself is read as a prohibition, _NOT_A_CASE_FOR, _FORBID)
# (its subject within its clause: not over a "that" or a "but" that opens it, "my takeaway is that <situation> needs no ...")
_NO_CASE_FOR = re.compile(r"(?P<situation>\b(?:(?!\b(?:that|but)\s)[^,;:.])+?)\s+(?:(?:is|are|was|'s)\s+" + _NOT_A_CASE_FOR + r"|"
                          r"(?:does\s+not|doesn['\u2019]?t|do\s+not|don['\u2019]?t)\s+(?:call\s+for|need|warrant|require|deserve|"
                          r"demand|justify|mean)|(?:needs?|calls?\s+for|warrants?|deserves?)\s+no)\s+(?:(?:a|an|the|any)\s+)?"
                          r"(?=" + _VERB_WORD + r")", re.IGNORECASE)
_MEANS_SCOPE = re.compile(r"(?:^|[.;:]\s*)(?P<scope>(?:for|on)\s+[^,;:.]{2,60},)\s*$", re.IGNORECASE)
# (or of a host of any class: "for a machine at Unknown with no scan showing, suggest an Analyse")
_ANY_HOST = re.compile(r"(?:a|an|any)\s+(?:host|machine|box|system)\s", re.IGNORECASE)
# A scope that opens the order and states its host's state: "for Enterprise0 at Unknown, plan an Analyse", "on a user
# box with an exploit: Remove it". The state is the order's condition (read as no condition, a compiled predicate that
# only asked that Enterprise0 be shown passed every check and fired on its row at Compromised User).
# (a host or class of at most three words, then its state in at most seven, told by no "I" or "we": "For User0 and User1
# both compromised I removed them one at a time, ..." is a story, no scope)
_SCOPE_STATE = re.compile(r"^\s*(?:for|on)\s+(?P<situation>(?:(?:a|an|any|every|each|the)\s+)?(?:[\w-]+\s+){0,2}?[\w-]+\s+"
                          r"(?:at|showing|shows|with|in|under|that\s+(?:is|shows)|which\s+(?:is|shows)|(?:still\s+)?(?:sitting|stuck)\s+at)"
                          r"(?:\s+[\w-]+){1,7}?)\s*[,:]\s*(?=\S)", re.IGNORECASE)
_LEVEL_WORDS = re.compile(r"\b(?:unknown|user[- ]level|privileged|root\w*|admin\w*)\b", re.IGNORECASE)
# A level said after the host or class it is of, with no condition word ("Restore User1 at root", "Remove Enterprise2 at
# user level, never Restore it", "the move for the user hosts at Privileged"): the state of that subject, when the rule
# applies (left unread, a predicate that only asks the host be shown passed as the whole condition).
_AT_LEVEL = re.compile(r"\s+(?:(?:is|are)\s+)?(?:(?:still|sitting|stuck)\s+)?at\s+(?:(?:a|the)\s+)?"
                       r"(?:user[\s-]level|user|root|privileged|unknown|admin(?:istrator)?|system)\b"
                       r"(?:[\s-]+(?:level|access|privileges?|compromise|rights))?", re.IGNORECASE)


# A quiet state said right after the level ("User4 at root with no alerts ought to be reimaged"): part of the
# same condition (left out, the rule reads as "at user level" in any activity, and its "no" as a prohibition's)
# (r47h: or "with nothing running (on it)", "and nothing going on": the same quiet row in other words, condition.nothing_on_it_said)
_QUIET_AFTER_LEVEL = re.compile(r"\s*,?\s*(?:(?:with|and|showing|but)\s+(?:no|zero)\s+(?:(?:further|current|new)\s+)?"
                                r"(?:activity|alerts?|exploits?|scans?|scanning)\b|(?:with|and)\s+nothing\s+(?:(?P<others>else)\s+)?(?:is\s+|'s\s+)?"
                                r"(?:running|happening|going\s+on|active)(?:\s+(?:on|in)\s+it\b|"
                                # (r47a) the other hosts' quiet ("with nothing else running", "... anywhere else", "... on the
                                # op side"): kept in the condition as said, which no reading places (not this host's row)
                                r"(?(others)|(?=\s+(?:anywhere|elsewhere|else|across|around|beyond|outside|on|in|at)\b))[^,;.:!?]*)?"
                                r"\b(?!\s*,?\s*(?:but|except|besides|save|bar|apart\s+from|other\s+than|aside\s+from)\b))", re.IGNORECASE)


def _at_level(instruction: str) -> list[str]:
    """The conditions "<host or class> at <level>" said after the order's subject (`_AT_LEVEL`), with a quiet state said
    right after it (`_QUIET_AFTER_LEVEL`)."""
    found = []
    for level in _AT_LEVEL.finditer(instruction):
        quiet = _QUIET_AFTER_LEVEL.match(instruction, level.end())
        said = level.group(0) + (quiet.group(0) if quiet else "")
        words = instruction[:level.start()].split()
        # the host right before it ("User1"), or the nearest words that name a class ("ent srvs", "the user hosts");
        # never a host further back ("User4 still sat at user level" tells a story)
        for size in (1, 2, 3):
            subject = " ".join(words[-size:])
            if len(words) >= size and (hosts_in(subject) if size == 1 else classes_in(subject)):
                found.append(f"{subject}{said}")
                break
    return found


# ("a probe on it and nothing else, ...": "nothing else" / "anything else" is what the host shows, not the other cases;
# read as "else", the whole sentence was dropped, its "rather than any Remove" with it)
_NEXT_RUNG = re.compile(r"^\s*(?:or\s+)?(?:else|otherwise)\s*,?\s*(?:if|when|whenever|once)\b(?![^,;:]*\b(?:otherwise|else)\b)", re.IGNORECASE)
_RUNG_AFTER = re.compile(r"(?:[;,.!]|\s[-\u2013\u2014]+)\s*(?=(?:or\s+)?(?:else|otherwise)\s*,?\s*(?:if|when|whenever|once)\b)", re.IGNORECASE)


def first_rung(text: str) -> str:
    """(r46a) The first case of an if / else-if ladder: the text up to its next rung ("If E1 is owned, Restore it;
    otherwise, if a scan is all it shows, decoy it" -> "If E1 is owned, Restore it"); the text as it stands where it has none.
    Each rung pairs its own condition with its own order: one compiled predicate and action are held to one rung (held to
    the ladder's conditions and orders at once, a Restore compiled for the scanned case passed, the opposite of its rung)."""
    # (r46b: not a rung that only leaves a host alone, "otherwise, if it is User0, leave it be": the order's exception)
    found = next((m for m in _RUNG_AFTER.finditer(text or "") if not _LEFT_ALONE_CASE.match(text, m.start())), None)
    return text[:found.start()].rstrip() if found and found.start() > 0 else text
_OTHERWISE = re.compile(r"\b(?:otherwise|or\s+else|(?<!\bnothing\s)(?<!\banything\s)(?<!\bsomething\s)(?<!\beverything\s)else|in\s+(?:all\s+)?other\s+cases|the\s+rest\s+of\s+the\s+time)\b", re.IGNORECASE)


def _contrasted(instruction: str) -> tuple[str, ...]:
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
            group = next((c for pattern, c in _CLASS_FORMS if pattern.match(after)), None)
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
        host = next(((h, m) for pattern, h in _HOST_FORMS if (m := pattern.match(text, at))), None)
        if host is None:
            return found
        found.append((host[0], host[1].end()))
        joined = re.compile(r"\s*(?:,\s*(?:and\s+|or\s+|nor\s+)?|\s+(?:and|or|nor)\s+)").match(text, host[1].end())
        if joined is None:
            return found
        at = joined.end()


# After "before" / "ahead of", a move named before the hosts it is on: "any Restore of", "a Remove on", "restoring".
_MOVE_PUT_SECOND = re.compile(r"(?:(?:any|a|an|every|each)\s+)?" + _VERB_WORD + r"\s+(?:(?:of|on|to|for)\s+)?(?:(?:a|an|the|any|every|each)\s+)?",
                              re.IGNORECASE)


_OTHERS = re.compile(r"\b(?:the\s+)?(?:other|rest\s+of\s+the|remaining|every\s+other|all\s+(?:the\s+)?other)\b", re.IGNORECASE)


def _others(scope: str, instruction: str, hosts: tuple[str, ...], classes: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A prohibition on "the other user hosts" ("restore User1, but never the other user hosts"): the hosts of the
    class the text does not name, not the whole class."""
    if not classes or not _OTHERS.search(scope):
        return hosts, classes
    named = set(hosts_in(instruction))
    return tuple(dict.fromkeys([*hosts, *(h for c in classes for h in HOST_CLASSES[c] if h not in named)])), ()


def _told_others(flat: str, whole: str, instruction: str) -> tuple[str, ...]:
    """The hosts an order leaves out by calling the rest of their class "the other ..." when the text names them only
    outside the order, in its story ("DecoyApache on Enterprise0 paid off. Put one on the other enterprise servers too
    whenever they get scanned.": Enterprise1 and Enterprise2, not Enterprise0). A host the order itself names stays
    (it may be its condition or its first move)."""
    told = set(hosts_in(flat)) - set(hosts_in(whole))
    return tuple(h for m in _OTHERS.finditer(instruction) if not _counted_other(instruction[:m.start()])
                 for cls in classes_in(" ".join(instruction[m.end():].split()[:3]))[:1] for h in HOST_CLASSES[cls] if h in told)


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
_JUDGED_CLAUSE_START = re.compile(r",|\b(?:and|but|while|whereas)\s+(?=(?:(?:a|an|the)\s+)?(?:" +
                                  "|".join(pattern for _, pattern in _VERB_FORMS) + r")\b)", re.IGNORECASE)


def _judged_subject(before: str) -> str:
    """The words before a judgement ("... is pointless") that it is said of: its own clause (`_JUDGED_CLAUSE_START`)."""
    return _JUDGED_CLAUSE_START.split(before)[-1]


def _falling_short(text: str) -> tuple[str, ...]:
    """(r41m) The moves the text says fall short ("a Remove won't clear root"), can wait ("the Restore of User2 can
    wait a turn") or asks what good they would do (r42m, `_QUESTIONED`), read in the whole text: the words that say so are often a clause after the order ("...; a Remove does
    not clear root"), which the order's reading drops."""
    text = " ".join(text.split())
    return tuple(dict.fromkeys(verb for pattern in (_FALLS_SHORT, _CAN_WAIT, _QUESTIONED, _COSTLY) for match in pattern.finditer(text)
                               if not _fails_in_condition(text[:match.start()]) and not _move_put_off(text[:match.start("verb")])
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


_FALLS_SHORT_CLAUSE = re.compile(_FALLS_SHORT.pattern + r"[^.;:,]*", re.IGNORECASE)


def falls_short_away(text: str) -> str:
    """(r41m, r41h) The text without the clauses that say a move falls short ("a Remove won't clear root"): what a move
    does, a reason against it, no condition of the order and no move the defender made (no history)."""
    text = text or ""
    return _FALLS_SHORT_CLAUSE.sub(lambda m: m.group(0) if _fails_in_condition(text[:m.start()]) else " ", text)


def _fails_in_condition(before: str) -> bool:
    """(r41m) A move said to fall short inside a condition, "if a Remove doesn't clear it, ...": the fallback's
    condition, not a dispreference (the words of its own clause before it)."""
    return bool(re.search(r"\b(?:if|when|whenever|unless|once|in\s+case|should|whether|until)\b",
                          re.split(r"[.;:!?,]", before)[-1], re.IGNORECASE))


# (r48a) A host kept from a move, "keep User1 out of any Restore", "hold Op_Host0 clear of Remove actions", or a move
# kept off a host, "keep the decoys off User3", "keep any Remove away from Enterprise0": a prohibition of the move on
# that host (read as none, the move's name was the order and a compiled order of it on the host passed as the text).
_KEPT_FROM = r"(?:out\s+of|away\s+from|off|clear\s+of|free\s+(?:of|from)|safe\s+from)"
_KEPT_FROM_MOVE = re.compile(r"\b(?:keep|hold)\s+(?P<what>(?:(?!\b(?:" + _KEPT_FROM + r")\b)[^.;:,!?]){1,50}?)\s+" + _KEPT_FROM + r"\s+"
                             r"(?:(?:a|an|the|any|every|all|each|your|our|further|more|another)\s+)*(?P<verb>(?=" + _VERB_WORD + r"))",
                             re.IGNORECASE)
_MOVE_KEPT_OFF = re.compile(r"\bkeep\s+(?:(?:a|an|the|any|every|all|each|your|our|further|more)\s+)*(?P<verb>(?=" + _VERB_WORD + r"))"
                            r"[\w-]+\s+(?:[\w-]+\s+)?" + _KEPT_FROM + r"\s+(?P<what>[^.;:,!?]{1,60})", re.IGNORECASE)


def _prohibitions(instruction: str) -> tuple[tuple[Prohibition, ...], tuple[str, ...]]:
    # "...; leave it alone otherwise": a prohibition for the other cases is no part of this rule's order
    instruction = "; ".join(p for p in re.split(r"\s*;\s*|(?<=[.!?])\s+", instruction) if not _OTHERWISE.search(p))
    instruction = _host_lists_joined(instruction)
    found: list[Prohibition] = []
    for match in _ANY_VERB.finditer(instruction):
        after = instruction[match.end():]
        if _VERB.match(after.lstrip()):
            continue  # "don't bother analysing X": a prohibition of that verb (below)
        scope = re.split(r"[.;:!?]|,\s*(?:but|and|then|instead)\b", after, maxsplit=1)[0]
        if match.group(0).lower().startswith("leave"):
            scope = after[:after.lower().find("alone")]
        hosts, classes = _others(scope, instruction, hosts_in(scope), classes_in(scope))
        # "don't touch Op_Server0 with a Remove": the move named after "with" is the one forbidden, not every move
        tool = re.search(r"\bwith\s+(?:(?:a|an|the|any)\s+)?", scope, re.IGNORECASE)
        verb = _VERB.match(scope, tool.end()) if tool else None
        if hosts or classes or re.search(r"\b(?:it|that host|them|this host)\b", scope, re.IGNORECASE):
            found.append(Prohibition(_canonical_verb(verb, scope[verb.end():]) if verb else None, hosts, classes))
    found += _forbidden_by_word(instruction)
    for match in (*_KEPT_FROM_MOVE.finditer(instruction), *_MOVE_KEPT_OFF.finditer(instruction)):
        # (r48a) "keep User1 out of any Restore", "keep the decoys off User3": the move forbidden on what is kept from it
        verb = _VERB.search(instruction, match.start("verb"))
        hosts, classes = hosts_in(match["what"]), classes_in(match["what"])
        if verb is not None and (hosts or classes or re.fullmatch(r"\s*(?:it|them|that\s+host|this\s+host)\s*", match["what"], re.IGNORECASE)):
            found.append(Prohibition(_canonical_verb(verb, instruction[verb.end():]), hosts, classes))
    for match in _NEITHER_NOR.finditer(instruction):  # "neither User1 nor User2 should be restored": both hosts
        verb = _VERB.match(instruction, match.end())
        if verb is not None:
            named = f"{match['first']} {match['second']}"
            found.append(Prohibition(_canonical_verb(verb, instruction[verb.end():]), hosts_in(named), classes_in(named)))
    for clause in re.split(r"[.;:!?]", instruction):
        bad = _BAD_IDEA.search(clause)
        # the verb judged is the subject of the judgement: the first of the words after the last comma before it ("plan a
        # Remove, a Restore there is overkill" judges the Restore), else the clause's first ("Restoring Enterprise1, in my
        # view, is pointless")
        subject = _judged_subject(clause[:bad.start()]) if bad else ""
        verb = (_VERB.search(subject) and _VERB.search(clause, bad.start() - len(subject))) or _VERB.search(clause[:bad.start()]) \
            if bad else None
        if verb is not None and _move_put_off(clause[:verb.start()]):
            verb = None  # (r46a) "waiting on a Restore = waste of a step": the wait is the waste, not the Restore
        if verb is not None:  # "restoring Enterprise1 is pointless", "Restore is not the answer for User1"
            found.append(Prohibition(_canonical_verb(verb, clause[verb.end():]), hosts_in(clause), classes_in(clause)))
    return tuple(found), tuple(dict.fromkeys(_dispreferred(instruction, found)))


def _forbidden_by_word(instruction: str) -> list[Prohibition]:
    """The prohibitions a word of forbidding says ("never", "do not", "no <move>", `_forbidding`), each on the hosts
    after its move or, with none there, on the subject before it ("User1 should never be restored")."""
    found: list[Prohibition] = []
    for match in _forbidding(instruction):
        before = instruction[:match.start()]
        if _after_auxiliary(instruction, match):
            continue  # "if it is not restored", "if it has never been restored": a condition, not an order
        verb = _VERB.match(instruction, match.end())
        if verb is None or _omission_costly(instruction, verb):
            continue  # (r46b) "not restoring is expensive": the omission is the cost, the Restore is urged
        after = instruction[verb.end():]
        # (r48b: nor past "and <subject> gets ...", "no Restore and User1 gets no Remove": a clause of its own subject)
        scope = re.split(r"[.;:!?,]|\b(?:but|instead|rather|then|when|if|while|unless|whenever)\b|" + _NEXT_SUBJECT, after, maxsplit=1)[0]
        hosts, classes = hosts_in(scope), classes_in(scope)
        # (r48b) "Enterprise0 gets no Restore and no Remove", "..., no Remove": a second "no <move>" joined to the first is
        # said of the same subject (read alone, its subject was none and the move was forbidden on every host)
        if re.match(r"no\b", match.group(0), re.IGNORECASE):
            before = _NO_MOVE_JOINED.sub("", before)
        if not hosts and not classes and _said_of_subject(before, match):
            subject = re.split(r"[.;:!?,]", before)[-1]  # "User1 should never be restored": the host before it
            # (r48b) the subject of the last clause, after a move of its own: "Enterprise0 gets no Restore and User1 gets"
            joined = [m for m in re.finditer(_NEXT_SUBJECT, subject) if _VERB.search(subject[:m.start()])]
            subject = subject[joined[-1].end():] if joined else subject
            hosts, classes = hosts_in(_subject_itself(subject)), classes_in(_subject_itself(subject))
            if not hosts and not classes and re.search(r"\b(?:" + _EXCEPT_WORDS + r"|but)\b", subject, re.IGNORECASE):
                # (r48a) "any host but User1 gets no Remove", "every server except Enterprise0 ...": the hosts the
                # subject's word covers but those it leaves out (read as the host left out, the prohibition was its opposite)
                covered = (*HOST_CLASSES["Enterprise"], "Op_Server0") if re.search(r"\bservers?\b", subject, re.IGNORECASE) \
                    else HOSTS
                hosts = tuple(h for h in covered if h not in hosts_in(subject))
        hosts, classes = _others(scope, instruction, hosts, classes)
        found.append(Prohibition(_canonical_verb(verb, after), hosts, classes))
    return found


def _dispreferred(instruction: str, found: list[Prohibition]) -> list[str]:
    """The moves the text puts after another or turns down in favour of one ("rather than", "before any Remove", "as a
    last resort", "worse than", "beats"), and with "instead" the moves `found` forbids."""
    dispreferred: list[str] = []
    for match in _DISPREFER.finditer(instruction):
        verb = _VERB.match(instruction, match.end())
        if re.match(r"\s*not\b", match.group(0), re.IGNORECASE) and re.search(
                r"\b(?:is|are|was|were|has|have|had|did|does|do)\s*$", instruction[:match.start()], re.IGNORECASE):
            continue  # "if User1 is not compromised restore User0": a condition
        if verb is not None and _omission_costly(instruction, verb):
            continue  # (r46b) "not restoring is expensive": the omission is the cost, the Restore is urged
        if verb is not None:
            dispreferred.append(_canonical_verb(verb, instruction[verb.end():]))
    for match in _PUT_SECOND.finditer(instruction):  # "Analyse it first, before any Remove": the Remove waits
        verb = _VERB.match(instruction, match.start("before") if match["before"] else match.start("after"))
        if verb is not None:
            dispreferred.append(_canonical_verb(verb, instruction[verb.end():]))
    for match in _LAST_RESORT.finditer(instruction):
        verb = _VERB.search(instruction, match.start())
        if verb is not None:
            dispreferred.append(_canonical_verb(verb, instruction[verb.end():]))
    for match in _COMPARED.finditer(instruction):
        first, second = verbs_in(match["first"]), verbs_in(match["second"])
        worse = first if match["how"].lower() in ("worse", "riskier", "costlier") else second
        dispreferred += list(worse[:1])
    for match in _BEATS.finditer(instruction):
        dispreferred += list(verbs_in(match["second"])[:1])
    if re.search(r"\binstead\b", instruction, re.IGNORECASE):
        # "Don't restore X; remove it instead": the forbidden verb is the dispreferred one.
        dispreferred += [p.verb for p in found if p.verb is not None]
    return dispreferred


# The exceptions said with a verb that may be the order itself ("leave X out", "exclude X").
_LEFT_OUT_PATTERNS = frozenset(p.pattern for p in _EXCEPTED_ALONE if re.search(r"leave|exclude", p.pattern))


def _is_the_order(instruction: str, conditions: tuple["Condition", ...]) -> bool:
    """Whether "leave X out" / "exclude X" is the order itself ("As long as the op subnet is quiet, leave Op_Server0 out
    of the plan": a prohibition on X), not an exception to it: the order, its conditions aside, names no move of its own
    and no class or hosts in general that X could be left out of ("restore the compromised user hosts, but leave User0
    out", "when a user host is exploited, remove the attacker from it; leave User0 out of it")."""
    order = order_without_conditions(instruction, conditions)
    return not verbs_in(order) and not classes_in(order) and not _GENERAL_HOST.search(order) \
        and not re.search(r"\b(?:all|every|each)\b", order, re.I)


# (r42m) Where a sentence opens: its start, or its start and a lead word ("Still, User3 is the exception: ...", "That said,
# ..."), which opens the heading's sentence as it opens an order's.
_SENTENCE_OPENS = re.compile(r"(?:^|[.!?;]\s*)(?:" + _LEAD_WORD.pattern.removeprefix("^") + r")?$", re.IGNORECASE)


def _heading(text: str, match: re.Match) -> bool:
    """An exception that heads the rule ("Except for User0: do not restore it ..."): the rule is about that host."""
    starts = _SENTENCE_OPENS.search(text[:match.start()].rstrip(" \"'("))
    # (what it is the exception to may follow before the colon: "Enterprise2 is the exception to our usual enterprise
    # handling: when it is compromised, ...")
    # (r35h: or whose view it is, "Op_Host1 is the exception for us: whenever ...": the rule is about that host all the same)
    return bool(starts) and bool(re.match(r"(?:\s+to\s+[^.;:!?\u2013\u2014]{1,60}?|\s+" + _WHOSE_VIEW + r")?" + _HEADING_ASIDE
                                          + r"(?:\s*[:\u2013\u2014]|\s+-\s)",
                                          text[match.end():]))


# "it", "that host", "the same machine": a host the sentence does not name.
_PRONOUN = re.compile(r"\b(?:it|its|it's|there|(?:that|this|the\s+same)\s+(?:host|machine|box|server|workstation|one|node))\b",
                      re.IGNORECASE)
# "a host", "any machine", "hosts that ...": the order is about hosts in general.
_GENERAL_HOST = re.compile(r"\b(?:a|an|any|some|every|each|all|whichever|whatever)\s+(?:\w+\s+){0,2}?(?:hosts?|machines?|box(?:es)?|"
                           r"servers?|workstations?|nodes?|systems?)\b|\b(?:hosts|machines|boxes|servers|nodes)\b|"
                           r"\bthe\s+(?:host|machine|box|server)\s+(?:that|which|showing|with|where)\b|"
                           # ("if the box we inspect is scanned, suggest a decoy on it": the host at hand, any)
                           r"\b" + HOST_AT_HAND + r"\b", re.IGNORECASE)


def _referent(text: str, order: str, named: tuple[str, ...], classes: tuple[str, ...]) -> Optional[str]:
    """The host an order that names none refers to by "it" or "that host": the one host the rest of the text names."""
    rest = _pronoun_hosts(text, order, named, classes)
    return rest[0] if len(rest) == 1 else None


def _pronoun_hosts(text: str, order: str, named: tuple[str, ...], classes: tuple[str, ...]) -> tuple[str, ...]:
    """The hosts an order that names none may mean by "it" or "that host": those the rest of the text names."""
    if named or classes or not _PRONOUN.search(order) or _GENERAL_HOST.search(order):
        return ()
    return hosts_in(text)


def pronoun_hosts(text: str) -> tuple[str, ...]:
    """The hosts an order that names no host, no class and no host in general may mean by its "it" ("I restored
    Enterprise1 too late, and the attacker reached Enterprise2 from it. Restore it as soon as it is compromised."):
    the hosts the rest of the text names, one of which it is (empty: the order names its own subject, or has no "it").
    One host is the order's `referent`; with more, the reader cannot tell which, but it is one of them, never any host."""
    words = read_wording(text)
    whole = f"{words.situation} {words.instruction}".strip()
    return _pronoun_hosts(words.text, whole, hosts_in(whole), classes_in(whole))


# A form's labels before its parts ("Condition: User2 shows an exploit. Action: remove the attacker from User2.",
# "Trigger - ...; response - ..."): the parts are a situation and an order as any note writes them.
_FORM_LABEL = re.compile(r"(^|[.;!?]\s+|;\s*)(?:condition|trigger|situation|context|case|action|response|reaction|"
                         r"what\s+to\s+do|do\s+this)\s*(?::|\s[\u2013\u2014-]|->)\s*(?P<first>\w)", re.IGNORECASE)


# Contractions in conditions, written out ("isn't clean" -> "is not clean", "the attacker's on it" -> "the attacker is on
# it", "it's been breached" -> "it has been breached"); the forms of "do" stay, as the prohibitions are read in them.
_NOT_CONTRACTED = re.compile(r"\b(is|are|was|were|has|have|had)n['\u2019]t\b", re.IGNORECASE)
_IS_CONTRACTED = re.compile(r"\b(it|that|there|he|she|who|what|attacker|red|intruder|adversary|host|server|box|machine|"
                            r"(?:user|enterprise)\d|op_(?:host|server)\d|defender)['\u2019]s\s+(?=(?P<has>been|got|gotten)?)",
                            re.IGNORECASE)


_PARTICIPLE_FULL = {"rmvd": "removed", "rstrd": "restored", "rstred": "restored", "anlsd": "analysed", "anlzd": "analysed",
                    "analsd": "analysed", "analzd": "analysed"}
_PARTICIPLE_SHORT = re.compile(r"\b(?:" + "|".join(_PARTICIPLE_FULL) + r")\b", re.IGNORECASE)


# "OpS0 hit = impact": "=" between words, after a host's state and before words that name no host, says what the state
# means, as "means" does. ("quiet spell = every box idle, nothing owned" names no host before it: what follows
# is the definition, the condition itself, and stays.)
_EQUALS_GLOSS = re.compile(r"(?P<said>[^.;:,=>]*[A-Za-z0-9])\s+=\s+(?P<gloss>[A-Za-z](?:(?!->)[^.;:,=])*)")


def _glosses_host_state(found: re.Match) -> bool:
    return bool(hosts_in(found["said"])) and not hosts_in(found["gloss"])


# (r46h) "=" before a value of the table's, after a host or its row ("U4 row = Unknown", "E1 activity = Exploit"): what
# the row reads, no gloss of it (read as "means", the value was what the state meant, and the host was claimed bare).
# (r46b: and a value denied, "U4 row = not Unknown": the row reads anything but it; read as "means", the denial was dropped)
_TABLE_VALUE_ALONE = re.compile(r"^\s*(?:not\s+)?(?:none|scan|exploit|no|unknown|user|privileged|root)\s*$", re.IGNORECASE)


def _equals_said(found: re.Match) -> str:
    """An "=" between words, in words: a table's value after a host is what its row reads, any other gloss of a host's
    state what it means (`_EQUALS_GLOSS`)."""
    if not _glosses_host_state(found):
        return found[0]
    return f"{found['said']} {'reads' if _TABLE_VALUE_ALONE.match(found['gloss']) else 'means'} {found['gloss']}"


_INVERTED_ORDER = re.compile(r"(?P<lead>\b(?:only|just)\s+(?:when|if|once|while|after)\s+[^,;.:]+?)\s+(?:should|must|do|may|can|will)\s+"
                             r"(?:you|we)\s+(?=(?:" + _ADDRESSED_VERB + r"\s+)?(?:(?:a|an|the)\s+)?" + _VERB_WORD + r")",
                             re.IGNORECASE)


# (r35h) A condition written as code, "when E1.activity == Exploit:", "U4.compromised = User": the host's column
# compared with a value, said as the table says it ("E1 shows Activity Exploit"). Read as words, the dot ended the
# sentence and the condition kept the host alone (any state). ("!=" is left as written: a state denied, not read here.)
_CODE_COMPARISON = re.compile(r"\b(?P<host>[A-Za-z][\w-]*\d)\.(?P<column>compromised|compromise|activity)\s*"
                              r"(?:==|=(?!=)|\bis\b(?!\s+not\b))\s*[\"']?(?P<value>[A-Za-z]+)[\"']?", re.IGNORECASE)


def _code_comparison_said(match: re.Match) -> str:
    column = "Activity" if match["column"].lower() == "activity" else "Compromised"
    return f"{match['host']} shows {column} {match['value'].capitalize()}"


# (r35h) A vague share of a class restated as a count between commas: "the majority of user boxes, so four or more of
# them, are owned", "the bulk of the servers, i.e. two or more, ...": said as the count ("four or more of user boxes
# are owned"). Read as written, the comma ended the condition before its state, which then claimed nothing.
_COUNT_RESTATED = re.compile(r"\b(?:most|(?:the|a)\s+majority|the\s+bulk|(?:a\s+)?(?:good|large)\s+(?:part|number|share))\s+of\s+"
                             r"(?P<whole>(?:the\s+|our\s+)?(?:[\w-]+\s+)?[\w-]+)\s*,\s*(?:meaning|that\s+is|i\.\s?e\.?|in\s+other\s+words|"
                             r"namely|so|or\s+rather)\s+(?P<count>(?:at\s+least\s+|more\s+than\s+)?\w+(?:\s+or\s+more)?)"
                             r"(?:\s+of\s+(?:the\s+\w+|them|those|all))?\s*,", re.IGNORECASE)


# (r43m) One of two or more named hosts said with "and" after a word that picks one of them: "whichever of User1 and
# User2 is compromised", "either of E0 and E1 at user level". Each host by itself, as "User1 or User2" is read; read
# with its "and", the first host was a bare subject and the state was claimed of the last one only.
_LISTED_HOST = r"(?:(?:the\s+)?" + HOST_NAME + r"\b|" + HOST_SHORT + ")"
_ONE_OF_LISTED = re.compile(rf"\b(?P<lead>(?:whichever|either|any|one)\s+of\s+{_LISTED_HOST}(?:\s*,\s*{_LISTED_HOST})*)"
                            rf"\s*,?\s+and\s+(?={_LISTED_HOST})", re.IGNORECASE)


# (r43m) A class, the host it leaves out, then what the class's hosts do: "each op host but Op_Host2 that is at
# root". The relative clause is said of the class; read after the host, it was that host's state, the rule's condition.
# (r47m: and the class said by its subnet after the noun, "each machine in the enterprise subnet but Enterprise1 that is ...")
_EXCEPT_BEFORE_WHICH = re.compile(rf"\b(?P<lead>(?:every|each|any|all(?:\s+the)?)\s+(?:[\w-]+\s+){{0,2}}?(?:hosts?|box(?:es)?|machines?|"
                                  rf"servers?|srvs?|workstations?|nodes?)(?:\s+(?:in|on|of)\s+the\s+(?:user|enterprise|op|operational)"
                                  rf"[\s-]+(?:subnet|network|zone|segment|side|tier))?)\s+(?:but|except(?:\s+for)?|other\s+than|save|bar)\s+"
                                  rf"(?P<hosts>{_LISTED_HOST}(?:\s*(?:,|\band\b|\bor\b)\s*{_LISTED_HOST})*)\s+"
                                  rf"(?P<which>(?:that|which|who)\s+[^,;.:()]+)", re.IGNORECASE)


_QUOTE_MARK = re.compile(r"(?<![\w'\u2019])['\"\u2018\u201c](?P<said>[A-Za-z][\w.-]*(?:\s+[A-Za-z0-9][\w.-]*)?)['\"\u2019\u201d](?![\w'\u2019])")


def _one_of_listed(text: str) -> str:
    """`text` with a pick of one of several named hosts said with "or" (`_ONE_OF_LISTED`)."""
    return _ONE_OF_LISTED.sub(lambda m: re.sub(r"\s*,\s*", " or ", m["lead"]) + " or ", text)


def written_out(text: str) -> str:
    """`text` in the words the reader knows: the contractions of "be" and "have" written out (see _NOT_CONTRACTED,
    _IS_CONTRACTED, "they're"), the prepositions of absence as "without" (_ABSENCE), "w/o" and "w/" as "without" and
    "with", "&" and "+" between words as "and", and "whilst" as "while"."""
    text = _NOT_CONTRACTED.sub(lambda m: f"{m[1]} not", re.sub(r"\b(w)hilst\b", r"\1hile", text or "", flags=re.IGNORECASE))
    # (r43h) "remvoe it", "exploted", "Privelaged": the rule language's words misspelt in a hurried note (spelling.py)
    text = misspellings_mended(text)
    # ("pending any scan": not yet, a stage the attack has not reached)
    text = _ABSENCE.sub(lambda m: ("Without" if m[0][0].isupper() else "without") + (" yet" if m[0].lower() == "pending" else ""),
                        text)
    # the shorthand of notes: "w/o any activity" is "without any activity", "w/ a scan" is "with a scan"
    text = re.sub(r"\b(w)/(?:o|out)\b", r"\1ithout", text, flags=re.IGNORECASE)
    text = re.sub(r"\b(w)/(?=\s)", r"\1ith", text, flags=re.IGNORECASE)
    # "Analyse it b4 any Restore": the note's shorthand of "before" (read as a word, the move it puts off was no contrast)
    text = re.sub(r"\bb4\b", "before", text, flags=re.IGNORECASE)
    # (r43m) the quantifier misspelt in haste, "evry ent srv": too short a word for spelling.py's mending (its "exept" is
    # mended there)
    text = re.sub(r"\b(e)(?:vry|verey|vey)\b", r"\1very", text, flags=re.IGNORECASE)
    text = _one_of_listed(text)
    # (r43m) a word or two quoted as the table or the alert prints them, "shows 'Exploit'", "pick \"Sleep\"": the words
    # themselves (the quote marks were tokens no reading placed, and the condition was never whole); a longer quotation,
    # what someone said, keeps its marks, and an apostrophe inside a word stays
    text = _QUOTE_MARK.sub(r"\g<said>", text)
    text = _EXCEPT_BEFORE_WHICH.sub(lambda m: f"{m['lead']} {m['which'].rstrip()}, except {m['hosts']}", text)
    # (r45m) "clean at prev step", "owned since prev turn": the note's shorthand of "the previous"
    text = re.sub(r"\b(?:at\s+|since\s+|on\s+|in\s+)?(?:the\s+)?prev\.?(?=\s+(?:step|turn|round|tick|move)\b)",
                  lambda m: (m[0].split()[0] + " the previous" if m[0].split()[0].lower() in ("at", "since", "on", "in") else "the previous"),
                  text, flags=re.IGNORECASE)
    # (r42h) "lateral movt": the note's shorthand of the phase's name (unread, the word left the condition not whole)
    text = re.sub(r"\b(lateral\s+)(?:movt|mvmt|mvt)\b", r"\1movement", text, flags=re.IGNORECASE)
    # (r35h) a condition in code ("E1.activity == Exploit") and a share restated as a count ("the bulk of the servers,
    # i.e. two or more, ..."), said in words
    text = _CODE_COMPARISON.sub(_code_comparison_said, text)
    text = _COUNT_RESTATED.sub(lambda m: f"{m['count']} of {m['whole']}", text)
    # "ent-class host", "a user class box": the class named with the word "class" (r32m; read as no class, any host)
    text = re.sub(r"\b(user|usr|enterprise|ent|entp|op|ops|operational)[\s-]+class[\s-]+(?=(?:hosts?|box(?:es)?|machines?|servers?|"
                  r"srvs?|nodes?|systems?|workstations?)\b)", r"\1 ", text, flags=re.IGNORECASE)
    # "Only when User3 is rooted should you restore it": the order inverted after its condition, said as "only when
    # User3 is rooted, restore it" (r32m; with no comma, the order was read as part of the condition)
    text = _INVERTED_ORDER.sub(lambda m: f"{m['lead']}, ", text)
    # "rec Remove", "rec. a Restore": the note's shorthand of "recommend"
    text = re.sub(r"\b(r)ec\.?\s+(?=(?:(?:a|an|the)\s+)?" + _VERB_WORD + r")", r"\1ecommend ", text, flags=re.IGNORECASE)
    # (r35m) "recomend Remove", "reccomend a Restore": "recommend" misspelt (read as no order word, the note's arrow
    # before it was no order and its situation's "not" a negation of the move)
    text = re.sub(r"\b(r)ec{1,2}om{1,2}[ae]nd(?=s\b|ed\b|ing\b|\b)", r"\1ecommend", text, flags=re.IGNORECASE)
    # "at user lvl", "root lvl": the note's shorthand of "level" (read as the level it names)
    text = re.sub(r"\b(l)vls?\b", r"\1evel", text, flags=re.IGNORECASE)
    # (r35m) "only usr level", "at usr-level": the note's shorthand of "user" before a level (read as no level at all)
    text = re.sub(r"\b(u)sr(?=[\s-]+level\b)", r"\1ser", text, flags=re.IGNORECASE)
    # (r38m) "priv esc", "privesc", "priv-esc": the note's shorthand of "privilege escalation" (read word by word, the
    # "esc" was left unplaced and the condition unread)
    text = re.sub(r"\b(p)riv[\s-]?esc\b\.?", r"\1rivilege escalation", text, flags=re.IGNORECASE)
    # "U4 priv", "at priv level": the note's shorthand of "privileged" (the level, as "root" is)
    text = re.sub(r"\b(p)riv\b", r"\1rivileged", text, flags=re.IGNORECASE)
    # "U2 rmvd", "rstrd at step 4": the note's shorthand of the past participles of the verbs (vowels dropped)
    text = _PARTICIPLE_SHORT.sub(lambda m: _PARTICIPLE_FULL[m[0].lower()] if m[0][0].islower()
                                 else _PARTICIPLE_FULL[m[0].lower()].capitalize(), text)
    # "Enterprise2 scanned & nothing compromised anywhere", "Op_Server0 clean + User1 scanned": two clauses, as with
    # "and" (read as one, the second clause's state was taken for the first host's)
    text = re.sub(r"\s+[&+]\s+", " and ", text)
    # "Unknown on a user box != compromised": the symbols of "is not" ("!=", "=/=", "\u2260") said in words
    text = re.sub(r"\s*(?:!=|=/=|\u2260)\s*", " is not ", text)
    text = _EQUALS_GLOSS.sub(_equals_said, text)
    text = re.sub(r"\b(they|we|you)['\u2019]re\b", r"\1 are", text, flags=re.IGNORECASE)
    # (r37m) "an exploit on Op_Host1 is the moment to restore it": the situation named as the time for the order (read
    # as it stood, "to stop ..." was a purpose, and the order after it was cut away with it)
    text = _MOMENT_FOR.sub(lambda m: f"{m['lead']}when {m['situation']}, ", text)
    # (r46b) "..., (but) not (in) the step after you removed it": the step after the move put out of the order, as "unless it
    # is the step after ..." says it (history_words reads that step; read as written, the exclusion was dropped at its comma)
    text = _STEP_AFTER_DENIED.sub(", unless it is ", text)
    # (r46b) a host given its own case only to be left alone, "...; otherwise, if it is User0, leave it be", "... - but for
    # User0, hands off": the exception of the order before it, as "except User0" says it (read as a rung of its own, the
    # order's Remove of User0 was accepted)
    text = _LEFT_ALONE_CASE.sub(lambda m: f", except {m['hosts']}", text)
    return _IS_CONTRACTED.sub(lambda m: f"{m[1]} {'has' if m['has'] else 'is'} ", text)


_LEFT_ALONE = (r"(?:leave\s+(?:it|them|that\s+(?:one|host|box))(?:\s+(?:alone|be|untouched|as\s+it\s+is|in\s+peace|out))?|"
               r"(?:keep\s+(?:your\s+)?)?hands\s+off(?:\s+(?:it|them))?|let\s+(?:it|them)\s+be|(?:do\s+not|don['\u2019]?t)\s+touch\s+(?:it|them)|"
               r"skip\s+(?:it|them)|(?:do\s+)?nothing(?:\s+(?:to|on)\s+(?:it|them))?)(?=\s*(?:[.;!]|$))")
_LEFT_ALONE_CASE = re.compile(r"\s*(?:[;,.!:]|\s[-\u2013\u2014]+)\s*(?:(?:or\s+)?(?:else|otherwise)\s*,?\s*(?:if|when)\s+(?:it|that|this|the\s+host|"
                              r"that\s+host)\s*(?:is|['\u2019]s)\s+|but\s+(?:for|with|on)\s+)"
                              r"(?P<hosts>[A-Za-z_]+\d(?:\s*(?:,|or|and|/)\s*[A-Za-z_]+\d)*)\s*[,:]?\s*(?:[-\u2013\u2014]+\s*)?(?:then\s+)?"
                              + _LEFT_ALONE, re.IGNORECASE)
_STEP_AFTER_DENIED = re.compile(r"\s*,\s*(?:but\s+)?(?:not|except)\s+(?:(?:in|on|at|during|for)\s+)?(?=(?:the|that)\s+(?:next\s+)?"
                                r"(?:step|turn)\s+(?:right\s+)?(?:after|following)\s+(?:we|you|u|i)\b)", re.IGNORECASE)


# A situation named as the time for an order: "any probe of an ops box is the time to ...", "an exploit on Op_Host2 is
# the signal to ..." (a host or state in general, "a/an/any ...", then "is the moment / time / signal / cue to")
_MOMENT_FOR = re.compile(r"(?P<lead>^|[.;:]\s*|,\s*)(?P<situation>(?:a|an|any)\s+[^,;:.]{3,60}?)\s+(?:is|are)\s+(?:the|your|our)\s+"
                         r"(?:right\s+)?(?:moment|time|signal|cue|point)\s+to\s+(?=\w)", re.IGNORECASE)


# "Lesson for every user workstation: ...", "Rule for the op hosts: ...": the label before the scope it heads.
# ("the lesson for the quiet case is: ..." names the lesson, no label: `_LESSON_LEAD`)
# (r48h: not a label for a role, "tip for the planner:": whom the note is for, no scope of hosts; said as "For the planner",
# the note word was lost and the heading was read as the rule's situation)
_SCOPE_LABEL = re.compile(r"\b(?:lesson|rule|note|reminder|tip|check-?list)\s+for(?!\s+(?:the\s+|a\s+|an\s+|my\s+|our\s+)?"
                          r"(?:planner|analyst|(?:action[\s_-]?)?chooser)s?\b)(?=\s+[^.;:]{2,60}(?<!\bis)(?<!\bbe):)", re.IGNORECASE)
# (r45h) and the label after the scope it heads, "Op_Server0 checklist:", "user boxes checklist:" (a host or class before it)
_LABEL_AFTER_SCOPE = re.compile(r"^\s*(?P<scope>[^.;:,\n]{2,40}?)\s+check-?list(?=\s*:)", re.IGNORECASE)
# (r45h) A role the heading addresses after its scope, "For Enterprise2, action chooser:": whom the note is for, no part of
# the scope (the rule is taught for the role it addresses)
_ROLE_AFTER_SCOPE = re.compile(r"^(?P<head>\s*for\s+[^.;:,\n]{2,40}?)\s*,\s*(?:for\s+)?(?:the\s+)?(?:planner|analyst|"
                               r"action[\s_-]?chooser|chooser)(?=\s*:)", re.IGNORECASE)


def _scope_labels_said(flat: str) -> str:
    """`flat` with a heading's label said as the scope it heads ("Lesson for X:", "X checklist:": "For X:"), without the role
    it addresses after that scope."""
    flat = _SCOPE_LABEL.sub("For", flat)
    scoped = _LABEL_AFTER_SCOPE.match(flat)
    if scoped and (hosts_in(scoped["scope"]) or classes_in(scoped["scope"])):
        flat = f"For {scoped['scope'].strip()}{flat[scoped.end():]}"
    return _ROLE_AFTER_SCOPE.sub(lambda m: m["head"], flat)


_ARROW = re.compile(r"\s*(?:->|=>|\u2192)\s*")  # "Enterprise2 exploited -> remove the attacker": a situation, then its order


# The defender's own move, then an order that holds for a window of steps after it ("After you restore Enterprise2, do not
# restore it again for the next 3 steps", "For the next two steps after you remove User4, do not restore User4"): a
# condition on the defender's history, as "if you restored Enterprise2 within the last 3 steps" says it (read as a lead
# before the order, the move and its window were no condition at all).
_WINDOW_N = r"(?P<n>\d+|one|two|three|four|five)"
_WINDOW_MOVE = (r"(?:right\s+|just\s+)?after\s+(?:you|we|i)\s+(?P<verb>restore|remove|analy[sz]e)\s+"
                rf"(?P<host>{HOST_NAME})")
# (r36m: "within / in / during / over the next N steps" as well as "for the next N steps")
# (r43m: also after a label's colon, "Lesson: after you analyse E0, ...", and counted in turns)
_AFTER_FOR_NEXT = re.compile(rf"(?:^|(?<=[.;!?:]\s)){_WINDOW_MOVE}\s*,\s*(?P<order>[^.;:]+?)\s+(?:for|within|in|during|over)\s+the\s+(?:next|following)\s+"
                             rf"{_WINDOW_N}\s+(?P<unit>steps?|turns?)(?=\s*[.;!]|\s*$)", re.IGNORECASE)
_FOR_NEXT_AFTER = re.compile(rf"(?:^|(?<=[.;!?:]\s))(?:for|within|in|during|over)\s+the\s+(?:next|following)\s+{_WINDOW_N}\s+(?P<unit>steps?|turns?)\s+"
                             rf"{_WINDOW_MOVE}\s*,\s*", re.IGNORECASE)


def _window(text: str) -> str:
    """`text` with an order for a window of steps after the defender's move said as its condition (_AFTER_FOR_NEXT)."""
    # (the window in the unit the text counts it in: a rest that names it, "next 4 turns", is still the text's own words)
    text = _AFTER_FOR_NEXT.sub(lambda m: f"If you {m['verb']}d {m['host']} within the last {m['n']} {_unit(m)}, {m['order']}", text)
    return _FOR_NEXT_AFTER.sub(lambda m: f"If you {m['verb']}d {m['host']} within the last {m['n']} {_unit(m)}, ", text)


def _unit(found: re.Match) -> str:
    return "turns" if found["unit"].lower().startswith("turn") else "steps"


# (r39h) A clause that says a named host does what the clause before it says, "if no other user host shows a compromise, and
# User0 does, ...": the condition's own part (its state the verb phrase before it), not the order's. Cut at its comma, the
# condition lost it and was read whole without it.
_ELLIPSIS = re.compile(rf"\b(?P<phrase>(?:shows?|is|are|has|have|reads?)\s+[^,;.:]*?)\s*,\s*(?P<join>and|but)\s+(?P<host>{HOST_NAME})\s+"
                       r"(?:does|do|is|has)(?:\s+(?:too|as\s+well|so))?\s*(?=[,;.:]|$)", re.IGNORECASE)


def _ellipsis_filled(text: str) -> str:
    """`text` with each `_ELLIPSIS` clause said in full and joined to the clause before it ("shows a compromise and User0
    shows a compromise")."""
    return _ELLIPSIS.sub(lambda m: f"{m['phrase']} {m['join']} {m['host']} {m['phrase']}", text)


# "a user-level exploit means recommend a Remove", "calls for planning a Restore": the role's own verb of proposing
# between the judgement and the move; the move is what the judgement names ("means a Remove").
# (r42m) The analyst's verdict may come first, "warrants flagging it critical and recommending a Restore": the answer the role
# gives beside the move, no condition of it.
_JUDGED_PROPOSAL = re.compile(r"\b(?P<judged>means|calls?\s+for|warrants?)\s+(?:(?:rating|calling|flagging|marking|scoring)\s+"
                              r"(?:it|them|the\s+host|that\s+host)\s+(?:as\s+)?(?:low|medium|high|critical)(?:[\s-]+risk)?\s+and\s+)?"
                              r"(?:to\s+)?(?:recommend|plan|propose|suggest)(?:ing|s)?\s+"
                              r"(?=(?:(?:a|an|the)\s+)?" + _VERB_WORD + r")", re.IGNORECASE)


# A note's list of the situation, one state an item, then the order after an arrow ("- U1 exploited - E1 clean => Remove
# U1", its lines flattened): every item is the condition, as "U1 exploited and E1 clean" (r32m; read as it stood, the first
# item alone was the situation and the rest the order's clause, its negations unplaced).
_BULLET = r"\s+[-*\u2022]\s+"
_LISTED_SITUATION = re.compile(r"\A\s*[-*\u2022]\s+(?P<items>(?:(?!->|=>|\u2192).)+?(?:" + _BULLET + r"(?:(?!->|=>|\u2192).)+?)+)"
                               r"\s*(?=->|=>|\u2192)")


def _listed_situation_joined(flat: str) -> str:
    """`flat` (one line) with a listed situation before its arrow said as one condition (_LISTED_SITUATION)."""
    return _checked_items_said(_LISTED_SITUATION.sub(lambda m: " and ".join(re.split(_BULLET, m["items"])) + " ", flat))


# (r45m) A checklist of states, numbered or bulleted, that a later sentence refers to as a whole: "1. Enterprise2 shows an
# exploit. 2. Op_Server0 is not compromised. When both items hold, Remove Enterprise2." ("if all of the above are true",
# "once every box is ticked"; "if any of them holds": one of them). Read as it stood, the items were a story and the
# order's condition ("both items") named no state at all.
_ITEM_MARK = r"(?:\(?\d{1,2}[.)]|\(?[a-h]\)|[-*\u2022])\s+"
# (r47b) The items may be asked as yes/no questions, "1) is Op_Host1 owned? 2) is there no scan on it? If both answers are
# yes, ...": each the statement it asks after (`_asked_said`); an item asked in other words leaves the list as it stands.
_CHECKED_ITEMS = re.compile(
    r"(?:(?<=[:.;])|\A)\s*(?P<items>(?:" + _ITEM_MARK + r"[^.;!?]+[.;?]?\s*){2,})"
    r"(?P<lead>when|whenever|if|once|as\s+soon\s+as|while|with)\s+(?P<how>both|all|each|every|any|either|one)"
    r"(?:\s+(?:of\s+)?(?:the\s+)?(?:two\s+|three\s+|four\s+)?(?:above|these|them|those|(?:items?|checks?|conditions?|points?|boxes|lines?|"
    r"entries|answers?|questions?)(?:\s+(?:above|listed|on\s+the\s+list))?))?\s+(?:(?:all\s+)?(?:holds?|are\s+(?:true|met|satisfied|ticked|"
    r"checked|yes)|is\s+(?:true|met|satisfied|ticked|checked|yes)|apply|applies|pass(?:es)?|check\s+out|are\s+the\s+case|"
    r"is\s+the\s+case)|(?:is|are)\s+ticked|true|met|ticked|yes)\b(?P<asked>\s*\?)?", re.IGNORECASE)
# A yes/no question about a host, its row or "there": "is <subject> <state>", "is there <what>", "does <subject> <verb> ..."
_ASKED_SUBJECT = (r"(?:it|they|its\s+row|their\s+rows?|[A-Za-z_]+\d+(?:'s\s+row)?|(?:the|a|an|any|some|one|that|this)\s+"
                  r"(?:[\w-]+\s+){0,2}?(?:hosts?|servers?|box(?:es)?|machines?|row))")
_ASKED_ITEM = re.compile(rf"^\s*(?:(?P<be>is|are)\s+(?P<there>there\b|{_ASKED_SUBJECT})|(?P<do>does|do)\s+(?P<doer>{_ASKED_SUBJECT})\s+"
                         r"(?P<verb>show|have|list|read|say|display|report)\b)(?P<rest>[^?]*)\?\s*$", re.IGNORECASE)


def _asked_said(item: str) -> Optional[str]:
    """An item as a statement: the item itself where it asks nothing, the statement a yes/no question (`_ASKED_ITEM`)
    asks after ("is there no scan on it?" -> "there is no scan on it"), None for a question asked in other words."""
    if not item.rstrip().endswith("?"):
        return item
    asked = _ASKED_ITEM.match(item)
    if asked is None:
        return None
    if asked["be"]:
        return f"{asked['there']} {asked['be'].lower()}{asked['rest']}".strip()
    verb = asked["verb"].lower()
    said = "has" if verb == "have" and asked["do"].lower() == "does" else verb + ("s" if asked["do"].lower() == "does" else "")
    return f"{asked['doer']} {said}{asked['rest']}".strip()


_HEADING_ONE_OF_CLASS = re.compile(r"(?P<host>\b(?:a|an|any|each)\s+(?:user|enterprise|op|operational)[\s-]+(?:host|box|machine|server|"
                                  r"workstation))\b(?!s)[^:]*:\s*$", re.IGNORECASE)
_ITS_ROW = re.compile(r"^\s*(?:its\s+row|it)\b", re.IGNORECASE)


def _checked_items_said(flat: str) -> str:
    """`flat` with a checklist of states that a later condition refers to as a whole (_CHECKED_ITEMS) said as that
    condition: "When <item> and <item>" ("or" for "any" / "either" / "one"). A list whose items give orders is left as
    it stands (its items are cases, not parts of one condition)."""
    def said(m: re.Match) -> str:
        items = [_asked_said(i.strip(" .;")) for i in re.split(_ITEM_MARK, m["items"]) if i.strip(" .;")]
        if len(items) < 2 or None in items or any(verbs_in(i) for i in items):
            return m.group(0)
        # (r47b) "Checklist for any op box: 1) is it owned? ...": the first item's "it" is the one
        # host of a class the heading names (read as any host's, the class was lost and the rule held on other classes)
        heading = _HEADING_ONE_OF_CLASS.search(re.split(r"[.;!?]", flat[:m.start()])[-1])
        if heading is not None and not hosts_in(heading.string):
            items[0] = _ITS_ROW.sub(heading["host"], items[0], count=1)
        join = " or " if m["how"].lower() in ("any", "either", "one") else " and "
        lead = "when" if m["lead"].lower() == "with" else m["lead"]  # ("with both true, <order>")
        return f" {lead} {join.join(items)}" + ("," if m["asked"] else "")
    return _CHECKED_ITEMS.sub(said, flat)


# (r33h) A reason set off by commas between the subject and its order: "User4, because the lab depends on it, must be
# planned for a Remove as soon as ...". Read as a justification, it swallowed the rest of the sentence, order and all.
_REASON_ASIDE = re.compile(r",\s*(?:because|since|given\s+that)\s+[^,;:.]+,\s*(?=(?:should|must|needs?\s+to|has\s+to|ought\s+to|"
                           r"is\s+to|are\s+to|gets?|deserves?|warrants?|will|shall)\b)", re.IGNORECASE)


# (r42m) Why a host is the exception, said in brackets after the heading ("X is the exception (it bridges to the op
# subnet): ..."): a reason, whose class or subnet is no scope of the rule. An aside that names a host is kept (it may add
# that host to the exception).
_EXCEPTION_WHY = re.compile(r"(?P<head>\b(?:is|are)\s+(?:the|an|a)\s+(?:(?:one|big|main|only)\s+)?(?:exception|special\s+case|"
                            r"odd\s+one\s+out))\s*\((?P<why>[^()]{1,100})\)(?=\s*[:\u2013\u2014]|\s+-\s)", re.IGNORECASE)


# (r45m) A hedge on the order said as a condition of the defender's means, "if you can", "where possible", "if time allows":
# how firmly the order holds, no state of the network (read as a condition, it was one no claim placed, and the rule was
# never read whole).
_HEDGE = (r"(?:if|when|whenever|where|wherever)\s+(?:you|we)\s+(?:can|could|are\s+able\s+to)(?:\s+afford\s+(?:it|to))?|"
          r"if\s+(?:at\s+all\s+)?possible|(?:where|wherever|when|whenever)\s+possible|if\s+(?:time|budget)\s+(?:allows|permits)|"
          r"if\s+(?:it\s+is|it's)\s+(?:at\s+all\s+)?possible")
_HEDGE_CLAUSE = re.compile(rf"^\s*(?:{_HEDGE})\s*,\s*|\s*,?\s*\b(?:{_HEDGE})\b\s*(?=,)|\s*,?\s*\b(?:{_HEDGE})\b(?=\s*(?:[.;!]|$))",
                           re.IGNORECASE)


# (r45m) A check said as a question, then its answer's case by a pronoun: "to begin, whether Op_Host2 is quiet; if it is,
# plan a decoy" (the case is "if Enterprise1 is clean"; read as "if it is", the case stated nothing).
_WHETHER_THEN_IF = re.compile(r"\bwhether\s+(?P<what>[^,;:.?!]{3,80}?)\s*[,;:.?]\s*(?:and\s+|then\s+)?(?P<lead>if|when)\s+(?:it\s+is|they\s+are|so|yes|"
                              r"it\s+does|that\s+is\s+the\s+case)\b", re.IGNORECASE)


def _whether_said(flat: str) -> str:
    """`flat` with the case that answers a "whether" check by a pronoun said in full (`_WHETHER_THEN_IF`)."""
    return _WHETHER_THEN_IF.sub(lambda m: f"{m.group(0)[:m.start('lead') - m.start()]}{m['lead']} {m['what']}", flat)


def _hedges_away(flat: str) -> str:
    """`flat` without a hedge on the means said as a condition (`_HEDGE_CLAUSE`), its sentence's first letter kept."""
    return _HEDGE_CLAUSE.sub("", flat)


def _reason_aside_dropped(flat: str) -> str:
    """`flat` without a reason set off by commas before the order's verb (_REASON_ASIDE), nor one in brackets after an
    exception heading (_EXCEPTION_WHY)."""
    flat = _EXCEPTION_WHY.sub(lambda m: m["head"] if not hosts_in(m["why"]) else m.group(0), flat)
    return _REASON_ASIDE.sub(" ", flat)


# (r35m) A rule written as "key: value" lines ("host: User4 / state: scanned, not compromised / move: DecoySSHD User4 /
# avoid: Remove User4"), each line possibly bulleted: the host it is for, the situation, the order and what the order is
# set against, said as the sentence a note would write (flattened as it stood, the labels ran into one clause and the
# situation's "not" was read as a negation of the order). Only a form whose every line has a label named here is read so.
_FORM_KEYS = {
    "host": "host", "hosts": "host", "target": "host", "applies to": "host", "scope": "host", "for": "host",
    "state": "when", "when": "when", "if": "when", "condition": "when", "trigger": "when", "situation": "when",
    "status": "when", "seen": "when",
    "move": "do", "do": "do", "action": "do", "pick": "do", "choose": "do", "response": "do", "then": "then",
    "recommend": "do", "plan": "do", "next": "then", "after that": "then",
    "avoid": "avoid", "never": "avoid", "not": "avoid", "don't": "avoid", "do not": "avoid", "instead of": "avoid",
}
_FORM_LINE = re.compile(r"^\s*(?:[-*\u2022]\s*)?(?P<key>[a-z][a-z' ]{0,14}?)\s*:\s*(?P<value>\S.*?)\s*$", re.IGNORECASE)
_SAID_WITH_VERB = re.compile(r"^(?:is|are|shows?|has|have|reads?|sits?|stays?|at|with|under|in|gets?)\b", re.IGNORECASE)


# A markdown table's row: "| Enterprise0 scanned | DecoyTomcat Enterprise0 |"; its rule under the header: "|---|---|".
_TABLE_ROW = re.compile(r"^\s*\|(?P<cells>.*)\|\s*$")
_TABLE_RULE = re.compile(r"^\s*\|(?:\s*:?-{3,}:?\s*\|)+\s*$")


def _one_row_table(lines: list[str]) -> list[tuple[str, str]]:
    """A markdown table of one row under a header (its labels, as in _FORM_KEYS) as (label, cell) pairs; [] for any
    other text (a table of several rows holds several rules: not read as one)."""
    if len(lines) != 3 or not _TABLE_RULE.match(lines[1]) or not all(_TABLE_ROW.match(lines[i]) for i in (0, 2)):
        return []
    header, row = ([c.strip() for c in _TABLE_ROW.match(lines[i])["cells"].split("|")] for i in (0, 2))
    return list(zip(header, row)) if len(header) == len(row) and all(header) and all(row) else []


# (r40h) A yes/no question the order hangs on: "ask yourself: is Op_Host1 held? If so, remove it", "Is the op
# server rooted? If so -> Restore it". The answer's "if it is" is the question said as a condition; read as no
# statement at all, the rule's words placed nothing and its compiled trigger was held to nothing (it fired where the
# host sat at Unknown). The question stays where it was: what leads it ("Before restoring X, ask:") is read as before.
_QUESTION_THEN_ANSWER = re.compile(
    r"\b(?P<aux>is|are)\s+(?P<subject>(?:the\s+|a\s+|any\s+)?(?:[\w-]+\s+){0,2}?(?:hosts?|servers?|box(?:es)?|machines?)|"
    r"[A-Za-z_]+\d+)\s+(?P<state>[^?.;:]{1,80}?)\s*\?\s*(?P<answer>if\s+(?:it\s+is|they\s+are|so|yes|the\s+answer\s+is\s+yes)\b)",
    re.IGNORECASE)


def _question_answered(text: str) -> str:
    """`text` with the answer to a yes/no question ("is X Y? If it is, ORDER") said as the condition it answers ("is X
    Y? If X is Y, ORDER")."""
    return _QUESTION_THEN_ANSWER.sub(
        lambda m: m[0][:m.start("answer") - m.start()] + f"If {m['subject']} {m['aux'].lower()} {m['state'].strip()}", text or "")


# (r44c) A note's situation said as a bare question, with no word that asks one ("Nothing on the op side owned? then
# ...", "User2 scanned? -> ..."): the statement it asks after, then the order it answers with ("then", an arrow, or an
# imperative). It is the order's condition, as the same words before an arrow are; read as no statement at all, the
# question placed nothing and a trigger that asked a state of another host passed (asking the state of one host for a
# whole subnet's). A question with a word that asks ("is ...?", "why ...?") is not one of these.
_BARE_QUESTION = re.compile(r"(?:^|(?<=[.!;]\s))(?P<question>(?!(?:is|are|was|were|do|does|did|can|could|should|would|will|shall|"
                            r"may|might|must|has|have|had|why|what|how|who|whom|which|where|when|whenever|if|ask|any\s+idea)\b)"
                            r"[^?.;:!]{3,120}?)\s*\?\s*(?P<then>then\b\s*,?\s*|->\s*|=>\s*)?(?=\S)", re.IGNORECASE)


# (r47h) A question-and-answer pair, "Q: <situation>? A: <order>" (an FAQ's numbered entry, "FAQ 3. Q: ...? A: ..."): the
# question is the situation the answer is for, as the same words before an arrow are. Read as it stands, neither was a
# condition nor the order (the "Q:" led the text), so a move ordered for a quiet network passed as a rule on the reply's
# form and reached every call. A question a word opens ("should ...?", "how many ...?") stays as it was, as bare ones do;
# so does one that names a move ("..., do I restore it?"), whose answer may turn it down, and an answer that opens with
# "no" or "not" (what it denies is the question's, not a situation).
_QUESTION_LABELLED = re.compile(r"(?:^|(?<=[.!;]\s))\s*(?:FAQ\s*(?:#\s*)?\d*\s*[.:)]?\s*)?Q\s*\d*\s*[:.]\s*(?P<question>[^?.;:!]{3,160}?)\s*\?"
                               r"\s*A\s*\d*\s*[:.]\s*(?=\S)(?!(?:no|not|nope)\b)", re.IGNORECASE)


def _labelled_question_said(text: str) -> str:
    """(r47h) `text` with a labelled question and its answer (`_QUESTION_LABELLED`) said as a note says them, "<situation>?
    -> <answer>", where the question states a situation (as `_bare_question_said` reads a bare one); else as it stands."""
    def said(m: re.Match) -> str:
        question = m["question"].strip()
        bare = _BARE_QUESTION.match(f"{question}? then X")
        if bare is None or bare["question"].strip() != question or verbs_in(question) or not (state_words_in(question)
                                                                     or re.search(rf"\b{_COUNTED_STATE}", question, re.IGNORECASE)):
            return m[0]
        return f"{question}? -> "
    return _QUESTION_LABELLED.sub(said, text or "")


_JUDGED_MOVE = re.compile(r"[\w-]+\s+(?:is|are|was|were|seems?|looks?|would|will|can|could|might|may|does|did|stays?)\b",
                         re.IGNORECASE)


def _bare_question_said(text: str) -> str:
    """(r44c) `text` with a situation asked as a bare question before its order (`_BARE_QUESTION`) said before an arrow,
    as a note says it: "X? then ORDER" -> "X? -> ORDER". Left as it was where the question says no state of a host, or
    no order follows it."""
    def said(m: re.Match) -> str:
        rest = text[m.end():]
        stated = state_words_in(m["question"]) or re.search(rf"\b{_COUNTED_STATE}", m["question"], re.IGNORECASE)
        # (an order, not a judgement of a move: "... owned? Sleep is harmless" says what the move is, orders nothing)
        ordered = m["then"] or (_IMPERATIVE_START.match(rest) and not _JUDGED_MOVE.match(rest))
        if not stated or not ordered:
            return m[0]
        return f"{m['question'].rstrip()}? -> "
    return _BARE_QUESTION.sub(said, text or "")


# (r46m) The labels of such a form run together on one line, as a compiler's directive flattens its lines ("when: Op_Host2
# at root do: Restore Op_Host2 avoid: Remove Op_Host2"): a label word right before its colon, after a space.
_FORM_KEY_INLINE = re.compile(r"(?:^|(?<=\s))(?P<key>" + "|".join(sorted((re.escape(k) for k in _FORM_KEYS if " " not in k), key=len, reverse=True))
                         + r")\s*:\s+(?=\S)", re.IGNORECASE)


def _form_lines_apart(text: str) -> str:
    """(r46m) A form of labelled lines flattened into one line (`_FORM_KEY_INLINE`), opened by a label and with an order's label
    after it, set back on lines of their own; any other text as it stands."""
    if "\n" in text.strip():
        return text
    labels = list(_FORM_KEY_INLINE.finditer(text))
    if len(labels) < 2 or labels[0].start() != len(text) - len(text.lstrip()) \
            or not any(_FORM_KEYS[m["key"].lower()] == "do" for m in labels[1:]):
        return text
    return "\n".join(text[m.start():(labels[i + 1].start() if i + 1 < len(labels) else len(text))].strip()
                     for i, m in enumerate(labels))


def _form_lines_said(text: str) -> str:
    """`text` written as labelled lines (_FORM_KEYS) said as one sentence: "When <host> is <state>: <order>, then <next
    move>. Avoid <what>."; any other text as it stands."""
    lines = [line for line in _form_lines_apart(text or "").split("\n") if line.strip()]
    table = _one_row_table(lines)
    if table:
        lines = [f"{key}: {value}" for key, value in table]
    found = [_FORM_LINE.match(line) for line in lines]
    if len(lines) < 2 or not all(found) or any(m["key"].lower() not in _FORM_KEYS for m in found):
        return text
    parts: dict[str, list[str]] = {}
    for m in found:
        parts.setdefault(_FORM_KEYS[m["key"].lower()], []).append(m["value"].rstrip(" .;"))
    if len(parts.get("when", ())) != 1 or len(parts.get("do", ())) != 1 or len(parts.get("host", ())) > 1:
        return text
    state = " and ".join(p.strip() for p in parts["when"][0].split(",") if p.strip())
    subject = re.sub(r"\s*(?:,|\band\b|&|/)\s*", " or ", parts["host"][0]) if "host" in parts else ""
    if subject and not hosts_in(state):
        state = f"{subject} {'' if _SAID_WITH_VERB.match(state) else 'is '}{state}"
    said = f"When {state}: {parts['do'][0]}" + "".join(f", then {after}" for after in parts.get("then", ())) + "."
    return said + "".join(f" Avoid {avoided}." for avoided in parts.get("avoid", ()))


# (r41h) A footnote: a mark right after a word of the rule ("recommend a Restore.*", "every user host\u2020") and the same
# mark later, on its own before the note ("* User0 excepted", at the start of a line or, flattened, after a space). The note
# is the rule's own, said as a sentence after what it marks; left with its marks ("... a Restore.* * User0 excepted") no
# reading found the exception it states. Not where the text sets words in stars ("*only* user hosts"): that is emphasis.
_FOOTNOTE_REF = re.compile(r"(?<=[\w.!?;:)])(?P<mark>\*{1,3}|\u2020|\u2021)(?=[\s,.;:]|$)")
_EMPHASIS_OPENED = re.compile(r"(?:^|(?<=[\s(]))\*+\w")


# (r44m) An example set in parentheses inside a sentence, "op box owned (e.g. OpH1 in seed 3) -> ...", "(for instance
# User2, last run)": the host and run it tells of are the example's, no condition or scope of the rule. Left, its "e.g."
# ended the sentence there and its last words were read as the note's situation.
_EXAMPLE_ASIDE = re.compile(r"\s*\(\s*(?:e\.\s?g\.|eg\b|for\s+(?:example|instance)\b|as\s+in\s+(?:seed|run|episode|game)\b)[^()]*\)",
                            re.IGNORECASE)


def example_aside_away(text: str) -> str:
    """(r44m) The text without an example it sets in parentheses (`_EXAMPLE_ASIDE`)."""
    return _EXAMPLE_ASIDE.sub("", text or "")


def _footnotes_said(text: str) -> str:
    """`text` with its footnote (_FOOTNOTE_REF) said as a sentence of its own after what it marks, its marks gone; any
    other text as it stands."""
    ref = None if not text or _EMPHASIS_OPENED.search(text) else _FOOTNOTE_REF.search(text)
    note = ref and re.compile(rf"(?:^|(?<=\s)){re.escape(ref['mark'])}[ \t]*(?=\S)").search(text, ref.end())
    if not note:
        return text
    before = (text[:ref.start()] + text[ref.end():note.start()]).rstrip()
    return f"{before if before.endswith(('.', '!', '?', ';', ':')) else before + '.'} {text[note.end():]}"


# (r43m) A label that says the note revises an earlier one, before a colon: "Update: ...", "Correction: ...", "Revised rule:
# ...". It is no situation: read as the heading before the colon, it was a condition no reading placed, and the rule's
# conditions were never whole.
_REVISION_LABEL = re.compile(r"^\s*(?:update[ds]?|correction|revision|revised(?:\s+(?:rule|note))?|amendment|amended(?:\s+(?:rule|note))?|"
                             r"edit|change|new\s+(?:rule|note|version))\s*:\s*", re.IGNORECASE)

# (r44m) Likewise a lead that sets the note beside another teacher's or an earlier note, before a colon: "User4 is another
# case than the User2 note:", "Unlike my earlier rule on User1:", "Not the same case as dana's lesson:". It
# tells which note this is not, no situation of this one (read as one, a host it named there was a condition).
_OTHER_NOTE_LEAD = re.compile(r"^\s*(?:[^:.;]{0,60}?\b(?:is|are|'s)\s+(?:a\s+|an\s+)?(?:different|separate|another|other)\s+"
                              r"(?:story|case|matter|thing|situation)\s+(?:from|than|to)|unlike|not\s+the\s+same\s+(?:case|story|thing)\s+as)"
                              r"\s+[^:.;]{0,60}?\b(?:note|rule|lesson|advice|tip)s?\s*:\s*", re.IGNORECASE)


# (r46m) A note that sets aside another teacher's advice where its own condition holds: "Ignore s3/i01's Remove tip
# when ...: Restore ...", "Disregard dana's decoy rule once ...: plan ...". Who is set aside is no host and no order (read
# as one, "ignore" forbade every move on the host it named, and a teacher's id was taken for a host); the move of that
# advice, where named, is the one put aside for the order after the colon ("instead of a Restore, Remove ...").
_IGNORED_ADVICE = re.compile(r"^\s*(?:ignore|disregard|overrule|override|set\s+aside|(?:do\s+not|don['\u2019]?t)\s+follow)\s+"
                             r"(?P<who>[\w/.-]+?)(?:'s|\u2019s)\s+(?:(?P<what>[\w-]+)\s+)?(?:advice|rule|note|lesson|tip|call|suggestion)s?\b\s*,?\s*"
                             r"(?=(?:when|whenever|if|once|while|as\s+long\s+as)\b[^:]{3,200}:\s*\S)", re.IGNORECASE)


# (r46m) A row's two values quoted as the alerts print them, "reads 'Activity Exploit, Compromised User'": one state (its
# comma inside the quotes ended the condition there, and the compromise was read as an order's words)
_QUOTED_ROW = re.compile(r"(?<!\w)'(?P<activity>Activity\s+\w+)\s*,\s*(?P<compromise>Compromised\s+\w+)'(?!\w)")


# (r46m) And a field of the context quoted with its colon, "say 'Risk: high'", "reads 'Compromised: User'": the colon is the
# field's, no end of the rule's situation (split there, the condition was cut to "'Risk" and read as nothing).
_QUOTED_FIELD = re.compile(r"(?<!\w)'(?P<field>risk|activity|compromised|compromise|host)\s*:\s*(?P<value>[\w.-]+)'(?!\w)", re.IGNORECASE)


def _quoted_row_joined(text: str) -> str:
    """(r46m) `text` with a quoted row's two values (`_QUOTED_ROW`) said as one state, and a quoted field (`_QUOTED_FIELD`)
    without its colon."""
    text = _QUOTED_ROW.sub(lambda m: f"{m['activity']} and {m['compromise']}", text or "")
    return _QUOTED_FIELD.sub(lambda m: f"'{m['field']} {m['value']}'", text)


def _ignored_advice_said(text: str) -> str:
    """(r46m) `text` with its lead that sets another teacher's advice aside (`_IGNORED_ADVICE`) said as its condition and
    an order against that advice's move; any other text as it stands."""
    found = _IGNORED_ADVICE.match(text or "")
    if found is None:
        return text
    rest = text[found.end():]
    put_aside = verbs_in(found["what"] or "")
    if not put_aside:
        return rest
    colon = rest.index(":")
    return f"{rest[:colon + 1]} instead of a {put_aside[0]}, {rest[colon + 1:].lstrip()}"


@lru_cache(maxsize=4096)
def read_wording(text: str) -> Wording:
    """What the text says that a compilation must agree with (see the module docstring)."""
    flat = _FORM_LABEL.sub(lambda m: m.group(1) + m["first"].upper(),
                           _ARROW.sub(": ", _window(_ellipsis_filled(expand_ranges(written_out(_listed_situation_joined(
                               _reason_aside_dropped(_whether_said(_hedges_away(" ".join(_bare_question_said(_labelled_question_said(_question_answered(_form_lines_said(_footnotes_said(example_aside_away(_ignored_advice_said(_quoted_row_joined(text)))))))).split())))))))))))
    flat = _OTHER_NOTE_LEAD.sub("", _REVISION_LABEL.sub("", _JUDGED_PROPOSAL.sub(r"\g<judged> ", _scope_labels_said(flat))))
    instruction, situation, order = _instruction(flat)
    whole = f"{situation} {instruction}".strip()
    conditions = _conditions(instruction, situation)
    # (r48b) a case of a list of exceptions that states a host's state: a negated condition of the rule
    conditions += tuple(Condition(said, negations_in(said), hosts_in(said), classes_in(said)) for said in _listed_states(flat)
                        if said not in {c.text for c in conditions})
    excepted = tuple(dict.fromkeys([h for m in _EXCEPT.finditer(whole) for h in hosts_in(m["what"])]
                                   + [h for p in _EXCEPTED_ALONE for m in p.finditer(flat) if not _heading(flat, m)
                                      and not (p.pattern in _LEFT_OUT_PATTERNS and _is_the_order(instruction, conditions))
                                      for h in hosts_in(m["what"])] + list(_told_others(flat, whole, instruction))
                                   + list(_listed_exceptions(flat))))
    aside = _put_aside_for_this_rule(flat)
    excepted = tuple(h for h in excepted if h not in aside)  # (the hosts this rule is for, another rule's exception)
    prohibitions, dispreferred = _prohibitions(moves_not_made_away(instruction))  # (r39m: a move not made is history)
    dispreferred = tuple(dict.fromkeys((*dispreferred, *_falling_short(text))))
    # ("Leave Op_Server0 out of the plan while it only shows a scan": "leave X out" as the whole order is a prohibition of
    # every move on X, not an exception to an order it does not give)
    left_out = tuple(dict.fromkeys(h for p in _EXCEPTED_ALONE if p.pattern in _LEFT_OUT_PATTERNS for m in p.finditer(instruction)
                                   for h in hosts_in(m["what"]))) if _is_the_order(instruction, conditions) else ()
    if left_out and not any(p.verb is None and set(left_out) <= set(p.hosts) for p in prohibitions):
        prohibitions = (*prohibitions, Prohibition(None, left_out))
    # ("Op hosts other than Op_Server0: never Restore them": the heading names the class the prohibition is about, and
    # the host it leaves out; the prohibition is on the rest of the class, not on the host left out)
    rest_of = tuple(h for c in classes_in(situation) for h in HOST_CLASSES[c] if h not in excepted) \
        if excepted and classes_in(situation) and set(excepted) <= set(hosts_in(situation)) \
        and not set(excepted) & set(hosts_in(instruction)) else ()
    if rest_of:
        prohibitions = tuple(p if p.hosts or p.classes else Prohibition(p.verb, rest_of) for p in prohibitions)
    elif excepted:  # "restore the user hosts, except User0, which we never reimage": the prohibition is about User0
        prohibitions = tuple(p if p.hosts or p.classes else Prohibition(p.verb, excepted) for p in prohibitions)
    return Wording(flat, instruction, situation, order, hosts_in(whole), classes_in(whole), excepted,
                   conditions, prohibitions, dispreferred, verbs_in(instruction),
                   _contrasted(instruction), _referent(flat, whole, hosts_in(whole), classes_in(whole)))


# A condition told in the past, every verb of it ("while Op_Server0 was already compromised"): what happened, not when
# (or "got": "When Enterprise2 got scanned I put the decoy elsewhere")
# (r32m: or "sat", "stood", "said": "while it sat at Unknown", "when the table plainly said Compromised No")
_TOLD_CONDITION = re.compile(r"^(?!.*\b(?:is|are|shows?|has|have|gets?|becomes?|reads?|remains?|stays?)\b).*"
                             r"\b(?:was|were|had|got|sat|stood|said|showed)\b", re.IGNORECASE)
# The teacher telling what they, or their plan, did: "I restored it", "we waited", "my plan back then went for a
# Restore" (r32m: the plan's own past, "my plan went", "our Analyse came")
_TELLER = re.compile(r"\b(?:i|we)\s+(?!should|must|would|will|'d|need)\w+|"
                     r"\b(?:my|our)\s+(?:\w+\s+){1,4}?(?:went|was|were|had|came|did|\w+ed)\b", re.IGNORECASE)


# (r33h) What might have been, said before a condition in its clause: "a Restore might have worked if it came earlier"
# (the "if" is the counterfactual's, no condition the rule is for)
_MIGHT_HAVE_BEEN = re.compile(r"\b(?:would|could|might)(?:\s+not|n['\u2019]t)?\s+have\s+\w+[^.;:]*$", re.IGNORECASE)


# (r39m) A sentence that gives an example ("(Example from seed 4: User1 at User on turn 9.)", "e.g. ...", "For instance,
# ..."): the states it tells are the example's, no condition of the rule.
_EXAMPLE_SENTENCE = re.compile(r"^\s*[(\[]?\s*(?:e\.\s?g\.|eg\b|for\s+(?:example|instance)\b|(?:an?\s+|one\s+|my\s+)?example\b|"
                               r"as\s+an\s+example\b|as\s+in\s+(?:seed|run|episode|game)\b|case\s+in\s+point\b)", re.IGNORECASE)


# (r44x) A relative clause that describes the complement of "is the one", "<subject> is the one that we may yet rescue":
# it says what the subject is (a reason for the order, beside it); one that states no state of a host is no condition
# (read as one, left out of the instruction, the rule's reading never counted as whole)
_ONE_DESCRIBED = re.compile(r"one\s+(?:that|which|who)\b", re.IGNORECASE)
_IS_THE_ONE = re.compile(r"\b(?:is|are|was|were|'s)\s+(?:the|a)\s+(?:only\s+)?$", re.IGNORECASE)


def conditions_left_out(text: str) -> tuple[str, ...]:
    """The conditions a text states outside its instruction and opening situation, in a sentence that is no story
    and not in a justification ("Restore Enterprise1 if it is compromised. This only matters while Op_Server0 is
    clean."): claims read from the instruction alone are not the whole of such a rule."""
    words = read_wording(text)
    kept = f"{words.situation} {words.instruction}".lower()  # (a lesson the reader drew starts with a capital)
    left = []
    for sentence in sentences(words.text):
        if _STORY.search(sentence) or _EXAMPLE_SENTENCE.match(sentence):
            continue
        sentence = _lesson(sentence)  # (r45m: "My takeaway is that <lesson>": the lead that names the lesson is no condition)
        opening = _OPENING.match(sentence)
        if opening and (_teachers_view(opening["situation"], opening["rest"])
                        or _reason_before(opening["situation"], opening["rest"])):
            sentence = opening["rest"]  # (the teacher's judgement before the order states none of its conditions)
        # (a reason before ", so ORDER" is no condition of it: `_so_order`)
        for condition in _conditions(_JUSTIFICATION.sub("", _so_order(sentence)), ""):
            if _TOLD_CONDITION.search(condition.text) and _TELLER.search(sentence):
                continue  # "a user host was exploited while Op_Server0 was already compromised, and I ...": a told moment
            if _MIGHT_HAVE_BEEN.search(sentence[:max(sentence.find(condition.text), 0)]):
                continue  # (r33h) "a Restore might have worked if it came earlier": what might have been
            if _ONE_DESCRIBED.match(condition.text) and _IS_THE_ONE.search(sentence[:max(sentence.find(condition.text), 0)]) \
                    and not states_something(condition.text):
                continue  # (r44x) "<subject> is the one that may yet be rescued": what that one is, no state
            if condition.text.lower() not in kept:
                left.append(condition.text)
    # (r46b) a time after a move put out of the order, "..., but not the step after you removed it": an exclusion the
    # conditions' reading drops at its comma (the rule then spoke in the very step it excludes)
    left += [m.group(0) for m in _TIME_AFTER_EXCLUDED.finditer(" ".join(words.text.split()))]
    return tuple(left)


_TIME_AFTER_EXCLUDED = re.compile(r"\b(?:not|except|save|but|other\s+than|apart\s+from|excluding)\s+(?:(?:in|on|at|during|for)\s+)?"
                                  r"(?:the|that|this|a|any)\s+(?:next\s+|first\s+)?(?:step|turn)s?\s+(?:right\s+|just\s+|directly\s+)?"
                                  r"(?:after|following)\b[^.;]*", re.IGNORECASE)


def class_of(host: str) -> Optional[str]:
    return next((c for c, hosts in HOST_CLASSES.items() if host in hosts), None)


__all__ = ["Condition", "HOSTS", "Prohibition", "Wording", "classes_in", "conditions_left_out", "gives_order", "hosts_in",
           "forbidding_away", "negations_in", "pronoun_hosts", "read_wording",
           "named_in_full", "same_verb", "sentences", "state_words_in", "unnamed_hosts", "verbs_in", "without_class_names",
           "without_host_names",
           "without_justification"]
