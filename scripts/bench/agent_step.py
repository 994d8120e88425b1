"""What one defender step costs outside the model, and how many calls and prompt tokens it takes.

    .venv/bin/python scripts/bench/agent_step.py [--episodes 6]

With the surrogate at zero latency, measured in one run:
- per step, the time outside the model (prompt building, parsing, memory reads, trace recording and
  writing) as a ratio to the raw CybORG step (target <= 2x); time inside `complete()` (the surrogate
  itself) is excluded;
- model calls per step (target median <= 4; the public artifact makes about 7);
- prompt tokens per step by role, with empty memory (target <= 2.7k in total) and with full memory
  (100 rules per role), at step 1 and at step 30 (the history must stay bounded).
Tokens are characters / 4, as everywhere here.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table


class TimedClient:
    """Counts the seconds spent inside the model, so the rest of the step can be measured."""

    def __init__(self, inner, clock):
        self.inner, self.clock = inner, clock

    def complete(self, messages, **kwargs):
        started = time.perf_counter()
        try:
            return self.inner.complete(messages, **kwargs)
        finally:
            self.clock[0] += time.perf_counter() - started


def full_memory(per_role: int = 100):
    from forge.env.catalog import HOSTS
    from forge.memory import EMPTY_SNAPSHOT, Artifact

    conditions = ["Activity Scan", "Activity Exploit", "Compromised User", "Compromised Privileged",
                  "any activity", "any compromise", "Compromised Unknown", "Activity None"]
    verbs = ["Restore", "Remove", "Analyse", "DecoyApache", "DecoySSHD"]
    items = []
    for role in ("planner", "analyst", "action_chooser"):
        rules = [f"When {h} shows {c}, then {v} {h}." for c in conditions for v in verbs for h in HOSTS]
        for seq, text in enumerate(rules[:per_role]):
            items.append(Artifact.rule(role, text).to_item(len(items) + seq))
    return EMPTY_SNAPSHOT.with_items(items)


def raw_step_seconds(episodes: int) -> float:
    import copy
    import random

    from forge.env.cyborg_import import install_light_agents_package

    install_light_agents_package()  # csle_cyborg.agents' own __init__ imports stable-baselines3 (torch)
    from csle_cyborg.agents.simple_agents.b_line import B_lineAgent
    from csle_cyborg.agents.wrappers.challenge_wrapper import ChallengeWrapper
    from csle_cyborg.main import Main
    from gym_csle_cyborg.constants.constants import CYBORG

    env = ChallengeWrapper(env=Main(copy.deepcopy(CYBORG.CYBORG_SCENARIO_2_DICT), "sim", agents={"Red": B_lineAgent}),
                           agent_name="Blue", max_steps=30)
    times = []
    for seed in range(episodes):
        random.seed(seed)
        env.reset()
        start = time.perf_counter()
        for _ in range(30):
            env.step(1)
        times.append((time.perf_counter() - start) / 30)
    return statistics.median(times)


def measure(snapshot, episodes: int, label: str):
    from agents.defender import Defender
    from agents.injection import FullInjection
    from forge.config import load_config
    from forge.env import Cage2Env
    from forge.protocol.episode import play_episode
    from forge.wiring import build_clients

    cfg = load_config(overrides=["surrogate.compliance=0.0"])  # same behaviour with and without memory
    clients, _ = build_clients(cfg)
    model_clock = [0.0]
    timed = {role: TimedClient(c, model_clock) for role, c in clients.items()}
    env = Cage2Env()
    defender = Defender(timed, FullInjection(snapshot), cfg.agent, 30)
    outside, calls, tokens_first, tokens_last, by_role = [], [], [], [], {}
    trace_dir = Path(tempfile.mkdtemp())
    for seed in range(episodes):
        model_clock[0] = 0.0
        env_time = [0.0]
        step = env.step

        def timed_step(action, _step=step):
            start = time.perf_counter()
            try:
                return _step(action)
            finally:
                env_time[0] += time.perf_counter() - start

        env.step = timed_step
        start = time.perf_counter()
        result = play_episode(env, defender, seed=seed)
        (trace_dir / f"{seed}.json").write_text(json.dumps(result.to_dict(), default=str))
        wall = time.perf_counter() - start
        env.step = step
        outside.append((wall - model_clock[0] - env_time[0]) / len(result.steps))
        for s in result.steps:
            calls.append(len(s.calls))
            for c in s.calls:
                by_role.setdefault(c.role, []).append((s.step, c.prompt_tokens))
        tokens_first.append(result.steps[0].prompt_tokens)
        tokens_last.append(result.steps[-1].prompt_tokens)
    per_step_role = {role: sum(t for _, t in v) / (episodes * 30) for role, v in by_role.items()}
    return {
        "label": label, "outside_s": statistics.median(outside), "calls_median": statistics.median(calls),
        "calls_mean": statistics.fmean(calls), "tokens_step1": statistics.fmean(tokens_first),
        "tokens_step30": statistics.fmean(tokens_last), "per_role": per_step_role,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--episodes", type=int, default=6)
    args = parser.parse_args()
    from forge.memory import EMPTY_SNAPSHOT

    raw = raw_step_seconds(args.episodes * 2)
    rows = [measure(EMPTY_SNAPSHOT, args.episodes, "empty memory"), measure(full_memory(), args.episodes, "100 rules per role")]
    table = Table(title=f"Defender step with the surrogate at zero latency ({args.episodes} episodes x 30 steps each)")
    for col in ("memory", "outside model ms/step", "ratio to raw CybORG step", "calls/step median (mean)",
                "prompt tok step 1", "prompt tok step 30", "prompt tok/step by role"):
        table.add_column(col, justify="right")
    for r in rows:
        roles = ", ".join(f"{k} {v:.0f}" for k, v in sorted(r["per_role"].items()))
        table.add_row(r["label"], f"{r['outside_s'] * 1000:.2f}", f"{r['outside_s'] / raw:.2f}x",
                      f"{r['calls_median']:.0f} ({r['calls_mean']:.2f})", f"{r['tokens_step1']:.0f}",
                      f"{r['tokens_step30']:.0f}", roles)
    Console(width=180).print(table)
    print(f"raw CybORG step (median): {raw * 1000:.2f} ms. Targets: ratio <= 2x; median calls <= 4; "
          f"empty-memory prompt tokens per step <= 2700 (the public artifact: ~10.6k at step 1, 15.7k at step 30)")


if __name__ == "__main__":
    main()
