"""What became of the models' replies, per role: used as they came, repaired, re-prompted, fallen back,
refused (the model refused or was blocked: a billed call with no reply, forge.llm.accounting.declined_reply).

The agents note each reply's fate (`UsageLedger.note_reply`); a unit's usage carries the counts per
role under `reply.<outcome>` and `reply.<outcome>: <reason>` keys, beside its token counts, so they
travel with the usage through the session ledger. These helpers read them back.
"""

from __future__ import annotations

from typing import Iterable, Mapping

OUTCOMES = ("used", "repaired", "reprompted", "fallback", "refused")
PREFIX = "reply."


def usage_keys(replies: Mapping[str, int]) -> dict[str, int]:
    """A ledger's reply counts for one role as usage keys."""
    return {PREFIX + key: n for key, n in replies.items()}


def replies_by_role(usages: Iterable[Mapping[str, Mapping[str, int]]]) -> dict[str, dict]:
    """role -> {"replies": n, "used": n, ..., "shares": {outcome: fraction}, "reasons": {"fallback: why": n}}
    over usages shaped `{role: {key: n}}`; roles with no noted reply are left out."""
    totals: dict[str, dict[str, int]] = {}
    for usage in usages:
        for role, counts in usage.items():
            for key, n in counts.items():
                if key.startswith(PREFIX):
                    slot = totals.setdefault(role, {})
                    slot[key[len(PREFIX):]] = slot.get(key[len(PREFIX):], 0) + int(n)
    table = {}
    for role, counts in sorted(totals.items()):
        replies = sum(counts.get(o, 0) for o in OUTCOMES)
        table[role] = {"replies": replies, **{o: counts.get(o, 0) for o in OUTCOMES},
                       "shares": {o: round(counts.get(o, 0) / replies, 4) if replies else 0.0 for o in OUTCOMES},
                       "reasons": {k: n for k, n in sorted(counts.items()) if ":" in k}}
    return table
