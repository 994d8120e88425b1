"""A rule's trigger as a small typed predicate over what the agent observes. Pure.

The wire form (the compiler's contract, forge/rulebook/authoring/compiler_prompt.md) is JSON:

    {"always": true}                                  every decision of the rule's roles
    {"host": "User0"}                                 the context shows or names this host (any state)
    {"host": "User2", "activity": "Exploit"}          that host's row shows this activity
    {"class": "User", "compromise": "Privileged"}     some host of the class shows it
    {"compromise": "Privileged"}                      some host, whichever (no host and no class: class "any")
    {"any": [p, ...]}   {"all": [p, ...]}   {"not": p}
    {"phase": "reconnaissance"}                       an attack phase, read as its predicate (phases.py)

activity: None | Scan | Exploit | any (anything but None); compromise: No | Unknown | User | Privileged |
any (anything but No): the values of `forge.env.catalog`. An atom with both needs both on the same host. Anything else (an unknown host,
class, value or key) is a `PredicateError` naming it.

History atoms: the same host or class, with conditions on the defender's recent steps as the context
states them (situation.History: the `Recent steps:` and `Host history` lines); all conditions of an atom
hold on one host:

    {"class": "any", "newly_compromised": true}      compromised now, not at the last recorded step
    {"class": "any", "newly_compromised": false}     compromised now and already at the last recorded step
    {"host": "User1", "unchanged_for": 3}            its Compromised value now equals its last 3 recorded ones
    {"class": "any", "acted": "Remove", "within": 2}  the defender took Remove on it in the last 2 steps
    {"class": "any", "acted": "Remove", "within": 2, "changed": false}
                                                      ... and its Compromised value did not change after
    {"class": "any", "scan_before_exploit": true}    its history shows Activity Scan before Activity Exploit

A history condition on a context without the line it needs is unknown, like an unstated host.

`truth(p, situation)` evaluates a predicate against what a context states (situation.py reads it), in
three values: True, False, or None (unknown) for an atom about a host the context does not state (or a
field of it the context does not state); `not unknown` is unknown, `all` is false if any part is false,
`any` is true if any part is true. `holds` is `truth(...) is True`: a rule fires only on true, so "not
(User0 compromised)" stays silent on a context that says nothing about User0;
`may_overlap(p, q)` says whether two triggers can hold in one context: conservative, it answers True
unless it can show they exclude each other (used to find conflicts and supersession).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import product
from typing import Any, Optional, Union

from forge.env.catalog import ACTIVITIES, COMPROMISE_LEVELS, HOST_CLASSES, HOST_VERBS, HOSTS, QUIET_ACTIVITY, QUIET_COMPROMISE
from forge.rulebook.model import RulebookError
from forge.rulebook.language.episode import EpisodeStep, RewardTrend
from forge.rulebook.language.phases import phase_predicate
from forge.rulebook.language.remembered import remembered
from forge.rulebook.language.situation import SOME, History, Situation

ANY_CLASS = "any"  # the class of every host: an atom that names no host and no class
CLASSES = (*HOST_CLASSES, ANY_CLASS)
HISTORY_FIELDS = ("newly_compromised", "unchanged_for", "acted", "within", "changed", "scan_before_exploit")
MAX_HISTORY_STEPS = 30  # an episode's length: a longer window is a typo
MAX_COMBINED = 16  # parts of one any / all
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
    # History conditions (None: not constrained); see the module docstring.
    newly_compromised: Optional[bool] = None
    unchanged_for: Optional[int] = None
    acted: Optional[str] = None  # a host verb, or "any"
    within: Optional[int] = None  # with `acted`: the last n steps (default 1)
    changed: Optional[bool] = None  # with `acted`: whether its Compromised value changed after the action
    scan_before_exploit: Optional[bool] = None

    def hosts(self) -> tuple[str, ...]:
        if self.host is not None:
            return (self.host,)
        return HOSTS if self.host_class == "any" else HOST_CLASSES[self.host_class]

    def on(self, host: str) -> "Atom":
        return replace(self, host=host, host_class=None)

    def history(self) -> tuple[tuple[str, object], ...]:
        """The atom's history conditions, as (field, value) pairs."""
        return tuple((name, getattr(self, name)) for name in HISTORY_FIELDS if getattr(self, name) is not None)

    def bare(self) -> bool:
        """No condition at all: "the context shows this host"."""
        return self.activity is None and self.compromise is None and not self.history()

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


