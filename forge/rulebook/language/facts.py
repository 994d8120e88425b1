"""The kinds of fact a rule's free-text condition speaks of (`FACTS`), which a decision context must state before it can be judged. Pure.

A semantic rule (no predicate) and a guarded rule's unexpressed rest are judged by cosine to the
context, and on CAGE-2 every context looks alike to a sentence encoder: a rule about "alerts that
persist across repeated Analyse actions" scores as well on a single step's alerts as anywhere. The gate
is three-valued (predicate.py): a condition about something the context does not state is *unknown*,
and a rule fires only on *true*. For free text this module supplies the unknown side: the kinds of fact
a condition speaks of (`FACTS`), and whether a context states each kind at all. A condition that needs
a kind the context does not state is unknown there, whatever its cosine.

A comparison of two named hosts' levels ("E0 worse off than U1") is read here too (`hosts_compared`): it
is a claim on the table, no fact the context may lack.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from forge.rulebook.language.forbidding import sequenced_away
from forge.rulebook.language.history_words import history_conditions
from forge.rulebook.language.judged import RISK_LINE, RISK_RATED, judged_facts
from forge.rulebook.language.markers import PLANNED
from forge.rulebook.language.names import hosts_in
from forge.rulebook.language.situation import Situation


_NUMBER = r"(?:\d+|two|three|four|five|six|several|many|a few|consecutive)"


MOVE_NAMES = r"remov\w*|restor\w*|analy[sz]\w*|decoy\w*|monitor\w*"  # the defender's moves, as a note names them


_VERBS = rf"(?:{MOVE_NAMES}|deploy\w*|block\w*|action|it was \w+)"


# A state compared with a named host's: "in a worse state than X", "worse off than X", "doing worse than X", "deeper in
# than X", "more compromised than X" (X a host's name or shorthand; "more than one host" and "rather than X" are no such
# comparison).
_COMPARED_STATE = (r"\b(?:(?:in\s+)?(?:a\s+)?(?:worse|better|deeper|more\s+(?:advanced|serious|severe)|less\s+(?:advanced|serious|severe))"
                   r"\s+(?:state|shape|condition|position|trouble)|(?:worse|better)\s+off|(?:doing|faring|fares|does)\s+worse|"
                   r"(?:is|are|gets?|got)\s+worse|deeper\s+in|(?:more|less|further|deeper|worse)\s+(?:compromised|exposed|breached|"
                   r"infected|owned|penetrated|gone|hit))\s+than\s+(?:that\s+of\s+|the\s+state\s+of\s+)?(?:the\s+)?"
                   r"(?:[A-Za-z][\w-]*\d|defender)\b")


# (r43m) Two named hosts compared by how deep the attacker is in ("E0 worse off than U1", "Op_Host2 is in a worse state
# than Op_Host1", "User3 less compromised than User0"): the first host's level above (or, said "better" / "less",
# below) the second's, as the table states them, No < User < Privileged. A row at Unknown states no level, so no pair
# holds on it. A comparison with anything but a named host on each side stays unread (the FACT below).
_WORSE = (r"(?:(?:in\s+)?(?:a\s+)?(?:worse|deeper|more\s+(?:advanced|serious|severe))\s+(?:state|shape|condition|position|trouble)|"
          r"worse\s+off|(?:doing|faring|fares|does)\s+worse|deeper\s+in|(?:more|further|deeper|worse)\s+(?:compromised|breached|"
          r"infected|owned|penetrated|hit))")


_BETTER = (r"(?:(?:in\s+)?(?:a\s+)?(?:better|less\s+(?:advanced|serious|severe))\s+(?:state|shape|condition|position)|better\s+off|"
           r"(?:doing|faring|fares|does)\s+better|less\s+(?:compromised|breached|infected|owned|penetrated|hit))")


_COMPARED_NAME = r"(?:the\s+)?(?:defender|[a-z][a-z_-]*\s?\d)\b"


_HOSTS_COMPARED = re.compile(rf"(?P<a>{_COMPARED_NAME})\s+(?:(?:is|are|looks?|seems?|gets?|got|sits?|stands?)\s+)?(?:(?P<worse>{_WORSE})|"
                             rf"(?P<better>{_BETTER}))\s+than\s+(?:that\s+of\s+|the\s+state\s+of\s+)?(?P<b>{_COMPARED_NAME})",
                             re.IGNORECASE)


_RANKED_LEVELS = ("No", "User", "Privileged")


def _compared_levels(found: re.Match):
    """The predicate of one comparison `_HOSTS_COMPARED` found: some pair of levels, the first host's deeper (or, said
    "better", shallower) than the second's. None where either side is no one host."""
    from forge.rulebook.language.predicate import AllOf, AnyOf, Atom  # lazy: as in `claims`

    first, second = hosts_in(found["a"]), hosts_in(found["b"])
    if len(first) != 1 or len(second) != 1 or first == second:
        return None
    deeper, shallower = (first[0], second[0]) if found["worse"] else (second[0], first[0])
    return AnyOf(tuple(AllOf((Atom(host=deeper, compromise=high), Atom(host=shallower, compromise=low)))
                       for i, high in enumerate(_RANKED_LEVELS) for low in _RANKED_LEVELS[:i]))


