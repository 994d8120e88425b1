"""What a condition says of the hosts it names (`claims`), as a predicate the gate evaluates like any other. Pure.

"if User0 is not compromised": a semantic rule whose condition names a host the context does not state is unknown
there, and false where that host shows the opposite. It only narrows: a condition that names no host claims
nothing, and its cosine decides as before. Also here: two classes' hosts counted against each other
(`classes_counts_compared`), the defender's moves said after a state (`moves_said_after`), and the joins of the
parts (`all_of`, `their_class`, `same_host_of_class`, `counted_groups`).
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache
from typing import Optional

from forge.env.catalog import HOST_CLASSES, HOST_VERBS, QUIET_ACTIVITY, QUIET_COMPROMISE
from forge.rulebook.language.episode import episode_claims, without_episode_claims
from forge.rulebook.language.facts import facts_needed, hosts_compared
from forge.rulebook.language.forbidding import sequenced_away
from forge.rulebook.language.general_claims import (ALL_QUIET, CLAUSE_BREAK, NUMBER_WORDS, Count, GENERAL_SUBJECT, NOTHING,
                                                    NOTHING_ELSE_GOING_ON, NOT_YET, OTHER, SOME_HOST, THE_OTHERS,
                                                    excludes, general_parts, history_claim, negated_atom, of_count,
                                                    state_atom)
from forge.rulebook.language.history_words import denied_moves, without_denied_moves
from forge.rulebook.language.instruction import excepted_between_away, only_named_away
from forge.rulebook.language.judged import file_names_away
from forge.rulebook.language.markers import EMPHATIC_NO, negations_in
from forge.rulebook.language.names import CLASS_FORMS, HOST_FORMS, classes_in, hosts_in, named_in_full, verbs_in
from forge.rulebook.language.phases import phase_named, phase_predicate
from forge.rulebook.language.shorthand import HOST_WORD, class_in_full, hosts_alone_as_only, own_clause, spelled_out
from forge.rulebook.language.situation import SOME, host_statements, state_of as _state_of


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
    if _COMPARISON_DENIED.search(own_clause(before)) and not cmp.startswith(("no ", "not ")):
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
        exactly = of_count(on(hosts_b[0]), hosts_b, Count(j, j), on=on) if j else AllOf(tuple(Not(on(h)) for h in hosts_b))
        if at_most:
            if j == 0:
                continue
            some = AllOf(tuple(Not(on(h)) for h in hosts_a)) if j == 1 else \
                AnyOf((AllOf(tuple(Not(on(h)) for h in hosts_a)), of_count(on(hosts_a[0]), hosts_a, Count(1, j - 1), on=on)))
        elif least == 0:
            groups.append(exactly)
            continue
        elif least > len(hosts_a):
            continue
        else:
            some = of_count(on(hosts_a[0]), hosts_a, Count(least), on=on)
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


# (r40k) A host of the network said as such: "some host", "any machine" (not "a host", which may be the one before).
_ANY_HOST_SAID = re.compile(r"\b(?:some|any)\s+(?:host|machine|box|server|node)\b", re.IGNORECASE)


NEW_SUBJECT = re.compile(r"(?=\b(?:until|till|before|unless)\s+(?:it|its|they|the|a|an|any|\w+\d)\b)|"
                          # (r44m) and before one said without its subject, "U1 scanned, unless already owned": that
                          # host's state denied, as "unless it is already owned" (read in one clause, the scan was lost)
                          r"(?=\bunless\s+(?:already\s+|yet\s+)?(?:owned|compromised|rooted|exploited|hacked|pwned|breached|"
                          r"infected|privileged|at\s+root)\b)|"
                          # "U4 Unknown, nothing else going on": a clause about every other host
                          r"(?:\band\s+|,\s*)(?=" + NOTHING_ELSE_GOING_ON + r")|"
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


# (r52c) Hosts described by a relative clause and kept out by the words before them, as `clauses.conditions_in` reads them
# from the order: "but not on hosts that are at root", "except for boxes which are owned", "other than servers showing a
# scan": no host so described. Read from the noun on, the hosts kept out were a state the rule asked for (or a quiet
# host, "not for boxes which are owned" as some host clean; "not hosts that are compromised at root" lost its "not").
_KEPT_OUT_DESCRIBED = re.compile(r"^\s*(?:(?:but|and|yet)\s+)?(?:not|never|except(?:\s+for)?|other\s+than|save)\s+"
                                 r"(?:(?:on|for|to|with|in|at|from)\s+)?(?=(?:(?:the|any|those|these)\s+)?(?:[\w-]+\s+){0,2}?"
                                 r"(?:hosts?|box(?:es)?|machines?|servers?|workstations?|nodes?|ones)\s+(?:that|which|who|showing|with)\b)",
                                 re.IGNORECASE)


_EMPHATIC_NO = re.compile(EMPHATIC_NO, re.IGNORECASE)


def _read_claims(condition: str, subject: Optional[str] = None, unresolved: Optional[list] = None,
                 group: tuple[str, ...] = (), universal: bool = True):
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
    condition = _EMPHATIC_NO.sub(" ", only_named_away(condition))  # (r48m: "E1 hit (only E1)"; r59m: "no half measures")
    condition = excepted_between_away(condition)  # (r55n: "U1/U2 (not the Defender) probed": of U1 and U2 alone)
    if kept_out := _KEPT_OUT_DESCRIBED.match(condition):
        return _kept_out_claims(condition[kept_out.end():], subject, unresolved, group, universal)
    if (compared := _compared_claims(condition, subject, unresolved, group, universal)) is not None:
        return compared
    if episode_claims(condition):
        return _episode_first(condition, subject, unresolved, group, universal)
    if _ONLY_ON_LIST.search(hosts_alone_as_only(condition)):
        return _only_on_listed(condition, subject, unresolved, group, universal)
    said = spelled_out(_named_as_the_table_names(condition, subject))
    parts, coarse, last = _history_parts(said, subject, group)
    counted, coarse = _counts_of_named(coarse, unresolved, said)
    parts.extend(counted)
    named_class: Optional[str] = None  # the one class the clauses before named, for "they" / "none of them"
    for clause in (piece for c in coarse for piece in _shared_state(_terse_split(NEW_SUBJECT.split(c)))):
        if not clause:
            continue
        # ("a user box with a scan and no compromise on it": "it" is that same host of the class, not any of them)
        if _of_the_host_before(parts, clause, unresolved, last):
            continue
        clause = their_class(clause, named_class)
        if unresolved is not None and _states_apart(clause):
            unresolved.append(clause)  # two subjects, each with a state of its own, read as one clause: not the whole
        named_class = classes_in(clause)[0] if len(classes_in(clause)) == 1 and not hosts_in(clause) else named_class
        if NOT_YET.match(clause):  # "until it is privileged", "before it gets exploited": not yet so
            parts.extend(_not_yet(clause, last, unresolved))
            continue
        statements = host_statements(clause)
        besides = last if last is not None else group[0] if len(group) == 1 else None
        if not statements and besides is None and parts and OTHER.search(clause):
            # ("a single user box is owned and no other machine shows any activity": the others than the one it picks)
            # (r45m: "just one op box is owned and the other three are quiet": the rest of the hosts it counts over, each
            # of them)
            picked = _the_others_of_the_count(parts[-1], clause) or _others_than_picked(parts[-1], clause, universal)
            if picked is not None:
                parts[-1] = picked
                continue
        if not statements and besides is not None and OTHER.search(clause):  # "when another host is compromised"
            parts.extend(general_parts(clause, universal, besides=besides))
            if re.match(r"\s*" + NOTHING_ELSE_GOING_ON, clause, re.IGNORECASE):
                # (nor anything on that host but the state said of it: "User4 at Unknown, nothing else going on" shows
                # no activity on User4 either, "OpS0 scanned, nothing else going on" no compromise)
                from forge.rulebook.language.predicate import Atom  # lazy: beside this module
                for column in ("activity", "compromise"):
                    if not any(getattr(p, "host", None) == besides and getattr(p, column) is not None for p in parts):
                        parts.append(Not(Atom(host=besides, **{column: "any"})))
            continue
        joint = bool(statements) and bool(classes_in(clause)) and (not OTHER.search(clause) or len({h for h, _, _ in statements}) == 1)
        statements = statements or _unnamed_statements(clause, last, group, unresolved)
        if not statements and parts and _denied_of_class(parts[-1], clause) is not None:
            parts[-1] = _denied_of_class(parts[-1], clause)  # "a user host with an exploit, no root yet": that same host
            continue
        if len({h for h, _, _ in statements}) == 1:
            last = statements[0][0]
        said = (_with_class(clause, _statement_parts(clause, statements), universal) if joint
                else _statement_parts(clause, statements)) if statements else general_parts(clause, universal)
        # (a clause that also denies, "..., not once it has been exploited", is left as it was read)
        landed = _HAS_LANDED.search(clause) and not negations_in(clause)
        parts.extend([_or_landed(p) for p in said] if landed else said)
    return all_of(_moves_bound_to_class_host(parts))


def _kept_out_claims(described: str, subject: Optional[str], unresolved: Optional[list], group: tuple[str, ...],
                     universal: bool):
    """(r52c) No host as `described` (`_KEPT_OUT_DESCRIBED`): narrower than "not the host the rule acts on", so a rule
    kept to the other hosts is read cautiously; None where the description says nothing this reading can place."""
    from forge.rulebook.language.predicate import Not  # lazy: beside this module

    # (r53l) "never ones which are rooted", "but not the ones that show a scan": "ones" stands for the hosts the order is
    # for; read as hosts (the cautious "no host so described"). Unread, the exclusion was no claim and the rule was silent.
    described = _ONES_DESCRIBED.sub(lambda m: f"{m['article'] or ''}hosts", described)
    inner = claims(described, subject, unresolved, group, universal)
    return None if inner is None else Not(inner)


_ONES_DESCRIBED = re.compile(r"^(?P<article>(?:the|any|those|these)\s+)?ones\b(?=\s+(?:that|which|who|showing|with)\b)", re.IGNORECASE)


def _compared_claims(condition: str, subject: Optional[str], unresolved: Optional[list], group: tuple[str, ...],
                     universal: bool):
    """(r43m) "E0 worse off than U1, ...": the levels two hosts are compared at, (r46m) or two classes' counts ("more
    held on the op side than on the user side"), and what the rest of the condition says; None if it compares none."""
    compared, rest = hosts_compared(condition)
    if not compared:
        compared, rest = classes_counts_compared(condition)
    if not compared:
        return None
    inner = claims(rest, subject, unresolved, group, universal) if rest.strip(" ,;:.-") else None
    return all_of(compared + ([inner] if inner is not None else []))


