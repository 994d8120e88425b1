"""How a note's hosts are scoped: which host "it" is, what a heading or a decision tree's branch holds, and the classes a host is said to be outside of. Pure.

The claims of a text's conditions each read with its own "it" (`condition_claims`, `subject_of`); a heading that
names one class and no state (`class_heading`, `heading_hosts`, `without_exception`); the branches of a decision
tree or checklist and the conditions it does not apply in (`branches_of`, `conditions_not_applied`); a host placed
outside the classes a text denies it (`classes_denied`, `membership_denied_away`, `outside_or_claims`); and the
words of a condition the reading does not account for (`unplaced`).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Optional

from forge.env.catalog import HOSTS, HOST_CLASSES, hosts_of
from forge.rulebook.language.claims import CLASS_WORD, COUNT_OF_NAMED, HOST_NAMES, counts_of_named_placed, all_of, claims, same_host_of_class, their_class
from forge.rulebook.language.clauses import LEVEL_RELATIVE, order_without_conditions
from forge.rulebook.language.forbidding import EXCEPT_WORDS, UNLIKE_WORDS, classes_compared_only, classes_sequenced_only
from forge.rulebook.language.general_claims import COUNT, GENERAL_SUBJECT, SOME_HOST
from forge.rulebook.language.history_words import history_conditions
from forge.rulebook.language.instruction import EXCEPTED_ASIDE
from forge.rulebook.language.markers import negations_in
from forge.rulebook.language.names import (CLASS_FORMS, classes_in, hosts_in, named_in_full, verbs_in, without_class_names,
                                           without_host_names)
from forge.rulebook.language.order import HOST_AT_HAND
from forge.rulebook.language.shorthand import (HOSTS_ROW, HOST_WORD, NEWLY_GLOSSED, counts_said_plainly, hosts_only,
                                               plus_as_or_more)
from forge.rulebook.language.situation import ATTACKER_THEY
from forge.rulebook.language.situation import state_of as _state_of


def _same_class_host_again(before: list, condition: str, classes: list):
    """(r44h) The claims of a condition whose "it" is the host of the one class the condition before it is about (that
    condition claimed as one atom on the class): both on that same host, each host of the class in turn
    (`same_host_of_class`); None where the condition is no such thing."""
    from forge.rulebook.language.predicate import Atom  # lazy: as in `claims`

    if len(classes) != 1 or len(before) != 1 or not isinstance(before[0], Atom) or before[0].host_class != classes[0] \
            or not _LONE_IT.search(condition) or hosts_in(condition) or classes_in(condition):
        return None
    # ("it still shows <state>" is its state now, as `their_class` reads it)
    return same_host_of_class(before[0], re.sub(r"\bit\s+still\s+(?=shows?\b)", "it ", condition, flags=re.IGNORECASE))


# "the host", "that box" where no host is named: the host the rule is about, whichever it is.
# ("the table shows Compromised Unknown", said to the analyst: the table of the host analysed, whichever it is)
_THE_HOST = re.compile(r"\b(?:the|that|this)\s+(?P<what>host|box|machine|server)\b(?!'s)|"
                       # (r40g: or "is" it, "when its row is Unknown": read as no host, the condition was unread)
                       # (r52m: or its record, "when the record shows Privileged": the analysed host's record)
                       r"\b(?:the|its|the\s+host's)\s+(?:table|row|record)(?=\s+(?:shows?|says|reads|lists|is)\b)|"
                       # (a note drops the article: "row reads Unknown -> ...", "when row shows Privileged, ...")
                       r"^(?P<lead>\s*(?:(?:when|whenever|if|once|while)\s+)?)(?:table|row)(?=\s+(?:shows?|says|reads|lists)\b)",
                       re.IGNORECASE)


# Words a condition may use that the product's reading of it accounts for (hosts and classes are tokens).
_PLACED = frozenset("""a an the any some every each all its it it's that which this those these is are was were be been being
    has have had gets get got getting becomes become became shows show showing shown showed still so and or of on in at to
    for from by with as when whenever if once while during until unless moment soon now then there here host hosts
    machine machines box boxes server servers node nodes system systems one ones compromised compromise compromises
    exploited exploit exploits exploiting scanned scan scans scanning probe probes privileged privilege privileges root rooted admin
    administrator level user enterprise operational op ot workstation workstations desktop desktops laptop laptops
    subnet network quiet clean idle calm untouched uncompromised no not none nothing never without except only yet but either neither nor
    activity active suspicious alert alerts sign signs attacker attackers red access rights foothold footholds owned infected
    breached breach hacked pwned infiltrated taken over under attack attacked probed probing recon reconnaissance poke pokes poked poking burned burnt
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
    say says saying owns owning table row rows print prints printed printing meaning namely
    hold holds holding probably likely fairly pretty quite sure apparently presumably""".split())  # (r44m: "a scan in its table": its row, as ever)
# (r52m: the attacker "holds" a host as it "owns" it; and a likelihood said of a state, "probably owned", "likely at user
# level", "fairly sure it is root": the state it names, as the table shows it; not a doubt, "maybe", "possibly", "perhaps",
# which leave the state unread)


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


_TEACHER_UNSURE = re.compile(r"\b(?:i|we|you)(?:\s+(?:can(?:no|['\u2019])t|cannot|can\s+not|am\s+not|are\s+not)|['\u2019](?:m|re)\s+not)\s+"
                             r"(?:be\s+)?(?:sure|certain)\b", re.IGNORECASE)


_ORDER_MODAL_LEFT = re.compile(r"\s+(?:shall|must|will|(?:is|are)\s+to)\s*$", re.IGNORECASE)


def unplaced(condition: str) -> list[str]:
    """The words of a condition the product's reading does not account for ("if User3 is quarantined"): where
    there are any, what it read of the condition is not the whole of it."""
    # (every name of a host the reader knows: "Enterprise two", "E2" as well as "Enterprise2")
    # ("user level rather than at root": the level the reading places is that one, so the words denying the higher
    # one in its favour say nothing more)
    # (r41h: "however many times", "however often" mark the condition as "each time" does; read first, before its "many"
    # is taken for a count)
    condition = re.sub(r"\b(?:however|no\s+matter\s+how)\s+(?:many\s+times|often)\b", " when ", condition or "", flags=re.IGNORECASE)
    # (r49m: a policy's "Where <state>" opening the condition is its "when", markers.CONDITION_MARKER; any other "where"
    # tells where, and stays unplaced)
    condition = re.sub(r"^(\W*)where\b", r"\1when", condition, flags=re.IGNORECASE)
    # (r54h) "any 3 of U1 / U2 / U3 / U4": a count `claims` reads (_counts_of_named), its hosts in any spelling
    named = named_in_full(condition)
    condition = counts_of_named_placed(named) if COUNT_OF_NAMED.search(named) else condition
    # (r41h: "<situation> is a different story (another matter, a case of its own)": it sets the situation apart from the
    # rule before, and says nothing more of it)
    condition = _CASE_APART.sub(" ", condition)
    # (r53l: the order's modal that a condition in the subject ran into, "any host showing an exploit shall | receive a
    # Remove": the order's word, as "should" there is; unplaced, a standing order in a contract's words was never read whole)
    condition = _ORDER_MODAL_LEFT.sub("", condition)
    # (r52m: the teacher's own doubt beside "Unknown", "and we cannot be certain it is held": what Unknown is, said again)
    condition = _TEACHER_UNSURE.sub(" ", condition)
    # (r41h: "outside the op subnet", "unlike a usr box": the class set apart, which `_outside_denied` reads)
    condition = membership_denied_away(condition)
    condition = HOSTS_ROW.sub(" shows ", _USER_LEVEL_OVER_ROOT.sub(" ", plus_as_or_more(counts_said_plainly(condition))))
    condition = _other_than_as_except(condition)
    # (r55d: a level said against another, "over user level", "under root": no reading places it, clauses.LEVEL_RELATIVE)
    condition = LEVEL_RELATIVE.sub(" relatively ", condition)
    spared = re.sub(r"\buser[- ]level\b|\bsystem[- ]level\b", " ", without_host_names(HOST_NAMES.sub(" ", NEWLY_GLOSSED.sub(r"\1", condition))),
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
                    r"(?<=\bother\s)(?:two|three|four|[2-4])\b", " ", COUNT.sub(" ", spared), flags=re.IGNORECASE)
    spared = without_class_names(spared)  # (and every word for a class it knows: "usr box", "ent srv")
    # (r37m: "instead" closing a branch's condition, "should Op_Host1 be at root instead", marks the case as the alternative
    # to the one before; it says nothing of the state. "instead of" still denies what follows it.)
    spared = _ALTERNATIVE_CASE.sub(" ", spared)
    # ("no exploit still running on User2", "a scan running against User2": the activity under way, which the reading places)
    spared = _ACTIVITY_RUNNING.sub(r"\1", spared)
    # ("a host whose row reads Unknown": the host's row of the table is its state, which the reading places)
    # (a note's "row says E0 Unknown", with no article: the row that says it is that host's, and "says" is "shows")
    # (r46m: and its line of the alerts, "a user host's alert line reads ...", "its line says ...")
    spared = re.sub(r"(?<!\bin\sa\s)\b(?:(?:whose|its|their|the)\s+)?(?:table\s+|alert\s+)?(?:rows?|lines?|records?)\s+(?:says?|reads?|shows?|prints?|is|are|sits?|stands?)\b",
                    " it shows ", spared, flags=re.IGNORECASE)
    # (r46m: a value quoted as the table prints it, "reads 'Compromised User'": the quotes say nothing more)
    spared = re.sub(r"(?<![a-z])'|'(?![a-z])", " ", spared, flags=re.IGNORECASE)
    # (r40m: "the recent steps show we removed it": the context's history lines as the source of what the history says)
    spared = _HISTORY_SHOWS.sub(" ", spared)
    # (a number left once hosts and counts are read is a port, a score, a threshold: something the reading does not place)
    return [w for w in re.findall(r"[a-z][a-z'-]+|\b\d+\b", spared.lower()) if w not in _PLACED and not w.endswith("'s")
            and not ("-" in w and all(part in _PLACED for part in w.split("-") if part))]  # "admin-level"


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


def _it_beside_others(condition: str, sentence: str, classes: list, unresolved: Optional[list]) -> bool:
    """(r57a) Whether `condition`'s lone "it" has only a class its sentence names as the rest beside some host
    (`_OTHERS_OF_CLASS`, "the other four user boxes", "the remaining two enterprise servers"): "it" is that host, never
    those others, and which host it is the sentence does not say (appended to `unresolved`). Read as the class, "Keep an
    eye on User2. Once it is owned, Analyse the other four user boxes" held with User2 clean and another box owned."""
    if len(classes) != 1 or not _LONE_IT.search(condition) or not _OTHERS_OF_CLASS.search(sentence) \
            or _OTHERS_OF_CLASS.search(condition):
        return False
    if unresolved is not None:
        unresolved.append(condition)
    return True


