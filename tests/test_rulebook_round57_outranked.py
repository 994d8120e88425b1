"""Round 57 (r57n): outranked injections and preferences between teachers.

- a rule one teacher replaced, brought back by a second teacher's teaching of the same meaning, is in force beside its
  replacement: the two are flagged and settled by precedence (curation._replaced_and_out);
- a preference of one move on a named host over another move on another named host keeps each move on its own host
  (forbidding.preferred_across_hosts, said._preferred_on_own_hosts);
- "comes before", "goes ahead of", "ranks above" another move put that move second (forbidding.RANKED_FIRST).
"""

from __future__ import annotations

from forge.rulebook.language.meaning import disputing, meaning_of
from forge.rulebook.language.predicate import positive_hosts
from forge.rulebook.language.revision import says_revision
from forge.rulebook.language.said import forbidden_in_words, said_in_words
from forge.rulebook.language.wording import read_wording
from forge.rulebook.model import Evidence, RuleStatus
from forge.rulebook.retrieval.resolve import settle
from forge.rulebook.store.curation import Teaching
from tests.plan_book import PlanBook

CHOOSER = ("action_chooser",)


def _semantic(text: str, actor: str) -> Teaching:
    return Teaching(text, "CONTENT", CHOOSER, "g", actor, Evidence("correction", actor, text[:40], 1),
                    trigger="dn-x", compiled_by="model", text=text)


def _compiled(text: str, actor: str, when: dict, action: dict, revises: bool = False) -> Teaching:
    return Teaching(text, "CONTENT", CHOOSER, "g", actor, Evidence("correction", actor, text[:40], 1),
                    trigger="dn-x", compiled_by="model", when=when, action=action, text=text, revises=revises)


# -- a replaced rule another teacher brings back ------------------------------------------------------------------------

E2_HIT = {"host": "Enterprise2", "compromise": "any"}
FIRST = "Enterprise2 hit, so reimage Enterprise2 right away."
REVISED = "Enterprise2 hit: evict the intruder from Enterprise2 with a Remove."
SECOND_TEACHER = "When Enterprise2 is hit we reimage Enterprise2 straight off."


def test_a_replaced_rule_another_teacher_brings_back_is_disputed_by_its_replacement() -> None:
    book = PlanBook()
    restore = {"mode": "do", "verb": "Restore", "target": "Enterprise2"}
    remove = {"mode": "do", "verb": "Remove", "target": "Enterprise2"}
    book.apply(_compiled(FIRST, "user:rhea", E2_HIT, restore))
    book.apply(_compiled(REVISED, "user:rhea", E2_HIT, remove, revises=True))
    old, new = book.of(FIRST), book.of(REVISED)
    assert old.status == RuleStatus.SUPERSEDED and old.rule_id in new.supersedes
    # another teacher teaches the old meaning again: it merges into the replaced rule, now active and theirs
    book.apply(_compiled(SECOND_TEACHER, "user:sven", E2_HIT, restore))
    old, new = book.records[old.rule_id], book.records[new.rule_id]
    assert old.active and old.actors == ("user:sven",)
    assert new.rule_id in old.conflicts_with and old.rule_id in new.conflicts_with
    # own actor first: each teacher is given their own word; a third party: a tie, as documented
    pair = (old.rule_id, new.rule_id)
    assert settle(pair, book.records, "user:sven").winner == old.rule_id
    assert settle(pair, book.records, "user:rhea").winner == new.rule_id


# -- a preference whose two moves each name their own host ----------------------------------------------------------------

def test_a_preference_across_two_hosts_keeps_each_move_on_its_own_host() -> None:
    when, action = said_in_words("Once Op_Host1 and Enterprise0 both sit at root, prefer a Restore on Op_Host1 over an "
                                 "Analyse on Enterprise0.")
    assert action.mode == "prefer"
    assert (action.move.verb, action.move.target) == ("Restore", "Op_Host1")
    assert (action.over.verb, action.over.target) == ("Analyse", "Enterprise0")
    assert positive_hosts(when) == {"Op_Host1", "Enterprise0"}
    # the ban read in words is on the host its move was put second on, not on the host preferred
    forbidden = forbidden_in_words("Prefer a Restore on Op_Host1 over an Analyse on Enterprise0, always.")
    assert forbidden is not None and positive_hosts(forbidden[0]) == {"Enterprise0"}


