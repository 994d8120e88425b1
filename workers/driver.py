"""The session driver (Algorithm 2): stages of parallel training, frozen checkpoints, graduation and
champion broadcast, then a final frozen evaluation of every instance.

Durability: memory is versioned as it is written; a stage enters the ledger only after its training and
checkpoint are complete (`applied=False`), is marked applied once its freezes and broadcast are done, and
marked logged once its MLflow metrics and artifacts are written. `forge resume` re-runs this same code:
finished stages are skipped, an applied-but-not-logged stage has what is missing of its logging redone
(no metric point is written twice), a decided-but-unapplied stage is applied (freeze and broadcast are
idempotent), and a stage that never reached the ledger starts over from the memory each active instance
had when that stage began.

Workers: instances are packed into Ray worker processes (`ray.instances_per_worker`, workers/packing.py);
each returns its traces and failure snapshots with its results and the driver writes them, so workers
never need the run directory. Every unit of work (a stage's training, its checkpoint, the final evaluation) whose worker
dies, or fails because the memory store was unreachable, is redone (at most `ray.stage_retries` times
per instance and unit) on a restarted worker; training is redone from the memory the instance had when
the stage began. A redone unit draws the same seeds and the same provider faults, so the session ends
as it would have without the death. Every such fault, a resumed driver and a restarted Redis are
recorded in the ledger as they are seen (see forge.protocol.fault_count).
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Optional

import ray

from forge.config import Arm, BudgetConfig, ConfigError, ForgeConfig, Injection, StoreKind, to_saved_yaml
from forge.failure.snapshot import failure_id
from forge.llm.limiter import describe_budget
from forge.memory import EMPTY_DIGEST, EMPTY_SNAPSHOT, MemoryManager, Provenance
from forge.memory.errors import MemoryFrozenError
from forge.protocol.fault_count import fault_metrics, fault_summary
from forge.protocol.ledger import EvaluationRecord, StageRecord
from forge.protocol.phases import (
    AFTER_APPLY, AFTER_LEDGER, AFTER_LOGGING, AFTER_TRAINING, APPLIED, CHECKPOINT, DECIDED, EVALUATION, FINISHING,
    LOGGED, STARTING, TRAINED, TRAINING, UNFINISHED_STAGE,
)
from forge.protocol.seeds import checkpoint_seeds, evaluation_seeds, training_seed
from forge.protocol.stages import decide_stage
from forge.analysis.reporting import SessionReport, describe_nodes, write_session_report
from forge.rulebook.outcomes import session_rule_rates
from forge.runs.rundir import Artifacts, RunDirectory, failure_path
from forge.runs.tracking import Tags, TrackingError
from forge.wiring import model_caveat, model_label, open_ledger, open_memory, uses_surrogate
from workers.budget import SessionBudgetStop, SessionLimiter, budget_refusal
from workers.hooks import SessionHooks
from workers.placement import node_shares
from workers.progress import LoggingProgress, SessionProgress
from workers.ray_runtime import WorkerPool, as_completed, connect_ray, retryable_failure
from workers.results import PlayResult, TrainingResult, UnitResult

FINAL_LOGGING = "final-logging"
# A unit of work as the driver submits it: a WorkerHost method and its arguments after the instance.
UnitCall = tuple[str, tuple]


@dataclass
class SessionOutcome:
    run_dir: RunDirectory
    stages_run: list[int] = field(default_factory=list)
    stages_skipped: list[int] = field(default_factory=list)
    evaluation: Optional[EvaluationRecord] = None
    budget_exhausted: Optional[dict[str, Any]] = None  # the figures, when the session stopped on its budget


def instance_names(n: int) -> list[str]:
    return [f"i{k:02d}" for k in range(n)]




def config_digest(cfg: ForgeConfig) -> str:
    # Over the saved (credential-masked) form: a password given again on resume, or rotated, is not a
    # different experiment. Nor is a budget raised to continue a session that spent its own.
    return hashlib.sha256(to_saved_yaml(replace(cfg, budget=BudgetConfig())).encode()).hexdigest()[:16]


class SessionDriver:
    def __init__(self, cfg: ForgeConfig, run_dir: RunDirectory, progress: Optional[SessionProgress] = None,
                 tracker=None, hooks: Optional[SessionHooks] = None) -> None:
        """`progress` hears what the session does (default: the `workers.driver` logger). `hooks`: where a
        test reaches in (workers/hooks.py; default: hooks that do nothing)."""
        self.cfg = cfg
        self.run_dir = run_dir
        self.progress: SessionProgress = progress or LoggingProgress()
        self.session = run_dir.session_id
        self.instances = instance_names(cfg.protocol.num_instances)
        self.hooks = hooks or SessionHooks()
        self.memory: MemoryManager = open_memory(cfg, str(run_dir.path), self.session)
        self.ledger = open_ledger(cfg, str(run_dir.path), self.session)
        self.tracker = tracker
        self.workers = WorkerPool(cfg, self.session, run_dir.path)
        self.limiter = SessionLimiter(cfg, self.ledger, run_dir)

    # -- the session ----------------------------------------------------------------------------

    def run(self) -> SessionOutcome:
        p = self.cfg.protocol
        previous_status = self.ledger.status()
        self.ledger.start({
            "condition": p.condition.value, "representation": p.representation.value,
            "instances": self.instances, "stages": p.num_stages, "config_digest": config_digest(self.cfg),
            "model": model_label(self.cfg), "surrogate": uses_surrogate(self.cfg), "caveat": model_caveat(self.cfg),
            "session": self.session,
        })
        if previous_status == "running":
            # The last driver stopped before finishing (killed, crashed, interrupted): count it, say where.
            where = self.ledger.progress() or {}
            self.ledger.record_fault("driver_restart", phase=where.get("phase", "?"), stage=where.get("stage", 0))
            self.progress.notice(f"resuming: the previous driver stopped in {where.get('phase', '?')} "
                                 f"(stage {where.get('stage', 0)})")
        self.ledger.set_progress(STARTING)
        self.run_dir.sync(databases=True)
        self._check_store()
        outcome = SessionOutcome(self.run_dir)
        connect_ray(self.cfg)
        self._check_sqlite_reach()
        self.limiter.start()
        self._start_tracking()
        try:
            self._spawn(self.instances)
            try:
                if p.condition is not Arm.zero_shot:
                    self._stages(outcome)
                outcome.evaluation = self.ledger.evaluation() or self._evaluate()
            except SessionBudgetStop as stop:
                outcome.budget_exhausted = self._stop_for_budget(stop.figures)
                return outcome
            self.limiter.save_spent()
            self._check_store()
            self.ledger.set_progress(FINISHING)
            self.ledger.finish()
            if self.tracker:
                if not self.ledger.is_done(FINAL_LOGGING):
                    self._log_final(outcome.evaluation)
                    self.ledger.mark_done(FINAL_LOGGING)
                self.tracker.finish()
            for warning in self.hooks.warnings():
                self.progress.notice(warning, warning=True)
            self.run_dir.sync(databases=True)
        except BaseException as exc:
            if self.tracker and not isinstance(exc, TrackingError):  # a server that just refused is not asked again
                self.tracker.finish("KILLED")
            self._sync_quietly()
            raise
        finally:
            self.workers.kill()
            self.limiter.stop()
        return outcome

    def _stages(self, outcome: SessionOutcome) -> None:
        p = self.cfg.protocol
        done = {r.stage: r for r in self.ledger.stages()}
        active = list(self.instances)
        for stage in range(1, p.num_stages + 1):
            record = done.get(stage)
            if record is not None and record.applied:
                outcome.stages_skipped.append(stage)
                active = record.active_after
                if self.tracker and not record.logged:
                    # The driver died between the ledger and MLflow: log what is missing, never twice.
                    self.progress.notice(f"stage {stage}: applied but not fully logged; logging what is missing")
                    self._log_stage(record, done, only_missing=True)
                continue
            if not active:
                self.progress.notice(f"stage {stage}: every instance has graduated; stopping early")
                break
            if record is None:
                record = self._decide_stage(stage, active, done)  # train, checkpoint, decide: into the ledger
            self._apply_stage(record)  # graduate, broadcast
            done[stage] = record
            if self.tracker:
                self._log_applied_stage(record, done)
            outcome.stages_run.append(stage)
            active = record.active_after
            self.progress.notice(_stage_line(record))

    # -- one stage -----------------------------------------------------------------------------

    def _decide_stage(self, stage: int, active: list[str], done: dict[int, StageRecord]) -> StageRecord:
        """The stage from its start (the memory the last one left): training, checkpoint and the graduation
        decision, recorded in the ledger as not yet applied."""
        self._restore_stage_start(stage, active, done)
        record = self._run_stage(stage, active)
        self.ledger.record_stage(record)
        self.ledger.set_progress(DECIDED, stage)
        self.hooks.at(AFTER_LEDGER, stage)
        return record

    def _apply_stage(self, record: StageRecord) -> None:
        """The decision carried out (freezes and broadcast) and recorded as applied: a stage boundary."""
        self._apply(record)
        self.ledger.record_stage(record)
        self.ledger.set_progress(APPLIED, record.stage)
        self.limiter.save_spent()
        self.run_dir.sync(databases=True)  # a stage boundary: no worker writes the SQLite files now
        self.hooks.at(AFTER_APPLY, record.stage)

    def _log_applied_stage(self, record: StageRecord, done: dict[int, StageRecord]) -> None:
        """The stage's metrics and memory artifacts in MLflow, then the ledger says it is logged."""
        self._log_stage(record, done)
        self.ledger.set_progress(LOGGED, record.stage)
        self.run_dir.sync(databases=True)
        self.hooks.at(AFTER_LOGGING, record.stage)

    def _run_stage(self, stage: int, active: list[str]) -> StageRecord:
        started = time.perf_counter()
        trained, retries = self._train(stage, active)
        played, play_retries = self._checkpoint(stage, active, trained)
        checkpoint = {i: round(r.mean_return, 2) for i, r in played.items()}
        decision = decide_stage(checkpoint, active, self.cfg.protocol.theta, self.cfg.protocol.condition)
        tokens = {i: (trained[i].usage + played[i].usage).ledger_counts() for i in active}
        return StageRecord(
            stage=stage, active_before=list(active), checkpoint=checkpoint,
            graduated=list(decision.graduated), champion=decision.champion,
            broadcast_to=list(decision.broadcast_to), memory={},
            failures={i: trained[i].failures for i in active}, tokens=tokens,
            retries={i: retries[i] + play_retries[i] for i in active},
            wall_s=round(time.perf_counter() - started, 2), applied=False,
            work_s={i: round(trained[i].seconds + played[i].seconds, 2) for i in active},
            attempts={i: [a.summary() for a in trained[i].attempts] for i in active},
            faults={i: _add_counts(trained[i].faults, played[i].faults) for i in active},
        )

    def _train(self, stage: int, active: list[str]) -> tuple[dict[str, TrainingResult], dict[str, int]]:
        """Algorithm 1 for every active instance; a redone unit starts from the memory the stage began with."""
        stage_start = {i: self.memory.snapshot(self._key(i)).digest for i in active}
        self._check_store()
        self.ledger.set_progress(TRAINING, stage)
        trained, retries = self._run_units(
            TRAINING, stage, active,
            lambda i: ("train_stage", (stage, training_seed(self.cfg, i, stage), self._failures_behind(i))),
            restore_to=stage_start)
        self.ledger.set_progress(TRAINED, stage)
        self.hooks.at(AFTER_TRAINING, stage)
        return trained, retries

    def _checkpoint(self, stage: int, active: list[str],
                    trained: dict[str, TrainingResult]) -> tuple[dict[str, PlayResult], dict[str, int]]:
        """Frozen episodes of the memory each instance's training ended with."""
        self._check_store()
        self.ledger.set_progress(CHECKPOINT, stage)
        seeds = checkpoint_seeds(self.cfg, stage)
        played, retries = self._run_units(
            CHECKPOINT, stage, active, lambda i: ("play", (seeds, CHECKPOINT, stage, self._failures_behind(i))))
        for i in active:
            if played[i].digest != trained[i].head.digest:
                raise RuntimeError(f"{i}: stage {stage} checkpoint played memory {played[i].digest[:12]}, "
                                   f"not the memory its training ended with ({trained[i].head.digest[:12]})")
        return played, retries

    # -- units of work ----------------------------------------------------------------------------

    def _run_units(self, phase: str, stage: int, instances: list[str], unit: Callable[[str], UnitCall],
                   restore_to: Optional[dict[str, str]] = None) -> tuple[dict[str, Any], dict[str, int]]:
        """One unit of `phase` work per instance, in parallel. A unit whose worker dies (or that fails on an
        unreachable store) is recorded as a fault and redone on a restarted worker, after the instance's
        memory goes back to `restore_to` (training); at most `ray.stage_retries` times per instance. A unit
        refused for budget lets the others finish, then stops the session (SessionBudgetStop)."""
        retries = {i: 0 for i in instances}
        pending = {i: self._submit(i, unit, phase, stage) for i in instances}
        results: dict[str, Any] = {}
        refused: Optional[dict[str, Any]] = None  # the budget figures, once a unit was refused for budget
        self.progress.phase_started(_phase_label(phase, stage), phase, instances)
        try:
            for instance, ref in as_completed(pending):
                try:
                    result = ray.get(ref)
                except Exception as exc:  # noqa: BLE001 - classified below; anything else is re-raised
                    figures = budget_refusal(exc)
                    if figures is not None:
                        # Let the other units' in-flight calls finish; none of this phase is kept.
                        refused = figures
                        self.progress.unit_changed(instance, "stopped: budget exhausted")
                        continue
                    reason = retryable_failure(exc)
                    if reason is None:
                        raise
                    retries[instance] += 1
                    self._prepare_redo(instance, phase, stage, reason, exc, retries[instance], restore_to)
                    pending[instance] = self._submit(instance, unit, phase, stage)
                    continue
                results[instance] = self._keep(instance, phase, stage, result)
        finally:
            self.progress.phase_finished()
        if refused is not None:
            raise SessionBudgetStop(refused)
        return results, retries

    def _submit(self, instance: str, unit: Callable[[str], UnitCall], phase: str, stage: int):
        method, args = unit(instance)
        after_step = self.hooks.after_step(instance, phase, stage)
        return getattr(self.workers.host(instance), method).remote(instance, *args, after_step=after_step)

    def _prepare_redo(self, instance: str, phase: str, stage: int, reason: str, exc: BaseException, retries: int,
                      restore_to: Optional[dict[str, str]]) -> None:
        """A unit failed for `reason` (its `retries`-th time): recorded as a fault; unless it has failed too
        often, its memory is restored (training) and its worker is back for the unit to be redone."""
        label = _phase_label(phase, stage)
        self.ledger.record_fault(reason, phase=phase, stage=stage, instance=instance, error=type(exc).__name__)
        self.progress.unit_changed(instance, f"{reason.replace('_', ' ')}; retrying")
        if retries > self.cfg.ray.stage_retries:
            raise RuntimeError(f"{instance}: {label} failed {retries} times "
                               f"(ray.stage_retries={self.cfg.ray.stage_retries})") from exc
        self.progress.notice(f"{instance}: {reason.replace('_', ' ')} in {label} "
                             f"({type(exc).__name__}); redoing its {phase} work", warning=True)
        if restore_to is not None:
            self._reset_memory(instance, restore_to[instance], f"retry of stage {stage} {phase}")
        self._respawn(instance)

    def _keep(self, instance: str, phase: str, stage: int, result: UnitResult) -> UnitResult:
        """A unit's result is in: its traces and failure snapshots written (the driver is the only writer of
        the run directory), its spending saved. Kept without them."""
        self.run_dir.write_artifacts(result.artifacts)
        self.run_dir.sync()  # to the run's remote storage as they come (SQLite files at boundaries only)
        # After every unit, not every stage: a driver killed mid-stage loses no spending a resume
        # should still count against the budget.
        self.limiter.save_spent()
        self.progress.unit_changed(instance, result.line(), done=True)
        self.hooks.unit_done(instance, phase, stage)
        return replace(result, artifacts=Artifacts())

    def _apply(self, record: StageRecord) -> None:
        """Graduation freezes, then the champion broadcast (a pointer copy). Both are idempotent."""
        provenance = Provenance(session=self.session, stage=record.stage, actor="driver")
        for instance in record.graduated:
            self.memory.freeze(self._key(instance), provenance)
        if record.champion and record.broadcast_to:
            champion = self._key(record.champion)
            if self.memory.head(champion) is None:
                # A champion that never failed has no memory yet; what it broadcasts is the empty memory.
                self.memory.set_snapshot(champion, EMPTY_SNAPSHOT, op="init", provenance=provenance)
            # Recorded even where a target already holds the champion's memory: the history shows every broadcast.
            self.memory.broadcast(champion, [self._key(i) for i in record.broadcast_to],
                                  Provenance(session=self.session, stage=record.stage, instance=record.champion))
        for instance in record.active_before:
            head = self.memory.head(self._key(instance))
            snapshot = self.memory.snapshot(self._key(instance))
            record.memory[instance] = {
                "version": head.number if head else 0, "digest": snapshot.digest,
                "rules": snapshot.count(kind="rule"), "examples": snapshot.count(kind="example"),
            }
        record.applied = True

    def _restore_stage_start(self, stage: int, active: list[str], done: dict[int, StageRecord]) -> None:
        """After a crash mid-stage, active instances go back to the memory they had when the stage began."""
        previous = done.get(stage - 1)
        for instance in active:
            digest = previous.memory[instance]["digest"] if previous and instance in previous.memory else EMPTY_DIGEST
            if self.memory.snapshot(self._key(instance)).digest != digest:
                self.progress.notice(f"{instance}: memory changed by an unfinished stage {stage}; restoring {digest[:12]}")
                self._reset_memory(instance, digest, f"resume of stage {stage}")

    def _reset_memory(self, instance: str, digest: str, why: str) -> None:
        if self.memory.snapshot(self._key(instance)).digest == digest:
            return  # nothing was written since: no restore version needed
        snapshot = EMPTY_SNAPSHOT if digest == EMPTY_DIGEST else self.memory.store.get_snapshot(digest)
        try:
            self.memory.set_snapshot(self._key(instance), snapshot, op="restore",
                                     provenance=Provenance(session=self.session, instance=instance, actor=f"driver: {why}"))
        except MemoryFrozenError:
            pass  # a graduate's memory is final; it is never trained again

    # -- final evaluation -------------------------------------------------------------------------

    def _evaluate(self) -> EvaluationRecord:
        self._check_store()
        self.ledger.set_progress(EVALUATION)
        seeds = evaluation_seeds(self.cfg)
        played, retries = self._run_units(
            EVALUATION, 0, self.instances, lambda i: ("play", (seeds, EVALUATION, 0, self._failures_behind(i))))
        record = EvaluationRecord(returns={i: played[i].returns for i in self.instances}, seeds=seeds,
                                  tokens={i: played[i].usage.ledger_counts() for i in self.instances},
                                  faults={i: played[i].faults for i in self.instances}, retries=retries)
        self.ledger.record_evaluation(record)
        self.run_dir.sync(databases=True)
        return record

    # -- a stop for budget -------------------------------------------------------------------------

    def _stop_for_budget(self, figures: dict[str, Any]) -> dict[str, Any]:
        """A clean stop: the unfinished phase is dropped (its stage never reached the ledger, so a resume
        restores each instance's memory to the stage start), the figures go to the ledger and MLflow."""
        figures = {**self.limiter.save_spent(), "reached": figures["reached"]}
        where = self.ledger.progress() or {}
        figures["stopped_in"] = {"phase": where.get("phase", "?"), "stage": where.get("stage", 0)}
        if where.get("phase") in UNFINISHED_STAGE:
            # Memory goes back to where the ledger's last stage left it, now rather than at the resume.
            done = {r.stage: r for r in self.ledger.stages()}
            previous = done.get(where["stage"] - 1)
            self._restore_stage_start(where["stage"], previous.active_after if previous else list(self.instances), done)
        meta = self.ledger.meta()
        meta["budget"] = figures
        self.ledger.update_meta(meta)
        self.ledger.set_status("budget_exhausted")
        self.run_dir.sync(databases=True)
        if self.tracker:
            self.tracker.stopped_for_budget(figures)
        self.progress.notice(f"budget exhausted in {figures['stopped_in']['phase']} "
                             f"(stage {figures['stopped_in']['stage']}): {describe_budget(figures)}\n"
                             f"continue with: forge resume {self.run_dir.path} budget.<limit>=<higher value>", warning=True)
        return figures

    # -- faults the driver watches for ----------------------------------------------------------------

    def _check_store(self) -> None:
        """A Redis that restarted since the last look is counted; one that lost the session is an error."""
        identity = self.ledger.store_identity()
        if identity is None:
            return
        if not self.ledger.meta():
            raise RuntimeError(f"the memory store no longer holds session {self.session}: Redis restarted without "
                               f"persistence (run it with appendonly yes) or the data was removed")
        last = self.ledger.last_store_identity()
        if last is not None and last != identity:
            where = self.ledger.progress() or {}
            self.ledger.record_fault("store_restart", phase=where.get("phase", "?"), stage=where.get("stage", 0))
            self.progress.notice("the Redis server restarted; the session's data survived it", warning=True)
        if last != identity:
            self.ledger.set_store_identity(identity)

    def _check_sqlite_reach(self) -> None:
        """SQLite memory is a file in the driver's run directory (for remote storage, a working copy pushed at
        stage boundaries): a worker on another node can neither reach it nor be copied consistently with it."""
        nodes = [n for n in ray.nodes() if n.get("Alive")]
        if self.cfg.memory.store is StoreKind.sqlite and len(nodes) > 1:
            raise ConfigError(
                f"memory.store=sqlite keeps memory and ledger in {self.run_dir.path / 'forge.db'} on the driver's "
                f"node, which workers on the other {len(nodes) - 1} node(s) of this Ray cluster cannot reach: "
                f"use memory.store=redis memory.redis_url=redis://<host>:6379/0")

    def _sync_quietly(self) -> None:
        """After a failure: push what there is, without hiding the failure behind a storage error."""
        try:
            self.run_dir.sync(databases=True)
        except Exception as exc:  # noqa: BLE001 - reported; the session's own error is the one raised
            self.progress.notice(f"could not push the run directory to {self.run_dir.location}: {exc}", warning=True)

    def fault_summary(self) -> dict[str, Any]:
        return fault_summary(self.ledger.stages(), self.ledger.evaluation(), self.ledger.faults())

    # -- Ray plumbing --------------------------------------------------------------------------------

    def _spawn(self, instances: list[str]) -> None:
        per_worker = self.workers.spawn(instances)
        self.progress.notice(f"{len(instances)} instances in {self.workers.size} worker processes "
                             f"(up to {per_worker} each)")
        self._record_placement()

    def _record_placement(self) -> None:
        """Every node's share of the instances (workers/placement.py): in the ledger's meta (the summary and
        summary.json read it), in MLflow and on the console. A resumed driver records its own placement."""
        shares = node_shares(ray.nodes(), self.workers.nodes())
        meta = self.ledger.meta()
        meta["nodes"] = shares
        self.ledger.update_meta(meta)
        if self.tracker:
            self.tracker.log_nodes(shares)
        self.progress.notice(describe_nodes(shares))

    def _respawn(self, instance: str) -> None:
        """Only the dead worker's instances are redone (each after its own memory restore). The dead process's
        model-call slots come back now, not when their leases expire (by pid and node: a worker of the same
        pid on another node keeps its slots)."""
        dead = self.workers.respawn(instance)
        if dead is not None:
            self.limiter.reclaim(dead)

    def worker_pids(self) -> list[int]:
        """The worker processes' ids as last seen (they change when a worker is restarted)."""
        return list(self.workers.pids.values())

    def _failures_behind(self, instance: str) -> Optional[dict[str, dict]]:
        """For `memory.injection: rulebook`: the failure snapshots the instance's memory items were learned
        from (the rulebook compiles their triggers from them); workers cannot read the run directory."""
        if self.cfg.memory.injection is not Injection.rulebook:
            return None
        found: dict[str, dict] = {}
        for item in self.memory.snapshot(self._key(instance)).items:
            p = item.provenance
            if p.instance is None or p.stage is None or p.attempt is None:
                continue
            relative = failure_path(failure_id(p.instance, p.stage, p.attempt))
            path = self.run_dir.path / relative
            if relative not in found and path.is_file():
                found[relative] = json.loads(path.read_text())
        return found

    def _key(self, instance: str) -> str:
        return f"{self.session}/{instance}"

    # -- tracking ---------------------------------------------------------------------------------

    def _start_tracking(self) -> None:
        if self.tracker is None:
            return
        p = self.cfg.protocol
        tags = {
            Tags.CONDITION: p.condition.value, Tags.REPRESENTATION: p.representation.value,
            Tags.MODEL: model_label(self.cfg), Tags.SURROGATE: str(uses_surrogate(self.cfg)).lower(),
        }
        if model_caveat(self.cfg):
            tags[Tags.CAVEAT] = model_caveat(self.cfg)
        ids = self.ledger.meta().get("mlflow")
        ids = self.tracker.start(self.session, self.cfg, self.instances, tags, ids=ids)
        meta = self.ledger.meta()
        if meta.get("mlflow") != ids:
            meta["mlflow"] = ids
            self.ledger.update_meta(meta)

    def _log_stage(self, record: StageRecord, done: dict[int, StageRecord], only_missing: bool = False) -> None:
        """The stage's metrics and memory artifacts, then the ledger says it is logged. Re-logging after a
        crash (`only_missing`) adds no second metric point; artifacts are overwritten with the same files."""
        graduates = sum(len(r.graduated) for s, r in done.items() if s <= record.stage)
        self.tracker.log_stage(record, graduates_so_far=graduates, only_missing=only_missing)
        for instance in record.active_before:
            # The memory the stage ended with, as the ledger recorded it (not whatever the head holds now).
            snapshot = self.memory.store.get_snapshot(record.memory[instance]["digest"]) \
                if record.memory[instance]["digest"] != EMPTY_DIGEST else EMPTY_SNAPSHOT
            path = self.run_dir.write_json(f"memory/stage-{record.stage}/{instance}.json", snapshot.to_dict())
            self.tracker.log_artifact(path, f"memory/stage-{record.stage}", instance=instance)
        record.logged = True
        self.ledger.record_stage(record)

    def _log_final(self, evaluation: EvaluationRecord) -> None:
        report = SessionReport.load(self.run_dir, self.cfg)
        paths = write_session_report(report)
        # Per rule, injected decision points and the share followed (`rulebook.<rule>.*`), rulebook sessions only.
        rule_rates = session_rule_rates(self.run_dir.path) if self.cfg.memory.injection.value == "rulebook" else {}
        # Re-logged after a crash, a point already written with the same value is skipped.
        self.tracker.log_evaluation(report.per_instance, report.pooled, step=len(report.stages) + 1,
                                    extra={"graduation_rate": report.graduation_rate,
                                           **fault_metrics(self.fault_summary()), **rule_rates},
                                    only_missing=True)
        for path in paths:
            self.tracker.log_artifact(path, "reports")
        # Its configuration (credentials masked), so that `forge compare --mlflow` groups, pairs and checks it.
        self.tracker.log_artifact(self.run_dir.config_path)
        champion = self.ledger.champion()
        if champion:
            path = self.run_dir.write_json("reports/champion_memory.json",
                                           self.memory.snapshot(self._key(champion)).to_dict())
            self.tracker.log_artifact(path, "champion")


def _add_counts(*counts: dict[str, int]) -> dict[str, int]:
    total: dict[str, int] = {}
    for count in counts:
        for key, n in count.items():
            total[key] = total.get(key, 0) + n
    return dict(sorted(total.items()))


def _phase_label(phase: str, stage: int) -> str:
    return f"stage {stage}: {phase}" if phase != EVALUATION else "final evaluation"


def _stage_line(record: StageRecord) -> str:
    scores = ", ".join(f"{i} {v:+.1f}" for i, v in sorted(record.checkpoint.items()))
    parts = [f"stage {record.stage} checkpoint: {scores}"]
    if record.graduated:
        parts.append(f"graduated: {', '.join(record.graduated)}")
    if record.champion:
        parts.append(f"champion {record.champion} -> {', '.join(record.broadcast_to) or 'nobody'}")
    return "; ".join(parts)
