"""Which rules a decision context retrieves, with every score: what `forge rulebook query` shows.

One call: the book's index over every rule, the context embedded once (timed, embedding included),
the search with the candidates explained, and the FORMAT rules the role would also get.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Optional

from forge.rulebook.book import Rulebook
from forge.rulebook.model import RuleVersion
from forge.rulebook.retrieval.retrieve import Retrieval, RetrievalSettings, RuleIndex


@dataclass(frozen=True)
class QueryResult:
    index: RuleIndex
    retrieval: Retrieval
    formats: tuple[RuleVersion, ...]  # FORMAT rules for the role (routed separately, not searched)
    settings: RetrievalSettings
    elapsed_ms: float  # embedding the context and searching

    @property
    def injected(self) -> list[RuleVersion]:
        """The rules the search selects, as they would be injected."""
        return [self.index.versions[rule_id] for rule_id in self.retrieval.selected]


def query_rules(book: Rulebook, context: str, settings: RetrievalSettings, *, role: Optional[str] = None,
                actor: Optional[str] = None, explain: int = 10) -> QueryResult:
    """Search every rule of `book` for `context` as `role` (None: any role) would, with `actor` for
    conflict resolution; the `explain` best candidates keep their scores."""
    index = book.index(None)
    formats = tuple(v for v in index.format_rules if role is None or role in v.record.roles)
    embedder = book.embedder
    known = getattr(embedder, "known_vector", None)  # a context embedded before, by any process: no model load
    started = time.perf_counter()
    vector = known(context) if known is not None else None
    if vector is None:
        embedder.prepare()  # loading the model is not part of the query's time
        started = time.perf_counter()
        vector = embedder.encode_one(context)
    retrieval = index.search(context, vector, vector, role, settings, actor, explain=max(explain, 0))
    return QueryResult(index, retrieval, formats, settings, (time.perf_counter() - started) * 1000)
