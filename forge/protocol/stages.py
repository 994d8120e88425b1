"""The outer loop's decisions after each stage (Algorithm 2), as pure functions of the checkpoint scores.

Like a Ray Tune scheduler, the decision interface is small and explicit: given the active instances and
their checkpoint returns, say who graduates, who is the champion and whose memory is replaced. The
driver carries the decision out (freeze, pointer-copy broadcast) and records it in the ledger.

Conditions:
- zero_shot:     no training at all (only the final evaluation), so no stage decisions;
- reflexion:     graduation above theta; no broadcast;
- forge:         graduation above theta, then the champion's memory is broadcast to every instance
                 still active;
- forge_no_grad: broadcast every stage, nobody graduates.

The champion is chosen among the instances that were active at the checkpoint (including those that
graduate on it: their memory is the best evidence the stage produced). Ties break by instance name, so a
decision never depends on dict or scheduling order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Optional, Sequence

from forge.config import Arm


@dataclass(frozen=True)
class StageDecision:
    graduated: tuple[str, ...]
    champion: Optional[str]
    broadcast_to: tuple[str, ...]
    still_active: tuple[str, ...]


def ranked(scores: Mapping[str, float], among: Sequence[str]) -> list[str]:
    """Best first; equal scores in instance-name order."""
    return sorted(among, key=lambda i: (-scores[i], i))


def graduates(scores: Mapping[str, float], active: Sequence[str], theta: float, arm: Arm) -> list[str]:
    if arm not in (Arm.reflexion, Arm.forge):
        return []
    return sorted(i for i in active if scores[i] > theta)


def champion(scores: Mapping[str, float], active: Sequence[str]) -> Optional[str]:
    order = ranked(scores, active)
    return order[0] if order else None


def decide_stage(scores: Mapping[str, float], active: Sequence[str], theta: float, arm: Arm) -> StageDecision:
    missing = [i for i in active if i not in scores]
    if missing:
        raise ValueError(f"no checkpoint score for active instances {missing}")
    graduated = graduates(scores, active, theta, arm)
    still_active = tuple(sorted(i for i in active if i not in graduated))
    best = None
    targets: tuple[str, ...] = ()
    if arm in (Arm.forge, Arm.forge_no_grad):
        best = champion(scores, active)
        targets = tuple(i for i in still_active if i != best)
    return StageDecision(tuple(graduated), best, targets, still_active)
