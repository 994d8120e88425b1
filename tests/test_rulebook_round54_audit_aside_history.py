"""Round 54 (r54b): an audit of r54m's bracketed aside read as an exception (instruction.EXCEPTED_ASIDE,
guard._aside_left_out). Beside the aside, the claims lose a condition's history ("if it stayed rooted for 3 steps (not
User2)" read as any other user box rooted); the aside placed, those claims stood for the whole of it, and the rule fired
on a host rooted that very step. An aside is placed only where the claims hold the history the condition says."""

import pytest

from forge.rulebook.language.condition import semantic_claims
from forge.rulebook.language.predicate import truth
from forge.rulebook.language.situation import read_situation

_REASON = "compiled as written: the compiler dropped an instruction (not an instruction)"


@pytest.mark.parametrize("text", [
    "Restore any rooted user box if it stayed rooted for 3 steps (not User2).",
    "Restore any rooted user box once it was scanned before (never User2).",
    # (and a state: the claims beside the aside lost "being exploited")
    "Restore any rooted user box while it is being exploited (not User2).",
])
def test_an_aside_is_no_licence_to_drop_the_conditions_state_or_history(text):
    found = semantic_claims(text, _REASON, text)
    assert truth(found, read_situation("Alerts:\nUser1: Activity None, Compromised Privileged")) is not True


def test_an_aside_beside_a_plain_condition_still_leaves_its_host_out():
    text = "Restore a user box once it is rooted (not User2 though)."
    found = semantic_claims(text, _REASON, text)
    assert truth(found, read_situation("Alerts:\nUser2: Activity None, Compromised Privileged")) is not True


def test_an_aside_that_goes_on_to_leave_another_host_out_is_read_whole_or_not_at_all():
    text = "Restore any rooted user box when it is rooted (not User2 though, nor User3)."
    found = semantic_claims(text, _REASON, text)
    assert truth(found, read_situation("Alerts:\nUser3: Activity None, Compromised Privileged")) is not True
