"""Any OpenAI-compatible chat endpoint (OpenAI, OpenRouter, vLLM, Ollama, llama.cpp server) via `openai`.

The client's own retries are off: `ResilientProvider` owns retrying, so that backoff, Retry-After and
the shared retry budget are applied once, in one place. Every client error is translated into the
`forge.llm.types` errors with a message that names the provider and never contains the key.
"""

from __future__ import annotations

import os
import time
from typing import Any, Mapping, Optional, Sequence

import openai

from forge.config import ProviderConfig, StructuredOutput
from forge.llm.types import (
    Completion,
    Message,
    ProviderError,
    ProviderTimeout,
    TransientProviderError,
    Usage,
    api_key_from_env,
    approx_tokens,
    key_rejected,
    parse_retry_after,
    safe_url,
)

# Statuses the openai client itself would retry: request timeout, conflict, rate limit, server errors.
_TRANSIENT_STATUSES = frozenset({408, 409, 429})
_DETAIL_CHARS = 300
_VALIDATION_ERROR = "validation error"


class OpenAIProvider:
    """One `openai.OpenAI` client (one connection pool) per provider instance; safe to share across threads."""

    # The HTTP client enforces `timeout_s` itself, so the resilience layer need not run calls in a thread.
    enforces_timeout = True

    def __init__(self, name: str, cfg: ProviderConfig, *, environ: Mapping[str, str] = os.environ):
        self.name = name
        self._cfg = cfg
        self._key = api_key_from_env(cfg.api_key_env, name, environ)
        self._client = openai.OpenAI(
            api_key=self._key.reveal(),
            base_url=cfg.base_url,
            timeout=cfg.timeout_s if cfg.timeout_s > 0 else None,
            max_retries=0,
        )

    def __repr__(self) -> str:
        return f"OpenAIProvider(name={self.name!r}, base_url={safe_url(self._cfg.base_url)!r}, api_key_env={self._cfg.api_key_env!r})"

    def complete(
        self,
        messages: Sequence[Message],
        *,
        model: str,
        temperature: float = 0.0,
        max_tokens: int = 512,
        seed: Optional[int] = None,
        stop: Optional[Sequence[str]] = None,
        schema: Optional[Mapping[str, Any]] = None,
    ) -> Completion:
        payload: dict[str, Any] = {
            "model": model,
            "messages": [{"role": m.role, "content": m.content} for m in messages],
            "temperature": temperature,
            "max_tokens": max_tokens,
        }
        if seed is not None:
            payload["seed"] = seed
        if stop:
            payload["stop"] = list(stop)
        if schema is not None and self._cfg.structured_output != StructuredOutput.none:
            payload["response_format"] = response_format(self._cfg.structured_output, schema)
        started = time.perf_counter()
        try:
            # The client's documented low-level `post` keeps its auth, base URL, connection pool, timeout
            # and status errors, but skips the typed request transform and response model construction:
            # together 0.5 ms of pure Python per call (scripts/bench/provider_overhead.py), and we read
            # three fields of the answer.
            answer = self._client.post("/chat/completions", body=payload, cast_to=dict)
        except openai.OpenAIError as exc:
            # `from None`: the client's exception holds the request, whose headers hold the key.
            raise self._translate(exc) from None
        except ValueError:  # a body that claims to be JSON and is not
            raise ProviderError(f"provider {self.name!r}: the answer for model {model!r} is not valid JSON") from None
        latency = time.perf_counter() - started
        text, usage, answered_model, finish = self._read_answer(answer, model)
        if usage is None:  # some local servers omit usage
            usage = Usage(sum(approx_tokens(m.content) for m in messages), approx_tokens(text))
        return Completion(text=text, usage=usage, model=answered_model, latency_s=latency, finish_reason=finish)

    def _read_answer(self, answer: Any, model: str) -> tuple[str, Optional[Usage], str, Optional[str]]:
        try:
            choice = answer["choices"][0]
            message = choice["message"]
            text = message.get("content") or ""
            if isinstance(text, list):  # content parts, as a few compatible servers answer
                text = "".join(p.get("text", "") for p in text if isinstance(p, dict))
        except (TypeError, KeyError, IndexError, AttributeError):
            raise ProviderError(
                f"provider {self.name!r}: the answer for model {model!r} is not a chat completion (no choices[0].message)"
            ) from None
        finish = choice.get("finish_reason") if isinstance(choice, dict) else None
        return str(text), read_usage(answer.get("usage")), str(answer.get("model") or model), \
            str(finish) if finish else None

    def close(self) -> None:
        self._client.close()

    def _translate(self, exc: openai.OpenAIError) -> ProviderError:
        where = f"provider {self.name!r} ({safe_url(self._cfg.base_url)})"
        if isinstance(exc, openai.APITimeoutError):
            return ProviderTimeout(f"{where}: no answer within {self._cfg.timeout_s:g}s")
        if isinstance(exc, openai.APIConnectionError):
            cause = type(exc.__cause__).__name__ if exc.__cause__ else "connection error"
            return TransientProviderError(f"{where}: could not connect ({cause})")
        if isinstance(exc, openai.APIStatusError):
            status = exc.status_code
            if status in (401, 403):
                return key_rejected(self.name, self._cfg.api_key_env, status)
            detail = self._detail(exc.message)
            # llama-cpp-python's server answers a request it cannot validate with a 500 (and says so):
            # retrying it can never help, so it is an error like a 4xx.
            if status == 500 and _VALIDATION_ERROR in detail:
                return ProviderError(f"{where}: HTTP {status} (the server could not validate the request): {detail}")
            if status in _TRANSIENT_STATUSES or status >= 500:
                return TransientProviderError(
                    f"{where}: HTTP {status}: {detail}",
                    retry_after_s=parse_retry_after(exc.response.headers),
                    status=status,
                )
            return ProviderError(f"{where}: HTTP {status}: {detail}")
        return ProviderError(f"{where}: {type(exc).__name__}: {self._detail(str(exc))}")

    def _detail(self, text: str) -> str:
        text = self._key.redact(text)
        return text if len(text) <= _DETAIL_CHARS else text[:_DETAIL_CHARS] + "..."


def response_format(spelling: StructuredOutput, schema: Mapping[str, Any]) -> dict[str, Any]:
    """`response_format` for a JSON schema, as the endpoint spells it (ProviderConfig.structured_output)."""
    if spelling == StructuredOutput.json_object:  # llama.cpp's server: its grammar is built from "schema"
        return {"type": "json_object", "schema": dict(schema)}
    return {"type": "json_schema", "json_schema": {"name": "reply", "schema": dict(schema), "strict": True}}


def read_usage(raw: Any) -> Optional[Usage]:
    """`usage` of an answer, cached prompt tokens included where reported (OpenAI's
    `prompt_tokens_details.cached_tokens`); None when absent or odd, and the caller estimates."""
    try:
        details = raw.get("prompt_tokens_details") or {}
        cached = int(details.get("cached_tokens") or 0) if isinstance(details, dict) else 0
        return Usage(int(raw.get("prompt_tokens") or 0), int(raw.get("completion_tokens") or 0), cached)
    except (AttributeError, TypeError, ValueError):
        return None
