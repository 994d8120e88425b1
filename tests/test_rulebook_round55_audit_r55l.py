"""Issue 29, round 55 (r55d): an audit of r55l's readers, probed with sentences of our own. Each test is a reading that
was wider than its words, or their opposite, on e5304e9:
- "not both" that does not end its clause ("and not both of them clean") was cut off and its rest glued to the state;
- a yes/no question of a state that is itself a denial ("is User2 not rooted? No") or answered with a statement, not an
  order ("No - it's worse, it's rooted"), was said as the state denied;
- a question of a move's fault that also asks its merit ("useful, or a waste? No") turned no move down;
- a judgement of "anything less than a Restore" was a ban on the Restore;
- a level said against another ("above user level", "under root") was read as the level it names;
- "newly rooted" was read as newly compromised at any level;
- a note of cases beaten by another teacher in one case was still undisputed by its stored action there."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.forms import moves_answered, not_both_said
from forge.rulebook.language.meaning import conflict_in, disputing, meaning_of, undisputed_hosts
from forge.rulebook.language.predicate import atoms_of
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.situation import read_situation
from forge.rulebook.language.wording import read_wording
from forge.rulebook.model import RuleType
from tests.situations import alert_rows, refused_rule_holds_on


def _act(mode, verb, target):
    return {"mode": mode, "verb": verb, "target": target}


def test_not_both_that_goes_on_is_left_as_it_stands():
    text = "When one of Op_Host1 and Op_Host2 is rooted and not both of them quiet, Restore it."
    assert not_both_said(text) == text
    both_quiet = {"all": [{"host": "Op_Host1", "compromise": "No"}, {"host": "Op_Host2", "compromise": "No"}]}
    assert text_problem(text, both_quiet, _act("do", "Restore", "Op_Host1")) is not None
    moves = "If either User3 or User4 is rooted, not both at the same time, Remove it."
    assert not_both_said(moves) == moves
    # the plain form still reads exactly one
    assert "exactly one of" in not_both_said("If either User3 or User4 gets probed (never both), Analyse it.")


@pytest.mark.parametrize("text, when", [
    ("Is Enterprise1 not at root? No. Restore it.", {"all": [{"host": "Enterprise1"}, {"not": {"host": "Enterprise1", "compromise": "Privileged"}}]}),
    ("Is Enterprise1 uncompromised? No. Restore Enterprise1.", {"host": "Enterprise1", "compromise": "No"}),
])
def test_a_state_that_denies_itself_answered_no_is_that_state(text, when):
    # "no" to "not at root" is at root: the denial's denial was read as the denial
    assert text_problem(text, when, _act("do", "Restore", "Enterprise1")) is not None


def test_a_no_followed_by_a_statement_is_no_state_denied():
    text = "Is Op_Server0 merely scanned? No - far worse, the attacker holds root there. Restore it."
    assert refused_rule_holds_on(text, Op_Server0="None/No") is not True


def test_a_fault_asked_beside_a_merit_is_still_turned_down():
    text = "Is an Analyse of Op_Host0 helpful once it is probed, or wasted? No."
    assert "Analyse" in moves_answered(text)[0]
    assert text_problem(text, {"host": "Op_Host0", "activity": "Scan"}, _act("do", "Analyse", "Op_Host0")) is not None
    # a fault asked alone, answered no, still leaves the move standing
    assert moves_answered("Is an Analyse of Op_Host0 ever wasted once it is probed? No.")[0] == frozenset()


@pytest.mark.parametrize("text", [
    "Anything less than a Restore on Op_Server0 is a mistake.",
    "Anything but a Restore on Op_Server0 is a waste of a turn.",
    "On Op_Server0 any move short of a Restore is pointless.",
])
def test_anything_less_than_a_named_move_forbids_not_that_move(text):
    words = read_wording(text)
    assert not any(p.verb == "Restore" for p in words.prohibitions), text
    assert "Restore" not in words.dispreferred, text


@pytest.mark.parametrize("text, level", [
    ("Restore Enterprise2 once it is above user level.", "User"),
    ("Remove the attacker from Enterprise2 while it is below root.", "Privileged"),
    ("Remove the attacker from Enterprise2 while it is under root.", "Privileged"),
    ("Restore Enterprise2 when it climbs higher than user access.", "User"),
])
def test_a_level_said_against_another_is_not_a_level_of_the_table(text, level):
    verb = "Restore" if text.startswith("Restore") else "Remove"
    assert text_problem(text, {"host": "Enterprise2", "compromise": level}, _act("do", verb, "Enterprise2")) is not None


def test_a_level_said_against_another_is_unknown_to_the_gate():
    for row in ("None/User", "None/Privileged"):
        assert refused_rule_holds_on("Reimage Op_Host2 once it is over user level.", Op_Host2=row) is not True
        assert refused_rule_holds_on("Remove the attacker from Op_Host2 while it is under root.", Op_Host2=row) is not True


@pytest.mark.parametrize("text", ["Reimage any newly rooted op host.", "Reimage Op_Host2 if it has just been rooted."])
def test_newly_rooted_is_root(text):
    found = rule_claims(text, with_instruction=True)
    levels = {atom.compromise for atom, negated in atoms_of(found) if not negated and atom.newly_compromised}
    assert levels == {"Privileged"}, text


def _record(text, when, action):
    return SimpleNamespace(when=when, action=action, directive=text, text=text, type=RuleType.CONTENT)


def test_a_note_of_cases_beaten_in_one_case_is_disputed_there():
    note = meaning_of(_record("Op_Host0 probed -> Analyse Op_Host0. Op_Host0 at root -> Restore Op_Host0.",
                              {"any": [{"host": "Op_Host0", "activity": "Scan"}, {"host": "Op_Host0", "compromise": "Privileged"}]},
                              _act("do", "Analyse", "Op_Host0")))
    ban = meaning_of(_record("Never Restore Op_Host0 while it is probed and at root.",
                             {"all": [{"host": "Op_Host0", "activity": "Scan"}, {"host": "Op_Host0", "compromise": "Privileged"}]},
                             _act("never", "Restore", "Op_Host0")))
    both = alert_rows(("Op_Host0", "Scan", "Privileged"))
    assert conflict_in(disputing(note), disputing(ban), both) is True
    # the note does not speak alone for Op_Host0 beside the ban that beat it there (both were injected)
    assert undisputed_hosts(note, [ban], both) == frozenset()
    # where only its Analyse case holds, it is undisputed as before
    probed = alert_rows(("Op_Host0", "Scan", "No"))
    assert undisputed_hosts(note, [ban], probed) == frozenset({"Op_Host0"})


def test_a_ban_in_a_window_of_steps_disputes_in_that_window():
    ban = meaning_of(SimpleNamespace(when=None, action=None, directive="Never Reimage Op_Host1 in the first 4 steps.",
                                     text="Never Reimage Op_Host1 in the first 4 steps.", type=RuleType.CONTENT))
    order = meaning_of(_record("Reimage Op_Host1 once it is at root.", {"host": "Op_Host1", "compromise": "Privileged"},
                               _act("do", "Restore", "Op_Host1")))
    early = read_situation("Step 2 of 30.\nAlerts:\nOp_Host1: Activity None, Compromised Privileged")
    late = read_situation("Step 9 of 30.\nAlerts:\nOp_Host1: Activity None, Compromised Privileged")
    # in its window the ban is a "never" (read as none, both were injected at step 2); after it, no word at all
    assert conflict_in(disputing(ban), disputing(order), early) is True
    assert conflict_in(disputing(ban), disputing(order), late) is False
