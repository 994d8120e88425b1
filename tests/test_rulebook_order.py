"""Issue 18: the book is a function of the set of teachings (specificity, not recency), and a withdrawn
rule stays withdrawn whatever words it comes back in. Pure: plans over head records, the gate over
contexts, resolution."""

from __future__ import annotations

import random

import pytest

from tests.plan_book import PlanBook
from forge.rulebook.store.curation import Teaching
from forge.rulebook.language.meaning import conflict_in, meaning_of
from forge.rulebook.model import Evidence, RulebookError, RuleRecord
from forge.rulebook.language.predicate import holds
from forge.rulebook.retrieval.resolve import PRECEDENCE, eligible_rules, resolve_conflicts, settle
from forge.rulebook.language.situation import read_situation

CHOOSER = ("action_chooser",)


def rule(directive: str, actor: str, when, action, source: str = "", roles=CHOOSER) -> Teaching:
    return Teaching(directive, "CONTENT", roles, "g", actor, Evidence("failure", actor, source or directive[:40], 1),
                    trigger="dn-x", compiled_by="model", when=when, action=action)



# The example: an actor's two correctly compiled host-class rules, then its own general rule.
ENTERPRISE_RESTORE = rule("When an Enterprise host shows any compromise, restore it.", "s1/i00",
                          {"class": "Enterprise", "compromise": "any"}, {"mode": "do", "verb": "Restore", "target": "$matched"})
USER_REMOVE = rule("When a User host shows any compromise, remove the attacker from it.", "s1/i00",
                   {"class": "User", "compromise": "any"}, {"mode": "do", "verb": "Remove", "target": "$matched"})
GENERAL = rule("When any host is compromised, Analyse it first.", "s1/i00",
               {"class": "any", "compromise": "any"}, {"mode": "do", "verb": "Analyse", "target": "$matched"})


def test_two_specific_rules_of_an_actor_survive_its_later_general_rule():
    book = PlanBook()
    book.apply(ENTERPRISE_RESTORE, USER_REMOVE)
    book.apply(GENERAL)
    assert {r.directive: r.status for r in book.records.values()} == {
        ENTERPRISE_RESTORE.directive: "active", USER_REMOVE.directive: "active", GENERAL.directive: "active"}
    assert not any(r.supersedes for r in book.records.values())


def test_a_later_rule_on_an_equivalent_trigger_still_replaces_the_teachers_own():
    book = PlanBook()
    book.apply(rule("When User4 shows a compromise, Restore User4.", "user:carol", {"host": "User4", "compromise": "any"},
                    {"mode": "do", "verb": "Restore", "target": "User4"}))
    book.apply(rule("Remove the attacker from User4 when it is compromised.", "user:carol",
                    {"host": "User4", "compromise": "any"}, {"mode": "do", "verb": "Remove", "target": "User4"}))
    statuses = sorted((r.directive[:6], r.status) for r in book.records.values())
    assert statuses == [("Remove", "active"), ("When U", "superseded")]


def test_replaces_names_the_rule_a_teaching_replaces_whatever_its_trigger():
    book = PlanBook()
    book.apply(ENTERPRISE_RESTORE)
    old = ENTERPRISE_RESTORE.rule_id
    replacing = Teaching(**{**GENERAL.__dict__, "replaces": (old,)})
    book.apply(replacing)
    assert book.records[old].status == "superseded" and book.records[GENERAL.rule_id].supersedes == (old,)
    with pytest.raises(RulebookError, match="--replaces names no rule 'nope'"):
        book.apply(Teaching(**{**USER_REMOVE.__dict__, "replaces": ("nope",)}))


# -- order independence -------------------------------------------------------------------------------

