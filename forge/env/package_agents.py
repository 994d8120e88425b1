"""csle-cyborg's own blue agents (SleepAgent, BlueReactRemoveAgent, ...) played behind ChallengeWrapper.

Those agents were written for CybORG's raw interface: they read the raw observation dict and return
action objects (`Remove(hostname='User1', ...)`), which ChallengeWrapper's integer action space cannot
take. `RawBlueAgent` adapts one: it hands the agent the raw observation and action space of the
simulator it is bound to, and turns the action object it returns into the wrapper's index (the same
order as `forge.env.catalog.ACTIONS`). The agent's decisions are its own, unchanged.
"""

from __future__ import annotations

from typing import Any, Optional, Protocol

from forge.env.catalog import ACTIONS, HOSTS, action_id
from forge.env.cyborg_import import agent_class
from forge.errors import ForgeError

# The package's blue agents that run without a model file, by the name the package gives them.
PACKAGE_BLUE_AGENTS = ("SleepAgent", "BlueMonitorAgent", "BlueReactRemoveAgent", "BlueReactRestoreAgent")


class PackageAgentError(ForgeError, ValueError):
    """A package agent that is unknown, or an action object that ChallengeWrapper's space has no index for."""


class RawSimulator(Protocol):
    """What an adapted agent reads: csle-cyborg's `Main` has these, and so has `Cage2Env`."""

    def get_observation(self, agent: str) -> dict: ...

    def get_action_space(self, agent: str) -> dict: ...


def challenge_index(action: Any) -> int:
    """The ChallengeWrapper index of a CybORG blue action object (Sleep, Monitor, Remove User1, ...)."""
    verb = type(action).__name__
    host: Optional[str] = getattr(action, "hostname", None)
    try:
        return action_id(verb, host)
    except KeyError:
        raise PackageAgentError(f"blue action {verb} {host or ''} has no ChallengeWrapper index "
                                f"(verbs: {', '.join(sorted({a.verb for a in ACTIONS}))}; hosts: {', '.join(HOSTS)})") from None


def package_blue_agent(name: str) -> Any:
    """A fresh instance of one of the package's blue agents (PACKAGE_BLUE_AGENTS), imported without torch."""
    if name not in PACKAGE_BLUE_AGENTS:
        raise PackageAgentError(f"unknown package blue agent {name!r}; choose one of {', '.join(PACKAGE_BLUE_AGENTS)}")
    return agent_class(name)()


class RawBlueAgent:
    """A raw-interface blue agent as a ChallengeWrapper agent: `get_action(observation, action_space)`
    returns an index, `end_episode()` passes through. `bind()` it to each simulator it plays in."""

    def __init__(self, agent: Any, simulator: Optional[RawSimulator] = None) -> None:
        self.agent = agent
        self.name = type(agent).__name__
        self._simulator = simulator

    def bind(self, simulator: RawSimulator) -> None:
        self._simulator = simulator

    def get_action(self, observation: Any, action_space: Any) -> int:
        if self._simulator is None:
            raise PackageAgentError(f"{self.name} reads the raw observation: bind() it to the simulator first")
        raw_observation = self._simulator.get_observation("Blue")
        raw_space = self._simulator.get_action_space("Blue")
        return challenge_index(self.agent.get_action(raw_observation, raw_space))

    def end_episode(self) -> None:
        self.agent.end_episode()
