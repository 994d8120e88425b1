"""The hierarchical ReAct defender: a Planner that calls the Analyst and the ActionChooser as tools.

One `act()` per environment step. A typical step is four model calls: the Planner asks for an analysis
and a suggestion in one turn, the two sub-agents answer, the Planner answers. The Planner's history is
a bounded window of recent steps, so prompts do not grow with the episode.

Model output never crashes a step: a malformed reply gets one corrective re-prompt, then the step takes
a fallback action (the ActionChooser's best valid suggestion if there is one, else Monitor) and the
trace says so. A provider error (after the provider's own retries) is handled the same way. Every
reply's fate is noted per role (used / repaired / re-prompted / fallen back, with the reason) in the
trace and in the usage ledger. With constrained decoding each call carries its role's JSON schema.
"""

from __future__ import annotations

import hashlib
from collections import deque
from dataclasses import dataclass, field, replace
from typing import Mapping, Optional, Protocol

from agents.injection import InjectedMemory, MemoryInjection
from agents.prompting import memory_sections, render
from agents.react import (TOOLS, PlannerTurn, Suggestion, ToolCall, assessment_text, parse_planner_turn,
                          parse_suggestions, suggestion_lines)
from agents.schemas import JSON_FORMS, action_chooser_schema, analyst_schema, planner_schema
from forge.config import AgentConfig
from forge.env.view import HostState, NetworkView
from forge.env.catalog import HOSTS, ActionParseError, action_id, action_name, action_reference, parse_action
from forge.env.text_view import (HostStates, render_alerts, render_changed_hosts, render_host_history, render_host_state,
                                 table_states)
from forge.llm.types import ChatClient, Completion, Message, ModelCall, ProviderError

PLANNER_STOP = ("\nResult of", "\nObservation:")
MAX_SUBAGENT_REPLY_CHARS = 800


class Sensors(Protocol):
    """What the defender may read of the environment (Cage2Env provides it)."""

    def view(self) -> NetworkView: ...

    def host_state(self, hostname: str) -> HostState: ...


@dataclass
class StepDecision:
    action: int
    action_text: str
    observation: str
    fallback: bool = False
    fallback_reason: Optional[str] = None
    calls: list[ModelCall] = field(default_factory=list)
    tools: list[str] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)  # the ActionChooser's ranked suggestions, for an operator

    @property
    def injected(self) -> dict[str, list[str]]:
        by_role: dict[str, list[str]] = {}
        for call in self.calls:
            ids = by_role.setdefault(call.role, [])
            ids.extend(i for i in call.injected if i not in ids)
        return by_role


@dataclass
class _StepState:
    view: NetworkView
    decision: StepDecision
    analyses: list[str] = field(default_factory=list)
    suggestions: list[Suggestion] = field(default_factory=list)
    history: str = ""  # the step's `Recent steps:` and `Host history` lines (empty at the first step)


def _host_argument(argument: str) -> Optional[str]:
    folded = argument.strip().lower()
    return next((h for h in HOSTS if h.lower() == folded), None)


