"""Round 54 (r54d): an audit of r54l's "keeping <move> off <host>" (forbidding._MOVE_KEPT_OFF widened to "keeping" /
"keeps"). The order is "keep <move> off <host>"; the gerund names the keeping in a question, a story or a verdict, and
read as a ban it turned the move the text wants into a "never"."""

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.wording import read_wording


def _on(verb, target, mode="do"):
    return {"mode": mode, "verb": verb, "target": target}


def test_keeping_a_move_off_named_in_a_question_or_a_verdict_is_no_ban():
    text = "Is keeping Remove away from User3 wise? No: when it is user-level, Remove User3."
    assert text_problem(text, {"host": "User3", "compromise": "User"}, _on("Remove", "User3", "never")) is not None
    text = "Was keeping the Restore off Enterprise2 smart? Not at all; Restore Enterprise2 when it is rooted."
    assert not [p for p in read_wording(text).prohibitions if p.verb == "Restore"]


def test_keep_a_move_off_said_as_the_order_still_forbids_it():
    assert [(p.verb, p.hosts) for p in read_wording("Keep any Remove away from User3.").prohibitions] == [("Remove", ("User3",))]
