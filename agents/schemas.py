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
from forge.rulebook.language.predicate import HISTORY_FIELDS  # the atom's history keys, from their one home

TOOL_NONE = "none"


@lru_cache(maxsize=None)
def action_names() -> tuple[str, ...]:
    return tuple(str(a) for a in ACTIONS)


def _object(properties: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}


def planner_schema(tools: Sequence[str]) -> dict[str, Any]:
    """A tool call (`tool` not "none") or an answer. With no tools left, an answer only."""
    if not tools:
        return _object({"answer": {"type": "string", "enum": list(action_names())}})
    return _object({
        "tool": {"type": "string", "enum": [*tools, TOOL_NONE]},
        "argument": {"type": "string", "maxLength": 80},
        "answer": {"type": "string", "enum": ["", *action_names()]},
    })


def analyst_schema() -> dict[str, Any]:
    return _object({
        "host": {"type": "string", "enum": list(HOSTS)},
        "activity": {"type": "string", "enum": list(ACTIVITIES)},
        "compromise": {"type": "string", "enum": list(COMPROMISE_LEVELS)},
        "evidence": {"type": "string", "maxLength": 120},
        "risk": {"type": "string", "enum": ["low", "medium", "high"]},
    })


def action_chooser_schema() -> dict[str, Any]:
    item = _object({"action": {"type": "string", "enum": list(action_names())},
                    "reason": {"type": "string", "maxLength": 80}})
    return _object({"actions": {"type": "array", "items": item, "minItems": 1, "maxItems": 3}})


def reflector_schema(roles: Sequence[str], max_new: int) -> dict[str, Any]:
    block = _object({
        "rationale": {"type": "string", "maxLength": 200},
        "delete": {"type": "array", "items": {"type": "integer"}, "maxItems": 5},
        "add": {"type": "array", "items": {"type": "string", "maxLength": 200}, "maxItems": max_new},
    })
    return _object({role: block for role in roles})


def exemplifier_schema(roles: Sequence[str], max_new: int) -> dict[str, Any]:
    example = _object({
        "name": {"type": "string", "maxLength": 40},
        "situation": {"type": "string", "maxLength": 300},
        "steps": {"type": "array", "items": {"type": "string", "maxLength": 160}, "minItems": 1, "maxItems": 4},
    })
    block = _object({
        "rationale": {"type": "string", "maxLength": 200},
        "delete_names": {"type": "array", "items": {"type": "string", "maxLength": 40}, "maxItems": 5},
        "add_examples": {"type": "array", "items": example, "maxItems": max_new},
    })
    return _object({role: block for role in roles})


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    """An optional field as strict mode spells it: required, and null when absent (the reader drops nulls)."""
    kind = schema.get("type")
    if isinstance(kind, str) and "enum" not in schema:
        return {**schema, "type": [kind, "null"]}
    return {"anyOf": [schema, {"type": "null"}]}


# The JSON type of each history condition of a predicate atom (forge.rulebook.language.predicate).
_HISTORY_TYPES = {"newly_compromised": "boolean", "unchanged_for": "integer", "acted": "string", "within": "integer",
                  "changed": "boolean", "scan_before_exploit": "boolean"}


def _predicate_definitions() -> dict[str, Any]:
    """The trigger predicate's shape (agents/prompts/compiler.md states it): `always`, a `phase`, an atom
    (host or class, activity, compromise, history conditions), or `not` / `any` / `all` of predicates,
    recursively. Only the shape: names and values are the compiler's validator's to check."""
    atom = _object({"host": _nullable({"type": "string"}), "class": _nullable({"type": "string"}),
                    "activity": _nullable({"type": "string"}), "compromise": _nullable({"type": "string"}),
                    **{name: _nullable({"type": _HISTORY_TYPES[name]}) for name in HISTORY_FIELDS}})
    ref = {"$ref": "#/$defs/predicate"}
    predicate = {"anyOf": [
        _object({"always": {"type": "boolean", "description": "true"}}),
        _object({"phase": {"type": "string"}}),
        {"$ref": "#/$defs/atom"},
        _object({"not": ref}),
        _object({"any": {"type": "array", "items": ref, "minItems": 1}}),
        _object({"all": {"type": "array", "items": ref, "minItems": 1}}),
    ]}
    return {"atom": atom, "predicate": predicate}


def compiler_schema(roles: Sequence[str], rule_types: Sequence[str], *, modes: Sequence[str] = (),
                    max_then: int = 0) -> dict[str, Any]:
    """The rulebook compiler's reply: one entry per artifact. Only the shape is constrained: a trigger
    predicate and an action are nested JSON the compiler's own validator checks (and re-prompts on), so
    their keys are typed here and their values are not, except that an action's `mode` is one of `modes`
    (when given) and a plan's `then` holds at most `max_then` moves; free text is bounded.

    Written in OpenAI's strict shape (every object closed, every property required, the optional ones
    null when absent) so that one schema serves every endpoint; `forge.llm.json_reply` drops the nulls."""
    move = _object({"verb": {"type": "string"}, "target": _nullable({"type": "string"})})
    mode = {"type": "string", "enum": list(modes)} if modes else {"type": "string"}
    action = _object({"mode": mode, "verb": {"type": "string"}, "target": _nullable({"type": "string"}),
                      "over": _nullable(move), "then": {"type": "array", "items": move, "maxItems": max_then}})
    entry = _object({
        "item": {"type": "integer"},
        "verdict": {"type": "string", "enum": ["RULE", "DROP"]},
        "type": _nullable({"type": "string", "enum": list(rule_types)}),
        "directive": _nullable({"type": "string", "maxLength": 300}),
        "roles": _nullable({"type": "array", "items": {"type": "string", "enum": list(roles)}, "maxItems": len(roles)}),
        "when": _nullable({"$ref": "#/$defs/predicate"}),
        "action": _nullable(action),
        "unexpressed": _nullable({"type": "string", "maxLength": 200}),
        "trigger": _nullable({"type": "string", "maxLength": 200}),
        "reason": _nullable({"type": "string", "maxLength": 120}),
    })
    return {**_object({"rules": {"type": "array", "items": entry}}), "$defs": _predicate_definitions()}


# What the system prompt adds when replies are constrained: the model sees the shape it must fill.
JSON_FORMS = {
    "planner": 'Your replies are JSON: {"tool": "<tool or none>", "argument": "<host or situation>", '
               '"answer": "<action, or empty when calling a tool>"}.',
    "analyst": 'Your reply is JSON: {"host", "activity", "compromise", "evidence", "risk"} with the values above.',
    "action_chooser": 'Your reply is JSON: {"actions": [{"action": "<action>", "reason": "<a few words>"}]}, best first.',
}
