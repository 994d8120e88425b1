"""Collecting a run's calibration labels by playing it (`forge rulebook calibrate RUN_DIR`): frozen
episodes of its memory under rulebook injection, recording every context the agents asked the rulebook
about. How those contexts are labelled and scored, and how the floor is chosen from them, is the
method in forge.rulebook.retrieval.calibrate; this module only plays the episodes, which is why it
lives above the protocol."""

from __future__ import annotations

from typing import Callable, Mapping, Optional, Sequence

from forge.protocol.inner_loop import InstanceLearner
from forge.rulebook.book import Rulebook
from forge.rulebook.authoring import FailureLibrary, MemorySync, RuleCompiler
from forge.rulebook.injection import RulebookInjection, scope_of
from forge.rulebook.outcomes.aftermath import EpisodeNotes, StepSeen
from forge.rulebook.retrieval import Calibration, RetrievalSettings, choose_floor, labelled_scores
from forge.rulebook.retrieval.calibrate import AskedContext
from forge.plumbing.seeding import derive_seed
from forge.wiring import RunMemory


class RecordingInjection:
    """Delegates to an injection and remembers every context it was asked about."""

    def __init__(self, inner, window: int) -> None:
        self.inner = inner
        self.mode = inner.mode
        self.window = window
        self.asked: list[AskedContext] = []
        self._recent: list[str] = []

    def start_episode(self, initial_context: str) -> None:
        self._recent = []
        self.inner.start_episode(initial_context)

    def for_call(self, role: str, context: str):
        self.asked.append(AskedContext(role, context, tuple(self._recent[-self.window:] if self.window else ())))
        if role == "planner":
            self._recent.append(context)
        return self.inner.for_call(role, context)

    def annotate_episode(self, steps: Sequence[StepSeen], *, complete: bool) -> EpisodeNotes:
        return EpisodeNotes()  # calibration episodes measure retrieval; their traces are no rulebook evidence


def calibrate_run(found: RunMemory, book: Rulebook, clients: Mapping[str, object], *, episodes: int,
                  target_recall: float, on_episode: Optional[Callable[[], None]] = None) -> Calibration:
    """The relevance floor for the memory `found`: compile it into `book`, play `episodes` frozen
    episodes recording what the agents asked, and choose the floor at `target_recall`."""
    cfg = found.cfg
    snapshot = found.snapshot()
    window = cfg.rulebook.context_window
    MemorySync(book, lambda: RuleCompiler(clients["compiler"]), FailureLibrary(found.run.path), window=window).sync(snapshot)
    settings = RetrievalSettings.from_config(cfg.rulebook)
    injection = RecordingInjection(RulebookInjection(book, settings, scope=scope_of(snapshot), actor=found.actor,
                                                     window=window), window)
    learner = InstanceLearner(instance=found.instance, session=found.session, cfg=cfg, clients=clients, memory=found.memory)
    for i in range(episodes):
        learner.play_frozen(derive_seed(cfg.protocol.seed, "calibrate", i), label=f"calibrate-{i}", injection=injection)
        if on_episode:
            on_episode()
    positive, negative = labelled_scores(book.index(scope_of(snapshot)), injection.asked, book.embedder, settings.node_weight)
    return choose_floor(positive, negative, target_recall)
