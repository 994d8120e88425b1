"""The protocol's seeds: every episode a session (or a single-instance loop) plays is seeded from
`protocol.seed` here, so that conditions with the same seed play the same episodes."""

from __future__ import annotations

from typing import Optional

from forge.config import ForgeConfig
from forge.plumbing.seeding import derive_seed


def checkpoint_seeds(cfg: ForgeConfig, stage: int) -> list[int]:
    """Common to all instances of a stage, so that ranking compares like with like."""
    return [derive_seed(cfg.protocol.seed, "checkpoint", stage, k) for k in range(cfg.protocol.checkpoint_runs)]


def evaluation_seeds(cfg: ForgeConfig, episodes: Optional[int] = None) -> list[int]:
    """Common to all instances and all conditions with the same protocol.seed (`episodes` defaults to
    `protocol.num_evaluation_runs`)."""
    count = cfg.protocol.num_evaluation_runs if episodes is None else episodes
    return [derive_seed(cfg.protocol.seed, "eval", k) for k in range(count)]


def training_seed(cfg: ForgeConfig, instance: str, stage: int) -> int:
    return derive_seed(cfg.protocol.seed, "train", instance, stage)
