"""Issue 29, round 35 (r35m, blind-32's missed injections): rules in structured or loosely written forms whose
situation's "not" the reader took for a negation of the order, so the checks refused a right compilation (kept semantic,
silent where it applied):

- a rule written as labelled lines ("host: ... / state: ... / move: ... / avoid: ...") or as a one-row markdown table
  under a labelled header is the sentence a note would write ("When <host> is <state>: <move>. Avoid <what>.");
- "recomend" / "reccomend" is "recommend", "usr level" is "user level" (the note's typo and shorthand);
- "the last Remove", "our Restore" in a condition is the defender's earlier move, no order opening a new clause;
- "and nothing softer / gentler / milder" and "a Remove of User4 alone" keep the order to one move and one host, no
  negation of it.

Sentences of our own, none from a case file. Tests marked "guard" pass without the change too."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.wording import read_wording
from tests.actions import do


_SCANNED_CLEAN = {"host": "User4", "activity": "Scan", "compromise": "No"}


# -- labelled lines and one-row tables --------------------------------------------------------------------------------

def test_labelled_lines_with_a_negated_state_compile():
    text = "target: User4\ncondition: scanned, not yet compromised\nresponse: DecoySSHD User4\nnever: Remove User4"
    assert text_problem(text, _SCANNED_CLEAN, do("DecoySSHD", "User4")) is None


def test_bulleted_labelled_lines_read_their_state_as_the_condition():
    text = "* hosts: User4\n* if: scanned, not compromised\n* do: DecoySSHD User4"
    words = read_wording(text)
    assert [c.text for c in words.conditions] == ["When User4 is scanned and not compromised"]
    assert text_problem(text, _SCANNED_CLEAN, do("DecoySSHD", "User4")) is None


def test_labelled_avoid_line_is_a_prohibition():
    text = "host: Op_Host1\nstatus: privileged\nmove: Restore Op_Host1\navoid: Remove Op_Host1"
    words = read_wording(text)
    assert [(p.verb, p.hosts) for p in words.prohibitions] == [("Remove", ("Op_Host1",))]


def test_guard_a_labelled_refusal_of_the_verb_stays_refused():
    # guard: the "do" line itself turns the verb down; read as a sentence it still does
    text = "host: Op_Host1\nwhen: exploited\ndo: never Restore Op_Host1"
    assert text_problem(text, {"host": "Op_Host1", "activity": "Exploit"}, do("Restore", "Op_Host1")) is not None


def test_guard_lines_with_a_label_not_known_are_left_as_written():
    # guard: "owner:" is no label of a rule's form; the text is read as it stood
    text = "owner: team blue\nwhen: scanned\ndo: DecoySSHD User4"
    assert not read_wording(text).instruction.startswith("When ")


def test_one_row_table_with_a_negated_state_compiles():
    text = "| condition | action |\n|---|---|\n| User4 scanned, not compromised | DecoySSHD User4 |"
    assert text_problem(text, _SCANNED_CLEAN, do("DecoySSHD", "User4")) is None


def test_guard_a_table_of_two_rows_is_not_read_as_one_rule():
    # guard: two rows are two rules; no single condition is read from them
    text = ("| condition | action |\n|---|---|\n| User4 scanned, not compromised | DecoySSHD User4 |\n"
            "| User4 rooted | Restore User4 |")
    assert not read_wording(text).instruction.startswith("When ")


# -- the note's typos and shorthand -------------------------------------------------------------------------------------

def test_misspelt_recommend_after_an_arrow_is_the_order():
    text = "op_host2 exploited but only usr lvl, not root => reccomend a Remove on Op_Host2"
    when = {"host": "Op_Host2", "activity": "Exploit", "compromise": "User"}
    assert text_problem(text, when, do("Remove", "Op_Host2")) is None


def test_usr_level_is_user_level():
    words = read_wording("If User0 sits at usr-level, recommend Remove on User0.")
    assert "user-level" in words.text


# -- the defender's earlier move in a condition --------------------------------------------------------------------------

def test_the_last_move_inside_a_condition_is_no_new_order():
    text = "If our previous Restore of Enterprise0 did not clean it up and Enterprise0 is owned again, remove Enterprise0."
    words = read_wording(text)
    assert any("owned again" in c.text for c in words.conditions)
    when = {"host": "Enterprise0", "compromise": "any", "acted": "Restore", "within": 4, "changed": False}
    assert text_problem(text, when, do("Remove", "Enterprise0")) is None


# -- one move, one host ----------------------------------------------------------------------------------------------------

def test_and_nothing_softer_keeps_the_order():
    text = "When Op_Host0 is at root, PLAN a Restore of OP_HOST0 and nothing softer."
    assert text_problem(text, {"host": "Op_Host0", "compromise": "Privileged"}, do("Restore", "Op_Host0")) is None


def test_a_move_on_one_host_alone_keeps_the_order():
    text = "Whenever Enterprise1 is exploited, choose a Remove on Enterprise1 alone."
    assert text_problem(text, {"host": "Enterprise1", "activity": "Exploit"}, do("Remove", "Enterprise1")) is None


def test_guard_leave_the_host_alone_still_refuses_the_order():
    # guard: "leave Enterprise1 alone" turns every move on it down
    text = "Whenever Enterprise1 is exploited, leave Enterprise1 alone."
    assert text_problem(text, {"host": "Enterprise1", "activity": "Exploit"}, do("Remove", "Enterprise1")) is not None


# -- counts over named hosts -----------------------------------------------------------------------------------------------

def test_neither_nor_with_shows_is_no_compromise_on_both():
    text = "If neither User0 nor User4 shows any compromise, plan a DecoySSHD on User4."
    when = {"all": [{"host": "User0", "compromise": "No"}, {"host": "User4", "compromise": "No"}]}
    assert text_problem(text, when, do("DecoySSHD", "User4")) is None


def test_guard_neither_nor_refuses_a_predicate_of_a_compromise():
    # guard (the reading's other side): a compromise on either host is what the text rules out
    text = "If neither User0 nor User4 shows any compromise, plan a DecoySSHD on User4."
    when = {"host": "User4", "compromise": "any"}
    assert text_problem(text, when, do("DecoySSHD", "User4")) is not None


def test_or_in_capitals_is_one_of_the_hosts():
    text = "whenever enterprise 0 OR enterprise 1 is under Exploit, suggest a Remove of THAT server."
    when = {"any": [{"host": "Enterprise0", "activity": "Exploit"}, {"host": "Enterprise1", "activity": "Exploit"}]}
    assert text_problem(text, when, do("Remove", "$matched")) is None


def test_labelled_next_move_follows_the_order():
    text = "trigger: Op_Host0 row reads User (not Privileged)\nplan: Remove Op_Host0\nthen: Analyse Op_Host0"
    action = {"mode": "do", "verb": "Remove", "target": "Op_Host0", "then": [{"verb": "Analyse", "target": "Op_Host0"}]}
    assert text_problem(text, {"host": "Op_Host0", "compromise": "User"}, action) is None
