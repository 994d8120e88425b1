"""A condition's shorthand written out in the words `claims` reads (`spelled_out`): what people leave out or abbreviate. Pure.

"neither A nor B is compromised" -> "A is not compromised and B is not compromised"; a class in the shorthand of
notes ("usr box", "ent srvs") written in full (`class_in_full`); a count said "2+" or "all but one" written as the
count reads it; a row's values said alone, a level "or higher", "nothing running on it", "for <hosts> alone" said
plainly. Each rewrite only restates: it never adds a claim the words do not make.
"""

from __future__ import annotations

import re

from forge.rulebook.language.forms import written_out
from forge.rulebook.language.markers import NEWLY_GLOSS
from forge.rulebook.language.names import AT_HAND_PARTICIPLE, HOST_NAME, classes_in, hosts_in, without_host_names
from forge.rulebook.language.spelling import misspellings_mended


HOST_WORD = HOST_NAME  # (the name names.py reads hosts by)


# "neither Enterprise0 nor Enterprise1 is compromised"; "Enterprise1 is scanned but Enterprise0 is not"
# (r45m: in shorthand with no verb, "neither U1 nor U2 owned", "neither E0 nor E1 at root": a state word right after the
# hosts; read with no "is", the first host was only shown and the second claimed the state, the opposite)
_NEITHER = re.compile(rf"\bneither\s+(?P<a>{HOST_WORD})\s+nor\s+(?P<b>{HOST_WORD})\s+(?:(?P<verb>is|are|was|were|gets?|got)\s+|"
                      r"(?=(?:[a-z]+(?:ed|en)|hit|clean|quiet|idle|untouched|at)\b)(?!(?:shows?|has|have)\b))"
                      r"(?P<state>[^,;.]+)", re.IGNORECASE)


# (r35m) "neither User1 nor Op_Host2 shows any foothold", "... has an exploit": each host shows none of it
# (read with no "is", the first host was only shown and the second claimed compromised)
_NEITHER_SHOWS = re.compile(rf"\bneither\s+(?P<a>{HOST_WORD})\s+nor\s+(?P<b>{HOST_WORD})\s+(?P<verb>shows?|has|have)\s+"
                            r"(?:(?:any|an?)\s+)?(?P<what>[^,;.]+)", re.IGNORECASE)


# (r42x) "none of Op_Host1, Op_Host0 or Defender has a foothold", "not one of U1..U4 owned": each host listed without that state (read
# host by host with no denial, the list claimed the state of them, the opposite)
_NONE_OF_HOSTS = re.compile(rf"\b(?:none|not\s+(?:a\s+single\s+)?one|neither)\s+of\s+(?:the\s+)?"
                            rf"(?P<hosts>{HOST_WORD}(?:\s*(?:,|\band\b|\bor\b|\bnor\b)\s*{HOST_WORD})+)\s+"
                            r"(?:(?P<verb>is|are|was|were|gets?|got|shows?|has|have)\s+)?(?:(?:any|an?)\s+)?"
                            r"(?P<state>(?:(?!\b(?:and|but|while|when|whenever|if|or)\b)[^,;.?!])+)", re.IGNORECASE)


# "User2 is neither scanned nor exploited": one host, two states it must not show
_NEITHER_STATE = re.compile(rf"\b(?P<a>{HOST_WORD}|it)\s+(?P<verb>is|was|gets|got)\s+neither\s+(?P<s1>[^,;.]+?)\s+nor\s+"
                            r"(?P<s2>[^,;.]+)", re.IGNORECASE)


_ELLIPSIS = re.compile(rf"\b(?P<a>{HOST_WORD})\s+(?P<verb>is|was|are|were)\s+(?P<state>(?:(?!\b(?:but|and|while|whereas)\b)[^,;.])+?)\s*,?\s+"
                       rf"(?P<join>but|and|while|whereas)\s+(?P<b>{HOST_WORD})\s+(?:is|was|are|were)\s*(?:not|n't)(?=\s*(?:[,;.]|$))",
                       re.IGNORECASE)


# "Enterprise1 is compromised and no other enterprise server is": the second subject takes the first one's state
_ELLIPSIS_OTHERS = re.compile(
    rf"\b(?P<a>{HOST_WORD})\s+(?P<verb>is|was|are|were)\s+(?P<state>(?:(?!\b(?:but|and|while|whereas)\b)[^,;.])+?)\s*,?\s+"
    r"(?P<join>but|and|while|whereas)\s+(?P<b>(?:no|none\s+of\s+the|not\s+a\s+single|any)\s+(?:other\s+)?(?:[\w-]+\s+){0,2}?"
    r"(?:hosts?|servers?|box(?:es)?|machines?|ones?))\s+(?:is|are|was|were)(?=\s*(?:[,;.]|$))", re.IGNORECASE)


# "User1 is compromised and some other user host is too", "... and Enterprise0 is as well": the second subject takes the
# first one's state (left unsaid, the reader placed nothing of it while the reading called itself whole)
_ELLIPSIS_TOO = re.compile(
    rf"\b(?P<a>{HOST_WORD})\s+(?P<verb>is|was|are|were)\s+(?P<state>(?:(?!\b(?:but|and|while|whereas)\b)[^,;.])+?)\s*,?\s+"
    rf"(?P<join>and|while|whereas)\s+(?P<b>{HOST_WORD}|(?:an?other|some|any|a|an|one)\s+(?:other\s+)?(?:[\w-]+\s+){{0,2}}?"
    r"(?:hosts?|servers?|box(?:es)?|machines?|ones?))\s+(?:is|are|was|were)\s+(?:too|also|as\s+well)\b", re.IGNORECASE)