TEACHINGS = [
    ENTERPRISE_RESTORE, USER_REMOVE, GENERAL,
    rule("Never restore User0 when it is compromised.", "s1/i00", {"host": "User0", "compromise": "any"},
         {"mode": "never", "verb": "Restore", "target": "User0"}),
    rule("Restore any User host that shows a compromise.", "s1/i01", {"class": "User", "compromise": "any"},
         {"mode": "do", "verb": "Restore", "target": "$matched"}),
    rule("Reimage compromised workstations.", "user:bob", {"class": "User", "compromise": "any"},
         {"mode": "do", "verb": "Restore", "target": "$matched"}, source="bob-1"),
    rule("Never reimage User0.", "user:alice", {"host": "User0"}, {"mode": "never", "verb": "Restore", "target": "User0"}),
    rule("When Op_Server0 is exploited, Restore Op_Server0.", "s2/i01", {"host": "Op_Server0", "activity": "Exploit"},
         {"mode": "do", "verb": "Restore", "target": "Op_Server0"}),
    rule("When the op server shows an exploit, reimage it.", "s2/i02", {"host": "Op_Server0", "activity": "Exploit"},
         {"mode": "do", "verb": "Restore", "target": "Op_Server0"}),
    rule("When any host is compromised, Remove the attacker from it.", "s2/i01", {"class": "any", "compromise": "any"},
         {"mode": "do", "verb": "Remove", "target": "$matched"}),
    rule("When no host shows anything, Monitor.", "user:carol",
         {"not": {"any": [{"class": "any", "activity": "any"}, {"class": "any", "compromise": "any"}]}},
         {"mode": "do", "verb": "Monitor", "target": None}),
    rule("Keep an eye on the green agents' odd traffic.", "s3/i00", None, None),
]
CONTEXTS = [
    "User0: Activity Exploit, Compromised User",
    "User0: Activity None, Compromised User\nUser4: Activity Exploit, Compromised User",
    "Enterprise1: Activity None, Compromised User",
    "Enterprise2: Activity None, Compromised Unknown\nOp_Server0: Activity Exploit, Compromised User",
    "All 13 hosts: Activity None, Compromised No.",
    "User1: Activity Scan, Compromised No",
]
ACTORS = [None, "s1/i00", "user:bob", "s2/i01"]


def outcome_of(order: list[int]) -> tuple:
    """Per teaching (by its index in TEACHINGS): the status of the rule it ended in, and per (context,
    actor) the set of teachings whose rule is injected."""
    book = PlanBook()
    ended_in: dict[int, str] = {}
    for index in order:  # one teaching at a time: the order of teaching is the order of the permutation
        plan = book.apply(TEACHINGS[index])
        ended_in[index] = plan.outcomes[0].rule_id
    records = book.records
    statuses = tuple(records[ended_in[i]].status for i in range(len(TEACHINGS)))
    eligible = eligible_rules(records)
    injected = []
    for context in CONTEXTS:
        situation = read_situation(context)
        meanings = {rid: meaning_of(records[rid]) for rid in eligible}
        applying = sorted(rid for rid, m in meanings.items() if m.when is not None and holds(m.when, situation))
        for actor in ACTORS:
            kept, _ = resolve_conflicts(applying, records, set(applying), actor,
                                        related=lambda a, b: conflict_in(meanings[a], meanings[b], situation))
            injected.append(frozenset(i for i in range(len(TEACHINGS)) if ended_in[i] in kept))
    return statuses, tuple(injected)


def test_random_permutations_of_one_set_of_teachings_give_one_book():
    rng = random.Random(18)
    reference = outcome_of(list(range(len(TEACHINGS))))
    assert "superseded" not in reference[0]  # nothing here replaces anything: no equivalent own triggers
    assert any(len(s) > 1 for s in reference[1]) and any(not s for s in reference[1])  # the contexts discriminate
    for _ in range(40):
        order = list(range(len(TEACHINGS)))
        rng.shuffle(order)
        assert outcome_of(order) == reference, order


# -- precedence -----------------------------------------------------------------------------------------


def test_specificity_settles_a_conflict_before_support():
    narrow = RuleRecord("narrow", "Never restore User0 when compromised.", "CONTENT", CHOOSER, "g", actors=("user:alice",),
                        support=1, when={"host": "User0", "compromise": "any"},
                        action={"mode": "never", "verb": "Restore", "target": "User0"})
    broad = RuleRecord("broad", "Restore compromised user hosts.", "CONTENT", CHOOSER, "g", actors=("user:bob", "user:dan"),
                       support=2, when={"class": "User", "compromise": "any"},
                       action={"mode": "do", "verb": "Restore", "target": "$matched"})
    records = {"narrow": narrow, "broad": broad}
    decision = settle(["narrow", "broad"], records, "user:carol")
    assert (decision.winner, decision.tier) == ("narrow", "specificity")
    assert settle(["narrow", "broad"], records, "user:bob").winner == "broad"  # own actor first
    assert [tier for tier, _ in PRECEDENCE] == ["own actor", "specificity", "support", "recency", "abstain"]


