"""Running sessions from their configuration to their written reports: what `forge run` and `forge resume` call.

One session: the MLflow tracker its configuration asks for, the driver (workers/driver.py), then the
reports written (after a budget stop too: summary.json holds the status and the figures) and the run
directory pushed to its storage. Several (conditions side by side, a study's arms): one after another,
each in a new run directory, stopping after one that ran out of budget. Drawing is the caller's: it
passes the driver's progress view and is told when each session starts and ends.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional, Sequence

from forge.config import ForgeConfig
from forge.analysis.reporting import SessionReport, write_session_report
from forge.runs.rundir import RunDirectory
from forge.runs.tracking import SessionTracker, tracking_store
from workers.driver import SessionDriver, SessionOutcome
from workers.hooks import SessionHooks
from workers.progress import SessionProgress

# The hooks of each session, from its configuration and run directory (a test's; default: none).
HooksFactory = Callable[[ForgeConfig, Path], SessionHooks]


@dataclass(frozen=True)
class SessionRun:
    cfg: ForgeConfig
    run_dir: RunDirectory
    outcome: SessionOutcome
    report: SessionReport
    tracking_uri: Optional[str]  # where its stage curves are (None: tracking off)

    @property
    def budget_exhausted(self) -> bool:
        return self.outcome.budget_exhausted is not None


def session_tracker(cfg: ForgeConfig, run_dir: RunDirectory) -> Optional[SessionTracker]:
    """The session's MLflow tracker (None with tracking off). By default the study's store: shared by every
    session under the runs directory (the run directory's parent)."""
    if not cfg.tracking.enabled:
        return None
    uri, artifacts = tracking_store(cfg, run_dir.path.parent, remote_storage=run_dir.mirror is not None)
    return SessionTracker(uri, cfg.run.study, artifacts)


def run_session(cfg: ForgeConfig, run_dir: RunDirectory, *, progress: Optional[SessionProgress] = None,
                hooks: Optional[HooksFactory] = None) -> SessionRun:
    """Run (or continue) the session in `run_dir`, then write its reports."""
    tracker = session_tracker(cfg, run_dir)
    driver = SessionDriver(cfg, run_dir, progress=progress, tracker=tracker,
                           hooks=hooks(cfg, run_dir.path) if hooks is not None else None)
    outcome = driver.run()
    report = SessionReport.load(run_dir, cfg)
    write_session_report(report)
    run_dir.sync()
    return SessionRun(cfg, run_dir, outcome, report, tracker.tracking_uri if tracker else None)


def run_sessions(configs: Sequence[ForgeConfig], *, progress: Optional[SessionProgress] = None,
                 hooks: Optional[HooksFactory] = None,
                 on_start: Callable[[int, ForgeConfig, RunDirectory], None] = lambda n, cfg, run_dir: None,
                 on_end: Callable[[SessionRun], None] = lambda run: None) -> list[SessionRun]:
    """Each configuration's session in a new run directory, in order; none after one that stopped on its
    budget (the last of those returned). `on_start(n, cfg, run_dir)` (n from 1) and `on_end(run)` around each."""
    runs: list[SessionRun] = []
    for n, cfg in enumerate(configs, 1):
        run_dir = RunDirectory.create(cfg)
        on_start(n, cfg, run_dir)
        runs.append(run_session(cfg, run_dir, progress=progress, hooks=hooks))
        on_end(runs[-1])
        if runs[-1].budget_exhausted:
            break
    return runs
