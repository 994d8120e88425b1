"""What a rule's free-text condition needs a decision context to state before it can be judged. Pure.

A semantic rule (no predicate) and a guarded rule's unexpressed rest are judged by cosine to the
context, and on CAGE-2 every context looks alike to a sentence encoder: a rule about "alerts that
persist across repeated Analyse actions" scores as well on a single step's alerts as anywhere. The gate
is three-valued (predicate.py): a condition about something the context does not state is *unknown*,
and a rule fires only on *true*. For free text this module supplies the unknown side: the kinds of fact
a condition speaks of (`FACTS`), and whether a context states each kind at all. A condition that needs
a kind the context does not state is unknown there, whatever its cosine.

The condition of a text is what wording.py reads as its conditions (its "when / if ..." clauses, a relative
clause on what the order is about, a note's opening situation), or, when it states none, its instruction (the
rule after the reflection's narrative): the narrative ("my Restore failed") says why the rule was written,
not when it applies.

Two more parts of the three-valued check on free text:
- `claims`: what a condition says of the hosts it names ("if User0 is not compromised"), as a predicate the
  gate evaluates like any other: a semantic rule whose condition names a host the context does not state is
  unknown there, and false where that host shows the opposite. It only narrows: a condition that names no
  host claims nothing, and its cosine decides as before.
- `guard_rest`: which part of a compiler's `unexpressed` rest is a condition. A justification or a story
  ("because ...", "lesson: ...", "last time we waited") and a restatement of what the predicate already says
  ("the moment it is compromised") never guard: a rule is not silenced by its author's reasons.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Callable, Optional

from forge.env.catalog import HOST_CLASSES, HOST_VERBS, HOSTS, QUIET_ACTIVITY, QUIET_COMPROMISE, hosts_of
from forge.rulebook.language.episode import EpisodeStep, RewardTrend, episode_claims, without_episode_claims
from forge.rulebook.language.history_words import denied_moves, history_conditions, without_denied_moves, without_history
from forge.rulebook.language.judged import (RISK_LINE, RISK_RATED, evidence_away, evidence_tests, file_names_away, judged_facts, rating_away,
                                            without_evidence)
from forge.rulebook.language.phases import phase_named, phase_predicate
from forge.rulebook.language.situation import SOME, Situation, host_statements, without_either_value
from forge.rulebook.language.situation import state_of as _state_of
from forge.rulebook.language.wording import _AT_HAND_PARTICIPLE, _CLASS_FORMS, _HOST_FORMS  # the host and class names the reader knows
from forge.rulebook.language.wording import condition_elsewhere, only_named_away
from forge.rulebook.language.wording import (EXCEPT_WORDS, HOST_AT_HAND, HOST_NAME, NEWLY_GLOSS, UNLIKE_WORDS, classes_compared_only, classes_sequenced_only, sequenced_away, classes_in, conditions_left_out, falls_short_away, forbidding_away, gives_order, hosts_in, negations_in, read_wording,
                                            named_in_full, order_without_conditions, other_host_away, sentences, state_words_in, unnamed_hosts, verbs_in, without_class_names,
                                            without_host_names, written_out)

_NUMBER = r"(?:\d+|two|three|four|five|six|several|many|a few|consecutive)"
_MOVE_NAMES = r"remov\w*|restor\w*|analy[sz]\w*|decoy\w*|monitor\w*"  # the defender's moves, as a note names them
_VERBS = rf"(?:{_MOVE_NAMES}|deploy\w*|block\w*|action|it was \w+)"


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


# (r46m) Two classes' hosts counted against each other: "more boxes held on the op side than on the user side", "ops
# subnet: no fewer hit boxes than usr subnet", "fewer compromised op hosts than user hosts". The
# comparison word, then (before "than" / "as") the first class and (after it) the second, in one clause; the state is the
# one word of state said there. Read as no comparison, "more ... than" was a count or nothing, and a rule of one subnet's
# lead was silent (or spoke of "two user hosts", the opposite of "as many as").
_CLASSES_COMPARED = re.compile(r"(?P<cmp>\bat\s+least\s+as\s+many|\bno\s+fewer|\bnot\s+fewer|\bas\s+many|\bmore|\bfewer|\bless)\b"
                               r"(?P<first>[^,;.:]{0,80}?)\b(?P<word>than|as)\b(?P<second>[^,;.:]{0,60})", re.IGNORECASE)
_CLASS_PLACE = re.compile(r"\b(?:subnet|network|zone|segment|side|tier)\b", re.IGNORECASE)
_COUNTED_STATE = re.compile(r"\b(?:compromised|owned|exploited|scanned|infected|hacked|breached|hit|rooted|pwned|held)\b",
                            re.IGNORECASE)


# (r46a) A word that denies the comparison after it in its clause: "no more held on the op side than ...", "the op side
# never has more ... than ...", "not as many ... as ..." (read as said, "no more" was "more": the opposite of the words)
_COMPARISON_DENIED = re.compile(r"\b(?:no|not|never|nor|none|hardly|barely|scarcely|isn't|aren't|doesn't|don't|never)\b|n't\b", re.IGNORECASE)


def _counts_compared(found: re.Match, before: str):
    """The predicate of one comparison `_CLASSES_COMPARED` found: for each number j of the second class's hosts in the
    state, exactly j of them and (as the comparison says) more, at least or at most that many of the first's. None where
    it does not name two classes and one state."""
    from forge.rulebook.language.predicate import AllOf, AnyOf, Not  # lazy: as in `claims`

    cmp = " ".join(found["cmp"].lower().split())
    if _COMPARISON_DENIED.search(_own_clause(before)) and not cmp.startswith(("no ", "not ")):
        return None  # (r46a) "no more ... than", "never more ... than", "not as many ... as": the comparison denied
    if (cmp == "as many") != (found["word"].lower() == "as") and cmp not in ("at least as many",) \
            or (cmp == "at least as many") != (found["word"].lower() == "as"):
        return None
    first = class_in_full(f"{before} {found['first']}")
    second = class_in_full(found["second"])
    a, b = classes_in(found["first"] and class_in_full(found["first"])) or classes_in(class_in_full(before)), classes_in(second)
    states = {m.group(0).lower() for m in _COUNTED_STATE.finditer(f"{found['first']} {found['second']}")}
    if len(a) != 1 or len(b) != 1 or a == b or len(states) != 1:
        return None
    state = states.pop()
    on = lambda h: claims(f"{h} is {state}", h)  # noqa: E731
    place = lambda cls, said: [h for h in HOST_CLASSES[cls] if _CLASS_PLACE.search(said) or h.lower().startswith(cls.lower()[:2])]  # noqa: E731
    hosts_a, hosts_b = place(a[0], first), place(b[0], second)
    if any(on(h) is None for h in (*hosts_a, *hosts_b)):
        return None
    more, at_most = cmp in ("more",), cmp in ("fewer", "less")
    groups = []
    for j in range(len(hosts_b) + 1):
        least = j + 1 if more else j
        exactly = _of_count(on(hosts_b[0]), hosts_b, Count(j, j), on=on) if j else AllOf(tuple(Not(on(h)) for h in hosts_b))
        if at_most:
            if j == 0:
                continue
            some = AllOf(tuple(Not(on(h)) for h in hosts_a)) if j == 1 else \
                AnyOf((AllOf(tuple(Not(on(h)) for h in hosts_a)), _of_count(on(hosts_a[0]), hosts_a, Count(1, j - 1), on=on)))
        elif least == 0:
            groups.append(exactly)
            continue
        elif least > len(hosts_a):
            continue
        else:
            some = _of_count(on(hosts_a[0]), hosts_a, Count(least), on=on)
        groups.append(AllOf((exactly, some)))
    return AnyOf(tuple(groups)) if len(groups) > 1 else groups[0] if groups else None


def classes_counts_compared(condition: str) -> tuple[list, str]:
    """(r46m) The comparisons of two classes' counts a condition states (`_counts_compared`), and the condition without
    them."""
    rest, found = condition or "", []
    for m in reversed(list(_CLASSES_COMPARED.finditer(rest))):
        said = _counts_compared(m, rest[:m.start()].split(";")[-1])
        if said is None:
            continue
        found.insert(0, said)
        # (what leads it, "usr subnet:", is the first class's name: part of the comparison)
        start = m.start()
        lead = re.search(r"(?:^|[;,])\s*(?P<lead>[^;,:]{0,30}:\s*)$", rest[:start])
        if lead and classes_in(class_in_full(lead["lead"])):
            start = lead.start("lead")
        rest = rest[:start] + " " + rest[m.end():]
    return found, rest


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
        r"\b(?:(?<!\blong\sas\sit\s)(?<!\bwhile\sit\s)(?<!\bas\slong\sas\sthey\s)(?<!\bwhile\sthey\s)(?:(?<!\bit\s)still|(?<=\bit\s)still(?!\s+shows?\b))(?!\s+(?:untouched|uncompromised|unscanned|unexploited)\b)(?!\s+(?:in|at)\s+(?:the\s+)?(?:recon\w*|discovery|scanning|probing|exploitation|escalation|impact|lateral)\b)(?<!\bexploit\sstill)(?<!\bscan\sstill)|again|already(?!\s+(?:being|under)\s+(?:a\s+)?(?:scan|prob))(?!\s+(?:been\s+|being\s+|under\s+|(?:(?:reads?|shows?|showing|sits?|sitting|is|are|has|have)\s+)?(?:at\s+|an?\s+)?)?(?:compromis|exploit|breach|infect|rooted|owned|hacked|privileged|held\b|foothold|(?:the\s+)?(?:user|root|admin)(?:[- ]level)?\b))|(?<!\bis\s)(?<!\bare\s)already(?=\s+held\b)|previously|earlier|no longer|anymore|any more|in a row|twice|thrice|repeated\w*|"
        r"persist\w*|stay(?:s|ed|ing)?|remain(?:s|ed)?|remaining(?!\s+(?:\w+\s+)?(?:hosts?|workstations?|machines?|box(?:es)?|servers?|ones))|unchanged|(?:has|have|had)(?: not|n't) changed|newly|stuck|"
        r"(?:has|have) been (?:\w+ ){0,3}?for|(?:go(?:es)?|went|gone|turn(?:s|ed)?|chang(?:es|ed)|mov(?:es|ed))\s+from|(?<!\bexploit\s)(?<!\bexploits\s)(?<!\bprocess\s)(?<!\bshell\s)(?<!\battack\s)(?<!\bexploit\sstill\s)(?<!\bscan\sstill\s)(?<!\bnothing\s)(?<!\bnothing\sis\s)(?<!\bnothing\selse\s)running(?!\s+(?:through|on|in|across|against|over|from|its|their|the|a|an)\b)|straight(?!\s+(?:away|off|to|into|from|at|on))|on end|lingers?|linger(?:ed|ing)|"
        r"keeps?\s+(?:on\s+)?(?:coming|getting|being|showing|reappearing|returning|popping)|comes?\s+back|came\s+back|"
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
        rf"(?:a|an|the|our|my|that|this|last|previous)\s+(?:remove|restore|analy[sz]e|analysis|removal|reimage|decoy\w*)\s+"
        rf"(?:(?:has|had|just|then)\s+)?(?:turned|made|left|changed|pushed|sent|flipped|dropped|moved|brought|put|knocked)\b|"
        r"recently|(?:last|previous|prior|earlier) (?:step|turn|action|move|decision)s?|step before|the last time|"
        rf"(?:last|past|previous|{_NUMBER}) {_NUMBER}? ?(?:(?:recorded|logged) )?(?:steps|turns|actions|moves|decisions)|for (?:at least )?{_NUMBER}(?:\+| or more| or longer)? (?:more )?(?:steps|turns)|"
        # (r48c) a span said with its least count, "for 3+ steps", "two or more turns", and "owned 3+ steps" with no "for"
        rf"(?:compromis\w*|exploit\w*|owned|pwned|rooted|hacked|breach\w*|infect\w*|popped|held) (?:at least )?{_NUMBER}(?:\+| or more| or longer) (?:steps|turns)|"
        rf"before (?:it|that|the|an?) ?(?:was |were |showed |shows |got )?\w*|then (?:on the )?next|"
        # (r44x: "after its Restore", "after that Remove": the host's own move, as "after the Restore of it")
        rf"after (?:(?:i|we|you|the defender|my|our|an?|the|it|its|their|that|this)\s+)?{_VERBS}|since (?:the|step|it))\b",
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
        r"(?:first|opening|last|final)\s+(?:few\s+|\w+\s+)?(?:steps|turns|moves)\s+of\s+(?:the\s+)?(?:episode|game|run))\b",
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
)


def condition_of(text: str) -> str:
    """The part of a rule's text that says when it applies (see the module docstring); (r44m) not a later case it only
    keeps another move for (`narrower_cases_away`)."""
    words = read_wording(narrower_cases_away(text))
    if words.conditions:
        return "; ".join(c.text for c in words.conditions)
    if words.instruction:
        return words.instruction
    parts = sentences(text)
    return parts[-1] if parts else " ".join((text or "").split())


def windows_left_to(found, rest: str):
    """(r36m) Claims without the windows of steps that `rest` (a compiled rule's unexpressed rest, judged as its guard)
    states: the predicate need not say them (None: nothing else is claimed)."""
    from forge.rulebook.language.predicate import AllOf  # lazy: as in `claims`

    guarded = set(episode_claims(rest or ""))
    if found is None or not guarded:
        return found
    # (r41m: or one a window it states implies: "in the first six steps" says "not after step 6", said where the rule
    # hands over to the others)
    return _all_of([p for p in (found.parts if isinstance(found, AllOf) else (found,))
                    if p not in guarded and not any(_window_implies(g, p) for g in guarded)])


def _window_implies(window, other) -> bool:
    """(r41m) Whether a window of steps holds only where another does, on every step of episodes of the usual lengths
    (a window counted from the end needs one). Anything but two windows: no."""
    if not isinstance(window, EpisodeStep) or not isinstance(other, EpisodeStep):
        return False
    return all(other.truth(step, step, length) is True for length in (20, 30, 50, 100) for step in range(1, length + 1)
               if window.truth(step, step, length) is True)


def facts_unread(condition: str, subject: Optional[str] = None) -> frozenset[str]:
    """(r36m) `facts_needed` of a condition whose claims hold its windows of steps (episode.py): those windows are read,
    so the words that state them need no fact of their own (any other word for the episode's time still does).
    (r39m) Likewise its history, where every clause of it is read (`_history_unread`) and its claims (`subject`: the host
    its "it" stands for) hold a history atom: they judge it three-valued, and a state now that already decides them ("not
    at Privileged for two steps" of a host at User) needs no history lines."""
    condition = evidence_away(without_episode_claims(condition or ""))
    found = facts_needed(condition)
    if "history" in found and not _history_unread(condition) and _claims_history(condition, subject):
        found = found - {"history"}
    return found


def _claims_history(condition: str, subject: Optional[str]) -> bool:
    """Whether the claims of a condition hold a history atom (or its `not`)."""
    from forge.rulebook.language.predicate import atoms_of  # lazy: as in `claims`

    found = claims(condition, subject)
    return found is not None and any(atom.history() for atom, _ in atoms_of(found))


def facts_needed(condition: str) -> frozenset[str]:
    """The kinds of fact (FACTS names) a condition speaks of (history also where history_words reads some)."""
    # (r43m: a comparison read; a move the order sequences, "before any op host is touched", no history)
    found = frozenset(f.name for f in FACTS if f.spoken.search(hosts_compared(sequenced_away(condition))[1]))
    if "risk" in found and not judged_facts(condition or ""):
        # (r39h) a rating no reading judges is the answer asked for ("call even a scan medium risk"), or, said as high or
        # low risk, a priority no context states, as it was
        found = found - {"risk"} | ({"priority"} if re.search(r"\b(?:high|low)[- ]risk\b", condition, re.I) else set())
    return found if "history" in found or not history_conditions(condition or "") else found | {"history"}


# "many connections on port 22 from one address mean a brute force, so recommend a Restore": what the evidence means
# is the reason, and the evidence itself the condition of the order after the "so".
_MEANS_SO = re.compile(r"(?P<what>[^.;:,]+?)\s+(?:means?|indicates?|signals?|signifies|points?\s+to)\s+[^.;:,]+,\s*so\s+(?!that\b)",
                       re.IGNORECASE)
# What an order tells the agent to say of a host ("call it low risk", "rate it critical", "flag it as high priority"):
# its answer, not a condition on a fact.
# (r48m: in any person, "the analyst rates it critical", "flags it high risk"; and a rating that closes an order, "...
# means recommend Remove, high risk": the answer's rating, said after the move it recommends)
_VERDICT = re.compile(r"\b(?:call|rate|label|flag|mark|report|classify|tag|score|treat|consider)(?P<person>s|d|ed|es)?\s+(?:it|them|this|that|the\s+host)\s+"
                      r"(?:as\s+)?(?:(?:a|an)\s+)?(?:low|medium|high|critical|urgent|minor|major)[\s-]*(?:risk|priority|severity)?\b",
                      re.IGNORECASE)
_CLOSING_RATING = re.compile(rf"(?P<move>\b(?:{_MOVE_NAMES})(?:\s+(?:it|them|\w+\d))?)\s*,\s*(?:low|medium|high|critical)[\s-]+risk\s*(?=[.;]|$)",
                             re.IGNORECASE)


def verdict_away(text: str) -> str:
    """`text` without what an order tells the agent to say of a host ("rate it high risk"): an answer, no condition."""
    return _CLOSING_RATING.sub(lambda m: m["move"], _VERDICT.sub(
        lambda m: m.group(0) if m["person"] and _RATING_AS_CASE.search(re.split(r"[,;.:]", text[:m.start()])[-1]) else " ", text))


# (r48m) A rating told in the third person after a word of condition, "when the analysis rates it high risk": the case,
# no answer asked for
_RATING_AS_CASE = re.compile(r"\b(?:when|whenever|if|once|after|unless|while|until|since|as\s+soon\s+as)\b", re.IGNORECASE)


def spoken_facts(words) -> list[tuple[str, frozenset[str]]]:
    """Each part of a rule's words that speaks of kinds of fact (FACTS), with them: its conditions, and its order itself
    ("restore any host stuck at Unknown for two steps"; not the order's "before anything else", which orders, or
    "before they arrive", which is the future; nor "still", which mostly says "now")."""
    # (nor what the order puts aside: "instead of analysing it again" is the move not to make, no condition)
    # (nor what it concedes: "never restore User0, even when it has been owned twice: ..." holds whatever the host's past)
    # (nor the other host an order on a named one is set against: "..., not on the box that was hit earlier", r34m)
    # (nor what a move is said to fall short at, r41m, r41h: "a Remove won't clear root" says what the move does, no past move)
    order = re.sub(r"\b(?:before|instead\s+of|rather\s+than)\b[^,;.]*", " ",
                   falls_short_away(other_host_away(conceded_away(_told_aside_away(words.instruction)))))
    said = [c.text for c in words.conditions] + [verdict_away(order)] \
        + [m["what"] for m in _MEANS_SO.finditer(words.text)]
    # (nor where an order ends, ORDER_ENDED: "after it is rooted, the trap no longer helps" says what stops, no past)
    # (r48m: nor what the move stops being there, "the eviction stops being urgent": no priority to state)
    said = [ORDER_ENDED.sub(lambda m: re.sub(r"\b(?:stops?\s+being|ceases?\s+to\s+be)\b.*$", " not ", re.sub(
        r"\bno\s+longer\b", " not ", m.group(0), flags=re.IGNORECASE), flags=re.IGNORECASE), t) for t in said]
    # (r44x: "still" taken out with its space: "an exploit still running" is "an exploit running", the activity now, which
    # the history words leave out only as two words side by side; with a gap between them it read as a run of steps)
    found = [(t, facts_needed(_UNTIL_NO_LONGER.sub(" while ", re.sub(r"\bstill\b\s*", "", t)))) for t in said]
    return [(t, kinds) for t, kinds in found if kinds]


# (r41m) An aside in brackets that tells what happened, its verbs all past ("(the Remove never held there: two tries,
# three re-exploits)", "(that is what went wrong last time)"): the order's reason, no condition of it.
# (Not one that states a condition, "(if it was hit twice)", nor one in the present.)
_TOLD_ASIDE = re.compile(r"\((?![^()]*\b(?:is|are|shows?|has|have|gets?|reads?|sits?|stays?|remains?|if|when|whenever|while|"
                         r"once|unless|until|after|since)\b)"
                         r"(?=[^()]*\b(?:was|were|had|did|got|went|came|stuck|failed|tried|tries|worked)\b)[^()]*\)", re.IGNORECASE)


# (r41m) A condition said in other words and then glossed as a state: "Ahead of the red team getting to the op subnet,
# i.e. while no op host is held, ...": the gloss says what it means; the words it glosses need no fact.
_GLOSSED = re.compile(r"[^,;.:()]+,\s*(?=(?:meaning|i\.\s?e\.|that\s+is(?:\s+to\s+say)?|in\s+other\s+words)\s*,?\s+"
                      r"(?:while|when|whenever|if|as\s+long\s+as|until|once)\b)", re.IGNORECASE)


def _told_aside_away(text: str) -> str:
    """(r41m) The text without its told asides in brackets (_TOLD_ASIDE), and a condition's words its gloss restates
    (_GLOSSED)."""
    return _GLOSSED.sub(" ", _TOLD_ASIDE.sub(" ", text))


# "until the box no longer shows root": while it reads Unknown now, no history (r31m)
_UNTIL_NO_LONGER = re.compile(r"\buntil\s+(?:it|they|the\s+(?:host|box|machine|server)|\w+\d|defender)\s+no\s+longer\b",
                              re.IGNORECASE)


def facts_stated(text: str, situation: Situation) -> frozenset[str]:
    """The kinds of fact a decision context states."""
    return frozenset(f.name for f in FACTS if f.stated(text or "", situation))


# "no host shows any activity", "nothing is going on", "the network is quiet", "no alert fires": every host quiet.
_ON_THE_NETWORK = r"(?:\s+(?:on|in|across)\s+the\s+(?:whole\s+|entire\s+)?(?:network|system|environment|estate|board|range))?"
_ALL_QUIET = re.compile(r"\b(?:no|not\s+a\s+single|none\s+of\s+the)\s+(?:host|hosts|machine|machines|alerts?)\b[^.;]*?"
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
_SOME_HOST = re.compile(r"\b(?:a|an|any|some|every|each)\s+(?:host|machine|box|server|node)s?\b|"
                        r"\b(?:host|machine|box)s?\s+(?:that|which|whose|with|showing)\b", re.IGNORECASE)
# (r40k) A host of the network said as such: "some host", "any machine" (not "a host", which may be the one before).
_ANY_HOST_SAID = re.compile(r"\b(?:some|any)\s+(?:host|machine|box|server|node)\b", re.IGNORECASE)
# ("nothing on it / on the host" is about one host; "nothing on the network", "nothing in the user subnet" about every
# host of it)
_NOTHING = re.compile(r"\b(?:nothing(?!\s+(?:on|in|of)\s+(?:it|that|this|them|the\s+(?!(?:whole\s+|entire\s+)?(?:(?:user|enterprise|"
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
_GENERAL_SUBJECT = re.compile(r"\b(?:hosts|machines|boxes|servers|workstations|nodes|systems|anything|something|everything|nothing|"
                              r"anywhere|somewhere|everywhere)\b|\b(?:only|just|nothing\s+but|merely|mere)\s+(?:scans|probes|exploits)\b|" + r"\b(?:the\s+)?(?:attacker|adversary|intruder|red(?:\s+(?:agent|team))?)\b"
                              r"(?![^.;]*\b(?:it|its|there|that\s+(?:host|machine|box|one))\b)", re.IGNORECASE)
_NOT_YET = re.compile(r"^\s*(?:until|till|before|unless|except\s+(?:when|if|once|while)|"
                      r"(?:(?:but|and|yet)\s+)?not\s+(?:when|if|once|while)|(?:but\s+)?never\s+(?:when|if|once|while))\b", re.IGNORECASE)
# (r40k: and an exception, "but not if it is compromised", "not once it is rooted": the condition it excepts not so)
# "no user host is compromised", "none of the Enterprise hosts is ...": a class statement, negated.
_NONE_OF = re.compile(r"\b(?:no|none\s+of\s+the|not\s+(?:a\s+single|any|one)(?:\s+of\s+the)?|neither\s+of\s+the)\b", re.IGNORECASE)


# Where a condition's clause ends: before "until / unless ..." (a negated clause of its own), and before "and" that
# opens a clause about other hosts ("no enterprise host is compromised and a user host is being exploited"); never
# inside a list of hosts ("User1 and User2 are compromised" share their state).
_NOTHING_ELSE_GOING_ON = r"nothing\s+else\s+(?:is\s+)?(?:going\s+on|happening)\b"
_NEW_SUBJECT = re.compile(r"(?=\b(?:until|till|before|unless)\s+(?:it|its|they|the|a|an|any|\w+\d)\b)|"
                          # (r44m) and before one said without its subject, "U1 scanned, unless already owned": that
                          # host's state denied, as "unless it is already owned" (read in one clause, the scan was lost)
                          r"(?=\bunless\s+(?:already\s+|yet\s+)?(?:owned|compromised|rooted|exploited|hacked|pwned|breached|"
                          r"infected|privileged|at\s+root)\b)|"
                          # "U4 Unknown, nothing else going on": a clause about every other host
                          r"(?:\band\s+|,\s*)(?=" + _NOTHING_ELSE_GOING_ON + r")|"
                          # "user hosts are scanned and none of them is compromised": a clause about all of the class
                          r"(?:\band\s+|,\s*)(?=(?:none|all|each|neither|both|any|some|one)\s+of\s+them\b)|"
                          # "User1 shows a user-level compromise and no privileged access yet": a second, negated state
                          # "nothing is compromised yet and User2 is scanned": a clause about a named host
                          r"\band\s+(?=(?:user|enterprise|op[\s_-]?(?:host|server))[\s_-]?\d\s+(?:is|shows|gets|was|has|becomes|appears)\b)|"
                          # "one user box is owned and no other machine shows any activity", "... while the rest of the
                          # machines show no activity": a clause about the hosts besides the one before (`_others_than_picked`)
                          r"\b(?:and|while)\s+(?=(?:no|every|each|all)\s+other\s+(?:hosts?|box(?:es)?|machines?|servers?|nodes?|systems?)\b|"
                          r"the\s+rest\s+of\b)|"
                          # (r41h) a comma (or a bracket) before the others of a count said tersely, "exactly one ent server
                          # owned, the other enterprise servers clean", "... (others clean)": left in one clause, the later
                          # state was the count's (one server clean and the rest not)
                          r"(?:,|\()\s*(?=(?:the\s+)?(?:others\b|rest\b|other\s+(?:(?:user|enterprise|op|operational)[\s-]+)?"
                          r"(?:hosts|box(?:es)?|machines|servers|nodes|systems|ones)\b))|"
                          # (r45m) the same after "and", and the others counted, "just one op box is owned and the other
                          # three are quiet", ", the other four idle"
                          r"(?:\band\s+|,\s*|\(\s*)(?=the\s+other\s+(?:two|three|four|[2-4])\b|the\s+others\b|the\s+rest\b)|"
                          # "User2 is not scanned and it is compromised": the negation is the first clause's alone
                          r"\band\s+(?=it\s+(?:is|was|has|shows|showed|gets|got|becomes|became|appears)\b)|"
                          # (r47a: or "yet", "though", "although", as "but": "a user box exploited yet not rooted" is one
                          # host of the class, both; read in one clause, some host exploited and no host of it rooted)
                          r"\b(?:(?:and\s+)?yet|(?:and\s+)?(?:al)?though|and)\s+(?=(?:no|not(?:\s+yet)?|never|nothing|without)\s+(?!other\b|else\b)(?:\w+[\s-]+){0,2}?"
                          r"(?:privileged|admin|root(?:ed)?|user[- ]level|compromis\w*|exploit\w*|scan\w*|activity|access|escalat\w*|owned|pwned|hacked|footholds?)\b)"
                          # (r32m: nor after "and", "scanned and nothing compromised on it yet": that host's own state)
                          r"(?![^,;.]*\b(?:(?:on|to|of|at|in|from)\s+(?:it|that\s+\w+|(?:the\s+)?same\s+\w+)|there)\b)|"
                          # "User4 scanned, not exploited yet": a comma before a negated state joins it like "and" (not
                          # (r34m: "probed, no foothold yet" as well: a foothold is a compromise)
                          # one said of the subject's own host, "..., no compromise on it so far": that is its state)
                          r",\s*(?=(?:no|not(?:\s+yet)?|never|nothing|without)\s+(?!other\b|else\b)(?:\w+[\s-]+){0,2}?"
                          r"(?:privileged|admin|root(?:ed)?|user[- ]level|compromis\w*|exploit\w*|scan\w*|activity|access|escalat\w*|owned|pwned|hacked|footholds?)\b)"
                          r"(?![^,;.]*\b(?:(?:on|to|of|at|in|from)\s+(?:it|that\s+\w+|(?:the\s+)?same\s+\w+)|there)\b)|"
                          # ("E2 exploit, all user hosts clean": a comma before a quantified class opens its clause too)
                          # (and before a count of a class: "a user box is exploited and three or more enterprise servers
                          # are hacked"; left as one clause, the count and the exploit were given to both classes)
                          r"(?:\band\s+|,\s*(?=(?:all|every|each|no)\s))(?=(?:(?:a|an|any|some|no|none\s+of\s+the|every|each|all|the|at\s+least\s+one|"
                          r"(?:two|three|four|[2-4])\s+or\s+more|at\s+least\s+(?:two|three|four|[2-4])|more\s+than\s+(?:one|two|[12])|several|multiple)\s+)?(?:an?other\s+|other\s+)?"
                          r"(?:(?:user|enterprise|op|operational)[\s-]+)?(?:hosts?|box(?:es)?|machines?|servers?|workstations?|"
                          r"desktops?|laptops?|nodes?)\b)", re.IGNORECASE)


_HOST_WORD = HOST_NAME  # (the name wording.py reads hosts by)
# "neither Enterprise0 nor Enterprise1 is compromised"; "Enterprise1 is scanned but Enterprise0 is not"
# (r45m: in shorthand with no verb, "neither U1 nor U2 owned", "neither E0 nor E1 at root": a state word right after the
# hosts; read with no "is", the first host was only shown and the second claimed the state, the opposite)
_NEITHER = re.compile(rf"\bneither\s+(?P<a>{_HOST_WORD})\s+nor\s+(?P<b>{_HOST_WORD})\s+(?:(?P<verb>is|are|was|were|gets?|got)\s+|"
                      r"(?=(?:[a-z]+(?:ed|en)|hit|clean|quiet|idle|untouched|at)\b)(?!(?:shows?|has|have)\b))"
                      r"(?P<state>[^,;.]+)", re.IGNORECASE)
# (r35m) "neither User1 nor Op_Host2 shows any foothold", "... has an exploit": each host shows none of it
# (read with no "is", the first host was only shown and the second claimed compromised)
_NEITHER_SHOWS = re.compile(rf"\bneither\s+(?P<a>{_HOST_WORD})\s+nor\s+(?P<b>{_HOST_WORD})\s+(?P<verb>shows?|has|have)\s+"
                            r"(?:(?:any|an?)\s+)?(?P<what>[^,;.]+)", re.IGNORECASE)
# (r42x) "none of Op_Host1, Op_Host0 or Defender has a foothold", "not one of U1..U4 owned": each host listed without that state (read
# host by host with no denial, the list claimed the state of them, the opposite)
_NONE_OF_HOSTS = re.compile(rf"\b(?:none|not\s+(?:a\s+single\s+)?one|neither)\s+of\s+(?:the\s+)?"
                            rf"(?P<hosts>{_HOST_WORD}(?:\s*(?:,|\band\b|\bor\b|\bnor\b)\s*{_HOST_WORD})+)\s+"
                            r"(?:(?P<verb>is|are|was|were|gets?|got|shows?|has|have)\s+)?(?:(?:any|an?)\s+)?"
                            r"(?P<state>(?:(?!\b(?:and|but|while|when|whenever|if|or)\b)[^,;.?!])+)", re.IGNORECASE)
# "User2 is neither scanned nor exploited": one host, two states it must not show
_NEITHER_STATE = re.compile(rf"\b(?P<a>{_HOST_WORD}|it)\s+(?P<verb>is|was|gets|got)\s+neither\s+(?P<s1>[^,;.]+?)\s+nor\s+"
                            r"(?P<s2>[^,;.]+)", re.IGNORECASE)
_ELLIPSIS = re.compile(rf"\b(?P<a>{_HOST_WORD})\s+(?P<verb>is|was|are|were)\s+(?P<state>(?:(?!\b(?:but|and|while|whereas)\b)[^,;.])+?)\s*,?\s+"
                       rf"(?P<join>but|and|while|whereas)\s+(?P<b>{_HOST_WORD})\s+(?:is|was|are|were)\s*(?:not|n't)(?=\s*(?:[,;.]|$))",
                       re.IGNORECASE)

# "Enterprise1 is compromised and no other enterprise server is": the second subject takes the first one's state
_ELLIPSIS_OTHERS = re.compile(
    rf"\b(?P<a>{_HOST_WORD})\s+(?P<verb>is|was|are|were)\s+(?P<state>(?:(?!\b(?:but|and|while|whereas)\b)[^,;.])+?)\s*,?\s+"
    r"(?P<join>but|and|while|whereas)\s+(?P<b>(?:no|none\s+of\s+the|not\s+a\s+single|any)\s+(?:other\s+)?(?:[\w-]+\s+){0,2}?"
    r"(?:hosts?|servers?|box(?:es)?|machines?|ones?))\s+(?:is|are|was|were)(?=\s*(?:[,;.]|$))", re.IGNORECASE)

# "User1 is compromised and some other user host is too", "... and Enterprise0 is as well": the second subject takes the
# first one's state (left unsaid, the reader placed nothing of it while the reading called itself whole)
_ELLIPSIS_TOO = re.compile(
    rf"\b(?P<a>{_HOST_WORD})\s+(?P<verb>is|was|are|were)\s+(?P<state>(?:(?!\b(?:but|and|while|whereas)\b)[^,;.])+?)\s*,?\s+"
    rf"(?P<join>and|while|whereas)\s+(?P<b>{_HOST_WORD}|(?:an?other|some|any|a|an|one)\s+(?:other\s+)?(?:[\w-]+\s+){{0,2}}?"
    r"(?:hosts?|servers?|box(?:es)?|machines?|ones?))\s+(?:is|are|was|were)\s+(?:too|also|as\s+well)\b", re.IGNORECASE)

# "newly owned (clean at the previous step)", "newly compromised (not compromised at the prior turn)": the gloss in brackets
# says what "newly" says (newly_compromised), and no more
_NEWLY_GLOSS = re.compile(r"(\bnewly\s+[\w-]+)" + NEWLY_GLOSS, re.IGNORECASE)

# "E2 row Unknown", "OpS0 row Privileged": a host's name, "row", and a state with no verb between
_HOSTS_ROW = re.compile(r"(?<=\d)\s+row\s+(?=(?:at\s+)?(?:unknown|privileged|root|user[- ]level|compromised|clean|quiet|"
                        r"scann?\w*|exploit\w*)\b)", re.IGNORECASE)

# A host named, then said to be the one analysed ("OpS0 under analysis", "User2 being inspected")
_HOST_UNDER_ANALYSIS = re.compile(r"(?P<name>[\w-]+)\s+" + _AT_HAND_PARTICIPLE, re.IGNORECASE)


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
               # "only" after what it limits: "User1 scanned only", "a scan only"
               # (and with no article, as notes say it: "usr box, scan only")
               (re.compile(r"\b((?:being\s+)?(?:scanned|probed)|(?:(?:a|an|one)\s+)?(?:scan|probe))\s+only\b", re.IGNORECASE), r"only \1"),
               # a note's "E2 row Unknown": the host's row of the table, said without a verb, shows that state
               (_HOSTS_ROW, " shows "),
               # "shows only Unknown and no confirmed compromise": Unknown is a compromise not confirmed, and all it says
               (re.compile(r"(\bunknown\b[^.;:]*?)\s*,?\s+(?:and|but|with)\s+(?:no|not\s+(?:a|any)|without\s+(?:a|any))\s+"
                           r"(?:confirmed|real|actual|genuine|verified)\s+compromise\b", re.IGNORECASE), r"\1"),
               # "newly owned (clean at the previous step)": the gloss in brackets says what "newly" says, and no more
               (_NEWLY_GLOSS, r"\1"),
               # (r33h) "a user box under analysis", "usr host being inspected": the host at hand is of the class named,
               # which stays (read as "a host", the class was lost and the rule fired on a user host's record)
               (re.compile(r"\b((?:user|enterprise|op|operational)[\s-]+(?:host|box|machine|server|workstation)s?)\s+"
                           + _AT_HAND_PARTICIPLE, re.IGNORECASE), r"\1"),
               # "the host you analyse is Enterprise1": that host (the one the analyst's context is about)
               (re.compile(r"\bthe\s+(?:host|box|machine|server)\s+(?:(?:that|which)\s+)?(?:you|we|i)(?:'re|\s+are|\s+am)?\s+"
                           r"(?:analy[sz]e|analy[sz]ing|inspect|inspecting|examine|examining|look\s+at|are\s+looking\s+at)\s+is\s+"
                           r"(?=(?:user|enterprise|op|defender)[\w-]*\b)", re.IGNORECASE), ""),
               # "the host you analyse shows ...", "analysed host: ...": the host the analyst's context is about, whichever
               (re.compile(r"\b(?:the\s+)?(?:host|box|machine|server)\s+(?:(?:that|which)\s+)?(?:you|we|i)(?:'re|\s+are|\s+am)?\s+"
                                       r"(?:analy[sz]e|analy[sz]ing|inspect|inspecting|examine|examining|look\s+at|are\s+looking\s+at)\b|"
                                       # (the words of HOST_AT_HAND the wording knows: "the inspected box", "the
                                       # machine under examination")
                                       r"\b(?:the\s+)?(?:analy[sz]ed|inspected|examined)\s+(?:host|box|machine|server)\b|"
                                       r"\b(?:the\s+)?(?:host|box|machine|server)\s+" + _AT_HAND_PARTICIPLE,
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
               (re.compile(r"(?<!\bis\s)(?<!\bare\s)(?<!\bwas\s)(?<!\bbeen\s)(?<!\bbeing\s)\b(scanned|probed)(?:\s*,?\s+and|\s*,)\s+"
                           r"nothing\s+(?:more|else)\b(?!\s+(?:is\s+)?(?:going\s+on|happening))", re.IGNORECASE), r"only \1"),
               # "scan seen, nothing more", "a probe spotted and nothing else": a note's scan, said seen, and no more (it was read
               # as "no scan": the opposite)
               (re.compile(r"\b(?:(?:a|an|one)\s+)?(scan|probe)s?\s+(?:seen|spotted|observed|detected|noted|logged|noticed)"
                           r"(?:\s*,?\s+and|\s*,)\s+nothing\s+(?:more|else)\b(?!\s+(?:is\s+)?(?:going\s+on|happening))", re.IGNORECASE),
                lambda m: "only " + ("scanned" if m.group(1).lower() == "scan" else "probed")),
               # "is being scanned and nothing more", "shows a scan and nothing else", "shows a scan, nothing else"
               (re.compile(r"\b(?P<verb>is|are|was|were|shows?|has\s+been)\s+(?:(?:only|just|merely)\s+)?(?P<what>(?:being\s+|a\s+|an\s+)?\w+)(?:\s*,?\s+and|\s*,)\s+"
                           r"nothing\s+(?:more|else)\b(?!\s+(?:is\s+)?(?:going\s+on|happening))", re.IGNORECASE), r"\g<verb> only \g<what>"),
               # (r39m) "each op box w/ one probe and nothing else", "an op server with a probe, nothing more": that host's scan, and
               # no more (read as "with a scan" and a "nothing" on its own, it said no host of the class was scanned)
               (re.compile(r"\b(with|w/)\s+(?:(?:a|an|one)\s+)?(scan|probe)s?(?:\s*,?\s+and|\s*,)\s+nothing\s+(?:more|else)\b"
                           r"(?!\s+(?:is\s+)?(?:going\s+on|happening))", re.IGNORECASE), r"with only a \2"),
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
_SUBNET_NOUN = r"|subnets?|networks?|zones?|segments?"
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
_FOR_SURE = re.compile(r"\b(?:compromis\w*|owned|pwned|hacked|breach\w*|taken\s+over|rooted|hit|infected)\b", re.IGNORECASE)
_NOT_FOR_SURE = re.compile(r"\bunknown\b|\bany\s+(?:compromise|level|access)\b|\bwhatever\b|\bsuspect\w*|\bpossibl\w*|"
                           r"\bmaybe\b|\bmight\b|\bunclear\b|\bnot\s+sure\b|\buncertain\b", re.IGNORECASE)


def compromise_said_for_sure(text: str) -> bool:
    """Whether the text says a compromise for sure ("when the op box is owned"), with no word that leaves its level open
    or in doubt: a row at Compromised Unknown does not meet it (the gate holds a compiled "any compromise" to that)."""
    return bool(_FOR_SURE.search(text or "")) and not _NOT_FOR_SURE.search(text or "")

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


def _plus_as_or_more(condition: str) -> str:
    """`condition` with a count said "2+" written "2 or more" (as `_COUNT` reads it)."""
    return _PLUS_COUNT.sub(lambda m: f"{m['n']} or more", condition)


# (r37m) A group of hosts named by a plural noun and glossed by their list in brackets ("boxes (U1-U3) at Unknown",
# "the boxes (User1, User2) with a scan"): like a class said with a state, one of them in that state, not each of them
_GLOSSED_GROUP = re.compile(rf"(?<!\bboth\s)(?<!\ball\s)(?<!\beach\s)(?<!\bevery\s)\b(?:the\s+)?(?!(?:both|all|each|every)\b)(?:[\w-]+\s+)?(?:hosts|box(?:es)|machines|servers|srvs|svrs|nodes|systems|workstations)\s*"
                            rf"\((?P<hosts>{_HOST_WORD}(?:\s*(?:,|\band\b|\bor\b)\s*{_HOST_WORD})+)\)", re.IGNORECASE)


# (r37m) A class as a heading, then its level alone after the colon ("ops boxes: Unknown -> ..."): the class at that level
# (a bare level after a class, unlike one after a host, was read as no state at all)
_CLASS_THEN_LEVEL = re.compile(r"(?P<subject>^[^:;,.]{2,40}?)\s*:\s+(?=(?:unknown|privileged|root|user[\s-]level)\s*$)", re.IGNORECASE)


def _one_of_list(listed: str) -> str:
    """A list of hosts written as alternatives: "A, B and C" -> "A, B or C"."""
    names = [n for n in re.split(r"\s*(?:,|\band\b|\bor\b)\s*", listed) if n.strip()]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


# (r38m) "all but one of the enterprise servers": a count (`_COUNT`), not a clause ending at "but"; "no more than two
# user hosts": a bound (as "at most two"), not "no user host"
# (r38h) and "all the enterprise servers but one", whose "but" would split the clause where a contrast is read
_ALL_BUT = re.compile(r"\ball\s+but\s+(?=(?:one|two|a\s+single|[12])\b)|"
                      r"\b(?P<all>all\s+(?:(?:of\s+)?the\s+)?(?:[\w-]+\s+){0,2}?(?:hosts|boxes|machines|servers))\s+but\s+"
                      r"(?=(?:one|two|[12])\b)", re.IGNORECASE)
_NO_MORE_THAN = re.compile(r"\b(?:no|not)\s+more\s+than\s+(?=(?:one|two|three|four|five|[1-5])\b)", re.IGNORECASE)
# (r39m) and a lower bound said as a denied comparison, "no fewer than 2 op machines", "not less than four": at least that
# many (read as "no user host" plus a count, the rule held nowhere)
_NO_FEWER_THAN = re.compile(r"\b(?:no|not)\s+(?:fewer|less)\s+than\s+(?=(?:one|two|three|four|five|[1-5])\b)", re.IGNORECASE)


def _counts_said_plainly(condition: str) -> str:
    """`condition` with the counts whose words would read as a clause or a denial written as `_COUNT` reads them."""
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
    return _LEVEL_OR_ABOVE.sub(lambda m: "" if _FOR_SURE.search(_own_clause(condition[:m.start()]))
                               or re.search(r"\bheld\b", _own_clause(condition[:m.start()]), re.I) else " compromised", condition)


# (r46a) Where the clause a level is said in opens: after a comma, semicolon or colon, or a word that joins another clause
_CLAUSE_OPENS = re.compile(r"[,;:]|\b(?:and|but|or|while|whereas|though|although)\b", re.IGNORECASE)


def _own_clause(before: str) -> str:
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
    condition = _NETWORK_WIDE.sub("on the network", _only_one_named(_plus_as_or_more(_counts_said_plainly(condition))))
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


# (r40m) "the defender" in lower case as who acts ("the defender made no move on it", "the defender has removed it"): the
# blue agent, us; read as the host Defender, the rule also asked that host be shown.
_DEFENDER_ACTING = re.compile(r"\b[Tt]he\s+defender(?=\s+(?:(?:has|had|have)\s+)?(?:took|takes|taken|chose|chooses|chosen|picked|picks|did|does|"
                              r"done|made|makes|ran|runs|tried|tries|used|uses|played|plays|acted|acts|moved|moves|removed|"
                              r"removes|restored|restores|analy[sz]ed|analy[sz]es|spent|spends|wasted|wastes)\b)")


def _named_as_the_table_names(condition: str, subject: Optional[str]) -> str:
    """A condition with the hosts it names in shorthand or prose written as the table names them, where that is safe."""
    named = hosts_in(condition)
    if named and subject is not None and set(named) <= {subject}:
        return named_in_full(condition)  # the rule's one host in shorthand, "E0 Unknown -> Analyse E0": as the table names it
    if named and len(named) + len(classes_in(condition)) > 1:
        # a host beside another subject of the condition, any in shorthand or prose ("User3 and the ops server are
        # both owned", "U-boxes clean + E0 quiet"): each as the table names it, or the reading placed only
        # those already so named (one host alone in a condition of a rule that names others, "never Restore E2 while
        # OpS0 clean", is left as it was: read, the prohibition would apply where its target is not shown)
        return named_in_full(condition, prose=True)
    return condition


# (r47m) The defender's move said as what changed a host, with the move first: "a Remove has just left User1 at Unknown",
# "the Analyse turned the box Privileged" -> "User1 turned Unknown right after a Remove" (the order history_words reads).
_MOVE_TURNED_STATE = re.compile(r"\b(?:a|an|the|our|my|that|this|last)\s+(?P<move>remove|restore|analy[sz]e|analysis|removal)\s+"
                                r"(?:(?:has|had)\s+)?(?P<just>(?:just|now)\s+)?(?:turned|shown|showed|made|left|flipped)\s+"
                                r"(?P<subject>(?:a|an|the|that|this|some|any)\s+(?:[\w-]+\s+)?(?:host|box|machine|server|workstation)|it|"
                                r"[A-Za-z_]+\d)\s+(?:at\s+)?(?P<level>privileged|root|unknown|user[\s-]level)\b", re.IGNORECASE)


def _move_turned_said(found: re.Match) -> str:
    """(r47m) One move said first as what changed a host, in the history reading's order (`moves_said_after`)."""
    move = verbs_in(found["move"])[0]
    # ("just": the step right after the move, as "right after" says it)
    return f"{found['subject']} turned {found['level']} {'right ' if found['just'] else ''}after {'an' if move == 'Analyse' else 'a'} {move}"


def moves_said_after(condition: str) -> str:
    """(r47m) A condition with the defender's move said first as what changed a host (`_MOVE_TURNED_STATE`) in the order
    the history reading places: the host, its new level, then the move. Read as it stood, the move was its subject and
    no claim placed it, so a rule on it was silent everywhere."""
    return _MOVE_TURNED_STATE.sub(_move_turned_said, condition or "")


def claims(condition: str, subject: Optional[str] = None, unresolved: Optional[list] = None, group: tuple[str, ...] = (),
           universal: bool = True):
    """What a condition says of the hosts it names, as a predicate (None: it says nothing this reader can place). A host
    named with a state must show it ("User0 is compromised"), with a negated one must not ("User0 is not being
    scanned"); a host named bare must be shown; a class with a state ("a user host is compromised") needs some host of
    it to show it, "no user host is ..." none; "no host shows any activity" needs every host quiet. A clause that names
    no host but states a state ("... but not yet compromised", "when it shows nothing but a scan") is about the host
    named before it, else about `subject` (the one host the rule names). Everything else is left to the cosine. A clause
    that states a state of a host this reading cannot tell (an "it" with no host before it, in a text that names
    several) is appended to `unresolved`, if given: claims without it are not the whole of the condition. `group`: the
    hosts "both" or "they" stand for (the hosts of its sentence): "when both are compromised" claims each of them
    compromised, "when either is" one of them. `universal`: "all user hosts are compromised" claims each of them (a
    condition); False for what an order acts on ("restore all compromised user hosts" applies where some is)."""
    from forge.rulebook.language.predicate import Not  # lazy: beside this module

    # (r43m: "..., then a decoy on the op subnet" is where the order goes next, no condition)
    condition = sequenced_away(_DEFENDER_ACTING.sub("we", file_names_away(moves_said_after(condition))))  # (r40m: files are judged.py's; "the defender": we)
    condition = only_named_away(condition)  # (r48m: "E1 hit (only E1, not the other servers)": of E1 alone)
    compared, rest = hosts_compared(condition)
    if not compared:  # (r46m) "more held on the op side than on the user side": two classes' counts
        compared, rest = classes_counts_compared(condition)
    if compared:  # (r43m) "E0 worse off than U1, ...": the levels compared, and what the rest says
        inner = claims(rest, subject, unresolved, group, universal) if rest.strip(" ,;:.-") else None
        return _all_of(compared + ([inner] if inner is not None else []))
    if episode_claims(condition):
        return _episode_first(condition, subject, unresolved, group, universal)
    if _ONLY_ON_LIST.search(hosts_alone_as_only(condition)):
        return _only_on_listed(condition, subject, unresolved, group, universal)
    parts, coarse, last = _history_parts(spelled_out(_named_as_the_table_names(condition, subject)), subject, group)
    counted, coarse = _counts_of_named(coarse)
    parts.extend(counted)
    named_class: Optional[str] = None  # the one class the clauses before named, for "they" / "none of them"
    for clause in (piece for c in coarse for piece in _shared_state(_terse_split(_NEW_SUBJECT.split(c)))):
        if not clause:
            continue
        # ("a user box with a scan and no compromise on it": "it" is that same host of the class, not any of them)
        if _of_the_host_before(parts, clause, unresolved, last):
            continue
        clause = _their_class(clause, named_class)
        if unresolved is not None and _states_apart(clause):
            unresolved.append(clause)  # two subjects, each with a state of its own, read as one clause: not the whole
        named_class = classes_in(clause)[0] if len(classes_in(clause)) == 1 and not hosts_in(clause) else named_class
        if _NOT_YET.match(clause):  # "until it is privileged", "before it gets exploited": not yet so
            inner = claims(_NOT_YET.sub("", clause), last, unresolved)
            if inner is not None:
                parts.append(Not(_or_landed(inner) if _LANDED.search(clause) else inner))
            continue
        statements = host_statements(clause)
        besides = last if last is not None else group[0] if len(group) == 1 else None
        if not statements and besides is None and parts and _OTHER.search(clause):
            # ("a single user box is owned and no other machine shows any activity": the others than the one it picks)
            # (r45m: "just one op box is owned and the other three are quiet": the rest of the hosts it counts over, each
            # of them)
            picked = _the_others_of_the_count(parts[-1], clause) or _others_than_picked(parts[-1], clause, universal)
            if picked is not None:
                parts[-1] = picked
                continue
        if not statements and besides is not None and _OTHER.search(clause):  # "when another host is compromised"
            parts.extend(_general_parts(clause, universal, besides=besides))
            if re.match(r"\s*" + _NOTHING_ELSE_GOING_ON, clause, re.IGNORECASE):
                # (nor anything on that host but the state said of it: "User4 at Unknown, nothing else going on" shows
                # no activity on User4 either, "OpS0 scanned, nothing else going on" no compromise)
                from forge.rulebook.language.predicate import Atom  # lazy: beside this module
                for column in ("activity", "compromise"):
                    if not any(getattr(p, "host", None) == besides and getattr(p, column) is not None for p in parts):
                        parts.append(Not(Atom(host=besides, **{column: "any"})))
            continue
        joint = bool(statements) and bool(classes_in(clause)) and (not _OTHER.search(clause) or len({h for h, _, _ in statements}) == 1)
        statements = statements or _unnamed_statements(clause, last, group, unresolved)
        if not statements and parts and _denied_of_class(parts[-1], clause) is not None:
            parts[-1] = _denied_of_class(parts[-1], clause)  # "a user host with an exploit, no root yet": that same host
            continue
        if len({h for h, _, _ in statements}) == 1:
            last = statements[0][0]
        said = (_with_class(clause, _statement_parts(clause, statements), universal) if joint
                else _statement_parts(clause, statements)) if statements else _general_parts(clause, universal)
        # (a clause that also denies, "..., not once it has been exploited", is left as it was read)
        landed = _HAS_LANDED.search(clause) and not negations_in(clause)
        parts.extend([_or_landed(p) for p in said] if landed else said)
    return _all_of(_moves_bound_to_class_host(parts))


def _lateral_said(condition: str, named: tuple[str, ...]):
    """(r42h) The lateral movement phase where a condition of no host or class names it, as the phase or by its definition
    ("a box newly owned while one in another subnet is held"); None otherwise. Read clause by clause, the definition was
    some host newly compromised beside some host compromised, met by one fresh foothold alone (no other subnet)."""
    from forge.rulebook.language.predicate import parse_predicate  # lazy: beside this module

    if phase_named(condition) != "lateral_movement" or named or classes_in(condition):
        return None
    return parse_predicate(phase_predicate("lateral_movement"))


# (r38m) The hosts an order is kept to, listed: "only on User1 and User4", "just for Enterprise0 or Enterprise2" (the
# move on a class or a state "is for those two alone"). Read as hosts of the condition, each was claimed in the state (both exploited).
_ONLY_ON_LIST = re.compile(rf"(?<!not\s)\b(?:only|just|solely)\s+(?:on|for|to)\s+(?P<hosts>{_HOST_WORD}(?:\s*(?:,|\band\b|\bor\b)\s*{_HOST_WORD})+)\b",
                           re.IGNORECASE)


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
        return f"only for {' and '.join(hosts_in(what))}" if _hosts_only(what) else found.group(0)
    return _HOSTS_KEPT_TO.sub(kept, condition or "")


def _only_on_listed(condition: str, subject: Optional[str], unresolved: Optional[list], group: tuple[str, ...],
                    universal: bool):
    """`claims` of a condition that keeps its order to hosts it lists (`_ONLY_ON_LIST`): the rest of it, each claim on a
    class or on any host said of one of the listed hosts; the listed hosts alone, shown, where the rest claims nothing."""
    from forge.rulebook.language.predicate import AnyOf, Atom  # lazy: as in `claims`

    condition = hosts_alone_as_only(condition)
    found = _ONLY_ON_LIST.search(condition)
    listed = _listed_in(found)
    said = condition[:found.start()] + " " + condition[found.end():]
    rest = claims(said, subject, unresolved, group, universal)
    if rest is None:
        # (r38g) a state said of no host ("a Restore at root is meant only for E0 and OpS0"): of each listed host; was
        # each listed host only shown, the state dropped
        return AnyOf(tuple(claims(said, h, None, group, universal) or Atom(host=h) for h in listed))
    return _kept_to(rest, listed)


def _kept_to(found, listed: list[str]):
    """Claims with each claim on a class (or on any host) said of those of `listed` that are of it: some one of them;
    any other claim (a denial, a named host) stays as it was."""
    from forge.rulebook.language.predicate import AllOf, AnyOf, Atom  # lazy: as in `claims`

    if isinstance(found, Atom) and found.host is None and found.host_class is not None and not found.bare():
        kept = [found.on(h) for h in listed if h in found.hosts()]
        return found if not kept else kept[0] if len(kept) == 1 else AnyOf(tuple(kept))
    if isinstance(found, (AllOf, AnyOf)):
        return type(found)(tuple(_kept_to(p, listed) for p in found.parts))
    return found


def _listed_in(found: re.Match) -> list[str]:
    return list(dict.fromkeys(hosts_in(named_in_full(found["hosts"], prose=True))))


def _episode_first(condition: str, subject: Optional[str], unresolved: Optional[list], group: tuple[str, ...],
                   universal: bool):
    """(r36m) `claims` of a condition that states a window of the episode's steps or a trend of its rewards ("past step
    15", "the newest reward is under -8", episode.py): each is a claim of its own, and the rest is read without them."""
    from forge.rulebook.language.predicate import AllOf  # lazy: beside this module

    rest = claims(without_episode_claims(condition), subject, unresolved, group, universal)
    return _all_of([*episode_claims(condition), *(rest.parts if isinstance(rest, AllOf) else (rest,) if rest is not None else ())])


# (r34h) A count over hosts the text names: "(exactly / only / just) one of User1 and User3 is compromised". Split at
# its "and", the clause gave the state to the last host alone and the first was claimed only shown (so the rule fired
# where both were owned, which "exactly one" excludes).
_ONE_OF_NAMED = re.compile(rf"\b(?P<exactly>(?:exactly|only|just)\s+)?one\s+of\s+(?:the\s+two\s+|the\s+hosts\s+)?"
                           rf"(?P<hosts>{_HOST_WORD}(?:\s*(?:,|\band\b|\bor\b)\s*{_HOST_WORD})+)\s+"
                           r"(?P<state>(?:is|was|gets|got|becomes|became|shows|reads|has\s+been)\b[^,;.]*)", re.IGNORECASE)


def _counts_of_named(clauses: list[str]) -> tuple[list, list[str]]:
    """The claims of the counts over named hosts in `clauses` (`_ONE_OF_NAMED`: some one of them in the state, or exactly
    one and the others not), and the clauses without them. A count whose state is negated or unread is left as it was."""
    from forge.rulebook.language.predicate import Atom  # lazy: beside this module

    found, rest = [], []
    for clause in clauses:
        for m in list(_ONE_OF_NAMED.finditer(clause)):
            hosts = list(dict.fromkeys(hosts_in(m["hosts"])))
            state, negated = _state_of(m["state"])
            if len(hosts) < 2 or negated is not None or state == (None, None):
                continue
            found.append(_of_count(_atom(Atom, state, host=hosts[0]), hosts, Count(1, 1 if m["exactly"] else None)))
            clause = clause.replace(m.group(0), " ")
        rest.append(clause)
    return found, rest


def _states_apart(clause: str) -> bool:
    """Whether a clause `claims` reads as one names two subjects (hosts or classes) joined by "and", each with a state
    word of its own ("no usr host owned and ent srv scanned" if it were not split: the reading gives one state to both,
    and its "no" to both): the reading of such a clause is not the whole of it, whatever it claims. A state shared by
    subjects listed together ("User1 and User2 compromised") is said once, after the last of them."""
    text = clause or ""
    spans = sorted({m.span() for pattern, _ in (*_HOST_FORMS, *_CLASS_FORMS) for m in pattern.finditer(text)})
    if len(spans) < 2:
        return False
    for (_, end), (start, _) in zip(spans, spans[1:]):
        between = text[end:start]
        if re.search(r"\band\b", between, re.IGNORECASE) and _STATE_SPOKEN.search(between.split(" and ")[0]) \
                and _STATE_SPOKEN.search(text[start:]):
            return True
    return False


# "... and Op_Server0 quiet", "... and User2 scanned": "and" before a named host with a state of its own, said tersely
# (no verb), after a clause that states a state of its own subject: a clause about that host (read as one clause, the
# host's state was taken for the subject before it: "no enterprise server compromised and Op_Server0 quiet" claimed no
# enterprise server quiet and compromised)
_AND_HOST = re.compile(r"\s+and\s+(?=(?:User\d|Enterprise\d|Op_Host\d|Op_Server0|Defender)\b)")


def _terse_split(pieces: list[str]) -> list[str]:
    """`pieces` with each split again before "and HOST STATE" where the words before state a state and the host's own
    words do too ("User1 and User2 compromised" shares one state: the words before "and" state none)."""
    out: list[str] = []
    for piece in pieces:
        start = 0
        for found in _AND_HOST.finditer(piece or ""):
            before, after = piece[start:found.start()], piece[found.end():]
            if _state_of(before) != ((None, None), None) and _state_of(after) != ((None, None), None) \
                    and (classes_in(before) or hosts_in(before) or _SOME_HOST.search(before) or _NOTHING.search(before)):
                out.append(before)
                start = found.end()
        out.append(piece[start:] if piece else piece)
    return out
# "unless it has been exploited", "until it gets exploited": an exploit that landed, so the host's row may show the
# compromise it left and no Exploit activity any more; "not yet" so is neither (`_or_landed`).
# ("unless it is being exploited": the exploit under way, its activity alone)
_LANDED = re.compile(r"\b(?:has|have|had|gets?|got|is|was|were|been)\s+(?:(?!being\b)\w+\s+)?(?:been\s+)?exploited\b", re.IGNORECASE)


def _or_landed(found):
    """Claims of an exploit (Activity Exploit) that may have landed: that activity, or a compromise of that host (class)."""
    from forge.rulebook.language.predicate import AnyOf, Atom  # lazy: beside this module

    if isinstance(found, Atom) and found.activity == "Exploit" and found.compromise is None and not found.history():
        return AnyOf((found, replace(found, activity=None, compromise="any")))
    # (r37m: "exploited at user level" that has landed: that level, the exploit's activity over or not)
    if isinstance(found, Atom) and found.activity == "Exploit" and found.compromise not in (None, "No") and not found.history():
        return AnyOf((found, replace(found, activity=None)))
    return found


# (r37m) A host described by an exploit done, in the perfect ("an ops box that has been exploited at root", "any
# server which has been exploited"): it has landed, so the row may show the compromise it left and no Exploit activity
# any more. ("is exploited" is said of now, and stays the activity; "once it has been exploited", a moment, is left as
# it was read.)
_HAS_LANDED = re.compile(r"\b(?:that|which|who)\s+(?:has|have|had)\s+(?:already\s+)?been\s+exploited\b", re.IGNORECASE)


_ON_IT = re.compile(r"\s+(?:on|in|against|for)\s+it\b(?=\s*(?:yet|so\s+far)?\s*$)", re.IGNORECASE)


def _denied_of_class(part, clause: str):
    """A piece with no subject that only denies a state ("no root yet", "but not rooted") after one that claimed it of
    some host of a class ("a user host with an exploit"): the same host of it does not show it ("a user host exploited
    and not rooted": one host, both). None where the piece is no such denial. (r47a) Likewise after hosts listed with
    one state ("User1 or User2 compromised but not rooted"): each host of the list, both (the denial was dropped, and
    the rule held where the one compromised host was rooted)."""
    from forge.rulebook.language.predicate import AllOf, AnyOf, Atom  # lazy: beside this module

    # (only a denial said with no subject of its own, "not rooted", "no root yet": an "it" after two hosts is no one of them
    # this reads)
    if isinstance(part, (AnyOf, AllOf)) and len(part.parts) > 1 and re.match(r"\s*(?:not|no|never)\b", clause, re.IGNORECASE) \
            and all(isinstance(q, Atom) and q.host is not None for q in part.parts):
        each = [_denied_of_one(q, clause) for q in part.parts]
        return None if any(e is None for e in each) else type(part)(tuple(e.parts[0] for e in each))
    if not isinstance(part, Atom) or part.host_class is None:
        return None
    return _denied_of_one(part, clause)


def _denied_of_one(part, clause: str):
    """`_denied_of_class` of one atom: a class's (each host of it in turn) or one named host's."""
    from forge.rulebook.language.predicate import AllOf, AnyOf, Atom, Not  # lazy: beside this module

    if not isinstance(part, Atom) or part.bare() or part.history() \
            or hosts_in(clause) or classes_in(clause) or _SOME_HOST.search(clause) or _NOTHING.search(clause) \
            or _GENERAL_SUBJECT.search(clause) or _OTHER.search(clause) or facts_needed(clause):
        return None
    state, negated = _state_of(clause)
    # ("a user box with a scan and no compromise on it": a quiet value said with no subject is that same host's too)
    activity, compromise = state
    if negated is None and (activity, compromise) in ((None, QUIET_COMPROMISE), (QUIET_ACTIVITY, None)) \
            and (part.compromise if compromise else part.activity) is None:
        return AnyOf(tuple(AllOf((part.on(h), Atom(host=h, activity=activity, compromise=compromise))) for h in part.hosts()))
    if state != (None, None) or negated is None:
        return None
    if _excludes(part, negated):
        # ("a user host scanned but not yet exploited": its Activity Scan is no Exploit already, so the denial says the
        # exploit has not landed either: that same host shows no compromise; read as nothing, the condition was not whole
        # and the rule silent where it applied)
        if negated != ("activity", "Exploit") or part.activity != "Scan" or part.compromise is not None:
            return None
        return AnyOf(tuple(AllOf((part.on(h), Not(Atom(host=h, compromise="any")))) for h in part.hosts()))
    return AnyOf(tuple(AllOf((part.on(h), Not(_negated_atom(Atom, negated, host=h)))) for h in part.hosts()))


# (r39m) A clause whose subject is "that host" / "the same box", with no host or class of its own: the host a clause before
# it picked of a class (dropped, "once an op box shows a probe and that box is at root" claimed the probe alone).
# ("the host" alone is the one at hand, the analysed host: `_THE_HOST`)
_THAT_HOST_FIRST = re.compile(r"^\s*(?:(?:if|when|whenever|once|while|should|and|,)\s+)*(?:that|this|the\s+same)\s+"
                              r"(?:host|box|machine|server)\b(?!'s)", re.IGNORECASE)


def _of_the_host_before(parts: list, clause: str, unresolved: Optional[list], last: Optional[str]) -> bool:
    """Whether a clause is read as a state of the class's host the clause before picked, into `parts[-1]`: "an op box
    probed, nothing compromised on it" (`_denied_of_class`), "(r39m) ..., once that box sits at root" (`_same_host_of_class`;
    a "that host" this cannot place, with no host named before it (`last`), goes to `unresolved`, if given: the claims are
    not the whole; after a named host it is that host, read as before)."""
    from forge.rulebook.language.predicate import Atom  # lazy: beside this module

    own = _denied_of_class(parts[-1], _ON_IT.sub("", clause)) if parts and _ON_IT.search(clause) else None
    if own is not None:
        parts[-1] = own
        return True
    of_class = bool(parts) and isinstance(parts[-1], Atom) and parts[-1].host_class is not None
    if not _THAT_HOST_FIRST.match(clause) or not of_class and last is not None:
        return False
    same = _same_host_of_class(parts[-1], clause) if of_class else None
    if same is None and unresolved is not None:
        unresolved.append(clause)
    parts[-1:] = [same] if same is not None else parts[-1:]
    return True


def _same_host_of_class(part, clause: str):
    """"that host" stating a state (no denial) after `part`, an atom about some host of a class: that same host in both
    (each host of the class in turn). None where the clause or the part is no such thing."""
    from forge.rulebook.language.predicate import AllOf, AnyOf, Atom  # lazy: beside this module

    if not isinstance(part, Atom) or part.host_class is None or hosts_in(clause) or classes_in(clause) \
            or facts_needed(clause) or negations_in(clause):
        return None
    (activity, compromise), negated = _state_of(clause)
    if negated is not None or (activity, compromise) == (None, None) \
            or activity is not None and part.activity is not None or compromise is not None and part.compromise is not None:
        return None
    state = {"activity": None if activity is None else "any" if activity == SOME else activity,
             "compromise": None if compromise is None else "any" if compromise == SOME else compromise}
    return AnyOf(tuple(AllOf((part.on(h), Atom(host=h, **state))) for h in part.hosts()))


def _same_class_host_again(before: list, condition: str, classes: list):
    """(r44h) The claims of a condition whose "it" is the host of the one class the condition before it is about (that
    condition claimed as one atom on the class): both on that same host, each host of the class in turn
    (`_same_host_of_class`); None where the condition is no such thing."""
    from forge.rulebook.language.predicate import Atom  # lazy: as in `claims`

    if len(classes) != 1 or len(before) != 1 or not isinstance(before[0], Atom) or before[0].host_class != classes[0] \
            or not _LONE_IT.search(condition) or hosts_in(condition) or classes_in(condition):
        return None
    # ("it still shows <state>" is its state now, as `_their_class` reads it)
    return _same_host_of_class(before[0], re.sub(r"\bit\s+still\s+(?=shows?\b)", "it ", condition, flags=re.IGNORECASE))


# A clause whose plural verb or "both" says its state is shared by every subject before it: "... and a user host are
# (both) compromised".
_SHARED = re.compile(r"^[^,;:.]*?\b(?:are|were|have\s+been|both|each|all)\b", re.IGNORECASE)


def _shared_state(pieces: list[str]) -> list[str]:
    """Clauses split before "and" with a subject of their own, joined again where the first states nothing and the
    next says its state is theirs together ("an enterprise server and a user host are both compromised": both are
    compromised; the enterprise server was left with no state, so no claim, while the reading called itself whole)."""
    out: list[str] = []
    for piece in pieces:
        if out and _SHARED.match(piece or "") and (classes_in(out[-1]) or hosts_in(out[-1])) \
                and _state_of(out[-1]) == ((None, None), None):
            out[-1] = f"{out[-1]} and {piece}"
        else:
            out.append(piece)
    return out


def _moves_bound_to_class_host(parts: list) -> list:
    """(r39m) A move not made on "it" where "it" is some host of a class ("some op box sits at root and no
    Restore of it shows up within the past 4 turns", `_denied_move_parts`): said of the same host as the one other part on
    that class, each host of it in turn (said of the class, the rule held only where no host of it had the move)."""
    from forge.rulebook.language.predicate import AllOf, AnyOf, Atom, Not  # lazy: beside this module

    out = list(parts)
    for denied in parts:
        atom = denied.part if isinstance(denied, Not) else None
        if not isinstance(atom, Atom) or atom.host_class is None or atom.acted is None or atom.host is not None:
            continue
        picked = [q for q in out if isinstance(q, Atom) and q.host_class == atom.host_class and not q.history()]
        if len(picked) != 1:
            continue
        bound = AnyOf(tuple(AllOf((picked[0].on(h), Not(atom.on(h)))) for h in picked[0].hosts()))
        out = [bound if q is picked[0] else q for q in out if q is not denied]
    return out


def _all_of(parts: list):
    """The claims `parts` make together (None: none), without a bare mention of a host that another part states
    something of ("User2: remove it once it is compromised": User2 compromised, not also User2 shown)."""
    from forge.rulebook.language.predicate import AllOf, Atom  # lazy: beside this module

    stated = {p.host for p in parts if isinstance(p, Atom) and p.host is not None and not p.bare()}
    kept = list(dict.fromkeys(p for p in parts if not (isinstance(p, Atom) and p.bare() and p.host in stated)))
    return None if not kept else kept[0] if len(kept) == 1 else AllOf(tuple(kept))


# "the host", "that box" where no host is named: the host the rule is about, whichever it is.
# ("the table shows Compromised Unknown", said to the analyst: the table of the host analysed, whichever it is)
_THE_HOST = re.compile(r"\b(?:the|that|this)\s+(?P<what>host|box|machine|server)\b(?!'s)|"
                       # (r40g: or "is" it, "when its row is Unknown": read as no host, the condition was unread)
                       r"\b(?:the|its|the\s+host's)\s+(?:table|row)(?=\s+(?:shows?|says|reads|lists|is)\b)|"
                       # (a note drops the article: "row reads Unknown -> ...", "when row shows Privileged, ...")
                       r"^(?P<lead>\s*(?:(?:when|whenever|if|once|while)\s+)?)(?:table|row)(?=\s+(?:shows?|says|reads|lists)\b)",
                       re.IGNORECASE)
# "they", "none of them", "each of them": the hosts of a class the clause before named ("user hosts getting scanned
# while none of them is compromised yet": no user host is).
# ("one" alone as the subject is one of them: "on the enterprise servers, remove the attacker as soon as one is hit")
_THEM = re.compile(r"\b(?P<q>none|all|each|every\s+one|any|either|one|some|neither|both)\s+of\s+them\b|\b(?P<they>they)\b|"
                   r"\b(?P<one>one)\b(?=\s+(?:of\s+(?:those|these)\s+)?(?:is|are|was|gets?|got|shows?|showed|becomes?|became|has|"
                   r"turns?|turned|goes|went|starts?|appears?|looks?)\b)", re.IGNORECASE)
_CLASS_WORD = {"User": "user hosts", "Enterprise": "enterprise hosts", "Operational": "operational hosts"}


def _their_class(clause: str, named_class: Optional[str]) -> str:
    """A clause that names no host and no class, with "they" / "X of them" written as the class named before it."""
    if named_class is None or hosts_in(clause) or classes_in(clause):
        return clause
    # "every user host should be restored as soon as it is compromised": "it" is a host of the class (the sentence
    # names no host of its own)
    # (r44h: "it still shows <state>" is its state now, as said of a named host's "it" (`FACTS`' history words); written
    # of the class, its "still" marked history the reading could not place, and the clause was dropped from a reading
    # still taken as whole: "once you reimage an op box, when it still shows some compromise, ..." held at any state)
    clause = re.sub(r"\bit\s+still\s+(?=shows?\b)", "it ", clause, flags=re.IGNORECASE)
    clause = re.sub(r"\bit\b(?!\s+(?:is|was)\s+(?:not\s+)?(?:clear|likely|possible|unclear|true|worth|better|best|time)\b)",
                    f"a {_CLASS_WORD[named_class][:-1]}", clause, flags=re.IGNORECASE)
    return _THEM.sub(lambda m: f"{m['q'] or m['one']} of the {_CLASS_WORD[named_class]}" if m["q"] or m["one"]
                     else f"the {_CLASS_WORD[named_class]}", clause)


def _history_parts(condition: str, subject: Optional[str], group: tuple[str, ...]) -> tuple[list, list[str], Optional[str]]:
    """`claims`' first pass: the history atoms of the clauses about earlier steps ("clean at the previous step"),
    the other clauses (read by the second pass), and the host the last history atom named (else `subject`)."""
    from forge.rulebook.language.predicate import Not  # lazy: as in `claims`

    if (phase := _lateral_said(condition or "", hosts_in(condition or ""))) is not None:
        return [phase], [], subject  # (r42h) the phase said whole, a history of its own: no clause left to read
    parts, coarse, last = [], [], subject
    for c in (p for piece in _CLAUSE_BREAK.split(condition or "") for p in _history_then_state(piece)):
        denied = _denied_move_parts(c, last)
        if denied is not None:  # (r39m) "no Restore of it in the last two steps": read, and taken out of the clause
            parts.extend(denied)
            c = without_denied_moves(c)
        if "history" not in facts_needed(c):
            coarse.append(c)
            continue
        # a clause about earlier steps claims what the history lines show: a history atom
        # (r39m) "unless / until it has stayed rooted 3 turns running": that history not (yet) so
        not_yet = _NOT_YET.match(c)
        atom = _history_claim(_NOT_YET.sub("", c) if not_yet else c, last, group)
        if atom is not None:
            parts.append(Not(atom) if not_yet else atom)
            last = atom.host if atom.host is not None else last
    return parts, coarse, last


# (r40m) "and" (or "+") before another host said in a state of its own: "E2 removed within the last 3 steps and E1 owned"
_AND_HOST_STATED = re.compile(r"\s+(?:and|\+|&)\s+(?=(?:the\s+)?[A-Za-z_]+\d\s+(?:is\s+|was\s+|gets\s+|got\s+)?(?:owned|compromised|"
                              r"exploited|scanned|rooted|hit|hacked|breached|infected|probed)\b)", re.IGNORECASE)


def _history_then_state(clause: str) -> list[str]:
    """(r40m) A clause whose history on one host is followed by "and <another host> <state>" as two clauses, the history
    first (read as one, the history atom took both hosts and the clause was unread); any other clause as it was."""
    pieces = _AND_HOST_STATED.split(clause, maxsplit=1)
    if len(pieces) != 2 or "history" not in facts_needed(pieces[0]) or "history" in facts_needed(pieces[1]) \
            or len(hosts_in(pieces[0])) != 1 or set(hosts_in(pieces[1])) & set(hosts_in(pieces[0])):
        return [clause]
    return pieces


def _denied_move_parts(clause: str, last: Optional[str]) -> Optional[list]:
    """The `not` of an `acted` history for each move a clause says was not made lately (history_words.denied_moves): on
    the host it names, or for "it" the host named before, else the one class the clause names (no host of it had that
    move: narrower than "that host did not", never wider). None where there is none, or one this reading cannot place."""
    from forge.rulebook.language.predicate import Atom, Not  # lazy: as in `claims`

    moves = denied_moves(clause)
    if not moves:
        return None
    parts = []
    for move in moves:
        named = hosts_in(move.who)
        if len(named) == 1:
            where: dict = {"host": named[0]}
        elif named:
            return None
        elif last is not None:
            where = {"host": last}
        elif len(classes_in(clause)) == 1 and not hosts_in(clause):
            where = {"host_class": classes_in(clause)[0]}
        elif not classes_in(clause) and not hosts_in(clause) and re.match(r"(?:that|the)\s+(?:host|box|machine)$", move.who, re.I):
            where = {"host_class": "any"}  # (r40m) "no action on that host": no host had it (narrower, never wider)
        else:
            return None
        # (r40m) "no decoy on it": none of the decoys, each verb of the catalogue
        verbs = [v for v in HOST_VERBS if v.startswith("Decoy")] if move.verb == "Decoy" else [move.verb]
        parts.extend(Not(Atom(**where, acted=verb, within=move.within)) for verb in verbs)
    return parts


# (r39m) "..., though only while no machine sits at root": a clause whose subject is no host at all speaks of every host, never of
# the one named before it (read as that host's, a rule about User1 held where another host was at Privileged)
_NO_HOST_AT_ALL = re.compile(r"\b(?:no|not\s+a\s+single|none\s+of\s+the)\s+(?:host|machine|box|server|node)s?\b", re.IGNORECASE)


def _unnamed_statements(clause: str, last: Optional[str], group: tuple[str, ...],
                        unresolved: Optional[list]) -> list:
    """The (host, state, negated) statements of a clause that names no host and no class but states a state: about
    each host of `group` ("when both are compromised"), else about `last`, the host named before it. A clause about
    an "it" this reading cannot place is appended to `unresolved` (if given), and states nothing."""
    if classes_in(clause) or _ALL_QUIET.search(clause):
        return []
    state, negated = _state_of(clause)
    if state == (None, None) and not negated:
        return []
    together = re.search(r"\b(?:both|all\s+of\s+them|each\s+of\s+them|they|them|either|any\s+of\s+them|one\s+of\s+them|"
                         r"whichever)\b",
                         clause, re.I)
    if together and len(group) > 1:
        return [(h, state, negated) for h in group]  # "when both are compromised"
    # (r40k: nor "some host sits at Privileged", "any machine is rooted", nor a phase of the attack, "once privilege
    # escalation is under way": the network's, not the host before)
    if last is not None and not _GENERAL_SUBJECT.search(clause) and not _NO_HOST_AT_ALL.search(clause) \
            and not _ANY_HOST_SAID.search(clause) and not phase_named(clause):
        return [(last, state, negated)]
    if unresolved is not None and re.search(r"\b(?:it|its|they|them|both|either)\b", clause, re.I) \
            and not _SOME_HOST.search(clause) and not _NOTHING.search(clause):
        unresolved.append(clause)  # "if it is compromised", said of one of several hosts
    return []


# Words that make a clause about several hosts hold of one of them: "Enterprise0 or Enterprise1", "either", "one of
# them", "whichever (one) is compromised" (each host by itself, not all at once).
# (r35m: in any case, "User2 OR User3")
# (r42m: or a slash between named hosts, a note's "U2/U3/U4 exploited": whichever of them is, as "U2, U3 or U4")
_ONE_OF = re.compile(r"\bor\b|\beither\b|\b(?:any|one)\s+of\s+them\b|\bwhichever\b|(?<=\d)\s*/\s*(?=[a-z])", re.IGNORECASE)


def _statement_parts(clause: str, statements: list) -> list:
    """What a clause's statements about named hosts claim: each host shows its state ("User0 is compromised") and
    not its negated one ("User0 is not being scanned", "User1 has user-level access but not root"); a bare host
    only where nothing is negated. Joined by "or" / "either": one of them."""
    from forge.rulebook.language.predicate import AllOf, AnyOf, Atom, Not  # lazy: beside this module
    groups = []  # per statement, what it claims of its host
    for host, state, negated in statements:
        atom = _either_state(clause, state, host) if negated is None else None
        atom = atom or _atom(Atom, state, host=host)
        groups.append(([atom] if isinstance(atom, AnyOf) or not atom.bare() or negated is None else [])
                      + ([Not(_negated_atom(Atom, negated, host=host))] if negated is not None else []))
    atoms = [a for group in groups for a in group]
    if _ONE_OF.search(clause) and len(atoms) > 1:
        # "if Enterprise0 or Enterprise1 is compromised"; one of the hosts with all that is said of it: "User1 or User2
        # owned but not rooted" is one of them owned and not rooted, never "User1 is not rooted" alone
        return [AnyOf(tuple(group[0] if len(group) == 1 else AllOf(tuple(group)) for group in groups if group))]
    return atoms


def _either_state(clause: str, state, host: str):
    """(r41g) An activity and a compromise said of one host with "or" between them ("should the box be under exploit or
    at root by now", "scanned or owned"): either, never both at once (read as one state, the host had to show both). None
    where the clause says no such pair."""
    from forge.rulebook.language.predicate import AnyOf, Atom  # lazy: beside this module

    activity, compromise = state
    if activity in (None, QUIET_ACTIVITY) or compromise in (None, QUIET_COMPROMISE):
        return None
    for found in re.finditer(r"\bor\b", clause, re.IGNORECASE):
        (left, _), (right, _) = _state_of(clause[:found.start()]), _state_of(clause[found.end():])
        if left == (activity, None) and right == (None, compromise) or left == (None, compromise) and right == (activity, None):
            return AnyOf((_atom(Atom, (activity, None), host=host), _atom(Atom, (None, compromise), host=host)))
    return None


def _with_class(clause: str, named: list, universal: bool) -> list:
    """A clause whose subject is a class of hosts and a named host ("a user host and Op_Server0 are both compromised",
    "if Op_Server0 or any enterprise host is exploited"): what it claims of the class beside what it claims of the host
    (it claimed the host alone); joined by "or" / "either", one of them; with "another" host of the class, one besides
    the named host (r39h: `_named_and_another`)."""
    from forge.rulebook.language.predicate import AnyOf  # lazy: beside this module

    if _OTHER.search(clause):
        named, of_class = _named_and_another(clause, named, universal)
    else:
        of_class = _general_parts(_HOST_NAMES.sub(" ", clause), universal)
    either = re.search(r"\bor\b|\beither\b", clause, re.IGNORECASE)
    if not of_class and either and all(getattr(p, "bare", lambda: False)() for p in named):
        of_class = _classes_shown(clause)  # (r42x) "a user host or Op_Server0", no state: some host of the class, shown
    if not of_class:
        return named
    if either:
        return [AnyOf(tuple(p for part in named for p in (part.parts if isinstance(part, AnyOf) else (part,))) + tuple(of_class))]
    return named + of_class


def _classes_shown(clause: str) -> list:
    """(r42x) The classes a clause names with no state, each as some host of it shown (a target, "a user host or
    Op_Server0": either; the class was dropped for the host alone)."""
    from forge.rulebook.language.predicate import Atom  # lazy: beside this module

    return [Atom(host_class=c) for c in classes_in(_HOST_NAMES.sub(" ", clause))]


def _named_and_another(clause: str, named: list, universal: bool) -> tuple[list, list]:
    """(r39h) A named host beside "another" host of a class, "User3 and at least one other user box are owned": the host in its state, and some host of the class besides it in that state (the class was left unread,
    and the reading of the host alone was called whole). The host's state unsaid ("User1 and any other user host show an
    exploit"), the state said of both. (what it claims of the host, what it claims of the others)"""
    host, of_class = hosts_in(clause)[0], _HOST_NAMES.sub(" ", clause)
    if all(getattr(p, "bare", lambda: False)() for p in named):
        named = [p.on(host) for p in _general_parts(of_class, universal) if getattr(p, "host_class", None)] or named
    return named, _general_parts(of_class, universal, besides=host)


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
_THE_OTHERS = re.compile(r"^\s*(?:and\s+)?(?:all\s+|both\s+)?(?:the\s+)?(?:other\s+(?:two|three|four|[2-4])|others|rest)"
                         r"(?:\s+of\s+them|\s+of\s+(?:the\s+)?(?P<of>(?:user|usr|enterprise|ent|op|ops|operational)[\s-]+(?:subnet|network|zone|side|"
                         r"hosts|box(?:es)?|machines|servers|srvs)))?\b"
                         r"(?:\s+(?:are|is|stay|remain|look|show|sit))?", re.IGNORECASE)


def _the_others_of_the_count(previous, clause: str):
    """(r45m) A clause about "the other two" / "the others" after a count that picks one host of those it counts over
    ("just one op box is owned and the other three are quiet"): for each host the count could pick,
    the clause's state said of each of the other hosts it counts over (read as any host, "some host clean" anywhere on
    the network was all it asked). None where the previous part is no such count or the clause names a class or host."""
    from forge.rulebook.language.predicate import AllOf, AnyOf, Atom  # lazy: beside this module

    found = _THE_OTHERS.match(clause)
    if found is None or classes_in(clause[found.end():]) or hosts_in(clause) or not isinstance(previous, AnyOf) \
            or not _counted_groups(previous, AllOf, Atom):
        return None
    picks = [[a.host for a in g.parts if isinstance(a, Atom) and a.host is not None] for g in previous.parts]
    if not all(len(p) == 1 for p in picks):
        return None
    pool = [p[0] for p in picks]
    if found["of"] and not all(h in HOST_CLASSES.get(next(iter(classes_in(class_in_full(found["of"]))), ""), ()) for h in pool):
        return None  # (r46m: the rest of another class than the one counted: no such reading)
    said = f"it is {clause[found.end():].strip()}"
    groups = []
    for group, (host,) in zip(previous.parts, picks):
        others = [claims(said, other) for other in pool if other != host]
        if not others or any(o is None or not isinstance(o, (Atom, AllOf)) for o in others):
            return None
        groups.append(AllOf((*group.parts, *others)))
    return AnyOf(tuple(groups))


def _others_than_picked(previous, clause: str, universal: bool):
    """A clause about "another" / "no other" host after one that picks a host of a class ("one user host is
    owned and another user box is being exploited"): for each host the first could be, that host in its state and
    the clause said of the hosts besides it. None where the part before picks no one host of a class (a count of two
    or more, a named host: read as before)."""
    from forge.rulebook.language.predicate import AllOf, AnyOf, Atom  # lazy: beside this module

    if isinstance(previous, Atom) and previous.host_class not in (None, "any") and previous.host is None:
        choices = [(previous.on(h), h) for h in previous.hosts()
                   if h.lower().startswith(previous.host_class.lower()[:2])]
    elif isinstance(previous, AnyOf) and _counted_groups(previous, AllOf, Atom) and all(
            len([a for a in g.parts if isinstance(a, Atom)]) == 1 for g in previous.parts):
        choices = [(g, next(a.host for a in g.parts if isinstance(a, Atom))) for g in previous.parts]
    else:
        return None
    if len(choices) < 2:
        return None
    groups = []
    for state, host in choices:
        said = _general_parts(clause, universal, besides=host)
        if not said:
            return None
        groups.append(AllOf((*(state.parts if isinstance(state, AllOf) else (state,)), *said)))
    return AnyOf(tuple(groups))


_ONE_HOST = re.compile(r"\b(?:a|an|one|some)\s+(?:[\w-]+\s+)?(?:host|box|machine|server|node|workstation|system)\b(?!s)",
                       re.IGNORECASE)
_TABLE_NO = re.compile(r"\bcompromised\s*[:=]?\s*no\b(?!\s+(?:host|hosts|machine|machines|box|boxes|server|servers|one)\b)",
                       re.IGNORECASE)


def _general_parts(clause: str, universal: bool, besides: Optional[str] = None) -> list:
    """What a clause that names no host claims: every host quiet ("no host shows any activity"), a named phase, or a
    state of the hosts of a class ("a user host is compromised": some; "no user host ...": none; "all user hosts
    ...": each, where `universal`; "two or more user hosts ...": that many). `besides`: the host the clause's "other"
    leaves out ("another host", "no other user host", "something else"): the claim is about the rest of the class."""
    from forge.rulebook.language.predicate import AllOf, AnyOf, Atom, Not, parse_predicate  # lazy: beside this module
    if besides is not None and re.match(r"\s*" + _NOTHING_ELSE_GOING_ON, clause, re.IGNORECASE):
        # ("User4 at Unknown, nothing else going on": every other host quiet, no activity and no compromise)
        return [_besides(Not(AnyOfQuiet()), besides, AllOf, AnyOf, Not, Atom)]
    if besides is not None:
        # ("no other machine shows any activity": every host but it quiet, the "other" taken out as in "another user host")
        rest = _OTHER.sub(" ", clause)
        parts = _general_parts(rest if _SOME_HOST.search(rest) or classes_in(clause) or _ALL_QUIET.search(rest)
                               else _OTHER.sub(" any host ", clause), universal)
        others = [_besides(p, besides, AllOf, AnyOf, Not, Atom) for p in parts]
        # "when other hosts are also compromised": the named host is, too
        also = [p.on(besides) for p in parts if isinstance(p, Atom) and p.host_class is not None] \
            if re.search(r"\b(?:also|too|as\s+well)\b", clause, re.IGNORECASE) else []
        return also + others
    if _ALL_QUIET.search(clause):
        # ("no host shows any compromise": none compromised, whatever is scanned; "no host shows any activity", both, or
        # neither, "no host shows anything", is the quiet network it always was: the documented reading of "active")
        if _NO_HOST_SAYS.search(clause) and _COMPROMISE_WORD.search(clause) and not _OTHER_THAN_COMPROMISE.search(clause):
            return [Not(Atom(host_class="any", compromise="any"))]
        return [Not(AnyOfQuiet())]
    phase = phase_named(clause)
    if phase is not None and not classes_in(clause):
        return [parse_predicate(phase_predicate(phase))]
    parts = []
    # (r36m: "a user box at Activity Scan, Compromised No" is the table's value of one host, no "no host ...": read as a
    # denial of the class it claimed that no host is both scanned and compromised, true where nothing is scanned at all)
    denial = _TABLE_NO.sub(" ", clause)
    none_of = (_NONE_OF.search(denial) or _NOTHING.search(denial)) and not _ITS_OWN_STATE_DENIED.search(clause)
    every = universal and not none_of and bool(_EVERY.search(clause))  # "all user hosts are compromised"
    count = _counted(clause)
    for cls in classes_in(clause) or (["any"] if _SOME_HOST.search(clause) or _NOTHING.search(clause) or count
                                       or _GENERAL_SUBJECT.search(clause) else []):
        state, negated = _state_of(_NOTHING.sub(" ", _NONE_OF.sub(" ", clause)) if none_of else clause)
        atom = _atom(Atom, state, host_class=cls)
        # ("the user hosts are quiet": each of them; "a user host with Activity None" is one of them)
        # (r36m: nor "a host at Unknown with activity None", "the analysed host ...": one host, not each host of the network)
        quiet_subnet = _SUBNET.search(clause) and QUIET_COMPROMISE in state or state[0] == QUIET_ACTIVITY \
            and not _ONE_OF_CLASS.search(clause) and not _ONE_HOST.search(clause)
        # (as people count the hosts of a class: "the enterprise servers" are Enterprise0-2, not the Defender that
        # sits in their subnet)
        named = [h for h in atom.hosts() if cls == "any" or h.lower().startswith(cls.lower()[:2])]
        if count is not None and not none_of and _ALERTS_LISTING.search(clause):
            parts.append(_of_count(atom, named, count, on=_listed))  # (r43m) "the alerts list three or more hosts"
        elif count is not None and not atom.bare() and not none_of and negated is None:
            parts.append(_of_count(atom, named, count))  # "three or more op boxes are owned"
        elif (every or universal and quiet_subnet and not none_of) and not atom.bare():  # each host of the class
            # ("the user subnet is clean": each of its hosts; "the user subnet is scanned": some host of it)
            parts.append(AllOf(tuple(atom.on(h) for h in named)))
        elif not atom.bare() and not none_of and negated is not None and not _excludes(atom, negated) \
                and _ONE_OF_CLASS_DENIED.search(clause):
            # ("a host at Unknown with no exploit showing": one host, at Unknown and without an exploit; not "some host at
            # Unknown, and no host anywhere with an exploit", which an analyst's one-host view can never tell)
            denied = _negated_atom(Atom, negated, host_class=cls)
            parts.append(AnyOf(tuple(AllOf((atom.on(h), Not(denied.on(h)))) for h in named)))
            continue
        elif not atom.bare():
            parts.append(Not(atom) if none_of else atom)
        if negated is not None and not _excludes(atom, negated):
            parts.append(Not(_negated_atom(Atom, negated, host_class=cls)))
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


def _excludes(atom, negated) -> bool:
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
_OTHER = re.compile(r"\b(?:an\s*other|others?(?!\s+than)|(?:some|any|no)thing\s+else|(?:a\s+)?second|the\s+rest(?:\s+of)?|"
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
_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "1": 1, "2": 2, "3": 3, "4": 4, "5": 5}
_SMALL_NUMBER = r"(?:one|two|three|four|five|[1-5])"
# (what a count is said of: "hosts", "user boxes", "of the user hosts", "compromised enterprise servers")
_COUNTED_HOSTS = (r"(?=\s+(?:of\s+(?:the\s+)?)?(?:(?:compromised|exploited|scanned|infected|privileged|rooted|active|owned|held)\s+)?"
                  r"(?:(?:user|usr|enterprise|ent|op|operational)[\s-]+)?(?:hosts?|machines?|box(?:es)?|servers?|srvs?|"
                  r"workstations?|nodes?|systems?)\b)")
_COUNT = re.compile(r"\b(?:(?:(?:only|just)\s+)?(?P<low>one|two|three|four|[1-4])\s+(?:or|to)\s+(?P<high>two|three|four|five|[2-5])"
                    rf"{_COUNTED_HOSTS}|"
                    rf"(?:exactly|only|just)\s+(?P<exact>two|three|four|[2-4]){_COUNTED_HOSTS}|"
                    rf"(?:at\s+most|up\s+to)\s+(?P<most>{_SMALL_NUMBER}){_COUNTED_HOSTS}|"
                    rf"(?:fewer|less)\s+than\s+(?P<fewer>two|three|four|five|[2-5]){_COUNTED_HOSTS}|"
                    r"all\s+(?:but|save|except(?:\s+for)?)\s+(?P<but>one|two|a\s+single|[12])|"
                    r"at\s+least\s+(?P<least>one|two|three|four|[1-4])|(?P<more>two|three|four|[2-4])\s+or\s+more|"
                    # "when two user hosts are compromised": at least that many
                    r"(?P<bare>two|three|four|[2-4])(?=\s+(?:(?:compromised|exploited|scanned|infected|privileged|rooted|active)\s+)?"
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
    return 1 if word.lower().startswith("a") else _NUMBERS[word.lower()]


def _counted(clause: str) -> Optional[Count]:
    """The count a condition states of hosts ("at least two user hosts", "exactly one", "one or two"), else None. A
    bound above ("at most two", "fewer than three") counts hosts of which it speaks: one at least (a rule about "at most
    two compromised hosts" speaks of the compromised ones; none is not the case it is about)."""
    found = _COUNT.search(clause)
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


def _of_count(atom, hosts: list[str], count: Count, on=None):
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
_ALERTS_LISTING = re.compile(r"\balerts?\s+(?:lists?|listing|names?|naming|covers?|covering|mentions?|mentioning)\b|"
                             r"\b(?:in|on)\s+the\s+alerts?(?:\s+list)?\b|\b(?:listed|named)\s+(?:in|by)\s+the\s+alerts?\b",
                             re.IGNORECASE)


def _listed(host: str):
    """A host the alerts list: its row is not the quiet one (Activity None, Compromised No). (Said as a denial, no
    reading of "compromised" for sure, `confirmed`, takes a row at Unknown out of the count: it is listed.)"""
    from forge.rulebook.language.predicate import Atom, Not  # lazy: as in `claims`

    return Not(Atom(host=host, activity=QUIET_ACTIVITY, compromise=QUIET_COMPROMISE))


# Where a condition's clauses part (r40h: not at the dot of a file name the evidence lists, "escalate.exe": cut there, its
# first half read as the row's level, "escalate" as a host at root)
_CLAUSE_BREAK = re.compile(r";|\.(?!(?:sh|exe|py|bat|ps1)\b)|\b(?:but|while|whereas)\b")
_RUN_OF_LEVEL = re.compile(r"^\s*of\s+(?=(?:user|privileged|root|admin|unknown)\b(?![\s-]*(?:hosts?|box(?:es)?|machines?|level\s+hosts?)\b))",
                           re.IGNORECASE)


def _history_claim(clause: str, last: Optional[str], group: tuple[str, ...] = ()):
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
    elif _SOME_HOST.search(rest) or re.search(r"\b(?:a|any)\s+(?:\w+\s+)?(?:host|machine|box|server)\b", rest, re.I):
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
    try:
        return parse_predicate({**where, **{k: v for k, v in values.items() if v is not None}, **history})
    except PredicateError:
        return None


def _history_unread(condition: str) -> bool:
    """Whether a clause of the condition speaks of history `_history_claim` cannot read (the host aside)."""
    for clause in _CLAUSE_BREAK.split(condition or ""):
        clause = _NOT_YET.sub("", without_denied_moves(clause))  # (r39m: `_denied_move_parts`, `_history_parts` read those)
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


def _negated_atom(atom_type, negated, **where):
    field, value = negated
    return atom_type(**where, **{field: "any" if value == SOME else value})


def _atom(atom_type, state, **where):
    activity, compromise = state
    return atom_type(**where, activity=None if activity is None else ("any" if activity == SOME else activity),
                     compromise=None if compromise is None else ("any" if compromise == SOME else compromise))


# Words a condition may use that the product's reading of it accounts for (hosts and classes are tokens).
_PLACED = frozenset("""a an the any some every each all its it it's that which this those these is are was were be been being
    has have had gets get got getting becomes become became shows show showing shown showed still so and or of on in at to
    for from by with as when whenever if once while during until unless moment soon now then there here host hosts
    machine machines box boxes server servers node nodes system systems one ones compromised compromise compromises
    exploited exploit exploits exploiting scanned scan scans scanning probe probes privileged privilege privileges root rooted admin
    administrator level user enterprise operational op ot workstation workstations desktop desktops laptop laptops
    subnet network quiet clean idle calm untouched uncompromised no not none nothing never without except only yet but either neither nor
    activity active suspicious alert alerts sign signs attacker attackers red access rights foothold footholds owned infected
    breached breach hacked pwned infiltrated taken over under attack attacked probed probing recon reconnaissance
    exploitation escalation impact lateral movement phase stage way underway ongoing going happening started begun initial
    status state unknown system going on shows anything everything anywhere somewhere at least long right away first until till
    before intrusion infection hit popped session shell reverse lands landed land gets got into alarm alarms anomaly
    anomalous noisy raises raised fires fired look looks looking signs reach reaches reached attack both either they
    them also too well you see sees saw seen notice notices noticed spot spots spotted find finds found detect detects
    detected observe observes observed turn turns turned up appear appears appeared case should provided
    real actual genuine confirmed evidence proof trace traces indication indications far currently presently
    other others another else second rest just agent read reads reading turns turned goes went drops dropped falls fell flips flipped
    immediately directly already progress sitting sits sit sat standing stands
    actually really truly indeed definitely genuinely whichever specifically particular particularly held
    say says saying owns owning table row rows print prints printed printing meaning namely""".split())  # (r44m: "a scan in its table": its row, as ever)
# (the last lines: words that say a state is shown, as in "without evidence of a real compromise", or that it is
# shown now, "so far", "already"; the hosts other than the one named, `_OTHER`; a scope singled out, "for Enterprise2
# specifically", "for User1 in particular", which is that host and no more; r40h: "held", the attacker's hold as situation.py reads
# it, "while Enterprise2 is held"; r44h: "somewhere", as "anywhere": some host, which `_GENERAL_SUBJECT` reads, "probed
# somewhere while no box anywhere is held"; left unplaced, the reading was partial and its denial of any compromise one no
# row showed false, so the rule fired where the other hosts were not shown)


# Two states joined by "or" ("Compromised User or Compromised Privileged"): claims read one of them.
# (not the "or" of a count: "a probe plus three or more servers hacked" states no two states as one)
_EITHER_STATE = re.compile(r"\b(?:compromis\w*|exploit\w*|scan\w*|privileged|root\w*|user[- ]level|activity)\b[^.;,]{0,30}\bor\b(?!\s+(?:more|fewer|less)\b)"
                           r"[^.;,]{0,30}\b(?:compromis\w*|exploit\w*|scan\w*|privileged|root\w*|user[- ]level|activity|unknown)\b", re.I)


# A host's name as a rule writes it ("User1", "op server 0", "Defender").
_HOST_NAMES = re.compile(r"\b(?:user|enterprise)[\s_-]?\d\b|\bop[\s_-]?(?:host|server)[\s_-]?\d\b|\bdefender\b", re.IGNORECASE)


# An activity said to be running ("an exploit is running", "scans running"): "running" says it is under way, no more.
_ACTIVITY_RUNNING = re.compile(r"\b((?:exploit|exploits|exploitation|scan|scans|scanning|probe|probes|attack|attacks)"
                               r"(?:\s+(?:is|are|was|were))?)\s+(?:still\s+)?running\b", re.IGNORECASE)

# "rather than" / "instead of" between a user level and a higher one: "user level rather than at root"
_USER_LEVEL_OVER_ROOT = re.compile(r"(?<=\buser[- ](?:level|shell))\s+(?:rather\s+than|instead\s+of)(?=\s+(?:at\s+)?(?:root|admin\w*|"
                                   r"privileged|system[- ]level)\b)|(?<=\buser[- ]access)\s+(?:rather\s+than|instead\s+of)(?=\s+"
                                   r"(?:at\s+)?(?:root|admin\w*|privileged|system[- ]level)\b)", re.IGNORECASE)


# "instead" (not "instead of") in a case's condition: that the case is the alternative to the one before (r37m)
_ALTERNATIVE_CASE = re.compile(r"\binstead\b(?!\s+of\b)", re.IGNORECASE)


# "other than" before the host it leaves out ("every ent server other than Enterprise1"): an exception, as "except" is
_OTHER_THAN = re.compile(r"\bother\s+than(?=\s+(?P<first>[\w-]+))", re.IGNORECASE)


def _other_than_as_except(condition: str) -> str:
    """`condition` with each "other than" that a host name follows written "except" (`claims` reads that exception)."""
    return _OTHER_THAN.sub(lambda m: "except" if hosts_in(m["first"]) else m.group(0), condition)


# (r40m) The context's lines of past steps named as what tells the history: "the recent steps show (that)", "the history says".
_HISTORY_SHOWS = re.compile(r"\b(?:the\s+)?(?:(?:recent|last|past|previous)\s+steps|(?:step\s+|host\s+)?history(?:\s+lines)?)\s+"
                            r"(?:show|shows|say|says|list|lists|tell|tells)\b(?:\s+that\b)?", re.IGNORECASE)


_CASE_APART = re.compile(r"\b(?:is|are)\s+(?:(?:a|an)\s+(?:different|separate|other|special)\s+(?:story|matter|case|thing)|"
                         r"another\s+(?:story|matter|case|thing)|(?:a\s+)?(?:case|matter)s?\s+of\s+(?:its|their)\s+own)\b",
                         re.IGNORECASE)


def unplaced(condition: str) -> list[str]:
    """The words of a condition the product's reading does not account for ("if User3 is quarantined"): where
    there are any, what it read of the condition is not the whole of it."""
    # (every name of a host the reader knows: "Enterprise two", "E2" as well as "Enterprise2")
    # ("user level rather than at root": the level the reading places is that one, so the words denying the higher
    # one in its favour say nothing more)
    # (r41h: "however many times", "however often" mark the condition as "each time" does; read first, before its "many"
    # is taken for a count)
    condition = re.sub(r"\b(?:however|no\s+matter\s+how)\s+(?:many\s+times|often)\b", " when ", condition or "", flags=re.IGNORECASE)
    # (r41h: "<situation> is a different story (another matter, a case of its own)": it sets the situation apart from the
    # rule before, and says nothing more of it)
    condition = _CASE_APART.sub(" ", condition)
    # (r41h: "outside the op subnet", "unlike a usr box": the class set apart, which `_outside_denied` reads)
    condition = membership_denied_away(condition)
    condition = _HOSTS_ROW.sub(" shows ", _USER_LEVEL_OVER_ROOT.sub(" ", _plus_as_or_more(_counts_said_plainly(condition))))
    condition = _other_than_as_except(condition)
    spared = re.sub(r"\buser[- ]level\b|\bsystem[- ]level\b", " ", without_host_names(_HOST_NAMES.sub(" ", _NEWLY_GLOSS.sub(r"\1", condition))),
                    flags=re.IGNORECASE)
    # a count of hosts (`claims` reads it: _counted) and "the next time", which marks the condition; "at the same time"
    # (as "at once": the states are read of one context)
    # (r45m: a document's label before the case it is for, "Runbook for any op box that ...", "the drill for ...": the
    # document's name, no state; and "on its record", the host's row of the table)
    spared = re.sub(r"\b(?:check\s*list|drill|runbook|playbook|procedure|cheat\s*sheet)s?\b|\b(?:things?|steps?)\s+to\s+(?:check|do|follow|take|look\s+at)\b|"
                    r"\bin\s+(?:this\s+|that\s+)?order\b(?!\s+to\b)", " ", spared, flags=re.IGNORECASE)
    spared = re.sub(r"\bon\s+(?:its|the|their|that\s+host's)\s+(?:record|row|table\s+row)\b", " on it ", spared, flags=re.IGNORECASE)
    # (r45m: "the other two", the hosts a count leaves over, `_the_others_of_the_count`)
    spared = re.sub(r"\b(?:the\s+)?next\s+time\b|\bat\s+the\s+same\s+time\b|\bsimultaneously\b|\bconcurrently\b|"
                    r"(?<=\bother\s)(?:two|three|four|[2-4])\b", " ", _COUNT.sub(" ", spared), flags=re.IGNORECASE)
    spared = without_class_names(spared)  # (and every word for a class it knows: "usr box", "ent srv")
    # (r37m: "instead" closing a branch's condition, "should Op_Host1 be at root instead", marks the case as the alternative
    # to the one before; it says nothing of the state. "instead of" still denies what follows it.)
    spared = _ALTERNATIVE_CASE.sub(" ", spared)
    # ("no exploit still running on User2", "a scan running against User2": the activity under way, which the reading places)
    spared = _ACTIVITY_RUNNING.sub(r"\1", spared)
    # ("a host whose row reads Unknown": the host's row of the table is its state, which the reading places)
    # (a note's "row says E0 Unknown", with no article: the row that says it is that host's, and "says" is "shows")
    # (r46m: and its line of the alerts, "a user host's alert line reads ...", "its line says ...")
    spared = re.sub(r"(?<!\bin\sa\s)\b(?:(?:whose|its|their|the)\s+)?(?:table\s+|alert\s+)?(?:rows?|lines?)\s+(?:says?|reads?|shows?|prints?|is|are|sits?|stands?)\b",
                    " it shows ", spared, flags=re.IGNORECASE)
    # (r46m: a value quoted as the table prints it, "reads 'Compromised User'": the quotes say nothing more)
    spared = re.sub(r"(?<![a-z])'|'(?![a-z])", " ", spared, flags=re.IGNORECASE)
    # (r40m: "the recent steps show we removed it": the context's history lines as the source of what the history says)
    spared = _HISTORY_SHOWS.sub(" ", spared)
    # (a number left once hosts and counts are read is a port, a score, a threshold: something the reading does not place)
    return [w for w in re.findall(r"[a-z][a-z'-]+|\b\d+\b", spared.lower()) if w not in _PLACED and not w.endswith("'s")
            and not ("-" in w and all(part in _PLACED for part in w.split("-") if part))]  # "admin-level"


def complete_claims(text: str, found) -> bool:
    """Whether `claims` read the whole of a rule's conditions: every negation placed, no word it does not account
    for, and no kind of fact it cannot judge (history, rewards, ...). Judged on claims that are not the whole of
    the condition, a rule would be wider than its text."""
    text = narrower_cases_away(text)  # (r44m: a later case that only picks another move is none of its conditions)
    words = read_wording(text)
    unresolved: list = []
    _condition_claims(words, unresolved)
    # (a class heading whose only negation is the hosts it excepts, "Op hosts other than Op_Server0", is read without
    # them: `_class_heading`)
    headings = {c.text for c in words.conditions if _class_heading(c.text, words) is not None}
    # (r45m: nor "until step 10", a window of steps and nothing more: its "until" is the window's bound, its EpisodeStep)
    negated = [c for c in words.negated_conditions  # ("unless it is User0" is the exception: no claim at all)
               if not (c.hosts and set(c.hosts) <= set(words.excepted) and not c.classes) and c.text not in headings
               and not _exception_left_out(c, words, found) and not _window_alone(c.text)]
    # (r37m: in a note of cases, each case's negation is placed in its own alternative: `_case_denials_placed`)
    cases = _case_denials_placed(words, found, negated) if negated else None
    # (a host singled out by words the reading does not name, "the second enterprise server", is left out of it)
    return not unresolved and cases is not False and reads_whole("; ".join(_without_exception(c.text) if c.text in headings else c.text
                                                                           for c in words.conditions), found,
                                                                 negated=bool(negated) and cases is None, resolved=True) \
        and not conditions_left_out(text) and not unnamed_hosts(f"{words.situation} {words.instruction}") \
        and not _hosts_unclaimed(words, found) and not _order_states_unread(words, found)


def _case_denials_placed(words, found, negated) -> Optional[bool]:
    """For a text whose conditions are cases, each heading its own order (`_branches`), claimed as one alternative
    each: whether every case that negates or restricts has a denial in its own alternative ("E0 scan only -> decoy it;
    E0 under exploit -> Remove it": the "only" of the first case is its Compromised No, and the second case denies
    nothing). None where the text is no such note (the negations are then looked for in the claims as a whole)."""
    from forge.rulebook.language.predicate import AllOf, AnyOf  # lazy: as in `claims`

    found_cases = _branches(words)
    if not found_cases or found is None:
        return None
    groups = found_cases[0]
    either = next((p for p in (found.parts if isinstance(found, AllOf) else (found,))
                   if isinstance(p, AnyOf) and len(p.parts) == len(groups)), None)
    if either is None:
        return None
    denying = {c.text for c in negated}
    return all(_denies_somewhere(alternative) for group, alternative in zip(groups, either.parts)
               if any(words.conditions[i].text in denying for i in group))


def _denies_somewhere(p) -> bool:
    """Whether claims hold a negation or a quiet value anywhere in them."""
    from forge.rulebook.language.predicate import Atom, Not  # lazy: as in `claims`

    if isinstance(p, Not) or isinstance(p, Atom) and (p.compromise == QUIET_COMPROMISE or p.activity == QUIET_ACTIVITY):
        return True
    return any(_denies_somewhere(q) for q in getattr(p, "parts", ()))


_EXCEPTING_WORD = re.compile(r"^(?:except(?:\s+for)?|other\s+than|apart\s+from|aside\s+from|excluding|save\s+for|barring|but\s+not)$",
                             re.IGNORECASE)


def _exception_left_out(condition, words, found) -> bool:
    """Whether a condition's only restriction is the hosts it excepts, and the claims leave every one of them out ("Unknown
    on any enterprise host except Enterprise1", claimed of Enterprise0 and Enterprise2: r32m): its negation is placed, by what is not claimed."""
    from forge.rulebook.language.predicate import positive_hosts  # lazy: as in `claims`

    return bool(condition.negations and condition.hosts) and all(_EXCEPTING_WORD.match(n) for n in condition.negations) \
        and set(condition.hosts) <= set(words.excepted) and not set(condition.hosts) & positive_hosts(found)


# The pieces of an order read with no condition apart from it: "OpS0 quiet + no usr host owned -> Sleep is fine",
# "E0: clean at prev step, now owned -> plan Remove E0"
_ORDER_PIECES = re.compile(r"[,;:+?!]|->|\band\b|\bthen\b", re.IGNORECASE)


def _order_states_unread(words, found) -> bool:
    """Whether a piece of a rule's order outside its conditions, one that states a state and names no verb ("E0: clean
    at prev step, now owned -> plan Remove E0": the heading "E0" read as the condition, or nothing read as one), says
    what its claims do not: a state the reading cannot place whole (a history, "clean at prev step"), or one the claims
    do not imply ("owned now" beside claims that only ask E0 be shown). Such claims were read from the rest of the
    text alone, and would make the rule wider than its text."""
    from forge.rulebook.language.predicate import implies  # lazy: as in `claims`

    if found is None or ":" not in words.instruction:
        return False
    # (only the situation a heading states before its order, "<host>: <states>: <order>", or "<states> -> <order>")
    rest = words.instruction.rsplit(":", 1)[0]
    for c in words.conditions:
        rest = rest.replace(c.text, " ")
    subject = subject_of(words)
    for piece in _ORDER_PIECES.split(named_in_full(rest)):
        if not state_words_in(piece) or verbs_in(piece):
            continue
        said = claims(piece, subject)
        if said is None or not reads_whole(piece, said, subject=subject) or not implies(found, said):
            return True
    return False


def _hosts_unclaimed(words, found) -> bool:
    """Whether a host the conditions name (not one they except) is in none of the claims' atoms: what they said of it
    was not read ("no ent srv compromised + OpS0 quiet" read with OpS0 left out claimed the enterprise servers alone),
    so the claims are not the whole of the condition."""
    from forge.rulebook.language.predicate import atoms_of  # lazy: as in `claims`

    named = {h for c in words.conditions for h in c.hosts} - set(words.excepted)
    if not words.conditions:
        # no condition read apart from the order ("OpS0 quiet + no usr host owned -> Sleep is fine"): the claims are read
        # from the order's own words, and a host it names that none of them holds was dropped from that reading
        # (a host the order only acts on, "... then DecoyTomcat on Ent1", is its target: only one with a state said in
        # its own piece of the order counts)
        named = {h for piece in _ORDER_PIECES.split(words.instruction) if state_words_in(piece)
                 for h in hosts_in(piece)} - set(words.excepted) - set(words.contrasted)
    claimed = {h for atom, _ in atoms_of(found) if atom.host is not None for h in atom.hosts()}
    return bool(named - claimed)


def reads_whole(condition: str, found, *, negated: Optional[bool] = None, subject: Optional[str] = None,
                resolved: bool = False) -> bool:
    """Whether claims `found` are the whole of `condition` (see `complete_claims`); `negated`: whether it negates
    or restricts (None: read from its words); `subject`: the host its "it" stands for (`resolved`: the caller has
    tied every "it" already)."""
    from forge.rulebook.language.predicate import AllOf, AnyOf, Atom, Not  # lazy: as in `claims`

    if found is None:
        return False
    condition = rating_away(moves_said_after(condition))  # (r39m) a rating of the one host named: judged.py reads it, the gate judges it
    condition = hosts_compared(sequenced_away(condition))[1]  # (r43m) two named hosts' levels compared: read by `claims`
    condition = classes_counts_compared(condition)[1]  # (r46m) and two classes' counts
    condition = _ALERTS_LISTING.sub(" in the alerts ", condition)  # (r43m) "the alerts list N hosts": read by `_listed`
    if episode_claims(condition or "") and set(episode_claims(condition)) <= set(found.parts if isinstance(found, AllOf) else (found,)):
        condition = without_episode_claims(condition)  # (r36m) the windows of steps the claims hold are read
    condition = _NEWLY_GLOSS.sub(r"\1", condition or "")  # (the gloss of "newly" says what it says)
    clauses = _CLAUSE_BREAK.split(condition)
    # (two states joined by "or" are read as one of them, unless every host is said quiet: "no host shows any activity
    # or compromise")
    if any(unplaced(spelled_out(without_history(c) if "history" in facts_needed(c) else c)) for c in clauses) \
            or facts_needed(condition) - {"history"} or _history_unread(condition) \
            or _EITHER_STATE.search(without_either_value(condition)) and not _ALL_QUIET.search(condition) \
            or any(_state_unread(c, subject) or _piece_unread(c, subject) for c in clauses):
        return False
    unresolved: list = []
    claims(condition, subject, unresolved)
    if unresolved and not resolved:
        return False
    if not (bool(negations_in(condition)) if negated is None else negated):
        return True
    parts = found.parts if isinstance(found, AllOf) else (found,)
    # (a class's host that shows one state and denies another, "a user host exploited, not rooted", or one of a few
    # hosts, "whichever of E1 and E2 is probed, no more than that": each of its alternatives places the denial)
    parts = tuple(q for p in parts for q in ([p] if not isinstance(p, AnyOf) or not all(
        _denial_placed(a) for a in p.parts) else [Not(p)]))
    return any(isinstance(p, Not) or isinstance(p, Atom) and QUIET_COMPROMISE == p.compromise
               or isinstance(p, Atom) and p.activity == QUIET_ACTIVITY
               # a whole subnet said quiet, its hosts each quiet ("the user subnet is quiet and ..."): a group of its own
               or isinstance(p, AllOf) and all(_denial_placed(q) for q in p.parts)
               # a history of absence: clean before ("newly"), unchanged, not changed by an action
               or isinstance(p, Atom) and (p.newly_compromised is not None or p.unchanged_for is not None
                                           or False in (p.changed, p.scan_before_exploit)) for p in parts)


def _denial_placed(alternative) -> bool:
    """Whether one alternative of claims places a denial: a negation, or a quiet value (Compromised No, Activity None),
    in itself ("User2 at a scan and no compromise") or in one of its parts."""
    from forge.rulebook.language.predicate import AllOf, Atom, Not  # lazy: as in `claims`

    def quiet(q) -> bool:
        return isinstance(q, Not) or isinstance(q, Atom) and (q.compromise == QUIET_COMPROMISE or q.activity == QUIET_ACTIVITY)
    return quiet(alternative) or isinstance(alternative, AllOf) and any(quiet(q) for q in alternative.parts)


# Words that say how a host stands (a state, a stage of the attack). Every one is a placed word (_PLACED): a clause
# that has one and is read as no state at all ("the context shows the host") was not read, whatever its words are.
_STATE_SPOKEN = re.compile(r"\b(?:compromis\w*|exploit\w*|scan\w*|privilege\w*|root\w*|admin\w*|hit|popped|owned|infected|"
                           r"breach\w*|hacked|pwned|infiltrated|taken\s+over|attacked|under\s+attack|probed|probing|recon\w*|"
                           r"escalation|impact|lateral|phase|stage|quiet|clean|idle|calm|active|activity|alerts?|alarms?|"
                           r"suspicious|footholds?|access|shell|session|intrusion|infection|anomal\w*|noisy|unknown)\b",
                           re.IGNORECASE)


def _state_unread(clause: str, subject: Optional[str] = None) -> bool:
    """Whether a clause speaks of a state (_STATE_SPOKEN) that `claims` reads as none: only bare hosts."""
    from forge.rulebook.language.predicate import atoms_of  # lazy: as in `claims`

    if not _STATE_SPOKEN.search(clause):
        return False
    found = claims(named_in_full(clause), subject)  # (a host in shorthand, "OpS0 @ Unknown", is a host all the same)
    if found is None:
        return False
    atoms = [atom for atom, _ in atoms_of(found)]
    return all(atom.bare() for atom in atoms) or _level_unread(clause, atoms)


_DENIAL_FIRST = re.compile(r"\s*(?:no|not|never|nothing|none|without)\b", re.IGNORECASE)


def _piece_unread(clause: str, subject: Optional[str] = None) -> bool:
    """Whether a piece of a clause (as `claims` splits it: "Scan seen, nothing compromised yet") speaks of a state, is
    placed nowhere on its own and adds nothing to what the clause claims: read without it, the clause claims the same
    ("Scan seen" placed nowhere, only "nothing compromised" read), so the reading is not the whole of it."""
    pieces = [p for p in _NEW_SUBJECT.split(spelled_out(clause)) if p and p.strip()]
    if len(pieces) < 2 or "history" in facts_needed(clause):
        return False
    found = claims(clause, subject)
    if found is None:
        return False  # (nothing placed here at all, an "it" this call cannot tie: no piece to tell apart)
    # (a piece read on its own that only restates another, "nothing happening, no host showing activity", is read; so
    # is a denial another piece implies, "it only shows a scan and no compromise")
    return any(_STATE_SPOKEN.search(piece) and not _DENIAL_FIRST.match(piece) and claims(piece, subject) is None
               and claims(" and ".join(pieces[:i] + pieces[i + 1:]), subject) == found for i, piece in enumerate(pieces))


# Words that name one compromise level of the table. A clause that says one, read as no atom at that level, was read
# wider than its words ("a host that has shown Unknown for four steps" read as any compromise held for four steps).
_LEVEL_SPOKEN = (
    (re.compile(r"\bunknown\b", re.IGNORECASE), "Unknown"),
    (re.compile(r"\bprivileged\b|\broot(?:ed)?\b|\badmin(?:istrator)?\b|\bsystem[- ]level\b", re.IGNORECASE), "Privileged"),
    (re.compile(r"\buser[- ]level\b", re.IGNORECASE), "User"),
)


def _level_unread(clause: str, atoms) -> bool:
    """Whether the clause names a compromise level (_LEVEL_SPOKEN) that no atom of its reading holds, the reading
    placing no level of its own either ("at user level (not root)" read as User is read: it excludes root)."""
    levels = {atom.compromise for atom in atoms}
    if levels - {None, "any"}:
        return False
    # (two levels joined by "or", "at user level or root", are either: read as any compromise; (r46m) so is a level "or
    # above", `level_or_above_said`)
    clause = level_or_above_said(clause)
    return any(pattern.search(without_either_value(clause)) and level not in levels for pattern, level in _LEVEL_SPOKEN)


_REASON_OR_STORY = re.compile(
    r"^\s*(?:because|since(?!\s+(?:before|then|earlier|the\s+(?:last|previous|prior|start|beginning|first)|step|last|it\s+(?:was|got|became)))|as\b|so\s+that|so\b|in\s+order\s+to|to\s+(?:avoid|prevent|stop|keep|make\s+sure|save)|"
    r"otherwise|lesson|the\s+lesson|learn[te]d|last\s+time|earlier|that\s+way|this\s+(?:way|cost|happened)|"
    r"which|it\s+(?:is|was)\s+(?:the|a|our|their)\b|(?:i|we|my|our)\b)", re.IGNORECASE)
_RESTATED = frozenset("""a an the any some every each all its it it's that this those these is are was were be been being
    has have had gets get got becomes become shows show showing shown showed still so and or of on in at to for from by
    with as when whenever if once while moment soon immediately right away now then there host hosts machine machines
    box boxes server servers one sign signs kind attacker red compromised compromise compromises exploited exploit
    exploits exploiting scanned scan scans scanning probed probing breached breach infected hacked owned attacked
    activity active alert alerts privileged privilege root rooted admin user-level level user enterprise operational
    op workstation workstations quiet clean no not up under way underway ongoing progress going happening started
    begun begins starts phase stage only yet nothing none never without but""".split())


_LEFT_ALONE = re.compile(r"^(?:leave|keep|stay|hands)\s+(?:it\s+|them\s+)?(?:out|alone|away|off|be)(?:\s+of\s+(?:it|this|that|the\s+plan))?$",
                         re.IGNORECASE)


# (r34m) A rest that tells what another branch of a decision tree or checklist does ("second branch (probed only): a
# decoy instead", "branch 3: Analyse it", "user-level branch: Remove it rather than Restore"): the predicate holds the
# branches' conditions, and the rest says what is done in one of them, never when the rule applies. Read as a guard it
# could never be judged, and the rule was silent everywhere. (A rest that says which host the move is for, "target: the
# clean one", is still read as a guard: a predicate written "compromise any" for "owned" would otherwise speak where a
# host is only at Unknown.)
# (r39m: and another case, "case 2: an op box under exploit -> Restore", "other cases: ...", as a note of cases labels it)
_OTHER_BRANCH = re.compile(r"^\s*(?!(?:just\s+)?in\s+case\b)(?:[\w-]+\s+){0,2}(?:branch|case|cases)(?:\s+\d+)?\s*(?:\([^)]*\)\s*)?:", re.IGNORECASE)


def _order_words_alone(rest: str, source: str) -> bool:
    """(r45m) Whether a rest is made only of words of its text's order, outside its conditions, and states nothing ("you
    plan" of "... you plan a Remove of User4 yourself"): who makes the move or how, no condition of it."""
    words = read_wording(source)
    order = order_without_conditions(words.instruction, words.conditions).lower()
    said = re.findall(r"[a-z][a-z'-]*", rest.lower())
    return bool(said) and not _STATE_SPOKEN.search(rest) and not negations_in(rest) and not hosts_in(rest) \
        and not classes_in(rest) and all(re.search(rf"\b{re.escape(w)}\b", order) for w in said)


def guard_rest(rest: str, when=None, source: str = "") -> str:
    """The part of an `unexpressed` rest that is a condition and so guards ("" if it is none): a rest that
    speaks of a kind of fact (history, rewards, ...) is a condition; a justification or a story never is (nor a
    rest whose words all come from the story or justification of the rule's `source` text, none from its
    instruction: "Compromised workstations spread the attack. Restore any ..." listed as "spread attack"), and
    neither is a restatement of the predicate `when` (what the rest claims, read whole, the predicate already
    implies: "the moment it is compromised"), nor, where the rest claims nothing this reading can place, one made
    only of the words of hosts and states."""
    text = " ".join((rest or "").split())
    if not text or source and _outside_instruction(text, source):
        return ""
    if _other_branches(text):
        return ""  # (r34m) another branch's move: never when the rule applies
    if source and when is not None and _said_whole(source, when):
        # (r39m: before the kinds of fact: a rest that speaks of history, "next three steps", adds nothing where the product
        # reads the whole condition, its history too, and the predicate implies it; kept, an unreadable rest silenced the rule)
        return ""
    if when is not None and _history_restated(text, when):
        return ""  # (r46m) "clean previous step" beside a predicate that asks a fresh compromise: said already
    if facts_needed(text):
        return text
    if _another_case_order(text):
        return ""  # (r37m) what is done in another case: never when the rule applies
    if source and _said_aside(text, source):
        return ""
    if _REASON_OR_STORY.match(text) or read_wording(text).gives_order is False and _STORYLIKE.search(text):
        return ""
    if _LEFT_ALONE.match(text):
        return ""  # the order itself, "leave out", "leave alone": what the move is, not when
    if source and _order_words_alone(text, source):
        return ""  # (r45m) words of the order itself, "you plan", "yourself": who makes the move, not when
    if verbs_in(text) and _state_of(text) == ((None, None), None) and not hosts_in(text) and not classes_in(text) \
            and not negations_in(text) and not re.search(r"\b(?:when|whenever|if|while|once|after|until|unless)\b", text, re.I):
        return ""  # about the move, not when it applies: "Remove is as good as Restore here", "any Decoy verb"
    found = _rest_claims(text, when)
    if found is not None:
        from forge.rulebook.language.predicate import implies  # lazy: as in `claims`

        return "" if when is not None and implies(when, found) else text
    words = [w for w in re.findall(r"[a-z][a-z'-]*", text.lower()) if not re.fullmatch(r"(?:user|enterprise|op_host|op_server)\d", w)]
    if all(w in _RESTATED for w in words):
        return ""
    return text


def _history_restated(rest: str, when) -> bool:
    """(r46m) Whether a rest says only a history the predicate already asks, in the same words' keys ("clean previous
    step" beside `newly_compromised: true`): no guard of its own. Read as one, a rest with no host for its history was no
    claim this reading could place, and the rule was silent."""
    from forge.rulebook.language.predicate import atoms_of  # lazy: as in `claims`

    said = history_conditions(rest)
    if not said or unplaced(without_history(rest)) or negations_in(without_history(rest)):
        return False
    # (r46a) and of the predicate's own host or class: "Op_Server0 was clean one turn before" beside a fresh
    # compromise of User1 is another host's history, a guard of its own (dropped, the rule spoke whatever that host did);
    # so is one said of every host of a class ("every op host clean last turn")
    hosts, classes = set(hosts_in(rest)), set(classes_in(class_in_full(rest)))
    if _EVERY_OF.search(rest):
        return False
    return any(not negated and all(getattr(atom, key, None) == value for key, value in said.items())
               and (not hosts or atom.host in hosts) and (not classes or atom.host_class in classes or
                                                          any(atom.host in HOST_CLASSES.get(c, ()) for c in classes))
               for atom, negated in atoms_of(when))


_EVERY_OF = re.compile(r"\b(?:every|each|all|both|none|any\s+other|another|other)\b", re.IGNORECASE)


def _other_branches(rest: str) -> bool:
    """Whether a rest is a list of other branches, each labelled, or one label before the list (r39g: "other cases: a
    scan -> a decoy; a root -> Restore" lists under its one label a case and its move per part; read as a guard, the
    unlabelled parts after the first kept the rule silent in its own case)."""
    parts = [part for part in rest.split(";") if part.strip()]
    if not parts or not _OTHER_BRANCH.match(parts[0]):
        return False
    return all(_OTHER_BRANCH.match(part) or _CASE_AND_MOVE.match(part) and verbs_in(_CASE_AND_MOVE.match(part)["move"])
               for part in parts[1:])


# one case and its move after an arrow or a colon, "root -> Restore", "a probe: an Analyse"
_CASE_AND_MOVE = re.compile(r"^\s*(?P<case>[^:>]+?)\s*(?:-+>|=>|\u2192|:)\s*(?P<move>.+)$")


def _another_case_order(rest: str) -> bool:
    """Whether a rest is another case of the text with its own order ("when at root, an Analyse instead of the Remove",
    "under a scan, DecoyApache instead", "with Op_Host2 owned as well, its Restore first"): a situation that names
    no move, then, after its comma, a move. The predicate holds the case it orders; the rest tells what the text does
    in the other (r37m: read as a guard, it claimed the other case's state and silenced the rule in its own case)."""
    head, comma, tail = rest.partition(",")
    head, tail = head.strip(), tail.strip(" .;")
    if not comma or not head or not tail or verbs_in(head) or ";" in rest:
        return False
    opens_case = re.match(r"(?:if|when|whenever|while|once|at|under|should|in\s+case)\b", head, re.IGNORECASE)
    return bool(opens_case) and bool(verbs_in(tail) or gives_order(tail))


def _said_whole(source: str, when) -> bool:
    """Whether the product reads the whole of a text's condition and the predicate implies it."""
    from forge.rulebook.language.predicate import implies  # lazy: as in `claims`

    found = whole_claims(source)
    return found is not None and implies(when, found)


def _outside_instruction(rest: str, source: str) -> bool:
    """Whether every word of a rest is in its source text but none is in that text's instruction (or opening
    situation): the rest was taken from the text's story or justification."""
    def content(text: str) -> set[str]:
        return {w for w in re.findall(r"[a-z][a-z'-]{2,}", (text or "").lower()) if w not in _RESTATED}
    words = read_wording(source)
    # (nor in what the instruction concedes: "never restore User0, even when it is owned: it gets owned again at once"
    # holds whatever the concession says, so a rest taken from it is no condition either)
    said = content(f"{words.situation} {conceded_away(words.instruction)}")
    rest_words = content(rest)
    return bool(rest_words) and rest_words <= content(source) and not rest_words & said


# What a text says beside its condition: the teacher's view of it ("I now think ...", "the lesson is that ..."), and the
# table and the one who reads it ("the table shows ... for the host you are analysing").
_OPINION = re.compile(r"\b(?:i|we)\s+(?:now\s+|really\s+|still\s+|also\s+)?(?:think|believe|feel|reckon|suspect|guess)\b(?:\s+that)?|"
                      r"\b(?:the|my|our)\s+lesson(?:\s+here)?\s+is(?:\s+that)?|\blooking\s+back\b", re.IGNORECASE)
# What a dash adds after an order or a condition: "... whenever it shows any compromise -- even user level there puts the
# mission at stake" (a reason, where it orders nothing and states no condition).
_DASHED = re.compile(r"\s[\u2013\u2014-]{1,2}\s+(?P<tail>[^.;:\u2013\u2014]+)")
_CONDITION_WORD = re.compile(r"\b(?:when|whenever|if|while|once|unless|until|after|as\s+long\s+as|only)\b", re.IGNORECASE)
_READER = frozenset("table row rows column columns you we your our analysing analyzing analyse analyze".split())


def _said_aside(rest: str, source: str) -> bool:
    """Whether every word of a rest that is not a restated one comes from what its source says aside of its conditions
    (a concession, "even user level there puts the mission at stake"; the teacher's view, "I now think ...") or is the
    table and its reader ("the table ... you"), and none from what its conditions say once those are set aside."""
    def content(text: str) -> set[str]:
        return {w for w in re.findall(r"[a-z][a-z'-]{2,}", (text or "").lower()) if w not in _RESTATED}
    dashed = [m["tail"] for m in _DASHED.finditer(source) if not gives_order(m["tail"]) and not _CONDITION_WORD.search(m["tail"])]
    aside = " ".join([m.group(0) for p in (_CONCESSION, _OPINION) for m in p.finditer(source)] + dashed)
    rest_words = content(rest)
    conditions = " ".join(c.text for c in read_wording(source).conditions)
    for tail in dashed:
        conditions = conditions.replace(tail, " ")
    conditions = content(_OPINION.sub(" ", conceded_away(conditions)))
    said = rest_words - _READER
    return bool(rest_words) and said <= content(aside) and not said & conditions


def _rest_claims(rest: str, when):
    """What a rest claims, read whole (None: this reading cannot place all of it); "it" is the predicate's one host."""
    from forge.rulebook.language.predicate import named_host  # lazy: as in `claims`

    subject = named_host(when) if when is not None else None
    found = claims(rest, subject)
    return found if reads_whole(rest, found, subject=subject) else None





def guard_claims(rest: str, when):
    """What a guarded rule's unexpressed rest claims, for the gate (None: the rest is no condition, nothing guards).
    It is read like a semantic rule's condition (`claims`, three-valued; its "it" is the one host the predicate
    names): "only while Op_Server0 is clean" must hold on the context. A rest this reading cannot place whole (a word
    it does not know, a kind of fact it cannot judge, a negation it did not read: "at critical priority", "when the
    attacker moves fast") is a condition the product cannot judge, so the rule stays silent: it is never passed by
    its likeness to the context."""
    from forge.rulebook.language.predicate import Always, Not, named_host  # lazy: as in `claims`

    guard = guard_rest(rest, when)
    if not guard:
        return None
    found = _rest_claims(guard, when)
    if found is None and _evidence_alone(guard, when):
        return None  # (r39g) what the analyses show of the predicate's hosts, all of it judged.py's: that guards
    if found is None and (left := without_evidence(guard)) != guard:
        # (r39h) a rest that says what the step's analyses report, "this step's analyses rate <host> low risk": judged.py
        # judges that part (judged_in reads it from the same rest); the claims read what is left, and nothing is left to read
        # where it was all evidence (or the predicate's own host: "on that user host")
        subject = named_host(when) if when is not None else None
        if not unplaced(left) and not negations_in(left) and claims(left, subject) is None:
            return None
        found = _rest_claims(left, when)
    # (read as a semantic rule's words are, `confirmed`: "two or more user hosts compromised" is not met by a user row at
    # Compromised Unknown; the rest let a rule through on one compromised user host and one at Unknown)
    return _on_matched_host(confirmed(found), when) if found is not None else Not(Always())


def _on_matched_host(found, when):
    """(r40m) A rest that denies moves on "that user host" of a predicate over a class ("no decoy went on that box during
    the past two turns"): the host the predicate matches, not every host of the class. Read of the class, a
    decoy on another user host silenced the rule for the one it is for; bound here, some host of the class meets both.
    Anything else is returned as it was."""
    from forge.rulebook.language.predicate import AllOf, AnyOf, Atom, Not  # lazy: as in `claims`

    parts = found.parts if isinstance(found, AllOf) else (found,)
    if not isinstance(when, Atom) or when.host is not None or when.host_class is None:
        return found
    if not all(isinstance(p, Not) and isinstance(p.part, Atom) and p.part.host_class == when.host_class
               and p.part.acted is not None and p.part.activity is None and p.part.compromise is None for p in parts):
        return found
    hosts = HOSTS if when.host_class == "any" else HOST_CLASSES[when.host_class]
    return AnyOf(tuple(AllOf((when.on(h), *(Not(p.part.on(h)) for p in parts))) for h in hosts))


# The words a rest uses to say the step's analyses report something of the host the predicate matches, besides the
# evidence itself: "this step's analyses show ... on that user host", "the analysis rates it ...".
_ANALYSES_FRAME = frozenset("""this the step step's steps current analysis analyses analyst analysis's show shows showing
    report reports reporting list lists rate rates rated give gives that host box machine server it its on of for in
    a an user enterprise op operational remote local
    analysed analyzed under host's box's
    and with is are block baseline count counts""".split())  # (r40m: the host the analyst analyses; r40k: its evidence)
# (r40m) The analyst's own evidence named as the source, of the host it analyses: "the analysed host's evidence lists ..."
_ANALYSED_EVIDENCE = re.compile(r"\bthe\s+analy[sz]ed\s+(?:host|box|machine)(?:'s|\u2019s)\s+evidence\s+(?:lists|shows)\b|"
                                # (r42m) or where it stands, said after the reading: "... in the analysed host's evidence"
                                r"\b(?:(?:in|on)\s+)?(?:the\s+analy[sz]ed\s+(?:host|box|machine)(?:'s|\u2019s)|its)\s+evidence"
                                r"(?:\s+(?:lists|shows|has|holds|counts)\b)?|"
                                # (r40k) the analyst's "Current evidence" named as what shows it, of its host ("its current
                                # evidence shows", "<host>'s current evidence counts"); "evidence" alone stays no frame
                                r"\b(?:in\s+)?(?:its|the|[\w]+(?:'s|\u2019s))\s+current\s+evidence(?:\s+(?:lists|shows|counts|has|holds)\b)?",
                                re.IGNORECASE)


def _evidence_alone(rest: str, when) -> bool:
    """(r39g) Whether a guard rest states only what the step's analyses report of the hosts the predicate matches (a
    reverse shell, a risk rating): judged.py judges it of those hosts (`judged_in`, with `of`); nothing is left for the
    claims. Read for claims it was unplaced, and the rule silent where the analyses showed just that."""
    # (r40m: a negation inside what the evidence reports, "lists no escalate file", is that reading's own)
    # (r40k: or of the one host the predicate names, "<host>'s current evidence: processes above the baseline's":
    # judged.py judges it of that host)
    from forge.rulebook.language.predicate import named_host  # lazy: as in `claims`
    if when is None or not evidence_tests(rest, when) or set(hosts_in(rest)) - {named_host(when)} \
            or negations_in(evidence_away(rest)):
        return False
    return not words_beside_evidence(rest)


# (r40k) An example in brackets, "(e.g. svc_backup)", "(for instance at step 9)": the example's words, no condition.
_BRACKETED_EXAMPLE = re.compile(r"\(\s*(?:e\.\s?g\.|eg\b|for\s+(?:example|instance)\b|such\s+as\b)[^)]*\)", re.IGNORECASE)


def words_beside_evidence(text: str) -> list[str]:
    """(r40k) The words of `text` besides what judged.py reads of the analyst's evidence or the step's analyses (each
    reading's words, the words that frame them as the evidence's, the hosts named, an example in brackets): none where
    the text says only that, which the gate judges of the hosts it names (`judged_in`)."""
    left = without_host_names(_ANALYSED_EVIDENCE.sub(" ", evidence_away(_BRACKETED_EXAMPLE.sub(" ", text or ""))))
    words = re.findall(r"[a-z][a-z'_]*", re.sub(r"(?<!\w)['\u2019]s\b", " ", left).lower())  # (a named host's "'s")
    return [w for w in words if w not in _ANALYSES_FRAME]


_STORYLIKE = re.compile(r"\b(?:i|we|my|our)\b|\b(?:was|were|had|did|got|lost|cost|wasted|went|happened)\b", re.IGNORECASE)


# A semantic rule whose predicate a check refused, or whose instruction the compiler dropped: its text is about
# what the table shows, and the cosine cannot keep its scope or polarity. It is judged by its claims alone.
_REFUSED = ("predicate refused", "invalid predicate", "compiled as written: the compiler dropped an instruction")


def subject_of(words):
    """The host "it" stands for: the one host a text names, unless it excepts it or also names a class."""
    hosts = [h for h in words.hosts if h not in words.excepted]
    if not words.hosts and words.referent:
        return words.referent  # "I restored Enterprise1 too late. Restore it as soon as it is compromised."
    if hosts and set(hosts) <= set(words.contrasted):
        return None  # (r41m) "a decoy on it (not on User0)": the one host named is the one the order is set against
    # (r41m: nor a class named only as what the order is unlike, "Op_Server0, unlike the user hosts, ...")
    classes = set(words.classes) - classes_compared_only(words.text) - classes_sequenced_only(words.text)
    return hosts[0] if len(hosts) == 1 and not classes and not words.excepted else None


_STATE_ADJECTIVE = (r"(?:exploited|compromised|scanned|probed|infected|breached|rooted|privileged|owned|hacked|quiet|clean|"
                    r"uncompromised|idle|active|alerting)")
_STATED_OBJECT = re.compile(rf"\b{_STATE_ADJECTIVE}(?:\s+(?:and|but|or)\s+{_STATE_ADJECTIVE})*\s+(?:(?:user|enterprise|op|operational)[\s-]+)?"
                            rf"(?:hosts?|box(?:es)?|machines?|servers?|workstations?|desktops?|laptops?|nodes?|"
                            rf"(?:user|enterprise)\d|op_(?:host|server)\d)\b", re.IGNORECASE)
# A state said after what it is of: "User4 under exploitation should not get a Remove", "any user host being exploited".
# (not the last of a list, "Enterprise1 or Enterprise2 being exploited", whose state is every host's of it)
_STATED_AFTER_OBJECT = re.compile(r"(?<!\bor\s)(?<!\band\s)(?<!,\s)(?<!\bnor\s)\b(?:(?:(?:user|enterprise|op|operational)[\s-]+)?(?:hosts?|box(?:es)?|machines?|servers?|workstations?)|"
                                  r"(?:user|enterprise)\d|op_(?:host|server)\d)\s+(?:(?:that\s+is|which\s+is|currently|still)\s+)?"
                                  r"(?:under\s+(?:active\s+|an\s+)?(?:exploitation|exploit|attack)|being\s+(?:exploited|scanned|probed|"
                                  r"attacked))\b", re.IGNORECASE)
# (r45m) The host an order picks by its state, "put a decoy on whichever op box is probed", "restore whichever box gets
# owned": that state is what the order acts on, whatever condition is said beside it ("Until step 10, ...").
_WHICHEVER_OBJECT = re.compile(r"\bwhichever\s+(?:(?:user|enterprise|op|operational)[\s-]+)?(?:hosts?|box(?:es)?|machines?|servers?|"
                               r"workstations?)\s+(?:is|are|gets?|shows?|becomes?|reads?|sits?)\s+[^,;.:!?]+", re.IGNORECASE)
# (r45m) Where an order's next move begins ("..., then an Analyse of whichever op box is owned"): what that
# move picks is no condition of the order.
_FIRST_MOVE_ONLY = re.compile(r"\bthen\b|\bfollowed\s+by\b|\bafterwards\b|\bafter\s+that\b|\bnext\b", re.IGNORECASE)
# (r45m) A state with how long it has held, said after what it is of: "a box held since before the previous turn deserves
# a Restore", "a user box compromised for three steps": a history (history_words reads it), with the word that says which
# host ("a", "any").
_HELD_AFTER_OBJECT = re.compile(r"(?<!\bor\s)(?<!\band\s)(?<!,\s)(?<!\bnor\s)\b(?:(?:a|an|any|each|every)\s+)?(?:(?:user|enterprise|op|operational)[\s-]+)?"
                                r"(?:hosts?|box(?:es)?|machines?|servers?|workstations?)\s+"
                                r"(?:owned|compromised|held|rooted|hit|pwned|breached|infected)\s+(?:since\s+(?:before(?:\s+the\s+"
                                r"(?:previous|last|prior)\s+(?:step|turn))?|the\s+(?:previous|last|prior)\s+(?:step|turn)|earlier)|"
                                r"for\s+(?:the\s+)?(?:last\s+|past\s+)?(?:at\s+least\s+)?(?:\d+|one|two|three|four|five|a\s+couple\s+of|a\s+few|"
                                r"several)\s+(?:more\s+)?(?:consecutive\s+|straight\s+)?(?:steps|turns)(?:\s+(?:in\s+a\s+row|running|straight))?)\b",
                                re.IGNORECASE)
# A concession is no condition: "never restore Enterprise1, even if it is compromised", "whatever it shows".
# (r48m: "remove it, even with no alert on it", "even without any activity": the order holds in that case too)
# (r41m: not "no matter how often it is owned", each time it is: a condition)
_CONCESSION = re.compile(r"\b(?:even\s+(?:if|when|though|while|as|with(?:out)?)|whatever|regardless\s+of|no\s+matter(?!\s+how\s+(?:many\s+times|often)\b)|"
                         # (r33m) "even owned, it falls again at once": the elided "even if it is owned", before a comma
                         r"even\s+(?:owned|rooted|compromised|exploited|breached|pwned)(?=\s*,))\b[^.;]*", re.IGNORECASE)


# What the order is meant to forestall: "remove it before the attacker pivots to the enterprise subnet" (the attacker's
# next move, a reason for acting now: no condition, and no target).
_FORESTALLED = re.compile(r"\bbefore\s+(?:the\s+)?(?:attacker|adversary|intruder|red(?:\s+(?:agent|team))?)\b[^.;,]*", re.IGNORECASE)


# (r41g) An order given before the attacker arrives at a host ("a decoy on <host> before they get there", "... before
# red reaches it", "... before the attacker gets to Enterprise1"): the host is not reached yet, so not compromised; a
# condition of the order, not only its purpose (read as purpose alone, a rule kept semantic fired on a host already held).
_NOT_YET_REACHED = re.compile(
    r"\bbefore\s+(?:the\s+)?(?:attacker|adversary|intruder|red(?:\s+(?:agent|team))?|they|it|the\s+(?:compromise|infection|spread))"
    r"\s+(?:(?:can|could|does|do|manages?\s+to)\s+)?"
    r"(?:reach(?:es)?|gets?\s+(?:to|into|onto|there)|arrives?\s+(?:at|on|there)|lands?\s+on|spreads?\s+(?:to|there)|"
    r"makes?\s+it\s+(?:to|there)|comes?\s+for)\b"
    rf"\s*(?P<what>{_HOST_WORD}|it\b|that\s+(?:host|box|server|machine)\b)?", re.IGNORECASE)


def not_yet_reached(text: str):
    """What a rule's words say of the host its order is given before the attacker arrives at (`_not_yet_reached`): that
    it is not compromised (None: nothing). The gate holds a rule to it loosely: false where the context shows the host
    compromised, and unknown, so passing, where the context does not show it (in alerts that list only the hosts with
    something to show, a rule held to it in full was silent wherever its host was still quiet)."""
    from forge.rulebook.language.predicate import AllOf  # lazy: as in `claims`

    found = _not_yet_reached(read_wording(ended_away(conceded_away(text))).instruction)
    return None if not found else found[0] if len(found) == 1 else AllOf(tuple(dict.fromkeys(found)))


def _not_yet_reached(instruction: str) -> list:
    """What an order given before the attacker arrives at a host claims of it (`_NOT_YET_REACHED`): that host not
    compromised. The host is the one named there, or, for "it" and "there", the last one the order names before it;
    only a host the order itself names (one named only in the clause is what it forestalls, `conceded_hosts`)."""
    from forge.rulebook.language.predicate import Atom, Not  # lazy: as in `claims`

    out = []
    for found in _NOT_YET_REACHED.finditer(instruction or ""):
        named = hosts_in(found["what"] or "") or hosts_in(instruction[:found.start()].rsplit(".", 1)[-1])[-1:]
        order = hosts_in(_set_aside(f"{instruction[:found.start()]} {instruction[found.end():]}"))
        out.extend(Not(Atom(host=h, compromise="any")) for h in named[-1:] if h in order)
    return out


def _set_aside(text: str) -> str:
    return _FORESTALLED.sub(" ", conceded_away(text))


# Where an order ends (r31m): "once it shows root, a decoy there is no longer worth it", "after the box is rooted the
# trap no longer helps", and the writer's doubt past that point, "unsure the rule applies once it is rooted": the
# situation (`end`) after which the order stops, no condition of it (read as one, the rule's condition was "a scan and an
# exploit at once", which no context meets). `checks` keeps such a span only where the predicate excludes `end`.
ORDER_ENDED = re.compile(r"\b(?:once|after|as\s+soon\s+as)\s+(?P<end>[^,;.:]{3,60}?)\s*,?\s+"
                         r"(?:(?:the|this|that|a|an|its)\s+[\w-]+|[\w-]+ing\s+(?:it|them|\w+\d)|it|they)\s+"
                         # (r48m: or "... the decoy stops being useful there", "... ceases to be worth it")
                         r"(?:(?:is\s+|are\s+)?no\s+longer\b|stops?\s+being\b|ceases?\s+to\s+be\b)[^,;.:]*|"
                         r"\b(?:not\s+(?:sure|certain)|unsure|uncertain)\s+(?:whether\s+|that\s+|if\s+)?(?:this|it|that|the\s+"
                         r"(?:rule|lesson))\s+(?:still\s+)?(?:holds|applies)\s+(?:once|after|when)\s+(?P<doubted>[^,;.:]{3,60})|"
                         # "..., during the probe, not later once it is rooted"
                         r"\bnot\s+(?:later|afterwards?|after\s+that)\s*,?\s*(?:once|when|after)\s+(?P<late>[^,;.:]{3,60})|"
                         # (r41m) "once OpH1 gets taken, this rule is void", "after that, the rule no longer applies"
                         r"\b(?:once|after|as\s+soon\s+as)\s+(?P<void>[^,;.:]{3,60}?)\s*,?\s+(?:this|the|that|my|our)\s+"
                         r"(?:note|rule|lesson|advice|order)\s+(?:is\s+(?:void|moot|over|off)|lapses|expires|ends|"
                         r"stops\s+applying|(?:does\s+not|doesn't|no\s+longer)\s+appl(?:y|ies))\b",
                         re.IGNORECASE)


def ended_away(text: str) -> str:
    """The text without where its order ends (ORDER_ENDED), as `rule_claims` reads it."""
    return ORDER_ENDED.sub(" ", text or "")


def conceded_away(text: str) -> str:
    """The text without its concessions ("never restore User3, even if it's rooted: ..." -> "never restore User3,"), as
    `rule_claims` reads it."""
    return _CONCESSION.sub(" ", text or "")


# (r44m) Another move kept for a narrower case of the note's own: after the note's order, a later clause that names
# another move for when more holds of the same host, "...; if it is at root by now, Restore it instead", "..., a Restore
# only once it is rooted", "...; Analyse if a decoy is on it already", "...; if the last Remove failed, a Restore". The
# note applies wherever its first case holds (the later case only changes which move, within it, or is what that case
# already denies), so the later case is no condition of the note: read as one, "compromised and at root" or a history no
# context states left the note silent where its first case held.
_MOVE = rf"(?:a\s+(?=decoy))?(?:{_MOVE_NAMES})"  # ("a decoy on it": the one move said with its article here)
_MOVE_OBJECT = r"(?:\s+(?:it|them|there|that\s+(?:host|box|machine|server)|\w+\d))?"
_NARROWER_CASE = re.compile(
    # "<move> only if/once/when <case>": the move is kept for that case alone
    rf"[,;]\s*(?:and\s+|but\s+)?(?:an?\s+)?{_MOVE}{_MOVE_OBJECT}\s+only\s+(?:if|once|when|after)\s+(?P<only>[^,;.]+)|"
    # "if <case>, ... <move> ... instead": the other move, in that case, in place of the note's own
    rf";\s*(?:but\s+)?if\s+(?P<instead>[^,;.]+),(?=[^;.]*\b{_MOVE})[^;.]*?\binstead\b|"
    # "if <case>, a <move>" / "<move> if <case>": a case of what was done before (checked below: no state of its own)
    rf"[,;]\s*(?:but\s+)?if\s+(?P<done>[^,;.]+),\s+(?:an?\s+)?{_MOVE}{_MOVE_OBJECT}\s*(?=[;.]|$)|"
    rf"[,;]\s*(?:but\s+)?(?:an?\s+)?{_MOVE}{_MOVE_OBJECT}\s+if\s+(?P<after>[^,;.]+?)\s*(?=[,;.]|$)|"
    # "..., then a Restore of it in case the Remove did not work": what a later move of the order is there for
    rf"\b{_MOVE}(?:\s+of)?{_MOVE_OBJECT}(?P<cut>\s+in\s+case\s+(?P<incase>[^,;.]+))|"
    # (r48m) "... and keep a Restore for when the Remove did not take": the other move kept for a case of what was done
    rf"(?:[,;]\s*|\s+and\s+)keep(?:s|ing)?\s+(?:the\s+|a\s+|an\s+|its\s+)?{_MOVE}(?:\s+of{_MOVE_OBJECT})?\s+for\s+"
    rf"(?P<kept>(?:a|an|the|when|if|once|after)\b[^,;.]+)",
    re.IGNORECASE)


# (r47m) A case set apart by "unless" that the note keeps another move for: "Remove any user box that gets owned, unless
# Enterprise2 is owned as well, in which case its Restore comes first". The note speaks in that case too (it
# says which move is made there), so the case restricts nothing: the note applies wherever its first case holds. Read as
# a negated condition, it left the note silent in both cases (no reading placed the other move's clause).
_UNLESS_OTHER_MOVE = re.compile(r"\s*,?\s*\bunless\s+(?P<case>[^,;.]+?)\s*[,;]\s*in\s+(?:which|that)\s+case\b\s*,?(?P<order>[^;.]*)",
                                re.IGNORECASE)


def _unless_other_move_away(text: str) -> str:
    """(r47m) The text without its "unless <case>, in which case <another move>" (`_UNLESS_OTHER_MOVE`): only where an
    order comes before it, and the other case names a move of its own (not "in which case leave it": that case is where
    the note does not act, an exception)."""
    for found in reversed(list(_UNLESS_OTHER_MOVE.finditer(text))):
        if verbs_in(text[:found.start()]) and verbs_in(found["order"]) and not negations_in(found["order"]) \
                and not _withheld_there(found["order"]):
            text = f"{text[:found.start()]}{text[found.end():]}"
    return text


def _withheld_there(other: str) -> bool:
    """(r47a) Whether the other move an "unless" case keeps only withholds the first: it forbids or puts off a move ("in
    which case skip the Remove", "avoid removing", "hold off on it", "a Remove is wasted"), as "in which case do not
    remove" does, or only waits or watches ("in which case just Sleep", "a Monitor only"). That case is where the note
    does not act, its exception; read as none, the note's first order held there, against its words. (A move made in the
    first's place, "in which case reimage the op server instead", is the note speaking in that case: no exception.)"""
    return bool(read_wording(other).prohibitions or set(verbs_in(other)) <= {"Sleep", "Monitor"})


def narrower_cases_away(text: str) -> str:
    """(r44m) The text without the later cases it keeps another move for (`_NARROWER_CASE`): only where an order and a
    condition come before them (the note's first case), the later case names no host but the note's own ("it", "there",
    the host the note names), and a case of what was done ("if a decoy is on it already") states nothing of a host's
    state. Without a first case before it, a clause's condition is the note's own and stays. (r47m) Nor a case set
    apart by "unless" that keeps another move (`_unless_other_move_away`), whatever host it names."""
    text = _unless_other_move_away(text or "")
    found = [m for m in _NARROWER_CASE.finditer(text) if _narrower_case(text, m)]
    for m in reversed(found):
        start = m.start("cut") if m["cut"] is not None else m.start()  # (the move stays; what it is there for goes)
        text = f"{text[:start]}{text[m.end():]}"
    return text


def _narrower_case(text: str, found: re.Match) -> bool:
    before = text[:found.start("cut") if found["cut"] is not None else found.start()]
    case = found["only"] or found["instead"] or found["done"] or found["after"] or found["incase"] or found["kept"] or ""
    named = set(hosts_in(text[found.start():found.end()]))
    words = read_wording(before)
    if not words.conditions or not verbs_in(before) or named - set(hosts_in(before)) or classes_in(case):
        return False
    if len(set(hosts_in(before))) > 1 and not named:
        return False  # ("it" of which host?)
    # a case of what was done before, on the host ("the last Remove failed", "a decoy is on it already")
    done = bool(facts_needed(case) & {"history", "action outcome"}) and not _STATE_SPOKEN.search(case)
    if done or found["done"] is not None or found["after"] is not None or found["incase"] is not None \
            or found["kept"] is not None:
        return done
    # a state: only one within the first case ("..., once it is owned: ...; if it is at root, ... instead": root is owned)
    # or one the first case denies ("..., not rooted -> ..., a Restore only once it is rooted"); another state is a
    # case of its own, beside the first ("if it is only scanned, ...; if it is exploited, ... instead": either)
    return _within_case(rule_claims(before), claims(case, subject_of(read_wording(text))))


def _within_case(first, later) -> bool:
    """(r44m) Whether a later case's claims hold only within a first case's, or are what that case denies."""
    from forge.rulebook.language.predicate import AllOf, Not, implies  # lazy: as in `claims`

    if first is None or later is None:
        return False
    parts = first.parts if isinstance(first, AllOf) else (first,)
    return implies(later, first) or any(isinstance(p, Not) and p.part == later for p in parts)


def conceded_hosts(text: str) -> frozenset[str]:
    """The hosts a text names only in a concession ("restore Enterprise2, even while Op_Server0 is under attack"), or in
    the attacker's move the order forestalls ("... before the attacker reaches Enterprise1"): what the order holds
    whatever they show, so no condition on them, and no target."""
    inside = {h for p in (_CONCESSION, _FORESTALLED) for m in p.finditer(text or "") for h in hosts_in(m.group(0))}
    return frozenset(inside - set(hosts_in(_set_aside(text))))


def conceded_states(text: str) -> bool:
    """Whether the only states a text says of a host are said in a concession ("never restore User3, even if it's
    rooted"): the order holds whatever the host shows, so a predicate that asks that state is narrower than its words."""
    inside = [w for m in _CONCESSION.finditer(text or "") for w in state_words_in(m.group(0))]
    return bool(inside) and not state_words_in(_set_aside(text))


def conceded_classes(text: str) -> frozenset[str]:
    """The host classes a text names only so ("Remove it that turn, even if user hosts are also compromised")."""
    inside = {c for p in (_CONCESSION, _FORESTALLED) for m in p.finditer(text or "") for c in classes_in(m.group(0))}
    return frozenset(inside - set(classes_in(_set_aside(text))))


def rule_claims(text: str, *, with_instruction: bool = False, bare: bool = True):
    """The claims of a rule's condition (its subject: the one host it names, for "it"); `with_instruction`: also
    what its order says of the states of what it acts on ("remove the attacker from any exploited user host"),
    though not the bare mention of a host it acts on ("deploy a decoy on User2" does not need User2 shown)
    unless the rule states no condition at all and `bare` (for a semantic rule: "Never restore User0" applies
    where User0 is shown). Nothing is claimed of a host the text excepts."""
    from forge.rulebook.language.predicate import AllOf  # lazy: as in `claims`

    words = read_wording(ended_away(conceded_away(narrower_cases_away(text))))
    subject = subject_of(words)
    found = _condition_claims(words)
    spared = _spared(words)
    if not with_instruction:
        return _with_restated(excepting(found, spared), words, spared)
    if found is None and bare and (heading := _heading_alone(words)) is not None:
        return heading  # "Op_Host0 to Op_Host2: never Restore": any of them shown
    parts = list(found.parts if isinstance(found, AllOf) else (found,) if found is not None else ())
    rest = words.instruction
    for c in words.conditions:
        rest = rest.replace(c.text, " ")
    rest = falls_short_away(rest)  # (r41h: "a Remove won't shift it" is a reason against the move, no Remove made)
    # (r42h) a window of steps alone says when, of no host: a prohibition's bare target is where it applies, as with no
    # condition at all ("last 3 steps: never Restore a user box" speaks where a user box is shown; an order to act, "in
    # the first steps, put a decoy on User2", needs no User2 shown)
    windows = [w for w in episode_claims(f"{words.situation} {words.instruction}") if isinstance(w, EpisodeStep)]
    timed = bool(words.prohibitions and windows) and all(_window_alone(c.text) for c in words.conditions)
    hostless = not words.conditions or timed
    # What the order says of what it acts on is in its noun phrases ("any exploited user host", "the compromised
    # Op_Server0"); a host named bare is its target; the rest of the order (its purpose, what it replaces) claims nothing.
    stated = [m.group(0) for m in (*_STATED_OBJECT.finditer(rest), *_STATED_AFTER_OBJECT.finditer(rest), *_HELD_AFTER_OBJECT.finditer(rest),
                                        *_WHICHEVER_OBJECT.finditer(_FIRST_MOVE_ONLY.split(rest, maxsplit=1)[0]))]
    if timed and bare and (target := _class_target(rest)) is not None:
        parts.append(target)
    # (r42x) read bare, the order's own "never" would deny the states of what it acts on ("never Restore an exploited
    # user host": no user host exploited, beside the exploited one its noun phrase claims): it forbids the verb, not them
    whole = forbidding_away(rest)
    for piece in stated + ([whole] if hostless and bare else []):
        # (r41h) "a box outside the op subnet showing a probe": a host of the other classes, as in a condition
        # (r46m) "the newly compromised host" the order acts on is the host that fell, whichever it is: not the one host
        # the rule names elsewhere ("..., then a decoy on the op server": read of it, that server had to be owned)
        fresh = piece is not whole and _freshly_said(rest, piece)
        order = _outside_or_claims(f"newly {piece}" if fresh else piece, None if fresh else subject, None, (), universal=False)
        if piece is whole and words.contrasted:
            # ("restore Enterprise0 or Enterprise1, whichever is compromised, not Enterprise2": the host the order is
            # contrasted with is none it acts on, so not one of the hosts it applies to, shown in any state)
            order = excepting(order, words.contrasted)
        for part in order.parts if isinstance(order, AllOf) else (order,) if order is not None else ():
            # A host the order only acts on is a target, not a condition, unless the rule states none at all.
            if _bare_target(part) and (not hostless or not bare) or part in parts:
                continue
            parts.append(part)
    # (r36m) a window of steps said in the rule's order or heading ("Past step 15, never Remove User1") as well as in its
    # condition narrows where it applies; not one a story tells ("it sat at root from step 7"), save where it is said not
    # to apply ("from step 5 on: n/a")
    # (the order may have lost the "n/a" after its colon: a window the whole text says is not the rule's is not its own)
    outside = [w for w in episode_claims(words.text) if isinstance(w, EpisodeStep) and w.outside]
    said = [w for w in episode_claims(f"{words.situation} {words.instruction}")
            if not isinstance(w, EpisodeStep) or replace(w, outside=True) not in outside]
    parts.extend(w for w in (*said, *outside) if w not in parts)
    return _with_restated(excepting(_all_of(parts), spared), words, spared)


_FRESH_BEFORE = re.compile(r"\b(?:newly|freshly|just)\s+$", re.IGNORECASE)
_GENERIC_NOUN = re.compile(r"\s(?:hosts?|box(?:es)?|machines?|servers?|workstations?|desktops?|laptops?|nodes?)$", re.IGNORECASE)


def _freshly_said(rest: str, piece: str) -> bool:
    """(r46m) Whether an order's stated object is a host in general said fresh ("the newly compromised host"): right after
    "newly", "freshly" or "just", its noun no class's and no host's name."""
    at = rest.find(piece)
    return at >= 0 and bool(_FRESH_BEFORE.search(rest[:at])) and bool(_GENERIC_NOUN.search(f" {piece}")) \
        and not classes_in(piece) and not hosts_in(piece)


def _bare_target(part) -> bool:
    """(r42x) Whether a claim is only of hosts shown, no state: a host ("User2"), or one of a list of hosts and
    classes ("a user host or Op_Server0"): what an order acts on, no condition of it."""
    from forge.rulebook.language.predicate import AnyOf, Atom  # lazy: as in `claims`

    if isinstance(part, AnyOf):
        return all(_bare_target(p) for p in part.parts)
    return isinstance(part, Atom) and part.bare()


def _window_alone(condition: str) -> bool:
    """(r42h) Whether a condition is a window of steps and nothing more ("during the closing four turns (from turn 27)")."""
    return bool(episode_claims(condition)) and not without_episode_claims(condition).strip(" ,.;:()")


def _class_target(order: str):
    """(r42h) Some host of the one class an order acts on, where it names that class and no host ("never Restore a usr box"):
    the hosts it speaks of. None otherwise."""
    from forge.rulebook.language.predicate import Atom  # lazy: as in `claims`

    named = classes_in(spelled_out(order))
    return Atom(host_class=named[0]) if len(named) == 1 and not hosts_in(order) else None


# (r39h) A host a condition excepts, then said in a clause of its own: "no op host but Op_Host1 is being exploited, and
# Op_Host1 is" (wording fills the "does" in) states Op_Host1 exploited beside the others unexploited.
_EXCEPTED_RESTATED = re.compile(rf"\b(?:and|but)\s+(?P<clause>(?P<host>{_HOST_WORD})\s+(?:shows?|is|are|has|reads?)\b[^,;.:]*)",
                                re.IGNORECASE)


def _with_restated(found, words, spared):
    """Claims with what a condition says of an excepted host in its own clause (`_EXCEPTED_RESTATED`): the exception
    spares the host from the rest of the condition, not from what is said of it by name."""
    from forge.rulebook.language.predicate import AllOf  # lazy: as in `claims`

    said = [part for c in words.conditions for m in _EXCEPTED_RESTATED.finditer(c.text)
            if set(hosts_in(m["host"])) & set(spared) and (part := claims(m["clause"])) is not None]
    if not said:
        return found
    return _all_of([*(found.parts if isinstance(found, AllOf) else (found,) if found is not None else ()), *said])


def _spared(words) -> tuple[str, ...]:
    """The hosts a rule's words claim nothing of: those it excepts, and a host of a class it names that its order is
    contrasted with ("restore compromised user hosts - not User3 though") where the order names no other host (in "put
    the decoy on User2, not on User3, whenever a user host is scanned" the contrast is the order's, not the condition's)."""
    members = hosts_of(words.classes)
    others = set(words.hosts) - set(words.contrasted) - set(words.excepted)
    contrasted = [] if others else [h for h in words.contrasted if h in members]
    return tuple(dict.fromkeys([*words.excepted, *contrasted]))


def excepting(found, excepted):
    """Claims with the hosts a text excepts left out ("restore compromised user hosts; User0 is the exception"): no
    claim on an excepted host, and a class stands for its other hosts (`any` of each)."""
    from forge.rulebook.language.predicate import AllOf, AnyOf, Atom, Not  # lazy: as in `claims`

    if found is None or not excepted or isinstance(found, (EpisodeStep, RewardTrend)):
        return found
    if isinstance(found, Atom):
        if found.host is not None:
            return None if found.host in excepted else found
        kept = [h for h in found.hosts() if h not in excepted]
        if len(kept) == len(found.hosts()):
            return found
        return AnyOf(tuple(found.on(h) for h in kept)) if kept else None
    if isinstance(found, Not):
        inner = excepting(found.part, excepted)
        return None if inner is None else Not(inner)
    alternatives = found.parts
    if isinstance(found, AnyOf) and _counted_groups(found, AllOf, Atom):
        # a count ("two or more user boxes other than User3 are owned": some two of the others): the groups
        # that need an excepted host leave; the rest are the count among the others (a group less its excepted host
        # would be one host fewer than the text counts)
        alternatives = tuple(g for g in found.parts if not {a.host for a in g.parts if isinstance(a, Atom)} & set(excepted))
    parts = tuple(p for p in (excepting(x, excepted) for x in alternatives) if p is not None)
    return None if not parts else parts[0] if len(parts) == 1 else type(found)(parts)


def _counted_groups(found, AllOf, Atom) -> bool:
    """Whether a disjunction is a count's (`_of_count`): two or more groups, each of as many hosts in one state."""
    groups = found.parts
    if len(groups) < 2 or not all(isinstance(g, AllOf) for g in groups):
        return False
    positive = [[a for a in g.parts if isinstance(a, Atom) and a.host is not None] for g in groups]
    return len({len(p) for p in positive}) == 1 and len(positive[0]) >= 1 and \
        len({(a.activity, a.compromise) for p in positive for a in p}) == 1


def _heading_hosts(words) -> list[str]:
    """The hosts of a heading that only lists them ("User1 through User3: ..."), none of them excepted; [] if none."""
    listed = hosts_in(words.situation)
    if len(listed) < 2 or unplaced(words.situation) or _state_of(words.situation) != ((None, None), None) \
            or classes_in(words.situation):
        return []
    return [h for h in listed if h not in words.excepted]


def _heading_alone(words):
    """A rule whose one condition is a heading listing hosts ("Op_Host0 to Op_Host2: never Restore"): it applies where
    any of them is shown, as "never restore Op_Host0" applies where Op_Host0 is (None: not such a rule)."""
    from forge.rulebook.language.predicate import AnyOf, Atom  # lazy: as in `claims`

    heading = _heading_hosts(words)
    if not heading or [c.text.strip() for c in words.conditions] != [words.situation.strip()]:
        return None
    atoms = tuple(Atom(host=h) for h in heading)
    return atoms[0] if len(atoms) == 1 else AnyOf(atoms)


def _condition_claims(words, unresolved: Optional[list] = None):
    """The claims of a text's conditions, each read with its own "it": the one host its sentence names ("Restore
    Enterprise1 if it is compromised. ... while Op_Server0 is clean": "it" is Enterprise1), else the text's subject."""
    from forge.rulebook.language.predicate import AllOf  # lazy: as in `claims`

    subject = subject_of(words)
    parts = []
    each: list[list] = []  # each condition's claims, in order (`parts`: a heading's, which holds for every branch)
    # A heading that only lists hosts ("User1 through User3: if any of them shows an Exploit, ..."): the hosts the
    # order is about, for its "them", not a condition that each is shown.
    heading = _heading_hosts(words)
    for index, condition in enumerate(words.conditions):
        if heading and condition.text.strip() == words.situation.strip():
            continue
        scope = _class_heading(condition.text, words)
        if scope is not None:
            parts.append(scope)
            continue
        sentence = next((s for s in re.split(r"(?<=[.;!?])\s+", f"{words.situation}. {words.instruction}")
                         if condition.text in s), "")
        named = [h for h in hosts_in(sentence) if h not in words.excepted] or heading
        # (r41h: not a class the sentence names only to set its subject apart, "<host>, unlike the op hosts, ...")
        sentence_classes = [c for c in classes_in(sentence) if c not in classes_denied(sentence)]
        if heading and re.search(r"\b(?:both|either|neither|them|they|each|all|whichever)\b", condition.text, re.IGNORECASE):
            named = heading  # "Enterprise0 and Enterprise1: when both are rooted, restore Enterprise0"
        # (a class the sentence names only after the condition, in a later step of its order, "remove User4 when it shows
        # an exploit, then DecoyTomcat the enterprise subnet", is no referent of its "it": the host named before it is)
        upto = sentence[:max(sentence.find(condition.text), 0)] + condition.text
        own = named[0] if len(named) == 1 and not sentence_classes else \
            (len(named) > 1 and not sentence_classes and _named_before_it(sentence, condition.text, named)) or \
            (named and not classes_in(upto) and _named_before_it(sentence, condition.text, named)) or subject
        # (r44h) "it" after a condition on a host of the one class the sentence names (a reimage of some op box, then
        # "if it is owned again", ...): that same host in both, not any two hosts of the class
        joined = _same_class_host_again(each[-1] if each else [], condition.text, sentence_classes) if not named else None
        if joined is not None:
            each[-1] = [joined]
            each.append([])
            continue
        # "restore user hosts as soon as they are compromised": "they" are the one class the sentence names
        said = _their_class(condition.text, sentence_classes[0]) if not named and len(sentence_classes) == 1 \
            else condition.text
        if own is None and not named and not sentence_classes:  # ("once the box gets probed": a host, any)
            said = _THE_HOST.sub(lambda m: f"{m['lead'] or ''}a {m['what'] or 'host'}", said)
        # "On the enterprise servers, a compromise at user level calls for Remove": a state with no subject is said of a
        # host of the class the sentence's scope names
        scope = _CLASS_SCOPE.match(sentence) or _at_hand_scope_of(words.instruction, condition.text)
        if scope and not named and len(sentence_classes) == 1 and classes_in(scope["what"]) and _subjectless(said):
            said = f"{said} on a {_CLASS_WORD[sentence_classes[0]][:-1]}"
        # (and "On the user subnet, any box with an exploit gets a Remove": the host in general it speaks of is one of
        # that class, not any host of the network)
        elif scope and not named and len(sentence_classes) == 1 and classes_in(scope["what"]):
            said = _of_class(said, sentence_classes[0])
        # (and "On the machine under inspection, a root-level compromise calls for Restore": of the host the
        # analyst's context is about, any host)
        elif scope and not named and not sentence_classes and _AT_HAND_SCOPE.fullmatch(scope["what"].strip()) \
                and _subjectless(said):
            said = f"{said} on a host"
        # (and "For the machine under inspection, once it is probed but not taken, ...": its "it" is that host, any host)
        elif scope and not named and not sentence_classes and _AT_HAND_SCOPE.fullmatch(scope["what"].strip()) \
                and own is None and _LONE_IT.search(said):
            said = _LONE_IT.sub("a host", said, count=1)
        said = _only_one_case(said, words.conditions[index - 1].text if index else "")
        said = _each_it_acts_on(said, named, words)
        found = _outside_or_claims(said, own, unresolved, tuple(named))
        found = _each_its_own_case(found) if _every_one_heading(said, words) else found
        each.append(list(found.parts if isinstance(found, AllOf) else (found,) if found is not None else ()))
    return _branches_either(words, parts, each)


# (r39k) A host's membership denied: "not on the operational subnet", "isn't one of the user boxes", "outside the
# enterprise zone" (what follows is read for the class words it names)
# (r41h, r41m: and "unlike the op hosts", "as opposed to ...": a class named to set the subject apart from it)
# (r43x: and "beyond the op subnet", only before a subnet or hosts: "beyond user level" is a compromise, no class denied)
_NOT_A_MEMBER = re.compile(r"(?:\b(?:not|never)|n't)\s+(?:on|in|within|inside|part\s+of|one\s+of|among)\b(?P<rest>[^,;.]{0,40})"
                           r"|\b(?:outside|" + UNLIKE_WORDS + r"|beyond(?=\s+(?:the\s+)?[\w-]+[\s-]+(?:sub)?(?:net|network|zone|segment|"
                           r"hosts|box(?:es)?|machines|servers|nodes)\b))\s+(?:of\s+)?(?P<outside>[^,;.]{0,40})", re.IGNORECASE)


def classes_denied(text: str) -> set[str]:
    """The classes a text names only to say a host is of none of them ("not on the op subnet"): no class it speaks of."""
    denied = {c for m in _NOT_A_MEMBER.finditer(text) for c in classes_in(m["rest"] or m["outside"] or "")}
    return denied - set(classes_in(_NOT_A_MEMBER.sub(" ", text)))


def membership_denied_away(text: str) -> str:
    """(r43x) A text without the words that deny its host a class ("each box not on the op subnet which shows Scan" ->
    "each box which shows Scan"): they say which hosts, not whether the order is given (checks.py's polarity)."""
    return _NOT_A_MEMBER.sub(lambda m: _denial_alone_away(m) if classes_in(m.group(0)) else m.group(0), text)


def _denial_alone_away(found: re.Match) -> str:
    """(r41h) What a denial of membership (_NOT_A_MEMBER) swept up after the class it denies, kept: "outside the op
    subnet which shows a probe" leaves "which shows a probe" (cut whole, the host lost the state it is said to show)."""
    ends = [m.end() for pattern, _ in _CLASS_FORMS for m in pattern.finditer(found.group(0))]
    return " " + (found.group(0)[max(ends):] if ends else "")


# (r43m) The hosts a clause leaves out, said inside it: ", except Op_Server0,", "other than User0 and User1".
_HOSTS_EXCEPTED = re.compile(rf"\s*,?\s*\b(?:{EXCEPT_WORDS})\s+(?:the\s+)?{_HOST_WORD}(?:\s*(?:,|\band\b|\bor\b)\s*(?:the\s+)?{_HOST_WORD})*"
                             r"\s*(?:[,.;]|(?=$))", re.IGNORECASE)


def _outside_or_claims(said: str, own, unresolved, named: tuple[str, ...], universal: bool = True):
    """(r43x) The claims of a condition or of what an order acts on, its host placed outside the classes it denies
    (`_outside_denied`); read otherwise, never a claim on a whole class it denies: "each box outside the op subnet that
    ..." read with its class word was the op subnet, the opposite of its words (what is left claims less, never that)."""
    found = _outside_denied(said, own, unresolved, named, universal)
    if found is not None:
        return found
    return _denied_classes_away(claims(said, own, unresolved, named, universal=universal), classes_denied(said))


def _denied_classes_away(found, denied: set[str]):
    """(r43x) Claims without those on a host of a class the text denies, in general ("a host of the op subnet") or each
    of the class in turn (a universal read over the class): the text says its host is none of them."""
    from forge.rulebook.language.predicate import AllOf, AnyOf, Atom  # lazy: as in `claims`

    if not denied or found is None:
        return found
    members = hosts_of(denied)
    if isinstance(found, Atom):
        on_denied = found.host_class in denied if found.host is None else False
        return None if on_denied else found
    if isinstance(found, AllOf) and all(isinstance(p, Atom) and p.host is not None for p in found.parts) \
            and {p.host for p in found.parts} <= members:
        return None  # (every host of the denied class, one at a time: the class itself)
    if isinstance(found, (AllOf, AnyOf)):
        parts = tuple(p for p in (_denied_classes_away(x, denied) for x in found.parts) if p is not None)
        return None if not parts else parts[0] if len(parts) == 1 else type(found)(parts)
    return found


def _outside_denied(said: str, own, unresolved, named: tuple[str, ...], universal: bool = True):
    """The claims of a condition that says its host is of none of some classes ("a box with a live exploit, not
    on the op subnet"): what it says of a host in general, said of a host of each other class (read with the class
    word, the denial claimed the very class it rules out). `universal` as in `claims`: what an order acts on ("restore
    each box outside the op subnet that shows ...") is some such host; a condition on every one of them, each host of
    the other classes."""
    from forge.rulebook.language.predicate import AllOf, AnyOf, Atom  # lazy: as in `claims`

    denied = classes_denied(said)
    said = _HOSTS_EXCEPTED.sub(" ", said)  # (r43m) "..., except Op_Server0, ...": left out by `excepting`, no host it names
    if not denied or hosts_in(said):
        return None
    rest = re.sub(r"\s*(?:,\s*)?\b(?:and|but)\s*$", "", _NOT_A_MEMBER.sub(_denial_alone_away, said).strip())
    rest = re.sub(r"\b(?:and|but)\s+(?:is|are|sits?)\s*(?=$|,)", "", rest).strip()
    found = claims(rest, own, unresolved, named, universal=universal)
    kept = [c for c in HOST_CLASSES if c not in denied]
    parts = found.parts if isinstance(found, AllOf) else (found,) if found is not None else ()
    if _every_host_alike(parts):  # ("when every box outside the op subnet shows a scan": each host of the other classes)
        return _all_of([p for p in parts if any(p.host in HOST_CLASSES[c] for c in kept)])
    if len(parts) == 1 and isinstance(parts[0], Atom) and parts[0].host is None \
            and parts[0].host_class not in (None, "any", *denied):
        return found  # (r41h: "an op box being probed, unlike the ent servers": the class it names, not the one set apart)
    if len(parts) != 1 or not isinstance(parts[0], Atom) or parts[0].host is not None or parts[0].host_class != "any":
        return None  # (only a state said of one host in general is placed; anything else stays as it was read)
    return AnyOf(tuple(replace(parts[0], host_class=c) for c in kept))


def _every_host_alike(parts) -> bool:
    """(r43x) Whether claims are one state said of every host of the network, each by name (a universal read of "every
    box"): what a denial of membership narrows to the hosts of the other classes."""
    from forge.rulebook.language.predicate import Atom  # lazy: as in `claims`

    if not parts or not all(isinstance(p, Atom) and p.host is not None for p in parts):
        return False
    return {p.host for p in parts} >= set(HOSTS) - {"Defender"} and len({replace(p, host=None) for p in parts}) == 1


# (r39k) "they" said of the hosts an order acts on: each of them, one at a time ("E0, E1 and E2 need a Remove once
# they show a compromise" removes whichever shows one), unless the words put them together ("both", "all", "at once")
_THEY_ALONE = re.compile(r"\bthey\b", re.IGNORECASE)
_TOGETHER = re.compile(r"\b(?:both|all|each|every|together|at\s+once|at\s+the\s+same\s+time|simultaneously|too)\b",
                       re.IGNORECASE)


def _each_it_acts_on(condition: str, named: list[str], words) -> str:
    """A condition whose "they" stands for the hosts the order itself acts on, written as "any of them": each host is its
    own case (read as all of them at once, the rule waited for every listed host to fall before acting on one). A list
    the order does not act on ("restore Op_Server0 when Enterprise0 and Enterprise1 are compromised") stays together."""
    if len(named) < 2 or not _THEY_ALONE.search(condition) or _TOGETHER.search(condition) or hosts_in(condition):
        return condition
    acted_on = set(hosts_in(order_without_conditions(words.instruction, words.conditions)))
    if not set(named) <= acted_on:
        return condition
    return _THEY_ALONE.sub("any of them", condition, count=1)


# (r43m) A heading that opens on every host of a class, then the state, with an order on one host ("every ent server
# other than E0: scan seen, nothing more -> decoy it"): each host of the class is its own case, as "any" says (read as
# every host at once, the rule waited for the whole class to be scanned before acting on one).
# (r46m: and "all usr boxes except U2: ... -> decoy that box": "all" with an order on one host is each of them as well)
_EVERY_HEADING = re.compile(r"^\s*(?:every|each|all(?:\s+(?:of\s+)?the)?)\s+(?=(?:[\w-]+\s+){0,2}?(?:hosts?|box(?:es)?|machines?|servers?|srvs?|svrs?|nodes?|workstations?)\b)",
                            re.IGNORECASE)
_ON_ONE_HOST = re.compile(r"\b(?:it|that\s+(?:host|box|machine|server|one|node))\b", re.IGNORECASE)


def _every_one_heading(condition: str, words) -> bool:
    """Whether a condition is a heading on every host of a class whose order acts on "it" (`_EVERY_HEADING`)."""
    order = order_without_conditions(words.instruction, words.conditions)
    one = _ON_ONE_HOST.search(order)
    # (r46a: not where the order names a host of its own before its "it", "all user boxes owned: decoy Op_Server0 before it
    # falls": that "it" is that host, and the heading's "all" stays every host of the class at once)
    return condition.strip() == words.situation.strip() and bool(_EVERY_HEADING.match(condition)) \
        and one is not None and not set(hosts_in(order[:one.start()])) - set(hosts_in(condition))


def _each_its_own_case(found):
    """Claims of every host of a class in one state (each host its own atom), as any one of them in it."""
    from forge.rulebook.language.predicate import AllOf, AnyOf, Atom  # lazy: as in `claims`

    if isinstance(found, AllOf) and len(found.parts) > 1 and all(isinstance(p, Atom) and p.host is not None for p in found.parts) \
            and len({p.host for p in found.parts}) == len(found.parts):
        return AnyOf(found.parts)
    return found


# A case said by ellipsis after one about several hosts: "if only Enterprise2 is", "when just User1 does" (r37m)
_ONLY_ONE_IS = re.compile(rf"^\s*(?:if|when|whenever|while|should)\s+(?:only|just)\s+(?P<host>{_HOST_WORD})\s+(?:is|are|does|has|was)\s*$",
                          re.IGNORECASE)
# The state the case before says of its hosts: "... are both compromised", "... is rooted"
_STATE_SAID = re.compile(r"\b(?:is|are|were|was)\s+(?:both\s+|all\s+|each\s+)?(?P<state>[^,;.]+?)\s*$", re.IGNORECASE)


def _only_one_case(condition: str, previous: str) -> str:
    """A case said by ellipsis after one that gave several hosts a state ("When User1 and Op_Host0 are both owned,
    ...; if only Op_Host0 is, ..."): that host in that state and the others named before not in it (read alone, "only
    Op_Host0 is" claimed Op_Host0 shown, in any state)."""
    found = _ONLY_ONE_IS.match(condition)
    said = _STATE_SAID.search(previous) if found else None
    host = hosts_in(found["host"]) if found else ()
    if not said or len(host) != 1 or host[0] not in hosts_in(previous) or len(hosts_in(previous)) < 2:
        return condition
    others = [h for h in hosts_in(previous) if h != host[0]]
    state = said["state"]
    return f"{condition.split()[0]} {host[0]} is {state} and " + " and ".join(f"{h} is not {state}" for h in others)


def _branches_either(words, heading: list, each: list[list]):
    """The claims of a text's conditions, `each` one's parts in the order of `words.conditions`, after `heading`'s:
    together, or, for a decision tree or checklist whose every condition heads an order of its own (`_branches`), the
    claims of its branches, any of them (r34m: read together, "if it is owned, restore it; if it is only probed,
    decoy it" claimed the host owned and probed at once, and the rule never applied)."""
    from forge.rulebook.language.predicate import AnyOf  # lazy: as in `claims`

    found = _branches(words) if len(each) == len(words.conditions) else None
    groups = found[0] if found else None
    if groups is not None and all(each[i] for group in groups for i in group):
        # (a heading before the tree, "Tree for Op_Host1:", holds for every branch)
        # (r45m: or a heading inside the instruction, "When a user host is owned: if ..., ...; if ..., ...")
        shared = [p for i, c in enumerate(words.conditions) if not any(i in group for group in groups) and i not in found[1]
                  for p in each[i]]
        cases = [[p for i in group for p in each[i]] for group in groups]
        cases = cases[:1] + [_within_first_case(cases[0], case) for case in cases[1:]]
        either = AnyOf(tuple(_all_of(case) for case in cases))
        return _all_of(heading + shared + [either] + _cases_not_applied(found[1], each, either))
    return _all_of(heading + [p for found in each for p in found])


def _cases_not_applied(closed: list[int], each: list[list], either) -> list:
    """(r44h) The denials of the cases a text says it does not apply in, where such a case can hold with the ones it
    orders in ("once Enterprise0 is exploited, pull the attacker off it. Should it have reached admin level, ignore
    this advice": exploited at admin level is no case of it). A case that cannot hold with them is denied already by
    what they ask ("...; if just one is, this list says nothing"); one whose words are not read is left as it was."""
    from forge.rulebook.language.predicate import Not, may_overlap  # lazy: as in `claims`

    denied = []
    for i in closed:
        case = _all_of(each[i]) if each[i] else None
        if case is not None and may_overlap(either, case):
            denied.append(Not(case))
    return denied


def _within_first_case(first: list, later: list) -> list:
    """A later case whose whole condition is what the first case denies ("while User3 is probed and no op host is owned,
    decoy User3 first; if an op host is owned, its Restore goes first"): the first case's other way, so the rest of the
    first case's condition holds in it too (r37m: read alone, the later case applied wherever an op host was owned, User3
    probed or not)."""
    from forge.rulebook.language.predicate import Not  # lazy: as in `claims`

    said = _all_of(later)
    if said is None or not any(isinstance(p, Not) and p.part == said for p in first):
        return later
    return [p for p in first if not (isinstance(p, Not) and p.part == said)] + later


# (r34m) Before a branch's condition: how a checklist or a tree counts its steps ("First,", "step two,", "2)", "else").
_BRANCH_LEAD = re.compile(r"[\W_]*(?:(?:first|then|next|second|third|finally|step\s+\w+|\d+\)|otherwise|else|and|but|or|"
                          # (r37m) a fallback case: "failing that, if ...", "if not, then when ..."
                          r"failing\s+(?:that|this)|if\s+not)\b[\W_]*)*",
                          re.IGNORECASE)
# After a checklist's last condition: that the rule does not apply there ("if it shows nothing, this does not apply").
_NOT_APPLYING = re.compile(r"\b(?:does\s+not|doesn['\u2019]t|do\s+not)\s+apply\b|\bnot\s+(?:this|the\s+\w+'s)\s+(?:note|rule|lesson|"
                           r"checklist|list|tree)\b|\bsays\s+nothing\b|\bnot\s+about\s+(?:it|them)\b|\bleave\s+(?:this|it)\s+aside\b|"
                           r"\bnothing\s+from\s+this\b", re.IGNORECASE)


_ON_TOP = re.compile(r"\b(?:also|too|as\s+well|in\s+addition|on\s+top|besides)\b", re.IGNORECASE)
_FOR_CASE = re.compile(r"[\W_]*for\s*", re.IGNORECASE)
# (r43m) A move kept, saved or held back for a case of its own: "save the Restore for once it is at root", "hold a
# Restore back for a rooted box". The case is another branch of the note, with that move as its order.
_KEPT_FOR = re.compile(r"\b(?:keep|keeping|save|saving|reserve|reserving|hold|holding)\s+(?:the\s+|a\s+|an\s+|your\s+)?"
                       r"[\w-]+(?:\s+(?:of\s+)?(?:it|them|\w+\d))?\s+(?:back\s+)?for\s*$", re.IGNORECASE)


_CONDITION_HEADING = re.compile(r"^(?P<heading>\s*(?:when|whenever|if|once|while|as\s+long\s+as)\b[^:;.]*:)\s+(?P<rest>\S.*)$",
                                re.IGNORECASE | re.DOTALL)


def _branches(words) -> Optional[tuple[list[list[int]], list[int]]]:
    """The branches of a decision tree or checklist, as the indices of `words.conditions` each holds, and the indices
    of the conditions it does not apply in: every clause with a condition holds one, which opens it (after a step's count) and heads an order of its own, or closes the
    first clause after its order ("a Restore of it whenever ...; if ..., an Analyse of it in its place"); a last
    condition that orders nothing, or says the rule does not apply there, is no branch; a heading before the tree
    ("Tree for Op_Host1:", the text's situation) is none either. None unless there are two branches or more (or one and
    a condition the rule does not apply in: "when both are owned, ...; if just one is, this rule says nothing") and
    every other condition is placed so."""
    # (r45m: and after a heading's condition and its colon, and before a later case joined by "and": "When a user host is
    # owned: if A, X, and if B, Y instead")
    headed_by = _CONDITION_HEADING.match(words.instruction)
    clauses = ([headed_by["heading"]] if headed_by else []) + \
        [c for c in re.split(r"(?<=[.;!?])\s+|\s+/\s+|,\s+and\s+(?=(?:if|when|whenever|once|should)\b)",
                             headed_by["rest"] if headed_by else words.instruction) if c.strip(" .;")]
    groups: list[list[int]] = []
    placed: set[int] = set()
    closed: list[int] = []  # a condition the text says the rule does not apply in ("if only one is, this says nothing")
    heading: set[int] = set()  # (r45m) the conditions of a heading before the cases, "When a user host is owned:"
    for at, clause in enumerate(clauses):
        inside = [i for i, c in enumerate(words.conditions) if c.text in clause and i not in placed]
        if not inside:
            continue
        if at == 0 and clause.rstrip().endswith(":") and not verbs_in(clause) and len(clauses) > 2:
            heading |= set(inside)
            placed |= set(inside)
            continue
        if len(inside) > 1:
            return None
        text = words.conditions[inside[0]].text
        if _ON_TOP.search(text):
            return None  # "...; if User1 is also owned, ...": a branch that adds to the one before, not another case
        before, after = clause.split(text, 1)
        last = at == len(clauses) - 1
        # (r37m: the first case may follow the scope of the whole note, "For the box being analysed: when ...")
        scoped = not groups and (scope := _CLASS_SCOPE.match(before)) is not None and not before[scope.end():].strip()
        # (r43m: or the first case said as the named host it is for, "for <host> at the user level a Remove suffices; ...";
        # not a host in general, "for a host under analysis that ...; if that host is X, ...", whose later case narrows it)
        if (_BRANCH_LEAD.fullmatch(before) or scoped or not groups and _FOR_CASE.fullmatch(before) and hosts_in(text)) \
                and verbs_in(after) \
                and not _NOT_APPLYING.search(after):
            groups.append(inside)
        elif (not groups or _KEPT_FOR.search(before)) and verbs_in(before) and not after.strip(" ,.;"):
            # the order first, its condition after it; (r43m) and a later case that keeps another move for its own
            # condition, "...; save the Restore for once it is at root" (read with the first case's, the rule held nowhere)
            groups.append(inside)
        elif _BRANCH_LEAD.fullmatch(before) and groups and (_NOT_APPLYING.search(after) or last and not after.strip(" ,.;")):
            closed.append(inside[0])
        else:
            return None
        placed.add(inside[0])
    headed = {i for i, c in enumerate(words.conditions) if words.situation.strip() and c.text.strip() == words.situation.strip()} | heading
    if headed and groups and clauses and verbs_in(clauses[0]) and not any(c.text in clauses[0] for c in words.conditions):
        # (r37m) "E0 scan only -> decoy it; E0 under exploit -> Remove it": the opening situation heads the first case's
        # order alone (its clause states no condition of its own), not every case as a tree's heading does
        groups.insert(0, sorted(headed))
    return (groups, closed) if (len(groups) > 1 or groups and closed) and len(placed | headed) == len(words.conditions) else None


def conditions_not_applied(words) -> tuple[str, ...]:
    """The conditions of a decision tree or checklist the text says it does not apply in, or gives no order for
    ("...; if it shows nothing, this list does not apply"): no restriction the rule's predicate must express."""
    found = _branches(words)
    return tuple(words.conditions[i].text for i in found[1]) if found else ()


# A host in general, by its noun ("any host", "a box", "machines"): under a class's scope, a host of that class.
_HOST_NOUN = re.compile(r"\b(?:host|machine|box|node)(?P<many>s|es)?\b(?!'s)", re.IGNORECASE)


def _of_class(said: str, named_class: str) -> str:
    """A condition that names no class, with each host it speaks of in general written as a host of `named_class`
    ("any host showing a scan", under "On the operational subnet,", is "any operational host showing a scan")."""
    if classes_in(said) or hosts_in(said):
        return said
    word = _CLASS_WORD[named_class][:-1]
    return _HOST_NOUN.sub(lambda m: f"{word}s" if m["many"] else word, said)


def _class_heading(condition: str, words):
    """A heading that is the rule's one condition and names one class and no state, only, maybe, the hosts of it the
    rule excepts ("Op hosts other than Op_Server0 -> never Restore", "enterprise boxes: no Remove"): the rule is about
    any host of the class that is shown, as a heading that names one host is about that host shown (the exception is
    then taken out by `excepting`). None for anything else (a state, a second condition, a host it does not except)."""
    from forge.rulebook.language.predicate import Atom  # lazy: as in `claims`

    if len(words.conditions) != 1 or condition.strip() != words.situation.strip():
        return None
    classes = classes_in(condition)
    if len(classes) != 1 or not set(hosts_in(condition)) <= set(words.excepted):
        return None
    bare = _without_exception(condition)
    # (nothing but the class's name, maybe after an article or "all": "user host @ Unknown" says more than the class)
    if not re.fullmatch(r"\s*(?:(?:the|all|any|every|each|our)\s+)*", without_class_names(bare), re.IGNORECASE):
        return None
    if bare == condition and words.excepted or unplaced(bare) or _state_of(bare) != ((None, None), None) or negations_in(bare) or history_conditions(bare):
        return None
    return Atom(host_class=classes[0])


# what a class heading excepts: the except words and the hosts after them ("other than Op_Server0", "except User0 and
# User1"), and nothing after them ("ent boxes except Enterprise0, rooted" keeps its state)
_EXCEPT_TAIL = re.compile(r"\b(?:except(?:\s+(?:for|on))?|other\s+than|apart\s+from|aside\s+from|but\s+not|excluding|save\s+for|"
                          r"besides|with\s+the\s+(?:sole\s+)?exception\s+of|not\s+counting|leaving\s+out|barring)\s+(?:the\s+)?"
                          r"(?P<what>[\w-]+(?:\s*(?:,|\band\b|\bor\b|\bnor\b|/)\s*(?:the\s+)?[\w-]+)*?)(?=\s*(?:[,;:.)]|->|$))",
                          re.IGNORECASE)


def _without_exception(condition: str) -> str:
    """A heading less what it excepts, where every word after the except word is a host's name; else as it is."""
    found = _EXCEPT_TAIL.search(condition)
    if found is None or not _hosts_only(found["what"]):
        return condition
    return condition[:found.start()] + condition[found.end():]


def _hosts_only(what: str) -> bool:
    """Whether `what` is one or more hosts' names and nothing else ("E1", "User1 and User3", "the E0, E2")."""
    return bool(hosts_in(what)) and not re.sub(r"\b(?:and|or|nor|the)\b|[,/\s]", "", without_host_names(what), flags=re.IGNORECASE)


_IT = re.compile(r"\bit(?:s|'s)?\b", re.IGNORECASE)
# A sentence that opens with the class it is about: "On the enterprise servers, ...", "For user boxes: ...".
_CLASS_SCOPE = re.compile(r"^\s*(?:on|for|across|among|with|in)\s+(?P<what>(?:the\s+|all\s+(?:the\s+)?|any\s+|our\s+)?[^,:;]{2,40}?)\s*[,:]",
                          re.IGNORECASE)


_AT_HAND_SCOPE = re.compile(HOST_AT_HAND, re.IGNORECASE)


def _at_hand_scope_of(instruction: str, condition: str) -> Optional[re.Match]:
    """(r37m) The scope "For the host under analysis," that opens the sentence a condition stands in, when the condition
    is in a later clause of it ("For the machine under inspection, if ... recommend X; failing that, if it ..., recommend
    Y"): the scope holds for every clause of its sentence. None for any other scope, or none."""
    sentence = next((s for s in re.split(r"(?<=[.!?])\s+", instruction) if condition in s), "")
    scope = _CLASS_SCOPE.match(sentence)
    return scope if scope and _AT_HAND_SCOPE.fullmatch(scope["what"].strip()) else None
_LONE_IT = re.compile(r"\bit\b(?!')", re.IGNORECASE)  # "it" as a subject ("if it shows ..."), not "its", "it's"


def _subjectless(said: str) -> bool:
    """Whether a condition states a state and says of nothing that it is in it (no host, class, host in general or
    pronoun): "a compromise at user level", "exploit activity"."""
    return not classes_in(said) and not hosts_in(said) and not _SOME_HOST.search(said) and not _GENERAL_SUBJECT.search(said) \
        and not re.search(r"\b(?:it|its|they|them|one|none|all|each|every|no\s+host)\b", said, re.IGNORECASE) \
        and _state_of(said) not in (((None, None), None),)


def _named_before_it(sentence: str, condition: str, named: list) -> Optional[str]:
    """The host an "it" in a condition stands for where its sentence names several: the one named last before it ("as
    long as Op_Server0 is clean, remove User4 the moment it shows an exploit": User4, the order's host). None where the
    condition has no "it", or no named host comes before it."""
    it = _IT.search(condition)
    where = sentence.find(condition)
    if it is None or where < 0:
        return None
    before = (sentence[:where] + condition[:it.start()]).split()
    for start in range(len(before) - 1, -1, -1):  # the shortest tail that names a host: the nearest one
        found = [h for h in hosts_in(" ".join(before[start:])) if h in named]
        if found:
            return found[0]
    return None


def refused_predicate(semantic_reason: str) -> bool:
    """Whether a semantic rule is one whose compiled predicate the product refused (or whose instruction the
    compiler dropped): judged by its claims alone (`semantic_claims`)."""
    return (semantic_reason or "").startswith(_REFUSED)


def confirmed(found, levels: bool = False):
    """Claims where "Host is compromised", said of one named host or of a class ("a user host is compromised": one of
    its hosts), is not met by a row at Compromised Unknown (the row a Remove leaves, or a level the table does not
    know): a rule judged by its words alone, or a compiled predicate held to them, fires on what they say for sure. Said
    under a negation ("not compromised") the claim stays as it was (Unknown leaves it unknown, as ever). With `levels`, a
    level denied of one named host ("User2 is exploited but not rooted": not at Privileged) is not met by its row at
    Unknown either: that row does not say the host is not at root (it does not know)."""
    from forge.rulebook.language.predicate import AllOf, AnyOf, Atom, Not  # lazy: as in `claims`

    if isinstance(found, Atom):
        # (an atom of what was done asks its host's rows already: "still compromised after a Remove" is not met at the
        # Unknown a Remove leaves; another history is held to it here: "compromised, unchanged, for three steps" is not
        # met by a row that read Unknown all along)
        if found.compromise != "any" or found.acted is not None:
            return found
        if found.host is None:
            # "a user host is compromised": some host of the class shows a compromise for sure (a row at Unknown in the
            # class met it, and a rule about compromised user hosts fired on a table whose only user row read Unknown)
            return AnyOf(tuple(confirmed(found.on(host)) for host in found.hosts()))
        return AllOf((found, Not(replace(found, activity=None, compromise=_UNKNOWN_LEVEL, newly_compromised=None,
                                         unchanged_for=None, acted=None, within=None, changed=None,
                                         scan_before_exploit=None))))
    if isinstance(found, (AnyOf, AllOf)):
        return type(found)(tuple(confirmed(p, levels) for p in found.parts))
    if levels and isinstance(found, Not) and isinstance(found.part, Atom) and found.part.host is not None \
            and found.part.activity is None and found.part.compromise in _LEVELS and not found.part.history():
        return AllOf((found, Not(replace(found.part, compromise=_UNKNOWN_LEVEL))))
    return found  # (None, a negation: left as it was)


_UNKNOWN_LEVEL = "Unknown"
_LEVELS = ("User", "Privileged")  # the levels of a compromise the table states


def cut_conditions(directive: str, text: str) -> tuple[str, ...]:
    """The conditions a rule's whole text states that its directive (compile.fitted: a long text cut to its
    instruction as the reader found it) does not hold: read from the directive alone, the rule would speak where its
    text says it does not apply ("..., I think, that when Enterprise1 is scanned but not compromised I should put a
    decoy on it" cut to the story's first sentence, which names Enterprise1 and nothing of its state)."""
    if not text or " ".join(text.split()) == " ".join((directive or "").split()):
        return ()
    text, directive = narrower_cases_away(text), narrower_cases_away(directive)  # (r44m: on both sides alike)
    words = read_wording(text)
    stated = [c.text for c in words.conditions] + list(conditions_left_out(text))
    kept = " ".join((directive or "").split()).lower()
    # (r39m: an opening read whole as the situation, "the sequence should be, whenever X ...", is kept where the directive
    # holds it from its condition's first word on)
    return tuple(c for c in stated if " ".join(c.split()).lower() not in kept and _says_something(c)
                 and " ".join(_from_its_marker(c).split()).lower() not in kept)


_MARKER_AFTER_COMMA = re.compile(r",\s*(?=(?:whenever|when|if|once|while|as\s+soon\s+as)\b)", re.IGNORECASE)


def _from_its_marker(condition: str) -> str:
    """A condition from the marker after its lead's comma on ("the order should be, whenever X ..." -> "whenever X ...")."""
    found = _MARKER_AFTER_COMMA.search(condition)
    return condition[found.end():] if found else condition


def cut_exceptions(directive: str, text: str) -> tuple[str, ...]:
    """The hosts a rule's whole text excepts that its directive (cut to its instruction) does not: an exception said in
    a sentence of its own after the order ("...; User1 is the exception") is still the rule's."""
    if not text:
        return ()
    kept = read_wording(directive).excepted
    return tuple(h for h in read_wording(text).excepted if h not in kept)


def _says_something(condition: str) -> bool:
    """Whether a condition names a host, a class, a state or a kind of fact (not a heading such as "Lesson"); a word
    that may mark history with no state to mark ("the one that is still shallow", said of a foothold) says none."""
    if hosts_in(condition) or classes_in(condition) or _STATE_SPOKEN.search(condition):
        return True
    facts = facts_needed(condition)
    if facts == {"history"} and not facts_needed(_HISTORY_MARK.sub(" ", condition)):
        return False
    return bool(facts) and not _lone_word(condition)


_HISTORY_MARK = re.compile(r"\b(?:still|again|already|yet|any\s*more|no\s+longer)\b", re.IGNORECASE)


def _lone_word(condition: str) -> bool:
    """A "condition" of one word that names no host, class or state ("Still: do not restore ...", "Then: ..."): a
    connective before a colon, not a condition; a word that may mark history ("still", "again") needs a state to mark."""
    return len(re.findall(r"[A-Za-z_0-9']+", condition)) == 1


def semantic_claims(directive: str, semantic_reason: str = "", text: str = ""):
    """The claims a semantic rule must meet (None: none, its cosine decides). Claims that read the whole of its
    condition (and the states its order names) decide alone (`claims_decide`): its cosine adds nothing. A rule whose
    compiled predicate was refused (checks.py) is held to them strictly: claims that are not the whole of it, or no
    claims at all, leave it unknown, so silent (a predicate that never holds); so does a condition it states that they
    cannot read in full, whoever compiled it (a reflection's lesson the compiler kept semantic used to fire on its likeness
    to the context), and so does a condition of its whole `text` that its directive left out (`cut_conditions`). Only a
    rule that states no condition at all is left to its cosine."""
    from forge.rulebook.language.predicate import Always, Not  # lazy: as in `claims`

    if cut_conditions(directive, text):  # a condition of its text that the directive left out is not read: unknown
        return Not(Always())
    if condition_elsewhere(text or directive):  # (r43h) part of its condition is another note's, not here: unknown
        return Not(Always())
    if _table_cases(text or directive) is not None:
        # (r45m) a table of cases under a heading: any case's claims, each read whole, or none at all (read as prose, its
        # heading alone was the condition, "an op host is shown", and it fired whatever the host showed)
        listed = listed_claims(text or directive)
        return confirmed(listed) if listed is not None else Not(Always())
    found = rule_claims(directive, with_instruction=True)
    # (whole as `rule_claims` reads it, without what the order concedes: "never restore User0, even when it is owned: it
    # gets owned again at once" is read whole as "User0 is shown")
    if complete_claims(directive, found) or conceded_states(directive) and complete_claims(conceded_away(directive), found):
        # (an order's "not rooted" is not met by a row at Unknown either; a prohibition's exception, "unless it is
        # rooted", "short of a confirmed root", stands in that doubt: the prohibition holds there)
        words = read_wording(directive)
        kept = excepting(confirmed(found, levels=not (words.prohibitions or words.dispreferred)), cut_exceptions(directive, text))
        # (r41h) claims only of the hosts the text excepts leave nothing the rule applies to: it never holds (None would
        # leave it to its cosine, and it fired everywhere)
        return kept if kept is not None or found is None else Not(Always())
    held = evidence_rest(directive)
    if held is not None:  # (r40g) what is left of it once the evidence judged.py judges is taken away
        return held
    if refused_predicate(semantic_reason):
        return Not(Always())
    words = read_wording(directive)
    if words.conditions:  # a condition the product cannot read in full: never judged by likeness alone
        return Not(Always())
    return excepting(claims(condition_of(directive), subject_of(words)), words.excepted)


# (r40g) The evidence named as what shows what judged.py reads, "its evidence lists", "whose evidence has": the source of
# that reading, no word of a state (left, the verb was one the claims do not place).
# (r43m: and in a note, with no article, or with the verb of what it says: "evidence says ...", "the evidence mentions ...")
_EVIDENCE_SOURCE = re.compile(r"(?:\b(?:its|the|whose|their)\s+|^\s*)evidence\s+(?:lists|shows|reports|has|holds|contains|includes|says|"
                              r"mentions|names|reads)\b", re.IGNORECASE)


# (r43h) The words that only frame what the evidence lists, once judged.py took it away: the host at hand it is of ("on
# the box under inspection,"), "a file called", "in its evidence". Left, they were words no claim placed, and a rule all
# of whose condition is evidence was silent where the evidence showed it.
_EVIDENCE_FRAME = re.compile(r"^\s*(?:for|on)\s+(?:the|this|that)\s+(?:host|box|machine|server|node)\s+(?:under|being)\s+(?:analysis|inspection"
                             r"|analy[sz]ed|inspected)?\s*,|\b(?:an?\s+|any\s+)?files?\s+(?:named|called)\b|"
                             r"\b(?:in|on)\s+(?:the|its|their)\s+evidence\b", re.IGNORECASE)


@lru_cache(maxsize=8192)
def evidence_rest(directive: str):
    """(r40g) The claims of a rule's one condition where part of it is what the evidence shows, which judged.py reads
    and the gate judges of the hosts these claims match (retrieve._judged_of): what is left once that is taken away, read
    whole ("a user host at Unknown whose evidence lists no escalate file"), or the one class it keeps the rule to where
    it states nothing more (`_class_alone`). None where no evidence is read in it, it excepts a host, or what is left
    is not read whole. Without it the evidence was a part no claim placed, and a rule kept semantic was silent everywhere."""
    words = read_wording(directive)
    if len(words.conditions) != 1 or words.excepted or not evidence_tests(words.conditions[0].text):
        return None
    said = words.conditions[0].text
    rest = _EVIDENCE_FRAME.sub(" ", _EVIDENCE_SOURCE.sub(" ", without_evidence(said)))
    if not rest.strip(" ,.;:"):  # (r43h) all of it was the evidence of the host at hand: some host, any
        return _class_alone(rest, words)
    # (only the condition's evidence: "the host under analysis" in the order's lead is no analysis this step reports)
    stripped = directive.replace(said, rest) if said in directive else _EVIDENCE_SOURCE.sub(" ", without_evidence(directive))
    found = rule_claims(stripped, with_instruction=True)
    if found is not None:
        return confirmed(found) if complete_claims(stripped, found) else None
    return _class_alone(rest, words)


def _class_alone(rest: str, words):
    """Some host of the one class a condition's rest names, where it names no host, no state and no negation and every
    word of it is placed ("a user box with  in this step's analyses", "the box you inspect is an ops machine
    and  "); some host at all where it names no class either (the condition was all evidence, "when the evidence
    shows  "); None otherwise, and where the whole text names a host or a class besides (a class word the condition
    lost, "ent server with a shell" read as "server with ...", is no "any host")."""
    from forge.rulebook.language.predicate import Atom  # lazy: as in `claims`

    named = classes_in(spelled_out(rest)) or ("any",)
    if len(named) != 1 or hosts_in(rest) or negations_in(rest) or claims(rest) is not None or words.hosts \
            or not set(words.classes) <= set(named):
        return None
    found = Atom(host_class=named[0])
    return found if reads_whole(rest, found, negated=False) else None


@lru_cache(maxsize=8192)
def whole_claims(text: str):
    """The claims of a rule's condition and order (`rule_claims`, no bare host) where they read the whole of its
    condition (`complete_claims`); None where this reading places nothing, or only part of it."""
    found = rule_claims(text, with_instruction=True, bare=False)
    return found if found is not None and complete_claims(text, found) else None


def evidence_judged_away(text: str) -> str:
    """(r42h) A rule's text with the evidence its conditions state, which judged.py judges (`judged.without_evidence`),
    taken out of them: what is left is for the claims. Read by them too, "a shell on an op box" was some op box
    compromised for sure, and a rule on the shell was silent where the host's row read Unknown."""
    for condition in read_wording(text).conditions:
        if condition.text in text and evidence_tests(condition.text):
            text = text.replace(condition.text, without_evidence(condition.text))
    return text


def text_claims(text: str):
    """What a rule's own words claim of its condition, for the gate on a compiled predicate: (claims, whole), claims
    None where this reading places nothing. A predicate is the compiler's reading of the text, and may be wider than it
    in ways no check sees (a word the product does not know may hide a history, a level, a phase); where the product
    reads the whole of the condition, what it reads must hold (the checks already refuse a predicate that does not imply
    it), and where it reads only part, that part must not be false: a rule never fires where its own words, as the
    product reads them, say it does not apply."""
    branches = _fallback_branches(text)
    if branches:  # (r42m) "<case>, <order>; failing that, <case>, <order>; ...": any branch's case
        first = rule_claims(branches[0], with_instruction=True, bare=False)
        return _any_case(first, branches[1:], text) if first is not None else (None, False)
    listed = listed_claims(text)
    if listed is not None:
        return listed, False
    found = rule_claims(text, with_instruction=True, bare=False)
    if found is None:
        return None, False
    cases = _further_cases(text)
    if cases:
        return _any_case(found, cases, text)
    # Whole, the reading is what the rule's words say for sure, as a semantic rule's are (`confirmed`): "when Enterprise2 is
    # compromised" compiled as "Enterprise2 shows any compromise" does not fire on its row at Compromised Unknown.
    whole = complete_claims(text, found)
    return (confirmed(found), True) if whole else (found, False)


# One case and its order in a sentence of its own: "<situation> -> <order>" (an arrow, not a colon: a colon also opens a
# heading or a label).
_ARROW_CASE = re.compile(r"^\s*(?P<case>[^.;:>]{2,80}?)\s*(?:-+>|=>|\u2192)\s*(?P<order>\S.*)$")


def _further_cases(text: str) -> list[str]:
    """(r39g) The situations of the cases a text lists after its first, each "<situation> -> <order>" in a sentence of
    its own ("Op_Host2: probed -> a decoy on it. rooted -> Restore it."): the rule's condition is any of
    them, not the first alone (its claims held the rule to the first case, silent in the others)."""
    sentences = [s for s in re.split(r"(?<=[.;!?])\s+|\n+", text or "") if re.search(r"-+>|=>|\u2192", s)]
    later = [_ARROW_CASE.match(s) for s in sentences[1:]]
    # (r42h: not a case the note says it does not apply in, "a single box hit -> the note is silent there": its opposite)
    return [m["case"] for m in later if not _NOT_APPLYING.search(m["order"])] if all(later) else []


# (r42m) A branch tried when the ones before it do not hold: "failing that, if ...", "if not, when ...", "otherwise, if ...".
_FALLBACK_OPENING = re.compile(r"^\s*(?:failing\s+that|if\s+(?:not|neither|none)|otherwise|else|if\s+that\s+fails)\s*,?\s*",
                               re.IGNORECASE)


def _fallback_branches(text: str) -> list[str]:
    """(r42m) A text of branches, each after a semicolon and opened by a fallback ("If Op_Server0 is compromised, restore
    it; failing that, if Enterprise2 is, remove it; if not, ..."): the first branch's words, then each later branch's
    condition (its fallback word aside; that earlier branches fail is no condition of the rule, which applies in them
    too). Read as one condition, the branches were all asked at once. [] where the text is no such list, or a branch
    states no condition of its own ("...; otherwise, decoy it": the rest of the cases, which no reading places)."""
    parts = [p for p in re.split(r"\s*;\s*", " ".join((text or "").split())) if p]
    if len(parts) < 2 or not all(_FALLBACK_OPENING.match(p) for p in parts[1:]):
        return []
    cases = []
    for part in parts[1:]:
        conditions = read_wording(_FALLBACK_OPENING.sub("", part, count=1)).conditions
        if not conditions:
            return []
        cases.append(" and ".join(c.text for c in conditions))
    return [parts[0], *cases]


# (r42m) A table of cases under a heading, one bulleted line each: "<heading>:" then "- <case> -> <move>" lines.
# What names the table in its heading, no condition: "decoy map, ...", "default decoy for ...", "move table: ...".
_TABLE_LABEL = re.compile(r"^\s*(?:(?:the|my|our)\s+)?(?:default\s+)?(?:decoys?|moves?|actions?|responses?|plays?)\s+"
                          r"(?:map|table|list|sheet|plan|for)\b\s*[,:]?\s*", re.IGNORECASE)
# (r45m) ... or after the scope, what the heading calls the list: "op boxes - our list", "Op_Host2, the drill", "user hosts
# (checklist)".
_LIST_LABEL = re.compile(r"\s*(?:[-,\u2013\u2014(]\s*)?(?:(?:my|our|the|a)\s+)?(?:(?:short|quick|usual|own)\s+)?(?:list|checklist|"
                         r"drill|notes?|cases|table|runbook|playbook|cheat\s*sheet)\s*\)?\s*$", re.IGNORECASE)
_LISTED_LINE = re.compile(r"^\s*[-*\u2022]\s+(?P<case>[^\n]{1,80}?)\s*(?:-+>|=>|\u2192)\s*\S")


def listed_claims(text: str):
    """(r42m) The claims of a note that lists its cases under a heading, one bulleted line each ("ent srvs:" / "- scan
    only -> DecoyApache it" / "- root -> Restore it"; "a probed host, nothing held on it:" / "- U1 -> DecoyTomcat"): any
    line's case, said with the heading (the scope or the state every line shares), read whole; None where the text is no
    such table or a line cannot be read whole. Flattened, its first line was its one condition, or none was read. A line
    after the table that is no case ("every other host: not covered here") says where the note does not apply."""
    from forge.rulebook.language.predicate import AnyOf  # lazy: as in `claims`

    table = _table_cases(text)
    if table is None:
        return None
    heading, cases = table
    found = []
    for case in cases:
        said = f"{named_in_full(case)}: {heading}" if hosts_in(case) else f"{heading}: {case}"
        claim = claims(said)
        if claim is None or not reads_whole(said, claim):
            return None
        found.append(claim)
    return AnyOf(tuple(found))


def _table_cases(text: str) -> Optional[tuple[str, list[str]]]:
    """(r45m) A note's table of cases under a heading (`listed_claims`): its heading, without what it calls the table, and
    the cases of its lines; None where the text is no such table."""
    lines = [line for line in (text or "").splitlines() if line.strip()]
    if len(lines) == 1:  # (flattened, its lines joined: "<heading>: - <case> -> <move> - <case> -> <move>")
        lines = [part if i == 0 else f"- {part}" for i, part in enumerate(re.split(r"(?<=:)\s+[-*\u2022]\s+|\s+[-*\u2022]\s+(?=[^-]{1,80}?(?:-+>|=>|\u2192))", lines[0]))]
    head = next((i for i, line in enumerate(lines) if _LISTED_LINE.match(line)), None)
    if not head or not lines[head - 1].rstrip().endswith(":"):
        return None
    heading = _TABLE_LABEL.sub("", _LIST_LABEL.sub("", " ".join(lines[:head]).rstrip().rstrip(":")))
    cases = []
    for line in lines[head:]:
        m = _LISTED_LINE.match(line)
        if m is None:
            break
        cases.append(m["case"])
    return (heading, cases) if len(cases) >= 2 else None


def _any_case(first, cases: list[str], text: str):
    """(r39g) The claims of a text that lists cases: any case's, read of the one host its words name (its heading's),
    never whole; (None, False) where a case cannot be read whole (nothing then holds the predicate to the words)."""
    from forge.rulebook.language.predicate import AnyOf  # lazy: as in `claims`

    named = hosts_in(text)
    subject = named[0] if len(set(named)) == 1 else None
    found = [first]
    for case in cases:
        said = claims(case, subject)
        if said is None or not reads_whole(case, said, subject=subject):
            return None, False
        found.append(said)
    return AnyOf(tuple(found)), False


@lru_cache(maxsize=8192)
def text_facts(text: str) -> frozenset[str]:
    """The kinds of fact (FACTS) a rule's own words speak of in its conditions and order (`spoken_facts`): a compiled
    predicate that states none of them (no history atom for history) leaves them unjudged. (r39g) Not the kinds only
    the words of what the step's analyses report speak of (a rating the step's analyses give the host): the gate
    judges that itself (judged.py), and read as an alert priority it held the rule silent where the rating was so."""
    return frozenset(kind for said, kinds in spoken_facts(read_wording(narrower_cases_away(text)))
                     for kind in kinds - (facts_needed(said) - facts_needed(evidence_away(said))))


def claims_decide(directive: str, semantic_reason: str = "") -> bool:
    """Whether a semantic rule is judged by its claims alone, whatever its cosine: its predicate was refused, or its
    claims read the whole of its condition."""
    # (r43m: or a condition that is what the evidence shows, with what is left of it read whole, `evidence_rest`: judged.py
    # judges the evidence and the claims the rest, so the cosine adds nothing; left to it, a note in shorthand was silent)
    return refused_predicate(semantic_reason) or complete_claims(directive, rule_claims(directive, with_instruction=True)) \
        or evidence_rest(directive) is not None


def words_key(text: str) -> tuple:
    """What two wordings of one rule share (curation.py: a withdrawn rule taught again in other words): the hosts
    and classes named, the verbs with whether each is forbidden, what its condition and the objects of its order
    claim, and the kinds of fact it needs. Equal keys: the same rule."""
    words = read_wording(text)
    banned = {p.verb or "any" for p in words.prohibitions} | set(words.dispreferred)

    def kind(verb: str) -> str:  # "put a decoy" and "deploy DecoyApache" are one move
        return "Decoy" if verb.startswith("Decoy") else verb
    verbs = frozenset((kind(v), v in banned) for v in words.verbs) | frozenset(("any", True) for p in words.prohibitions
                                                                               if p.verb is None)
    found = rule_claims(text, with_instruction=True, bare=False)
    return (frozenset(words.hosts), frozenset(words.classes), verbs, None if found is None else repr(found),
            facts_needed(condition_of(text)))


def ordered_key(text: str) -> Optional[tuple]:
    """(r34h) `words_key` with only the verbs its order names outside its conditions: a verb named in a condition ("still
    compromised after we removed it", "still owned after an Analyse of it") is read in its claims (what the defender did),
    so two wordings that put it inside or outside the order's sentence are one rule. None where the claims read nothing
    (the condition's verb is then all that tells two rules apart)."""
    key = words_key(text)
    if key[3] is None:
        return None
    words = read_wording(text)
    order = words.order
    ordered = {"Decoy" if v.startswith("Decoy") else v for v in verbs_in(order)} | {"any"}
    return key[0], key[1], frozenset(v for v in key[2] if v[0] in ordered), key[3], key[4]


def skeleton(text: str) -> tuple:
    """The marked part of `words_key`: hosts, classes and verbs (with whether each is forbidden)."""
    return words_key(text)[:3]


def same_condition(a: str, b: str) -> bool:
    """Whether two texts state one condition (the same hosts and classes, equal claims of their conditions, the
    same kinds of fact), whatever they order: a teacher's second word on the same situation."""
    first, second = read_wording(a), read_wording(b)
    claims_a, claims_b = rule_claims(a), rule_claims(b)
    return claims_a is not None and claims_a == claims_b and complete_claims(a, claims_a) and complete_claims(b, claims_b) \
        and set(first.hosts) == set(second.hosts) and set(first.classes) == set(second.classes) \
        and facts_needed(condition_of(a)) == facts_needed(condition_of(b))
