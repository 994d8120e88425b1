"""What each API accepts as a reply schema, and the form of a product schema each one is sent in. Pure.

The rules are written from the providers' documentation (in our own words), and both sides use them:
the providers, to send only what the API accepts, and `forge serve`, to refuse what the API refuses.

OpenAI, `response_format: {"type": "json_schema", "json_schema": {..., "strict": true}}` (Structured
Outputs): a subset of JSON Schema. The root is an object (not `anyOf`); every object sets
`additionalProperties: false` and lists every property in `required` (an optional field is a union with
`null`); the keywords are the documented subset (types, `enum`, `const`, `anyOf`, `$ref`/`$defs`,
`pattern`, `format` from a fixed list, number bounds, `minItems`/`maxItems`); no `allOf`, `not`,
`oneOf`, `if`/`then`/`else`, `dependent*`, no string lengths; at most 5000 properties, 10 levels of
nesting, 1000 enum values, 120,000 characters of names and values. Recursion through `$ref` is allowed.

Gemini, `response_json_schema` (with `response_mime_type: application/json`): JSON Schema, of which only
`$id $defs $ref $anchor type format title description enum items prefixItems minItems maxItems minimum
maximum anyOf oneOf properties additionalProperties required` and `propertyOrdering` are honoured;
`enum` holds strings or numbers; a `$ref` has no sibling keywords but `$`-ones; a cyclic reference may
sit only under a property that is not required. Other keywords may be sent and are not honoured.

Gemini, `response_schema`: an OpenAPI 3.0 Schema object, parsed as a message with fixed fields: any
other key is an unknown field (HTTP 400), `type` is one name (STRING, NUMBER, INTEGER, BOOLEAN, ARRAY,
OBJECT) and `nullable` says null; no `$ref`, no `additionalProperties`.

The product writes its schemas (agents/schemas.py, forge/rulebook/authoring/compiler_schema.py) in the strict
shape already (`strict_object`, `nullable`); `openai_form`,
`gemini_json_form` and `gemini_openapi_form` only move what an API does not take (a string length) into
the description, and inline references where an API takes none.
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass
from typing import Any, Iterator, Mapping

JsonSchema = dict[str, Any]

# -- OpenAI Structured Outputs, strict mode ------------------------------------------------------------

OPENAI_TYPES = frozenset({"string", "number", "boolean", "integer", "object", "array", "null"})
OPENAI_FORMATS = frozenset({"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"})
OPENAI_KEYWORDS = frozenset({
    "type", "description", "title", "enum", "const", "anyOf", "$ref", "$defs", "definitions", "properties",
    "required", "additionalProperties", "items", "pattern", "format", "multipleOf", "maximum", "exclusiveMaximum",
    "minimum", "exclusiveMinimum", "minItems", "maxItems",
})
OPENAI_MAX_PROPERTIES = 5000
OPENAI_MAX_DEPTH = 10
OPENAI_MAX_ENUM_VALUES = 1000
OPENAI_MAX_STRING_TOTAL = 120_000
OPENAI_BIG_ENUM = 250  # an enum with more values than this ...
OPENAI_BIG_ENUM_CHARS = 15_000  # ... may hold at most this many characters
OPENAI_NAME_PATTERN = r"^[A-Za-z0-9_-]{1,64}$"  # response_format.json_schema.name

# Keywords moved into the description (what they ask is then said, not enforced), per API.
_SAID_NOT_ENFORCED = {
    "minLength": "at least {} characters", "maxLength": "at most {} characters",
    "minProperties": "at least {} entries", "maxProperties": "at most {} entries", "uniqueItems": "no repeated items",
}


@dataclass(frozen=True)
class SchemaForm:
    """A product schema as one API is sent it. `strict`: it meets the API's strict rules; when it cannot,
    `why` says what stops it (and the schema goes as it is, not strict)."""

    schema: JsonSchema
    strict: bool = True
    why: tuple[str, ...] = ()


def _at(path: tuple) -> str:
    return "(" + ", ".join(repr(p) for p in path) + ")"


def _types(node: Mapping[str, Any]) -> list[str]:
    kind = node.get("type")
    if isinstance(kind, str):
        return [kind]
    return [t for t in kind if isinstance(t, str)] if isinstance(kind, list) else []


def _definitions(root: Mapping[str, Any]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for key in ("$defs", "definitions"):
        defs = root.get(key)
        if isinstance(defs, dict):
            found.update({f"#/{key}/{name}": value for name, value in defs.items()})
    return found


def openai_strict_problems(schema: Any) -> list[str]:
    """Why OpenAI's strict mode would refuse `schema` (empty: it is accepted), each naming where."""
    if not isinstance(schema, dict):
        return ["the schema must be a JSON object"]
    check = _StrictCheck(_definitions(schema))
    if "anyOf" in schema or _types(schema) != ["object"]:
        check.problems.append("the root must be an object schema (type \"object\"), not anyOf or another type")
    check.walk(schema, (), 1)
    for key in ("$defs", "definitions"):
        for name in (schema.get(key) or {}) if isinstance(schema.get(key), dict) else {}:
            check.counts["chars"] += len(name)
            ref = f"#/{key}/{name}"
            if ref not in check.seen_refs:
                check.seen_refs.add(ref)
                check.walk(schema[key][name], (key, name), 1)
    return check.problems + check.totals()


