"""Issue 29, round 40 (r40x): the checks' holes the mutation bench (scripts/bench/check_mutations.py) found by class.

- a trigger that asks only that some host is shown (`{"class": "any"}` alone) holds on every table: for a text that
  states a condition or names a host it is `always` (`checks._holds_everywhere`), unless the action takes its host from
  it (`$matched`, the rest judged host by host);
- a text that speaks only of the hosts it names has no state or history asked of any host, nor of any host of a class
  (`checks._state_on_unnamed_host`); "anything else", "nothing fancier", "any sign of" are no words of a host;
- the action's host is one the order gives its move on, not one only the story names (`checks._target_off_order`);
- a sequence gives no move twice where the text asks no repeat (`checks._move_repeated`);
- a move on a whole class whose trigger holds of one named host of it widens the order (`checks._class_for_host`), and
  two hosts "to choose between" are the lesson's, not the story's (`checks._reach`).

Each refusal below passes the checks at 9c8997e (checked by running this file against that checks.py: every
`_refused` assertion failed there, every acceptance held). Sentences of our own, none from a case file."""

from __future__ import annotations

import pytest

from forge.rulebook.authoring.checks import text_problem

NEVER_RESTORE_U1 = {"mode": "never", "verb": "Restore", "target": "User1"}
REMOVE_E1 = {"mode": "do", "verb": "Remove", "target": "Enterprise1"}


def _refused(text, when, action, check=""):
    return (text_problem(text, when, action) or "").startswith(check) and text_problem(text, when, action) is not None


def test_some_host_shown_is_no_condition_for_a_text_about_a_named_host():
    text = "Please never reimage User1; the help desk needs it up during the day."
    assert _refused(text, {"class": "any"}, NEVER_RESTORE_U1, "always:")
    assert text_problem(text, {"host": "User1"}, NEVER_RESTORE_U1) is None


def test_some_host_shown_may_carry_the_matched_host_when_the_rest_is_judged():
    # the compiler keeps the host for $matched; what singles it out is the rest's (evidence the gate judges)
    text = "Where this step's analyses count 12+ conns on port 22 into a single box, that box gets a DecoySSHD."
    action = {"mode": "do", "verb": "DecoySSHD", "target": "$matched"}
    assert not (text_problem(text, {"class": "any"}, action) or "").startswith("always:")


def test_a_state_of_a_named_host_is_not_asked_of_any_host():
    # the order's words ("ahead of anything else", "nothing fancier") name no host in general
    text = ("My Analyse of Enterprise1 taught me little. An exploit showing on Enterprise1 gets a Remove of Enterprise1 "
            "ahead of anything else, and nothing fancier.")
    assert _refused(text, {"class": "any", "activity": "Exploit"}, REMOVE_E1, "host:")
    assert text_problem(text, {"host": "Enterprise1", "activity": "Exploit"}, REMOVE_E1) is None


def test_a_state_of_a_named_host_is_not_asked_of_its_class():
    text = "Settled after review: Enterprise1 at Compromised User gets a Restore."
    restore = {"mode": "do", "verb": "Restore", "target": "Enterprise1"}
    assert _refused(text, {"class": "Enterprise", "compromise": "User"}, restore, "host:")
    assert text_problem(text, {"host": "Enterprise1", "compromise": "User"}, restore) is None


def test_a_history_of_a_named_host_is_not_asked_of_any_host():
    text = "Straight after a Remove of Enterprise1, give Enterprise1 an Analyse."
    action = {"mode": "do", "verb": "Analyse", "target": "Enterprise1"}
    assert _refused(text, {"class": "any", "acted": "Remove", "within": 1}, action, "host:")
    assert text_problem(text, {"host": "Enterprise1", "acted": "Remove", "within": 1}, action) is None


def test_a_word_for_several_hosts_still_leaves_a_class_state_alone():
    text = "Op_Server0 held plus 2+ ent srvs held -> Restore Op_Server0 first, Enterprise1 after."
    when = {"all": [{"host": "Op_Server0", "compromise": "any"}, {"class": "Enterprise", "compromise": "any"}]}
    action = {"mode": "do", "verb": "Restore", "target": "Op_Server0", "then": [{"verb": "Restore", "target": "Enterprise1"}]}
    assert text_problem(text, when, action) is None


