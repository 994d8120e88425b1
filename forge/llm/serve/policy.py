"""What `forge serve` lets through: the pure decisions, each tested without a socket.

A server fronts a provider on the operator's key, so it bounds what clients can spend: only the
configured models, at most `max_tokens` per answer, bodies up to `max_body_bytes`, at most
`max_connections` open connections, and a key whenever anyone but this machine can reach it.
"""

from __future__ import annotations

import hmac
import ipaddress
from dataclasses import dataclass
from typing import Mapping, Optional, Sequence
from urllib.parse import parse_qs

from forge.llm.types import Secret

DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024  # ~1M tokens of prompt: far above any FORGE call
DEFAULT_MAX_CONNECTIONS = 64
DEFAULT_MAX_TOKENS = 4096
DEFAULT_IDLE_TIMEOUT_S = 60.0
UNSET_MAX_TOKENS = 512  # what a client that names no limit gets (capped like any other value)


@dataclass(frozen=True)
class ServePolicy:
    """Limits for one server. `models`: the only model names served (and listed by GET /v1/models)."""

    models: tuple[str, ...]
    max_tokens: int = DEFAULT_MAX_TOKENS
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES
    max_connections: int = DEFAULT_MAX_CONNECTIONS
    idle_timeout_s: float = DEFAULT_IDLE_TIMEOUT_S

    def __post_init__(self) -> None:
        problems = []
        if not self.models:
            problems.append("models: at least one model name must be served")
        for name in ("max_tokens", "max_body_bytes", "max_connections"):
            if getattr(self, name) < 1:
                problems.append(f"{name} must be at least 1, got {getattr(self, name)}")
        if self.idle_timeout_s <= 0:
            problems.append(f"idle_timeout_s must be positive, got {self.idle_timeout_s}")
        if problems:
            raise ValueError("serve limits: " + "; ".join(problems))


def is_loopback(host: str) -> bool:
    """True only for addresses no other machine can reach. A hostname other than localhost counts as
    reachable: what it resolves to can change."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def bind_refusal(host: str, has_key: bool) -> Optional[str]:
    """Why binding `host` must be refused, or None. An open port on the operator's key is refused."""
    if has_key or is_loopback(host):
        return None
    return (
        f"refusing to serve on {host} without a key: anyone who can reach {host} could spend the provider's "
        f"quota; pass --require-key-env VAR (clients then present the key held in VAR) or bind to 127.0.0.1"
    )


def model_refusal(model: str, allowed: Sequence[str]) -> Optional[str]:
    """Why `model` may not be served, or None."""
    if model in allowed:
        return None
    asked = repr(model) if model else "no model"
    return f"model {asked} is not served here; served models: {', '.join(allowed)}"


def capped_max_tokens(requested: Optional[int], cap: int) -> int:
    """The completion budget passed upstream: what the client asked (512 if it did not say), at most `cap`."""
    wanted = UNSET_MAX_TOKENS if requested is None or requested < 1 else requested
    return min(wanted, cap)


def body_size_refusal(content_length: Optional[str], limit: int) -> Optional[tuple[int, str]]:
    """(status, message) when a request body must not be read, or None."""
    if content_length is None:
        return 411, "Content-Length required (chunked request bodies are not accepted)"
    try:
        size = int(content_length)
    except ValueError:
        return 400, "Content-Length is not a number"
    if size < 0:
        return 400, "Content-Length is negative"
    if size > limit:
        return 413, f"request body of {size} bytes is over this server's limit of {limit} bytes"
    return None


def offered_key(headers: Mapping[str, str], query: str, *, gemini: bool) -> str:
    """The key a client presented: `Authorization: Bearer`, or for Gemini routes `x-goog-api-key` / `?key=`.
    `headers` has lower-case names."""
    auth = headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip()
    if gemini:
        return headers.get("x-goog-api-key", "") or (parse_qs(query).get("key") or [""])[0]
    return ""


def key_accepted(offered: str, required: Optional[Secret]) -> bool:
    if required is None:
        return True
    return hmac.compare_digest(offered.encode(), required.reveal().encode())
