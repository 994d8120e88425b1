"""What a clause that names no host claims of the hosts in general: every host quiet, none of a class, a count of them, a history. Pure.

The parts `claims` builds from: `general_parts` (a clause with no host's name: "no host shows any activity", "at
least two user hosts are compromised", "one of the op hosts"), the counts of hosts (`Count`, `of_count`), the
history atom one clause states (`history_claim`, history_words.py's reading), and the atoms themselves
(`state_atom`, `negated_atom`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

from forge.env.catalog import QUIET_ACTIVITY, QUIET_COMPROMISE
from forge.rulebook.language.facts import facts_needed
from forge.rulebook.language.history_words import history_conditions, without_denied_moves, without_history
from forge.rulebook.language.markers import negations_in
from forge.rulebook.language.names import classes_in
from forge.rulebook.language.phases import phase_named, phase_predicate
from forge.rulebook.language.situation import SOME, host_statements, state_of as _state_of


# "no host shows any activity", "nothing is going on", "the network is quiet", "no alert fires": every host quiet.
_ON_THE_NETWORK = r"(?:\s+(?:on|in|across)\s+the\s+(?:whole\s+|entire\s+)?(?:network|system|environment|estate|board|range))?"


ALL_QUIET = re.compile(r"\b(?:no|not\s+a\s+single|none\s+of\s+the)\s+(?:host|hosts|machine|machines|alerts?)\b[^.;]*?"
                        r"\b(?:activ|compromis|alert|scan|exploit|fires?|shows?)|"
                        # ("nothing on the network shows any activity or any compromise": no host shows either)
                        r"\bnothing" + _ON_THE_NETWORK + r"\s+(?:shows?|has|is\s+showing|reports?)\s+(?:any\s+)?(?=activ|compromis)|\bnothing\s+(?:at\s+all\s+)?(?:is\s+)?(?:going\s+on|happening)\b|"
                        r"\b(?:the\s+)?(?<!user\s)(?<!enterprise\s)(?<!operational\s)(?<!op\s)(?:network|net|everything|all)\s+(?:is\s+|looks\s+)?(?:quiet|calm|clean)\b|\bno\s+alerts?\b|"
                        # (r40m: the network in shorthand, "quiet net", and "nothing on any host": every host quiet, not "no
                        # host is quiet", the opposite it was read as)
                        r"\b(?:quiet|calm|clean)\s+(?:network|net)\b|\bnothing\s+(?:at\s+all\s+)?(?:on|in|at)\s+any\s+(?:host|machine|box)\b"
                        r"(?!\s*,?\s*(?:but|except|other|apart|besides|save|bar)\b)",
                        re.IGNORECASE)


# "a host", "any machine", "nothing", "no host": a statement about hosts of no class in particular
SOME_HOST = re.compile(r"\b(?:a|an|any|some|every|each)\s+(?:host|machine|box|server|node)s?\b|"
                        r"\b(?:host|machine|box)s?\s+(?:that|which|whose|with|showing)\b", re.IGNORECASE)


# ("nothing on it / on the host" is about one host; "nothing on the network", "nothing in the user subnet" about every
# host of it)
NOTHING = re.compile(r"\b(?:nothing(?!\s+(?:on|in|of)\s+(?:it|that|this|them|the\s+(?!(?:whole\s+|entire\s+)?(?:(?:user|enterprise|"
                      r"op|operational)[\s-]+)?(?:network|subnet|zone|segment|system|environment|estate|board|range)\b)))|"
                      r"no\s+(?:host|machine|box)s?|"
                      r"none\s+of\s+the\s+(?:host|machine)s)\b", re.IGNORECASE)


# "all / every / each user host", "the whole user subnet", "the user subnet is clean": a statement about each host of
# the class, not about some host of it.
# (r48m: not one over steps, "at each of the latest two logged steps", "every one of the past 4 turns": a history)
_EVERY = re.compile(r"\b(?<!at\s)(?<!after\s)(?:all|every|each|the\s+(?:whole|entire))\b"
                    r"(?!\s+(?:of\s+)?(?:them|it|the\s+time|times|right|along|at\s+once))"
                    r"(?!\s+(?:one\s+)?(?:of\s+)?(?:the\s+|its\s+|their\s+)?(?:(?:last|past|previous|prior|recent|recorded|latest|\d+|"
                    r"two|three|four|five|six|seven|eight)\s+)*(?:steps?|turns?|rounds?)\b)", re.IGNORECASE)


_SUBNET = re.compile(r"\b(?:user|enterprise|op|operational)[\s-]+(?:subnet|network|zone|segment|side|tier)\b", re.IGNORECASE)


# A clause about hosts in general ("when two or more hosts show an exploit", "if anything is compromised"): not about the
# host named before it.
# (r45m: and activity said of the network in the plural, "with only scans", "just probes so far": some host shows it)
GENERAL_SUBJECT = re.compile(r"\b(?:hosts|machines|boxes|servers|workstations|nodes|systems|anything|something|everything|nothing|"
                              r"anywhere|somewhere|everywhere)\b|\b(?:only|just|nothing\s+but|merely|mere)\s+(?:scans|probes|exploits)\b|" + r"\b(?:the\s+)?(?:attacker|adversary|intruder|red(?:\s+(?:agent|team))?)\b"
                              r"(?![^.;]*\b(?:it|its|there|that\s+(?:host|machine|box|one))\b)", re.IGNORECASE)


NOT_YET = re.compile(r"^\s*(?:until|till|before|unless|except\s+(?:when|if|once|while)|"
                      r"(?:(?:but|and|yet)\s+)?not\s+(?:when|if|once|while)|(?:but\s+)?never\s+(?:when|if|once|while))\b", re.IGNORECASE)


# (r40k: and an exception, "but not if it is compromised", "not once it is rooted": the condition it excepts not so)
# "no user host is compromised", "none of the Enterprise hosts is ...": a class statement, negated.
_NONE_OF = re.compile(r"\b(?:no|none\s+of\s+the|not\s+(?:a\s+single|any|one)(?:\s+of\s+the)?|neither\s+of\s+the)\b", re.IGNORECASE)


# Where a condition's clause ends: before "until / unless ..." (a negated clause of its own), and before "and" that
# opens a clause about other hosts ("no enterprise host is compromised and a user host is being exploited"); never
# inside a list of hosts ("User1 and User2 are compromised" share their state).
NOTHING_ELSE_GOING_ON = r"nothing\s+else\s+(?:is\s+)?(?:going\s+on|happening)\b"


# A negation said of the subject's own host ("scan seen on a box, no compromise on it yet", "a host scanned, nothing
# compromised there"): a state of that host (Compromised No), not "no host is ..." (which would hold where nothing is
# scanned at all)
# (r47b: and a probe, "an owned user box with no probe running on it", and what runs there, "an owned user box, no scan
# running on it": that box's own scan denied; read as "no host of the class both owned and probed", the owning was lost
# and the rule held on a quiet network)
_ITS_OWN_STATE_DENIED = re.compile(
    r"\b(?:no|nothing|not\s+any)\s+(?:[\w-]+\s+){0,2}?(?:compromis\w*|exploit\w*|scan\w*|prob(?:e|es|ing)\b|activity|access|foothold|"
    r"privilege\w*|escalat\w*)\s+(?:(?:yet|so\s+far)\s+)?"
    # ("no scan running on it", "no probe going on on that box": what runs there, as "with no scan running on it")
    r"(?:(?:is\s+|are\s+)?(?:running|going\s+on|under\s+way|happening|showing)\s+)?(?:on|to|of|at|in|from)\s+(?:it|that\s+(?:host|box|machine|one|server)|"
    r"(?:the\s+)?same\s+(?:host|box|machine|one|server))\b|\b(?:no|nothing)\s+(?:[\w-]+\s+){0,2}?(?:compromis\w*|exploit\w*)\s+"
    r"(?:(?:yet|so\s+far)\s+)?there\b|"
    # "a user host that is only being scanned and shows no compromise": the subject's verb, then what it does not show
    r"\b(?:shows?|showing|has|having|with)\s+no\s+(?:[\w-]+\s+)?(?:compromis\w*|exploit\w*|scan\w*|prob(?:e|es|ing)\b|activity|access|foothold|"
    r"privilege\w*)", re.IGNORECASE)


# (r45m) The hosts a count left over, said with no class and no host of their own: "the other two", "the others", "the rest
# (of them)".
# (r46m: and "the rest of the user subnet", "rest of usr boxes": the same class as the count's, the hosts it leaves over)
THE_OTHERS = re.compile(r"^\s*(?:and\s+)?(?:all\s+|both\s+)?(?:the\s+)?(?:other\s+(?:two|three|four|[2-4])|others|rest)"
                         r"(?:\s+of\s+them|\s+of\s+(?:the\s+)?(?P<of>(?:user|usr|enterprise|ent|op|ops|operational)[\s-]+(?:subnet|network|zone|side|"
                         r"hosts|box(?:es)?|machines|servers|srvs)))?\b"
                         r"(?:\s+(?:are|is|stay|remain|look|show|sit))?", re.IGNORECASE)


_ONE_HOST = re.compile(r"\b(?:a|an|one|some)\s+(?:[\w-]+\s+)?(?:host|box|machine|server|node|workstation|system)\b(?!s)",
                       re.IGNORECASE)


_TABLE_NO = re.compile(r"\bcompromised\s*[:=]?\s*no\b(?!\s+(?:host|hosts|machine|machines|box|boxes|server|servers|one)\b)",
                       re.IGNORECASE)


# (r50g) A phase named, then its definition in brackets: "the exploitation phase (an exploit under way on some box)".
_PHASE_DEFINED = re.compile(r"\b(?:phase|stage)\s*\((?P<said>[^()]{3,100})\)", re.IGNORECASE)


def general_parts(clause: str, universal: bool, besides: Optional[str] = None) -> list:
    """What a clause that names no host claims: every host quiet ("no host shows any activity"), a named phase, or a
    state of the hosts of a class ("a user host is compromised": some; "no user host ...": none; "all user hosts
    ...": each, where `universal`; "two or more user hosts ...": that many). `besides`: the host the clause's "other"
    leaves out ("another host", "no other user host", "something else"): the claim is about the rest of the class."""
    from forge.rulebook.language.predicate import AllOf, AnyOf, Atom, Not, parse_predicate  # lazy: beside this module
    if besides is not None and re.match(r"\s*" + NOTHING_ELSE_GOING_ON, clause, re.IGNORECASE):
        # ("User4 at Unknown, nothing else going on": every other host quiet, no activity and no compromise)
        return [_besides(Not(AnyOfQuiet()), besides, AllOf, AnyOf, Not, Atom)]
    if besides is not None:
        # ("no other machine shows any activity": every host but it quiet, the "other" taken out as in "another user host")
        rest = OTHER.sub(" ", clause)
        parts = general_parts(rest if SOME_HOST.search(rest) or classes_in(clause) or ALL_QUIET.search(rest)
                               else OTHER.sub(" any host ", clause), universal)
        others = [_besides(p, besides, AllOf, AnyOf, Not, Atom) for p in parts]
        # "when other hosts are also compromised": the named host is, too
        also = [p.on(besides) for p in parts if isinstance(p, Atom) and p.host_class is not None] \
            if re.search(r"\b(?:also|too|as\s+well)\b", clause, re.IGNORECASE) else []
        return also + others
    if ALL_QUIET.search(clause):
        # ("no host shows any compromise": none compromised, whatever is scanned; "no host shows any activity", both, or
        # neither, "no host shows anything", is the quiet network it always was: the documented reading of "active")
        if _NO_HOST_SAYS.search(clause) and _COMPROMISE_WORD.search(clause) and not _OTHER_THAN_COMPROMISE.search(clause):
            return [Not(Atom(host_class="any", compromise="any"))]
        return [Not(AnyOfQuiet())]
    phase = phase_named(clause)
    if phase is not None and not classes_in(clause):
        # (r50g) a phase the text defines in its own words right after naming it, "the exploitation phase (an exploit under
        # way on some box)": its definition is the condition (the product's wider mapping of the phase, read instead,
        # held where the text's own words do not)
        defined = _PHASE_DEFINED.search(clause)
        own = general_parts(defined["said"], universal, besides) if defined and phase_named(defined["said"]) is None else []
        return own or [parse_predicate(phase_predicate(phase))]
    parts = []
    # (r36m: "a user box at Activity Scan, Compromised No" is the table's value of one host, no "no host ...": read as a
    # denial of the class it claimed that no host is both scanned and compromised, true where nothing is scanned at all)
    denial = _TABLE_NO.sub(" ", clause)
    none_of = (_NONE_OF.search(denial) or NOTHING.search(denial)) and not _ITS_OWN_STATE_DENIED.search(clause)
    every = universal and not none_of and bool(_EVERY.search(clause))  # "all user hosts are compromised"
    count = _counted(clause)
    for cls in classes_in(clause) or (["any"] if SOME_HOST.search(clause) or NOTHING.search(clause) or count
                                       or GENERAL_SUBJECT.search(clause) else []):
        state, negated = _state_of(NOTHING.sub(" ", _NONE_OF.sub(" ", clause)) if none_of else clause)
        atom = state_atom(Atom, state, host_class=cls)
        # ("the user hosts are quiet": each of them; "a user host with Activity None" is one of them)
        # (r36m: nor "a host at Unknown with activity None", "the analysed host ...": one host, not each host of the network)
        quiet_subnet = _SUBNET.search(clause) and QUIET_COMPROMISE in state or state[0] == QUIET_ACTIVITY \
            and not _ONE_OF_CLASS.search(clause) and not _ONE_HOST.search(clause)
        # (as people count the hosts of a class: "the enterprise servers" are Enterprise0-2, not the Defender that
        # sits in their subnet)
        named = [h for h in atom.hosts() if cls == "any" or h.lower().startswith(cls.lower()[:2])]
        if count is not None and not none_of and ALERTS_LISTING.search(clause):
            parts.append(of_count(atom, named, count, on=_listed))  # (r43m) "the alerts list three or more hosts"
        elif count is not None and not atom.bare() and not none_of and negated is None:
            parts.append(of_count(atom, named, count))  # "three or more op boxes are owned"
        elif (every or universal and quiet_subnet and not none_of) and not atom.bare():  # each host of the class
            # ("the user subnet is clean": each of its hosts; "the user subnet is scanned": some host of it)
            parts.append(AllOf(tuple(atom.on(h) for h in named)))
        elif not atom.bare() and not none_of and negated is not None and not excludes(atom, negated) \
                and _ONE_OF_CLASS_DENIED.search(clause):
            # ("a host at Unknown with no exploit showing": one host, at Unknown and without an exploit; not "some host at
            # Unknown, and no host anywhere with an exploit", which an analyst's one-host view can never tell)
            denied = negated_atom(Atom, negated, host_class=cls)
            parts.append(AnyOf(tuple(AllOf((atom.on(h), Not(denied.on(h)))) for h in named)))
            continue
        elif not atom.bare():
            parts.append(Not(atom) if none_of else atom)
        if negated is not None and not excludes(atom, negated):
            parts.append(Not(negated_atom(Atom, negated, host_class=cls)))
    return parts


# One host of a class, its state and a state it lacks said in one phrase: "a host at Unknown with no exploit showing",
# "any user box at root without a scan on it" (the denial is of that host: "with no", "without", "and no ... on it").
_ONE_OF_CLASS_DENIED = re.compile(r"^\s*(?:(?:if|when|whenever|for|on)\s+)?(?:a|an|any)\s+(?:[\w-]+\s+)?(?:host|box|machine|server|system)\b"
                                  r"[^,;]*?\b(?:with\s+no|without)\b", re.IGNORECASE)


# "no host shows any compromise", "no host is compromised": the compromise column said of every host
_NO_HOST_SAYS = re.compile(r"\b(?:no|not\s+a\s+single|none\s+of\s+the)\s+(?:host|hosts|machine|machines)\b|"
                           r"\bnothing" + _ON_THE_NETWORK + r"\s+(?:shows?|has|is\s+showing|reports?)\b", re.IGNORECASE)


_COMPROMISE_WORD = re.compile(r"\bcompromis\w*", re.IGNORECASE)


_OTHER_THAN_COMPROMISE = re.compile(r"\b(?:activ\w*|scan\w*|exploit\w*|alerts?|fires?|quiet|calm|clean|idle|anything|"
                                    r"going\s+on|happening)\b", re.IGNORECASE)


def excludes(atom, negated) -> bool:
    """Whether the state an atom states already rules out what its clause negates ("a user host with Activity None,
    without any exploit": Activity None is no Exploit), so the negation says nothing more of that host. (Said of a
    class, the negation would claim no host of the class shows it: wider than the text.)"""
    field, value = negated
    stated = getattr(atom, field)
    return stated not in (None, "any") and value not in (None, SOME) and stated != value


# One host of a class, said in the singular: "a user host", "any enterprise server", "one op host".
_ONE_OF_CLASS = re.compile(r"\b(?:a|an|any|one|some)\s+(?:\w+\s+)?(?:user|enterprise|op|operational)[\s-]+(?:host|box|machine|server|"
                           r"workstation|node|system)\b(?!s)", re.IGNORECASE)


# A clause about the hosts other than the one named before it: "another host", "any other user host", "other hosts",
# "something else", "a second enterprise host", "the rest of the network".
OTHER = re.compile(r"\b(?:an\s*other|others?(?!\s+than)|(?:some|any|no)thing\s+else|(?:a\s+)?second|the\s+rest(?:\s+of)?|"
                    r"(?<![\w-]\s)(?<!\w)rest\s+of)\b", re.IGNORECASE)  # (r46m: a note's "rest of usr subnet", no article)


def _besides(part, host: str, AllOf, AnyOf, Not, Atom):
    """A claim about a class of hosts, said of the others than `host`: a class atom becomes some other host of the
    class in that state; every or none of the class, every or none of the others."""
    if isinstance(part, Atom) and part.host_class is not None:
        others = [part.on(h) for h in part.hosts() if h != host and (part.host_class == "any" or
                                                                     h.lower().startswith(part.host_class.lower()[:2]))]
        return others[0] if len(others) == 1 else AnyOf(tuple(others))
    if isinstance(part, Not):
        return Not(_besides(part.part, host, AllOf, AnyOf, Not, Atom))
    if isinstance(part, (AllOf, AnyOf)):
        kept = [p for p in part.parts if not (isinstance(p, Atom) and p.host == host)]
        return type(part)(tuple(_besides(p, host, AllOf, AnyOf, Not, Atom) for p in kept))
    return part


# How many hosts of a class a condition counts: "two or more", "at least two", "more than one", "several", "multiple";
# "exactly one", "a single", "only one", "just one"; (r38m) a range or a bound above: "one or two", "two to three",
# "exactly two", "at most two", "no more than two", "up to two", "fewer than three"; and "all but one" (every host of
# the class save that many).
NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "1": 1, "2": 2, "3": 3, "4": 4, "5": 5}


_SMALL_NUMBER = r"(?:one|two|three|four|five|[1-5])"


# (what a count is said of: "hosts", "user boxes", "of the user hosts", "compromised enterprise servers")
_COUNTED_HOSTS = (r"(?=\s+(?:of\s+(?:the\s+)?)?(?:(?:compromised|exploited|scanned|infected|privileged|rooted|active|owned|held)\s+)?"
                  r"(?:(?:user|usr|enterprise|ent|op|operational)[\s-]+)?(?:hosts?|machines?|box(?:es)?|servers?|srvs?|"
                  r"workstations?|nodes?|systems?)\b)")


COUNT = re.compile(r"\b(?:(?:(?:only|just)\s+)?(?P<low>one|two|three|four|[1-4])\s+(?:or|to)\s+(?P<high>two|three|four|five|[2-5])"
                    rf"{_COUNTED_HOSTS}|"
                    rf"(?:exactly|only|just)\s+(?P<exact>two|three|four|[2-4]){_COUNTED_HOSTS}|"
                    rf"(?:at\s+most|up\s+to)\s+(?P<most>{_SMALL_NUMBER}){_COUNTED_HOSTS}|"
                    rf"(?:fewer|less)\s+than\s+(?P<fewer>two|three|four|five|[2-5]){_COUNTED_HOSTS}|"
                    r"all\s+(?:but|save|except(?:\s+for)?)\s+(?P<but>one|two|a\s+single|[12])|"
                    r"at\s+least\s+(?P<least>one|two|three|four|[1-4])|(?P<more>two|three|four|[2-4])\s+or\s+more|"
                    # "when two user hosts are compromised": at least that many
                    r"(?P<bare>two|three|four|[2-4])(?=\s+(?:(?:compromised|exploited|scanned|infected|privileged|rooted|active|owned|held|pwned|hacked)\s+)?"
                    r"(?:(?:user|enterprise|op|operational)[\s-]+)?(?:hosts|machines|boxes|servers|"
                    r"workstations|nodes|systems)\b)|"
                    r"more\s+than\s+(?P<than>one|two|three|[1-3])|(?P<several>several|multiple|many|a\s+few|a\s+couple\s+of)|"
                    r"(?P<exactly>exactly\s+one|a\s+single|only\s+one|just\s+one|one\s+and\s+only\s+one|one\s+single|"
                    # (r41h) the figure, in a note: "exactly 1 op box hit"
                    rf"(?:exactly|only|just)\s+1{_COUNTED_HOSTS})|"
                    # (r38h) "all but two of the op hosts", "every enterprise server except one": all of the class less that many
                    r"(?:all|every\s+(?:[\w-]+\s+){0,2}?(?:hosts?|box(?:es)?|machines?|servers?)|all\s+(?:the\s+)?(?:[\w-]+\s+){0,2}?"
                    r"(?:hosts|boxes|machines|servers))\s+(?:but|except(?:\s+for)?|save)\s+(?P<spared>one|two|[12])|"
                    # (r45m) a share of the class: "over half of the op boxes", "most of the user boxes", "at least
                    # half", "half or more", "the majority of"
                    r"(?P<over_half>more\s+than\s+half|over\s+half|most|the\s+majority|a\s+majority)(?=\s+of\b)|"
                    r"(?P<half>at\s+least\s+half|half\s+or\s+more)(?=\s+of\b)|(?P<half_after>half)(?=\s+(?:of\s+(?:the\s+)?\w+\s+)?\w+\s+or\s+more\b))\b",
                    re.IGNORECASE)


@dataclass(frozen=True)
class Count:
    """How many hosts of a group a condition counts: at least `least`, at most `most` (None: no bound), or every host
    of the group but `short` of them (`short` None: a number said outright)."""

    least: int
    most: Optional[int] = None
    short: Optional[int] = None
    half: Optional[str] = None  # (r45m) "over": more than half of the group; "at_least": half of it or more

    def bounds(self, total: int) -> tuple[int, Optional[int]]:
        """(least, most) among a group of `total` hosts."""
        if self.short is not None:
            return total - self.short, total - self.short
        if self.half == "over":
            return total // 2 + 1, None
        if self.half == "at_least":
            return (total + 1) // 2, None
        return self.least, self.most


def _number(word: str) -> int:
    return 1 if word.lower().startswith("a") else NUMBER_WORDS[word.lower()]


def _counted(clause: str) -> Optional[Count]:
    """The count a condition states of hosts ("at least two user hosts", "exactly one", "one or two"), else None. A
    bound above ("at most two", "fewer than three") counts hosts of which it speaks: one at least (a rule about "at most
    two compromised hosts" speaks of the compromised ones; none is not the case it is about)."""
    found = COUNT.search(clause)
    if found is None:
        return None
    if found["low"]:
        return Count(_number(found["low"]), max(_number(found["low"]), _number(found["high"])))
    if found["exact"]:
        return Count(_number(found["exact"]), _number(found["exact"]))
    if found["most"] or found["fewer"]:
        return Count(1, _number(found["most"]) if found["most"] else _number(found["fewer"]) - 1)
    if found["but"] or found["spared"]:  # "all but one of the X", "every enterprise server except one": all less that many
        return Count(0, short=_number(found["but"] or found["spared"]))
    if found["exactly"]:
        return Count(1, 1)
    if found["over_half"]:
        return Count(1, half="over")
    if found["half"] or found["half_after"]:
        return Count(1, half="at_least")
    if found["several"]:
        return Count(2)
    if found["than"]:
        return Count(_number(found["than"]) + 1)
    return Count(_number(found["least"] or found["more"] or found["bare"]))


def of_count(atom, hosts: list[str], count: Count, on=None):
    """Some of `hosts` in the atom's state, as many as `count` allows; where it bounds them above, the others not.
    `on`: what is said of one host, where it is no single atom (`_listed`)."""
    from itertools import combinations

    from forge.rulebook.language.predicate import AllOf, Always, AnyOf, Not  # lazy: as in `claims`

    on = on or atom.on
    least, most = count.bounds(len(hosts))
    groups = []
    for size in range(max(least, 1), (len(hosts) if most is None else min(most, len(hosts))) + 1):
        if most is None and size > least:
            break  # (at least that many: the groups of that size say it, a larger group holds one of them)
        for chosen in combinations(hosts, size):
            held = [on(h) for h in chosen] + ([Not(on(h)) for h in hosts if h not in chosen] if most is not None else [])
            groups.append(held[0] if len(held) == 1 else AllOf(tuple(held)))
    return Not(Always()) if not groups else groups[0] if len(groups) == 1 else AnyOf(tuple(groups))


# (r43m) The hosts the alerts list, counted: "once the alerts name 2+ boxes", "four or more hosts in the alerts". The alerts list each host whose row shows anything, some activity or some compromise (Unknown
# too); read as the word "alert" alone is (some activity), a row at Activity None, Compromised User went uncounted.
ALERTS_LISTING = re.compile(r"\balerts?\s+(?:lists?|listing|names?|naming|covers?|covering|mentions?|mentioning)\b|"
                             r"\b(?:in|on)\s+the\s+alerts?(?:\s+list)?\b|\b(?:listed|named)\s+(?:in|by)\s+the\s+alerts?\b",
                             re.IGNORECASE)


def _listed(host: str):
    """A host the alerts list: its row is not the quiet one (Activity None, Compromised No). (Said as a denial, no
    reading of "compromised" for sure, `confirmed`, takes a row at Unknown out of the count: it is listed.)"""
    from forge.rulebook.language.predicate import Atom, Not  # lazy: as in `claims`

    return Not(Atom(host=host, activity=QUIET_ACTIVITY, compromise=QUIET_COMPROMISE))


# Where a condition's clauses part (r40h: not at the dot of a file name the evidence lists, "escalate.exe": cut there, its
# first half read as the row's level, "escalate" as a host at root)
CLAUSE_BREAK = re.compile(r";|\.(?!(?:sh|exe|py|bat|ps1)\b)|\b(?:but|while|whereas)\b")


_RUN_OF_LEVEL = re.compile(r"^\s*of\s+(?=(?:user|privileged|root|admin|unknown)\b(?![\s-]*(?:hosts?|box(?:es)?|machines?|level\s+hosts?)\b))",
                           re.IGNORECASE)


_NEWLY_ROOTED = re.compile(r"\b(?:newly|just|freshly)\s+(?:been\s+|got\s+|gotten\s+|become\s+|turned\s+)?rooted\b", re.IGNORECASE)


def history_claim(clause: str, last: Optional[str], group: tuple[str, ...] = ()):
    """The history atom one clause states (history_words), on the host it names, else its class or "a host", else the
    host before it (None: history this reading cannot place, or no host to place it on)."""
    from forge.rulebook.language.predicate import PredicateError, parse_predicate  # lazy: as in `claims`

    history = history_conditions(clause)
    # (r39h) the level a run of steps is "of", "4+ turns running of Privileged on a usr box": the host's level in those steps
    rest = _RUN_OF_LEVEL.sub("at ", without_history(clause))
    if not history or "history" in facts_needed(rest) or negations_in(rest):
        return None
    statements = host_statements(rest)
    state, _ = _state_of(rest)
    if len({h for h, _, _ in statements}) == 1:
        where: dict = {"host": statements[0][0]}
        state = statements[0][1] if statements[0][1] != (None, None) else state
    elif statements:
        return None
    elif classes_in(rest):
        if len(classes_in(rest)) > 1:
            return None
        where = {"class": classes_in(rest)[0]}
    elif SOME_HOST.search(rest) or re.search(r"\b(?:a|any)\s+(?:\w+\s+)?(?:host|machine|box|server)\b", rest, re.I):
        where = {"class": "any"}
    elif last is not None:
        where = {"host": last}
    else:
        return None
    activity, compromise = state
    values = {"activity": None if activity is None else "any" if activity == SOME else activity,
              "compromise": None if compromise is None else "any" if compromise == SOME else compromise}
    # ("still compromised after we removed it": the state the history words hold is the host's own, now)
    if history.get("newly_compromised") is not None or history.get("unchanged_for") is not None \
            or history.get("changed") is False:
        values["compromise"] = values["compromise"] or ("any" if history.get("newly_compromised") is not False
                                                        or re.search(r"compromis|exploit|breach|infect|root|owned|\bheld\b", clause, re.I)
                                                        else None)
    # (r55d) "newly rooted", "just been rooted": the fresh state said is root, which `history_conditions` took with the
    # "newly"; read as any compromise, the rule held on a host newly at user level, wider than its words
    if history.get("newly_compromised") and values["compromise"] in (None, "any") and _NEWLY_ROOTED.search(clause):
        values["compromise"] = "Privileged"
    try:
        return parse_predicate({**where, **{k: v for k, v in values.items() if v is not None}, **history})
    except PredicateError:
        return None


def history_unread(condition: str) -> bool:
    """Whether a clause of the condition speaks of history `history_claim` cannot read (the host aside)."""
    for clause in CLAUSE_BREAK.split(condition or ""):
        clause = NOT_YET.sub("", without_denied_moves(clause))  # (r39m: `_denied_move_parts`, `_history_parts` read those)
        if "history" in facts_needed(clause):
            history = history_conditions(clause)
            rest = without_history(clause)
            if not history or "history" in facts_needed(rest) or negations_in(rest):
                return True
    return False


def AnyOfQuiet():
    """Some host shows activity or a compromise."""
    from forge.rulebook.language.predicate import AnyOf, Atom  # lazy: as in `claims`

    return AnyOf((Atom(host_class="any", activity="any"), Atom(host_class="any", compromise="any")))


def negated_atom(atom_type, negated, **where):
    field, value = negated
    return atom_type(**where, **{field: "any" if value == SOME else value})


def state_atom(atom_type, state, **where):
    activity, compromise = state
    return atom_type(**where, activity=None if activity is None else ("any" if activity == SOME else activity),
                     compromise=None if compromise is None else ("any" if compromise == SOME else compromise))
