"""An MLflow tracking server that refuses or cannot be reached: `forge run` says so in one line naming the
tracking URI and what to check (forge.runs.tracking.TrackingError), never with MLflow's traceback, and within
seconds, not after MLflow's minutes of retries. The stage-curve hint points at a server's own UI.

The refusals come from real HTTP: `mlflow server` itself for the Host-header check (the 403 a compose
cluster met), a closed port, and a standard-library server that answers 503 as a failing proxy or backend
would.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from forge.plumbing.local_redis import free_port
from forge.runs.tracking import SessionTracker, TrackingError, ui_hint
from tests.test_cluster import BIN, stop_server, wait_for_server

ROOT = Path(__file__).resolve().parents[1]
# Enough for the session to reach its tracker (which refuses before Ray starts); small if it ever got further.
SMALL = ["protocol.num_instances=1", "protocol.num_stages=1", "env.max_steps=5", "protocol.num_evaluation_runs=1"]


def forge_run(tmp_path: Path, uri: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "forge.cli", "run", str(ROOT / "configs" / "demo.yaml"), *SMALL,
         f"tracking.tracking_uri={uri}", f"run.runs_dir={tmp_path / 'runs'}"],
        cwd=ROOT, capture_output=True, text=True, timeout=300)


def assert_one_line(run: subprocess.CompletedProcess, *expected: str) -> str:
    assert run.returncode == 2, (run.returncode, run.stderr[-3000:])
    assert "Traceback" not in run.stderr, run.stderr[-3000:]
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, run.stderr
    for text in expected:
        assert text in lines[0], lines[0]
    return lines[0]


@pytest.mark.slow
def test_a_server_that_refuses_the_host_header_is_one_line_naming_the_fix(tmp_path):
    """The compose cluster's 403: `mlflow server` answers a Host it was not told to allow with
    `Invalid Host header - possible DNS rebinding attack detected`."""
    # Allowing the compose service name only: http://127.0.0.1:<port> is refused.
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with open(tmp_path / "server.log", "w") as log:
        server = subprocess.Popen(
            [BIN / "mlflow", "server", "--host", "127.0.0.1", "--port", str(port), "--workers", "1",
             "--allowed-hosts", "mlflow,mlflow:*", "--backend-store-uri", f"sqlite:///{tmp_path / 'mlflow.db'}",
             "--artifacts-destination", str(tmp_path / "artifacts")],
            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)  # its own group: see stop_server
    try:
        wait_for_server(server, url, tmp_path / "server.log")  # /health is exempt from the Host check
        run = forge_run(tmp_path, url)
    finally:
        stop_server(server)
    assert_one_line(run, f"MLflow tracking server {url} refused the request (HTTP 403: Invalid Host header",
                    f"--allowed-hosts including 127.0.0.1:{port}")


def test_an_unreachable_server_is_one_line_within_seconds(tmp_path):
    url = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    started = time.monotonic()
    run = forge_run(tmp_path, url)
    line = assert_one_line(run, f"MLflow tracking server {url} cannot be reached (Connection refused)",
                           "check that `mlflow server` runs there", "tracking.enabled=false")
    # MLflow's own retries (7, backing off from 2 s) take about four minutes; the first contact gives up after one.
    assert time.monotonic() - started < 120, line


class _Failing(BaseHTTPRequestHandler):
    """A server whose backend is down: every request gets 503 with a plain-text body."""

    def do_GET(self):  # noqa: N802 - http.server's naming
        self._fail()

    def do_POST(self):  # noqa: N802
        self._fail()

    def _fail(self):
        body = b"backend store unavailable"
        self.send_response(503)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


class _RefusesWrites(_Failing):
    """Answers the first contact as a working MLflow server with no such experiment yet, then fails every
    write: a server that goes wrong mid-session."""

    def do_GET(self):  # noqa: N802
        body = json.dumps({"error_code": "RESOURCE_DOES_NOT_EXIST", "message": "no such experiment"}).encode()
        self.send_response(404)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture
def http_server(request):
    server = ThreadingHTTPServer(("127.0.0.1", 0), request.param)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize("http_server", [_Failing], indirect=True)
def test_a_failing_server_is_one_line_naming_its_status(tmp_path, http_server):
    run = forge_run(tmp_path, http_server)
    assert_one_line(run, f"MLflow tracking server {http_server} failed (HTTP 503: backend store unavailable)",
                    "check the server's log and its backend store")


@pytest.mark.parametrize("http_server", [_RefusesWrites], indirect=True)
def test_a_refusal_after_the_first_contact_is_a_tracking_error(http_server, monkeypatch):
    """Every client call is guarded, not only the probe (no retries here: MLflow's would take minutes)."""
    monkeypatch.setenv("MLFLOW_HTTP_REQUEST_MAX_RETRIES", "0")
    with pytest.raises(TrackingError) as refused:
        SessionTracker(http_server, "forge", None)  # the probe passes; creating the experiment fails
    assert str(refused.value).startswith(f"MLflow tracking server {http_server} failed (HTTP 503")
    assert "\n" not in str(refused.value)


def test_the_stage_curve_hint_opens_a_local_store_and_names_a_server(tmp_path):
    assert ui_hint(f"sqlite:///{tmp_path}/mlflow.db") == f"mlflow ui --backend-store-uri sqlite:///{tmp_path}/mlflow.db"
    hint = ui_hint("http://user:secret@mlflow:5000")
    assert "mlflow ui" not in hint and "secret" not in hint
    assert hint.startswith("http://user:***@mlflow:5000")
