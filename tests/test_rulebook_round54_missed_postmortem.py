"""Round 54 (r54m): a post-mortem's order under its own heading ("Action items:", "Follow-up action:"), and a list entry
opened by an enumerator in brackets ("(1) when ..., Restore ..."), were no order the product read: the story before them
stood as the rule's words and its conditions were never read whole, so the rule stayed silent where its order applies."""

import pytest

from forge.rulebook.language.condition import semantic_claims
from forge.rulebook.language.order import gives_order
from forge.rulebook.language.predicate import truth
from forge.rulebook.language.situation import read_situation
from forge.rulebook.language.wording import read_wording

REFUSED = "predicate refused: host: the entry keeps to no host the text names"

NOTES = [
    ("Review of game 4. Summary: Enterprise1 got rooted at turn 9 while we were busy decoying users. Follow-up action: "
     "when Enterprise1 reads Compromised Privileged, Restore Enterprise1 right away.",
     "Alerts: Enterprise1: Activity None, Compromised Privileged", "Alerts: Enterprise1: Activity None, Compromised User"),
    ("Debrief, seed 12. Root cause: nobody watched the ops box. Action items: (1) when Op_Host2 is probed, place a "
     "DecoyApache on Op_Host2; (2) update the on-call sheet.",
     "Alerts: Op_Host2: Activity Scan, Compromised No", "Alerts: Op_Host1: Activity Scan, Compromised No"),
]


@pytest.mark.parametrize("text, applies, not_here", NOTES)
def test_the_order_under_a_post_mortem_heading_is_the_rule(text, applies, not_here):
    assert truth(semantic_claims(text, REFUSED), read_situation(applies)) is True
    assert truth(semantic_claims(text, REFUSED), read_situation(not_here)) is not True


def test_an_enumerated_entry_gives_its_order():
    assert gives_order("(2) when User4 is exploited, Remove User4")


def test_the_story_before_the_heading_is_none_of_the_rule():
    words = read_wording(NOTES[0][0])
    assert "busy decoying" not in words.instruction