# (an `EpisodeStep`, a window of the episode's steps, and a `RewardTrend` are read from a rule's words only, episode.py: no
# compiler writes them)
Predicate = Union[Always, Atom, AnyOf, AllOf, Not, EpisodeStep, RewardTrend]


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
        # stated, level not known; but said to be compromised ("User0 is compromised"), it is not the table's Unknown, the
        # row that does not know (a condition "not at Unknown" holds there)
        return True if wanted == "any" else (False if wanted in (quiet, _REMOVED) else None)
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
            if len(parts) > MAX_COMBINED:  # read whole or refused: dropping parts would widen (or, under "not", invert) it
                raise PredicateError(f"predicate {combinator!r} lists {len(parts)} parts; at most {MAX_COMBINED}")
            parsed = tuple(parse_predicate(p, depth=depth + 1) for p in parts)
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
    unknown = keys - {"host", "class", "activity", "compromise", *HISTORY_FIELDS}
    if unknown:
        raise PredicateError(f"unknown predicate key(s) {sorted(unknown)} (always, host, class, activity, compromise, "
                             f"{', '.join(HISTORY_FIELDS)}, phase, any, all, not)")
    named = {key for key in ("host", "class") if data.get(key) is not None}  # null: not named (a strict schema's absent)
    if len(named) == 2:
        raise PredicateError(f"a predicate atom names one of host or class, not both, got {sorted(keys)}")
    if not named and all(data.get(key) is None for key in keys):
        raise PredicateError("a predicate atom names a host, a class or a condition, got nothing but nulls")
    activity = _value(data, "activity", ACTIVITIES)
    compromise = _value(data, "compromise", COMPROMISE_LEVELS)
    # An atom that names neither is about some host, whichever: `{"activity": "Exploit"}` is `{"class": "any",
    # "activity": "Exploit"}` ("when some host is exploited"), never a host in particular.
    where = {"host": _host(data["host"])} if "host" in named else {"host_class": _class(data.get("class") or ANY_CLASS)}
    return Atom(**where, activity=activity, compromise=compromise, **_history_conditions(data))


def _flag(data: dict, key: str) -> Optional[bool]:
    if data.get(key) is None:
        return None
    if not isinstance(data[key], bool):
        raise PredicateError(f"predicate {key} must be true or false, got {data[key]!r:.40}")
    return data[key]


def _steps(data: dict, key: str) -> Optional[int]:
    if data.get(key) is None:
        return None
    raw = data[key]
    if isinstance(raw, bool) or not isinstance(raw, int) or not 1 <= raw <= MAX_HISTORY_STEPS:
        raise PredicateError(f"predicate {key} must be a whole number of steps from 1 to {MAX_HISTORY_STEPS}, got {raw!r:.40}")
    return raw


def _history_conditions(data: dict) -> dict[str, Any]:
    out: dict[str, Any] = {"newly_compromised": _flag(data, "newly_compromised"),
                           "unchanged_for": _steps(data, "unchanged_for"),
                           "scan_before_exploit": _flag(data, "scan_before_exploit")}
    if data.get("acted") is not None:
        out["acted"] = _value(data, "acted", HOST_VERBS)
        out["within"] = _steps(data, "within") or 1
        out["changed"] = _flag(data, "changed")
    elif data.get("within") is not None or data.get("changed") is not None:
        raise PredicateError('predicate "within" and "changed" qualify "acted": name the action too')
    return out


