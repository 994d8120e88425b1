"""`forge run`, `forge resume`, `forge report`, `forge compare`: the population session and its reports."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional, Sequence

from rich.text import Text

from forge.commands.common import add_config_arguments, config_from_args, console, progress_bars
from forge.plumbing.seeding import BOOTSTRAP_SEED

if TYPE_CHECKING:
    from rich.progress import Progress


def register(subparsers: argparse._SubParsersAction) -> None:
    run = subparsers.add_parser("run", help="run a FORGE population session (starts local Ray unless RAY_ADDRESS)")
    run.add_argument("--baseline", action="append", default=[], metavar="CONDITION",
                     choices=["zero_shot", "reflexion", "forge", "forge_no_grad"],
                     help="also run this condition with the same settings and seeds, then compare (repeatable)")
    run.add_argument("--sessions", type=int, default=1, metavar="K",
                     help="run K sessions per condition (derived seeds) into one MLflow study, then compare on sessions")
    run.add_argument("--sweep", action="append", default=[], metavar="KEY=V1,V2,...",
                     help="run every value of KEY (a grid with several --sweep) as its own arm of the study")
    run.add_argument("--preflight", action="store_true",
                     help="first send one request per role in the session's shape (forge providers check); stop if one is refused")
    add_config_arguments(run)
    run.set_defaults(func=_run)

    resume = subparsers.add_parser("resume", help="continue a session whose driver stopped or was killed")
    resume.add_argument("run_dir", metavar="RUN_DIR")
    resume.add_argument("config", nargs="*", metavar="OVERRIDE",
                        help="key=value overrides, e.g. the URLs whose credentials config.yaml does not keep")
    resume.set_defaults(func=_resume)

    report = subparsers.add_parser("report", help="summary table and plots of a session (several: and their comparison)")
    report.add_argument("run_dirs", nargs="+", metavar="RUN_DIR")
    _add_comparison_arguments(report)
    report.set_defaults(func=_report)

    compare = subparsers.add_parser(
        "compare", help="compare sessions (the paper's Table 3): intervals, permutation tests, verdicts")
    compare.add_argument("run_dirs", nargs="*", metavar="RUN_DIR")
    compare.add_argument("--mlflow", metavar="URI",
                         help="read the sessions from this MLflow tracking store instead of run directories "
                              "(e.g. sqlite:///$PWD/runs/mlflow.db)")
    compare.add_argument("--study", default="forge", help="with --mlflow: the study (MLflow experiment) to compare")
    _add_comparison_arguments(compare)
    compare.set_defaults(func=_compare)


def _add_comparison_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", type=Path,
                        help="where to write comparison.{txt,md,json,png} (default: next to the first run)")
    parser.add_argument("--seed", type=int, default=BOOTSTRAP_SEED,
                        help=f"bootstrap and permutation-test seed (default {BOOTSTRAP_SEED}; same seed, same numbers)")


BUDGET_EXHAUSTED_EXIT = 3  # `forge run` / `forge resume` stopped cleanly on the session budget


def _announce(cfg, run_dir) -> None:
    """A session's first lines: what runs, and where it is kept."""
    from forge.plumbing.redact import mask_url

    if run_dir.notice:
        console.print(Text(run_dir.notice, style="yellow"), soft_wrap=True)  # one line: a job log is grepped for it
    kept = f" (kept in {mask_url(run_dir.location)})" if run_dir.mirror else ""
    console.print(f"[bold]FORGE session[/bold] {run_dir.session_id}: condition {cfg.protocol.condition.value}, "
                  f"{cfg.protocol.num_instances} instances x {cfg.protocol.num_stages} stages\n"
                  f"run directory {run_dir.path}{kept}")


