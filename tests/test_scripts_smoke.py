"""Every script a user runs by hand (scripts/*.py, scripts/bench/*.py) runs in the default install: each is
run here as its docstring says, with its smallest arguments, and must exit 0 and print its figures.

Today's main: scripts/bench/agent_step.py and env_speed.py died on `import stable_baselines3` (they imported
csle_cyborg.agents directly, whose own __init__ loads the RL agents; forge/env/cyborg_import.py is the
way in without it), and nothing ran the scripts, so nobody saw."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.made_once import made_once

ROOT = Path(__file__).resolve().parents[1]

# script -> (its smallest arguments: {tmp} a scratch directory, {run} a finished small session; a figure it
# must print). A new script gets a row here, or test_every_script_has_a_smoke_run fails.
SCRIPTS: dict[str, tuple[list[str], str]] = {
    # at its own limits: it exits 1 on an import cycle, an import against the layers or a function over 80 lines
    "scripts/house.py": ([], r"functions: \d+; over 80 lines: 0"),
    "scripts/write_schemas.py": (["--out", "{tmp}/schemas"], r"rulebook\.schema\.json \(\d+ bytes\)"),
    "scripts/cage2_official_eval.py": (["BlueReactRemoveAgent", "--episodes", "2", "--out", "{tmp}/official"],
                                       r"Average reward for red agent B_lineAgent and steps 30 is: -?\d"),
    "scripts/fault_counts.py": (["{run}"], r"worker killed in evaluation\s*│\s*0\s*│"),
    "scripts/bench/agent_step.py": (["--episodes", "1"], r"raw CybORG step \(median\): [\d.]+ ms"),
    "scripts/bench/check_mutations.py": (["--splits", "dev", "--limit", "10"], r"overall: \d+ of \d+ mutants caught"),
    "scripts/bench/dc_bench.py": (["--split", "heldout", "--no-behaviour"], r"overall exact-set accuracy: [\d.]+%"),
    "scripts/bench/dc_bench_contexts.py": (["--episodes", "1", "--steps", "5", "--out", "{tmp}/observations.yaml"],
                                           r"[1-9]\d* distinct observations from \d+ episodes"),
    "scripts/bench/dc_bench_author_contexts.py": (["--seeds", "5001", "--out", "{tmp}/contexts.md"],
                                                  r"wrote [1-9] contexts to .*contexts\.md"),
    "scripts/bench/env_speed.py": (["--episodes", "1"], r"sleep\s*│\s*\d+\s*│\s*\d+\s*│"),
    "scripts/bench/horizon_thresholds.py": (["--episodes", "2"], r"b_line\s+30 \|\s+-?[\d.]+ ±"),
    "scripts/bench/limiter_overhead.py": (["--iterations", "20", "--workers", "1"],
                                          r"limiter overhead per call, 1 worker: -?[\d.]+ ms"),
    "scripts/bench/population_scaling.py": (["--latency-ms", "0", "--sizes", "1,2"], r"ratio N=2 / N=1: [\d.]+"),
    "scripts/bench/provider_overhead.py": (["--iterations", "20", "--warmup", "5"], r"overhead \(b\)-\(a\)\s+-?[\d.]+ ms"),
    "scripts/bench/rulebook_evaluate.py": (["{run}", "--episodes", "1", "--vector-cache", "on"],
                                           r"rulebook\s*│\s*on\s*│\s*[\d.]+\s*│"),
    "scripts/bench/rulebook_query.py": (["--encoders", "minilm-onnx-int8", "--sizes", "5", "--queries", "5", "--no-cold"],
                                        r"minilm-onnx-int8\s*│\s*5\s*│\s*[\d.]+\s*│"),
    "scripts/bench/serve_stack.py": (["--requests", "20", "--rounds", "1", "--threads", "2", "--seconds", "0.5",
                                      "--warmup", "5"], r"bare http seq\. req/s\s+\d+"),
}

# The smallest session a script reads: 2 instances, 1 stage, 8-step episodes, tracked in MLflow (fault_counts
# compares the session's MLflow metrics with its summary).
SESSION = ["protocol.num_instances=2", "protocol.num_stages=1", "protocol.max_attempts=1", "protocol.checkpoint_runs=1",
           "protocol.num_evaluation_runs=1", "env.max_steps=8", "protocol.theta=-4.0", "run.name=smoke"]


def entry_points() -> list[str]:
    """The Python scripts under scripts/ and scripts/bench/ that run as programs."""
    return sorted(str(p.relative_to(ROOT)) for folder in ("scripts", "scripts/bench") for p in (ROOT / folder).glob("*.py")
                  if 'if __name__ == "__main__":' in p.read_text())


def test_every_script_has_a_smoke_run():
    assert entry_points() == sorted(SCRIPTS)


def run_script(script: str, args: list[str]) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "200"}
    return subprocess.run([sys.executable, str(ROOT / script), *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=600)


@pytest.fixture(scope="module")
def small_session(tmp_path_factory) -> Path:
    """A finished small session (made once per test run, only read here), made by the CLI as a user makes one."""
    def make(directory: Path) -> None:
        subprocess.run([sys.executable, "-m", "forge.cli", "run", str(ROOT / "configs" / "forge.yaml"), *SESSION,
                        f"run.runs_dir={directory}"], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                       check=True, capture_output=True, timeout=600)

    return made_once(tmp_path_factory, "scripts-smoke-session", make) / "smoke"


@pytest.mark.slow
@pytest.mark.parametrize("script", sorted(SCRIPTS))
def test_script_runs_with_its_smallest_arguments_and_prints_its_figures(script, tmp_path, request):
    args, figure = SCRIPTS[script]
    run = str(request.getfixturevalue("small_session")) if any("{run}" in a for a in args) else ""
    started = time.monotonic()
    done = run_script(script, [a.format(tmp=tmp_path, run=run) for a in args])
    took = time.monotonic() - started
    assert done.returncode == 0, f"{script} exited {done.returncode}:\n{done.stderr[-3000:]}"
    assert re.search(figure, done.stdout), f"{script} printed no figure matching {figure!r}:\n{done.stdout[-3000:]}"
    print(f"{script} {' '.join(args)}: exit 0 in {took:.1f} s; {re.search(figure, done.stdout).group(0)}")
