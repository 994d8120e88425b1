"""Issue 29, round 52 (r52h): blind-49's harmful injections, one class a test. Each is a place where the product read a
rule's text wider than its words, or as their opposite:
- a move proposed only to be mocked ("..., what could possibly go wrong", "? Lovely, if you like wasting a step") is
  forbidden, never ordered (forbidding.mocked_moves, read into wording's prohibitions);
- a story of the writer's own move on a host, told with the state the host was in ("I reimaged X while it stood at
  root"), is the situation of the lesson after it, as a story told of the host is (condition._MY_MOVE_TOLD);
- a rule on the reply's form that says the situation it is for without a word of condition, a bare question before it
  or a host in a state as its subject, is no FORMAT rule, which reaches every call (compile._situation_unmarked,
  compile._HOST_IN_STATE);
- an order's bound after its move ("gets an Analyse, nothing more") is no negation of the state the order is for
  (rule_claims.moves_bounded_away);
- a markdown table of cases is one case a row: a ditto cell ("same") repeats the cell above, and a row with no move is
  no case of the rule, whether its lines are as written or run into one (forms.table_cases_said, forms._table_apart);
- "still <state> one step after <move>" is an unchanged row since that move, not the move alone
  (history_words._UNCHANGED_AFTER).
Each test fails on the product files of a664cfe and passes on r52h. Sentences of our own, none from a case file."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.authoring.compile import format_problem
from forge.rulebook.language.condition import semantic_claims
from forge.rulebook.language.predicate import describe
from forge.rulebook.language.wording import read_wording
from tests.actions import do, never, prefer
from tests.situations import refused_rule_holds, refused_rule_holds_on


def test_a_mocked_proposal_is_forbidden_never_ordered() -> None:
    text = "Oh sure, reimage Op_Host2 as soon as a probe touches it, what could possibly go wrong. A probe is no breach."
    assert any(p.verb == "Restore" and "Op_Host2" in p.hosts for p in read_wording(text).prohibitions)
    scanned = {"host": "Op_Host2", "activity": "Scan"}
    assert text_problem(text, scanned, do("Restore", "Op_Host2")) is not None
    assert text_problem(text, scanned, never("Restore", "Op_Host2")) is None
    # the question asked in the sentence, not as a tag closing it, mocks nothing
    weighed = "Once Op_Host2 is rooted, reimage it, having weighed what could go wrong for the staff on it."
    assert not any(p.verb == "Restore" for p in read_wording(weighed).prohibitions)


def test_a_mocking_reply_turns_down_the_question_before_it() -> None:
    text = ("Reimage Enterprise0 the moment it shows user access and no activity? Lovely, if you like wasting a whole "
            "step. Evict the foothold instead.")
    held = {"host": "Enterprise0", "activity": "None", "compromise": "User"}
    assert text_problem(text, held, do("Restore", "Enterprise0")) is not None
    assert text_problem(text, held, prefer("Remove", "Restore", "Enterprise0")) is None


def test_my_move_told_with_the_hosts_state_is_the_lessons_situation() -> None:
    text = ("I restored User3 on turn 4 while it was compromised at user level and showed no activity; the step was thrown "
            "away. In that spot a Remove of User3 is the wiser move than a Restore.")
    assert text_problem(text, {"host": "User3"}, do("Remove", "User3")) is not None
    held = {"host": "User3", "activity": "None", "compromise": "User"}
    assert text_problem(text, held, do("Remove", "User3")) is None
    # kept semantic, the rule is for that state of the host, not for the host in any state
    assert "User3 shows Compromised User" in describe(semantic_claims(text, "predicate refused: bare", text))


def test_a_form_for_one_situation_is_no_format_rule() -> None:
    assert format_problem("Exploited but not yet rooted? then the summary is two words: 'foothold only'.") is not None
    assert format_problem("Any desk showing Privileged heads the plan as 'Restore <desk>' and stays on one line.") is not None
    # a rule on the reply's form with no situation stays one
    assert format_problem("Keep every plan to two short lines, the move first.") is None


def test_a_bound_after_the_move_denies_no_state() -> None:
    text = "Every server reading Unknown gets one Analyse from the chooser, nothing more."
    # where a server reads Unknown, and not where none does (read as a denial of it, the opposite)
    assert [refused_rule_holds_on(text, Enterprise1=row) for row in ("None/Unknown", "None/User")] == [True, False]


def test_a_table_of_cases_repeats_ditto_cells_and_drops_rows_without_a_move() -> None:
    text = ("| box | its row | move |\n|---|---|---|\n| Enterprise0 | Compromised Privileged | Restore |\n"
            "| Enterprise1 | ditto | Restore |\n| Enterprise2 | ditto | - |\n(Enterprise2 is our bait server.)")
    for said in (text, " ".join(text.split())):  # as written, and run into one line as a directive keeps it
        assert refused_rule_holds_on(said, Enterprise1="None/Privileged") is True
        # the ditto row is that state, not the host in any state; the row with no move is no case
        assert refused_rule_holds_on(said, Enterprise1="None/User") is not True
        assert refused_rule_holds_on(said, Enterprise2="None/Privileged") is not True


def test_still_held_a_step_after_the_move_asks_an_unchanged_row() -> None:
    text = "Op_Host2 still compromised one step after the Remove? Restore Op_Host2 then."

    def seen(now: str) -> str:
        return ("Step 22 of 30.\nRecent steps: step 20: Sleep -> reward -2.3 | step 21: Remove Op_Host2 -> reward -2.4\n"
                "Host history (last 2 steps): Op_Host2: step 20 Scan/No, step 21 Exploit/User; every other host: None/No\n\n"
                f"Alerts:\nOp_Host2: Activity None, Compromised {now}")
    assert refused_rule_holds(text, seen("User").replace("Activity None", "Activity Exploit")) is True
    # the row moved after the Remove: the Remove did take, the rule does not hold
    assert refused_rule_holds(text, seen("Unknown")) is not True
