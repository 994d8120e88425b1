"""Google Gemini via `google-genai`, with the same error contract as the OpenAI-compatible provider.

A reply schema goes as `response_json_schema` (or, with `structured_output: openapi`, as
`response_schema` in its OpenAPI subset) with `response_mime_type: application/json`, in the form Gemini
takes (forge.llm.schema_rules); the thinking budget or level from the provider's config. A request the
API would refuse (forge.llm.api_rules) is never sent. Replies are read whole: thought parts kept out of
the text, the finish reason and a blocked prompt on FORGE's one set of outcomes, every kind of token.

The SDK's retries stay off (it retries only when given `retry_options`), so `ResilientProvider`
alone decides. `base_url` points the SDK anywhere, e.g. at `forge serve`.
"""

from __future__ import annotations

import importlib
import os
import re
import time
from dataclasses import replace
from typing import Any, Mapping, Optional, Sequence

from google import genai
from google.genai import errors as genai_errors
from google.genai import types as genai_types

from forge.config import ForgeConfig, ProviderConfig, StructuredOutput
from forge.llm.api_rules import gemini_request_refusals
from forge.llm.schema_rules import gemini_json_form, gemini_openapi_form
from forge.llm.types import (
    LENGTH,
    REFUSAL,
    STOP,
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

_TRANSIENT_STATUSES = frozenset({408, 429})
_DETAIL_CHARS = 300
_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)s\s*$")


def _transport_errors() -> tuple[tuple[type, ...], tuple[type, ...]]:
    """(timeout classes, other transport error classes) of whichever httpx flavours the SDK may use."""
    timeouts: list[type] = []
    transport: list[type] = []
    for module_name in ("httpx", "httpx2"):
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        timeouts.append(module.TimeoutException)
        transport.append(module.TransportError)
    return tuple(timeouts), tuple(transport)


_TIMEOUT_ERRORS, _TRANSPORT_ERRORS = _transport_errors()


def _retry_delay_from_details(details: Any) -> Optional[float]:
    """Gemini states its 429 backoff in the body (google.rpc.RetryInfo `retryDelay: "31s"`), not a header."""
    error = details.get("error", details) if isinstance(details, dict) else None
    for item in (error or {}).get("details", []) if isinstance(error, dict) else []:
        if isinstance(item, dict) and str(item.get("@type", "")).endswith("google.rpc.RetryInfo"):
            match = _DURATION.match(str(item.get("retryDelay", "")))
            if match:
                return float(match.group(1))
    return None


def _looks_like_bad_key(exc: genai_errors.APIError) -> bool:
    # Google answers an invalid key with 400 INVALID_ARGUMENT / reason API_KEY_INVALID, not 401.
    return exc.code == 400 and ("API_KEY_INVALID" in str(exc.details) or "API key not valid" in (exc.message or ""))


class GeminiProvider:
    """One `genai.Client` (one connection pool) per provider instance."""

    enforces_timeout = True  # the SDK's HTTP client enforces timeout_s

    @classmethod
    def from_config(cls, name: str, cfg: ForgeConfig) -> "GeminiProvider":
        return cls(name, cfg.providers[name])

    def __init__(self, name: str, cfg: ProviderConfig, *, environ: Mapping[str, str] = os.environ):
        self.name = name
        self._cfg = cfg
        self._key = api_key_from_env(cfg.api_key_env, name, environ)
        self._client = genai.Client(
            api_key=self._key.reveal(),
            vertexai=False,
            http_options=genai_types.HttpOptions(
                base_url=cfg.base_url,
                # Pinned: the SDK's default moved between releases, and v1beta carries every feature we use.
                api_version="v1beta",
                timeout=max(1, int(cfg.timeout_s * 1000)) if cfg.timeout_s > 0 else None,  # milliseconds
            ),
        )

    def __repr__(self) -> str:
        return f"GeminiProvider(name={self.name!r}, base_url={safe_url(self._cfg.base_url)!r}, api_key_env={self._cfg.api_key_env!r})"

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
        system = "\n\n".join(m.content for m in messages if m.role == "system")
        contents = [
            genai_types.Content(role="model" if m.role == "assistant" else "user", parts=[genai_types.Part(text=m.content)])
            for m in messages
            if m.role != "system"
        ]
        if not contents:  # Gemini needs at least one turn; a system-only prompt becomes the user turn
            contents, system = [genai_types.Content(role="user", parts=[genai_types.Part(text=system)])], ""
        fields = generation_fields(self._cfg, schema)
        refused = gemini_request_refusals({"generation_config": fields}, model)
        if refused:
            raise ProviderError(f"provider {self.name!r}: a request for model {model!r} was not sent: the API would "
                                f"refuse it: {refused[0].message}")
        config = genai_types.GenerateContentConfig(
            system_instruction=system or None,
            temperature=temperature,
            max_output_tokens=max_tokens,
            seed=seed,
            stop_sequences=list(stop) if stop else None,
            automatic_function_calling=genai_types.AutomaticFunctionCallingConfig(disable=True),
            **fields,
        )
        started = time.perf_counter()
        try:
            response = self._client.models.generate_content(model=model, contents=contents, config=config)
        except Exception as exc:
            translated = self._translate(exc)
            if translated is None:
                raise
            # `from None`: the SDK's exception chain holds the request, whose headers hold the key.
            raise translated from None
        latency = time.perf_counter() - started
        completion = read_response(response, model)
        if completion.usage is None:
            usage = Usage(sum(approx_tokens(m.content) for m in messages), approx_tokens(completion.text))
            completion = replace(completion, usage=usage)
        return replace(completion, latency_s=latency)

    def close(self) -> None:
        self._client.close()

    def _translate(self, exc: Exception) -> Optional[ProviderError]:
        """Our error for an SDK/transport error; None for anything else (a bug, to be raised as is)."""
        where = f"provider {self.name!r} ({safe_url(self._cfg.base_url)})"
        if isinstance(exc, genai_errors.APIError):
            status = exc.code or 0
            if status in (401, 403) or _looks_like_bad_key(exc):
                return key_rejected(self.name, self._cfg.api_key_env, status)
            detail = self._detail(f"{exc.status or ''} {exc.message or ''}".strip())
            if status in _TRANSIENT_STATUSES or status >= 500:
                headers = getattr(exc.response, "headers", None)
                retry_after = parse_retry_after(headers) if headers is not None else None
                if retry_after is None:
                    retry_after = _retry_delay_from_details(exc.details)
                return TransientProviderError(f"{where}: HTTP {status}: {detail}", retry_after_s=retry_after, status=status)
            return ProviderError(f"{where}: HTTP {status}: {detail}")
        if isinstance(exc, _TIMEOUT_ERRORS):
            return ProviderTimeout(f"{where}: no answer within {self._cfg.timeout_s:g}s")
        if isinstance(exc, _TRANSPORT_ERRORS):
            return TransientProviderError(f"{where}: could not connect ({type(exc).__name__})")
        if isinstance(exc, genai_errors.UnknownApiResponseError):
            return ProviderError(f"{where}: the answer is not valid JSON")
        return None

    def _detail(self, text: str) -> str:
        text = self._key.redact(text)
        return text if len(text) <= _DETAIL_CHARS else text[:_DETAIL_CHARS] + "..."