def test_the_action_is_aimed_at_the_host_the_order_names():
    # (User3 is the condition's other host, not the order's)
    text = "Once User2 shows an exploit while User3 sits compromised, the plan should hold one Remove of User2."
    when = {"all": [{"host": "User2", "activity": "Exploit"}, {"host": "User3", "compromise": "any"}]}
    assert _refused(text, when, {"mode": "do", "verb": "Remove", "target": "User3"}, "target:")
    assert text_problem(text, when, {"mode": "do", "verb": "Remove", "target": "User2"}) is None


def test_an_order_that_points_back_may_aim_at_its_condition_host():
    text = "When User2 shows an exploit, take it off the network with a Remove, then decoy User1."
    action = {"mode": "do", "verb": "Remove", "target": "User2", "then": [{"verb": "DecoyApache", "target": "User1"}]}
    assert not (text_problem(text, {"host": "User2", "activity": "Exploit"}, action) or "").startswith("target:")


def test_a_sequence_does_not_give_one_move_twice():
    text = "Enterprise0 and Enterprise2 both held -> Remove each, first Enterprise2, then Enterprise0."
    when = {"all": [{"host": "Enterprise0", "compromise": "any"}, {"host": "Enterprise2", "compromise": "any"}]}
    twice = {"mode": "do", "verb": "Remove", "target": "Enterprise2", "then": [{"verb": "Remove", "target": "Enterprise2"}]}
    right = {"mode": "do", "verb": "Remove", "target": "Enterprise2", "then": [{"verb": "Remove", "target": "Enterprise0"}]}
    assert _refused(text, when, twice, "target:")
    assert text_problem(text, when, right) is None


def test_a_move_on_a_class_does_not_stand_for_the_host_the_trigger_names():
    text = "Enterprise1 with an exploit showing: Remove it, then a DecoyApache goes on the rest of that subnet."
    when = {"host": "Enterprise1", "activity": "Exploit"}
    widened = {"mode": "do", "verb": "Remove", "target": "Enterprise", "then": [{"verb": "DecoyApache", "target": "$subnet"}]}
    right = {"mode": "do", "verb": "Remove", "target": "Enterprise1", "then": [{"verb": "DecoyApache", "target": "$subnet"}]}
    assert _refused(text, when, widened, "reach:")
    assert text_problem(text, when, right) is None


def test_two_hosts_of_the_story_are_no_choice_for_the_order():
    text = ("Enterprise2 got exploited while I fussed over Enterprise0. Lesson: when Enterprise2 is exploited, Remove it "
            "the same step.")
    when = {"host": "Enterprise2", "activity": "Exploit"}
    assert _refused(text, when, {"mode": "do", "verb": "Remove", "target": "Enterprise"}, "reach:")
    assert text_problem(text, when, {"mode": "do", "verb": "Remove", "target": "Enterprise2"}) is None


def test_a_class_named_by_the_order_may_be_the_target():
    text = "When Enterprise1 shows an exploit, run a Remove on every enterprise server."
    action = {"mode": "do", "verb": "Remove", "target": "Enterprise"}
    assert not (text_problem(text, {"host": "Enterprise1", "activity": "Exploit"}, action) or "").startswith("reach:")


@pytest.mark.parametrize("text", [
    "User3 probed, no exploit yet -> DecoySSHD on User3.",
    "User3 getting scanned and still clean: a DecoySSHD on User3.",
])
def test_a_compromise_the_text_denies_is_not_asked(text):
    action = {"mode": "do", "verb": "DecoySSHD", "target": "User3"}
    assert _refused(text, {"host": "User3", "activity": "Scan", "compromise": "any"}, action, "polarity:")
    assert text_problem(text, {"host": "User3", "activity": "Scan", "compromise": "No"}, action) is None


def test_a_class_still_clean_is_not_the_named_host():
    text = "If Enterprise1 gets owned while the user side is still clean, Remove Enterprise1."
    when = {"all": [{"host": "Enterprise1", "compromise": "any"}, {"not": {"class": "User", "compromise": "any"}}]}
    assert not (text_problem(text, when, REMOVE_E1) or "").startswith("polarity:")
