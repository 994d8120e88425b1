"""Population scaling: one FORGE stage with N=10 instances against N=1, surrogate latency 200 ms per call.

    .venv/bin/python scripts/bench/population_scaling.py [--latency-ms 200] [--instances 10]

Model calls are I/O-bound; each instance is a Ray actor with a tenth of a CPU, so ten instances should
progress together on two cores. Both sessions run in this process, one after the other, on the same
seeds (instance i00 does identical work in both). Reported:
- stage wall time for N=1 and N=N, and their ratio (target <= 1.5 on 2 cores);
- the slowest instance's own work time in the N run (instances do different amounts of work: a clean
  attempt ends a stage early), and the stage wall time over it (parallel efficiency);
- the driver's own overhead per stage: stage wall time minus the slowest instance's work time.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parents[2]


def one_stage(n: int, latency_ms: float, runs_dir: Path):
    from forge.config import load_config
    from forge.protocol.ledger import SessionLedger
    from forge.rundir import RunDirectory
    from workers.driver import SessionDriver

    cfg = load_config(ROOT / "configs" / "forge.yaml", overrides=[
        f"protocol.num_instances={n}", "protocol.num_stages=1", "protocol.max_attempts=2", "protocol.checkpoint_runs=1",
        "protocol.num_evaluation_runs=1", f"surrogate.latency_ms={latency_ms}", "tracking.enabled=false",
        f"run.runs_dir={runs_dir}", f"run.name=n{n}",
    ])
    run_dir = RunDirectory.create(cfg)
    started = time.perf_counter()
    SessionDriver(cfg, run_dir, console=Console(quiet=True)).run()
    total = time.perf_counter() - started
    ledger = SessionLedger.open(str(run_dir.path), run_dir.session_id)
    return ledger.stages()[0], total


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--latency-ms", type=float, default=200.0)
    parser.add_argument("--instances", type=int, default=10)
    args = parser.parse_args()
    import ray

    from workers.driver import connect_ray
    from forge.config import load_config

    connect_ray(load_config())
    runs = Path(tempfile.mkdtemp(prefix="forge-bench-"))
    results = {}
    for n in (1, args.instances):
        record, total = one_stage(n, args.latency_ms, runs)
        results[n] = (record, total)
        print(f"N={n}: stage wall {record.wall_s:.1f} s, session {total:.1f} s")
    ray.shutdown()
    r1, rn = results[1][0], results[args.instances][0]
    slowest = max(rn.work_s.values())
    table = Table(title=f"One FORGE stage, surrogate latency {args.latency_ms:.0f} ms per call, "
                        f"Ray actors at {load_config().ray.num_cpus_per_instance} CPU each")
    for col in ("measure", "value"):
        table.add_column(col, justify="right" if col == "value" else "left")
    table.add_row("stage wall time, N=1", f"{r1.wall_s:.1f} s")
    table.add_row(f"stage wall time, N={args.instances}", f"{rn.wall_s:.1f} s")
    table.add_row(f"ratio N={args.instances} / N=1 (target <= 1.5)", f"{rn.wall_s / r1.wall_s:.2f}")
    table.add_row("i00 work time, N=1 / N=" + str(args.instances),
                  f"{r1.work_s['i00']:.1f} s / {rn.work_s['i00']:.1f} s")
    table.add_row(f"slowest instance's work time, N={args.instances}", f"{slowest:.1f} s")
    table.add_row("stage wall / slowest instance's work", f"{rn.wall_s / slowest:.2f}")
    table.add_row(f"driver overhead per stage, N=1 / N={args.instances}",
                  f"{r1.wall_s - max(r1.work_s.values()):.2f} s / {rn.wall_s - slowest:.2f} s")
    Console(width=140).print(table)


if __name__ == "__main__":
    main()
