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

from forge.llm.serve import ModelServer
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
    name = "echo"

    def __init__(self, errors=()):
        self.errors = list(errors)

    def complete(self, messages, *, model, temperature=0.0, max_tokens=512, seed=None, stop=None):
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
    assert answer["choices"][0]["message"] == {"role": "assistant", "content": "echo: hello"}
    assert answer["usage"] == {"prompt_tokens": 1, "completion_tokens": 2, "total_tokens": 3}
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


def start_forge_serve(args: list[str], env: dict[str, str]) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "forge.cli", "serve", *args],
        cwd=REPO,
        env={**os.environ, "PYTHONUNBUFFERED": "1", **env},
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
    with ModelServer(EchoProvider(), models=["echo-1"]) as upstream:
        proc, url = start_forge_serve(
            [
                "providers.up.kind=openai",
                f"providers.up.base_url={upstream.openai_base_url}",
                "providers.up.backoff_initial_s=0.01",
                "models.default.provider=up",
                "models.default.model=echo-1",
                "--port", "0", "--provider", "up", "--require-key-env", "FORGE_TEST_SERVE_KEY",
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
        finally:
            proc.send_signal(signal.SIGINT)
            output, _ = proc.communicate(timeout=10)
    assert proc.returncode == 0, output
    assert SENTINEL not in output


def test_forge_serve_rejects_an_unknown_provider():
    result = subprocess.run(
        [sys.executable, "-m", "forge.cli", "serve", "--port", "0", "--provider", "nope"],
        cwd=REPO, capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 2
    assert "'nope' is not among providers" in result.stderr