def hosts_compared(condition: str) -> tuple[list, str]:
    """The comparisons of two named hosts' levels a condition states (`_compared_levels`), and the condition without
    them (what the rest of the reading reads)."""
    found = [m for m in _HOSTS_COMPARED.finditer(condition or "") if _compared_levels(m) is not None]
    rest = condition or ""
    for m in reversed(found):
        rest = rest[:m.start()] + " " + rest[m.end():]
    return [_compared_levels(m) for m in found], rest


@dataclass(frozen=True)
class Fact:
    """A kind of fact a condition may speak of, and how a context shows that it states it."""

    name: str
    spoken: re.Pattern  # the condition speaks of it
    stated: Callable[[str, Situation], bool]  # the context states it


def _history_stated(text: str, situation: Situation) -> bool:
    return situation.history is not None


def _words(pattern: str) -> Callable[[str, Situation], bool]:
    compiled = re.compile(pattern, re.IGNORECASE)
    return lambda text, situation: bool(compiled.search(text))


def _rewards_stated(text: str, situation: Situation) -> bool:
    history = situation.history
    return bool(history and history.actions and any(a.reward is not None for a in history.actions)) \
        or bool(re.search(r"\breward\b[^\n]*\d", text, re.IGNORECASE))


_REQUEST_WAITED = (r"\b(?:if|when|whenever|once|unless|until|after)\s+(?:(?:we|you|i|they)(?:'re|\s+are|\s+were|\s+get|\s+got|\s+have\s+been)\s+)?"
                   r"(?:(?:explicitly|specifically|formally|directly)\s+)?(?:asked|told(?:\s+to)?|requested|instructed|ordered|"
                   r"approved|authori[sz]ed|permitted|allowed|cleared|signed\s+off)(?=\s*(?:[,.;:!?)]|$|\b(?:should|must|do|does|may|"
                   r"can|will|shall|would|could)\b))|"
                   r"\b(?:on|upon|at|by)\s+(?:(?:their|his|her|someone's|the\s+\w+'s)\s+)?(?:request|demand|instruction|say-so|orders?)\b|"
                   r"\bwith(?:out)?\s+(?:(?:prior|explicit|written)\s+)?(?:approval|permission|sign-?off|the\s+go-ahead)\b|"
                   r"\b(?:someone|somebody|the\s+(?:boss|lead|manager|captain|owner|operator|commander|client|customer|team\s+lead|"
                   r"duty\s+officer|on-call)|management)\s+(?:asks?|requests?|approves?|says\s+so|tells\s+(?:us|you)|signs?\s+off|"
                   r"gives\s+the\s+(?:word|go-ahead|ok|nod))\b")


# (r58m) The episode a span of steps is counted in: "of the episode", "of a 20-step game", "of this run".
_OF_THE_EPISODE = r"\s+of\s+(?:the\s+|an?\s+|this\s+)?(?:[\w-]+[- ]steps?\s+)?(?:episode|game|run|match)\b"
_OF_THE_EPISODE_NOT = rf"(?!{_OF_THE_EPISODE})"

# (r58l) Another episode than the one under way, told as past: "last game", "the previous episode", "an earlier run",
# "the run before". (Not "the last step", "the previous turn": this episode's history; nor in a clause the writer tells of
# themselves, "In the previous episode I waited too long", "Last game we lost Op_Server0": a story, the lesson after it is now.)
_PAST_EPISODE_SAID = (r"(?:^|(?<=[.;:,!?\n]))(?![^.;:,!?\n]*\b(?:i|we|me|us|my|our)\b)[^.;:,!?\n]*?(?:"
                      r"\b(?:last|previous|prior|past|earlier|preceding|former|yesterday['\u2019]?s?)\s+(?:episode|game|match|run|seed)s?\b"
                      r"(?!\s+(?:of\s+)?(?:steps?|turns?))|"
                      r"\b(?:episode|game|match|run|seed)\s+before(?:\s+(?:this|last|that))?\b(?!\s+(?:it|the|an?|we|you|i)\b))")


