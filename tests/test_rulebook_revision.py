"""Issue 29, round 6: a teacher who changes their mind. A later rule of the same teacher that says it revises what
they said before ("Actually, ...", "Update: ...", "Scratch my earlier note", "from now on", "no longer") replaces
their earlier rule on the same hosts, whatever the two triggers (a bit wider, worded differently) and also when the
product kept one of the two without a compiled meaning; an exception on fewer hosts stays an exception, another
teacher's word replaces nothing, and without words of revision the design stays: specificity, not recency. Pure
(plans over head records, eligibility), and once through a real SQLite book: the replacement survives reopen,
withdraw and restore."""

from __future__ import annotations

import pytest

from forge.rulebook.language.revision import revised_in_words, revision_preamble, revision_words, says_revision
from forge.rulebook.model import Evidence
from forge.rulebook.retrieval.resolve import eligible_rules
from forge.rulebook.store.curation import Teaching
from tests.plan_book import PlanBook
from tests.actions import do

CHOOSER = ("action_chooser",)


def rule(text: str, actor: str, when, action) -> Teaching:
    return Teaching(text, "CONTENT", CHOOSER, "g", actor, Evidence("correction", actor, text[:40], 1),
                    trigger="dn-x", compiled_by="model", when=when, action=action, text=text)


U2_RESTORE = rule("When User2 is compromised, restore it.", "user:ann", {"host": "User2", "compromise": "any"}, do("Restore"))
E1_PRIV_RESTORE = rule("When Enterprise1 shows a privileged compromise, restore Enterprise1.", "user:ann",
                       {"host": "Enterprise1", "compromise": "Privileged"}, do("Restore", "Enterprise1"))
USERS_RESTORE = rule("Restore any user host that is compromised.", "user:ann", {"class": "User", "compromise": "any"},
                     do("Restore"))


@pytest.mark.parametrize("text", [
    "Actually, from now on Remove User2 instead of restoring it.",
    "Update: when User2 is compromised at all, Remove it.",
    "Correction - User2 gets a Remove, not a Restore.",
    "Scratch my earlier note. If Enterprise2 shows Exploit activity, restore it.",
    "Changed my mind about User1: if it's rooted, plan a Remove on User1.",
    "Change of plan: User3 at Compromised User, Remove User3.",
    "On second thought, analyse Enterprise0 before you restore it.",
    "No longer restore Enterprise1 when it is compromised; remove the attacker instead.",
    "Don't restore User2 any more when it's compromised.",
    "I was wrong about Op_Server0: when it shows a privileged compromise, restore it.",
    "Going forward, remove the attacker from Enterprise1 when it is compromised.",
    "Forget what I said about User4: decoy it when it is scanned.",
])
def test_words_that_revise_what_the_teacher_said_before(text):
    assert says_revision(text), text


@pytest.mark.parametrize("text", [
    "Don't restore User0 when it is compromised; remove it instead.",  # an exception, not a revision
    "Restore Enterprise1 rather than removing it when it shows a privileged compromise.",
    "When User2 is actually compromised (not just scanned), restore it.",
    "Put a DecoyApache on Enterprise1 when it's scanned, then drop a DecoySSHD on it too.",
    "If Enterprise0 was restored at the previous step, analyse it.",
    "Never remove Op_Server0.",
])
def test_words_that_do_not_revise(text):
    assert revision_words(text) is None, text


def test_a_revision_in_words_needs_the_earlier_hosts_and_another_verb():
    earlier = "When User2 is compromised, restore it."
    assert revised_in_words(earlier, "Actually, from now on Remove User2 instead of restoring it.")
    assert revised_in_words(earlier, "Actually, switch User2 from a Restore to a Remove.")  # names both verbs
    assert not revised_in_words(earlier, "Actually, restore User2 also when it is only scanned.")  # agrees
    assert not revised_in_words(earlier, "Actually, remove the attacker from User3 when it is compromised.")  # other host
    assert revised_in_words("Never restore Op_Server0.", "I was wrong: restore Op_Server0 when it is rooted.")
    # a general rule is not revised by a word about one of its hosts: that is an exception
    assert not revised_in_words("Restore any user host that is compromised.", "From now on, remove User0 instead.")


