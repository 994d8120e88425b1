"""Round 52 (r52e): a class named only as the name of a document ("the user-host procedures", "the enterprise side
policy") is no class the rule is about. The class check refused a faithful compilation about one server for not
keeping to the user hosts."""

import pytest

from forge.rulebook.authoring.checks import text_problem


@pytest.mark.parametrize("text, when, action", [
    ("Under the op-subnet standing orders, put a decoy on User2 once it is scanned.",
     {"host": "User2", "activity": "Scan"}, {"mode": "do", "verb": "DecoyApache", "target": "User2"}),
    ("Setting aside the enterprise side policy, restore User3 the moment it is owned.",
     {"host": "User3", "compromise": "any"}, {"mode": "do", "verb": "Restore", "target": "User3"}),
    ("In line with the user-box runbook, Op_Host1 is never to get a Remove.",
     {"host": "Op_Host1"}, {"mode": "never", "verb": "Remove", "target": "Op_Host1"}),
])
def test_a_class_that_only_names_a_document_is_no_class_of_the_rule(text, when, action):
    assert text_problem(text, when, action) is None


def test_a_class_named_beside_the_document_still_restricts():
    text = "Per the enterprise playbook, reimage every user host that is owned."
    problem = text_problem(text, {"class": "Enterprise", "compromise": "any"},
                           {"mode": "do", "verb": "Restore", "target": "$matched"})
    assert problem is not None


def test_what_a_rule_under_a_class_named_document_forbids_is_read():
    # (where disputes between teachers are settled, a semantic rule's prohibition is what its words forbid)
    from forge.rulebook.language.said import said_in_words

    found = said_in_words("Regardless of the op-side handbook, the Defender shall never Restore Enterprise0.")
    assert found is not None and found[1].mode == "never" and found[1].move.verb == "Restore"
