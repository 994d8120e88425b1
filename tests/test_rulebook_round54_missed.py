"""Round 54 (r54m): rules kept semantic whose condition the product's readers could not read in full, so they stayed
silent where their words apply: a host set apart inside a bracketed aside ("(not the Defender though)", "(..., and never
User0)"), and a class said to be all the rule is for ("(user boxes only)"). Each is now read as exactly what it says:
the host left out, the class kept; and a reading that leaves the class out is no reading of the whole."""

import pytest

from forge.rulebook.language.condition import semantic_claims
from forge.rulebook.language.guard import complete_claims
from forge.rulebook.language.predicate import truth
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.situation import read_situation

REFUSED = "predicate refused: negation: the condition is negated or restricted"


def _holds(text: str, context: str):
    return truth(semantic_claims(text, REFUSED), read_situation(context))


ASIDES = [
    # a host denied at the start of the aside, with a filler word and a second clause that says the same
    ("Put a DecoyTomcat on enterprise boxes that show a scan (not the Defender though, skip that one).",
     "Alerts: Enterprise2: Activity Scan, Compromised No", "Alerts: Defender: Activity Scan, Compromised No"),
    # a host denied after the aside's other words
    ("Analyse a host once it is exploited (ent servers only, never Enterprise0).",
     "Alerts: Enterprise2: Activity Exploit, Compromised User", "Alerts: Enterprise0: Activity Exploit, Compromised User"),
]


@pytest.mark.parametrize("text, applies, left_out", ASIDES)
def test_a_host_set_apart_in_an_aside_is_left_out_and_the_rest_is_read(text, applies, left_out):
    assert _holds(text, applies) is True
    assert _holds(text, left_out) is not True


def test_a_class_said_alone_keeps_the_rule_to_that_class():
    text = "Analyse a host once it is exploited (ent servers only, never Enterprise0)."
    assert _holds(text, "Alerts: User1: Activity Exploit, Compromised User") is not True


def test_a_reading_that_drops_the_class_said_alone_is_not_the_whole():
    # the class stands in an aside of the order, not in its condition: claims of any host are wider than the words
    text = "Remove it (user boxes only) whenever a host reads Compromised Privileged."
    assert not complete_claims(text, rule_claims(text, with_instruction=True))
    assert _holds(text, "Alerts: Enterprise0: Activity None, Compromised Privileged") is not True


def test_a_denial_that_states_something_is_still_a_condition():
    # "not" with a state of the host is a condition of the rule, no aside that sets a host apart
    text = "Put a DecoyTomcat on enterprise boxes that show a scan (not when Enterprise1 is compromised)."
    assert _holds(text, "Alerts: Enterprise1: Activity Scan, Compromised User") is not True


def test_a_class_named_only_to_set_the_host_apart_is_no_class_of_its_claims():
    # "unlike a user box" names the User class to set the host apart from it: claims of the Enterprise class are whole
    text = "An ent server with an exploit on it, unlike a usr box -> rec Restore right away rather than Remove."
    assert complete_claims(text, rule_claims(text, with_instruction=True))
