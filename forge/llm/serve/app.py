"""The model endpoint, independent of how HTTP is framed: a request head, then (maybe) its body, then a reply.

A model call is checked as the emulated API checks it (forge.llm.api_rules: parameters by model, reply
schemas by the API's rules) and refused with its status and error shape; then answered by the served
provider with the emulated thinking, prefix cache and scripted endings (forge.llm.serve.emulation).

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

from forge.llm.api_rules import gemini_request_refusals, openai_reasoning_model, openai_request_refusals
from forge.llm.serve import emulation, wire
from forge.llm.serve.faults import FaultPlan, ServerStats
from forge.llm.serve.policy import (
    ServePolicy,
    body_size_refusal,
    capped_max_tokens,
    key_accepted,
    model_refusal,
    offered_key,
)
from forge.llm.types import Completion, Provider, ProviderError, Secret

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
        pass_schema: bool = False,
        owned_by: str = "forge",
    ):
        self.provider = provider
        self.provider_label = getattr(provider, "name", type(provider).__name__)
        self.policy = policy
        self.required_key = required_key
        self.faults = faults or FaultPlan()
        self.stats = stats or ServerStats()
        self.stopping = stopping or threading.Event()
        # Whether a request's reply schema is passed on (a served provider that decodes under a schema).
        self.pass_schema = pass_schema
        # Who GET /v1/models says owns the served models: SURROGATE_OWNER when serving the surrogate, so that a
        # client labels its results as surrogate results (forge.wiring.with_served_labels).
        self.owned_by = owned_by
        self.cache = emulation.PrefixCache()

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
                return Reply(200, wire.openai_models(self.policy.models, self.owned_by))
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
        refused = self._refusals(gemini, body, request)
        if refused is not None:
            return refused
        if fault is not None and fault.outcome is not None:
            return self._render(gemini, request, emulation.scripted(fault.outcome, gemini, request, fault.message), 0)
        thoughts = emulation.thinking_tokens(gemini, request)
        budget = capped_max_tokens(request.max_tokens, self.policy.max_tokens)
        if thoughts >= budget:
            completion = emulation.spent_thinking(request, budget, thoughts)
        else:
            extra = {"schema": request.schema} if self.pass_schema and request.schema is not None else {}
            try:
                completion = self.provider.complete(
                    list(request.messages),
                    model=request.model,
                    temperature=request.temperature,
                    max_tokens=budget - thoughts,  # the reasoning counts against the completion budget
                    seed=request.seed,
                    stop=None if request.stop is None else list(request.stop),
                    **extra,
                )
            except ProviderError as exc:
                status, headers = wire.provider_failure(exc)
                log.warning("serve: provider %r failed: %s", self.provider_label, exc)
                return _error(gemini, status, f"upstream provider failed: {exc}", headers)
            except Exception:
                log.exception("serve: provider %r raised unexpectedly", self.provider_label)
                return _error(gemini, 500, "internal error in the served provider")
            completion = emulation.with_thinking_and_cache(completion, thoughts, 0)
        cached = self.cache.cached_tokens(gemini, request.model, emulation.prompt_text(request))
        completion = emulation.with_thinking_and_cache(completion, 0, cached)
        return self._render(gemini, request, completion, thoughts)

    def _refusals(self, gemini: bool, body: dict, request: "wire.ChatRequest") -> Optional[Reply]:
        """The API's own refusal of a request it would not take (status, error shape), or None."""
        if gemini:
            refused = gemini_request_refusals(body, request.model)
            if refused:
                messages = [r.message for r in refused]
                return Reply(refused[0].status, wire.error_body(True, refused[0].status, "\n".join(messages),
                                                                violations=messages))
            return None
        refused = openai_request_refusals(body, openai_reasoning_model(request.model))
        if refused:
            first = refused[0]
            return Reply(first.status, wire.error_body(False, first.status, first.message, param=first.param, code=first.code))
        return None

    def _render(self, gemini: bool, request: "wire.ChatRequest", completion: Completion, thoughts: int) -> Reply:
        if gemini:
            summary = f"(thought summary: {thoughts} tokens of emulated reasoning)" if request.include_thoughts and thoughts else None
            return Reply(200, wire.gemini_response(completion, request.model, thoughts=summary))
        return Reply(200, wire.openai_response(completion, request.model))