# (r57a) A level said by its place against another: "less than root", "below admin", "under root", "lower than root",
# "beneath user level", "not as far as root", "above user level", "past user level". A comparative below a level is the
# levels under it, never that level: under root, anything but root (as "short of root" reads, "without root"); under user
# level, no compromise. Above user level is root. Read by the level word alone, "anything less than root on the Defender"
# held with the Defender at root, the one level its words rule out. What no level of the table says (above root, "at
# least" / "at most", "root or less", "under root privileges", what a host runs with) is left unread. Denied, it is the
# other side: "nothing less than root" is root, "no higher than user level" anything but root.
_LEVEL_PLACED = (r"(?:(?:a|the)\s+)?(?:(?P<user>user(?:[\s-]level)?)|(?P<root>root|privileged|admin(?:istrator)?|system[\s-]level|"
                 r"(?:fully|completely|totally|entirely)\s+(?:owned|compromised|rooted|pwned|taken(?:\s+over)?)))"
                 r"(?:[\s-]+(?:level|compromise|(?P<held>access|privileges?|rights|control)))?\b(?!['\u2019]s\b)")
# (and every level but the one named, "anything but root", "any level other than admin": below root, the levels under it;
# below user level, as that is no place, unread)
_BELOW_PLACE = r"below|under(?:neath)?|beneath|(?:lower|less)\s+than|short\s+of|not\s+(?:as|so)\s+(?:far|high)\s+as"
_ALL_BUT = r"(?:anything|any\s+level|whatever(?:\s+level)?)\s+(?:but|other\s+than|except|besides|save|bar)"
_ABOVE_PLACE = r"above|over|beyond|past|(?:higher|more|further|greater)\s+than"
_LEVEL_BY_PLACE = re.compile(rf"(?P<denied>\b(?:no|not|nothing|never|none)\s+(?:(?:even|any|much|ever)\s+)?)?\b(?:(?P<below>{_BELOW_PLACE}|(?P<but>{_ALL_BUT}))|"
                             rf"(?P<above>{_ABOVE_PLACE})|(?P<bound>at\s+(?:least|most)|at\s+or\s+(?:{_BELOW_PLACE}|{_ABOVE_PLACE})))\s+"
                             rf"{_LEVEL_PLACED}(?P<either>\s+or\s+(?:{_BELOW_PLACE}|{_ABOVE_PLACE}|less|more|worse|better|lower|higher)\b)?",
                             re.IGNORECASE)
