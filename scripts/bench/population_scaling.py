"""Population scaling: one FORGE stage with N = 1, 10 and 100 instances, surrogate latency 200 ms per call.

    .venv/bin/python scripts/bench/population_scaling.py [--latency-ms 200] [--sizes 1,10,100]
        [--instances-per-worker 0]

SURROGATE results (the scripted stand-in model, not an LLM). Model calls are I/O-bound: instances are
packed into Ray worker processes (`ray.instances_per_worker`, 0 = automatic, workers/packing.py), each
unit of work in its own thread. The sessions run in this process one after the other on the same seeds
(instance i00 does identical work in all of them). The surrogate's per-process concurrency cap is
raised to N (`providers.surrogate.max_concurrency`): the stand-in has no endpoint to protect, and the
cap would otherwise measure itself rather than the population layer. Reported per N:
- stage wall time (training + checkpoint, from the ledger) and its ratio to N=1 (target <= 1.5 at
  N=100 on 2 cores);
- the slowest instance's own work time, and the stage wall time over it (parallel efficiency);
- model calls of i00 and of the busiest instance: instances do different amounts of work (a clean
  attempt ends a stage early, a failure aborts an episode at a different step), and a stage lasts as long
  as its busiest instance. Timing N instances against i00 alone would mostly measure that spread of work
  (E[max of N] over one draw), not the population layer. So each N > 1 is also timed against its own
  busiest instance run alone: a one-instance session of that instance (same name, so the same seeds and
  the same work; the table shows its calls alone and in the population, which must be equal);
- the ratio: stage wall time at N over the busiest instance's stage wall time alone (like for like);
  the ratio over i00's stage is printed beside it;
- worker processes, the peak of the summed RSS of all worker processes (sampled every 0.25 s from
  /proc; shared pages are counted once per process, so this over-counts), and that peak per instance
  (target: <= 6 GB at N=100).
The last line is `ratio N=100 / N=1: X.XX`: the largest N over its busiest instance alone.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parents[2]


def rss_bytes(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError):
        pass  # the process is gone (a finished session)
    return 0


class PeakRss:
    """The peak, over samples, of the summed RSS of the driver's worker processes."""

    def __init__(self, driver, interval_s: float = 0.25) -> None:
        self.driver, self.interval_s, self.peak = driver, interval_s, 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> "PeakRss":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        while not self._stop.wait(self.interval_s):
            self.peak = max(self.peak, sum(rss_bytes(pid) for pid in self.driver.worker_pids()))


@dataclass
class Row:
    n: int
    wall_s: float
    slowest_s: float
    i00_s: float
    workers: int
    peak_rss: int
    session_s: float
    i00_calls: int
    max_calls: int
    busiest: str