# "newly owned (clean at the previous step)", "newly compromised (not compromised at the prior turn)": the gloss in brackets
# says what "newly" says (newly_compromised), and no more
NEWLY_GLOSSED = re.compile(r"(\bnewly\s+[\w-]+)" + NEWLY_GLOSS, re.IGNORECASE)


# "E2 row Unknown", "OpS0 row Privileged": a host's name, "row", and a state with no verb between
HOSTS_ROW = re.compile(r"(?<=\d)\s+row\s+(?=(?:at\s+)?(?:unknown|privileged|root|user[- ]level|compromised|clean|quiet|"
                        r"scann?\w*|exploit\w*)\b)", re.IGNORECASE)


# A host named, then said to be the one analysed ("OpS0 under analysis", "User2 being inspected")
_AT_HAND_DETERMINER = r"(?:the|every|each|any|an?)\s+"  # (r49h) before the words of the host at hand
_HOST_UNDER_ANALYSIS = re.compile(r"(?P<name>[\w-]+)\s+" + AT_HAND_PARTICIPLE, re.IGNORECASE)


def _host_named_at_hand(match: re.Match) -> str:
    """A named host said to be under analysis, as that host; any other word before the phrase left as it was."""
    return match["name"] if hosts_in(match["name"]) else match.group(0)


# (r42m) A host given as a specimen of the class before it, "a user desktop such as User2", "op boxes (e.g.
# Op_Host1)": the class is the subject, the host an example of it (read as a subject too, the rule held only where that
# one host showed the state). As checks._INCLUDED reads it for the scope.
_SPECIMEN = re.compile(r"\b((?:server|host|box|workstation|machine|desktop|srv)(?:e?s)?)\s*,?\s*\(?\s*(?:such\s+as|e\.\s?g\.,?|"
                       r"for\s+(?:example|instance),?)\s+(?:[a-z_]+\d|defender)(?:\s*(?:,|or|and|/)\s*(?:[a-z_]+\d|defender))*"
                       r"(?:\s*\))?", re.IGNORECASE)


