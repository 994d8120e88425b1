"""An operator in an episode's loop (`forge episode --operator / --override`): overrides planned ahead or
answered at each step, each executed, taught at once as a correction anchored at its step, and recorded
in the episode's trace (`<run-dir>/traces/operator/<label>.json`), so nothing is lost if the episode is
interrupted.

Asking a person is the caller's: it passes `ask`, called before each action with the proposed decision
(None: accept, or the planned override for that step if there is one).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Mapping, Optional

from agents.defender import StepDecision
from forge.plumbing.redact import mask_urls_in
from forge.protocol.episode import EpisodeResult, Override
from forge.rulebook.authoring import Correction, CorrectionNotTaught, override_correction, step_source
from forge.rulebook.book import Rulebook


@dataclass(frozen=True)
class PlannedOverride:
    step: int
    action: int
    action_text: str
    reason: str


# (step, the proposed decision) -> the operator's override, or None to accept
Ask = Callable[[int, StepDecision], Optional[PlannedOverride]]


class OperatorLoop:
    """The `play_episode` operator. `book` opens the rulebook on the first override (an episode nobody
    overrides never opens it); `teach(book, correction)` teaches one, raising CorrectionNotTaught when it
    is dropped or refused (the override still runs; `on_not_taught` hears why)."""

    def __init__(self, *, book: Callable[[], Rulebook], teach: Callable[[Rulebook, Correction], object],
                 window: int, role: str, actor: str, seed: int, label: str, run_dir: Path,
                 planned: Mapping[int, PlannedOverride] = {}, ask: Optional[Ask] = None,
                 on_not_taught: Callable[[str], None] = lambda why: None) -> None:
        self._open_book, self._book = book, None
        self.teach, self.window, self.role, self.actor = teach, window, role, actor
        self.seed, self.label, self.run_dir = seed, label, run_dir
        self.planned, self.ask, self.on_not_taught = dict(planned), ask, on_not_taught
        self.observations: list[str] = []
        self.taught: list[str] = []  # "step N: ACTION" for each override taught

    def book(self) -> Rulebook:
        if self._book is None:
            self._book = self._open_book()
        return self._book

    def __call__(self, step: int, decision: StepDecision, view) -> Optional[Override]:
        self.observations.append(decision.observation)
        chosen = (self.ask(step, decision) if self.ask is not None else None) or self.planned.get(step)
        if chosen is None:
            return None
        self._teach(step, decision, chosen)
        return Override(chosen.action, chosen.reason)

    def _teach(self, step: int, decision: StepDecision, chosen: PlannedOverride) -> None:
        book = self.book()
        correction = override_correction(
            book, self.observations, self.window, [r for ids in decision.injected.values() for r in ids],
            decision.action_text, chosen.action_text, chosen.reason, self.role, self.actor,
            step_source("episodes", "operator", self.label, step, self.seed))
        try:
            self.teach(book, correction)
        except CorrectionNotTaught as exc:  # the override still runs; only the rule is missing
            self.on_not_taught(str(exc))
            return
        self.taught.append(f"step {step}: {chosen.action_text}")

    def write_trace(self, result: EpisodeResult) -> Path:
        """The episode's trace, as far as it went: the corrections' evidence cites it."""
        path = self.run_dir / "traces" / "operator" / f"{self.label}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        data = result.to_dict()
        data.update(instance="operator", session="episodes", label=self.label, memory_digest="")
        path.write_text(json.dumps(mask_urls_in(data), default=str))
        return path
