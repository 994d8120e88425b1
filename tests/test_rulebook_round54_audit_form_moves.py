"""Round 54 (r54b): an audit of r54m's notes on the reply's form (compile._PLACED_IN_REPLY, compile._FORM_HEADING) at
their edges. A FORMAT rule holds on every call of its role; a part of the reply given its place in every one is its form
only where that part is no move, host or state ("Remove comes first in every plan" orders a Remove in every plan), and a
note under a heading of the reply that orders a move by a word of acting ("containment first", "quarantine always") is no
form either."""

import pytest

from forge.rulebook.authoring.compile import looks_like_format


@pytest.mark.parametrize("text", [
    "Remove comes first in every plan.",
    "A Decoy goes at the top of every plan.",
    "Sleep comes last in each plan.",
    "Enterprise2 goes at the top of every report.",
    "Containment comes first in every plan.",
    "planner plans: two steps, containment first",
    "chooser answers: quarantine always",
])
def test_a_move_or_host_placed_in_the_reply_is_no_form(text):
    assert not looks_like_format(text)


@pytest.mark.parametrize("text", [
    "The verdict comes last in each summary.",
    "the host's name goes at the top of every report",
    "planner plans: four moves max",
])
def test_a_part_of_the_reply_placed_in_it_is_still_form(text):
    assert looks_like_format(text)
