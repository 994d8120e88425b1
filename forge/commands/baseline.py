"""`forge baseline`: score the non-LLM policies on real CybORG, beside the published CAGE-2 figures."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from rich.table import Table

from forge.commands.common import add_config_arguments, config_from_args, console, progress_bars

if TYPE_CHECKING:
    from forge.analysis.stats import ReturnStats

# The policies of forge.cage2.baselines.POLICIES, named here so that registering the command (every
# `forge --help`) does not import the simulator; tests/test_baselines.py checks the two agree.
POLICY_NAMES = ("sleep", "random", "heuristic")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("baseline", help="evaluate sleep / random / heuristic blue policies")
    parser.add_argument("--policy", choices=[*POLICY_NAMES, "all"], default="all")
    parser.add_argument("--episodes", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0, help="first episode seed; episode i uses seed+i")
    add_config_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from forge.cage2.baselines import POLICIES, evaluate_policies
    from forge.env import Cage2Env
    from forge.analysis.stats import ReturnStats

    cfg = config_from_args(args)
    names = list(POLICIES) if args.policy == "all" else [args.policy]
    env = Cage2Env(red_agent=cfg.env.red_agent.value, max_steps=cfg.env.max_steps)
    with progress_bars() as progress:
        tasks = {name: progress.add_task(name, total=args.episodes) for name in names}
        returns = evaluate_policies(env, names, args.seed, args.episodes, lambda name: progress.advance(tasks[name]))
    results = {name: ReturnStats.of(values) for name, values in returns.items()}
    console.print(baseline_table(results, cfg.env.red_agent.value, cfg.env.max_steps, args.seed))
    return 0


def baseline_table(results: dict[str, ReturnStats], red_agent: str, max_steps: int, seed: int) -> Table:
    from forge.cage2.baselines import REFERENCE_RETURNS_B_LINE_30

    comparable = red_agent == "b_line" and max_steps == 30
    table = Table(title=f"Baselines on CAGE-2, red={red_agent}, {max_steps} steps, seeds {seed}..")
    for column in ("policy", "episodes", "mean", "sd", "min", "max", "P(<-100)", "P(<-150)", "reference"):
        table.add_column(column, justify="left" if column == "policy" else "right")
    for name, s in results.items():
        ref = REFERENCE_RETURNS_B_LINE_30.get(name) if comparable else None
        table.add_row(
            name, str(s.n), f"{s.mean:.2f}", f"{s.sd:.2f}", f"{s.min:.1f}", f"{s.max:.1f}",
            f"{s.tail_100:.2f}", f"{s.tail_150:.2f}", "-" if ref is None else f"{ref:.2f}",
        )
    return table
