"""A rule's trigger as a small typed predicate over what the agent observes. Pure.

The wire form (RULE_CONTRACT.md) is JSON:

    {"always": true}                                  every decision of the rule's roles
    {"host": "User0"}                                 the context shows or names this host (any state)
    {"host": "User2", "activity": "Exploit"}          that host's row shows this activity
    {"class": "User", "compromise": "Privileged"}     some host of the class shows it
    {"any": [p, ...]}   {"all": [p, ...]}   {"not": p}
    {"phase": "reconnaissance"}                       an attack phase, read as its predicate (phases.py)

activity: None | Scan | Exploit | any (anything but None); compromise: No | Unknown | User | Privileged |
any (anything but No): the values of `forge.env.catalog`. An atom with both needs both on the same host. Anything else (an unknown host,
class, value or key) is a `PredicateError` naming it.

`truth(p, situation)` evaluates a predicate against what a context states (situation.py reads it), in
three values: True, False, or None (unknown) for an atom about a host the context does not state (or a
field of it the context does not state); `not unknown` is unknown, `all` is false if any part is false,
`any` is true if any part is true. `holds` is `truth(...) is True`: a rule fires only on true, so "not
(User0 compromised)" stays silent on a context that says nothing about User0;
`may_overlap(p, q)` says whether two triggers can hold in one context: conservative, it answers True
unless it can show they exclude each other (used to find conflicts and supersession).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from typing import Any, Optional, Union

from forge.env.catalog import ACTIVITIES, COMPROMISE_LEVELS, HOST_CLASSES, HOSTS, QUIET_ACTIVITY, QUIET_COMPROMISE
from forge.rulebook.model import RulebookError
from forge.rulebook.language.phases import phase_predicate
from forge.rulebook.language.situation import SOME, Situation

CLASSES = (*HOST_CLASSES, "any")
_MAX_DNF = 64  # conjunctions; beyond it the overlap test gives up and says "may overlap"


class PredicateError(RulebookError, ValueError):
    """A predicate or action that does not fit the schema; the message names the bad key or value."""


@dataclass(frozen=True)
class Always:
    pass


@dataclass(frozen=True)
class Atom:
    """A host (or some host of a class) in a state. `activity` / `compromise` None: not constrained."""

    host: Optional[str] = None
    host_class: Optional[str] = None
    activity: Optional[str] = None
    compromise: Optional[str] = None

    def hosts(self) -> tuple[str, ...]:
        if self.host is not None:
            return (self.host,)
        return HOSTS if self.host_class == "any" else HOST_CLASSES[self.host_class]

    def on(self, host: str) -> "Atom":
        return Atom(host=host, activity=self.activity, compromise=self.compromise)

    def accepts(self, activity: Optional[str], compromise: Optional[str]) -> bool:
        """Whether one stated host state (None: not stated) meets this atom's conditions."""
        return _meets(self.activity, activity, QUIET_ACTIVITY) and _meets(self.compromise, compromise, QUIET_COMPROMISE)

    def accepts3(self, activity: Optional[str], compromise: Optional[str]) -> Optional[bool]:
        """As `accepts`, three-valued: None where a field the atom constrains is not stated."""
        parts = (_meets3(self.activity, activity, QUIET_ACTIVITY), _meets3(self.compromise, compromise, QUIET_COMPROMISE))
        if False in parts:
            return False
        return None if None in parts else True


@dataclass(frozen=True)
class AnyOf:
    parts: tuple["Predicate", ...]


@dataclass(frozen=True)
class AllOf:
    parts: tuple["Predicate", ...]


@dataclass(frozen=True)
class Not:
    part: "Predicate"


Predicate = Union[Always, Atom, AnyOf, AllOf, Not]


def _meets(wanted: Optional[str], actual: Optional[str], quiet: str) -> bool:
    if wanted is None:
        return True
    if actual is None:
        return False  # the context names the host but does not state this field
    if wanted == "any":
        return actual != quiet
    return actual == wanted


def _meets3(wanted: Optional[str], actual: Optional[str], quiet: str) -> Optional[bool]:
    if wanted is None:
        return True
    if actual is None:
        return None  # the context names the host but does not state this field
    if actual == SOME:
        return True if wanted == "any" else (False if wanted == quiet else None)  # stated, level not known
    if wanted == "any":
        return actual != quiet
    return actual == wanted


