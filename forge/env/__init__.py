"""CAGE-2 on real CybORG: the Gymnasium environment, its action catalog and its text view."""

import importlib
import importlib.abc
import importlib.util
import sys
from typing import Optional

from forge.env.catalog import ACTIONS, HOSTS, ActionParseError, BlueAction, action_name, parse_action

# The simulator's names load on first use: a module that needs only the action catalog (the rulebook's
# compiler, `forge rulebook query`) must not pay for gymnasium and CybORG at its cold start.
def __getattr__(name: str):
    if name == "Cage2Env":
        return getattr(importlib.import_module("forge.env.cage2"), name)  # lazy: cold start (gymnasium, CybORG)
    if name in ("HostRow", "HostState", "NetworkView"):
        return getattr(importlib.import_module("forge.env.view"), name)  # lazy: the view's records are light
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


class _RegisterWhenImported(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Registers the environment the moment gymnasium is first imported, not before: importing forge.env
    for its action catalog (the rulebook, `forge rulebook query`) must not pay for gymnasium at its cold
    start, and `gymnasium.make(GYMNASIUM_ID)` must still work after `import forge.env`. It finds
    gymnasium's own spec, runs its loader, registers, and leaves sys.meta_path once gymnasium has run (a
    mere `find_spec("gymnasium")` probe leaves it in place)."""

    def __init__(self) -> None:
        self._loader: Optional[importlib.abc.Loader] = None
        self._finding = False

    def find_spec(self, fullname, path, target=None):
        if fullname != "gymnasium" or self._finding:
            return None
        self._finding = True  # the search below asks every finder again, this one included
        try:
            spec = importlib.util.find_spec(fullname)
        finally:
            self._finding = False
        if spec is None or spec.loader is None:
            return spec
        self._loader, spec.loader = spec.loader, self
        return spec

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module) -> None:
        if self in sys.meta_path:
            sys.meta_path.remove(self)
        module.__loader__ = module.__spec__.loader = self._loader  # the module keeps its own loader
        self._loader.exec_module(module)
        _register()


if "gymnasium" in sys.modules:
    _register()
else:
    sys.meta_path.insert(0, _RegisterWhenImported())
