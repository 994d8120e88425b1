"""Non-LLM blue policies (sleep, random, a reactive heuristic) and the episode loop that scores them."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Protocol, Sequence

from forge.env.cage2 import Cage2Env
from forge.env.view import NetworkView
from forge.env.catalog import QUIET_COMPROMISE, action_id

# CAGE-2 B_line, 30 steps, published means: the figures a baseline table is read against.
REFERENCE_RETURNS_B_LINE_30 = {
    "sleep": -218.65,
    "random": -154.06,
    "heuristic": -58.83,
    "cardiff_ppo": -3.47,
}


class Policy(Protocol):
    name: str

    def reset(self, seed: int) -> None: ...

    def act(self, view: NetworkView) -> int: ...


class SleepPolicy:
    name = "sleep"

    def reset(self, seed: int) -> None:
        pass

    def act(self, view: NetworkView) -> int:
        return action_id("Sleep")


class RandomPolicy:
    """Uniform over the 145 actions, from its own generator (never the global one CybORG uses)."""

    name = "random"

    def __init__(self) -> None:
        self._rng = random.Random(0)

    def reset(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def act(self, view: NetworkView) -> int:
        return self._rng.randrange(145)


# Servers first: their compromise costs 10x a user host's, and Op_Server0 is what red impacts.
_PRIORITY = ("Op_Server0", "Enterprise2", "Enterprise1", "Enterprise0", "Defender", "Op_Host0", "Op_Host1",
             "Op_Host2", "User1", "User2", "User3", "User4")


class HeuristicPolicy:
    """React-and-restore: reimage the most valuable host the blue table shows as compromised.

    User0 is left alone: it is red's foothold, and restoring it only costs reward. Adding Remove on
    exploited user hosts, or decoys on the attack path, did not beat plain restoring (B_line, 30
    steps, 60 seeds).
    """

    name = "heuristic"

    def reset(self, seed: int) -> None:
        pass

    def act(self, view: NetworkView) -> int:
        rows = {r.hostname: r for r in view.hosts}
        for host in _PRIORITY:
            if rows[host].compromised != QUIET_COMPROMISE:
                return action_id("Restore", host)
        return action_id("Monitor")


POLICIES: dict[str, Callable[[], Policy]] = {
    "sleep": SleepPolicy,
    "random": RandomPolicy,
    "heuristic": HeuristicPolicy,
}


@dataclass(frozen=True)
class PolicyEpisode:
    """One episode of a scripted policy (the agents' episodes are forge.protocol.episode.EpisodeResult)."""

    seed: int
    total_return: float
    rewards: tuple[float, ...]
    actions: tuple[int, ...]


def run_episode(env: Cage2Env, policy: Policy, seed: int) -> PolicyEpisode:
    env.reset(seed=seed)
    policy.reset(seed)
    rewards, actions = [], []
    truncated = terminated = False
    while not (truncated or terminated):
        action = policy.act(env.view())
        _, reward, terminated, truncated, _ = env.step(action)
        rewards.append(reward)
        actions.append(action)
    return PolicyEpisode(seed, round(sum(rewards), 1), tuple(rewards), tuple(actions))


def episode_seeds(base_seed: int, episodes: int) -> Sequence[int]:
    return range(base_seed, base_seed + episodes)


def evaluate_policies(
    env: Cage2Env, names: Sequence[str], base_seed: int, episodes: int,
    on_episode: Callable[[str], None] = lambda name: None,
) -> dict[str, list[float]]:
    """Each named policy (POLICIES) on the same `episodes` seeds from `base_seed`: its returns.
    `on_episode(name)` is called after each episode (progress; it must not raise)."""
    returns: dict[str, list[float]] = {}
    for name in names:
        policy = POLICIES[name]()
        returns[name] = []
        for seed in episode_seeds(base_seed, episodes):
            returns[name].append(run_episode(env, policy, seed).total_return)
            on_episode(name)
    return returns