def generation_fields(cfg: ProviderConfig, schema: Optional[Mapping[str, Any]]) -> dict[str, Any]:
    """The generation config's structured-output and thinking fields, as the provider's config asks:
    `json_schema` -> response_json_schema, `openapi` -> response_schema (each in the form Gemini takes,
    forge.llm.schema_rules), and the thinking budget or level. Pure."""
    fields: dict[str, Any] = {}
    if schema is not None and cfg.structured_output in (StructuredOutput.json_schema, StructuredOutput.json_object):
        fields.update(response_mime_type="application/json", response_json_schema=gemini_json_form(schema))
    elif schema is not None and cfg.structured_output == StructuredOutput.openapi:
        fields.update(response_mime_type="application/json", response_schema=gemini_openapi_form(schema))
    thinking: dict[str, Any] = {}
    if cfg.thinking_budget is not None:
        thinking["thinking_budget"] = cfg.thinking_budget
    if cfg.thinking_level is not None:
        thinking["thinking_level"] = cfg.thinking_level.upper()
    if cfg.include_thoughts:
        thinking["include_thoughts"] = True
    if thinking:
        fields["thinking_config"] = thinking
    return fields


# Gemini's finish reasons on FORGE's outcomes (forge.llm.types.FINISH_OUTCOMES); any other reason with
# text is read as a stop, without text as what it is (counted by its name).
_GEMINI_FINISH = {
    "STOP": STOP, "MAX_TOKENS": LENGTH,
    **{reason: REFUSAL for reason in ("SAFETY", "RECITATION", "LANGUAGE", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII",
                                      "IMAGE_SAFETY", "IMAGE_PROHIBITED_CONTENT", "IMAGE_RECITATION", "MODEL_ARMOR")},
    **{reason: TOOL_CALL for reason in ("MALFORMED_FUNCTION_CALL", "UNEXPECTED_TOOL_CALL", "TOO_MANY_TOOL_CALLS")},
}


def _name(value: Any) -> Optional[str]:
    """An SDK enum's name (or a plain string the SDK did not know)."""
    if value is None:
        return None
    return str(getattr(value, "name", None) or getattr(value, "value", None) or value)


def read_response(response: Any, model: str) -> Completion:
    """A generateContent response read whole: the reply's text without thought parts; how it ended on
    FORGE's one set of outcomes (a blocked prompt, with no candidate, is a refusal); every kind of token
    (thoughts are billed as output; cached content is part of the prompt). `usage` is None when absent."""
    meta = response.usage_metadata
    usage = None
    if meta is not None and meta.prompt_token_count is not None:
        thoughts = meta.thoughts_token_count or 0
        usage = Usage(prompt_tokens=(meta.prompt_token_count or 0) + (meta.tool_use_prompt_token_count or 0),
                      completion_tokens=(meta.candidates_token_count or 0) + thoughts,
                      cached_prompt_tokens=meta.cached_content_token_count or 0, reasoning_tokens=thoughts)
    version = response.model_version or model
    if not response.candidates:
        feedback = response.prompt_feedback
        reason = _name(getattr(feedback, "block_reason", None)) if feedback else None
        return Completion(text="", usage=usage or Usage(), model=version, finish_reason=REFUSAL,
                          refusal=f"the prompt was blocked ({reason or 'no reason given'})",
                          raw_finish_reason=f"PROMPT_BLOCKED_{reason}" if reason else "PROMPT_BLOCKED")
    candidate = response.candidates[0]
    parts = (candidate.content.parts or []) if candidate.content else []
    text = "".join(part.text or "" for part in parts if not part.thought)
    raw = _name(candidate.finish_reason)
    outcome = _GEMINI_FINISH.get(raw or "", STOP if raw else None)
    if any(part.function_call for part in parts):
        outcome = TOOL_CALL
    refusal = None
    if outcome == REFUSAL:
        refusal = candidate.finish_message or f"finish reason {raw}"
    return Completion(text=text, usage=usage, model=version, finish_reason=outcome, refusal=refusal,
                      raw_finish_reason=raw)