# -- JSON ---------------------------------------------------------------------------------------------


def _value(data: dict, key: str, allowed: tuple[str, ...]) -> Optional[str]:
    if key not in data or data[key] is None:
        return None
    raw = data[key]
    if not isinstance(raw, str):
        raise PredicateError(f"predicate {key} must be a string, got {raw!r:.40}")
    folded = {v.lower(): v for v in (*allowed, "any")}
    if raw.strip().lower() not in folded:
        raise PredicateError(f"unknown {key} {raw!r:.40} in predicate (one of {', '.join((*allowed, 'any'))})")
    return folded[raw.strip().lower()]


def _host(raw: Any) -> str:
    folded = {h.lower(): h for h in HOSTS}
    if not isinstance(raw, str) or raw.strip().lower() not in folded:
        raise PredicateError(f"unknown host {raw!r:.40} in predicate (CAGE-2 hosts: {', '.join(HOSTS)})")
    return folded[raw.strip().lower()]


def _class(raw: Any) -> str:
    folded = {c.lower(): c for c in CLASSES}
    if not isinstance(raw, str) or raw.strip().lower() not in folded:
        raise PredicateError(f"unknown host class {raw!r:.40} in predicate (one of {', '.join(CLASSES)})")
    return folded[raw.strip().lower()]


def parse_predicate(data: Any, *, depth: int = 0) -> Predicate:
    """The predicate a JSON value describes; PredicateError naming what is wrong."""
    if depth > 8:
        raise PredicateError("predicate nested deeper than 8 levels")
    if not isinstance(data, dict) or not data:
        raise PredicateError(f"a predicate must be a non-empty JSON object, got {data!r:.60}")
    keys = set(data)
    for combinator in ("any", "all"):
        if combinator in keys:
            if keys != {combinator}:
                raise PredicateError(f"predicate {combinator!r} takes no other keys, got {sorted(keys)}")
            parts = data[combinator]
            if not isinstance(parts, list) or not parts:
                raise PredicateError(f"predicate {combinator!r} needs a non-empty list")
            parsed = tuple(parse_predicate(p, depth=depth + 1) for p in parts[:16])
            return AnyOf(parsed) if combinator == "any" else AllOf(parsed)
    if "not" in keys:
        if keys != {"not"}:
            raise PredicateError(f"predicate 'not' takes no other keys, got {sorted(keys)}")
        return Not(parse_predicate(data["not"], depth=depth + 1))
    if "phase" in keys:
        if keys != {"phase"} or not isinstance(data["phase"], str):
            raise PredicateError('predicate "phase" takes one phase name and no other keys')
        try:
            return parse_predicate(phase_predicate(data["phase"]), depth=depth + 1)
        except ValueError as exc:
            raise PredicateError(str(exc)) from None
    if "always" in keys:
        if keys != {"always"} or data["always"] is not True:
            raise PredicateError('predicate "always" must be exactly {"always": true}')
        return Always()
    unknown = keys - {"host", "class", "activity", "compromise"}
    if unknown:
        raise PredicateError(f"unknown predicate key(s) {sorted(unknown)} (always, host, class, activity, compromise, phase, any, all, not)")
    if ("host" in keys) == ("class" in keys):
        raise PredicateError(f"a predicate atom names exactly one of host or class, got {sorted(keys)}")
    activity = _value(data, "activity", ACTIVITIES)
    compromise = _value(data, "compromise", COMPROMISE_LEVELS)
    if "host" in keys:
        return Atom(host=_host(data["host"]), activity=activity, compromise=compromise)
    return Atom(host_class=_class(data["class"]), activity=activity, compromise=compromise)


def predicate_to_json(p: Predicate) -> dict[str, Any]:
    if isinstance(p, Always):
        return {"always": True}
    if isinstance(p, AnyOf):
        return {"any": [predicate_to_json(x) for x in p.parts]}
    if isinstance(p, AllOf):
        return {"all": [predicate_to_json(x) for x in p.parts]}
    if isinstance(p, Not):
        return {"not": predicate_to_json(p.part)}
    out: dict[str, Any] = {"host": p.host} if p.host is not None else {"class": p.host_class}
    if p.activity is not None:
        out["activity"] = p.activity
    if p.compromise is not None:
        out["compromise"] = p.compromise
    return out


# -- evaluation ---------------------------------------------------------------------------------------


