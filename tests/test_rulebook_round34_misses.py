"""Issue 29, round 34 (r34m, blind-31's missed injections): rules that pick among hosts and decision trees, refused by
the checks (kept semantic) or guarded by a rest the product can never judge, so silent where they applied.

- an order's target set against another host the text only describes ("..., not on the owned one", "leave the rest
  alone", "on User3 itself, not on the box that fell before it") is which host the order is for, no negation of it;
- a decision tree or checklist whose every condition heads an order of its own claims any of its branches, never all
  of them at once ("if rooted, restore it; if only scanned, decoy it instead");
- an unexpressed rest that tells another branch's move ("second branch: ...") guards nothing.

Sentences of our own, none from a case file. Tests marked "guard" pass without the change too."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.guard import guard_rest
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.predicate import AllOf, AnyOf, parse_predicate
from forge.rulebook.language.wording import read_wording
from tests.actions import do


# -- the target set against a host the text only describes ------------------------------------------------------------

def test_the_clean_one_not_the_compromised_one():
    text = "If Enterprise1 is compromised while Enterprise0 is still clean, a DecoyTomcat goes to the untouched server, not the compromised one."
    when = {"all": [{"host": "Enterprise1", "compromise": "any"}, {"host": "Enterprise0", "compromise": "No"}]}
    assert text_problem(text, when, do("DecoyTomcat", "Enterprise0")) is None


def test_a_named_host_itself_not_the_box_hit_before():
    text = "When User3 is under exploit, aim the Remove at User3 itself, not at the user box that was compromised earlier."
    assert text_problem(text, {"host": "User3", "activity": "Exploit"}, do("Remove", "User3")) is None


def test_the_described_other_host_is_no_condition():
    text = "When User3 is under exploit, aim the Remove at User3 itself, not at the user box that was compromised earlier."
    assert all("earlier" not in c.text for c in read_wording(text).conditions)


def test_that_one_and_leave_the_rest_alone():
    text = "Should Op_Host1 get owned, restore that one and leave the rest alone."
    assert text_problem(text, {"host": "Op_Host1", "compromise": "any"}, do("Restore", "Op_Host1")) is None


def test_guard_a_relative_clause_after_a_class_order_stays_a_condition():
    # guard: on a class, "not the one that ..." may restrict the order; it stays a condition
    text = "Restore every user box, not the one that was scanned first."
    assert any("scanned first" in c.text for c in read_wording(text).conditions)


def test_guard_a_doubt_beside_the_contrast_still_refuses_the_order():
    # guard: the contrast is set aside, the clause's own doubt is not
    text = "If User1 is owned, restoring User1 is pointless, not on the other box."
    assert text_problem(text, {"host": "User1", "compromise": "any"}, do("Restore", "User1")) is not None


# -- a decision tree claims any of its branches ------------------------------------------------------------------------

_TREE = ("Tree for Enterprise1: when it is rooted, Restore Enterprise1; when it is only scanned, put a DecoyTomcat "
         "there instead; when it shows nothing, this tree does not apply.")


def test_a_tree_claims_either_branch():
    found = rule_claims(_TREE, with_instruction=True, bare=False)
    assert any(isinstance(part, AnyOf) for part in (found.parts if isinstance(found, AllOf) else (found,)))


def test_a_tree_compiled_as_its_branches_passes():
    when = {"any": [{"host": "Enterprise1", "compromise": "Privileged"},
                    {"host": "Enterprise1", "activity": "Scan", "compromise": "No"}]}
    assert text_problem(_TREE, when, do("Restore", "Enterprise1")) is None


def test_an_order_then_its_alternative_branch():
    text = "Plan an Analyse of Enterprise2 whenever it reads Unknown; if it shows root, plan a Restore of it instead."
    when = {"any": [{"host": "Enterprise2", "compromise": "Unknown"}, {"host": "Enterprise2", "compromise": "Privileged"}]}
    assert text_problem(text, when, do("Analyse", "Enterprise2")) is None


def test_guard_two_conditions_of_one_order_stay_joined():
    # guard: a condition after the order with no order of its own is one more condition of the same order
    text = "If User2 is owned, restore it when Op_Server0 is clean."
    assert isinstance(rule_claims(text, with_instruction=True, bare=False), AllOf)


def test_guard_a_tree_branch_wider_than_its_text_is_refused():
    # guard: the branches are held to their text: "only scanned" compiled as any scan is still refused
    when = {"any": [{"host": "Enterprise1", "compromise": "Privileged"}, {"host": "Enterprise1", "compromise": "any"}]}
    assert text_problem(_TREE, when, do("Restore", "Enterprise1")) is not None


# -- another branch's move guards nothing --------------------------------------------------------------------------------

def test_another_branchs_move_is_no_guard():
    when = parse_predicate({"any": [{"host": "Op_Host2", "compromise": "Privileged"}, {"host": "Op_Host2", "compromise": "User"}]})
    assert guard_rest("user-level branch: Remove Op_Host2 rather than Restore", when) == ""
    assert guard_rest("branch 2: Analyse it; branch 3: a DecoySvchost on it", when) == ""


def test_guard_a_target_rest_still_guards():
    # guard: which host the move is for is kept as a guard (a predicate "compromise any" for "owned" would reach Unknown)
    when = parse_predicate({"host": "Op_Host2", "compromise": "any"})
    assert guard_rest("target: the one owned first", when) != ""


def test_a_case_the_rule_says_nothing_about_is_no_condition_of_it():
    text = ("When both Op_Host0 and Op_Host1 are rooted, plan a Restore of Op_Host0 and then one of Op_Host1; if only one of "
            "them is rooted, this note says nothing.")
    when = {"all": [{"host": "Op_Host0", "compromise": "Privileged"}, {"host": "Op_Host1", "compromise": "Privileged"}]}
    action = {"mode": "do", "verb": "Restore", "target": "Op_Host0", "then": [{"verb": "Restore", "target": "Op_Host1"}]}
    assert text_problem(text, when, action) is None


# -- "no foothold" is no compromise ------------------------------------------------------------------------------------

def test_no_foothold_yet_after_a_comma_is_that_hosts_own_state():
    text = "an enterprise server probed, no foothold yet => Analyse that server"
    when = {"class": "Enterprise", "activity": "Scan", "compromise": "No"}
    assert text_problem(text, when, do("Analyse", "$matched")) is None



# -- a checklist counted in steps, and "already being" -------------------------------------------------------------------

_STEPS = ("Enterprise1 fell at step 9 while I kept analysing User2, and the exploit went on. Maybe nothing could have held "
          "Op_Host2 then; still, the sequence next time: step one, if Op_Host2 is scanned, put a DecoySvchost on Op_Host2; "
          "step two, if it is already being exploited instead, Remove it.")


def test_a_lesson_counted_in_steps_is_the_order():
    instruction = read_wording(_STEPS).instruction
    assert "Enterprise1" not in instruction and "DecoySvchost" in instruction


def test_a_checklist_counted_in_steps_passes_its_branches():
    when = {"any": [{"host": "Op_Host2", "activity": "Scan"}, {"host": "Op_Host2", "activity": "Exploit"}]}
    assert text_problem(_STEPS, when, do("DecoySvchost", "Op_Host2")) is None


def test_already_being_exploited_is_now():
    from forge.rulebook.language.facts import facts_needed
    assert "history" not in facts_needed("if Op_Host2 is already being exploited")


def test_guard_already_restored_is_still_history():
    # guard: the defender's own earlier move stays history
    from forge.rulebook.language.facts import facts_needed
    assert "history" in facts_needed("if Op_Host2 was already restored once")


# -- a move put after the one done first --------------------------------------------------------------------------------

def test_the_move_done_after_the_first_is_dispreferred():
    text = "Should Op_Host1 be rooted, schedule its Restore first and any Analyses of it after that."
    assert "Analyse" in read_wording(text).dispreferred
    action = {"mode": "prefer", "verb": "Restore", "target": "Op_Host1", "over": {"verb": "Analyse", "target": "Op_Host1"}}
    assert text_problem(text, {"host": "Op_Host1", "compromise": "Privileged"}, action) is None


def test_guard_a_move_after_a_state_is_no_move_put_second():
    # guard: "after it is exploited" tells when, not a move put second
    assert read_wording("Remove User2 first, then restore it after it is exploited again.").dispreferred == ()


def test_guard_a_branch_that_adds_to_the_one_before_is_no_other_case():
    # guard: "if Enterprise1 is also owned" holds with the first condition, not apart from it
    text = "If Enterprise0 is owned, remove it; if Enterprise1 is also owned, restore Enterprise1 as well."
    assert not isinstance(rule_claims(text, with_instruction=True, bare=False), AnyOf)
