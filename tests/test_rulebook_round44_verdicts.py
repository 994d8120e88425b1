"""Issue 29, round 44 (r44x: verdicts against a move, a move's outcome in other words, blind-41's reference misses).
- a situation said to be no case for a move ("not the moment for a Restore", "not one to restore", "not a job for ...")
  forbids that move there: after "is" its "not" was read as a condition's ("if it is not restored") and the move stood
  as an order (`forbidding.NOT_A_CASE_FOR`, `_after_auxiliary`);
- the verdict before a colon ("No case for a Restore: <situation>.") is the order, the situation after it the condition:
  read in the order, the situation's history ("one step after our Remove of it") was lost and the rest read as whole
  (`instruction.instruction_of`, `_verdict_before`); the situation as the verdict's subject ("<situation> doesn't call for a
  Restore", "... needs no Restore") is its condition, history and level too (`clauses._NO_CASE_FOR`, `_MEANS`);
  "after its Remove" is the host's own move (`history_words._ACTED`, the history fact);
- a move's outcome in other words ("did not take", "didn't stick", "did nothing", "came to nothing", "was undone") is the
  same fact as "did not work" (condition FACTS "action outcome", `history_words._UNCHANGED_AFTER`);
- "<subject> is the one we may yet rescue" (said with "that") describes the subject, no condition left out of the order
  (`wording.conditions_left_out`); two class atoms that cannot share a host ("a user box exploited", "a user box
  compromised with Activity None") are two hosts (`predicate.implies`, `_class_atoms_spread`); "an exploit still running"
  is the activity now in the checks too (`condition.spoken_facts`).
Each test fails on the product files of 9f63d2c (checked: this file run in a `git archive 9f63d2c` tree). Sentences of
our own, none from a case file."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.condition import condition_of
from forge.rulebook.language.facts import facts_needed
from forge.rulebook.language.guard import complete_claims, whole_claims
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.predicate import AllOf, Atom, implies
from forge.rulebook.language.wording import conditions_left_out, read_wording
from tests.situations import alert_lines, refused_rule_holds
from tests.test_rulebook_round44_harm import _history


def _act(mode: str, verb: str, target: str) -> dict:
    return {"mode": mode, "verb": verb, "target": target}


# -- a situation said to be no case for a move ---------------------------------------------------------------------------

def test_a_situation_said_to_be_no_case_for_a_move_forbids_it():
    for text in ("Right now User4 is not the moment for a Restore.",
                 "User4 with only a scan on it is not one to restore.",
                 "This is not a job for Restore, as User4 shows only a scan."):
        words = read_wording(text)
        assert any(p.verb == "Restore" for p in words.prohibitions), text
        assert text_problem(text, {"host": "User4", "activity": "Scan"}, _act("do", "Restore", "User4")) is not None, text


def test_the_verdict_before_a_colon_is_the_order_and_its_situation_is_read_whole():
    text = "No case for a Restore: User3 at user level one step after our Remove of it."
    assert condition_of(text) == "User3 at user level one step after our Remove of it"
    history = {"within": 1, "acted": "Remove", "host": "User3", "compromise": "User"}
    assert text_problem(text, history, _act("never", "Restore", "User3")) is None
    assert text_problem(text, history, _act("do", "Restore", "User3")).startswith("prohibition:")
    # the history is the rule's: a predicate without it is refused, and the reading judges it three-valued
    assert text_problem(text, {"host": "User3", "compromise": "User"}, _act("never", "Restore", "User3")) is not None
    assert refused_rule_holds(text, alert_lines(User3="None/User")) is None
    assert refused_rule_holds(text, _history("User3", "Remove", "None/User")) is True
    assert refused_rule_holds(text, _history("User3", "Analyse", "None/User")) is False


def test_the_situation_a_verdict_is_said_of_as_its_subject_is_its_condition():
    for text in ("User3 at user level just after we removed it doesn't call for a Restore.",
                 "User3 at user level just after we removed it needs no Restore.",
                 "User3 at user level just after we removed it is no case for a Restore."):
        found = rule_claims(text, with_instruction=True)
        assert complete_claims(text, found), text
        assert refused_rule_holds(text, _history("User3", "Remove", "None/User")) is True, text
        assert refused_rule_holds(text, _history("User3", "Analyse", "None/User")) is False, text
        assert text_problem(text, {"host": "User3", "compromise": "User"}, _act("never", "Restore", "User3")) is not None


def test_after_its_move_is_the_hosts_own_history():
    assert "history" in facts_needed("Enterprise2 at Unknown a turn after its Remove")
    text = "Not the moment for a Restore: Enterprise2 at Unknown a turn after its Remove."
    assert refused_rule_holds(text, _history("Enterprise2", "Remove", "None/Unknown")) is True
    assert refused_rule_holds(text, _history("Enterprise2", "Analyse", "None/Unknown")) is False


# -- a move's outcome in other words -------------------------------------------------------------------------------------

def test_a_moves_outcome_in_other_words_is_the_outcome_fact():
    for said in ("did not take", "didn't stick", "did nothing", "came to nothing", "was undone"):
        condition = f"if our Remove on Enterprise0 {said}"
        assert "action outcome" in facts_needed(condition), said
        text = f"Restore Enterprise0 {condition}."
        # (the host's state alone is not what the condition says)
        assert text_problem(text, {"host": "Enterprise0", "compromise": "any"}, _act("do", "Restore", "Enterprise0")) is not None
    assert facts_needed("if the attacker did not take Enterprise0") == frozenset()  # (no move of the defender)


# -- blind-41's reference misses -----------------------------------------------------------------------------------------

def test_is_the_one_that_describes_its_subject_and_is_no_condition():
    text = ("An exploited op box is the one that may yet be rescued. From now on: once an op box is exploited, plan its "
            "Remove.")
    assert conditions_left_out(text) == ()
    assert whole_claims(text) is not None
    # (a state in that relative clause still is one: "the one that is already rooted")
    assert conditions_left_out("The op box to watch is the one that is already rooted. Once an op box is exploited, "
                               "plan its Remove.") != ()


def test_two_class_atoms_that_cannot_share_a_host_are_two_hosts():
    text = "While one user box is under exploit and another user box is owned, plan a Remove of the exploited box."
    found = whole_claims(text)
    assert found is not None
    apart = AllOf((Atom(host_class="User", activity="Exploit"), Atom(compromise="any", host_class="User", activity="None")))
    assert implies(apart, found)
    # (two class atoms that may be one host imply no second host)
    shared = AllOf((Atom(host_class="User", activity="Exploit"), Atom(host_class="User", compromise="any")))
    assert not implies(shared, found)


def test_an_activity_still_running_is_no_history_in_the_checks():
    text = "E1 at user level with the exploit still running -> Remove E1 before any Restore"
    predicate = {"activity": "Exploit", "compromise": "User", "host": "Enterprise1"}
    action = {"over": {"target": "Enterprise1", "verb": "Restore"}, "target": "Enterprise1", "verb": "Remove", "mode": "prefer"}
    assert text_problem(text, predicate, action) is None
