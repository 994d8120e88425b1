"""The `forge` command line. Each subcommand lives in `forge.commands.<name>`."""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

import forge.commands
from forge.config import ConfigError


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


def main(argv: list[str] | None = None) -> int:
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
    from forge.memory.errors import MemoryStoreError

    try:
        return int(args.func(args) or 0)
    except ConfigError as exc:
        print(f"forge: configuration error: {exc}", file=sys.stderr)
        return 2
    except MemoryStoreError as exc:
        print(f"forge: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
