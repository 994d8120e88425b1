"""HTTP/1.1 framing for `ModelApp` on the standard library's `ThreadingHTTPServer`.

Chosen over uvicorn + an ASGI app on measurement (scripts/bench/serve_stack.py prints both side by
side). Keep-alive, one thread per connection, at most `policy.max_connections` open at once (more are
answered 503 at accept time). Every response carries a Content-Length and goes out in one write, so
pooled client connections are reused and no Nagle/delayed-ACK stall adds latency. Request bodies,
keys and Authorization headers are never logged.
"""

from __future__ import annotations

import json
import logging
import re
import socket
import socketserver
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Optional
from urllib.parse import urlsplit

from forge.llm.serve import wire
from forge.llm.serve.app import Head, ModelApp, Reply

log = logging.getLogger("forge.llm.serve")

_QUERY_KEY = re.compile(r"([?&](?:key|api_key)=)[^&\s'\"]*", re.IGNORECASE)
# A refused request's body is skipped on the connection when at most this big (the connection stays
# usable); a bigger one closes the connection instead of being read.
_SKIP_BODY_BYTES = 64 * 1024
_LINGER_S = 1.0


def _frame(status: int, payload: dict, headers: tuple[tuple[str, str], ...], *, close: bool) -> bytes:
    data = json.dumps(payload, separators=(",", ":")).encode()
    lines = [
        f"HTTP/1.1 {status} {HTTPStatus(status).phrase}",
        "Content-Type: application/json",
        f"Content-Length: {len(data)}",
        "Server: forge-serve",
    ]
    lines += [f"{name}: {value}" for name, value in headers]
    if close:
        lines.append("Connection: close")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + data


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "forge-serve"
    disable_nagle_algorithm = True
    server: "StdlibHTTPServer"

    def setup(self) -> None:
        self.timeout = self.server.app.policy.idle_timeout_s  # idle keep-alive connections are dropped
        super().setup()
        self.server.track(self.connection, add=True)

    def finish(self) -> None:
        try:
            super().finish()
        finally:
            self.server.track(self.connection, add=False)

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
        self._send(Reply(code, wire.error_body(False, code, HTTPStatus(code).phrase)))

    def do_GET(self) -> None:
        self._guard()

    def do_POST(self) -> None:
        self._guard()

    def _guard(self) -> None:
        try:
            self._handle()
        except (BrokenPipeError, ConnectionResetError, socket.timeout):
            # The client gave up (its timeout fired) while we were answering; nothing to tell it.
            self.close_connection = True

    def _handle(self) -> None:
        app = self.server.app
        split = urlsplit(self.path)
        head = Head(self.command, split.path, split.query, {k.lower(): v for k, v in self.headers.items()})
        reply = app.check(head)
        if reply is not None:
            return self._answer_unread(head, reply)
        size = int(head.headers["content-length"])  # check() has validated it
        body = self.rfile.read(size)
        app.stats.read_body(len(body))
        if len(body) < size:
            self.close_connection = True  # the client went away mid-body
            return
        answer = app.answer(head, body)
        if answer is None:
            self.close_connection = True  # the server is stopping
            return
        self._send(answer)

    def _answer_unread(self, head: Head, reply: Reply) -> None:
        """Answer a request whose body (if any) was not read: then skip a small body to keep the
        connection usable, or close it (a big, oversized or unsized body is never read)."""
        unread: Optional[int] = 0
        length = head.headers.get("content-length")
        if length is not None:
            try:
                unread = int(length)
            except ValueError:
                unread = None
        elif head.headers.get("transfer-encoding"):
            unread = None  # we cannot find the end of a body we were not told the size of
        if unread is None or not 0 <= unread <= _SKIP_BODY_BYTES or reply.status == 413:
            self.close_connection = True
        self._send(reply)
        if self.close_connection or not unread:
            return
        self.connection.settimeout(_LINGER_S)  # a client that never sends the body does not hold us long
        try:
            self.rfile.read(unread)
        except OSError:
            self.close_connection = True
        finally:
            self.connection.settimeout(self.timeout)

    def _send(self, reply: Reply) -> None:
        self.wfile.write(_frame(reply.status, reply.payload, reply.headers, close=self.close_connection))
        log.debug("serve: %s %s -> %d", self.command, urlsplit(getattr(self, "path", "")).path, reply.status)
        if self.close_connection:
            self._linger()

    def _linger(self) -> None:
        """Half-close, then drop what the client is still sending for a moment: closing a socket with
        unread input sends a reset, which can destroy the answer before the client reads it."""
        try:
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_WR)
            self.connection.settimeout(_LINGER_S)
            discarded = 0
            while discarded < _SKIP_BODY_BYTES and (chunk := self.connection.recv(16384)):
                discarded += len(chunk)
        except OSError:
            pass


class StdlibHTTPServer(ThreadingHTTPServer):
    """`ModelApp` over HTTP/1.1; at most `app.policy.max_connections` connections open at once."""

    daemon_threads = True
    block_on_close = False

    def __init__(self, address: tuple[str, int], app: ModelApp):
        self.app = app
        self.address_family = socket.AF_INET6 if ":" in address[0] else socket.AF_INET
        self._connections: set[socket.socket] = set()
        self._conn_lock = threading.Lock()
        self._refusing = threading.BoundedSemaphore(max(8, app.policy.max_connections))
        super().__init__(address, _Handler)

    def process_request(self, request: Any, client_address: Any) -> None:
        # Decided here, on the accepting thread, so the count cannot race past the cap.
        if not self.app.stats.try_open_connection(self.app.policy.max_connections):
            self._refuse(request)
            return
        super().process_request(request, client_address)

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.app.stats.close_connection()

    def _refuse(self, request: socket.socket) -> None:
        # Answered on a short-lived thread, because a polite refusal lingers (see _linger); past a bound
        # on refusals in progress, a flood is simply hung up on.
        if not self._refusing.acquire(blocking=False):
            socketserver.TCPServer.shutdown_request(self, request)
            return
        threading.Thread(target=self._refuse_politely, args=(request,), name="forge-serve-refuse", daemon=True).start()

    def _refuse_politely(self, request: socket.socket) -> None:
        cap = self.app.policy.max_connections
        message = f"server busy: {cap} connections are open, the most this server accepts; retry shortly"
        try:
            request.settimeout(_LINGER_S)
            request.sendall(_frame(503, wire.error_body(False, 503, message), (("Retry-After", "1"),), close=True))
            request.shutdown(socket.SHUT_WR)
            discarded = 0
            while discarded < _SKIP_BODY_BYTES and (chunk := request.recv(16384)):
                discarded += len(chunk)
        except OSError:
            pass
        finally:
            request.close()
            self._refusing.release()
        log.info("serve: refused a connection: %d open (max_connections)", cap)

    def handle_error(self, request: Any, client_address: Any) -> None:
        # The default prints a traceback to stderr; one line at debug level is enough for a dropped client.
        log.debug("serve: error while handling a request from %s", client_address[0], exc_info=True)

    def track(self, conn: socket.socket, *, add: bool) -> None:
        with self._conn_lock:
            if add:
                self._connections.add(conn)
            else:
                self._connections.discard(conn)

    def drop_connections(self) -> None:
        """Shut every open connection: idle keep-alive ones would otherwise hold their threads until the
        client hangs up."""
        with self._conn_lock:
            open_connections = list(self._connections)
        for conn in open_connections:
            try:
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
