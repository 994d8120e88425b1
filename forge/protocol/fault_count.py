"""Every fault a session met, counted from its ledger: the `faults` section of summary.json and MLflow.

Two sources, because they fail differently:

- provider faults (transient errors, timeouts, malformed and empty replies) are counted by the fault
  injector inside each worker and travel back with the work's results into the stage and evaluation
  records. They are the faults of the work the session *kept*: work lost with a killed worker or driver
  is redone under the same per-unit fault plan, and counted once. Beside them, what the product itself
  observed: calls it retried and calls that failed after their retries (for transient errors and
  timeouts, `retried + failed_calls` equals what was injected);
- infrastructure faults (a worker death in training, checkpoint or evaluation, a driver that stopped
  before finishing and was resumed, a Redis server that restarted) are written to the ledger as events
  by the driver the moment it sees them.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterable, Mapping, Optional

from forge.llm.faults import FAULT_KINDS
from forge.protocol.ledger import EvaluationRecord, StageRecord
from forge.protocol.phases import WORKER_PHASES


def _provider(sources: Iterable[Mapping[str, Mapping[str, int]]]) -> Counter[str]:
    total: Counter[str] = Counter({kind: 0 for kind in FAULT_KINDS})
    for per_instance in sources:
        for kinds in per_instance.values():
            total.update(kinds)
    return total


def _observed(tokens: Iterable[Mapping[str, Mapping[str, Mapping[str, int]]]]) -> dict[str, int]:
    retried = failed = 0
    for per_instance in tokens:
        for roles in per_instance.values():
            for usage in roles.values():
                retried += usage.get("retries", 0)
                failed += usage.get("failed", 0)
    return {"retried": retried, "failed_calls": failed}


def fault_summary(stages: list[StageRecord], evaluation: Optional[EvaluationRecord],
                  events: list[dict[str, Any]]) -> dict[str, Any]:
    injected = _provider([r.faults for r in stages] + ([evaluation.faults] if evaluation else []))
    observed = _observed([r.tokens for r in stages] + ([evaluation.tokens] if evaluation else []))
    deaths = Counter({phase: 0 for phase in WORKER_PHASES})
    store_errors = Counter({phase: 0 for phase in WORKER_PHASES})
    driver_stops: list[str] = []
    store_restarts = 0
    for event in events:
        kind = event.get("kind")
        if kind == "worker_death":
            deaths[event.get("phase", "?")] += 1
        elif kind == "worker_store_error":
            store_errors[event.get("phase", "?")] += 1
        elif kind == "driver_restart":
            driver_stops.append(f"{event.get('phase', '?')}@{event.get('stage', 0)}")
        elif kind == "store_restart":
            store_restarts += 1
    provider_total = sum(injected.values())
    return {
        "provider": {"injected": {**dict(injected), "total": provider_total}, "observed": observed},
        "workers": {"deaths": dict(deaths), "store_errors": dict(store_errors)},
        "driver": {"restarts": len(driver_stops), "stopped_at": driver_stops},
        "store": {"restarts": store_restarts},
        "total": provider_total + sum(deaths.values()) + len(driver_stops) + store_restarts,
    }


def fault_metrics(summary: Mapping[str, Any]) -> dict[str, float]:
    """The summary as flat MLflow metric names (`faults.provider.transient`, `faults.worker_deaths.training`...)."""
    metrics = {f"faults.provider.{kind}": float(n) for kind, n in summary["provider"]["injected"].items()}
    metrics.update({f"faults.observed.{k}": float(n) for k, n in summary["provider"]["observed"].items()})
    metrics.update({f"faults.worker_deaths.{phase}": float(n) for phase, n in summary["workers"]["deaths"].items()})
    metrics.update({f"faults.worker_store_errors.{p}": float(n) for p, n in summary["workers"]["store_errors"].items()})
    metrics["faults.driver_restarts"] = float(summary["driver"]["restarts"])
    metrics["faults.store_restarts"] = float(summary["store"]["restarts"])
    metrics["faults.total"] = float(summary["total"])
    return metrics
