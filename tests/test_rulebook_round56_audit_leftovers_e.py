"""Round 56 (r56e): wrong readings the round's auditors found and left, probed with sentences of our own. Each test is a
compilation the checks accepted on b143cef that is wider than the words:
- read in part, a condition joined with "and" over two places was accepted as an "or" of them once one part held a "not"
  (`checks._and_read_as_or`);
- a form's subnet line that leaves a subnet out ("subnet: anything but ops") was said as that very subnet, the opposite
  (`forms.subnets_left_out`, `checks._subnet_left_out_asked`)."""

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


def test_a_subnet_line_that_leaves_a_subnet_out_is_not_that_subnet():
    remove = _do("Remove", "$matched")
    for line, left_out in (("subnet: anything but ops", "Operational"), ("subnet: every one except usr", "User"),
                           ("subnet: non-enterprise", "Enterprise"), ("subnet: all save the user side", "User")):
        text = line + "\nwhen: a box is being exploited\nmove: Remove it"
        assert text_problem(text, {"class": left_out, "activity": "Exploit"}, remove) is not None, line
        assert text_problem(text, {"activity": "Exploit"}, remove) is not None, line
    kept = {"any": [{"class": "User", "activity": "Exploit"}, {"class": "Enterprise", "activity": "Exploit"}]}
    assert text_problem("subnet: anything but ops\nwhen: a box is being exploited\nmove: Remove it", kept, remove) is None
    # a subnet line that names its subnet is still that subnet
    said = "subnet: ops\nwhen: a box is being exploited\nmove: Remove it"
    assert text_problem(said, {"class": "Operational", "activity": "Exploit"}, remove) is None