def test_a_later_rule_that_says_it_revises_replaces_the_teachers_own_wider_or_narrower_rule():
    # "Actually, from now on Remove User2": no condition (wider than the first), same host
    book = PlanBook()
    book.apply(U2_RESTORE)
    book.apply(rule("Actually, from now on Remove User2 instead of restoring it.", "user:ann", {"host": "User2"},
                    {"mode": "prefer", "verb": "Remove", "target": "User2", "over": {"verb": "Restore", "target": "User2"}}))
    assert book.of(U2_RESTORE.directive).status == "superseded"
    new = book.of("Actually, from now on Remove User2 instead of restoring it.")
    assert new.supersedes == (U2_RESTORE.rule_id,) and not new.conflicts_with
    assert eligible_rules(book.records) == {new.rule_id}
    # "Update:" a bit wider than a privileged-only rule
    book = PlanBook()
    book.apply(E1_PRIV_RESTORE)
    book.apply(rule("Update: when Enterprise1 is compromised at all, remove the attacker from it.", "user:ann",
                    {"host": "Enterprise1", "compromise": "any"}, do("Remove")))
    assert book.of(E1_PRIV_RESTORE.directive).status == "superseded"


def test_without_words_of_revision_a_wider_rule_on_the_same_host_leaves_the_narrower_one():
    """Specificity, not recency, where the teacher does not say they changed their mind: "restore it when rooted,
    remove the attacker when compromised" is a policy, not a correction."""
    book = PlanBook()
    book.apply(E1_PRIV_RESTORE)
    book.apply(rule("When Enterprise1 is compromised, remove the attacker from it.", "user:ann",
                    {"host": "Enterprise1", "compromise": "any"}, do("Remove")))
    assert {r.status for r in book.records.values()} == {"active"}
    assert all(r.conflicts_with for r in book.records.values())  # nested: settled by specificity where both apply


def test_an_exception_on_fewer_hosts_stays_an_exception_whatever_its_words():
    book = PlanBook()
    book.apply(USERS_RESTORE)
    exception = rule("From now on, don't restore User0 when it is compromised; remove it instead.", "user:ann",
                     {"host": "User0", "compromise": "any"},
                     {"mode": "prefer", "verb": "Remove", "target": "User0", "over": {"verb": "Restore", "target": "User0"}})
    book.apply(exception)
    assert {r.status for r in book.records.values()} == {"active"}
    assert book.of(USERS_RESTORE.directive).conflicts_with == (exception.rule_id,)


def test_another_teachers_revision_replaces_nothing():
    book = PlanBook()
    book.apply(U2_RESTORE)
    book.apply(rule("Actually, from now on Remove User2 instead of restoring it.", "user:bo", {"host": "User2"},
                    {"mode": "prefer", "verb": "Remove", "target": "User2", "over": {"verb": "Restore", "target": "User2"}}))
    assert {r.status for r in book.records.values()} == {"active"}
    assert all(r.conflicts_with for r in book.records.values())  # two teachers: precedence settles them


def test_a_revision_kept_without_a_meaning_still_replaces_the_teachers_earlier_rule():
    """The product's checks may keep the revision semantic (no predicate): its words still say what it replaces."""
    book = PlanBook()
    book.apply(U2_RESTORE)
    book.apply(rule("Actually, from now on Remove User2 instead of restoring it.", "user:ann", None, None))
    assert book.of(U2_RESTORE.directive).status == "superseded"
    # and not one it agrees with, nor another teacher's
    book = PlanBook()
    book.apply(U2_RESTORE, rule("When User2 is compromised, restore it at once.", "user:bo",
                                {"host": "User2", "compromise": "any"}, do("Restore")))
    book.apply(rule("Actually, restore User2 also when it is only scanned.", "user:ann", None, None))
    assert {r.status for r in book.records.values()} == {"active"}


