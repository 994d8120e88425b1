"""Issue 29, round 45 (r45s): compilations wider than their rule's words that the product let through, for any compiler.

- a class named only as what the order goes ahead of ("..., schedule its Restore ahead of any work on the user hosts")
  made the one host the text names no subject of "its" / "it": the product read none of the condition, so the gate held a
  compiled "Op_Server0 shows any compromise" to nothing and the rule fired on the Unknown a Remove leaves, which "owned"
  does not say (`scope.subject_of` now leaves out `forbidding.classes_sequenced_only` as it does the classes an order is
  only compared with);
- a closing sentence that sets a situation outside the rule ("a user box at root is a separate question, not addressed
  by this") was read nowhere: a trigger asking only that situation passed every check and fired exactly where the text says
  it does not speak (`checks._not_covered_asked`).
Each test fails on the product files of a3816c6 (checked: this file run in a `git archive a3816c6` tree), but the guards
(what the change must keep). Sentences of our own, none from a case file."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.condition import text_claims
from forge.rulebook.language.predicate import parse_predicate, truth
from forge.rulebook.language.situation import read_situation
from tests.situations import alert_lines

ANALYSE_OVER_RESTORE = {"mode": "prefer", "verb": "Analyse", "target": "$matched",
                        "over": {"verb": "Restore", "target": "$matched"}}


def _fires(text: str, when: dict, context: str):
    """Whether a compiled predicate, held at the gate to what the product reads of its text, holds in `context`."""
    situation = read_situation(context)
    found, whole = text_claims(text)
    compiled = truth(parse_predicate(when), situation)
    if found is None:
        return compiled
    held = truth(found, situation)
    return compiled and held if whole else (compiled and held is not False)


# -- a class named only as what the order goes ahead of --------------------------------------------------------------

def test_a_class_the_order_only_goes_ahead_of_leaves_its_host_the_subject():
    text = ("Looking back, the server bled points the whole run. What I would do now: once the op server has been taken "
            "over, schedule its Restore ahead of any work on the user hosts.")
    owned = {"host": "Op_Server0", "compromise": "any"}
    found, whole = text_claims(text)
    assert found is not None and whole
    # "taken over" is said for sure: not met at what a Remove leaves behind
    assert _fires(text, owned, alert_lines(Op_Server0="None/Unknown", User2="None/User")) is False
    # guards: a real compromise still meets it, and a clean server does not
    assert _fires(text, owned, alert_lines(Op_Server0="None/User", User2="None/User")) is True
    assert _fires(text, owned, alert_lines(Op_Server0="Scan/No")) is False


# -- a situation the text sets outside its rule ------------------------------------------------------------------------

def test_a_trigger_on_the_situation_a_note_leaves_uncovered_is_refused():
    text = ("Rebooting boxes that only read Unknown wasted my turns. My rule: a user box left at Compromised Unknown should get an "
            "Analyse, rather than any Restore. A user box at root, say User2 last run, is a separate question, not "
            "addressed by this.")
    problem = text_problem(text, {"class": "User", "compromise": "Privileged"}, ANALYSE_OVER_RESTORE)
    assert problem is not None and problem.startswith("except:")
    # guard: the situation the note does cover passes
    assert text_problem(text, {"class": "User", "compromise": "Unknown"}, ANALYSE_OVER_RESTORE) is None


def test_a_situation_set_aside_with_its_own_order_after_it_is_a_case_not_a_refusal():
    # guard: "... is another story: <order>" gives that situation an order of its own
    text = "Enterprise1 at root is another story: restore that one at once."
    assert text_problem(text, {"host": "Enterprise1", "compromise": "Privileged"},
                        {"mode": "do", "verb": "Restore", "target": "Enterprise1"}) is None


# -- a compromise said for sure, where the product reads nothing of the condition ---------------------------------------

def test_a_compromise_said_for_sure_holds_a_compiled_any_compromise_where_nothing_else_is_read(tmp_path):
    """"<host> owned? ..." in words the product's reading does not place: the gate held the compiled "any compromise" to
    nothing, and the rule fired on the host's row at Compromised Unknown (what a Remove leaves behind), which "owned" does not
    say. What the words say for sure holds, as in a reading in part (`retrieve._compromise_said_for_sure`)."""
    from tests.test_rulebook_claims_scope import taught
    from tests.test_rulebook_text_checks import entry, reply
    from tests.actions import do
    text = "Op_Server0 owned? Then its Restore goes first, ahead of everything."
    assert text_claims(text) == (None, False)  # (the reading places nothing of it)
    when = {"host": "Op_Server0", "compromise": "any"}
    assert text_problem(text, when, do("Restore", "Op_Server0")) is None
    record, injected = taught(tmp_path, text, reply(entry(when, do("Restore", "Op_Server0"))))
    assert record.when is not None  # (kept as compiled: the checks accept it)
    assert not injected(alert_lines(Op_Server0="None/Unknown"))
    # guards: a compromise known for sure meets it; a clean server does not
    assert injected(alert_lines(Op_Server0="None/User"))
    assert not injected(alert_lines(Op_Server0="Scan/No"))


def test_words_that_leave_the_level_open_keep_any_compromise(tmp_path):
    # guard: "whatever level", "Unknown" in the words: the compiled any compromise stands as it is
    from tests.test_rulebook_claims_scope import taught
    from tests.test_rulebook_text_checks import entry, reply
    from tests.actions import do
    text = "Op_Server0 owned at whatever level, Unknown included? Then its Restore goes first, ahead of everything."
    when = {"host": "Op_Server0", "compromise": "any"}
    assert text_claims(text) == (None, False) and text_problem(text, when, do("Restore", "Op_Server0")) is None
    _, injected = taught(tmp_path, text, reply(entry(when, do("Restore", "Op_Server0"))))
    assert injected(alert_lines(Op_Server0="None/Unknown"))
