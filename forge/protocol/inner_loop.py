"""Algorithm 1 of FORGE, for one instance: play, fail, reflect, write memory, play again.

Per stage: up to `k_A` attempts of the stage's episode (same seed, restarted from step 0). The first
step whose reward crosses the failure trigger aborts the attempt; the trajectory up to that step, the
environment state and the memory in use become a failure snapshot; the learners (Reflector for rules,
Exemplifier for examples, both for `mixed`) read it and propose changes; the changes are applied to
the instance's memory as new versions with provenance. Training for the stage ends early after
`success_attempts` clean attempts.

Frozen episodes (checkpoints, final evaluations) play the whole horizon with no trigger and no learning.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Mapping, Optional

from agents.defender import Defender
from agents.injection import MemoryInjection, plain_injection_factory
from agents.learners import Exemplifier, LearnerOutput, Reflector
from forge.config import Feedback, ForgeConfig, Representation
from forge.env.cage2 import Cage2Env
from forge.failure.snapshot import FailureSnapshot, failure_id
from forge.failure.trigger import FailureTrigger, thresholds_of
from forge.llm.types import ModelCall
from forge.memory import EMPTY_SNAPSHOT, Artifact, Capacities, MemoryManager, MemorySnapshot, Provenance, diff_snapshots
from forge.memory.errors import MemoryFrozenError, UnknownItemError
from forge.protocol.episode import EpisodeResult, play_episode
from forge.runs.rundir import ArtifactSink, DirectorySink


@dataclass
class AttemptRecord:
    stage: int
    attempt: int
    seed: int
    total_return: float
    failed: bool
    failing_step: Optional[int]
    failure_id: Optional[str] = None
    added: int = 0
    reinforced: int = 0
    evicted: int = 0
    deleted: int = 0
    memory_version: Optional[int] = None
    memory_digest: str = ""
    diff: str = ""
    problems: list[str] = field(default_factory=list)
    learner_calls: list[ModelCall] = field(default_factory=list)

    def summary(self) -> dict:
        """The attempt as the session ledger keeps it (StageRecord.attempts): everything but the learner calls."""
        return {f.name: list(value) if isinstance(value := getattr(self, f.name), list) else value
                for f in fields(self) if f.name != "learner_calls"}


@dataclass
class StageTraining:
    stage: int
    attempts: list[AttemptRecord] = field(default_factory=list)

    @property
    def failures(self) -> int:
        return sum(a.failed for a in self.attempts)


class InstanceLearner:
    """One population instance: its environment, its models, its memory lineage."""

    def __init__(
        self,
        *,
        instance: str,
        session: str,
        cfg: ForgeConfig,
        clients: Mapping[str, object],
        memory: MemoryManager,
        run_dir: Optional[Path] = None,
        env: Optional[Cage2Env] = None,
        injection_factory=None,
        sink: Optional[ArtifactSink] = None,
    ) -> None:
        """Traces and failure snapshots go to `sink`; without one, into `run_dir` (if given). Ray workers
        pass a `CollectingSink` and no run directory: the driver writes what they return."""
        self.instance = instance
        self.session = session
        self.cfg = cfg
        self.clients = clients
        self.memory = memory
        self.run_dir = Path(run_dir) if run_dir else None
        self.sink: Optional[ArtifactSink] = sink or (DirectorySink(self.run_dir) if self.run_dir else None)
        self.env = env or Cage2Env(red_agent=cfg.env.red_agent.value, max_steps=cfg.env.max_steps)
        # The composition root builds the rulebook factory (forge.wiring.injection_factory_for) and hands it
        # down; without one, the plain injections that need no store.
        self._injection_factory = injection_factory or plain_injection_factory(cfg.memory.injection)

    @property
    def memory_key(self) -> str:
        return f"{self.session}/{self.instance}"

    def snapshot(self) -> MemorySnapshot:
        return self.memory.snapshot(self.memory_key)

    def defender(self, snapshot: Optional[MemorySnapshot] = None, injection: Optional[MemoryInjection] = None) -> Defender:
        injection = injection or self._injection_factory(snapshot if snapshot is not None else self.snapshot())
        return Defender(self.clients, injection, self.cfg.agent, self.cfg.env.max_steps)

    # -- frozen play ------------------------------------------------------------------------------

    def play_frozen(self, seed: int, *, label: str, injection: Optional[MemoryInjection] = None) -> EpisodeResult:
        snapshot = self.snapshot()
        result = play_episode(self.env, self.defender(snapshot, injection), seed=seed)
        self._write_trace(label, result, snapshot.digest)
        return result

    # -- Algorithm 1 ------------------------------------------------------------------------------

    def train_stage(self, stage: int, seed: int, after_attempt=None) -> StageTraining:
        """`after_attempt(record)` is called once each attempt is fully written (tests use it to kill a worker)."""
        p = self.cfg.protocol
        record = StageTraining(stage)
        clean = 0
        for attempt in range(1, p.max_attempts + 1):
            snapshot = self.snapshot()
            trigger = FailureTrigger(thresholds_of(p.tau, p.thresholds))
            result = play_episode(self.env, self.defender(snapshot), seed=seed, trigger=trigger)
            self._write_trace(f"s{stage}-train-a{attempt}", result, snapshot.digest)
            outcome = AttemptRecord(stage, attempt, seed, result.total_return, result.failed,
                                    result.events[-1].step if result.events else None, memory_digest=snapshot.digest)
            record.attempts.append(outcome)
            if result.failed:
                failure = self._failure_snapshot(stage, attempt, seed, result, snapshot)
                outcome.failure_id = failure.failure_id
                self._learn(failure, snapshot, outcome)
            if after_attempt is not None:
                after_attempt(outcome)
            if not result.failed:
                clean += 1
                if clean >= p.success_attempts:
                    break
        return record

    def _failure_snapshot(self, stage: int, attempt: int, seed: int, result: EpisodeResult,
                          snapshot: MemorySnapshot) -> FailureSnapshot:
        failing = result.steps[-1]
        # Paper feedback: the learners get what the defender saw, never the simulator's ground truth.
        privileged = self.cfg.learner.feedback is Feedback.privileged
        failure = FailureSnapshot(
            failure_id=failure_id(self.instance, stage, attempt),
            session=self.session,
            instance=self.instance,
            stage=stage,
            attempt=attempt,
            seed=seed,
            max_steps=self.cfg.env.max_steps,
            events=tuple(result.events),
            steps=result.step_records() if privileged else tuple(replace(s, red_action="") for s in result.step_records()),
            reward_breakdown=dict(failing.reward_breakdown) if privileged else {},
            red_access=dict(result.red_access_at_abort) if privileged else {},
            memory_digest=snapshot.digest,
            model=self.cfg.models.for_role("reflector").model,
            feedback=self.cfg.learner.feedback.value,
        )
        if self.sink is not None:
            self.sink.failure(failure.failure_id, failure.to_dict())
        return failure

    def _learners(self):
        p = self.cfg.protocol
        roles = list(p.agents_to_improve)
        learners = []
        if p.representation in (Representation.rules, Representation.mixed):
            learners.append(Reflector(self.clients["reflector"], roles, self.cfg.memory.rules_capacity))
        if p.representation in (Representation.examples, Representation.mixed):
            learners.append(Exemplifier(self.clients["exemplifier"], roles, self.cfg.memory.examples_capacity))
        return learners

    def _learn(self, failure: FailureSnapshot, snapshot: MemorySnapshot, outcome: AttemptRecord) -> None:
        before = self.memory.head(self.memory_key)
        for learner in self._learners():
            output = learner.learn(failure, snapshot, seed=failure.seed + failure.attempt)
            outcome.learner_calls.extend(output.calls)
            outcome.problems.extend(output.problems)
            self._apply(learner.actor, failure, output, outcome)
        after = self.memory.head(self.memory_key)
        if after is not None and (before is None or after.number != before.number):
            old = self.memory.snapshot_at(self.memory_key, before.number) if before else EMPTY_SNAPSHOT
            outcome.memory_version = after.number
            outcome.memory_digest = after.digest
            outcome.diff = diff_snapshots(old, self.snapshot()).render()

    def _apply(self, actor: str, failure: FailureSnapshot, output: LearnerOutput, outcome: AttemptRecord) -> None:
        provenance = Provenance(
            instance=self.instance, session=self.session, stage=failure.stage, attempt=failure.attempt,
            episode_seed=failure.seed, failing_step=failure.failing_step, trigger_reward=failure.failing_reward,
            model=failure.model, actor=actor,
        )
        try:
            if output.deletions:
                try:
                    # An edit, not a withdrawal: a later failure may teach the same rule again.
                    self.memory.delete(self.memory_key, output.deletions, provenance, withdraw=False)
                    outcome.deleted += len(set(output.deletions))
                except UnknownItemError as exc:
                    outcome.problems.append(f"deletion skipped: {exc}")
            if output.proposals:
                artifacts = [Artifact(p.kind, p.role, p.text, p.title) for p in output.proposals]
                _, report = self.memory.apply_artifacts(
                    self.memory_key, artifacts, Capacities.from_config(self.cfg.memory), provenance,
                    self.cfg.memory.near_duplicate_threshold,
                )
                outcome.added += len(report.added)
                outcome.reinforced += len(report.reinforced)
                outcome.evicted += len(report.evicted)
        except MemoryFrozenError:
            outcome.problems.append("memory is frozen (graduated); nothing written")

    # -- traces -----------------------------------------------------------------------------------

    def _write_trace(self, label: str, result: EpisodeResult, digest: str) -> None:
        if self.sink is None:
            return
        data = result.to_dict()
        data.update(instance=self.instance, session=self.session, label=label, memory_digest=digest)
        self.sink.trace(self.instance, label, data)
