"""How the session driver reports what it does, without drawing anything itself.

The driver calls a `SessionProgress` (the CLI passes one that draws with Rich, forge/commands/session.py);
without one it logs (`LoggingProgress`), as Ray Tune's schedulers report through `logger`. Every hook is
called from the driver's thread, in order, and must not raise.
"""

from __future__ import annotations

import logging
from typing import Protocol, Sequence

log = logging.getLogger("workers.driver")


class SessionProgress(Protocol):
    def notice(self, text: str, *, warning: bool = False) -> None:
        """A line for the person running the session: a resume, a redone unit, a stage's result, a budget
        stop. `warning` marks what went wrong (and was handled)."""

    def phase_started(self, label: str, phase: str, instances: Sequence[str]) -> None:
        """A phase of parallel work (training, checkpoint, final evaluation) starts: one unit per instance."""

    def unit_changed(self, instance: str, text: str, *, done: bool = False) -> None:
        """What an instance's unit of the current phase is at (`done`: it finished, `text` says how)."""

    def phase_finished(self) -> None:
        """The current phase ended (finished, stopped or failed); called once per `phase_started`."""


class LoggingProgress:
    """The default: notices and finished units go to the `workers.driver` logger."""

    def notice(self, text: str, *, warning: bool = False) -> None:
        log.log(logging.WARNING if warning else logging.INFO, text)

    def phase_started(self, label: str, phase: str, instances: Sequence[str]) -> None:
        log.info("%s: %d instances", label, len(instances))

    def unit_changed(self, instance: str, text: str, *, done: bool = False) -> None:
        if done:
            log.info("%s %s", instance, text)

    def phase_finished(self) -> None:
        pass
