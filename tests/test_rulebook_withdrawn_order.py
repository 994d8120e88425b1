"""A withdrawn rule taught again in words that carry the same order stays out, even when the rewording is kept
semantic by the checks (its compiled meaning then says nothing); a corrected condition is another rule. And "don't
touch HOST with a VERB" forbids that move only. Sentences of our own (found by probing, no case file read)."""

from __future__ import annotations

import dataclasses

from tests.plan_book import PlanBook
from forge.rulebook.language.said import said_in_words
from forge.rulebook.model import Evidence
from forge.rulebook.store.curation import Teaching

CHOOSER = ("action_chooser",)


def teaching(text: str, actor: str, when=None, action=None) -> Teaching:
    return Teaching(text, "CONTENT", CHOOSER, "g", actor, Evidence("failure", actor, text[:40], 1),
                    trigger="dn-x", compiled_by="model", when=when, action=action, text=text)


SCAN_ONLY = {"host": "User3", "activity": "Scan", "compromise": "No"}
NEVER_RESTORE_USER3 = {"mode": "never", "verb": "Restore", "target": "User3"}


def _withdrawn(book: PlanBook, first: Teaching) -> None:
    book.apply(first)
    book.withdraw(first.rule_id)


def test_a_terse_rewording_kept_semantic_whose_words_forbid_the_same_move_is_refused():
    book = PlanBook()
    first = teaching("Never Restore User3 while it is only being scanned.", "user:alice", SCAN_ONLY, NEVER_RESTORE_USER3)
    _withdrawn(book, first)
    plan = book.apply(teaching("u3 scan only = no reimage", "user:bob"))  # kept semantic: no compiled meaning
    (outcome,) = plan.outcomes
    assert outcome.result == "refused" and f"forge rulebook restore {first.rule_id}" in outcome.detail


def test_a_corrected_condition_or_another_move_after_a_withdrawal_is_a_new_rule():
    book = PlanBook()
    first = teaching("Restore User2 whenever it is compromised.", "user:alice", {"host": "User2", "compromise": "any"},
                     {"mode": "do", "verb": "Restore", "target": "User2"})
    _withdrawn(book, first)
    # the teacher narrows the condition: one implies the other, not both ways, so it is no rewording
    corrected = book.apply(teaching("Restore User2 only when the attacker has root on it.", "user:alice"))
    assert corrected.outcomes[0].result == "add"
    other_move = book.apply(teaching("Never Restore User2 while it is only scanned.", "user:alice"))
    assert other_move.outcomes[0].result == "add"


def test_touching_a_host_with_a_named_move_forbids_that_move_only():
    _, action = said_in_words("Don't touch Op_Server0 with a Remove once it's exploited; reimage it instead.")
    assert (action.mode, action.move.verb) == ("never", "Remove")
    _, bother = said_in_words("Do not bother User4 with an Analyse.")
    assert (bother.mode, bother.move.verb) == ("never", "Analyse")
    _, every = said_in_words("Never touch Enterprise0, whatever it shows.")
    assert (every.mode, every.move.verb) == ("never", "any")


def test_a_condition_added_to_a_withdrawn_standing_prohibition_is_a_new_rule_and_its_concession_is_not():
    book = PlanBook()
    standing = teaching("Never Restore User2.", "user:alice", {"host": "User2"},
                        {"mode": "never", "verb": "Restore", "target": "User2"})
    _withdrawn(book, standing)
    # a standing prohibition claims no state: it is no unread condition, so a condition added to it is another rule
    added = book.apply(teaching("Never Restore User2 unless the attacker is at root on it.", "user:alice",
                                {"all": [{"host": "User2"}, {"not": {"host": "User2", "compromise": "Privileged"}}]},
                                {"mode": "never", "verb": "Restore", "target": "User2"}))
    assert added.outcomes[0].result == "add"
    # a concession states no condition of the prohibition: the same standing rule in other words
    again = book.apply(teaching("Don't reimage User2, even when it looks rooted.", "user:bob"))
    assert again.outcomes[0].result == "refused"


def test_the_teachers_own_words_are_read_for_the_order_when_the_compilers_rewrite_lost_it():
    # a model compiler rewrites the directive; the teacher's words (Teaching.text) still carry the prohibition, and a
    # withdrawn rule's own words are read the same way, so the two sides are compared alike
    book = PlanBook()
    first = teaching("Never Restore User3 while it is only being scanned.", "user:alice", SCAN_ONLY, NEVER_RESTORE_USER3)
    _withdrawn(book, first)
    rewrite = teaching("Take care with User3 while it is being scanned.", "user:bob")
    plan = book.apply(dataclasses.replace(rewrite, text="u3 scan only = no reimage"))
    assert plan.outcomes[0].result == "refused"