# "a mere scan", "a scan alone", "nothing but a scan", "merely scanned", "an exploit that did not land": only that
_ONLY_FORMS = ((_SPECIMEN, r"\1"),
               (re.compile(r"\b(?:just|only|merely|simply|solely)\s+because\s+(?P<subject>\S+)\s+(?P<verb>is|was|got|gets|has\s+been|had\s+been)\s+",
                           re.IGNORECASE), r"\g<subject> \g<verb> only "),
               (re.compile(r"\b(?:merely|just|simply|solely)\b(?=\s+(?:\w+\s+)?(?:scann|exploit|prob|shows?|showing|being|a\s+scan))",
                           re.IGNORECASE), "only"),
               (re.compile(r"\b(?:a|an|one)\s+(?:mere|single|lone|simple)\s+(scan|exploit\w*|probe)", re.IGNORECASE), r"only a \1"),
               (re.compile(r"\b(?:a|an|one)\s+(scan|exploit\w*(?:\s+attempt)?|probe)\s+alone\b", re.IGNORECASE), r"only a \1"),
               (re.compile(r"\b(?:nothing\s+but|(?:nothing|little|no)\s+more\s+than)\s+(?=(?:a|an)\s+)", re.IGNORECASE), "only "),
               # "all it shows is a probe", "the only thing User2 has is a scan": that state and no more ("it shows only a
               # probe"; it was read as a bare scan, so a withdrawn "scanned only" taught again this way was not found)
               (re.compile(r"\b(?:all|the\s+only\s+thing)\s+(?:that\s+)?(?P<subject>it|they|(?:that|the)\s+(?:host|box|machine|server)|"
                           r"[A-Za-z_]+\d)\s+(?P<verb>shows?|showed|has|had|displays?|reports?)\s+(?:is|was|are)\s+"
                           r"(?=(?:(?:a|an|one)\s+)?(?:scan|probe|exploit|unknown)\b)", re.IGNORECASE), r"\g<subject> \g<verb> only "),
               # (r53c) the same said the other way round, "as long as a scan is all it shows", "a probe is all that we see
               # on User2": that state and no more (read as a bare scan, the rule held on a scanned host already owned)
               (re.compile(r"\b(?P<state>(?:(?:a|an|one)\s+)?(?:scan|probe|exploit))\s+(?:is|was)\s+all\s+(?:that\s+)?"
                           r"(?:(?P<subject>it|they|(?:that|the)\s+(?:host|box|machine|server)|[A-Za-z_]+\d)\s+"
                           r"(?P<verb>shows?|showed|has|had|displays?|reports?)\b|(?:we|i|you)\s+(?:see|saw|get|got)\s+"
                           r"(?:on|from|for)\s+(?P<place>it|them|(?:that|the)\s+(?:host|box|machine|server)|[A-Za-z_]+\d)\b)",
                           re.IGNORECASE),
                lambda m: f"{m['subject'] or m['place']} {m['verb'] or 'shows'} only {m['state']}"),
               # "only" after what it limits: "User1 scanned only", "a scan only"
               # (and with no article, as notes say it: "usr box, scan only")
               (re.compile(r"\b((?:being\s+)?(?:scanned|probed)|(?:(?:a|an|one)\s+)?(?:scan|probe))\s+only\b", re.IGNORECASE), r"only \1"),
               # a note's "E2 row Unknown": the host's row of the table, said without a verb, shows that state
               (HOSTS_ROW, " shows "),
               # "shows only Unknown and no confirmed compromise": Unknown is a compromise not confirmed, and all it says
               (re.compile(r"(\bunknown\b[^.;:]*?)\s*,?\s+(?:and|but|with)\s+(?:no|not\s+(?:a|any)|without\s+(?:a|any))\s+"
                           r"(?:confirmed|real|actual|genuine|verified)\s+compromise\b", re.IGNORECASE), r"\1"),
               # "newly owned (clean at the previous step)": the gloss in brackets says what "newly" says, and no more
               (NEWLY_GLOSSED, r"\1"),
               # (r33h) "a user box under analysis", "usr host being inspected": the host at hand is of the class named,
               # which stays (read as "a host", the class was lost and the rule fired on a user host's record)
               (re.compile(r"\b((?:user|enterprise|op|operational)[\s-]+(?:host|box|machine|server|workstation)s?)\s+"
                           + AT_HAND_PARTICIPLE, re.IGNORECASE), r"\1"),
               # "the host you analyse is Enterprise1": that host (the one the analyst's context is about)
               (re.compile(r"\bthe\s+(?:host|box|machine|server)\s+(?:(?:that|which)\s+)?(?:you|we|i)(?:'re|\s+are|\s+am)?\s+"
                           r"(?:analy[sz]e|analy[sz]ing|inspect|inspecting|examine|examining|look\s+at|are\s+looking\s+at)\s+is\s+"
                           r"(?=(?:user|enterprise|op|defender)[\w-]*\b)", re.IGNORECASE), ""),
               # "the host you analyse shows ...", "analysed host: ...": the host the analyst's context is about, whichever
               # (r49h: "every host you analyse", "each host under analysis": the one host of each analysis, not all of them)
               (re.compile(rf"\b(?:{_AT_HAND_DETERMINER})?(?:host|box|machine|server)\s+(?:(?:that|which)\s+)?(?:you|we|i)(?:'re|\s+are|\s+am)?\s+"
                                       r"(?:analy[sz]e|analy[sz]ing|inspect|inspecting|examine|examining|look\s+at|are\s+looking\s+at)\b|"
                                       # (the words of HOST_AT_HAND the wording knows: "the inspected box", "the
                                       # machine under examination")
                                       rf"\b(?:{_AT_HAND_DETERMINER})?(?:analy[sz]ed|inspected|examined)\s+(?:host|box|machine|server)\b|"
                                       rf"\b(?:{_AT_HAND_DETERMINER})?(?:host|box|machine|server)\s+" + AT_HAND_PARTICIPLE,
                                       re.IGNORECASE), "a host"),
               # "OpS0 under analysis, user level", "Enterprise1 being inspected": the host named is the one at hand, and
               # the words that say so say nothing more of it
               (_HOST_UNDER_ANALYSIS, _host_named_at_hand),
               # (r47a) "at user level (root not reached)", "root not yet gained": the level denied, as "not root" says it
               (re.compile(r"\b(root|privileged|admin)(?:\s+(?:access|level|rights))?\s+not\s+(?:yet\s+)?(?:reached|gained|obtained|"
                           r"achieved|attained|taken)\b", re.IGNORECASE), r"not \1"),
               # (r47a) "an op box owned and there is no scan going on on it", "..., and no probe is under way on that box":
               # the activity that same host lacks, as "with no scan running on it" says it (read in one clause, it
               # claimed only that no host of the class was both, and the rule held where none was compromised)
               (re.compile(r"\s*,?\s*\band\s+(?:there\s+(?:is|are|'s)\s+no|there\s+isn['\u2019]?t\s+(?:a|an|any)|no)\s+"
                           r"(?P<what>(?:(?:further|current|new|active|live)\s+)?(?:exploits?|exploitation|scans?|scanning|probes?|"
                           r"probing|activity|alerts?))\s+(?:is\s+|are\s+)?(?:running|going\s+on|under\s+way|happening|active|"
                           r"showing|shown)\s+(?P<on>(?:on|in|against)\s+(?:it|that\s+(?:host|box|machine|one|server)))\b",
                           re.IGNORECASE), r" with no \g<what> running \g<on>"),
               # "OpS0 scanned, nothing on it yet": nothing of the attacker's is on that host, no compromise
               (re.compile(r"\bnothing\s+(?:is\s+)?on\s+(it|that\s+(?:host|box|machine|one|server)|there)\b"
                           r"(?!\s+(?:is|was|has|had|gets?|got|shows?|reads?|looks?|seems?|appears?)\b)", re.IGNORECASE),
                r"nothing compromised on \1"),
               # (r42m) "scanned, nothing owned on it", "w/ nothing taken on that box": the attacker's hold said by its own
               # verb, of that host (read as a "nothing" on its own, it said no host anywhere was scanned and compromised)
               (re.compile(r"\bnothing\s+(?:is\s+|was\s+)?(?:owned|held|taken|pwned|popped|rooted|compromised)\s+on\s+"
                           r"(it|that\s+(?:host|box|machine|one|server)|there)\b", re.IGNORECASE), r"nothing compromised on \1"),
               # (r42m) the same said after a named host's state with no place of its own, "E2 scan only, nothing owned":
               # of that host (a "nothing owned" alone, no host before it, stays the whole network's)
               (re.compile(r"(\b(?:[a-z_]+\d|defender)\b[^,;:.>]{0,40}),\s*nothing\s+(?:is\s+)?(?:owned|held|taken|pwned|rooted|"
                           r"compromised)\b(?!\s+(?:on|in|at|anywhere|elsewhere|else)\b)", re.IGNORECASE), r"\1, nothing compromised on it"),
               # "ent srv scanned and nothing more": the state said without its verb (or after a bare comma, "scanned, nothing
               # more", as a note says it)
               # (r55m: in these readings of a scan and no more, "nothing worse" says the same as "nothing more": the scan is
               # the worst of it, "opserver scanned, nothing worse"; read as a "nothing" on its own, the rule held nowhere)
               (re.compile(r"(?<!\bis\s)(?<!\bare\s)(?<!\bwas\s)(?<!\bbeen\s)(?<!\bbeing\s)\b(scanned|probed)(?:\s*,?\s+and|\s*,)\s+"
                           r"nothing\s+(?:more|else|worse)\b(?!\s+(?:is\s+)?(?:going\s+on|happening))", re.IGNORECASE), r"only \1"),
               # "scan seen, nothing more", "a probe spotted and nothing else": a note's scan, said seen, and no more (it was read
               # as "no scan": the opposite)
               (re.compile(r"\b(?:(?:a|an|one)\s+)?(scan|probe)s?\s+(?:seen|spotted|observed|detected|noted|logged|noticed)"
                           r"(?:\s*,?\s+and|\s*,)\s+nothing\s+(?:more|else|worse)\b(?!\s+(?:is\s+)?(?:going\s+on|happening))", re.IGNORECASE),
                lambda m: "only " + ("scanned" if m.group(1).lower() == "scan" else "probed")),
               # "is being scanned and nothing more", "shows a scan and nothing else", "shows a scan, nothing else", (r52a) "a box
               # showing a scan and nothing more" (the bound of a state, no move before it: `rule_claims.moves_bounded_away`
               # leaves it here; read as a "nothing" on its own, the rule held where no host was scanned, the opposite)
               (re.compile(r"\b(?P<verb>is|are|was|were|shows?|showing|has\s+been)\s+(?:(?:only|just|merely)\s+)?(?P<what>(?:being\s+|a\s+|an\s+)?\w+)(?:\s*,?\s+and|\s*,)\s+"
                           r"nothing\s+(?:more|else)\b(?!\s+(?:is\s+)?(?:going\s+on|happening))", re.IGNORECASE), r"\g<verb> only \g<what>"),
               # (r39m) "each op box w/ one probe and nothing else", "an op server with a probe, nothing more": that host's scan, and
               # no more (read as "with a scan" and a "nothing" on its own, it said no host of the class was scanned)
               (re.compile(r"\b(with|w/)\s+(?:(?:a|an|one)\s+)?(scan|probe)s?(?:\s*,?\s+and|\s*,)\s+nothing\s+(?:more|else|worse)\b"
                           r"(?!\s+(?:is\s+)?(?:going\s+on|happening))", re.IGNORECASE), r"with only a \2"),
               # (r49m) the same said as a noun of its own, the subject of a "means" or a note's case: "for the analysed host,
               # a probe, no more, means ...", "a probe, nothing else -> ..." (a "nothing" read on its own said no host
               # anywhere was scanned: the opposite)
               (re.compile(r"(?:^|(?<=[,;:(]\s)|(?<=[,;:(]))\s*(?:(?:a|an|one)\s+)?(scan|probe)s?(?:\s*,?\s+and|\s*,)\s+nothing\s+"
                           r"(?:more|else|worse)\b(?!\s+(?:is\s+)?(?:going\s+on|happening))", re.IGNORECASE), r" only a \1"),
               # (r39m) a level bounded from above by the lowest one, "held no higher than user level", "owned at most at
               # user level", "not beyond user level": at user level (read as a "no" on its own, it said not compromised)
               (re.compile(r"\b(?:(?:no|not)\s+(?:worse|higher|deeper|further|more)\s+than|at\s+most|(?:not\s+|never\s+)?beyond|"
                           r"up\s+to)\s+(?:at\s+)?(?:the\s+)?(?=user[\s-]level\b)", re.IGNORECASE), "at "),
               # "don't restore Enterprise1 on scan activity", "for a scan": the scan is the reason, and all of it
               (re.compile(r"^\s*(?:for|on)\s+(?:(?:a|an|one)\s+)?(scan|probe)(?:\s+(?:activity|alerts?))?s?\b", re.IGNORECASE),
                r"on only a \1"),
               (re.compile(r"\b(?:an?\s+)?(exploit\w*(?:\s+attempt)?)\s+that\s+(?:did\s+not|didn't|failed\s+to)\s+(?:land|succeed|work|stick)\b",
                           re.IGNORECASE), r"only an \1"),
               # (r33h) "a probed Op_Host2 with no compromise": the state said before the host's name, said after it
               # ("Op_Host2 probed with no compromise"), where the reading gives a host its state (read before it, the
               # scan was lost beside the "with" that follows)
               (re.compile(r"\b(?:(?:a|an|the)\s+)?(scanned|probed|exploited|compromised|rooted|owned|pwned|breached|infected|hacked)\s+"
                           r"((?:User|Enterprise|Op_Host)\d|Op_Server0)\b(?=\s+(?:with|without|that|which|showing)\b)", re.IGNORECASE),
                r"\2 \1"))


