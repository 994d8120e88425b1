"""A champion as a CAGE-2 blue agent: ChallengeWrapper's vector decoded, the bundle `forge export agent`
writes, and that bundle played by the package's own evaluation loop (real CybORG, the surrogate model)."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from forge.cli import main
from forge.config import load_config
from forge.env import HOSTS, Cage2Env
from forge.env.catalog import action_id
from forge.env.challenge_vector import ObservationError, VectorSensors, decode_vector, table_columns


def _decoded_every_step(red: str, seed: int, steps: int) -> int:
    """Play a seeded episode with actions that move every column (Remove -> Unknown, Restore -> No,
    Analyse -> Privileged); the decoded vector must equal the environment's own table at each step."""
    env = Cage2Env(red_agent=red, max_steps=steps)
    rng = random.Random(seed)  # our own generator: the simulator's stream stays the seed's
    verbs = ("Monitor", "Analyse", "Remove", "Restore", "Sleep")
    vector, _ = env.reset(seed=seed)
    sensors = VectorSensors()
    sensors.reset((vector, {}))  # the pair csle's reset() returns, as the official loop passes it
    assert table_columns(sensors.view()) == table_columns(env.view())
    compared = 0
    for _ in range(steps):
        verb = rng.choice(verbs)
        action = action_id(verb) if verb in ("Monitor", "Sleep") else action_id(verb, rng.choice(HOSTS))
        vector, *_ = env.step(action)
        sensors.update(vector, action)
        assert table_columns(sensors.view()) == table_columns(env.view()), f"{red} seed {seed} step {env.view().step}"
        compared += 1
    return compared


def test_vector_decodes_to_the_environments_blue_table_on_every_step():
    seen = set()
    for red, seed in (("b_line", 3), ("b_line", 11), ("meander", 5), ("meander", 21)):
        assert _decoded_every_step(red, seed, 40) == 40
    env = Cage2Env(red_agent="b_line", max_steps=30)
    for seed in range(3):
        env.reset(seed=seed)
        for step in range(30):
            env.step(action_id("Analyse", HOSTS[step % len(HOSTS)]))
            seen.update((r.activity, r.compromised) for r in env.view().hosts)
    # the walk above reaches more than the quiet row, so equality was not trivially all-zero
    assert len({c for _, c in seen}) >= 3 and len({a for a, _ in seen}) >= 2


def test_bad_vectors_are_refused_with_the_reason():
    with pytest.raises(ObservationError, match="52 ints"):
        decode_vector(np.zeros(51))
    bad = np.zeros(52, dtype=int)
    bad[4 * HOSTS.index("User1"):4 * HOSTS.index("User1") + 2] = (0, 1)  # activity [0, 1] means nothing
    with pytest.raises(ObservationError, match="User1"):
        decode_vector(bad)


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    """One stage of failure-triggered learning for i00 (seed 21 fails zero-shot): a champion with memory."""
    from forge.protocol.inner_loop import InstanceLearner
    from forge.runs.rundir import RunDirectory
    from forge.wiring import build_clients, open_memory

    root = tmp_path_factory.mktemp("runs")
    cfg = load_config(overrides=[f"run.runs_dir={root}", "surrogate.reflector_error_rate=0.0", "protocol.max_attempts=2",
                                 "tracking.enabled=false"])
    run = RunDirectory.create(cfg, name="sess")
    clients, _ = build_clients(cfg)
    learner = InstanceLearner(instance="i00", session=run.session_id, cfg=cfg, clients=clients,
                              memory=open_memory(cfg, str(run.path), run.session_id), run_dir=run.path)
    learner.train_stage(1, 21)
    assert learner.snapshot().items
    return run.path


