"""The local OpenAI/Gemini-compatible server, over raw HTTP, and `forge serve` end to end."""

from __future__ import annotations

import http.client
import json
import logging
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import openai
import pytest
from google import genai
from google.genai import types as genai_types

from forge.config import ConfigError
from forge.llm.serve import ModelServer
from forge.llm.serve.policy import bind_refusal, capped_max_tokens, is_loopback
from forge.llm.types import (
    AuthenticationError,
    Completion,
    ProviderTimeout,
    RetryBudgetExhausted,
    Secret,
    TransientProviderError,
    Usage,
)

REPO = Path(__file__).resolve().parents[1]
SENTINEL = "sk-forge-test-SENTINEL-server-5e1d"


class EchoProvider:
    """Answers with the last message; records the options of every call it gets."""

    name = "echo"

    def __init__(self, errors=()):
        self.errors = list(errors)
        self.calls: list[dict] = []

    def complete(self, messages, *, model, temperature=0.0, max_tokens=512, seed=None, stop=None):
        self.calls.append(dict(model=model, max_tokens=max_tokens))
        if self.errors:
            raise self.errors.pop(0)
        text = f"echo: {messages[-1].content}"
        return Completion(text=text, usage=Usage(sum(len(m.content.split()) for m in messages), len(text.split())), model=model)


@pytest.fixture
def server():
    with ModelServer(EchoProvider(), models=["echo-1", "echo-2"]) as srv:
        yield srv


def post(conn: http.client.HTTPConnection, path: str, body, headers=None):
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    conn.request("POST", path, data, {"Content-Type": "application/json", **(headers or {})})
    response = conn.getresponse()
    return response.status, dict(response.getheaders()), response.read()


CHAT = {"model": "echo-1", "messages": [{"role": "user", "content": "hello"}]}


def test_models_health_and_chat_share_one_keep_alive_connection(server):
    conn = http.client.HTTPConnection("127.0.0.1", server.port)
    conn.request("GET", "/v1/models")
    models = json.loads(conn.getresponse().read())
    assert [m["id"] for m in models["data"]] == ["echo-1", "echo-2"]
    conn.request("GET", "/health")
    assert json.loads(conn.getresponse().read()) == {"status": "ok"}
    status, headers, body = post(conn, "/v1/chat/completions", CHAT)
    answer = json.loads(body)
    assert status == 200 and int(headers["Content-Length"]) == len(body)
    assert answer["choices"][0]["message"] == {"role": "assistant", "content": "echo: hello", "refusal": None}
    usage = answer["usage"]
    assert (usage["prompt_tokens"], usage["completion_tokens"], usage["total_tokens"]) == (1, 2, 3)
    assert usage["prompt_tokens_details"]["cached_tokens"] == usage["completion_tokens_details"]["reasoning_tokens"] == 0
    assert server.stats.connections == 1


def test_bad_requests_are_400_and_do_not_echo_the_body(server):
    conn = http.client.HTTPConnection("127.0.0.1", server.port)
    status, _, body = post(conn, "/v1/chat/completions", b'{"messages": [' + SENTINEL.encode())
    assert status == 400 and SENTINEL.encode() not in body
    assert post(conn, "/v1/chat/completions", {"model": "m"})[0] == 400
    assert post(conn, "/v1/chat/completions", {**CHAT, "stream": True})[0] == 400
    assert post(conn, "/v1beta/models/g:streamGenerateContent", {"contents": [{"parts": [{"text": "x"}]}]})[0] == 400
    assert post(conn, "/v1/embeddings", {"input": "x"})[0] == 404
    assert post(conn, "/v1/chat/completions", CHAT)[0] == 200  # the connection survived all of that


def test_a_body_without_length_is_refused_and_the_connection_closed(server):
    with socket.create_connection(("127.0.0.1", server.port)) as sock:
        sock.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        reply = b""
        while chunk := sock.recv(4096):
            reply += chunk
    assert reply.startswith(b"HTTP/1.1 411") and b"Connection: close" in reply


