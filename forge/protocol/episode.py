"""One episode of the defender in the environment, traced step by step.

The trace records, per step: the observation text, every model call (role, tokens, latency, injected
memory), the tools used, the action and whether it was a fallback, the reward and its per-host
breakdown, and red's action. With a failure trigger the episode stops at the trigger's abort step and
keeps red's real access at that moment for the failure snapshot.

An `operator` (forge episode --operator / --override) sees each proposed action before it is taken and
may replace it; the step then records the override (proposed action, executed action, reason). An
operator's Ctrl-C ends the episode with `EpisodeInterrupted`, which carries the steps played so far. When
the episode ends, its memory injection says what the trace keeps of it (`annotate_episode`: with rulebook
injection, the aftermath of every injected rule, forge.rulebook.outcomes.aftermath).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Callable, Optional

from agents.defender import Defender, StepDecision
from forge.env.cage2 import Cage2Env
from forge.env.text_view import render_alerts
from forge.failure.snapshot import StepRecord
from forge.failure.trigger import FailureEvent, FailureTrigger
from forge.llm.types import ModelCall
from forge.rulebook.outcomes.aftermath import Aftermath, BookNotes, StepSeen


@dataclass(frozen=True)
class Override:
    """An operator's answer at a step: execute this action instead of the proposed one."""

    action: int  # the action id to execute instead
    reason: str


@dataclass(frozen=True)
class Overridden:
    """What a step's trace keeps of an override (the keys recorded traces have always had)."""

    proposed: str  # the agent's action, in words
    action: str  # the action executed instead
    reason: str


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
    override: Optional[Overridden] = None  # when an operator replaced the action

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
    rulebook: Optional[BookNotes] = None  # book version and eligible rules (rulebook injection)
    aftermath: tuple[Aftermath, ...] = ()  # one entry per (step, injected rule)
    interrupted_at: Optional[int] = None  # the step an operator's Ctrl-C interrupted (its trace ends before it)

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


class EpisodeInterrupted(KeyboardInterrupt):
    """An operator's Ctrl-C (or end of input) during an episode. A KeyboardInterrupt still (whoever did
    not ask for the partial episode stops as before), carrying the steps played so far: the corrections
    taught at those steps cite their trace as evidence, so the caller can still write it."""

    def __init__(self, partial: "EpisodeResult") -> None:
        super().__init__(f"interrupted at step {partial.interrupted_at}")
        self.partial = partial


# (step number, the defender's proposed decision, the environment view it decided on) -> an override or None
Operator = Callable[[int, StepDecision, object], Optional[Override]]


def play_episode(env: Cage2Env, defender: Defender, *, seed: int, trigger: Optional[FailureTrigger] = None,
                 operator: Optional[Operator] = None) -> EpisodeResult:
    env.reset(seed=seed)
    defender.start_episode(env, seed)
    result = EpisodeResult(seed=seed)
    try:
        done = False
        while not done:
            before = env.view()
            decision = defender.act(env)
            override = None
            if operator is not None:
                chosen = operator(before.step + 1, decision, before)
                if chosen is not None:
                    proposed = decision.action_text
                    decision = defender.override(decision, chosen.action, before.step + 1)
                    override = Overridden(proposed, decision.action_text, chosen.reason)
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
                    override=override,
                )
            )
            if trigger is not None:
                result.events.extend(trigger.observe(info["step"], reward))
                if trigger.aborted:
                    result.aborted_at = info["step"]
                    result.red_access_at_abort = env.true_state()
                    break
    except (KeyboardInterrupt, EOFError) as exc:
        if isinstance(exc, EOFError) and operator is None:
            raise  # no operator's input ended: not an interruption
        result.interrupted_at = len(result.steps) + 1
        raise EpisodeInterrupted(result) from exc
    notes = defender.injection.annotate_episode([_seen(s) for s in result.steps], complete=result.aborted_at is None)
    result.rulebook, result.aftermath = notes.rulebook, notes.aftermath
    return result


def _seen(step: StepTrace) -> StepSeen:
    refs = tuple(dict.fromkeys(ref for ids in step.injected.values() for ref in ids))
    return StepSeen(step.step, step.observation, step.action, step.reward, refs,
                    step.override.proposed if step.override else None)