def test_replaces_own_is_the_one_decision():
    from forge.rulebook.model import RuleRecord
    from forge.rulebook.store.curation import replaces_own

    def record(t: Teaching) -> RuleRecord:
        return RuleRecord(t.rule_id, t.directive, t.type, t.roles, t.group, when=t.when, action=t.action, text=t.text)
    wider = record(rule("When User2 shows anything, remove it.", "user:ann", {"host": "User2"}, do("Remove")))
    assert not replaces_own(record(U2_RESTORE), wider, revises=False)
    assert replaces_own(record(U2_RESTORE), wider, revises=True)
    assert not replaces_own(record(USERS_RESTORE), record(rule("x", "user:ann", {"host": "User0", "compromise": "any"},
                                                                do("Remove"))), revises=True)


class _TaughtBook:
    """A real SQLite book taught through the product's path (teach_text; the surrogate compiles free text)."""

    def __init__(self, path: str) -> None:
        from forge.config import load_config
        from forge.rulebook.authoring import RuleCompiler
        from forge.rulebook.retrieval.embed import local_embedder
        from forge.wiring import build_clients

        self.cfg = load_config()
        clients, _ = build_clients(self.cfg)
        self.compiler = RuleCompiler(clients["compiler"])
        self.embedder = local_embedder()
        self.path = path
        self.book = self.open()

    def open(self):
        from forge.rulebook.book import Rulebook
        from forge.rulebook.store.backends import open_rulebook

        return Rulebook(open_rulebook(self.path), self.embedder)

    def reopen(self) -> None:
        self.book.store.close()
        self.book = self.open()

    def teach(self, text: str, actor: str = "user:ann", role: str = "action_chooser") -> str:
        from forge.rulebook.authoring import Correction, teach_text

        (rule_id,) = teach_text(self.book, self.compiler, [Correction(text, role, actor, text[:20])]).rule_ids
        assert rule_id, text
        return rule_id

    def injected(self, context: str, role: str = "action_chooser") -> set[str]:
        from forge.rulebook.injection import RulebookInjection
        from forge.rulebook.retrieval import RetrievalSettings

        injection = RulebookInjection(self.book, RetrievalSettings.from_config(self.cfg.rulebook), actor=None, window=0,
                                      embedder=self.embedder)
        return {item.id.split("@", 1)[0] for item in injection.for_call(role, context).items}


def test_a_replacement_survives_reopen_withdraw_and_restore(tmp_path):
    """Through the product's teaching path and a real SQLite book: the revision's SUPERSEDES is stored; withdrawing
    the revision brings the earlier rule back; restoring the revision takes it out again."""
    from forge.memory.model import Provenance

    taught = _TaughtBook(str(tmp_path / "rb.db"))
    first = taught.teach("When User2 is compromised, restore it.")
    second = taught.teach("Actually, from now on Remove User2 instead of restoring it.")
    assert first != second
    context = "User2: Activity None, Compromised User"
    assert taught.injected(context) == {second}
    taught.reopen()
    assert taught.book.store.head(first).record.status == "superseded"
    assert first in taught.book.store.head(second).record.supersedes
    assert taught.injected(context) == {second}
    taught.book.withdraw(second, Provenance(actor="user:ann"))
    assert taught.injected(context) == {first}
    taught.book.restore(second, provenance=Provenance(actor="user:ann"))
    assert taught.injected(context) == {second}
    taught.book.store.close()


