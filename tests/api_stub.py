"""A served model for the API conformance tests: it answers a request that carries a reply schema with
the smallest JSON value of that schema (as constrained decoding would), any other with an echo; tokens
are characters / 4, and a reply longer than its budget is cut and says `length`."""

from __future__ import annotations

import json
from typing import Any, Optional

from forge.llm.types import LENGTH, STOP, Completion, Usage, approx_tokens


def instance_of(schema: Any, root: Optional[dict] = None, depth: int = 0) -> Any:
    """The smallest JSON value `schema` accepts: first enum value, first non-null branch, required
    properties only, minItems items."""
    root = root if root is not None else schema
    if not isinstance(schema, dict) or depth > 12:
        return None
    if "$ref" in schema:
        ref = schema["$ref"]
        target = root if ref == "#" else root.get("$defs", {}).get(ref.rsplit("/", 1)[-1], {})
        return instance_of(target, root, depth + 1)
    if "enum" in schema:
        return next((v for v in schema["enum"] if v is not None), None)
    if "const" in schema:
        return schema["const"]
    for key in ("anyOf", "oneOf"):
        if key in schema:
            branches = [b for b in schema[key] if b.get("type") not in ("null", "NULL")]
            return instance_of(branches[0], root, depth + 1) if branches else None
    kinds = schema.get("type")
    kind = next((k for k in kinds if k != "null"), "null") if isinstance(kinds, list) else (kinds or "object")
    kind = str(kind).lower()
    if kind == "object":
        properties = schema.get("properties") or {}
        return {name: instance_of(sub, root, depth + 1) for name, sub in properties.items()
                if name in (schema.get("required") or [])}
    if kind == "array":
        return [instance_of(schema.get("items", {}), root, depth + 1) for _ in range(int(schema.get("minItems", 0)))]
    return {"string": "ok", "integer": 0, "number": 0, "boolean": True}.get(kind)


class SchemaAnswering:
    """A provider that decodes under a reply schema (pass it with ModelServer(pass_schema=True))."""

    name = "schema-stub"

    def __init__(self) -> None:
        self.calls: list[dict] = []

    def complete(self, messages, *, model, temperature=0.0, max_tokens=512, seed=None, stop=None, schema=None):
        self.calls.append(dict(model=model, max_tokens=max_tokens, schema=schema, temperature=temperature, stop=stop))
        text = json.dumps(instance_of(schema)) if schema is not None else f"echo: {messages[-1].content}"
        for marker in stop or ():
            if marker in text:
                text = text[: text.index(marker)]
        cut = approx_tokens(text) > max_tokens
        text = text[: max_tokens * 4]
        return Completion(text=text, usage=Usage(sum(approx_tokens(m.content) for m in messages), approx_tokens(text)),
                          model=model, finish_reason=LENGTH if cut else STOP)
