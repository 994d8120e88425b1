"""The hosts, host classes, moves and states a text names, in any of the spellings notes use (`hosts_in`, `classes_in`, `verbs_in`). Pure.

The vocabulary every reader of a rule's words shares, in the product's own terms (the surrogate keeps its own: a
stand-in must not share the product's reader): the hosts and host classes a text names, a range of hosts written
as the list it stands for, the catalog verbs it names and the words of a host's state.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Optional

from forge.env.catalog import DECOY_SERVICES, HOST_CLASSES


# -- vocabulary ---------------------------------------------------------------------------------------

_NUMBER_WORDS = ("zero", "one", "two", "three", "four")


HOST_FORMS: tuple[tuple[re.Pattern, str], ...] = tuple(
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
       # (r61m) the shorthand of a class spelled out, then its number apart, in a digit or a word: "ent 2", "ent two",
       # "usr three" (a lone letter, "e 2", is no name: only the class's short word)
       *[(re.compile(rf"(?<!\ba\s)(?<!\bany\s)(?<!\beach\s)(?<!\bevery\s)(?<!\bthe\s)\b{short}\.?\s+(?:{n}|{_NUMBER_WORDS[n]})\b",
                     re.IGNORECASE), f"{host}{n}")
         for short, host, count in (("ent", "Enterprise", 3), ("usr", "User", 5)) for n in range(count)],
       *[(re.compile(rf"\bop[_-]?h(?:st)?[_-]?{n}\b", re.IGNORECASE), f"Op_Host{n}") for n in range(3)],
       (re.compile(r"\bop[_-]?s(?:rv|vr)?[_-]?0\b", re.IGNORECASE), "Op_Server0"),
       # (r51m) not the defender who acts, named by its role as a contract or an order names a party: "the Defender shall
       # Remove ...", "the Defender must not Restore it", "the Defender will perform an Analyse" (a host does no move;
       # "the Defender shall be restored", "Defender will show a scan" are the host's; the party's modal ends a subject
       # cut before its "not": "the Defender shall")
       (re.compile(r"\bDefender\b(?!'s)(?!(?i:\s+(?:shall|must|should|will|is\s+to|has\s+to|needs?\s+to|ought\s+to)"
                   r"(?:\s+(?:not|never|always|also|then|first|only|immediately|promptly))*(?:\s*$|\s+(?:perform|carry\s+out|execute|take|run|"
                   r"deploy|place|settle|apply|schedule|plan|choose|pick|remov|restor|re-?imag|analy[sz]|inspect|investigat|examin|"
                   r"check|decoy|monitor|watch|sleep|wait))))"), "Defender"),
       (re.compile(r"\bdefender[\s-]+(?:host|machine|box|server)\b", re.IGNORECASE), "Defender")])


CLASS_FORMS: tuple[tuple[re.Pattern, str], ...] = (
    (re.compile(r"\buser[\s-]*(?:hosts?|box(?:es)?|machines?|workstations?|desktops?|laptops?|computers?|nodes?|"
                r"endpoints?|systems?|subnet|network|zone|segment|side|tier)\b|\b(?:workstations?|desktops?|laptops?)\b",
                re.IGNORECASE), "User"),
    (re.compile(r"\benterprise[\s-]*(?:hosts?|servers?|box(?:es)?|machines?|nodes?|systems?|subnet|network|zone|"
                r"segment|side|tier)\b", re.IGNORECASE), "Enterprise"),
    (re.compile(r"\b(?:op|operational|ot|operations)[\s-]*(?:hosts?|servers|box(?:es)?|machines?|nodes?|systems?|"
                r"subnet|network|zone|segment|side|tier)\b", re.IGNORECASE), "Operational"),
    # the shorthand of operators' notes for a class: "ent server", "entp boxes", "usr hosts", "ops machines" (a single
    # "op server" is Op_Server0, a host: HOST_FORMS are blanked first)
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
    # (r51m) the classes in a clause in French, German or Spanish: "un poste utilisateur", "die Server im Enterprise-Netz",
    # "los equipos de usuario", "le réseau opérationnel"
    (re.compile(r"\bpostes?\s+(?:de\s+travail|utilisateurs?)\b|\bbenutzer[\s-]*(?:rechner|hosts?|netz(?:werk)?)\b|\barbeitsplatzrechner\b|"
                r"\b(?:equipos?|estaci[oó]n(?:es)?|hosts?)\s+de\s+(?:usuarios?|trabajo)\b|\buser[\s-]*(?:netz(?:werk)?|r[ée]seau)\b",
                re.IGNORECASE), "User"),
    (re.compile(r"\benterprise[\s-]*(?:netz(?:werk)?|r[ée]seau|red)\b|\bserv(?:eurs?|idor(?:es)?)\s+(?:d[e']\s*l?['\s]?)?(?:la\s+)?entreprise\b|"
                r"\bserv(?:eurs?|idor(?:es)?)\s+de\s+(?:la\s+)?empresa\b", re.IGNORECASE), "Enterprise"),
    (re.compile(r"\b(?:op|ops|operational)[\s-]*(?:netz(?:werk)?|r[ée]seau)\b|\br[ée]seau\s+op[ée]rationnel\b|\bred\s+operacional\b",
                re.IGNORECASE), "Operational"),
)


# Catalog verbs by the words people use for them (the product's own list; the surrogate keeps another).
VERB_FORMS: tuple[tuple[str, str], ...] = (
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


VERB = re.compile("|".join(f"(?P<{name}>\\b(?:{pattern}))" for name, pattern in VERB_FORMS), re.IGNORECASE)


_SERVICE = re.compile(r"(apache|femitter|haraka\w*|smss|ssh\w*|svchost|tomcat|vsftpd)", re.IGNORECASE)


# A host by its full name, in any spacing ("User3", "op host 1", "Op_Server0"): the readers below and claims.py's
HOST_NAME = r"(?:(?:user|enterprise)[\s_-]?\d|op[\s_-]?(?:host|server)[\s_-]?\d|defender)"

# (r53) The host at hand said to be one named host, "if that host is Enterprise2", "when the box happens to be U3":
# the lead before the name (rule_claims reads it as a narrower case, forms as the host a note withholds its move from).
HOST_IDENTIFIED = (r"(?:(?:that|the|this)\s+(?:same\s+)?(?:host|box|machine|server|workstation|one)(?:\s+in\s+question)?|it)"
                   r"\s*(?:is|'s|happens\s+to\s+be)\s+")


# A host in a note's shorthand ("E2", "usr3", "OpS0"): these readers and judged.py's
HOST_SHORT = r"(?:(?:e|ent|u|usr)[_-]?\d|op[_-]?(?:s(?:rv|vr)?|h(?:st)?)[_-]?\d)\b"


def canonical_verb(match: re.Match, text_after: str = "") -> str:
    name = next(k for k, v in match.groupdict().items() if v is not None)
    if name == "Decoy":
        service = _SERVICE.search(match.group(0) + " " + text_after[:30])
        if service:
            word = service.group(1).lower()
            return next((f"Decoy{s}" for s in DECOY_SERVICES if s.lower().startswith(word[:4])), "Decoy")
    return name


# A range of hosts of one kind: "User1-User4", "User1 through User4", "User1 to 4", "Op_Host0-2".
# (in shorthand too, "U1-U3", "ent0-2", "usr1 to usr4")
# (r52m: and the kind said in the plural before the numbers, "Users 1-3", "enterprises 0 to 2", "op hosts 1-2")
_RANGE = re.compile(r"\b(?P<kind>user|usr|u|enterprise|ent|e|op[\s_-]?host|op[\s_-]?h(?:st)?)(?:(?<=ser|ise|ost)s\s+|[\s_-])?(?P<first>\d)\s*"
                    r"(?:-|\u2013|\.\.|to|through|thru|till|until)\s*"
                    r"(?:(?P=kind)[\s_-]?)?(?P<last>\d)\b", re.IGNORECASE)


_ONE_OF = re.compile(r"\b(?:one|any|either|each|whichever|some|none)\s+of\s+(?:the\s+(?:hosts\s+)?)?$", re.IGNORECASE)


# What a text goes on to say of one host of the range, whichever it is ("User2-User4 exploited -> Remove that host"): the
# range's state is each host's by itself, not all of theirs at once.
_ONE_AT_A_TIME = re.compile(r"\b(?:that|this|the\s+same|the\s+affected)\s+(?:host|box|machine|one|server|workstation)\b(?!s)|"
                            r"\bwhichever\b", re.IGNORECASE)


# (r61m) A range whose numbers are words, after the kind in the plural: "users two through four", "enterprises zero to two"
_WORD_RANGE = re.compile(rf"\b(?P<kind>users|enterprises|op[\s_-]?hosts)\s+(?P<first>{'|'.join(_NUMBER_WORDS)})\s+"
                         rf"(?P<sep>-|\u2013|to|through|thru|till|until)\s+(?P<last>{'|'.join(_NUMBER_WORDS)})\b", re.IGNORECASE)


# (r61m) Hosts of one kind listed by their numbers with slashes: "op host 0/1/2", "U1/U3", "ent0/2", "user 1/2".
_SLASHED = re.compile(r"\b(?P<kind>user|usr|u|enterprise|ent|e|op[\s_-]?host|op[\s_-]?h(?:st)?)[\s_-]?(?P<first>\d)"
                      r"(?P<rest>(?:\s*/\s*(?:(?P=kind)[\s_-]?)?\d)+)\b(?!\s*/)", re.IGNORECASE)


def _kind_name(kind: str) -> str:
    return {"user": "User", "usr": "User", "u": "User", "enterprise": "Enterprise", "ent": "Enterprise",
            "e": "Enterprise"}.get(kind.lower(), "Op_Host")


def _slashed_listed(match: re.Match) -> str:
    """ "op host 0/1/2" -> "Op_Host0, Op_Host1 or Op_Host2": a slash offers each host as one case of the note (any of
    them), as "rooted/owned" offers each state; numbers with no such host leave the text as written."""
    kind = _kind_name(match["kind"])
    numbers = [int(match["first"]), *(int(d) for d in re.findall(r"\d", match["rest"]))]
    if len(set(numbers)) != len(numbers) or any((kind, n) not in _HOST_LIMITS for n in numbers):
        return match.group(0)
    names = [f"{kind}{n}" for n in numbers]
    return ", ".join(names[:-1]) + " or " + names[-1]


def expand_ranges(text: str) -> str:
    """A text with each range of hosts written as the list it stands for ("one of User1-User3" -> "one of User1, User2
    or User3"; "User1 to User3 are compromised" -> "User1, User2 and User3 are compromised")."""
    def listed(match: re.Match) -> str:
        kind = _kind_name(match["kind"])
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
    text = _WORD_RANGE.sub(lambda m: f"{m['kind']} {_NUMBER_WORDS.index(m['first'].lower())} {m['sep']} "
                                     f"{_NUMBER_WORDS.index(m['last'].lower())}", text or "")
    return _SLASHED.sub(_slashed_listed, _RANGE.sub(listed, text))


# A note's order after its arrow: "U2-U4 owned => Remove" (its verb, and what it names). (r60m: or after a dash set
# apart by spaces, the arrow of a hurried note, "U1-U3 @ User - Remove")
_NOTE_ORDER = re.compile(r"(?:->|=>|\u2192|\s[-\u2013\u2014]{1,2}\s)\s*(?P<order>[^;.\n]*)")


def _order_on_each(after: str) -> bool:
    """Whether a range's note orders a move that names no host, no class and no plural ("U2-U4 owned => Remove"): the
    move is on each host of the range that is in that state, so the state is each host's by itself, not all of theirs."""
    found = _NOTE_ORDER.search(after)
    order = found["order"] if found else ""
    # (r60b) not a state the range's hosts are said to share, "U1-U3 rooted together - Restore", "... at the same time ->":
    # all of them at once, no state of each by itself (read as each, a Restore of one rooted host passed)
    return bool(verbs_in(order)) and not hosts_in(order) and not classes_in(order) \
        and not re.search(r"\b(?:them|all|both|each|every|together)\b", order, re.IGNORECASE) \
        and not _SHARED_STATE.search(after[:found.end()] if found else "")


_SHARED_STATE = re.compile(r"\b(?:together|simultaneous(?:ly)?|at\s+(?:the\s+same\s+time|once)|all(?:\s+(?:three|of\s+them))?|both|"
                           r"every\s+one)\b", re.IGNORECASE)


_HOST_LIMITS = frozenset((name, n) for name, count in (("User", 5), ("Enterprise", 3), ("Op_Host", 3)) for n in range(count))


# Cached (pure, on immutable text): compiling and gating read the same rule and context texts thousands of times. On
# dc_bench's blind-27 split these three caches took the bench's CPU time to 0.57 of what it was (farm-bench, 3 runs
# side by side, identical results).
@lru_cache(maxsize=1 << 14)
def hosts_in(text: str) -> tuple[str, ...]:
    """The CAGE-2 hosts a text names, in order of first mention (a range names each host in it)."""
    found: list[tuple[int, str]] = []
    text = expand_ranges(text)
    for pattern, host in HOST_FORMS:
        found += [(m.start(), host) for m in pattern.finditer(text or "")]
    return tuple(dict.fromkeys(host for _, host in sorted(found)))


# Words that single out one host without a name the product reads: an ordinal ("the second enterprise server"), a number
# after a host word ("server number 2", "box #3"), a superlative ("the host with the most alerts"), a name with a
# number that is no CAGE-2 host ("srv3", "WS2"), or a reference to the host or case the story told of ("a box like that").
_SINGLES_OUT = re.compile(
    r"\b(?:first|second|third|fourth|fifth|1st|2nd|3rd|4th|5th)\s+(?:(?:user|enterprise|op|operational)[\s-]+)?"
    r"(?:host|box|machine|server|workstation|desktop|node)\b|"
    r"\b(?:host|box|machine|server|workstation|desktop|node)\s+(?:number\s+|no\.\s*|#\s*)\d+\b|"
    # (r58h) a host of a class left out by its place in it, with no host word after the ordinal: "every op box save the
    # first", "the user hosts except the last one" (which host the place is, the product does not read: a trigger on the
    # whole class keeps the host the text leaves out)
    r"\b(?:but|except(?:\s+for)?|other\s+than|save(?:\s+for)?|apart\s+from|bar)\s+(?:the|its)\s+"
    r"(?:first|second|third|fourth|fifth|last|1st|2nd|3rd|4th|5th)\b(?:\s+(?:one|of\s+them))?(?!\s*[\w-]*\s*(?:step|turn|time|move|action)s?\b)|"
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
    for pattern, _ in HOST_FORMS:
        text = pattern.sub(" ", text or "")
    return text


def named_in_full(text: str, prose: bool = False) -> str:
    """`text` with every name of a host `hosts_in` reads that carries its number written as the table writes it ("E0" ->
    "Enterprise0", "OpS0" -> "Op_Server0", "user box 3" -> "User3"): the situation reader knows only those. (A host
    named by prose, "the operational server", is left as written, unless `prose`.)"""
    for pattern, host in HOST_FORMS:
        text = pattern.sub(lambda m: host if prose or re.search(r"\d", m.group(0)) else m.group(0), text or "")
    return text


def without_class_names(text: str) -> str:
    """`text` with every word for a class `classes_in` reads blanked out ("usr box", "ent srv")."""
    for pattern, _ in CLASS_FORMS:
        text = pattern.sub(" ", text or "")
    return text


def state_words_in(text: str) -> tuple[str, ...]:
    """The words of a host's state a text says ("exploited", "compromised", "scanned", "clean", ...)."""
    return tuple(m.group(0) for m in STATE_WORDS.finditer(text or ""))


def unnamed_hosts(text: str) -> tuple[str, ...]:
    """The words of a text that single out one host by no name `hosts_in` reads ("the second enterprise server", "srv3"),
    or (r53l) keep the order to fewer hosts of a class than it has, hosts the text does not name (`_FEW_OF_CLASS`): a
    reading that leaves them out is wider than the text."""
    return tuple(m.group(0) for m in _SINGLES_OUT.finditer(text or "") if not hosts_in(m.group(0))) + _few_of_class(text or "")


# (r53l) An order kept to a count of a class's hosts: "the three listed op boxes only", "only the two named user boxes".
_FEW_OF_CLASS = re.compile(r"\bonly\s+the\s+(?P<count>two|three|four|[2-4])\s+(?:named\s+|listed\s+|above\s+)?(?P<cls>[\w-]+(?:\s+[\w-]+)?)\b|"
                           r"\bthe\s+(?P<count2>two|three|four|[2-4])\s+(?:named\s+|listed\s+|above\s+)?(?P<cls2>[\w-]+(?:\s+[\w-]+)?)\s+only\b",
                           re.IGNORECASE)
_FEW = {"two": 2, "three": 3, "four": 4}


def _few_of_class(text: str) -> tuple[str, ...]:
    """(r53l) The words that keep the order to fewer hosts of one class than it has (`_FEW_OF_CLASS`), where the text names
    fewer hosts of that class than it counts: which ones it means the product cannot tell ("the three listed op boxes
    only" beside no op host named is not the op subnet, its server too)."""
    found = []
    for m in _FEW_OF_CLASS.finditer(text):
        count, said = (m["count"], m["cls"]) if m["count"] else (m["count2"], m["cls2"])
        classes = classes_in(said)
        if len(classes) != 1:
            continue
        number = _FEW.get(count.lower()) or int(count)
        members = HOST_CLASSES[classes[0]]
        if number < len(members) and len(set(hosts_in(text)) & set(members)) < number:
            found.append(m.group(0))
    return tuple(found)


@lru_cache(maxsize=1 << 14)
def classes_in(text: str) -> tuple[str, ...]:
    """The host classes (User, Enterprise, Operational) a text names by a class word ("user boxes")."""
    spared = without_host_names(text)  # "the op server" is a host, not the Operational class
    return tuple(dict.fromkeys(cls for pattern, cls in CLASS_FORMS if pattern.search(spared)))


def verbs_in(text: str) -> tuple[str, ...]:
    """The catalog verbs a text names (`Decoy` for a decoy of no named service); not the verb of a relative clause that
    names the host the agent is working on ("the host you analyse", "the box we're inspecting"): no move of it."""
    text = _SUBJECT_AT_HAND.sub(lambda m: m["noun"] + " " * (len(m.group(0)) - len(m["noun"])), text or "")
    # (and "the analysed host", "the host being analysed", "the host under analysis": the analyst's host, no move)
    text = _ANALYSED_HOST.sub(lambda m: " " * len(m.group(0)), text)
    # (r42h: nor the step's analyses, "the host this step's analyses rate high", "a shell in the analyses for the step": what
    # they report, no Analyse; counted, a rule that orders one move named two, and its order was read in no dispute)
    text = ANALYSES_NOUN.sub(lambda m: " " * len(m.group(0)), text)
    return tuple(dict.fromkeys(canonical_verb(m, text[m.end():]) for m in VERB.finditer(text)))


# (r42h) The step's analyses by their noun: "this step's analyses", "the analyses of this step", "analyses ... rate X".
ANALYSES_NOUN = re.compile(r"(?<=\bstep's\s)analys[ie]s\b|(?<=\bstep\u2019s\s)analys[ie]s\b|"
                            r"\banalys[ie]s\b(?=\s+(?:this|of\s+(?:the|this)|for\s+(?:the|this))\s+step\b)|"
                            r"\banalys[ie]s\b(?=\s+(?:rate[sd]?|report(?:s|ed)?|show(?:s|ed)?|flag(?:s|ged)?|gave|give[sn]?|list(?:s|ed)?|"
                            r"count(?:s|ed)?|mention(?:s|ed)?|finds?|found|says?|said)\b)",
                            re.IGNORECASE)


# (in the words of HOST_AT_HAND: "the inspected box", "the machine under examination" are no Analyse either)
AT_HAND_PARTICIPLE = r"(?:being\s+(?:analy[sz]ed|inspected|examined)|under\s+(?:analysis|inspection|examination))\b"


_ANALYSED_HOST = re.compile(r"\b(?:analy[sz]ed|inspected|examined)(?=\s+(?:host|box|machine|server|node)\b)|"
                            r"(?<=host\s)" + AT_HAND_PARTICIPLE + r"|(?<=box\s)" + AT_HAND_PARTICIPLE + r"|"
                            r"(?<=machine\s)" + AT_HAND_PARTICIPLE + r"|(?<=server\s)" + AT_HAND_PARTICIPLE, re.IGNORECASE)


_SUBJECT_AT_HAND = re.compile(r"\b(?P<noun>host|box|machine|server|system|node)\s+(?:that\s+)?(?:you|we|i)(?:\s+are|'re|\s+am|'m)?\s+(?:"
                              + "|".join(pattern for _, pattern in VERB_FORMS) + r")", re.IGNORECASE)


def same_verb(named: str, verb: str) -> bool:
    """Whether a verb the text names (`Decoy`: any decoy) is this catalog verb (`any`: every verb)."""
    return verb == "any" or named == verb or (named == "Decoy" and verb.startswith("Decoy"))


# (r46m: and a probe, a scan in other words: "probe seen, nothing more -> ..." after a heading is the state its order is for)
# (r59m: and slang for one, "poked at": situation._PROSE_ACTIVITY reads it as a scan)
STATE_WORDS = re.compile(r"\b(?:compromis\w*|exploit\w*|scan\w*|prob(?:e|es|ed|ing)\b|pok(?:e|es|ed|ing)\b(?!\s+(?:fun|holes?)\b)|breach\w*|infect\w*|root\w*|privileged|"
                          r"reconnaissance|recon|escalat\w*|lateral\w*|impact|quiet|clean|active|activity|alerts?|"
                          r"happening|going\s+on)\b",
                          re.IGNORECASE)


def class_of(host: str) -> Optional[str]:
    return next((c for c, hosts in HOST_CLASSES.items() if host in hosts), None)


# (r57l) "the server" (or "that server", "this server", "the same server") is a server: an enterprise host or the op
# server. It points back to a host the text names only where that host is itself a server ("Enterprise1 ... the
# server"), or to a class of servers said before it ("an enterprise server ... the server"); a user host or an op host
# named beside it is never "the server" (User2 is no server). SERVER_HOSTS: the hosts it may stand for.
SERVER_HOSTS = frozenset((*HOST_CLASSES["Enterprise"], "Op_Server0"))
THE_SERVER = re.compile(r"\b(?:the|that|this)\s+(?:same\s+)?server\b(?![-\u2010\u2011]|['\u2019]s\b|s\b)", re.IGNORECASE)
_SERVER_WORD = re.compile(r"\b(?:servers?|srvs?|svrs?)\b", re.IGNORECASE)


def server_unnamed(text: str, lesson: str) -> bool:
    """Whether the lesson of a text says "the server" (`THE_SERVER`) where the text names no server at all: no server
    host by name (nor "the op server"), no class of servers, no other word for servers ("the servers", "an enterprise
    server"). That server is then a host the text does not name, never one of the hosts it names, none a server."""
    if not THE_SERVER.search(lesson or ""):
        return False
    rest = THE_SERVER.sub(" ", text or "")
    return not (set(hosts_in(text or "")) & SERVER_HOSTS) and not _SERVER_WORD.search(rest) \
        and not {"Enterprise", "Operational"} & set(classes_in(text or ""))



# (r54l) The arrows a note may draw between a situation and its order, beyond "->", "=>" and "\u2192" that the readers know:
# "\u2794", "\u279c", "\u27a1", "\u21d2", "\u27f6" and their like. Written as "->" where a teacher's text enters the book
# (teaching.taught_words), so every reader takes them as arrows (left as they were, a note drawn with one had no situation
# and no order any reader placed, and its rule was silent).
_ARROW_GLYPHS = re.compile("\\s*[\u2794\u2799\u279b\u279c\u279d\u279e\u279f\u27a0\u27a1\u27a4\u27f6\u27f9\u21d2\u21e8\u21a6\u2b95\u2907\u21fe\u27bc\u27be]\ufe0f?\\s*")


def arrows_written_plain(text: str) -> str:
    """(r54l) `text` with the arrow glyphs of `_ARROW_GLYPHS` written "->"."""
    return _ARROW_GLYPHS.sub(" -> ", text or "")
