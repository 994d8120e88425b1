"""How a rule is stored and maintained: the versioned graph and the pure maintenance decisions.

- store: the versioned compare-and-set store interface (RulebookStore)
- sqlite_store / redis_store: its two implementations; backends: opens one from a spec
- curation: dedupe, merge, supersede and conflict, by meaning (pure)
- chains: a correction's chain of versions

Names callers outside the rulebook use are exported here and resolved on first use (PEP 562), so
importing the room loads nothing until a name is needed (cold start).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from forge.rulebook.store.backends import open_rulebook
    from forge.rulebook.store.chains import correction_chain

__all__ = ["correction_chain", "open_rulebook"]


def __getattr__(name: str) -> Any:
    # lazy: cold start (see the module docstring)
    if name == "open_rulebook":
        from forge.rulebook.store import backends as home
    elif name == "correction_chain":
        from forge.rulebook.store import chains as home
    else:
        raise AttributeError(f"module 'forge.rulebook.store' has no attribute {name!r}")
    return getattr(home, name)
