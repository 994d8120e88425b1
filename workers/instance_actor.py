"""Population instances inside Ray workers: each with its own seeded environment, models and memory lineage.

`InstanceWorker` is one instance, a plain class (tested without Ray). `WorkerHost` holds several
instances in one worker process (`ray.instances_per_worker`, see `packing`) and runs each unit of work
in its own thread: model calls are I/O-bound, so one process serves many instances, and an instance
blocked on its model never holds up another. The instance stays the unit of seeding (its own seeds,
provider faults and `PrivateRandom`-guarded environment), of memory, of retry (a dead worker's instances are
each redone from their stage start) and of accounting (its own usage ledger).

Workers never touch the run directory: traces and failure snapshots are collected in memory and
returned with each unit's result (workers/results.py); the driver writes them. A unit may be given an
`after_step` callable, run after each of its attempts or episodes: only the session's test hooks give one
(workers/hooks.py; the chaos hooks' kills the worker part-way through a unit).

Work comes in units (a stage's training, a stage's checkpoint, the final evaluation). With
`faults.enabled`, each unit draws its provider faults from its own seed (instance, phase, stage), so a
unit redone after a worker or driver death meets exactly the faults it met the first time, and the
faults it reports are those of the work the session keeps.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Optional

import ray

from forge.config import Injection, StoreKind, from_yaml
from forge.llm.accounting import UsageLedger, UsageTotals
from forge.llm.faults import FAULT_KINDS, FaultInjectingProvider
from forge.llm.limiter import holding_for, install_session_limiter, worker_process
from forge.llm.record import RecordingProvider, record_scope, recorders_of
from forge.memory import MemoryManager
from forge.protocol.inner_loop import InstanceLearner
from forge.runs.rundir import Artifacts, CollectingSink, DirectorySink
from forge.plumbing.seeding import derive_seed
from forge.wiring import build_clients, injection_factory_for, open_memory
from forge.protocol.phases import CHECKPOINT, EVALUATION, TRAINING
from workers.hooks import AfterStep
from workers.results import MemoryHead, PlayResult, TrainingResult

# A worker's own scratch space (never the run directory): failure snapshots the rulebook reads its
# triggers from, the instance's own and those the driver sends for broadcast memory.
_SCRATCH_PREFIX = "forge-worker-"


class InstanceWorker:
    def __init__(self, instance: str, session: str, config_yaml: str, sqlite_path: Optional[str] = None,
                 injection_factory=None) -> None:
        """`sqlite_path`: the SQLite memory store (one machine only; a cluster uses memory.store=redis)."""
        self.cfg = from_yaml(config_yaml, source=f"<config of session {session}>")
        scope = record_scope(self.cfg, session)  # before the instance's own seed below
        # Each instance samples its own way (as API models do even at temperature 0); still reproducible.
        self.cfg.surrogate.seed = derive_seed(self.cfg.surrogate.seed, "instance", instance)
        self.instance = instance
        # The session-wide rate limit and budget (the driver's limiter actor), if the driver started one.
        install_session_limiter(session)
        clients, self.usage = build_clients(self.cfg, UsageLedger())
        self._fault_holders = _fault_holders(clients) if self.cfg.faults.enabled else []
        self._recorders = recorders_of(clients)
        for recorder in self._recorders:
            recorder.scope = scope
        if self.cfg.faults.enabled and not self._fault_holders:
            raise RuntimeError("faults.enabled, but no fault-injecting provider was found under the model clients")
        if self.cfg.memory.store is StoreKind.sqlite and not sqlite_path:
            raise ValueError("memory.store=sqlite: the worker needs the SQLite file's path (one machine only; "
                             "a cluster without a shared filesystem uses memory.store=redis)")
        self.memory: MemoryManager = open_memory(self.cfg, sqlite_path or "", session)
        self._scratch: Optional[DirectorySink] = None
        if injection_factory is None and self.cfg.memory.injection is Injection.rulebook:
            self._scratch = DirectorySink(Path(tempfile.mkdtemp(prefix=_SCRATCH_PREFIX)))
            injection_factory = injection_factory_for(self.cfg, run_dir=self._scratch.path,
                                                      actor=f"{session}/{instance}", clients=clients)
        self.sink = CollectingSink(mirror=self._scratch)
        self.learner = InstanceLearner(instance=instance, session=session, cfg=self.cfg, clients=clients,
                                       memory=self.memory, sink=self.sink, injection_factory=injection_factory)

    def ping(self) -> int:
        return os.getpid()

    def node_id(self) -> str:
        """The Ray node this process runs on (the session's placement, workers/placement.py)."""
        return ray.get_runtime_context().get_node_id()

    def train_stage(self, stage: int, seed: int, failures: Optional[dict[str, dict]] = None, *,
                    after_step: Optional[AfterStep] = None) -> TrainingResult:
        """`failures`: failure snapshots (relative path -> data) behind the instance's memory items, for the
        rulebook's triggers. `after_step`: run after each attempt (a test's hook)."""
        started = time.perf_counter()
        self._begin_unit(TRAINING, stage, failures)
        training = self.learner.train_stage(stage, seed,
                                            after_attempt=(lambda record: after_step()) if after_step else None)
        return TrainingResult(
            attempts=tuple(replace(a, learner_calls=[]) for a in training.attempts),
            failures=training.failures,
            usage=self._take_usage(),
            faults=self._injected(),
            head=self.head(),
            seconds=time.perf_counter() - started,
            artifacts=self.sink.take(),
        )

    def play(self, seeds: list[int], phase: str, stage: int = 0, failures: Optional[dict[str, dict]] = None, *,
             after_step: Optional[AfterStep] = None) -> PlayResult:
        """Frozen episodes: a stage's checkpoint (`phase` "checkpoint") or the final evaluation. `after_step`:
        run after each episode (a test's hook)."""
        if phase not in (CHECKPOINT, EVALUATION):
            raise ValueError(f"play: phase must be {CHECKPOINT!r} or {EVALUATION!r}, got {phase!r}")
        started = time.perf_counter()
        self._begin_unit(phase, stage, failures)
        label = f"s{stage}-checkpoint" if phase == CHECKPOINT else "eval"
        returns = []
        for k, seed in enumerate(seeds):
            returns.append(self.learner.play_frozen(seed, label=f"{label}-{k}").total_return)
            if after_step:
                after_step()
        return PlayResult(returns=returns, usage=self._take_usage(), faults=self._injected(),
                          digest=self.learner.snapshot().digest, seconds=time.perf_counter() - started,
                          artifacts=self.sink.take())

    def head(self) -> MemoryHead:
        head = self.memory.head(self.learner.memory_key)
        snapshot = self.learner.snapshot()
        return MemoryHead(
            version=head.number if head else 0,
            digest=snapshot.digest,
            frozen=bool(head and head.frozen),
            rules=snapshot.count(kind="rule"),
            examples=snapshot.count(kind="example"),
        )

    # -- work units -------------------------------------------------------------------------------

    def _begin_unit(self, phase: str, stage: int, failures: Optional[dict[str, dict]] = None) -> None:
        """A unit starts from a clean usage count and its own provider faults (same seed on every retry)."""
        self.usage.reset()
        self.sink.clear()
        for recorder in self._recorders:
            recorder.begin_unit(f"{self.instance}/{phase}/s{stage}")
        if self._scratch is not None and failures:
            self._scratch.put_all(Artifacts(failures=failures))
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

    def _take_usage(self) -> UsageTotals:
        totals = self.usage.totals()
        self.usage.reset()
        return totals


def _fault_holders(clients) -> list:
    """The providers (one per configured provider name) whose `inner` is a fault injector."""
    holders = []
    for client in clients.values():
        provider = client.provider
        if isinstance(provider, RecordingProvider):  # the session record sits outside retries and faults
            provider = provider.inner
        if isinstance(getattr(provider, "inner", None), FaultInjectingProvider) and provider not in holders:
            holders.append(provider)
    return holders


class WorkerHost:
    """The Ray worker: the instances packed into one process, each unit of work in its own thread.

    Ray restarts a dead host by calling this constructor again, so all of its instances come back (with
    the memory the driver restored them to); none of them keeps anything from before in the process."""

    def __init__(self, instances: list[str], session: str, config_yaml: str, sqlite_path: Optional[str] = None) -> None:
        self.instances = {i: InstanceWorker(i, session, config_yaml, sqlite_path) for i in instances}

    def ping(self) -> int:
        return os.getpid()

    def process(self) -> str:
        """This process as its model-call leases name it (the driver reclaims a dead one's slots by it)."""
        return worker_process()

    def node_id(self) -> str:
        """The Ray node this process runs on (the session's placement, workers/placement.py)."""
        return ray.get_runtime_context().get_node_id()

    def train_stage(self, instance: str, stage: int, seed: int, failures: Optional[dict[str, dict]] = None, *,
                    after_step: Optional[AfterStep] = None) -> TrainingResult:
        with holding_for(f"{instance} {TRAINING}:{stage}"):
            return self._instance(instance).train_stage(stage, seed, failures, after_step=after_step)

    def play(self, instance: str, seeds: list[int], phase: str, stage: int = 0,
             failures: Optional[dict[str, dict]] = None, *, after_step: Optional[AfterStep] = None) -> PlayResult:
        with holding_for(f"{instance} {phase}:{stage}"):
            return self._instance(instance).play(seeds, phase, stage, failures, after_step=after_step)

    def _instance(self, instance: str) -> InstanceWorker:
        try:
            return self.instances[instance]
        except KeyError:
            raise KeyError(f"instance {instance!r} is not hosted by this worker "
                           f"(it hosts {', '.join(self.instances)})") from None


def host_class(num_cpus: float, max_restarts: int, instances_per_worker: int):
    # One thread per hosted instance (each has at most one unit in flight) plus one for ping().
    # SPREAD: over every node that offers the CPU asked for. Ray's default placement packs small requests
    # (0.1 CPU each) onto few nodes: on a compose cluster every worker process ran on the head, and the worker
    # nodes did nothing. A head started with --num-cpus=0 offers no CPU, so it gets no instance.
    return ray.remote(num_cpus=num_cpus, max_restarts=max_restarts, max_task_retries=0,
                      max_concurrency=instances_per_worker + 1, scheduling_strategy="SPREAD")(WorkerHost)
