"""Round 54 (r54d): an audit of r54l's "<move> nothing on <host>" prohibition (forbidding._nothing_moved). A move with
nothing asked in a question, or said as the first half of a warning ("... and you lose it", ", or else ..."), forbids
nothing: the text wants the move, and read as a ban a "never" of it passed as the text."""

from forge.rulebook.authoring.checks import text_problem


def _on(verb, target, mode="do"):
    return {"mode": mode, "verb": verb, "target": target}


def test_a_move_with_nothing_asked_forbids_nothing():
    text = "Remove nothing on User2? Wrong: Remove User2 whenever it is user-level."
    assert text_problem(text, {"host": "User2", "compromise": "User"}, _on("Remove", "User2", "never")) is not None
    text = "Analyse nothing on Enterprise1? Silly. Analyse Enterprise1 when it is scanned."
    assert text_problem(text, {"host": "Enterprise1", "activity": "Scan"}, _on("Analyse", "Enterprise1", "never")) is not None


def test_a_move_with_nothing_as_a_warning_forbids_nothing():
    text = "Restore nothing on User2 and you lose the network; when it is rooted Restore User2."
    assert text_problem(text, {"host": "User2", "compromise": "Privileged"}, _on("Restore", "User2", "never")) is not None
    text = "Restore nothing on Op_Server0, or else it stays rooted: Restore Op_Server0 when it is rooted."
    assert text_problem(text, {"host": "Op_Server0", "compromise": "Privileged"}, _on("Restore", "Op_Server0", "never")) is not None


def test_a_move_with_nothing_said_plainly_still_forbids_it():
    text = "Remove nothing on User2 once it is rooted; Restore it instead."
    assert text_problem(text, {"host": "User2", "compromise": "Privileged"}, _on("Remove", "User2", "never")) is None
    assert text_problem(text, {"host": "User2", "compromise": "Privileged"}, _on("Remove", "User2")) is not None
