"""`forge evaluate RUN_DIR --injection full,rulebook,none`: the champion's memory, frozen, under each
injection mode on the same seeds: return and memory tokens per step, side by side.

Written to `<run_dir>/reports/evaluate.md` and `.json`; every episode's trace goes to
`<run_dir>/traces/<instance>/evaluate-<mode>-<i>.json`.
"""

from __future__ import annotations

import argparse
import dataclasses
from typing import TYPE_CHECKING

from rich.table import Table

from forge.commands.common import bar_per_name, console, progress_bars
from forge.config import Injection
from forge.errors import UsageError
from forge.plumbing.redact import mask_url

if TYPE_CHECKING:
    from forge.runs.evaluation import InjectionComparison

MODES = tuple(mode.value for mode in Injection)  # full, rulebook, none


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("evaluate", help="compare memory injection modes on frozen episodes of a run's champion")
    parser.add_argument("run_dir", metavar="RUN_DIR")
    parser.add_argument("--injection", default=",".join(MODES), help=f"comma-separated modes among {', '.join(MODES)}")
    parser.add_argument("--episodes", type=int, default=10, help="frozen episodes per mode (same seeds for every mode)")
    parser.add_argument("--instance", help="the instance whose memory to evaluate (default: the ledger's champion)")
    parser.add_argument("--rulebook", metavar="SPEC",
                        help="rulebook .db file or redis:// URL (default: rulebook.store if named, else the run's own)")
    parser.add_argument("--operator-rules", action="store_true",
                        help="the rulebook arm also injects operator (human-taught) rules (default: only the memory's)")
    parser.add_argument("--namespace", default="forge", help="key namespace in the rulebook store")
    parser.add_argument("--protocol", choices=("cage2",),
                        help="cage2: CAGE-2's official protocol (30/50/100 steps x B_line/Meander/Sleep) for the "
                             "champion, the sleep policy and a package agent, instead of the injection comparison")
    parser.add_argument("--scripted", default="BlueReactRemoveAgent", help="--protocol: the package's blue agent beside the champion")
    parser.add_argument("--policies", default="champion,sleep,scripted",
                        help="--protocol: which rows to play (e.g. sleep,scripted for the official 100 episodes without model cost)")
    # `config` is the name forge.cli merges overrides given after options into.
    parser.add_argument("config", nargs="*", metavar="KEY=VALUE",
                        help="configuration overrides on the run's config, e.g. rulebook.relevance_floor=0.5")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from forge.analysis.reporting import markdown_table  # lazy: cold start (the reports)
    from forge.runs.evaluation import compare_injection_modes
    from forge.config import rulebook_location
    from forge.cage2.transfer import transfer_of
    from forge.wiring import model_label, open_run_memory

    modes = list(dict.fromkeys(m.strip() for m in args.injection.split(",") if m.strip()))
    unknown = [m for m in modes if m not in MODES]
    if not modes or unknown:
        raise UsageError(f"unknown injection mode {(unknown or [args.injection])[0]!r} (modes: {', '.join(MODES)})")
    if args.episodes < 1:
        raise UsageError(f"--episodes must be >= 1, got {args.episodes}")
    bad = [o for o in args.config if "=" not in o]
    if bad:
        raise UsageError(f"override {bad[0]!r} is not of the form key=value")
    found = open_run_memory(args.run_dir, args.instance, args.config)
    snapshot = found.snapshot()
    args.rulebook = args.rulebook or rulebook_location(found.cfg, found.run.path)
    if args.protocol == "cage2":
        return _cage2_protocol(found, snapshot, args)
    console.print(f"[bold]Evaluate[/bold] {found.key} ({found.chosen_by}): memory {snapshot.digest[:12]} "
                  f"({len(snapshot)} items), {args.episodes} frozen episodes per mode, model {model_label(found.cfg)}",
                  soft_wrap=True)
    if "rulebook" in modes:
        console.print(f"rulebook arm: {mask_url(args.rulebook)}; operator rules "
                      + ("included (--operator-rules)" if args.operator_rules else
                         "not included (only the rules compiled from this memory; --operator-rules adds them)"),
                      soft_wrap=True)
    with progress_bars() as progress:
        comparison = compare_injection_modes(found, snapshot, modes, args.episodes, rulebook_spec=args.rulebook,
                                             namespace=args.namespace, operator_rules=args.operator_rules,
                                             on_progress=bar_per_name(progress))
    table, report = _report(comparison, args)
    console.print(table)
    if comparison.ablations:
        ablation_table = _ablation_table(comparison)
        console.print(ablation_table)
        report["ablation"] = [a.to_dict() for a in comparison.ablations]
        report["markdown"] += "\n".join(["", f"## {ablation_table.title}", "", *markdown_table(ablation_table), ""])
    transfer = transfer_of(found)
    if transfer is not None:
        _add_transfer(transfer, comparison, snapshot, modes, args, report)
    reports = found.run.path / "reports"
    reports.mkdir(parents=True, exist_ok=True)
    (reports / "evaluate.md").write_text(report["markdown"])
    found.run.write_json("reports/evaluate.json", {k: v for k, v in report.items() if k != "markdown"})
    found.run.sync(databases=True)  # a run in remote storage keeps its evaluation traces and reports
    console.print(f"written to {reports / 'evaluate.md'} and evaluate.json", soft_wrap=True)
    return 0


