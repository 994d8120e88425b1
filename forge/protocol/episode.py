"""One episode of the defender in the environment, traced step by step.

The trace records, per step: the observation text, every model call (role, tokens, latency, injected
memory), the tools used, the action and whether it was a fallback, the reward and its per-host
breakdown, and red's action. With a failure trigger the episode stops at the trigger's abort step and
keeps red's real access at that moment for the failure snapshot.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Optional

from agents.defender import Defender, ModelCall
from forge.env.cage2 import Cage2Env
from forge.env.text_view import render_alerts
from forge.protocol.failure import StepRecord
from forge.protocol.trigger import FailureEvent, FailureTrigger


@dataclass
class StepTrace:
    step: int
    observation: str
    alerts: str
    action: str
    action_id: int
    fallback: bool
    fallback_reason: Optional[str]
    reward: float
    reward_breakdown: dict[str, float]
    red_action: str
    changed: list[str]
    tools: list[str]
    calls: list[ModelCall]
    injected: dict[str, list[str]]

    @property
    def prompt_tokens(self) -> int:
        return sum(c.prompt_tokens for c in self.calls)

    @property
    def completion_tokens(self) -> int:
        return sum(c.completion_tokens for c in self.calls)

    @property
    def memory_tokens(self) -> int:
        """Tokens of learned memory placed in this step's prompts, over all calls."""
        return sum(c.injected_tokens for c in self.calls)


@dataclass
class EpisodeResult:
    seed: int
    steps: list[StepTrace] = field(default_factory=list)
    events: list[FailureEvent] = field(default_factory=list)
    aborted_at: Optional[int] = None
    red_access_at_abort: dict[str, str] = field(default_factory=dict)

    @property
    def total_return(self) -> float:
        return round(sum(s.reward for s in self.steps), 1)

    @property
    def failed(self) -> bool:
        return bool(self.events)

    @property
    def fallbacks(self) -> int:
        return sum(s.fallback for s in self.steps)

    def step_records(self) -> tuple[StepRecord, ...]:
        return tuple(
            StepRecord(s.step, s.observation, s.alerts, s.action, s.reward, s.red_action, s.fallback) for s in self.steps
        )

    def to_dict(self) -> dict:
        data = asdict(self)
        data["total_return"] = self.total_return
        return data


def one_line_alerts(alerts_text: str) -> str:
    lines = [line for line in alerts_text.splitlines() if ": Activity" in line]
    return "; ".join(lines) if lines else "none"


def play_episode(env: Cage2Env, defender: Defender, *, seed: int, trigger: Optional[FailureTrigger] = None) -> EpisodeResult:
    env.reset(seed=seed)
    defender.start_episode(env, seed)
    result = EpisodeResult(seed=seed)
    done = False
    while not done:
        before = env.view()
        decision = defender.act(env)
        _, reward, terminated, truncated, info = env.step(decision.action)
        defender.record_outcome(reward)
        done = terminated or truncated
        result.steps.append(
            StepTrace(
                step=info["step"],
                observation=decision.observation,
                alerts=one_line_alerts(render_alerts(before)),
                action=decision.action_text,
                action_id=decision.action,
                fallback=decision.fallback,
                fallback_reason=decision.fallback_reason,
                reward=reward,
                reward_breakdown={h: round(v["confidentiality"] + v["availability"], 1)
                                  for h, v in info["reward_breakdown"].items()},
                red_action=info["red_action"],
                changed=list(info["changed_hosts"]),
                tools=decision.tools,
                calls=decision.calls,
                injected=decision.injected,
            )
        )
        if trigger is not None:
            result.events.extend(trigger.observe(info["step"], reward))
            if trigger.aborted:
                result.aborted_at = info["step"]
                result.red_access_at_abort = env.true_state()
                break
    return result
