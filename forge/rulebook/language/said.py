"""What a rule kept without a compiled meaning forbids, in so many words. Pure.

The product's checks keep a rule semantic when its compilation says more than its text or the opposite of it;
its condition is then judged three-valued from its words and it has no predicate. It is still an exception
its teacher meant: "Do not restore User3, even when it's rooted: the lab runs on it" forbids Restore on User3,
whatever the general rule "Restore any user host that shows a privileged compromise" says. `forbidden_in_words`
reads that much (one forbidden verb, on the hosts the text names), and `said_in_words` also a plain order (one
verb, on the one host or class the text names, where what its words claim holds: "Restore user hosts as soon as
they're compromised"), as a meaning used only to find and settle disagreements (meaning.Meaning.said): never to
decide whether the rule applies, which stays its own three-valued reading.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Optional

from forge.rulebook.language.action import ANY_VERB, MATCHED, Move, RuleAction
from forge.env.catalog import GLOBAL_VERBS, HOST_CLASSES
from forge.rulebook.language.predicate import AllOf, AnyOf, Atom, Predicate, atoms_of, positive_hosts
from forge.rulebook.language.clauses import order_without_conditions
from forge.rulebook.language.episode import EpisodeStep, episode_claims
from forge.rulebook.language.disowned import moves_disowned
from forge.rulebook.language.forbidding import hosts_waited_on, limited_bans, preferred_across_hosts
from forge.rulebook.language.forms import moves_answered, moves_only_asked
from forge.rulebook.language.names import classes_in, hosts_in, same_verb, verbs_in
from forge.rulebook.language.order import AT_HAND_SAID
from forge.rulebook.language.wording import read_wording


@lru_cache(maxsize=4096)
def said_in_words(text: str) -> Optional[tuple[Predicate, RuleAction]]:
    """`_said_in_words`, but for a ban its own clause limits by a count or a time, or says of the move alone
    (forbidding.limited_bans: "never Restore User2 twice", "do not Restore User1 yet"): (r55l) that is no plain "never",
    and read as one in a dispute, it beat another teacher's order of the first Restore, which its words allow. None."""
    said = _said_in_words(text)
    if said is not None and said[1].mode == "do" and any(same_verb(said[1].move.verb, d) for d in moves_answered(text)[0]):
        return None  # (r55e) "would a Restore be wrong on User2? Yes": the move a question turns down is no order
    if said is not None and said[1].move.verb != ANY_VERB and any(same_verb(said[1].move.verb, asked) for asked in moves_only_asked(text)):
        return None  # (r56l) "should we Restore User2 once it is rooted?": a move only asked about, no order, no ban
    if said is not None and any(mode == said[1].mode and same_verb(said[1].move.verb, verb) for mode, verb in moves_disowned(text)):
        return None  # (r56e) "never Restore it, says Dana; I disagree": the rule the writer turns down is none of theirs
    # (a preference of another move over it, "not a Restore case yet -> Remove OpS0", is the word the dispute needs: the
    # move ordered in its place, which the limit leaves standing)
    if said is not None and said[1].mode == "do" and any(same_verb(said[1].move.verb, verb) and kind == "count"
                                                         for verb, kind in limited_bans(read_wording(text).instruction).items()):
        # (r56l) a ban a count limits, "when User1 is rooted, don't spend two steps on a Restore": no order of the move
        # either (read as "do Restore", it disputed another teacher's ban as if it ordered the very move it limits)
        return None
    if said is None or said[1].mode != "never":
        return said
    banned = said[1].move.verb
    kinds = {kind for verb, kind in limited_bans(read_wording(text).instruction).items() if same_verb(verb, banned) or banned == ANY_VERB}
    # (a time with a state it waits on, "not a Restore case yet" of a host at user level under an exploit, is a "never"
    # while that state holds, as the checks take it: checks._ban_limited; a count, or a time with no state, is none)
    if kinds & {"count", "alone", "manner"}:
        return None
    if "time" in kinds and all(atom.bare() for atom, _ in atoms_of(said[0])):
        # (r55d) a time that is a window of steps the words give, "never Restore User2 in the first 3 steps", is a
        # "never" in that window: read as none, the ban took no part in a dispute there, and beside another teacher's
        # "Restore User2 once it is rooted" both were injected at step 2
        windows = [w for w in episode_claims(text) if isinstance(w, EpisodeStep) and not w.outside]
        return (AllOf((said[0], *windows)), said[1]) if windows else None
    return said


