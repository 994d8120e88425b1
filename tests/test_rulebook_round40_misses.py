"""Issue 29, round 40 (r40m): misses where the product's readers did not read how a condition was phrased.

- The analyst's evidence: a reverse shell with its port in brackets; what the analyses "report" (a finding, not a
  verdict); a file named by its kind and then its names ("a dropper file (drop.sh / drop.exe)"); a file the evidence
  does not list ("no dropper file"); a file's name is no state of a host (a file called escalate-something read as
  escalated, Privileged); the dot inside a file's name or a number ends no clause; "more than <n> connections".
- The checks: a negation inside what the evidence reports is the gate's to judge; a state word inside a file's name
  states no table state.
- The guard: the analyst's own evidence as its source ("the analysed host's evidence lists ..."); a move not made on
  "that user host" is bound to the host the predicate matches; a guard that holds a history states the text's history.
- A quiet net, nothing on any machine: every host quiet (it was read as the opposite).
- A move not made lately, said of a decoy or of any move at all on "that box", and "the defender" who acts, in lower
  case: us, not the host Defender.
- A change said after "unless": no change. The history's lines named as its source. "From step N onwards, <order>":
  an order. "while it still shows <state>", "still untouched", "uncompromised": the state now.
- "a <move> on <situation> beats a <move>": the second is put aside, the condition ends before it; "It is possible
  ..., but I think, <order>". "after just restored": the step after it.

Sentences of our own, none from a case file. Each test fails on the readers at 9c8997e (checked by running this file
with PYTHONPATH at an export of 9c8997e: `git archive 9c8997e`).
"""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.claims import claims
from forge.rulebook.language.condition import semantic_claims
from forge.rulebook.language.guard import complete_claims, guard_claims, reads_whole
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.scope import unplaced
from forge.rulebook.language.history_words import history_directions
from forge.rulebook.language.judged import evidence_away, evidence_tests
from forge.rulebook.language.predicate import parse_predicate, truth
from forge.rulebook.language.situation import read_situation
from forge.rulebook.language.order import gives_order
from forge.rulebook.language.wording import read_wording

from tests.test_rulebook_round39_misses import _table  # a context that states every host (the rest quiet)

_REFUSED = "predicate refused: negation: a check"


def _analyst(host: str, *evidence: str) -> str:
    """An analyst's context on `host` with these evidence lines."""
    lines = "\n".join(f"- {line}" for line in evidence)
    return (f"Host {host}: table Activity None, Compromised Unknown.\nBaseline: 1 processes; users root, pi; OS LINUX.\n"
            f"Current evidence (step 9):\n{lines}\n")


def _value(test, context: str):
    return test.value(context, read_situation(context))


# -- the evidence ----------------------------------------------------------------------------------------------------------

def test_a_shell_with_its_port_in_brackets_is_a_shell():
    # (the port in brackets is part of the shell's mention: nothing of it is left for the host claims to read)
    assert "4444" not in evidence_away("a workstation showing a reverse shell (rport 4444) -> restore it")


def test_what_the_analyses_report_is_a_condition_not_a_verdict():
    assert [t.kind for t in evidence_tests("whenever the analyses report a reverse shell on User2")] == ["shell"]


def test_a_file_named_by_its_kind_then_its_names_is_any_of_them():
    test, = [t for t in evidence_tests("if its evidence has a dropper file (drop.sh or drop.exe) at density 0.7 or more")
             if t.kind == "file"]
    assert _value(test, _analyst("User1", "file drop.exe density 0.8")) is True
    assert _value(test, _analyst("User1", "file drop.sh density 0.9")) is True
    assert _value(test, _analyst("User1", "file drop.sh density 0.5")) is False


def test_a_file_the_evidence_does_not_list():
    test, = [t for t in evidence_tests("while the evidence lists no dropper file") if t.kind == "no file"]
    assert _value(test, _analyst("User1", "file tool.exe density 0.65")) is True
    assert _value(test, _analyst("User1", "file dropper.sh density 0.65")) is False


def test_a_file_name_is_no_state_of_a_host():
    # ("escalate" in a file's name was read as the host escalated: at Privileged)
    assert claims("any host whose evidence lists escalate.exe") is None


