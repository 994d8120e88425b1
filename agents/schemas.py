"""The JSON schemas of each role's reply, for constrained decoding (`ProviderConfig.structured_output`).

A schema goes to the endpoint only when the provider constrains decoding; the parsers read these JSON
replies and the plain-text forms alike. Free-text fields are bounded (`maxLength`) so that `max_tokens`
does not cut the JSON, and actions, tools and hosts are enumerated so that a constrained reply always
names something that exists.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Sequence

from forge.env.catalog import ACTIONS, ACTIVITIES, COMPROMISE_LEVELS, HOSTS
from forge.llm.schema_rules import strict_object

TOOL_NONE = "none"


@lru_cache(maxsize=None)
def action_names() -> tuple[str, ...]:
    return tuple(str(a) for a in ACTIONS)


def planner_schema(tools: Sequence[str]) -> dict[str, Any]:
    """A tool call (`tool` not "none") or an answer. With no tools left, an answer only."""
    if not tools:
        return strict_object({"answer": {"type": "string", "enum": list(action_names())}})
    return strict_object({
        "tool": {"type": "string", "enum": [*tools, TOOL_NONE]},
        "argument": {"type": "string", "maxLength": 80},
        "answer": {"type": "string", "enum": ["", *action_names()]},
    })


def analyst_schema() -> dict[str, Any]:
    return strict_object({
        "host": {"type": "string", "enum": list(HOSTS)},
        "activity": {"type": "string", "enum": list(ACTIVITIES)},
        "compromise": {"type": "string", "enum": list(COMPROMISE_LEVELS)},
        "evidence": {"type": "string", "maxLength": 120},
        "risk": {"type": "string", "enum": ["low", "medium", "high"]},
    })


def action_chooser_schema() -> dict[str, Any]:
    item = strict_object({"action": {"type": "string", "enum": list(action_names())},
                    "reason": {"type": "string", "maxLength": 80}})
    return strict_object({"actions": {"type": "array", "items": item, "minItems": 1, "maxItems": 3}})


def reflector_schema(roles: Sequence[str], max_new: int) -> dict[str, Any]:
    block = strict_object({
        "rationale": {"type": "string", "maxLength": 200},
        "delete": {"type": "array", "items": {"type": "integer"}, "maxItems": 5},
        "add": {"type": "array", "items": {"type": "string", "maxLength": 200}, "maxItems": max_new},
    })
    return strict_object({role: block for role in roles})


def exemplifier_schema(roles: Sequence[str], max_new: int) -> dict[str, Any]:
    example = strict_object({
        "name": {"type": "string", "maxLength": 40},
        "situation": {"type": "string", "maxLength": 300},
        "steps": {"type": "array", "items": {"type": "string", "maxLength": 160}, "minItems": 1, "maxItems": 4},
    })
    block = strict_object({
        "rationale": {"type": "string", "maxLength": 200},
        "delete_names": {"type": "array", "items": {"type": "string", "maxLength": 40}, "maxItems": 5},
        "add_examples": {"type": "array", "items": example, "maxItems": max_new},
    })
    return strict_object({role: block for role in roles})


# What the system prompt adds when replies are constrained: the model sees the shape it must fill.
JSON_FORMS = {
    "planner": 'Your replies are JSON: {"tool": "<tool or none>", "argument": "<host or situation>", '
               '"answer": "<action, or empty when calling a tool>"}.',
    "analyst": 'Your reply is JSON: {"host", "activity", "compromise", "evidence", "risk"} with the values above.',
    "action_chooser": 'Your reply is JSON: {"actions": [{"action": "<action>", "reason": "<a few words>"}]}, best first.',
}
