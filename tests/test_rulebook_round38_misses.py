"""Issue 29, round 38 (r38m): misses where the product's readers of a condition did not understand how it was phrased.

- A count given as a range or a bound above ("one or two", "exactly three", "at most two", "fewer than three") or as
  "all but one": read before as "exactly one", as "at least that many", or as a bare class.
- An order opened by "with" and a state ("With more than one op host owned, restore each owned one; ..."): the phrase
  is the order's condition (read as none, a compiled predicate that dropped the count passed the checks).
- An order aimed at "each compromised one": a participle before "one" is no report ("Restore cleared one" still is).

Sentences of our own, none from a case file. Each test fails on the readers at 45e00c7 (checked with the product change
stashed).
"""

from __future__ import annotations

from forge.rulebook.language.claims import claims
from forge.rulebook.language.guard import complete_claims
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.predicate import truth
from forge.rulebook.language.situation import read_situation
from forge.rulebook.language.order import gives_order
from forge.rulebook.language.wording import read_wording

HOSTS = ("Defender", "Enterprise0", "Enterprise1", "Enterprise2", "Op_Host0", "Op_Host1", "Op_Host2", "Op_Server0",
         "User0", "User1", "User2", "User3", "User4")


def _table(*compromised: str) -> object:
    """A context that states every host: the ones named at Compromised User, the rest quiet."""
    rows = [f"{h}: Activity None, Compromised {'User' if h in compromised else 'No'}" for h in HOSTS]
    return read_situation("Alerts:\n" + "\n".join(rows))


def _holds(condition: str, *compromised: str):
    return truth(claims(condition), _table(*compromised))


def test_one_or_two_of_a_class_counts_both_and_not_three():
    said = "if just one or two op hosts are compromised"
    assert _holds(said, "Op_Host0") is True
    assert _holds(said, "Op_Host0", "Op_Host2") is True
    assert _holds(said, "Op_Host0", "Op_Host1", "Op_Host2") is False
    assert _holds(said) is False


def test_exactly_two_is_not_at_least_two():
    said = "when exactly two user boxes are compromised"
    assert _holds(said, "User1", "User4") is True
    assert _holds(said, "User1", "User2", "User4") is False


def test_a_bound_above_holds_up_to_it_and_not_past_it():
    for said in ("while at most two user hosts are compromised", "when fewer than three user hosts are compromised",
                 "if no more than two user hosts are compromised"):
        assert _holds(said, "User3") is True, said
        assert _holds(said, "User0", "User3") is True, said
        assert _holds(said, "User0", "User2", "User3") is False, said


def test_all_but_one_counts_every_host_of_the_class_save_one():
    said = "once all but one of the enterprise servers are compromised"
    assert _holds(said, "Enterprise0", "Enterprise2") is True
    assert _holds(said, "Enterprise0", "Enterprise1", "Enterprise2") is False
    assert _holds(said, "Enterprise1") is False


def test_a_with_phrase_of_hosts_and_state_is_the_orders_condition():
    text = "With two or more op hosts compromised, restore each compromised one; a Remove will not hold them."
    conditions = [c.text for c in read_wording(text).conditions]
    assert conditions == ["With two or more op hosts compromised"]
    found = rule_claims(text, with_instruction=True)
    assert found is not None and complete_claims(text, found)
    assert truth(found, _table("Op_Host0", "Op_Host2")) is True
    assert truth(found, _table("Op_Host1")) is False


def test_a_with_phrase_that_names_a_move_is_no_condition():
    assert read_wording("With a Restore of User4 under way, monitor the rest.").conditions == ()


def test_an_order_on_each_compromised_one_orders():
    assert gives_order("restore each compromised one")
    assert gives_order("remove the exploited one first")
    assert not gives_order("Restore cleared one")
    assert not gives_order("Remove failed one time")


def test_held_after_both_or_all_is_a_compromise():
    said = "when Op_Host2 and Enterprise0 are both held"
    assert _holds(said, "Op_Host2", "Enterprise0") is True
    assert _holds(said, "Op_Host2") is False
    assert _holds("if the enterprise servers were all held", "Enterprise0", "Enterprise1", "Enterprise2") is True
    assert _holds("if the enterprise servers were all held", "Enterprise0", "Enterprise2") is False


def test_a_note_says_hit_after_a_class():
    text = "exactly one op box hit -> plan Remove on it"
    found = rule_claims(text, with_instruction=True)
    assert found is not None and complete_claims(text, found)
    assert truth(found, _table("Op_Host1")) is True
    assert truth(found, _table("Op_Host1", "Op_Host0")) is False


def test_a_subnet_in_shorthand_is_its_class():
    text = "ent subnet clean -> Monitor"
    found = rule_claims(text, with_instruction=True)
    assert truth(found, _table()) is True
    assert truth(found, _table("Enterprise2")) is False


def test_a_host_put_aside_in_a_sentence_of_its_own():
    text = "an enterprise box at root? Restore it. Enterprise2 excluded."
    assert read_wording(text).excepted == ("Enterprise2",)


def test_a_later_step_of_a_list_opened_by_a_level_is_a_condition():
    text = "Op_Host1 checklist:\n1. Remove Op_Host1 as soon as it shows User.\n2. At root, Restore it instead."
    assert "At root" in [c.text for c in read_wording(text).conditions]
    assert read_wording("At step 4, restore User2.").conditions == ()


def test_an_order_kept_to_listed_hosts_needs_one_of_them():
    found = claims("only on Op_Host0 and Op_Host2: a Restore of an op host at root is for those two")
    for pick, holds in (("Op_Host2", True), ("Op_Host0", True), ("Op_Host1", False)):
        rows = [f"{h}: Activity None, Compromised {'Privileged' if h == pick else 'No'}" for h in HOSTS]
        assert truth(found, read_situation("Alerts:\n" + "\n".join(rows))) is holds, pick


def test_priv_esc_in_a_note_is_a_privilege_escalation():
    text = "privesc on Op_Host1 -> plan a Restore of it"
    found = rule_claims(text, with_instruction=True)
    assert found is not None and complete_claims(text, found)
    rows = [f"{h}: Activity None, Compromised {'Privileged' if h == 'Op_Host1' else 'No'}" for h in HOSTS]
    assert truth(found, read_situation("Alerts:\n" + "\n".join(rows))) is True
    assert truth(found, _table("Op_Host1")) is False
