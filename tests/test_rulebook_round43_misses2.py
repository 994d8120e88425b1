"""Issue 29, round 43 (r43x): words of revision said under a condition of their own.

"Once <host> is rooted, the earlier note no longer holds; ..." puts the teacher's earlier rule aside only where that
condition holds (`revision.revision_conditioned`): curation (`store/curation.py`) no longer supersedes the whole
earlier rule for it. A new rule with a narrower trigger outranks the earlier one where both apply (a conflict edge,
specificity); one kept semantic stands beside it. Words of revision that open the text ("Update: when ...", "From now
on, ...") or sit inside the condition itself ("if it is no longer compromised, ...") revise as before.

Shown to fail at the branch start (b33e9d0): `revision_conditioned` does not exist there, and with curation.py stashed
both book tests found the earlier rules superseded. Sentences of our own, none from a case file."""

from __future__ import annotations

import pytest

from forge.rulebook.language.revision import revision_conditioned, says_revision
from forge.rulebook.model import Evidence
from forge.rulebook.store.curation import Teaching
from tests.plan_book import PlanBook

CHOOSER = ("action_chooser",)


def rule(text: str, actor: str, when, action) -> Teaching:
    return Teaching(text, "CONTENT", CHOOSER, "g", actor, Evidence("correction", actor, text[:40], 1),
                    trigger="dn-x", compiled_by="model", when=when, action=action, text=text)


@pytest.mark.parametrize("text", [
    "When Op_Host1 reaches root, my previous note does not apply: restore it.",
    "After Enterprise2 is rooted, the Remove advice no longer stands; restore it.",
    "The decoy note no longer holds once User1 is owned.",
    "If Enterprise0 gets root, scratch my earlier note and restore it.",
])
def test_words_of_revision_under_a_condition(text):
    assert says_revision(text) and revision_conditioned(text)


@pytest.mark.parametrize("text", [
    "Update: when User2 is rooted, a Restore of it beats a Remove.",
    "Actually, restore Op_Host2 when it is rooted.",
    "From now on, decoy Enterprise1 whenever a scan hits it.",
    "Restore User4 from now on whenever it is rooted.",
    "If Op_Host0 is no longer compromised, analyse it.",
    "No longer restore Enterprise1; remove the attacker instead.",
])
def test_words_of_revision_under_no_condition_of_their_own(text):
    assert not revision_conditioned(text)


U1_REMOVE = rule("Should User1 be compromised, remove it, not restore it.", "user:kim", {"host": "User1", "compromise": "any"},
                 {"mode": "prefer", "verb": "Remove", "target": "User1", "over": {"verb": "Restore", "target": "User1"}})
USERS_RESTORE = rule("Restore any compromised user host.", "user:kim", {"class": "User", "compromise": "any"},
                     {"mode": "do", "verb": "Restore", "target": "$matched"})
CONDITIONED = "After User1 is rooted, the Remove advice no longer stands; restore it as the other user hosts."


def test_a_conditioned_revision_kept_semantic_leaves_the_earlier_rules():
    book = PlanBook()
    book.apply(USERS_RESTORE)
    book.apply(U1_REMOVE)
    book.apply(rule(CONDITIONED, "user:kim", None, None))
    assert {r.status for r in book.records.values()} == {"active"}


def test_a_conditioned_revision_outranks_the_earlier_rule_only_where_it_holds():
    book = PlanBook()
    book.apply(U1_REMOVE)
    new = rule(CONDITIONED, "user:kim", {"host": "User1", "compromise": "Privileged"},
               {"mode": "do", "verb": "Restore", "target": "User1"})
    book.apply(new)
    assert book.of(U1_REMOVE.directive).status == "active"
    assert book.of(CONDITIONED).conflicts_with == (U1_REMOVE.rule_id,)  # nested: the narrower wins where both apply
