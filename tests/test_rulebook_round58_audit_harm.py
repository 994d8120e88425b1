"""Round 58, auditor r58a on r58h: readings wider than the words.

- an aside after a host's name that denies the state to every other host ("if User2 -- and no other box -- is
  scanned") is a condition on those hosts, not a restatement of the name: a trigger on that host alone is wider than
  the words and is refused.
"""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.forms import host_alone_aside_away


def test_an_aside_denying_the_state_to_other_hosts_is_a_condition_on_them() -> None:
    for said in ("When Enterprise0 -- and no other host -- gets scanned, Remove Enterprise0.",
                 "Restore User3 if User3 (and no other box) is exploited.",
                 "If Op_Host2 \u2014 and no other one \u2014 shows a scan, DecoyApache Op_Host2."):
        # the aside stays: what it says of the other hosts is part of the condition
        assert "no other" in host_alone_aside_away(said), said
    text = "When Enterprise0 -- and no other host -- gets scanned, Remove Enterprise0."
    assert text_problem(text, {"host": "Enterprise0", "activity": "Scan"},
                        {"mode": "do", "verb": "Remove", "target": "Enterprise0"}) is not None
    # (the asides that only restate the name still read on past it)
    assert host_alone_aside_away("If User4 (and only User4) is probed, Remove it.") == "If User4 is probed, Remove it."
