"""Wire translation: OpenAI chat completions and Gemini generateContent bodies to and from FORGE's types.

Pure functions, no I/O. A request body becomes a `ChatRequest`; a `Completion` becomes the body the
client's SDK expects; a `ProviderError` becomes the status a gateway should answer with. Problems a
client caused raise `BadRequest` with a message that never quotes what the client sent.
"""

from __future__ import annotations

import re
import time
import uuid
from dataclasses import dataclass
from typing import Any, Optional
from urllib.parse import unquote

from forge.llm.types import (
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
    return ChatRequest(
        messages=tuple(messages),
        model=str(body.get("model") or ""),
        temperature=_number(body.get("temperature"), float, "temperature") or 0.0,
        max_tokens=_number(max_tokens, int, "max_tokens"),
        seed=_number(body.get("seed"), int, "seed"),
        stop=_stop(body.get("stop")),
    )


def openai_response(completion: Completion, model: str) -> dict:
    usage = completion.usage
    return {
        "id": f"chatcmpl-{uuid.uuid4().hex[:24]}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": completion.model or model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": completion.text},
                "finish_reason": completion.finish_reason or "stop",
                "logprobs": None,
            }
        ],
        "usage": {
            "prompt_tokens": usage.prompt_tokens,
            "completion_tokens": usage.completion_tokens,
            "total_tokens": usage.prompt_tokens + usage.completion_tokens,
        },
    }


def openai_models(models: tuple[str, ...]) -> dict:
    return {"object": "list", "data": [{"id": m, "object": "model", "created": 0, "owned_by": "forge"} for m in models]}


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

    return ChatRequest(
        messages=tuple(messages),
        model=model,
        temperature=_number(pick("temperature", "temperature"), float, "temperature") or 0.0,
        max_tokens=_number(pick("maxOutputTokens", "max_output_tokens"), int, "maxOutputTokens"),
        seed=_number(pick("seed", "seed"), int, "seed"),
        stop=_stop(pick("stopSequences", "stop_sequences")),
    )


def gemini_response(completion: Completion, model: str) -> dict:
    usage = completion.usage
    return {
        "candidates": [
            {
                "content": {"role": "model", "parts": [{"text": completion.text}]},
                "finishReason": "MAX_TOKENS" if completion.finish_reason == "length" else "STOP",
                "index": 0,
            }
        ],
        "usageMetadata": {
            "promptTokenCount": usage.prompt_tokens,
            "candidatesTokenCount": usage.completion_tokens,
            "totalTokenCount": usage.prompt_tokens + usage.completion_tokens,
        },
        "modelVersion": completion.model or model,
        "responseId": uuid.uuid4().hex[:24],
    }


def error_body(gemini: bool, status: int, message: str) -> dict:
    if gemini:
        return {"error": {"code": status, "message": message, "status": _GEMINI_STATUS.get(status, "UNKNOWN")}}
    kind = {401: "authentication_error", 403: "permission_error", 404: "not_found_error", 429: "rate_limit_error"}.get(status)
    if kind is None:
        kind = "server_error" if status >= 500 else "invalid_request_error"
    return {"error": {"message": message, "type": kind, "param": None, "code": None}}


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
