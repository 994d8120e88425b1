"""What a worker's unit of work sends back to the driver (workers/instance_actor.py -> workers/driver.py).

Frozen values, pickled by Ray. The counts they carry (attempt summaries, usage by role, provider faults)
keep the plain-dict form the ledger stores them in (forge.protocol.ledger.StageRecord), so the driver
copies them into its records as they are.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from forge.rundir import Artifacts

# role -> counts ("prompt", "completion", "calls", "retries", "failed", cached, replayed, reply outcomes)
Usage = dict[str, dict[str, int]]


@dataclass(frozen=True)
class MemoryHead:
    """An instance's memory as its unit left it."""

    version: int  # 0: never written
    digest: str
    frozen: bool
    rules: int
    examples: int


@dataclass(frozen=True)
class TrainingResult:
    """A stage's training (Algorithm 1) of one instance."""

    attempts: list[dict[str, Any]]  # one summary per attempt, as the ledger's StageRecord.attempts keeps it
    failures: int
    usage: Usage
    faults: dict[str, int]  # provider faults injected, by kind (empty with faults off)
    head: MemoryHead
    seconds: float
    artifacts: Artifacts = field(default_factory=Artifacts)  # traces and failure snapshots, for the driver to write

    def line(self) -> str:
        return f"trained: {len(self.attempts)} attempts, {self.failures} failures"


@dataclass(frozen=True)
class PlayResult:
    """Frozen episodes of one instance: a stage's checkpoint or the final evaluation."""

    returns: list[float]
    usage: Usage
    faults: dict[str, int]
    digest: str  # the memory played
    seconds: float
    artifacts: Artifacts = field(default_factory=Artifacts)

    @property
    def mean_return(self) -> float:
        return sum(self.returns) / len(self.returns)

    def line(self) -> str:
        return f"return {self.mean_return:+.1f}"


UnitResult = TrainingResult | PlayResult
