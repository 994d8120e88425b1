"""Issue 29, round 50 (r50a): an audit of the readings added this round (r50g, r50m) for words they read more than they
say. Each class below is a reading narrowed so that it reads what the words mean:
- "the only time you <move> is when <c>" said of a move refused ("should not", "shouldn't", "skip") or owed ("must",
  "have to", "need to"): no permission, so no "never <move> unless <c>" (`forms._NOT_A_PERMISSION`); read as one, the
  refused move was forbidden at every other time, the opposite of its words;
- a window of steps said as the exception ("on every turn except every fifth turn", "except at the opening turn of a
  game", "except for turns 2-4"): the steps the rule does not reach (`episode._EXCEPTED_BEFORE`); read as said, the rule
  held at the very steps set aside;
- "REASON, so for <scope> we should <move>" where the scope names a host bare or sets a host aside ("for anything but
  User3"): the reason's state is the condition, as before this round (`order._SCOPE_SET_ASIDE`, `order.so_order`); the
  scope as the order held the move on that host in any state;
- a quoted form given as an example of what to write ("answer with one line like `...`"): the reply's form, no decision
  (`compile._EXAMPLE_LEAD`);
- "Then again, ..." on a line after a "Given ..." line: the idiom, no step of an acceptance test (`forms._TEST_LINE`);
- a configuration setting whose name says more than its move ("remove_when_scanned = off", "skip restore = no"): no
  prohibition of the move (`forms._move_named_alone`).
Each test fails on the product files of 1ef4a1a (checked: `git stash` of the product files, this file kept). Sentences
of our own, none from a case file."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.authoring.compile import looks_like_format
from tests.actions import do, never
from tests.situations import alert_lines, refused_rule_holds, refused_rule_holds_on


def _at_step(step: int, **rows: str) -> str:
    return f"Step {step} of 30.\n" + alert_lines(**rows)


def test_the_only_time_a_move_is_refused_or_owed_is_no_permission() -> None:
    refused = "The one time we should not Restore Enterprise1 is once it shows a root foothold."
    elsewhere = {"all": [{"host": "Enterprise1"}, {"not": {"host": "Enterprise1", "compromise": "Privileged"}}]}
    assert text_problem(refused, elsewhere, never("Restore", "Enterprise1")) is not None
    owed = "The only time you have to Remove Op_Host2 is when an exploit runs on it."
    quiet = {"all": [{"host": "Op_Host2"}, {"not": {"host": "Op_Host2", "activity": "Exploit"}}]}
    assert text_problem(owed, quiet, never("Remove", "Op_Host2")) is not None
    # a permission still forbids the move at other times
    allowed = "The only time you may Remove Op_Host2 is when an exploit runs on it."
    assert text_problem(allowed, quiet, never("Remove", "Op_Host2")) is None


def test_a_window_said_as_the_exception_is_the_steps_it_sets_aside() -> None:
    periodic = "Plan an Analyse of User3 on every turn except every fifth turn."
    assert refused_rule_holds(periodic, _at_step(7, User3="Scan/No")) is True
    assert refused_rule_holds(periodic, _at_step(10, User3="Scan/No")) is not True
    ranged = "Except for turns 2-4, plan an Analyse of User3."
    assert refused_rule_holds(ranged, _at_step(3, User3="Scan/No")) is not True
    assert refused_rule_holds(ranged, _at_step(8, User3="Scan/No")) is True
    placed = "Plan an Analyse of User3, except at the opening turn of a game."
    assert refused_rule_holds(placed, _at_step(1, User3="Scan/No")) is not True


def test_a_bare_or_set_aside_scope_after_so_keeps_the_reasons_state() -> None:
    bare = "One probe is weak evidence on its own, so for User3 we should propose an Analyse."
    assert refused_rule_holds_on(bare, User3="None/No") is not True
    aside = "One probe is weak evidence on its own, so for anything but User3 we should propose an Analyse."
    assert refused_rule_holds_on(aside, User2="None/No") is not True


def test_an_example_of_the_reply_quoted_is_the_reply_form() -> None:
    assert looks_like_format("Answer with a single line like `Op_Host1 exploited -> Remove Op_Host1`, nothing else.")
    assert looks_like_format('Reply in JSON shaped like {"host": "User2", "state": "rooted", "action": "Restore"}.')


def test_then_again_is_no_step_of_an_acceptance_test() -> None:
    text = ("Given how noisy Enterprise0 tends to be\n"
            "Then again, a Remove there costs us, so only Analyse it when it shows a scan.\n")
    assert text_problem(text, {"host": "Enterprise0", "compromise": "User"}, do("Analyse", "Enterprise0")) is not None


def test_a_setting_named_more_than_its_move_is_no_prohibition() -> None:
    text = "[ops.Op_Host1]\nremove_when_scanned = off\n"
    assert text_problem(text, {"host": "Op_Host1"}, never("Remove", "Op_Host1")) is not None
