"""Calibrating a run's relevance floor (`forge rulebook calibrate RUN_DIR`): play frozen episodes of its
memory under rulebook injection and score what the agents asked (the method and the pure parts are in
forge/rulebook/retrieval/calibrate.py). Lives above the protocol because it plays episodes."""

from __future__ import annotations

from typing import Callable, Mapping, Optional

from forge.protocol.inner_loop import InstanceLearner
from forge.rulebook.book import Rulebook
from forge.rulebook.retrieval import Calibration, RecordingInjection, choose_floor, labelled_scores
from forge.rulebook.authoring import RuleCompiler
from forge.rulebook.injection import RulebookInjection, scope_of
from forge.rulebook.retrieval import RetrievalSettings
from forge.rulebook.authoring import MemorySync
from forge.rulebook.authoring import FailureLibrary
from forge.seeding import derive_seed
from forge.wiring import RunMemory


def calibrate_run(found: RunMemory, book: Rulebook, clients: Mapping[str, object], *, episodes: int,
                  target_recall: float, on_episode: Optional[Callable[[], None]] = None) -> Calibration:
    """Steps 1-3 of forge/rulebook/retrieval/calibrate.py's docstring for the memory `found`."""
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