def test_a_preference_across_hosts_disputes_only_where_its_words_do() -> None:
    book = PlanBook()
    across = "Prefer a Restore on Op_Host1 over an Analyse on Enterprise0 whenever Op_Host1 and Enterprise0 are at root."
    evict = "Enterprise0 at root: evict the intruder from Enterprise0 with a Remove."
    book.apply(_semantic(across, "user:tova"),
               _compiled(evict, "user:ugo", {"host": "Enterprise0", "compromise": "Privileged"},
                         {"mode": "do", "verb": "Remove", "target": "Enterprise0"}))
    general, other = book.of(across), book.of(evict)
    meaning = disputing(meaning_of(general))
    assert (meaning.action.move.target, meaning.action.over.target) == ("Op_Host1", "Enterprise0")
    # it prefers a Restore of Op_Host1, not of Enterprise0: a Remove of Enterprise0 is no move it speaks against
    assert other.rule_id not in general.conflicts_with


# -- one move said to rank before another ------------------------------------------------------------------------------

def test_ranked_before_another_move_is_a_preference_in_words() -> None:
    for link in ("comes before", "goes ahead of", "ranks above"):
        text = f"With Enterprise2 at user level, an Analyse {link} another Remove on Enterprise2."
        assert read_wording(text).dispreferred == ("Remove",), link
        when, action = said_in_words(text)
        assert action.mode == "prefer" and action.move.verb == "Analyse" and action.over.verb == "Remove", link
        assert positive_hosts(when) == {"Enterprise2"}


# -- a move said to bring nothing new -------------------------------------------------------------------------------------

def test_a_move_said_to_bring_nothing_new_is_put_aside_for_the_order_beside_it() -> None:
    text = "Honestly a second Analyse of Op_Host2 just tells us nothing new; Remove it once it sits at user level."
    assert "Analyse" in read_wording(text).dispreferred
    when, action = said_in_words(text)
    assert action.mode == "prefer" and action.move.verb == "Remove" and action.over.verb == "Analyse"
    assert positive_hosts(when) == {"Op_Host2"}
    # told of the past, it is a report, no judgement of the move
    assert "Analyse" not in read_wording("The Analyse of Op_Host2 told us nothing, so Remove it at user level.").dispreferred


def test_two_teachers_on_a_move_one_says_brings_nothing_are_flagged() -> None:
    book = PlanBook()
    first = "Op_Host2 at user level: run an Analyse of Op_Host2 before anything else."
    second = "An Analyse on Op_Host2 gains us nothing at this point; Remove it while Op_Host2 stays at user level."
    book.apply(_compiled(first, "user:wren", {"host": "Op_Host2", "compromise": "User"},
                         {"mode": "do", "verb": "Analyse", "target": "Op_Host2"}),
               _semantic(second, "user:yuri"))
    a, b = book.of(first), book.of(second)
    assert b.rule_id in a.conflicts_with
    assert settle((a.rule_id, b.rule_id), book.records, "user:yuri").winner == b.rule_id


# -- an earlier note pointed to, not revised ------------------------------------------------------------------------------

def test_an_earlier_note_only_pointed_to_is_no_revision() -> None:
    pointed = "Op subnet orders:\n- any op host under exploit -> Remove it\n- (Op_Host2: see my earlier note)"
    assert not says_revision(pointed)
    assert not says_revision("Restore each enterprise box that is rooted, Enterprise1 as per the previous rule.")
    assert says_revision("My earlier note was too soft: Remove Op_Host2 when it is exploited.")


def test_a_general_order_pointing_to_its_exception_keeps_the_exception() -> None:
    book = PlanBook()
    exception = "Op_Host2 under exploit: evict with a Remove; a Restore of it is out."
    general = "Op subnet orders:\n- any op host under exploit -> Restore it\n- (Op_Host2: see my earlier note)"
    book.apply(_compiled(exception, "user:zeno", {"host": "Op_Host2", "activity": "Exploit"},
                         {"mode": "prefer", "verb": "Remove", "target": "Op_Host2", "over": {"verb": "Restore", "target": "Op_Host2"}}))
    book.apply(_compiled(general, "user:zeno", {"class": "Operational", "activity": "Exploit"},
                         {"mode": "do", "verb": "Restore", "target": "$matched"}))
    narrow, broad = book.of(exception), book.of(general)
    assert narrow.active and narrow.rule_id not in broad.supersedes
    assert broad.rule_id in narrow.conflicts_with
