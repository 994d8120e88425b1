"""The rulebook compiler's reply schema, for constrained decoding: one entry per artifact, its trigger
predicate and action as nested JSON the compiler's own validator checks (compile.py). Its prompt is
compiler_prompt.md beside it."""

from __future__ import annotations

from typing import Any, Sequence

from forge.llm.schema_rules import nullable, strict_object
from forge.rulebook.language.predicate import HISTORY_FIELDS  # the atom's history keys, from their one home

# The JSON type of each history condition of a predicate atom (forge.rulebook.language.predicate).
_HISTORY_TYPES = {"newly_compromised": "boolean", "unchanged_for": "integer", "acted": "string", "within": "integer",
                  "changed": "boolean", "scan_before_exploit": "boolean"}


def _predicate_definitions() -> dict[str, Any]:
    """The trigger predicate's shape (compiler_prompt.md states it): `always`, a `phase`, an atom
    (host or class, activity, compromise, history conditions), or `not` / `any` / `all` of predicates,
    recursively. Only the shape: names and values are the compiler's validator's to check."""
    atom = strict_object({"host": nullable({"type": "string"}), "class": nullable({"type": "string"}),
                          "activity": nullable({"type": "string"}), "compromise": nullable({"type": "string"}),
                          **{name: nullable({"type": _HISTORY_TYPES[name]}) for name in HISTORY_FIELDS}})
    ref = {"$ref": "#/$defs/predicate"}
    predicate = {"anyOf": [
        strict_object({"always": {"type": "boolean", "description": "true"}}),
        strict_object({"phase": {"type": "string"}}),
        {"$ref": "#/$defs/atom"},
        strict_object({"not": ref}),
        strict_object({"any": {"type": "array", "items": ref, "minItems": 1}}),
        strict_object({"all": {"type": "array", "items": ref, "minItems": 1}}),
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
    move = strict_object({"verb": {"type": "string"}, "target": nullable({"type": "string"})})
    mode = {"type": "string", "enum": list(modes)} if modes else {"type": "string"}
    action = strict_object({"mode": mode, "verb": {"type": "string"}, "target": nullable({"type": "string"}),
                            "over": nullable(move), "then": {"type": "array", "items": move, "maxItems": max_then}})
    entry = strict_object({
        "item": {"type": "integer"},
        "verdict": {"type": "string", "enum": ["RULE", "DROP"]},
        "type": nullable({"type": "string", "enum": list(rule_types)}),
        "directive": nullable({"type": "string", "maxLength": 300}),
        "roles": nullable({"type": "array", "items": {"type": "string", "enum": list(roles)}, "maxItems": len(roles)}),
        "when": nullable({"$ref": "#/$defs/predicate"}),
        "action": nullable(action),
        "unexpressed": nullable({"type": "string", "maxLength": 200}),
        "trigger": nullable({"type": "string", "maxLength": 200}),
        "reason": nullable({"type": "string", "maxLength": 120}),
    })
    return {**strict_object({"rules": {"type": "array", "items": entry}}), "$defs": _predicate_definitions()}