# ("user level or higher", "... or worse" is a compromise for sure, shorthand._LEVEL_OR_ABOVE reads it; "root or less",
# "user level or under" names no level of the table)
_LEVEL_OR_PLACE = re.compile(rf"\b{_LEVEL_PLACED}\s*(?:,\s*)?or\s+(?:{_BELOW_PLACE}|less|better|lower)\b", re.IGNORECASE)


def _level_by_place_said(condition: str) -> Optional[tuple[str, tuple[str, ...], str]]:
    """`condition` with each level said by its place against another (`_LEVEL_BY_PLACE`) said as the levels it means
    ("without root", "without any compromise", "at root"), with what each means ("not root", "root", "none") and the
    condition without them; None where one of them names no level of the table."""
    if _LEVEL_OR_PLACE.search(condition):
        return None
    unread = False
    meant: list[str] = []

    def said(found: re.Match) -> str:
        nonlocal unread
        # ("under root privileges", "under admin control": what the host runs with, or who holds it, no place below)
        under_held = found["held"] and found["below"] and found["below"].lower().startswith("under")
        denied = found["denied"] and not (found["bound"] or found["either"] or under_held)
        if denied and found["below"] and found["root"] or not found["denied"] and found["above"] and found["user"]:
            meant.append("root")  # ("nothing less than root" is root, "above user level" too)
            return "at root"
        if denied and found["above"] and found["user"] or not found["denied"] and found["below"] and found["root"] \
                and not under_held:
            meant.append("not root")  # ("no higher than user level", "less than root": anything but root)
            return "without root"
        if not found["denied"] and found["below"] and found["user"] and not (found["bound"] or found["either"] or under_held
                                                                             or found["but"]):
            meant.append("none")  # ("below user level": no compromise)
            return "without any compromise"
        unread = True
        return found[0]
    placed = _LEVEL_BY_PLACE.sub(said, condition)
    return None if unread else (placed, tuple(meant), _LEVEL_BY_PLACE.sub(" ", condition))


# (r58d) Words before a level said by its place, in its clause, that turn or hedge it: "anything but below root" (root),
# "rarely below root", "it may be below root", "it isn't below root", "unless it is below root". The place reader reads the
# level phrase alone, so where one of them stands before it, its reading is no reading of the clause.
_PLACE_TURNED_BEFORE = re.compile(r"\b(?:but|except|unless|until|other\s+than|besides|save|bar|rather\s+than|instead\s+of|"
                                  r"anything|everything|all|never|no|not|nothing|none|longer|rarely|seldom|hardly|barely|scarcely|"
                                  r"may|might|could|perhaps|possibly|maybe|probably|likely|sometimes|occasionally|if\s+ever)\b|"
                                  r"n['\u2019]t\b", re.IGNORECASE)


