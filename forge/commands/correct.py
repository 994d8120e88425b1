"""`forge correct RUN_DIR --instance I --episode LABEL --step N --actor NAME "text"`: a correction at a
decision point of a recorded episode.

Shows what the agent saw and did at that step (from `RUN_DIR/traces/I/LABEL.json`), compiles the text
into a rule whose trigger node is that step's decision context (FORGED_FROM the trace step; its
evidence names the trace, the episode seed and the step), and prints the rule id.
"""

from __future__ import annotations

import argparse
from typing import Optional

from rich.panel import Panel
from rich.text import Text

from forge.commands.common import check_role, console, user_actor
from forge.errors import UsageError


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("correct", help="correct the agent at one step of a recorded episode")
    parser.add_argument("run_dir", metavar="RUN_DIR")
    parser.add_argument("text", help="the correction, e.g. \"When Enterprise1 shows Compromised User, then Restore Enterprise1\"")
    parser.add_argument("--instance", required=True, help="the instance whose trace it is (a folder of RUN_DIR/traces)")
    parser.add_argument("--episode", required=True, metavar="LABEL", help="the episode label (trace file name, e.g. s1-train-a2)")
    parser.add_argument("--step", required=True, type=int, help="the step (1-based, as the trace numbers them)")
    parser.add_argument("--actor", required=True, help="who corrects: NAME (stored as user:NAME) or user:NAME")
    parser.add_argument("--role", default="action_chooser", help="the agent role the rule is for (default action_chooser)")
    parser.add_argument("--reason", default="", help="why, in one line (kept in the rule's evidence)")
    parser.add_argument("--replaces", action="append", default=[], metavar="RULE",
                        help="a rule this correction replaces (id or unique prefix; repeatable)")
    parser.add_argument("--rulebook", metavar="SPEC", help="rulebook .db file or redis:// URL (default: rulebook.store)")
    parser.add_argument("--namespace", default="forge")
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from forge.commands.rulebook import _config, _open_book
    from forge.rulebook.authoring import load_trace_step
    from forge.rulebook.authoring import step_correction

    check_role(args.role)
    if not args.text.strip():
        raise UsageError("the correction text is empty")
    actor = user_actor(args.actor)
    cfg = _config(args)
    step = load_trace_step(args.run_dir, args.instance, args.episode, args.step, cfg.rulebook.context_window)
    show_step(step.observation, step.action, step.reward, step.injected, title=f"{step.source}")
    book = _open_book(args, cfg)
    teach_and_show(book, cfg, step_correction(book, step.node, step.source, args.text.strip(), args.role, actor,
                                              reason=args.reason, followed=step.followed, agent_action=step.action,
                                              replaces=tuple(book.find(ref) for ref in args.replaces)))
    return 0


def show_step(observation: str, action: str, reward: Optional[float], injected, *, title: str) -> None:
    body = Text(observation.strip() + "\n\n")
    body.append(f"agent's action: {action}", style="bold")
    if reward is not None:
        body.append(f"   reward {reward:+.1f}")
    if injected:
        body.append("\nrules injected: " + ", ".join(injected))
    console.print(Panel(body, title=title, expand=False))


def teach_and_show(book, cfg, correction, *, quiet: bool = False) -> str:
    """Teach `correction` and print what it became; the rule id. Raises `CorrectionNotTaught` when the
    compiler dropped it or the book refused it."""
    from forge.commands.rulebook import _compiler_client
    from forge.rulebook.authoring import add_correction

    added = add_correction(book, correction, compiler_client=lambda: _compiler_client(cfg),
                           compiler_model=cfg.models.for_role("compiler").model, note=f"correction at {correction.source}")
    head = added.head
    console.print(Text(f"{added.outcome.result} {head.ref}: {added.compiled.directive} (trigger node {correction.anchor.id}; "
                       f"book version {head.book_version})"), soft_wrap=True)
    if head.record.corrects:
        console.print(Text("  corrects " + ", ".join(head.record.corrects)), soft_wrap=True)
    if head.record.supersedes:
        console.print(Text("  supersedes " + ", ".join(head.record.supersedes)), soft_wrap=True)
    if not quiet:
        console.print(f"rule {head.rule_id}", soft_wrap=True)
    return head.rule_id