def predicate_to_json(p: Predicate) -> dict[str, Any]:
    if isinstance(p, Always):
        return {"always": True}
    if isinstance(p, AnyOf):
        return {"any": [predicate_to_json(x) for x in p.parts]}
    if isinstance(p, AllOf):
        return {"all": [predicate_to_json(x) for x in p.parts]}
    if isinstance(p, Not):
        return {"not": predicate_to_json(p.part)}
    if isinstance(p, (EpisodeStep, RewardTrend)):
        return {"step": p.describe()}  # (shown, never parsed back: no compiler writes one)
    out: dict[str, Any] = {"host": p.host} if p.host is not None else {"class": p.host_class}
    if p.activity is not None:
        out["activity"] = p.activity
    if p.compromise is not None:
        out["compromise"] = p.compromise
    out.update(p.history())
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
    if isinstance(p, EpisodeStep):
        return p.truth(situation.step, situation.step_latest, situation.episode_length)
    if isinstance(p, RewardTrend):
        return p.truth(_rewards(situation.history))
    if p.bare():
        return bool(matched_hosts(p, situation))  # "the context shows this host": a fact about the context
    unknown = False
    for host in p.hosts():
        value = host_truth(p, host, situation)
        if value:
            return True
        unknown = unknown or value is None
    return None if unknown else False


def _rewards(history: Optional[History]) -> Optional[tuple[float, ...]]:
    """The rewards the context's `Recent steps:` line states, oldest first (None: no such line)."""
    if history is None or history.actions is None:
        return None
    return tuple(a.reward for a in sorted(history.actions, key=lambda a: a.step) if a.reward is not None)


def host_truth(p: Atom, host: str, situation: Situation) -> Optional[bool]:
    """The atom's value on one host: its stated state now, and its history where the atom asks for it."""
    history = p.history()
    states = situation.states(host)
    needs_now = p.activity is not None or p.compromise is not None or p.newly_compromised is not None or p.unchanged_for is not None
    if needs_now and not states:
        return None  # the context does not state this host
    values = [p.accepts3(a, c) for a, c in states] if (p.activity is not None or p.compromise is not None) else [True]
    now = True if True in values else (None if None in values else False)
    if now and p.acted == "Remove" and p.compromise == "any" and {c for _, c in states} == {_REMOVED}:
        # Unknown is the row a Remove leaves: whether the attacker is still (or again) on a removed host is not known
        now = None
    if not history or now is False:
        return now
    parts = [now]
    for name, wanted in history:
        if name in ("within", "changed"):
            continue  # qualifiers of `acted`
        parts.append(_history_truth(p, name, wanted, host, states, situation.history))
    if False in parts:
        return False
    return None if None in parts else True


_REMOVED = "Unknown"  # the Compromised value a Remove leaves on a compromised row (CybORG's blue table)


def _compromised(level: Optional[str]) -> Optional[bool]:
    return None if level is None else level != QUIET_COMPROMISE


def _history_truth(p: Atom, name: str, wanted, host: str, states, history: Optional[History]) -> Optional[bool]:
    """One history condition on one host, three-valued: unknown where the context lacks the line it needs."""
    if history is None or history.step is None:
        return None
    if name == "acted":
        return _acted(p, host, history, {c for _, c in states if c is not None and c != SOME})
    levels_now = {c for _, c in states if c is not None and c != SOME}
    if name == "newly_compromised" and levels_now and not any(_compromised(c) for c in levels_now):
        return False  # not compromised now: neither newly nor since before
    past = history.past(host)
    if not past:
        return None
    if name == "scan_before_exploit":
        sequence = [a for _, a, _ in past] + [a for a, _ in states if a is not None]
        first_scan = next((i for i, a in enumerate(sequence) if a == "Scan"), None)
        shown = first_scan is not None and "Exploit" in sequence[first_scan + 1:]
        if not shown and past[0][0] > 1:
            return None  # the scan may be older than the window: not seeing it is not seeing its absence
        return shown == wanted
    if not levels_now:
        return None
    if name == "newly_compromised":
        if not any(_compromised(c) for c in levels_now):
            return False
        before = _compromised(past[-1][2])
        return (not before) == wanted
    if name == "unchanged_for":
        if len(past) < wanted:
            return None
        return any(all(c == level for _, _, c in past[-wanted:]) for level in levels_now)
    raise PredicateError(f"unknown history condition {name!r}")


