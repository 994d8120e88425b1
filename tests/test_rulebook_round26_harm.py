"""Issue 29, round 26 (blind-23's harmful and outranked injections, and the reference compiler's misses): readings
whose absence let a rule fire wider than its words or opposite to them. Sentences of our own, none from a case file."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.authoring.compile import format_problem, looks_like_format
from forge.rulebook.language.order import gives_order
from forge.rulebook.language.wording import read_wording
from forge.rulebook.model import Evidence, RuleStatus
from forge.rulebook.store.curation import Teaching
from tests.plan_book import PlanBook


def teaching(text: str, actor: str, when=None, action=None, roles=("action_chooser",)) -> Teaching:
    return Teaching(text, "CONTENT", roles, "g", actor, Evidence("failure", actor, text[:40], 1),
                    trigger="dn-x", compiled_by="model", when=when, action=action, text=text)


# -- a list of hosts (a range written out) is the whole prohibition's, not its last items ------------------------------

def test_a_listed_subject_of_a_passive_prohibition_is_every_host_of_the_list():
    for text in ("Enterprise0 to Enterprise2 must never be restored.",
                 "Ent0, Ent1 and Ent2 should never be restored, whatever they show."):
        (found,) = read_wording(text).prohibitions
        assert found.verb == "Restore" and set(found.hosts) == {"Enterprise0", "Enterprise1", "Enterprise2"}, text


def test_a_listed_object_of_a_prohibition_is_every_host_of_the_list():
    for text in ("Do not restore User2 through User4, they hold the green agents.", "Never restore User2, User3 or User4."):
        (found,) = read_wording(text).prohibitions
        assert set(found.hosts) == {"User2", "User3", "User4"}, text


def test_a_prohibition_on_a_listed_range_compiled_as_an_order_on_its_first_host_is_refused():
    problem = text_problem("Enterprise0 to Enterprise2 must never be restored.", {"host": "Enterprise0"},
                           {"verb": "Restore", "target": "Enterprise0", "mode": "do"})
    assert problem is not None and problem.startswith("prohibition:")


def test_a_comma_that_ends_a_clause_is_no_list():
    # a guard (passes without the fix too): two hosts with no "and" / "or" before the second are no list
    (found,) = read_wording("Never restore User1, User2 is the one that needs it.").prohibitions
    assert found.hosts == ("User1",)


# -- a move ordered under a condition is no rule on the reply's form --------------------------------------------------

def test_a_move_ordered_under_a_condition_is_no_format_rule():
    text = "When nobody is doing anything anywhere, plan a Sleep and nothing else."
    assert format_problem(text) is not None and not looks_like_format(text)


def test_a_reply_form_rule_stays_a_format_rule():
    # a guard (passes without the fix too): an order on the reply's form, with or without a condition, names no move
    assert looks_like_format("Reply in one line and nothing else.")
    assert format_problem("When you are unsure, answer with one line and nothing else.") is None


# -- a revision that restates the teacher's own order with its condition changed replaces it ---------------------------

NEVER_ANALYSE_U3 = {"verb": "Analyse", "target": "User3", "mode": "never"}


def _earlier_status_after(later: str) -> RuleStatus:
    """The status of a teacher's rule (no Analyse of User3 for a step after one) once they teach `later`, the same
    action on a four-step window."""
    book = PlanBook()
    old = teaching("Hold off on analysing User3 for a single step once it has been analysed.", "user:kim",
                   {"host": "User3", "acted": "Analyse", "within": 1}, NEVER_ANALYSE_U3)
    book.apply(old)
    book.apply(teaching(later, "user:kim", {"host": "User3", "acted": "Analyse", "within": 4}, NEVER_ANALYSE_U3))
    return book.records[old.rule_id].status


def test_a_revision_of_the_same_order_with_another_window_replaces_the_earlier_one():
    later = "Correction: U3 looked at in any of the past four steps => hold off another Analyse on U3"
    assert _earlier_status_after(later) == RuleStatus.SUPERSEDED


def test_the_same_order_with_another_window_and_no_revision_words_leaves_both():
    # a guard (passes without the fix too): without words of revision the two agreeing rules both stay
    later = "U3 looked at in any of the past four steps => hold off another Analyse on U3"
    assert _earlier_status_after(later) == RuleStatus.ACTIVE


# -- the move put first in a cleft as the object of a role's order: "a Restore is what we must recommend" -------------

def test_a_move_named_in_a_cleft_as_the_object_of_a_roles_order_is_the_order():
    for text in ("For an enterprise server with root access, a Restore is what we must recommend.",
                 "Enterprise1 at root level: an Analyse is what I'd plan, nothing else."):
        words = read_wording(text)
        assert gives_order(text) and words.verbs[:1] == ("Restore" if "Restore" in text else "Analyse",), text


def test_the_order_after_a_story_is_read_and_not_the_story():
    text = ("On the fourth turn Enterprise2 had root access and I chose a Sleep since nothing looked urgent. Wrong move. "
            "For an enterprise server with root access, a Restore is what we must recommend.")
    assert read_wording(text).verbs == ("Restore",)
    problem = text_problem(text, {"class": "Enterprise", "compromise": "Privileged"},
                           {"mode": "do", "verb": "Sleep", "target": "$matched"})
    assert problem is not None and problem.startswith("verb:")
