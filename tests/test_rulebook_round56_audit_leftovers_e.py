"""Round 56 (r56e): wrong readings the round's auditors found and left, probed with sentences of our own. Each test is a
compilation the checks accepted on b143cef that is wider than the words:
- read in part, a condition joined with "and" over two places was accepted as an "or" of them once one part held a "not"
  (`checks._and_read_as_or`)."""

from forge.rulebook.authoring.checks import text_problem


def _do(verb, target):
    return {"mode": "do", "verb": verb, "target": target}


_ROOT = "Privileged"


def test_a_condition_joined_with_and_is_no_disjunction_when_read_in_part():
    text = "Should User3 be rooted and Enterprise1 not be clean, then Restore User3 at once."
    wider = {"any": [{"host": "User3", "compromise": _ROOT}, {"not": {"host": "Enterprise1", "compromise": "No"}}]}
    assert text_problem(text, wider, _do("Restore", "User3")) is not None
    # a denial of the joint case is a disjunction too
    denied = {"not": {"all": [{"host": "User3", "compromise": _ROOT}, {"host": "Enterprise1", "compromise": "No"}]}}
    assert text_problem(text, denied, _do("Restore", "User3")) is not None
    # the conjunction itself is still accepted
    both = {"all": [{"host": "User3", "compromise": _ROOT}, {"not": {"host": "Enterprise1", "compromise": "No"}}]}
    assert text_problem(text, both, _do("Restore", "User3")) is None
    # and where the text says the choice itself, the "or" is its own
    chosen = "Should User3 be rooted or Enterprise1 not be clean, then Restore User3 at once."
    assert text_problem(chosen, wider, _do("Restore", "User3")) is None
