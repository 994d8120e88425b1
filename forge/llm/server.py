"""A local HTTP front for any provider, speaking the OpenAI chat API and Gemini's generateContent.

Real clients (`openai`, `google-genai`) can then be driven end to end against whatever FORGE serves
(the surrogate model, a fault-injected provider, a test stub). A server-side `FaultPlan` lets tests
script 429s, 5xx and slow answers and count the attempts that arrive (`ServerStats`).

Standard library only: `ThreadingHTTPServer` with HTTP/1.1 keep-alive. Every response carries a
Content-Length and goes out in one write, so pooled client connections are reused and no
Nagle/delayed-ACK stall adds latency. Request bodies, keys and Authorization headers are never logged.
"""

from __future__ import annotations

import hmac
import json
import logging
import re
import socket
import threading
import time
import uuid
from collections import deque
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, NamedTuple, Optional, Sequence
from urllib.parse import parse_qs, unquote, urlsplit

from forge.llm.types import (
    Completion,
    Message,
    Provider,
    ProviderError,
    ProviderTimeout,
    RetryBudgetExhausted,
    Secret,
    TransientProviderError,
)

log = logging.getLogger(__name__)

MAX_BODY_BYTES = 32 * 1024 * 1024
_GEMINI_PATH = re.compile(r"^/(?:v1beta|v1)/(?P<model>.+):(?P<method>generateContent|streamGenerateContent)$")
_QUERY_KEY = re.compile(r"([?&](?:key|api_key)=)[^&\s'\"]*", re.IGNORECASE)
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


# -- Server-side faults and counters ---------------------------------------------------------------


@dataclass(frozen=True)
class PlannedFault:
    """What the server does to one model-call request instead of (or before) answering it."""

    status: Optional[int] = None  # answer with this error status instead of calling the provider
    retry_after: Optional[str] = None  # Retry-After header value sent with `status`
    delay_s: float = 0.0  # wait this long first (a slow model; lets client timeouts fire)
    message: Optional[str] = None  # error message in the body (default: "injected fault: HTTP <status>")


class FaultPlan:
    """Faults for the next model-call requests, consumed in arrival order (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._queue: deque[PlannedFault] = deque()
        self._every_delay_s = 0.0

    def add(self, fault: PlannedFault, times: int = 1) -> "FaultPlan":
        with self._lock:
            self._queue.extend([fault] * times)
        return self

    def fail_next(
        self, times: int, status: int, *, retry_after: Optional[float | str] = None, message: Optional[str] = None
    ) -> "FaultPlan":
        header = None if retry_after is None else (retry_after if isinstance(retry_after, str) else f"{retry_after:g}")
        return self.add(PlannedFault(status=status, retry_after=header, message=message), times)

    def delay_next(self, times: int, seconds: float) -> "FaultPlan":
        return self.add(PlannedFault(delay_s=seconds), times)

    def delay_every(self, seconds: float) -> "FaultPlan":
        """Every request not otherwise faulted waits `seconds` (a uniformly slow model)."""
        with self._lock:
            self._every_delay_s = seconds
        return self

    def clear(self) -> None:
        with self._lock:
            self._queue.clear()
            self._every_delay_s = 0.0

    def take(self) -> Optional[PlannedFault]:
        with self._lock:
            if self._queue:
                return self._queue.popleft()
            return PlannedFault(delay_s=self._every_delay_s) if self._every_delay_s > 0 else None


@dataclass
class ServerStats:
    """Model-call requests seen: arrival times (monotonic), answer statuses, peak concurrency, connections."""

    arrivals: list[float] = field(default_factory=list)
    statuses: list[int] = field(default_factory=list)
    in_flight: int = 0
    max_in_flight: int = 0
    connections: int = 0  # TCP connections accepted: shows whether clients reuse theirs
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def requests(self) -> int:
        with self._lock:
            return len(self.arrivals)

    def gaps(self) -> list[float]:
        """Seconds between consecutive arrivals: what a client's backoff looked like from here."""
        with self._lock:
            times = list(self.arrivals)
        return [b - a for a, b in zip(times, times[1:])]

    def reset(self) -> None:
        with self._lock:
            self.arrivals.clear()
            self.statuses.clear()
            self.in_flight = 0
            self.max_in_flight = 0
            self.connections = 0

    def _enter(self) -> None:
        with self._lock:
            self.arrivals.append(time.monotonic())
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)

    def _leave(self, status: int) -> None:
        with self._lock:
            self.in_flight -= 1
            self.statuses.append(status)


# -- Wire formats ----------------------------------------------------------------------------------


class _BadRequest(Exception):
    pass


