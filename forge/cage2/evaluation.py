"""A run's champion through CAGE-2's official protocol (`forge evaluate RUN --protocol cage2`): beside the
package's SleepAgent and one of its scripted blue agents, every cell on the same seeds; the report written
to the run's reports and logged to MLflow (report.py)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

from forge.cage2.agent import ForgeBlueAgent
from forge.cage2.protocol import KnownCheck, PolicyResult, check_known_sleep, protocol_seeds, run_protocol
from forge.cage2.report import known_table, log_protocol, protocol_table, write_protocol_report
from forge.analysis.reporting import markdown_table
from forge.env.package_agents import RawBlueAgent, package_blue_agent
from forge.memory import MemorySnapshot
from forge.runs.tracking import Tags
from forge.wiring import RunMemory, model_label, uses_surrogate

POLICIES = ("champion", "sleep", "scripted")


class UnknownPolicy(ValueError):
    """`policies` names none, or one that is not among POLICIES."""


@dataclass(frozen=True)
class ChampionProtocol:
    """What the protocol gave: each policy's cells, and the sleep policy against the published figures."""

    found: RunMemory
    snapshot: MemorySnapshot
    model: str  # the champion's model, as reports name it (surrogate-labelled)
    seeds: tuple[int, ...]
    results: dict[str, PolicyResult]
    checks: tuple[KnownCheck, ...]
    report: Optional[Path] = None  # reports/cage2_protocol.md, once written
    run_id: Optional[str] = None  # its MLflow run (None with tracking off)

    def tables(self) -> list:
        return [protocol_table(self.results, self.seeds), *([known_table(self.checks)] if self.checks else [])]

    def to_dict(self) -> dict[str, Any]:
        return {"run_dir": str(self.found.run.path), "memory": self.found.key, "memory_digest": self.snapshot.digest,
                "model": self.model, "surrogate": uses_surrogate(self.found.cfg), "seeds": list(self.seeds),
                "policies": {name: result.to_dict() for name, result in self.results.items()},
                "known_sleep": [check.to_dict() for check in self.checks]}

    def markdown(self) -> str:
        found = self.found
        lines = [f"# CAGE-2 official protocol: {found.key}", "",
                 f"Memory {self.snapshot.digest[:12]} ({len(self.snapshot)} items, chosen by {found.chosen_by}); "
                 f"model {self.model}.", f"Seeds (every cell, every policy): {', '.join(map(str, self.seeds))}."]
        for table in self.tables():
            lines += ["", f"## {table.title}", "", *markdown_table(table), *(["", str(table.caption)] if table.caption else [])]
        return "\n".join(lines) + "\n"


def protocol_policies(found: RunMemory, snapshot: MemorySnapshot, names: Sequence[str],
                      scripted: str) -> dict[str, tuple[str, Callable[[], Any]]]:
    """name -> (label, factory of a blue agent) for `names` among POLICIES; UnknownPolicy if one is not."""
    label = model_label(found.cfg)
    known = {
        "champion": (f"{found.key} ({label})", lambda: ForgeBlueAgent(found.cfg, snapshot)),
        "sleep": ("the package's SleepAgent", lambda: RawBlueAgent(package_blue_agent("SleepAgent"))),
        "scripted": (f"the package's {scripted}", lambda: RawBlueAgent(package_blue_agent(scripted))),
    }
    chosen = list(dict.fromkeys(names))
    if not chosen or any(name not in known for name in chosen):
        raise UnknownPolicy(f"choose among {', '.join(POLICIES)}")
    return {name: known[name] for name in chosen}


def evaluate_champion(found: RunMemory, snapshot: MemorySnapshot, policies: dict[str, tuple[str, Callable[[], Any]]], *,
                      episodes: int, on_progress: Optional[Callable[[str, int, int], None]] = None) -> ChampionProtocol:
    """Play the protocol for `policies` (protocol_policies), write reports/cage2_protocol.{md,json} into the
    run, log them to MLflow; `on_progress(policy, cells done, cells)` after each cell."""
    seeds = protocol_seeds(found.cfg.protocol.seed, episodes)
    results = run_protocol(policies, seeds, on_progress=on_progress)
    checks = check_known_sleep(results["sleep"]) if "sleep" in results else ()
    played = ChampionProtocol(found, snapshot, model_label(found.cfg), seeds, results, checks)
    report = write_protocol_report(found.run, played.markdown(), played.to_dict())
    run_id = log_protocol(found.cfg, found.run, results, report,
                          {Tags.SURROGATE: str(uses_surrogate(found.cfg)).lower(), Tags.MEMORY: found.key})
    return dataclasses.replace(played, report=report, run_id=run_id)
