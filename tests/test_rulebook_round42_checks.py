"""Issue 29, round 42 (r42x: two claim bugs, and the checks' mutation bench).
- a prohibition's own "never" / "don't" was read as a denial of the state of what it acts on: "from step N on, never
  <Verb> a <state> <class> host" claimed that host in its state and also no host of the class in it, a contradiction no
  context meets (`forbidding.forbidding_away` in `rule_claims.rule_claims`);
- a target list of a class and a named host with no state ("a <class> host or <Host>") claimed the named host alone:
  the class was dropped, and the rule spoke only where that host is shown (`claims._with_class`, `_classes_shown`;
  `_bare_target` keeps such a list a target, no condition, where the rule states one).
Each test fails at 3246e27 (checked with `git stash` of the product change), but the two marked as guards (what the
change must keep). Sentences of our own, none from a case file."""

from __future__ import annotations

import pytest

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.claims import claims
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.predicate import AllOf, AnyOf, Atom, Not, predicate_to_json


def _parts(found) -> list:
    return list(found.parts) if isinstance(found, AllOf) else [found]


def _contradicts(found) -> bool:
    """Whether a claim holds an atom and its own negation side by side."""
    parts = _parts(found)
    return any(isinstance(p, Not) and p.part in parts for p in parts)


@pytest.mark.parametrize("text, state", [
    ("Starting at step 8, never Restore an exploited user host.", {"class": "User", "activity": "Exploit"}),
    ("From turn 15 onward, don't Remove a scanned enterprise box.", {"class": "Enterprise", "activity": "Scan"}),
    ("After step 20, do not Restore a privileged op host.", {"class": "Operational", "compromise": "Privileged"}),
])
def test_prohibition_never_denies_its_own_target_state(text, state):
    found = rule_claims(text, with_instruction=True)
    assert found is not None and not _contradicts(found)
    assert state in [predicate_to_json(p) for p in _parts(found)]


def test_prohibition_keeps_a_state_it_denies():
    # (guard)
    # the "not" of the target's own phrase is a state the order asks, not the prohibition's word
    found = rule_claims("Never Restore a host that is not compromised.", with_instruction=True)
    assert predicate_to_json(found) == {"class": "any", "compromise": "No"}


@pytest.mark.parametrize("text, host, cls", [
    ("Never Restore a user host or Enterprise1.", "Enterprise1", "User"),
    ("Do not Remove Op_Server0 or any enterprise machine.", "Op_Server0", "Enterprise"),
    ("From step 6 on, never Restore an op box or User0.", "User0", "Operational"),
])
def test_class_or_host_target_keeps_the_class(text, host, cls):
    found = rule_claims(text, with_instruction=True)
    either = [p for p in _parts(found) if isinstance(p, AnyOf)]
    assert either and set(either[0].parts) == {Atom(host=host), Atom(host_class=cls)}


def test_class_or_host_alone_reads_either():
    found = claims("a user box or Enterprise2", universal=False)
    assert isinstance(found, AnyOf) and set(found.parts) == {Atom(host="Enterprise2"), Atom(host_class="User")}


def test_class_or_host_target_is_no_condition_where_one_is_stated():
    # (guard)
    # the list is what the order acts on; the rule's condition is the one said
    found = rule_claims("If Op_Server0 is exploited, never Restore a user host or Enterprise0.", with_instruction=True)
    assert predicate_to_json(found) == {"host": "Op_Server0", "activity": "Exploit"}


# -- part 2: the checks' mutation bench --------------------------------------------------------------------------


def test_none_of_a_host_list_denies_the_state_of_each():
    found = claims("Enterprise1 exploited and none of User2, User3 or User4 compromised")
    assert set(_parts(found)) >= {Atom(host=h, compromise="No") for h in ("User2", "User3", "User4")}
    assert not any(a.compromise == "any" and a.host in ("User2", "User3", "User4") for a in _parts(found) if isinstance(a, Atom))


def test_none_of_a_host_list_flipped_is_refused():
    text = "When Op_Server0 is exploited and none of Enterprise0, Enterprise1 or Enterprise2 is compromised, Restore Op_Server0."
    action = {"mode": "do", "verb": "Restore", "target": "Op_Server0"}
    denied = [{"not": {"host": h, "compromise": "any"}} for h in ("Enterprise0", "Enterprise1", "Enterprise2")]
    faithful = {"all": [{"host": "Op_Server0", "activity": "Exploit"}, *denied]}
    flipped = {"all": [{"host": "Op_Server0", "activity": "Exploit"}, {"host": "Enterprise0", "compromise": "any"}, *denied[1:]]}
    assert text_problem(text, faithful, action) is None
    assert text_problem(text, flipped, action) is not None


@pytest.mark.parametrize("text, when, action", [
    # the sign of an activity of one kind is that kind
    ("Enterprise2 matters most: at any sign of an exploit on it, plan a Remove of Enterprise2.",
     {"host": "Enterprise2", "activity": "{}"}, {"mode": "do", "verb": "Remove", "target": "Enterprise2"}),
    # "the attack path" says where the attacker goes, no attack seen on a host
    ("note to self: E0 under exploit -> Remove E0, with a DecoyApache further down the attack path",
     {"host": "Enterprise0", "activity": "{}"}, {"mode": "do", "verb": "Remove", "target": "Enterprise0"}),
])
def test_one_kind_of_activity_asked_as_any_is_refused(text, when, action):
    kind = "Exploit" if "exploit" in text else "Scan"
    assert text_problem(text, {**when, "activity": kind}, action) is None
    assert text_problem(text, {**when, "activity": "any"}, action) is not None


def test_a_level_is_not_widened_by_a_compromise_said_of_another_host():
    text = "Remove a root foothold on a user box, unless Enterprise1 is already compromised."
    action = {"mode": "do", "verb": "Remove", "target": "$matched"}
    spare = {"not": {"host": "Enterprise1", "compromise": "any"}}
    assert text_problem(text, {"all": [{"class": "User", "compromise": "Privileged"}, spare]}, action) is None
    assert text_problem(text, {"all": [{"class": "User", "compromise": "any"}, spare]}, action) is not None
