"""Importing csle-cyborg's simulator without stable-baselines3 and torch.

`csle_cyborg.agents/__init__.py` and `csle_cyborg.agents.simple_agents/__init__.py` import every agent
the package ships, among them `BlueLoadAgent`, which imports stable-baselines3 and so torch: seconds of
import and hundreds of MB of RSS in every process that builds an environment, for an agent CAGE-2
Scenario 2 never uses.
The simulator itself needs only the agent classes the scenario names (it looks them up by name as
attributes of `csle_cyborg.agents`, see csle_cyborg/shared/environment_controller.py) and the wrappers.

`install_light_agents_package()` registers those two packages in `sys.modules` as *lazy* packages
before anything imports them: same names, same directories on `__path__` (so every submodule import
works unchanged), but no `__init__` run; an agent class is imported from its own module on first
attribute access. An agent that does need torch (BlueLoadAgent) still works: asking for it imports it.
If the real packages were already imported in this process, nothing is changed.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import sys
import types
from pathlib import Path

from forge.env.attackers import PACKAGE as PACKAGE_ATTACKERS

AGENTS = "csle_cyborg.agents"
SIMPLE_AGENTS = "csle_cyborg.agents.simple_agents"

# The classes csle-cyborg 0.0.3's agents/__init__.py exports, by the module that defines each
# (tests/test_env_imports.py checks this against the installed package's __init__): the attackers'
# (forge/env/attackers.py), then the rest.
AGENT_MODULES: dict[str, str] = {
    **{red.package_class: red.module for red in PACKAGE_ATTACKERS},
    "BaseAgent": "base_agent",
    "BlueLoadAgent": "blue_load_agent",
    "BlueMonitorAgent": "blue_monitor_agent",
    "BlueReactRemoveAgent": "blue_react_agent",
    "BlueReactRestoreAgent": "blue_react_agent",
    "CounterKillchainAgent": "counter_kill_chain_agent",
    "GreenAgent": "green_agent",
    "HeuristicRed": "heuristic_red",
    "KeyboardAgent": "keyboard_agent",
    "KillchainAgent": "killchain_agent",
    "TestAgent": "test_agent",
}


def _lazy_package(name: str, directory: Path) -> types.ModuleType:
    module = types.ModuleType(name, f"{name}: lazy stand-in for the package __init__ (forge.env.cyborg_import)")
    spec = importlib.machinery.ModuleSpec(name, None, is_package=True)
    spec.submodule_search_locations = [str(directory)]
    module.__spec__ = spec
    module.__path__ = [str(directory)]
    module.__package__ = name
    module.__forge_lazy__ = True

    def __getattr__(attr: str):
        submodule = AGENT_MODULES.get(attr)
        if submodule is None:
            raise AttributeError(f"module {name!r} has no attribute {attr!r}")
        value = getattr(importlib.import_module(f"{SIMPLE_AGENTS}.{submodule}"), attr)
        setattr(module, attr, value)
        return value

    module.__getattr__ = __getattr__  # type: ignore[attr-defined]
    return module


def install_light_agents_package() -> bool:
    """Register the lazy `csle_cyborg.agents` packages; True if they are (now or already) in place."""
    if AGENTS in sys.modules:
        return bool(getattr(sys.modules[AGENTS], "__forge_lazy__", False))
    spec = importlib.util.find_spec("csle_cyborg")
    if spec is None or spec.origin is None:
        raise RuntimeError("csle-cyborg is not installed (scripts/setup.sh installs it)")
    root = Path(spec.origin).parent
    import csle_cyborg

    agents = _lazy_package(AGENTS, root / "agents")
    simple = _lazy_package(SIMPLE_AGENTS, root / "agents" / "simple_agents")
    sys.modules[AGENTS] = agents
    sys.modules[SIMPLE_AGENTS] = simple
    csle_cyborg.agents = agents  # type: ignore[attr-defined]
    agents.simple_agents = simple  # type: ignore[attr-defined]
    return True


def agent_class(name: str) -> type:
    """One of the package's agent classes (AGENT_MODULES), imported from its own module without torch."""
    install_light_agents_package()
    return getattr(importlib.import_module(f"{SIMPLE_AGENTS}.{AGENT_MODULES[name]}"), name)
