"""Asking a model for a JSON object and reading it out of the reply (models wrap JSON in code fences and
prose), and the trace records of that exchange. Shared by the learners and the rule compiler."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Optional, Sequence

from forge.llm.schema_rules import drop_nulls
from forge.llm.types import Message, ModelCall, ProviderError

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
    outcomes: list = field(default_factory=list)  # per reply: "used" | "repaired: why" | "reprompted: why" | "fallback: why"


def ask_for_json(client, messages: Sequence, *, seed: int, validate: Callable[[Any], Any],
                 limit: int = 12000, schema: Optional[Mapping[str, Any]] = None) -> JsonAnswer:
    """Ask a model for a JSON object, with one corrective re-prompt if the reply is unusable.

    `validate(data)` returns what the caller wants from the object or raises ValueError saying what is
    wrong; that reason goes back to the model in the correction. Null members are dropped first: under
    OpenAI's strict mode every property of a schema is required, so an optional one comes back null. Provider errors end the exchange.
    `schema` goes with the call where the client constrains decoding (`client.structured`). Each reply's
    fate (used / repaired / reprompted / fallback) is noted on the client (`note_reply`) and kept in
    `answer.outcomes`."""
    answer = JsonAnswer()
    messages = list(messages)
    extra = {"schema": schema} if schema is not None and getattr(client, "structured", False) else {}
    for attempt in range(2):
        try:
            completion = client.complete(messages, seed=seed + attempt, **extra)
        except ProviderError as exc:
            answer.error = exc
            return answer
        answer.completions.append(completion)
        try:
            answer.value = validate(drop_nulls(first_json_object(completion.text, limit)))
            answer.problem = None
            text = (completion.text or "")[:limit].strip()
            _note(client, answer, "used" if text.startswith("{") and text.endswith("}") else "repaired: JSON inside other text")
            return answer
        except ValueError as exc:
            answer.problem = str(exc)
            reason = "cut at max_tokens" if completion.finish_reason == "length" else (
                "no JSON object" if str(exc) == "no JSON object in the reply" else "JSON of the wrong shape")
            _note(client, answer, f"{'fallback' if attempt else 'reprompted'}: {reason}")
            messages += [Message("assistant", completion.text[:2000] or "(empty reply)"),
                         Message("user", f"That reply could not be used ({exc}). Reply with the JSON object only.")]
    return answer


def _note(client, answer: JsonAnswer, outcome: str) -> None:
    answer.outcomes.append(outcome)
    note = getattr(client, "note_reply", None)
    if note is not None:
        note(outcome)


def call_records(role: str, answer: JsonAnswer) -> list[ModelCall]:
    """Trace records of a JSON exchange: every completion (with its reply's fate), and the provider
    error that ended it."""
    outcomes = list(answer.outcomes) + [None] * (len(answer.completions) - len(answer.outcomes))
    calls = [ModelCall(role, c.usage.prompt_tokens, c.usage.completion_tokens, c.latency_s, c.retries, (), reply=o)
             for c, o in zip(answer.completions, outcomes)]
    if answer.error is not None:
        calls.append(ModelCall(role, 0, 0, 0.0, 0, (), error=f"{type(answer.error).__name__}: {str(answer.error)[:200]}"))
    return calls
