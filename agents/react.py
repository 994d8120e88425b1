"""Parsing what the models write. Model output is untrusted input: bounded, parsed defensively, never
executed. A turn that calls tools is a tool turn even if it also (prematurely) writes an answer, and
anything after a hallucinated tool result is ignored."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from forge.env.catalog import ActionParseError, parse_action

TOOLS = ("get_updated_hosts", "get_analysis_of_host_update", "get_suggestion_for_next_action")
MAX_REPLY_CHARS = 4000
MAX_ARGUMENT_CHARS = 300
# A model that invents the tool's result has stopped following the protocol at that line.
_FAKE_RESULT = re.compile(r"^\s*(result of|observation\s*:|tool result)", re.IGNORECASE)
_TOOL_LINE = re.compile(r"^\s*(?:tool|call)\s*:\s*(?P<call>.+)$", re.IGNORECASE)
_ANSWER_LINE = re.compile(r"^\s*(?:final\s+)?answer\s*:\s*(?P<answer>.+)$", re.IGNORECASE)
_CALL = re.compile(r"^(?P<name>[A-Za-z_][A-Za-z0-9_]*)\s*(?:\((?P<arg>.*)\))?\s*$", re.DOTALL)
_SUGGESTION = re.compile(r"^\s*(?:\d+[.)]|[-*])\s*(?P<action>[^-\u2013\u2014:(]+)")


@dataclass(frozen=True)
class ToolCall:
    name: str
    argument: str

    def __str__(self) -> str:
        return f"{self.name}({self.argument})"


@dataclass(frozen=True)
class PlannerTurn:
    tool_calls: tuple[ToolCall, ...] = ()
    answer: str | None = None
    kept_text: str = ""  # the reply up to any hallucinated result: what goes back into the history


def _clean_argument(raw: str) -> str:
    arg = raw.strip()
    arg = re.sub(r"^\s*[A-Za-z_]+\s*=\s*", "", arg)  # host="User1" -> "User1"
    arg = arg.strip().strip("\"'`").strip()
    return arg[:MAX_ARGUMENT_CHARS]


def parse_planner_turn(text: str) -> PlannerTurn:
    lines = (text or "")[:MAX_REPLY_CHARS].splitlines()
    kept: list[str] = []
    tool_calls: list[ToolCall] = []
    answer = None
    for line in lines:
        if _FAKE_RESULT.match(line):
            break
        kept.append(line)
        tool = _TOOL_LINE.match(line)
        if tool:
            call = _CALL.match(tool["call"].strip().rstrip(".;"))
            if call:
                tool_calls.append(ToolCall(call["name"], _clean_argument(call["arg"] or "")))
            else:
                tool_calls.append(ToolCall(tool["call"].strip()[:60], ""))
            continue
        found = _ANSWER_LINE.match(line)
        if found and answer is None:
            answer = found["answer"].strip().strip("`\"'.").strip()[:120]
    return PlannerTurn(tuple(tool_calls), None if tool_calls else answer, "\n".join(kept).strip())


@dataclass(frozen=True)
class Suggestion:
    action: int
    line: str


def parse_suggestions(text: str, limit: int = 3) -> list[Suggestion]:
    """Valid actions from a ranked list (`1. Restore Enterprise1 - reason`), best first; invalid lines skipped."""
    found: list[Suggestion] = []
    for line in (text or "")[:MAX_REPLY_CHARS].splitlines():
        match = _SUGGESTION.match(line)
        if not match:
            continue
        try:
            action = parse_action(match["action"])
        except ActionParseError:
            continue
        if all(s.action != action for s in found):
            found.append(Suggestion(action, line.strip()[:200]))
        if len(found) == limit:
            break
    return found


@dataclass(frozen=True)
class Assessment:
    fields: dict[str, str] = field(default_factory=dict)

    def get(self, key: str, default: str = "?") -> str:
        return self.fields.get(key.lower(), default)


def parse_assessment(text: str) -> Assessment:
    fields = {}
    for line in (text or "")[:MAX_REPLY_CHARS].splitlines():
        if ":" in line:
            key, value = line.split(":", 1)
            key = key.strip().lower()
            if key in ("host", "activity", "compromise", "evidence", "risk"):
                fields[key] = value.strip()[:200]
    return Assessment(fields)
