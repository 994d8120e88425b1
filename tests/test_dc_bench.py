"""The decision-context benchmark (scripts/bench/dc_bench.py) at its thresholds.

With the case files' own compilations (`--compiler reference`) it measures the rulebook's gate, scope and
resolution apart from any compiler: one scenario per dimension from each split, at issue 9's targets.
With the configured compiler (the surrogate) the whole held-out split runs, at the figure this branch
measured (the surrogate's free-text compiler is what moves it; raise the bar when it lands).
"""

from __future__ import annotations

import importlib.util
import sys
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def load_bench():
    spec = importlib.util.spec_from_file_location("dc_bench", ROOT / "scripts" / "bench" / "dc_bench.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["dc_bench"] = module  # dataclasses resolve their module by name
    spec.loader.exec_module(module)
    return module


def one_per_dimension(bench, splits=("dev", "heldout")) -> set[str]:
    observations = bench.load_observations()
    chosen: dict[tuple[str, str], str] = {}
    for split in splits:
        for scenario in bench.load_split(split, observations):
            chosen.setdefault((split, scenario["dimension"]), scenario["id"])
    return set(chosen.values())


def test_case_files_cover_the_nine_dimensions_with_enough_free_text():
    bench = load_bench()
    observations = bench.load_observations()
    from forge.rulebook.language.grammar import parse_rule

    scenarios = [s for split in bench.SPLITS if split not in bench.UNREAD for s in bench.load_split(split, observations)]
    assert len(scenarios) >= 60 and {s["dimension"] for s in scenarios} == set(bench.DIMENSIONS)
    texts = [item["text"] for s in scenarios for step in s["steps"] for item in step.get("teach", [])]
    assert sum(parse_rule(t) is None for t in texts) >= len(texts) / 2  # at least half free text
    real = sum(1 for s in scenarios for step in s["steps"] if "obs" in step.get("query", {}))
    written = sum(1 for s in scenarios for step in s["steps"] if "context" in step.get("query", {}))
    assert real > 0 and written > 0


def test_reference_compilation_meets_the_targets_on_every_dimension():
    bench = load_bench()
    results, scenarios, _ = bench.run_bench(only=one_per_dimension(bench), behaviour=False, progress=False,
                                            compiler="reference")
    assert len(scenarios) == 18
    overall = bench.score(results)
    # (93 rather than 95: two labels that predate a convention count as misses, below: H-re-1's and D-ex-1's)
    assert overall["exact"] >= 93.0 and overall["silence"] == 100.0, overall
    by_dimension = defaultdict(list)
    for r in results:
        by_dimension[r.dimension].append(r)
    # (recall: H-re-1's "Restore Enterprise2 whenever it's compromised" expects the rule on a row at Compromised Unknown,
    # the row a Remove leaves; since issue 29's eleventh round a compiled "compromised" is held to a level known to be
    # compromised, as a semantic rule's words were in the ninth and as the blind splits 4-8 expect: 7 of its 9 queries)
    # (exception handling: D-ex-1 expects alice's "Restore compromised User hosts" beside her "Except User0: never
    # reimage User0" where User0 is the only compromised User host; since issue 29's fifteenth round one teacher's
    # standing prohibition is the exception there and speaks alone, as the blind authors of blind-11 and blind-12
    # label the same case: 4 of its 5 queries)
    floor = {"recall": 77.0, "exception_handling": 80.0}
    for dimension, rows in by_dimension.items():
        assert bench.score(rows)["exact"] >= floor.get(dimension, 90.0), \
            (dimension, [(r.scenario, r.expected, r.injected) for r in rows])


def test_harm_counts_what_its_own_text_says_does_not_apply_and_what_was_inverted():
    """Issue 29, item 2: harm first. A harmful injection is one neither expected nor in `also_applies`, or one whose
    compiled action is the opposite of the case author's; an outranked rule injected is wrong, not harmful."""
    bench = load_bench()
    result = bench.QueryResult("s", "dev", "exception_handling", "action_chooser", "ctx", frozenset({"a"}),
                               frozenset({"a", "b", "c"}), 0, {"a": "a", "b": "b", "c": "c"}, also=frozenset({"b"}),
                               inverted=frozenset({"a"}), outcome={"a": "predicate", "b": "predicate", "c": "semantic"})
    assert result.not_applicable == {"c"} and result.harmful == {"a", "c"} and result.outranked == {"b"}
    assert sorted(result.failure_classes()) == [("harmful/inverted", "predicate"), ("harmful/not-applicable", "semantic"),
                                                ("outranked-injected", "predicate")]
    score = bench.score([result])
    assert (score["harmful"], score["inverted"], score["missed"], score["outranked"]) == (2, 1, 0, 1)
    never, do = {"mode": "never", "verb": "Restore", "target": "User0"}, {"mode": "do", "verb": "Restore", "target": "User0"}
    prefer = {"mode": "prefer", "verb": "Remove", "target": "$matched", "over": {"verb": "Restore", "target": "$matched"}}
    reversed_ = {"mode": "prefer", "verb": "Restore", "target": "$matched", "over": {"verb": "Remove", "target": "$matched"}}
    assert bench.inverted(do, never) and bench.inverted(never, do) and bench.inverted(reversed_, prefer)
    assert not bench.inverted(never, never) and not bench.inverted(prefer, prefer)
    assert not bench.inverted({"mode": "do", "verb": "Restore", "target": "User1"}, never)  # another host
    assert bench.inverted({"mode": "never", "verb": "any", "target": "User"}, do)  # every verb on the class
    # a $matched target names only the hosts its own trigger can match: restoring "any of User1-4" is not the opposite of
    # "never restore User0" (it was counted inverted: $matched met every host)
    matched = {"mode": "do", "verb": "Restore", "target": "$matched"}
    others = {"any": [{"host": f"User{n}", "compromise": "any"} for n in range(1, 5)]}
    assert not bench.inverted(matched, never, others, {"host": "User0"})
    assert bench.inverted(matched, never, {"class": "User", "compromise": "any"}, {"host": "User0"})
    assert bench.inverted(matched, never)  # no trigger given: any host
    # the author's own action is never its opposite, though its two sides may name one host ($matched can be Op_Server0)
    first = {"mode": "prefer", "verb": "Restore", "target": "Op_Server0", "over": {"verb": "Restore", "target": "$matched"}}
    both = {"all": [{"class": "User", "compromise": "any"}, {"host": "Op_Server0", "compromise": "any"}]}
    assert not bench.inverted(first, first, both, both)


def test_also_applies_is_checked_and_an_unread_split_never_prints_its_cases(capsys, monkeypatch):
    bench = load_bench()
    scenario = {"id": "x", "dimension": "recall", "steps": [
        {"teach": [{"as": "a", "actor": "alice", "role": "planner", "text": "t"}]},
        {"query": {"context": "c", "role": "planner", "expect": [], "also_applies": ["b"]}}]}
    with pytest.raises(bench.CaseError, match="also_applies names labels not taught before it"):
        bench.check_scenario(scenario, Path("x.yaml"), {})
    assert "(development)" in bench.SPLIT_NAMES["model_style"] and "(development)" in bench.SPLIT_NAMES["dev"]
    # the blind splits that steered rounds of issue 29: development, their failures readable
    steered = ("blind", "blind2", "blind3", "blind4", "blind5", "blind6", "blind7", "blind8", "blind9",
               "blind10", "blind11", "blind12", "blind13", "blind14", "blind15", "blind16", "blind17", "blind18", "blind20",
               "blind21", "blind22", "blind23", "blind19", "blind24", "blind25", "blind26",
               "blind27", "blind28", "blind29", "blind30", "blind31", "blind32", "blind33", "blind34", "blind35", "blind36", "blind37", "blind38",
               "blind39", "blind40", "blind41", "blind42", "blind43", "blind44", "blind45", "blind46", "blind47", "blind48", "blind49", "blind50", "blind51", "blind52", "blind53", "blind54", "blind55", "blind56", "blind57", "blind58")
    assert all("development" in bench.SPLIT_NAMES[s] for s in steered) and not set(steered) & bench.UNREAD
    assert bench.UNREAD == {"blind59"} and all("held out" in bench.SPLIT_NAMES[s] for s in bench.UNREAD)
    monkeypatch.setattr(bench, "UNREAD", frozenset({"blind"}))  # as a held-out blind split is labelled once committed
    assert bench.main(["--split", "blind", "--failures"]) == 2
    assert "refused on an unread held-out split" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.parametrize("compiler", ["reference", "model"])
@pytest.mark.parametrize("split", ["blind", "blind2", "blind3", "blind4", "blind5", "blind6", "blind14", "blind15",
                                   "blind17", "blind19", "blind20", "blind22", "blind23", "blind24",
                                   "blind26", "blind27", "blind28", "blind31", "blind32", "blind33", "blind35", "blind36", "blind37",
                                   "blind38", "blind39", "blind41", "blind42", "blind43", "blind44", "blind46", "blind49",
                                   "blind50", "blind51", "blind55"])
def test_the_blind_splits_harm_silence_and_accuracy(split, compiler):
    """Issue 29's acceptance on the blind splits at harm 0 and silence 100 % with both compilers: no harmful injection,
    every silent query silent, with the case authors' compilations and with the surrogate compiler, and exact-set a
    point below the figure measured (reference / surrogate): blind-1 to blind-6 as issue 29's tenth round measured them
    (blind-1 99.0 / 87.2, blind-2 95.2 / 91.0, blind-3 95.2 / 87.8, blind-4 99.7 / 94.4, blind-5 92.5 / 89.2, blind-6
    96.2 / 91.0), blind-14, blind-15 and blind-17 after the twenty-first round (98.0 / 97.0, 96.0 / 94.6, 100.0 /
    99.3), blind-20 after the twenty-third (97.4 / 94.4), blind-19 on its first run, when it was held out (97.0 / 89.2;
    its cases are still unread), blind-22 after the twenty-fifth round, blind-23 after the twenty-sixth, blind-24 after the
    twenty-seventh, blind-26 after the twenty-ninth, blind-27 after the thirtieth, blind-28 after the thirty-first,
    blind-31 after the thirty-fourth, blind-32 after the thirty-fifth, blind-33 after the thirty-sixth, blind-35 after
    the thirty-eighth, blind-36 after the thirty-ninth, blind-37 after the fortieth, blind-38 after the forty-first, blind-41 after the forty-fourth, blind-43 after the forty-sixth, blind-44 after the forty-seventh, blind-46 after the forty-ninth, blind-49 after the fifty-third, blind-50 and blind-51 after the fifty-fourth, blind-39 and blind-42 after the
    fifty-fifth, when the reference's harm on each (once called label errors) went with a host the Planner's line of
    changes states clean no longer read as shown, and blind-55 after the fifty-eighth (100.0 / 98.4,
    100.0 / 97.4, 98.8 / 96.4, 100.0 / 100.0, 98.3 / 92.6, 97.4 / 85.2, 89.6 / 76.7, 97.8 / 90.7, 87.6 / 87.0,
    95.1 / 92.5, 97.7 / 92.0, 96.0 / 92.8, 92.4 / 82.4, 99.8 / 95.0, 96.2 / 93.4, 93.9 / 89.1, 96.6 / 88.4, 89.0 / 80.9, 98.4 / 91.9, 90.6 / 88.0, 99.8 / 91.9, 99.4 / 98.5, 91.0 / 83.4). Blind-9 and blind-56 (0 / 72 / 85.0 and 0 / 36 / 92.5 after the fifty-ninth round) are at harm 0 and silence 100 % too, left out to keep the suite's time; the other splits are
    not (docs/dc-bench.md)."""
    bench = load_bench()
    results, _, _ = bench.run_bench((split,), behaviour=False, progress=False, compiler=compiler)
    score = bench.score(results)
    measured = {"blind": (99.0, 87.2), "blind2": (95.2, 91.0), "blind3": (95.2, 87.8), "blind4": (99.7, 94.4),
                "blind5": (92.5, 89.2), "blind6": (96.2, 91.0), "blind14": (98.0, 97.0), "blind15": (96.0, 94.6),
                "blind17": (100.0, 99.3), "blind19": (97.0, 89.2), "blind20": (97.4, 94.4),
                "blind22": (100.0, 98.4), "blind23": (100.0, 97.4), "blind24": (98.8, 96.4),
                "blind26": (100.0, 100.0), "blind27": (98.3, 92.6), "blind28": (97.4, 85.2),
                "blind31": (89.6, 76.7), "blind32": (97.8, 90.7), "blind33": (87.6, 87.0),
                "blind35": (95.1, 92.5), "blind36": (97.7, 92.0),
                "blind37": (96.0, 92.8), "blind38": (92.4, 82.4), "blind39": (99.8, 91.9), "blind41": (99.8, 95.0),
                "blind42": (99.4, 98.5),
                "blind43": (96.2, 93.4), "blind44": (93.9, 89.1), "blind46": (96.6, 88.4),
                "blind49": (89.0, 80.9), "blind50": (98.4, 91.9), "blind51": (90.6, 88.0),
                "blind55": (91.0, 83.4)}[split]
    floor = (measured[0] if compiler == "reference" else measured[1]) - 1.0
    assert (score["harmful"], score["silence"]) == (0, 100.0) and score["exact"] >= floor, \
        {k: score[k] for k in ("harmful", "silence", "exact", "missed")}  # figures only


@pytest.mark.slow
def test_the_configured_compiler_on_the_held_out_split():
    bench = load_bench()
    results, _, _ = bench.run_bench(("heldout",), progress=False)
    overall = bench.score(results)
    assert overall["exact"] >= 96.0 and overall["silence"] == 100.0, overall  # the figure this branch reports
    assert overall["judged"] > 0  # the surrogate's behaviour column was measured


@pytest.mark.slow
@pytest.mark.parametrize("compiler", ["reference", "model"])
def test_the_model_style_split_meets_the_target(compiler):
    """Issue 18's split of rules written the way models write reflections, with the case files'
    compilations and with the surrogate as compiler (its own reader: reports skipped for the order, pronouns
    bound, negation scope, phases, history atoms, plans): at least 95 % exact-set and every silent query
    silent (semantic rules about history or unstated facts stay silent where the context does not state
    them). The split is its author's file as written: where the author's expectations and the never-wider standard
    disagree (history read into "newly compromised", one teacher's exception speaking alone, since issue 29's fifteenth
    round also a standing prohibition: M-ex-4) the misses count, so the floor is a point below what was measured on
    it (92.2 / 90.5 after the fifteenth round), and harm stays 0."""
    bench = load_bench()
    results, _, _ = bench.run_bench(("model_style",), behaviour=False, progress=False, compiler=compiler)
    overall = bench.score(results)
    floor = {"reference": 89.5, "model": 91.2}[compiler]
    assert overall["exact"] >= floor and overall["harmful"] == 0 and overall["silence"] == 100.0, overall


def test_each_scenario_is_compiled_with_its_own_authors_reference(monkeypatch):
    """Two splits may hold one sentence compiled two ways: each scenario's rule is compiled with its own author's
    reference (a table over every split answered one with the other's, so a split's figure depended on which other
    splits ran beside it)."""
    bench = load_bench()
    text = "Keep User1 out of any restore while it's compromised."
    faithful = {"when": {"host": "User1", "compromise": ["User", "Privileged"]},
                "action": {"mode": "never", "verb": "Restore", "target": "User1"}}

    def scenario(split, ref):
        return {"id": f"same-{split}", "split": split, "dimension": "recall", "steps": [
            {"teach": [{"as": "a", "actor": "alice", "role": "action_chooser", "text": text, "ref": ref}]},
            {"query": {"context": "User1: Activity None, Compromised User", "role": "action_chooser",
                       "expect": ["a"]}}]}
    by_split = {"dev": scenario("dev", faithful), "heldout": scenario("heldout", {"when": None, "action": None})}
    monkeypatch.setattr(bench, "load_split", lambda split, observations: [by_split[split]])
    results, _, _ = bench.run_bench(("dev", "heldout"), behaviour=False, progress=False, compiler="reference")
    outcome = {r.split: r.outcome["a"] for r in results}
    assert outcome["dev"] != outcome["heldout"], outcome
    assert outcome["heldout"] == "semantic", outcome


def test_a_second_withdrawal_of_one_merged_rule_is_recorded_not_fatal(monkeypatch):
    """Two wordings of one rule merge into one rule id; withdrawing each label withdraws that rule twice. The second
    is refused as an operator's would be, and the scenario still runs its queries (it used to end the whole run)."""
    bench = load_bench()
    ref = {"when": {"host": "User1", "compromise": "User"}, "action": {"mode": "never", "verb": "Restore", "target": "User1"}}
    scenario = {"id": "merged", "split": "dev", "dimension": "recall", "steps": [
        {"teach": [{"as": "a", "actor": "alice", "role": "action_chooser", "text": "Do not run a Restore on User1 as long as a compromise shows on it.", "ref": ref}]},
        {"teach": [{"as": "b", "actor": "alice", "role": "action_chooser", "text": "A compromised User1 is never to be restored.", "ref": ref}]},
        {"withdraw": "a"}, {"withdraw": "b"},
        {"query": {"context": "User1: Activity None, Compromised User", "role": "action_chooser", "expect": []}}]}
    monkeypatch.setattr(bench, "load_split", lambda split, observations: [scenario])
    results, _, problems = bench.run_bench(("dev",), behaviour=False, progress=False, compiler="reference")
    assert [r.exact for r in results] == [True]
    assert any(p.startswith("merged: withdraw b refused") and "already withdrawn" in p for p in problems), problems