# The shorthand of notes for a class ("usr host", "ent srv", "ops boxes", as `classes_in` reads it), written in full, so
# that the clauses are split before it as before "user host" ("no usr host owned + ent srv scanned" read as one clause
# claimed neither class scanned: the second clause's state was given to both subjects, and its "no" to the second)
# (r38m: and a subnet in shorthand, "usr subnet", "ent subnet")
# (r55h: and a side or tier of the network, "usr side, scan only": the user side as a whole, as "user side" reads; left
# unexpanded, it was one user host scanned, and the rule held where another user host was owned)
_SUBNET_NOUN = r"|subnets?|networks?|zones?|segments?|sides?|tiers?"


_CLASS_SHORTHAND = ((re.compile(r"\b(?:ent|entr|entp|enter)\.?[\s-]*(?=(?:hosts?|servers?|srvs?|svrs?|box(?:es)?|machines?|nodes?|"
                                r"systems?" + _SUBNET_NOUN + r")\b)", re.IGNORECASE), "enterprise "),
                    (re.compile(r"\busr[\s-]*(?=(?:hosts?|box(?:es)?|machines?|workstations?|nodes?|systems?" + _SUBNET_NOUN + r")\b)",
                                re.IGNORECASE), "user "),
                    (re.compile(r"\b(?:ops|opr|opl)\.?[\s-]*(?=(?:hosts?|box(?:es)?|machines?|nodes?|systems?" + _SUBNET_NOUN + r")\b)",
                                re.IGNORECASE), "operational "),
                    (re.compile(r"(?<=\benterprise\s)(?:srv|svr)(?=s?\b)", re.IGNORECASE), "server"),
                    # ("E-host owned", "a U-box scanned": the class's letter, hyphenated to a class noun)
                    (re.compile(r"\bE-(?=(?:hosts?|servers?|box(?:es)?|machines?|nodes?|systems?)\b)", re.IGNORECASE), "enterprise "),
                    (re.compile(r"\bU-(?=(?:hosts?|box(?:es)?|machines?|workstations?|nodes?|systems?)\b)", re.IGNORECASE), "user "))


