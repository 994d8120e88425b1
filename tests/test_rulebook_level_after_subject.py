"""A level said after the host or class it is of, with no condition word ("Restore User1 at root", "Remove Enterprise2
at user level, never Restore it", "Remove (not Restore) is the move for Enterprise2 at user level"): no condition was
read, so a compiled predicate that only asked the host be shown passed every check as the whole condition and fired on
any row of that host (clean, scanned, at another level): wider than its words. Found with the sentences below, written
for these tests (no case file was read for them)."""
from __future__ import annotations

import pytest

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.condition import text_claims
from forge.rulebook.language.predicate import truth
from tests.situations import table_rows


@pytest.mark.parametrize("text, host, level, verb", [
    ("Restore User1 at root.", "User1", "Privileged", "Restore"),
    ("Remove Enterprise2 at user level, never Restore it.", "Enterprise2", "User", "Remove"),
    ("Going forward, Remove (not Restore) is the move for Op_Server0 at user-level access.", "Op_Server0", "User", "Remove"),
    ("Analyse User4 while it sits at Unknown.", "User4", "Unknown", "Analyse"),
])
def test_a_level_after_its_host_is_the_condition(text: str, host: str, level: str, verb: str) -> None:
    bare = text_problem(text, {"host": host}, {"mode": "do", "verb": verb, "target": host})
    assert bare is not None and bare.startswith("bare"), bare
    assert text_problem(text, {"host": host, "compromise": level}, {"mode": "do", "verb": verb, "target": host}) is None
    found, whole = text_claims(text)
    assert whole and truth(found, table_rows((host, "None", level))) is True
    assert truth(found, table_rows((host, "Scan", "No"))) is False


def test_a_level_after_a_class_is_said_of_that_class() -> None:
    text = "Never restore the user hosts at user level; remove them."
    found, whole = text_claims(text)
    assert whole and truth(found, table_rows(("User2", "None", "User"))) is True
    assert truth(found, table_rows(("User2", "None", "Privileged"))) is False


def test_at_a_step_is_no_level() -> None:
    assert text_claims("Analyse Enterprise0 at step 3.")[0] is None


def test_a_host_further_back_in_a_story_is_no_subject_of_the_level() -> None:
    # ("User2 still sat at user level": what happened, told; the level is no condition of the lesson, whose reading
    # stays whole)
    found, whole = text_claims(
        "I pulled the attacker off User2 and went back to watching, sure it had worked. Two steps later User2 still sat "
        "at user level and red went on to Enterprise1. My takeaway is that a host still compromised after we removed "
        "it needs a Restore, not a second Remove.")
    assert whole and "User2" not in repr(found)
