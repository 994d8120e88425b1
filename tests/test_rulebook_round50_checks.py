"""Issue 29, round 50 (r50c: the product's checks on forms of text they did not read). Each class is a form whose
condition the checks did not see: a predicate that said more than its words (or a permission turned into an order)
passed them and was kept as a predicate rule:
- a rule whose order is a move on a named host, or a backticked snippet that states a host's state beside a move, is no
  FORMAT rule (a FORMAT rule is injected on every call of its roles) (`compile.format_problem`, `_move_on_host_ordered`);
- an acceptance test's labels, "Given ... When ... Then ..." or "Scenario: ... Then: ...", state the rule's condition
  (`forms.acceptance_test_said`);
- a setting of configuration, "`host.on_<state> = <Verb>`", keys its move to the host's state (`forms.setting_said`);
- "the only time we may X is if ..." permits X there and orders it nowhere (`checks._permitted_only`);
- a host written in shorthand ("E2", "U1") is read by the checks as the table names it (`checks.text_problem`);
- an ordinal step with no count, "at the opening turn of a game", is a window of step 1 alone (`episode._FORMS`).
Each test fails on the product files of 6db5527 (checked: this file run in a `git archive 6db5527` tree). Sentences of
our own, none from a case file."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.authoring.compile import format_problem
from forge.rulebook.language.episode import step_windows
from tests.actions import do, never, prefer
from tests.situations import every_host_alert_lines, refused_rule_holds


def test_a_move_on_a_named_host_is_no_format_rule() -> None:
    for text in ("At the opening turn of a game, put a DecoyTomcat on Enterprise2 and plan nothing more.",
                 "My plan missed the op server. The layout I meant to follow: `Op_Server0: {status: exploited, "
                 "moves: [Restore Op_Server0]}`"):
        assert format_problem(text) is not None, text
    # a rule on the reply's form with an example of a move stays one
    assert format_problem("Write the move and its host alone, e.g. 'Analyse User3', with no reasons.") is None
    assert format_problem("Keep every plan to a single line.") is None


def test_an_acceptance_test_states_its_condition() -> None:
    text = "Case: calm table. Given: nothing flagged on any host. Then: choose Sleep, nothing more"
    assert text_problem(text, {"always": True}, {"mode": "do", "verb": "Sleep", "target": None}) is not None
    lines = "The check I want to pass:\nGiven User3 shows Activity Exploit\nWhen I plan\nThen the plan removes User3.\n"
    assert text_problem(lines, {"always": True}, do("Remove", "User3")) is not None
    assert text_problem(lines, {"host": "User3"}, do("Remove", "User3")) is not None
    assert text_problem(lines, {"host": "User3", "activity": "Exploit"}, do("Remove", "User3")) is None


def test_a_setting_keys_its_move_to_a_state() -> None:
    text = "As a line of my settings file it reads `user3.on_user_compromise = Remove  # never Restore`."
    assert text_problem(text, {"host": "User3"}, prefer("Remove", "Restore", "User3")) is not None
    assert text_problem(text, {"host": "User3", "compromise": "User"}, prefer("Remove", "Restore", "User3")) is None


def test_a_move_permitted_in_one_case_is_no_order() -> None:
    for text in ("The only time we may Remove Op_Host2 is when it shows an exploit; otherwise leave it to a decoy.",
                 "The only case a Sleep is acceptable is if every host reads clean."):
        verb, host = ("Remove", "Op_Host2") if "Remove" in text else ("Sleep", None)
        when = {"host": "Op_Host2", "activity": "Exploit"} if host else {"not": {"compromise": "any"}}
        # (refused as a permission, or, where the reader says "the only time" as "never ... unless", as the unless lost)
        assert text_problem(text, when, {"mode": "do", "verb": verb, "target": host}).startswith(("permission", "negation")), text
    # its prohibition where the case does not hold is no inversion of it
    text = "The only time we may Remove Op_Host2 is when it shows an exploit."
    assert not (text_problem(text, {"host": "Op_Host2", "activity": "Scan"}, never("Remove", "Op_Host2")) or "").startswith("inverted")


def test_hosts_in_shorthand_are_read_as_in_full() -> None:
    # the whole network clean besides the probe: a predicate on the one host is wider, whichever way the host is written
    for text in ("Enterprise0 probed & nothing owned anywhere -> DecoyTomcat Enterprise0.",
                 "E0 probed & nothing owned anywhere -> DecoyTomcat E0."):
        assert text_problem(text, {"host": "Enterprise0", "activity": "Scan", "compromise": "No"},
                            do("DecoyTomcat", "Enterprise0")) is not None, text
    # "absent any exploitation": the negation is the condition, not an exploit asked
    for text in ("Never reimage Op_Host2 absent any exploitation.", "Never reimage OpH2 absent any exploitation."):
        assert text_problem(text, {"host": "Op_Host2", "activity": "Exploit"}, never("Restore", "Op_Host2")) is not None, text
    # a note that borrows another's shape and restates the condition on its own host, in either spelling, is whole
    for text in ("U1: as in kim's Op_Host0 trap note, only with a DecoySmss, and only while U1 is probed & clean.",
                 "User1: as in kim's Op_Host0 trap note, only with a DecoySmss, and only while User1 is probed & clean."):
        assert text_problem(text, {"host": "User1", "activity": "Scan", "compromise": "No"}, do("DecoySmss", "User1")) is None, text


def test_the_opening_turn_is_a_window_of_one_step() -> None:
    text = "At the opening turn of a game, put a DecoyTomcat on Enterprise2 and plan nothing more."
    assert refused_rule_holds(text, "Step 1 of 30.\n" + every_host_alert_lines()) is True
    assert refused_rule_holds(text, "Step 7 of 30.\n" + every_host_alert_lines()) is False
    # a story's first step is no window
    assert step_windows("In the opening turn of seed 1004 we restored a clean box.") == ()
