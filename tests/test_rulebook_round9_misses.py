"""Issue 29, ninth round, misses: correct compilations refused by the checks (a refused rule is kept semantic, and
silent where the product's reading of its words is not whole). Each class on sentences written for these tests;
beside each, a wider compilation the checks must still refuse.

- The teacher's doubt or resolve before the colon that opens the lesson ("I can't be certain it would have changed
  anything, but my rule is: ...") was read as the rule's situation, and its "not" / "nothing" as a negated condition.
"""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.wording import read_wording


def check(text: str, when, action) -> str | None:
    return text_problem(text, when, action)


# -- the teacher's view before the lesson ---------------------------------------------------------------------------

HEDGED = [
    "I let User4 sit at user level for two steps. I cannot be certain anything would have saved the run, but the habit I "
    "want is: when User4 is being exploited, Remove User4.",
    "Op_Host2 went down while I looked elsewhere. Perhaps nothing I did mattered, I really don't know, but my new rule is: "
    "when User4 is being exploited, Remove User4.",
    "I'm not convinced the planner reads my notes closely, but I won't hedge this time: when User4 is being exploited, "
    "Remove User4.",
]


def test_a_hedge_before_the_lesson_is_no_situation() -> None:
    for text in HEDGED:
        words = read_wording(text)
        assert words.situation == "", text
        assert not words.negated_conditions, text
        assert check(text, {"host": "User4", "activity": "Exploit"}, {"mode": "do", "verb": "Remove", "target": "User4"}) is None


def test_a_hedged_lesson_still_refuses_a_wider_compilation() -> None:
    for text in HEDGED:
        assert check(text, {"activity": "Exploit"}, {"mode": "do", "verb": "Remove", "target": "$matched"}) is not None


def test_a_situation_before_a_colon_still_counts() -> None:
    # a first-person opening that names a host or a state is a situation, not the teacher's view
    assert read_wording("While we still have no foothold on Enterprise1: Analyse Enterprise1.").negated_conditions
    assert read_wording("Nothing on our side active: Monitor.").negated_conditions
