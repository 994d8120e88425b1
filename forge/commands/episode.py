"""`forge episode`: one episode of the defender, with a per-step table of what it did and what it cost.

`--operator` pauses before each action: the step's alerts and the proposed action with the
ActionChooser's reasons; Enter accepts, `ACTION: REASON` overrides. `--override STEP=ACTION:REASON`
(repeatable) does the same without a terminal. Each override is executed, recorded in the trace
(`<run-dir>/traces/operator/<label>.json`) and taught at once as a correction anchored at that step
(forge correct), so nothing is lost if the episode is interrupted.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from forge.commands.common import add_config_arguments, config_from_args, console, open_rulebook, teach_and_show, user_actor
from forge.errors import UsageError

if TYPE_CHECKING:
    from forge.protocol.operator import PlannedOverride


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("episode", help="run one episode and print a per-step table")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--memory", metavar="REF", help="INSTANCE, INSTANCE@VERSION or a snapshot digest (prefix) in --store")
    parser.add_argument("--store", metavar="SPEC", default="runs/latest", help="run dir, .db file or redis:// URL")
    parser.add_argument("--namespace", default="forge", help="key namespace of a Redis store")
    parser.add_argument("--operator", action="store_true", help="pause before each action: accept (Enter) or override it")
    parser.add_argument("--override", action="append", default=[], metavar="STEP=ACTION:REASON",
                        help="override the action at STEP (repeatable), e.g. '7=Restore Enterprise1:reimage, don't evict'")
    parser.add_argument("--actor", help="who overrides (default: user:<login>)")
    parser.add_argument("--role", default="action_chooser", help="the role an override's correction is for")
    parser.add_argument("--rulebook", metavar="SPEC", help="where corrections go (default: rulebook.store)")
    parser.add_argument("--run-dir", metavar="DIR", help="where the trace goes (default: <run.runs_dir>/episodes)")
    add_config_arguments(parser)
    parser.set_defaults(func=run)


def parse_overrides(specs: list[str]) -> dict[int, "PlannedOverride"]:
    """`STEP=ACTION:REASON` each; ValueError naming the bad one (the action parser's message for an
    unknown action). All are checked before anything runs."""
    from forge.env.catalog import ActionParseError, action_name, parse_action
    from forge.protocol.operator import PlannedOverride

    out: dict[int, PlannedOverride] = {}
    for spec in specs:
        step_text, eq, rest = spec.partition("=")
        if not eq or not step_text.strip().isdigit() or int(step_text) < 1:
            raise ValueError(f"--override {spec!r} is not STEP=ACTION:REASON with STEP a step number >= 1")
        action_text, _, reason = rest.partition(":")
        step = int(step_text)
        if step in out:
            raise ValueError(f"--override gives step {step} twice")
        try:
            action = parse_action(action_text)
        except ActionParseError as exc:
            raise ValueError(f"--override {step}: {exc}") from None
        if not reason.strip():
            raise ValueError(f"--override {step}: give a one-line reason after the action (STEP=ACTION:REASON)")
        out[step] = PlannedOverride(step, action, action_name(action), " ".join(reason.split()))
    return out


def run(args: argparse.Namespace) -> int:
    from forge.memory import EMPTY_SNAPSHOT
    from forge.memory.refs import resolve_snapshot
    from forge.protocol.episode import EpisodeInterrupted, play_episode
    from forge.wiring import build_clients, build_defender

    try:
        planned = parse_overrides(args.override)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if args.operator and not sys.stdin.isatty():
        raise UsageError("--operator needs a terminal; use --override STEP=ACTION:REASON in scripts")
    cfg = config_from_args(args)
    snapshot = EMPTY_SNAPSHOT
    if args.memory:
        snapshot = resolve_snapshot(args.store, args.memory, namespace=args.namespace)
    clients, ledger = build_clients(cfg)
    env, defender = build_defender(cfg, clients, snapshot)
    operator = None
    if args.operator or planned:
        from forge.protocol.operator import OperatorLoop

        operator = OperatorLoop(
            book=lambda: open_rulebook(args, cfg), teach=lambda book, c: teach_and_show(book, cfg, c, quiet=True),
            window=cfg.rulebook.context_window, role=args.role, actor=user_actor(args.actor), seed=args.seed,
            label=f"seed{args.seed}-{time.strftime('%Y%m%d-%H%M%S')}",
            run_dir=Path(args.run_dir or Path(cfg.run.runs_dir) / "episodes"), planned=planned,
            ask=_ask if args.operator else None,
            on_not_taught=lambda why: print(f"forge episode: {why}", file=sys.stderr))
    taught = operator.taught if operator is not None else []
    try:
        if operator is not None:
            result = play_episode(env, defender, seed=args.seed, operator=operator)
        else:
            with console.status("playing..."):
                result = play_episode(env, defender, seed=args.seed)
    except KeyboardInterrupt as exc:
        console.print(f"\ninterrupted; corrections kept in the rulebook: {', '.join(taught) or 'none'}", soft_wrap=True)
        if operator is not None and isinstance(exc, EpisodeInterrupted):  # the corrections' evidence cites this trace
            console.print(f"trace up to the interruption: {operator.write_trace(exc.partial)}", soft_wrap=True)
        return 130
    _show_episode(result, args.seed, cfg, snapshot, ledger)
    if operator is not None:
        path = operator.write_trace(result)
        console.print(f"trace {path}; corrections: {', '.join(taught) or 'none'}", soft_wrap=True)
    return 0


def _show_episode(result, seed: int, cfg, snapshot, ledger) -> None:
    """The per-step table, the totals, the replies per role and, under rulebook injection, what each
    injected rule asked and what the agent did."""
    from rich.table import Table

    from forge.wiring import model_label

    table = Table(title=f"Episode seed {seed}, red={cfg.env.red_agent.value}, model {model_label(cfg)}, "
                        f"memory {snapshot.digest[:12]} ({len(snapshot.items)} items)")
    for column in ("step", "hosts changed", "action", "reward", "calls", "prompt tok", "compl tok", "fallback", "memory in prompt"):
        table.add_column(column, justify="left" if column in ("hosts changed", "action") else "right")
    for s in result.steps:
        injected = sum(len(v) for v in s.injected.values())
        action = s.action if s.override is None else f"{s.action} (operator; proposed {s.override.proposed})"
        table.add_row(
            str(s.step), ", ".join(s.changed) or "-", action, f"{s.reward:+.1f}", str(len(s.calls)),
            str(s.prompt_tokens), str(s.completion_tokens),
            f"yes ({s.fallback_reason})" if s.fallback else "no", str(injected),
        )
    console.print(table)
    console.print(f"return {result.total_return:+.1f}; fallbacks {result.fallbacks}; model calls "
                  f"{sum(len(s.calls) for s in result.steps)}; tokens by role: "
                  + ", ".join(f"{r} {u.prompt_tokens}+{u.completion_tokens}" for r, u in ledger.totals_by_role().items()))
    acted = len(result.steps) - result.fallbacks
    latencies = sorted(r.latency_s for r in ledger.records() if not r.failed)
    p50 = f"{latencies[len(latencies) // 2]:.2f} s" if latencies else "-"
    console.print(f"acted on the model's own reply on {acted}/{len(result.steps)} steps; p50 latency per call {p50}")
    for role, counts in ledger.replies_by_role().items():
        console.print(f"  replies {role}: " + ", ".join(f"{k} {n}" for k, n in counts.items()), soft_wrap=True)
    if result.aftermath:  # rulebook injection: what each injected rule asked and what the agent did
        by_rule: dict[str, dict[str, list[int]]] = {}
        for entry in result.aftermath:
            if entry.judged is not None:
                by_rule.setdefault(entry.rule, {}).setdefault(entry.judged, []).append(entry.step)
        for ref, judged in sorted(by_rule.items()):
            console.print(f"rule {ref}: " + "; ".join(f"{k} at steps {', '.join(map(str, v))}"
                                                       for k, v in sorted(judged.items())), soft_wrap=True)


def _ask(step: int, decision):
    """The operator at the terminal: the step's alerts, the proposed action and its reasons; Enter accepts,
    `ACTION: REASON` overrides."""
    from rich.text import Text

    from forge.env.catalog import ActionParseError, action_name, parse_action
    from forge.protocol.operator import PlannedOverride

    console.rule(f"step {step}")
    # The step's table rows: the Alerts block of what the Planner saw (one row per host with a status).
    _, _, alerts = decision.observation.partition("Alerts:")
    console.print(Text(alerts.strip() or "no alerts"))
    console.print(Text(f"proposed: {decision.action_text}" + (" (fallback)" if decision.fallback else ""), style="bold"))
    for reason in decision.reasons[:5]:
        console.print(Text(f"  because: {reason}"))
    while True:
        answer = input("Enter to accept, or ACTION: REASON > ").strip()
        if not answer:
            return None
        action_text, _, reason = answer.partition(":")
        try:
            action = parse_action(action_text)
        except ActionParseError as exc:
            console.print(Text(f"{exc}", style="red"))
            continue
        while not reason.strip():
            reason = input("reason (one line) > ")
        return PlannedOverride(step, action, action_name(action), " ".join(reason.split()))
