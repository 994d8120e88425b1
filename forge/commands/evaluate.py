"""`forge evaluate RUN_DIR --injection full,rulebook,none`: the champion's memory, frozen, under each
injection mode on the same seeds: return and memory tokens per step, side by side.

Written to `<run_dir>/reports/evaluate.md` and `.json`; every episode's trace goes to
`<run_dir>/traces/<instance>/evaluate-<mode>-<i>.json`.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import dataclass, field

from rich.table import Table

from forge.commands.common import console

MODES = ("full", "rulebook", "none")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("evaluate", help="compare memory injection modes on frozen episodes of a run's champion")
    parser.add_argument("run_dir", metavar="RUN_DIR")
    parser.add_argument("--injection", default=",".join(MODES), help=f"comma-separated modes among {', '.join(MODES)}")
    parser.add_argument("--episodes", type=int, default=10, help="frozen episodes per mode (same seeds for every mode)")
    parser.add_argument("--instance", help="the instance whose memory to evaluate (default: the ledger's champion)")
    parser.add_argument("--rulebook", metavar="SPEC", help="rulebook .db file or redis:// URL (default: rulebook.store)")
    parser.add_argument("--namespace", default="forge", help="key namespace in the rulebook store")
    # `config` is the name forge.cli merges overrides given after options into.
    parser.add_argument("config", nargs="*", metavar="KEY=VALUE",
                        help="configuration overrides on the run's config, e.g. rulebook.relevance_floor=0.5")
    parser.set_defaults(func=run)


def _fail(message: str) -> int:
    print(f"forge evaluate: {message}", file=sys.stderr)
    return 2


@dataclass
class ModeResult:
    mode: str
    returns: list[float] = field(default_factory=list)
    memory_tokens: list[int] = field(default_factory=list)  # per step, over all episodes
    prompt_tokens: list[int] = field(default_factory=list)
    wall_s: float = 0.0

    @property
    def memory_per_step(self) -> float:
        return statistics.fmean(self.memory_tokens) if self.memory_tokens else 0.0

    @property
    def prompt_per_step(self) -> float:
        return statistics.fmean(self.prompt_tokens) if self.prompt_tokens else 0.0

    def stats(self):
        from forge.stats import ReturnStats

        return ReturnStats.of(self.returns)

    def to_dict(self) -> dict:
        s = self.stats()
        return {"mode": self.mode, "episodes": s.n, "return_mean": s.mean, "return_sd": s.sd, "return_min": s.min,
                "return_max": s.max, "returns": self.returns, "memory_tokens_per_step": self.memory_per_step,
                "prompt_tokens_per_step": self.prompt_per_step, "wall_s": self.wall_s}


def run(args: argparse.Namespace) -> int:
    from forge.config import ConfigError
    from forge.llm.types import ProviderError
    from forge.memory.errors import MemoryStoreError
    from forge.rulebook.embed import EmbeddingError
    from forge.rulebook.model import RulebookError

    modes = [m.strip() for m in args.injection.split(",") if m.strip()]
    unknown = [m for m in modes if m not in MODES]
    if not modes or unknown:
        return _fail(f"unknown injection mode {(unknown or [args.injection])[0]!r} (modes: {', '.join(MODES)})")
    if args.episodes < 1:
        return _fail(f"--episodes must be >= 1, got {args.episodes}")
    bad = [o for o in args.config if "=" not in o]
    if bad:
        return _fail(f"override {bad[0]!r} is not of the form key=value")
    import sqlite3

    import redis

    try:
        return _evaluate(args, list(dict.fromkeys(modes)))
    except (RulebookError, ConfigError, MemoryStoreError, EmbeddingError, ProviderError) as exc:
        return _fail(str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
    except (redis.RedisError, sqlite3.Error) as exc:
        return _fail(f"store error ({type(exc).__name__}): {str(exc).splitlines()[0] if str(exc) else ''}")


def _evaluate(args: argparse.Namespace, modes: list[str]) -> int:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from agents.injection import FullInjection, NoInjection
    from forge.protocol.inner_loop import InstanceLearner
    from forge.rulebook.ablation import play_ablations, rules_to_ablate
    from forge.rulebook.injection import rulebook_injection_factory
    from forge.seeding import derive_seed
    from forge.wiring import build_clients, model_label, open_run_memory

    found = open_run_memory(args.run_dir, args.instance, args.config)
    cfg = found.cfg
    snapshot = found.snapshot()
    clients, _ = build_clients(cfg)
    learner = InstanceLearner(instance=found.instance, session=found.session, cfg=cfg, clients=clients,
                              memory=found.memory, run_dir=found.run.path)
    seeds = [derive_seed(cfg.protocol.seed, "evaluate", i) for i in range(args.episodes)]
    label = model_label(cfg)
    console.print(f"[bold]Evaluate[/bold] {found.key} ({found.chosen_by}): memory {snapshot.digest[:12]} "
                  f"({len(snapshot)} items), {args.episodes} frozen episodes per mode, model {label}", soft_wrap=True)
    results: dict[str, ModeResult] = {}
    aftermath: list[dict] = []  # of the rulebook episodes: which rules reached a decision point
    ablations: dict[str, list[float]] = {}
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, transient=True) as progress:
        for mode in modes:
            task = progress.add_task(f"{mode}", total=args.episodes)
            started = time.perf_counter()
            if mode == "rulebook":
                progress.update(task, description="rulebook (compiling the memory)")
                factory = rulebook_injection_factory(cfg, args.rulebook, run_dir=found.run.path, actor=found.actor,
                                                     clients=clients, namespace=args.namespace)
                injection = book_injection = factory(snapshot)
                progress.update(task, description="rulebook")
            result = ModeResult(mode)
            for i, seed in enumerate(seeds):
                if mode == "full":
                    injection = FullInjection(snapshot)
                elif mode == "none":
                    injection = NoInjection()
                episode = learner.play_frozen(seed, label=f"evaluate-{mode}-{i}", injection=injection)
                if mode == "rulebook":
                    aftermath.extend(episode.aftermath)
                result.returns.append(episode.total_return)
                result.memory_tokens.extend(step.memory_tokens for step in episode.steps)
                result.prompt_tokens.extend(step.prompt_tokens for step in episode.steps)
                progress.advance(task)
            result.wall_s = time.perf_counter() - started
            results[mode] = result
        rules = rules_to_ablate(aftermath, cfg.rulebook.ablation_max_rules)
        if rules:
            task = progress.add_task(f"ablation: {len(rules)} rules withheld one at a time", total=len(rules) * len(seeds))
            ablations = play_ablations(
                lambda seed, label, inj: learner.play_frozen(seed, label=label, injection=inj),
                lambda withheld: factory(snapshot, withheld), seeds, rules, lambda rule: progress.advance(task))
    table, report = _report(found, snapshot, results, seeds, label, args)
    console.print(table)
    if ablations:
        heads = book_injection.book.heads()
        ablation_table, report["ablation"] = _ablation_report(results["rulebook"].returns, ablations, heads)
        console.print(ablation_table)
        report["markdown"] += "\n" + _markdown(ablation_table)
    reports = found.run.path / "reports"
    reports.mkdir(parents=True, exist_ok=True)
    (reports / "evaluate.md").write_text(report["markdown"])
    found.run.write_json("reports/evaluate.json", {k: v for k, v in report.items() if k != "markdown"})
    console.print(f"written to {reports / 'evaluate.md'} and evaluate.json", soft_wrap=True)
    return 0


def _report(found, snapshot, results: dict[str, ModeResult], seeds: list[int], label: str, args) -> tuple[Table, dict]:
    full = results.get("full")
    title = (f"{found.key}: {len(seeds)} frozen episodes per mode on the same seeds "
             f"({label}; red {found.cfg.env.red_agent.value}, {found.cfg.env.max_steps} steps)")
    columns = ("injection", "episodes", "return mean ± sd", "min", "max", "memory tok/step", "vs full", "prompt tok/step", "wall s")
    table = Table(title=title)
    for column in columns:
        table.add_column(column, justify="left" if column == "injection" else "right")
    rows = []
    for mode, result in results.items():
        s = result.stats()
        ratio = "-"
        if full is not None and mode != "full":
            ratio = f"{full.memory_per_step / result.memory_per_step:.1f}x fewer" if result.memory_per_step > 0 else (
                "none injected" if full.memory_per_step > 0 else "-")
        row = (mode, str(s.n), f"{s.mean:.2f} ± {s.sd:.2f}", f"{s.min:.1f}", f"{s.max:.1f}",
               f"{result.memory_per_step:.2f}", ratio, f"{result.prompt_per_step:.0f}", f"{result.wall_s:.1f}")
        table.add_row(*row)
        rows.append(row)
    lines = [f"# Injection comparison: {found.key}", "",
             f"Memory {snapshot.digest[:12]} ({len(snapshot)} items, chosen by {found.chosen_by}); model {label}.",
             f"Seeds: {', '.join(map(str, seeds))}.", "",
             "| " + " | ".join(columns) + " |", "|" + "|".join("---" for _ in columns) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    lines.append("")
    data = {
        "run_dir": str(found.run.path), "memory": found.key, "chosen_by": found.chosen_by,
        "memory_digest": snapshot.digest, "memory_items": len(snapshot), "model": label, "seeds": seeds,
        "rulebook": args.rulebook or found.cfg.rulebook.store,
        "modes": {mode: result.to_dict() for mode, result in results.items()},
        "markdown": "\n".join(lines),
    }
    return table, data


def _ablation_report(with_book: list[float], ablations: dict[str, list[float]], heads: dict) -> tuple[Table, dict]:
    """Per ablated rule: the return without it, and the paired difference (with - without) with its
    bootstrap interval, computed as `forge rulebook stats` does when it turns them into a verdict."""
    from forge.rulebook.efficacy import paired_difference

    table = Table(title="ablation: the same seeds with one rule withheld (paired by seed)")
    for column in ("rule", "directive", "return without it", "with the book - without it [95%]", "pairs"):
        table.add_column(column, justify="left" if column in ("rule", "directive") else "right")
    data = {}
    for rule, without in ablations.items():
        differences = [a - b for a, b in zip(with_book, without)]
        mean, low, high = paired_difference(differences)
        head = heads.get(rule)
        table.add_row(head.ref if head else rule, head.record.directive[:60] if head else "?",
                      f"{statistics.fmean(without):.2f}",
                      f"{mean:+.2f}" + (f" [{low:+.2f}, {high:+.2f}]" if low is not None else ""), str(len(differences)))
        data[rule] = {"returns_without": without, "differences": differences, "mean": mean, "low": low, "high": high}
    return table, data


def _markdown(table: Table) -> str:
    headers = [str(c.header) for c in table.columns]
    rows = zip(*[list(c.cells) for c in table.columns])
    lines = [f"## {table.title}", "", "| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    return "\n".join(lines + ["| " + " | ".join(str(x) for x in row) + " |" for row in rows]) + "\n"
