"""Faults injected into a finished session against what the session counted.

    PYTHONPATH=$PWD .venv/bin/python scripts/fault_counts.py runs/<session> [--reference runs/<same session, undisturbed>]

Injected: provider faults as the fault injectors counted them (per unit of work the session kept, in the
ledger), and the chaos hooks that fired (their marker files in the run directory). Counted: the `faults`
section of reports/summary.json, the `faults.*` metrics of the session's MLflow run, and what the
product itself observed of provider faults (calls retried, calls failed after their retries).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> int:
    from mlflow import MlflowClient

    from forge.llm.faults import FAULT_KINDS
    from forge.protocol.fault_count import fault_metrics
    from forge.protocol.phases import WORKER_PHASES
    from forge.runs.rundir import RunDirectory
    from forge.runs.tracking import default_tracking_uri, session_runs
    from workers.chaos import parse_driver_exits, parse_worker_kills

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run_dir", type=Path)
    parser.add_argument("--reference", type=Path, metavar="RUN_DIR",
                        help="the same session without the infrastructure faults (same run.name): compare what both kept")
    args = parser.parse_args()
    run_dir = RunDirectory.open(args.run_dir)
    cfg = run_dir.load_config()
    summary = json.loads((run_dir.reports / "summary.json").read_text())["faults"]
    client = MlflowClient(cfg.tracking.tracking_uri or default_tracking_uri(run_dir.path.parent))
    parent, _ = session_runs(client, cfg.run.study, run_dir.session_id)
    logged = parent.data.metrics
    metrics = fault_metrics(summary)

    fired_kills = [k for k in parse_worker_kills(cfg.ray.chaos_kill) if (run_dir.path / k.marker).exists()]
    fired_exits = [e for e in parse_driver_exits(cfg.ray.chaos_driver_exit) if (run_dir.path / e.marker).exists()]
    table = Table(title=f"{run_dir.session_id}: faults injected vs counted")
    for column in ("fault", "injected", "summary.json", "MLflow", "observed by the product"):
        table.add_column(column, justify="left" if column == "fault" else "right")
    provider = summary["provider"]
    observed = provider["observed"]
    for kind in FAULT_KINDS:
        seen = f"{observed['retried']} retried + {observed['failed_calls']} failed" if kind == "transient" else ""
        table.add_row(f"provider {kind}", str(provider["injected"][kind]), str(provider["injected"][kind]),
                      f"{logged.get(f'faults.provider.{kind}', float('nan')):g}", seen)
    for phase in WORKER_PHASES:
        injected = sum(1 for k in fired_kills if k.phase == phase)
        table.add_row(f"worker killed in {phase}", str(injected), str(summary["workers"]["deaths"][phase]),
                      f"{logged.get(f'faults.worker_deaths.{phase}', float('nan')):g}", "")
    table.add_row("driver killed, resumed", str(len(fired_exits)), str(summary["driver"]["restarts"]),
                  f"{logged.get('faults.driver_restarts', float('nan')):g}", ", ".join(summary["driver"]["stopped_at"]))
    table.add_row("Redis restarted", "-", str(summary["store"]["restarts"]),
                  f"{logged.get('faults.store_restarts', float('nan')):g}", "")
    Console(width=160).print(table)
    mismatched = [k for k, v in metrics.items() if logged.get(k) != v]
    print("MLflow faults.* metrics match summary.json" if not mismatched else f"MLflow differs on {mismatched}")
    differences = []
    if args.reference:
        ours, theirs = kept(run_dir), kept(RunDirectory.open(args.reference))
        differences = [key for key in ours if ours[key] != theirs[key]]
        print(f"against {args.reference}: " + (f"differs in {', '.join(differences)}" if differences else
              "same final memory (every instance's digest), stage decisions, checkpoint and evaluation returns"))
    return 1 if mismatched or differences else 0


def kept(run_dir) -> dict:
    """What a session kept: final memory digests, stage decisions and returns, evaluation returns."""
    from forge.wiring import open_ledger, open_memory

    cfg = run_dir.load_config()
    ledger = open_ledger(cfg, str(run_dir.path), run_dir.session_id)
    memory = open_memory(cfg, str(run_dir.path), run_dir.session_id)
    try:
        instances = ledger.meta()["instances"]
        return {
            "memory": {i: memory.snapshot(f"{run_dir.session_id}/{i}").digest for i in instances},
            "stages": [(r.stage, r.checkpoint, r.graduated, r.champion, r.broadcast_to) for r in ledger.stages()],
            "evaluation": ledger.evaluation().returns,
        }
    finally:
        ledger.close()
        memory.store.close()


if __name__ == "__main__":
    sys.exit(main())