def _text_of(content: Any) -> str:
    """OpenAI message content: a string, or a list of parts of which the text ones count."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, dict) and p.get("type", "text") == "text")
    raise _BadRequest("message content must be a string or a list of parts")


def _openai_request(body: dict) -> tuple[list[Message], dict[str, Any]]:
    raw = body.get("messages")
    if not isinstance(raw, list) or not raw:
        raise _BadRequest("'messages' must be a non-empty list")
    if body.get("stream"):
        raise _BadRequest("streaming is not supported by this server")
    roles = {"system": "system", "developer": "system", "assistant": "assistant"}
    messages = []
    for item in raw:
        if not isinstance(item, dict):
            raise _BadRequest("each message must be an object")
        messages.append(Message(roles.get(item.get("role"), "user"), _text_of(item.get("content"))))  # type: ignore[arg-type]
    stop = body.get("stop")
    seed = body.get("seed")
    options = {
        "model": str(body.get("model") or ""),
        "temperature": float(body.get("temperature") if body.get("temperature") is not None else 0.0),
        "max_tokens": int(body.get("max_completion_tokens") or body.get("max_tokens") or 512),
        "seed": None if seed is None else int(seed),
        "stop": [stop] if isinstance(stop, str) else stop,
    }
    return messages, options


def _openai_response(completion: Completion, model: str) -> dict:
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
                "finish_reason": "stop",
                "logprobs": None,
            }
        ],
        "usage": {
            "prompt_tokens": usage.prompt_tokens,
            "completion_tokens": usage.completion_tokens,
            "total_tokens": usage.prompt_tokens + usage.completion_tokens,
        },
    }


def _parts_text(node: Any) -> str:
    if not isinstance(node, dict):
        return ""
    parts = node.get("parts") or []
    return "".join(p.get("text", "") for p in parts if isinstance(p, dict))


def _gemini_request(body: dict, model: str) -> tuple[list[Message], dict[str, Any]]:
    contents = body.get("contents")
    if not isinstance(contents, list) or not contents:
        raise _BadRequest("'contents' must be a non-empty list")
    messages: list[Message] = []
    system = body.get("systemInstruction") or body.get("system_instruction")
    if system:
        messages.append(Message("system", _parts_text(system)))
    for item in contents:
        if not isinstance(item, dict):
            raise _BadRequest("each content must be an object")
        messages.append(Message("assistant" if item.get("role") == "model" else "user", _parts_text(item)))
    gen = body.get("generationConfig") or body.get("generation_config") or {}

    def pick(camel: str, snake: str) -> Any:
        return gen.get(camel, gen.get(snake))

    temperature = pick("temperature", "temperature")
    seed = pick("seed", "seed")
    options = {
        "model": model,
        "temperature": float(temperature) if temperature is not None else 0.0,
        "max_tokens": int(pick("maxOutputTokens", "max_output_tokens") or 512),
        "seed": None if seed is None else int(seed),
        "stop": pick("stopSequences", "stop_sequences"),
    }
    return messages, options


def _gemini_response(completion: Completion, model: str) -> dict:
    usage = completion.usage
    return {
        "candidates": [
            {
                "content": {"role": "model", "parts": [{"text": completion.text}]},
                "finishReason": "STOP",
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


def _error_body(gemini: bool, status: int, message: str) -> dict:
    if gemini:
        return {"error": {"code": status, "message": message, "status": _GEMINI_STATUS.get(status, "UNKNOWN")}}
    kind = {401: "authentication_error", 403: "permission_error", 429: "rate_limit_error"}.get(status)
    if kind is None:
        kind = "server_error" if status >= 500 else "invalid_request_error"
    return {"error": {"message": message, "type": kind, "param": None, "code": None}}


def _provider_failure(exc: ProviderError) -> tuple[int, list[tuple[str, str]]]:
    """The HTTP status a client should see when the served provider fails (this server is a gateway)."""
    if isinstance(exc, ProviderTimeout):
        return 504, []
    if isinstance(exc, TransientProviderError):
        headers = [] if exc.retry_after_s is None else [("Retry-After", f"{exc.retry_after_s:g}")]
        return (429 if exc.status == 429 else 503), headers
    if isinstance(exc, RetryBudgetExhausted):
        return 503, []
    return 502, []  # AuthenticationError included: our upstream credentials are not the client's business


# -- The HTTP machinery ----------------------------------------------------------------------------


class _Reply(NamedTuple):
    status: int
    payload: dict
    headers: tuple[tuple[str, str], ...] = ()


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "forge-serve"
    disable_nagle_algorithm = True
    timeout = 300  # idle keep-alive connections are dropped after this long
    server: "_HTTPServer"

    def setup(self) -> None:
        super().setup()
        self.server.app._track(self.connection, add=True)

    def finish(self) -> None:
        try:
            super().finish()
        finally:
            self.server.app._track(self.connection, add=False)

    # Paths can carry `?key=...` (Gemini's REST style): our own lines log paths without queries, and the
    # base class's error lines (which may quote a raw request line) are scrubbed.
    def log_message(self, format: str, *args: Any) -> None:
        log.debug("serve: %s", _QUERY_KEY.sub(r"\1[redacted]", format % args))

    def log_request(self, code: Any = "-", size: Any = "-") -> None:
        pass

    def send_error(self, code: int, message: Optional[str] = None, explain: Optional[str] = None) -> None:
        # The base class answers unparseable requests with an HTML page quoting the raw request line;
        # answer in JSON and quote nothing.
        self.log_error("code %d, message %s", code, message)
        self.close_connection = True
        self._send(code, _error_body(False, code, HTTPStatus(code).phrase))

    def do_GET(self) -> None:
        self._guard(self._get)

    def do_POST(self) -> None:
        self._guard(self._post)

    def _guard(self, handler: Any) -> None:
        try:
            handler()
        except (BrokenPipeError, ConnectionResetError, socket.timeout):
            # The client gave up (its timeout fired) while we were answering; nothing to tell it.
            self.close_connection = True

    def _get(self) -> None:
        path = urlsplit(self.path).path
        if not self._authorized(gemini=False):
            return self._error(False, 401, "missing or wrong API key")
        if path in ("/v1/models", "/models"):
            data = [{"id": m, "object": "model", "created": 0, "owned_by": "forge"} for m in self.server.app.models]
            return self._send(200, {"object": "list", "data": data})
        if path == "/health":
            return self._send(200, {"status": "ok"})
        return self._error(False, 404, f"no route for GET {path}")

    def _post(self) -> None:
        split = urlsplit(self.path)
        path = split.path
        body = self._read_body()
        if body is None:
            return
        gemini_match = _GEMINI_PATH.match(path)
        gemini = gemini_match is not None
        if not gemini and path not in ("/v1/chat/completions", "/chat/completions"):
            return self._error(False, 404, f"no route for POST {path}")
        app = self.server.app
        app.stats._enter()
        reply: Optional[_Reply] = None
        try:
            if self._authorized(gemini=gemini, query=split.query):
                reply = self._model_call(body, gemini_match)
            else:
                reply = _Reply(401, _error_body(gemini, 401, "missing or wrong API key"))
        finally:
            # Counted before the answer leaves, so a client that has its answer sees the stats updated.
            app.stats._leave(500 if reply is None else reply.status)
        if reply is not None:
            self._send(reply.status, reply.payload, reply.headers)
        else:
            self.close_connection = True  # the server is stopping

    def _model_call(self, raw: bytes, gemini_match: Optional[re.Match[str]]) -> Optional[_Reply]:
        app = self.server.app
        gemini = gemini_match is not None

        def error(status: int, message: str, headers: Sequence[tuple[str, str]] = ()) -> _Reply:
            return _Reply(status, _error_body(gemini, status, message), tuple(headers))

        fault = app.faults.take()
        if fault is not None:
            if fault.delay_s > 0 and app._stopping.wait(fault.delay_s):
                return None
            if fault.status is not None:
                headers = [] if fault.retry_after is None else [("Retry-After", fault.retry_after)]
                return error(fault.status, fault.message or f"injected fault: HTTP {fault.status}", headers)
        try:
            body = json.loads(raw)
            if not isinstance(body, dict):
                raise _BadRequest("the request body must be a JSON object")
            if gemini_match is not None:
                if gemini_match["method"] != "generateContent":
                    raise _BadRequest("streaming is not supported by this server")
                model = unquote(gemini_match["model"]).removeprefix("models/")
                messages, options = _gemini_request(body, model)
            else:
                messages, options = _openai_request(body)
        except (ValueError, TypeError, _BadRequest) as exc:
            # json errors quote the offending text, which could be anything the client sent: say less.
            return error(400, str(exc) if isinstance(exc, _BadRequest) else "malformed request body")
        try:
            completion = app.provider.complete(messages, **options)
        except ProviderError as exc:
            status, headers = _provider_failure(exc)
            log.warning("serve: provider %r failed: %s", app.provider_label, exc)
            return error(status, f"upstream provider failed: {exc}", headers)
        except Exception:
            log.exception("serve: provider %r raised unexpectedly", app.provider_label)
            return error(500, "internal error in the served provider")
        model = options["model"]
        return _Reply(200, _gemini_response(completion, model) if gemini else _openai_response(completion, model))

    def _read_body(self) -> Optional[bytes]:
        length = self.headers.get("Content-Length")
        if length is None:
            self.close_connection = True  # we cannot find the end of a body we were not told the size of
            self._error(False, 411, "Content-Length required")
            return None
        try:
            size = int(length)
        except ValueError:
            size = -1
        if not 0 <= size <= MAX_BODY_BYTES:
            self.close_connection = True
            self._error(False, 413, "request body too large or badly sized")
            return None
        return self.rfile.read(size)

    def _authorized(self, *, gemini: bool, query: str = "") -> bool:
        required = self.server.app.required_key
        if required is None:
            return True
        offered = ""
        auth = self.headers.get("Authorization", "")
        if auth.lower().startswith("bearer "):
            offered = auth[7:].strip()
        if not offered and gemini:
            offered = self.headers.get("x-goog-api-key", "") or (parse_qs(query).get("key") or [""])[0]
        return hmac.compare_digest(offered.encode(), required.reveal().encode())

    def _error(self, gemini: bool, status: int, message: str) -> None:
        self._send(status, _error_body(gemini, status, message))

    def _send(self, status: int, payload: dict, headers: Sequence[tuple[str, str]] = ()) -> None:
        data = json.dumps(payload, separators=(",", ":")).encode()
        lines = [
            f"HTTP/1.1 {status} {HTTPStatus(status).phrase}",
            "Content-Type: application/json",
            f"Content-Length: {len(data)}",
            f"Server: {self.server_version}",
        ]
        lines += [f"{name}: {value}" for name, value in headers]
        if self.close_connection:
            lines.append("Connection: close")
        self.wfile.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + data)
        log.debug("serve: %s %s -> %d", self.command, urlsplit(getattr(self, "path", "")).path, status)


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False

    def __init__(self, address: tuple[str, int], app: "ModelServer"):
        self.app = app
        self.address_family = socket.AF_INET6 if ":" in address[0] else socket.AF_INET
        super().__init__(address, _Handler)

    def handle_error(self, request: Any, client_address: Any) -> None:
        # The default prints a traceback to stderr; one line at debug level is enough for a dropped client.
        log.debug("serve: error while handling a request from %s", client_address[0], exc_info=True)


class ModelServer:
    """Serves `provider` over HTTP on `host:port` (port 0: a free one; read `.port` after `start()`).

    `required_key`: when set, clients must present it (Bearer, `x-goog-api-key` or `?key=`), else 401.
    """

    def __init__(
        self,
        provider: Provider,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        models: Sequence[str] = (),
        required_key: Optional[Secret] = None,
    ):
        self.provider = provider
        self.provider_label = getattr(provider, "name", type(provider).__name__)
        self.host = host
        self.models = list(models)
        self.required_key = required_key
        self.faults = FaultPlan()
        self.stats = ServerStats()
        self._requested_port = port
        self._httpd: Optional[_HTTPServer] = None
        self._thread: Optional[threading.Thread] = None
        self._stopping = threading.Event()
        self._connections: set[socket.socket] = set()
        self._conn_lock = threading.Lock()

    def __repr__(self) -> str:
        state = f"{self.url}" if self._httpd else "stopped"
        return f"ModelServer(provider={self.provider_label!r}, {state})"

    @property
    def port(self) -> int:
        if self._httpd is None:
            raise RuntimeError("the server is not running")
        return self._httpd.server_address[1]

    @property
    def url(self) -> str:
        """The root URL; OpenAI clients want `url + "/v1"`, google-genai wants `url` as its base_url."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    @property
    def openai_base_url(self) -> str:
        return self.url + "/v1"

    def start(self) -> "ModelServer":
        if self._httpd is not None:
            return self
        self._stopping.clear()
        self._httpd = _HTTPServer((self.host, self._requested_port), self)
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, name="forge-serve", daemon=True
        )
        self._thread.start()
        return self

    def serve_forever(self) -> None:
        """Blocking variant for the CLI (Ctrl-C stops it)."""
        self.start()
        assert self._thread is not None
        try:
            while self._thread.is_alive():
                self._thread.join(0.5)
        finally:
            self.stop()

    def stop(self) -> None:
        httpd, self._httpd = self._httpd, None
        if httpd is None:
            return
        self._stopping.set()  # wakes handlers sleeping in an injected delay
        httpd.shutdown()
        with self._conn_lock:
            open_connections = list(self._connections)
        # Idle keep-alive connections would otherwise hold their handler threads until the client hangs up.
        for conn in open_connections:
            try:
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        httpd.server_close()
        if self._thread is not None:
            self._thread.join(5)

    def __enter__(self) -> "ModelServer":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    def _track(self, conn: socket.socket, *, add: bool) -> None:
        with self._conn_lock:
            if add:
                self._connections.add(conn)
            else:
                self._connections.discard(conn)
        if add:
            with self.stats._lock:
                self.stats.connections += 1
