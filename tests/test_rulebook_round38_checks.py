"""Issue 29, round 38 (r38x): a state the text names by its level or its kind, compiled as any state of that kind.

The checks' mutation bench (scripts/bench/check_mutations.py) widened a compiled level ("at Privileged") to any
compromise, or a compiled kind of activity ("Scan") to any activity, and most such mutants passed wherever the product's
reading of the condition placed nothing (a note without a condition word, a shorthand, a story around the rule). The
check `_level_widened` refuses them from the words alone: a text that names only levels (or only kinds) asks one of them.
A text that also says a compromise of no level ("compromised", "owned"), any activity, or joins both levels as one ("user
or root"), or a predicate that names an attack phase, is left alone. Each refusal below passes without the check (checked
with checks.py as it was at daf1fec). Sentences of our own, none from a case file."""

from __future__ import annotations

import pytest

from forge.rulebook.authoring.checks import text_problem

RESTORE_E2 = {"mode": "do", "verb": "Restore", "target": "Enterprise2"}
DECOY_OH2 = {"mode": "do", "verb": "DecoyApache", "target": "Op_Host2"}


@pytest.mark.parametrize("text", [
    "Trust me on this one: Enterprise2 holding a root shell earns it a Restore.",
    "Note to self, E2 showing priv esc is what earns a Restore of E2.",
])
def test_a_level_said_alone_is_no_compromise_of_any_level(text):
    wide = {"host": "Enterprise2", "compromise": "any"}
    assert (text_problem(text, wide, RESTORE_E2) or "").startswith("claims:")
    assert text_problem(text, {"host": "Enterprise2", "compromise": "Privileged"}, RESTORE_E2) is None


def test_a_kind_of_activity_said_alone_is_no_activity_of_any_kind():
    text = "Seen some probing of Op_Host2 lately? A DecoyApache goes on Op_Host2 then."
    assert (text_problem(text, {"host": "Op_Host2", "activity": "any"}, DECOY_OH2) or "").startswith("claims:")
    assert text_problem(text, {"host": "Op_Host2", "activity": "Scan"}, DECOY_OH2) is None


@pytest.mark.parametrize("text", [
    "Enterprise2 breached, whatever level the attacker reached: Restore Enterprise2.",
    "Enterprise2 hacked, user-level or root alike? Restore Enterprise2.",
])
def test_a_compromise_of_no_level_may_be_asked_at_any_level(text):
    assert text_problem(text, {"host": "Enterprise2", "compromise": "any"}, RESTORE_E2) is None


def test_a_phase_keeps_its_own_states():
    # (an attack phase is the product's definition: a story's level words say nothing of it)
    text = "Back then User1 sat at user level for ages. During impact, Op_Server0 gets its Restore ahead of all else."
    action = {"mode": "do", "verb": "Restore", "target": "Op_Server0"}
    assert text_problem(text, {"phase": "impact"}, action) is None
    # (nor the phase's own definition written out: the impact phase is Op_Server0 at any compromise)
    assert text_problem(text, {"host": "Op_Server0", "compromise": "any"}, action) is None


def test_a_kind_of_activity_on_a_class_is_left_to_the_other_checks():
    # (refused there, such a rule was kept semantic and lost more queries than the wider trigger made wrong)
    text = "Should any operational box get probed, a DecoyApache goes on that box."
    action = {"mode": "do", "verb": "DecoyApache", "target": "$matched"}
    assert text_problem(text, {"class": "Operational", "activity": "any"}, action) is None


DECOY_E0 = {"mode": "do", "verb": "DecoyTomcat", "target": "Enterprise0"}


def test_a_compromise_denied_with_no_level_is_not_one_level_denied():
    text = "Calm shift, no box owned on the whole net? DecoyTomcat Ent0 then."
    for one_level in ("Privileged", "User"):
        assert (text_problem(text, {"not": {"class": "any", "compromise": one_level}}, DECOY_E0) or "").startswith("claims:")
    assert text_problem(text, {"not": {"class": "any", "compromise": "any"}}, DECOY_E0) is None
    both = {"not": {"any": [{"class": "any", "compromise": "User"}, {"class": "any", "compromise": "Privileged"}]}}
    assert text_problem(text, both, DECOY_E0) is None


def test_a_level_denied_by_name_may_be_denied_alone():
    text = "Calm shift, no box with a root shell on the whole net? DecoyTomcat Ent0 then."
    assert text_problem(text, {"not": {"class": "any", "compromise": "Privileged"}}, DECOY_E0) is None


def test_a_fresh_compromise_in_note_shorthand_is_no_old_one():
    """(coordinator, after r38x) "clean at prev turn" without its article is a fresh compromise too: a compiled history
    that says the host was already compromised is the lesson turned around."""
    text = "Op_Host1 owned, clean at prev turn: Remove Op_Host1."
    action = {"mode": "do", "verb": "Remove", "target": "Op_Host1"}
    assert (text_problem(text, {"host": "Op_Host1", "newly_compromised": False}, action) or "").startswith("history")
    assert text_problem(text, {"host": "Op_Host1", "newly_compromised": True}, action) is None
