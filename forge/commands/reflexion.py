"""`forge reflexion`: one instance's inner loop (Algorithm 1), with the memory diff of every attempt,
and a frozen evaluation before and after on the same seeds."""

from __future__ import annotations

import argparse

from forge.commands.common import add_config_arguments, config_from_args, console


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("reflexion", help="run one instance's failure-triggered learning loop")
    parser.add_argument("--stages", type=int, default=3)
    parser.add_argument("--attempts", type=int, default=3, help="k_A: attempts per stage")
    parser.add_argument("--eval-episodes", type=int, default=10, help="frozen evaluation episodes before and after")
    parser.add_argument("--instance", default="i00")
    add_config_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from rich.table import Table

    from forge.runs.reflexion import run_reflexion
    from forge.wiring import model_label

    args.config = [*args.config, f"protocol.num_stages={args.stages}", f"protocol.max_attempts={args.attempts}"]
    cfg = config_from_args(args)
    console.print(f"[bold]Reflexion[/bold] for {args.instance}: {args.stages} stages x {args.attempts} attempts, "
                  f"model {model_label(cfg)}")

    def show_stage(training) -> None:
        for a in training.attempts:
            outcome = f"failed at step {a.failing_step}" if a.failed else "clean"
            console.print(f"[bold]stage {training.stage} attempt {a.attempt}[/bold]: return {a.total_return:+.1f}, "
                          f"{outcome}; memory +{a.added} ~{a.reinforced} -{a.deleted} evicted {a.evicted}")
            if a.diff:
                console.print(a.diff, markup=False, highlight=False)
            for problem in a.problems:
                console.print(f"  learner output rejected: {problem}", markup=False)

    with console.status("starting") as status:
        result = run_reflexion(cfg, args.instance, args.eval_episodes, on_phase=status.update, on_stage=show_stage,
                               on_evaluated=lambda label, stats: console.print(f"{label}: {stats}"))
    console.print(f"run directory {result.run_dir.path}")
    if result.before and result.after:
        table = Table(title=f"Frozen evaluation on the same {args.eval_episodes} seeds ({result.model})")
        for column in ("memory", "mean", "sd", "min", "max", "P(<-100)", "P(<-150)"):
            table.add_column(column, justify="right")
        for name, s in (("zero-shot (empty)", result.before), ("after reflexion", result.after)):
            table.add_row(name, f"{s.mean:.2f}", f"{s.sd:.2f}", f"{s.min:.1f}", f"{s.max:.1f}",
                          f"{s.tail_100:.2f}", f"{s.tail_150:.2f}")
        console.print(table)
    console.print(f"final memory {result.snapshot.digest[:12]}: {len(result.snapshot.items)} items; tokens by role: "
                  + ", ".join(f"{r} {u.prompt_tokens}+{u.completion_tokens}" for r, u in result.tokens_by_role.items()))
    return 0