# "the user hosts are all clean", "U-hosts all quiet": the quantifier said after the class is the class's ("all user
# hosts are clean"), not the whole network's
_ALL_AFTER = re.compile(r"\b(?:the\s+)?(?P<cls>(?:(?:user|enterprise|op|operational)[\s-]+|[UE]-)(?:hosts|box(?:es)|machines|servers|"
                        r"workstations|nodes|systems))\s+(?:(?P<verb>are|were)\s+)?all\b", re.IGNORECASE)


# "the enterprise and the op subnets", "ops + usr subnets": two classes sharing one plural "subnets", each its own
# subnet ("the user subnet and the enterprise subnet"), so that each class gets the state said of them (read as one
# subject, "all quiet" after them was taken for the whole network's, and a foothold "in" them for no class's)
_SUBNET_CLASS = r"(?:user|usr|enterprise|ent|op|ops|operational)"


_SHARED_SUBNETS = re.compile(rf"\b(?:(?P<both>both)\s+)?(?:the\s+)?(?P<a>{_SUBNET_CLASS})\s*(?:and|\+|&)\s*(?:the\s+)?"
                             rf"(?P<b>{_SUBNET_CLASS})[\s-]+subnets\b(?P<all>\s+(?:are\s+)?all\b)?", re.IGNORECASE)


# "the user subnet is all quiet": the quantifier is the subnet's (each of its hosts), not the whole network's
_SUBNET_ALL = re.compile(rf"\b(?P<subnet>{_SUBNET_CLASS}[\s-]+subnet)(?P<verb>\s+(?:is|are))?\s+all\s+(?=quiet|calm|clean|idle)",
                         re.IGNORECASE)


_SUBNET_CLASS_WORD = {"usr": "user", "ent": "enterprise", "ops": "operational", "op": "operational"}


def _subnets_apart(text: str) -> str:
    """`text` with two classes that share "subnets" said each with its own subnet (`_SHARED_SUBNETS`); a quantifier
    after them ("are all quiet") is theirs, so it goes ("are quiet")."""
    def apart(m: re.Match) -> str:
        a, b = (_SUBNET_CLASS_WORD.get(m[k].lower(), m[k].lower()) for k in ("a", "b"))
        verb = " are" if m["all"] and re.search(r"\bare\b", m["all"]) else ""
        return f"{m['both'] + ' ' if m['both'] else ''}the {a} subnet and the {b} subnet{verb}"
    return _SUBNET_ALL.sub(r"\g<subnet>\g<verb> ", _SHARED_SUBNETS.sub(apart, text))


# "user subnet quiet, an enterprise server scanned": a note's second condition after a comma, a host of a class with its
# own state; it is joined as "and" (left after the comma, the state before it was given to it: the enterprise
# servers were read quiet)
_COMMA_THEN_CLASS_STATE = re.compile(r",\s+(?=(?:an?|some|one)\s+(?:user|enterprise|operational|op)\s+(?:host|server|box|machine)\s+"
                                     r"(?:scanned|exploited|compromised|owned|probed)\b)", re.IGNORECASE)


# "User0 is the only compromised user host", "E1 the only hacked ent srv": that host in that state and no other host of
# its class in it (read as the host and its class both in the state, "only" placed nowhere, it was wider than its text)
_STATE_WORD = r"(?:compromised|owned|exploited|scanned|infected|hacked|breached|hit|rooted|pwned)"  # (r40m: "hit", "rooted")


# (r45s) Words of a compromise said for sure ("owned", "compromised", "hit"), and words that leave its level open or in
# doubt ("Unknown", "any level", "suspected", "possibly").
# (r60h: and "exploited", the attack said to have succeeded, "Enterprise0 exploited, Restore it": compiled as any compromise,
# unread, the note fired on the row at Unknown a Remove leaves)
_FOR_SURE = re.compile(r"\b(?:compromis\w*|owned|pwned|hacked|breach\w*|taken\s+over|rooted|hit|infected|exploited)\b", re.IGNORECASE)


_NOT_FOR_SURE = re.compile(r"\bunknown\b|\bany\s+(?:compromise|level|access)\b|\bwhatever\b|\bsuspect\w*|\bpossibl\w*|"
                           r"\bmaybe\b|\bmight\b|\bunclear\b|\bnot\s+sure\b|\buncertain\b", re.IGNORECASE)


def compromise_said_for_sure(text: str) -> bool:
    """Whether the text says a compromise for sure ("when the op box is owned"), with no word that leaves its level open
    or in doubt: a row at Compromised Unknown does not meet it (the gate holds a compiled "any compromise" to that)."""
    # (r60h: read through a hurried note's misspellings, "exploted", as the readers read it, spelling.py)
    text = misspellings_mended(text or "")
    return bool(_FOR_SURE.search(text)) and not _NOT_FOR_SURE.search(text)


