"""CAGE-2 Scenario 2 as a Gymnasium environment, on the real CybORG simulator (csle-cyborg).

One blue step per `step()`: the red agent (B_line, Meander or Sleep) and the green agent act inside
CybORG. Observations are the 52-bit BlueTable vector; everything a language agent needs (the blue
table, which hosts changed, each host's baseline and current state) is read from `view()` and
`host_state()`, and is built only when asked, so that stepping stays as fast as raw CybORG.

All CybORG calls run under this environment's `PrivateRandom`, so a seed fixes the trajectory no
matter what else in the process draws random numbers, in this thread or any other (forge.env.rng).
"""

from __future__ import annotations

import copy
import importlib
import enum
import ipaddress
from typing import Any, Optional, TypeAlias

import gymnasium as gym
import numpy as np
import numpy.typing as npt

from forge.env import attackers
from forge.env.catalog import ACTIONS, HOSTS, action_name
from forge.env.cyborg_import import AGENT_MODULES, agent_class, install_light_agents_package
from forge.env.rng import PrivateRandom, route_module_randomness
from forge.env.text_view import render_blue_table
from forge.env.view import HostRow, HostState, NetworkView

_EVIDENCE_KEYS = ("Processes", "Files", "Sessions")


def _plain(value: Any) -> Any:
    """CybORG observation values (IP objects, enums) -> JSON-friendly data."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, enum.Enum):
        return value.name
    if isinstance(value, (ipaddress.IPv4Address, ipaddress.IPv4Network)):
        return str(value)
    return value


def _red_agent_class(name: str):
    # Imported lazily, through the light agents package (no stable-baselines3 / torch: see cyborg_import).
    red = attackers.attacker(name)
    if not red.external:
        return agent_class(red.package_class)
    try:
        found = getattr(importlib.import_module(red.module), red.package_class)
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"red agent {name!r}: cannot import {red.package_class} from {red.module} "
                         f"(forge/env/attackers.py): {exc}") from None
    route_module_randomness(red.module)  # its `random` draws from the environment's seeded stream, as CybORG's do
    return found


def _import_simulator() -> None:
    """The simulator, its wrappers and the agents Scenario 2 can name, without torch (cyborg_import), with
    every module's use of the global `random` routed to the calling thread's PrivateRandom (rng)."""
    import importlib

    install_light_agents_package()
    importlib.import_module("csle_cyborg.main")
    importlib.import_module("csle_cyborg.agents.wrappers.challenge_wrapper")
    for module in sorted(set(AGENT_MODULES.values()) - {"blue_load_agent"}):  # the one that imports torch
        importlib.import_module(f"csle_cyborg.agents.simple_agents.{module}")
    route_module_randomness("csle_cyborg")


def scenario_two() -> dict:
    """A fresh copy of the Scenario 2 dict that gym-csle-cyborg ships (CybORG mutates what it is given)."""
    try:
        from gym_csle_cyborg.constants.constants import CYBORG
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise RuntimeError(
            "the CAGE-2 Scenario 2 dict comes from gym-csle-cyborg; install it with "
            "`pip install --no-deps gym-csle-cyborg==0.10.1` (scripts/setup.sh does this)"
        ) from exc
    return copy.deepcopy(CYBORG.CYBORG_SCENARIO_2_DICT)


# The blue observation: the challenge wrapper's 4 bits per host (observation_space, MultiBinary).
Observation: TypeAlias = npt.NDArray[np.int8]


class Cage2Env(gym.Env[Observation, int]):
    """Gymnasium `Env` for the blue defender of CAGE-2 Scenario 2."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}  # fps: gymnasium asks; a text table has no frame rate

    def __init__(self, red_agent: str = attackers.DEFAULT, max_steps: int = 30, seed: Optional[int] = None,
                 render_mode: Optional[str] = None) -> None:
        red_agent = getattr(red_agent, "value", red_agent)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r} is not supported; valid: {', '.join(self.metadata['render_modes'])}")
        self.render_mode = render_mode
        attackers.attacker(red_agent)  # an unknown name: ValueError listing the valid ones
        if max_steps < 1:
            raise ValueError(f"max_steps must be >= 1, got {max_steps}")
        self.red_agent = red_agent
        self.max_steps = max_steps
        self.action_space = gym.spaces.Discrete(len(ACTIONS))
        self.observation_space = gym.spaces.MultiBinary(4 * len(HOSTS))
        self._rng = PrivateRandom(seed)
        _import_simulator()
        from csle_cyborg.agents.wrappers.challenge_wrapper import ChallengeWrapper
        from csle_cyborg.main import Main

        with self._rng.active():
            self._cyborg = Main(scenario_two(), "sim", agents={"Red": _red_agent_class(red_agent)})
            self._wrapper = ChallengeWrapper(env=self._cyborg, agent_name="Blue", max_steps=max_steps)
        route_module_randomness("csle_cyborg")  # anything CybORG imported while it was built
        # ChallengeWrapper -> OpenAIGymWrapper -> EnumActionWrapper -> BlueTableWrapper
        self._table = self._wrapper.env.env.env
        self._step = 0
        self._rows: dict[str, tuple[str, str]] = {}
        self._evidence: dict[str, tuple[int, dict]] = {}
        self._changed: tuple[str, ...] = ()
        self._last_action: Optional[str] = None

    # -- Gymnasium API -------------------------------------------------------------------------

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._rng.reseed(seed)
        route_module_randomness("csle_cyborg")  # cheap when nothing new was imported
        with self._rng.active():
            vector, _ = self._wrapper.reset()
        self._step = 0
        self._evidence = {}
        self._changed = ()
        self._last_action = None
        self._rows = self._table_rows()
        return vector.astype(np.int8), {"step": 0}

    def step(self, action: int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Gymnasium's (observation, reward, terminated, truncated, info); CAGE-2 never terminates, it
        truncates at `max_steps`. The reward is a float rounded to 0.1 (below)."""
        if not self.action_space.contains(int(action)):
            raise ValueError(f"action {action!r} is not in 0..{self.action_space.n - 1}")
        with self._rng.active():
            vector, reward, _done, _info, _ = self._wrapper.step(int(action))
            red = self._cyborg.get_last_action("Red")
            raw = self._cyborg.get_observation("Blue")
            breakdown = self._cyborg.get_reward_breakdown("Blue")
        self._step += 1
        self._last_action = action_name(int(action))
        changed = self._update_state(raw, int(action))
        info = {
            "step": self._step,
            "blue_action": self._last_action,
            "red_action": str(red),
            "reward_breakdown": {
                host: {"confidentiality": float(score.confidentiality), "availability": float(score.availability)}
                for host, score in breakdown.items()
            },
            "changed_hosts": changed,
        }
        truncated = self._step >= self.max_steps
        # CybORG rewards are sums of 0.1 multiples; rounding removes float noise such as -1.1000000000000001,
        # which would otherwise cross the failure threshold tau = -1.1.
        return vector.astype(np.int8), round(float(reward), 1), False, truncated, info

    def render(self) -> str:
        return render_blue_table(self.view())

    # -- What a language agent reads ---------------------------------------------------------------

    def view(self) -> NetworkView:
        rows = tuple(
            HostRow(
                hostname=host,
                subnet=str(self._table.info[host][0]),
                ip=str(self._table.info[host][1]),
                activity=self._table.info[host][3],
                compromised=self._table.info[host][4],
            )
            for host in HOSTS
        )
        return NetworkView(step=self._step, hosts=rows, changed=self._changed, last_action=self._last_action)

    def host_state(self, hostname: str) -> HostState:
        if hostname not in HOSTS:
            raise KeyError(f"unknown host {hostname!r}; valid hosts: {', '.join(HOSTS)}")
        return HostState(
            hostname=hostname,
            baseline=_plain(self._table.baseline[hostname]),
            current=self._current_evidence(hostname),
            row=self.view().row(hostname),
        )

    def get_observation(self, agent: str) -> dict:
        """CybORG's raw last observation of `agent`, for agents written for CybORG's raw interface
        (forge.env.package_agents); language agents read `view()` and `host_state()`."""
        return self._cyborg.get_observation(agent)

    def get_action_space(self, agent: str) -> dict:
        """CybORG's raw action space of `agent` (dict of action classes and parameters)."""
        return self._cyborg.get_action_space(agent)

    def true_state(self) -> dict[str, str]:
        """Red's real access per host (None / User / Privileged): ground truth for failure snapshots only."""
        with self._rng.active():
            state = self._cyborg.get_agent_state("True")
        access: dict[str, str] = {}
        for host in HOSTS:
            red = [s for s in state.get(host, {}).get("Sessions", []) if s.get("Agent") == "Red"]
            if any(s.get("Username") in ("root", "SYSTEM") for s in red):
                access[host] = "Privileged"
            else:
                access[host] = "User" if red else "None"
        return access

    # -- internals ---------------------------------------------------------------------------------

    def _current_evidence(self, hostname: str) -> dict[str, Any]:
        if hostname not in self._evidence:
            return {}
        step, data = self._evidence[hostname]
        evidence = {k: _plain(v) for k, v in data.items() if k in _EVIDENCE_KEYS}
        evidence["observed_at_step"] = step
        return evidence

    def _table_rows(self) -> dict[str, tuple[str, str]]:
        return {host: (self._table.info[host][3], self._table.info[host][4]) for host in HOSTS}

    def _update_state(self, raw: dict, action: int) -> tuple[str, ...]:
        blue = ACTIONS[action]
        if blue.verb == "Restore" and blue.host is not None:
            self._evidence.pop(blue.host, None)
        touched = set()
        for host, data in raw.items():
            # Kept raw and converted only when an agent asks (host_state): stepping stays cheap.
            if host in HOSTS and isinstance(data, dict) and any(k in data for k in _EVIDENCE_KEYS):
                self._evidence[host] = (self._step, data)
                touched.add(host)
        rows = self._table_rows()
        touched.update(h for h in HOSTS if rows[h] != self._rows.get(h))
        self._rows = rows
        self._changed = tuple(h for h in HOSTS if h in touched)
        return self._changed