def holds(p: Predicate, situation: Situation) -> bool:
    """Whether `situation` meets the predicate: true, not unknown (see `truth`)."""
    return truth(p, situation) is True


def truth(p: Predicate, situation: Situation) -> Optional[bool]:
    """The predicate's value on what `situation` states: True, False, or None (unknown)."""
    if isinstance(p, Always):
        return True
    if isinstance(p, (AnyOf, AllOf)):
        values = [truth(x, situation) for x in p.parts]
        decisive = isinstance(p, AnyOf)  # any: one true decides; all: one false decides
        if decisive in values:
            return decisive
        return None if None in values else not decisive
    if isinstance(p, Not):
        inner = truth(p.part, situation)
        return None if inner is None else not inner
    if p.activity is None and p.compromise is None:
        return bool(matched_hosts(p, situation))  # "the context shows this host": a fact about the context
    unknown = False
    for host in p.hosts():
        states = situation.states(host)
        if not states:
            unknown = True  # the context does not state this host
            continue
        for activity, compromise in states:
            value = p.accepts3(activity, compromise)
            if value:
                return True
            unknown = unknown or value is None
    return None if unknown else False


def matched_hosts(p: Predicate, situation: Situation) -> tuple[str, ...]:
    """The hosts whose stated state makes the predicate's positive atoms hold ("that host")."""
    if isinstance(p, Atom):
        if p.activity is None and p.compromise is None:  # "shows this host": a host the context names
            return tuple(h for h in p.hosts() if situation.states(h) and h not in situation.unnamed)
        return tuple(h for h in p.hosts() if any(p.accepts(a, c) for a, c in situation.states(h)))
    if isinstance(p, (AnyOf, AllOf)):
        if not holds(p, situation):
            return ()
        found: dict[str, None] = {}
        for part in p.parts:
            found.update((h, None) for h in matched_hosts(part, situation))
        return tuple(found)
    return ()


def positive_hosts(p: Predicate) -> frozenset[str]:
    """Every host a positive atom of the predicate can match (all hosts for `always`)."""
    if isinstance(p, Always):
        return frozenset(HOSTS)
    if isinstance(p, Atom):
        return frozenset(p.hosts())
    if isinstance(p, (AnyOf, AllOf)):
        return frozenset().union(*(positive_hosts(x) for x in p.parts))
    return frozenset()


# -- overlap ------------------------------------------------------------------------------------------

Literal = tuple[Atom, bool]  # (atom, positive)


def dnf(p: Predicate, positive: bool = True) -> Optional[list[tuple[Literal, ...]]]:
    """Disjunctive normal form, negations pushed to the atoms; None if it would exceed _MAX_DNF."""
    if isinstance(p, Always):
        return [()] if positive else []
    if isinstance(p, Atom):
        return [((p, positive),)]
    if isinstance(p, Not):
        return dnf(p.part, not positive)
    conjunctive = isinstance(p, AllOf) == positive
    branches = [dnf(x, positive) for x in p.parts]
    if any(b is None for b in branches):
        return None
    if not conjunctive:
        out = [c for b in branches for c in b]
        return out if len(out) <= _MAX_DNF else None
    out = [()]
    for branch in branches:
        out = [a + b for a, b in product(out, branch)]
        if len(out) > _MAX_DNF:
            return None
    return out


def _exact(value: Optional[str]) -> Optional[str]:
    return value if value not in (None, "any") else None


def _values_exclude(a: Optional[str], b: Optional[str], quiet: str) -> bool:
    """No single stated value meets both conditions."""
    if a is None or b is None:
        return False
    if a == "any" and b == "any":
        return False
    if a == "any" or b == "any":
        other = b if a == "any" else a
        return other == quiet
    return a != b


def _covers(general: Atom, specific: Atom) -> bool:
    """Every situation meeting `specific` meets `general`."""
    if not set(specific.hosts()) <= set(general.hosts()):
        return False
    for field, quiet in (("activity", QUIET_ACTIVITY), ("compromise", QUIET_COMPROMISE)):
        g, s = getattr(general, field), getattr(specific, field)
        if g is None:
            continue
        if s is None or not (g == s or (g == "any" and s != quiet and s is not None)):
            return False
    return True


