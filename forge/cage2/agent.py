"""A FORGE champion as a CAGE-2 blue agent: `get_action(observation, action_space)` / `end_episode()`.

`forge export agent RUN` writes a bundle directory: the champion's memory (`memory.json`, a frozen
snapshot), the run's configuration (`config.yaml`: models, providers, agent settings) and `agent.py`,
whose `ForgeChampionAgent()` the package's evaluation script can load in place of its BlueLoadAgent.
The bundle needs the `forge` package importable (the models are reached through it), not the run
directory nor its stores.

What the agent sees is ChallengeWrapper's vector, decoded into the blue table (forge.env.challenge_vector);
the Analyst gets that row and no process or file evidence, which the vector does not carry. The
official loop gives a blue agent no reward, so the Planner's window of recent steps (action -> reward)
stays empty. Episodes are told apart by `end_episode()`;
the model seeds of the i-th episode come from the bundle's seed and i, so a replay is the same.

The official loop plays one agent at 30, 50 and 100 steps and never says which: the loops that run it
here tell it (`set_horizon`: forge.cage2.protocol, forge.env.package_evaluation), so its prompts say
"Step 31 of 50", never the run's own `env.max_steps`; a loop that does not tell it gets "Step 31.".
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Optional

from agents.defender import Defender
from forge.config import ForgeConfig, Injection, load_config, to_saved_yaml
from forge.env.challenge_vector import VectorSensors
from forge.errors import ForgeError
from forge.memory import MemorySnapshot
from forge.plumbing.seeding import derive_seed
from forge.wiring import build_clients, injection_factory_for, model_label

CONFIG_FILE = "config.yaml"
MEMORY_FILE = "memory.json"
AGENT_FILE = "agent.py"
AGENT_CLASS = "ForgeChampionAgent"


class BundleError(ForgeError, ValueError):
    """A bundle directory that is missing a file or holds one that does not parse; names the file."""


class ForgeBlueAgent:
    """The champion's defender behind ChallengeWrapper's interface."""

    def __init__(self, cfg: ForgeConfig, snapshot: MemorySnapshot, *, seed: Optional[int] = None,
                 horizon: Optional[int] = None) -> None:
        """`horizon`: the steps of the episodes it will play, when known (`set_horizon` changes it)."""
        if cfg.memory.injection is Injection.rulebook:
            raise BundleError("an exported agent injects its memory itself: use memory.injection=full or none "
                              "(the rulebook mode needs the rulebook store)")
        self.cfg = cfg
        self.snapshot = snapshot
        self.label = model_label(cfg)
        self.seed = cfg.protocol.seed if seed is None else seed
        self.clients, self.ledger = build_clients(cfg)
        injection = injection_factory_for(cfg, clients=self.clients)(snapshot)
        self.defender = Defender(self.clients, injection, cfg.agent, horizon)
        self.sensors = VectorSensors()
        self.episodes = 0  # finished episodes
        self.fallbacks = 0
        self._last_action: Optional[int] = None

    @classmethod
    def from_bundle(cls, bundle: str | Path) -> "ForgeBlueAgent":
        return cls(*read_bundle(bundle))

    def set_horizon(self, steps: Optional[int]) -> None:
        """The episodes from now on last `steps` steps (what a cell of the protocol plays)."""
        self.defender.max_steps = steps

    def get_action(self, observation: Any, action_space: Any = None) -> int:
        if self._last_action is None:
            self.sensors.reset(observation)
            self.defender.start_episode(self.sensors, derive_seed(self.seed, "cage2-agent", self.episodes))
        else:
            self.sensors.update(observation, self._last_action)
        decision = self.defender.act(self.sensors)
        self.fallbacks += int(decision.fallback)
        self._last_action = decision.action
        return decision.action

    def end_episode(self) -> None:
        self.episodes += 1
        self._last_action = None


def read_bundle(bundle: str | Path) -> tuple[ForgeConfig, MemorySnapshot]:
    """The configuration and the memory a bundle holds; errors name the bundle and the file."""
    path = Path(bundle)
    config, memory = path / CONFIG_FILE, path / MEMORY_FILE
    for file in (config, memory):
        if not file.is_file():
            raise BundleError(f"agent bundle {path}: {file.name} is missing (write it with `forge export agent`)")
    try:
        snapshot = MemorySnapshot.from_dict(json.loads(memory.read_text()))
    except (ForgeError, ValueError, KeyError, TypeError) as exc:
        raise BundleError(f"agent bundle {path}: {MEMORY_FILE} is not a memory snapshot: {exc}") from None
    return load_config(config), snapshot


def write_bundle(out: Path, cfg: ForgeConfig, snapshot: MemorySnapshot, *, source: str) -> Path:
    """The bundle directory for `snapshot` under `cfg`; `source` (run and instance) goes into agent.py's docstring."""
    if cfg.memory.injection is Injection.rulebook:
        raise BundleError("an exported agent injects its memory itself: export with memory.injection=full or none")
    out.mkdir(parents=True, exist_ok=True)
    (out / CONFIG_FILE).write_text(to_saved_yaml(cfg))
    (out / MEMORY_FILE).write_text(json.dumps(snapshot.to_dict(), indent=1, sort_keys=True))
    (out / AGENT_FILE).write_text(_AGENT_SOURCE.format(source=source, digest=snapshot.digest[:12], items=len(snapshot),
                                                       label=model_label(cfg), cls=AGENT_CLASS))
    return out


_AGENT_SOURCE = '''"""FORGE champion {source} (memory {digest}, {items} items) as a CAGE-2 blue agent.

Model: {label}. Written by `forge export agent`; load it in CAGE-2's evaluation script with
`agent = {cls}()` (the `forge` package must be importable).
"""

from pathlib import Path

from forge.cage2.agent import ForgeBlueAgent, read_bundle

BUNDLE = Path(__file__).resolve().parent


class {cls}(ForgeBlueAgent):
    def __init__(self, bundle=BUNDLE):
        super().__init__(*read_bundle(bundle))
'''


def load_bundle_agent(bundle: str | Path) -> Any:
    """`agent.py`'s agent class, imported from the file and instantiated, as an evaluation script would."""
    import importlib.util

    path = Path(bundle) / AGENT_FILE
    if not path.is_file():
        raise BundleError(f"agent bundle {bundle}: {AGENT_FILE} is missing (write it with `forge export agent`)")
    spec = importlib.util.spec_from_file_location(f"forge_exported_agent_{abs(hash(str(path)))}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return getattr(module, AGENT_CLASS)()
