"""Environment speed: raw CybORG ChallengeWrapper against our Cage2Env (and its text view), in one run.

    .venv/bin/python scripts/bench/env_speed.py [--episodes 40]

Both sides replay the same seeded episodes alternately, so machine noise hits them alike. Target: our
layer adds under 20 % to the raw step time. Reported separately: the cost of rendering the text view
an LLM agent reads (built only when asked, so not part of stepping).
"""

from __future__ import annotations

import argparse
import copy
import random
import statistics
import time

from rich.console import Console
from rich.table import Table


def raw_env():
    from forge.env.cyborg_import import install_light_agents_package

    install_light_agents_package()  # csle_cyborg.agents' own __init__ imports stable-baselines3 (torch)
    from csle_cyborg.agents.simple_agents.b_line import B_lineAgent
    from csle_cyborg.agents.wrappers.challenge_wrapper import ChallengeWrapper
    from csle_cyborg.main import Main
    from gym_csle_cyborg.constants.constants import CYBORG

    cyborg = Main(copy.deepcopy(CYBORG.CYBORG_SCENARIO_2_DICT), "sim", agents={"Red": B_lineAgent})
    return ChallengeWrapper(env=cyborg, agent_name="Blue", max_steps=30)


def run_raw(env, seed: int, actions: list[int]) -> float:
    random.seed(seed)
    env.reset()
    start = time.perf_counter()
    for action in actions:
        env.step(action)
    return time.perf_counter() - start


def run_ours(env, seed: int, actions: list[int], *, render: bool) -> float:
    from forge.env.text_view import render_blue_table, render_changed_hosts

    env.reset(seed=seed)
    start = time.perf_counter()
    for action in actions:
        env.step(action)
        if render:
            view = env.view()
            render_blue_table(view)
            render_changed_hosts(view)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--episodes", type=int, default=40)
    args = parser.parse_args()
    from forge.env import Cage2Env

    raw, ours = raw_env(), Cage2Env()
    policies = {"sleep": lambda rng: 0, "random": lambda rng: rng.randrange(145)}
    table = Table(title=f"CAGE-2 step time, B_line, 30 steps, {args.episodes} episodes per cell (medians)")
    for col in ("policy", "raw CybORG steps/s", "Cage2Env steps/s", "overhead", "with text view steps/s",
                "text view cost"):
        table.add_column(col, justify="right")
    for name, pick in policies.items():
        times = {"raw": [], "ours": [], "view": []}
        for episode in range(args.episodes):
            rng = random.Random(episode)
            actions = [pick(rng) for _ in range(30)]
            # Alternate the order so neither side always runs on a warmer cache.
            order = ["raw", "ours", "view"] if episode % 2 == 0 else ["view", "ours", "raw"]
            for side in order:
                if side == "raw":
                    times["raw"].append(run_raw(raw, episode, actions) / 30)
                else:
                    times[side].append(run_ours(ours, episode, actions, render=side == "view") / 30)
        med = {k: statistics.median(v) for k, v in times.items()}
        table.add_row(
            name,
            f"{1 / med['raw']:.0f}",
            f"{1 / med['ours']:.0f}",
            f"{(med['ours'] / med['raw'] - 1) * 100:+.1f} %",
            f"{1 / med['view']:.0f}",
            f"{(med['view'] / med['ours'] - 1) * 100:+.1f} %",
        )
    Console(width=160).print(table)
    print("target: Cage2Env overhead under +20 % of the raw step time")


if __name__ == "__main__":
    main()
