"""Compiled actions typed in tests: the three modes of the rulebook's action schema."""
from __future__ import annotations

MATCHED = "$matched"  # the host the trigger matched


def do(verb: str, target: str = MATCHED) -> dict:
    return {"mode": "do", "verb": verb, "target": target}


def never(verb: str, target: str = MATCHED) -> dict:
    return {"mode": "never", "verb": verb, "target": target}


def prefer(verb: str, over: str, target: str = MATCHED) -> dict:
    """`verb` rather than `over`, both on `target`."""
    return {"mode": "prefer", "verb": verb, "target": target, "over": {"verb": over, "target": target}}
