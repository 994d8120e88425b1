"""Issue 29, round 39 (r39k): three readings of how teachers phrase a rule, by class.

- a hedge between the modal and a passive order ("should probably be restored") still orders: read as no order, the
  rule's clauses ran together past its ";" and the teacher's own doubt about its reach became part of its condition
  (`forbidding._MODAL_ORDER`);
- "they" said of the hosts the order itself acts on is each of them in turn, not all of them at once
  (`scope._each_it_acts_on`); a list the order does not act on, or "both", stays together;
- a host said to be on none of some classes ("not on the op subnet") is a host of the other classes: neither a claim
  of the class it rules out (`scope._outside_denied`, `classes_denied`) nor a class the trigger must keep to, nor a
  negation the predicate must repeat on hosts it never matches (`checks._kept_out_by_class`).

Each test fails at 5624b5c (checked by stashing the product change and running this file). Sentences of our own."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.predicate import AllOf, AnyOf
from forge.rulebook.language.order import gives_order
from forge.rulebook.language.wording import read_wording

REMOVE_MATCHED = {"mode": "do", "verb": "Remove", "target": "$matched"}

HEDGED = ("Going by last night, Enterprise1 and Op_Server0 should probably be restored once they show root access; "
          "I doubt it carries over to the office machines.")


def test_a_hedged_passive_order_is_an_order():
    assert gives_order("Op_Server0 should probably be restored once it shows root access")
    assert gives_order("The op hosts must really get removed when exploited")


def test_the_doubt_after_a_semicolon_is_no_part_of_the_condition():
    conditions = read_wording(HEDGED).conditions
    assert [c.text for c in conditions] == ["once they show root access"]


def test_they_of_the_hosts_acted_on_is_each_of_them():
    assert isinstance(rule_claims(HEDGED), AnyOf)
    assert isinstance(rule_claims("Remove User1 and User2 whenever they show an exploit."), AnyOf)


def test_a_list_the_order_does_not_act_on_or_both_stays_together():
    assert isinstance(rule_claims("Restore Op_Server0 when Enterprise1 and Enterprise2 are compromised."), AllOf)
    assert isinstance(rule_claims("Remove User1 and User2 when they are both exploited."), AllOf)


NOT_OPS = "Recommend a Remove for a box with an exploit in progress that is not on the op subnet."


def test_a_host_outside_a_class_is_of_the_other_classes():
    found = rule_claims(NOT_OPS)
    assert isinstance(found, AnyOf)
    assert {atom.host_class for atom in found.parts} == {"User", "Enterprise"}


def test_a_trigger_kept_to_the_other_classes_passes_the_checks():
    when = {"any": [{"class": "User", "activity": "Exploit"}, {"class": "Enterprise", "activity": "Exploit"}]}
    assert text_problem(NOT_OPS, when, REMOVE_MATCHED) is None


def test_a_trigger_on_the_ruled_out_class_is_still_refused():
    assert text_problem(NOT_OPS, {"class": "Operational", "activity": "Exploit"}, REMOVE_MATCHED) is not None


def test_an_order_and_nothing_past_it_is_no_doubt_of_the_order():
    # "and nothing costlier": any comparative limits the order, it does not turn it down
    text = "When User2 is only being probed, put a DecoyTomcat on User2 and nothing pricier."
    when = {"compromise": "No", "activity": "Scan", "host": "User2"}
    problem = text_problem(text, when, {"mode": "do", "verb": "DecoyTomcat", "target": "User2"}) or ""
    assert not problem.startswith("polarity:")