def test_export_writes_a_self_contained_bundle(run_dir, tmp_path, capsys):
    from forge.cage2.agent import BundleError, ForgeBlueAgent, load_bundle_agent

    out = tmp_path / "bundle"
    assert main(["export", "agent", str(run_dir), "--instance", "i00", "--out", str(out)]) == 0
    assert "SURROGATE" in capsys.readouterr().out
    memory = json.loads((out / "memory.json").read_text())
    assert memory["items"], "the champion's memory is in the bundle"
    agent = load_bundle_agent(out)
    assert isinstance(agent, ForgeBlueAgent) and agent.snapshot.digest == memory["digest"]
    # it plays from the vector alone: a quiet network, then one step later whatever it chose is valid
    action = agent.get_action((np.zeros(52, dtype=int), {}), 145)
    assert 0 <= action < 145
    agent.end_episode()
    (out / "memory.json").write_text("{\"items\": [{\"id\": 1}]}")
    with pytest.raises(BundleError, match="memory.json"):
        ForgeBlueAgent.from_bundle(out)
    assert main(["export", "agent", str(run_dir), "--instance", "nobody"]) == 2
    assert "nobody" in capsys.readouterr().err


def test_a_bundle_written_before_the_cage2_room_still_loads(run_dir, tmp_path):
    """Bundles on record import their agent from forge.cage2_agent (the module's name before forge/cage2/)."""
    from forge.cage2.agent import AGENT_FILE, ForgeBlueAgent, load_bundle_agent

    out = tmp_path / "bundle"
    assert main(["export", "agent", str(run_dir), "--instance", "i00", "--out", str(out)]) == 0
    source = (out / AGENT_FILE).read_text()
    assert "from forge.cage2.agent import ForgeBlueAgent, read_bundle" in source
    (out / AGENT_FILE).write_text(source.replace("from forge.cage2.agent import", "from forge.cage2_agent import"))
    agent = load_bundle_agent(out)
    assert isinstance(agent, ForgeBlueAgent) and 0 <= agent.get_action((np.zeros(52, dtype=int), {}), 145) < 145


def test_the_exported_agent_s_prompts_count_the_steps_of_the_cell_it_plays(run_dir, tmp_path):
    """Today's main built the defender with the run's env.max_steps (30): at 50 steps its prompts said
    "Step 31 of 30"."""
    import re

    from forge.cage2.agent import ForgeBlueAgent, read_bundle
    from forge.cage2.protocol import play_cell
    from forge.env import Cage2Env

    out = tmp_path / "bundle"
    assert main(["export", "agent", str(run_dir), "--instance", "i00", "--out", str(out)]) == 0
    cfg, snapshot = read_bundle(out)
    assert cfg.env.max_steps == 30
    agent = ForgeBlueAgent(cfg, snapshot)
    said: list[str] = []

    class Listening:
        def __init__(self, inner):
            self.inner = inner

        def complete(self, messages, **params):
            said.extend(m.content for m in messages)
            return self.inner.complete(messages, **params)

    for client in agent.clients.values():
        client.provider = Listening(client.provider)
    play_cell(agent, Cage2Env(red_agent="b_line", max_steps=50), [3])
    counted = {(int(m[1]), int(m[2])) for text in said for m in re.finditer(r"Step (\d+) of (\d+)\.", text)}
    assert (31, 50) in counted and (50, 50) in counted and {total for _, total in counted} == {50}
    agent.set_horizon(None)  # a loop that does not say: no count at all, rather than a wrong one
    said.clear()
    agent.get_action((np.zeros(52, dtype=int), {}), 145)
    assert any("Step 1." in text for text in said) and not any(re.search(r"Step 1 of", text) for text in said)