# -- withdrawal by meaning ----------------------------------------------------------------------------------


def test_a_withdrawn_rule_taught_again_in_other_words_is_refused_naming_it():
    book = PlanBook()
    first = rule("Restore User2 whenever it is compromised.", "user:alice", {"host": "User2", "compromise": "any"},
                 {"mode": "do", "verb": "Restore", "target": "User2"})
    book.apply(first)
    book.withdraw(first.rule_id)
    reworded = rule("User2 stayed compromised. When User2 shows any compromise, reimage User2.", "s1/i09",
                    {"host": "User2", "compromise": "any"}, {"mode": "do", "verb": "Restore", "target": "User2"})
    plan = book.apply(reworded)
    (outcome,) = plan.outcomes
    assert outcome.result == "refused" and plan.empty
    assert first.rule_id in outcome.detail and f"forge rulebook restore {first.rule_id}" in outcome.detail
    assert reworded.rule_id not in book.records


def test_a_withdrawn_semantic_rule_taught_again_nearly_verbatim_is_refused():
    book = PlanBook()
    first = rule("Treat any outbound connection to port 4444 as a reverse shell.", "user:bob", None, None, roles=("analyst",))
    book.apply(first)
    book.withdraw(first.rule_id)
    plan = book.apply(rule("Treat an outbound connection to port 4444 as a reverse shell.", "user:bob", None, None,
                           roles=("analyst",)))
    assert plan.outcomes[0].result == "refused" and first.rule_id in plan.outcomes[0].detail
    other = book.apply(rule("Flag logins from unknown users as suspicious.", "user:bob", None, None, roles=("analyst",)))
    assert other.outcomes[0].result == "add"  # a different text is no re-teaching


# -- ablation against no rule ---------------------------------------------------------------------------------


def test_withholding_a_rule_does_not_bring_back_the_rule_it_superseded():
    from forge.rulebook.retrieval.resolve import Scope

    old = RuleRecord("old", "d1", "CONTENT", CHOOSER, "g", status="superseded", actors=("s/i00",), sources=("m1",))
    new = RuleRecord("new", "d2", "CONTENT", CHOOSER, "g", actors=("s/i00",), supersedes=("old",), sources=("m2",))
    other = RuleRecord("other", "d3", "CONTENT", CHOOSER, "g", actors=("s/i01",), sources=("m3",))
    records = {"old": old, "new": new, "other": other}
    scope = Scope(frozenset({"m1", "m2", "m3"}))
    assert eligible_rules(records, scope) == {"new", "other"}
    without_new = Scope(scope.sources, withheld=frozenset({"new"}))
    assert eligible_rules(records, without_new) == {"other"}  # against no rule, not against "old"
    # an instance whose memory predates the newer rule still gets the older one
    assert eligible_rules(records, Scope(frozenset({"m1", "m3"}))) == {"old", "other"}


def test_a_learners_reteaching_of_a_withdrawn_rule_is_counted_as_refused(tmp_path):
    """Through the memory sync (what `forge rulebook export` runs): the re-taught item is refused, not kept."""
    from forge.memory.model import MemoryItem, MemorySnapshot, Provenance
    from forge.rulebook.store.backends import open_rulebook
    from forge.rulebook.book import Rulebook
    from forge.rulebook.authoring.compile import RuleCompiler
    from forge.rulebook.retrieval.embed import local_embedder
    from forge.rulebook.authoring.sync import MemorySync
    from forge.rulebook.authoring.trigger_node import FailureLibrary
    from forge.config import load_config
    from forge.wiring import build_clients

    book = Rulebook(open_rulebook(str(tmp_path / "rb.db")), local_embedder())
    prov = Provenance(instance="i00", session="s1")
    first = MemoryItem.create("rule", "action_chooser", "When User2 shows any compromise, then Restore User2.", provenance=prov)
    sync = MemorySync(book, RuleCompiler(None), FailureLibrary(None))
    (kept,) = sync.sync(MemorySnapshot((first,))).items
    book.withdraw(kept.rule_id)
    again = MemoryItem.create("rule", "action_chooser", "User2 stayed compromised; whenever User2 shows any compromise, reimage User2.",
                              provenance=Provenance(instance="i01", session="s1"))
    clients, _ = build_clients(load_config())
    sync = MemorySync(book, RuleCompiler(clients["compiler"]), FailureLibrary(None))  # the surrogate compiles free text
    report = sync.sync(MemorySnapshot((first, again)))
    assert (report.kept, report.refused) == (0, 1)
    (entry,) = report.items
    assert entry.result == "refused" and entry.rule_id is None
    assert book.store.head(kept.rule_id).record.status == "withdrawn"


