"""A session whose storage is a real S3-compatible server on loopback (moto), its driver killed (SIGKILL)
mid-stage and the session resumed from the storage URI on another "machine" (an empty working-copy
cache): it keeps what the same session run without interruption keeps (memory digests, decisions,
checkpoint and evaluation returns)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from forge.memory import EMPTY_DIGEST
from forge.protocol.ledger import SessionLedger
from forge.runs.rundir import RunDirectory
from forge.plumbing.storage import Storage, StorageError, working_copy
from tests.run_cli import forge

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
SESSION = "s3cell"
INSTANCES = ["i00", "i01"]
SMALL = [
    "protocol.num_instances=2", "protocol.num_stages=2", "protocol.max_attempts=2", "protocol.checkpoint_runs=1",
    "protocol.num_evaluation_runs=1", "env.max_steps=15", "protocol.theta=1.0", "surrogate.latency_ms=5",
    "tracking.enabled=false", f"run.name={SESSION}",
    "budget.max_prompt_tokens=100000000",  # the surrogate's calls are counted (what the budget would stop on)
]
MID_STAGE_2 = [{"phase": p, "stage": 2} for p in ("training", "trained", "checkpoint")]




def kept(location: str) -> dict[str, Any]:
    """What the session kept, read from a fresh pull of its storage."""
    from forge.wiring import open_ledger, open_memory

    run = RunDirectory.open(location)
    cfg = run.load_config()
    ledger, memory = open_ledger(cfg, str(run.path), SESSION), open_memory(cfg, str(run.path), SESSION)
    try:
        evaluation = ledger.evaluation()
        return {
            "status": ledger.status(),
            "memory": {i: memory.snapshot(f"{SESSION}/{i}").digest for i in INSTANCES},
            "decisions": {r.stage: (r.champion, r.broadcast_to, r.graduated, r.checkpoint, r.memory) for r in ledger.stages()},
            "returns": evaluation and evaluation.returns,
            "faults": [f["kind"] for f in ledger.faults()],
            "spent": ledger.spending(),
        }
    finally:
        ledger.close()
        memory.store.close()


def pushed_calls(storage: Storage) -> int:
    """The calls the pushed spending counts so far (0 before the first push). moto's server can answer a GET
    while a PUT replaces the object, with part of it; S3 itself never does, so a part is read as not yet."""
    try:
        return json.loads(storage.read_text("spending.json"))["spent"]["calls"]
    except (StorageError, ValueError):
        return 0


@pytest.mark.long
def test_a_session_in_s3_killed_mid_stage_resumes_from_the_uri(s3_server, tmp_path, monkeypatch, ray_address):
    s3_server.make_bucket("forge-session")
    reference, killed = s3_server.uri("forge-session/reference"), s3_server.uri("forge-session/killed")
    run = ["run", str(ROOT / "configs" / "forge.yaml"), *SMALL]

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "reference-machine"))
    assert forge(*run, f"run.storage={reference}") == 0

    # The killed driver runs on "machine A": its working copy is under A's cache.
    machine_a = tmp_path / "machine-a"
    env = dict(os.environ, RAY_ADDRESS=ray_address, XDG_CACHE_HOME=str(machine_a),
               PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    with open(tmp_path / "driver.log", "w") as log:
        driver = subprocess.Popen([sys.executable, "-m", "forge.cli", *run, f"run.storage={killed}"],
                                  cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    monkeypatch.setenv("XDG_CACHE_HOME", str(machine_a))
    ledger_file = working_copy(Storage.open(killed).child(SESSION)) / "forge.db"
    where = None
    deadline = time.monotonic() + 600
    try:
        while where not in MID_STAGE_2 and driver.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
            if ledger_file.exists():
                ledger = SessionLedger.open(str(ledger_file.parent), SESSION)
                try:
                    where = ledger.progress()
                finally:
                    ledger.close()
        assert where in MID_STAGE_2, f"the driver was not seen in stage 2 (last seen {where}); " \
                                     f"{(tmp_path / 'driver.log').read_text()[-2000:]}"
        # Killed once stage 2's first charges have reached the storage (pushed within a second of each).
        ledger = SessionLedger.open(str(ledger_file.parent), SESSION)
        try:
            at_boundary = ledger.spending().get("calls", 0)
        finally:
            ledger.close()
        killed_storage = Storage.open(killed).child(SESSION)
        while driver.poll() is None and time.monotonic() < deadline and pushed_calls(killed_storage) <= at_boundary:
            time.sleep(0.05)
        driver.send_signal(signal.SIGKILL)
    finally:
        if driver.poll() is None:
            driver.kill()
        driver.wait(timeout=60)
    assert driver.returncode == -signal.SIGKILL

    # Resumed on "machine B", which has only the URI: nothing of A's working copy.
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "machine-b"))
    session_uri = Storage.open(killed).child(SESSION).uri
    interrupted = kept(session_uri)
    assert interrupted["status"] == "running" and len(interrupted["decisions"]) == 1  # stage 1's boundary
    # The ledger in the storage is stage 1's; the spending since was pushed as it changed (today's main: lost).
    pushed = json.loads(Storage.open(session_uri).read_text("spending.json"))["spent"]
    assert pushed["calls"] > interrupted["spent"]["calls"] > 0
    assert forge("resume", session_uri) == 0
    assert forge("report", session_uri) == 0

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "machine-c"))
    resumed, undisturbed = kept(session_uri), kept(Storage.open(reference).child(SESSION).uri)
    assert resumed["status"] == undisturbed["status"] == "finished"
    assert resumed["faults"] == ["driver_restart"] and undisturbed["faults"] == []
    assert all(d != EMPTY_DIGEST for d in undisturbed["memory"].values()), "nothing was learned: a weak comparison"
    for what in ("memory", "decisions", "returns"):
        assert resumed[what] == undisturbed[what], what
    # The work the killed driver did in stage 2 was paid for: the resumed session counts it on top.
    assert resumed["spent"]["calls"] >= undisturbed["spent"]["calls"] + pushed["calls"] - interrupted["spent"]["calls"]
    print(f"\nS3 session killed at {where}, resumed from {session_uri}: memory "
          f"{ {i: d[:12] for i, d in resumed['memory'].items()} }, returns {resumed['returns']} = undisturbed; "
          f"calls charged: {interrupted['spent']['calls']} at the stage-1 boundary, {pushed['calls']} pushed by the "
          f"kill, {resumed['spent']['calls']} resumed, {undisturbed['spent']['calls']} undisturbed")
    assert Storage.open(session_uri).exists("reports/summary.json")
    assert Storage.open(session_uri).exists("reports/stage_curves.png")
