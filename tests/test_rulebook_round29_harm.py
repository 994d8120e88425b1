"""Issue 29, round 29 (blind-26's harmful and outranked injections): an order on a host "at root with no activity" was
read as a prohibition of its verb (the "no" before the state noun) and its quiet state was left out of the condition,
so the rule was kept semantic and injected where the host was busy; a semantic rule that orders one verb "instead of"
another was read as a bare refusal of the other, so it never disputed another teacher's prohibition of the verb it
orders; and a teacher's revision kept semantic that restates their own order with a changed condition ("Update: ...
4 steps" after "... 5 steps") replaced nothing. Sentences of our own, none from a case file."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.meaning import Meaning, may_conflict
from forge.rulebook.language.predicate import Atom
from forge.rulebook.language.said import said_in_words
from forge.rulebook.language.wording import read_wording
from forge.rulebook.model import Evidence
from forge.rulebook.store.curation import Teaching
from tests.plan_book import PlanBook

CHOOSER = ("action_chooser",)


def teaching(text: str, actor: str, when=None, action=None) -> Teaching:
    return Teaching(text, "CONTENT", CHOOSER, "g", actor, Evidence("correction", actor, text[:40], 1),
                    trigger="dn-x", compiled_by="model", when=when, action=action, text=text)


# -- "<host> at <level> with no activity should be VERBed": a quiet state, part of the condition, no prohibition ---------

QUIET_ORDER = "Op_Server0 at root with no activity ought to be reimaged."


def test_no_before_a_state_noun_forbids_nothing():
    assert read_wording(QUIET_ORDER).prohibitions == ()
    assert read_wording("User1 showing no alerts should be analysed.").prohibitions == ()


def test_a_quiet_state_after_the_level_is_part_of_the_condition():
    assert rule_claims(QUIET_ORDER, with_instruction=True, bare=False) == \
        Atom(host="Op_Server0", activity="None", compromise="Privileged")
    when = {"host": "Op_Server0", "activity": "None", "compromise": "Privileged"}
    assert text_problem(QUIET_ORDER, when, {"mode": "do", "verb": "Restore", "target": "Op_Server0"}) is None


def test_guard_a_prohibition_after_the_quiet_state_still_forbids():
    # guard: the words that forbid after the state are still read
    text = "Op_Server0 at root with no activity must never be reimaged."
    assert [p.verb for p in read_wording(text).prohibitions] == ["Restore"]


# -- "a Restore of X instead of a Remove", kept semantic: it orders the Restore too ------------------------------------

def test_a_verb_ordered_instead_of_another_is_a_preference_in_words():
    when, action = said_in_words("Once Enterprise1 is owned, go for a Restore of Enterprise1 instead of a Remove.")
    assert when == Atom(host="Enterprise1", compromise="any")
    assert action.mode == "prefer" and action.move.verb == "Restore" and action.over.verb == "Remove"


def test_a_preference_in_words_disputes_a_prohibition_of_its_order():
    prefer = Meaning(*said_in_words("Once Enterprise1 is owned, go for a Restore of Enterprise1 instead of a Remove."))
    never = Meaning(*said_in_words("Enterprise1 must never get a reimage: payroll runs there."))
    assert may_conflict(prefer, never)


def test_guard_a_bare_refusal_stays_a_refusal():
    # guard: with no other verb ordered, what is dispreferred is read as refused
    _, action = said_in_words("Please stop removing Enterprise1.")
    assert action.mode == "never" and action.move.verb == "Remove"


def test_a_preference_whose_condition_went_unread_stays_a_refusal():
    # an order on its host in any state would be wider than its words: where only the host of the condition was kept,
    # the dispreferred verb stays refused and nothing is ordered (blind-7 lost two queries without this)
    from forge.rulebook.language.said import _preferred_instead
    from forge.rulebook.language.action import MATCHED, Move, RuleAction

    words = read_wording("If you examine User3 and it looks bad, advise a Restore for User3 instead of an Analyse.")
    never = RuleAction("never", Move("Analyse", MATCHED))
    assert _preferred_instead(words, Atom(host="User3"), never) == never
    prefer = _preferred_instead(words, Atom(host="User3", compromise="Privileged"), never)
    assert prefer.mode == "prefer" and prefer.move.verb == "Restore"


# -- "Update: ... 4 steps" after "... 5 steps", the same order: the revision replaces the teacher's own rule -----------

def test_a_semantic_revision_restating_the_same_order_replaces_it():
    book = PlanBook()
    first = teaching("U4 at root, unchanged 5 steps -> Restore U4", "user:nia")
    book.apply(first)
    book.apply(teaching("Update: U4 at root, unchanged 4 steps -> Restore U4", "user:nia"))
    assert book.records[first.rule_id].status == "superseded"


def test_a_semantic_revision_restates_a_compiled_order_on_the_host_it_names():
    book = PlanBook()
    first = teaching("Ent1 at root -> Restore Ent1", "user:nia", {"host": "Enterprise1", "compromise": "Privileged"},
                     {"mode": "do", "verb": "Restore", "target": "Enterprise1"})
    book.apply(first)
    book.apply(teaching("Correction: Enterprise1 gets a Restore the moment it shows any compromise.", "user:nia"))
    assert book.records[first.rule_id].status == "superseded"


def test_guard_another_teachers_restatement_replaces_nothing():
    # guard: only the teacher's own rule is revised
    book = PlanBook()
    first = teaching("U4 at root, unchanged 5 steps -> Restore U4", "user:nia")
    book.apply(first)
    book.apply(teaching("Update: U4 at root, unchanged 4 steps -> Restore U4", "user:omar"))
    assert book.records[first.rule_id].status == "active"