def heading_hosts(words) -> list[str]:
    """The hosts of a heading that only lists them ("User1 through User3: ..."), none of them excepted; [] if none."""
    listed = hosts_in(words.situation)
    if len(listed) < 2 or unplaced(words.situation) or _state_of(words.situation) != ((None, None), None) \
            or classes_in(words.situation):
        return []
    return [h for h in listed if h not in words.excepted]


# (r53h) A condition said of two hosts by a word that points back to them, as its subject: "both are ...", "either of them
# shows ...", "neither is ..." (not "it shows neither", two states; nor "both the user and the enterprise subnets").
_TWO_REFERRED = re.compile(r"\b(?:both|either|neither)(?:\s+of\s+(?:them|these|those|the\s+two))?\s+(?:are|is|were|was|get|gets|got|"
                           r"show|shows|showed|look|looks|sit|sits|stay|stays|remain|remains|have|has|go|goes|fall|falls)\b",
                           re.IGNORECASE)


# (r58m) A condition that speaks of several hosts by a pronoun ("should one of them fall", "once they are scanned",
# "when both are rooted"): whatever it stands for, it is never the one host its sentence names.
# ("either" and "both" as pronouns, before "of" or a verb: not "either a root-level or a user-level compromise")
# (r59d) People the text names that a "they" on a box may be, not the attacker: "the analysts take User3; once they are in
# the box, ..." (read as the attacker's, `ATTACKER_THEY`, the rule held where a host fell, of which its words say nothing)
_PEOPLE_SAID = re.compile(r"\b(?:analysts?|responders?|blue(?:\s+team)?|defenders?|admins?|administrators?|operators?|engineers?|"
                          r"staff|colleagues|technicians?|the\s+(?:team|soc|humans?|people|crew)|our\s+(?:team|people|folks|crew)|"
                          r"we|us|you\s+(?:all|guys))\b", re.IGNORECASE)
