"""Where a test reaches into a session: the hooks the driver is given, whose defaults do nothing.

A real session runs with `SessionHooks()`. Reliability tests pass hooks that make workers and the driver
die at chosen points (workers/chaos.py); nothing else in the product knows they exist. The driver calls
the hooks at a stage's durable boundaries (forge.protocol.phases.STAGE_BOUNDARIES), when a unit's result
is in, and asks, per unit, what its worker should run after each attempt or episode (a callable Ray
pickles to the worker; None: nothing).
"""

from __future__ import annotations

from typing import Callable, Optional

AfterStep = Callable[[], None]


class SessionHooks:
    """The hooks of a session that nobody reaches into: each one does nothing."""

    def after_step(self, instance: str, phase: str, stage: int) -> Optional[AfterStep]:
        """What the worker running `instance`'s unit (`phase` of `stage`; 0 for the final evaluation) calls
        after each of its attempts or episodes."""
        return None

    def at(self, boundary: str, stage: int) -> None:
        """The driver has made `boundary` of `stage` durable (forge.protocol.phases.STAGE_BOUNDARIES)."""

    def unit_done(self, instance: str, phase: str, stage: int) -> None:
        """A unit's result is in and written."""

    def warnings(self) -> list[str]:
        """What the session says about its hooks when it ends (e.g. a planned fault whose work never ran)."""
        return []
