"""Progressive injection of rulebook rules (`memory.injection: rulebook`).

Stage 1, at `start_episode(initial_context)`: every FORMAT rule of a role, plus the CONTENT rules the
initial context triggers, go to that role through the user channel: a prepended user/assistant pair
(the user message lists them under `## Learned rules`, one `- ` line each, so any model, the surrogate
included, reads them as learned rules; the assistant acknowledges).

Stage 2+, at each `for_call(role, context)`: re-retrieval against the call's context and the episode's
accumulated context (the last `rulebook.context_window` Planner observations: the same window the
trigger nodes were embedded with); the role's triggered rules that stage 1 did not already deliver go
into that call's system prompt, as items whose ids name the rule version (`<rule id>@v<n>`). Nothing
triggered, nothing injected.

The index is checked against the book head at every call, so a rule withdrawn mid-episode is never
injected again.
"""

from __future__ import annotations

from collections import deque
from typing import Optional, Sequence

import numpy as np

from agents.injection import InjectedItem, InjectedMemory
from agents.prompting import RULES_HEADER
from forge.config import ROLES
from forge.llm.types import Message
from forge.memory.model import MemorySnapshot
from forge.rulebook.outcomes.aftermath import BookNotes, EpisodeNotes, StepSeen, episode_aftermath
from forge.rulebook.book import Rulebook
from forge.rulebook.retrieval.embed import Embedder, mean_direction
from forge.rulebook.language.meaning import in_words, meaning_of
from forge.rulebook.model import RuleType, RuleVersion
from forge.rulebook.retrieval.resolve import Scope
from forge.rulebook.retrieval.retrieve import RetrievalSettings, RuleIndex
from forge.rulebook.authoring.sync import memory_actor

ACKNOWLEDGEMENT = "Understood. I will follow these rules whenever they apply."
ACCUMULATING_ROLES = ("planner",)  # the Planner's observation is the step's decision context


def stage_one_pair(versions: list[RuleVersion]) -> tuple[Message, ...]:
    if not versions:
        return ()
    body = "\n".join(f"- {in_words(v.record).strip()}" for v in versions)
    return (Message("user", f"{RULES_HEADER}\n{body}"), Message("assistant", ACKNOWLEDGEMENT))


