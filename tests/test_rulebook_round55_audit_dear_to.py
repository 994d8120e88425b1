"""Round 55 (r55a): an audit of r55h's "dear" as costly (forbidding._COSTLY). A move held "dear to" someone is liked, no
cost: "Restore is dear to me" read as a costly Restore put the Restore aside where the text orders it."""

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.said import said_in_words
from forge.rulebook.language.wording import read_wording


def test_a_move_dear_to_someone_is_not_put_aside():
    for text, when, verb, host in (
            ("Restore is dear to me: Restore User1 when it is rooted.", {"host": "User1", "compromise": "Privileged"},
             "Restore", "User1"),
            ("Removes are dear to this team, so Remove Enterprise2 when it shows user access.",
             {"host": "Enterprise2", "compromise": "User"}, "Remove", "Enterprise2")):
        assert read_wording(text).dispreferred == (), text
        assert text_problem(text, when, {"mode": "do", "verb": verb, "target": host}) is None, text
        assert said_in_words(text)[1].mode == "do", text


def test_a_move_said_dear_is_still_put_aside():
    assert "Restore" in read_wording("On Op_Host0 a Restore is very dear; plan a Remove when it shows user access.").dispreferred