# (r55e) The source an order is told on, before it: "Per the usr side team, ...", "According to the enterprise folks: ..."
_SOURCE_LEAD = re.compile(r"^\s*(?:per|as\s+per|according\s+to|on\s+behalf\s+of|word\s+from)\s+(?:the\s+|our\s+)?[^,:;.]{1,50}?"
                          r"\b(?:team|folks|people|crew|group|squad|desk|guys|owners?|leads?|admins?)\s*[,:]", re.IGNORECASE)


def _said_in_words(text: str) -> Optional[tuple[Predicate, RuleAction]]:
    """What the text forbids (`forbidden_in_words`), else what it orders in so many words: one host verb, on the one
    host it names or on the hosts of the one class it names, when what its words claim holds (rule_claims.rule_claims;
    else where that host or class is shown): "Restore user hosts as soon as they're compromised" is "do Restore" on
    a user host that shows a compromise. None when it says neither that plainly."""
    from forge.rulebook.language.rule_claims import rule_claims  # lazy: rule_claims.py reads more than this needs

    forbidden = forbidden_in_words(text)
    words = read_wording(text)
    if forbidden is not None and (across := _preferred_on_own_hosts(text, words, *forbidden)) is not None:
        return across
    if forbidden is not None:
        return forbidden[0], _preferred_instead(words, *forbidden)
    if words.classes and (in_clause := _put_off_in_a_clause(text, words)) is not None:
        return in_clause
    unnamed = _forbidden_where_claimed(text, words)
    if unnamed is not None:  # (r34h: a move put off there and another ordered, a preference of the one over the other)
        return unnamed[0], _preferred_instead(words, *unnamed)
    standing = _forbidden_on_class(words)
    if standing is not None:
        return standing
    verbs = [v for v in dict.fromkeys(words.verbs) if v not in GLOBAL_VERBS]
    # hosts the text names of the one class it orders for are that class's ("... on a user host; that goes for User1
    # through User4, leave User0 out"): its scope is the class, less what it excepts (rule_claims)
    # (r55e: not where the class only names the order's source, "Per the usr side team, Remove User3": read as its scope,
    # the order on User3 was disputed as an order on every user host)
    hosts = [] if len(words.classes) == 1 and all(h in HOST_CLASSES[words.classes[0]] for h in words.hosts) \
        and classes_in(_SOURCE_LEAD.sub("", words.text)) else words.hosts
    if words.prohibitions or words.dispreferred or len(verbs) != 1 or not words.classes and len(hosts) > 1 and \
            not _each_named_host(rule_claims(text, with_instruction=True, bare=False), hosts, words):
        return None
    claims = rule_claims(text, with_instruction=True, bare=False)
    if not words.classes and len(hosts) > 1:
        # (r40h) "U0, U3 or U4 shows an exploit -> Restore that host": the order on whichever named host its own state holds for,
        # so the teacher's exception for one of them ("User2 is the exception: ... Restore it") is found and settled
        return claims, RuleAction("do", Move(verbs[0], MATCHED))
    if len(hosts) + len(words.classes) > 1:
        return None
    if not hosts and not words.classes:
        # ("a host at root -> Restore": no host or class named, its order is for any host its claims say it is about,
        # so a teacher's exception on one named host is found and settled against it)
        if claims is None and AT_HAND_SAID.search(text):
            # (r40h) "recommend a Restore of the host under analysis" with a condition on its evidence, which no claim
            # states: the order is for the host at hand, whichever is shown (read as no order, its teacher's word
            # never disputed a rule that prefers another move there)
            return Atom(host_class="any"), RuleAction("do", Move(verbs[0], MATCHED))
        return (claims, RuleAction("do", Move(verbs[0], MATCHED))) if _of_any_host(claims) else None
    scope = Atom(host=hosts[0]) if hosts else Atom(host_class=words.classes[0])
    when = claims if claims is not None and positive_hosts(claims) <= positive_hosts(scope) else scope
    return when, RuleAction("do", Move(verbs[0], MATCHED))


