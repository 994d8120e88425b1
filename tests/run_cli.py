"""The forge command, called in-process as a test would type it."""

from __future__ import annotations


def forge(*args: str) -> int:
    from forge.cli import main

    return main(list(args))


def chaos(*args: str) -> int:
    """The forge command with the config's chaos settings in force (workers/chaos.py)."""
    from workers.chaos import main

    return main(list(args))