def levels_by_place_read(text: str) -> bool:
    """(r58l) Whether the text says some level by its place against another and `_level_by_place_said` reads each one
    ("below root", "less than root", "above user level"): the checks may then hold a predicate to those levels.
    (r58d) Not where a word before one of them in its clause turns or hedges it (`_PLACE_TURNED_BEFORE`)."""
    text = text or ""
    placed = _level_by_place_said(text)
    if placed is None or not placed[1]:
        return False
    for found in _LEVEL_BY_PLACE.finditer(text):
        # (from the clause's start or its "when": "Never Restore User1 when it is below root" is a ban in that case)
        clause = re.split(r"[.,;:!?()\n]|\s[-\u2013\u2014]+\s|\b(?:when(?:ever)?|if|once|while|as\s+soon\s+as)\b",
                          text[:found.start()], flags=re.IGNORECASE)[-1]
        if _PLACE_TURNED_BEFORE.search(clause):
            return False
    return True


def _level_placed_kept(found, meant: tuple[str, ...], rest: str) -> bool:
    """(r57a) Whether the claims of a condition whose levels by place were said plainly (`_level_by_place_said`) keep
    each such level as its own part, and some other part where the rest of it states something more ("exploited but
    still below root"): read into one clause with the rest, "<host> short of root and showing an exploit" denied the
    exploit, and "exploited but still below root" lost the level. A class's "not root" is not kept."""
    from forge.rulebook.language.predicate import AllOf, Atom, Not  # lazy: as in `claims`

    parts = found.parts if isinstance(found, AllOf) else (found,) if found is not None else ()

    def level(part) -> Optional[str]:
        atom = part.part if isinstance(part, Not) else part
        # (a class denied root, "a user box below root", is no user box at root: said of none shown, it held; unread)
        if not isinstance(atom, Atom) or atom.activity is not None or atom.history() or isinstance(part, Not) and atom.host is None:
            return None
        return {(True, "Privileged"): "not root", (False, "Privileged"): "root", (False, "No"): "none"}.get(
            (isinstance(part, Not), atom.compromise))

    kinds = [level(p) for p in parts]
    return all(m in kinds for m in meant) and (not STATE_SPOKEN.search(rest) or any(k is None for k in kinds))


@lru_cache(maxsize=8192)
def _claims_of(condition: str, subject: Optional[str], group: tuple[str, ...], universal: bool):
    unresolved: list = []
    placed = _level_by_place_said(condition)  # (r57a: "less than root" is the levels under root, never root)
    if placed is None:
        return None, (condition,)
    found = _read_claims(placed[0], subject, unresolved, group, universal)
    if placed[1] and not _level_placed_kept(found, placed[1], placed[2]):
        return None, (condition,)
    return found, tuple(unresolved)


def claims(condition: str, subject: Optional[str] = None, unresolved: Optional[list] = None, group: tuple[str, ...] = (),
           universal: bool = True):
    """`_read_claims`, remembered by its arguments: a pure reading of the words (its predicates are frozen, and what it
    leaves `unresolved` is only ever appended), which the gate, the checks and the compiler ask again and again of the
    same conditions (dc-bench blind-43 with the surrogate compiler: 6385 readings of 451 conditions)."""
    found, left = _claims_of(condition, subject, tuple(group), universal)
    if unresolved is not None:
        unresolved.extend(left)
    return found


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
_ONLY_ON_LIST = re.compile(rf"(?<!not\s)\b(?:only|just|solely)\s+(?:on|for|to)\s+(?P<hosts>{HOST_WORD}(?:\s*(?:,|\band\b|\bor\b)\s*{HOST_WORD})+)\b",
                           re.IGNORECASE)


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
    return all_of([*episode_claims(condition), *(rest.parts if isinstance(rest, AllOf) else (rest,) if rest is not None else ())])


# (r34h) A count over hosts the text names: "(exactly / only / just) one of User1 and User3 is compromised". Split at
# its "and", the clause gave the state to the last host alone and the first was claimed only shown (so the rule fired
# where both were owned, which "exactly one" excludes).
# (r54h) And a count above one, "any 3 of U1 / U2 / U3 / U4 taken", "at least two of User1, User2 and User4 are
# compromised", its hosts parted by slashes too and its state said without a verb: read as "E0 or E1 or E2 owned", the
# rule fired where one of them was, which the count excludes (r54m read the same class: "that many of them in the state;
# with "exactly", the others not").
# (r54a) The count's state ends where a clause of another subject begins ("... are compromised and Enterprise0 is
# scanned": read to the full stop, Enterprise0's scan was taken for the counted hosts' and dropped from the condition);
# and "precisely two of" is "exactly" (read as "at least", it held where all three were).
_COUNT_STATE_WORD = r"(?:(?!\b(?:and|or|but|while|whilst|whereas|when|whenever|if|unless|once|until|as\s+long\s+as)\b)"
_ONE_OF_NAMED = re.compile(rf"\b(?P<exactly>(?:exactly|only|just|precisely)\s+)?(?:(?:any|at\s+least)\s+)?(?P<n>one|two|three|four|[1-4])\s+of\s+"
                           rf"(?:the\s+(?:two|three|four)\s+|the\s+hosts\s+)?"
                           rf"(?P<hosts>{HOST_WORD}(?:\s*(?:,|/|\band\b|\bor\b)\s*{HOST_WORD})+)\s+"
                           r"(?P<state>(?:is|are|was|were|gets?|got|becomes?|became|shows?|showing|reads?|reading|has\s+been|have\s+been)\b"
                           + _COUNT_STATE_WORD + r"[^,;.])*|"
                           r"(?:compromised|owned|exploited|rooted|scanned|infected|breached|hacked|pwned)\b" + _COUNT_STATE_WORD + r"[^,;.>-])*)",
                           re.IGNORECASE)


