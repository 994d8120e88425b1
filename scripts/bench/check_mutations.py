"""How many wrong compilations the checks let through: a mutation benchmark of `text_problem`.

The checks (forge/rulebook/authoring/checks.py) stand between a compiler's wrong answer and a stored predicate
rule. This bench takes correct compilations (the development case files' own `ref` compilations, those the
checks accept as they are, with a predicate `when` and an action), derives from each mutants that say MORE than
the text or the OPPOSITE of it, one mutation class at a time (a mode flipped, a negation dropped, a named host
widened, a condition dropped, ...), and counts how many of them the checks refuse.

    PYTHONPATH=. .venv/bin/python scripts/bench/check_mutations.py [--by-split] [--show CLASS] [--limit N] [--seed S]

Every mutation is a small pure function of the canonical JSON (`when`, `action`) -> the mutants it makes, each
one change at one place; a widening applies only where it widens (an atom under an odd number of `not`s is
narrowed by a wider host or state, so there the mutation goes the other way or not at all). A mutant equal to the
original after normalisation, or one the schema refuses, is no mutant. Where a class can make many mutants of
one rule, at most `--per-rule` are drawn, seeded by the rule's text.

A surviving mutant is a candidate, not a proof: either a hole in the checks, or a mutant that still means what
the text says (a host widened to its class on a text about "a user host" that names one as an example; a
condition dropped that the text never stated). `--show CLASS` prints them to judge.

Only development splits are read: every split of dc_bench.SPLITS except blind19 (held out by convention) and
those in dc_bench.UNREAD; asking for any other is refused before a file is opened.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import zlib
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, Optional

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parents[1]))

import dc_bench  # noqa: E402  (after the path set-up above)

from forge.env.catalog import HOST_CLASSES, HOST_VERBS, HOSTS, QUIET_ACTIVITY, QUIET_COMPROMISE  # noqa: E402
from forge.rulebook.authoring.checks import text_problem  # noqa: E402
from forge.rulebook.language.action import ANY_VERB, MATCHED, parse_rule_action, rule_action_to_json  # noqa: E402
from forge.rulebook.language.predicate import PredicateError, parse_predicate, predicate_to_json  # noqa: E402

HELD_OUT_BY_CONVENTION = frozenset({"blind19"})
PER_RULE = 2  # mutants of one class drawn from one rule, at most
HISTORY_FLAGS = ("newly_compromised", "changed", "scan_before_exploit")
HISTORY_KEYS = ("newly_compromised", "unchanged_for", "acted", "within", "changed", "scan_before_exploit")
_CLASS_OF = {h: c for c, hosts in HOST_CLASSES.items() for h in hosts}

Json = dict[str, Any]
Path_ = tuple[Any, ...]  # keys and indices from a predicate's root to one of its nodes


def development_splits() -> tuple[str, ...]:
    """The splits this bench may read: every split but blind19 and the held-out (UNREAD) ones."""
    return tuple(s for s in dc_bench.SPLITS if s not in HELD_OUT_BY_CONVENTION and s not in dc_bench.UNREAD)


def refuse_held_out(splits: tuple[str, ...]) -> None:
    """ValueError naming any split that is not a development split (checked before any case file is read)."""
    allowed = set(development_splits())
    barred = [s for s in splits if s not in allowed]
    if barred:
        raise ValueError(f"check_mutations reads development splits only; refused: {', '.join(barred)}")


# -- the predicate's places -----------------------------------------------------------------------------


def _nodes(when: Json, path: Path_ = (), positive: bool = True) -> Iterator[tuple[Path_, Json, bool]]:
    """Every node of a canonical predicate with its path and polarity (False under an odd number of `not`s)."""
    yield path, when, positive
    if "not" in when:
        yield from _nodes(when["not"], (*path, "not"), not positive)
    for key in ("any", "all"):
        for index, part in enumerate(when.get(key) or ()):
            yield from _nodes(part, (*path, key, index), positive)


def _atoms(when: Json) -> Iterator[tuple[Path_, Json, bool]]:
    return ((p, n, pos) for p, n, pos in _nodes(when) if not {"not", "any", "all", "always"} & set(n))


def _replaced(tree: Json, path: Path_, new: Optional[Json]) -> Json:
    """A copy of `tree` with the node at `path` replaced by `new` (None: removed from its any / all list; a list
    left with one part is that part)."""
    if not path:
        return new if new is not None else {"always": True}
    key, rest = path[0], path[1:]
    if key == "not":
        return {"not": _replaced(tree["not"], rest, new)}
    parts = list(tree[key])
    index, rest = rest[0], rest[1:]
    if rest or new is not None:
        parts[index] = _replaced(parts[index], rest, new)
    else:
        del parts[index]
    return parts[0] if len(parts) == 1 else {key: parts}


def _atom_changed(when: Json, path: Path_, atom: Json, **changes: Any) -> Json:
    """The predicate with one atom's keys changed (a value None: the key removed)."""
    new = {k: v for k, v in {**atom, **changes}.items() if v is not None}
    return _replaced(when, path, new)


