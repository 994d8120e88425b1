"""The provider contract every agent talks through (DESIGN.md, "Contracts worth keeping stable").

`Provider.complete(messages, *, model, temperature, max_tokens, seed, stop) -> Completion`.
A provider returns text or raises a `ProviderError`; it never returns an error as if it were an answer.
A provider that supports constrained decoding also takes `schema=` (a JSON schema the reply must
match); callers pass it only to such providers (`ProviderConfig.structured_output`).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import Literal, Mapping, Optional, Protocol, Sequence, runtime_checkable
from urllib.parse import urlsplit

from forge.errors import ForgeError

ChatRole = Literal["system", "user", "assistant"]


@dataclass(frozen=True)
class Message:
    role: ChatRole
    content: str


@dataclass(frozen=True)
class Usage:
    """Every billed token of one call, by kind. `prompt_tokens` and `completion_tokens` are the totals
    billed as input and as output; the other two are parts of them with prices of their own."""

    prompt_tokens: int = 0
    completion_tokens: int = 0  # every output token billed: the reply and, for a reasoning model, its thoughts
    cached_prompt_tokens: int = 0  # of prompt_tokens, those the endpoint served from its prefix cache
    reasoning_tokens: int = 0  # of completion_tokens, the reasoning / thinking the model did before replying

    def __add__(self, other: "Usage") -> "Usage":
        return Usage(self.prompt_tokens + other.prompt_tokens, self.completion_tokens + other.completion_tokens,
                     self.cached_prompt_tokens + other.cached_prompt_tokens, self.reasoning_tokens + other.reasoning_tokens)


# How a reply ended, one set for every provider (each maps its own finish reasons onto it):
STOP = "stop"  # the model finished its reply (or met a stop sequence)
LENGTH = "length"  # cut at the completion budget (max_tokens / max_completion_tokens / max_output_tokens)
REFUSAL = "refusal"  # refused or blocked: OpenAI's message.refusal or content filter, Gemini's safety stops
TOOL_CALL = "tool_call"  # asked to call a tool instead of replying (FORGE offers none)
FINISH_OUTCOMES = (STOP, LENGTH, REFUSAL, TOOL_CALL)


@dataclass(frozen=True)
class Completion:
    text: str
    usage: Usage
    model: str = ""
    latency_s: float = 0.0
    retries: int = 0  # transient failures absorbed before this answer
    finish_reason: Optional[str] = None  # one of FINISH_OUTCOMES, where the endpoint says
    replayed: bool = False  # served from a session record (forge.llm.record), not by the model
    refusal: Optional[str] = None  # with finish_reason "refusal": what the endpoint said (its message or reason)
    raw_finish_reason: Optional[str] = None  # the endpoint's own word for how the reply ended


@runtime_checkable
class Provider(Protocol):
    name: str

    def complete(
        self,
        messages: Sequence[Message],
        *,
        model: str,
        temperature: float = 0.0,
        max_tokens: int = 512,
        seed: Optional[int] = None,
        stop: Optional[Sequence[str]] = None,
    ) -> Completion: ...


class ChatClient(Protocol):
    """What an agent calls: a provider bound to a model and its settings (`forge.llm.accounting.ModelClient`)."""

    def complete(self, messages, *, seed: Optional[int] = None, stop=None) -> Completion: ...


@dataclass(frozen=True)
class ModelCall:
    """One model call, as the trace records it."""

    role: str
    prompt_tokens: int
    completion_tokens: int
    latency_s: float
    retries: int
    injected: tuple[str, ...]
    error: Optional[str] = None
    injected_tokens: int = 0
    reply: Optional[str] = None  # what became of the reply: "used" | "repaired: why" | "reprompted: why" | "fallback: why"


class ProviderError(ForgeError, RuntimeError):
    """A model call failed. Messages never contain API keys."""

    # Transient failures absorbed before this error was raised (set by the resilience layer), so the
    # usage ledger can count the retries a failed call cost.
    retries: int = 0
    replayed: bool = False  # raised again from the session record (forge.llm.record): no model call was made


class TransientProviderError(ProviderError):
    """Worth retrying: timeouts, connection errors, 429, 5xx. `retry_after_s` honours Retry-After."""

    def __init__(self, message: str, *, retry_after_s: Optional[float] = None, status: Optional[int] = None):
        super().__init__(message)
        self.retry_after_s = retry_after_s
        self.status = status


class ProviderTimeout(TransientProviderError):
    """The per-call timeout fired."""


class ModelRefusal(ProviderError):
    """The model refused or was blocked (finish_reason "refusal"), or answered with a tool call: a billed
    call with no reply to use. Raised by the role's client after counting it, never retried."""

    def __init__(self, message: str, completion: Optional[Completion] = None):
        super().__init__(message)
        self.completion = completion


