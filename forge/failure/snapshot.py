"""The failure snapshot: what the learning agents read, and what the rulebook later takes trigger nodes from.

Taken when the failure trigger aborts an episode: the trajectory up to and including the failing step
and which memory the agent ran with. With `learner.feedback=paper` (the default) that is all: what the
defender observed and did, the failing step, its reward and the threshold. With `privileged` the snapshot
also holds the environment's state at that moment (the per-host reward breakdown and red's real
access), information the defender never observes; `feedback` records which. Stored as JSON in the run
directory (`failures/<failure_id>.json`).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from forge.failure.trigger import FailureEvent
from forge.plumbing.redact import mask_urls_in


@dataclass(frozen=True)
class StepRecord:
    step: int
    observation: str  # the Planner's observation message for this step: the decision context
    alerts: str  # one line: the non-quiet hosts of the blue table before the action
    action: str
    reward: float
    red_action: str
    fallback: bool = False


@dataclass(frozen=True)
class FailureSnapshot:
    failure_id: str
    session: str
    instance: str
    stage: int
    attempt: int
    seed: int
    max_steps: int
    events: tuple[FailureEvent, ...]
    steps: tuple[StepRecord, ...]  # up to and including the failing step
    reward_breakdown: dict[str, float]  # per host, at the failing step (privileged feedback only)
    red_access: dict[str, str]  # ground truth at the failing step: None / User / Privileged (privileged only)
    memory_digest: str
    model: str
    feedback: str = "paper"  # paper | privileged: what the learners were shown

    @property
    def privileged(self) -> bool:
        return self.feedback == "privileged"

    @property
    def failing_step(self) -> int:
        return self.events[-1].step

    @property
    def failing_reward(self) -> float:
        return self.events[-1].reward

    @property
    def threshold(self) -> float:
        return self.events[-1].threshold

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "FailureSnapshot":
        data = dict(data)
        data["events"] = tuple(FailureEvent(**e) for e in data["events"])
        data["steps"] = tuple(StepRecord(**s) for s in data["steps"])
        data.setdefault("feedback", "privileged")  # snapshots from before the option always carried it
        return cls(**data)

    def save(self, directory: Path) -> Path:
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / f"{self.failure_id}.json"
        tmp = path.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(mask_urls_in(self.to_dict()), indent=1))
        tmp.replace(path)  # atomic: a killed process never leaves half a snapshot
        return path

    @classmethod
    def load(cls, path: Path) -> "FailureSnapshot":
        return cls.from_dict(json.loads(Path(path).read_text()))


def failure_id(instance: str, stage: int, attempt: int) -> str:
    return f"{instance.replace('/', '_')}-s{stage}-a{attempt}"
