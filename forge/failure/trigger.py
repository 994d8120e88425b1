"""The reward trigger: when does a step count as a failure? Pure decisions over per-step rewards, tested without a model.

(A rule's *trigger node*, the decision context it is retrieved by, is another thing:
`forge.rulebook.authoring.trigger_node`.)

Single threshold (the paper): the first step whose reward is below `tau` aborts the episode.

Multi-threshold (the paper's open question), as implemented here: thresholds are severity levels. The
first crossing of each level is a separate failure event that the learner reflects on; the episode is
aborted when the most severe level is first crossed (or runs to its end). `[-1.1]` is the single-threshold
rule; `[-1.1, -10]` lets an episode continue past early, mild failures so that the learner also sees
the step where the operational server is impacted.

Rewards are compared with a small tolerance: CAGE-2 rewards are multiples of 0.1, and Restore's -1.0
or a -1.1 step must never count as "below -1.1" through float noise.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

_EPS = 1e-9


@dataclass(frozen=True)
class FailureEvent:
    step: int  # 1-based environment step
    reward: float
    threshold: float


def is_failure(reward: float, threshold: float) -> bool:
    return reward < threshold - _EPS


class FailureTrigger:
    """A per-episode state machine: feed each step's reward, learn which failure events fired."""

    def __init__(self, thresholds: Sequence[float]) -> None:
        if not thresholds:
            raise ValueError("a failure trigger needs at least one threshold")
        self.thresholds = tuple(sorted({float(t) for t in thresholds}, reverse=True))  # mild -> severe
        self.events: list[FailureEvent] = []
        self.aborted_at: int | None = None

    def observe(self, step: int, reward: float) -> list[FailureEvent]:
        """The events this step fires (first crossings only). Sets `aborted_at` at the most severe one."""
        if self.aborted_at is not None:
            raise RuntimeError(f"episode already aborted at step {self.aborted_at}")
        fired_levels = {e.threshold for e in self.events}
        fired = [
            FailureEvent(step, reward, t) for t in self.thresholds if t not in fired_levels and is_failure(reward, t)
        ]
        self.events.extend(fired)
        if is_failure(reward, self.thresholds[-1]):
            self.aborted_at = step
        return fired

    @property
    def aborted(self) -> bool:
        return self.aborted_at is not None


def failure_events(rewards: Sequence[float], thresholds: Sequence[float]) -> tuple[list[FailureEvent], int | None]:
    """Replay a whole reward sequence: (events, abort step or None). Steps are 1-based."""
    trigger = FailureTrigger(thresholds)
    for step, reward in enumerate(rewards, start=1):
        trigger.observe(step, reward)
        if trigger.aborted:
            break
    return trigger.events, trigger.aborted_at


def thresholds_of(tau: float, thresholds: Sequence[float]) -> tuple[float, ...]:
    """The configured levels: `protocol.thresholds` if given, else `[tau]`."""
    return tuple(thresholds) if thresholds else (tau,)
