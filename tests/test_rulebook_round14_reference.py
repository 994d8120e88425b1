"""Issue 29, fourteenth round (i29x): outranked rules injected beside the rule that outranks them (blind11, reference
compiler). Sentences of our own, not the case files'."""

from __future__ import annotations

from forge.rulebook.model import Evidence
from forge.rulebook.store.curation import Teaching, plan_restore
from tests.plan_book import PlanBook

CHOOSER = ("action_chooser",)


def rule(text: str, actor: str, when=None, action=None) -> Teaching:
    return Teaching(text, "CONTENT", CHOOSER, "g", actor, Evidence("correction", actor, text[:40], 1),
                    trigger="dn-x", compiled_by="model", when=when, action=action, text=text)


ENT1_ROOTED = {"any": [{"host": "Enterprise1", "compromise": "User"}, {"host": "Enterprise1", "compromise": "Privileged"}]}
RESTORE_ENT1 = rule("Once Enterprise1 is taken, put it back with a Restore.", "user:pia", ENT1_ROOTED,
                    {"mode": "do", "verb": "Restore", "target": "Enterprise1"})
REMOVE_ENT1 = rule("Enterprise1 taken: a Remove, never a Restore.", "user:quin", ENT1_ROOTED,
                   {"mode": "prefer", "verb": "Remove", "target": "Enterprise1",
                    "over": {"verb": "Restore", "target": "Enterprise1"}})


def test_a_restored_rule_is_flagged_against_a_rule_taught_while_it_was_withdrawn():
    """A rule withdrawn, another teacher's disagreeing rule taught meanwhile, then the first restored: the two dispute
    the same host, so the restore joins them by CONFLICTS_WITH (else both were injected whoever asked)."""
    book = PlanBook()
    book.apply(RESTORE_ENT1)
    first = book.of(RESTORE_ENT1.directive)
    book.withdraw(first.rule_id)
    book.apply(REMOVE_ENT1)
    second = book.of(REMOVE_ENT1.directive)
    assert not book.records[second.rule_id].conflicts_with
    for change in plan_restore(book.records, first.rule_id, first, 1):
        book.records[change.record.rule_id] = change.record
    assert second.rule_id in book.records[first.rule_id].conflicts_with
    assert first.rule_id in book.records[second.rule_id].conflicts_with


def test_a_restored_rule_that_agrees_with_the_book_is_flagged_against_nothing():
    book = PlanBook()
    book.apply(RESTORE_ENT1)
    first = book.of(RESTORE_ENT1.directive)
    book.withdraw(first.rule_id)
    other = rule("Decoy on Enterprise2 when Enterprise1 is taken.", "user:quin", ENT1_ROOTED,
                 {"mode": "do", "verb": "DecoyApache", "target": "Enterprise2"})
    book.apply(other)
    for change in plan_restore(book.records, first.rule_id, first, 1):
        book.records[change.record.rule_id] = change.record
    assert not book.records[first.rule_id].conflicts_with
    assert not book.of(other.directive).conflicts_with
