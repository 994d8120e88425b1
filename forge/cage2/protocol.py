"""CAGE-2's official evaluation protocol: 3 horizons x 3 attackers, a blue agent behind ChallengeWrapper.

The challenge ships it as `csle_cyborg/evaluation/evaluation.py`: for 30, 50 and 100 steps and red
B_line, Meander and Sleep, it plays episodes of a blue agent that has `get_action(observation,
action_space)` and `end_episode()`, and reports each cell's mean and standard deviation of the episode
return; the challenge's score is the sum of the nine means. This module plays the same loop on
`Cage2Env` (whose vector is ChallengeWrapper's), seeded: every policy meets the same episode seeds in
every cell, so rows compare pairwise. `scripts/cage2_official_eval.py` runs the package's own loop, and
a test checks both give the same figures.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Optional, Sequence

from forge.cage2.baselines import REFERENCE_RETURNS_B_LINE_30
from forge.env.attackers import OFFICIAL as OFFICIAL_ATTACKERS
from forge.env.cage2 import Cage2Env
from forge.plumbing.seeding import derive_seed
from forge.analysis.stats import mean_interval

HORIZONS: tuple[int, ...] = (30, 50, 100)  # the attackers: forge/env/attackers.py's official rows, in order

# Published returns of the sleep (do-nothing) blue agent, per cell, with their source. B_line at 30
# steps is the CAGE-2 paper's figure (and the one forge baseline checks); against the Sleep attacker
# nothing happens, so every step's reward is 0. No published sleep figure for the other cells was found.
KNOWN_SLEEP_RETURNS: dict[tuple[int, str], tuple[float, str]] = {
    (30, "b_line"): (REFERENCE_RETURNS_B_LINE_30["sleep"], "CAGE-2 paper"),
    **{(steps, "sleep"): (0.0, "no attacker: every reward is 0") for steps in HORIZONS},
}


def protocol_seeds(base_seed: int, episodes: int) -> tuple[int, ...]:
    """The episode seeds of every cell (the same in each, so policies and cells pair up by seed)."""
    if episodes < 1:
        raise ValueError(f"episodes must be >= 1, got {episodes}")
    return tuple(derive_seed(base_seed, "cage2-protocol", i) for i in range(episodes))


@dataclass(frozen=True)
class CellResult:
    steps: int
    red: str
    returns: tuple[float, ...]

    @property
    def mean(self) -> float:
        return statistics.fmean(self.returns)

    @property
    def sd(self) -> float:
        """The sample standard deviation, as the package's loop prints it (0 for one episode)."""
        return statistics.stdev(self.returns) if len(self.returns) > 1 else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"steps": self.steps, "red": self.red, "mean": self.mean, "sd": self.sd, "returns": list(self.returns)}


@dataclass(frozen=True)
class PolicyResult:
    """One blue policy over the protocol's cells."""

    name: str
    label: str  # what the reports say it is (the champion's model, surrogate-labelled; a package agent)
    cells: tuple[CellResult, ...]

    @property
    def total(self) -> float:
        """The challenge's score: the sum of the cells' means."""
        return sum(cell.mean for cell in self.cells)

    def cell(self, steps: int, red: str) -> CellResult:
        for cell in self.cells:
            if (cell.steps, cell.red) == (steps, red):
                return cell
        raise KeyError(f"no cell of {steps} steps against {red} in {self.name}'s results")

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "label": self.label, "total": self.total, "cells": [c.to_dict() for c in self.cells]}


@dataclass(frozen=True)
class KnownCheck:
    """A policy's cell mean, with its 95% bootstrap interval over episodes, against a published figure."""

    steps: int
    red: str
    known: float
    source: str
    mean: float
    low: Optional[float]
    high: Optional[float]

    @property
    def within(self) -> bool:
        if self.low is None:
            return self.mean == self.known
        return self.low - 1e-9 <= self.known <= self.high + 1e-9

    def to_dict(self) -> dict[str, Any]:
        return {"steps": self.steps, "red": self.red, "known": self.known, "source": self.source, "mean": self.mean,
                "low": self.low, "high": self.high, "within": self.within}


def check_known_sleep(result: PolicyResult) -> tuple[KnownCheck, ...]:
    """The sleep policy's cells that have a published figure, each against it."""
    checks = []
    for cell in result.cells:
        known = KNOWN_SLEEP_RETURNS.get((cell.steps, cell.red))
        if known is None:
            continue
        interval = mean_interval(cell.returns, "episodes")
        checks.append(KnownCheck(cell.steps, cell.red, known[0], known[1], cell.mean, interval.low, interval.high))
    return tuple(checks)


def play_cell(agent: Any, env: Cage2Env, seeds: Sequence[int]) -> tuple[float, ...]:
    """The package loop's inner part: per episode, `max_steps` calls of `get_action(vector, 145)` (the
    action space as ChallengeWrapper's `get_action_space` gives it), then `end_episode()`. An agent with
    `bind()` (a raw-interface package agent) is bound to this environment first; one with `set_horizon()`
    (the exported FORGE agent) is told the cell's number of steps."""
    bind = getattr(agent, "bind", None)
    if bind is not None:
        bind(env)
    set_horizon = getattr(agent, "set_horizon", None)  # a FORGE agent's prompts say how long the episode is
    if set_horizon is not None:
        set_horizon(env.max_steps)
    action_space = int(env.action_space.n)
    returns = []
    for seed in seeds:
        observation, _ = env.reset(seed=seed)
        total = 0.0
        for _ in range(env.max_steps):
            observation, reward, _, _, _ = env.step(agent.get_action(observation, action_space))
            total += reward
        agent.end_episode()
        returns.append(round(total, 1))
    return tuple(returns)


def run_protocol(
    policies: Mapping[str, tuple[str, Callable[[], Any]]],
    seeds: Sequence[int],
    *,
    horizons: Sequence[int] = HORIZONS,
    attackers: Sequence[str] = OFFICIAL_ATTACKERS,
    on_progress: Optional[Callable[[str, int, int], None]] = None,
) -> dict[str, PolicyResult]:
    """Every policy (name -> (label, factory of a blue agent)) in every cell, on the same seeds.

    One agent per policy plays all cells, as the package's loop does; one environment per cell serves
    every policy. `on_progress(policy, cells done, cells)` after each cell; it must not raise."""
    report = on_progress or (lambda what, done, total: None)
    agents = {name: factory() for name, (_, factory) in policies.items()}
    cells: dict[str, list[CellResult]] = {name: [] for name in policies}
    total = len(horizons) * len(attackers)
    for name in policies:
        report(name, 0, total)
    for steps in horizons:
        for red in attackers:
            env = Cage2Env(red_agent=red, max_steps=steps)
            for name, agent in agents.items():
                cells[name].append(CellResult(steps, red, play_cell(agent, env, seeds)))
                report(name, len(cells[name]), total)
    return {name: PolicyResult(name, policies[name][0], tuple(cells[name])) for name in policies}
