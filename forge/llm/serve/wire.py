"""Wire translation: OpenAI chat completions and Gemini generateContent bodies to and from FORGE's types.

Pure functions, no I/O. A request body becomes a `ChatRequest`; a `Completion` becomes the body the
client's SDK expects, each outcome in the API's own words (OpenAI: `message.refusal`, `finish_reason`
length / content_filter / tool_calls, usage with cached and reasoning tokens; Gemini: `finishReason`
MAX_TOKENS / SAFETY / ..., a blocked prompt's `promptFeedback`, thought parts, `usageMetadata` with
cached content and thoughts); a `ProviderError` becomes the status a gateway should answer with.
Problems a client caused raise `BadRequest` with a message that never quotes what the client sent.
"""

from __future__ import annotations

import re
import time
import uuid
from dataclasses import dataclass
from typing import Any, Optional, Sequence
from urllib.parse import unquote

from forge.llm.types import (
    LENGTH,
    REFUSAL,
    TOOL_CALL,
    Completion,
    Message,
    ProviderError,
    ProviderTimeout,
    RetryBudgetExhausted,
    TransientProviderError,
)

OPENAI_CHAT_PATHS = ("/v1/chat/completions", "/chat/completions")
OPENAI_MODELS_PATHS = ("/v1/models", "/models")
GEMINI_PATH = re.compile(r"^/(?:v1beta|v1)/(?P<model>.+):(?P<method>generateContent|streamGenerateContent)$")
_GEMINI_STATUS = {
    400: "INVALID_ARGUMENT",
    401: "UNAUTHENTICATED",
    403: "PERMISSION_DENIED",
    404: "NOT_FOUND",
    411: "INVALID_ARGUMENT",
    413: "INVALID_ARGUMENT",
    429: "RESOURCE_EXHAUSTED",
    500: "INTERNAL",
    502: "UNAVAILABLE",
    503: "UNAVAILABLE",
    504: "DEADLINE_EXCEEDED",
}


class BadRequest(Exception):
    """The client's request cannot be served as sent (answered 400)."""


@dataclass(frozen=True)
class ChatRequest:
    """One model call as a client asked for it. `max_tokens` is None when the client did not say."""

    messages: tuple[Message, ...]
    model: str
    temperature: float = 0.0
    max_tokens: Optional[int] = None
    seed: Optional[int] = None
    stop: Optional[tuple[str, ...]] = None
    schema: Optional[dict] = None  # the reply schema asked for (passed on to a served provider that takes one)
    reasoning_effort: Optional[str] = None  # OpenAI reasoning models
    thinking_budget: Optional[int] = None  # Gemini thinking models
    thinking_level: Optional[str] = None
    include_thoughts: bool = False


def gemini_model(path: str) -> Optional[tuple[str, bool]]:
    """(model, streaming) for a Gemini generateContent path, None for any other path."""
    match = GEMINI_PATH.match(path)
    if match is None:
        return None
    return unquote(match["model"]).removeprefix("models/"), match["method"] != "generateContent"


