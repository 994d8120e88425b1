"""The learning agents: the Reflector writes rules, the Exemplifier writes worked examples.

Both read a failure report and the current memory of the roles they may change, and answer in JSON.
The report is what the paper's Reflector gets (`learner.feedback=paper`, the default): the trajectory
(what the defender observed and did at each step, and the reward), the failing step, its reward and the
threshold. `learner.feedback=privileged` adds, labelled as ground truth, CybORG's per-host reward
breakdown, red's real access at the failing step and red's action at each step. Their output is untrusted: it is parsed defensively (one corrective re-prompt), bounded (a few
items per role, short texts), and confined to the roles in `agents_to_improve` and to items that exist
in the memory they were shown. Nothing here writes to memory; the inner loop applies the proposals.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Optional, Sequence

from agents.prompting import render
from agents.schemas import exemplifier_schema, reflector_schema
from forge.env.catalog import action_reference
from forge.failure.snapshot import FailureSnapshot
from forge.llm.json_reply import ask_for_json, call_records
from forge.llm.types import ChatClient, Message, ModelCall

MAX_RULE_CHARS = 300
MAX_EXAMPLE_CHARS = 1200
MAX_NAME_CHARS = 60
MAX_REPLY_CHARS = 12000
MAX_DELETIONS = 20
FAILURE_REPORT_HEADER = "Failure report"


@dataclass(frozen=True)
class Proposal:
    role: str
    kind: str  # "rule" | "example"
    text: str
    title: Optional[str] = None


@dataclass
class LearnerOutput:
    proposals: list[Proposal] = field(default_factory=list)
    deletions: list[str] = field(default_factory=list)  # item ids, all from the memory the learner was shown
    rationale: dict[str, str] = field(default_factory=dict)
    calls: list[ModelCall] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # what was rejected, and why


def render_failure_report(failure: FailureSnapshot) -> str:
    """One line per step: compact on purpose (the public artifact's reflection prompt was 98 % raw trajectory)."""
    events = "; ".join(f"step {e.step} reward {e.reward:+.1f} below {e.threshold:+.1f}" for e in failure.events)
    lines = [
        f"{FAILURE_REPORT_HEADER} (stage {failure.stage}, attempt {failure.attempt}, episode of {failure.max_steps} steps):",
        f"Failure: {events}.",
    ]
    if failure.privileged:
        worst = sorted(((v, h) for h, v in failure.reward_breakdown.items() if v < 0))
        lines += [
            "Reward at the failing step by host: " + (", ".join(f"{h} {v:+.1f}" for v, h in worst) or "none negative"),
            "Attacker access at the failing step (ground truth): "
            + (", ".join(f"{h} {a}" for h, a in failure.red_access.items() if a != "None") or "none"),
        ]
    lines.append("Trajectory up to the failure (alerts are what the defender saw before acting):")
    for s in failure.steps:
        fallback = " (fallback)" if s.fallback else ""
        attacker = f" | attacker: {s.red_action}" if failure.privileged else ""
        lines.append(f"step {s.step} | alerts: {s.alerts} | action: {s.action}{fallback} | reward {s.reward:+.1f}{attacker}")
    return "\n".join(lines)


def _object_keyed_by_role(data: Any) -> dict:
    if not isinstance(data, dict):
        raise ValueError("the reply's JSON is not an object keyed by role")
    return data


def _as_list(value: Any) -> list:
    return value if isinstance(value, list) else []


# A template slot echoed back ("<rule>", "<rule number>"): what small models write when they copy the prompt's
# shape. Text that is nothing but such slots is not a rule or an example.
_SLOT = re.compile(r"<[^<>]*>")


def _is_placeholder(text: str) -> bool:
    return not re.search(r"[A-Za-z]", _SLOT.sub("", text))


def _one_line(text: Any, limit: int) -> Optional[str]:
    if not isinstance(text, str):
        return None
    line = " ".join(text.split())
    return line[:limit] if line else None


class _Learner:
    """Shared by both learners: prompt, call, JSON with one correction, confinement to allowed roles."""

    kind = ""
    template = ""
    actor = ""

    def __init__(self, client: ChatClient, roles: Sequence[str], capacity: int, max_new: int = 3) -> None:
        self.client = client
        self.roles = tuple(roles)
        self.capacity = capacity
        self.max_new = max_new

    def learn(self, failure: FailureSnapshot, memory, seed: int = 0) -> LearnerOutput:
        """`memory` is the instance's MemorySnapshot at the failure."""
        output = LearnerOutput()
        if not self.roles:
            return output
        shown = {role: list(memory.items_for(role, self.kind)) for role in self.roles}
        messages = [
            Message("system", render(self.template, reference=action_reference(), roles=", ".join(self.roles),
                                     capacity=self.capacity, max_new=self.max_new)),
            Message("user", render_failure_report(failure) + "\n\n" + self._render_memory(shown)),
        ]
        answer = ask_for_json(self.client, messages, seed=seed, validate=_object_keyed_by_role, limit=MAX_REPLY_CHARS,
                              schema=self.schema(self.roles, self.max_new))
        output.calls.extend(call_records(self.actor, answer))
        if answer.error is not None:
            output.problems.append("model error")
        elif answer.value is None:
            output.problems.append(f"unusable reply: {answer.problem}")
        else:
            self._collect(answer.value, shown, output)
        return output

    def _collect(self, data: dict, shown: dict[str, list], output: LearnerOutput) -> None:
        for role, block in data.items():
            if role not in self.roles:
                output.problems.append(f"role {str(role)[:40]!r} is not one this learner may change ({', '.join(self.roles)})")
                continue
            if not isinstance(block, dict):
                output.problems.append(f"{role}: expected an object")
                continue
            rationale = _one_line(block.get("rationale"), 300)
            if rationale:
                output.rationale[role] = rationale
            self._collect_role(role, block, shown[role], output)

    def _render_memory(self, shown: dict[str, list]) -> str:
        raise NotImplementedError

    def _collect_role(self, role: str, block: dict, items: list, output: LearnerOutput) -> None:
        raise NotImplementedError


class Reflector(_Learner):
    kind = "rule"
    template = "reflector"
    actor = "reflector"
    schema = staticmethod(reflector_schema)

    def _render_memory(self, shown: dict[str, list]) -> str:
        parts = ["Current rules:"]
        for role, items in shown.items():
            body = "\n".join(f"{i}. {item.text}" for i, item in enumerate(items, 1)) or "(none)"
            parts.append(f"[{role}]\n{body}")
        return "\n".join(parts)

    def _collect_role(self, role: str, block: dict, items: list, output: LearnerOutput) -> None:
        for number in _as_list(block.get("delete"))[:MAX_DELETIONS]:
            if isinstance(number, int) and not isinstance(number, bool) and 1 <= number <= len(items):
                output.deletions.append(items[number - 1].id)
            else:
                output.problems.append(f"{role}: no rule number {str(number)[:20]} to delete")
        added = block.get("add") or []
        if not isinstance(added, list):
            output.problems.append(f"{role}: 'add' is not a list")
            return
        for text in added[: self.max_new]:
            rule = _one_line(text, MAX_RULE_CHARS)
            if rule and _is_placeholder(rule):
                output.problems.append(f"{role}: {rule[:40]!r} is a template slot, not a rule; dropped")
            elif rule:
                output.proposals.append(Proposal(role, "rule", rule))
        if len(added) > self.max_new:
            output.problems.append(f"{role}: {len(added) - self.max_new} rules over the limit of {self.max_new} dropped")


class Exemplifier(_Learner):
    kind = "example"
    template = "exemplifier"
    actor = "exemplifier"
    schema = staticmethod(exemplifier_schema)

    def _render_memory(self, shown: dict[str, list]) -> str:
        parts = ["Current examples:"]
        for role, items in shown.items():
            body = "\n".join(f"- {item.title}: {item.text.splitlines()[0][:100]}" for item in items) or "(none)"
            parts.append(f"[{role}]\n{body}")
        return "\n".join(parts)

    def _collect_role(self, role: str, block: dict, items: list, output: LearnerOutput) -> None:
        by_name = {item.title: item.id for item in items if item.title}
        for name in _as_list(block.get("delete_names"))[:MAX_DELETIONS]:
            if isinstance(name, str) and name in by_name:
                output.deletions.append(by_name[name])
            else:
                output.problems.append(f"{role}: no example named {str(name)[:40]!r} to delete")
        added = block.get("add_examples") or []
        if not isinstance(added, list):
            output.problems.append(f"{role}: 'add_examples' is not a list")
            return
        for example in added[: self.max_new]:
            rendered = _render_example(example)
            if rendered is None:
                output.problems.append(f"{role}: an example without name, situation or an Answer step was dropped")
                continue
            output.proposals.append(Proposal(role, "example", rendered[1], title=rendered[0]))


def _render_example(example: Any) -> Optional[tuple[str, str]]:
    if not isinstance(example, dict):
        return None
    name = _one_line(example.get("name"), MAX_NAME_CHARS)
    situation = example.get("situation")
    steps = example.get("steps")
    if not name or not isinstance(situation, str) or not isinstance(steps, list) or _is_placeholder(situation):
        return None
    step_lines = [_one_line(s, 300) for s in steps[:6]]
    step_lines = [s for s in step_lines if s]
    if not any(s.lower().startswith("answer:") for s in step_lines):
        return None
    situation_lines = [" ".join(line.split()) for line in situation.strip().splitlines() if line.strip()][:8]
    text = "Situation:\n" + "\n".join(situation_lines) + "\n" + "\n".join(step_lines)
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-") or "example", text[:MAX_EXAMPLE_CHARS]