class Defender:
    def __init__(
        self,
        clients: Mapping[str, ChatClient],
        injection: MemoryInjection,
        config: AgentConfig,
        max_steps: Optional[int],
    ) -> None:
        missing = {"planner", "analyst", "action_chooser"} - set(clients)
        if missing:
            raise ValueError(f"Defender needs model clients for roles {sorted(missing)}")
        self.clients = clients
        self.injection = injection
        self.config = config
        self.max_steps = max_steps
        self._history: deque[str] = deque(maxlen=max(config.history_steps, 0) or None)
        # What the defender saw at its last steps (step number, table), for the `Host history` line: its own
        # observations, as the trace records them, never the environment's hidden state.
        self._seen: deque[tuple[int, HostStates]] = deque(maxlen=max(config.history_steps, 0) or None)
        self._seed = 0
        self._pending: Optional[str] = None

    # -- episode lifecycle ------------------------------------------------------------------------

    def start_episode(self, sensors: Sensors, seed: int) -> None:
        self._history.clear()
        self._seen.clear()
        self._seed = seed
        self._pending = None
        self.injection.start_episode(render_alerts(sensors.view()))

    def record_outcome(self, reward: float) -> None:
        """Called by the episode runner after the environment step, for the bounded history."""
        if self._pending is not None:
            self._history.append(f"{self._pending} -> reward {reward:+.1f}")
            self._pending = None

    # -- one step ---------------------------------------------------------------------------------

    def act(self, sensors: Sensors) -> StepDecision:
        view = sensors.view()
        state_lines = self._history_lines(view)
        observation = self._observation(view, state_lines)
        if self.config.history_steps > 0:
            self._seen.append((view.step + 1, table_states(view)))
        state = _StepState(view, StepDecision(action=action_id("Monitor"), action_text="Monitor", observation=observation),
                           history=state_lines)
        injected = self.injection.for_call("planner", observation)
        messages = [
            Message("system", self._system("planner", max_tools=self.config.max_tool_calls_per_step,
                                           memory=memory_sections(injected, self._persistent("planner")))),
            *injected.prefix,
            Message("user", observation),
        ]
        tools_left = self.config.max_tool_calls_per_step
        corrected = False
        # Every turn either spends tool budget or the one correction, so this bound is never the one hit.
        for turn in range(self.config.max_tool_calls_per_step + 3):
            schema = planner_schema(TOOLS if tools_left > 0 else ())
            completion = self._call("planner", messages, injected, state, turn, stop=PLANNER_STOP, schema=schema)
            if completion is None:
                return self._fallback(state, "planner model error")
            parsed = parse_planner_turn(completion.text)
            if parsed.tool_calls:
                calls = parsed.tool_calls[: max(tools_left, 0)]
                if not calls:
                    messages += [Message("assistant", parsed.kept_text),
                                 Message("user", "No tool calls are left for this step. Reply with `Answer: <action>`.")]
                    if corrected:
                        self._note(state, "planner", "fallback: tool budget exhausted")
                        return self._fallback(state, "tool budget exhausted")
                    self._note(state, "planner", "reprompted: tool budget exhausted")
                    corrected = True
                    continue
                self._note(state, "planner", _used(parsed.repaired, len(calls) < len(parsed.tool_calls)))
                tools_left -= len(calls)
                results = [self._run_tool(call, sensors, state) for call in calls]
                follow_up = "\n\n".join(results) + "\n\n" + (
                    f"Reply with `Answer: <action>`, or call another tool ({tools_left} left)."
                    if tools_left > 0 else "Reply with `Answer: <action>`."
                )
                messages += [Message("assistant", parsed.kept_text), Message("user", follow_up)]
                continue
            problem = self._answer_problem(parsed)
            if problem is None:
                self._note(state, "planner", _used(parsed.repaired))
                return self._decide(state, parse_action(parsed.answer or ""))
            reason = _reason(problem, completion)
            if corrected:
                self._note(state, "planner", f"fallback: {reason}")
                return self._fallback(state, f"malformed planner reply: {problem}")
            self._note(state, "planner", f"reprompted: {reason}")
            corrected = True
            messages += [Message("assistant", parsed.kept_text[:500] or "(empty reply)"),
                         Message("user", f"That reply could not be used: {problem}. Reply with exactly one line "
                                         "`Answer: <action>` or `Tool: <tool>(<argument>)`.")]
        return self._fallback(state, "planner turn limit")

    # -- tools ------------------------------------------------------------------------------------

    def _run_tool(self, call: ToolCall, sensors: Sensors, state: _StepState) -> str:
        state.decision.tools.append(str(call))
        header = f"Result of {call}:"
        if call.name == "get_updated_hosts":
            return f"{header}\n{render_changed_hosts(state.view)}"
        if call.name == "get_analysis_of_host_update":
            host = _host_argument(call.argument)
            if host is None:
                return f"{header}\nUnknown host {call.argument!r}. Valid hosts: {', '.join(HOSTS)}."
            analysis = self._analyse(sensors.host_state(host), state)
            state.analyses.append(analysis)
            return f"{header}\n{analysis}"
        if call.name == "get_suggestion_for_next_action":
            return f"{header}\n{self._suggest(call.argument, state)}"
        return f"{header}\nUnknown tool {call.name!r}. Tools: {', '.join(TOOLS)}."

    def _analyse(self, host: HostState, state: _StepState) -> str:
        context = render_host_state(host)
        injected = self.injection.for_call("analyst", context)
        messages = [
            Message("system", self._system("analyst", memory=memory_sections(injected, self._persistent("analyst")))),
            *injected.prefix,
            Message("user", context),
        ]
        completion = self._call("analyst", messages, injected, state, len(state.analyses), schema=analyst_schema())
        if completion is None:
            return "The Analyst is unavailable; no assessment."
        text = assessment_text(completion.text)[:MAX_SUBAGENT_REPLY_CHARS]
        self._note(state, "analyst", "used" if text else f"fallback: {_reason('empty reply', completion)}")
        return text or "The Analyst gave no assessment."

    def _suggest(self, situation: str, state: _StepState) -> str:
        parts = [f"Situation (from the Planner): {situation.strip() or 'not given'}",
                 *([state.history] if state.history else []),
                 f"Alerts:\n{render_alerts(state.view)}"]
        if state.analyses:
            parts.append("Analyses this step:\n" + "\n\n".join(state.analyses))
        context = "\n\n".join(parts)
        injected = self.injection.for_call("action_chooser", context)
        messages = [
            Message("system", self._system("action_chooser", reference=action_reference(),
                                           memory=memory_sections(injected, self._persistent("action_chooser")))),
            *injected.prefix,
            Message("user", context),
        ]
        completion = self._call("action_chooser", messages, injected, state, len(state.suggestions),
                                schema=action_chooser_schema())
        if completion is None:
            return "The ActionChooser is unavailable; no suggestion."
        suggestions = parse_suggestions(completion.text)
        state.suggestions.extend(s for s in suggestions if all(s.action != k.action for k in state.suggestions))
        if not suggestions:
            self._note(state, "action_chooser", f"fallback: {_reason('no valid action', completion)}")
            return "The ActionChooser gave no valid action."
        self._note(state, "action_chooser",
                   _used("invalid entries skipped" if suggestion_lines(completion.text) > len(suggestions) else None))
        state.decision.reasons.extend(f"{action_name(s.action)}{_justification(s.line)}" for s in suggestions)
        return "\n".join(f"{i}. {action_name(s.action)}" + _justification(s.line) for i, s in enumerate(suggestions, 1))

    # -- helpers ----------------------------------------------------------------------------------

    def _system(self, role: str, **fields: object) -> str:
        """The role's system prompt (stable within an episode: it leads, for providers' prefix caches),
        with the JSON form when the role's replies are constrained."""
        text = render(role, **fields)
        return text + "\n" + JSON_FORMS[role] + "\n" if _structured(self.clients[role]) else text

    def _note(self, state: _StepState, role: str, outcome: str) -> None:
        """The fate of the role's latest reply: on its trace record and in the client's usage ledger."""
        for i in range(len(state.decision.calls) - 1, -1, -1):
            call = state.decision.calls[i]
            if call.role == role and call.error is None:
                state.decision.calls[i] = replace(call, reply=outcome)
                break
        note = getattr(self.clients[role], "note_reply", None)
        if note is not None:
            note(outcome)

    def _call(self, role: str, messages: list[Message], injected: InjectedMemory, state: _StepState,
              turn: int, stop=None, schema=None) -> Optional[Completion]:
        seed = _call_seed(self._seed, state.view.step, role, turn)
        client = self.clients[role]
        extra = {"schema": schema} if schema is not None and _structured(client) else {}
        try:
            completion = client.complete(messages, seed=seed, stop=list(stop) if stop else None, **extra)
        except ProviderError as exc:
            state.decision.calls.append(ModelCall(role, 0, 0, 0.0, 0, injected.all_ids, error=_short_error(exc),
                                                  injected_tokens=injected.tokens))
            return None
        state.decision.calls.append(
            ModelCall(role, completion.usage.prompt_tokens, completion.usage.completion_tokens,
                      completion.latency_s, completion.retries, injected.all_ids, injected_tokens=injected.tokens)
        )
        return completion

    def _answer_problem(self, parsed: PlannerTurn) -> Optional[str]:
        if parsed.answer is None:
            return "no `Answer:` line and no tool call"
        try:
            parse_action(parsed.answer)
        except ActionParseError as exc:
            return str(exc)
        return None

    def _decide(self, state: _StepState, action: int) -> StepDecision:
        state.decision.action = action
        state.decision.action_text = action_name(action)
        self._pending = f"step {state.view.step + 1}: {state.decision.action_text}"
        return state.decision

    def override(self, decision: StepDecision, action: int, step: int) -> StepDecision:
        """An operator's action replaces the proposed one; the Planner's history shows what was executed."""
        decision.action = action
        decision.action_text = action_name(action)
        self._pending = f"step {step}: {decision.action_text}"
        return decision

    def _fallback(self, state: _StepState, reason: str) -> StepDecision:
        action = state.suggestions[0].action if state.suggestions else action_id("Monitor")
        decision = self._decide(state, action)
        decision.fallback = True
        decision.fallback_reason = reason
        return decision

    def _history_lines(self, view: NetworkView) -> str:
        """What the defender did and saw over its last steps: the lines a rule about history is judged on
        (forge/rulebook/language/situation.py reads them)."""
        lines = ["Recent steps: " + " | ".join(self._history)] if self._history else []
        seen = render_host_history(tuple(self._seen), view)
        return "\n".join(lines + ([seen] if seen else []))

    def _observation(self, view: NetworkView, history: str) -> str:
        # An exported agent may not know how long its episodes are (forge.cage2.agent): never a wrong "of N".
        lines = [f"Step {view.step + 1} of {self.max_steps}." if self.max_steps else f"Step {view.step + 1}."]
        if history:
            lines.append(history)
        lines.append(f"Observation from get_updated_hosts(): {render_changed_hosts(view)}")
        lines.append(f"Alerts:\n{render_alerts(view)}")
        return "\n".join(lines)

    def _persistent(self, role: str) -> Optional[str]:
        return self.config.persistent_knowledge.get(role)


