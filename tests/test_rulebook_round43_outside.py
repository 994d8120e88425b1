"""Issue 29, round 43 (r43x): a host placed outside a class by a quantified noun with a relative clause.

"<verb> each/every/all/any <noun> outside the <class> subnet that/which/whose/where ..." was read as the very class it
sets apart: the quantifier made the relative clause a claim on every host by name, the denial's reading gave up, and the
fallback read the class word. Now:
- `scope._outside_denied` reads what an order acts on as some host (`universal=False`), so the denial places it on
  the other classes; a condition on every such host is each host of the other classes (`_every_host_alike`);
- `scope.outside_or_claims`: read any other way, a reading never claims a class the text denies
  (`_denied_classes_away`);
- "beyond the <class> subnet" denies the class too (`_NOT_A_MEMBER`), "beyond user level" does not;
- the product's checks refuse a compilation whose trigger asks, or whose action aims at, a host of the denied class
  (`checks._denied_class_asked`).

Shown to fail at the branch start (b33e9d0): with condition.py and checks.py stashed, every claim test read the denied
class (or nothing) and every refusal test was accepted. Sentences of our own, none from a case file."""

from __future__ import annotations

import pytest

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.scope import classes_denied
from forge.rulebook.language.predicate import atoms_of

RESTORE_MATCHED = {"mode": "do", "verb": "Restore", "target": "$matched"}


def _classes(found) -> set:
    return {atom.host_class for atom, neg in atoms_of(found) if not neg and atom.host is None}


def _hosts(found) -> set:
    return {atom.host for atom, neg in atoms_of(found) if not neg and atom.host is not None}


@pytest.mark.parametrize("text, denied, kept", [
    ("Restore each box outside the op subnet that reads Scan", "Operational", {"User", "Enterprise"}),
    ("Remove every machine outside the user subnet which shows an exploit", "User", {"Enterprise", "Operational"}),
    ("Restore all nodes outside the enterprise subnet that read Scan", "Enterprise", {"User", "Operational"}),
    ("Restore any box beyond the op subnet that reads Scan", "Operational", {"User", "Enterprise"}),
    ("Analyse each box outside the op subnet whose row reads Scan", "Operational", {"User", "Enterprise"}),
    ("Analyse every host outside the user subnet where a scan shows", "User", {"Enterprise", "Operational"}),
])
def test_a_quantified_host_outside_a_class_is_one_of_the_other_classes(text, denied, kept):
    found = rule_claims(text, with_instruction=True)
    assert found is not None
    assert _classes(found) == kept
    assert denied not in _classes(found)


def test_a_condition_on_every_host_outside_a_class_claims_none_of_that_class():
    from forge.env.catalog import HOST_CLASSES

    found = rule_claims("When every box outside the op subnet reads Scan, put a decoy on Op_Server0", with_instruction=True)
    assert not _hosts(found) & set(HOST_CLASSES["Operational"])
    assert "Operational" not in _classes(found)


def test_beyond_a_level_is_no_class_denied():
    assert classes_denied("a host compromised beyond user level") == set()
    assert classes_denied("a box beyond the user subnet") == {"User"}


@pytest.mark.parametrize("text", [
    "Restore each box outside the op subnet that reads Scan",
    "Every machine not on the op subnet which shows Scan gets a Restore",
    "When a box beyond the op subnet shows Scan, restore it",
])
def test_the_checks_refuse_a_trigger_on_the_denied_class(text):
    problem = text_problem(text, {"class": "Operational", "activity": "Scan"}, RESTORE_MATCHED)
    assert problem is not None and problem.startswith(("class:", "claims:"))
    other = {"any": [{"class": "User", "activity": "Scan"}, {"class": "Enterprise", "activity": "Scan"}]}
    assert text_problem(text, other, RESTORE_MATCHED) is None


def test_the_checks_refuse_an_action_aimed_at_the_denied_class():
    text = "Restore each box outside the op subnet that reads Scan"
    problem = text_problem(text, {"class": "User", "activity": "Scan"},
                           {"mode": "do", "verb": "Restore", "target": "Operational"})
    assert problem is not None


def test_a_named_host_of_the_class_keeps_the_class_askable():
    # the text names a host of the class it otherwise sets apart: the trigger may ask that host
    text = "When a box outside the op subnet shows Scan and Op_Server0 is clean, restore the box"
    when = {"all": [{"any": [{"class": "User", "activity": "Scan"}, {"class": "Enterprise", "activity": "Scan"}]},
                    {"host": "Op_Server0", "compromise": "No"}]}
    problem = text_problem(text, when, RESTORE_MATCHED)
    assert problem is None or not problem.startswith("class: the text speaks of hosts outside")