# (r54a) Words before a count over named hosts that bound it otherwise than "at least": "more than two of" (three at
# least), "no more than two of" / "at most" / "up to" (two at most), "fewer than two of" (one at most), "one or two of"
# (a range), "every one of" / "each one of" (all of them). Read as the count alone, "no more than two of U1, U2, U3
# compromised" held where two or three were (the opposite of its words), "every one of U1 / U2 / U3 owned" where any one
# was. A bound above counts the hosts it speaks of, one at least (as general_claims._counted reads "at most two hosts").
_MORE_THAN = re.compile(r"(?<!\bno\s)(?<!\bnot\s)\b(?:more|greater)\s+than\s*$|\b(?:over|above)\s*$", re.IGNORECASE)
_AT_MOST = re.compile(r"\b(?:no|not)\s+(?:more|greater)\s+than\s*$|\bat\s+most\s*$|\bup\s+to\s*$", re.IGNORECASE)
_FEWER_THAN = re.compile(r"(?<!\bno\s)(?<!\bnot\s)\b(?:fewer|less)\s+than\s*$|\b(?:under|below)\s*$", re.IGNORECASE)
_RANGE_FROM = re.compile(r"\b(?P<low>one|two|three|four|[1-4])\s*(?:or|to|-)\s*$", re.IGNORECASE)
_EACH_ONE = re.compile(r"\b(?:every|each)\s*$", re.IGNORECASE)
# (and words this reading does not take up, "not one of", "all but two of", "no fewer than two of", "at best one of":
# the count is left unread, its words unplaced, and the claims are not the whole of the condition)
_COUNT_UNREAD = re.compile(r"\b(?:no|not|never|nor|(?:none|all)\s+(?:but|save|except(?:\s+for)?)|at\s+best|beyond|other\s+than)\s*$|"
                           r"\b(?:no|not)\s+(?:fewer|less)\s+than\s*$", re.IGNORECASE)


def count_bounded(before: str, n: int, total: int) -> tuple[object, int]:
    """(r54a) The count the words before "<n> of <hosts>" say (`_MORE_THAN`, `_AT_MOST`, ...) among `total` named hosts,
    and where those words begin in `before`: (a Count, start); (None, len) where they bound it not at all (the plain "at
    least"); (False, len) where this reading cannot tell."""
    before = before or ""
    if _COUNT_UNREAD.search(before):
        return False, len(before)
    for bound, count in ((_EACH_ONE, lambda: Count(total, total)), (_MORE_THAN, lambda: Count(n + 1) if n < total else False),
                         (_AT_MOST, lambda: Count(1, n)), (_FEWER_THAN, lambda: Count(1, n - 1) if n > 1 else False)):
        if found := bound.search(before):
            return count(), found.start()
    if low := _RANGE_FROM.search(before):
        return Count(min(NUMBER_WORDS[low["low"].lower()], n), n), low.start()
    return None, len(before)


def counts_of_named_placed(condition: str) -> str:
    """(r54a) `condition` without the words of the counts `_counts_of_named` reads (`COUNT_OF_NAMED`, and the bound
    before it), for scope.unplaced: a count this reading cannot tell (`count_bounded` False), or whose state it does not
    read ("2 of U1/U2/U3 hit": left to the slash, read as any one of them), keeps its words unplaced."""
    kept, at = [], 0
    for found in COUNT_OF_NAMED.finditer(condition):
        bound, start = count_bounded(condition[:found.start()], 1, 4)
        read = _ONE_OF_NAMED.match(condition, found.start())
        state, negated = _state_of(read["state"]) if read else ((None, None), None)
        if bound is False or state == (None, None) or negated is not None:
            continue
        kept.append(condition[at:max(start, at)])
        at = found.end()
    return "".join(kept) + " " + condition[at:] if kept else condition


# (r54h) The count's own words before the hosts it counts ("any 2 of", "exactly one of"): `_counts_of_named` reads them,
# so they are placed words (scope.unplaced)
COUNT_OF_NAMED = re.compile(rf"\b(?:(?:exactly|only|just|precisely)\s+)?(?:(?:any|at\s+least)\s+)?(?:one|two|three|four|[1-4])\s+of\s+"
                            rf"(?:the\s+(?:two|three|four)\s+|the\s+hosts\s+)?(?={HOST_WORD}(?:\s*(?:,|/|\band\b|\bor\b)\s*{HOST_WORD})+\s)",
                            re.IGNORECASE)