def test_a_dot_inside_a_file_name_or_a_number_ends_no_clause():
    words = read_wording("When its evidence shows tool.exe at a density of 0.75 or more, suggest a Restore of the box.")
    assert [c.text for c in words.conditions] == ["When its evidence shows tool.exe at a density of 0.75 or more"]


# -- the checks ------------------------------------------------------------------------------------------------------------

def test_a_negation_inside_the_evidence_is_the_gates_to_judge():
    text = "For the box being analysed, when its row reads Unknown and its evidence lists no dropper file, recommend an Analyse."
    assert text_problem(text, {"compromise": "Unknown"}, {"mode": "do", "verb": "Analyse", "target": "$matched"},
                        "the analysed box's evidence lists no dropper file") is None


def test_a_state_word_inside_a_file_name_states_no_state():
    text = "When the evidence of the box in review lists escalate.sh at a density of 0.75 or more, suggest a Restore of it."
    assert text_problem(text, {"class": "any"}, {"mode": "do", "verb": "Restore", "target": "$matched"},
                        "the box's evidence lists escalate.sh at a density of 0.75 or more") is None


# -- the guard -------------------------------------------------------------------------------------------------------------

def test_the_analysts_own_evidence_guards_by_the_evidence_alone():
    # (None: nothing left for the host claims; judged.py judges the evidence)
    assert guard_claims("the analysed host's evidence lists tool.exe at a density of 0.75 or more",
                        parse_predicate({"class": "User"})) is None


def test_a_decoy_not_placed_on_that_user_host_is_the_matched_hosts():
    when = parse_predicate({"class": "User", "activity": "Scan", "compromise": "No"})
    found = guard_claims("no decoy set up on that user box during the past 3 turns", when)
    history = ("Recent steps: step 5: Analyse Op_Host2 -> reward -0.37 | step 6: Analyse Op_Host2 -> reward -0.37 | "
               "step 7: DecoyTomcat User2 -> reward -0.37 | step 8: Analyse Op_Host2 -> reward -0.37")
    assert truth(found, _table({"User1": "Scan/No"}, history)) is True  # the decoy went to another user host
    assert truth(found, _table({"User2": "Scan/No"}, history)) is False


def test_no_action_on_that_host_is_a_move_not_made_and_the_defender_acts():
    rest = "the defender made no move on that host in those two steps"
    found = claims(rest)
    assert found is not None and reads_whole(rest, found)
    assert "Defender" not in repr(found) and "acted='any'" in repr(found)


# -- quiet, changes, windows ------------------------------------------------------------------------------------------------

def test_a_quiet_net_with_nothing_on_any_host_is_every_host_quiet():
    found = claims("quiet net, nothing on any machine")
    assert truth(found, _table({})) is True
    assert truth(found, _table({"User3": "Scan/No"})) is False


def test_a_change_said_in_an_exception_is_no_change():
    said = history_directions("After a Remove of a box, leave it be for a couple of steps unless the table row changed.")
    assert said.unchanged and not said.turned


def test_the_recent_steps_as_the_source_of_the_history_are_placed():
    text = "When User2 is owned, take it down with a Remove unless the history shows we already removed it within the past two turns."
    found = rule_claims(text, with_instruction=True)
    assert complete_claims(text, found)
    history = ("Recent steps: step 5: Analyse Op_Host2 -> reward -0.37 | step 6: Analyse Op_Host2 -> reward -0.37 | "
               "step 7: Analyse Op_Host2 -> reward -0.37 | step 8: Remove User2 -> reward -0.37")
    assert truth(found, _table({"User2": "None/User"}, history)) is False


def test_a_window_from_a_step_onwards_opens_an_order():
    assert gives_order("From step 20 onwards, plan a Remove of each owned box")


def test_while_it_still_shows_is_the_state_now():
    text = "For Op_Host1, while it still shows a scan, give it a DecoyTomcat."
    found = rule_claims(text, with_instruction=True)
    assert complete_claims(text, found)
    assert truth(found, _table({"Op_Host1": "Scan/No"})) is True


