"""CAGE-2 on real CybORG: the Gymnasium environment, its action catalog and its text view."""

from forge.env.catalog import ACTIONS, HOSTS, ActionParseError, BlueAction, action_name, parse_action
from forge.env.cage2 import Cage2Env, HostRow, HostState, NetworkView

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
