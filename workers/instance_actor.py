"""One population instance as a Ray actor: its own seeded environment, models and memory lineage.

`InstanceWorker` is a plain class (tested without Ray); `InstanceActor` is the same class as a Ray
actor. Everything it returns is plain data. Model calls are I/O-bound, so actors are sized with a
fraction of a CPU: ten or more progress together on a two-core machine, and an actor blocked on its
model never holds up another (each is its own process).
"""

from __future__ import annotations

import os
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any, Optional

import ray

from forge.config import from_yaml
from forge.llm.accounting import UsageLedger
from forge.memory import MemoryManager
from forge.protocol.inner_loop import AttemptRecord, InstanceLearner
from forge.seeding import derive_seed
from forge.wiring import build_clients, open_memory


class InstanceWorker:
    def __init__(self, instance: str, session: str, config_yaml: str, run_dir: str,
                 injection_factory=None) -> None:
        self.cfg = from_yaml(config_yaml, source=f"{run_dir}/config.yaml")
        # Each instance samples its own way (as API models do even at temperature 0); still reproducible.
        self.cfg.surrogate.seed = derive_seed(self.cfg.surrogate.seed, "instance", instance)
        self.instance = instance
        self.run_dir = Path(run_dir)
        clients, self.usage = build_clients(self.cfg, UsageLedger())
        self.memory: MemoryManager = open_memory(self.cfg, run_dir, session)
        self.learner = InstanceLearner(instance=instance, session=session, cfg=self.cfg, clients=clients,
                                       memory=self.memory, run_dir=self.run_dir, injection_factory=injection_factory)

    def ping(self) -> int:
        return os.getpid()

    def train_stage(self, stage: int, seed: int) -> dict[str, Any]:
        started = time.perf_counter()
        training = self.learner.train_stage(stage, seed, after_attempt=self._chaos(stage))
        return {
            "attempts": [_attempt_summary(a) for a in training.attempts],
            "failures": training.failures,
            "usage": self._take_usage(),
            "head": self.head(),
            "seconds": time.perf_counter() - started,
        }

    def play(self, seeds: list[int], label: str) -> dict[str, Any]:
        started = time.perf_counter()
        returns = [self.learner.play_frozen(seed, label=f"{label}-{k}").total_return for k, seed in enumerate(seeds)]
        return {"returns": returns, "usage": self._take_usage(), "seconds": time.perf_counter() - started}

    def head(self) -> dict[str, Any]:
        head = self.memory.head(self.learner.memory_key)
        snapshot = self.learner.snapshot()
        return {
            "version": head.number if head else 0,
            "digest": snapshot.digest,
            "frozen": bool(head and head.frozen),
            "rules": snapshot.count(kind="rule"),
            "examples": snapshot.count(kind="example"),
        }

    def _take_usage(self) -> dict[str, dict[str, int]]:
        totals = self.usage.totals_by_role()
        self.usage.reset()
        return {role: {"prompt": u.prompt_tokens, "completion": u.completion_tokens, "calls": u.calls}
                for role, u in totals.items()}

    def _chaos(self, stage: int):
        target = self.cfg.ray.chaos_kill
        if target != f"{self.instance}@{stage}":
            return None
        marker = self.run_dir / f".chaos-{self.instance}-{stage}"

        def kill_once(record: AttemptRecord) -> None:
            if not marker.exists():
                marker.write_text("killed once")
                os._exit(17)  # a hard crash: no cleanup, mid-stage, after memory was written

        return kill_once


def _attempt_summary(record: AttemptRecord) -> dict[str, Any]:
    data = asdict(record)
    data.pop("learner_calls")
    return data


def actor_class(num_cpus: float, max_restarts: int):
    return ray.remote(num_cpus=num_cpus, max_restarts=max_restarts, max_task_retries=0)(InstanceWorker)
