"""How rules enter the book: compiling artifacts and corrections into rules.

- compile: the Rule Compiler (grammar path and model path) and its contract
- sync: a memory snapshot compiled into the book once
- teaching: an operator's correction taught (add, step correction, override)
- trigger_node: the decision node a rule was forged from (the failure's context)
- anchor: a correction anchored at a recorded trace step

Names callers outside the rulebook use are exported here and resolved on first use (PEP 562), so
importing the room loads nothing until a name is needed (cold start).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from forge.rulebook.authoring.step_corrections import load_trace_step, step_source
    from forge.rulebook.authoring.compile import RuleCompiler, SourceItem, strip_justification, when_clause
    from forge.rulebook.authoring.sync import MemorySync
    from forge.rulebook.authoring.teaching import Correction, CorrectionNotTaught, add_correction, override_correction, step_correction, teach_text
    from forge.rulebook.authoring.trigger_node import FailureLibrary

__all__ = ["Correction", "CorrectionNotTaught", "FailureLibrary", "MemorySync", "RuleCompiler", "SourceItem", "add_correction", "load_trace_step", "override_correction", "step_correction", "step_source", "strip_justification", "teach_text", "when_clause"]


def __getattr__(name: str) -> Any:
    # lazy: cold start (see the module docstring)
    if name in ("load_trace_step", "step_source"):
        from forge.rulebook.authoring import step_corrections as home
    elif name in ("RuleCompiler", "SourceItem", "strip_justification", "when_clause"):
        from forge.rulebook.authoring import compile as home
    elif name == "MemorySync":
        from forge.rulebook.authoring import sync as home
    elif name in ("Correction", "CorrectionNotTaught", "add_correction", "override_correction", "step_correction", "teach_text"):
        from forge.rulebook.authoring import teaching as home
    elif name == "FailureLibrary":
        from forge.rulebook.authoring import trigger_node as home
    else:
        raise AttributeError(f"module 'forge.rulebook.authoring' has no attribute {name!r}")
    return getattr(home, name)
