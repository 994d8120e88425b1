"""The model endpoint, independent of how HTTP is framed: a request head, then (maybe) its body, then a reply.

`ModelApp.check(head)` decides everything that can be decided from the request line and headers:
the key, the route, the body size. Only when it returns None does the transport read the body and
call `answer(head, body)`. So a client without the key, or with an oversized body, costs the
server no body bytes.
"""

from __future__ import annotations

import json
import logging
import threading
from dataclasses import dataclass
from typing import Mapping, NamedTuple, Optional

from forge.llm.serve import wire
from forge.llm.serve.faults import FaultPlan, ServerStats
from forge.llm.serve.policy import (
    ServePolicy,
    body_size_refusal,
    capped_max_tokens,
    key_accepted,
    model_refusal,
    offered_key,
)
from forge.llm.types import Provider, ProviderError, Secret

log = logging.getLogger("forge.llm.serve")


@dataclass(frozen=True)
class Head:
    """A request line and headers. `headers` has lower-case names."""

    method: str
    path: str
    query: str
    headers: Mapping[str, str]


class Reply(NamedTuple):
    status: int
    payload: dict
    headers: tuple[tuple[str, str], ...] = ()


def _error(gemini: bool, status: int, message: str, headers: tuple[tuple[str, str], ...] = ()) -> Reply:
    return Reply(status, wire.error_body(gemini, status, message), headers)


class ModelApp:
    """Serves `provider` under `policy`; `required_key` (if set) must be presented by every client."""

    def __init__(
        self,
        provider: Provider,
        policy: ServePolicy,
        *,
        required_key: Optional[Secret] = None,
        faults: Optional[FaultPlan] = None,
        stats: Optional[ServerStats] = None,
        stopping: Optional[threading.Event] = None,
    ):
        self.provider = provider
        self.provider_label = getattr(provider, "name", type(provider).__name__)
        self.policy = policy
        self.required_key = required_key
        self.faults = faults or FaultPlan()
        self.stats = stats or ServerStats()
        self.stopping = stopping or threading.Event()

    def check(self, head: Head) -> Optional[Reply]:
        """The reply decided before any body byte is read, or None: read the body and call `answer`."""
        gemini_route = wire.gemini_model(head.path)
        gemini = gemini_route is not None
        model_call = head.method == "POST" and (gemini or head.path in wire.OPENAI_CHAT_PATHS)
        if not key_accepted(offered_key(head.headers, head.query, gemini=gemini), self.required_key):
            if model_call:
                self.stats.record(401)
            return _error(gemini, 401, "missing or wrong API key")
        if head.method == "GET":
            if head.path in wire.OPENAI_MODELS_PATHS:
                return Reply(200, wire.openai_models(self.policy.models))
            if head.path == "/health":
                return Reply(200, {"status": "ok"})
            return _error(False, 404, f"no route for GET {head.path}")
        if not model_call:
            return _error(False, 404, f"no route for {head.method} {head.path}")
        refusal = body_size_refusal(head.headers.get("content-length"), self.policy.max_body_bytes)
        if refusal is not None:
            return _error(gemini, *refusal)
        return None

    def answer(self, head: Head, body: bytes) -> Optional[Reply]:
        """The reply to a model call whose body `check` let through; None when the server is stopping."""
        self.stats.enter()
        reply: Optional[Reply] = None
        try:
            reply = self._model_call(head, body)
        finally:
            # Counted before the answer leaves, so a client that has its answer sees the stats updated.
            self.stats.leave(500 if reply is None else reply.status)
        return reply

    def _model_call(self, head: Head, raw: bytes) -> Optional[Reply]:
        gemini_route = wire.gemini_model(head.path)
        gemini = gemini_route is not None
        fault = self.faults.take()
        if fault is not None:
            if fault.delay_s > 0 and self.stopping.wait(fault.delay_s):
                return None
            if fault.status is not None:
                headers = () if fault.retry_after is None else (("Retry-After", fault.retry_after),)
                return _error(gemini, fault.status, fault.message or f"injected fault: HTTP {fault.status}", headers)
        try:
            body = json.loads(raw)
            if gemini_route is not None:
                model, streaming = gemini_route
                if streaming:
                    raise wire.BadRequest("streaming is not supported by this server")
                request = wire.gemini_request(body, model)
            else:
                request = wire.openai_request(body)
        except (ValueError, TypeError, wire.BadRequest) as exc:
            # json errors quote the offending text, which could be anything the client sent: say less.
            return _error(gemini, 400, str(exc) if isinstance(exc, wire.BadRequest) else "malformed request body")
        refusal = model_refusal(request.model, self.policy.models)
        if refusal is not None:
            return _error(gemini, 404, refusal)
        try:
            completion = self.provider.complete(
                list(request.messages),
                model=request.model,
                temperature=request.temperature,
                max_tokens=capped_max_tokens(request.max_tokens, self.policy.max_tokens),
                seed=request.seed,
                stop=None if request.stop is None else list(request.stop),
            )
        except ProviderError as exc:
            status, headers = wire.provider_failure(exc)
            log.warning("serve: provider %r failed: %s", self.provider_label, exc)
            return _error(gemini, status, f"upstream provider failed: {exc}", headers)
        except Exception:
            log.exception("serve: provider %r raised unexpectedly", self.provider_label)
            return _error(gemini, 500, "internal error in the served provider")
        if gemini:
            return Reply(200, wire.gemini_response(completion, request.model))
        return Reply(200, wire.openai_response(completion, request.model))
