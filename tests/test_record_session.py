"""Sessions on record at the level a researcher uses them: `forge run` under Ray records every call; the same
session replayed (no model listening) keeps what the recorded one kept, with zero calls sent; a session
extended by a stage in read-through sends only the new stage's calls. The unit-level counterpart is
tests/test_record.py; this one goes through the driver, its packing and its summary."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from forge.plumbing.local_redis import free_port
from forge.memory import EMPTY_DIGEST
from forge.runs.rundir import RunDirectory
from tests.run_cli import forge

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
INSTANCES = ["i00", "i01"]
SMALL = [
    "protocol.num_instances=2", "protocol.max_attempts=2", "protocol.checkpoint_runs=1",
    "protocol.num_evaluation_runs=1", "env.max_steps=15", "protocol.theta=1.0", "surrogate.latency_ms=5",
    "tracking.enabled=false",
]
# Where the model was, nothing listens: a call that reached it would fail (and be counted as failed).
NO_MODEL = ["providers.surrogate.kind=openai", f"providers.surrogate.base_url=http://127.0.0.1:{free_port()}/v1",
            "providers.surrogate.max_retries=0", "providers.surrogate.timeout_s=2"]


SESSION = "onrecord"  # one name in every run: a memory item's provenance, and so its digest, names the session


def run(runs: Path, record: Path, mode: str, *extra: str) -> dict[str, Any]:
    assert forge("run", str(ROOT / "configs" / "forge.yaml"), *SMALL, f"run.runs_dir={runs}", f"run.name={SESSION}",
                 f"record.mode={mode}", f"record.store={record}", *extra) == 0
    return kept(runs / SESSION, SESSION)


def kept(path: Path, session: str) -> dict[str, Any]:
    from forge.wiring import open_ledger, open_memory

    run_dir = RunDirectory.open(str(path))
    cfg = run_dir.load_config()
    ledger, memory = open_ledger(cfg, str(path), session), open_memory(cfg, str(path), session)
    try:
        stages = ledger.stages()
        summary = json.loads((path / "reports" / "summary.json").read_text())
        return {
            "memory": {i: memory.snapshot(f"{session}/{i}").digest for i in INSTANCES},
            "decisions": {r.stage: (r.champion, r.broadcast_to, r.graduated, r.checkpoint) for r in stages},
            "returns": ledger.evaluation().returns,
            "tokens": summary["tokens_per_instance"],
            "record": summary["record"],
        }
    finally:
        ledger.close()
        memory.store.close()


@pytest.mark.long
def test_a_recorded_session_replays_exactly_and_an_extended_one_sends_only_new_calls(tmp_path, ray_address):
    record = tmp_path / "calls.db"
    recorded = run(tmp_path / "recorded", record, "record", "protocol.num_stages=2")
    assert recorded["record"] is None  # nothing was served from the record while recording
    assert all(d != EMPTY_DIGEST for d in recorded["memory"].values()), "nothing was learned: a weak comparison"

    replayed = run(tmp_path / "replayed", record, "replay", "protocol.num_stages=2", *NO_MODEL)
    for what in ("memory", "decisions", "returns", "tokens"):
        assert replayed[what] == recorded[what], what
    assert replayed["record"]["sent"] == 0 and replayed["record"]["hits"] > 0
    assert replayed["record"]["prompt_tokens_saved"] == sum(t["prompt"] for t in recorded["tokens"].values())

    extended = run(tmp_path / "extended", record, "read_through", "protocol.num_stages=3")
    figures = extended["record"]
    assert figures["hits"] > 0 and figures["sent"] > 0  # stages 1-2 from the record, stage 3 sent
    assert {s: extended["decisions"][s] for s in (1, 2)} == recorded["decisions"]
    assert figures["hits"] >= replayed["record"]["hits"] - evaluation_calls(tmp_path / "replayed" / SESSION)


def evaluation_calls(path: Path) -> int:
    """Calls of the final evaluation (an extended session evaluates after its last stage instead)."""
    from forge.wiring import open_ledger

    ledger = open_ledger(RunDirectory.open(str(path)).load_config(), str(path), path.name)
    try:
        tokens = ledger.evaluation().tokens
    finally:
        ledger.close()
    return sum(u.get("calls", 0) for per_role in tokens.values() for u in per_role.values())