_ATTACKER_NAMED = re.compile(r"\b(?:attackers?|red(?:\s+team)?|intruders?|adversar(?:y|ies)|hackers?)\b", re.IGNORECASE)


_SEVERAL_REFERRED = re.compile(r"\b(?:they|them|(?:both|either|neither)(?=\s+(?:of|is|are|was|were|gets?|got|shows?|showed|falls?|"
                               r"fell|has|have|had|sits?|turns?|goes|went|becomes?|looks?)\b))\b", re.IGNORECASE)


def _they_of_people(condition: str, text: str, unresolved: Optional[list]) -> bool:
    """(r59d) Whether `condition` puts a "they" on a box (`ATTACKER_THEY`) where `text` names people that "they" may be
    (`_PEOPLE_SAID`) and no attacker: unread (appended to `unresolved`), never the attacker's compromise of it."""
    if not re.search(ATTACKER_THEY, condition, re.IGNORECASE) or not _PEOPLE_SAID.search(text) or _ATTACKER_NAMED.search(text):
        return False
    if unresolved is not None:
        unresolved.append(condition)
    return True


def _referents(sentence: str, condition: str, words, heading: list, scoped: Optional[str]) -> tuple[list, list, bool]:
    """What a condition's sentence gives it to speak of: the hosts it names (else a heading's), the classes it names
    (r41h: not one it names only to set its subject apart, "<host>, unlike the op hosts, ..."; r58m: else the class of a
    scope heading, `class_scope_heading`), and whether the condition speaks of several hosts by a pronoun
    (`_SEVERAL_REFERRED`: then never of the one host the sentence names, "should one of them fall, decoy User4")."""
    named = [h for h in hosts_in(sentence) if h not in words.excepted] or heading
    # (r59d: never the attacker's "they" on one box, "once they're on the box, Restore User4": read as several hosts, the
    # box was no longer the one host the sentence names but any host, and the Restore held wherever one fell)
    several = bool(_SEVERAL_REFERRED.search(condition)) and not hosts_in(condition) \
        and not re.search(ATTACKER_THEY, condition, re.IGNORECASE)
    if len(named) == 1 and several:
        named = []
    classes = [c for c in classes_in(sentence) if c not in classes_denied(sentence)]
    if scoped and not named and not classes:
        classes = [scoped]
    return named, classes, several


