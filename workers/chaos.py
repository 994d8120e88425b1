"""Chaos for reliability tests: session hooks (workers/hooks.py) that make a worker or the driver die.

The product never imports this module: a test passes `ChaosHooks` to the driver, or runs the `forge`
command line through this module (`python -m workers.chaos run ...`, or `main([...])` in-process), which
builds them from the config's chaos settings; `forge` itself never reads those settings. Each named fault
fires once per run directory (a marker file records that it fired), so the retried work or the resumed
driver runs on undisturbed.

`ray.chaos_kill`: comma-separated worker kills, each

    INSTANCE@STAGE              during that stage's training (after its first attempt wrote memory)
    INSTANCE@training:STAGE     the same
    INSTANCE@checkpoint:STAGE   during that stage's checkpoint (after its first checkpoint episode)
    INSTANCE@evaluation         during the final evaluation (after its first evaluation episode)

`ray.chaos_driver_exit`: comma-separated driver exits (`os._exit`, no cleanup: a SIGKILL's effect), each

    after_training@STAGE   the stage's training is done, its checkpoint not started
    after_ledger@STAGE     the stage's decision is in the ledger, not yet applied
    after_apply@STAGE      freezes and broadcast done and recorded, MLflow logging not started
    after_logging@STAGE    the stage's MLflow metrics and artifacts logged and recorded as logged
    evaluation             during the final evaluation (after the first instance's result came back)
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from forge.config import ConfigError, ForgeConfig, RayConfig
from forge.protocol.phases import CHECKPOINT, EVALUATION, STAGE_BOUNDARIES, TRAINING
from workers.hooks import AfterStep, SessionHooks

DRIVER_POINTS = (*STAGE_BOUNDARIES, EVALUATION)
# The exit status of a driver stopped by a chaos hook: tests tell it apart from a real crash.
CHAOS_EXIT_CODE = 86
WORKER_EXIT_CODE = 17


@dataclass(frozen=True)
class WorkerKill:
    instance: str
    phase: str
    stage: int  # 0 for the final evaluation

    @property
    def marker(self) -> str:
        return f".chaos-{self.instance}-{self.phase}-{self.stage}"


@dataclass(frozen=True)
class DriverExit:
    point: str
    stage: int  # 0 for the final evaluation

    @property
    def marker(self) -> str:
        return f".chaos-driver-{self.point}-{self.stage}"


def _items(spec: Optional[str]) -> list[str]:
    return [part.strip() for part in (spec or "").split(",") if part.strip()]


def _stage_number(text: str, key: str, item: str) -> int:
    try:
        stage = int(text)
    except ValueError:
        raise ConfigError(f"{key}: {item!r}: {text!r} is not a stage number") from None
    if stage < 1:
        raise ConfigError(f"{key}: {item!r}: stages are numbered from 1")
    return stage


def parse_worker_kills(spec: Optional[str]) -> list[WorkerKill]:
    key = "ray.chaos_kill"
    kills = []
    for item in _items(spec):
        instance, at, where = item.partition("@")
        if not at or not instance or not where:
            raise ConfigError(f"{key}: {item!r} is not INSTANCE@STAGE, INSTANCE@PHASE:STAGE or INSTANCE@evaluation")
        phase, colon, stage = where.partition(":")
        if not colon and phase.isdigit():
            kills.append(WorkerKill(instance, TRAINING, _stage_number(phase, key, item)))
        elif phase == EVALUATION and not colon:
            kills.append(WorkerKill(instance, EVALUATION, 0))
        elif phase in (TRAINING, CHECKPOINT) and colon:
            kills.append(WorkerKill(instance, phase, _stage_number(stage, key, item)))
        else:
            raise ConfigError(f"{key}: {item!r}: the phase must be training:STAGE, checkpoint:STAGE or evaluation")
    return kills


def parse_driver_exits(spec: Optional[str]) -> list[DriverExit]:
    key = "ray.chaos_driver_exit"
    exits = []
    for item in _items(spec):
        point, at, stage = item.partition("@")
        if point == EVALUATION and not at:
            exits.append(DriverExit(EVALUATION, 0))
        elif point in DRIVER_POINTS[:-1] and at:
            exits.append(DriverExit(point, _stage_number(stage, key, item)))
        else:
            raise ConfigError(f"{key}: {item!r} is not POINT@STAGE (POINT one of {', '.join(DRIVER_POINTS[:-1])}) "
                              f"or {EVALUATION}")
    return exits


def claim(run_dir: Path, marker: str) -> bool:
    """True the first time a fault with this marker asks to fire in this run directory (and records it)."""
    path = run_dir / marker
    try:
        with open(path, "x") as handle:
            handle.write("fired\n")
    except FileExistsError:
        return False
    return True


def exit_worker() -> None:
    """A chaos kill, run in the worker after a unit's first attempt or episode: a hard exit, no cleanup
    (every instance this worker hosts dies with it)."""
    os._exit(WORKER_EXIT_CODE)


@dataclass(frozen=True)
class ChaosHooks(SessionHooks):
    """The chaos of one session: which units kill their worker and where the driver exits. Markers in
    `run_dir` make each fault fire once however often the work is redone."""

    run_dir: Path
    worker_kills: tuple[WorkerKill, ...] = ()
    driver_exits: tuple[DriverExit, ...] = ()

    @classmethod
    def from_config(cls, ray_cfg: RayConfig, run_dir: Path) -> "ChaosHooks":
        """From `ray.chaos_kill` and `ray.chaos_driver_exit` (a bad spec raises ConfigError)."""
        return cls(Path(run_dir), tuple(parse_worker_kills(ray_cfg.chaos_kill)),
                   tuple(parse_driver_exits(ray_cfg.chaos_driver_exit)))

    def after_step(self, instance: str, phase: str, stage: int) -> Optional[AfterStep]:
        """`exit_worker` for a unit this plan kills. Claimed here, in the driver's run directory, so a kill
        fires once however often its unit is redone."""
        kill = WorkerKill(instance, phase, stage)
        return exit_worker if kill in self.worker_kills and claim(self.run_dir, kill.marker) else None

    def at(self, boundary: str, stage: int) -> None:
        """Die here like a SIGKILLed driver, if the plan says so (once per run directory)."""
        wanted = DriverExit(boundary, stage)
        if wanted in self.driver_exits and claim(self.run_dir, wanted.marker):
            sys.stdout.flush()  # what was reported so far, as a killed driver's log would have it
            sys.stderr.flush()
            os._exit(CHAOS_EXIT_CODE)

    def unit_done(self, instance: str, phase: str, stage: int) -> None:
        """The final evaluation's exit point is after its first unit's result is in (and written)."""
        if phase == EVALUATION:
            self.at(EVALUATION, 0)

    def unfired(self) -> list[WorkerKill | DriverExit]:
        """The faults whose work never ran (an instance graduated, a stage was not reached): they tested nothing."""
        return [fault for fault in (*self.worker_kills, *self.driver_exits)
                if not (self.run_dir / fault.marker).exists()]

    def warnings(self) -> list[str]:
        return [f"chaos: {fault} never fired (that work did not run in this session)" for fault in self.unfired()]


def chaos_hooks(cfg: ForgeConfig, run_dir: Path) -> ChaosHooks:
    """The session hooks the config's chaos settings ask for (a bad spec fails here, before any work)."""
    return ChaosHooks.from_config(cfg.ray, run_dir)


def main(argv: Optional[list[str]] = None) -> int:
    """The `forge` command line with the config's chaos settings in force (`forge run` / `forge resume`)."""
    from forge.cli import main as forge_main  # lazy: the command line only where this harness runs it

    return forge_main(argv, session_hooks=chaos_hooks)


if __name__ == "__main__":
    sys.exit(main())