Mutant = tuple[Json, Optional[Json]]  # (when, action)


# -- the mutations: each says more than its original, or the opposite ----------------------------------


def mode_flipped(when: Json, action: Json, rng: random.Random) -> list[Mutant]:
    """The action turned around: a `do` made a `never` of its first move, a `never` a `do`, a `prefer` the `do`
    of the move it disprefers."""
    mode, move = action.get("mode"), {"verb": action.get("verb"), "target": action.get("target")}
    if mode == "do":
        return [(when, {"mode": "never", **move})]
    if mode == "never" and move["verb"] != ANY_VERB:
        return [(when, {"mode": "do", **move})]
    if mode == "prefer" and isinstance(action.get("over"), dict):
        return [(when, {"mode": "do", **action["over"]})]
    return []


def prefer_reversed(when: Json, action: Json, rng: random.Random) -> list[Mutant]:
    """`prefer X over Y` made `prefer Y over X`."""
    if action.get("mode") != "prefer" or not isinstance(action.get("over"), dict):
        return []
    over = action["over"]
    return [(when, {"mode": "prefer", "verb": over.get("verb"), "target": over.get("target"),
                    "over": {"verb": action.get("verb"), "target": action.get("target")}})]


def negation_dropped(when: Json, action: Json, rng: random.Random) -> list[Mutant]:
    """A `not` removed: what the text says is absent made present."""
    return [(_replaced(when, path, node["not"]), action) for path, node, _ in _nodes(when) if "not" in node]


def quiet_made_loud(when: Json, action: Json, rng: random.Random) -> list[Mutant]:
    """A quiet value made its opposite: Activity None -> any activity, Compromised No -> any compromise."""
    out = []
    for path, atom, _ in _atoms(when):
        if atom.get("activity") == QUIET_ACTIVITY:
            out.append((_atom_changed(when, path, atom, activity="any"), action))
        if atom.get("compromise") == QUIET_COMPROMISE:
            out.append((_atom_changed(when, path, atom, compromise="any"), action))
    return out


def history_flipped(when: Json, action: Json, rng: random.Random) -> list[Mutant]:
    """A history flag turned around: newly compromised <-> already compromised, changed <-> unchanged, a scan
    before the exploit <-> none."""
    return [(_atom_changed(when, path, atom, **{flag: not atom[flag]}), action)
            for path, atom, _ in _atoms(when) for flag in HISTORY_FLAGS if isinstance(atom.get(flag), bool)]


def _positive_atoms(when: Json, key: str) -> list[tuple[Path_, Json]]:
    return [(path, atom) for path, atom, positive in _atoms(when) if positive and atom.get(key) is not None]


def host_to_any(when: Json, action: Json, rng: random.Random) -> list[Mutant]:
    """A named host in the trigger widened to any host (`{"class": "any"}`)."""
    return [(_atom_changed(when, path, atom, host=None, **{"class": "any"}), action)
            for path, atom in _positive_atoms(when, "host")]


def host_to_class(when: Json, action: Json, rng: random.Random) -> list[Mutant]:
    """A named host in the trigger widened to any host of its class."""
    return [(_atom_changed(when, path, atom, host=None, **{"class": _CLASS_OF[atom["host"]]}), action)
            for path, atom in _positive_atoms(when, "host") if atom["host"] in _CLASS_OF]


