"""The provider contract every agent talks through (DESIGN.md, "Contracts worth keeping stable").

`Provider.complete(messages, *, model, temperature, max_tokens, seed, stop) -> Completion`.
A provider returns text or raises a `ProviderError`; it never returns an error as if it were an answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Optional, Protocol, Sequence, runtime_checkable

ChatRole = Literal["system", "user", "assistant"]


@dataclass(frozen=True)
class Message:
    role: ChatRole
    content: str


@dataclass(frozen=True)
class Usage:
    prompt_tokens: int = 0
    completion_tokens: int = 0

    def __add__(self, other: "Usage") -> "Usage":
        return Usage(self.prompt_tokens + other.prompt_tokens, self.completion_tokens + other.completion_tokens)


@dataclass(frozen=True)
class Completion:
    text: str
    usage: Usage
    model: str = ""
    latency_s: float = 0.0
    retries: int = 0  # transient failures absorbed before this answer


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


class ProviderError(RuntimeError):
    """A model call failed. Messages never contain API keys."""


class TransientProviderError(ProviderError):
    """Worth retrying: timeouts, connection errors, 429, 5xx. `retry_after_s` honours Retry-After."""

    def __init__(self, message: str, *, retry_after_s: Optional[float] = None, status: Optional[int] = None):
        super().__init__(message)
        self.retry_after_s = retry_after_s
        self.status = status


class ProviderTimeout(TransientProviderError):
    """The per-call timeout fired."""


class AuthenticationError(ProviderError):
    """401/403: never retried; the message names the environment variable that holds the key."""


class RetryBudgetExhausted(ProviderError):
    """The provider's shared retry budget (or a call's max_retries) ran out."""


def approx_tokens(text: str) -> int:
    """Characters / 4, rounded up: the token estimate used where no tokenizer speaks for the model."""
    return (len(text) + 3) // 4
