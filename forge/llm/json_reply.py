"""Reading a JSON object out of a model's reply: models wrap JSON in code fences and prose."""

from __future__ import annotations

import json
import re
from typing import Any

_FENCED = re.compile(r"```(?:json)?\s*(\{.*?\})\s*```", re.DOTALL)


def first_json_object(text: str, limit: int = 12000) -> Any:
    """The first parseable JSON object in the first `limit` characters; ValueError if there is none."""
    text = (text or "")[:limit]
    fenced = _FENCED.search(text)
    candidates = [fenced.group(1)] if fenced else []
    start = text.find("{")
    if start >= 0:
        candidates.append(text[start : text.rfind("}") + 1])
    for candidate in candidates:
        try:
            return json.loads(candidate)
        except ValueError:
            continue
    raise ValueError("no JSON object in the reply")