def _structured(client: ChatClient) -> bool:
    return bool(getattr(client, "structured", False))


def _used(repair: Optional[str], dropped_calls: bool = False) -> str:
    if dropped_calls:
        repair = "tool calls over the budget dropped"
    return f"repaired: {repair}" if repair else "used"


def _reason(problem: str, completion: Completion) -> str:
    """A short, countable reason (details such as the offending text stay in the trace)."""
    if completion.finish_reason == "length":
        return "cut at max_tokens"
    if problem.startswith("no `Answer:`"):
        return "no answer and no tool call"
    if "unknown" in problem or "needs a host" in problem or "takes no host" in problem or "no action" in problem:
        return "not a valid action"
    return problem[:60]


def _justification(line: str) -> str:
    for sep in (" - ", " \u2013 ", " \u2014 ", ": "):
        if sep in line:
            return " -" + line.split(sep, 1)[1][:120].rstrip()
    return ""


def _short_error(exc: Exception) -> str:
    return f"{type(exc).__name__}: {str(exc)[:200]}"


def _call_seed(episode_seed: int, step: int, role: str, turn: int) -> int:
    """A distinct, reproducible seed per model call (what a seeded provider needs for determinism)."""
    digest = hashlib.sha256(f"{episode_seed}:{step}:{role}:{turn}".encode()).digest()
    return int.from_bytes(digest[:4], "big")
