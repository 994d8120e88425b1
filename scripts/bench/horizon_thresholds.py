"""Figures behind the per-horizon failure trigger (tau) and graduation threshold (theta) in configs/.

For red B_line and Meander at 30, 50 and 100 steps: the episode return of the sleep policy and of the
reactive restore heuristic (forge.cage2.baselines) on the same seeds, and for the heuristic the share of
episodes with a step below tau and the median step of the first such step. The configs quote them in their
comments (configs/meander*.yaml, configs/horizon*.yaml).

    PYTHONPATH=. .venv/bin/python scripts/bench/horizon_thresholds.py --episodes 30 [--red b_line,meander]
"""

from __future__ import annotations

import argparse
import statistics

from forge.cage2.baselines import POLICIES, run_episode
from forge.env import Cage2Env


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--episodes", type=int, default=30)
    parser.add_argument("--tau", type=float, default=-1.1)
    parser.add_argument("--red", default="b_line,meander", help="attackers (forge/env/attackers.py names), comma-separated")
    args = parser.parse_args()
    seeds = range(1000, 1000 + args.episodes)
    print(f"{args.episodes} episodes per cell, seeds {seeds.start}..{seeds.stop - 1}; tau {args.tau}")
    print("red      steps | sleep mean ± sd     | heuristic mean ± sd [min, max]  | heuristic: share < tau, median first step < tau")
    for red in [name.strip() for name in args.red.split(",") if name.strip()]:
        for steps in (30, 50, 100):
            env = Cage2Env(red_agent=red, max_steps=steps)
            sleep = [run_episode(env, POLICIES["sleep"](), s).total_return for s in seeds]
            heuristic = [run_episode(env, POLICIES["heuristic"](), s) for s in seeds]
            returns = [h.total_return for h in heuristic]
            firsts = [next((i + 1 for i, r in enumerate(h.rewards) if r < args.tau), None) for h in heuristic]
            crossed = [f for f in firsts if f is not None]
            median = statistics.median(crossed) if crossed else float("nan")
            print(f"{red:8} {steps:5} | {statistics.fmean(sleep):8.1f} ± {statistics.stdev(sleep):6.1f} | "
                  f"{statistics.fmean(returns):7.1f} ± {statistics.stdev(returns):5.1f} [{min(returns):7.1f}, {max(returns):6.1f}] | "
                  f"{len(crossed) / len(firsts):5.0%}, {median}")


if __name__ == "__main__":
    main()
