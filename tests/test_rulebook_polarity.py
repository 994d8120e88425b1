"""Issue 29, tenth round: an order whose own clause holds a negation or a doubt that the reading places nowhere is
never compiled as a `do` (checks._unplaced_negation). Whether such a text orders the verb or turns it down is not
certain, so the predicate is refused and the rule kept semantic, where its own words are what reaches the agent.
The sentences are this file's own."""

import pytest

from forge.rulebook.authoring.checks import text_problem
from tests.actions import do


@pytest.mark.parametrize("text, when, action", [
    # a prohibition or a doubt phrased in words no pattern of the reader names
    ("When User3 is exploited, hardly anyone should restore User3.", {"host": "User3", "activity": "Exploit"},
     do("Restore", "User3")),
    ("When User3 is exploited, we shouldn't be so quick to restore User3.", {"host": "User3", "activity": "Exploit"},
     do("Restore", "User3")),
    ("If User1 shows an exploit, restoring User1 is the wrong reflex.", {"host": "User1", "activity": "Exploit"},
     do("Restore", "User1")),
    ("If Enterprise0 is compromised, restoring Enterprise0 is the last thing we want.",
     {"host": "Enterprise0", "compromise": "any"}, do("Restore", "Enterprise0")),
])
def test_an_order_with_a_negation_the_reading_places_nowhere_is_never_a_do(text, when, action):
    problem = text_problem(text, when, action)
    assert problem is not None and problem.startswith("polarity:"), problem


@pytest.mark.parametrize("text, when, action", [
    # "instead" names what is done in place of another: the order is the verb's own
    ("When User4 is compromised, restore User4 instead.", {"host": "User4", "compromise": "any"}, do("Restore", "User4")),
    # the writer's doubt is about the lesson, not the order
    ("I am not certain this holds everywhere, but when User1 shows an exploit, remove the attacker from User1.",
     {"host": "User1", "activity": "Exploit"}, do("Remove", "User1")),
    # a negation inside the condition is the condition's
    ("If User1 is not compromised, deploy DecoyApache on User1.", {"host": "User1", "compromise": "No"},
     do("DecoyApache", "User1")),
    # the negation belongs to another verb the reading placed
    ("Never restore User0; when it is compromised, remove the attacker from it.", {"host": "User0", "compromise": "any"},
     do("Remove", "User0")),
    ("If Enterprise2 shows an exploit, remove the attacker from Enterprise2.", {"host": "Enterprise2", "activity": "Exploit"},
     do("Remove", "Enterprise2")),
])
def test_an_order_whose_negations_are_placed_passes(text, when, action):
    assert text_problem(text, when, action) is None
