"""Capture the real decision contexts a blind split's author reads (`contexts.md` of an author pack).

Plays seeded CAGE-2 episodes on the real CybORG simulator with the defender on the embedded defaults (the
surrogate model, an empty memory) and records the exact text each role received at each call. From every
episode it keeps, chosen by a seeded draw, two ActionChooser contexts, one Planner observation and one Analyst
record, favouring steps where something shows (a quiet network says little about a rule). Seeds alternate
B_line and Meander; a new split takes seeds no earlier split used (blind-N: N01..N04).

    PYTHONPATH=. .venv/bin/python scripts/bench/dc_bench_author_contexts.py --seeds 5001 5002 5003 5004 \
        --out data/dc_bench/blind10_author_pack/contexts.md
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from forge.config import load_config  # noqa: E402
from forge.memory import EMPTY_SNAPSHOT  # noqa: E402
from forge.protocol.episode import play_episode  # noqa: E402
from forge.wiring import build_clients, build_defender  # noqa: E402

PER_EPISODE = {"action_chooser": 2, "planner": 1, "analyst": 1}
HEADER = """# Real decision contexts
Each block below is the exact text one of the defender's three roles received at one step of a seeded CybORG CAGE-2 episode (the surrogate model played; contexts are what the environment and the defender's own record render, not hand-written). Roles: `planner` (the Planner's observation), `action_chooser` (the ActionChooser's context: the Planner's summary, the history lines, the alerts, the step's analyses), `analyst` (one host's record). You may paste any of them, whole or shortened, as a query's inline `context:`, or write operator-typed contexts in the same style.
"""


def episode_contexts(seed: int, red: str) -> list[tuple[str, str]]:
    """Every (role, context) the defender's calls received in one episode, in order."""
    cfg = load_config(overrides=[f"env.red_agent={red}"])
    clients, _ = build_clients(cfg)
    env, defender = build_defender(cfg, clients, EMPTY_SNAPSHOT)
    seen: list[tuple[str, str]] = []
    for_call = defender.injection.for_call

    def recording(role: str, context: str):
        seen.append((role, context))
        return for_call(role, context)

    defender.injection.for_call = recording
    play_episode(env, defender, seed=seed)
    return seen


def pick(seen: list[tuple[str, str]], rng: random.Random) -> list[tuple[str, str]]:
    """Per role, a seeded draw that prefers contexts where something shows; kept in episode order."""
    chosen: list[int] = []
    for role, count in PER_EPISODE.items():
        indexed = [i for i, (r, _) in enumerate(seen) if r == role]
        showing = [i for i in indexed if "No host shows" not in seen[i][1]]
        pool = showing if len(showing) >= count else indexed
        chosen.extend(rng.sample(pool, min(count, len(pool))))
    return [seen[i] for i in sorted(set(chosen))]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", required=True, help="episode seeds; B_line and Meander alternate")
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    blocks, n = [HEADER], 0
    for i, seed in enumerate(args.seeds):
        red = ("b_line", "meander")[i % 2]
        for role, context in pick(episode_contexts(seed, red), random.Random(seed)):
            n += 1
            blocks.append(f"## C{n:02d}: role {role}, attacker {red}, episode seed {seed}\n\n```\n{context}\n```\n")
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text("\n".join(blocks))
    print(f"wrote {n} contexts to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
