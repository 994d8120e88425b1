"""Issue 29, round 44 (r44m): misses on blind-41 where the reader did not read how a note was phrased, so a rule kept
semantic stayed silent where its words apply (or a faithful compilation was refused).

- Another move kept for a narrower case of the note's own, after its order ("...; if it is at root by then, Restore it
  instead", "..., a Restore only once it is rooted", "..., Analyse if a decoy is already on it", "...; if the last
  Remove failed, a Restore", "... then a Restore in case the Remove did not work"): the note applies wherever its first case
  holds; the later case only picks the move and is no condition of it (read as one, the note asked both cases at once,
  or a history no context states, and was silent).
- A state put on the next host by a preposition after a joiner ("Op_Server0 clean and an exploit running on Enterprise1"):
  that host's state, not the one before it.
- An example set in parentheses ("(e.g. E0 in seed 12)"): no condition or scope of the note.
- A state denied without its subject after a comma ("U2 probed, unless already owned"): the subject's state denied, and
  the state before it kept.
- A lead that sets the note beside another note ("User4 is another case than the User2 note:"): no situation.
- An activity still under way ("an exploit still running"): its row's activity now, no history.
- The host the teacher analyses ("the host I analyse"): the host at hand, not the host a story before names; a state
  shown "in its table" is its row's.

Sentences of our own, none from a case file. Each test fails at 6d6534f (checked by running this file with PYTHONPATH
at an export of 6d6534f: `git archive 6d6534f`)."""

from __future__ import annotations

from forge.rulebook.language.condition import condition_of, facts_unread, semantic_claims
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.predicate import truth
from forge.rulebook.language.situation import read_situation
from forge.rulebook.language.wording import read_wording


def _alerts(*rows: tuple[str, str, str]) -> str:
    """An action chooser's context whose alerts list `rows` (host, activity, compromise)."""
    said = ", ".join(f"{h} shows Activity {a}, Compromised {c}" for h, a, c in rows)
    listed = "\n".join(f"{h}: Activity {a}, Compromised {c}" for h, a, c in rows)
    return f"Situation (from the Planner): {said}\n\nAlerts:\n{listed}\n"


def _held(text: str, *rows: tuple[str, str, str]):
    """A semantic rule's claims (as the gate holds it) on a context of `rows`."""
    return truth(semantic_claims(text), read_situation(_alerts(*rows)))


# -- another move kept for a narrower case ------------------------------------------------------------------------------

def test_a_move_kept_for_a_deeper_level_is_no_condition_of_the_note():
    text = "Enterprise1, the moment it is owned: go for a Remove; if it is at root by then, Restore it instead."
    assert _held(text, ("Enterprise1", "Exploit", "User")) is True
    assert _held(text, ("Enterprise1", "None", "Privileged")) is True
    assert _held(text, ("Enterprise1", "Scan", "No")) is not True
    shorthand = "E1 exploited, not at root -> Remove E1, a Restore only once it is rooted"
    assert _held(shorthand, ("Enterprise1", "Exploit", "User")) is True
    assert _held(shorthand, ("Enterprise1", "Exploit", "Privileged")) is not True  # (its first case denies root)


def test_a_move_kept_for_what_was_done_before_needs_no_history():
    text = "For User2 under exploit, pick a Remove; if the last Remove on it failed, a Restore."
    assert facts_unread(condition_of(text)) == frozenset()
    assert _held(text, ("User2", "Exploit", "User")) is True
    assert _held(text, ("User2", "None", "User")) is not True
    listed = "U2 scanned only -> DecoyVsftpd first, Analyse if a decoy is already on it"
    assert _held(listed, ("User2", "Scan", "No")) is True
    outcome = "root-level E2 -> Restore first; Remove only if that Restore fails"
    assert _held(outcome, ("Enterprise2", "None", "Privileged")) is True
    # without a first case before it, the clause's condition is the note's own: still unread, so silent
    alone = "Restore User2 only if the Remove of it fails"
    assert _held(alone, ("User2", "None", "User")) is not True


def test_what_a_later_move_of_a_sequence_is_there_for_is_no_condition():
    text = ("Once User4 is exploited, the plan is a Remove of User4, followed one step later by a Restore of User4 in "
            "case the Remove did not work.")
    assert facts_unread(condition_of(text)) == frozenset()
    assert _held(text, ("User4", "Exploit", "User")) is True
    assert _held(text, ("User4", "Scan", "No")) is not True


# -- a state put on the next host -------------------------------------------------------------------------------------------

def test_a_state_put_on_the_next_host_is_that_hosts():
    text = "Op_Server0 clean and an exploit running on Enterprise1 -> DecoyApache on Op_Server0"
    assert _held(text, ("Enterprise1", "Exploit", "User"), ("Op_Server0", "None", "No")) is True
    assert _held(text, ("Enterprise1", "None", "User"), ("Op_Server0", "Exploit", "No")) is not True
    found = rule_claims("User4 quiet and a scan seen on User3, decoy User3", with_instruction=True)
    assert truth(found, read_situation(_alerts(("User4", "None", "No"), ("User3", "Scan", "No")))) is True


# -- an example in parentheses -------------------------------------------------------------------------------------------------

def test_an_example_in_parentheses_is_no_condition():
    text = "user box owned (e.g. U3 in seed 12) -> Remove that box. holds for each user box"
    assert read_wording(text).situation.strip() == "user box owned"
    assert _held(text, ("User1", "None", "User")) is True
    assert _held(text, ("User1", "Scan", "No")) is not True


# -- "unless already owned" after a state ---------------------------------------------------------------------------------------

def test_a_state_denied_without_its_subject_keeps_the_state_before_it():
    text = "U2 probed, unless already owned -> DecoySSHD on U2"
    assert _held(text, ("User2", "Scan", "No")) is True
    assert _held(text, ("User2", "Scan", "User")) is not True
    assert _held(text, ("User2", "None", "No")) is not True


# -- a lead that sets the note beside another ---------------------------------------------------------------------------------

def test_a_lead_that_sets_the_note_beside_another_is_no_situation():
    text = "User4 is another case than the User2 note: once User4 gets scanned, a DecoySSHD goes on User4."
    assert read_wording(text).situation == ""
    assert _held(text, ("User4", "Scan", "No")) is True
    assert _held(text, ("User2", "Scan", "No")) is not True


# -- an activity still under way ------------------------------------------------------------------------------------------------

def test_an_exploit_still_running_is_its_row_now():
    text = "E0 @ Privileged w/ exploit still running -> Restore E0"
    assert facts_unread(condition_of(text)) == frozenset()
    assert _held(text, ("Enterprise0", "Exploit", "Privileged")) is True
    assert _held(text, ("Enterprise0", "None", "Privileged")) is not True


# -- the host the teacher analyses ------------------------------------------------------------------------------------------------

def test_the_host_i_analyse_is_the_host_at_hand():
    text = ("Last time I looked at User1's analysis and recommended nothing. From now on: whenever the host I analyse has a "
            "scan in its table, recommend a DecoyTomcat on that host.")
    found = rule_claims(text, with_instruction=True)
    assert truth(found, read_situation(_alerts(("User3", "Scan", "No")))) is True
    assert truth(found, read_situation(_alerts(("User3", "None", "No")))) is not True