def _acted(p: Atom, host: str, history: History, levels_now: set[str]) -> Optional[bool]:
    """`acted` (with `within`, `changed`) on one host."""
    if history.actions is None:
        return None
    since = history.step - (p.within or 1)
    taken = [a for a in history.actions if a.step >= since and a.host == host and (p.acted == "any" or a.verb == p.acted)]
    if not taken:
        earliest = min((a.step for a in history.actions), default=history.step)
        return False if earliest <= max(since, 1) else None  # the line may not reach back far enough
    if p.changed is None:
        return True
    past = {s: {c} for s, _, c in history.past(host) or ()}
    if levels_now:
        past[history.step] = levels_now
    values = []
    # ("still compromised after we removed it" is said of the last Remove: one that did change the row, after an earlier
    # one that did not, leaves nothing "still" as it was)
    # (the step-s action shows its effect in the step s+1 observation)
    for action in taken if p.changed else sorted(taken, key=lambda a: a.step)[-1:]:
        before, after = past.get(action.step), past.get(action.step + 1)
        # ("still compromised after a Remove", changed: false: the action left it in the state the atom asks for, not
        # a host clean then and compromised since)
        kept = p.changed or p.compromise is None or not after or any(_meets(p.compromise, c, QUIET_COMPROMISE) for c in after)
        values.append(None if not before or not after else (before != after) == p.changed and kept)
    return True if True in values else (None if None in values else False)


def matched_hosts(p: Predicate, situation: Situation) -> tuple[str, ...]:
    """The hosts whose stated state makes the predicate's positive atoms hold ("that host")."""
    if isinstance(p, Atom):
        if p.bare():  # "shows this host": a host the context names
            return tuple(h for h in p.hosts() if situation.states(h) and h not in situation.unnamed)
        return tuple(h for h in p.hosts() if host_truth(p, h, situation) is True)
    if isinstance(p, (AnyOf, AllOf)):
        if not holds(p, situation):
            return ()
        found: dict[str, None] = {}
        for part in _subject_parts(p):
            found.update((h, None) for h in matched_hosts(part, situation))
        return tuple(found)
    return ()


def _subject_parts(p: Union["AnyOf", "AllOf"]) -> tuple:
    """(r42h) The parts whose hosts a predicate matches: of a conjunction that asks a host newly compromised beside hosts
    compromised since before (lateral movement: "a host newly owned while one in another subnet is held"), not the
    hosts held since before, where the movement came from: "that host" is the new one (read as both, an order on it
    disputed another teacher's order on the older foothold)."""
    def positive(part) -> list:
        return [a for a, negated in atoms_of(part) if not negated]

    if not isinstance(p, AllOf) or not any(a.newly_compromised for q in p.parts for a in positive(q)):
        return p.parts
    return tuple(q for q in p.parts if not (positive(q) and all(a.newly_compromised is False for a in positive(q))))


def outcome_stated(p: Optional[Predicate]) -> frozenset[str]:
    """(r40m) {"action outcome"} where a predicate says what a move of the defender did to a host (`acted` with `changed`:
    "a failed Restore" is one that left it unchanged), else nothing: the words of that outcome are then stated."""
    if p is None:
        return frozenset()
    return frozenset({"action outcome"}) if any(a.acted is not None and a.changed is not None for a, _ in atoms_of(p)) \
        else frozenset()


