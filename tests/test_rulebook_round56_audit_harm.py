"""Round 56 audit (r56a) of r56h's readers, probed with sentences of our own. Each test is a reading wider than its words,
or their opposite, on 0dbe6c8:

- an inversion whose case is said as a plain condition ("Only once <case> should anyone <move>", "not before <case> may
  we <move>") is no ban in that case: r56h's negative inversion (forbidding._INVERTED_BAN) read the case as the ban's
  condition, and the checks took "never <move>" in the very case the words let it (only "not unless / until" keep the
  word that lifts the ban);
- a question that names its move alone (forms._MOVE_ASKED_ELLIPTICAL) is one sentence: an order said plainly, then a
  question of something else answered "no" ("... Any doubts? No."), is no move turned down.
"""

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.forms import moves_answered


def _on(verb, target, mode="do"):
    return {"mode": mode, "verb": verb, "target": target}


def test_an_inversion_whose_case_lets_the_move_is_no_ban_in_that_case():
    for text, host, verb, case in (
            ("Only once User3 is rooted should anybody Remove User3.", "User3", "Remove", {"compromise": "Privileged"}),
            ("Only when Enterprise1 reads root shall the defender ever Restore Enterprise1.", "Enterprise1", "Restore",
             {"compromise": "Privileged"}),
            ("Not till Op_Host2 shows an exploit should one Remove Op_Host2.", "Op_Host2", "Remove", {"activity": "Exploit"})):
        # "never <move>" in the case is the opposite of the words: there the move is let
        assert text_problem(text, {"host": host, **case}, _on(verb, host, "never")) is not None, text
        # the move in its case is what the words let (read as a ban, this was refused as "a prohibition ... never a do")
        assert text_problem(text, {"host": host, **case}, _on(verb, host)) is None, text
    # "not before" keeps no lifting word: the ban in any state was taken, wider than the words once the host is owned
    text = "Not before User0 is owned may we Remove User0."
    assert text_problem(text, {"host": "User0"}, _on("Remove", "User0", "never")) is not None


def test_a_negative_inversion_with_unless_still_bans_outside_its_case():
    text = "Not unless Op_Host0 is owned should anyone Restore User4."
    assert text_problem(text, {"all": [{"host": "User4"}, {"not": {"host": "Op_Host0", "compromise": "any"}}]},
                        _on("Restore", "User4", "never")) is None
    assert text_problem(text, {"all": [{"host": "User4"}, {"host": "Op_Host0", "compromise": "any"}]},
                        _on("Restore", "User4", "never")) is not None


def test_an_order_before_a_question_of_something_else_is_not_turned_down():
    for text, verb, host, when in (
            ("Restore Op_Host1 when it is rooted. Any objections? None, no.", "Restore", "Op_Host1",
             {"host": "Op_Host1", "compromise": "Privileged"}),
            ("Remove User4 once it shows an exploit. Clear? No? Then ask again.", "Remove", "User4",
             {"host": "User4", "activity": "Exploit"}),
            ("Analyse Enterprise2 when it reads Unknown, always. Exceptions? Nope.", "Analyse", "Enterprise2",
             {"host": "Enterprise2", "compromise": "Unknown"})):
        assert moves_answered(text)[0] == frozenset(), text
        assert text_problem(text, when, _on(verb, host)) is None, text
    # the move asked in its own sentence is still turned down
    assert "Remove" in moves_answered("Restore Op_Host1 when it is rooted. Remove User4 too? No.")[0]