def _counts_of_named(clauses: list[str], unresolved: Optional[list] = None, whole: str = "") -> tuple[list, list[str]]:
    """The claims of the counts over named hosts in `clauses` (`_ONE_OF_NAMED`: some one of them in the state, or exactly
    one and the others not), and the clauses without them. A count whose state is negated or unread is left as it was.
    (r54a) A count bounded otherwise (`count_bounded`: "no more than two of", "every one of"), or above the hosts it
    names, is taken out of its clause unread (appended to `unresolved`): read as the hosts it lists, "and" claimed them
    all, "or" and "/" any one, each the opposite of some count. `whole`: the condition the clauses were split from (a
    bound may stand before the break that split them: "all but one of ...")."""
    from forge.rulebook.language.predicate import Atom  # lazy: beside this module

    found, rest = [], []
    for clause in clauses:
        read = clause  # (the clause as it was read: each match's place and the words before it)
        for m in list(_ONE_OF_NAMED.finditer(read)):
            hosts = list(dict.fromkeys(hosts_in(m["hosts"])))
            state, negated = _state_of(m["state"])
            if len(hosts) < 2 or negated is not None or state == (None, None):
                continue
            n = NUMBER_WORDS[m["n"].lower()]
            bound, start = count_bounded(read[:m.start()], n, len(hosts))
            if bound is None and not read[:m.start()].strip() and m.group(0) in whole:
                bound = count_bounded(whole[:whole.index(m.group(0))], n, len(hosts))[0] or None
            if bound is False or n > len(hosts):
                if unresolved is not None:
                    unresolved.append(m.group(0))
                clause = clause.replace(m.group(0), " ")
                continue
            # ("two of User1 and User2", "any 2 of U1 / U2": both, as many as it names)
            count = bound or Count(n, n if m["exactly"] else None)
            found.append(of_count(state_atom(Atom, state, host=hosts[0]), hosts, count))
            clause = clause.replace(read[start:m.end()], " ", 1)
        rest.append(clause)
    return found, rest


def _states_apart(clause: str) -> bool:
    """Whether a clause `claims` reads as one names two subjects (hosts or classes) joined by "and", each with a state
    word of its own ("no usr host owned and ent srv scanned" if it were not split: the reading gives one state to both,
    and its "no" to both): the reading of such a clause is not the whole of it, whatever it claims. A state shared by
    subjects listed together ("User1 and User2 compromised") is said once, after the last of them."""
    text = clause or ""
    spans = sorted({m.span() for pattern, _ in (*HOST_FORMS, *CLASS_FORMS) for m in pattern.finditer(text)})
    if len(spans) < 2:
        return False
    for (_, end), (start, _) in zip(spans, spans[1:]):
        between = text[end:start]
        if re.search(r"\band\b", between, re.IGNORECASE) and STATE_SPOKEN.search(between.split(" and ")[0]) \
                and STATE_SPOKEN.search(text[start:]):
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
                    and (classes_in(before) or hosts_in(before) or SOME_HOST.search(before) or NOTHING.search(before)):
                out.append(before)
                start = found.end()
        out.append(piece[start:] if piece else piece)
    return out


# (r61d) An event said at its end, "until the scan is over", "before the attack is over": the time after the event, which
# no row shows (read as the event, "not yet so" held where it had not come, and lifted while it lasted: the opposite)
_EVENT_OVER = re.compile(r"\b(?:is|are|was|were|gets?|be)\s+(?:all\s+|fully\s+|really\s+)?over\b", re.IGNORECASE)


# "unless it has been exploited", "until it gets exploited": an exploit that landed, so the host's row may show the
# compromise it left and no Exploit activity any more; "not yet" so is neither (`_or_landed`).
# ("unless it is being exploited": the exploit under way, its activity alone)
# (r61d: and the attacker's move said as the moment it is made, "until red exploits it", "before the exploit lands": once
# made, it has landed too; read as the alert alone, a ban up to it was held again on the host it left rooted)
_LANDED = re.compile(r"\b(?:has|have|had|gets?|got|is|was|were|been)\s+(?:(?!being\b)\w+\s+)?(?:been\s+)?exploited\b|"
                     r"\b(?:red|the\s+(?:attacker|adversary|intruder|red\s+team))\s+(?:\w+\s+)?exploits\b|"
                     r"\bthe\s+exploit\s+(?:lands|hits|succeeds|goes\s+through|gets\s+through)\b", re.IGNORECASE)


def _not_yet(clause: str, last: Optional[str], unresolved: Optional[list]) -> list:
    """The claims of a clause that says a state not yet so (`NOT_YET`): the state denied, an exploit as landed too
    (`_LANDED`); unknown where the state is an event's end (`_EVENT_OVER`); none where its words read no state."""
    from forge.rulebook.language.predicate import Always, Not  # lazy: beside this module

    if _EVENT_OVER.search(clause):
        return [Not(Always())]
    inner = claims(NOT_YET.sub("", clause), last, unresolved)
    return [] if inner is None else [Not(_or_landed(inner) if _LANDED.search(clause) else inner)]


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
            or hosts_in(clause) or classes_in(clause) or SOME_HOST.search(clause) or NOTHING.search(clause) \
            or GENERAL_SUBJECT.search(clause) or OTHER.search(clause) or facts_needed(clause):
        return None
    state, negated = _state_of(clause)
    # ("a user box with a scan and no compromise on it": a quiet value said with no subject is that same host's too)
    activity, compromise = state
    if negated is None and (activity, compromise) in ((None, QUIET_COMPROMISE), (QUIET_ACTIVITY, None)) \
            and (part.compromise if compromise else part.activity) is None:
        return AnyOf(tuple(AllOf((part.on(h), Atom(host=h, activity=activity, compromise=compromise))) for h in part.hosts()))
    if state != (None, None) or negated is None:
        return None
    if excludes(part, negated):
        # ("a user host scanned but not yet exploited": its Activity Scan is no Exploit already, so the denial says the
        # exploit has not landed either: that same host shows no compromise; read as nothing, the condition was not whole
        # and the rule silent where it applied)
        if negated != ("activity", "Exploit") or part.activity != "Scan" or part.compromise is not None:
            return None
        return AnyOf(tuple(AllOf((part.on(h), Not(Atom(host=h, compromise="any")))) for h in part.hosts()))
    return AnyOf(tuple(AllOf((part.on(h), Not(negated_atom(Atom, negated, host=h)))) for h in part.hosts()))