class RulebookInjection:
    mode = "rulebook"

    def __init__(
        self,
        book: Rulebook,
        settings: RetrievalSettings,
        *,
        scope: Optional[Scope] = None,
        actor: Optional[str] = None,
        window: int = 4,
        embedder: Optional[Embedder] = None,
        aftermath_window: int = 3,
        failure_threshold: float = -1.1,
    ) -> None:
        self.book = book
        self.aftermath_window = aftermath_window
        self.failure_threshold = failure_threshold
        self._seen: dict[str, RuleVersion] = {}  # every rule version injected this episode, by ref
        self.settings = settings
        self.scope = scope
        self.actor = actor
        self.window = max(window, 0)
        self.embedder = embedder or book.embedder
        # Texts, not vectors: a Planner observation is embedded only if some later call has rules to
        # search (most calls of most roles have none), and then from the embedder's cache.
        self._recent: deque[str] = deque(maxlen=self.window or None)
        self._prefix: dict[str, tuple[Message, ...]] = {}
        self._prefix_ids: dict[str, tuple[str, ...]] = {}
        self._stage_one: dict[str, set[str]] = {}
        self._index: Optional[RuleIndex] = None

    def _current_index(self) -> RuleIndex:
        if self._index is None or self._index.book_version != self.book.book_version():
            self._index = self.book.index(self.scope)
            self._drop_withdrawn_from_stage_one()
        return self._index

    def _drop_withdrawn_from_stage_one(self) -> None:
        index = self._index
        for role, ids in list(self._stage_one.items()):
            alive = [rid for rid in ids if rid in index.versions]
            if len(alive) != len(ids):
                self._stage_one[role] = set(alive)
                self._prefix[role] = stage_one_pair([index.versions[rid] for rid in alive])
                self._prefix_ids[role] = tuple(index.versions[rid].ref for rid in alive)

    def _deliver(self, role: str, chosen: list[RuleVersion]) -> None:
        self._stage_one[role] = {v.rule_id for v in chosen}
        self._prefix[role] = stage_one_pair(chosen)
        self._prefix_ids[role] = tuple(v.ref for v in chosen)
        self._seen.update((v.ref, v) for v in chosen)

    def start_episode(self, initial_context: str) -> None:
        self._recent.clear()
        self._prefix, self._stage_one, self._prefix_ids, self._seen = {}, {}, {}, {}
        index = self._current_index()
        for role in ROLES:
            chosen = list(index.format_for(role))
            if index.could_apply(initial_context, role, self.settings):
                query, _ = self._vectors(index, role, initial_context, [])
                found = index.search(initial_context, query, query, role, self.settings, self.actor)
                chosen += [index.versions[rid] for rid in found.selected]
            self._deliver(role, chosen)

    def _vectors(self, index: RuleIndex, role: str, context: str, recent: list[str]) -> tuple[np.ndarray, np.ndarray]:
        """The context's vector and the accumulated one (the unit mean with the recent Planner
        observations), each text embedded once (the embedder's cache); zero vectors when the scores
        cannot change the selection (RuleIndex.needs_scores), so no forward pass is spent on them."""
        if not index.needs_scores(context, role, self.settings, self.actor):
            zero = np.zeros(index.dim, dtype=np.float32)
            return zero, zero
        vectors = self.embedder.encode_cached([*recent, context])
        return vectors[-1], mean_direction(vectors)

    def stage_one_ids(self, role: str) -> frozenset[str]:
        """The rule ids delivered to `role` through the stage-1 pair (FORMAT rules and initial triggers)."""
        return frozenset(self._stage_one.get(role, ()))

    def for_call(self, role: str, context: str) -> InjectedMemory:
        index = self._current_index()
        if role not in self._prefix:  # no start_episode yet: FORMAT rules still reach every call of their role
            self._deliver(role, list(index.format_for(role)))
        prefix = self._prefix.get(role, ())
        prefix_ids = self._prefix_ids.get(role, ())
        recent = list(self._recent)
        if role in ACCUMULATING_ROLES and self.window:
            self._recent.append(context)
        if not index.could_apply(context, role, self.settings):
            return InjectedMemory(prefix=prefix, prefix_ids=prefix_ids)
        query, accumulated = self._vectors(index, role, context, recent)
        found = index.search(context, query, accumulated, role, self.settings, self.actor)
        delivered = self._stage_one.get(role, set())
        fresh = [index.versions[rid] for rid in found.selected if rid not in delivered]
        self._seen.update((v.ref, v) for v in fresh)
        items = tuple(InjectedItem(v.ref, "rule", in_words(v.record)) for v in fresh)
        return InjectedMemory(items=items, prefix=prefix, prefix_ids=prefix_ids)

    def annotate_episode(self, steps: Sequence[StepSeen], *, complete: bool) -> EpisodeNotes:
        """What the trace keeps of this episode's rulebook (the episode runner calls it at the end):
        the book version, the CONTENT rules that could have been injected, and the aftermath of every
        injection (aftermath.py)."""
        index = self._current_index()
        meanings = {ref: meaning_of(v.record) for ref, v in self._seen.items()}
        entries = episode_aftermath(steps, meanings, window=self.aftermath_window,
                                    threshold=self.failure_threshold, complete=complete)
        eligible = sorted(v.rule_id for v in index.versions.values() if v.record.type == RuleType.CONTENT)
        book = BookNotes(index.book_version, self.aftermath_window, self.failure_threshold, tuple(eligible),
                         tuple(sorted(self.scope.withheld)) if self.scope else ())
        return EpisodeNotes(book, tuple(entries))


def scope_of(snapshot: MemorySnapshot, withheld: frozenset[str] = frozenset(), include_users: bool = True) -> Scope:
    return Scope(frozenset(item.id for item in snapshot.items), include_users=include_users, withheld=frozenset(withheld))


def actor_of(snapshot: MemorySnapshot) -> Optional[str]:
    """The instance whose memory this is, by who wrote most of it (None for an empty memory)."""
    counts: dict[str, int] = {}
    for item in snapshot.items:
        counts[memory_actor(item)] = counts.get(memory_actor(item), 0) + 1
    return max(sorted(counts), key=counts.get) if counts else None