class _StrictCheck:
    """One walk of a schema for openai_strict_problems: what each node breaks, and the totals the limits count."""

    def __init__(self, definitions: dict[str, Any]) -> None:
        self.definitions = definitions
        self.problems: list[str] = []
        self.counts = {"properties": 0, "enum": 0, "chars": 0}
        self.seen_refs: set[str] = set()

    def walk(self, node: Any, path: tuple, depth: int) -> None:
        problems = self.problems
        if not isinstance(node, dict):
            problems.append(f"In context={_at(path)}: a schema must be an object")
            return
        for key in node:
            if key not in OPENAI_KEYWORDS:
                problems.append(f"In context={_at(path)}: '{key}' is not permitted")
        if "$ref" in node:
            ref = node["$ref"]
            if ref != "#" and ref not in self.definitions:
                problems.append(f"In context={_at(path)}: reference {ref!r} can't be resolved")
            elif ref in self.definitions and ref not in self.seen_refs:  # recursion is allowed: each definition once
                self.seen_refs.add(ref)
                self.walk(self.definitions[ref], ("$defs", ref.rsplit("/", 1)[-1]), depth)
            return
        kinds = _types(node)
        if "type" in node and (not kinds or any(k not in OPENAI_TYPES for k in kinds)):
            problems.append(f"In context={_at(path)}: type {node['type']!r} is not one of {sorted(OPENAI_TYPES)}")
        if "format" in node and node["format"] not in OPENAI_FORMATS:
            problems.append(f"In context={_at(path)}: format {node['format']!r} is not supported")
        if "enum" in node:
            self._enum(node["enum"], path)
        if "const" in node:
            self.counts["chars"] += len(str(node["const"]))
        if "anyOf" in node:
            branches = node["anyOf"]
            if not isinstance(branches, list) or not branches:
                problems.append(f"In context={_at(path)}: 'anyOf' must be a non-empty array")
            else:
                for i, branch in enumerate(branches):
                    self.walk(branch, path + ("anyOf", i), depth)
        if "object" in kinds:
            self._object(node, path, depth)
        if "array" in kinds and "items" in node:
            self.walk(node["items"], path + ("items",), depth)

    def _enum(self, values: Any, path: tuple) -> None:
        if not isinstance(values, list) or not values:
            self.problems.append(f"In context={_at(path)}: 'enum' must be a non-empty array")
            return
        self.counts["enum"] += len(values)
        chars = sum(len(str(v)) for v in values)
        self.counts["chars"] += chars
        if len(values) > OPENAI_BIG_ENUM and chars > OPENAI_BIG_ENUM_CHARS:
            self.problems.append(f"In context={_at(path)}: an enum of {len(values)} values may hold at most "
                                 f"{OPENAI_BIG_ENUM_CHARS} characters, got {chars}")

    def _object(self, node: dict, path: tuple, depth: int) -> None:
        problems = self.problems
        if depth > OPENAI_MAX_DEPTH:
            problems.append(f"In context={_at(path)}: objects nested deeper than {OPENAI_MAX_DEPTH} levels")
        properties = node.get("properties")
        if not isinstance(properties, dict):
            problems.append(f"In context={_at(path)}: an object must declare its 'properties'")
            properties = {}
        if node.get("additionalProperties", True) is not False:
            problems.append(f"In context={_at(path)}: 'additionalProperties' is required to be supplied and to be false")
        required = node.get("required")
        missing = [name for name in properties if not isinstance(required, list) or name not in required]
        if missing or not isinstance(required, list):
            problems.append(f"In context={_at(path)}: 'required' is required to be supplied and to be an array "
                            f"including every key in properties. Missing {', '.join(map(repr, missing)) or 'the array'}")
        elif any(name not in properties for name in required):
            extra = [name for name in required if name not in properties]
            problems.append(f"In context={_at(path)}: 'required' names keys that are not properties: {extra}")
        self.counts["properties"] += len(properties)
        for name, sub in properties.items():
            self.counts["chars"] += len(name)
            self.walk(sub, path + ("properties", name), depth + 1)

    def totals(self) -> list[str]:
        """The limits over the whole schema."""
        counts, problems = self.counts, []
        if counts["properties"] > OPENAI_MAX_PROPERTIES:
            problems.append(f"the schema has {counts['properties']} object properties, over {OPENAI_MAX_PROPERTIES}")
        if counts["enum"] > OPENAI_MAX_ENUM_VALUES:
            problems.append(f"the schema has {counts['enum']} enum values, over {OPENAI_MAX_ENUM_VALUES}")
        if counts["chars"] > OPENAI_MAX_STRING_TOTAL:
            problems.append(f"the schema's names and values hold {counts['chars']} characters, over {OPENAI_MAX_STRING_TOTAL}")
        return problems


