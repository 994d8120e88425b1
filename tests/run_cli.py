"""The forge command, called in-process as a test would type it."""

from __future__ import annotations


def forge(*args: str) -> int:
    from forge.cli import main

    return main(list(args))
