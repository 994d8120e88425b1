"""CAGE-2's official protocol (forge.cage2.protocol) against the package's own evaluation loop, the
known sleep figures, and the Gymnasium registration (real CybORG)."""

from __future__ import annotations

import warnings

import gymnasium
import pytest
from gymnasium.utils.env_checker import check_env

from forge.env.attackers import ATTACKERS
from forge.cage2.protocol import HORIZONS, CellResult, PolicyResult, check_known_sleep, protocol_seeds, run_protocol
from forge.env import GYMNASIUM_ID
from forge.env.package_agents import PackageAgentError, RawBlueAgent, challenge_index, package_blue_agent


def test_an_attacker_written_outside_the_package_plays_from_its_row_on_the_seeded_stream(monkeypatch):
    """An `external` row of the attackers table: the environment imports its class from its module, and the
    module's `random` draws from the environment's seeded stream (same seed, same episode, whatever the
    global generator holds). It is not one of the official protocol's cells."""
    import random

    from forge.env import attackers
    from forge.env.cage2 import Cage2Env
    from tests.red_agents import WanderingMeander

    row = attackers.Attacker("wandering", "WanderingMeander", "tests.red_agents", external=True)
    monkeypatch.setattr(attackers, "ATTACKERS", (*attackers.ATTACKERS, row))
    runs = []
    for perturbation in (1, 2):
        random.seed(perturbation)
        env = Cage2Env(red_agent="wandering", max_steps=12)
        observations = [env.reset(seed=5)[0].tolist()]
        observations += [env.step(0)[0].tolist() for _ in range(12)]
        runs.append(observations)
    assert WanderingMeander.actions >= 24
    assert runs[0] == runs[1] and len({str(o) for o in runs[0]}) > 1, "the same seeded episode, and red did something"
    assert "wandering" not in attackers.OFFICIAL
    with pytest.raises(ValueError, match="own evaluation"):
        attackers.Attacker("x", "WanderingMeander", "tests.red_agents", external=True, official=True)
    missing = attackers.Attacker("missing", "NoSuchAgent", "tests.red_agents", external=True)
    monkeypatch.setattr(attackers, "ATTACKERS", (*attackers.ATTACKERS, missing))
    with pytest.raises(ValueError, match="'missing'.*NoSuchAgent.*tests.red_agents"):
        Cage2Env(red_agent="missing")


def test_gymnasium_make_builds_the_asked_setting_and_passes_the_checker():
    env = gymnasium.make(GYMNASIUM_ID, red_agent="meander", max_steps=50)
    assert (env.unwrapped.red_agent, env.unwrapped.max_steps) == ("meander", 50)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert not [str(w.message) for w in caught]
    env.reset(seed=1)
    steps = 0
    truncated = False
    while not truncated:
        _, _, _, truncated, _ = env.step(env.action_space.sample())
        steps += 1
    assert steps == 50
    with pytest.raises(ValueError, match="red agent"):
        gymnasium.make(GYMNASIUM_ID, red_agent="nobody")


def test_package_actions_map_to_challenge_indices():
    agent = package_blue_agent("BlueReactRestoreAgent")
    from csle_cyborg.shared.actions.abstract_actions.restore import Restore
    from csle_cyborg.shared.actions.action import Sleep

    assert challenge_index(Restore(hostname="User1", agent="Blue", session=0)) == 132 + 9
    assert challenge_index(Sleep()) == 0
    assert type(agent).__name__ == "BlueReactRestoreAgent"
    with pytest.raises(PackageAgentError, match="choose one of"):
        package_blue_agent("BlueLoadAgent")
    with pytest.raises(PackageAgentError, match="bind"):
        RawBlueAgent(agent).get_action(None, 145)


def test_known_sleep_check_uses_the_interval():
    far = PolicyResult("sleep", "x", (CellResult(30, "b_line", (-100.0, -101.0, -99.0)), CellResult(30, "sleep", (0.0, 0.0))))
    checks = {(c.steps, c.red): c for c in check_known_sleep(far)}
    assert not checks[(30, "b_line")].within and checks[(30, "sleep")].within
    assert far.total == pytest.approx(-100.0)


@pytest.mark.slow
def test_a_scripted_agent_scores_as_in_the_package_loop(tmp_path):
    """BlueReactRemoveAgent through forge's protocol loop, and through the installed evaluation.py's own
    loop, on the same seeds: equal means and standard deviations in every cell."""
    from forge.env.package_evaluation import run_package_loop

    seeds = protocol_seeds(0, 2)
    ours = run_protocol({"react": ("pkg", lambda: RawBlueAgent(package_blue_agent("BlueReactRemoveAgent")))}, seeds)["react"]
    package = run_package_loop(RawBlueAgent(package_blue_agent("BlueReactRemoveAgent")), 2, seeds, tmp_path)
    assert [(c.steps, c.adversary) for c in package.cells] == [(s, red.package_class) for s in HORIZONS for red in ATTACKERS if red.official]
    for cell, theirs in zip(ours.cells, package.cells):
        assert (cell.mean, cell.sd) == pytest.approx((theirs.mean, theirs.sd), abs=1e-6), (cell.steps, cell.red)
    assert len({c.mean for c in ours.cells}) > 3, "the cells differ: the comparison is not of constants"
    assert "Average reward for red agent RedMeanderAgent and steps 100" in package.output
