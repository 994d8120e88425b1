"""The `forge` command line. Each subcommand lives in `forge.commands.<name>`."""

from __future__ import annotations

import argparse
import importlib
import sys

from forge.config import ConfigError

COMMANDS = ("baseline",)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="forge",
        description="FORGE: population training of LLM agents that learn from failures, on CybORG CAGE-2",
    )
    subparsers = parser.add_subparsers(dest="command", required=True)
    for name in COMMANDS:
        importlib.import_module(f"forge.commands.{name}").register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except ConfigError as exc:
        print(f"forge: configuration error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
