"""The package's own CAGE-2 evaluation loop (`csle_cyborg/evaluation/evaluation.py`), run as shipped.

Its `__main__` block is executed from the installed file, unchanged; only the names it looks up are
given values that make it run here, each for a stated reason:

- `Main`: the file builds the scenario from `.../Shared/Scenarios/Scenario2.yaml`, which csle-cyborg
  0.0.3 does not ship; Scenario 2 comes from the dict gym-csle-cyborg ships (forge.env.cage2). A blue
  agent written for CybORG's raw interface is bound to each simulator built (package_agents); an agent
  with `set_horizon` (the exported FORGE agent) is told the loop's `num_steps` for the cell.
- `wrap`: csle-cyborg's ChallengeWrapper returns 5 values from `step()`, the loop unpacks 4; and the
  loop seeds nothing, so each `reset()` first seeds Python's global `random` (all the simulator's
  randomness) with the next episode seed. `reset()` still returns csle's `(vector, {})` pair, which the
  loop passes to the agent on each episode's first step, as it does when run by hand.
- `BlueLoadAgent` (the line the file says to change to load your agent) returns the agent given;
  `MAX_EPS` is the episode count asked; `input`, `get_git_revision_hash` and `open` answer the file's
  prompts, name the package version, and write its results file into `out_dir`.

The results file the loop writes (`steps: N, adversary: X, mean: M, standard deviation S` per cell) is
parsed into the figures returned.
"""

from __future__ import annotations

import builtins
import importlib.util
import inspect
import random
import re
import sys
import textwrap
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional, Sequence

from forge.env.cage2 import _import_simulator, scenario_two
from forge.errors import ForgeError

_MAIN_GUARD = 'if __name__ == "__main__":'
_RESULT_LINE = re.compile(r"steps: (\d+), adversary: (\w+), mean: (\S+), standard deviation (\S+)")


class PackageLoopError(ForgeError, RuntimeError):
    """The installed evaluation file is not the loop this runner knows how to run."""


@dataclass(frozen=True)
class PackageCell:
    steps: int
    adversary: str  # the package's class name: B_lineAgent, RedMeanderAgent, SleepAgent
    mean: float
    sd: float


@dataclass(frozen=True)
class PackageRun:
    cells: tuple[PackageCell, ...]
    results_file: Path
    output: str  # what the loop printed


def evaluation_file() -> Path:
    import csle_cyborg

    return Path(csle_cyborg.__file__).resolve().parent / "evaluation" / "evaluation.py"


def _split(source: str) -> tuple[str, str]:
    head, found, main = source.partition(_MAIN_GUARD)
    if not found:
        raise PackageLoopError(f"{evaluation_file()}: no `{_MAIN_GUARD}` block to run")
    return head, textwrap.dedent(main.lstrip("\n"))


def _stand_in_for_the_ppo_loader() -> None:
    """The file imports `BlueLoadAgent`, whose module imports stable-baselines3 (hence torch) to load the
    PPO agent the loop plays by default. The runner replaces that agent with the one given, so where
    stable-baselines3 is not installed (the default install: it is in the `torch` extra) the module is
    stood in for by one whose BlueLoadAgent says why it cannot load."""
    name = "csle_cyborg.agents.simple_agents.blue_load_agent"
    if name in sys.modules or importlib.util.find_spec("stable_baselines3") is not None:
        return

    class BlueLoadAgent:  # noqa: D401 - the package's name
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            raise PackageLoopError("csle-cyborg's BlueLoadAgent needs stable-baselines3 (the `torch` extra); "
                                   "the package loop here plays the agent it is given instead")

    stand_in = types.ModuleType(name)
    stand_in.BlueLoadAgent = BlueLoadAgent  # type: ignore[attr-defined]
    sys.modules[name] = stand_in


def run_package_loop(agent: Any, episodes: int, seeds: Sequence[int], out_dir: Path, *,
                     answers: tuple[str, str, str] = ("forge", "forge", "forge export agent")) -> PackageRun:
    """Run the installed evaluation loop on `agent` with `episodes` episodes per cell; the i-th episode of
    every cell starts from `seeds[i]`."""
    if episodes < 2 or len(seeds) < episodes:  # the loop takes each cell's standard deviation (statistics.stdev)
        raise ValueError(f"the package's loop needs at least 2 episodes per cell and a seed per episode "
                         f"(episodes {episodes}, seeds {len(seeds)})")
    _import_simulator()
    from csle_cyborg import __version__
    from csle_cyborg.agents.wrappers.challenge_wrapper import ChallengeWrapper
    from csle_cyborg.main import Main as CybORGMain

    out_dir.mkdir(parents=True, exist_ok=True)
    head, main = _split(evaluation_file().read_text())
    namespace: dict[str, Any] = {"__name__": "csle_cyborg_evaluation", "__file__": str(evaluation_file())}
    _stand_in_for_the_ppo_loader()
    exec(compile(head, str(evaluation_file()), "exec"), namespace)  # the file's imports and definitions

    class SeededChallengeWrapper(ChallengeWrapper):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.resets = 0

        def reset(self):
            if self.resets < len(seeds):
                random.seed(seeds[self.resets])
            self.resets += 1
            return super().reset()

        def step(self, action=None):
            observation, reward, done, info, _ = super().step(action)
            return observation, reward, done, info

    def Main(path: str, mode: str, agents: Optional[dict] = None):  # noqa: N802 - the name the loop calls
        cyborg = CybORGMain(scenario_two(), mode, agents=agents)
        if hasattr(agent, "bind"):
            agent.bind(cyborg)
        if hasattr(agent, "set_horizon"):  # the cell's steps, from the loop's own `for num_steps in ...`
            agent.set_horizon(namespace.get("num_steps"))
        return cyborg

    def wrap(env):
        return SeededChallengeWrapper(env=env, agent_name='Blue')

    answers_left = list(answers)
    written: list[Path] = []

    def open_in_out_dir(file: str, mode: str = "r", *args: Any, **kwargs: Any):
        target = out_dir / Path(file).name
        if target not in written:
            written.append(target)
        return builtins.open(target, mode, *args, **kwargs)

    printed: list[str] = []

    def capture(*args: Any, **kwargs: Any) -> None:
        printed.append(" ".join(str(a) for a in args))

    namespace.update(
        Main=Main, wrap=wrap, MAX_EPS=episodes, BlueLoadAgent=lambda: agent,
        input=lambda prompt="": answers_left.pop(0), open=open_in_out_dir, print=capture,
        get_git_revision_hash=lambda: f"csle-cyborg {__version__} (installed package, not a git checkout)",
    )
    assert "return " in inspect.getsource(wrap).split("\n")[1]  # the loop records this line of `wrap`
    exec(compile(main, str(evaluation_file()), "exec"), namespace)
    if not written:
        raise PackageLoopError("the evaluation loop wrote no results file")
    results = written[0]
    cells = tuple(PackageCell(int(m[1]), m[2], float(m[3]), float(m[4]))
                  for m in _RESULT_LINE.finditer(results.read_text()))
    return PackageRun(cells, results, "\n".join(printed))
