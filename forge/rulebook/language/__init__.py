"""The rule language: what a rule means, pure functions only.

- predicate: trigger predicates over a decision's situation, and `holds` (the gate's test)
- action: a rule's prescribed or prohibited action; `judge` (followed / ignored / contradicted)
- situation: what a context states (the blue table read into hosts, activity, compromise)
- meaning: a rule's meaning (predicate + action), read from the grammar or compiled JSON

Names callers outside the rulebook use are exported here and resolved on first use (PEP 562), so
importing the room loads nothing until a name is needed (cold start).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from forge.rulebook.language.action import judge, rule_action_to_json
    from forge.rulebook.language.meaning import meaning_of
    from forge.rulebook.language.predicate import describe, matched_hosts, predicate_to_json
    from forge.rulebook.language.situation import read_situation

__all__ = ["describe", "judge", "matched_hosts", "meaning_of", "predicate_to_json", "read_situation", "rule_action_to_json"]


def __getattr__(name: str) -> Any:
    # lazy: cold start (see the module docstring)
    if name in ("judge", "rule_action_to_json"):
        from forge.rulebook.language import action as home
    elif name == "meaning_of":
        from forge.rulebook.language import meaning as home
    elif name in ("describe", "matched_hosts", "predicate_to_json"):
        from forge.rulebook.language import predicate as home
    elif name == "read_situation":
        from forge.rulebook.language import situation as home
    else:
        raise AttributeError(f"module 'forge.rulebook.language' has no attribute {name!r}")
    return getattr(home, name)
