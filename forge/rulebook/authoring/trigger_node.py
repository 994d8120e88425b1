"""Trigger nodes of rules: the decision context just before a mistake, as a DecisionNode.

Not to be confused with the reward trigger (`forge.failure.trigger.FailureTrigger`), which decides
during an episode that a step's reward is a failure; this module works afterwards, on the failure
snapshot that decision left, and gives the rule written from it the context it is retrieved by.

A FORGE rule was written from a failure snapshot; its trigger is the Planner's observation at the
failing step (the context in which the costly action was chosen), with the observations of the steps
before it (bounded) as its accumulated context. The snapshot is found through the rule's memory
provenance: `failure_id(instance, stage, attempt)` under `<run_dir>/failures/`.

A rule with no failure behind it (a human correction, or a memory item whose snapshot is gone) is
forged from a stated context instead: the `--context` a human gives, or the situation the compiler
names (for a grammar rule, its When-clause).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from forge.failure.snapshot import FailureSnapshot, failure_id
from forge.memory.model import MemoryItem
from forge.rulebook.model import DecisionNode


@dataclass(frozen=True)
class TriggerNode:
    """A rule's trigger node taken from a failure: the failing step's decision node, the failure, the step."""

    node: DecisionNode
    failure: FailureSnapshot
    step: int


def failure_path(run_dir: Path, item: MemoryItem) -> Optional[Path]:
    """Where the failure snapshot behind a learned memory item is saved, if its provenance says."""
    p = item.provenance
    if p.instance is None or p.stage is None or p.attempt is None:
        return None
    return Path(run_dir) / "failures" / f"{failure_id(p.instance, p.stage, p.attempt)}.json"


def node_from_failure(failure: FailureSnapshot, window: int) -> TriggerNode:
    """The failing step's observation, after up to `window` earlier observations."""
    steps = list(failure.steps)
    failing = next((s for s in reversed(steps) if s.step == failure.failing_step), steps[-1])
    index = steps.index(failing)
    before = tuple(s.observation for s in steps[max(0, index - max(window, 0)):index])
    return TriggerNode(DecisionNode(failing.observation, before), failure, failing.step)


class FailureLibrary:
    """Failure snapshots of one run directory, loaded once each."""

    def __init__(self, run_dir: Optional[Path]) -> None:
        self.run_dir = Path(run_dir) if run_dir else None
        self._loaded: dict[Path, Optional[FailureSnapshot]] = {}

    def for_item(self, item: MemoryItem) -> Optional[FailureSnapshot]:
        if self.run_dir is None:
            return None
        path = failure_path(self.run_dir, item)
        if path is None:
            return None
        if path not in self._loaded:
            try:
                self._loaded[path] = FailureSnapshot.load(path) if path.is_file() else None
            except (OSError, ValueError, KeyError, TypeError):
                self._loaded[path] = None  # an unreadable snapshot: the rule falls back to a stated trigger
        return self._loaded[path]


def stated_node(text: str) -> DecisionNode:
    return DecisionNode(" ".join(text.split()))
