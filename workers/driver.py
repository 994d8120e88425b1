"""The session driver (Algorithm 2): stages of parallel training, frozen checkpoints, graduation and
champion broadcast, then a final frozen evaluation of every instance.

Durability: memory is versioned as it is written; a stage enters the ledger only after its training and
checkpoint are complete (`applied=False`), and is marked applied once its freezes and broadcast are done.
`forge resume` re-runs this same code: completed stages are skipped, a decided-but-unapplied stage is
applied (freeze and broadcast are idempotent), and a stage that never reached the ledger starts over
from the memory each active instance had when that stage began.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Any, Optional

import ray
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from forge.config import Condition, ForgeConfig, to_saved_yaml, to_yaml
from forge.memory import EMPTY_DIGEST, EMPTY_SNAPSHOT, MemoryManager, Provenance
from forge.memory.errors import MemoryFrozenError
from forge.protocol.ledger import EvaluationRecord, StageRecord
from forge.protocol.stages import decide_stage
from forge.rundir import RunDirectory
from forge.seeding import derive_seed
from forge.wiring import model_label, open_ledger, open_memory, uses_surrogate
from workers.instance_actor import actor_class


@dataclass
class SessionOutcome:
    run_dir: RunDirectory
    stages_run: list[int] = field(default_factory=list)
    stages_skipped: list[int] = field(default_factory=list)
    evaluation: Optional[EvaluationRecord] = None


def instance_names(n: int) -> list[str]:
    return [f"i{k:02d}" for k in range(n)]


def checkpoint_seeds(cfg: ForgeConfig, stage: int) -> list[int]:
    """Common to all instances of a stage, so that ranking compares like with like."""
    return [derive_seed(cfg.protocol.seed, "checkpoint", stage, k) for k in range(cfg.protocol.checkpoint_runs)]


def evaluation_seeds(cfg: ForgeConfig) -> list[int]:
    """Common to all instances and all conditions with the same protocol.seed."""
    return [derive_seed(cfg.protocol.seed, "eval", k) for k in range(cfg.protocol.num_evaluation_runs)]


def training_seed(cfg: ForgeConfig, instance: str, stage: int) -> int:
    return derive_seed(cfg.protocol.seed, "train", instance, stage)


def config_digest(cfg: ForgeConfig) -> str:
    import hashlib

    # Over the saved (credential-masked) form: a password given again on resume, or rotated, is not a
    # different experiment.
    return hashlib.sha256(to_saved_yaml(cfg).encode()).hexdigest()[:16]


def connect_ray(cfg: ForgeConfig) -> None:
    if ray.is_initialized():
        return
    address = cfg.ray.address or os.environ.get("RAY_ADDRESS")
    if address:
        ray.init(address=address, logging_level="WARNING")
    else:
        ray.init(num_cpus=os.cpu_count(), include_dashboard=False, logging_level="WARNING",
                 configure_logging=True, log_to_driver=True)


class SessionDriver:
    def __init__(self, cfg: ForgeConfig, run_dir: RunDirectory, console: Optional[Console] = None,
                 tracker=None) -> None:
        self.cfg = cfg
        self.run_dir = run_dir
        self.console = console or Console()
        self.session = run_dir.session_id
        self.instances = instance_names(cfg.protocol.num_instances)
        self.memory: MemoryManager = open_memory(cfg, str(run_dir.path), self.session)
        self.ledger = open_ledger(cfg, str(run_dir.path), self.session)
        self.tracker = tracker
        self._actors: dict[str, Any] = {}

    # -- the session ----------------------------------------------------------------------------

    def run(self) -> SessionOutcome:
        p = self.cfg.protocol
        self.ledger.start({
            "condition": p.condition.value, "representation": p.representation.value,
            "instances": self.instances, "stages": p.num_stages, "config_digest": config_digest(self.cfg),
            "model": model_label(self.cfg), "surrogate": uses_surrogate(self.cfg), "session": self.session,
        })
        outcome = SessionOutcome(self.run_dir)
        connect_ray(self.cfg)
        self._start_tracking()
        try:
            self._spawn(self.instances)
            if p.condition is not Condition.zero_shot:
                self._stages(outcome)
            outcome.evaluation = self.ledger.evaluation() or self._evaluate()
            self.ledger.finish()
            if self.tracker:
                self._log_final(outcome.evaluation)
                self.tracker.finish()
        except BaseException:
            if self.tracker:
                self.tracker.finish("KILLED")
            raise
        finally:
            for actor in self._actors.values():
                ray.kill(actor)
            self._actors.clear()
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
                continue
            if not active:
                self.console.print(f"stage {stage}: every instance has graduated; stopping early")
                break
            if record is None:
                self._restore_stage_start(stage, active, done)
                record = self._run_stage(stage, active)
                self.ledger.record_stage(record)
            self._apply(record)
            self.ledger.record_stage(record)
            done[stage] = record
            if self.tracker:
                self.tracker.log_stage(record, graduates_so_far=len(self.ledger.graduates()))
                self._log_stage_artifacts(record)
            outcome.stages_run.append(stage)
            active = record.active_after
            self.console.print(_stage_line(record))

    # -- one stage -----------------------------------------------------------------------------

    def _run_stage(self, stage: int, active: list[str]) -> StageRecord:
        started = time.perf_counter()
        stage_start = {i: self.memory.snapshot(self._key(i)).digest for i in active}
        results, retries = self._train_all(stage, active, stage_start)
        seeds = checkpoint_seeds(self.cfg, stage)
        plays = self._parallel({i: (lambda a, i=i: a.play.remote(seeds, f"s{stage}-checkpoint")) for i in active},
                               f"stage {stage}: checkpoint")
        checkpoint = {i: round(sum(r["returns"]) / len(r["returns"]), 2) for i, r in plays.items()}
        decision = decide_stage(checkpoint, active, self.cfg.protocol.theta, self.cfg.protocol.condition)
        tokens = {i: _merge_usage(results[i]["usage"], plays[i]["usage"]) for i in active}
        return StageRecord(
            stage=stage, active_before=list(active), checkpoint=checkpoint,
            graduated=list(decision.graduated), champion=decision.champion,
            broadcast_to=list(decision.broadcast_to), memory={},
            failures={i: results[i]["failures"] for i in active}, tokens=tokens, retries=retries,
            wall_s=round(time.perf_counter() - started, 2), applied=False,
            work_s={i: round(results[i]["seconds"] + plays[i]["seconds"], 2) for i in active},
            attempts={i: results[i]["attempts"] for i in active},
        )

    def _train_all(self, stage: int, active: list[str], stage_start: dict[str, str]):
        """Every active instance trains in parallel. A worker that dies is restarted by Ray; its memory
        goes back to where the stage started and its stage work is retried (bounded)."""
        retries = {i: 0 for i in active}
        pending = {i: self._actors[i].train_stage.remote(stage, training_seed(self.cfg, i, stage)) for i in active}
        results: dict[str, Any] = {}
        with self._progress() as progress:
            task = progress.add_task(f"stage {stage}: training", total=len(active))
            rows = {i: progress.add_task(f"  {i} training", total=1) for i in active}
            while pending:
                ready, _ = ray.wait(list(pending.values()), num_returns=1)
                instance = next(i for i, ref in pending.items() if ref == ready[0])
                del pending[instance]
                try:
                    results[instance] = ray.get(ready[0])
                    progress.advance(task)
                    failures = results[instance]["failures"]
                    progress.update(rows[instance], completed=1,
                                    description=f"  {instance} trained: {len(results[instance]['attempts'])} attempts, "
                                                f"{failures} failures")
                except ray.exceptions.RayActorError as exc:
                    progress.update(rows[instance], description=f"  {instance} worker died; retrying")
                    retries[instance] += 1
                    if retries[instance] > self.cfg.ray.stage_retries:
                        raise RuntimeError(f"{instance}: stage {stage} failed {retries[instance]} times") from exc
                    self.console.print(f"[yellow]{instance}: worker died in stage {stage} ({type(exc).__name__}); "
                                       f"restoring its memory to the stage start and retrying[/yellow]")
                    self._reset_memory(instance, stage_start[instance], f"retry of stage {stage}")
                    self._respawn(instance)
                    pending[instance] = self._actors[instance].train_stage.remote(stage, training_seed(self.cfg, instance, stage))
        return results, retries

    def _apply(self, record: StageRecord) -> None:
        """Graduation freezes, then the champion broadcast (a pointer copy). Both are idempotent."""
        provenance = Provenance(session=self.session, stage=record.stage, actor="driver")
        for instance in record.graduated:
            self.memory.freeze(self._key(instance), provenance)
        if record.champion and record.broadcast_to:
            # Recorded even where a target already holds the champion's memory: the history shows every broadcast.
            self.memory.broadcast(self._key(record.champion), [self._key(i) for i in record.broadcast_to],
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
                self.console.print(f"{instance}: memory changed by an unfinished stage {stage}; restoring {digest[:12]}")
                self._reset_memory(instance, digest, f"resume of stage {stage}")

    def _reset_memory(self, instance: str, digest: str, why: str) -> None:
        snapshot = EMPTY_SNAPSHOT if digest == EMPTY_DIGEST else self.memory.store.get_snapshot(digest)
        try:
            self.memory.set_snapshot(self._key(instance), snapshot, op="restore",
                                     provenance=Provenance(session=self.session, instance=instance, actor=f"driver: {why}"))
        except MemoryFrozenError:
            pass  # a graduate's memory is final; it is never trained again

    # -- final evaluation -------------------------------------------------------------------------

    def _evaluate(self) -> EvaluationRecord:
        seeds = evaluation_seeds(self.cfg)
        plays = self._parallel({i: (lambda a: a.play.remote(seeds, "eval")) for i in self.instances}, "final evaluation")
        record = EvaluationRecord(returns={i: plays[i]["returns"] for i in self.instances}, seeds=seeds,
                                  tokens={i: plays[i]["usage"] for i in self.instances})
        self.ledger.record_evaluation(record)
        return record

    # -- Ray plumbing --------------------------------------------------------------------------------

    def _spawn(self, instances: list[str]) -> None:
        for instance in instances:
            self._respawn(instance, kill=False)
        ray.get([a.ping.remote() for a in self._actors.values()])

    def _respawn(self, instance: str, kill: bool = True) -> None:
        """Ray restarts a dead actor itself (max_restarts); a fresh one is made if it has given up."""
        if kill and instance in self._actors:
            try:
                ray.get(self._actors[instance].ping.remote(), timeout=60)
                return  # restarted by Ray and answering
            except Exception:
                pass
        cls = actor_class(self.cfg.ray.num_cpus_per_instance, self.cfg.ray.max_restarts)
        self._actors[instance] = cls.remote(instance, self.session, to_yaml(self.cfg), str(self.run_dir.path))

    def _parallel(self, calls: dict[str, Any], label: str) -> dict[str, Any]:
        refs = {i: call(self._actors[i]) for i, call in calls.items()}
        results = {}
        with self._progress() as progress:
            task = progress.add_task(label, total=len(refs))
            rows = {i: progress.add_task(f"  {i}", total=1) for i in refs}
            remaining = dict(refs)
            while remaining:
                ready, _ = ray.wait(list(remaining.values()), num_returns=1)
                instance = next(i for i, ref in remaining.items() if ref == ready[0])
                del remaining[instance]
                results[instance] = ray.get(ready[0])
                progress.advance(task)
                returns = results[instance]["returns"]
                progress.update(rows[instance], completed=1,
                                description=f"  {instance} return {sum(returns) / len(returns):+.1f}")
        return results

    def _progress(self) -> Progress:
        return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                        console=self.console, transient=True)

    def _key(self, instance: str) -> str:
        return f"{self.session}/{instance}"

    # -- tracking ---------------------------------------------------------------------------------

    def _start_tracking(self) -> None:
        if self.tracker is None:
            return
        p = self.cfg.protocol
        tags = {
            "forge.condition": p.condition.value, "forge.representation": p.representation.value,
            "forge.model": model_label(self.cfg), "forge.surrogate": str(uses_surrogate(self.cfg)).lower(),
        }
        ids = self.ledger.meta().get("mlflow")
        ids = self.tracker.start(self.session, self.cfg, self.instances, tags, ids=ids)
        meta = self.ledger.meta()
        if meta.get("mlflow") != ids:
            meta["mlflow"] = ids
            self.ledger.update_meta(meta)

    def _log_stage_artifacts(self, record: StageRecord) -> None:
        for instance in record.active_before:
            snapshot = self.memory.snapshot(self._key(instance))
            path = self.run_dir.write_json(f"memory/stage-{record.stage}/{instance}.json", snapshot.to_dict())
            self.tracker.log_artifact(path, f"memory/stage-{record.stage}", instance=instance)

    def _log_final(self, evaluation: EvaluationRecord) -> None:
        from forge.reporting import SessionReport, write_session_report

        report = SessionReport.load(self.run_dir, self.cfg)
        paths = write_session_report(report)
        self.tracker.log_evaluation(report.per_instance, report.pooled, step=len(report.stages) + 1,
                                    extra={"graduation_rate": report.graduation_rate})
        for path in paths:
            self.tracker.log_artifact(path, "reports")
        champion = self.ledger.champion()
        if champion:
            path = self.run_dir.write_json("reports/champion_memory.json",
                                           self.memory.snapshot(self._key(champion)).to_dict())
            self.tracker.log_artifact(path, "champion")


def _merge_usage(*usages: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
    merged: dict[str, dict[str, int]] = {}
    for usage in usages:
        for role, u in usage.items():
            slot = merged.setdefault(role, {"prompt": 0, "completion": 0, "calls": 0})
            for key in slot:
                slot[key] += u.get(key, 0)
    return merged


def _stage_line(record: StageRecord) -> str:
    scores = ", ".join(f"{i} {v:+.1f}" for i, v in sorted(record.checkpoint.items()))
    parts = [f"[bold]stage {record.stage}[/bold] checkpoint: {scores}"]
    if record.graduated:
        parts.append(f"graduated: {', '.join(record.graduated)}")
    if record.champion:
        parts.append(f"champion {record.champion} -> {', '.join(record.broadcast_to) or 'nobody'}")
    return "; ".join(parts)
