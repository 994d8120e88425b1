"""How a rule is judged: what happened after its injections.

- aftermath: followed / ignored / contradicted, and what happened next, per injection
- efficacy: per-rule rates and paired differences
- ablation: each triggered rule withheld in turn on the same seeds
- review: the efficacy report and the rules that need a person

Names callers outside the rulebook use are exported here and resolved on first use (PEP 562), so
importing the room loads nothing until a name is needed (cold start).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from forge.rulebook.outcomes.ablation import play_ablations, rules_to_ablate
    from forge.rulebook.outcomes.aftermath import StepSeen
    from forge.rulebook.outcomes.efficacy import paired_difference, session_rule_rates
    from forge.rulebook.outcomes.review import VerdictSettings, efficacy_report, interval_text, needs_review, record_efficacy, runs_with_traces

__all__ = ["StepSeen", "VerdictSettings", "efficacy_report", "interval_text", "needs_review", "paired_difference", "play_ablations", "record_efficacy", "rules_to_ablate", "runs_with_traces", "session_rule_rates"]


def __getattr__(name: str) -> Any:
    # lazy: cold start (see the module docstring)
    if name in ("play_ablations", "rules_to_ablate"):
        from forge.rulebook.outcomes import ablation as home
    elif name == "StepSeen":
        from forge.rulebook.outcomes import aftermath as home
    elif name in ("paired_difference", "session_rule_rates"):
        from forge.rulebook.outcomes import efficacy as home
    elif name in ("VerdictSettings", "efficacy_report", "interval_text", "needs_review", "record_efficacy", "runs_with_traces"):
        from forge.rulebook.outcomes import review as home
    else:
        raise AttributeError(f"module 'forge.rulebook.outcomes' has no attribute {name!r}")
    return getattr(home, name)
