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
    from forge.grammar import parse_rule

    scenarios = [s for split in bench.SPLITS for s in bench.load_split(split, observations)]
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
    assert overall["exact"] >= 95.0 and overall["silence"] == 100.0, overall
    by_dimension = defaultdict(list)
    for r in results:
        by_dimension[r.dimension].append(r)
    for dimension, rows in by_dimension.items():
        assert bench.score(rows)["exact"] >= 90.0, (dimension, [(r.scenario, r.expected, r.injected) for r in rows])


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
    them)."""
    bench = load_bench()
    results, _, _ = bench.run_bench(("model_style",), behaviour=False, progress=False, compiler=compiler)
    overall = bench.score(results)
    assert overall["exact"] >= 95.0 and overall["silence"] == 100.0, overall
