"""Round 54 (r54d): an audit of r54l's "move on a list of moves to avoid" (forbidding.listed_to_avoid). A move said to be
kept off such a list, a listing only reported, or a list of what "we never skip" is no prohibition (read as one, a "never"
of the move the text wants passed as the text); a move listed with its host forbids it on that host only."""

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.forbidding import listed_to_avoid


def _on(verb, target, mode="do"):
    return {"mode": mode, "verb": verb, "target": target}


_ROOTED = {"host": "User2", "compromise": "Privileged"}


def test_a_move_kept_off_the_list_or_only_said_to_be_on_it_is_not_forbidden():
    for text in ("Restore does not belong on the list of moves to avoid: Restore User2 when it is rooted.",
                 "Restore no longer sits on our banned list; Restore User2 when it is rooted.",
                 "Restore hardly belongs on a list of moves to avoid. Restore User2 when it is rooted.",
                 "Someone said Restore is on our don'ts, which is wrong: Restore User2 when it is rooted.",
                 "Restore should come first on the list of things we never skip: Restore User2 when it is rooted."):
        assert listed_to_avoid(text) == [], text
        assert text_problem(text, _ROOTED, _on("Restore", "User2", "never")) is not None, text


def test_a_move_listed_to_avoid_with_its_host_is_forbidden_there():
    text = "Restore User2 is on my list of moves to avoid when it is rooted."
    assert [(p.verb, p.hosts) for p in listed_to_avoid(text)] == [("Restore", ("User2",))]
    assert text_problem(text, _ROOTED, _on("Restore", "User2")) is not None
    text = "Remove comes first on the list of moves to avoid for Op_Server0."
    assert [(p.verb, p.hosts) for p in listed_to_avoid(text)] == [("Remove", ("Op_Server0",))]
