"""Round 60 audit of r60m's readers (r60b): where a new reader read more than the words, or their opposite, on sentences
it was not written from; each class with the neighbours it must still read."""
from __future__ import annotations

from forge.rulebook.authoring.compile import content_meaning


def _problem(text: str, when: dict, action: dict, unexpressed: str = "") -> str:
    return content_meaning(text, when, action, unexpressed).problem


# -- a purpose said first that tells of a host's state (checks._purpose_state_said) -----------------------------------------

def test_a_purpose_that_tells_of_a_state_hides_no_host_from_the_checks():
    # the purpose's rooted User1 is either the case or the danger headed off: a Restore of Op_Server0 on its own root
    # passed once the purpose was cut away
    text = "To guard Op_Server0 against a rooted User1, restore Op_Server0."
    assert _problem(text, {"host": "Op_Server0", "compromise": "Privileged"},
                    {"mode": "do", "verb": "Restore", "target": "Op_Server0"})
    text = "To shield Op_Server0 from a compromised Enterprise1, decoy Op_Server0."
    assert _problem(text, {"host": "Op_Server0", "compromise": "any"},
                    {"mode": "do", "verb": "DecoyApache", "target": "Op_Server0"})


def test_a_purpose_that_tells_of_a_foothold_keeps_the_bare_host_out():
    text = "To deny red the foothold it has on User4, remove User4."
    assert _problem(text, {"host": "User4"}, {"mode": "do", "verb": "Remove", "target": "User4"})
    # guard: r60m's reading stands where the purpose names no state
    text = "To make sure User2 stays unscanned, decoy User2."
    assert _problem(text, {"host": "User2"}, {"mode": "do", "verb": "DecoyApache", "target": "User2"}) == ""
