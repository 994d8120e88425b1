"""What every subcommand shares: reading CONFIG files and key=value overrides from the command line."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rich.console import Console

from forge.config import ForgeConfig, load_config

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