def _consistent(conjunction: tuple[Literal, ...]) -> bool:
    positives = [a for a, pos in conjunction if pos]
    negatives = [a for a, pos in conjunction if not pos]
    for atom in positives:
        if any(_covers(neg, atom) for neg in negatives):
            return False
    singles = [a for a in positives if a.host is not None]
    for x, y in ((x, y) for i, x in enumerate(singles) for y in singles[i + 1:]):
        if x.host == y.host and (_values_exclude(x.activity, y.activity, QUIET_ACTIVITY)
                                 or _values_exclude(x.compromise, y.compromise, QUIET_COMPROMISE)):
            return False
    return True


def implies(p: Predicate, q: Predicate) -> bool:
    """Does every context meeting `p` meet `q`? Conservative: True only when the forms show it."""
    if isinstance(q, Always) or p == q:
        return True
    if isinstance(p, AnyOf):
        return all(implies(x, q) for x in p.parts)
    if isinstance(q, AllOf):
        return all(implies(p, x) for x in q.parts)
    if isinstance(q, AnyOf):
        return any(implies(p, x) for x in q.parts)
    if isinstance(p, AllOf):
        return any(implies(x, q) for x in p.parts)
    if isinstance(p, Atom) and isinstance(q, Atom):
        return _covers(q, p)
    return False


def may_overlap(p: Predicate, q: Predicate) -> bool:
    """Can one context meet both? Conservative: True unless the forms exclude each other."""
    left, right = dnf(p), dnf(q)
    if left is None or right is None:
        return True
    return any(_consistent(a + b) for a in left for b in right)


def may_overlap_on(p: Predicate, q: Predicate, host: str, *, p_matched: bool, q_matched: bool) -> bool:
    """Can one context meet both while each prescribes for `host`? A `$matched` side must match `host`
    itself (its atom is specialised to that host), so "User hosts privileged" and "User hosts at User
    level" do not clash on User1 although both predicates can hold at once."""
    left = _specialised(p, host) if p_matched else dnf(p)
    right = _specialised(q, host) if q_matched else dnf(q)
    if left is None or right is None:
        return True
    return any(_consistent(a + b) for a in left for b in right)


def _specialised(p: Predicate, host: str) -> Optional[list[tuple[Literal, ...]]]:
    form = dnf(p)
    if form is None:
        return None
    out = []
    for conjunction in form:
        for i, (atom, pos) in enumerate(conjunction):
            if pos and host in atom.hosts():
                out.append(conjunction[:i] + ((atom.on(host), True),) + conjunction[i + 1:])
        if not any(pos for _, pos in conjunction):  # `always` and pure negations prescribe for any host
            out.append(conjunction)
    return out


# -- naming -------------------------------------------------------------------------------------------


def _slug(atom: Atom) -> str:
    parts = []
    if atom.activity is not None:
        parts.append("any-activity" if atom.activity == "any" else f"activity-{atom.activity.lower()}")
    if atom.compromise is not None:
        parts.append("any-compromise" if atom.compromise == "any" else f"compromised-{atom.compromise.lower()}")
    return "+".join(parts) or "shown"


def group_of(p: Predicate) -> str:
    """A readable label of what a trigger is about (`User0/shown`, `User/compromised-privileged`)."""
    if isinstance(p, Always):
        return "always"
    if isinstance(p, Atom):
        return f"{p.host or p.host_class}/{_slug(p)}"
    if isinstance(p, Not):
        return f"not-{group_of(p.part)}"
    joiner = "|" if isinstance(p, AnyOf) else "&"
    return joiner.join(group_of(x) for x in p.parts)[:80]


def describe(p: Predicate) -> str:
    """The predicate in words, for `forge rulebook show`."""
    if isinstance(p, Always):
        return "always"
    if isinstance(p, Atom):
        subject = p.host or ("any host" if p.host_class == "any" else f"a {p.host_class} host")
        conditions = []
        if p.activity is not None:
            conditions.append("any activity" if p.activity == "any" else f"Activity {p.activity}")
        if p.compromise is not None:
            conditions.append("any compromise" if p.compromise == "any" else f"Compromised {p.compromise}")
        return f"{subject} shows {' and '.join(conditions)}" if conditions else f"{subject} is shown"
    if isinstance(p, Not):
        return f"not ({describe(p.part)})"
    joiner = " or " if isinstance(p, AnyOf) else " and "
    return joiner.join(f"({describe(x)})" for x in p.parts)