def _report(comparison: "InjectionComparison", args: argparse.Namespace) -> tuple[Table, dict]:
    from forge.analysis.reporting import markdown_table  # lazy: cold start (the reports)
    found, snapshot, results, label = comparison.found, comparison.snapshot, comparison.results, comparison.model
    seeds = list(comparison.seeds)
    full = results.get("full")
    title = (f"{found.key}: {len(seeds)} frozen episodes per mode on the same seeds "
             f"({label}; red {found.cfg.env.red_agent.value}, {found.cfg.env.max_steps} steps)")
    columns = ("injection", "episodes", "return mean ± sd", "min", "max", "memory tok/step", "vs full", "prompt tok/step", "wall s")
    table = Table(title=title)
    for column in columns:
        table.add_column(column, justify="left" if column == "injection" else "right")
    for mode, result in results.items():
        s = result.stats()
        ratio = "-"
        if full is not None and mode != "full":
            ratio = f"{full.memory_per_step / result.memory_per_step:.1f}x fewer" if result.memory_per_step > 0 else (
                "none injected" if full.memory_per_step > 0 else "-")
        row = (mode, str(s.n), f"{s.mean:.2f} ± {s.sd:.2f}", f"{s.min:.1f}", f"{s.max:.1f}",
               f"{result.memory_per_step:.2f}", ratio, f"{result.prompt_per_step:.0f}", f"{result.wall_s:.1f}")
        table.add_row(*row)
    lines = [f"# Injection comparison: {found.key}", "",
             f"Memory {snapshot.digest[:12]} ({len(snapshot)} items, chosen by {found.chosen_by}); model {label}.",
             f"Seeds: {', '.join(map(str, seeds))}.", "", *markdown_table(table), ""]
    data = {
        "run_dir": str(found.run.path), "memory": found.key, "chosen_by": found.chosen_by,
        "memory_digest": snapshot.digest, "memory_items": len(snapshot), "model": label, "seeds": seeds,
        "rulebook": mask_url(args.rulebook), "operator_rules": args.operator_rules,
        "modes": {mode: result.to_dict() for mode, result in results.items()},
        "markdown": "\n".join(lines),
    }
    return table, data


def _add_transfer(transfer, comparison: "InjectionComparison", snapshot, modes: list[str], args: argparse.Namespace,
                  report: dict) -> None:
    """A transfer evaluation: the same memory, modes and seeds on the trained-on setting, beside the one asked."""
    from forge.analysis.reporting import markdown_table  # lazy: cold start (the reports)
    from forge.runs.evaluation import compare_injection_modes

    console.print(f"[bold]Transfer evaluation[/bold]: trained on {transfer.trained_setting}, evaluated on "
                  f"{transfer.evaluated_setting}; now the trained-on setting on the same seeds", soft_wrap=True)
    with progress_bars() as progress:
        trained = compare_injection_modes(transfer.trained, snapshot, modes, args.episodes, rulebook_spec=args.rulebook,
                                          namespace=args.namespace, on_progress=bar_per_name(progress))
    table = Table(title=f"TRANSFER evaluation of {comparison.found.key}: trained on {transfer.trained_setting}, "
                        f"evaluated on {transfer.evaluated_setting} ({comparison.model}; same memory and seeds)")
    table.add_column("setting", justify="left")
    for mode in modes:
        table.add_column(f"{mode}: return mean ± sd", justify="right")
    for name, result in (("trained on: " + str(transfer.trained_setting), trained),
                         ("transfer: " + str(transfer.evaluated_setting), comparison)):
        table.add_row(name, *(f"{result.results[m].stats().mean:.2f} ± {result.results[m].stats().sd:.2f}" for m in modes))
    console.print(table)
    report["transfer"] = {"trained_on": dataclasses.asdict(transfer.trained_setting),
                          "evaluated_on": dataclasses.asdict(transfer.evaluated_setting),
                          "trained_on_modes": {m: r.to_dict() for m, r in trained.results.items()}}
    report["markdown"] += "\n".join(["", f"## {table.title}", "", *markdown_table(table), ""])


def _ablation_table(comparison: "InjectionComparison") -> Table:
    table = Table(title="ablation: the same seeds with one rule withheld, against no rule (what it superseded stays out; paired by seed)")
    for column in ("rule", "directive", "return without it", "with the book - without it [95%]", "pairs"):
        table.add_column(column, justify="left" if column in ("rule", "directive") else "right")
    for ablation in comparison.ablations:
        mean, low, high = ablation.interval()
        table.add_row(ablation.rule, ablation.directive[:60], f"{sum(ablation.returns_without) / len(ablation.returns_without):.2f}",
                      f"{mean:+.2f}" + (f" [{low:+.2f}, {high:+.2f}]" if low is not None else ""),
                      str(len(ablation.differences)))
    return table


def _cage2_protocol(found, snapshot, args: argparse.Namespace) -> int:
    """`--protocol cage2`: the champion, the sleep policy and a package agent through the official protocol."""
    from forge.cage2.evaluation import UnknownPolicy, evaluate_champion, protocol_policies
    from forge.wiring import model_label

    try:
        policies = protocol_policies(found, snapshot, [p.strip() for p in args.policies.split(",") if p.strip()],
                                     args.scripted)
    except UnknownPolicy as exc:
        raise UsageError(f"--policies {args.policies!r}: {exc}") from None
    console.print(f"[bold]CAGE-2 protocol[/bold] {found.key} ({found.chosen_by}): memory {snapshot.digest[:12]}, "
                  f"{args.episodes} episodes per cell, model {model_label(found.cfg)}", soft_wrap=True)
    with progress_bars() as progress:
        played = evaluate_champion(found, snapshot, policies, episodes=args.episodes, on_progress=bar_per_name(progress))
    for table in played.tables():
        console.print(table)
    console.print(f"written to {played.report} and cage2_protocol.json" + (f"; MLflow run {played.run_id}" if played.run_id else ""),
                  soft_wrap=True)
    return 0
