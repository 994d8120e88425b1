"""Issue 29, round 27 (r27h: blind-24's harmful and outranked injections): readings whose absence let a rule fire wider
than its words, or beside the exception its own teacher made to it. Sentences of our own, none from a case file."""

from __future__ import annotations

from forge.rulebook.language.condition import semantic_claims
from forge.rulebook.language.predicate import truth
from forge.rulebook.language.said import said_in_words
from forge.rulebook.language.situation import read_situation
from forge.rulebook.model import Evidence
from forge.rulebook.retrieval.resolve import resolve_conflicts
from forge.rulebook.store.curation import Teaching
from tests.plan_book import PlanBook


def semantic(text: str, actor: str, roles=("analyst",)) -> Teaching:
    return Teaching(text, "CONTENT", roles, "g", actor, Evidence("failure", actor, text[:40], 1),
                    trigger="dn-x", compiled_by="model", text=text)


# -- a sentence's class scope ("On the user subnet,") is the class of the host in general its condition speaks of ------

def _holds(text: str, context: str):
    return truth(semantic_claims(text, "", text), read_situation(context))


def test_a_host_in_general_under_a_class_scope_is_a_host_of_that_class():
    for text in ("Across the user subnet, any box with exploit activity gets a Remove right away.",
                 "In the user subnet, whenever a machine shows an exploit, schedule its Remove."):
        assert _holds(text, "Watch list: Enterprise0 Activity Exploit (Compromised User)") is not True, text
        assert _holds(text, "Watch list: User3 Activity Exploit (Compromised User)") is True, text


def test_a_class_named_in_the_condition_itself_is_kept():
    # a guard (passes without the fix too): the condition names its class, the scope adds nothing
    text = "Across the network, any enterprise box with exploit activity gets a Remove right away."
    assert _holds(text, "Watch list: User3 Activity Exploit (Compromised User)") is not True
    assert _holds(text, "Watch list: Enterprise0 Activity Exploit (Compromised User)") is True


# -- an order for any host in a state ("a box at root -> Restore") is a meaning a teacher's exception is settled against -

def test_an_order_for_any_host_in_a_state_says_its_meaning_in_words():
    found = said_in_words("a box at root level -> advise a Restore")
    assert found is not None and found[0].host_class == "any" and found[1].move.verb == "Restore"


def test_a_bare_order_for_no_host_in_general_says_nothing():
    # a guard (passes without the fix too): "it" tied to nothing is no host in general
    assert said_in_words("Restore it once it is rooted.") is None


def test_a_teachers_exception_on_one_host_outranks_their_order_for_any_host():
    book = PlanBook()
    general = semantic("a box at root level -> advise a Restore", "user:lee")
    narrow = semantic("Ent2 is where that does not go: at root -> advise Remove on Ent2, not Restore", "user:lee")
    book.apply(general)
    book.apply(narrow)
    assert narrow.rule_id in book.records[general.rule_id].conflicts_with
    kept, _ = resolve_conflicts([general.rule_id, narrow.rule_id], book.records, {general.rule_id, narrow.rule_id},
                                "user:lee")
    assert kept == [narrow.rule_id]
