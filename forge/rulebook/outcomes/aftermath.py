"""What happened after each injection of a rule: did its trigger hold, did the agent follow it, what followed. Pure.

For every rule that reached any model call of a step (stage-1 pair or system prompt), one entry:

    held       the rule's trigger predicate on the step's decision context (the Planner's observation);
               None for a semantic rule (no predicate: nothing to check)
    judged     followed | ignored | contradicted (forge.rulebook.language.action.judge on the chosen action, with
               `$matched` standing for the hosts the trigger matched), only when the trigger held and
               the rule has an action; None otherwise (a rule whose trigger does not hold asks nothing)
    reward     the step's reward
    window_return  the rewards of the step and the next `window` steps, summed: what the decision cost
               over its aftermath (None when the episode ended before the window did)
    operator   at a step an operator overrode (`forge episode --operator / --override`): `contradicted`
               when the operator's action contradicts the rule, or the agent's proposal followed it and the
               operator replaced it (the operator rejected what the rule said); `agreed` otherwise; None at a
               step nobody overrode, or for a rule with no action to judge. The live harm figure of
               `forge rulebook stats`: injected rules the operator then contradicted.
    failure    whether a failure fired in the next `window` steps: a reward below the session's abort
               level (its most severe failure threshold; `protocol.tau` unless `protocol.thresholds`
               adds levels; forge.failure.trigger.is_failure); None when the episode ended before the
               window did and no failure fired in what there was (the outcome is unknown)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Mapping, Optional, Sequence

from forge.failure.trigger import is_failure
from forge.rulebook.language.action import Adherence, judge
from forge.rulebook.language.meaning import Meaning
from forge.rulebook.language.predicate import holds, matched_hosts
from forge.rulebook.language.situation import read_situation
from forge.rulebook.model import RuleRef


@dataclass(frozen=True)
class StepSeen:
    """What aftermath needs of one step of a trace."""

    step: int
    context: str  # the decision context (the Planner's observation)
    action: str  # the action taken (after an operator's override, if any)
    reward: float
    injected: tuple[str, ...]  # rule refs `<rule id>@v<n>` that reached any call of the step
    proposed: Optional[str] = None  # the agent's action, where an operator replaced it


@dataclass(frozen=True)
class Aftermath:
    step: int
    rule: str  # `<rule id>@v<n>`
    held: Optional[bool]
    judged: Optional[Adherence]
    reward: float
    failure: Optional[bool]
    window_return: Optional[float] = None
    operator: Optional[str] = None  # contradicted | agreed, at a step an operator overrode

    def __post_init__(self) -> None:
        if self.judged is not None:  # a trace's JSON gives the plain string
            object.__setattr__(self, "judged", Adherence(self.judged))

    @property
    def rule_id(self) -> str:
        return RuleRef.parse(self.rule).rule_id

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping) -> "Aftermath":
        window_return = data.get("window_return")
        operator = data.get("operator")
        return cls(int(data["step"]), str(data["rule"]), data.get("held"), data.get("judged"),
                   float(data.get("reward", 0.0)), data.get("failure"),
                   None if window_return is None else float(window_return),
                   operator if operator in ("contradicted", "agreed") else None)


@dataclass(frozen=True)
class BookNotes:
    """What a trace keeps of the rulebook an episode was played with (its `rulebook` entry)."""

    book_version: int
    window: int  # the aftermath window
    threshold: float  # the failure threshold the aftermath judged with
    eligible: tuple[str, ...]  # the CONTENT rules that could have been injected
    withheld: tuple[str, ...] = ()  # rule ids taken out of the book (an ablation)


@dataclass(frozen=True)
class EpisodeNotes:
    """What an injection adds to an episode's trace when the episode ends: the rulebook it read (None
    without a rulebook) and one aftermath entry per (step, injected rule)."""

    rulebook: Optional[BookNotes] = None
    aftermath: tuple[Aftermath, ...] = ()


def failure_ahead(rewards: Sequence[float], index: int, window: int, threshold: float, *,
                  complete: bool) -> Optional[bool]:
    """Whether a failure fires in the `window` steps after position `index`; None if unknown (the trace
    stops before the window ends, e.g. an aborted attempt, and shows none in what it has)."""
    ahead = rewards[index + 1: index + 1 + window]
    if any(is_failure(r, threshold) for r in ahead):
        return True
    if len(ahead) < window and not complete:
        return None
    return False


def window_return(rewards: Sequence[float], index: int, window: int) -> Optional[float]:
    """The step's reward plus the next `window` rewards; None when the trace ends before the window does."""
    span = rewards[index: index + 1 + window]
    return round(sum(span), 6) if len(span) == window + 1 else None


def operator_verdict(action, proposed: str, executed: str, matched: Sequence[str]) -> str:
    """How an operator's override at a step stood to an injected rule: `contradicted` when the executed action
    contradicts it, or the proposal did what the rule prescribes and the operator chose something else (a
    prohibition is followed by any other action, so replacing one is no disagreement); else `agreed`."""
    if judge(action, executed, matched) is Adherence.CONTRADICTED:
        return "contradicted"
    if action.mode != "never" and judge(action, proposed, matched) is Adherence.FOLLOWED and proposed != executed:
        return "contradicted"  # the agent did what the rule asks and the operator would not have it
    return "agreed"


def episode_aftermath(steps: Sequence[StepSeen], meanings: Mapping[str, Meaning], *, window: int,
                      threshold: float, complete: bool = True) -> list[Aftermath]:
    """One entry per (step, injected rule) over an episode. `meanings`: rule ref -> its meaning (a ref
    missing from it is recorded as semantic). `complete`: the episode ran to its horizon (a frozen
    episode) rather than stopping at a failure."""
    rewards = [s.reward for s in steps]
    out: list[Aftermath] = []
    for index, step in enumerate(steps):
        if not step.injected:
            continue
        situation = read_situation(step.context)
        failure = failure_ahead(rewards, index, window, threshold, complete=complete)
        ahead = window_return(rewards, index, window)
        for ref in dict.fromkeys(step.injected):
            meaning = meanings.get(ref, Meaning())
            held: Optional[bool] = None
            judged: Optional[Adherence] = None
            operator: Optional[str] = None
            if meaning.when is not None:
                held = holds(meaning.when, situation)
                matched = matched_hosts(meaning.when, situation)
                if held and meaning.action is not None:
                    judged = judge(meaning.action, step.action, matched)
                if step.proposed is not None and meaning.action is not None:
                    operator = operator_verdict(meaning.action, step.proposed, step.action, matched)
            out.append(Aftermath(step.step, ref, held, judged, step.reward, failure, ahead, operator))
    return out