@pytest.mark.parametrize(
    "error, status, retry_after",
    [
        (TransientProviderError("slow down", retry_after_s=2, status=429), 429, "2"),
        (TransientProviderError("upstream 502", status=502), 503, None),
        (ProviderTimeout("no answer"), 504, None),
        (RetryBudgetExhausted("gave up"), 503, None),
        (AuthenticationError("set UPSTREAM_KEY"), 502, None),
        (ValueError("a bug"), 500, None),
    ],
)
def test_provider_failures_become_gateway_statuses(error, status, retry_after):
    with ModelServer(EchoProvider([error]), models=["echo-1"]) as srv:
        got, headers, body = post(http.client.HTTPConnection("127.0.0.1", srv.port), "/v1/chat/completions", CHAT)
    assert got == status
    assert headers.get("Retry-After") == retry_after
    assert "a bug" not in body.decode()  # internals stay in the server log


def test_required_key_accepts_bearer_goog_header_and_query():
    with ModelServer(EchoProvider(), models=["echo-1", "g"], required_key=Secret(SENTINEL)) as srv:
        conn = http.client.HTTPConnection("127.0.0.1", srv.port)
        gemini = {"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}
        assert post(conn, "/v1/chat/completions", CHAT)[0] == 401
        assert post(conn, "/v1/chat/completions", CHAT, {"Authorization": "Bearer nope"})[0] == 401
        assert post(conn, "/v1/chat/completions", CHAT, {"Authorization": f"Bearer {SENTINEL}"})[0] == 200
        assert post(conn, "/v1beta/models/g:generateContent", gemini, {"x-goog-api-key": SENTINEL})[0] == 200
        assert post(conn, f"/v1beta/models/g:generateContent?key={SENTINEL}", gemini)[0] == 200
        conn.request("GET", "/v1/models")
        response = conn.getresponse()
        assert response.status == 401 and SENTINEL.encode() not in response.read()


def test_keys_and_bodies_are_never_logged_or_echoed(caplog):
    caplog.set_level(logging.DEBUG)
    bodies = []
    with ModelServer(EchoProvider(), models=["echo-1", "g"], required_key=Secret(SENTINEL)) as srv:
        conn = http.client.HTTPConnection("127.0.0.1", srv.port)
        secret_body = {"model": "echo-1", "messages": [{"role": "user", "content": "body-SECRET-words"}]}
        for headers in ({"Authorization": f"Bearer {SENTINEL}-wrong"}, {"Authorization": f"Bearer {SENTINEL}"}):
            bodies.append(post(conn, "/v1/chat/completions", secret_body, headers)[2])
        bodies.append(post(conn, f"/v1beta/models/g:generateContent?key={SENTINEL}x", {"contents": []})[2])
        srv.faults.fail_next(1, 500)
        bodies.append(post(conn, "/v1/chat/completions", secret_body, {"Authorization": f"Bearer {SENTINEL}"})[2])
    assert "serve: POST /v1/chat/completions -> 401" in caplog.text  # requests are logged, just not secrets
    answered = bodies.pop(1)  # the echo model's answer legitimately repeats the prompt
    assert "body-SECRET-words" in answered.decode()
    for text in [caplog.text] + [b.decode() for b in bodies]:
        assert SENTINEL not in text and "body-SECRET-words" not in text


def test_garbled_request_lines_are_logged_without_query_keys(server, caplog):
    caplog.set_level(logging.DEBUG)
    with socket.create_connection(("127.0.0.1", server.port)) as sock:
        sock.sendall(f"/v1beta/models?key={SENTINEL}\r\n\r\n".encode())  # no method, no version
        reply = sock.recv(4096)
    assert reply.startswith(b"HTTP/1.1 400") and b"Connection: close" in reply
    assert "Bad request syntax" in caplog.text and "key=[redacted]" in caplog.text
    assert SENTINEL not in caplog.text and SENTINEL.encode() not in reply


def test_fault_plan_scripts_statuses_and_delays(server):
    server.faults.fail_next(2, 503, retry_after=1).delay_next(1, 0.2)
    conn = http.client.HTTPConnection("127.0.0.1", server.port)
    first = post(conn, "/v1/chat/completions", CHAT)
    assert first[0] == 503 and first[1]["Retry-After"] == "1"
    assert post(conn, "/v1/chat/completions", CHAT)[0] == 503
    started = time.monotonic()
    assert post(conn, "/v1/chat/completions", CHAT)[0] == 200
    assert time.monotonic() - started >= 0.2
    assert server.stats.statuses == [503, 503, 200]


def test_stop_is_prompt_even_with_a_request_in_flight():
    srv = ModelServer(EchoProvider(), models=["echo-1"]).start()
    port = srv.port
    srv.faults.delay_next(1, 30.0)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("POST", "/v1/chat/completions", json.dumps(CHAT).encode(), {"Content-Type": "application/json"})
    time.sleep(0.1)
    started = time.monotonic()
    srv.stop()
    assert time.monotonic() - started < 2.0
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
    srv.stop()  # idempotent


# -- `forge serve` as a real process, proxying to an upstream server through the openai client ----


def start_forge_serve(args: list[str], env: dict[str, str], **popen) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "forge.cli", "serve", *args],
        cwd=REPO,
        env={**os.environ, "PYTHONUNBUFFERED": "1", **env},
        **popen,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines = []
    deadline = time.monotonic() + 30
    assert proc.stdout is not None
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        match = re.search(r"OpenAI API: (http://127\.0\.0\.1:\d+)/v1", line)
        if match:
            return proc, match.group(1)
    proc.kill()
    raise AssertionError("forge serve did not start:\n" + "".join(lines))


