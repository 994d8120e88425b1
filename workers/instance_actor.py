"""One population instance as a Ray actor: its own seeded environment, models and memory lineage.

`InstanceWorker` is a plain class (tested without Ray); `InstanceActor` is the same class as a Ray
actor. Everything it returns is plain data. Model calls are I/O-bound, so actors are sized with a
fraction of a CPU: ten or more progress together on a two-core machine, and an actor blocked on its
model never holds up another (each is its own process).

Work comes in units (a stage's training, a stage's checkpoint, the final evaluation). With
`faults.enabled`, each unit draws its provider faults from its own seed (instance, phase, stage), so a
unit redone after a worker or driver death meets exactly the faults it met the first time, and the
faults it reports are those of the work the session keeps.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any, Callable, Optional

import ray

from forge.config import from_yaml
from forge.llm.accounting import UsageLedger
from forge.llm.faults import FAULT_KINDS, FaultInjectingProvider
from forge.llm.limiter import install_session_limiter
from forge.memory import MemoryManager
from forge.protocol.inner_loop import AttemptRecord, InstanceLearner
from forge.seeding import derive_seed
from forge.wiring import build_clients, open_memory
from workers.chaos import CHECKPOINT, EVALUATION, TRAINING, WORKER_EXIT_CODE, WorkerKill, claim, parse_worker_kills


class InstanceWorker:
    def __init__(self, instance: str, session: str, config_yaml: str, run_dir: str,
                 injection_factory=None) -> None:
        self.cfg = from_yaml(config_yaml, source=f"{run_dir}/config.yaml")
        # Each instance samples its own way (as API models do even at temperature 0); still reproducible.
        self.cfg.surrogate.seed = derive_seed(self.cfg.surrogate.seed, "instance", instance)
        self.instance = instance
        self.run_dir = Path(run_dir)
        # The session-wide rate limit and budget (the driver's limiter actor), if the driver started one.
        install_session_limiter(session)
        clients, self.usage = build_clients(self.cfg, UsageLedger())
        self._fault_holders = _fault_holders(clients) if self.cfg.faults.enabled else []
        if self.cfg.faults.enabled and not self._fault_holders:
            raise RuntimeError("faults.enabled, but no fault-injecting provider was found under the model clients")
        self._kills = [k for k in parse_worker_kills(self.cfg.ray.chaos_kill) if k.instance == instance]
        self.memory: MemoryManager = open_memory(self.cfg, run_dir, session)
        self.learner = InstanceLearner(instance=instance, session=session, cfg=self.cfg, clients=clients,
                                       memory=self.memory, run_dir=self.run_dir, injection_factory=injection_factory)

    def ping(self) -> int:
        return os.getpid()

    def train_stage(self, stage: int, seed: int) -> dict[str, Any]:
        started = time.perf_counter()
        self._begin_unit(TRAINING, stage)
        kill = self._chaos(TRAINING, stage)
        training = self.learner.train_stage(stage, seed, after_attempt=(lambda record: kill()) if kill else None)
        return {
            "attempts": [_attempt_summary(a) for a in training.attempts],
            "failures": training.failures,
            "usage": self._take_usage(),
            "faults": self._injected(),
            "head": self.head(),
            "seconds": time.perf_counter() - started,
        }

    def play(self, seeds: list[int], phase: str, stage: int = 0) -> dict[str, Any]:
        """Frozen episodes: a stage's checkpoint (`phase` "checkpoint") or the final evaluation."""
        if phase not in (CHECKPOINT, EVALUATION):
            raise ValueError(f"play: phase must be {CHECKPOINT!r} or {EVALUATION!r}, got {phase!r}")
        started = time.perf_counter()
        self._begin_unit(phase, stage)
        label = f"s{stage}-checkpoint" if phase == CHECKPOINT else "eval"
        kill = self._chaos(phase, stage)
        returns = []
        for k, seed in enumerate(seeds):
            returns.append(self.learner.play_frozen(seed, label=f"{label}-{k}").total_return)
            if kill:
                kill()
        return {"returns": returns, "usage": self._take_usage(), "faults": self._injected(),
                "digest": self.learner.snapshot().digest, "seconds": time.perf_counter() - started}

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

    # -- work units -------------------------------------------------------------------------------

    def _begin_unit(self, phase: str, stage: int) -> None:
        """A unit starts from a clean usage count and its own fault plan (same seed on every retry)."""
        self.usage.reset()
        for holder in self._fault_holders:
            injector = holder.inner
            seed = derive_seed(self.cfg.faults.seed, "faults", self.instance, phase, stage, holder.name)
            holder.inner = FaultInjectingProvider(injector.inner, replace(self.cfg.faults, seed=seed), name=injector.name)

    def _injected(self) -> dict[str, int]:
        """Provider faults injected in this unit, every kind listed (with faults off: nothing)."""
        if not self._fault_holders:
            return {}
        total: Counter[str] = Counter({kind: 0 for kind in FAULT_KINDS})
        for holder in self._fault_holders:
            total.update(holder.inner.injected)
        return dict(sorted(total.items()))

    def _take_usage(self) -> dict[str, dict[str, int]]:
        totals = self.usage.totals_by_role()
        self.usage.reset()
        return {role: {"prompt": u.prompt_tokens, "completion": u.completion_tokens, "calls": u.calls,
                       "retries": u.retries, "failed": u.failures}
                for role, u in totals.items()}

    def _chaos(self, phase: str, stage: int) -> Optional[Callable[[], None]]:
        """The kill this unit is to suffer, if `ray.chaos_kill` names it: a hard exit, no cleanup, after the
        unit's first attempt or episode (for training, after that attempt's memory was written)."""
        kill = WorkerKill(self.instance, phase, stage if phase != EVALUATION else 0)
        if kill not in self._kills:
            return None

        def exit_once() -> None:
            if claim(self.run_dir, kill.marker):
                os._exit(WORKER_EXIT_CODE)

        return exit_once


def _fault_holders(clients) -> list:
    """The providers (one per configured provider name) whose `inner` is a fault injector."""
    holders = []
    for client in clients.values():
        provider = client.provider
        if isinstance(getattr(provider, "inner", None), FaultInjectingProvider) and provider not in holders:
            holders.append(provider)
    return holders


def _attempt_summary(record: AttemptRecord) -> dict[str, Any]:
    data = asdict(record)
    data.pop("learner_calls")
    return data


def actor_class(num_cpus: float, max_restarts: int):
    return ray.remote(num_cpus=num_cpus, max_restarts=max_restarts, max_task_retries=0)(InstanceWorker)
