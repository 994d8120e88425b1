"""Reading a JSON object out of a model's reply: models wrap JSON in code fences and prose."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Sequence

from forge.llm.types import Message, ProviderError

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


@dataclass
class JsonAnswer:
    value: Any = None  # what `validate` returned; None if no usable reply came
    completions: list = field(default_factory=list)  # every Completion received, in order
    error: Optional[Exception] = None  # the provider error that ended the exchange, if any
    problem: Optional[str] = None  # why the last reply was unusable, if it was


def ask_for_json(client, messages: Sequence, *, seed: int, validate: Callable[[Any], Any],
                 limit: int = 12000) -> JsonAnswer:
    """Ask a model for a JSON object, with one corrective re-prompt if the reply is unusable.

    `validate(data)` returns what the caller wants from the object or raises ValueError saying what is
    wrong; that reason goes back to the model in the correction. Provider errors end the exchange."""
    answer = JsonAnswer()
    messages = list(messages)
    for attempt in range(2):
        try:
            completion = client.complete(messages, seed=seed + attempt)
        except ProviderError as exc:
            answer.error = exc
            return answer
        answer.completions.append(completion)
        try:
            answer.value = validate(first_json_object(completion.text, limit))
            answer.problem = None
            return answer
        except ValueError as exc:
            answer.problem = str(exc)
            messages += [Message("assistant", completion.text[:2000] or "(empty reply)"),
                         Message("user", f"That reply could not be used ({exc}). Reply with the JSON object only.")]
    return answer