def _put_off_in_a_clause(text: str, words) -> Optional[tuple[Predicate, RuleAction]]:
    """(r39h) A text that names a class as its condition's subject ("once User1 and a user box beside it are
    owned, plan User1's Remove rather than its Restore"): the one clause of its order that forbids or disprefers a
    verb on one host it names, and names no class, read as `forbidden_in_words` reads a whole text; on that host, where
    its whole condition holds (and the other verb that clause orders preferred over it). A class named anywhere kept such
    a rule out of every dispute, and two teachers' opposite preferences on that host both spoke."""
    from forge.rulebook.language.guard import whole_claims  # lazy: as in `said_in_words`

    order = order_without_conditions(words.instruction, words.conditions)
    clauses = [c for c in re.split(r"[;.]|,\s*(?:and|but)\s+", order) if c.strip() and not classes_in(c)]
    found = [(c, f) for c in clauses if (f := forbidden_in_words(c)) is not None and f[1].mode == "never"]
    claims = whole_claims(text) if len(found) == 1 else None
    if claims is None:
        return None
    clause, (when, action) = found[0]
    hosts = positive_hosts(when)
    if len(hosts) != 1 or not hosts <= positive_hosts(claims):
        return None
    host, verb = next(iter(hosts)), action.move.verb
    ordered = [v for v in dict.fromkeys(read_wording(clause).verbs) if v not in GLOBAL_VERBS and v != verb]
    if len(ordered) == 1 and verb != ANY_VERB:
        return claims, RuleAction("prefer", Move(ordered[0], host), over=Move(verb, host))
    return claims, RuleAction("never", Move(verb, host))


def _preferred_instead(words, when: Predicate, forbidden: RuleAction) -> RuleAction:
    """A verb only dispreferred, beside the one other host verb the text orders ("reimage User3 instead of evicting
    the attacker"), is a preference of that order over it, not a bare refusal: the rule also orders the other verb, so a
    prohibition of that verb on its hosts disputes it. Only where its condition was read whole (or it states none): an
    order on its hosts in any state would be wider than its words. Else the prohibition as read."""
    if words.prohibitions or len(words.dispreferred) != 1 or forbidden.move.verb != words.dispreferred[0]:
        return forbidden
    if words.conditions and all(atom.bare() for atom, _ in atoms_of(when)):
        return forbidden  # ("when you analyse Enterprise1 and it says ...": a condition unread, only its host kept)
    ordered = [v for v in dict.fromkeys(words.verbs) if v not in GLOBAL_VERBS and v != words.dispreferred[0]]
    if len(ordered) != 1:
        return forbidden
    return RuleAction("prefer", Move(ordered[0], MATCHED), over=forbidden.move)


def _preferred_on_own_hosts(text: str, words, when: Predicate, forbidden: RuleAction) -> Optional[tuple[Predicate, RuleAction]]:
    """(r57n) A preference of one move on one named host over another move on another ("prefer a Remove on User1 over a
    Restore on User2", forbidding.preferred_across_hosts): each move on its own host, where the text's claims hold (else
    where both hosts are shown). Read as `_preferred_instead` reads one host's preference, both moves fell on the matched
    host: the rule put a Restore of User1 second, which its words never did. Only where the ban read is that very move put
    second, and its condition, if it states one, is read (`_preferred_instead`: else the ban as read, on its own host)."""
    from forge.rulebook.language.rule_claims import rule_claims  # lazy: as in `_said_in_words`

    across = preferred_across_hosts(words.text)
    if across is None or words.prohibitions or forbidden.mode != "never" or forbidden.move.verb != across[1][0]:
        return None
    (verb, host), (second, other) = across
    claims = rule_claims(text, with_instruction=True, bare=False)
    if words.conditions and (claims is None or all(atom.bare() for atom, _ in atoms_of(claims))):
        return None
    both = AllOf((Atom(host=host), Atom(host=other)))
    return claims if claims is not None else both, RuleAction("prefer", Move(verb, host), over=Move(second, other))


def _each_named_host(claims, hosts, words) -> bool:
    """Whether claims are a state of each named host in turn, one alternative per host ("U0, U3 or U4 shows an exploit"), and
    the order names none of them ("Remove that host"): an order on the host whose alternative holds. (An order that
    lists the hosts itself, "remove X and Y when they are exploited", is left as it was.)"""
    if not isinstance(claims, AnyOf) or not all(isinstance(p, Atom) and p.host is not None and not p.bare() for p in claims.parts):
        return False
    return sorted(p.host for p in claims.parts) == sorted(hosts) and \
        not hosts_in(order_without_conditions(words.instruction, words.conditions))


def _of_any_host(claims) -> bool:
    """Whether claims are one state of a host in general ("any host at root"): one positive atom of the class `any`."""
    return isinstance(claims, Atom) and claims.host is None and claims.host_class == "any" and not claims.bare()


