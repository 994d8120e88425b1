"""Building a CAGE-2 environment (and a whole instance worker) without importing torch.

csle-cyborg's `agents` package imports every agent it ships, BlueLoadAgent among them, which imports
stable-baselines3 and torch; forge.env.cyborg_import registers lazy stand-ins for that package. These
tests run in fresh interpreters: whether torch is imported is a property of the whole process.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from forge.env.cyborg_import import AGENT_MODULES

ROOT = Path(__file__).resolve().parents[1]

EPISODE = """
import json, sys
{prelude}
from forge.env.cage2 import Cage2Env
env = Cage2Env(red_agent={red!r}, max_steps=25)
env.reset(seed=11)
rewards = [env.step((7 * k) % 41)[1] for k in range(25)]
print(json.dumps({{"rewards": rewards, "torch": "torch" in sys.modules,
                   "sb3": "stable_baselines3" in sys.modules}}))
"""


def run_python(code: str, tmp_path: Path) -> dict:
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=300,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_lazy_agents_package_exports_what_the_real_one_does():
    import importlib.util

    origin = Path(importlib.util.find_spec("csle_cyborg").origin).parent / "agents" / "__init__.py"
    exported = {}
    for node in ast.parse(origin.read_text()).body:
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                exported[alias.asname or alias.name] = node.module.rsplit(".", 1)[-1]
    assert exported == AGENT_MODULES


def test_an_episode_imports_no_torch(tmp_path):
    # the default install has no stable-baselines3 and no torch at all: the lazy package is what makes
    # csle-cyborg importable here
    for red in ("b_line", "meander"):
        light = run_python(EPISODE.format(prelude="", red=red), tmp_path)
        assert not light["torch"] and not light["sb3"]
        assert any(r != 0 for r in light["rewards"])


def test_an_episode_matches_the_real_package_when_the_torch_extra_is_installed(tmp_path):
    pytest.importorskip("stable_baselines3")
    for red in ("b_line", "meander"):
        light = run_python(EPISODE.format(prelude="", red=red), tmp_path)
        # The same episode with csle-cyborg's own agents package imported first (torch and all).
        heavy = run_python(EPISODE.format(prelude="import csle_cyborg.agents", red=red), tmp_path)
        assert heavy["torch"]
        assert light["rewards"] == heavy["rewards"]


def test_an_instance_worker_imports_no_torch(tmp_path):
    code = f"""
import json, sys
from forge.config import load_config, to_yaml
from workers.instance_actor import InstanceWorker
cfg = load_config({str(ROOT / 'configs' / 'forge.yaml')!r}, overrides=["env.max_steps=5", "surrogate.latency_ms=0"])
worker = InstanceWorker("i00", "s", to_yaml(cfg), sqlite_path={str(tmp_path)!r})
result = worker.play([3], "evaluation")
print(json.dumps({{"torch": "torch" in sys.modules, "traces": sorted(result.artifacts.traces)}}))
"""
    found = run_python(code, tmp_path)
    assert found == {"torch": False, "traces": ["traces/i00/eval-0.json"]}
    assert not (tmp_path / "traces").exists()  # collected for the driver, not written


def test_no_cyborg_module_draws_from_the_global_random_after_an_episode():
    from forge.env.cage2 import Cage2Env
    from forge.env.rng import unrouted_references

    env = Cage2Env(red_agent="meander", max_steps=5)
    env.reset(seed=3)
    for k in range(5):
        env.step(k)
    assert unrouted_references("csle_cyborg") == []
