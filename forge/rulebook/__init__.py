"""The decision-context rulebook (DESIGN.md point 2), in rooms.

Where to look:
- what a rule means .............. language/   predicate (the trigger and `holds`, the gate's three-valued
                                               test), action (what it prescribes; `judge`), situation (what
                                               a context states), phases (attack phases in terms of what the
                                               defender sees), meaning (predicate + action). Pure functions.
- how a rule is stored ........... store/      the versioned compare-and-set store and its SQLite / Redis
                                               implementations (backends opens one), curation (dedupe, merge,
                                               supersede, conflict: pure), chains (a correction's versions).
                                   model.py    the records themselves: rules, versions, decision nodes, the
                                               compiler's output.
- why a rule was injected ........ retrieval/  retrieve (the gate for predicate rules, the BM25 + cosine
                                               floor for semantic ones), bm25, fusion, embed (which encoder a
                                               configuration gets; encoders/ holds them), resolve (precedence
                                               among the applying rules), calibrate (the floor); injection.py
                                               injects them into a call progressively.
- how a rule enters the book ..... authoring/  compile (the Rule Compiler; its prompt and reply schema are
                                               compiler_prompt.md and compiler_schema), checks (never wider than
                                               its text), sync (a memory compiled once),
                                               teaching (an operator's correction), trigger_node (the context
                                               a rule was forged from), step_corrections (a correction at a trace step).
- how a rule is judged ........... outcomes/   aftermath (followed / ignored / contradicted, and what
                                               happened next), efficacy, ablation, review.
- the facade ..................... book.py (the Rulebook: teach, query, withdraw, restore), query.py.
- rules kept as code ............. code/       rule files (YAML, a published JSON Schema), the plan of applying
                                               them (pure), apply by compare-and-set, rule tests, lint, YAML
                                               export (docs/rulebook-as-code.md); it stands on all of the above.

"Trigger" has one meaning per place: a rule's trigger *predicate* (language), the *decision node* it was
forged from (authoring.trigger_node), and the protocol's failure *trigger* (forge.failure, not here).

What the rest of FORGE calls:
    RulebookInjection(book, settings, *, scope, actor, window)      (`memory.injection: rulebook`; built per
                                                                    memory by forge.injection_factory)
    open_book(cfg, spec) / open_rulebook(spec) / Rulebook(store)   (the book, the store and their operations)
    add_correction(book, Correction(...), compiler_client=...)     (teach one correction: `forge rulebook add`)
    query_rules(book, context, settings, role=..., actor=...)      (what a context retrieves: `forge rulebook query`)
    MemorySync(book, compiler, FailureLibrary(run_dir)).sync(snapshot)   (compile a memory once)
Callers outside the rulebook import from this package or from a room's package, not from a room's modules.

Importing this package (or a room) loads nothing else: names are resolved on first use (PEP 562), so a
`forge rulebook query` that needs only the store and the encoder does not pay for the agents, the
compiler and gymnasium. The imports are spelled out (not looked up by name) so that
tests/test_import_layers.py sees them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from forge.rulebook.store.backends import DEFAULT_RULEBOOK, open_rulebook
    from forge.rulebook.book import Rulebook, open_book
    from forge.rulebook.injection import RulebookInjection
    from forge.rulebook.model import RulebookError
    from forge.rulebook.query import query_rules
    from forge.rulebook.authoring.teaching import Correction, add_correction

__all__ = ["DEFAULT_RULEBOOK", "Correction", "Rulebook", "RulebookError", "RulebookInjection", "add_correction", "open_book", "open_rulebook", "query_rules"]


def __getattr__(name: str) -> Any:
    # lazy: cold start (see the module docstring)
    if name == "RulebookInjection":
        from forge.rulebook import injection as home
    elif name == "RulebookError":
        from forge.rulebook import model as home
    elif name in ("Rulebook", "open_book"):
        from forge.rulebook import book as home
    elif name in ("Correction", "add_correction"):
        from forge.rulebook.authoring import teaching as home
    elif name == "query_rules":
        from forge.rulebook import query as home
    elif name in ("DEFAULT_RULEBOOK", "open_rulebook"):
        from forge.rulebook.store import backends as home
    else:
        raise AttributeError(f"module 'forge.rulebook' has no attribute {name!r}")
    return getattr(home, name)
