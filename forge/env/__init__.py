"""CAGE-2 on real CybORG: the Gymnasium environment, its action catalog and its text view."""

import importlib

from forge.env.catalog import ACTIONS, HOSTS, ActionParseError, BlueAction, action_name, parse_action

# The simulator's names load on first use: a module that needs only the action catalog (the rulebook's
# compiler, `forge rulebook query`) must not pay for gymnasium and CybORG (~0.3 s of a cold start).
_CAGE2_NAMES = ("Cage2Env", "HostRow", "HostState", "NetworkView")


def __getattr__(name: str):
    if name in _CAGE2_NAMES:
        return getattr(importlib.import_module("forge.env.cage2"), name)  # lazy: cold start (gymnasium, CybORG)
    raise AttributeError(f"module 'forge.env' has no attribute {name!r}")


__all__ = [
    "ACTIONS",
    "HOSTS",
    "ActionParseError",
    "BlueAction",
    "Cage2Env",
    "HostRow",
    "HostState",
    "NetworkView",
    "action_name",
    "parse_action",
]

# `gymnasium.make("forge/CAGE2-v0", red_agent="meander", max_steps=50)` once forge.env is imported (or, without
# importing it first, `gymnasium.make("forge.env:forge/CAGE2-v0", ...)`). No max_episode_steps: the
# environment truncates at its own `max_steps`.
GYMNASIUM_ID = "forge/CAGE2-v0"


def _register() -> None:
    import gymnasium

    if GYMNASIUM_ID not in gymnasium.registry:
        gymnasium.register(id=GYMNASIUM_ID, entry_point="forge.env.cage2:Cage2Env", disable_env_checker=False)


_register()