def _show_session(run) -> None:
    """A session's tables and where to look next (after a budget stop the driver said how to continue)."""
    from forge.plumbing.redact import mask_url
    from forge.analysis.reporting import cost_table, replies_table, summary_table
    from forge.runs.tracking import ui_hint

    report, run_dir = run.report, run.run_dir
    console.print(summary_table(report))
    console.print(cost_table(report))
    if (replies := replies_table(report)) is not None:
        console.print(replies)
    if (served := report.record_figures()) is not None:
        console.print(f"session record: {served['hits']} calls served, {served['sent']} sent; saved "
                      f"{served['prompt_tokens_saved']}+{served['completion_tokens_saved']} tokens, ${served['usd_saved']:.4f}")
    if run.budget_exhausted:
        return
    _print_faults(report, run.cfg)
    if run.tracking_uri:
        console.print(f"stage curves: {ui_hint(run.tracking_uri)}")
    console.print(f"report: {run_dir.reports / 'evaluation.md'}")
    if run_dir.mirror or run_dir.notice:
        where = mask_url(run_dir.location)  # a storage URI holds no credentials (forge.plumbing.storage refuses them); masked all the same
        console.print(f"continue or report from anywhere that reaches it: forge resume {where} | forge report {where}")


class SessionView:
    """Draws what the session driver reports (workers.progress.SessionProgress): notices as lines,
    warnings in yellow, and each phase as one bar for the phase plus one row per instance."""

    def __init__(self) -> None:
        self._bars: Optional[Progress] = None
        self._phase: Any = None
        self._rows: dict[str, Any] = {}

    def notice(self, text: str, *, warning: bool = False) -> None:
        console.print(Text(text, style="yellow" if warning else ""))

    def phase_started(self, label: str, phase: str, instances: Sequence[str]) -> None:
        self._bars = progress_bars()
        self._bars.start()
        self._phase = self._bars.add_task(label, total=len(instances))
        self._rows = {i: self._bars.add_task(f"  {i} {phase}", total=1) for i in instances}

    def unit_changed(self, instance: str, text: str, *, done: bool = False) -> None:
        assert self._bars is not None, "unit_changed outside a phase"
        self._bars.update(self._rows[instance], description=f"  {instance} {text}", completed=1 if done else 0)
        if done:
            self._bars.advance(self._phase)

    def phase_finished(self) -> None:
        if self._bars is not None:
            self._bars.stop()
        self._bars, self._phase, self._rows = None, None, {}


def _print_faults(report, cfg) -> None:
    """The fault table, when there was anything to count (or fault injection was on)."""
    from forge.analysis.fault_report import fault_table
    from forge.protocol.fault_count import fault_summary

    summary = fault_summary(report.stages, report.evaluation, report.meta.get("faults", []))
    if summary["total"] or cfg.faults.enabled:
        console.print(fault_table(summary))


def _run(args: argparse.Namespace) -> int:
    from workers.session import run_sessions

    cfg = config_from_args(args)
    if args.preflight:  # refused: PreflightRefused, and nothing is spent or created
        from forge.commands.common import preflight

        preflight(cfg)
    conditions = [cfg.protocol.condition.value, *args.baseline]
    headings: list[str] = []  # a line before each session of a study
    if args.sessions != 1 or args.sweep:
        configs, label, headings = _study(args, cfg, conditions)
    else:
        configs = [cfg if condition == cfg.protocol.condition.value else
                   config_from_args(argparse.Namespace(config=[*args.config, f"protocol.condition={condition}"]))
                   for condition in conditions]
        label = None

    def announce(n: int, this, run_dir) -> None:
        if headings:
            console.print(headings[n - 1])
        _announce(this, run_dir)

    runs = run_sessions(configs, progress=SessionView(), hooks=args.session_hooks, on_start=announce,
                        on_end=_show_session)
    if runs[-1].budget_exhausted:
        return BUDGET_EXHAUSTED_EXIT
    if len(runs) > 1:
        first = runs[0].run_dir
        _print_comparison([r.run_dir for r in runs], first.path.parent / f"comparison-{label or first.session_id}")
    return 0