# (r39m) A clause whose subject is "that host" / "the same box", with no host or class of its own: the host a clause before
# it picked of a class (dropped, "once an op box shows a probe and that box is at root" claimed the probe alone).
# ("the host" alone is the one at hand, the analysed host: `_THE_HOST`)
_THAT_HOST_FIRST = re.compile(r"^\s*(?:(?:if|when|whenever|once|while|should|and|,)\s+)*(?:that|this|the\s+same)\s+"
                              r"(?:host|box|machine|server)\b(?!'s)", re.IGNORECASE)


def _of_the_host_before(parts: list, clause: str, unresolved: Optional[list], last: Optional[str]) -> bool:
    """Whether a clause is read as a state of the class's host the clause before picked, into `parts[-1]`: "an op box
    probed, nothing compromised on it" (`_denied_of_class`), "(r39m) ..., once that box sits at root" (`same_host_of_class`;
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
    same = same_host_of_class(parts[-1], clause) if of_class else None
    if same is None and unresolved is not None:
        unresolved.append(clause)
    parts[-1:] = [same] if same is not None else parts[-1:]
    return True


def same_host_of_class(part, clause: str):
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


def all_of(parts: list):
    """The claims `parts` make together (None: none), without a bare mention of a host that another part states
    something of ("User2: remove it once it is compromised": User2 compromised, not also User2 shown)."""
    from forge.rulebook.language.predicate import AllOf, Atom  # lazy: beside this module

    stated = {p.host for p in parts if isinstance(p, Atom) and p.host is not None and not p.bare()}
    kept = list(dict.fromkeys(p for p in parts if not (isinstance(p, Atom) and p.bare() and p.host in stated)))
    return None if not kept else kept[0] if len(kept) == 1 else AllOf(tuple(kept))


# "they", "none of them", "each of them": the hosts of a class the clause before named ("user hosts getting scanned
# while none of them is compromised yet": no user host is).
# ("one" alone as the subject is one of them: "on the enterprise servers, remove the attacker as soon as one is hit")
_THEM = re.compile(r"\b(?P<q>none|all|each|every\s+one|any|either|one|some|neither|both)\s+of\s+them\b|\b(?P<they>they)\b|"
                   r"\b(?P<one>one)\b(?=\s+(?:of\s+(?:those|these)\s+)?(?:is|are|was|gets?|got|shows?|showed|becomes?|became|has|"
                   r"turns?|turned|goes|went|starts?|appears?|looks?)\b)", re.IGNORECASE)


CLASS_WORD = {"User": "user hosts", "Enterprise": "enterprise hosts", "Operational": "operational hosts"}


def their_class(clause: str, named_class: Optional[str]) -> str:
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
                    f"a {CLASS_WORD[named_class][:-1]}", clause, flags=re.IGNORECASE)
    return _THEM.sub(lambda m: f"{m['q'] or m['one']} of the {CLASS_WORD[named_class]}" if m["q"] or m["one"]
                     else f"the {CLASS_WORD[named_class]}", clause)


def _history_parts(condition: str, subject: Optional[str], group: tuple[str, ...]) -> tuple[list, list[str], Optional[str]]:
    """`claims`' first pass: the history atoms of the clauses about earlier steps ("clean at the previous step"),
    the other clauses (read by the second pass), and the host the last history atom named (else `subject`)."""
    from forge.rulebook.language.predicate import Not  # lazy: as in `claims`

    if (phase := _lateral_said(condition or "", hosts_in(condition or ""))) is not None:
        return [phase], [], subject  # (r42h) the phase said whole, a history of its own: no clause left to read
    parts, coarse, last = [], [], subject
    for c in (p for piece in CLAUSE_BREAK.split(condition or "") for p in _history_then_state(piece)):
        denied = _denied_move_parts(c, last)
        if denied is not None:  # (r39m) "no Restore of it in the last two steps": read, and taken out of the clause
            parts.extend(denied)
            c = without_denied_moves(c)
        if "history" not in facts_needed(c):
            coarse.append(c)
            continue
        # a clause about earlier steps claims what the history lines show: a history atom
        # (r39m) "unless / until it has stayed rooted 3 turns running": that history not (yet) so
        not_yet = NOT_YET.match(c)
        atom = history_claim(NOT_YET.sub("", c) if not_yet else c, last, group)
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
    if classes_in(clause) or ALL_QUIET.search(clause):
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
    if last is not None and not GENERAL_SUBJECT.search(clause) and not _NO_HOST_AT_ALL.search(clause) \
            and not _ANY_HOST_SAID.search(clause) and not phase_named(clause):
        return [(last, state, negated)]
    if unresolved is not None and re.search(r"\b(?:it|its|they|them|both|either)\b", clause, re.I) \
            and not SOME_HOST.search(clause) and not NOTHING.search(clause):
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
        atom = atom or state_atom(Atom, state, host=host)
        groups.append(([atom] if isinstance(atom, AnyOf) or not atom.bare() or negated is None else [])
                      + ([Not(negated_atom(Atom, negated, host=host))] if negated is not None else []))
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
            return AnyOf((state_atom(Atom, (activity, None), host=host), state_atom(Atom, (None, compromise), host=host)))
    return None


def _with_class(clause: str, named: list, universal: bool) -> list:
    """A clause whose subject is a class of hosts and a named host ("a user host and Op_Server0 are both compromised",
    "if Op_Server0 or any enterprise host is exploited"): what it claims of the class beside what it claims of the host
    (it claimed the host alone); joined by "or" / "either", one of them; with "another" host of the class, one besides
    the named host (r39h: `_named_and_another`)."""
    from forge.rulebook.language.predicate import AnyOf  # lazy: beside this module

    if OTHER.search(clause):
        named, of_class = _named_and_another(clause, named, universal)
    else:
        of_class = general_parts(HOST_NAMES.sub(" ", clause), universal)
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

    return [Atom(host_class=c) for c in classes_in(HOST_NAMES.sub(" ", clause))]


def _named_and_another(clause: str, named: list, universal: bool) -> tuple[list, list]:
    """(r39h) A named host beside "another" host of a class, "User3 and at least one other user box are owned": the host in its state, and some host of the class besides it in that state (the class was left unread,
    and the reading of the host alone was called whole). The host's state unsaid ("User1 and any other user host show an
    exploit"), the state said of both. (what it claims of the host, what it claims of the others)"""
    host, of_class = hosts_in(clause)[0], HOST_NAMES.sub(" ", clause)
    if all(getattr(p, "bare", lambda: False)() for p in named):
        named = [p.on(host) for p in general_parts(of_class, universal) if getattr(p, "host_class", None)] or named
    return named, general_parts(of_class, universal, besides=host)


