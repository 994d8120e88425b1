"""What a worker's unit of work sends back to the driver (workers/instance_actor.py -> workers/driver.py).

Frozen values, pickled by Ray: typed records (the attempts, the usage by role); the driver turns them
into the plain counts the session ledger stores (forge.protocol.ledger.StageRecord) when it writes them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from forge.llm.accounting import UsageTotals
from forge.protocol.inner_loop import AttemptRecord
from forge.runs.rundir import Artifacts


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

    attempts: tuple[AttemptRecord, ...]  # without their learner calls (the traces keep those)
    failures: int
    usage: UsageTotals
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
    usage: UsageTotals
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
