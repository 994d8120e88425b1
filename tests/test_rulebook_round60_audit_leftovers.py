"""Round 60 audit of r60l (r60d): readings of r60l's readers wider than their words, each as a class, in sentences of
this file's own. Each test fails on 0e5ef0d and passes on r60d."""

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.authoring.teaching import taught_words


def _do(verb, target):
    return {"mode": "do", "verb": verb, "target": target}


def test_a_no_that_opens_a_noun_does_not_deny_the_harm_asked():
    """forms._NO_AS_NOUN: "would it hurt to <move>? No doubt." affirms the harm (or, "No idea", leaves it open): the
    move is not left ordered, as a plain "No." leaves it."""
    quiet = {"host": "Enterprise2"}
    for answer in ("No doubt.", "No question about it, it would.", "No idea.", "No clue, honestly."):
        text = f"Would it hurt to Remove Enterprise2? {answer}"
        assert text_problem(text, quiet, _do("Remove", "Enterprise2")) is not None, text
    # (guards: a plain denial of the harm leaves the move urged)
    for answer in ("No.", "Nope, go ahead.", "Not at all."):
        text = f"Would it hurt to Remove Enterprise2? {answer}"
        assert text_problem(text, quiet, _do("Remove", "Enterprise2")) is None, text