def condition_claims(words, unresolved: Optional[list] = None):
    """The claims of a text's conditions, each read with its own "it": the one host its sentence names ("Restore
    Enterprise1 if it is compromised. ... while Op_Server0 is clean": "it" is Enterprise1), else the text's subject."""
    from forge.rulebook.language.predicate import AllOf  # lazy: as in `claims`

    subject = subject_of(words)
    parts = []
    each: list[list] = []  # each condition's claims, in order (`parts`: a heading's, which holds for every branch)
    # A heading that only lists hosts ("User1 through User3: if any of them shows an Exploit, ..."): the hosts the
    # order is about, for its "them", not a condition that each is shown.
    heading = heading_hosts(words)
    scoped = class_scope_heading(words)  # (r58m) "All op machines except Op_Host1: on a probe, ...": its class
    for index, condition in enumerate(words.conditions):
        if (heading or scoped) and condition.text.strip() == words.situation.strip():
            continue
        scope = class_heading(condition.text, words)
        if scope is not None:
            parts.append(scope)
            continue
        sentence = next((s for s in re.split(r"(?<=[.;!?])\s+", f"{words.situation}. {words.instruction}")
                         if condition.text in s), "")
        named, sentence_classes, several = _referents(sentence, condition.text, words, heading, scoped)
        if heading and re.search(r"\b(?:both|either|neither|them|they|each|all|whichever)\b", condition.text, re.IGNORECASE):
            named = heading  # "Enterprise0 and Enterprise1: when both are rooted, restore Enterprise0"
        elif len(named) < 2 and _TWO_REFERRED.search(condition.text) and not hosts_in(condition.text) \
                and not sentence_classes:
            # (r53h) "Escalation list: 1. User1 2. User4. Once both are owned, ...": "both" are the two
            # hosts the text named before (a list, another sentence), not the one its own sentence names; where the text
            # names other than two, what it points to is not read (read of the one host, it held with the other clean)
            listed = [h for h in hosts_in(words.text) if h not in words.excepted]
            if len(listed) != 2 and unresolved is not None:
                unresolved.append(condition.text)
            named = listed if len(listed) == 2 else named
        # (a class the sentence names only after the condition, in a later step of its order, "remove User4 when it shows
        # an exploit, then DecoyTomcat the enterprise subnet", is no referent of its "it": the host named before it is)
        upto = sentence[:max(sentence.find(condition.text), 0)] + condition.text
        own = named[0] if len(named) == 1 and not sentence_classes else \
            (len(named) > 1 and not sentence_classes and _named_before_it(sentence, condition.text, named)) or \
            (named and not classes_in(upto) and _named_before_it(sentence, condition.text, named)) or (None if several else subject)
        # (r44h) "it" after a condition on a host of the one class the sentence names (a reimage of some op box, then
        # "if it is owned again", ...): that same host in both, not any two hosts of the class
        joined = _same_class_host_again(each[-1] if each else [], condition.text, sentence_classes) if not named else None
        if joined is not None:
            each[-1] = [joined]
            each.append([])
            continue
        if not named and _it_beside_others(condition.text, sentence, sentence_classes, unresolved) or _they_of_people(condition.text, words.text, unresolved):
            each.append([])  # (r57a: "Once it is owned, Analyse the other four user boxes"; r59d: a "they" of people): unread
            continue
        # "restore user hosts as soon as they are compromised": "they" are the one class the sentence names
        said = their_class(condition.text, sentence_classes[0]) if not named and len(sentence_classes) == 1 \
            else condition.text
        if own is None and not named and not sentence_classes:  # ("once the box gets probed": a host, any)
            said = _THE_HOST.sub(lambda m: f"{m['lead'] or ''}a {m['what'] or 'host'}", said)
        # "On the enterprise servers, a compromise at user level calls for Remove": a state with no subject is said of a
        # host of the class the sentence's scope names (r58m: or its heading, `class_scope_heading`)
        scope = _CLASS_SCOPE.match(sentence) or _at_hand_scope_of(words.instruction, condition.text)
        if scoped and not named and _subjectless(said):
            said = f"{said} on a {CLASS_WORD[scoped][:-1]}"
        elif scope and not named and len(sentence_classes) == 1 and classes_in(scope["what"]) and _subjectless(said):
            said = f"{said} on a {CLASS_WORD[sentence_classes[0]][:-1]}"
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
        found = outside_or_claims(said, own, unresolved, tuple(named))
        found = _each_its_own_case(found) if _every_one_heading(said, words) else found
        each.append(list(found.parts if isinstance(found, AllOf) else (found,) if found is not None else ()))
    return _branches_either(words, parts, each)


