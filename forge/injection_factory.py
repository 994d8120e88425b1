"""The rulebook injection factory (`memory.injection: rulebook`): what `InstanceLearner(injection_factory=...)`
is handed, built beside the composition root (forge.wiring) because it composes: on each read of a memory
snapshot it compiles the snapshot's new items into the book (authoring), then hands back the per-call
delivery (forge.rulebook.injection.RulebookInjection) scoped to that memory.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Mapping, Optional

from forge.config import ForgeConfig, rulebook_location
from forge.failure.trigger import thresholds_of
from forge.llm.types import ChatClient
from forge.memory.model import MemorySnapshot
from forge.rulebook.authoring.compile import RuleCompiler
from forge.rulebook.authoring.sync import MemorySync
from forge.rulebook.authoring.trigger_node import FailureLibrary
from forge.rulebook.book import Rulebook, open_book
from forge.rulebook.injection import RulebookInjection, actor_of, scope_of
from forge.rulebook.retrieval.embed import Embedder
from forge.rulebook.retrieval.retrieve import RetrievalSettings


class RulebookInjectionFactory:
    """What `InstanceLearner(injection_factory=...)` takes for `memory.injection: rulebook`.

    Each call compiles the snapshot's new items into the rulebook at `rulebook_spec` (default
    `rulebook_location(cfg, run_dir)`: the session's own unless one is named), triggers from
    `<run_dir>/failures` (default `<runs_dir>/<session>` of the items' provenance), then injects the
    rules in the snapshot's scope plus human corrections. `actor` is the querying actor for conflict
    resolution (`<session>/<instance>`; default: whoever wrote most of the snapshot). `include_users`:
    operator (human) rules are injected too. `clients`: the session's model clients (the "compiler"
    one is used for artifacts outside the grammar), or a function that builds them on first need
    (what forge.wiring passes when it was given none: a memory of grammar rules never needs the
    compiler). The book is opened on first call and kept: the factory holds a store connection.
    """

    def __init__(
        self,
        cfg: ForgeConfig,
        rulebook_spec: Optional[str] = None,
        *,
        run_dir: Optional[str | Path] = None,
        actor: Optional[str] = None,
        clients: Mapping[str, ChatClient] | Callable[[], Mapping[str, ChatClient]],
        embedder: Optional[Embedder] = None,
        namespace: str = "forge",
        include_users: bool = True,
    ) -> None:
        self.cfg = cfg
        self.spec: str = rulebook_spec or rulebook_location(cfg, run_dir)
        self.run_dir: Optional[Path] = None if run_dir is None else Path(run_dir)
        self.actor = actor
        self.clients = clients
        self.embedder = embedder
        self.namespace = namespace
        self.include_users = include_users
        self.settings = RetrievalSettings.from_config(cfg.rulebook)
        self.window = cfg.rulebook.context_window
        self._book: Optional[Rulebook] = None

    @property
    def book(self) -> Rulebook:
        if self._book is None:
            self._book = open_book(self.cfg, self.spec, self.namespace, embedder=self.embedder)
        return self._book

    def compiler(self) -> RuleCompiler:
        source = self.clients() if callable(self.clients) else self.clients
        return RuleCompiler(source["compiler"])

    def failures_for(self, snapshot: MemorySnapshot) -> FailureLibrary:
        if self.run_dir is not None:
            return FailureLibrary(self.run_dir)
        sessions = {item.provenance.session for item in snapshot.items if item.provenance.session}
        if len(sessions) == 1:
            return FailureLibrary(Path(self.cfg.run.runs_dir) / sessions.pop())
        return FailureLibrary(None)

    def __call__(self, snapshot: MemorySnapshot, *, withheld: frozenset[str] = frozenset()) -> RulebookInjection:
        """The injection for `snapshot`; `withheld` rule ids are taken out of the book (an ablation)."""
        rulebook = self.book
        MemorySync(rulebook, self.compiler, self.failures_for(snapshot), window=self.window).sync(snapshot)
        return RulebookInjection(rulebook, self.settings, scope=scope_of(snapshot, withheld, self.include_users),
                                 actor=self.actor or actor_of(snapshot), window=self.window,
                                 aftermath_window=self.cfg.rulebook.aftermath_window,
                                 failure_threshold=min(thresholds_of(self.cfg.protocol.tau, self.cfg.protocol.thresholds)))