FACTS: tuple[Fact, ...] = (
    # The defender's earlier steps: what it did and how hosts changed (the context's history lines).
    Fact("history", re.compile(
        # ("is already being exploited" says it is exploited now, as "already compromised" does, r34m; and "already
        # under exploit", r37m; "already reads (shows, sits at) Privileged", r39g; "already at user level", "already root", "already being scanned", r41m)
        # (r42m: nor "no exploit running", "a shell running": what is under way now, not a run of steps)
        # (r44m: nor "an exploit still running", "a scan still running": the activity under way now, its row's)
        # (r47h: nor "nothing running", "nothing else is running": no activity under way now, its row's Activity None)
        # (r40m: not "while it still shows <state>", "while it still is", nor "still untouched": the state now, while it lasts;
        # "still clean" stays history: "before the attacker reaches it, while it is still clean" says more than its row)
        # (r45m: nor "still in reconnaissance": the phase the attack is in now)
        # (r48m: nor "already shows a compromise", "already has a foothold": the state now, said with its article)
        # (r60m: nor "already" after the state, "unless Enterprise2 is compromised already", "is it owned already?": the
        # state now, as "already compromised" says it)
        r"\b(?:(?<!\blong\sas\sit\s)(?<!\bwhile\sit\s)(?<!\bas\slong\sas\sthey\s)(?<!\bwhile\sthey\s)(?:(?<!\bit\s)still|(?<=\bit\s)still(?!\s+shows?\b))(?!\s+(?:untouched|uncompromised|unscanned|unexploited)\b)(?!\s+(?:in|at)\s+(?:the\s+)?(?:recon\w*|discovery|scanning|probing|exploitation|escalation|impact|lateral)\b)(?<!\bexploit\sstill)(?<!\bscan\sstill)|again|(?<!compromised\s)(?<!exploited\s)(?<!owned\s)(?<!rooted\s)(?<!breached\s)(?<!hacked\s)already(?!\s+(?:being|under)\s+(?:a\s+)?(?:scan|prob))(?!\s+(?:been\s+|being\s+|under\s+|(?:(?:reads?|shows?|showing|sits?|sitting|is|are|has|have)\s+)?(?:at\s+|an?\s+)?)?(?:compromis|exploit|breach|infect|rooted|owned|hacked|privileged|held\b|foothold|(?:the\s+)?(?:user|root|admin)(?:[- ]level)?\b))|(?<!\bis\s)(?<!\bare\s)already(?=\s+held\b)|previously|earlier|no longer|anymore|any more|in a row|twice|thrice|repeated\w*|"
        r"persist\w*|stay(?:s|ed|ing)?|remain(?:s|ed)?|remaining(?!\s+(?:\w+\s+)?(?:hosts?|workstations?|machines?|box(?:es)?|servers?|ones))|unchanged|(?:has|have|had)(?: not|n't) changed|newly|stuck|"
        r"(?:has|have) been (?:\w+ ){0,3}?for|(?:go(?:es)?|went|gone|turn(?:s|ed)?|chang(?:es|ed)|mov(?:es|ed))\s+from|(?<!\bexploit\s)(?<!\bexploits\s)(?<!\bprocess\s)(?<!\bshell\s)(?<!\battack\s)(?<!\bexploit\sstill\s)(?<!\bscan\sstill\s)(?<!\bnothing\s)(?<!\bnothing\sis\s)(?<!\bnothing\selse\s)running(?!\s+(?:through|on|in|across|against|over|from|its|their|the|a|an)\b)|straight(?!\s+(?:away|off|to|into|from|at|on))|on end|lingers?|linger(?:ed|ing)|"
        r"keeps?\s+(?:on\s+)?(?:coming|getting|being|showing|reappearing|returning|popping)|comes?\s+back|came\s+back|"
        # (r54h) a count of times an event has come, "the third time an exploit lands there": how many times it happened
        # before, which only the steps before tell ("restore it a 5th time?" counts the move asked about: no condition)
        r"the\s+(?:second|third|fourth|fifth|sixth|\d+(?:nd|rd|th))\s+time\b|"
        # (r59l) and the count said as "twice" is, "exploited two times", "hit more than once", "owned a second time",
        # "on three occasions": history (a single event matched in its place fired at the first one)
        # (not "however many times it is hit": each time, a condition of the state now)
        r"(?:two|three|four|five|several|multiple|\d+)\s+(?:separate\s+)?(?:times|occasions)\b|more\s+than\s+once\b|"
        r"(?:a|for\s+a)\s+(?:second|third|2nd|3rd)\s+time\b|"
        r"re-?appear\w*|re-?compromis\w*|re-?infect\w*|re-?exploit\w*|over and over|however often|each time we|"
        r"every time we|consecutive\w*|in succession|continu(?:es|ed|ing|ally|ously)|for (?:a while|long|some time|"
        r"several|many)|(?:has|have) just been|just (?:got|been|became)|fresh(?:ly)?|for the first time|was clean|"
        r"were clean|at the (?:previous|last|prior) step|a step ago|steps? ago|since then|by now|yet again|"
        # what the defender did: "a host we removed the attacker from", "once it has been reimaged", "following a Remove"
        rf"(?:we|you|i|the defender)\s+(?:have\s+|had\s+|just\s+|already\s+)?(?:remov|restor|analy[sz]|decoy|reimag|clean)\w*ed|"
        rf"(?:was|were|has been|have been|had been)\s+(?:just\s+|already\s+)?(?:removed|restored|analy[sz]ed|cleaned|reimaged|"
        rf"decoyed)|(?:following|since)\s+(?:a|an|the|our|my)\s+(?:remov|restor|analy[sz]|reimag)\w*|"
        # a change of state: "went from Compromised User to Compromised Unknown", "a Remove has turned it to Unknown"
        rf"(?:went|changed|turned|moved|dropped|fell)\s+(?:\w+\s+){{0,3}}?(?:from|to|into)\b|"
        rf"(?:a|an|the|our|my)\s+(?:remove|restore|analyse|analysis|removal|reimage)\s+(?:has|had)\b|"
        # the defender's move as what changed a host: "an Analyse turned it Privileged", "the Restore left it at Unknown"
        # (r56h: and the host it was made on between, in the present too, "once a Restore of User2 leaves it at root
        # again": what the move did, which only the steps before tell; read as the state now, the rule fired on any host
        # at that state, moved or not)
        rf"(?:a|an|the|our|my|that|this|last|previous)\s+(?:remove|restore|analy[sz]e|analysis|removal|reimage|decoy\w*)\s+"
        rf"(?:(?:on|of|against|for)\s+(?:the\s+|that\s+|this\s+|its\s+)?[\w-]+\s+)?"
        rf"(?:(?:has|had|just|then)\s+)?(?:turned|made|left|changed|pushed|sent|flipped|dropped|moved|brought|put|knocked|"
        rf"leaves|keeps|kept|turns|makes)\b|"
        r"recently|(?:last|previous|prior|earlier) (?:step|turn|action|move|decision)s?|step before|the last time|"
        # (r58m: not a span of the episode itself, "its final 3 steps of a 20-step game", "over 6 steps of this run": when
        # in the episode, its own fact below)
        rf"(?:last|past|previous|{_NUMBER}) {_NUMBER}? ?(?:(?:recorded|logged) )?(?:steps|turns|actions|moves|decisions){_OF_THE_EPISODE_NOT}|for (?:at least )?{_NUMBER}(?:\+| or more| or longer)? (?:more )?(?:steps|turns)|"
        # (r48c) a span said with its least count, "for 3+ steps", "two or more turns", and "owned 3+ steps" with no "for"
        rf"(?:compromis\w*|exploit\w*|owned|pwned|rooted|hacked|breach\w*|infect\w*|popped|held) (?:at least )?{_NUMBER}(?:\+| or more| or longer) (?:steps|turns)|"
        rf"before (?:it|that|the|an?) ?(?:was |were |showed |shows |got )?\w*|then (?:on the )?next|"
        # (r44x: "after its Restore", "after that Remove": the host's own move, as "after the Restore of it")
        # (r49h: "after I planned a Remove", "after we picked a Restore": the move it planned, made)
        rf"after (?:(?:i|we|you|the defender|my|our|an?|the|it|its|their|that|this)\s+)?(?:{PLANNED})?{_VERBS}|since (?:the|step|it))\b",
        re.IGNORECASE), _history_stated),
    # (r34h) The attacker's kind or strategy ("facing an intruder who is driving directly at Enterprise1", "the b_line kind
    # of attacker"): no context states it (CAGE-2's tables show what the attacker did, not what it is after).
    Fact("attacker kind", re.compile(
        r"\b(?:attacker|adversary|red|intruder|opponent|enemy)\b[^,;:.]{0,40}?\b(?:heading|heads|driving|drives|going|goes|"
        r"making|makes|racing|races|beelining|aiming|aims|rushing|charging)\s+(?:straight|directly|right)\s+(?:for|at|to|towards?)\b|"
        r"\b(?:kind|type|sort|flavou?r)\s+of\s+(?:attacker|adversary|red\s+agent|intruder|opponent)\b|"
        r"\b(?:b[_-]?line|meander\w*)\s+(?:kind|type|sort|strategy|style)\b|"
        r"\b(?:against|facing|versus|vs\.?)\s+(?:an?\s+|the\s+)?(?:b[_-]?line|meander\w*)\b", re.IGNORECASE),
        lambda text, situation: False),
    # Rewards and their changes: stated by the defender's `Recent steps:` line (`-> reward -1.1`).
    # ("there's no point removing it" judges a verb: no score)
    # (r47m: nor a time in the episode, "past the midway point of the game", "at this point": no score either)
    # (r47a: that time said with its preposition, "at / by / from / past / beyond / after that point": "lose that point" is a score)
    Fact("reward", re.compile(r"\b(?:reward|score|penalt\w*|(?<!no\s)(?<!the\s)(?<!any\s)(?<!entry\s)(?<!access\s)(?<!pivot\s)(?<!choke\s)(?<!weak\s)(?<!starting\s)(?<!halfway\s)(?<!half-way\s)(?<!\bat\sthis\s)(?<!\bat\sthat\s)(?<!\bby\sthis\s)(?<!\bby\sthat\s)(?<!\bfrom\sthis\s)(?<!\bfrom\sthat\s)(?<!\bpast\sthis\s)(?<!\bpast\sthat\s)(?<!\buntil\sthis\s)(?<!\buntil\sthat\s)(?<!\bbeyond\sthis\s)(?<!\bbeyond\sthat\s)(?<!\bafter\sthis\s)(?<!\bafter\sthat\s)(?<!\bbefore\sthis\s)(?<!\bbefore\sthat\s)(?<!\bto\sthis\s)(?<!\bto\sthat\s)points?(?!\s+(?:in|to|of\s+entry|of\s+(?:the\s+)?(?:episode|game|run|match))\b))\b", re.IGNORECASE),
         _rewards_stated),
    # When in the episode ("in the first five steps", "late in the episode", "after step 20"): no context states it in a
    # form this product judges (the Planner's "Step 13 of 30." is not read as a condition on the step).
    Fact("episode time", re.compile(
        r"\b(?:(?:early|late|later)\s+(?:in|on)\s+(?:the\s+)?(?:episode|game|run|match)|(?:at|near|towards?)\s+the\s+(?:start|beginning|end|outset)\s+"
        r"of\s+(?:the\s+)?(?:episode|game|run|match)|in\s+the\s+(?:first|opening)\s+(?:\w+\s+)?(?:steps?|turns?|moves?)|"
        r"(?:before|after|until|till|by|from|past|beyond)\s+step\s+\d+|steps?\s+\d+\s*(?:-|to|through|and)\s*\d+|"
        r"(?:first|opening|last|final)\s+(?:few\s+|\w+\s+)?(?:steps|turns|moves)" + _OF_THE_EPISODE + r")\b",
        re.IGNORECASE), lambda text, situation: False),
    # Whether an action succeeded: CAGE-2's blue table does not say; a context must state it in words.
    Fact("action outcome", re.compile(
        # (the attacker's success is a state: "successfully exploited", "the exploit succeeded")
        # (r42m: not "failing that", a branch of the text that does not hold, as "if not" says it)
        r"\b(?:fail\w*(?<!\bfailing)|failing(?!\s+(?:that|this|those|these)\b)|succe\w*(?!\s+(?:in\s+)?(?:exploit|compromis|scann|breach|escalat|gett|gain|root))|unsuccessful|did not work|"
        r"didn't work|had no effect|was rejected|errored|"
        # (r44x) the same outcome in other words, said of a move: "the Remove did not take", "that Restore didn't stick",
        # "the Analyse did nothing", "our Remove came to nothing", "the Restore was undone" (read as no fact, a predicate
        # that only asked the host's state passed as the whole condition)
        r"(?:remov\w*|restor\w*|re-?imag\w*|analy[sz]\w*|decoy\w*|move|action|attempt)\b[^,;.:]{0,40}?\b"
        r"(?:did(?:\s+not|n['\u2019]?t)\s+(?:take|stick|hold)|(?:has|have)(?:\s+not|n['\u2019]?t)\s+(?:taken|stuck|held)|"
        r"did\s+nothing|came\s+to\s+nothing|went\s+nowhere|achieved\s+nothing|(?:was|were|got|came|has\s+been)\s+undone|"
        r"was\s+(?:in\s+vain|for\s+nothing)))\b(?<!exploit\ssucceeded)(?<!exploit\ssucceeds)(?<!attack\ssucceeded)",
        re.IGNORECASE), _words(r"\b(?:fail\w*|succe\w*|unsuccessful)\b")),
    # Alert priority or severity: not a column of the blue table.
    # (r44c: and its shorthand on an alert in a note, "high-prio alert"; not the order's own "top prio")
    Fact("priority", re.compile(r"\b(?:priority|priorities|severity|critical)\b|\bprios?(?=[\s-]+(?:[\w-]+\s+)?"
                                r"(?:alerts?|alarms?|events?|warnings?)\b)", re.IGNORECASE),
         _words(r"\b(?:priority|prios?|severity|critical)\b")),
    # (r39h) The risk the step's analyses rate a host at, said with the analyses as its subject: stated by a context's
    # `Risk:` lines and judged there (judged.py reads the same words); it was no fact at all, so a predicate without it
    # went unchecked.
    Fact("risk", re.compile(RISK_RATED, re.IGNORECASE), lambda text, situation: bool(RISK_LINE.search(text))),
    # The green (benign user) agent and network traffic: the defender's table shows neither.
    # (and the connections an analyst's evidence lists: "many connections on local port 22")
    Fact("traffic", re.compile(r"\b(?:green|traffic|benign|bandwidth|packets?|flows?|connections? (?:rate|volume)|"
                               r"connections?\s+(?:on|to|from)\s+(?:(?:the|a|an|local|remote)\s+)*port)\b",
                               re.IGNORECASE), _words(r"\b(?:green|traffic|packets?|connections?)\b")),
    # (r38h) One host's state measured against another named host's ("a box left in a worse condition than User2", "an
    # op host more compromised than Op_Server0"): no predicate over the table compares two hosts, and the product does not judge it,
    # so a rule that states it is silent (read as the named host merely shown, it fired wherever that host was listed).
    Fact("comparison", re.compile(_COMPARED_STATE, re.IGNORECASE), lambda text, situation: False),
    # (r56e) A person's request or leave ("only if asked should we ...", "Remove User1 once approved", "if the lead says
    # so"): no context states who asked for what, so a rule that waits on it is silent (read as no condition, "Only if
    # asked should we Remove User1" held the Remove wherever User1 was shown). Said where it ends its clause: "when
    # asked what to pick" addresses a role, no condition.
    Fact("request", re.compile(_REQUEST_WAITED, re.IGNORECASE), lambda text, situation: False),
    # (r58l) What happened in another episode than the one under way: "whichever box got rooted last game", "the host at
    # root in the previous episode", "an earlier run". No context states it (the history lines are this episode's steps),
    # so a rule that waits on it is silent: read as the state now, it fired on whichever host showed that state today.
    Fact("past episode", re.compile(_PAST_EPISODE_SAID, re.IGNORECASE), lambda text, situation: False),
)


def facts_needed(condition: str) -> frozenset[str]:
    """The kinds of fact (FACTS names) a condition speaks of (history also where history_words reads some)."""
    # (r43m: a comparison read; a move the order sequences, "before any op host is touched", no history)
    found = frozenset(f.name for f in FACTS if f.spoken.search(hosts_compared(sequenced_away(condition))[1]))
    if "risk" in found and not judged_facts(condition or ""):
        # (r39h) a rating no reading judges is the answer asked for ("call even a scan medium risk"), or, said as high or
        # low risk, a priority no context states, as it was
        found = found - {"risk"} | ({"priority"} if re.search(r"\b(?:high|low)[- ]risk\b", condition, re.I) else set())
    return found if "history" in found or not history_conditions(condition or "") else found | {"history"}


def facts_stated(text: str, situation: Situation) -> frozenset[str]:
    """The kinds of fact a decision context states."""
    return frozenset(f.name for f in FACTS if f.stated(text or "", situation))
