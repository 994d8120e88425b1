"""Issue 29, fifteenth round: one teacher's standing prohibition on a named host ("never Restore User2, whatever it
shows") beside their own order on a class ("Restore every compromised user host"). The two triggers are not nested
(the prohibition holds in every state), yet on its host the prohibition is the exception: where the order's only
target is that host it is outranked, and it still speaks for the other hosts. Between two teachers it stays a dispute
for the other tiers. Sentences of our own, not the case files'."""

from __future__ import annotations

from forge.rulebook.model import Evidence
from forge.rulebook.store.curation import Teaching
from tests.plan_book import PlanBook
from tests.test_rulebook_exception_words import injected

CHOOSER = ("action_chooser",)


def rule(text: str, actor: str, when=None, action=None) -> Teaching:
    return Teaching(text, "CONTENT", CHOOSER, "g", actor, Evidence("correction", actor, text[:40], 1),
                    trigger="dn-x", compiled_by="model", when=when, action=action, text=text)


TAKEN_USERS = {"any": [{"class": "User", "compromise": "User"}, {"class": "User", "compromise": "Privileged"}]}
KEEP_USER2 = rule("User2 is the green team's demo box: no Restore on it, whatever state it is in.", "user:rhea",
                  {"host": "User2"}, {"mode": "never", "verb": "Restore", "target": "User2"})
RESTORE_USERS = rule("Put every taken user box back with a Restore.", "user:rhea", TAKEN_USERS,
                     {"mode": "do", "verb": "Restore", "target": "$matched"})
OTHER_RESTORES = rule("Taken user boxes get a Restore, no matter which.", "user:sami", TAKEN_USERS,
                      {"mode": "do", "verb": "Restore", "target": "$matched"})
ONLY_USER2 = "Alerts:\nUser2: Activity Exploit, Compromised User"
USER2_AND_4 = "Alerts:\nUser2: Activity None, Compromised User\nUser4: Activity None, Compromised Privileged"


def test_one_teachers_standing_prohibition_outranks_their_order_where_it_is_the_only_target():
    # the prohibition taught first, as an exception usually is, and taught after: the same answer
    assert injected([KEEP_USER2, RESTORE_USERS], ONLY_USER2) == [KEEP_USER2.directive]
    assert injected([RESTORE_USERS, KEEP_USER2], ONLY_USER2) == [KEEP_USER2.directive]


def test_the_order_still_speaks_for_the_hosts_the_prohibition_does_not_name():
    assert injected([KEEP_USER2, RESTORE_USERS], USER2_AND_4) == [KEEP_USER2.directive, RESTORE_USERS.directive]


def test_one_teachers_two_rules_are_flagged_against_each_other():
    book = PlanBook()
    book.apply(KEEP_USER2, RESTORE_USERS)
    keep, restore = book.of(KEEP_USER2.directive), book.of(RESTORE_USERS.directive)
    assert restore.rule_id in keep.conflicts_with and keep.rule_id in restore.conflicts_with


def test_between_two_teachers_it_is_no_exception():
    """sami's order against rhea's prohibition: neither is the narrower by specificity; the asker's own rule wins,
    and with nobody asking and equal support the dispute abstains (as before this round)."""
    assert injected([KEEP_USER2, OTHER_RESTORES], ONLY_USER2, actor="user:sami") == [OTHER_RESTORES.directive]
    assert injected([KEEP_USER2, OTHER_RESTORES], ONLY_USER2) == []


def test_a_prohibition_in_one_state_or_of_another_verb_is_no_standing_exception():
    from forge.rulebook.language.meaning import meaning_of, standing_exception
    book = PlanBook()
    scanned = rule("No Restore on User2 while it is only scanned.", "user:rhea",
                   {"host": "User2", "activity": "Scan"}, {"mode": "never", "verb": "Restore", "target": "User2"})
    ordered = rule("Always Analyse User2 first.", "user:rhea", {"host": "User2"},
                   {"mode": "do", "verb": "Analyse", "target": "User2"})
    book.apply(RESTORE_USERS, scanned, KEEP_USER2, ordered)
    general = meaning_of(book.of(RESTORE_USERS.directive))
    assert standing_exception(meaning_of(book.of(KEEP_USER2.directive)), general)
    assert not standing_exception(meaning_of(book.of(scanned.directive)), general)
    assert not standing_exception(meaning_of(book.of(ordered.directive)), general)