def class_to_any(when: Json, action: Json, rng: random.Random) -> list[Mutant]:
    """A class in the trigger widened to any host."""
    return [(_atom_changed(when, path, atom, **{"class": "any"}), action)
            for path, atom in _positive_atoms(when, "class") if atom["class"] != "any"]


def state_widened(when: Json, action: Json, rng: random.Random) -> list[Mutant]:
    """A state widened where it widens the trigger: a named activity or compromise level made `any` (Privileged ->
    any compromise); under a `not`, the other way (not compromised at all -> not rooted)."""
    out = []
    for path, atom, positive in _atoms(when):
        for key, quiet, narrow in (("activity", QUIET_ACTIVITY, "Exploit"), ("compromise", QUIET_COMPROMISE, "Privileged")):
            value = atom.get(key)
            if positive and value not in (None, quiet, "any"):
                out.append((_atom_changed(when, path, atom, **{key: "any"}), action))
            elif not positive and value == "any":
                out.append((_atom_changed(when, path, atom, **{key: narrow}), action))
    return out


def history_dropped(when: Json, action: Json, rng: random.Random) -> list[Mutant]:
    """An atom's history conditions dropped (newly compromised -> compromised, whenever it became so)."""
    return [(_atom_changed(when, path, atom, **{k: None for k in HISTORY_KEYS}), action)
            for path, atom, positive in _atoms(when) if positive and any(atom.get(k) is not None for k in HISTORY_KEYS)]


def conjunct_dropped(when: Json, action: Json, rng: random.Random) -> list[Mutant]:
    """One condition of several dropped where that widens the trigger: a part of an `all`, or of an `any` under a
    `not` (not (A or B) -> not A)."""
    return [(_replaced(when, (*path, key, index), None), action)
            for path, node, positive in _nodes(when) for key in (("all",) if positive else ("any",))
            for index in range(len(node.get(key) or ()))]


def trigger_always(when: Json, action: Json, rng: random.Random) -> list[Mutant]:
    """The whole condition dropped: the trigger made to hold on every context."""
    return [] if when == {"always": True} else [({"always": True}, action)]


def target_moved(when: Json, action: Json, rng: random.Random) -> list[Mutant]:
    """The action's named host moved to another host (a host of its own subnet where there is one)."""
    target = action.get("target")
    if target not in HOSTS:
        return []
    siblings = [h for h in HOST_CLASSES.get(_CLASS_OF.get(target, ""), ()) if h != target]
    return [(when, {**action, "target": rng.choice(siblings or [h for h in HOSTS if h != target])})]


def target_widened(when: Json, action: Json, rng: random.Random) -> list[Mutant]:
    """The action's target widened: a host to its class, a class or the matched host to any host."""
    target = action.get("target")
    wider = _CLASS_OF.get(target) if target in HOSTS else "any" if target in (*HOST_CLASSES, MATCHED) else None
    return [] if wider is None else [(when, {**action, "target": wider})]


def verb_swapped(when: Json, action: Json, rng: random.Random) -> list[Mutant]:
    """The action's verb made another host verb: an order (or a prohibition) the text never gives."""
    verb = action.get("verb")
    if verb == ANY_VERB:
        return []
    return [(when, {**action, "verb": rng.choice([v for v in HOST_VERBS if v != verb])})]


Mutation = Callable[[Json, Json, random.Random], list[Mutant]]
MUTATIONS: dict[str, Mutation] = {f.__name__: f for f in (
    mode_flipped, prefer_reversed, negation_dropped, quiet_made_loud, history_flipped, host_to_any, host_to_class,
    class_to_any, state_widened, history_dropped, conjunct_dropped, trigger_always, target_moved, target_widened,
    verb_swapped)}


# -- the rules and the run ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rule:
    """A correct compilation: a development case file's text with its author's `ref`, canonical."""

    split: str
    scenario: str
    text: str
    when: Json
    action: Json
    unexpressed: str


