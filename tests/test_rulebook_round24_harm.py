"""Issue 29, twenty-fourth round (r24h, blind21's harms): a condition opened by "where" (or "wherever") before a
named host and its state ("Where Enterprise1 is at Unknown, ...") is the rule's condition, as "when" would be. Unread,
no condition was found, and a predicate that only asked that the host be shown passed the checks: the rule was wider
than its words. Sentences of our own, not the case files'."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.predicate import atoms_of
from forge.rulebook.language.wording import read_wording


def test_where_before_a_named_host_opens_the_condition():
    words = read_wording("Where Enterprise1 sits at Unknown, analyse Enterprise1 before removing anything.")
    assert [c.text for c in words.conditions] == ["Where Enterprise1 sits at Unknown"]


def test_wherever_before_a_host_in_shorthand_opens_the_condition():
    found = rule_claims("Wherever U3 shows an exploit, remove U3.", with_instruction=True, bare=False)
    assert found is not None
    atoms = [atom for atom, negated in atoms_of(found) if not negated]
    assert [(a.host, a.activity) for a in atoms] == [("User3", "Exploit")]


def test_a_predicate_that_drops_the_state_after_where_is_wider_than_its_words():
    text = "Where Enterprise1 sits at Unknown, run an Analyse on Enterprise1 rather than a Remove."
    problem = text_problem(text, {"host": "Enterprise1"},
                           {"mode": "prefer", "verb": "Analyse", "target": "Enterprise1",
                            "over": {"verb": "Remove", "target": "Enterprise1"}})
    assert problem is not None and problem.startswith("bare:")


def test_a_predicate_with_the_state_after_where_passes():
    text = "Where Enterprise1 sits at Unknown, run an Analyse on Enterprise1 rather than a Remove."
    assert text_problem(text, {"host": "Enterprise1", "compromise": "Unknown"},
                        {"mode": "prefer", "verb": "Analyse", "target": "Enterprise1",
                         "over": {"verb": "Remove", "target": "Enterprise1"}}) is None


def test_where_as_a_place_is_no_condition():
    # (guard: "where" before no host and state, "the subnet where the decoys go", opens nothing)
    words = read_wording("Put a DecoyApache on User2, in the subnet where the decoys go.")
    assert words.conditions == [] or all("where" not in c.text.lower() for c in words.conditions)
