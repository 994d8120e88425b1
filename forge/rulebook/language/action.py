"""What a rule prescribes or prohibits, as data; whether two prescriptions clash; and `judge`. Pure.

Wire form (the compiler's contract, forge/rulebook/authoring/compiler_prompt.md):

    {"mode": "do",     "verb": "Restore", "target": "Op_Server0"}
    {"mode": "do",     "verb": "Restore", "target": "$matched"}      the host the trigger matched
    {"mode": "never",  "verb": "Remove",  "target": "User"}          a class: every host of it
    {"mode": "prefer", "verb": "Restore", "target": "$matched", "over": {"verb": "Remove", "target": "$matched"}}
    {"mode": "do",     "verb": "Remove",  "target": "$matched", "then": [{"verb": "DecoyApache", "target": "$next_subnet"}]}

verb: a catalog verb (Sleep, Monitor, Analyse, Remove, Restore, Decoy<Service>), or in a `never` only `any`: a
prohibition with no verb ("spend no actions on User0", "leave User0 alone") forbids every verb on its target,
so it disagrees with any order about that host; target: a host, a
class (User | Enterprise | Operational | any), `$matched`, a host set relative to the matched hosts
(`$subnet`: the rest of their subnet; `$next_subnet`: the next subnet on the attack path, User ->
Enterprise -> Operational), or null for Sleep / Monitor (a host verb without a target acts on `$matched`).

A plan (issue 18) is a `do` action with `then`: up to MAX_PLAN moves in all, in the order the rule
gives them ("Remove it, then decoy the next hop"). A step's one action cannot be the whole plan, so
the plan is followed by a chosen action that is any one of its moves.

`judge(action, chosen, matched_hosts)` grades one chosen action against one rule:
- `do`:     followed if the chosen action is one the rule prescribes (for a plan: any of its moves);
            contradicted if it does something else *to a host the rule prescribes for* (Remove User1
            where the rule says Restore User1: the same kind of disagreement two conflicting rules
            have); ignored if it acts elsewhere or takes a host-less verb (a `do` rule forbids nothing
            by itself).
- `never`:  contradicted if the chosen action is the prohibited one; followed otherwise.
- `prefer`: followed if the preferred action was chosen, contradicted if the dispreferred one was,
            ignored otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Iterable, Optional

from forge.env.catalog import (ATTACK_PATH, GLOBAL_VERBS, HOST_CLASSES, HOST_VERBS, HOSTS, VERB_ALIASES, VERBS, ActionParseError,
                               action_name, parse_action)
from forge.rulebook.language.predicate import PredicateError

MODES = ("do", "never", "prefer")
ANY_VERB = "any"  # a `never` of every verb: "spend no actions on User0"
MATCHED = "$matched"
SUBNET = "$subnet"  # the rest of the matched hosts' subnet ("its neighbours")
NEXT_SUBNET = "$next_subnet"  # the next subnet on the attack path after the matched hosts' ("the next hop")
RELATIVE_TARGETS = (SUBNET, NEXT_SUBNET)
CLASS_TARGETS = (*HOST_CLASSES, "any")
MAX_PLAN = 3  # moves in one plan: a rule longer than this is a procedure, not a rule
_SUBNET_OF = {host: subnet for subnet, hosts in HOST_CLASSES.items() for host in hosts}
_RELATIVE_WORDS = {SUBNET: "the rest of that host's subnet",
                   NEXT_SUBNET: "the next subnet on the attack path (" + " -> ".join(ATTACK_PATH) + ")"}


def relative_hosts(target: str, matched: Iterable[str]) -> frozenset[str]:
    """The hosts a relative target stands for, given the hosts the trigger matched."""
    matched = frozenset(matched)
    subnets = {_SUBNET_OF[h] for h in matched if h in _SUBNET_OF}
    if target == SUBNET:
        return frozenset(h for s in subnets for h in HOST_CLASSES[s]) - matched
    following = {ATTACK_PATH[i + 1] for i, s in enumerate(ATTACK_PATH[:-1]) if s in subnets}
    return frozenset(h for s in following for h in HOST_CLASSES[s])


@dataclass(frozen=True)
class Move:
    """A verb and what it is aimed at (a host, a class, `$matched`, or None for Sleep / Monitor)."""

    verb: str
    target: Optional[str] = None

    def hosts(self, matched: Iterable[str]) -> frozenset[str]:
        """The concrete hosts this move aims at, given the hosts the trigger matched."""
        if self.target is None:
            return frozenset()
        if self.target == MATCHED:
            return frozenset(matched)
        if self.target in RELATIVE_TARGETS:
            return relative_hosts(self.target, matched)
        if self.target in CLASS_TARGETS:
            return frozenset(HOSTS if self.target == "any" else HOST_CLASSES[self.target])
        return frozenset({self.target})

    def concrete(self, matched: Iterable[str]) -> frozenset[str]:
        """The concrete actions (`Restore User1`, `Monitor`; for `any`, every host verb on its hosts)."""
        if self.verb in GLOBAL_VERBS:
            return frozenset({self.verb})
        verbs = HOST_VERBS if self.verb == ANY_VERB else (self.verb,)
        return frozenset(f"{verb} {h}" for verb in verbs for h in self.hosts(matched))

    def covers(self, verb: str) -> bool:
        """Whether this move's verb is `verb` (`any` covers every verb but Sleep and Monitor; (r46m) a decoy of no named
        service, "no decoys there", every decoy)."""
        return self.verb == verb or (self.verb == ANY_VERB and verb not in GLOBAL_VERBS) \
            or (self.verb == "Decoy" and verb.startswith("Decoy"))

    def __str__(self) -> str:
        if self.target is None:
            return self.verb
        if self.verb == ANY_VERB:
            return "any action on " + ("that host" if self.target == MATCHED else _RELATIVE_WORDS.get(self.target) or (
                f"every {self.target} host" if self.target in CLASS_TARGETS else self.target))
        target = "that host" if self.target == MATCHED else _RELATIVE_WORDS.get(self.target) or (
            f"every {self.target} host" if self.target in CLASS_TARGETS else self.target)
        return f"{self.verb} {target}"


@dataclass(frozen=True)
class RuleAction:
    mode: str
    move: Move
    over: Optional[Move] = None  # prefer only: what is dispreferred
    then: tuple[Move, ...] = ()  # do only: the plan's later moves, in order

    @property
    def moves(self) -> tuple[Move, ...]:
        """What the rule prescribes or prohibits, in order (a plan's every move)."""
        return (self.move, *self.then)

    @property
    def is_plan(self) -> bool:
        """Several moves, or a target relative to the matched host: worth spelling out where it is shown."""
        return bool(self.then) or any(m.target in RELATIVE_TARGETS for m in (self.move, self.over) if m is not None)

    def __str__(self) -> str:
        if self.mode == "never":
            return f"never {self.move}"
        if self.mode == "prefer":
            return f"prefer {self.move} over {self.over}"
        return "do " + ", then ".join(str(m) for m in self.moves)


def _verb(raw: Any) -> str:
    folded = {**{a.lower(): v for a, v in VERB_ALIASES.items()}, **{v.lower(): v for v in VERBS}}  # ("DecoyHarakaSMTP")
    if not isinstance(raw, str) or raw.strip().lower() not in folded:
        raise PredicateError(f"unknown verb {raw!r:.40} in action (one of {', '.join(VERBS)})")
    return folded[raw.strip().lower()]


def _target(raw: Any, verb: str) -> Optional[str]:
    if verb in GLOBAL_VERBS:
        return None
    if raw is None:
        return MATCHED  # "restore it": the host the trigger matched
    if not isinstance(raw, str):
        raise PredicateError(f"action target must be a string, got {raw!r:.40}")
    value = raw.strip()
    if value.lower() in (MATCHED, "matched", "that host"):
        return MATCHED
    for name in (*HOSTS, *CLASS_TARGETS, *RELATIVE_TARGETS):
        if value.lower() in (name.lower(), name.lower().removeprefix("$")):
            return name
    raise PredicateError(f"unknown target {raw!r:.40} in action (a CAGE-2 host, a class "
                         f"{', '.join(CLASS_TARGETS)}, $matched, or {', '.join(RELATIVE_TARGETS)})")


def _move(data: Any, *, any_verb: bool = False) -> Move:
    if not isinstance(data, dict):
        raise PredicateError(f"an action move must be an object with verb and target, got {data!r:.60}")
    if isinstance(data.get("verb"), str) and data["verb"].strip().lower() == ANY_VERB:
        if not any_verb:
            raise PredicateError('verb "any" is a prohibition of every verb: only a "never" action takes it')
        return Move(ANY_VERB, _target(data.get("target"), ANY_VERB))
    verb = _verb(data.get("verb"))
    return Move(verb, _target(data.get("target"), verb))


def parse_rule_action(data: Any) -> RuleAction:
    """The action a JSON value describes; PredicateError naming what is wrong."""
    if not isinstance(data, dict):
        raise PredicateError(f"an action must be a JSON object, got {data!r:.60}")
    unknown = set(data) - {"mode", "verb", "target", "over", "then"}
    if unknown:
        raise PredicateError(f"unknown action key(s) {sorted(unknown)} (mode, verb, target, over, then)")
    mode = str(data.get("mode", "")).strip().lower()
    if mode not in MODES:
        raise PredicateError(f"unknown action mode {data.get('mode')!r:.30} (one of {', '.join(MODES)})")
    move = _move(data, any_verb=mode == "never")
    over = None
    if mode == "prefer":
        over = _move(data.get("over"))
    elif data.get("over") is not None:
        raise PredicateError(f"action mode {mode} takes no 'over'")
    return RuleAction(mode, move, over, _plan(data.get("then"), mode))


def _plan(raw: Any, mode: str) -> tuple[Move, ...]:
    """A plan's later moves ("then"); empty when there is none."""
    if raw is None or raw == []:
        return ()
    if mode != "do":
        raise PredicateError(f"action mode {mode} takes no 'then' (only a 'do' action is a plan)")
    if not isinstance(raw, list):
        raise PredicateError(f"'then' must be a list of moves (verb, target), got {raw!r:.60}")
    if len(raw) + 1 > MAX_PLAN:
        raise PredicateError(f"a plan has at most {MAX_PLAN} moves, got {len(raw) + 1}")
    return tuple(_move(step) for step in raw)


def rule_action_to_json(action: RuleAction) -> dict[str, Any]:
    out: dict[str, Any] = {"mode": action.mode, "verb": action.move.verb, "target": action.move.target}
    if action.over is not None:
        out["over"] = {"verb": action.over.verb, "target": action.over.target}
    if action.then:  # absent for a single move: the JSON (and digest) of every earlier rule is unchanged
        out["then"] = [{"verb": m.verb, "target": m.target} for m in action.then]
    return out


# -- clashes ------------------------------------------------------------------------------------------


def _prescribed(action: RuleAction) -> tuple[Move, ...]:
    if action.mode == "do":
        return action.moves
    return (action.move,) if action.mode == "prefer" else ()


def _first_moves(action: RuleAction) -> tuple[Move, ...]:
    """What an action prescribes for this step: a plan's later moves ("Remove User4, then a decoy on the user hosts")
    come after its first, so another rule's different order for one of their hosts can be followed before or after
    them; they are no alternative to it (two orders for one host at once are)."""
    return _prescribed(action)[:1]


def _forbidden(action: RuleAction) -> Optional[Move]:
    if action.mode == "never":
        return action.move
    return action.over if action.mode == "prefer" and not ranks_targets(action) else None


def ranks_targets(action: RuleAction) -> bool:
    """A preference between two targets of one verb ("restore Op_Server0 before any user host"): an order of
    priority, not a refusal of the verb on the other target; an order of that verb there can be followed after it."""
    return action.mode == "prefer" and action.over is not None and action.over.verb == action.move.verb \
        and action.over.target != action.move.target


def clash_hosts(a: RuleAction, b: RuleAction, matched_a: Iterable[str], matched_b: Iterable[str]) -> Optional[frozenset[str]]:
    """Where two actions disagree: None if they never do; else the hosts they disagree about (empty
    for a disagreement about host-less verbs). Disagreeing is: one prescribes what the other forbids,
    or both prescribe different verbs for the same host, or one prescribes a host-less verb (Sleep,
    Monitor) and the other a different action (one action per step)."""
    matched_a, matched_b = tuple(matched_a), tuple(matched_b)
    opposed = opposed_hosts(a, b, matched_a, matched_b)
    clash = opposed is not None
    found: set[str] = set(opposed or ())
    da, db = _prescribed(a), _prescribed(b)
    if da and db:
        verbs_a, verbs_b = {m.verb for m in da}, {m.verb for m in db}
        if not verbs_a & verbs_b and (verbs_a | verbs_b) & set(GLOBAL_VERBS):
            clash = True
        # Per host, the verbs each prescribes for it now; disjoint sets are a disagreement about that host.
        on_a, on_b = _verbs_by_host(_first_moves(a), matched_a), _verbs_by_host(_first_moves(b), matched_b)
        shared = {h for h in on_a.keys() & on_b.keys() if not on_a[h] & on_b[h]}
        if shared:
            clash = True
            found |= shared
    return frozenset(found) if clash else None


def opposed_hosts(a: RuleAction, b: RuleAction, matched_a: Iterable[str], matched_b: Iterable[str]) -> Optional[frozenset[str]]:
    """Where one action forbids what the other prescribes (a prohibition against an order, not two orders): None if
    it never does; else the hosts (empty for a host-less verb)."""
    matched_a, matched_b = tuple(matched_a), tuple(matched_b)
    found: set[str] = set()
    clash = False
    for x, y, mx, my in ((a, b, matched_a, matched_b), (b, a, matched_b, matched_a)):
        no = _forbidden(y)
        for do in _prescribed(x):
            if no is not None and no.covers(do.verb):
                if do.verb in GLOBAL_VERBS:
                    clash = True
                shared = do.hosts(mx) & no.hosts(my)
                if shared:
                    clash = True
                    found |= shared
    return frozenset(found) if clash else None


def _verbs_by_host(moves: Iterable[Move], matched: tuple[str, ...]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for move in moves:
        if move.verb not in GLOBAL_VERBS:
            for host in move.hosts(matched):
                out.setdefault(host, set()).add(move.verb)
    return out


# -- judging ------------------------------------------------------------------------------------------


class Adherence(StrEnum):
    """How one chosen action stood to one rule (`judge`). Not a verdict on the rule: that is
    `forge.rulebook.outcomes.efficacy.RuleVerdict`, from its ablation."""

    FOLLOWED = "followed"
    IGNORED = "ignored"
    CONTRADICTED = "contradicted"


def _canonical(text: str) -> Optional[str]:
    try:
        return action_name(parse_action(text))
    except ActionParseError:
        return None


def judge(action: RuleAction, chosen_action_text: str, matched_hosts: Iterable[str]) -> Adherence:
    """Whether choosing `chosen_action_text` followed, ignored or contradicted the rule's action, where
    the rule's trigger matched `matched_hosts` (what `$matched` stands for). See the module docstring."""
    matched = tuple(matched_hosts)
    chosen = _canonical(chosen_action_text)
    if chosen is None:
        return Adherence.IGNORED
    if action.mode == "never":
        return Adherence.CONTRADICTED if chosen in action.move.concrete(matched) else Adherence.FOLLOWED
    if any(chosen in move.concrete(matched) for move in _prescribed(action)):
        return Adherence.FOLLOWED
    if action.mode == "prefer":
        return Adherence.CONTRADICTED if action.over is not None and chosen in action.over.concrete(matched) else Adherence.IGNORED
    verb, _, host = chosen.partition(" ")
    if host and verb not in _verbs_by_host(action.moves, matched).get(host, {verb}):
        return Adherence.CONTRADICTED
    return Adherence.IGNORED
