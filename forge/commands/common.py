"""What the subcommands share: reading CONFIG files and key=value overrides from the command line, the
console, the progress display, the checks of values argparse cannot make, the rulebook a command opens
(and the compiler it teaches with), showing a step and a taught correction, and the providers' preflight
(`forge providers check`, `forge run --preflight`). A command imports helpers from here, never from another
command."""

from __future__ import annotations

import argparse
import getpass
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from rich.console import Console

from forge.config import ForgeConfig, load_config
from forge.errors import ForgeError, UsageError

if TYPE_CHECKING:
    from rich.progress import Progress
    from rich.table import Table

# Rich wraps at 80 columns off a terminal; tables here are wider than that.
console = Console(width=None if sys.stdout.isatty() else 160)


def add_config_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "config",
        nargs="*",
        metavar="CONFIG_OR_OVERRIDE",
        help="YAML config files (merged in order) and key=value overrides, e.g. env.max_steps=50",
    )


def config_from_args(args: argparse.Namespace) -> ForgeConfig:
    files = [item for item in args.config if "=" not in item]
    overrides = [item for item in args.config if "=" in item]
    return load_config(*[Path(f) for f in files], overrides=overrides)


def check_role(role: str) -> str:
    from forge.config import ROLES

    if role not in ROLES:
        raise UsageError(f"--role {role!r} is not an agent role ({', '.join(ROLES)})")
    return role


def login() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no passwd entry and no LOGNAME/USER (containers)
        return "unknown"


def user_actor(name: str | None) -> str:
    """`--actor alice` (or none: the login) as the rulebook's human actor `user:alice`."""
    from forge.rulebook.model import check_actor  # lazy: cold start (commands without a rulebook)

    name = name or login()
    return check_actor(name if name.startswith("user:") else f"user:{name}")


def progress_bars() -> "Progress":
    """The one progress display of every command: description, bar, done/total, elapsed; gone when done."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn  # lazy: cold start

    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    console=console, transient=True)


def bar_per_name(progress: "Progress") -> Callable[[str, int, int], None]:
    """An `on_progress(what, done, total)` callback that draws one bar per `what` on `progress`."""
    tasks: dict[str, Any] = {}

    def report(what: str, done: int, total: int) -> None:
        if what not in tasks:
            tasks[what] = progress.add_task(what, total=total)
        progress.update(tasks[what], completed=done, total=total)

    return report


# -- the rulebook a command opens ---------------------------------------------------------------------


def rulebook_config(args: argparse.Namespace) -> ForgeConfig:
    """The configuration of a rulebook command: the defaults with its `--set KEY=VALUE` overrides."""
    return load_config(overrides=list(args.overrides))


def open_rulebook(args: argparse.Namespace, cfg: ForgeConfig, *, create: bool = True):
    """The book at `--rulebook` (default: rulebook.store) in `--namespace`."""
    from forge.rulebook.book import open_book  # lazy: cold start

    return open_book(cfg, args.rulebook, args.namespace, create=create)


def compiler_client(cfg: ForgeConfig):
    """The compiler model's client, built only when a correction needs it (not in the grammar)."""
    from forge.wiring import build_clients  # lazy: cold start (the model clients)

    return build_clients(cfg)[0]["compiler"]


def show_step(observation: str, action: str, reward: float | None, injected, *, title: str) -> None:
    """What the agent saw and did at a step, in a panel."""
    from rich.panel import Panel
    from rich.text import Text

    body = Text(observation.strip() + "\n\n")
    body.append(f"agent's action: {action}", style="bold")
    if reward is not None:
        body.append(f"   reward {reward:+.1f}")
    if injected:
        body.append("\nrules injected: " + ", ".join(injected))
    console.print(Panel(body, title=title, expand=False))