# -- per host: the exception over the general rule -----------------------------------------------------------

CLASS_RESTORE = rule("When a User host shows Compromised User, restore it.", "user:bob",
                     {"class": "User", "compromise": "User"}, {"mode": "do", "verb": "Restore", "target": "$matched"})
USER0_EXCEPTION = rule("When User0 shows Compromised User, remove the attacker from it rather than restoring it.", "user:alice",
                       {"host": "User0", "compromise": "User"},
                       {"mode": "prefer", "verb": "Remove", "target": "User0", "over": {"verb": "Restore", "target": "User0"}})
# Not per host: an order about a fixed host, whose exception disputes the one host it acts on.
OP_RESTORE = rule("When a User host shows Compromised User, restore Op_Server0.", "user:dave",
                  {"class": "User", "compromise": "User"}, {"mode": "do", "verb": "Restore", "target": "Op_Server0"})
OP_EXCEPTION = rule("When User0 shows Compromised User, never restore Op_Server0.", "user:erin",
                    {"host": "User0", "compromise": "User"}, {"mode": "never", "verb": "Restore", "target": "Op_Server0"})
# Nor one that disagrees about a host-less verb (one action per step).
USER0_SLEEP = rule("When User0 shows Compromised User, sleep.", "user:erin",
                   {"host": "User0", "compromise": "User"}, {"mode": "do", "verb": "Sleep", "target": None})


def injected(teachings, context: str, actor=None) -> tuple[list[str], list]:
    """What resolution keeps of the teachings' rules that apply to `context`, by directive, in order."""
    from forge.rulebook.language.meaning import undisputed_hosts
    from forge.rulebook.retrieval.resolve import narrower_first

    book = PlanBook()
    for teaching in teachings:
        book.apply(teaching)
    records, situation = book.records, read_situation(context)
    meanings = {rid: meaning_of(r) for rid, r in records.items()}
    applying = sorted(rid for rid, m in meanings.items() if holds(m.when, situation))
    kept, decisions = resolve_conflicts(
        applying, records, set(applying), actor, related=lambda a, b: conflict_in(meanings[a], meanings[b], situation),
        undisputed=lambda rid, others: bool(undisputed_hosts(meanings[rid], [meanings[o] for o in others], situation)))
    kept = narrower_first(kept, {rid: meanings[rid].when for rid in kept})
    return [records[rid].directive for rid in kept], decisions


BOTH = "Alerts:\nUser0: Activity None, Compromised User\nUser4: Activity Exploit, Compromised User"
ONLY_USER0 = "Alerts:\nUser0: Activity None, Compromised User"


def test_an_exception_wins_on_its_host_and_the_general_rule_still_speaks_for_the_other_hosts():
    teachings = (CLASS_RESTORE, USER0_EXCEPTION)
    # User0 and User4 compromised: the exception on User0, then the general rule, which alone speaks for User4
    kept, (decision,) = injected(teachings, BOTH, "user:carol")
    assert kept == [USER0_EXCEPTION.directive, CLASS_RESTORE.directive]
    assert decision.tier == "specificity" and len(decision.elsewhere) == 1
    # only User0: the general rule says nothing the exception does not overrule, so it stays out
    assert injected(teachings, ONLY_USER0, "user:carol")[0] == [USER0_EXCEPTION.directive]
    # the general rule's teacher: their own rule wins; the exception speaks for no other host
    assert injected(teachings, BOTH, "user:bob")[0] == [CLASS_RESTORE.directive]
    # the exception's teacher: their own (narrower) rule wins on User0, the general rule keeps User4
    assert injected(teachings, BOTH, "user:alice")[0] == [USER0_EXCEPTION.directive, CLASS_RESTORE.directive]


@pytest.mark.parametrize("general, exception", [(OP_RESTORE, OP_EXCEPTION), (CLASS_RESTORE, USER0_SLEEP)])
def test_a_loser_that_would_speak_for_the_disputed_action_again_stays_out(general, exception):
    kept, (decision,) = injected((general, exception), BOTH, "user:carol")
    assert kept == [exception.directive] and decision.elsewhere == ()
