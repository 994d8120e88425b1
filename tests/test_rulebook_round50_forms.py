"""Issue 29, round 50 (r50m): rules written in forms the reader did not read, whose faithful compilation the checks then
refused (the rule was kept semantic and its gate stayed silent). Each class is a form said in the words the reader reads
(forms.py, applied by wording.read_wording):
- a condition in code on the host a snippet is written for, a variable rather than a name ("if node.activity ==
  'Scan' and node.compromised == 'No':"): the dot after the variable ended the sentence and its quiet value was left in
  the order's clause as a negation no reading placed (`_CODE_VARIABLE_COMPARISON`);
- a move allowed at one time only, "the only time you may <move> is when <condition>": it forbids the move at every
  other time, "never <move> unless <condition>" (`_ONLY_TIME_ALLOWED`); read as it stood, a compiled "never" was
  refused as the text's opposite;
- an acceptance test in its lines, "Given ... / When I plan / Then ...": "When <given>: <then>." (`acceptance_test_said`);
  the "When I plan" line was read as the condition, and its clause took the order's first move;
- a form of labelled lines with comments ("# ..." lines, "  # ..." after a value): the comments are notes beside the
  form, not lines of it (`_comments_apart`); with one, the form was not read at all;
- a configuration section for a host with a move turned off ("[hosts.User4]" / "remove = off"): a prohibition of that
  move on that host (`config_section_said`);
- a decision tree drawn in text, its branches on lines that open with a branch mark ("\u251c\u2500 <case> \u2500\u2500>
  <move>"): each branch a case of a note of cases (`tree_said`); drawn, the branches ran into one clause and a case's
  "nothing owned" stood beside the move as a negation no reading placed;
- a periodic window of steps, "every fourth turn (4, 8, 12, ...)", "at turns 2, 7, 12 and so on": the steps of that stride
  (episode.EpisodeStep `every`, `at`); read as no window at all, a rule guarded by it was silent at every step.
Each test fails on the product files of 6db5527 (checked: this file run in a `git archive 6db5527` tree). Sentences of
our own, none from a case file."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.episode import step_windows
from tests.actions import do, never
from tests.situations import alert_lines, refused_rule_holds


def test_code_condition_on_a_host_variable_is_read() -> None:
    text = ('def triage(node):\n'
            '    if node.activity == "Scan" and node.compromised == "No":\n'
            '        return "DecoySSHD " + node.name   # they are looking for a way in\n')
    assert text_problem(text, {"activity": "Scan", "compromise": "No"}, do("DecoySSHD")) is None
    # a class's prefix on the variable keeps the class
    classed = 'if ent_box.activity == "Exploit": suggest Remove(ent_box)  # before it settles'
    assert text_problem(classed, {"class": "Enterprise", "activity": "Exploit"}, do("Remove")) is None


def test_the_only_time_a_move_is_allowed_forbids_it_otherwise() -> None:
    text = "The only time we may Remove User4 is while its row reads Compromised User; above that it needs a Restore."
    elsewhere = {"all": [{"host": "User4"}, {"not": {"host": "User4", "compromise": "User"}}]}
    assert text_problem(text, elsewhere, never("Remove", "User4")) is None
    # said of the move, and of a time when nothing shows: never the move while something does
    judged = "My own rule now: the only time Monitor is fine is when no machine shows Activity Scan."
    assert text_problem(judged, {"activity": "Scan"}, never("Monitor", "any")) is None


def test_an_acceptance_test_in_lines_is_a_condition_and_its_order() -> None:
    text = ("The test I flunked here, put in writing so it sticks:\n"
            "Given Op_Host1 shows Activity Exploit\n"
            "When the planner is asked\n"
            "Then the plan is Analyse Op_Host1, then Restore Op_Host1.\n"
            "I picked Monitor at that point and lost the host.\n")
    action = {**do("Analyse", "Op_Host1"), "then": [{"verb": "Restore", "target": "Op_Host1"}]}
    assert text_problem(text, {"host": "Op_Host1", "activity": "Exploit"}, action) is None


def test_comments_beside_a_form_are_no_lines_of_it() -> None:
    text = ("# defence/op-side.yaml\n"
            "hosts: [Op_Host0, Op_Host2]\n"
            "when: exploited\n"
            "action: Restore      # both sit behind the user subnet, so act early\n")
    when = {"any": [{"host": "Op_Host0", "activity": "Exploit"}, {"host": "Op_Host2", "activity": "Exploit"}]}
    assert text_problem(text, when, do("Restore")) is None


def test_a_move_turned_off_in_a_hosts_section_is_a_prohibition() -> None:
    text = ("[hosts.User4]\n"
            "; the kiosk box: rebuilding it locks the lobby screens for an hour\n"
            "restore = off\n")
    assert text_problem(text, {"host": "User4"}, never("Restore", "User4")) is None


def test_a_drawn_decision_tree_is_a_note_of_cases() -> None:
    text = ("enterprise server alert?\n"
            " \u251c\u2500 scanned, nothing owned yet \u2500\u2500> DecoySSHD on that server\n"
            " \u2514\u2500 owned or exploited \u2500\u2500\u2500\u2500\u2500> Restore that server\n")
    assert text_problem(text, {"class": "Enterprise", "activity": "Scan", "compromise": "No"}, do("DecoySSHD"),
                        "other cases: owned or exploited -> Restore that server") is None


def test_a_code_rule_kept_semantic_reads_its_condition_whole() -> None:
    # (the function's header is no condition, and two comparisons on one variable are one host's row)
    text = ('def triage(node):\n'
            '    if node.activity == "Scan" and node.compromised == "No":\n'
            '        return "DecoySSHD " + node.name\n')
    assert refused_rule_holds(text, alert_lines(User3="Scan/No")) is True
    assert refused_rule_holds(text, alert_lines(User3="Scan/User")) is not True


def test_a_time_stamped_log_line_ends_where_its_line_ends() -> None:
    text = ("INCIDENT 4471 | state: closed | owner: pat\n"
            "2026-10-02T17:20:44Z planner queued Sleep; User4 row: Activity Scan, Compromised No\n"
            "Fix: a scan on User4 gets a DecoySSHD on User4 in that very step. Sleep is no answer there.\n")
    assert text_problem(text, {"host": "User4", "activity": "Scan"}, do("DecoySSHD", "User4")) is None


def test_a_periodic_window_holds_at_the_steps_of_its_stride() -> None:
    (every_fourth,) = step_windows("check Op_Host0 again every fourth turn (4, 8, 12, ...)")
    assert [every_fourth.truth(n, n, 30) for n in (4, 5, 8, 10, 12)] == [True, False, True, False, True]
    (listed,) = step_windows("a decoy on User1 at turns 2, 7, 12 and so on")
    assert [listed.truth(n, n, 30) for n in (2, 3, 7, 12, 13)] == [True, False, True, True, False]
    # a context whose step is not known to one value stays unknown
    assert every_fourth.truth(4, None, 30) is None
    # no one stride, or none said: a period whose steps the words leave open, true nowhere and false nowhere
    for said in ("at turns 2, 3, 7 and so on", "look at it every other turn"):
        (open_period,) = step_windows(said)
        assert {open_period.truth(n, n, 30) for n in range(1, 13)} == {None}