_ONLY_ONE_NAMED = re.compile(rf"\b(?P<host>[A-Za-z_]+\d)\s+(?:is\s+)?the\s+only\s+(?:(?P<s1>{_STATE_WORD})\s+)?"
                             r"(?P<cls>user|enterprise|operational|op)\s+(?:host|box|server|machine|workstation)\b"
                             rf"(?:\s+(?:that\s+is\s+|which\s+is\s+|to\s+be\s+|got\s+|gets\s+|was\s+)?(?P<s2>{_STATE_WORD})\b)?", re.IGNORECASE)


# "network-wide", "on the whole network": on the network, which a count of hosts already means ("just one box hacked
# network-wide"; "whole" was a word the reading did not place, so the count was left unjudged)
_NETWORK_WIDE = re.compile(r"\b(?:network|estate)[\s-]wide\b|\b(?:on|in|across)\s+the\s+(?:whole|entire)\s+network\b", re.IGNORECASE)


def _only_one_named(text: str) -> str:
    """`text` with "<host> (is) the only <state> <class> host" said as "<host> is <state> and no other <class> host
    is <state>" (`_ONLY_ONE_NAMED`); left as it was where the words name no one host or no state."""
    def named(m: re.Match) -> str:
        state = m["s1"] or m["s2"]
        if not state or len(hosts_in(m["host"])) != 1:
            return m.group(0)
        return f"{m['host']} is {state} and no other {m['cls']} host is {state}"
    return _ONLY_ONE_NAMED.sub(named, text)


def class_in_full(text: str) -> str:
    """`text` with a class said in the shorthand of notes ("usr box", "ent srvs") written in full ("user box",
    "enterprise servers")."""
    for pattern, replacement in _CLASS_SHORTHAND:
        text = pattern.sub(replacement, text or "")
    return text


# "2+ E srvs owned": a count of hosts said in the shorthand of notes, "two or more" (not "3+ steps": a history)
_PLUS_COUNT = re.compile(r"\b(?P<n>[1-4])\s*\+(?=\s*(?:[\w-]+\s+){0,2}?(?:hosts?|box(?:es)?|machines?|servers?|srvs?|svrs?|"
                         r"workstations?|nodes?|systems?)\b)", re.IGNORECASE)


# (r49h) and the "or more" said after the hosts it counts, "three owned op machines or more", "3 ent servers or more": the
# same least count (its "or more" left unplaced, the reading was partial and a predicate of one such host passed)
_OR_MORE_AFTER = re.compile(r"\b(?P<n>two|three|four|five|[2-5])\s+(?P<what>(?:[\w-]+\s+){0,2}?(?:hosts?|box(?:es)?|machines?|"
                            r"servers?|srvs?|svrs?|workstations?|nodes?|systems?))\s+or\s+more\b"
                            # (r49a: not the "more than" / "more of" of another count, "two user hosts or more than one op
                            # host": that "or more" opens the second count, written before the first it was both wrong)
                            r"(?!\s+(?:than|of)\b)", re.IGNORECASE)


def plus_as_or_more(condition: str) -> str:
    """`condition` with a count said "2+" written "2 or more" (as `COUNT` reads it), and one whose "or more" follows
    the hosts it counts written before them."""
    condition = _OR_MORE_AFTER.sub(lambda m: f"{m['n']} or more {m['what']}", condition)
    return _PLUS_COUNT.sub(lambda m: f"{m['n']} or more", condition)


# (r37m) A group of hosts named by a plural noun and glossed by their list in brackets ("boxes (U1-U3) at Unknown",
# "the boxes (User1, User2) with a scan"): like a class said with a state, one of them in that state, not each of them
_GLOSSED_GROUP = re.compile(rf"(?<!\bboth\s)(?<!\ball\s)(?<!\beach\s)(?<!\bevery\s)\b(?:the\s+)?(?!(?:both|all|each|every)\b)(?:[\w-]+\s+)?(?:hosts|box(?:es)|machines|servers|srvs|svrs|nodes|systems|workstations)\s*"
                            rf"\((?P<hosts>{HOST_WORD}(?:\s*(?:,|\band\b|\bor\b)\s*{HOST_WORD})+)\)", re.IGNORECASE)


# (r37m) A class as a heading, then its level alone after the colon ("ops boxes: Unknown -> ..."): the class at that level
# (a bare level after a class, unlike one after a host, was read as no state at all)
_CLASS_THEN_LEVEL = re.compile(r"(?P<subject>^[^:;,.]{2,40}?)\s*:\s+(?=(?:unknown|privileged|root|user[\s-]level)\s*$)", re.IGNORECASE)


def _one_of_list(listed: str) -> str:
    """A list of hosts written as alternatives: "A, B and C" -> "A, B or C"."""
    names = [n for n in re.split(r"\s*(?:,|\band\b|\bor\b)\s*", listed) if n.strip()]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


# (r38m) "all but one of the enterprise servers": a count (`COUNT`), not a clause ending at "but"; "no more than two
# user hosts": a bound (as "at most two"), not "no user host"
# (r38h) and "all the enterprise servers but one", whose "but" would split the clause where a contrast is read
_ALL_BUT = re.compile(r"\ball\s+but\s+(?=(?:one|two|a\s+single|[12])\b)|"
                      r"\b(?P<all>all\s+(?:(?:of\s+)?the\s+)?(?:[\w-]+\s+){0,2}?(?:hosts|boxes|machines|servers))\s+but\s+"
                      r"(?=(?:one|two|[12])\b)", re.IGNORECASE)


_NO_MORE_THAN = re.compile(r"\b(?:no|not)\s+more\s+than\s+(?=(?:one|two|three|four|five|[1-5])\b)", re.IGNORECASE)


