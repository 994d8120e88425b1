"""`forge episode`: one episode of the defender, with a per-step table of what it did and what it cost."""

from __future__ import annotations

import argparse

from forge.commands.common import add_config_arguments, config_from_args, console


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("episode", help="run one episode and print a per-step table")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--memory", metavar="REF", help="INSTANCE, INSTANCE@VERSION or a snapshot digest (prefix) in --store")
    parser.add_argument("--store", metavar="SPEC", default="runs/latest", help="run dir, .db file or redis:// URL")
    parser.add_argument("--namespace", default="forge", help="key namespace of a Redis store")
    add_config_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from rich.table import Table

    from forge.env import Cage2Env
    from forge.memory import EMPTY_SNAPSHOT
    from forge.memory.refs import resolve_snapshot
    from forge.protocol.episode import play_episode
    from agents.defender import Defender
    from forge.wiring import build_clients, injection_factory_for, model_label

    cfg = config_from_args(args)
    snapshot = EMPTY_SNAPSHOT
    if args.memory:
        snapshot = resolve_snapshot(args.store, args.memory, namespace=args.namespace)
    clients, ledger = build_clients(cfg)
    env = Cage2Env(red_agent=cfg.env.red_agent.value, max_steps=cfg.env.max_steps)
    injection = injection_factory_for(cfg, clients=clients)(snapshot)
    defender = Defender(clients, injection, cfg.agent, cfg.env.max_steps)
    with console.status("playing..."):
        result = play_episode(env, defender, seed=args.seed)
    table = Table(title=f"Episode seed {args.seed}, red={cfg.env.red_agent.value}, model {model_label(cfg)}, "
                        f"memory {snapshot.digest[:12]} ({len(snapshot.items)} items)")
    for column in ("step", "hosts changed", "action", "reward", "calls", "prompt tok", "compl tok", "fallback", "memory in prompt"):
        table.add_column(column, justify="left" if column in ("hosts changed", "action") else "right")
    for s in result.steps:
        injected = sum(len(v) for v in s.injected.values())
        table.add_row(
            str(s.step), ", ".join(s.changed) or "-", s.action, f"{s.reward:+.1f}", str(len(s.calls)),
            str(s.prompt_tokens), str(s.completion_tokens),
            f"yes ({s.fallback_reason})" if s.fallback else "no", str(injected),
        )
    console.print(table)
    console.print(f"return {result.total_return:+.1f}; fallbacks {result.fallbacks}; model calls "
                  f"{sum(len(s.calls) for s in result.steps)}; tokens by role: "
                  + ", ".join(f"{r} {u.prompt_tokens}+{u.completion_tokens}" for r, u in ledger.totals_by_role().items()))
    return 0