def test_forge_serve_end_to_end_with_both_sdks(monkeypatch):
    echo = EchoProvider()
    with ModelServer(echo, models=["echo-1"]) as upstream:
        proc, url = start_forge_serve(
            [
                "providers.up.kind=openai",
                f"providers.up.base_url={upstream.openai_base_url}",
                "providers.up.backoff_initial_s=0.01",
                "models.default.provider=up",
                "models.default.model=echo-1",
                "--port", "0", "--provider", "up", "--require-key-env", "FORGE_TEST_SERVE_KEY", "--max-tokens", "64",
            ],
            {"FORGE_TEST_SERVE_KEY": SENTINEL},
        )
        try:
            client = openai.OpenAI(api_key=SENTINEL, base_url=url + "/v1", max_retries=0)
            assert [m.id for m in client.models.list().data] == ["echo-1"]
            upstream.faults.fail_next(1, 500)  # absorbed by the served provider's own retries
            answer = client.chat.completions.create(model="echo-1", messages=[{"role": "user", "content": "ping"}])
            assert answer.choices[0].message.content == "echo: ping"
            assert upstream.stats.statuses == [500, 200]
            gemini = genai.Client(
                api_key=SENTINEL, vertexai=False, http_options=genai_types.HttpOptions(base_url=url, api_version="v1beta")
            )
            assert gemini.models.generate_content(model="echo-1", contents="pong").text == "echo: pong"
            with pytest.raises(openai.AuthenticationError):
                openai.OpenAI(api_key="wrong", base_url=url + "/v1", max_retries=0).models.list()
            # The operator's upstream sees only the served model, and at most the capped budget.
            client.chat.completions.create(model="echo-1", messages=[{"role": "user", "content": "x"}], max_tokens=4000)
            with pytest.raises(openai.NotFoundError, match="served models: echo-1"):
                client.chat.completions.create(model="gpt-expensive", messages=[{"role": "user", "content": "x"}])
            assert [c["max_tokens"] for c in echo.calls] == [64, 64, 64]
            assert {c["model"] for c in echo.calls} == {"echo-1"}
        finally:
            proc.send_signal(signal.SIGINT)
            output, _ = proc.communicate(timeout=10)
    assert proc.returncode == 0, output
    assert SENTINEL not in output


