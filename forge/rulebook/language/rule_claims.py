"""What a whole rule's words claim of the hosts (`rule_claims`), less what the text concedes, ends or keeps for another case. Pure.

A rule's condition read with its subject (the one host it names, for "it"), and optionally its order's target; the
hosts it excepts left out (`excepting`). Before the reading: what the order concedes ("..., even if it's rooted":
`conceded_away`, `conceded_hosts`, `conceded_states`, `conceded_classes`), where it ends (`ended_away`), the
later cases it keeps another move for (`narrower_cases_away`), and the host its order is given before the attacker
reaches (`not_yet_reached`).
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache

from forge.env.catalog import HOST_CLASSES, hosts_of
from forge.rulebook.language.claims import STATE_SPOKEN, all_of, claims, counted_groups
from forge.rulebook.language.episode import EpisodeStep, RewardTrend, episode_claims, without_episode_claims
from forge.rulebook.language.facts import MOVE_NAMES, facts_needed
from forge.rulebook.language.forbidding import EXCEPT_WORDS, EXCEPTED_HOST_LIST, falls_short_away, forbidding_away
from forge.rulebook.language.instruction import LEVEL_CONCEDED
from forge.rulebook.language.markers import negations_in
from forge.rulebook.language.names import HOST_IDENTIFIED, VERB, classes_in, hosts_in, state_words_in, verbs_in, without_class_names
from forge.rulebook.language.scope import condition_claims, heading_hosts, outside_or_claims, subject_of
from forge.rulebook.language.shorthand import HOST_WORD, spelled_out
from forge.rulebook.language.wording import read_wording


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
# (r51h: not a concession over the level alone, "whatever level it is owned at": the attacker holds the host, at some
# level, a condition (`instruction.level_conceded_said`))
# (r58m: a concession of what another says, "whatever the analyst thinks", "regardless of what my lead wants", ends with
# what they say: the condition after its comma is the rule's, "..., once Op_Host1 is rooted, plan a Restore")
CONCESSION = re.compile(r"\b(?:no\s+matter\s+what|whatever|regardless\s+of\s+what)\s+(?:(?:the|our|my|your|any|an?)\s+)?"
                        r"(?:\w+\s+){0,2}?(?:says?|said|claims?|thinks?|suggests?|recommends?|wants?|proposes?|advises?|tells\s+(?:you|us))\b"
                        # (r59l) with what they say it of, "no matter what the analyst says about User1 being clean,":
                        # the claim waved away is theirs, no condition of the rule, up to the comma that ends it
                        # (r59d: never over a condition of its own, "no matter what the lead says about Op_Host1 when it
                        # is rooted, Restore it": waved away with the claim, the Restore held in any state)
                        r"(?:\s+(?:about|of|regarding|concerning)\s+(?:(?!\b(?:when(?:ever)?|once|if|after|unless|while|until|till|"
                        r"before|as\s+soon\s+as|in\s+case|provided|should)\b)[^,;.:]){3,80}(?=,))?|"
                        r"\b(?!" + LEVEL_CONCEDED.pattern + r")(?:even\s+(?:if|when|though|while|as|with(?:out)?)|whatever|regardless\s+of|no\s+matter(?!\s+how\s+(?:many\s+times|often)\b)|"
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
    rf"\s*(?P<what>{HOST_WORD}|it\b|that\s+(?:host|box|server|machine)\b)?", re.IGNORECASE)


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
    return CONCESSION.sub(" ", text or "")


# (r44m) Another move kept for a narrower case of the note's own: after the note's order, a later clause that names
# another move for when more holds of the same host, "...; if it is at root by now, Restore it instead", "..., a Restore
# only once it is rooted", "...; Analyse if a decoy is on it already", "...; if the last Remove failed, a Restore". The
# note applies wherever its first case holds (the later case only changes which move, within it, or is what that case
# already denies), so the later case is no condition of the note: read as one, "compromised and at root" or a history no
# context states left the note silent where its first case held.
_MOVE = rf"(?:a\s+(?=decoy))?(?:{MOVE_NAMES})"  # ("a decoy on it": the one move said with its article here)


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
    if words.conditions and verbs_in(before) and _one_of_the_class(case, before):
        return True  # (r53l) "...; if that host is Enterprise2, Restore it instead": one host of the first case's class
    if not words.conditions or not verbs_in(before) or named - set(hosts_in(before)) or classes_in(case):
        return False
    if len(set(hosts_in(before))) > 1 and not named:
        return False  # ("it" of which host?)
    # a case of what was done before, on the host ("the last Remove failed", "a decoy is on it already")
    done = bool(facts_needed(case) & {"history", "action outcome"}) and not STATE_SPOKEN.search(case)
    if done or found["done"] is not None or found["after"] is not None or found["incase"] is not None \
            or found["kept"] is not None:
        return done
    # a state: only one within the first case ("..., once it is owned: ...; if it is at root, ... instead": root is owned)
    # or one the first case denies ("..., not rooted -> ..., a Restore only once it is rooted"); another state is a
    # case of its own, beside the first ("if it is only scanned, ...; if it is exploited, ... instead": either)
    return _within_case(rule_claims(before), claims(case, subject_of(read_wording(text))))


# (r53l) A case that only says which host the note's host is: "if that host is Enterprise2", "when it's User3", "if the
# box in question is Op_Host1".
_IDENTITY_CASE = re.compile(rf"^\s*{HOST_IDENTIFIED}(?:{HOST_WORD})\s*$", re.IGNORECASE)


def _one_of_the_class(case: str, before: str) -> bool:
    """(r53l) Whether a later case only picks out one host by name (`_IDENTITY_CASE`) of the one class the note's first
    case is about ("Remove any enterprise host that shows a compromise; if that host is Enterprise2, Restore it
    instead"): a narrower case within the first, whose own move changes there, and no condition beside it (read as one,
    "Enterprise2 is shown" was an alternative, and the note held on Enterprise2 in any state, quiet as well)."""
    hosts, classes = hosts_in(case), classes_in(before)
    return bool(_IDENTITY_CASE.match(case)) and len(hosts) == 1 and len(set(classes)) == 1 \
        and hosts[0] in hosts_of(classes) and not hosts_in(before)


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
    inside = {h for p in (CONCESSION, _FORESTALLED) for m in p.finditer(text or "") for h in hosts_in(m.group(0))}
    return frozenset(inside - set(hosts_in(_set_aside(text))))


def conceded_states(text: str) -> bool:
    """Whether the only states a text says of a host are said in a concession ("never restore User3, even if it's
    rooted"): the order holds whatever the host shows, so a predicate that asks that state is narrower than its words."""
    inside = [w for m in CONCESSION.finditer(text or "") for w in state_words_in(m.group(0))]
    return bool(inside) and not state_words_in(_set_aside(text))


def conceded_classes(text: str) -> frozenset[str]:
    """The host classes a text names only so ("Remove it that turn, even if user hosts are also compromised")."""
    inside = {c for p in (CONCESSION, _FORESTALLED) for m in p.finditer(text or "") for c in classes_in(m.group(0))}
    return frozenset(inside - set(classes_in(_set_aside(text))))


# (r52h) The order's own bound after its move, "gets an Analyse, nothing more", "is planned as 'Analyse X' and
# nothing else", "a Remove and nothing besides": no other move, no negation of the state the order is for (read as one,
# "a box at Unknown gets an Analyse, nothing more" held where no box was at Unknown, the opposite of its words).
_MOVE_BOUNDED = re.compile(r"(?:\s*,\s*|\s+)(?:and\s+)?(?:nothing|none)\s+(?:else|more|besides|further)\b", re.IGNORECASE)


def moves_bounded_away(order: str) -> str:
    """(r52h) `order` without the bound said after a move in its own clause (`_MOVE_BOUNDED`); a bound with no move before
    it in its clause ("scanned and nothing more"), which restricts a state, is left."""
    def away(m: re.Match) -> str:
        clause = re.split(r"[.;:?!]", order[:m.start()])[-1]
        return " " if verbs_in(clause) else m.group(0)
    return _MOVE_BOUNDED.sub(away, order)


@lru_cache(maxsize=8192)  # (a pure reading of the words, asked again of each rule by the checks, the gate and the compiler)
def rule_claims(text: str, *, with_instruction: bool = False, bare: bool = True):
    """The claims of a rule's condition (its subject: the one host it names, for "it"); `with_instruction`: also
    what its order says of the states of what it acts on ("remove the attacker from any exploited user host"),
    though not the bare mention of a host it acts on ("deploy a decoy on User2" does not need User2 shown)
    unless the rule states no condition at all and `bare` (for a semantic rule: "Never restore User0" applies
    where User0 is shown). Nothing is claimed of a host the text excepts."""
    from forge.rulebook.language.predicate import AllOf  # lazy: as in `claims`

    words = read_wording(ended_away(conceded_away(narrower_cases_away(text))))
    subject = subject_of(words)
    found = condition_claims(words)
    spared = _spared(words)
    if not with_instruction:
        return _with_restated(excepting(found, spared), words, spared)
    if found is None and bare and (heading := _heading_alone(words)) is not None:
        return _picked_by_state(words, heading)  # "Op_Host0 to Op_Host2: never Restore": any of them shown
    if found is None and bare and (banned := _class_banned_alone(words)) is not None:
        return banned  # (r53l) "never Restore a user host": where a user host is shown
    parts = list(found.parts if isinstance(found, AllOf) else (found,) if found is not None else ())
    rest = words.instruction
    for c in words.conditions:
        rest = rest.replace(c.text, " ")
    rest = falls_short_away(rest)  # (r41h: "a Remove won't shift it" is a reason against the move, no Remove made)
    # (r42h) a window of steps alone says when, of no host: a prohibition's bare target is where it applies, as with no
    # condition at all ("last 3 steps: never Restore a user box" speaks where a user box is shown; an order to act, "in
    # the first steps, put a decoy on User2", needs no User2 shown)
    windows = [w for w in episode_claims(f"{words.situation} {words.instruction}") if isinstance(w, EpisodeStep)]
    timed = bool(words.prohibitions and windows) and all(window_alone(c.text) for c in words.conditions)
    # (r50g) an order to act with a window and no condition, "On the opening turn of a game, put a decoy on
    # User4": the window says when, and the host it acts on is its target, not a host that must be shown
    hostless = (not words.conditions and not (windows and not words.prohibitions)) or timed
    # What the order says of what it acts on is in its noun phrases ("any exploited user host", "the compromised
    # Op_Server0"); a host named bare is its target; the rest of the order (its purpose, what it replaces) claims nothing.
    stated = [m.group(0) for m in (*_STATED_OBJECT.finditer(rest), *_STATED_AFTER_OBJECT.finditer(rest), *_HELD_AFTER_OBJECT.finditer(rest),
                                        *_WHICHEVER_OBJECT.finditer(_FIRST_MOVE_ONLY.split(rest, maxsplit=1)[0]))]
    if timed and bare and (target := _class_target(rest)) is not None:
        parts.append(target)
    # (r42x) read bare, the order's own "never" would deny the states of what it acts on ("never Restore an exploited
    # user host": no user host exploited, beside the exploited one its noun phrase claims): it forbids the verb, not them
    whole = forbidding_away(moves_bounded_away(rest))
    for piece in stated + ([whole] if hostless and bare else []):
        # (r41h) "a box outside the op subnet showing a probe": a host of the other classes, as in a condition
        # (r46m) "the newly compromised host" the order acts on is the host that fell, whichever it is: not the one host
        # the rule names elsewhere ("..., then a decoy on the op server": read of it, that server had to be owned)
        fresh = piece is not whole and _freshly_said(rest, piece)
        order = outside_or_claims(f"newly {piece}" if fresh else piece, None if fresh else subject, None, (), universal=False)
        # (r55l) so is one of a class or a named host said fresh, "any newly rooted user box": read without its "newly", the
        # rule held on a box rooted long ago, wider than its words (the claims of it said fresh, where the readers place them)
        if piece is not whole and not fresh and _fresh_before(rest, piece):
            order = outside_or_claims(f"newly {piece}", subject, None, (), universal=False) or order
        if piece is whole and words.prohibitions:
            order = _each_banned(order)  # (r52m) "User1 and Op_Host2 never get a Restore": where either is shown
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
    return _with_lifted(_with_restated(excepting(all_of(parts), spared), words, spared), all_of(parts), text)


_FRESH_BEFORE = re.compile(r"\b(?:newly|freshly|just)\s+$", re.IGNORECASE)


_GENERIC_NOUN = re.compile(r"\s(?:hosts?|box(?:es)?|machines?|servers?|workstations?|desktops?|laptops?|nodes?)$", re.IGNORECASE)


def _fresh_before(rest: str, piece: str) -> bool:
    """(r55l) Whether an order's stated object comes right after "newly", "freshly" or "just" ("any newly rooted user box")."""
    at = rest.find(piece)
    return at >= 0 and bool(_FRESH_BEFORE.search(rest[:at]))


def _freshly_said(rest: str, piece: str) -> bool:
    """(r46m) Whether an order's stated object is a host in general said fresh ("the newly compromised host"): right after
    "newly", "freshly" or "just", its noun no class's and no host's name."""
    at = rest.find(piece)
    return at >= 0 and bool(_FRESH_BEFORE.search(rest[:at])) and bool(_GENERIC_NOUN.search(f" {piece}")) \
        and not classes_in(piece) and not hosts_in(piece)


def _each_banned(found):
    """(r52m) The hosts a prohibition with no condition is on, listed as its subject ("User1, User2 and Op_Host2 never
    deserve a Remove", "never restore User1 and User2"): each one is under it by itself, so it applies where any of them is
    shown (read as all of them at once, it held only where every one was shown, and was silent beside one of them)."""
    from forge.rulebook.language.predicate import AllOf, AnyOf, Atom  # lazy: as in `claims`

    if isinstance(found, AllOf) and all(isinstance(p, Atom) and p.host is not None and p.bare() for p in found.parts):
        return AnyOf(found.parts)
    return found


def _bare_target(part) -> bool:
    """(r42x) Whether a claim is only of hosts shown, no state: a host ("User2"), or one of a list of hosts and
    classes ("a user host or Op_Server0"): what an order acts on, no condition of it."""
    from forge.rulebook.language.predicate import AnyOf, Atom  # lazy: as in `claims`

    if isinstance(part, AnyOf):
        return all(_bare_target(p) for p in part.parts)
    return isinstance(part, Atom) and part.bare()


def window_alone(condition: str) -> bool:
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
# (r57h: or as the clause the condition opens with, "if Op_Host1 sits at root while some other box is being exploited,
# Remove that box and not Op_Host1": setting the order against the named host takes it out of what the order acts on,
# not out of the state the condition gives it by name; dropped, the note fired on any exploit elsewhere, Op_Host1 clean)
_EXCEPTED_RESTATED = re.compile(rf"(?:\b(?:and|but)\s+|^\s*(?:(?:when|whenever|if|while|once|as\s+long\s+as)\s+)?)(?P<clause>(?P<host>{HOST_WORD})\s+(?:shows?|is|are|has|reads?)\b[^,;.:]*)",
                                re.IGNORECASE)


def _with_restated(found, words, spared):
    """Claims with what a condition says of an excepted host in its own clause (`_EXCEPTED_RESTATED`): the exception
    spares the host from the rest of the condition, not from what is said of it by name."""
    from forge.rulebook.language.predicate import AllOf  # lazy: as in `claims`

    said = [part for c in words.conditions for m in _EXCEPTED_RESTATED.finditer(c.text)
            if set(hosts_in(m["host"])) & set(spared) and (part := claims(m["clause"])) is not None]
    if not said:
        return found
    return all_of([*(found.parts if isinstance(found, AllOf) else (found,) if found is not None else ()), *said])


def _spared(words) -> tuple[str, ...]:
    """The hosts a rule's words claim nothing of: those it excepts, and a host of a class it names that its order is
    contrasted with ("restore compromised user hosts - not User3 though") where the order names no other host (in "put
    the decoy on User2, not on User3, whenever a user host is scanned" the contrast is the order's, not the condition's)."""
    members = hosts_of(words.classes)
    others = set(words.hosts) - set(words.contrasted) - set(words.excepted)
    contrasted = [] if others else [h for h in words.contrasted if h in members]
    return tuple(dict.fromkeys([*words.excepted, *contrasted]))


# (r58l) An exception an "until" ends: "except Op_Host2, until Op_Host2 is at root", "Op_Host2 aside until it is rooted",
# "User2 excepted till User2 has been rooted". The excepted host is spared only until its own state is the one the
# "until" waits on; from then on the order holds there too. (Read as spared for good, the order never came back to it.)
_EXCEPTION_LIFTED = re.compile(rf"(?:\b(?:except(?:\s+for)?|but\s+not|barring|save\s+for|other\s+than)\s+(?P<host>{HOST_WORD})|"
                               rf"(?P<named>{HOST_WORD})\s*,?\s+(?:aside|excepted|spared|left\s+out))\s*,?\s*"
                               r"(?:until|till|til)\s+(?P<state>[^,;.:!?]{3,80})", re.IGNORECASE)


# (r58d) The words a state waited on is said with, besides its host and its state words: "it is at root", "User2 has been
# rooted", "it shows an exploit". Any other word ("in the next episode", "at step 30", "and restored", "might", "twice", "-
# then ask me first") says more than the claims read (a time, a hedge, a second condition, another move), and the
# exception was lifted on the state alone, wider than its words.
_PLAIN_STATE_WORDS = re.compile(r"\b(?:it|its|is|are|has|have|been|being|gets?|got|was|becomes?|became|sits?|shows?|reads?|goes|"
                                r"turns?|at|to|on|an?|the|level|access|fully|already)\b", re.IGNORECASE)


def _said_plainly(state: str) -> bool:
    """(r58d) Whether a state an exception waits on is said with nothing but its host, its state words and the words
    that join them (`_PLAIN_STATE_WORDS`)."""
    rest = re.sub(HOST_WORD, " ", state, flags=re.IGNORECASE)
    for word in state_words_in(state):
        rest = re.sub(rf"\b{re.escape(word)}\b", " ", rest)
    return not re.search(r"\w", _PLAIN_STATE_WORDS.sub(" ", rest))


def exceptions_lifted(text: str) -> dict[str, object]:
    """(r58l) The hosts a text excepts until a state of their own (`_EXCEPTION_LIFTED`), each with the claims of that state
    (on the host itself: "it", or its name; a state of another host, or none read, is no lifting)."""
    lifted: dict[str, object] = {}
    for found in _EXCEPTION_LIFTED.finditer(spelled_out(text or "")):
        host = hosts_in(found["host"] or found["named"])
        named = hosts_in(found["state"])
        if len(host) != 1 or named and named != host or not _said_plainly(found["state"]):
            continue
        state = claims(found["state"], host[0])
        if state is not None and not state.bare() if hasattr(state, "bare") else False:
            if set(state.hosts()) == set(host):
                lifted[host[0]] = state
    return lifted


def _with_lifted(kept, found, text: str):
    """(r58l) Claims with each excepted host's own case once its exception is lifted (`exceptions_lifted`): where the
    condition is one state of a class (beside the "until" itself, read as the whole order's end, "not <state>" of that
    host), that state on the host, with the state the "until" waits on, as one more alternative."""
    from forge.rulebook.language.predicate import AllOf, AnyOf, Atom, Not  # lazy: as in `claims`

    lifted = exceptions_lifted(text) if kept is not None else {}
    parts = found.parts if isinstance(found, AllOf) else (found,) if found is not None else ()
    classes = [p for p in parts if isinstance(p, Atom) and p.host is None and not p.bare()]
    if not lifted or len(classes) != 1 or any(p is not classes[0] and p not in {Not(s) for s in lifted.values()} for p in parts):
        return kept
    extra = [all_of([classes[0].on(host), state]) for host, state in lifted.items() if host in classes[0].hosts()]
    return AnyOf((kept, *extra)) if extra else kept


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
    if isinstance(found, AnyOf) and counted_groups(found, AllOf, Atom):
        # a count ("two or more user boxes other than User3 are owned": some two of the others): the groups
        # that need an excepted host leave; the rest are the count among the others (a group less its excepted host
        # would be one host fewer than the text counts)
        alternatives = tuple(g for g in found.parts if not {a.host for a in g.parts if isinstance(a, Atom)} & set(excepted))
    parts = tuple(p for p in (excepting(x, excepted) for x in alternatives) if p is not None)
    return None if not parts else parts[0] if len(parts) == 1 else type(found)(parts)


def states_said(text: str) -> bool:
    """(r53l) Whether a text says a state of some host anywhere (a state word, or a level or activity the situation reader
    places): a standing prohibition on a class states none."""
    from forge.rulebook.language.situation import state_of  # lazy: as in `claims`

    return bool(state_words_in(text)) or state_of(text) != ((None, None), None)


# (r53a) What a standing prohibition on a class says and no more: its negation and modal, its verb, the class's hosts by
# any noun, any move ("never touch"), who acts ("from us", "this team") and its emphasis ("full stop", "ever", "at all"). A word beyond them ("twice",
# "before analysing it", "yet", "as a first move", "it is wrong to say") narrows the prohibition or turns it round.
_PLAIN_BAN = re.compile(r"\b(?:never|not|no|do|does|don['\u2019]t|doesn['\u2019]t|must|mustn['\u2019]t|shall|should|shouldn['\u2019]t|"
                        r"ever|at\s+all|full\s+stop|period|under\s+any\s+circumstances?|whatever\s+(?:it|they)\s+shows?|"
                        r"a|an|any|the|on|of|to|for|from|by|be|is|are|get|gets|receive|receives|us|we|our|this|team|side|touch(?:ed)?|moves?|"
                        # (r60h: the place of the class, "in the op subnet", and the analyst's move named, "an Analyse recommendation")
                        r"subnet|network|recommendations?|"
                        r"hosts?|box(?:es)?|machines?|workstations?|servers?|nodes?|systems?)\b", re.IGNORECASE)


# (r60a) "every" as the subject of a move denied, "Every user host gets no Remove" (as forms._none_gets_said writes "no user
# host gets a Remove"): each host denied it. Not "every" after the ban, "don't Restore every user box": not all of them at
# once, which bans no host's own (r60h had "every" plain everywhere, and that text spoke "never Restore" on each user box).
_EVERY_GETS_NO = re.compile(r"^\s*every\b(?=[^,;:]*\bgets?\s+no\b)", re.IGNORECASE)


def class_ban_plain(words) -> bool:
    """(r53a) Whether a text's standing prohibition on a class says nothing beyond it (`_PLAIN_BAN`) in the sentences that
    name its verb, and any other sentence names another move, unnegated ("Never Restore a user host; for workstations a
    Remove is the ceiling"). Read as a plain ban, "never Restore a user host twice", "... before analysing it", "... as a
    first move" or "it is wrong to say we never Restore a user host" spoke "never Restore" wherever a user host was
    shown: wider than the words, or their opposite."""
    banned = {p.verb for p in words.prohibitions}
    for sentence in (s for s in re.split(r"[.;!?\n]+", words.text) if s.strip()):
        if banned & set(verbs_in(sentence)) or None in banned and negations_in(sentence):
            left = _PLAIN_BAN.sub(" ", VERB.sub(" ", without_class_names(_EVERY_GETS_NO.sub(" ", sentence))))
            if re.sub(r"[\s,:'\"()\u2019-]+", "", left):
                return False
        elif not verbs_in(sentence) or negations_in(sentence):
            return False
    return True


def _class_banned_alone(words):
    """(r53l) A standing prohibition of one verb on the one class a text names, with no condition, no host named and none
    excepted ("Never Restore a user host", "user boxes never get a Restore"): it applies where a host of that class is
    shown, as "never restore User0" applies where User0 is (None: not such a rule). Unread, a rule kept semantic after its
    predicate was refused was silent everywhere, and its teacher's word never spoke."""
    from forge.rulebook.language.predicate import Atom  # lazy: as in `claims`

    # (r60h) hosts of the class it excepts, "no user host gets a Restore, other than User2": the ban stands on the class's
    # other hosts (read as no such rule, it was silent everywhere once its predicate was refused)
    own = words.classes[0] if len(words.classes) == 1 else None
    excepted = set(words.excepted)
    if words.conditions or not set(words.hosts) <= excepted or own is None or not excepted <= set(HOST_CLASSES[own]) \
            or words.dispreferred or not words.prohibitions or states_said(words.text) \
            or not class_ban_plain(replace(words, text=_EXCEPTED_AFTER.sub(" ", words.text)) if excepted else words):
        return None  # (a state said anywhere, "no Restore on a user box at Unknown", is a condition this reads nowhere)
    if len({p.verb for p in words.prohibitions}) != 1 or any(p.hosts or p.classes and tuple(p.classes) != tuple(words.classes)
                                                              for p in words.prohibitions):
        return None
    return excepting(Atom(host_class=own), excepted)


# (r60h) The hosts a class ban leaves out, said after it: ", other than User2", "except User0 and User1".
_EXCEPTED_AFTER = re.compile(r",?\s*\b(?:" + EXCEPT_WORDS + r")\s+" + EXCEPTED_HOST_LIST, re.IGNORECASE)


# (r57h) An order that picks among the hosts its heading lists by their state: "Op_Host0 to Op_Host2: Restore whichever
# of those sits at root", "whichever one gets owned". That state is what the order acts on: read as the heading alone,
# the note spoke wherever any listed host had a row, in any state.
_WHICHEVER_OF_THEM = re.compile(r"\bwhichever\s+(?:one\s+)?(?:of\s+(?:them|these|those|the\s+(?:two|three|four|five|hosts?|boxes)))?\s*"
                                r"(?P<state>(?:is|are|gets?|shows?|becomes?|reads?|sits?)\s+[^,;.:!?]+)", re.IGNORECASE)


def _picked_by_state(words, heading):
    """(r57h) The heading's claims (`_heading_alone`) narrowed to the state its order picks by (`_WHICHEVER_OF_THEM`):
    any listed host in that state; a state no reading places leaves it unknown (never holds)."""
    from forge.rulebook.language.predicate import Always, AnyOf, Not  # lazy: as in `claims`

    picked = _WHICHEVER_OF_THEM.search(words.instruction)
    if picked is None:
        return heading
    hosts = heading.parts if isinstance(heading, AnyOf) else (heading,)
    each = [claims(f"{atom.host} {picked['state']}") for atom in hosts]
    if any(c is None for c in each):
        return Not(Always())
    return each[0] if len(each) == 1 else AnyOf(tuple(each))


def _heading_alone(words):
    """A rule whose one condition is a heading listing hosts ("Op_Host0 to Op_Host2: never Restore"): it applies where
    any of them is shown, as "never restore Op_Host0" applies where Op_Host0 is (None: not such a rule)."""
    from forge.rulebook.language.predicate import AnyOf, Atom  # lazy: as in `claims`

    heading = heading_hosts(words)
    if not heading or [c.text.strip() for c in words.conditions] != [words.situation.strip()]:
        return None
    atoms = tuple(Atom(host=h) for h in heading)
    return atoms[0] if len(atoms) == 1 else AnyOf(atoms)
