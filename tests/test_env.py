"""The CAGE-2 environment on real CybORG: determinism, isolation, info, text view."""

from __future__ import annotations

import random

import numpy as np
import pytest

from forge.cage2.baselines import RandomPolicy, SleepPolicy, run_episode
from forge.env import HOSTS, Cage2Env
from forge.env.catalog import action_id
from forge.env.text_view import render_alerts, render_blue_table, render_changed_hosts, render_host_state


def trajectory(env: Cage2Env, seed: int, policy) -> tuple[list[float], list[str]]:
    env.reset(seed=seed)
    policy.reset(seed)
    rewards, red = [], []
    done = False
    while not done:
        _, reward, terminated, truncated, info = env.step(policy.act(env.view()))
        rewards.append(reward)
        red.append(info["red_action"])
        done = terminated or truncated
    return rewards, red


@pytest.fixture(scope="module")
def env() -> Cage2Env:
    return Cage2Env()


def test_same_seed_same_trajectory(env):
    first = trajectory(env, 7, RandomPolicy())
    random.random()  # global draws in between must not matter
    np.random.rand()
    second = trajectory(Cage2Env(), 7, RandomPolicy())
    assert first == second


def test_different_seeds_different_trajectories(env):
    red_actions = {tuple(trajectory(env, seed, SleepPolicy())[1]) for seed in range(4)}
    assert len(red_actions) == 4  # IPs and targets differ per seed
    returns = {sum(trajectory(env, seed, RandomPolicy())[0]) for seed in range(4)}
    assert len(returns) > 1


def test_interleaved_environments_do_not_disturb_each_other():
    alone_a = trajectory(Cage2Env(), 11, RandomPolicy())[0]
    alone_b = trajectory(Cage2Env(), 12, RandomPolicy())[0]
    env_a, env_b = Cage2Env(), Cage2Env()
    pol_a, pol_b = RandomPolicy(), RandomPolicy()
    env_a.reset(seed=11), env_b.reset(seed=12)
    pol_a.reset(11), pol_b.reset(12)
    rewards_a, rewards_b = [], []
    for _ in range(30):
        rewards_a.append(env_a.step(pol_a.act(env_a.view()))[1])
        random.seed(999)  # someone else reseeding the global generators
        np.random.seed(999)
        rewards_b.append(env_b.step(pol_b.act(env_b.view()))[1])
    assert rewards_a == alone_a
    assert rewards_b == alone_b


def test_horizon_and_truncation():
    env = Cage2Env(max_steps=50)
    env.reset(seed=0)
    steps = 0
    truncated = False
    while not truncated:
        _, _, terminated, truncated, _ = env.step(0)
        assert not terminated
        steps += 1
    assert steps == 50


def test_info_carries_breakdown_and_red_action(env):
    env.reset(seed=3)
    seen_negative = False
    for _ in range(15):
        _, reward, _, _, info = env.step(action_id("Sleep"))
        breakdown = info["reward_breakdown"]
        assert set(breakdown) == set(HOSTS)
        total = sum(v["confidentiality"] + v["availability"] for v in breakdown.values())
        assert round(total, 1) == reward
        assert info["red_action"] and info["red_action"] != "None"
        seen_negative |= reward < 0
    assert seen_negative


def test_restore_costs_one_and_is_rounded(env):
    env.reset(seed=0)
    _, reward, *_ = env.step(action_id("Restore", "User3"))
    assert reward == -1.0


@pytest.mark.parametrize("red_agent", ["b_line", "meander", "sleep"])
def test_red_agents_selectable(red_agent):
    env = Cage2Env(red_agent=red_agent)
    result = run_episode(env, SleepPolicy(), 0)
    if red_agent == "sleep":
        assert result.total_return == 0.0
    else:
        assert result.total_return < -20


def test_unknown_red_agent_is_named():
    with pytest.raises(ValueError, match="b_line"):
        Cage2Env(red_agent="fancy")


def test_observation_is_the_52_bit_vector(env):
    obs, _ = env.reset(seed=0)
    assert obs.shape == (52,) and env.observation_space.contains(obs)


def test_text_view_shows_table_changes_and_host_state(env):
    env.reset(seed=0)
    assert "No host changed" in render_changed_hosts(env.view())
    assert render_alerts(env.view()) == "No host shows activity or compromise."
    exploited = None
    for _ in range(6):
        env.step(action_id("Sleep"))
        view = env.view()
        for row in view.hosts:
            if row.activity == "Exploit":
                exploited = row.hostname
        if exploited:
            break
    assert exploited is not None
    assert exploited in view.changed
    assert exploited in render_changed_hosts(view)
    table = render_blue_table(view)
    assert len(table.splitlines()) == 1 + len(HOSTS)
    state = render_host_state(env.host_state(exploited))
    assert "Baseline" in state and "connection" in state
    compact = render_blue_table(view, only_alerts=True)
    assert exploited in compact and "other hosts" in compact


def test_private_random_can_guard_numpy_too():
    from forge.env.rng import PrivateRandom

    from forge.env.rng import current_generator

    guarded = PrivateRandom(5, isolate_numpy=True)
    with guarded.active():
        first = (current_generator().random(), float(np.random.rand()))
    np.random.seed(1)
    random.seed(1)
    again = PrivateRandom(5, isolate_numpy=True)
    with again.active():
        assert (current_generator().random(), float(np.random.rand())) == first
    assert current_generator() is random._inst  # outside the block: the global generator again