# (r39k) A host's membership denied: "not on the operational subnet", "isn't one of the user boxes", "outside the
# enterprise zone" (what follows is read for the class words it names)
# (r41h, r41m: and "unlike the op hosts", "as opposed to ...": a class named to set the subject apart from it)
# (r43x: and "beyond the op subnet", only before a subnet or hosts: "beyond user level" is a compromise, no class denied)
# (r51m: or a host said to be no host of the class, "whatever isn't an op box", "each box that is not an enterprise
# server": the same denial, said of what the host is)
_NOT_A_MEMBER = re.compile(r"(?:\b(?:not|never)|n't)\s+(?:on|in|within|inside|part\s+of|one\s+of|among|"
                           r"an?(?=\s+(?:user|enterprise|ent|op|ops|operational)[\s-]+(?:host|box|machine|server|workstation|node|system)\b))\b"
                           r"(?P<rest>[^,;.]{0,40})"
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
    ends = [m.end() for pattern, _ in CLASS_FORMS for m in pattern.finditer(found.group(0))]
    return " " + (found.group(0)[max(ends):] if ends else "")


# (r43m) The hosts a clause leaves out, said inside it: ", except Op_Server0,", "other than User0 and User1".
_HOSTS_EXCEPTED = re.compile(rf"\s*,?\s*\b(?:{EXCEPT_WORDS})\s+(?:the\s+)?{HOST_WORD}(?:\s*(?:,|\band\b|\bor\b)\s*(?:the\s+)?{HOST_WORD})*"
                             r"\s*(?:[,.;]|(?=$))", re.IGNORECASE)


def outside_or_claims(said: str, own, unresolved, named: tuple[str, ...], universal: bool = True):
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
        return all_of([p for p in parts if any(p.host in HOST_CLASSES[c] for c in kept)])
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

# (r55m) An order that is one move's word and nothing more: "reimage", "Remove.", "restore it first" is not (it names "it")
_MOVE_ALONE = re.compile(r"(?:(?:plan\s+)?(?:an?\s+)?[A-Za-z][\w-]*)[.!]?", re.IGNORECASE)


# (r55b) A heading's words past its hosts and their state: a clause, another "all", an exception
_HEADING_GOES_ON = re.compile(r"[,;(]|\b(?:all|both|every|each|whole|together|once|when|whenever|if|while|after|until|unless|except|"
                              r"but|save|only|not|no|never)\b", re.IGNORECASE)


def _every_one_heading(condition: str, words) -> bool:
    """Whether a condition is a heading on every host of a class whose order acts on "it" (`_EVERY_HEADING`)."""
    order = order_without_conditions(words.instruction, words.conditions)
    one = _ON_ONE_HOST.search(order)
    # (r46a: not where the order names a host of its own before its "it", "all user boxes owned: decoy Op_Server0 before it
    # falls": that "it" is that host, and the heading's "all" stays every host of the class at once)
    # (r55m: or the order is the move alone, "every breached usr host: reimage": it acts on each host the heading names,
    # as "it" does; only after "every" or "each", whose hosts are each a case, not "all", which may be the whole class at once)
    # (r55b: and only where the heading is the hosts alone: "each user host, once all are scanned: Analyse" waits for the
    # whole class, and "every ... host except User0" or a clause after a comma is a condition of its own, no host's case)
    alone = _MOVE_ALONE.fullmatch(order.strip()) is not None and bool(verbs_in(order)) \
        and re.match(r"\s*(?:every|each)\b", condition, re.IGNORECASE) is not None \
        and not _HEADING_GOES_ON.search(condition.strip()[5:])
    return condition.strip() == words.situation.strip() and bool(_EVERY_HEADING.match(condition)) \
        and (alone or one is not None and not set(hosts_in(order[:one.start()])) - set(hosts_in(condition)))


def _each_its_own_case(found):
    """Claims of every host of a class in one state (each host its own atom), as any one of them in it."""
    from forge.rulebook.language.predicate import AllOf, AnyOf, Atom  # lazy: as in `claims`

    if isinstance(found, AllOf) and len(found.parts) > 1 and all(isinstance(p, Atom) and p.host is not None for p in found.parts) \
            and len({p.host for p in found.parts}) == len(found.parts):
        return AnyOf(found.parts)
    return found


# A case said by ellipsis after one about several hosts: "if only Enterprise2 is", "when just User1 does" (r37m)
_ONLY_ONE_IS = re.compile(rf"^\s*(?:if|when|whenever|while|should)\s+(?:only|just)\s+(?P<host>{HOST_WORD})\s+(?:is|are|does|has|was)\s*$",
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
    together, or, for a decision tree or checklist whose every condition heads an order of its own (`branches_of`), the
    claims of its branches, any of them (r34m: read together, "if it is owned, restore it; if it is only probed,
    decoy it" claimed the host owned and probed at once, and the rule never applied)."""
    from forge.rulebook.language.predicate import AnyOf  # lazy: as in `claims`

    found = branches_of(words) if len(each) == len(words.conditions) else None
    groups = found[0] if found else None
    if groups is not None and all(each[i] for group in groups for i in group):
        # (a heading before the tree, "Tree for Op_Host1:", holds for every branch)
        # (r45m: or a heading inside the instruction, "When a user host is owned: if ..., ...; if ..., ...")
        shared = [p for i, c in enumerate(words.conditions) if not any(i in group for group in groups) and i not in found[1]
                  for p in each[i]]
        cases = [[p for i in group for p in each[i]] for group in groups]
        cases = cases[:1] + [_within_first_case(cases[0], case) for case in cases[1:]]
        either = AnyOf(tuple(all_of(case) for case in cases))
        return all_of(heading + shared + [either] + _cases_not_applied(found[1], each, either))
    return all_of(heading + [p for found in each for p in found])


def _cases_not_applied(closed: list[int], each: list[list], either) -> list:
    """(r44h) The denials of the cases a text says it does not apply in, where such a case can hold with the ones it
    orders in ("once Enterprise0 is exploited, pull the attacker off it. Should it have reached admin level, ignore
    this advice": exploited at admin level is no case of it). A case that cannot hold with them is denied already by
    what they ask ("...; if just one is, this list says nothing"); one whose words are not read is left as it was."""
    from forge.rulebook.language.predicate import Not, may_overlap  # lazy: as in `claims`

    denied = []
    for i in closed:
        case = all_of(each[i]) if each[i] else None
        if case is not None and may_overlap(either, case):
            denied.append(Not(case))
    return denied


def _within_first_case(first: list, later: list) -> list:
    """A later case whose whole condition is what the first case denies ("while User3 is probed and no op host is owned,
    decoy User3 first; if an op host is owned, its Restore goes first"): the first case's other way, so the rest of the
    first case's condition holds in it too (r37m: read alone, the later case applied wherever an op host was owned, User3
    probed or not)."""
    from forge.rulebook.language.predicate import Not  # lazy: as in `claims`

    said = all_of(later)
    if said is None or not any(isinstance(p, Not) and p.part == said for p in first):
        return later
    return [p for p in first if not (isinstance(p, Not) and p.part == said)] + later


# (r34m) Before a branch's condition: how a checklist or a tree counts its steps ("First,", "step two,", "2)", "else").
_BRANCH_LEAD = re.compile(r"[\W_]*(?:(?:first|then|next|second|third|finally|step\s+\w+|\d+\)|otherwise|else|and|but|or|"
                          # (r37m) a fallback case: "failing that, if ...", "if not, then when ..."
                          r"failing\s+(?:that|this)|if\s+not)\b[\W_]*)*",
                          re.IGNORECASE)


# After a checklist's last condition: that the rule does not apply there ("if it shows nothing, this does not apply").
NOT_APPLYING = re.compile(r"\b(?:does\s+not|doesn['\u2019]t|do\s+not)\s+apply\b|\bnot\s+(?:this|the\s+\w+'s)\s+(?:note|rule|lesson|"
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


# (r56b) A last condition joined to the order before it by ", and" ("Restore User2 if User3 is rooted, and if Enterprise0
# is rooted."): a further condition of that order, not a case the rule does not apply in (read so, the rule held where
# Enterprise0 was not rooted: the opposite of its words)
_JOINED_BY_AND = re.compile(r",\s+and\s+$", re.IGNORECASE)


def branches_of(words) -> Optional[tuple[list[list[int]], list[int]]]:
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
    source = headed_by["rest"] if headed_by else words.instruction
    clauses = ([headed_by["heading"]] if headed_by else []) + \
        [c for c in re.split(r"(?<=[.;!?])\s+|\s+/\s+|,\s+and\s+(?=(?:if|when|whenever|once|should)\b)", source) if c.strip(" .;")]
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
                and not NOT_APPLYING.search(after):
            groups.append(inside)
        elif (not groups or _KEPT_FOR.search(before)) and verbs_in(before) and not after.strip(" ,.;"):
            # the order first, its condition after it; (r43m) and a later case that keeps another move for its own
            # condition, "...; save the Restore for once it is at root" (read with the first case's, the rule held nowhere)
            groups.append(inside)
        elif _BRANCH_LEAD.fullmatch(before) and groups and (NOT_APPLYING.search(after) or last and not after.strip(" ,.;")
                                                          and not _JOINED_BY_AND.search(source[:source.find(clause)])):
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
    found = branches_of(words)
    return tuple(words.conditions[i].text for i in found[1]) if found else ()


# A host in general, by its noun ("any host", "a box", "machines"): under a class's scope, a host of that class.
_HOST_NOUN = re.compile(r"\b(?:host|machine|box|node)(?P<many>s|es)?\b(?!'s)", re.IGNORECASE)


def _of_class(said: str, named_class: str) -> str:
    """A condition that names no class, with each host it speaks of in general written as a host of `named_class`
    ("any host showing a scan", under "On the operational subnet,", is "any operational host showing a scan")."""
    if classes_in(said) or hosts_in(said):
        return said
    word = CLASS_WORD[named_class][:-1]
    return _HOST_NOUN.sub(lambda m: f"{word}s" if m["many"] else word, said)


# What a heading may say beside a class's name: an article, "all", a count ("the four op machines").
_CLASS_ONLY_WORDS = r"\s*(?:(?:the|all|any|every|each|our|two|three|four|five)\s+)*"
_COUNTS = {"two": 2, "three": 3, "four": 4, "five": 5}


def count_kept(heading: str, named_class: str, excepted) -> bool:
    """(r58b) Whether a count a class heading gives is the number of that class's hosts it keeps ("three enterprise
    servers, the Defender aside": three). A count that is not ("the two enterprise servers (not Enterprise2)": two of
    three, the Defender counted in) says the heading means fewer hosts than the class less its exceptions, which ones
    its words do not settle: read as the class, the rule held on a host the count left out."""
    counts = {_COUNTS[w.lower()] for w in re.findall(r"\b(?:two|three|four|five)\b", heading, re.IGNORECASE)}
    kept = [h for h in HOST_CLASSES[named_class] if h not in excepted]
    return all(count == len(kept) for count in counts)


def class_scope_heading(words) -> Optional[str]:
    """(r58m) The class a heading names where the rule's other conditions speak of its hosts by a pronoun or of no host
    at all ("All op machines except Op_Host1: on a probe, a decoy there", "The two user desks (not User0, User1 or User2):
    should one of them fall, ..."): those conditions are said of a host of that class (less the hosts it
    sets aside, which the claims except). None where the heading says more than the class (a state, a host it keeps), or
    where another condition names a host or a class of its own."""
    heading = words.situation.strip()
    others = [c.text for c in words.conditions if c.text.strip() != heading]
    if not others or len(others) == len(words.conditions) or any(hosts_in(o) or classes_in(o) for o in others):
        return None
    classes = classes_in(heading)
    if len(classes) != 1 or not set(hosts_in(heading)) <= set(words.excepted):
        return None
    bare = without_exception(heading)
    if hosts_in(bare) or not re.fullmatch(_CLASS_ONLY_WORDS, without_class_names(bare), re.IGNORECASE) \
            or not count_kept(bare, classes[0], words.excepted):
        return None
    if unplaced(bare) or _state_of(bare) != ((None, None), None) or negations_in(bare) or history_conditions(bare):
        return None
    return classes[0]


def class_heading(condition: str, words):
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
    bare = without_exception(condition)
    # (nothing but the class's name, maybe after an article or "all": "user host @ Unknown" says more than the class)
    if not re.fullmatch(_CLASS_ONLY_WORDS, without_class_names(bare), re.IGNORECASE) \
            or not count_kept(bare, classes[0], words.excepted):  # (r58b: nor a count of fewer hosts)
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


def without_exception(condition: str) -> str:
    """A heading less what it excepts, where every word after the except word is a host's name; else as it is.
    (r58m: or a bracketed aside that sets hosts aside, "the op machines (not Op_Server0)")"""
    aside = EXCEPTED_ASIDE.search(condition)
    if aside is not None:
        return condition[:aside.start()] + re.sub(r"^\s*\)", "", condition[aside.end():])
    found = _EXCEPT_TAIL.search(condition)
    if found is None or not hosts_only(found["what"]):
        return condition
    return condition[:found.start()] + condition[found.end():]


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


# (r57a) A class named as the rest beside some host, in the plural: "the other (two) user boxes", "the two other ...",
# "the remaining enterprise servers", "all the other op hosts", "the rest of the user boxes" (a singular "any other box"
# may be what a later "it" stands for).
_OTHERS_OF_CLASS = re.compile(r"\b(?:(?:all\s+)?the\s+(?:(?:two|three|four|[2-4])\s+)?(?:other|remaining)|the\s+rest\s+of\s+the)\s+"
                              r"(?:[\w-]+\s+){0,2}?(?:hosts|box(?:es)|machines|servers|workstations|nodes|ones)\b", re.IGNORECASE)
_LONE_IT = re.compile(r"\bit\b(?!')", re.IGNORECASE)  # "it" as a subject ("if it shows ..."), not "its", "it's"


def _subjectless(said: str) -> bool:
    """Whether a condition states a state and says of nothing that it is in it (no host, class, host in general or
    pronoun): "a compromise at user level", "exploit activity"."""
    return not classes_in(said) and not hosts_in(said) and not SOME_HOST.search(said) and not GENERAL_SUBJECT.search(said) \
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
