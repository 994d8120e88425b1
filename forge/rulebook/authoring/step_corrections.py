"""Corrections anchored at a decision point of a trace (`forge correct`, `forge episode --operator`).

The trigger node of such a correction *is* the step's recorded decision context: the Planner's
observation at that step, after up to `rulebook.context_window` earlier observations (the same shape as
a failure's trigger node, trigger.node_from_failure). Its evidence cites the trace, the episode seed and
the step. A correction made where the agent followed learned rules, and that asks for something else,
CORRECTS those rules (the chain `forge rulebook history RULE --chain` prints).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Optional, Sequence

from forge.env.catalog import ACTIONS, QUIET_ACTIVITY, QUIET_COMPROMISE, ActionParseError, action_name, parse_action
from forge.rulebook.language.action import Adherence
from forge.rulebook.outcomes.aftermath import Aftermath, StepSeen, episode_aftermath
from forge.rulebook.language.meaning import meaning_of
from forge.rulebook.model import DecisionNode, RuleRecord, RulebookError, RuleRef
from forge.rulebook.language.situation import SOME, read_situation


@dataclass(frozen=True)
class TraceStep:
    """One recorded decision point."""

    source: str  # `trace:<session>/<instance>/<label>#step<N>, seed <S>`
    step: int
    seed: int
    observation: str
    action: str
    reward: float
    injected: tuple[str, ...]  # rule refs that reached the step's calls
    followed: tuple[str, ...]  # rule refs the aftermath judged followed at this step
    node: DecisionNode


def decision_node(observations: Sequence[str], index: int, window: int) -> DecisionNode:
    before = tuple(observations[max(0, index - max(window, 0)):index])
    return DecisionNode(observations[index], before)


def step_source(session: str, instance: str, label: str, step: int, seed: int) -> str:
    return f"trace:{session}/{instance}/{label}#step{step}, seed {seed}"


def _listing(names: Sequence[str], limit: int = 12) -> str:
    names = list(names)
    shown = ", ".join(names[:limit])
    return (shown + f", … ({len(names)} in all)") if len(names) > limit else (shown or "none")


def trace_path(run_dir: str | Path, instance: str, label: str) -> Path:
    """The trace file of an episode; errors list the instances or episodes that do exist."""
    traces = Path(run_dir) / "traces"
    if not Path(run_dir).is_dir():
        raise RulebookError(f"run directory {str(run_dir)!r} does not exist")
    instances = sorted(p.name for p in traces.iterdir() if p.is_dir()) if traces.is_dir() else []
    if instance not in instances:
        raise RulebookError(f"no instance {instance!r} with traces in {run_dir} (instances: {_listing(instances)})")
    labels = sorted(p.stem for p in (traces / instance).glob("*.json"))
    if label not in labels:
        raise RulebookError(f"no episode {label!r} of instance {instance} in {run_dir} (episodes: {_listing(labels)})")
    return traces / instance / f"{label}.json"


def load_trace_step(run_dir: str | Path, instance: str, label: str, step: int, window: int) -> TraceStep:
    path = trace_path(run_dir, instance, label)
    try:
        data = json.loads(path.read_text())
        steps = data["steps"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise RulebookError(f"trace {path} is unreadable ({type(exc).__name__})") from None
    numbers = [s.get("step") for s in steps]
    if step not in numbers:
        shown = f"{numbers[0]}..{numbers[-1]}" if numbers else "none"
        raise RulebookError(f"episode {label} of {instance} has no step {step} (steps: {shown})")
    index = numbers.index(step)
    chosen = steps[index]
    refs = tuple(dict.fromkeys(r for ids in (chosen.get("injected") or {}).values() for r in ids))
    try:
        aftermath = [Aftermath.from_dict(a) for a in data.get("aftermath", ())]
    except (KeyError, TypeError, ValueError) as exc:
        raise RulebookError(f"trace {path}: unreadable aftermath ({exc})") from None
    followed = tuple(dict.fromkeys(a.rule for a in aftermath if a.step == step and a.judged is Adherence.FOLLOWED))
    session = str(data.get("session") or Path(run_dir).name)
    seed = int(data.get("seed", 0))
    return TraceStep(step_source(session, instance, label, step, seed), step, seed, chosen["observation"],
                     chosen["action"], float(chosen.get("reward", 0.0)), refs, followed,
                     decision_node([s["observation"] for s in steps], index, window))


def corrected_learned_rules(followed_refs: Sequence[str], records: Mapping[str, RuleRecord],
                            agent_action: str, corrected_action: Optional[str]) -> tuple[str, ...]:
    """The learned rules (taught by no person) the agent followed at the step, when the correction asks
    for a different action than the agent took; () otherwise."""
    if corrected_action is not None and _canonical(corrected_action) == _canonical(agent_action):
        return ()
    out = []
    for ref in followed_refs:
        rid = RuleRef.parse(ref).rule_id
        record = records.get(rid)
        if record is not None and record.actors and not any(a.startswith("user:") for a in record.actors):
            out.append(rid)
    return tuple(dict.fromkeys(out))


def _canonical(text: str) -> Optional[int]:
    try:
        return parse_action(text)
    except ActionParseError:
        return None


def override_rule_text(action_text: str, observation: str) -> Optional[str]:
    """An operator's override as a grammar rule anchored on what the step showed of the acted-on host:
    `When <host> shows <its compromise or activity>, then <action>.` None when the action names no host
    or the context states nothing about it (the override is then compiled as free text)."""
    action = ACTIONS[parse_action(action_text)]
    host = action.host
    if not host:
        return None
    action_text = action_name(action.id)
    states = read_situation(observation).states(host)
    for activity, compromise in states:
        if compromise not in (None, QUIET_COMPROMISE, SOME):
            return f"When {host} shows Compromised {compromise}, then {action_text}."
    for activity, compromise in states:
        if activity not in (None, QUIET_ACTIVITY, SOME):
            return f"When {host} shows Activity {activity}, then {action_text}."
    return None


QUIET_WHEN = {"not": {"any": [{"class": "any", "activity": "any"}, {"class": "any", "compromise": "any"}]}}


def situation_trigger(observation: str) -> tuple[dict, str]:
    """The trigger a step's situation gives, as (predicate JSON, the condition in words): every host the
    step shows with a status, each by its clearest signal (compromise, else activity); a step that shows
    none is quiet. For an override or a step correction that states no condition of its own: it meant
    *that* situation, not every step that merely shows its target host."""
    situation = read_situation(observation)
    atoms, words = [], []
    for host in situation.shown():
        for activity, compromise in situation.states(host):
            if compromise not in (None, QUIET_COMPROMISE, SOME):
                atoms.append({"host": host, "compromise": compromise})
                words.append(f"{host} shows Compromised {compromise}")
                break
            if activity not in (None, QUIET_ACTIVITY, SOME):
                atoms.append({"host": host, "activity": activity})
                words.append(f"{host} shows Activity {activity}")
                break
    if not atoms:
        return QUIET_WHEN, "no host shows activity or compromise"
    return (atoms[0] if len(atoms) == 1 else {"all": atoms}), " and ".join(words)


def followed_at(refs: Sequence[str], records: Mapping[str, RuleRecord], observation: str, action: str) -> tuple[str, ...]:
    """The injected rule refs whose trigger holds on `observation` and that `action` follows (live, for
    operator mode; a recorded trace has this in its aftermath)."""
    meanings = {ref: meaning_of(records[RuleRef.parse(ref).rule_id]) for ref in refs if RuleRef.parse(ref).rule_id in records}
    entries = episode_aftermath([StepSeen(0, observation, action, 0.0, tuple(refs))], meanings, window=1,
                                threshold=float("-inf"))
    return tuple(e.rule for e in entries if e.judged is Adherence.FOLLOWED)
