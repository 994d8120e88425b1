"""`forge correct RUN_DIR --instance I --episode LABEL --step N --actor NAME "text"`: a correction at a
decision point of a recorded episode.

Shows what the agent saw and did at that step (from `RUN_DIR/traces/I/LABEL.json`), compiles the text
into a rule whose trigger node is that step's decision context (FORGED_FROM the trace step; its
evidence names the trace, the episode seed and the step), and prints the rule id.
"""

from __future__ import annotations

import argparse
import sys
from typing import Optional

from rich.panel import Panel
from rich.text import Text

from forge.commands.common import console

PROG = "forge correct"


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
    parser.add_argument("--rulebook", metavar="SPEC", help="rulebook .db file or redis:// URL (default: rulebook.store)")
    parser.add_argument("--namespace", default="forge")
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE")
    parser.set_defaults(func=run)


def _fail(message: str) -> int:
    print(f"{PROG}: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    from forge.commands.rulebook import _guarded

    return _guarded(args, _correct)


def _correct(args: argparse.Namespace) -> int:
    from forge.commands.rulebook import _config, _open_book, _user_actor
    from forge.config import ROLES
    from forge.rulebook.anchor import load_trace_step

    if args.role not in ROLES:
        return _fail(f"--role {args.role!r} is not an agent role ({', '.join(ROLES)})")
    if not args.text.strip():
        return _fail("the correction text is empty")
    actor = _user_actor(args.actor)
    cfg = _config(args)
    step = load_trace_step(args.run_dir, args.instance, args.episode, args.step, cfg.rulebook.context_window)
    show_step(step.observation, step.action, step.reward, step.injected, title=f"{step.source}")
    book = _open_book(args, cfg)
    return teach_at_step(book, cfg, step.node, step.source, args.text.strip(), args.role, actor, args.reason,
                         followed=step.followed, agent_action=step.action, corrected_action=None)


def show_step(observation: str, action: str, reward: Optional[float], injected, *, title: str) -> None:
    body = Text(observation.strip() + "\n\n")
    body.append(f"agent's action: {action}", style="bold")
    if reward is not None:
        body.append(f"   reward {reward:+.1f}")
    if injected:
        body.append("\nrules injected: " + ", ".join(injected))
    console.print(Panel(body, title=title, expand=False))


def teach_at_step(book, cfg, node, source: str, text: str, role: str, actor: str, reason: str, *,
                  followed=(), agent_action: str = "", corrected_action: Optional[str] = None,
                  quiet: bool = False) -> int:
    """Compile `text` and teach it with the step's context as its trigger node; print the rule id.
    Returns 0, or 2 with the reason when the compiler dropped it or the book refused it."""
    from forge.memory.model import Provenance
    from forge.rulebook.anchor import corrected_learned_rules
    from forge.rulebook.compile import RuleCompiler, SourceItem, compile_grammar
    from forge.rulebook.teaching import Correction, teach_text
    from forge.wiring import build_clients

    corrects = corrected_learned_rules(followed, book.records(), agent_action, corrected_action)
    correction = Correction(text, role, actor, source, anchor=node, corrects=corrects, reason=reason)
    probe = SourceItem("correction", role, text, actor)
    client = None if compile_grammar(probe) is not None else build_clients(cfg)[0]["compiler"]
    taught = teach_text(book, RuleCompiler(client), [correction],
                        provenance=Provenance(actor=actor, model=cfg.models.for_role("compiler").model if client else None),
                        note=f"correction at {source}")
    compiled = taught.compiled[0]
    if not compiled.kept:
        return _fail(f"the compiler dropped {text!r:.80}: {compiled.reason or 'noise'}")
    outcome = taught.teach.outcomes[0]
    if outcome.result == "refused":
        return _fail(f"rule {outcome.rule_id} was not added: {outcome.detail}")
    head = book.store.head(outcome.rule_id)
    console.print(Text(f"{outcome.result} {head.ref}: {compiled.directive} (trigger node {node.id}; "
                       f"book version {head.book_version})"), soft_wrap=True)
    if head.record.corrects:
        console.print(Text("  corrects " + ", ".join(head.record.corrects)), soft_wrap=True)
    if head.record.supersedes:
        console.print(Text("  supersedes " + ", ".join(head.record.supersedes)), soft_wrap=True)
    if not quiet:
        console.print(f"rule {head.rule_id}", soft_wrap=True)
    return 0