def test_still_untouched_and_uncompromised_are_the_state_now():
    text = "Plan a DecoyTomcat on Enterprise0 whenever Enterprise2 is owned and Enterprise0 is still untouched."
    found = semantic_claims(text, _REFUSED)
    assert truth(found, _table({"Enterprise2": "None/User"})) is True
    assert truth(found, _table({"Enterprise2": "None/User", "Enterprise0": "Scan/No"})) is False
    assert unplaced("on a probed op host that is uncompromised") == []


def test_just_after_a_move_is_the_step_after_it():
    found = guard_claims("after just removed", parse_predicate({"host": "User2"}))
    assert "within=1" in repr(found)


# -- a move judged better than another ---------------------------------------------------------------------------------------

def test_a_move_that_beats_another_puts_it_aside_and_ends_the_condition():
    text = ("I may be wrong about this, but I think, a DecoyTomcat on a probed op host that is uncompromised beats a "
            "Monitor.")
    words = read_wording(text)
    assert words.dispreferred == ("Monitor",)
    assert [c.text for c in words.conditions] == ["on a probed op host that is uncompromised"]


def test_a_doubt_about_what_happened_before_the_order_is_no_part_of_it():
    words = read_wording("It is possible the scan was noise, but I think, a DecoyTomcat beats a Monitor on Op_Host2.")
    assert words.instruction.startswith("I think")


def test_more_than_a_count_of_connections_is_one_more_and_a_plus_is_at_least():
    test, = [t for t in evidence_tests("its evidence has more than four connections on port 8443 from one address")
             if t.kind == "connections"]
    assert _value(test, _analyst("User1", "5 connections on local port 8443 from 192.168.7.7")) is True
    assert _value(test, _analyst("User1", "4 connections on local port 8443 from 192.168.7.7")) is False
    test, = [t for t in evidence_tests("analyses list 8+ conns on port 8443 -> decoy it") if t.kind == "connections"]
    assert _value(test, _analyst("User1", "8 connections on local port 8443 from 192.168.7.7")) is True


# -- emphasis, sequences, outcomes, "the only" ----------------------------------------------------------------------------------

def test_an_emphasis_said_with_nothing_is_no_doubt_of_the_order():
    when = {"host": "Op_Host1", "compromise": "Privileged"}
    assert text_problem("Op_Host1 rooted -> Restore Op_Host1 at once, nothing counts more", when,
                        {"mode": "do", "verb": "Restore", "target": "Op_Host1"}) is None


def test_a_move_put_after_another_with_before_is_the_orders_next_move():
    text = "When Op_Host2 is owned, take User4 down with a Remove before restoring Op_Host2."
    action = {"mode": "do", "verb": "Remove", "target": "User4", "then": [{"verb": "Restore", "target": "Op_Host2"}]}
    assert text_problem(text, {"host": "Op_Host2", "compromise": "any"}, action) is None


def test_a_failed_move_is_said_by_a_history_of_no_change():
    text = "Right after a failed Remove of Op_Host0, plan a Restore of Op_Host0."
    when = {"host": "Op_Host0", "compromise": "any", "acted": "Remove", "within": 1, "changed": False}
    assert text_problem(text, when, {"mode": "do", "verb": "Restore", "target": "Op_Host0"}) is None


def test_the_only_class_host_hit_is_that_host_and_no_other():
    found = claims("when User3 is the only user box hit")
    assert truth(found, _table({"User3": "None/User"})) is True
    assert truth(found, _table({"User3": "None/User", "User0": "None/User"})) is False


def test_a_history_then_another_host_in_a_state_are_two_clauses():
    found = claims("Op_Host2 restored within the past 2 turns + U1 rooted")
    history = ("Recent steps: step 5: Analyse Op_Host0 -> reward -0.37 | step 6: Analyse Op_Host0 -> reward -0.37 | "
               "step 7: Restore Op_Host2 -> reward -0.37 | step 8: Analyse Op_Host0 -> reward -0.37")
    assert truth(found, _table({"User1": "None/Privileged"}, history)) is True
    assert truth(found, _table({}, history)) is False


def test_unchanged_said_aside_keeps_its_how_long():
    words = read_wording("An op box that has sat at root, unchanged, for the past two turns gets no more Analyses; "
                         "Restore it.")
    assert any("two turns" in c.text for c in words.conditions)