# (r39m) and a lower bound said as a denied comparison, "no fewer than 2 op machines", "not less than four": at least that
# many (read as "no user host" plus a count, the rule held nowhere)
_NO_FEWER_THAN = re.compile(r"\b(?:no|not)\s+(?:fewer|less)\s+than\s+(?=(?:one|two|three|four|five|[1-5])\b)", re.IGNORECASE)


def counts_said_plainly(condition: str) -> str:
    """`condition` with the counts whose words would read as a clause or a denial written as `COUNT` reads them."""
    condition = _ALL_BUT.sub(lambda m: f"{m['all']} save " if m["all"] else "all save ", condition)
    return _NO_FEWER_THAN.sub("at least ", _NO_MORE_THAN.sub("at most ", condition))


# (r38m) A note's "hit" right after the hosts of a class, "one ent srv hit", "two user boxes hit": those hosts got hit
# (compromised), as after a host's own name ("Ent1 hit"); read as no state, the class stood bare.
_CLASS_HIT = re.compile(r"\b(?P<noun>(?:hosts?|box(?:es)?|servers?|machines?|workstations?|nodes?|systems?))\s+hit\b(?!\s+(?:by|with|on)\b)",
                        re.IGNORECASE)


# (r46m) "nothing is running on it", "nothing happening there": no activity on that one host (read as "nothing", every
# host of the network was denied the clause before it: "it sits at root with nothing going on on it" was "no host at
# root")
_NOTHING_ON_IT = re.compile(r"\bnothing\s+(?:else\s+)?(?:is\s+|'s\s+|was\s+)?(?:running|happening|going\s+on|active|moving|under\s+way)\s+"
                            r"(?:on|in|at|against)\s+(?P<what>it|that\s+(?:host|box|machine|server|one)|(?:the\s+)?same\s+(?:host|box|machine|server))\b"
                            r"|\bnothing\s+(?:is\s+|'s\s+|was\s+)?(?:running|happening|going\s+on)\s+(?P<there>there)\b"
                            # (r47h) "with nothing running", no place named: the state of the subject the phrase is joined to
                            # ("Op_Host1 at root with nothing going on"); read as "nothing" alone, no host was active
                            # anywhere, or the phrase was dropped and the rule held on the host's row in any activity
                            # (r47a: not "with nothing else running", "with nothing running anywhere (else)", "... elsewhere":
                            # the other hosts' quiet, said beside this host's own state, "User2 under exploit with nothing
                            # else running"; read as this host's row, the rule held where it was quiet, against its words)
                            r"|\b(?P<with>with)\s+nothing\s+(?:running|happening|going\s+on|active|moving|under\s+way)\b"
                            r"(?!\s+(?:on|in|at|against|there|anywhere|elsewhere|else|across|around|besides|beyond|outside)\b)", re.IGNORECASE)


# (r46m) The two columns of a host's row given by their values alone, as the table prints them: "prints Exploit and User
# for E1", "reads Scan/No". Capitalised as the table writes them; read as "Scan" alone, the "No" was lost (or taken
# for a denial) and the rule was wider than its text.
_COLUMN_VALUES = re.compile(r"(?<![\w-])(?<!Activity\s)(?P<activity>None|Scan|Exploit)(?P<join>\s*(?:and|,|/|&)\s*)"
                            r"(?P<compromise>No|User|Privileged|Unknown)\b(?![\s-]*(?:hosts?|box(?:es)?|machines?|servers?|level|"
                            r"subnet|side|accounts?|access|rights)\b)")


def column_values_said(condition: str) -> str:
    """(r46m) `condition` with a row's two values said alone (`_COLUMN_VALUES`) written with their columns' names."""
    return _COLUMN_VALUES.sub(lambda m: f"Activity {m['activity']}{m['join']}Compromised {m['compromise']}", condition)


# (r46m) A level "or higher" than the user one ("... user-level or higher", "... user level or worse"): either level the
# table states, a compromise for sure (read as the user level with its "higher" left over, the rule was narrower than its
# text and its condition never whole)
_LEVEL_OR_ABOVE = re.compile(r"\s*\b(?:at\s+)?user[\s-]level\s+or\s+(?:above|higher|worse|deeper|beyond|more)\b", re.IGNORECASE)


def level_or_above_said(condition: str) -> str:
    """(r46m) `condition` with a level "or higher" than the user level (`_LEVEL_OR_ABOVE`) said as a compromise: dropped
    after a word of compromise, "owned", "held" (a compromise is said already), else "compromised"."""
    return _LEVEL_OR_ABOVE.sub(lambda m: "" if _FOR_SURE.search(own_clause(condition[:m.start()]))
                               or re.search(r"\bheld\b", own_clause(condition[:m.start()]), re.I) else " compromised", condition)


# (r46a) Where the clause a level is said in opens: after a comma, semicolon or colon, or a word that joins another clause
_CLAUSE_OPENS = re.compile(r"[,;:]|\b(?:and|but|or|while|whereas|though|although)\b", re.IGNORECASE)


def own_clause(before: str) -> str:
    """(r46a) The words of the clause `before` ends in: a compromise said there is the level's ("owned at user level or
    above"); one said of another host in an earlier clause ("U1 not compromised, E0 at user level or above") is not (read as
    the level's, the level was dropped and E0 was claimed with no state at all)."""
    cut = list(_CLAUSE_OPENS.finditer(before))
    return before[cut[-1].end():] if cut else before


def nothing_on_it_said(condition: str) -> str:
    """(r46m) `condition` with "nothing is running on it" written as the activity it denies that host: "no activity on
    it". (r46a) Not "nothing ... on it but a scan", "except an exploit": that names the one activity there (read as none,
    the rule held on a quiet row, the opposite of its words)."""
    return _NOTHING_ON_IT.sub(lambda m: m[0] if _SAVE_FOR.match(condition, m.end())
                              else "with no activity" if m["with"] else f"no activity on {m['what'] or 'it'}", condition)


