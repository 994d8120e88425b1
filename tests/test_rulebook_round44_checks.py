"""Issue 29, round 44 (r44c: compilations wider than their words that the product's checks accepted, whatever the
compiler; each class a reading the checks lacked).
- a compromise the text denies ("... != compromised", "is not owned") was read as a word of any compromise, so a level
  the text names ("Unknown") asked as any compromise passed (`checks._DENIED_BEFORE` in `_any_level_of_asked`);
- a place the partial reading puts in one state ("an ent box at Unknown") asked by the predicate only in
  another state of that kind (Privileged) passed: two hosts of the class may hold both (`checks._state_moved`);
- the hosts outside a class the lesson names ("a box outside the op subnet") asked of any host (`checks._outside_widened`);
- a count said with the terse noun "srv" ("just one ent srv owned -> ...") was read as an "only" order, and the count was
  lost (`markers._COUNTED_NOUN`);
- a situation asked as a bare question before its order ("Nothing on the op side owned? then ...") placed nothing, so a
  trigger on one host for a whole subnet passed (`forms.bare_question_said`);
- an alert's priority in shorthand ("urgent-prio alert") was no fact, so a predicate that dropped it passed
  (`facts.FACTS`).
Each test fails on the product files of 9d15e07 (checked: this file run in a `git worktree` of 9d15e07), but the
guards. Sentences of our own, none from a case file."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from tests.actions import do, never


def _ahead(verb: str, other: str) -> dict:
    """The move `verb` on the matched host ahead of `other` on it."""
    own = {"verb": verb, "target": "$matched"}
    return {**own, "mode": "prefer", "over": {**own, "verb": other}}


def _at(place: str, **state) -> dict:
    """An atom: a host, or a class (a name without a digit), in `state`."""
    return {**state, ("host" if place[-1].isdigit() else "class"): place}


def test_a_denied_compromise_is_no_word_of_any_compromise():
    text = "Unknown on an ent server isn't compromised. no Remove on Unknown by itself."
    problem = text_problem(text, _at("Enterprise", compromise="any"), never("Remove", "Enterprise"))
    assert problem and problem.startswith("claims:")
    # guard: the level it names is passed
    assert text_problem(text, _at("Enterprise", compromise="Unknown"), never("Remove", "Enterprise")) is None


def test_a_state_read_on_a_class_is_not_asked_as_another_state():
    text = "A rule for the planner: an enterprise box at Unknown gets a Monitor, not a Remove."
    action = _ahead("Monitor", "Remove")
    problem = text_problem(text, _at("Enterprise", compromise="User"), action)
    assert problem and problem.startswith("claims:")
    # guard: the state it says
    assert text_problem(text, _at("Enterprise", compromise="Unknown"), action) is None


def test_the_hosts_outside_a_class_are_not_any_host():
    text = "Going forward, a machine outside the enterprise subnet that is merely probed gets a decoy, never a Remove."
    action = _ahead("DecoyApache", "Remove")
    probed = {"activity": "Scan", "compromise": "No"}
    problem = text_problem(text, _at("any", **probed), action)
    assert problem and problem.startswith("class:")
    # guard: kept off the class it sets apart
    kept = {"any": [_at("User", **probed), _at("Operational", **probed)]}
    assert not (text_problem(text, kept, action) or "").startswith("class:")


def test_a_count_of_srvs_is_a_count():
    text = "just one ent srv owned -> plan a Restore of it. 2+ owned: not this note."
    problem = text_problem(text, _at("Enterprise", compromise="any"), do("Restore", "$matched"))
    assert problem is not None


def test_a_bare_question_before_the_order_is_its_condition():
    text = "Nothing on the op side owned? then DecoyApache on Op_Server0."
    spared = {"not": _at("Op_Server0", compromise="any")}
    problem = text_problem(text, spared, do("DecoyApache", "Op_Server0"))
    assert problem and problem.startswith("claims:")
    # guard: a question that asks ("is ...?") is left as it was
    asked = "Is the op side quiet? then DecoyApache on Op_Server0."
    assert not (text_problem(asked, spared, do("DecoyApache", "Op_Server0")) or "").startswith(
        "claims: the predicate does not say")


def test_an_alert_priority_in_shorthand_is_a_fact():
    text = "urgent-prio alert on U2 -> Remove U2."
    problem = text_problem(text, _at("User2", activity="any"), do("Remove", "User2"))
    assert problem and problem.startswith("facts:")
    # guard: listed in the rest, it passes
    assert text_problem(text, _at("User2", activity="any"), do("Remove", "User2"), "only an urgent-prio alert counts") is None
