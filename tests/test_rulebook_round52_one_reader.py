"""Issue 29, round 52 (r52f): one way to do a thing. Readers that did one job twice are one reader, the uses that
truly differ named as such:
- an example the text gives (`compile._EXAMPLE_WORDS`, `_EXAMPLE_ABBREVIATIONS`, `_example_after`): read where a condition
  is looked for (`_EXAMPLE`), where an ordered move is (`_MOVE_EXAMPLE`) and before a quoted form (`_EXAMPLE_LEAD`).
  One reading of the words that open one: "likely" opens no example ("like" is a word of its own), so a move ordered
  after it is an order, no FORMAT rule;
- the two compromise levels named as one condition (`situation.levels_joined`), read by the situation's value (joined
  by "or": either level) and by the checks (any joining: both levels). One reading of a level's words: "privilege" is
  the privileged level on either side of the "or".
Each test fails on the product files of a664cfe (checked against a worktree at a664cfe). Sentences of our own."""

from __future__ import annotations

from forge.rulebook.authoring.compile import format_problem, looks_like_format
from forge.rulebook.language.situation import levels_joined, state_of, without_either_value


def test_a_word_that_begins_with_like_opens_no_example():
    text = "Keep the reply to one line. Most likely you should Restore Enterprise1 first."
    assert format_problem(text) is not None
    assert not looks_like_format(text)


def test_the_levels_joined_by_or_are_either_level_and_by_and_both():
    assert levels_joined("once it sits at user level or root", either=True)
    assert levels_joined("a box held with user and admin rights")
    assert not levels_joined("a box held with user and admin rights", either=True)
    assert not levels_joined("root or admin, it is the same thing")


def test_privilege_is_the_privileged_level_in_either_order():
    for text in ("Enterprise0 at privilege or user level", "Enterprise0 at user or privilege level"):
        (_, level), _ = state_of(text)
        assert level != "User", text
        assert "privilege" not in without_either_value(text).lower(), text
