"""A study: every arm (a condition, or a point of a sweep grid) run as K sessions with derived seeds,
into one MLflow study, then compared on sessions (forge.analysis.comparison). The one way to run several sessions:
`forge run CONFIG --sessions K [--baseline C ...] [--sweep KEY=V1,V2,...]`.

Session k of every arm gets the same seeds (derived from the config's seeds and k), so arms are compared
on the same episodes; K = 1 with no sweep keeps the config's own seeds (a plain `forge run`).
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import Sequence

from forge.config import ConfigError, ForgeConfig
from forge.plumbing.seeding import derive_seed

SEED_KEYS = ("protocol.seed", "surrogate.seed")


@dataclass(frozen=True)
class StudySession:
    arm: str  # "forge", or "forge protocol.tau=-2" for a sweep point
    index: int  # k, of K sessions of the arm
    overrides: tuple[str, ...]  # what makes this session from the base config


def parse_sweep(spec: str) -> tuple[str, list[str]]:
    """`protocol.tau=-1.1,-2,-3` -> ("protocol.tau", ["-1.1", "-2", "-3"])."""
    key, sep, values = spec.partition("=")
    items = [v.strip() for v in values.split(",") if v.strip()]
    if not sep or not key.strip() or not items:
        raise ConfigError(f"--sweep {spec!r}: expected KEY=V1,V2,... (e.g. protocol.tau=-1.1,-2,-3)")
    if key.strip() in SEED_KEYS or key.strip() == "protocol.condition":
        raise ConfigError(f"--sweep {key.strip()}: seeds come from --sessions and conditions from --baseline")
    return key.strip(), items


def _seed_of(cfg: ForgeConfig, key: str) -> int:
    section, name = key.split(".")
    return int(getattr(getattr(cfg, section), name))


def plan_study(cfg: ForgeConfig, conditions: Sequence[str], sweeps: Sequence[tuple[str, list[str]]], sessions: int,
               study: str) -> list[StudySession]:
    """Arms = conditions x the sweep grid; K sessions each, session k's seeds shared by every arm."""
    if sessions < 1:
        raise ConfigError(f"--sessions must be >= 1, got {sessions}")
    keys = [key for key, _ in sweeps]
    if len(set(keys)) != len(keys):
        raise ConfigError(f"--sweep: a key is swept twice ({', '.join(keys)})")
    plan = []
    grid = list(itertools.product(*[values for _, values in sweeps]))
    for condition in dict.fromkeys(conditions):
        for point in grid:
            settings = [f"{key}={value}" for key, value in zip(keys, point)]
            arm = " ".join([condition, *settings])
            for k in range(sessions):
                seeds = [] if sessions == 1 else [f"{key}={derive_seed(_seed_of(cfg, key), 'session', k)}"
                                                  for key in SEED_KEYS]
                name = f"{study}-{_slug(arm)}-s{k}"
                plan.append(StudySession(arm, k, (f"protocol.condition={condition}", *settings, *seeds,
                                                  f"run.arm={arm}", f"run.name={name}", f"run.study={study}")))
    return plan


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9.=-]+", "_", text).strip("_")