def atoms_of(p: Predicate, negated: bool = False):
    """Every atom of a predicate with whether it stands negated (under an odd number of `not`)."""
    if isinstance(p, Atom):
        yield p, negated
    elif isinstance(p, Not):
        yield from atoms_of(p.part, not negated)
    elif isinstance(p, (AnyOf, AllOf)):
        for part in p.parts:
            yield from atoms_of(part, negated)


def named_host(p: Predicate) -> Optional[str]:
    """The one host a predicate is about ("it" in its rule's words): its atoms name that host and no class."""
    hosts = {atom.host for atom, _ in atoms_of(p)}
    return next(iter(hosts)) if len(hosts) == 1 and None not in hosts else None


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
    if isinstance(p, (EpisodeStep, RewardTrend)):
        return None  # (no literal of hosts: whether it overlaps another is not shown, so it may)
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


def _history_covers(general: Atom, specific: Atom) -> bool:
    """Every history the specific atom's conditions allow meets the general one's: equal flags, a longer
    unchanged run, the same action (or `any`) within fewer steps, the same `changed`."""
    held = specific.unchanged_for is not None and specific.compromise not in (None, QUIET_COMPROMISE)
    if general.newly_compromised is not None and specific.newly_compromised != general.newly_compromised \
            and not (general.newly_compromised is False and held):  # compromised and unchanged: compromised before
        return False
    if general.scan_before_exploit is not None and specific.scan_before_exploit != general.scan_before_exploit:
        return False
    if general.unchanged_for is not None and (specific.unchanged_for or 0) < general.unchanged_for:
        return False
    if general.acted is not None:
        if specific.acted is None or general.acted not in ("any", specific.acted):
            return False
        if (specific.within or 1) > (general.within or 1):
            return False
        if general.changed is not None and specific.changed != general.changed:
            return False
    return True


def _covers(general: Atom, specific: Atom) -> bool:
    """Every situation meeting `specific` meets `general`."""
    if not set(specific.hosts()) <= set(general.hosts()):
        return False
    if not _history_covers(general, specific):
        return False  # history conditions only narrow: the general one's must all hold where the specific one's do
    if general.bare() and not specific.bare() and specific.activity is None and specific.compromise is None \
            and specific.newly_compromised is None and specific.unchanged_for is None:
        return False  # "shown" needs the host in the context; an `acted` condition alone does not
    for field, quiet in (("activity", QUIET_ACTIVITY), ("compromise", QUIET_COMPROMISE)):
        g, s = getattr(general, field), getattr(specific, field)
        if g is None:
            continue
        if field == "compromise" and s is None and specific.newly_compromised is not None:
            s = "any"  # (r45m) newly compromised, or compromised since before: compromised now (the module docstring)
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


def _quiet_form(p: Predicate) -> Predicate:
    """`not (User1 shows any activity)` as `User1 shows Activity None` (equal wherever User1 is stated, and unknown
    together where it is not): one host, one field."""
    if isinstance(p, Not) and isinstance(p.part, Atom) and p.part.host is not None and not p.part.history():
        atom = p.part
        if atom.activity == "any" and atom.compromise is None:
            return replace(atom, activity=QUIET_ACTIVITY)
        if atom.compromise == "any" and atom.activity is None:
            return replace(atom, compromise=QUIET_COMPROMISE)
    if isinstance(p, (AnyOf, AllOf)):
        return type(p)(tuple(_quiet_form(x) for x in p.parts))
    return p