def _study(args: argparse.Namespace, cfg, conditions: list[str]) -> tuple[list, str, list[str]]:
    """Conditions x sweep grid x K sessions (forge.analysis.study): the configurations to run, the study's name and
    a heading for each session."""
    import time

    from forge.analysis.study import parse_sweep, plan_study

    study = cfg.run.study if cfg.run.study != "forge" else f"study-{time.strftime('%Y%m%d-%H%M%S')}"
    plan = plan_study(cfg, conditions, [parse_sweep(s) for s in args.sweep], args.sessions, study)
    arms = list(dict.fromkeys(s.arm for s in plan))
    console.print(f"[bold]study[/bold] {study}: {len(arms)} arm(s) x {args.sessions} session(s) = {len(plan)} sessions "
                  f"(MLflow experiment {study}); arms: {', '.join(arms)}")
    headings = [f"[bold]session {n}/{len(plan)}[/bold]: {session.arm}, #{session.index + 1} of {args.sessions}"
                for n, session in enumerate(plan, 1)]
    configs = [config_from_args(argparse.Namespace(config=[*args.config, *session.overrides])) for session in plan]
    return configs, study, headings


def _resume(args: argparse.Namespace) -> int:
    from forge.runs.rundir import RunDirectory
    from workers.session import run_session

    run_dir = RunDirectory.open(args.run_dir, writer=True)  # a remote one: its working copy, locked
    cfg = run_dir.live_config(args.config)
    if run_dir.keep_budget(cfg):
        console.print(f"budget now {_budget_text(cfg)} (kept in {run_dir.config_path})")
    _announce(cfg, run_dir)
    run = run_session(cfg, run_dir, progress=SessionView(), hooks=args.session_hooks)
    _show_session(run)
    return BUDGET_EXHAUSTED_EXIT if run.budget_exhausted else 0


def _budget_text(cfg) -> str:
    limits = {k: v for k, v in vars(cfg.budget).items() if v is not None}
    return ", ".join(f"{k}={v}" for k, v in limits.items()) or "unlimited"


def _report(args: argparse.Namespace) -> int:
    from forge.analysis.reporting import SessionReport, cost_table, replies_table, summary_table, write_session_report
    from forge.runs.rundir import RunDirectory

    runs = [RunDirectory.open(p) for p in args.run_dirs]
    for run in runs:
        report = SessionReport.load(run)
        paths = write_session_report(report)
        run.sync()
        console.print(summary_table(report))
        console.print(cost_table(report))
        if (replies := replies_table(report)) is not None:
            console.print(replies)
        for path in paths:
            console.print(f"wrote {path}")
    if len(runs) > 1:
        _print_comparison(runs, _comparison_dir(runs, args.out), seed=args.seed)
    return 0


def _compare(args: argparse.Namespace) -> int:
    from forge.runs.rundir import RunDirectory

    if args.mlflow:
        from forge.analysis.comparison import sessions_from_mlflow

        if args.run_dirs:
            raise SystemExit("forge compare: give run directories or --mlflow URI --study NAME, not both")
        out = args.out or Path(f"comparison-{args.study}")
        try:
            reports = sessions_from_mlflow(args.mlflow, args.study, out / "sessions")
        except LookupError as exc:
            console.print(f"[red]{exc}[/red]")
            return 2
        console.print(f"{len(reports)} sessions of study {args.study!r} (their summaries and configurations in "
                      f"{out / 'sessions'}): " + ", ".join(f"{r.run_dir.session_id} ({r.condition})" for r in reports))
        _print_reports_comparison(reports, out, seed=args.seed)
        return 0
    if not args.run_dirs:
        raise SystemExit("forge compare: give run directories, or --mlflow URI --study NAME")
    runs = [RunDirectory.open(p) for p in args.run_dirs]
    _print_comparison(runs, _comparison_dir(runs, args.out), seed=args.seed)
    return 0


def _comparison_dir(runs, out: Path | None) -> Path:
    return out or runs[0].path.parent / f"comparison-{runs[0].session_id}"


def _print_comparison(runs, out: Path, seed: int = BOOTSTRAP_SEED) -> None:
    from forge.analysis.reporting import SessionReport

    _print_reports_comparison([SessionReport.load(r) for r in runs], out, seed)


def _print_reports_comparison(reports, out: Path, seed: int = BOOTSTRAP_SEED) -> None:
    from forge.analysis.comparison import compare_sessions, print_comparison, write_comparison

    comparison = compare_sessions(reports, seed=seed)
    paths = write_comparison(comparison, out)
    console.print("wrote " + ", ".join(str(p) for p in paths))
    print_comparison(comparison, console)