@lru_cache(maxsize=4096)
def forbidden_in_words(text: str) -> Optional[tuple[Predicate, RuleAction]]:
    """(the named hosts, "never VERB" on them) when the text forbids one verb (or every verb: "spend nothing on
    User0") or disprefers it ("remove it rather than restoring it") on hosts it names, and no host class; None
    otherwise (nothing forbidden, several verbs, a class, no named host)."""
    words = read_wording(text)
    if words.classes:
        return None  # a class prohibition is a general rule, not an exception about named hosts
    verbs: set[str] = set()
    hosts: set[str] = set()
    # (r55e) a ban that names no host is on none of the hosts a clause that ends or lifts it waits on ("never touch it
    # until User3 is restored")
    # (r56h) a ban that names no host beside one of that move that does ("Not unless E1 is owned may we Restore
    # Op_Host2. While E1 is quiet, restoring that box is overkill") is said of the same hosts, not of every host the
    # text names (read so, the host its condition waits on was banned too, and the ban fell on that host alone)
    placed = {p.verb: p.hosts for p in words.prohibitions if p.hosts}
    banned_on: list[frozenset] = []  # the hosts of each prohibition in turn
    for prohibition in words.prohibitions:
        if prohibition.classes or not prohibition.hosts and hosts_waited_on(words.text):
            return None
        verbs.add(prohibition.verb or ANY_VERB)
        banned_on.append(frozenset(prohibition.hosts or placed.get(prohibition.verb) or words.hosts))
        hosts |= banned_on[-1]
    # (r60h) every verb banned on the hosts, and one of them named again on the same hosts, "Op_Host0 rooted: hands off,
    # and no Restore either", "..., not even a Remove" (read as put aside as well): that verb is one of every verb (counted as a
    # second verb, the note had no meaning in a dispute, and a rule it outranks on E1 spoke beside it). Not where the
    # named verb falls on other hosts, nor a verb only put aside, which no prohibition names.
    # (r60a) Nor where the text names a move no prohibition bans, "leave User1 alone, not even an Analyse, but a Restore
    # once rooted is fine": the move let there is none of every verb (read as one, the note outranked the Restore it lets)
    every = ANY_VERB in verbs and len(set(banned_on)) == 1 and set(words.dispreferred) <= verbs \
        and set(verbs_in(words.text)) <= verbs
    if every:
        verbs = {ANY_VERB}
    if words.dispreferred and not every:
        verbs |= set(words.dispreferred)
        # (r57n) a move put second on its own host ("a Remove on User1 over a Restore on User2") is put second there alone
        across = preferred_across_hosts(words.text)
        hosts |= {across[1][1]} if across is not None and across[1][0] in words.dispreferred else set(words.hosts)
    hosts -= set(words.excepted)
    if len(verbs) != 1 or not hosts:
        return None
    atoms = tuple(Atom(host=host) for host in sorted(hosts))
    when: Predicate = atoms[0] if len(atoms) == 1 else AnyOf(atoms)
    # A condition on another host than the banned ones ("OpS0 hit -> no Remove on E1") has no predicate here: the
    # "never" falls on its matched host, which would be the other host. The ban is then read on its own hosts in any
    # state. That is wider than the words, but this reading only finds disputes between rules injected together, and
    # each is injected only where its own condition holds. Read as no ban, the dispute was lost and the rule it
    # outranks was injected beside it (blind-37, measured at dad2a4e).
    return _stated_condition(text, hosts) or when, RuleAction("never", Move(verbs.pop(), MATCHED))


def _stated_condition(text: str, hosts: set[str]) -> Optional[Predicate]:
    """Where a prohibition on named hosts states its own condition on them, read whole ("Ent1 hit -> Remove, that's
    it. Restoring Ent1 is a waste of a turn."): that condition, not the hosts in any state (a standing prohibition,
    "never restore User3, even when it's rooted", states none and stays on its hosts whatever their state)."""
    from forge.rulebook.language.guard import whole_claims  # lazy: as in `said_in_words`

    if not read_wording(text).conditions:
        return None
    claims = whole_claims(text)
    if claims is None or not positive_hosts(claims) <= hosts:
        return None
    atoms = list(atoms_of(claims))
    if not atoms or any(atom.bare() for atom, _ in atoms):
        return None
    if not positive_hosts(claims):
        # (r55e) a condition that only says what must not hold, "leave Op_Host0 alone unless Op_Server0 is rooted": the
        # banned hosts kept beside it (alone, it matched no host of the ban, and its "never" fell on whatever it matched)
        banned = tuple(Atom(host=host) for host in sorted(hosts))
        return AllOf((banned[0] if len(banned) == 1 else AnyOf(banned), claims))
    return claims


