"""Round 53 (r53c, after r53a's audit): a later case that picks out one host of the note's class by name only to
withhold the note's move there ("...; if that host is Op_Host2, leave it alone") is the note's exception. Read as a case
beside the first, "that host is shown" was an alternative of the rule's condition, and the note's move held on the very
host its words keep it from, in any state."""

import pytest

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.wording import read_wording

RESTORE_MATCHED = {"mode": "do", "verb": "Restore", "target": "$matched"}


def _claimed_hosts(claim) -> set:
    parts = getattr(claim, "parts", (claim,))
    return {p.host for p in parts if getattr(p, "host", None)}


@pytest.mark.parametrize("text, host", [
    ("Restore each op box at root; if the box is Op_Host2, do nothing.", "Op_Host2"),
    ("Restore each op box at root. When that machine happens to be Op_Host1, leave it be.", "Op_Host1"),
    ("Restore each op box at root; if it is OpH0, never Restore it.", "Op_Host0"),
])
def test_a_host_named_only_to_withhold_the_move_is_the_notes_exception(text, host):
    assert host in read_wording(text).excepted
    assert host not in _claimed_hosts(rule_claims(text))


def test_the_class_trigger_that_keeps_the_withheld_host_is_refused():
    text = "Restore each op box at root; if the box is Op_Host2, do nothing."
    assert text_problem(text, {"class": "Operational", "compromise": "Privileged"}, RESTORE_MATCHED) is not None


def test_a_named_host_given_another_move_stays_a_narrower_case():
    # another move made there is the note speaking in that case, not an exception to it
    text = "Restore each op box at root; if the box is Op_Host2, Remove the attacker instead."
    assert read_wording(text).excepted == ()
