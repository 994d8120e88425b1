"""A recorded episode of the real local model (SmolLM2-135M via llama.cpp, configs/providers/local.yaml,
constrained decoding on), replayed: the parsers meet real model output in CI without llama.cpp.

`tests/data/local_session/` holds the record (`calls.db`) and what the recorded run produced
(`expected.json`: actions, fallbacks, return, tokens and each reply's fate per role). Replay must
reproduce all of it with zero model calls: nothing listens where the model was.

To record again (the server running: `scripts/local_model.sh start`):
    PYTHONPATH=. .venv/bin/python tests/test_local_recording.py
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))

from forge.config import load_config  # noqa: E402
from forge.plumbing.local_redis import free_port  # noqa: E402
from forge.memory import EMPTY_SNAPSHOT  # noqa: E402

DATA = ROOT / "tests" / "data" / "local_session"
STEPS = 3


def play(mode: str, record: Path, *extra: str) -> dict:
    from forge.protocol.episode import play_episode
    from forge.wiring import build_clients, build_defender

    cfg = load_config(ROOT / "configs" / "providers" / "local.yaml",
                      overrides=[f"env.max_steps={STEPS}", f"record.mode={mode}", f"record.store={record}", *extra])
    clients, ledger = build_clients(cfg)
    env, defender = build_defender(cfg, clients, EMPTY_SNAPSHOT)
    result = play_episode(env, defender, seed=1)
    return {
        "actions": [s.action for s in result.steps],
        "fallbacks": [s.fallback_reason for s in result.steps],
        "return": result.total_return,
        "tokens": {r: [u.prompt_tokens, u.completion_tokens, u.calls] for r, u in sorted(ledger.totals_by_role().items())},
        "replies": ledger.replies_by_role(),
        "served": ledger.total().replayed, "failed": ledger.total().failures,
    }


def test_the_recorded_local_model_episode_replays_exactly(tmp_path):
    expected = json.loads((DATA / "expected.json").read_text())
    record = tmp_path / "calls.db"
    shutil.copy(DATA / "calls.db", record)  # replay never writes, but the suite must not touch test data
    got = play("replay", record, f"providers.local.base_url=http://127.0.0.1:{free_port()}/v1",
               "providers.local.max_retries=0")
    assert got.pop("failed") == 0 and got.pop("served") == sum(t[2] for t in expected["tokens"].values())
    assert got == expected


if __name__ == "__main__":
    DATA.mkdir(parents=True, exist_ok=True)
    (DATA / "calls.db").unlink(missing_ok=True)
    figures = play("record", DATA / "calls.db")
    figures.pop("served")
    figures.pop("failed")
    (DATA / "expected.json").write_text(json.dumps(figures, indent=1, sort_keys=True) + "\n")
    print(json.dumps(figures, indent=1))
