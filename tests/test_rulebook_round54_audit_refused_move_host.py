"""Round 54 (r54b): an audit of r54m's move asked after and refused (forms._MOVE_REFUSED). The answer's "it" is the host
the question asked about; said after the situation alone ("Once Op_Server0 is rooted: never Restore it", asked of
Enterprise1) it became the situation's host, and the move was forbidden on the wrong one."""

import pytest

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.forms import what_to_do_said


def _never(verb, target):
    return {"mode": "never", "verb": verb, "target": target}


@pytest.mark.parametrize("text, when, action", [
    ("Q: can we Restore Enterprise1 once Op_Server0 is rooted? A: No, never Restore it then.",
     {"host": "Op_Server0", "compromise": "Privileged"}, _never("Restore", "Op_Server0")),
    ("Q: may we Remove User2 when User3 is scanned? A: No, never Remove it then.",
     {"host": "User3", "activity": "Scan"}, _never("Remove", "User3")),
    ("Q: could I Analyse Enterprise0 once any op host is rooted? A: No, never Analyse it then.",
     {"class": "Operational", "compromise": "Privileged"}, _never("Analyse", "$matched")),
])
def test_the_refused_move_stays_on_the_host_asked_after(text, when, action):
    assert text_problem(text, when, action) is not None


def test_the_refused_move_is_said_of_the_host_asked_after():
    said = what_to_do_said("Q: can we Restore Enterprise1 once Op_Server0 is rooted? A: No, never Restore it then.")
    assert "never Restore Enterprise1" in said
    # (hosts or a class asked after, and "them": left as they stand)
    text = "Q: may we Remove user hosts once Op_Server0 is rooted? A: No, never Remove them then."
    assert what_to_do_said(text) == text
