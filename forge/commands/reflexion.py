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

    from forge.protocol.inner_loop import InstanceLearner
    from forge.rundir import RunDirectory
    from forge.seeding import derive_seed
    from forge.stats import ReturnStats
    from forge.wiring import build_clients, injection_factory_for, model_label, open_memory

    args.config = [*args.config, f"protocol.num_stages={args.stages}", f"protocol.max_attempts={args.attempts}"]
    cfg = config_from_args(args)
    run_dir = RunDirectory.create(cfg, name=cfg.run.name)
    memory = open_memory(cfg, str(run_dir.path), run_dir.session_id)
    clients, ledger = build_clients(cfg)
    injection_factory = injection_factory_for(cfg, run_dir=run_dir.path, actor=f"{run_dir.session_id}/{args.instance}",
                                              clients=clients)
    learner = InstanceLearner(instance=args.instance, session=run_dir.session_id, cfg=cfg, clients=clients,
                              memory=memory, run_dir=run_dir.path, injection_factory=injection_factory)
    console.print(f"[bold]Reflexion[/bold] for {args.instance}: {args.stages} stages x {args.attempts} attempts, "
                  f"model {model_label(cfg)}\nrun directory {run_dir.path}")
    eval_seeds = [derive_seed(cfg.protocol.seed, "eval", i) for i in range(args.eval_episodes)]

    def evaluate(label: str) -> ReturnStats | None:
        if not eval_seeds:
            return None
        with console.status(f"{label}: {len(eval_seeds)} frozen episodes"):
            returns = [learner.play_frozen(seed, label=f"{label}-{i}").total_return for i, seed in enumerate(eval_seeds)]
        stats = ReturnStats.of(returns)
        console.print(f"{label}: {stats}")
        return stats

    before = evaluate("zero-shot")
    for stage in range(1, args.stages + 1):
        seed = derive_seed(cfg.protocol.seed, "train", args.instance, stage)
        with console.status(f"stage {stage}: training on seed {seed}"):
            training = learner.train_stage(stage, seed)
        for a in training.attempts:
            outcome = f"failed at step {a.failing_step}" if a.failed else "clean"
            console.print(f"[bold]stage {stage} attempt {a.attempt}[/bold]: return {a.total_return:+.1f}, {outcome}; "
                          f"memory +{a.added} ~{a.reinforced} -{a.deleted} evicted {a.evicted}")
            if a.diff:
                console.print(a.diff, markup=False, highlight=False)
            for problem in a.problems:
                console.print(f"  learner output rejected: {problem}", markup=False)
    after = evaluate("after learning")
    if before and after:
        table = Table(title=f"Frozen evaluation on the same {len(eval_seeds)} seeds ({model_label(cfg)})")
        for column in ("memory", "mean", "sd", "min", "max", "P(<-100)", "P(<-150)"):
            table.add_column(column, justify="right")
        for name, s in (("zero-shot (empty)", before), ("after reflexion", after)):
            table.add_row(name, f"{s.mean:.2f}", f"{s.sd:.2f}", f"{s.min:.1f}", f"{s.max:.1f}",
                          f"{s.tail_100:.2f}", f"{s.tail_150:.2f}")
        console.print(table)
    snapshot = learner.snapshot()
    console.print(f"final memory {snapshot.digest[:12]}: {len(snapshot.items)} items; tokens by role: "
                  + ", ".join(f"{r} {u.prompt_tokens}+{u.completion_tokens}" for r, u in ledger.totals_by_role().items()))
    run_dir.write_json("reports/reflexion.json", {
        "instance": args.instance, "zero_shot": before.as_dict() if before else None,
        "after": after.as_dict() if after else None, "memory_digest": snapshot.digest,
        "model": model_label(cfg),
    })
    return 0
