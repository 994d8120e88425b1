"""Issue 29, round 39 (r39x): the checks' holes the mutation bench (scripts/bench/check_mutations.py) found by class.

- a compromise level said after a word of any compromise ("owned at user level") or as the table's value in shorthand
  ("@ User", "still User") is that level, not any compromise (`checks._LEVEL_PHRASE`, read by `_level_widened`);
- a lesson about a fresh compromise is fresh in every branch of the predicate, and where it pairs a fresh host with one
  held since before, every branch pairs them (`checks._fresh_in_every_branch`);
- a history the condition speaks of is asked in every branch that asks a state (`checks._history_in_every_branch`);
- a text that names its hosts and speaks of no other does not have a state asked of any host
  (`checks._state_on_unnamed_host`), nor one whose every word of an unnamed host names a class
  (`checks._state_beyond_classes`).

Each refusal below passes the checks as they were at df07c86 (checked by running this file against that checks.py).
Sentences of our own, none from a case file."""

from __future__ import annotations

import pytest

from forge.rulebook.authoring.checks import text_problem

RESTORE_OS = {"mode": "do", "verb": "Restore", "target": "Op_Server0"}
REMOVE_MATCHED = {"mode": "do", "verb": "Remove", "target": "$matched"}


def _refused(text, when, action, check="claims:"):
    return (text_problem(text, when, action) or "").startswith(check)


@pytest.mark.parametrize("text", [
    "My note for later: Op_Server0 owned at user level, unchanged over three straight steps, earns a Restore of Op_Server0.",
    "OS0 @ User for 3 steps -> Restore OS0",
])
def test_a_level_after_a_word_of_any_compromise_is_that_level(text):
    told = {"unchanged_for": 3}
    assert _refused(text, {"host": "Op_Server0", "compromise": "any", **told}, RESTORE_OS)
    assert text_problem(text, {"host": "Op_Server0", "compromise": "User", **told}, RESTORE_OS) is None


def test_a_compromise_of_no_level_is_still_any_compromise():
    text = "Op_Server0 owned, at whatever level, for three steps straight: Restore Op_Server0."
    assert text_problem(text, {"host": "Op_Server0", "compromise": "any", "unchanged_for": 3}, RESTORE_OS) is None


SIDEWAYS = "When the intruder spreads sideways, a fresh foothold on a workstation while a server is held since before, remove the fresh one."


def _sideways(fresh_user: bool, held_enterprise: bool, held_operational: bool) -> dict:
    return {"all": [{"class": "User", "compromise": "any", "newly_compromised": fresh_user},
                    {"any": [{"class": "Enterprise", "compromise": "any", "newly_compromised": held_enterprise},
                             {"class": "Operational", "compromise": "any", "newly_compromised": held_operational}]}]}


def test_a_fresh_compromise_paired_with_a_held_one_in_every_branch():
    assert text_problem(SIDEWAYS, _sideways(True, False, False), REMOVE_MATCHED) is None
    # (one held host turned fresh: that branch asks two fresh hosts, which the text does not speak of)
    assert _refused(SIDEWAYS, _sideways(True, False, True), REMOVE_MATCHED, "history:")


def test_a_fresh_compromise_is_fresh_in_every_branch():
    # (the story speaks of hosts held since before as well: the lesson is still about the fresh one)
    text = ("The workstations had been held since before and could wait; the server that fell last was the urgent one. "
            "An enterprise server that is compromised now but was clean a step ago gets removed before anything else.")
    fresh = {"any": [{"class": "Enterprise", "compromise": "User", "newly_compromised": True},
                     {"class": "Enterprise", "compromise": "Privileged", "newly_compromised": True}]}
    one_held = {"any": [{"class": "Enterprise", "compromise": "User", "newly_compromised": True},
                        {"class": "Enterprise", "compromise": "Privileged", "newly_compromised": False}]}
    assert text_problem(text, fresh, REMOVE_MATCHED) is None
    assert _refused(text, one_held, REMOVE_MATCHED, "history:")


def test_a_history_holds_in_every_branch():
    text = "If Op_Server0 has not moved off its compromise level in the last four steps, Restore Op_Server0."
    both = {"any": [{"host": "Op_Server0", "compromise": "User", "unchanged_for": 4},
                    {"host": "Op_Server0", "compromise": "Privileged", "unchanged_for": 4}]}
    one = {"any": [{"host": "Op_Server0", "compromise": "User", "unchanged_for": 4},
                   {"host": "Op_Server0", "compromise": "Privileged"}]}
    assert text_problem(text, both, RESTORE_OS) is None
    assert _refused(text, one, RESTORE_OS, "history:")


REMOVE_E0 = {"mode": "do", "verb": "Remove", "target": "Enterprise0"}


@pytest.mark.parametrize("when", [
    {"class": "any", "activity": "Exploit"},
    {"any": [{"class": "any", "compromise": "User"}, {"host": "Enterprise0", "compromise": "Privileged"}]},
])
def test_a_state_said_of_a_named_host_is_not_asked_of_any_host(when):
    text = "Exploit flagged on Enterprise0? Our answer is then a Remove of Enterprise0."
    assert _refused(text, when, REMOVE_E0, "host:")
    assert text_problem(text, {"host": "Enterprise0", "activity": "Exploit"}, REMOVE_E0) is None


@pytest.mark.parametrize("text", [
    "When the host you look at shows an exploit, Remove it; Enterprise0 taught me that.",
    "Exploit flagged anywhere? Our answer is then a Remove of Enterprise0.",
])
def test_a_text_that_speaks_of_a_host_in_general_may_ask_any_host(text):
    assert not (text_problem(text, {"class": "any", "activity": "Exploit"}, REMOVE_E0) or "").startswith("host: the text speaks only")


RESTORE_MATCHED = {"mode": "do", "verb": "Restore", "target": "$matched"}


def test_a_state_said_of_a_class_is_not_asked_of_any_host_in_one_branch():
    text = "Should an enterprise server sit at one compromise level for three consecutive steps, Restore that server."
    one_branch_wide = {"any": [{"class": "Enterprise", "compromise": "User", "unchanged_for": 3},
                               {"class": "any", "compromise": "Privileged", "unchanged_for": 3}]}
    kept = {"any": [{"class": "Enterprise", "compromise": "User", "unchanged_for": 3},
                    {"class": "Enterprise", "compromise": "Privileged", "unchanged_for": 3}]}
    assert _refused(text, one_branch_wide, RESTORE_MATCHED, "class:")
    assert text_problem(text, kept, RESTORE_MATCHED) is None


def test_a_class_text_with_a_host_in_general_may_ask_any_host():
    # ("some host" speaks of a host of any class: the user boxes are where the order goes, not the condition's only place)
    text = "Whenever some host sits at root, Restore the user boxes that are compromised."
    when = {"all": [{"class": "any", "compromise": "Privileged"}, {"class": "User", "compromise": "any"}]}
    assert not (text_problem(text, when, RESTORE_MATCHED) or "").startswith("class: the text speaks of")