@pytest.mark.long
@pytest.mark.slow
def test_the_package_loop_plays_the_exported_agent_as_forge_evaluate_does(run_dir, tmp_path, capsys):
    """The bundle loaded by the installed evaluation.py's own loop, and the champion through `forge evaluate
    --protocol cage2`, on the same seeds: the same figures in all nine cells."""
    from forge.cage2.agent import load_bundle_agent
    from forge.cage2.protocol import protocol_seeds
    from forge.env.package_evaluation import run_package_loop

    out = tmp_path / "bundle"
    assert main(["export", "agent", str(run_dir), "--instance", "i00", "--out", str(out)]) == 0
    agent = load_bundle_agent(out)
    package = run_package_loop(agent, 2, protocol_seeds(0, 2), tmp_path / "official")
    assert agent.defender.max_steps == 100  # the loop's last cell, told to the agent (today's main: the run's 30)
    assert "Average reward for red agent B_lineAgent and steps 30" in package.output
    assert len(package.cells) == 9
    capsys.readouterr()
    assert main(["evaluate", str(run_dir), "--instance", "i00", "--protocol", "cage2", "--episodes", "2",
                 "tracking.enabled=true"]) == 0
    out_text = capsys.readouterr().out
    assert "SURROGATE" in out_text and "CAGE-2 official protocol" in out_text
    data = json.loads((run_dir / "reports" / "cage2_protocol.json").read_text())
    assert data["surrogate"] is True and data["seeds"] == list(protocol_seeds(0, 2))
    champion = {(c["steps"], c["red"]): c["mean"] for c in data["policies"]["champion"]["cells"]}
    names = {"B_lineAgent": "b_line", "RedMeanderAgent": "meander", "SleepAgent": "sleep"}
    for cell in package.cells:
        assert champion[(cell.steps, names[cell.adversary])] == pytest.approx(cell.mean, abs=1e-6)
    assert "| champion |" in (run_dir / "reports" / "cage2_protocol.md").read_text()
    # the tables went to MLflow too, under the study's store beside the run directory
    from mlflow import MlflowClient

    client = MlflowClient(f"sqlite:///{run_dir.parent / 'mlflow.db'}")
    runs = client.search_runs([client.get_experiment_by_name("forge").experiment_id],
                              filter_string="tags.`forge.kind` = 'cage2_protocol'")
    assert runs and runs[0].data.metrics["cage2.champion.b_line_30.mean"] == pytest.approx(champion[(30, "b_line")])
    assert runs[0].data.tags["forge.surrogate"] == "true"


def test_evaluate_on_another_attacker_is_a_labelled_transfer_beside_the_trained_setting(run_dir, capsys):
    assert main(["evaluate", str(run_dir), "--instance", "i00", "--episodes", "1", "--injection", "none",
                 "env.red_agent=meander"]) == 0
    out = capsys.readouterr().out
    assert "TRANSFER evaluation" in out and "trained on: red b_line, 30 steps" in out
    data = json.loads((run_dir / "reports" / "evaluate.json").read_text())
    assert data["transfer"]["trained_on"] == {"red_agent": "b_line", "max_steps": 30}
    assert data["transfer"]["evaluated_on"] == {"red_agent": "meander", "max_steps": 30}
    trained, transfer = data["transfer"]["trained_on_modes"]["none"], data["modes"]["none"]
    assert trained["episodes"] == transfer["episodes"] == 1
    assert trained["returns"] != transfer["returns"], "two settings on the same seed: different episodes"
    assert "TRANSFER evaluation" in (run_dir / "reports" / "evaluate.md").read_text()
    # the run's own setting is no transfer
    assert main(["evaluate", str(run_dir), "--instance", "i00", "--episodes", "1", "--injection", "none"]) == 0
    assert "TRANSFER" not in capsys.readouterr().out
    assert "transfer" not in json.loads((run_dir / "reports" / "evaluate.json").read_text())


def test_protocol_rows_can_be_chosen_and_the_sleep_row_is_checked(run_dir, capsys):
    assert main(["evaluate", str(run_dir), "--instance", "i00", "--protocol", "cage2", "--episodes", "2",
                 "--policies", "sleep"]) == 0
    data = json.loads((run_dir / "reports" / "cage2_protocol.json").read_text())
    assert list(data["policies"]) == ["sleep"]
    checks = {(c["steps"], c["red"]): c for c in data["known_sleep"]}
    assert all(checks[(steps, "sleep")]["within"] and checks[(steps, "sleep")]["mean"] == 0.0 for steps in (30, 50, 100))
    assert checks[(30, "b_line")]["mean"] < -150  # no defence against B_line: heavy losses, as published
    capsys.readouterr()
    assert main(["evaluate", str(run_dir), "--instance", "i00", "--protocol", "cage2", "--policies", "sleep,nobody"]) == 2
    assert "nobody" in capsys.readouterr().err
