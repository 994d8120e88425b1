"""Finding the memory to compile or evaluate in a run directory: the session's champion, or a named instance."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Sequence

from forge.config import ForgeConfig, load_config
from forge.memory import MemoryManager, MemorySnapshot
from forge.rulebook.model import RulebookError
from forge.rundir import RunDirectory


@dataclass(frozen=True)
class RunMemory:
    run: RunDirectory
    cfg: ForgeConfig
    memory: MemoryManager
    instance: str
    chosen_by: str  # "ledger champion" | "--instance"

    @property
    def session(self) -> str:
        return self.run.session_id

    @property
    def key(self) -> str:
        return f"{self.session}/{self.instance}"

    @property
    def actor(self) -> str:
        return self.key

    def snapshot(self) -> MemorySnapshot:
        return self.memory.snapshot(self.key)


def open_run_memory(run_path: str | Path, instance: Optional[str] = None, overrides: Sequence[str] = ()) -> RunMemory:
    """The run's configuration (with `overrides`), its memory, and the instance to use: `instance` if
    given, else the session ledger's champion. Errors name the run directory and the known instances."""
    from forge.wiring import open_ledger, open_memory

    path = Path(run_path)
    if not path.is_dir():
        raise RulebookError(f"run directory {str(run_path)!r} does not exist")
    run = RunDirectory.open(path)
    cfg = load_config(run.config_path, overrides=list(overrides)) if overrides else run.load_config()
    memory = open_memory(cfg, str(run.path), run.session_id)
    prefix = f"{run.session_id}/"
    known = sorted(k[len(prefix):] for k in memory.instances() if k.startswith(prefix))
    listed = ", ".join(known) or "none"
    if instance is None:
        ledger = open_ledger(cfg, str(run.path), run.session_id)
        try:
            champion = ledger.champion()
        finally:
            ledger.close()
        if champion is None:
            raise RulebookError(f"the session ledger of {run.path} names no champion; "
                                f"pick the memory with --instance (instances with memory: {listed})")
        instance, chosen_by = champion, "ledger champion"
    else:
        chosen_by = "--instance"
    if memory.head(f"{run.session_id}/{instance}") is None:
        raise RulebookError(f"instance {instance!r} has no memory in {run.path} (instances with memory: {listed})")
    return RunMemory(run, cfg, memory, instance, chosen_by)