_SAVE_FOR = re.compile(r"\s*,?\s*(?:but|except|besides|save|bar|apart\s+from|other\s+than|beyond|aside\s+from|outside\s+of)\b", re.IGNORECASE)


def spelled_out(condition: str) -> str:
    """A condition with what people leave out written out: "neither A nor B is compromised" -> "A is not compromised
    and B is not compromised"; "A is scanned but B is not" -> "A is scanned but B is not scanned"; "a mere scan" ->
    "only a scan"; a class in shorthand, "usr host", in full (`class_in_full`)."""
    condition = _COMMA_THEN_CLASS_STATE.sub(" and ", _subnets_apart(class_in_full(hosts_alone_as_only(nothing_on_it_said(column_values_said(level_or_above_said(condition)))))))
    condition = _CLASS_HIT.sub(lambda m: f"{m['noun']} got hit", condition)
    condition = _NETWORK_WIDE.sub("on the network", _only_one_named(plus_as_or_more(counts_said_plainly(condition))))
    condition = _GLOSSED_GROUP.sub(lambda m: "any of " + _one_of_list(m["hosts"]), condition)
    condition = _CLASS_THEN_LEVEL.sub(lambda m: f"{m['subject']} at " if classes_in(m["subject"]) else m.group(0), condition)
    condition = _ALL_AFTER.sub(lambda m: f"all {re.sub(r'^U-', 'user ', re.sub(r'^E-', 'enterprise ', m['cls']))}"
                                         f"{' ' + m['verb'] if m['verb'] else ''} ", condition)
    for pattern, replacement in _ONLY_FORMS:
        condition = pattern.sub(replacement, condition or "")
    text = _NEITHER.sub(lambda m: f"{m['a']} is not {m['state'].strip()} and {m['b']} is not {m['state'].strip()}",
                        written_out(condition or ""))
    text = _NONE_OF_HOSTS.sub(_each_not, text)
    text = _NEITHER_SHOWS.sub(lambda m: " and ".join(f"{host} {'has' if m['verb'].lower().startswith('ha') else 'shows'} no "
                                                     f"{m['what'].strip()}" for host in (m['a'], m['b'])), text)
    text = _NEITHER_STATE.sub(lambda m: f"{m['a']} {m['verb']} not {m['s1'].strip()} and not {m['s2'].strip()}", text)
    text = _ELLIPSIS_TOO.sub(lambda m: f"{m['a']} {m['verb']} {m['state']} {m['join']} {m['b']} {m['verb']} {m['state']}", text)
    text = _ELLIPSIS_OTHERS.sub(lambda m: f"{m['a']} {m['verb']} {m['state']} {m['join']} {m['b']} {m['verb']} {m['state']}", text)
    return _ELLIPSIS.sub(lambda m: f"{m['a']} {m['verb']} {m['state']} {m['join']} {m['b']} {m['verb']} not {m['state']}", text)


def _each_not(found: re.Match) -> str:
    """(r42x) "none of A, B or C is X" written host by host: "A is not X and B is not X and C is not X" ("shows / has" a
    thing: "A shows no X ...")."""
    hosts = [h for h in re.split(r"\s*(?:,|\band\b|\bor\b|\bnor\b)\s*", found["hosts"]) if h.strip()]
    verb, state = (found["verb"] or "").lower(), found["state"].strip()
    said = (lambda h: f"{h} has not {state}") if verb[:2] == "ha" and state.lower().startswith("been ") \
        else (lambda h: f"{h} {'has' if verb.startswith('ha') else 'shows'} no {state}") if verb[:2] in ("sh", "ha") \
        else (lambda h: f"{h} is not {state}")
    return " and ".join(said(h) for h in hosts)


# (r38g) The hosts an order is kept to, said after them ("is for U1 alone now", "for E0 and E2 only") or in shorthand
# ("only for E0 and OpS0"): "only for" them, each named as the table names it. ("alone" was a word the reading did not
# place, so the rule stayed silent; a list in shorthand was read as each of its hosts in the state.)
_NAME_TOKEN = r"(?:the\s+)?(?:defender|[a-z][a-z_-]*\s?\d)\b"


_NAME_LIST = rf"(?P<hosts>{_NAME_TOKEN}(?:\s*(?:,|\band\b|\bor\b)\s*{_NAME_TOKEN})*)"


_HOSTS_KEPT_TO = re.compile(rf"\b(?:for|to)\s+{_NAME_LIST}\s+(?:alone|only|solely|exclusively)\b|"
                            rf"(?<!not\s)\b(?:only|just|solely)\s+(?:on|for|to)\s+{_NAME_LIST.replace('hosts', 'pre')}",
                            re.IGNORECASE)


def hosts_alone_as_only(condition: str) -> str:
    """`condition` with each "for <hosts> alone (only)" and "only for <hosts>" written "only for <hosts in full>"; any
    other "for ... alone" as it was."""
    def kept(found: re.Match) -> str:
        what = found["hosts"] or found["pre"]
        return f"only for {' and '.join(hosts_in(what))}" if hosts_only(what) else found.group(0)
    return _HOSTS_KEPT_TO.sub(kept, condition or "")


def hosts_only(what: str) -> bool:
    """Whether `what` is one or more hosts' names and nothing else ("E1", "User1 and User3", "the E0, E2")."""
    return bool(hosts_in(what)) and not re.sub(r"\b(?:and|or|nor|the)\b|[,/\s]", "", without_host_names(what), flags=re.IGNORECASE)