@pytest.mark.parametrize("text, rest", [
    ("Scratch my earlier note. If Enterprise2 shows Exploit activity, restore it.",
     "If Enterprise2 shows Exploit activity, restore it."),
    ("Changed my mind on User1: if it's rooted, Remove it.", "User1: if it's rooted, Remove it."),
    ("Changed my mind on User1: if it's rooted, Remove User1.", "if it's rooted, Remove User1."),
    ("I was wrong about Op_Server0: when it shows a privileged compromise, restore it.",
     "Op_Server0: when it shows a privileged compromise, restore it."),
    ("Update: when User2 is compromised at all, Remove it.", "when User2 is compromised at all, Remove it."),
    ("Correction - User2 gets a Remove.", "User2 gets a Remove."),
    ("Actually compromised hosts get restored.", None),  # "actually" inside the order: no opening
    ("Updated the decoys: put a DecoyApache on User1.", None),
])
def test_an_opening_that_only_says_the_teacher_revises(text, rest):
    opening, after = revision_preamble(text)
    assert (after if opening else None) == rest


def test_the_rule_after_a_revision_opening_is_compiled_on_its_own_and_replaces_the_earlier_one(tmp_path):
    """"Changed my mind about User1: ..." is compiled as "User1: ..." (the opening is no condition, no history, and
    its host is the rule's label), kept as the rule's text, and the earlier rule is superseded."""
    taught = _TaughtBook(str(tmp_path / "rb.db"))
    first = taught.teach("When User1 shows a privileged compromise, restore User1.")
    second = taught.teach("Changed my mind about User1: when User1 shows a privileged compromise, remove the attacker from it.")
    record = taught.book.store.head(second).record
    assert record.when is not None and record.action["verb"] == "Remove"  # a predicate rule, not kept semantic
    assert taught.book.store.head(first).record.status == "superseded"
    assert taught.injected("User1: Activity None, Compromised Privileged") == {second}
    taught.book.store.close()


def test_a_withdrawn_rule_said_again_as_a_labelled_note_is_refused():
    """Withdrawn: "When User2 is compromised, don't restore it - Remove it." Taught again by the same teacher as
    "User2: Remove rather than Restore once it's compromised." (compiled differently, here kept semantic): the same
    hosts and verbs, and one claim written two ways (the label's bare mention of User2 adds nothing)."""
    book = PlanBook()
    first = rule("When User2 is compromised, don't restore it - Remove it.", "user:leo",
                 {"host": "User2", "compromise": "any"},
                 {"mode": "prefer", "verb": "Remove", "target": "User2", "over": {"verb": "Restore", "target": "User2"}})
    book.apply(first)
    book.withdraw(first.rule_id)
    plan = book.apply(rule("User2: Remove rather than Restore once it's compromised.", "user:leo", None, None))
    (outcome,) = plan.outcomes
    assert outcome.result == "refused" and "forge rulebook restore" in outcome.detail


@pytest.mark.parametrize("text", [
    "Swap the Restore on User2 for a Remove when it is compromised.",
    "Replace the Restore of User2 with a Remove when it gets compromised.",
])
def test_a_change_of_verb_said_as_a_swap_is_never_stored_as_the_old_verb(tmp_path, text):
    """How people say they change what to do: "swap X for Y", "replace X with Y", "switch from X to Y". X is the
    verb they give up: a compilation that orders X says the opposite of the text (the surrogate compiles these as
    "do Restore User2"), so the checks keep the rule semantic rather than store it."""
    from forge.rulebook.language.wording import read_wording

    assert read_wording(text).dispreferred == ("Restore",)
    assert read_wording("Switch User2 from Restore to Remove.").dispreferred == ("Restore",)
    assert read_wording("Switch to Remove on User2.").dispreferred == ()
    assert read_wording("Restore User2 and replace its decoy.").dispreferred == ()
    taught = _TaughtBook(str(tmp_path / "rb.db"))
    record = taught.book.store.head(taught.teach(text)).record
    assert not (record.action and record.action.get("mode") == "do" and record.action.get("verb") == "Restore"), record
    taught.book.store.close()