def test_forge_serve_stops_on_sigint_even_when_started_with_sigint_ignored():
    """As a background job of a non-interactive shell (`forge serve &` in a script) inherits it."""
    proc, _ = start_forge_serve(["--port", "0"], {}, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    proc.send_signal(signal.SIGINT)
    output, _ = proc.communicate(timeout=10)
    assert proc.returncode == 0, output


def test_forge_serve_rejects_an_unknown_provider():
    result = subprocess.run(
        [sys.executable, "-m", "forge.cli", "serve", "--port", "0", "--provider", "nope"],
        cwd=REPO, capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 2
    assert "'nope' is not among providers" in result.stderr


def test_forge_serve_refuses_a_public_address_without_a_key():
    result = subprocess.run(
        [sys.executable, "-m", "forge.cli", "serve", "--port", "0", "--host", "0.0.0.0"],
        cwd=REPO, capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 2
    assert "refusing to serve on 0.0.0.0 without a key" in result.stderr and "--require-key-env" in result.stderr


# -- hardening: key before body, body and connection caps, bind address, models, max_tokens -----------


def raw_request(port: int, head: str, body: bytes = b"", timeout: float = 5.0) -> tuple[bytes, float]:
    """Send a request head (and part of a body, maybe), then read whatever answer comes: (reply, seconds)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        started = time.monotonic()
        sock.sendall(head.encode() + body)
        reply = b""
        try:
            while chunk := sock.recv(65536):
                reply += chunk
                if b"\r\n\r\n" in reply and len(reply.split(b"\r\n\r\n", 1)[1]) >= content_length(reply):
                    break
        except socket.timeout:
            pass
        return reply, time.monotonic() - started


def content_length(reply: bytes) -> int:
    match = re.search(rb"Content-Length: (\d+)", reply)
    return int(match.group(1)) if match else 0


def test_a_client_without_the_key_is_refused_before_its_body_is_read():
    with ModelServer(EchoProvider(), models=["echo-1"], required_key=Secret(SENTINEL)) as srv:
        head = ("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                "Content-Length: 1000000\r\n\r\n")
        # 16 KiB of a body announced as 1 MB: a server that read the body first would wait for the rest.
        reply, seconds = raw_request(srv.port, head, b"x" * 16384)
        assert reply.startswith(b"HTTP/1.1 401") and b"Connection: close" in reply
        assert seconds < 2.0
        assert srv.stats.body_bytes_read == 0 and srv.stats.statuses == [401]
        # The same request with the key is not answered until its body arrives.
        keyed = head.replace("Host: x", f"Host: x\r\nAuthorization: Bearer {SENTINEL}")
        reply, seconds = raw_request(srv.port, keyed, b"x" * 16384, timeout=0.5)
        assert reply == b"" and srv.stats.statuses == [401]
        # Once the client hangs up, the server's read returns what arrived; on a loaded machine that can
        # happen before this line runs, so both moments are allowed (never more than was sent).
        assert srv.stats.body_bytes_read in (0, 16384)


def test_an_oversized_body_gets_413_without_being_read():
    with ModelServer(EchoProvider(), models=["echo-1"], max_body_bytes=2000) as srv:
        reply, _ = raw_request(srv.port, "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n")
        assert reply.startswith(b"HTTP/1.1 413") and b"over this server's limit of 2000 bytes" in reply
        assert srv.stats.body_bytes_read == 0
        conn = http.client.HTTPConnection("127.0.0.1", srv.port)
        status, _, _ = post(conn, "/v1/chat/completions", CHAT)
        assert status == 200 and srv.stats.body_bytes_read == len(json.dumps(CHAT))


def test_connections_beyond_the_cap_are_answered_503_until_one_closes():
    with ModelServer(EchoProvider(), models=["echo-1"], max_connections=2) as srv:
        held = [http.client.HTTPConnection("127.0.0.1", srv.port) for _ in range(2)]
        for conn in held:
            assert post(conn, "/v1/chat/completions", CHAT)[0] == 200  # open and kept alive
        extra = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=5)
        status, headers, body = post(extra, "/v1/chat/completions", CHAT)
        assert status == 503 and headers["Retry-After"] == "1"
        assert "2 connections are open" in json.loads(body)["error"]["message"]
        assert srv.stats.refused_connections == 1 and srv.stats.peak_connections == 2
        held[0].close()
        deadline = time.monotonic() + 5
        while srv.stats.open_connections > 1 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert post(http.client.HTTPConnection("127.0.0.1", srv.port), "/v1/chat/completions", CHAT)[0] == 200
        assert post(held[1], "/v1/chat/completions", CHAT)[0] == 200  # the held one was never disturbed
        assert srv.stats.peak_connections == 2


@pytest.mark.parametrize("host, loopback", [
    ("127.0.0.1", True), ("::1", True), ("localhost", True), ("127.8.0.1", True),
    ("0.0.0.0", False), ("::", False), ("10.1.2.3", False), ("gateway.internal", False),
])
def test_only_loopback_may_be_bound_without_a_key(host, loopback):
    assert is_loopback(host) is loopback
    assert (bind_refusal(host, has_key=False) is None) is loopback
    assert bind_refusal(host, has_key=True) is None


def test_a_server_without_a_key_refuses_a_public_address():
    with pytest.raises(ConfigError, match=r"refusing to serve on 0\.0\.0\.0 without a key.*--require-key-env"):
        ModelServer(EchoProvider(), models=["echo-1"], host="0.0.0.0")
    with ModelServer(EchoProvider(), models=["echo-1"], host="0.0.0.0", required_key=Secret(SENTINEL)) as srv:
        conn = http.client.HTTPConnection("127.0.0.1", srv.port)
        assert post(conn, "/v1/chat/completions", CHAT, {"Authorization": f"Bearer {SENTINEL}"})[0] == 200


def test_only_the_served_models_reach_the_provider():
    echo = EchoProvider()
    with ModelServer(echo, models=["echo-1"]) as srv:
        client = openai.OpenAI(api_key="unused", base_url=srv.openai_base_url, max_retries=0)
        with pytest.raises(openai.NotFoundError, match=r"model 'gpt-4o' is not served here; served models: echo-1"):
            client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": "hi"}])
        conn = http.client.HTTPConnection("127.0.0.1", srv.port)
        status, _, body = post(conn, "/v1beta/models/gemini-ultra:generateContent", {"contents": [{"parts": [{"text": "x"}]}]})
        assert status == 404 and json.loads(body)["error"]["status"] == "NOT_FOUND"
        assert post(conn, "/v1/chat/completions", {"messages": CHAT["messages"]})[0] == 404  # no model named
        assert echo.calls == []
        assert client.chat.completions.create(model="echo-1", messages=[{"role": "user", "content": "hi"}]).model == "echo-1"
        assert echo.calls == [{"model": "echo-1", "max_tokens": 512}]


def test_max_tokens_is_capped_as_the_provider_sees_it():
    echo = EchoProvider()
    with ModelServer(echo, models=["echo-1"], max_tokens=100) as srv:
        client = openai.OpenAI(api_key="unused", base_url=srv.openai_base_url, max_retries=0)
        for asked in (5000, 50, None):
            extra = {} if asked is None else {"max_tokens": asked}
            client.chat.completions.create(model="echo-1", messages=[{"role": "user", "content": "hi"}], **extra)
        gemini = genai.Client(api_key="unused", vertexai=False,
                              http_options=genai_types.HttpOptions(base_url=srv.url, api_version="v1beta"))
        gemini.models.generate_content(model="echo-1", contents="hi",
                                       config=genai_types.GenerateContentConfig(max_output_tokens=9999))
    assert [c["max_tokens"] for c in echo.calls] == [100, 50, 100, 100]
    assert capped_max_tokens(None, 4096) == 512 and capped_max_tokens(-3, 4096) == 512


@pytest.mark.parametrize("limits, named", [
    (dict(models=[]), "at least one model"),
    (dict(models=["m"], max_tokens=0), "max_tokens must be at least 1"),
    (dict(models=["m"], max_connections=0), "max_connections must be at least 1"),
    (dict(models=["m"], max_body_bytes=-1), "max_body_bytes must be at least 1"),
])
def test_bad_limits_are_refused_by_name(limits, named):
    with pytest.raises(ConfigError, match=named):
        ModelServer(EchoProvider(), **limits)