def teach_and_show(book, cfg: ForgeConfig, correction, *, quiet: bool = False) -> str:
    """Teach `correction` and print what it became; the rule id. Raises `CorrectionNotTaught` when the
    compiler dropped it or the book refused it."""
    from rich.text import Text

    from forge.rulebook.authoring import add_correction  # lazy: cold start

    added = add_correction(book, correction, compiler_client=lambda: compiler_client(cfg),
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


# -- the providers' preflight -------------------------------------------------------------------------


class PreflightRefused(ForgeError):
    """A role's request was refused (or could not be sent): the session would fail on it."""


def preflight(cfg, *, roles=None, estimate: bool = True, as_json: bool = False) -> None:
    """Check every role (print the tables); PreflightRefused when any is refused."""
    import json

    from forge.runs.preflight import ALL_ROLES, check_roles, dry_step, estimate_session, offline, refused, summary_dict

    unknown = [r for r in roles or () if r not in ALL_ROLES]
    if unknown:
        raise PreflightRefused(f"--role {unknown[0]!r} is not a role ({', '.join(ALL_ROLES)})")
    where = "offline (in-process or loopback endpoints only)" if offline(cfg) else "against the configured endpoints"
    with console.status(f"preflight: one request per role, {where}..."):
        checks = check_roles(cfg, roles or ALL_ROLES)
    session = None
    if estimate and not refused(checks):
        with console.status("preflight: one dry step (the surrogate answers every role, offline)..."):
            session = estimate_session(cfg, dry_step(cfg), checks)
    if as_json:
        console.print_json(json.dumps(summary_dict(checks, session)))
    else:
        from forge.wiring import model_caveat

        console.print(checks_table(checks, where))
        if session is not None:
            console.print(estimate_table(session, cfg))
        caveat = model_caveat(cfg)
        if caveat:  # the surrogate's label, or the local model's caveat: these are no LLM's figures
            console.print(f"[yellow]{caveat}[/yellow]")
    bad = refused(checks)
    if bad:
        first = bad[0]
        raise PreflightRefused(f"preflight: {len(bad)} of {len(checks)} roles refused; {first.request.role} "
                               f"({first.request.provider}, {first.request.model}): {first.message}")


def _tokens(usage) -> str:
    prompt = f"{usage.prompt_tokens}" + (f" ({usage.cached_prompt_tokens} cached)" if usage.cached_prompt_tokens else "")
    completion = f"{usage.completion_tokens}" + (f" ({usage.reasoning_tokens} reasoning)" if usage.reasoning_tokens else "")
    return f"{prompt} / {completion}"


def checks_table(checks, where: str) -> "Table":
    from rich.table import Table

    from forge.runs.preflight import describe_strict

    table = Table(title=f"providers check: one request per role, as the session sends it ({where})")
    for column in ("role", "provider / model", "reply format", "result", "latency", "tokens in / out", "USD per call", "prices"):
        table.add_column(column, justify="right" if column in ("latency", "USD per call") else "left")
    for c in checks:
        result = ("[green]" if c.accepted else "[red]") + ("accepted" if c.accepted else "REFUSED") + "[/]"
        if c.message and c.message != "accepted":
            result += f": {c.message[:160]}"
        table.add_row(c.request.role, f"{c.request.provider} / {c.request.model}", describe_strict(c), result,
                      f"{c.latency_s * 1000:.0f} ms" if c.accepted else "-", _tokens(c.usage) if c.accepted else "-",
                      f"${c.cost_usd:.6f}" if c.accepted else "-", _price_text(c.price))
    table.caption = ("tokens: prompt (of which cached) / completion (of which reasoning); USD at the role's prices: "
                     "the config's, else the dated table (forge/llm/prices.py), else not counted")
    return table


def _price_text(price) -> str:
    if price.source == "none":
        return "not counted (no price)"
    return (f"{price.source}: in {price.input:g}, cached {price.cached:g}, out {price.output:g}, "
            f"reasoning {price.thinking:g} $/M")


def estimate_table(session, cfg) -> "Table":
    from rich.table import Table

    from forge.llm.prices import TABLE_DATE

    table = Table(title=f"session estimate ({cfg.protocol.condition.value}, {cfg.protocol.num_instances} instances x "
                        f"{cfg.protocol.num_stages} stages, {cfg.env.max_steps}-step episodes): low - high")
    for column in ("role", "calls", "prompt tokens / call", "completion tokens / call", "USD"):
        table.add_column(column, justify="left" if column == "role" else "right")
    for r in session.roles:
        if not r.calls[1]:
            continue
        table.add_row(r.role, _range(r.calls, "{:.0f}"), _range(r.prompt_tokens, "{:.0f}"),
                      _range(r.completion_tokens, "{:.0f}"), _range(r.usd, "${:.4f}"))
    low, high = session.usd
    table.add_row("[bold]session[/bold]", "", "", "", f"[bold]${low:.4f} - ${high:.4f}[/bold]")
    table.caption = (f"defender steps {_range(session.steps, '{:.0f}')}, learner calls on "
                     f"{_range(session.learnings, '{:.0f}')} failed attempts (x2 with a re-prompt); calls per step "
                     f"and prompts from {session.dry_steps} dry step(s) (high: the most a step can call); prompt tokens scaled by the endpoint's own count "
                     f"(x{session.token_scale:.2f}); high: full memory ({cfg.memory.rules_capacity} rules), replies at "
                     f"max_tokens; the compiler (rulebook export) is not counted; prices as of {TABLE_DATE} unless "
                     f"configured. An estimate with its interval, not a quote.")
    return table


def _range(values, fmt: str) -> str:
    low, high = values
    return fmt.format(low) if abs(high - low) < 1e-12 else f"{fmt.format(low)} - {fmt.format(high)}"