def _collapsed(p: Predicate) -> Predicate:
    """A compiled predicate's spelt-out forms as the product reads them: every non-quiet value of a field listed
    (`any: [{compromise: User}, {compromise: Privileged}, {compromise: Unknown}]`) as `any`, and one host's states asked
    apart (`all: [{host: User2, activity: Scan}, {host: User2, compromise: No}]`) as one row. Only for the side that
    implies: `any` is met on a host stated at no known level, where the list is unknown (wider where it is positive, the
    same where it is negated, both unmet), and one host's rows agree."""
    if isinstance(p, Not):
        return Not(_collapsed(p.part))
    if not isinstance(p, (AnyOf, AllOf)):
        return p
    parts = [_collapsed(x) for x in p.parts]
    parts = _every_value(parts) if isinstance(p, AnyOf) else _one_row(parts)
    return parts[0] if len(parts) == 1 else type(p)(tuple(parts))


_NOT_QUIET = {"activity": frozenset(ACTIVITIES[1:]), "compromise": frozenset(COMPROMISE_LEVELS[1:])}


def _every_value(parts: list[Predicate]) -> list[Predicate]:
    """Alternatives that list every non-quiet value of one field, the rest alike, as one atom with `any`."""
    for field, other in (("activity", "compromise"), ("compromise", "activity")):
        groups: dict[Atom, list[int]] = {}
        for i, x in enumerate(parts):
            if isinstance(x, Atom) and not x.history() and getattr(x, other) is None and getattr(x, field) is not None:
                groups.setdefault(replace(x, **{field: None}), []).append(i)
        for key, indices in groups.items():
            if {getattr(parts[i], field) for i in indices} >= _NOT_QUIET[field]:
                parts = [replace(key, **{field: "any"}) if i == indices[0] else x
                         for i, x in enumerate(parts) if i == indices[0] or i not in indices]
                return _every_value(parts)
    return parts


def _one_row(parts: list[Predicate]) -> list[Predicate]:
    """Conditions on one named host, each on another field, as one atom asking both."""
    for i, a in enumerate(parts):
        for j, b in enumerate(parts[i + 1:], i + 1):
            if isinstance(a, Atom) and isinstance(b, Atom) and a.host is not None and a.host == b.host \
                    and not a.history() and not b.history() and (a.activity is None) != (b.activity is None) \
                    and (a.compromise is None) != (b.compromise is None):
                row = replace(a, activity=a.activity or b.activity, compromise=a.compromise or b.compromise)
                return _one_row([row if k == i else x for k, x in enumerate(parts) if k != j])
            if isinstance(a, Atom) and isinstance(b, Atom) and a.host is not None and a.host == b.host \
                    and (_move_only(a) and not b.history() or _move_only(b) and not a.history()):
                row = replace(b if _move_only(a) else a, acted=a.acted or b.acted, within=a.within or b.within)
                return _one_row([row if k == i else x for k, x in enumerate(parts) if k != j])
    return parts


def _move_only(p: Atom) -> bool:
    """(r42m) An atom that asks only a move of the defender lately (`acted`, `within`), nothing of the row nor of what the
    move did: beside a row of the same named host it is that row's history ("Op_Server0 restored lately" and "Op_Server0
    scanned now", one atom), as the gate judges the two apart on that one host."""
    return p.acted is not None and p.changed is None and p.activity is None and p.compromise is None \
        and p.newly_compromised is None and p.unchanged_for is None and p.scan_before_exploit is None


