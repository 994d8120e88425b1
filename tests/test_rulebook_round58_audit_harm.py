"""Round 58, auditor r58a on r58h: readings wider than the words.

- an aside after a host's name that denies the state to every other host ("if User2 -- and no other box -- is
  scanned") is a condition on those hosts, not a restatement of the name: a trigger on that host alone is wider than
  the words and is refused;
- hosts set apart from a class and then denied in their turn ("anything other than op hosts stays untouched", "but
  never any other than the user hosts") make that class the only one of the rule, not one it leaves out: the claims
  at the gate never stand for the other classes' hosts, and a trigger on any host is refused;
- a class left out in a misspelt word ("other than the enterprize boxes", "excpet on the user machines") is left out
  as the claims read it, mended: read as written, the claims held only on the class the text leaves out.
"""

from __future__ import annotations

from forge.env.catalog import HOST_CLASSES
from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.condition import semantic_claims
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


def test_hosts_set_apart_and_denied_leave_their_class_the_only_one() -> None:
    from forge.rulebook.language.predicate import positive_hosts  # lazy: only this test reads hosts

    for said, cls in (("Reimage rooted boxes, but never any other than the enterprise boxes.", "Enterprise"),
                      ("DecoySSHD probed machines; anything other than user machines stays untouched.", "User"),
                      ("Remove a box that shows an exploit if it is an op box; boxes other than op boxes are left alone.",
                       "Operational")):
        found = semantic_claims(said, "predicate refused: claims", said)
        # silent, or held on that class's hosts alone: never on another class's
        assert found is None or not set(positive_hosts(found)) - set(HOST_CLASSES[cls]), said
    text = "DecoySSHD probed machines; anything other than user machines stays untouched."
    assert text_problem(text, {"class": "any", "activity": "Scan"},
                        {"mode": "do", "verb": "DecoySSHD", "target": "$matched"}) is not None


def test_a_class_left_out_in_a_misspelling_is_left_out() -> None:
    from forge.rulebook.language.predicate import positive_hosts  # lazy: only this test reads hosts

    for said, cls in (("DecoyApache every probed box other than the enterprize boxes.", "Enterprise"),
                      ("Reimage rooted machines, excpet on the user machines.", "User"),
                      ("Reimage rooted machines, exept for the user machines.", "User")):
        found = semantic_claims(said, "predicate refused: claims", said)
        # silent, or never held on a host of the class the text leaves out (read as written, only there)
        assert found is None or not set(positive_hosts(found)) & set(HOST_CLASSES[cls]), said
