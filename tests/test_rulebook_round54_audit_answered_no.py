"""Round 54 (r54d): an audit of r54l's "move asked after and answered no" (forms._answered_no_said). The answer is a "no"
standing alone; a "no" that opens a phrase urging the move ("No doubt", "No question", "No matter what", "No hesitation")
or limiting it ("Not that often") is no answer, and read as one it turned the order into a prohibition."""

from forge.rulebook.authoring.checks import text_problem


def _on(verb, target, mode="do"):
    return {"mode": mode, "verb": verb, "target": target}


def test_a_no_that_opens_an_urging_phrase_turns_no_order_down():
    for text, when, verb, host in (
            ("Remove User3? No doubt: do it whenever it is rooted.", {"host": "User3", "compromise": "Privileged"}, "Remove", "User3"),
            ("User2 rooted -> Restore? No question, Restore User2.", {"host": "User2", "compromise": "Privileged"}, "Restore", "User2"),
            ("Op_Server0 rooted -> Restore? No matter what, Restore Op_Server0.",
             {"host": "Op_Server0", "compromise": "Privileged"}, "Restore", "Op_Server0"),
            ("User2 rooted -> Restore? No hesitation. Restore User2.", {"host": "User2", "compromise": "Privileged"}, "Restore", "User2"),
            ("Enterprise1 exploited -> Analyse? Not that often, but here yes: Analyse Enterprise1.",
             {"host": "Enterprise1", "activity": "Exploit"}, "Analyse", "Enterprise1")):
        assert text_problem(text, when, _on(verb, host, "never")) is not None, text
        assert text_problem(text, when, _on(verb, host)) is None, text


def test_a_no_standing_alone_still_turns_the_move_down():
    text = "Restore User2? No, Remove User2 when it is user-level."
    assert text_problem(text, {"host": "User2", "compromise": "User"}, _on("Restore", "User2")) is not None
    text = "Enterprise0 rooted -> Restore? Nope. Remove Enterprise0."
    assert text_problem(text, {"host": "Enterprise0", "compromise": "Privileged"}, _on("Restore", "Enterprise0")) is not None


def test_a_no_before_an_arrow_turns_the_move_down_and_the_asked_move_is_no_case():
    rooted = {"host": "User2", "compromise": "Privileged"}
    for text in ("User2 rooted -> Remove? No -> Restore User2.", "User2 rooted \u2192 Remove? Nope \u2192 Restore User2.",
                 "User2 rooted => Remove? No => Restore User2."):
        assert text_problem(text, rooted, _on("Remove", "User2")) is not None, text
        assert text_problem(text, rooted, _on("Restore", "User2")) is None, text