def _describe(node: JsonSchema, note: str) -> None:
    node["description"] = f"{node['description']} ({note})" if node.get("description") else note


def _nodes(node: Any) -> Iterator[dict]:
    """Every schema node under (and including) `node`, parents first."""
    if not isinstance(node, dict):
        return
    yield node
    for key in ("properties", "$defs", "definitions"):
        for sub in (node.get(key) or {}).values() if isinstance(node.get(key), dict) else ():
            yield from _nodes(sub)
    if isinstance(node.get("items"), dict):
        yield from _nodes(node["items"])
    for key in ("anyOf", "oneOf", "prefixItems"):
        for sub in node.get(key) or () if isinstance(node.get(key), list) else ():
            yield from _nodes(sub)


def _said_not_enforced(schema: JsonSchema, allowed: frozenset) -> None:
    """Move the keywords an API does not enforce (string lengths, ...) into the description, in place."""
    for node in _nodes(schema):
        for key, words in _SAID_NOT_ENFORCED.items():
            if key in node and key not in allowed:
                value = node.pop(key)
                _describe(node, words.format(value))


def strict_object(properties: dict[str, Any]) -> JsonSchema:
    """An object in the strict shape: closed, every property required (the product writes its schemas so)."""
    return {"type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}


def nullable(node: JsonSchema) -> JsonSchema:
    """`node` that also admits null (OpenAI's spelling of an optional field: required, and null when absent;
    the reader drops the nulls, forge.llm.json_reply)."""
    kinds = node.get("type")
    if isinstance(kinds, str) and "enum" not in node and "const" not in node:
        return {**node, "type": [kinds, "null"]}
    if isinstance(kinds, list) and "enum" not in node:
        return node if "null" in kinds else {**node, "type": [*kinds, "null"]}
    if "anyOf" in node and "type" not in node:
        branches = node["anyOf"]
        return node if any(_types(b) == ["null"] for b in branches) else {**node, "anyOf": [*branches, {"type": "null"}]}
    return {"anyOf": [node, {"type": "null"}]}


def openai_form(schema: Mapping[str, Any]) -> SchemaForm:
    """`schema` as OpenAI's strict mode takes it: every object closed, every property required (the
    optional ones nullable), unenforced keywords in the description. A schema that cannot be made strict
    (an open object, `allOf`, `not`, ...) comes back as it was with `strict=False` and why."""
    form = copy.deepcopy(dict(schema))
    _said_not_enforced(form, OPENAI_KEYWORDS)
    for node in _nodes(form):
        properties = node.get("properties")
        if "object" in _types(node) and isinstance(properties, dict) and "additionalProperties" not in node:
            node["additionalProperties"] = False
        if isinstance(properties, dict):
            required = list(node.get("required") or [])
            for name in properties:
                if name not in required:
                    properties[name] = nullable(properties[name])
                    required.append(name)
            node["required"] = required
    problems = openai_strict_problems(form)
    if problems:
        return SchemaForm(copy.deepcopy(dict(schema)), strict=False, why=tuple(problems))
    return SchemaForm(form)


# -- Gemini ------------------------------------------------------------------------------------------

GEMINI_JSON_KEYWORDS = frozenset({
    "$id", "$defs", "$ref", "$anchor", "type", "format", "title", "description", "enum", "items", "prefixItems",
    "minItems", "maxItems", "minimum", "maximum", "anyOf", "oneOf", "properties", "additionalProperties", "required",
    "propertyOrdering",
})
GEMINI_OPENAPI_FIELDS = frozenset({
    "type", "format", "title", "description", "nullable", "enum", "maxItems", "minItems", "properties", "required",
    "minProperties", "maxProperties", "minLength", "maxLength", "pattern", "example", "anyOf", "propertyOrdering",
    "default", "items", "minimum", "maximum",
})
# The API parses a message's fields by their JSON (lowerCamel) or proto (snake_case) names; the SDK sends the latter.
GEMINI_OPENAPI_FIELDS |= frozenset(re.sub(r"(?<!^)([A-Z])", r"_\1", name).lower() for name in GEMINI_OPENAPI_FIELDS)
GEMINI_OPENAPI_TYPES = frozenset({"STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT"})
# How deep a recursive definition is unrolled where an API takes no cycle; below it, any object.
UNROLL_DEPTH = 2


def _inline(schema: Mapping[str, Any], depth: int = UNROLL_DEPTH) -> JsonSchema:
    """`schema` without `$ref`/`$defs`: references inlined, a cycle unrolled `depth` times and then cut
    to an open object (the reader validates what the schema no longer says)."""
    definitions = _definitions(schema)
    root = {k: v for k, v in schema.items() if k not in ("$defs", "definitions")}

    def expand(node: Any, stack: tuple[str, ...]) -> Any:
        if isinstance(node, list):
            return [expand(item, stack) for item in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str):
            target = root if ref == "#" else definitions.get(ref)
            if target is None:
                return {"type": "object"}
            if stack.count(ref) >= depth:
                return {"type": "object", "description": "nested further: any object"}
            return expand(target, stack + (ref,))
        out = {}
        for key, value in node.items():
            if key in ("properties", "$defs", "definitions") and isinstance(value, dict):
                out[key] = {name: expand(sub, stack) for name, sub in value.items()}
            elif key in ("items", "anyOf", "oneOf", "prefixItems", "additionalProperties"):
                out[key] = expand(value, stack)
            else:
                out[key] = copy.deepcopy(value)
        return out

    return expand(root, ())


def gemini_json_form(schema: Mapping[str, Any]) -> JsonSchema:
    """`schema` as Gemini's `response_json_schema` honours it: references inlined (a cyclic one may not
    be required), type lists as an anyOf of single types, `const` as a one-value enum, null out of
    enums, and what it does not honour (string lengths, ...) said in the description."""

    def convert(node: Any) -> Any:
        if not isinstance(node, dict):
            return node
        out: JsonSchema = {}
        for key, value in node.items():
            if key == "properties" and isinstance(value, dict):
                out[key] = {name: convert(sub) for name, sub in value.items()}
            elif key in ("items", "additionalProperties") and isinstance(value, dict):
                out[key] = convert(value)
            elif key in ("anyOf", "oneOf", "prefixItems") and isinstance(value, list):
                out[key] = [convert(sub) for sub in value]
            elif key == "const":
                out["enum"] = [value]
            elif key in _SAID_NOT_ENFORCED:
                _describe(out, _SAID_NOT_ENFORCED[key].format(value))
            elif key in GEMINI_JSON_KEYWORDS:
                out[key] = copy.deepcopy(value)
            else:
                _describe(out, f"{key}: {json.dumps(value)[:80]}")
        null_in_enum = isinstance(out.get("enum"), list) and None in out["enum"]
        if null_in_enum:
            out["enum"] = [v for v in out["enum"] if v is not None]
        kinds = out.get("type")
        if isinstance(kinds, list) or null_in_enum:
            kinds = [k for k in (kinds if isinstance(kinds, list) else [kinds]) if k not in (None, "null")]
            shared = {k: v for k, v in out.items() if k not in ("type", "description", "title")}
            head = {k: v for k, v in out.items() if k in ("description", "title")}
            branches = [{"type": kind, **shared} for kind in kinds] or [shared]
            return {**head, "anyOf": [*branches, {"type": "null"}]}
        return out

    return convert(_inline(schema))


def gemini_openapi_form(schema: Mapping[str, Any]) -> JsonSchema:
    """`schema` as Gemini's `response_schema` (OpenAPI 3.0 subset) takes it: references inlined, one
    upper-case type per node with `nullable`, no `additionalProperties`, properties in order."""

    def convert(node: Any) -> Any:
        if not isinstance(node, dict):
            return node
        out: JsonSchema = {}
        kinds = _types(node)
        branches = node.get("anyOf")
        if isinstance(branches, list):
            real = [b for b in branches if _types(b) != ["null"]]
            if len(real) < len(branches):
                out["nullable"] = True
            if len(real) == 1:
                merged = convert(real[0])
                merged.update({k: v for k, v in out.items()})
                for key in ("description", "title"):
                    if key in node and key not in merged:
                        merged[key] = node[key]
                return merged
            out["anyOf"] = [convert(b) for b in real]
        if kinds:
            if "null" in kinds:
                out["nullable"] = True
            real_kinds = [k for k in kinds if k != "null"]
            if real_kinds:
                out["type"] = real_kinds[0].upper()
        if "const" in node:
            out["enum"] = [node["const"]]
        for key, value in node.items():
            if key in ("type", "anyOf", "const", "additionalProperties"):
                continue
            if key == "properties" and isinstance(value, dict):
                out["properties"] = {name: convert(sub) for name, sub in value.items()}
                out["propertyOrdering"] = list(value)
            elif key == "items":
                out["items"] = convert(value)
            elif key == "enum" and isinstance(value, list):
                if None in value:
                    out["nullable"] = True
                out["enum"] = [str(v) for v in value if v is not None]
            elif key in GEMINI_OPENAPI_FIELDS:
                out[key] = copy.deepcopy(value)
            else:
                _describe(out, f"{key}: {json.dumps(value)[:80]}")
        return out

    return convert(_inline(schema))


def gemini_json_schema_problems(schema: Any) -> list[str]:
    """Why Gemini would refuse `schema` as `response_json_schema` (empty: accepted). Keywords it does not
    honour are not refusals (the documentation says they may be sent)."""
    if not isinstance(schema, dict):
        return ["response_json_schema must be a JSON object"]
    problems: list[str] = []
    definitions = {f"#/$defs/{name}": value for name, value in (schema.get("$defs") or {}).items()} \
        if isinstance(schema.get("$defs"), dict) else {}

    def cyclic(ref: str, seen: tuple[str, ...] = ()) -> bool:
        if ref in seen:
            return True
        target = schema if ref == "#" else definitions.get(ref)
        return any(cyclic(n["$ref"], seen + (ref,)) for n in _nodes(target) if isinstance(n.get("$ref"), str)
                   and n is not target) if target is not None else False

    def walk(node: Any, path: str, required_here: bool) -> None:
        if not isinstance(node, dict):
            problems.append(f"{path}: a schema must be an object")
            return
        if "$ref" in node:
            others = [k for k in node if not k.startswith("$")]
            if others:
                problems.append(f"{path}: a $ref allows no other keywords but $-ones, found {others}")
            ref = node["$ref"]
            if ref != "#" and ref not in definitions:
                problems.append(f"{path}: $ref {ref!r} names no definition")
            elif required_here and cyclic(ref):
                problems.append(f"{path}: the cyclic reference {ref!r} sits under a required property")
            return
        if isinstance(node.get("enum"), list) and any(isinstance(v, bool) or not isinstance(v, (str, int, float))
                                                      for v in node["enum"]):
            problems.append(f"{path}: enum values must be strings or numbers")
        required = node.get("required") if isinstance(node.get("required"), list) else []
        for name, sub in (node.get("properties") or {}).items() if isinstance(node.get("properties"), dict) else ():
            walk(sub, f"{path}.properties.{name}", name in required)
        if isinstance(node.get("items"), dict):
            walk(node["items"], f"{path}.items", required_here)
        for key in ("anyOf", "oneOf", "prefixItems"):
            for i, sub in enumerate(node.get(key) or []) if isinstance(node.get(key), list) else ():
                walk(sub, f"{path}.{key}[{i}]", required_here)

    walk({k: v for k, v in schema.items() if k != "$defs"}, "response_json_schema", False)
    return problems


def gemini_openapi_problems(schema: Any, path: str = "generation_config.response_schema") -> list[str]:
    """Why Gemini would refuse `schema` as `response_schema` (empty: accepted), in the API's words:
    unknown fields and invalid type values."""
    if not isinstance(schema, dict):
        return [f"Invalid value at '{path}': a Schema must be a JSON object"]
    problems: list[str] = []
    for key, value in schema.items():
        if key not in GEMINI_OPENAPI_FIELDS:
            problems.append(f"Invalid JSON payload received. Unknown name \"{key}\" at '{path}': Cannot find field.")
    kind = schema.get("type")
    if kind is not None and (not isinstance(kind, str) or kind.upper() not in GEMINI_OPENAPI_TYPES):
        problems.append(f"Invalid value at '{path}.type' (type.googleapis.com/google.ai.generativelanguage.v1beta.Type), "
                        f"{json.dumps(kind)}")
    if isinstance(schema.get("properties"), dict):
        for name, sub in schema["properties"].items():
            problems += gemini_openapi_problems(sub, f"{path}.properties[{name!r}].value")
    if "items" in schema:
        problems += gemini_openapi_problems(schema["items"], f"{path}.items")
    branches = schema.get("anyOf", schema.get("any_of"))
    for i, sub in enumerate(branches) if isinstance(branches, list) else ():
        problems += gemini_openapi_problems(sub, f"{path}.any_of[{i}]")
    return problems


# -- Replies -------------------------------------------------------------------------------------------


def drop_nulls(value: Any) -> Any:
    """A strict reply read as its schema's author meant it: a property the schema left optional comes back
    null under OpenAI's strict mode (every property is required there); null means absent."""
    if isinstance(value, dict):
        return {k: drop_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [drop_nulls(v) for v in value]
    return value
