"""Round 55 (r55l): wrong readings the last round's audits found and left, each fixed as a class.

- a compromise level said as a place ("while it is still at user level") is a state: a bare trigger, one with no
  compromise, or the other level alone is refused (checks._stateless, _level_turned); a refused move whose answer states
  a condition of its own is left as it stands (forms._MOVE_REFUSED);
- an order's object said fresh ("any newly rooted user box") keeps its "newly" (rule_claims._fresh_before);
- an exception after an example in its parentheses ("(e.g. User1, not User2)") is kept (forms._EXCEPTION_IN_ASIDE);
- "one of A and B ..., but not both" is exactly one of them (forms.not_both_said);
- "Is X rooted? No. Then ..." is the state denied (forms.state_denied_said);
- "at user level or root" after its subject is either level (clauses._AT_LEVEL);
- a judgement of "anything less" forbids no move (forbidding._OTHER_THAN_MOVE);
- a ban limited by a count or a time is no plain never in disputes (said.said_in_words);
- a note of cases disputes by its move in that move's own case (meaning._disputed_in_its_case, conflict_in).
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.forms import example_aside_away
from forge.rulebook.language.meaning import conflict_in, disputing, meaning_of
from forge.rulebook.language.predicate import AllOf, Atom, Not, atoms_of
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.said import said_in_words
from forge.rulebook.model import RuleType
from tests.situations import alert_rows


def _act(mode, verb, target):
    return {"mode": mode, "verb": verb, "target": target}


# -- a level said as a place ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "A: no. Do not Reimage it then, not while it is still at user level",
    "Never Remove a box while it is still user-level, that only wakes the attacker.",
    "Do not Remove any machine if it sits at user level.",
])
def test_a_ban_said_of_a_level_is_no_ban_on_every_host_shown(text):
    for when in ({"class": "any"}, {"class": "User"}, {"host": "User3"}):
        assert text_problem(text, when, _act("never", "Remove" if "Remove" in text else "Restore", "$matched")) is not None, (text, when)


def test_a_level_the_readers_leave_unplaced_is_held_against_the_other_level_and_none():
    text = "Do not Restore Enterprise2 when Enterprise2 is still at user level, we wait for root."
    rooted = {"host": "Enterprise2", "compromise": "Privileged"}
    assert text_problem(text, rooted, _act("never", "Restore", "Enterprise2")) is not None
    assert text_problem(text, {"host": "Enterprise2", "activity": "Exploit"}, _act("never", "Restore", "Enterprise2")) is not None
    assert text_problem(text, {"host": "Enterprise2", "compromise": "User"}, _act("never", "Restore", "Enterprise2")) is None


def test_a_refused_move_whose_answer_has_its_own_condition_keeps_that_condition():
    text = "Q: should we Remove Op_Host2 once it is probed? A: No, do not Remove it then if it is still at user level."
    probed = {"host": "Op_Host2", "activity": "Scan"}
    assert text_problem(text, probed, _act("never", "Remove", "Op_Host2")) is not None


# -- a fresh compromise of a class ---------------------------------------------------------------------------------------

def test_an_object_said_fresh_of_a_class_keeps_its_newly():
    found = rule_claims("Reimage every freshly rooted enterprise box at once.", with_instruction=True, bare=False)
    assert any(atom.newly_compromised for atom, _ in atoms_of(found))
    text = "Restore any newly owned user box, though not User4."
    assert text_problem(text, {"all": [{"class": "User", "compromise": "Privileged"}, {"not": {"host": "User4"}}]},
                        _act("do", "Restore", "$matched")) is not None


# -- an exception after an example -----------------------------------------------------------------------------------

def test_an_exception_after_an_example_in_brackets_is_kept():
    assert "not User3" in example_aside_away("Remove the exploited user boxes (for instance User1, not User3) first.")
    text = "Restore the rooted enterprise hosts (e.g. Enterprise0, but never Enterprise2)."
    assert text_problem(text, {"class": "Enterprise", "compromise": "Privileged"}, _act("do", "Restore", "$matched")) is not None


# -- not both ----------------------------------------------------------------------------------------------------------

def test_one_of_two_hosts_but_not_both_is_exactly_one():
    found = rule_claims("Analyse Enterprise1 if one of Op_Host1 and Op_Host2 shows a scan, but not both.",
                        with_instruction=True, bare=False)
    assert any(negated for _, negated in atoms_of(found))
    either = {"any": [{"host": "Op_Host1", "activity": "Scan"}, {"host": "Op_Host2", "activity": "Scan"}]}
    text = "If either Op_Host1 or Op_Host2 is probed (not both), Analyse Enterprise1."
    assert text_problem(text, either, _act("do", "Analyse", "Enterprise1")) is not None


# -- a state asked and answered no ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, when, verb, host", [
    ("Is Enterprise1 rooted? No. Then Analyse Enterprise1.", {"host": "Enterprise1", "compromise": "Privileged"}, "Analyse", "Enterprise1"),
    ("Has User4 been exploited? Nope - Remove User4 then.", {"host": "User4", "activity": "Exploit"}, "Remove", "User4"),
])
def test_a_state_asked_and_answered_no_is_no_condition_of_that_state(text, when, verb, host):
    assert text_problem(text, when, _act("do", verb, host)) is not None


def test_the_state_answered_no_is_read_denied():
    found = rule_claims("Is Op_Server0 scanned? No, then Analyse Op_Host0.", with_instruction=True, bare=False)
    assert isinstance(found, Not) or any(negated for _, negated in atoms_of(found))


# -- either level ------------------------------------------------------------------------------------------------------

def test_a_level_or_the_other_after_its_subject_is_either():
    found = rule_claims("Remove any op box at root or user level before it spreads.", with_instruction=True, bare=False)
    assert found == Atom(host_class="Operational", compromise="any")


# -- anything less -----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "Restore Op_Server0 - anything less is not enough.",
    "Restore Op_Server0 \u2014 any lesser move is pointless.",
])
def test_a_judgement_of_every_lesser_move_forbids_no_move(text):
    rooted = {"host": "Op_Server0", "compromise": "Privileged"}
    assert text_problem(text, rooted, _act("never", "Restore", "Op_Server0")) is not None
    assert text_problem(text, rooted, _act("do", "Restore", "Op_Server0")) is None


# -- a limited ban in disputes -----------------------------------------------------------------------------------------

def test_a_limited_ban_is_no_plain_never_in_disputes():
    assert said_in_words("Do not Remove Enterprise2 twice in a row.") is None
    assert said_in_words("Never Restore Op_Host1 yet.") is None
    assert said_in_words("Never Restore Op_Host1.") is not None


# -- a note of cases in disputes ---------------------------------------------------------------------------------------

def _record(text, when, action):
    return SimpleNamespace(when=when, action=action, directive=text, text=text, type=RuleType.CONTENT)


def test_a_note_of_cases_disputes_only_in_the_case_of_its_move():
    note = meaning_of(_record("Enterprise0 probed -> Analyse Enterprise0. Enterprise0 at root -> Restore Enterprise0.",
                              {"any": [{"host": "Enterprise0", "activity": "Scan"}, {"host": "Enterprise0", "compromise": "Privileged"}]},
                              _act("do", "Analyse", "Enterprise0")))
    ban = meaning_of(_record("Once Enterprise0 is at root, never Analyse Enterprise0.", {"host": "Enterprise0", "compromise": "Privileged"},
                             _act("never", "Analyse", "Enterprise0")))
    assert len(note.cases) == 2 and all(isinstance(case.when, AllOf) for case in note.cases)
    rooted = alert_rows(("Enterprise0", "None", "Privileged"))
    assert conflict_in(disputing(note), disputing(ban), rooted) is False
    both = alert_rows(("Enterprise0", "Scan", "Privileged"))
    assert conflict_in(disputing(note), disputing(ban), both) is True
    # (and a teacher against the other case's order disputes it there)
    no_restore = meaning_of(_record("As long as Enterprise0 sits at root, no Restore of it.", {"host": "Enterprise0", "compromise": "Privileged"},
                                    _act("never", "Restore", "Enterprise0")))
    assert conflict_in(disputing(note), disputing(no_restore), rooted) is True


# -- a fault asked of the move, answered no ----------------------------------------------------------------------------

def test_a_fault_asked_of_a_move_and_answered_no_turns_no_move_down():
    from forge.rulebook.language.forms import moves_answered
    assert moves_answered("Would a Remove be wrong once User4 is exploited? No.")[0] == frozenset()
    assert moves_answered("Is a Restore of Op_Host1 ever a waste when it is rooted? Nope.")[0] == frozenset()
    assert "Remove" in moves_answered("Should User4 get a Remove once it is exploited? No.")[0]
