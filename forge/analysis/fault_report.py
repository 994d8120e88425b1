"""The table of the faults a session met, as `forge run` / `forge resume` print it (the same figures as
summary.json's `faults` section). Counting rules: forge.protocol.fault_count."""

from __future__ import annotations

from typing import Any

from rich.table import Table

from forge.llm.faults import FAULT_KINDS
from forge.protocol.phases import WORKER_PHASES


def fault_table(summary: dict[str, Any]) -> Table:
    table = Table(title="Faults met by the session (and how the session saw them)")
    table.add_column("fault")
    table.add_column("count", justify="right")
    table.add_column("seen as")
    provider = summary["provider"]
    observed = provider["observed"]
    for kind in FAULT_KINDS:
        seen = ""
        if kind == "transient":
            seen = f"{observed['retried']} retried + {observed['failed_calls']} failed calls (transient + timeout)"
        elif kind == "malformed":
            seen = "handled by the agents (re-prompt, then fallback action)"
        table.add_row(f"provider {kind}", str(provider["injected"].get(kind, 0)), seen)
    for phase in WORKER_PHASES:
        deaths = summary["workers"]["deaths"].get(phase, 0)
        errors = summary["workers"]["store_errors"].get(phase, 0)
        table.add_row(f"worker death in {phase}", str(deaths), "unit redone" if deaths else "")
        if errors:
            table.add_row(f"store error in {phase}", str(errors), "unit redone")
    driver = summary["driver"]
    table.add_row("driver stopped, resumed", str(driver["restarts"]), ", ".join(driver["stopped_at"]))
    table.add_row("Redis restarted", str(summary["store"]["restarts"]), "")
    table.caption = f"{summary['total']} faults in all"
    return table