@remembered(maxsize=1 << 16)  # (asked of each claim against each other, recursing over "any" and "all")
def implies(p: Predicate, q: Predicate) -> bool:
    """Does every context meeting `p` meet `q`? Conservative: True only when the forms show it."""
    p, q = _quiet_form(_collapsed(p)), _quiet_form(q)
    # (r37m: `q` collapsed as `p` is, too: "scanned, or exploited" is "any activity" on both sides)
    if isinstance(q, Always) or p == q or p == _quiet_form(_collapsed(q)):
        return True
    if isinstance(q, Atom) and q.host is not None and not q.history() and q.activity == QUIET_ACTIVITY \
            and q.compromise == QUIET_COMPROMISE:
        # "User2 is quiet", its row at Activity None, Compromised No: each field's quiet value, one by one
        return implies(p, AllOf((replace(q, compromise=None), replace(q, activity=None))))
    if isinstance(p, AnyOf):
        return all(implies(x, q) for x in p.parts)
    if isinstance(q, AllOf):
        return all(implies(p, x) for x in q.parts)
    if isinstance(q, AnyOf) and _class_atom(p) and _rows_stated(q) and implies(AnyOf(tuple(p.on(h) for h in p.hosts())), q):
        return True  # "an op host scanned, with no compromise" is one of the op hosts, each read apart, in it
    if isinstance(q, AnyOf) and (narrowed := _class_less_denied(p)) is not None and implies(narrowed, q):
        return True  # (r41m) "a host at root, and Op_Server0 not at root": one of the other hosts at root
    if isinstance(q, AnyOf) and _positive(q) and (spread := _class_atoms_spread(p)) is not None and implies(spread, q):
        return True  # (r44x) "a user host exploited, and a user host compromised and quiet": two hosts, each read apart
    if isinstance(q, AnyOf) and isinstance(p, AllOf) and (split := _alternatives_apart(p)) is not None \
            and all(implies(x, q) for x in split):
        return True  # (r45m) "a user host owned, and Enterprise1 clean or owned": each way of it, one of the ways of q
    if isinstance(q, AnyOf):
        return any(implies(p, x) for x in q.parts)
    if isinstance(p, AllOf) and any(implies(x, q) for x in p.parts):
        return True
    if isinstance(p, AllOf) and not isinstance(q, Not) and not (isinstance(q, Atom) and _loud_form(q) is not None):
        return False  # (a negation, or a quiet value, may be implied by the parts together: below)
    if isinstance(p, Atom) and isinstance(q, Atom):
        return _covers(q, p)
    if isinstance(q, Not):
        return not may_overlap(p, q.part)  # "Compromised User" implies "not Compromised Privileged"
    if isinstance(q, Atom) and (loud := _loud_form(q)) is not None:
        return not may_overlap(p, loud)  # "no operational host shows activity" implies "Op_Host0 shows Activity None"
    return False


def _class_less_denied(p: Predicate) -> Optional[Predicate]:
    """(r41m) A class atom beside the denial of that very atom on some of its hosts ("some host at root, and not
    Op_Server0 at root", an exception said by the predicate): the same atom on each of its other hosts, one of which
    must then hold it (None: `p` is no such form)."""
    if not isinstance(p, AllOf):
        return None
    for atom in (x for x in p.parts if _class_atom(x)):
        denied = {x.part.host for x in p.parts if isinstance(x, Not) and isinstance(x.part, Atom) and x.part.host is not None
                  and x.part == atom.on(x.part.host)}
        rest = [atom.on(h) for h in atom.hosts() if h not in denied]
        if denied and rest:
            return AnyOf(tuple(rest)) if len(rest) > 1 else rest[0]
    return None


def _class_atoms_spread(p: Predicate) -> Optional[Predicate]:
    """(r44x) An "all" of atoms, some said of a class, as the one of its hosts each class atom may be on (`_class_atom`,
    read host by host as above), the ways that cannot hold together left out ("a user host exploited" and "a user host
    compromised with Activity None" are never one host: the second is another); None where `p` is no such form or the
    ways are too many."""
    if not isinstance(p, AllOf) or not all(isinstance(x, Atom) for x in p.parts) or not any(_class_atom(x) for x in p.parts):
        return None
    ways: list[tuple[Atom, ...]] = [()]
    for atom in p.parts:
        ways = [way + (one,) for way in ways for one in ((atom.on(h) for h in atom.hosts()) if _class_atom(atom) else (atom,))]
        if len(ways) > _MAX_DNF:
            return None
    kept = [way for way in ways if _consistent(tuple((atom, True) for atom in way))]
    return AnyOf(tuple(AllOf(way) for way in kept)) if kept else None