def _text_of(content: Any) -> str:
    """OpenAI message content: a string, or a list of parts of which the text ones count."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, dict) and p.get("type", "text") == "text")
    raise BadRequest("message content must be a string or a list of parts")


def _stop(value: Any) -> Optional[tuple[str, ...]]:
    if value is None:
        return None
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list) and all(isinstance(s, str) for s in value):
        return tuple(value)
    raise BadRequest("'stop' must be a string or a list of strings")


def _number(value: Any, kind: type, name: str) -> Any:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise BadRequest(f"'{name}' must be a number")
    return kind(value)


def openai_request(body: Any) -> ChatRequest:
    if not isinstance(body, dict):
        raise BadRequest("the request body must be a JSON object")
    raw = body.get("messages")
    if not isinstance(raw, list) or not raw:
        raise BadRequest("'messages' must be a non-empty list")
    if body.get("stream"):
        raise BadRequest("streaming is not supported by this server")
    roles = {"system": "system", "developer": "system", "assistant": "assistant"}
    messages = []
    for item in raw:
        if not isinstance(item, dict):
            raise BadRequest("each message must be an object")
        messages.append(Message(roles.get(item.get("role"), "user"), _text_of(item.get("content"))))  # type: ignore[arg-type]
    max_tokens = body.get("max_completion_tokens")
    if max_tokens is None:
        max_tokens = body.get("max_tokens")
    if max_tokens is not None and _number(max_tokens, int, "max_tokens") < 1:
        raise BadRequest("'max_tokens' must be at least 1")  # as OpenAI and llama.cpp answer it
    fmt = body.get("response_format") if isinstance(body.get("response_format"), dict) else {}
    spec = fmt.get("json_schema") if isinstance(fmt.get("json_schema"), dict) else {}
    schema = spec.get("schema") if fmt.get("type") == "json_schema" else fmt.get("schema")
    if schema is None and isinstance(body.get("structured_outputs"), dict):  # vLLM's spelling
        schema = body["structured_outputs"].get("json")
    effort = body.get("reasoning_effort")
    return ChatRequest(
        messages=tuple(messages),
        model=str(body.get("model") or ""),
        temperature=_number(body.get("temperature"), float, "temperature") or 0.0,
        max_tokens=_number(max_tokens, int, "max_tokens"),
        seed=_number(body.get("seed"), int, "seed"),
        stop=_stop(body.get("stop")),
        schema=schema if isinstance(schema, dict) else None,
        reasoning_effort=effort if isinstance(effort, str) else None,
    )


def openai_finish(completion: Completion) -> str:
    """OpenAI's finish_reason for an outcome: a refusal message ends with "stop" (the refusal is in the
    message), a content filter with "content_filter"."""
    if completion.finish_reason == REFUSAL:
        return "content_filter" if completion.raw_finish_reason == "content_filter" else "stop"
    return {LENGTH: "length", TOOL_CALL: "tool_calls"}.get(completion.finish_reason or "", "stop")


def openai_response(completion: Completion, model: str) -> dict:
    usage = completion.usage
    refused = completion.finish_reason == REFUSAL and completion.raw_finish_reason != "content_filter"
    message = {"role": "assistant", "content": None if refused else completion.text,
               "refusal": (completion.refusal or "I can't help with that.") if refused else None}
    return {
        "id": f"chatcmpl-{uuid.uuid4().hex[:24]}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": completion.model or model,
        "choices": [{"index": 0, "message": message, "finish_reason": openai_finish(completion), "logprobs": None}],
        "usage": {
            "prompt_tokens": usage.prompt_tokens,
            "completion_tokens": usage.completion_tokens,
            "total_tokens": usage.prompt_tokens + usage.completion_tokens,
            "prompt_tokens_details": {"cached_tokens": usage.cached_prompt_tokens, "audio_tokens": 0},
            "completion_tokens_details": {"reasoning_tokens": usage.reasoning_tokens, "audio_tokens": 0,
                                          "accepted_prediction_tokens": 0, "rejected_prediction_tokens": 0},
        },
    }


def openai_models(models: tuple[str, ...], owned_by: str = "forge") -> dict:
    return {"object": "list", "data": [{"id": m, "object": "model", "created": 0, "owned_by": owned_by} for m in models]}


def _parts_text(node: Any) -> str:
    if not isinstance(node, dict):
        return ""
    parts = node.get("parts") or []
    return "".join(p.get("text", "") for p in parts if isinstance(p, dict))


def gemini_request(body: Any, model: str) -> ChatRequest:
    if not isinstance(body, dict):
        raise BadRequest("the request body must be a JSON object")
    contents = body.get("contents")
    if not isinstance(contents, list) or not contents:
        raise BadRequest("'contents' must be a non-empty list")
    messages: list[Message] = []
    system = body.get("systemInstruction") or body.get("system_instruction")
    if system:
        messages.append(Message("system", _parts_text(system)))
    for item in contents:
        if not isinstance(item, dict):
            raise BadRequest("each content must be an object")
        messages.append(Message("assistant" if item.get("role") == "model" else "user", _parts_text(item)))
    gen = body.get("generationConfig") or body.get("generation_config") or {}
    if not isinstance(gen, dict):
        raise BadRequest("'generationConfig' must be an object")

    def pick(camel: str, snake: str) -> Any:
        return gen.get(camel, gen.get(snake))

    schema = pick("responseJsonSchema", "response_json_schema")
    if schema is None:
        schema = pick("responseSchema", "response_schema")
    thinking = pick("thinkingConfig", "thinking_config") or {}
    if not isinstance(thinking, dict):
        raise BadRequest("'thinkingConfig' must be an object")
    budget = thinking.get("thinkingBudget", thinking.get("thinking_budget"))
    level = thinking.get("thinkingLevel", thinking.get("thinking_level"))
    return ChatRequest(
        messages=tuple(messages),
        model=model,
        temperature=_number(pick("temperature", "temperature"), float, "temperature") or 0.0,
        max_tokens=_number(pick("maxOutputTokens", "max_output_tokens"), int, "maxOutputTokens"),
        seed=_number(pick("seed", "seed"), int, "seed"),
        stop=_stop(pick("stopSequences", "stop_sequences")),
        schema=schema if isinstance(schema, dict) else None,
        thinking_budget=_number(budget, int, "thinkingBudget"),
        thinking_level=str(level).lower() if isinstance(level, str) else None,
        include_thoughts=bool(thinking.get("includeThoughts", thinking.get("include_thoughts"))),
    )


PROMPT_BLOCKED = "PROMPT_BLOCKED"  # raw_finish_reason prefix of a prompt Gemini blocked (no candidate)
_GEMINI_REFUSALS = ("SAFETY", "RECITATION", "LANGUAGE", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII")


def gemini_response(completion: Completion, model: str, thoughts: Optional[str] = None) -> dict:
    """`thoughts`: a thought summary, sent as a thought part before the reply (include_thoughts)."""
    usage = completion.usage
    visible = usage.completion_tokens - usage.reasoning_tokens
    metadata = {"promptTokenCount": usage.prompt_tokens, "candidatesTokenCount": visible,
                "totalTokenCount": usage.prompt_tokens + usage.completion_tokens}
    if usage.reasoning_tokens:
        metadata["thoughtsTokenCount"] = usage.reasoning_tokens
    if usage.cached_prompt_tokens:
        metadata["cachedContentTokenCount"] = usage.cached_prompt_tokens
    body: dict[str, Any] = {"usageMetadata": metadata, "modelVersion": completion.model or model,
                            "responseId": uuid.uuid4().hex[:24]}
    raw = completion.raw_finish_reason or ""
    if completion.finish_reason == REFUSAL and raw.startswith(PROMPT_BLOCKED):
        reason = raw.removeprefix(PROMPT_BLOCKED).strip("_") or "SAFETY"
        return {**body, "promptFeedback": {"blockReason": reason, "safetyRatings": _safety_ratings()}}
    candidate: dict[str, Any] = {"index": 0}
    if completion.finish_reason == REFUSAL:
        candidate.update(finishReason=raw if raw in _GEMINI_REFUSALS else "SAFETY", safetyRatings=_safety_ratings())
        if completion.refusal:
            candidate["finishMessage"] = completion.refusal
    else:
        parts = ([{"text": thoughts, "thought": True}] if thoughts else []) + ([{"text": completion.text}] if completion.text else [])
        candidate["content"] = {"role": "model", "parts": parts}
        candidate["finishReason"] = {LENGTH: "MAX_TOKENS", TOOL_CALL: "UNEXPECTED_TOOL_CALL"}.get(completion.finish_reason or "", "STOP")
    return {"candidates": [candidate], **body}


def _safety_ratings() -> list[dict]:
    return [{"category": "HARM_CATEGORY_DANGEROUS_CONTENT", "probability": "HIGH", "blocked": True}]


def error_body(gemini: bool, status: int, message: str, *, param: Optional[str] = None, code: Optional[str] = None,
               violations: Sequence[str] = ()) -> dict:
    """The API's error shape. OpenAI: message, type, param, code. Gemini: code, message, status, and for
    an invalid request body a google.rpc.BadRequest detail listing each violation."""
    if gemini:
        error: dict[str, Any] = {"code": status, "message": message, "status": _GEMINI_STATUS.get(status, "UNKNOWN")}
        if violations:
            error["details"] = [{"@type": "type.googleapis.com/google.rpc.BadRequest",
                                 "fieldViolations": [{"field": "generation_config", "description": v} for v in violations]}]
        return {"error": error}
    kind = {401: "authentication_error", 403: "permission_error", 404: "not_found_error", 429: "rate_limit_error"}.get(status)
    if kind is None:
        kind = "server_error" if status >= 500 else "invalid_request_error"
    return {"error": {"message": message, "type": kind, "param": param, "code": code}}


def provider_failure(exc: ProviderError) -> tuple[int, tuple[tuple[str, str], ...]]:
    """The HTTP status a client should see when the served provider fails (this server is a gateway)."""
    if isinstance(exc, ProviderTimeout):
        return 504, ()
    if isinstance(exc, TransientProviderError):
        headers = () if exc.retry_after_s is None else (("Retry-After", f"{exc.retry_after_s:g}"),)
        return (429 if exc.status == 429 else 503), headers
    if isinstance(exc, RetryBudgetExhausted):
        return 503, ()
    return 502, ()  # AuthenticationError included: our upstream credentials are not the client's business
