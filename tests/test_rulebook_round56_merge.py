"""Issue 29, round 56: the merge's own repair (the coordinator's sentences).

r56e's check that an "and" is never compiled as an "or" (`checks._and_read_as_or`) asked every place of the reading,
even where no word of the text joins two cases: a reading of two places that only the reader made (a side of the network
read as a host of it) then refused a faithful compilation of the one case the text says.
"""

from forge.rulebook.authoring.checks import text_problem


def test_a_reading_of_two_places_no_word_joins_is_no_conjunction_of_the_text():
    text = ("Once they are beyond the user side (by which I mean some enterprise box owned), plan a Restore of that box "
            "rather than one more Remove on a user machine.")
    action = {"mode": "prefer", "verb": "Restore", "target": "$matched", "over": {"verb": "Remove", "target": "User"}}
    assert text_problem(text, {"class": "Enterprise", "compromise": "any"}, action) is None


def test_two_cases_the_text_joins_with_and_are_still_no_alternative():
    text = "If User3 is rooted and Op_Host1 is not clean, Restore User3."
    either = {"any": [{"host": "User3", "compromise": "Privileged"}, {"not": {"host": "Op_Host1", "compromise": "No"}}]}
    assert text_problem(text, either, {"mode": "do", "verb": "Restore", "target": "User3"}) is not None
