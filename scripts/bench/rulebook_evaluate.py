"""What rulebook-mode evaluation costs beside full injection, on the same seeds, in one process:

    PYTHONPATH=. .venv/bin/python scripts/bench/rulebook_evaluate.py RUN_DIR [--episodes 20] [--rulebook SPEC]
        [--modes full,rulebook] [--vector-cache on|off|both] [KEY=VALUE ...]

For each mode, what `forge evaluate RUN_DIR --injection <mode>` does (forge.runs.evaluation.compare_injection_modes:
the rulebook arm compiles the memory into the book if it is not there, loads the encoder, plays the
episodes; the ablation episodes are off here, `rulebook.ablation_max_rules=0`): wall seconds, CPU seconds
of this process (user + system: what the mode costs whatever else the machine runs), the encoder's
forward passes and the contexts answered from the on-disk vector cache, and the returns. Every mode runs
on the same seeds; the rulebook arm's returns and injected rule ids are compared between the runs with
and without the vector cache (`--vector-cache both`): they must be identical.

`--vector-cache off` is a first evaluation (every context through the model); `on` with a warm cache is
an evaluation of seeds evaluated before (the contexts' vectors are on disk). The figures are of the
surrogate model: they show the machinery's cost, not an LLM's.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402


def forward_passes() -> int:
    from forge.rulebook.retrieval.encoders import onnx_minilm

    return getattr(onnx_minilm.OnnxEncoder, "runs", 0)


def count_forward_passes() -> None:
    from forge.rulebook.retrieval.encoders import onnx_minilm

    original = onnx_minilm.OnnxEncoder.run

    def run(self, input_ids):
        onnx_minilm.OnnxEncoder.runs = getattr(onnx_minilm.OnnxEncoder, "runs", 0) + 1
        return original(self, input_ids)

    onnx_minilm.OnnxEncoder.run = run


def record_injections(store: list) -> None:
    from forge.rulebook import injection

    original = injection.RulebookInjection.for_call

    def for_call(self, role, context):
        found = original(self, role, context)
        store.append((role, found.ids, found.prefix_ids))
        return found

    injection.RulebookInjection.for_call = for_call


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run_dir")
    parser.add_argument("--episodes", type=int, default=20)
    parser.add_argument("--rulebook", help="rulebook spec (default: the run's own)")
    parser.add_argument("--modes", default="full,rulebook")
    parser.add_argument("--vector-cache", choices=("on", "off", "both"), default="both")
    parser.add_argument("overrides", nargs="*")
    args, extra = parser.parse_known_args()
    args.overrides = [*args.overrides, *extra]  # overrides after options still belong to them
    from forge.config import rulebook_location
    from forge.runs.evaluation import compare_injection_modes
    from forge.rulebook.retrieval import embed
    from forge.wiring import open_run_memory

    count_forward_passes()
    injected: list = []
    record_injections(injected)
    found = open_run_memory(args.run_dir, None, ["rulebook.ablation_max_rules=0", *args.overrides])
    snapshot = found.snapshot()
    spec = args.rulebook or rulebook_location(found.cfg, found.run.path)
    console = Console(width=160)
    table = Table(title=f"{found.key}: {args.episodes} frozen episodes per mode, same seeds (surrogate model; "
                        f"load {os.getloadavg()[0]:.1f} at start, {os.cpu_count()} cores)")
    for column in ("mode", "vector cache", "wall s", "CPU s", "wall / full", "CPU / full", "forward passes",
                   "from disk", "return mean"):
        table.add_column(column, justify="left" if column in ("mode", "vector cache") else "right")
    # both: a first evaluation, then with the cache twice (the second reads what the first wrote, if it was cold)
    variants = {"both": ("off", "on", "on"), "on": ("on",), "off": ("off",)}[args.vector_cache]
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    full: dict[str, tuple[float, float]] = {}
    runs: list[tuple[list, list]] = []
    for variant in variants:
        os.environ["FORGE_VECTOR_CACHE"] = "1" if variant == "on" else "0"
        embed._local.clear()  # a new embedder reads the switch (the session stays loaded: one per graph file)
        for mode in modes:
            injected.clear()
            passes, cpu, started = forward_passes(), time.process_time(), time.perf_counter()
            with console.status(f"{mode}, vector cache {variant} ..."):
                result = compare_injection_modes(found, snapshot, [mode], args.episodes, rulebook_spec=spec).results[mode]
            wall, used = time.perf_counter() - started, time.process_time() - cpu
            disk = 0
            if mode == "rulebook":
                cache = embed.local_embedder(found.cfg.rulebook.encoder)._cache.disk
                disk = cache.hits if cache is not None else 0
                runs.append((list(result.returns), list(injected)))
            if mode == "full":
                full[variant] = (wall, used)
            base = full.get(variant)
            table.add_row(mode, variant, f"{wall:.1f}", f"{used:.1f}", f"{wall / base[0]:.2f}" if base else "-",
                          f"{used / base[1]:.2f}" if base else "-", str(forward_passes() - passes), str(disk),
                          f"{statistics.fmean(result.returns):.2f}")
    console.print(table)
    if len(runs) > 1:
        same = all(run == runs[0] for run in runs[1:])
        console.print(f"rulebook arm, {len(runs)} runs ({', '.join(variants)}): returns and injected ids on every call "
                      f"{'identical' if same else 'DIFFERENT'} ({len(runs[0][1])} calls per run)")
        return 0 if same else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