def one_stage(n: int, latency_ms: float, per_worker: int, runs_dir: Path, alone: str | None = None) -> Row:
    """One stage of n instances; with `alone`, a one-instance session of that instance only."""
    from forge.config import load_config
    from forge.protocol.ledger import SessionLedger
    from forge.runs.rundir import RunDirectory
    from workers.driver import SessionDriver

    cfg = load_config(ROOT / "configs" / "forge.yaml", overrides=[
        f"protocol.num_instances={n}", "protocol.num_stages=1", "protocol.max_attempts=2", "protocol.checkpoint_runs=1",
        "protocol.num_evaluation_runs=1", f"surrogate.latency_ms={latency_ms}", "tracking.enabled=false",
        f"providers.surrogate.max_concurrency={max(n, 8)}", f"ray.instances_per_worker={per_worker}",
        f"run.runs_dir={runs_dir}", f"run.name=n{n}" + (f"-{alone}" if alone else ""),
    ])
    run_dir = RunDirectory.create(cfg)
    driver = SessionDriver(cfg, run_dir)  # reports to the workers.driver logger, unconfigured here: quiet
    if alone:
        # An instance's seeds derive from its name (training, surrogate, faults), so this session
        # gives that instance exactly the work it had inside the population.
        driver.instances = [alone]
    started = time.perf_counter()
    with PeakRss(driver) as rss:
        driver.run()
    total = time.perf_counter() - started
    record = SessionLedger.open(str(run_dir.path), run_dir.session_id).stages()[0]
    calls = {i: sum(u.get("calls", 0) for u in roles.values()) for i, roles in record.tokens.items()}
    first = driver.instances[0]
    busiest = max(calls, key=lambda i: (calls[i], record.work_s[i]))
    return Row(n, record.wall_s, max(record.work_s.values()), record.work_s[first], len(driver.worker_pids()),
               rss.peak, total, calls[first], calls[busiest], busiest)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--latency-ms", type=float, default=200.0)
    parser.add_argument("--sizes", default="1,10,100", help="comma-separated population sizes; the first is the base")
    parser.add_argument("--instances-per-worker", type=int, default=0, help="ray.instances_per_worker (0: automatic)")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    import ray

    from forge.config import load_config
    from workers.ray_runtime import connect_ray

    console = Console(width=150)
    console.print(f"load average before: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f} "
                  f"on {os.cpu_count()} CPUs")
    connect_ray(load_config())
    runs = Path(tempfile.mkdtemp(prefix="forge-bench-"))
    rows, alone = [], {}
    for n in sizes:
        row = one_stage(n, args.latency_ms, args.instances_per_worker, runs)
        rows.append(row)
        console.print(f"N={n}: stage wall {row.wall_s:.1f} s, {row.workers} worker processes, "
                      f"peak worker RSS {row.peak_rss / 2**20:.0f} MB, session {row.session_s:.1f} s, "
                      f"busiest instance {row.busiest} ({row.max_calls} calls)")
        if n > 1 and row.busiest not in alone:
            alone[row.busiest] = one_stage(1, args.latency_ms, args.instances_per_worker, runs, alone=row.busiest)
            console.print(f"  {row.busiest} alone: stage wall {alone[row.busiest].wall_s:.1f} s, "
                          f"{alone[row.busiest].i00_calls} calls")
    ray.shutdown()
    base = rows[0]

    def baseline(row: Row) -> Row:
        return base if row.n == 1 else alone[row.busiest]

    table = Table(title=f"One FORGE stage (SURROGATE model), latency {args.latency_ms:.0f} ms per call, "
                        f"ray.instances_per_worker={args.instances_per_worker or 'auto'}")
    for col in ("N", "stage wall", "busiest instance", "its stage alone", "its calls alone / in population",
                "ratio (like for like)", "ratio to i00 alone", "i00 work", "model calls i00 / most", "workers",
                "peak RSS, all workers", "RSS per instance"):
        table.add_column(col, justify="right")
    for row in rows:
        own = baseline(row)
        table.add_row(str(row.n), f"{row.wall_s:.1f} s", row.busiest, f"{own.wall_s:.1f} s",
                      f"{own.i00_calls} / {row.max_calls}", f"{row.wall_s / own.wall_s:.2f}",
                      f"{row.wall_s / base.wall_s:.2f}", f"{row.i00_s:.1f} s", f"{row.i00_calls} / {row.max_calls}",
                      str(row.workers),
                      f"{row.peak_rss / 2**20:,.0f} MB", f"{row.peak_rss / row.n / 2**20:,.1f} MB")
    console.print(table)
    console.print(f"load average after: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}; "
                  f"targets: ratio <= 1.5, peak RSS of all workers <= 6 GB at N=100")
    last = rows[-1]
    own = baseline(last)
    if own.i00_calls != last.max_calls:
        console.print(f"[red]warning: {last.busiest} made {own.i00_calls} calls alone and {last.max_calls} in the "
                      f"population; the like-for-like ratio is not like for like[/red]")
    console.print(f"against i00 alone: ratio N={last.n} / N={base.n} = {last.wall_s / base.wall_s:.2f}, of which the "
                  f"spread of work (busiest instance's calls / i00's calls) is {last.max_calls / base.i00_calls:.2f}")
    print(f"ratio N={last.n} / N=1: {last.wall_s / own.wall_s:.2f}")


if __name__ == "__main__":
    main()