class AuthenticationError(ProviderError):
    """401/403: never retried; the message names the environment variable that holds the key."""


class RetryBudgetExhausted(ProviderError):
    """The provider's shared retry budget (or a call's max_retries) ran out.

    Raised from the last transient error, which stays reachable as `__cause__`.
    """


def approx_tokens(text: str) -> int:
    """Characters / 4, rounded up: the token estimate used where no tokenizer speaks for the model."""
    return (len(text) + 3) // 4


# -- Helpers shared by the network providers ------------------------------------------------------


class Secret:
    """An API key that never shows itself: not in repr/str, not in pickles (Ray ships configs, not keys)."""

    __slots__ = ("_value",)

    def __init__(self, value: str):
        self._value = value

    def reveal(self) -> str:
        return self._value

    def redact(self, text: str) -> str:
        """`text` with every occurrence of the key replaced; for server messages that echo what they got."""
        return text.replace(self._value, "[redacted]") if self._value else text

    def __repr__(self) -> str:
        return "Secret([redacted])"

    __str__ = __repr__

    def __reduce__(self):  # type: ignore[override]
        raise TypeError("a Secret is not picklable; read the key from the environment where it is used")


# Local OpenAI-compatible servers (vLLM, Ollama, llama.cpp) accept any key, but the client insists on one.
PLACEHOLDER_API_KEY = "not-needed"


def api_key_from_env(
    api_key_env: Optional[str], provider_name: str, environ: Mapping[str, str] = os.environ
) -> Secret:
    """The key held in the variable `api_key_env`; with no variable named, a placeholder (local servers)."""
    if api_key_env is None:
        return Secret(PLACEHOLDER_API_KEY)
    value = environ.get(api_key_env, "").strip()
    if not value:
        raise AuthenticationError(
            f"provider {provider_name!r}: no API key: set the environment variable {api_key_env}"
        )
    return Secret(value)


def parse_retry_after(headers: Mapping[str, str]) -> Optional[float]:
    """Seconds to wait from `retry-after-ms`, or `Retry-After` (seconds, fractional accepted, or an HTTP date)."""
    lowered = {k.lower(): v for k, v in headers.items()}
    raw_ms = lowered.get("retry-after-ms")
    if raw_ms is not None:
        try:
            return max(float(raw_ms) / 1000.0, 0.0)
        except ValueError:
            pass
    raw = lowered.get("retry-after")
    if raw is None:
        return None
    try:
        return max(float(raw), 0.0)
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(raw)
    except (TypeError, ValueError):
        return None
    return max(when.timestamp() - time.time(), 0.0)


def safe_url(url: Optional[str]) -> str:
    """`url` without any user:password part, for messages."""
    if not url:
        return "the default endpoint"
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    return parts._replace(netloc=host, query="", fragment="").geturl()


def key_rejected(provider_name: str, api_key_env: Optional[str], status: int) -> AuthenticationError:
    """The error for an endpoint refusing our key: it says which variable to fix, never the key."""
    if api_key_env:
        hint = f"set the environment variable {api_key_env} to a valid key"
    else:
        hint = f"set providers.{provider_name}.api_key_env to the environment variable that holds the key"
    return AuthenticationError(f"provider {provider_name!r} rejected the API key (HTTP {status}): {hint}")
