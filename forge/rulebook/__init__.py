"""The decision-context rulebook (DESIGN.md point 2).

Learned artifacts (FORGE reflections, worked examples, human corrections) are compiled into bare RULE
directives with a meaning: a trigger predicate and an action (compile.py; predicate.py, action.py,
meaning.py) and kept in a versioned typed graph (model.py, store.py; backends.py opens SQLite or Redis,
book.py; teaching.py for text corrections), maintained by pure functions (maintain.py: merge, supersede
and conflict by meaning). At a decision, a rule applies when its predicate holds on what the context
states (situation.py) or, for a semantic rule, when hybrid BM25 + cosine retrieval scores it above the
floor (bm25.py, fusion.py, retrieve.py, embed.py); conflicts are settled among the applying rules only
(resolve.py), and rules are injected progressively (injection.py).

What the rest of FORGE calls:
    rulebook_injection_factory(cfg, rulebook_spec, *, run_dir, actor, clients)    (forge.wiring builds it)
        -> Callable[[MemorySnapshot], MemoryInjection]      (`memory.injection: rulebook`)
    open_book(cfg, spec) / open_rulebook(spec) / Rulebook(store)   (the book, the store and their operations)
    add_correction(book, Correction(...), compiler_client=...)     (teach one correction: `forge rulebook add`)
    query_rules(book, context, settings, role=..., actor=...)      (what a context retrieves: `forge rulebook query`)
    MemorySync(book, compiler, FailureLibrary(run_dir)).sync(snapshot)   (compile a memory once)

Importing this package loads nothing else: the names below are resolved on first use (PEP 562), so a
`forge rulebook query` that needs only the store and the encoder does not pay for the agents, the
compiler and gymnasium (~0.2 s of a cold CLI start). The imports are spelled out (not looked up by
name) so that tests/test_import_layers.py sees them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from forge.rulebook.backends import DEFAULT_RULEBOOK, open_rulebook
    from forge.rulebook.book import Rulebook, open_book
    from forge.rulebook.injection import RulebookInjection, rulebook_injection_factory
    from forge.rulebook.model import RulebookError
    from forge.rulebook.query import query_rules
    from forge.rulebook.teaching import Correction, add_correction

__all__ = ["DEFAULT_RULEBOOK", "Correction", "Rulebook", "RulebookError", "RulebookInjection", "add_correction",
           "open_book", "open_rulebook", "query_rules", "rulebook_injection_factory"]


def __getattr__(name: str) -> Any:
    # lazy: cold start (see the module docstring)
    if name in ("RulebookInjection", "rulebook_injection_factory"):
        from forge.rulebook import injection as home
    elif name == "RulebookError":
        from forge.rulebook import model as home
    elif name in ("Rulebook", "open_book"):
        from forge.rulebook import book as home
    elif name in ("Correction", "add_correction"):
        from forge.rulebook import teaching as home
    elif name == "query_rules":
        from forge.rulebook import query as home
    elif name in ("DEFAULT_RULEBOOK", "open_rulebook"):
        from forge.rulebook import backends as home
    else:
        raise AttributeError(f"module 'forge.rulebook' has no attribute {name!r}")
    return getattr(home, name)