@dataclass(frozen=True)
class Outcome:
    rule: Rule
    mutation: str
    when: Json
    action: Json
    problem: Optional[str]  # what text_problem named (None: the mutant survived)

    @property
    def check(self) -> str:
        return (self.problem or "").split(":", 1)[0]


def canonical(when: Any, action: Any) -> Optional[tuple[Json, Json]]:
    """The (when, action) pair as the compiler's validation writes it; None where the schema refuses it."""
    try:
        return predicate_to_json(parse_predicate(when)), rule_action_to_json(parse_rule_action(action))
    except PredicateError:
        return None


def _key(when: Json, action: Json) -> str:
    return json.dumps([when, action], sort_keys=True)


def _rule_of(split: str, scenario: str, item: dict) -> Optional[Rule]:
    """The taught item as a usable correct compilation, or None: no CONTENT ref with a predicate and an action,
    one the schema refuses, or one the checks refuse as it is (as the case author wrote it, or canonical)."""
    ref = item.get("ref")
    if not isinstance(ref, dict) or ref.get("type", "CONTENT") != "CONTENT" or ref.get("when") is None \
            or ref.get("action") is None:
        return None
    pair = canonical(ref["when"], ref["action"])
    if pair is None or '"step":' in json.dumps(pair[0]):  # (a step window is the words' own, never a compiler's)
        return None
    text, unexpressed = " ".join(item["text"].split()), " ".join(str(ref.get("unexpressed") or "").split())
    if text_problem(text, ref["when"], ref["action"], unexpressed) or text_problem(text, *pair, unexpressed):
        return None
    return Rule(split, scenario, text, pair[0], pair[1], unexpressed)


def load_rules(splits: tuple[str, ...], limit: Optional[int] = None) -> list[Rule]:
    """The usable correct compilations of the given development splits, each (text, meaning) once, in file order."""
    refuse_held_out(splits)
    observations = dc_bench.load_observations()
    rules: dict[tuple[str, str], Rule] = {}
    for split in splits:
        for scenario in dc_bench.load_split(split, observations):
            for step in scenario["steps"]:
                for item in step.get("teach") or ():
                    if limit is not None and len(rules) >= limit:
                        return list(rules.values())
                    rule = _rule_of(split, scenario["id"], item)
                    if rule is not None:
                        rules.setdefault((rule.text, _key(rule.when, rule.action)), rule)
    return list(rules.values())


def mutants(rule: Rule, name: str, seed: int, per_rule: int = PER_RULE) -> list[Mutant]:
    """A class's mutants of one rule: valid, each a change after normalisation, at most `per_rule`, drawn with a
    generator seeded by the seed, the class and the rule's text (the same on every run)."""
    rng = random.Random(seed ^ zlib.crc32(f"{name}\n{rule.text}".encode()))
    original, seen, out = _key(rule.when, rule.action), set(), []
    for when, action in MUTATIONS[name](rule.when, rule.action, rng):
        pair = canonical(when, action)
        if pair is None or _key(*pair) == original or _key(*pair) in seen:
            continue
        seen.add(_key(*pair))
        out.append(pair)
    return rng.sample(out, per_rule) if len(out) > per_rule else out


def run(rules: list[Rule], seed: int = 0, per_rule: int = PER_RULE) -> list[Outcome]:
    """Every class's mutants of every rule, each judged by the checks with the rule's own text and rest."""
    return [Outcome(rule, name, when, action, text_problem(rule.text, when, action, rule.unexpressed))
            for rule in rules for name in MUTATIONS for when, action in mutants(rule, name, seed, per_rule)]


# -- the report ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Tally:
    rules: int
    mutants: int
    caught: int
    checks: tuple[tuple[str, int], ...]  # the checks that caught them, most first

    @property
    def survived(self) -> int:
        return self.mutants - self.caught

    @property
    def rate(self) -> str:
        return f"{100 * self.caught / self.mutants:.1f}" if self.mutants else "-"


def tally(outcomes: list[Outcome]) -> Tally:
    caught = [o for o in outcomes if o.problem]
    return Tally(len({(o.rule.text, _key(o.rule.when, o.rule.action)) for o in outcomes}), len(outcomes), len(caught),
                 tuple(Counter(o.check for o in caught).most_common()))


