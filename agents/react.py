"""Parsing what the models write. Model output is untrusted input: bounded, parsed defensively, never
executed. A turn that calls tools is a tool turn even if it also (prematurely) writes an answer, and
anything after a hallucinated tool result is ignored.

Every role's reply may come as text (the prompts' forms) or as JSON (agents/schemas.py, when the
endpoint constrains decoding); both read into the same values, and a parser says when it had to
repair a reply to use it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Optional

from agents.schemas import TOOL_NONE
from forge.env.catalog import ActionParseError, action_name, parse_action
from forge.llm.json_reply import first_json_object

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
    repaired: Optional[str] = None  # what the parser had to fix to read it (None: read as it came)


def _clean_argument(raw: str) -> str:
    arg = raw.strip()
    arg = re.sub(r"^\s*[A-Za-z_]+\s*=\s*", "", arg)  # host="User1" -> "User1"
    arg = arg.strip().strip("\"'`").strip()
    return arg[:MAX_ARGUMENT_CHARS]


def json_reply(text: str) -> tuple[Optional[dict], Optional[str]]:
    """The JSON object a reply consists of, and a repair note if it had to be dug out of other text;
    (None, None) for a reply that is not JSON."""
    text = (text or "")[:MAX_REPLY_CHARS]
    if "{" not in text:
        return None, None
    try:
        data = first_json_object(text, MAX_REPLY_CHARS)
    except ValueError:
        return None, None
    if not isinstance(data, dict):
        return None, None
    return data, (None if text.strip().startswith("{") and text.strip().endswith("}") else "JSON inside other text")


def _structured_turn(data: dict, note: Optional[str]) -> Optional[PlannerTurn]:
    if "tool" not in data and "answer" not in data:
        return None
    kept = " ".join(f"{k}={str(v)[:80]}" for k, v in data.items() if k in ("tool", "argument", "answer"))
    tool = data.get("tool")
    if isinstance(tool, str) and tool.strip() and tool.strip() != TOOL_NONE:
        call = ToolCall(tool.strip()[:60], _clean_argument(str(data.get("argument") or "")))
        return PlannerTurn((call,), None, kept, note)
    answer = data.get("answer")
    answer = answer.strip()[:120] if isinstance(answer, str) and answer.strip() else None
    return PlannerTurn((), answer, kept, note)


def parse_planner_turn(text: str) -> PlannerTurn:
    data, note = json_reply(text)
    if data is not None:
        structured = _structured_turn(data, note)
        if structured is not None:
            return structured
    lines = (text or "")[:MAX_REPLY_CHARS].splitlines()
    kept: list[str] = []
    tool_calls: list[ToolCall] = []
    answer = None
    repaired = None
    for line in lines:
        if _FAKE_RESULT.match(line):
            repaired = "cut at an invented tool result"
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
    return PlannerTurn(tuple(tool_calls), None if tool_calls else answer, "\n".join(kept).strip(), repaired)


@dataclass(frozen=True)
class Suggestion:
    action: int
    line: str


def parse_suggestions(text: str, limit: int = 3) -> list[Suggestion]:
    """Valid actions from a ranked list (`1. Restore Enterprise1 - reason`, or the JSON form
    `{"actions": [{"action", "reason"}]}`), best first; invalid lines skipped."""
    data, _ = json_reply(text)
    if data is not None and isinstance(data.get("actions"), list):
        return _json_suggestions(data["actions"], limit)
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


def _json_suggestions(items: list[Any], limit: int) -> list[Suggestion]:
    found: list[Suggestion] = []
    for item in items[:10]:
        if not isinstance(item, dict) or not isinstance(item.get("action"), str):
            continue
        try:
            action = parse_action(item["action"])
        except ActionParseError:
            continue
        reason = " ".join(str(item.get("reason") or "").split())[:120]
        if all(s.action != action for s in found):
            found.append(Suggestion(action, f"{action_name(action)} - {reason}" if reason else action_name(action)))
        if len(found) == limit:
            break
    return found


def suggestion_lines(text: str) -> int:
    """How many entries the reply offered (valid or not), to tell a clean list from a repaired one."""
    data, _ = json_reply(text)
    if data is not None and isinstance(data.get("actions"), list):
        return len(data["actions"])
    return sum(bool(_SUGGESTION.match(line)) for line in (text or "")[:MAX_REPLY_CHARS].splitlines())


ASSESSMENT_FIELDS = ("host", "activity", "compromise", "evidence", "risk")


def assessment_text(text: str) -> str:
    """The Analyst's reply as the Planner reads it: the JSON form becomes the prompt's `Key: value` lines."""
    data, _ = json_reply(text)
    if data is None or not any(k in data for k in ASSESSMENT_FIELDS):
        return (text or "").strip()
    return "\n".join(f"{k.capitalize()}: {' '.join(str(data[k]).split())[:200]}" for k in ASSESSMENT_FIELDS if k in data)
