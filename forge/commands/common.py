"""What every subcommand shares: reading CONFIG files and key=value overrides from the command line,
the console, the progress display, and the checks of values argparse cannot make."""

from __future__ import annotations

import argparse
import getpass
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from rich.console import Console

from forge.config import ForgeConfig, load_config
from forge.errors import UsageError

if TYPE_CHECKING:
    from rich.progress import Progress

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
    from forge.wiring import with_served_labels

    # A served surrogate is labelled as the surrogate from here on, in everything the command writes.
    return with_served_labels(load_config(*[Path(f) for f in files], overrides=overrides))


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
