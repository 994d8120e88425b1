"""`forge correct RUN_DIR --instance I --episode LABEL --step N --actor NAME "text"`: a correction at a
decision point of a recorded episode.

Shows what the agent saw and did at that step (from `RUN_DIR/traces/I/LABEL.json`), compiles the text
into a rule whose trigger node is that step's decision context (FORGED_FROM the trace step; its
evidence names the trace, the episode seed and the step), and prints the rule id.
"""

from __future__ import annotations

import argparse
from forge.commands.common import (
    check_role, open_rulebook, rulebook_config, show_step, teach_and_show, user_actor,
)
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
    from forge.rulebook.authoring import load_trace_step
    from forge.rulebook.authoring import step_correction

    check_role(args.role)
    if not args.text.strip():
        raise UsageError("the correction text is empty")
    actor = user_actor(args.actor)
    cfg = rulebook_config(args)
    step = load_trace_step(args.run_dir, args.instance, args.episode, args.step, cfg.rulebook.context_window)
    show_step(step.observation, step.action, step.reward, step.injected, title=f"{step.source}")
    book = open_rulebook(args, cfg)
    teach_and_show(book, cfg, step_correction(book, step.node, step.source, args.text.strip(), args.role, actor,
                                              reason=args.reason, followed=step.followed, agent_action=step.action,
                                              replaces=tuple(book.find(ref) for ref in args.replaces)))
    return 0