def _forbidden_where_claimed(text: str, words) -> Optional[tuple[Predicate, RuleAction]]:
    """A prohibition of one verb that names no host (and no class but its condition's), on the host its condition
    describes ("Do not recommend Restore for a host whose row reads Unknown"): never that verb on the host its claims
    match, where rule_claims.rule_claims read the whole of its condition; None otherwise. (r34h) A verb only put off
    ("Analyse such a host first, before any Remove") counts as forbidden there (`said_in_words` reads the preference)."""
    from forge.rulebook.language.condition import evidence_rest  # lazy: as in `said_in_words`
    from forge.rulebook.language.guard import whole_claims

    if words.hosts or not (words.prohibitions or words.dispreferred) or words.excepted:
        return None
    verbs = {p.verb for p in words.prohibitions} | set(words.dispreferred)
    # (r46m: a prohibition on the one class its condition names, "ops box probed -> Monitor; decoys on the ops side = lost
    # steps", is on the host its claims match, as one said of no class)
    if len(verbs) != 1 or None in verbs or any(p.hosts or p.classes and not set(p.classes) <= set(words.classes) or
                                               len(p.classes) > 1 for p in words.prohibitions):
        return None
    # (r40g) or a host of the one class its condition names, the rest of it what the evidence shows ("an enterprise
    # server whose evidence shows a shell: plan its Remove, not its Restore"): the gate judges that evidence, and a rule
    # that read as no dispute at all spoke beside the other teacher's Restore there)
    claims = whole_claims(text) or evidence_rest(text)
    if claims is None:
        return None
    # (a class it names is its condition's subject, "User hosts sitting at user level: plan a Remove, a Restore there is
    # overkill": the host its claims match is one of that class)
    # (or its hosts, where the condition counts them: "only one user host is compromised" is one of User0-User4; the
    # rest of the network said quiet is no subject)
    if not set(words.classes) <= {atom.host_class for atom, _ in atoms_of(claims) if atom.host_class is not None} and \
            not _of_class_hosts(claims, words.classes):
        return None
    return claims, RuleAction("never", Move(verbs.pop(), MATCHED))


def _forbidden_on_class(words) -> Optional[tuple[Predicate, RuleAction]]:
    """(r53l) A standing prohibition of one verb on the one class the text names, with no condition, no host named and
    none excepted ("Never Restore a user host", "enterprise servers get no Remove from us"): never that verb on a host of
    that class, whatever it shows. Kept without a compiled meaning, such a rule was no party to any dispute (a class
    prohibition is no exception about named hosts, `forbidden_in_words`, and it has no condition for
    `_forbidden_where_claimed` to read), so another teacher's exception on one user host and this general word were
    both injected, or the exception alone where the general rule's teacher asked."""
    from forge.rulebook.language.rule_claims import class_ban_plain, states_said  # lazy: as in `said_in_words`

    if words.hosts or words.excepted or words.conditions or words.dispreferred or len(words.classes) != 1 \
            or states_said(words.text) or not words.prohibitions or not class_ban_plain(words):
        return None  # (a state said where no condition is read, "no Restore on a user box at Unknown": not in any state)
    verbs = {p.verb or ANY_VERB for p in words.prohibitions}
    # (the prohibition said of the class, or of no place while the text names that class alone: "user boxes never get a
    # Restore")
    if len(verbs) != 1 or any(p.hosts or p.classes and tuple(p.classes) != tuple(words.classes) for p in words.prohibitions):
        return None
    return Atom(host_class=words.classes[0]), RuleAction("never", Move(verbs.pop(), MATCHED))


def _of_class_hosts(claims, classes) -> bool:
    """Whether every host a claim says is busy (a positive atom stating an activity or a compromise, not a quiet row)
    is one of the classes' hosts, and there is one."""
    busy = {h for atom, negated in atoms_of(claims) if not negated and not _quiet_atom(atom) for h in atom.hosts()}
    return bool(busy) and all(any(h in HOST_CLASSES[c] for c in classes) for h in busy)


def _quiet_atom(atom) -> bool:
    """An atom that states only a quiet row (Activity None, Compromised No)."""
    return atom.activity in (None, "None") and atom.compromise in (None, "No") and not atom.bare()
