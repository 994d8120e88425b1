"""The `forge` command line. Each subcommand lives in `forge.commands.<name>`."""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sqlite3
import sys
from typing import Any, Optional

import forge.commands
from forge.errors import ForgeError


def command_modules() -> list[str]:
    """Every `forge.commands.<name>` module that defines `register(subparsers)`; adding a command is adding a file."""
    names = [m.name for m in pkgutil.iter_modules(forge.commands.__path__) if m.name != "common"]
    return sorted(names)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or only of the commands in `forge.commands.<only>`: a command module
    imports what its commands need, so `forge rulebook query` does not pay for CybORG or Ray."""
    parser = argparse.ArgumentParser(
        prog="forge",
        description="FORGE: population training of LLM agents that learn from failures, on CybORG CAGE-2",
    )
    subparsers = parser.add_subparsers(dest="command", required=True)
    for name in command_modules():
        if only is None or name == only:
            importlib.import_module(f"forge.commands.{name}").register(subparsers)
    return parser


def main(argv: list[str] | None = None, *, session_hooks: Optional[Any] = None) -> int:
    """`session_hooks`: what builds the hooks of each session a command runs, from its configuration and run
    directory (workers.session.HooksFactory); a reliability test's (workers/chaos.py). None: no hooks."""
    argv = sys.argv[1:] if argv is None else list(argv)
    # The first word names a command module (rulebook, memory, episode, ...): register only its commands.
    # Anything else (--help, run, a typo) gets the whole parser and its full usage message.
    first = argv[0] if argv else None
    parser = build_parser(first if first in command_modules() else None)
    args, extra = parser.parse_known_args(argv)
    # argparse ends a `nargs="*"` positional at the first option; overrides given after options
    # (`forge run cfg.yaml --baseline reflexion env.max_steps=50`) still belong to it.
    if extra:
        if hasattr(args, "config") and not any(item.startswith("-") for item in extra):
            args.config = [*args.config, *extra]
        else:
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
    args.session_hooks = session_hooks
    try:
        return int(args.func(args) or 0)
    except BaseException as exc:
        message = expected_failure(exc)
        if message is None:
            raise  # a bug: its traceback is the report
        print(f"forge {args.command}: error: {message}", file=sys.stderr)
        return 2


def expected_failure(exc: BaseException) -> str | None:
    """The one line to print for a failure the user can act on, or None for a bug.

    Expected: every `ForgeError`; the stores' own errors (sqlite3, redis), which the stores pass through
    unchanged; and an `OSError` that names a file (a path given that cannot be read or written)."""
    if isinstance(exc, ForgeError):
        return _first_line(exc)
    if isinstance(exc, _store_errors()):
        return f"store error ({type(exc).__name__}): {_first_line(exc)}"
    if isinstance(exc, OSError) and exc.filename is not None:
        return f"{exc.strerror or exc}: {exc.filename}"
    return None


def _store_errors() -> tuple[type[BaseException], ...]:
    """sqlite3's errors, and redis's once a Redis store was opened: a SQLite-only command should not
    pay for importing redis at its cold start just to name its exceptions."""
    redis = sys.modules.get("redis")
    return (sqlite3.Error, redis.RedisError) if redis is not None else (sqlite3.Error,)


def _first_line(exc: BaseException) -> str:
    text = str(exc)
    return text.splitlines()[0] if text.strip() else type(exc).__name__


if __name__ == "__main__":
    sys.exit(main())