def _the_others_of_the_count(previous, clause: str):
    """(r45m) A clause about "the other two" / "the others" after a count that picks one host of those it counts over
    ("just one op box is owned and the other three are quiet"): for each host the count could pick,
    the clause's state said of each of the other hosts it counts over (read as any host, "some host clean" anywhere on
    the network was all it asked). None where the previous part is no such count or the clause names a class or host."""
    from forge.rulebook.language.predicate import AllOf, AnyOf, Atom  # lazy: beside this module

    found = THE_OTHERS.match(clause)
    if found is None or classes_in(clause[found.end():]) or hosts_in(clause) or not isinstance(previous, AnyOf) \
            or not counted_groups(previous, AllOf, Atom):
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
    elif isinstance(previous, AnyOf) and counted_groups(previous, AllOf, Atom) and all(
            len([a for a in g.parts if isinstance(a, Atom)]) == 1 for g in previous.parts):
        choices = [(g, next(a.host for a in g.parts if isinstance(a, Atom))) for g in previous.parts]
    else:
        return None
    if len(choices) < 2:
        return None
    groups = []
    for state, host in choices:
        said = general_parts(clause, universal, besides=host)
        if not said:
            return None
        groups.append(AllOf((*(state.parts if isinstance(state, AllOf) else (state,)), *said)))
    return AnyOf(tuple(groups))


# A host's name as a rule writes it ("User1", "op server 0", "Defender").
HOST_NAMES = re.compile(r"\b(?:user|enterprise)[\s_-]?\d\b|\bop[\s_-]?(?:host|server)[\s_-]?\d\b|\bdefender\b", re.IGNORECASE)


# Words that say how a host stands (a state, a stage of the attack). Every one is a placed word (_PLACED): a clause
# that has one and is read as no state at all ("the context shows the host") was not read, whatever its words are.
STATE_SPOKEN = re.compile(r"\b(?:compromis\w*|exploit\w*|scan\w*|privilege\w*|root\w*|admin\w*|hit|popped|owned|infected|"
                           r"breach\w*|hacked|pwned|infiltrated|taken\s+over|attacked|under\s+attack|probed|probing|recon\w*|"
                           r"escalation|impact|lateral|phase|stage|quiet|clean|idle|calm|active|activity|alerts?|alarms?|"
                           r"suspicious|footholds?|access|shell|session|intrusion|infection|anomal\w*|noisy|unknown)\b",
                           re.IGNORECASE)


def counted_groups(found, AllOf, Atom) -> bool:
    """Whether a disjunction is a count's (`of_count`): two or more groups, each of as many hosts in one state."""
    groups = found.parts
    if len(groups) < 2 or not all(isinstance(g, AllOf) for g in groups):
        return False
    positive = [[a for a in g.parts if isinstance(a, Atom) and a.host is not None] for g in groups]
    return len({len(p) for p in positive}) == 1 and len(positive[0]) >= 1 and \
        len({(a.activity, a.compromise) for p in positive for a in p}) == 1
