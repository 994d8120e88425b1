"""Why a rule was injected: which rules reach a decision, and in what order.

- retrieve: the gate (predicate rules) and the hybrid BM25 + cosine floor (semantic rules)
- bm25, fusion: lexical scoring and reciprocal rank fusion
- embed: the sentence encoders behind the cosine score
- resolve: conflicts among the applying rules (own actor, then evidence, else abstain)
- calibrate: choosing the semantic floor from labelled contexts

Names callers outside the rulebook use are exported here and resolved on first use (PEP 562), so
importing the room loads nothing until a name is needed (cold start).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from forge.rulebook.retrieval.calibrate import Calibration, choose_floor, labelled_scores
    from forge.rulebook.retrieval.embed import DEFAULT_ENCODER, ENCODERS, Embedder, EmbeddingError, embedder_from_config, local_embedder
    from forge.rulebook.retrieval.resolve import PRECEDENCE
    from forge.rulebook.retrieval.retrieve import RetrievalSettings

__all__ = ["Calibration", "DEFAULT_ENCODER", "ENCODERS", "Embedder", "EmbeddingError", "PRECEDENCE", "RetrievalSettings", "choose_floor", "embedder_from_config", "labelled_scores", "local_embedder"]


def __getattr__(name: str) -> Any:
    # lazy: cold start (see the module docstring)
    if name in ("Calibration", "choose_floor", "labelled_scores"):
        from forge.rulebook.retrieval import calibrate as home
    elif name in ("DEFAULT_ENCODER", "ENCODERS", "Embedder", "EmbeddingError", "embedder_from_config", "local_embedder"):
        from forge.rulebook.retrieval import embed as home
    elif name == "PRECEDENCE":
        from forge.rulebook.retrieval import resolve as home
    elif name == "RetrievalSettings":
        from forge.rulebook.retrieval import retrieve as home
    else:
        raise AttributeError(f"module 'forge.rulebook.retrieval' has no attribute {name!r}")
    return getattr(home, name)
