"""Any OpenAI-compatible chat endpoint (OpenAI, OpenRouter, vLLM, Ollama, llama.cpp server) via `openai`.

Requests are written in the model's dialect (forge.llm.api_rules): a reasoning model gets
`max_completion_tokens`, `reasoning_effort` and no sampling settings or stop sequences (those are
applied here); a reply schema goes in the endpoint's spelling, strict for OpenAI
(forge.llm.schema_rules). A request the API would refuse is never sent. Replies are read whole: the
refusal, the finish reason on FORGE's one set of outcomes, every kind of billed token.

The client's own retries are off: `ResilientProvider` owns retrying, so that backoff, Retry-After and
the shared retry budget are applied once, in one place. Every client error is translated into the
`forge.llm.types` errors with a message that names the provider and never contains the key.
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from dataclasses import replace
from typing import Any, Iterable, Mapping, Optional, Sequence

import openai

from forge.config import ForgeConfig, ProviderConfig, StructuredOutput
from forge.llm.api_rules import OPENAI_MAX_STOP, openai_reasoning_model, openai_request_refusals
from forge.llm.schema_rules import openai_form
from forge.llm.types import (
    LENGTH,
    REFUSAL,
    STOP,
    SURROGATE_OWNER,
    TOOL_CALL,
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
log = logging.getLogger(__name__)


class OpenAIProvider:
    """One `openai.OpenAI` client (one connection pool) per provider instance; safe to share across threads."""

    # The HTTP client enforces `timeout_s` itself, so the resilience layer need not run calls in a thread.
    enforces_timeout = True

    @classmethod
    def from_config(cls, name: str, cfg: ForgeConfig) -> "OpenAIProvider":
        return cls(name, cfg.providers[name])

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
        reasoning = openai_reasoning_model(model, self._cfg.reasoning)
        payload, local_stop = chat_body(self._cfg, messages, model=model, temperature=temperature,
                                        max_tokens=max_tokens, seed=seed, stop=stop, schema=schema,
                                        reasoning=reasoning, provider_name=self.name)
        # Checked as the API sees the model: a known reasoning family is one whatever the config says.
        refused = openai_request_refusals(payload, reasoning or openai_reasoning_model(model))
        if refused:
            raise ProviderError(f"provider {self.name!r}: a request for model {model!r} was not sent: the API would "
                                f"refuse it ({refused[0].param or 'request'}): {refused[0].message}")
        started = time.perf_counter()
        try:
            # The client's documented low-level `post` keeps its auth, base URL, connection pool, timeout
            # and status errors, but skips the typed request transform and response model construction,
            # pure Python on every call (scripts/bench/provider_overhead.py measures it), and we read a few
            # fields of the answer.
            answer = self._client.post("/chat/completions", body=payload, cast_to=dict)
        except openai.OpenAIError as exc:
            # `from None`: the client's exception holds the request, whose headers hold the key.
            raise self._translate(exc) from None
        except ValueError:  # a body that claims to be JSON and is not
            raise ProviderError(f"provider {self.name!r}: the answer for model {model!r} is not valid JSON") from None
        latency = time.perf_counter() - started
        completion = read_chat_completion(answer, model, self.name)
        if local_stop:  # stop sequences the model may not take are applied here, as the API would
            completion = cut_at_stop(completion, local_stop)
        if completion.usage is None:  # some local servers omit usage
            usage = Usage(sum(approx_tokens(m.content) for m in messages), approx_tokens(completion.text))
            completion = replace(completion, usage=usage)
        return replace(completion, latency_s=latency)

    def model_owners(self, timeout_s: float = 5.0) -> dict[str, str]:
        """What the endpoint's GET /models lists: each model id with its `owned_by`; empty when it lists none
        or cannot be asked now (one try, at most `timeout_s`: this is a label, not a call the session needs)."""
        timeout = min(timeout_s, self._cfg.timeout_s) if self._cfg.timeout_s > 0 else timeout_s
        try:
            answer = self._client.get("/models", cast_to=dict, options={"timeout": timeout})
        except (openai.OpenAIError, ValueError):
            return {}
        listed = answer.get("data") if isinstance(answer, dict) else None
        return {str(m["id"]): str(m.get("owned_by") or "") for m in listed or [] if isinstance(m, dict) and "id" in m}

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


def response_format(spelling: StructuredOutput, schema: Mapping[str, Any], *, provider_name: str = "") -> dict[str, Any]:
    """`response_format` for a JSON schema, as the endpoint spells it (ProviderConfig.structured_output).

    OpenAI's `json_schema` goes strict, in the form strict mode takes (forge.llm.schema_rules.openai_form);
    a schema that cannot be strict goes as it is with `strict: false`, and the log says so once."""
    if spelling == StructuredOutput.json_object:  # llama.cpp's server: its grammar is built from "schema"
        return {"type": "json_object", "schema": dict(schema)}
    form = openai_form(schema)
    if not form.strict:
        _note_not_strict(provider_name, schema, form.why)
    return {"type": "json_schema", "json_schema": {"name": "reply", "schema": form.schema, "strict": form.strict}}


_not_strict_seen: set[str] = set()
_not_strict_lock = threading.Lock()


def _note_not_strict(provider_name: str, schema: Mapping[str, Any], why: Sequence[str]) -> None:
    key = provider_name + json.dumps(schema, sort_keys=True)
    with _not_strict_lock:
        if key in _not_strict_seen:
            return
        _not_strict_seen.add(key)
    log.warning("provider %r: a reply schema cannot be made strict (%s); it goes with strict: false, so the "
                "endpoint may answer outside it (the reply is still validated)", provider_name, why[0] if why else "?")


def declares_surrogate(name: str, cfg: ProviderConfig, models: Iterable[str]) -> bool:
    """Whether the endpoint says on the wire that it serves one of `models` as FORGE's surrogate (`forge serve`
    lists the surrogate's models as owned by SURROGATE_OWNER). Only an endpoint with its own `base_url` is
    asked (a hosted API never serves the surrogate); one without the key it needs, or that cannot be asked
    now, says nothing (the session's first call reports what is wrong with it)."""
    if not cfg.base_url:
        return False
    try:
        provider = OpenAIProvider(name, cfg)
    except ProviderError:
        return False
    try:
        owners = provider.model_owners()
    finally:
        provider.close()
    return any(owners.get(model) == SURROGATE_OWNER for model in models)


def chat_body(cfg: ProviderConfig, messages: Sequence[Message], *, model: str, temperature: float, max_tokens: int,
              seed: Optional[int], stop: Optional[Sequence[str]], schema: Optional[Mapping[str, Any]],
              reasoning: bool, provider_name: str = "") -> tuple[dict[str, Any], tuple[str, ...]]:
    """The chat completions body in the model's dialect, and the stop sequences to apply here because the
    model takes none (a reasoning model) or not that many (over 4). Pure."""
    body: dict[str, Any] = {"model": model, "messages": [{"role": m.role, "content": m.content} for m in messages]}
    stops = tuple(s for s in (stop or ()) if s)
    if reasoning:
        # Reasoning models: max_completion_tokens (it counts their reasoning too), no sampling settings.
        body["max_completion_tokens"] = max_tokens
        if cfg.reasoning_effort is not None:
            body["reasoning_effort"] = cfg.reasoning_effort
        local_stop = stops
    else:
        body["temperature"] = temperature
        body["max_tokens"] = max_tokens
        if stops:
            body["stop"] = list(stops[:OPENAI_MAX_STOP])
        local_stop = stops[OPENAI_MAX_STOP:]
    if seed is not None:
        body["seed"] = seed
    if schema is not None and cfg.structured_output == StructuredOutput.vllm:
        body["structured_outputs"] = {"json": dict(schema)}  # vLLM's extra parameter (>= 0.12)
    elif schema is not None and cfg.structured_output != StructuredOutput.none:
        body["response_format"] = response_format(cfg.structured_output, schema, provider_name=provider_name)
    return body, local_stop


def read_chat_completion(answer: Any, model: str, provider_name: str = "") -> Completion:
    """A chat completion read whole: the text (or the refusal), how it ended on FORGE's one set of
    outcomes, and every kind of token. `usage` is None when the answer has none (the caller estimates)."""
    try:
        choice = answer["choices"][0]
        message = choice["message"]
        text = message.get("content") or ""
        if isinstance(text, list):  # content parts, as a few compatible servers answer
            text = "".join(p.get("text", "") for p in text if isinstance(p, dict))
    except (TypeError, KeyError, IndexError, AttributeError):
        raise ProviderError(
            f"provider {provider_name!r}: the answer for model {model!r} is not a chat completion (no choices[0].message)"
        ) from None
    raw = choice.get("finish_reason") if isinstance(choice, dict) else None
    refusal = message.get("refusal") if isinstance(message.get("refusal"), str) and message.get("refusal") else None
    outcome = _OPENAI_FINISH.get(str(raw)) if raw else None
    if refusal is not None:
        outcome, raw = REFUSAL, "refusal"
    elif message.get("tool_calls") or message.get("function_call"):
        outcome = TOOL_CALL
    if outcome == REFUSAL and refusal is None:
        refusal = f"finish_reason {raw}"
    return Completion(text=str(text), usage=read_usage(answer.get("usage")), model=str(answer.get("model") or model),
                      finish_reason=outcome, refusal=refusal, raw_finish_reason=str(raw) if raw else None)


# OpenAI's finish reasons on FORGE's outcomes (forge.llm.types.FINISH_OUTCOMES).
_OPENAI_FINISH = {"stop": STOP, "length": LENGTH, "content_filter": REFUSAL, "tool_calls": TOOL_CALL,
                  "function_call": TOOL_CALL}


def cut_at_stop(completion: Completion, stops: Sequence[str]) -> Completion:
    """The reply ended before the first of `stops`, as an endpoint that takes stop sequences returns it."""
    text = completion.text
    at = min((text.index(s) for s in stops if s in text), default=-1)
    if at < 0:
        return completion
    return replace(completion, text=text[:at], finish_reason=STOP if completion.finish_reason == LENGTH else completion.finish_reason)


def read_usage(raw: Any) -> Optional[Usage]:
    """`usage` of an answer with its parts: cached prompt tokens (`prompt_tokens_details.cached_tokens`)
    and reasoning tokens (`completion_tokens_details.reasoning_tokens`, billed as output and counted in
    `completion_tokens`); None when absent or odd, and the caller estimates."""
    try:
        prompt_details = raw.get("prompt_tokens_details") or {}
        completion_details = raw.get("completion_tokens_details") or {}
        cached = int(prompt_details.get("cached_tokens") or 0) if isinstance(prompt_details, dict) else 0
        reasoning = int(completion_details.get("reasoning_tokens") or 0) if isinstance(completion_details, dict) else 0
        return Usage(int(raw.get("prompt_tokens") or 0), int(raw.get("completion_tokens") or 0), cached, reasoning)
    except (AttributeError, TypeError, ValueError):
        return None
