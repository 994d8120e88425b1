"""Attack phases as the defender sees them: the one mapping the compiler's contract and the gate share.

A model's reflection names phases ("during reconnaissance", "once the attacker escalates"), not table
values. Each phase here is what the blue table can show of it; the predicate language accepts
`{"phase": NAME}` and reads it as this predicate (predicate.py), and the compiler prompt lists the same
mapping (compile.py renders it into agents/prompts/compiler.md). Lateral movement is a phase of
history (a host newly compromised while a host of another subnet already is): one table cannot show
it, so it has no predicate here and goes in a rule's `unexpressed` part.
"""

from __future__ import annotations

import json

PHASES: dict[str, dict] = {
    "reconnaissance": {"class": "any", "activity": "Scan"},
    "exploitation": {"any": [{"class": "any", "activity": "Exploit"}, {"class": "any", "compromise": "User"}]},
    "privilege_escalation": {"class": "any", "compromise": "Privileged"},
    "impact": {"host": "Op_Server0", "compromise": "any"},
}
ALIASES = {"recon": "reconnaissance", "initial_access": "exploitation", "escalation": "privilege_escalation"}
NOT_A_TABLE_PHASE = {"lateral_movement": "a host newly compromised while a host of another subnet already is (history)"}


def phase_predicate(name: str) -> dict:
    """The predicate JSON of phase `name`; ValueError naming the phases for anything else."""
    folded = name.strip().lower().replace(" ", "_").replace("-", "_")
    key = ALIASES.get(folded, folded)
    if key in PHASES:
        return PHASES[key]
    why = NOT_A_TABLE_PHASE.get(key)
    raise ValueError(f"phase {name!r:.40} " + (f"is not shown by one table ({why}): list it in unexpressed" if why else
                                                f"is unknown (phases: {', '.join(PHASES)})"))


def phase_lines() -> str:
    """The mapping in the compiler prompt's words."""
    lines = [f'{{"phase": "{name}"}} = {json.dumps(p)}' for name, p in PHASES.items()]
    lines += [f"{name}: {why}; cannot be a predicate" for name, why in NOT_A_TABLE_PHASE.items()]
    return "; ".join(lines)
