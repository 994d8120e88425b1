"""Issue 29, round 38, second wave (r38g): a teacher's revision that keeps their own earlier order to fewer hosts.

- An opening that takes one part of an earlier note out ("Drop the bit on X: ...") says the teacher revises it, and
  is no part of the rule (the host it names is dropped, never the rule's label).
- A revision by the same teacher that orders the same move on fewer of the earlier hosts, "for them alone", replaces
  the earlier rule: kept, the earlier rule went on speaking for the host the teacher took out.
- A rule replaced by a revision that is itself revised stays replaced: only the last one's withdrawal (or its scope)
  brings the one before it back.
- Hosts an order is kept to, said after them ("... goes to U3 alone") or in shorthand ("only for E1 and OpS0"): read as
  "only for" those hosts ("alone" was unplaced, a shorthand list was read as every host in the state), and a state said
  of no host before the list is said of each listed host (it was dropped).

Sentences of our own, none from a case file. Each test fails with the product change stashed (checked).
"""

from __future__ import annotations

from forge.rulebook.language.revision import narrowed_in_words, revision_preamble, says_revision
from forge.rulebook.model import Evidence, RuleStatus
from forge.rulebook.retrieval.resolve import eligible_rules
from forge.rulebook.store.curation import Teaching
from tests.plan_book import PlanBook

CHOOSER = "action_chooser"


def test_dropping_a_part_is_a_revision_and_no_part_of_the_rule():
    text = "Drop the bit on Enterprise2; the Restore at root is for Enterprise0 only from here."
    assert says_revision(text)
    opening, rest = revision_preamble(text)
    assert opening.lower().startswith("drop the bit on")
    assert rest == "the Restore at root is for Enterprise0 only from here."


def test_guard_a_drop_of_something_else_is_no_revision():
    assert not says_revision("Drop a decoy on User3 when it is scanned.")


def _taught(text: str, when, action, actor: str = "user:tam", revises: bool = False) -> Teaching:
    return Teaching(text, "CONTENT", (CHOOSER,), "g", actor, Evidence("correction", actor, text[:40], 1),
                    trigger="dn-x", compiled_by="model", text=text, when=when, action=action, revises=revises)


WIDE = ("When Enterprise0 or Enterprise2 is at root, restore it.",
        {"any": [{"host": "Enterprise0", "compromise": "Privileged"}, {"host": "Enterprise2", "compromise": "Privileged"}]},
        {"mode": "do", "verb": "Restore", "target": "$matched"})
KEPT = ("the Restore at root is for Enterprise0 alone now.", None, None)  # kept semantic: no compiled meaning


def test_a_narrowing_revision_is_read_in_words():
    assert narrowed_in_words(WIDE[0], KEPT[0])
    assert not narrowed_in_words(WIDE[0], "the Restore at root goes to Enterprise0 first.")  # no word keeps to it
    assert not narrowed_in_words(WIDE[0], "a Remove at root is for Enterprise0 alone now.")  # another move


def test_a_narrowing_revision_replaces_the_earlier_order():
    book = PlanBook()
    wide, narrow = _taught(*WIDE), _taught(*KEPT, revises=True)
    book.apply(wide)
    book.apply(narrow)
    assert book.records[wide.rule_id].status == RuleStatus.SUPERSEDED
    assert wide.rule_id in book.records[narrow.rule_id].supersedes


def test_guard_another_teachers_narrower_word_replaces_nothing():
    book = PlanBook()
    wide, narrow = _taught(*WIDE), _taught(*KEPT, actor="user:ulf", revises=True)
    book.apply(wide)
    book.apply(narrow)
    assert book.records[wide.rule_id].status != RuleStatus.SUPERSEDED


def test_a_revision_of_a_revision_keeps_the_first_out():
    book = PlanBook()
    first = _taught("Restore any enterprise server at root.", {"class": "Enterprise", "compromise": "Privileged"},
                    {"mode": "do", "verb": "Restore", "target": "$matched"})
    second = _taught("the Restore at root is only for Enterprise0 and Enterprise2 now.", *WIDE[1:], revises=True)
    third = _taught(*KEPT, revises=True)
    book.apply(first)
    book.apply(second)
    assert book.records[first.rule_id].status == RuleStatus.SUPERSEDED
    book.apply(third)
    assert eligible_rules(book.records) == {third.rule_id}
    book.withdraw(third.rule_id)
    assert eligible_rules(book.records) == {second.rule_id}


# -- hosts an order is kept to, said after them or in shorthand --------------------------------------------------------

def _claims_of(text: str):
    from forge.rulebook.language.guard import complete_claims
    from forge.rulebook.language.rule_claims import rule_claims

    found = rule_claims(text, with_instruction=True)
    return found if complete_claims(text, found) else None


def _rooted(*hosts: str):
    from forge.rulebook.language.situation import read_situation

    return read_situation("Alerts:\n" + "\n".join(f"{h}: Activity None, Compromised Privileged" for h in hosts))


def test_hosts_said_alone_after_them_keep_the_order_to_them():
    from forge.rulebook.language.predicate import truth

    from forge.rulebook.language.situation import read_situation

    found = _claims_of("the Remove for an exploit goes to U3 alone from here.")
    assert found is not None
    assert truth(found, read_situation("Alerts:\nUser3: Activity Exploit, Compromised User")) is True
    assert truth(found, read_situation("Alerts:\nUser4: Activity Exploit, Compromised User")) is not True


def test_a_shorthand_list_kept_to_is_one_of_them_in_the_state():
    from forge.rulebook.language.predicate import truth
    from forge.rulebook.language.situation import read_situation

    for text in ("A Restore at root is meant for E1 and OpS0 only.", "A Restore at root is meant only for E1 and OpS0."):
        found = _claims_of(text)
        assert found is not None, text
        assert truth(found, _rooted("Op_Server0")) is True, text  # one of them is enough
        assert truth(found, _rooted("Enterprise2")) is not True, text
        quiet = read_situation("Alerts:\nOp_Server0: Activity None, Compromised No")
        assert truth(found, quiet) is not True, text  # the state is said of them: shown is not enough


def test_guard_a_state_alone_is_no_host_list():
    from forge.rulebook.language.shorthand import hosts_alone_as_only

    assert hosts_alone_as_only("decoy it for a scan alone") == "decoy it for a scan alone"