def grouped(outcomes: list[Outcome], by_split: bool) -> dict[tuple[str, ...], Tally]:
    groups: dict[tuple[str, ...], list[Outcome]] = defaultdict(list)
    for o in outcomes:
        groups[(o.rule.split, o.mutation) if by_split else (o.mutation,)].append(o)
    order = {name: i for i, name in enumerate(MUTATIONS)}
    splits = {s: i for i, s in enumerate(dc_bench.SPLITS)}
    keys = sorted(groups, key=lambda k: (splits[k[0]], order[k[1]]) if by_split else (order[k[0]],))
    return {k: tally(groups[k]) for k in keys}


def table(title: str, tallies: dict[tuple[str, ...], Tally], by_split: bool):
    from rich.table import Table

    t = Table(title=title)
    for column in (("split",) if by_split else ()) + ("mutation class",):
        t.add_column(column, no_wrap=True)
    for column in ("rules", "mutants", "caught", "survived", "catch %", "95% CI"):
        t.add_column(column, justify="right")
    t.add_column("caught by (check: n)")
    for key, s in tallies.items():
        t.add_row(*key, str(s.rules), str(s.mutants), str(s.caught), str(s.survived), s.rate,
                  dc_bench.interval(s.caught, s.mutants), ", ".join(f"{c}: {n}" for c, n in s.checks[:3]))
    return t


def summary_lines(tallies: dict[tuple[str, ...], Tally]) -> list[str]:
    return [f"{'/'.join(key)}: {s.caught} of {s.mutants} mutants caught ({s.rate} %, 95% CI {dc_bench.interval(s.caught, s.mutants)}) "
            f"from {s.rules} rules; {s.survived} survived" for key, s in tallies.items()]


def survivors(outcomes: list[Outcome], name: str) -> list[str]:
    """The surviving mutants of a class, printable (development splits only: load_rules reads no other)."""
    refuse_held_out(tuple({o.rule.split for o in outcomes}))
    return [f"[{o.rule.split} {o.rule.scenario}] {o.rule.text}\n  ref:    when {json.dumps(o.rule.when)} "
            f"action {json.dumps(o.rule.action)}" + (f" unexpressed {o.rule.unexpressed!r}" if o.rule.unexpressed else "")
            + f"\n  mutant: when {json.dumps(o.when)} action {json.dumps(o.action)}"
            for o in outcomes if o.mutation == name and not o.problem]


NOTE = ("A surviving mutant is either a hole in the checks or a mutant that still means what its text says: survivors "
        "are candidates to judge (--show CLASS), not proofs.")


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--splits", default=",".join(development_splits()),
                        help="comma-separated development splits (default: every one)")
    parser.add_argument("--by-split", action="store_true", help="a row per split and class")
    parser.add_argument("--show", metavar="CLASS", choices=sorted(MUTATIONS), help="print the surviving mutants of a class")
    parser.add_argument("--limit", type=int, help="the first N usable rules only (a quick run)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--per-rule", type=int, default=PER_RULE, help="mutants of one class drawn from one rule, at most")
    args = parser.parse_args(argv)
    splits = tuple(s.strip() for s in args.splits.split(",") if s.strip())
    try:
        refuse_held_out(splits)
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    from rich.console import Console

    rules = load_rules(splits, args.limit)
    outcomes = run(rules, args.seed, args.per_rule)
    console = Console(width=200)
    title = f"The checks against mutated correct compilations ({len(rules)} rules of {len(splits)} development splits, seed {args.seed})"
    console.print(table(title, grouped(outcomes, False), False))
    if args.by_split:
        console.print(table("By split", grouped(outcomes, True), True))
    print(NOTE)
    for line in summary_lines(grouped(outcomes, False)):
        print(line)
    whole = tally(outcomes)
    print(f"overall: {whole.caught} of {whole.mutants} mutants caught ({whole.rate} %, 95% CI "
          f"{dc_bench.interval(whole.caught, whole.mutants)}) from {len(rules)} rules")
    if args.show:
        shown = survivors(outcomes, args.show)
        print(f"\n{len(shown)} surviving {args.show} mutants:")
        for block in shown:
            print(block)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