def _alternatives_apart(p: AllOf) -> Optional[tuple[Predicate, ...]]:
    """(r45m) An "all" with an "any" among its parts, as the "all" of each of that "any"'s ways with the other parts
    (None: no such part, or too many ways)."""
    at = next((i for i, x in enumerate(p.parts) if isinstance(x, AnyOf)), None)
    if at is None or len(p.parts[at].parts) > _MAX_DNF:
        return None
    others = p.parts[:at] + p.parts[at + 1:]
    return tuple(AllOf((*others, way)) for way in p.parts[at].parts)


def _positive(q: Predicate) -> bool:
    """(r44x) Whether `q` is atoms under "any" and "all" alone, no denial (as `_rows_stated` asks, one level down)."""
    return isinstance(q, Atom) or isinstance(q, (AnyOf, AllOf)) and all(_positive(x) for x in q.parts)


def _class_atom(p: Predicate) -> bool:
    """Whether `p` is one atom said of some host of a class (no host named), which holds where one of its hosts does."""
    return isinstance(p, Atom) and p.host is None and p.host_class is not None


def _rows_stated(q: AnyOf) -> bool:
    """Whether each alternative of `q` states a row outright (atoms, or atoms all of one row), denying nothing: a
    denial ("exploited but not rooted") is met by more than one value, and a class atom that picks one of them is
    narrower than it, which the host-by-host reading must not let through."""
    return all(isinstance(x, Atom) or isinstance(x, AllOf) and all(isinstance(a, Atom) for a in x.parts) for x in q.parts)


def _loud_form(q: Atom) -> Optional[Atom]:
    """`User1 shows Activity None` as what it excludes, `User1 shows any activity` (`_quiet_form` the other way)."""
    if q.host is None or q.history():
        return None
    if q.activity == QUIET_ACTIVITY and q.compromise is None:
        return replace(q, activity="any")
    if q.compromise == QUIET_COMPROMISE and q.activity is None:
        return replace(q, compromise="any")
    return None


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
    parts += [f"{name.replace('_', '-')}-{str(value).lower()}" for name, value in atom.history()]
    return "+".join(parts) or "shown"


def group_of(p: Predicate) -> str:
    """A readable label of what a trigger is about (`User0/shown`, `User/compromised-privileged`)."""
    if isinstance(p, Always):
        return "always"
    if isinstance(p, Atom):
        return f"{p.host or p.host_class}/{_slug(p)}"
    if isinstance(p, Not):
        return f"not-{group_of(p.part)}"
    if isinstance(p, (EpisodeStep, RewardTrend)):
        return "episode/" + p.describe().replace(" ", "-")
    joiner = "|" if isinstance(p, AnyOf) else "&"
    return joiner.join(group_of(x) for x in p.parts)[:80]


def _history_words(p: Atom) -> list[str]:
    words = []
    if p.newly_compromised is not None:
        words.append("newly compromised this step" if p.newly_compromised else "compromised since before this step")
    if p.unchanged_for is not None:
        words.append(f"with Compromised unchanged for {p.unchanged_for} steps")
    if p.acted is not None:
        verb = "any action" if p.acted == "any" else p.acted
        after = "" if p.changed is None else (", its state changing after" if p.changed else ", its state unchanged after")
        words.append(f"after {verb} on it in the last {p.within or 1} steps{after}")
    if p.scan_before_exploit is not None:
        words.append("showing Scan before Exploit" if p.scan_before_exploit else "not showing Scan before Exploit")
    return words


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
        text = f"{subject} shows {' and '.join(conditions)}" if conditions else (f"{subject} is shown" if p.bare() else subject)
        return " ".join([text, *_history_words(p)])
    if isinstance(p, Not):
        return f"not ({describe(p.part)})"
    if isinstance(p, (EpisodeStep, RewardTrend)):
        return p.describe()
    joiner = " or " if isinstance(p, AnyOf) else " and "
    return joiner.join(f"({describe(x)})" for x in p.parts)
