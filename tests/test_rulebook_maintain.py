"""Maintenance (dedupe, merge, supersede, conflicts) and injection-time conflict resolution. Pure."""

from __future__ import annotations

import pytest

from tests.plan_book import PlanBook
from forge.rulebook.store.curation import Teaching, plan_restore, plan_withdraw
from forge.rulebook.model import Evidence, RulebookError, RuleRecord
from forge.rulebook.retrieval.resolve import Scope, eligible_rules, resolve_conflicts, settle

GROUP = "Op_Server0/any-compromise"
RESTORE = "When Op_Server0 shows any compromise, then Restore Op_Server0."
REMOVE = "When Op_Server0 shows any compromise, then Remove Op_Server0."
ANALYSE = "When Op_Server0 shows any compromise, then Analyse Op_Server0."


def teach(directive: str, actor: str, source: str = "f1", weight: int = 1, group: str = GROUP,
          roles=("action_chooser",), rule_type: str = "CONTENT", item: str | None = None) -> Teaching:
    return Teaching(directive, rule_type, tuple(roles), group, actor, Evidence("failure", actor, source, weight),
                    trigger="dn-x", sources=(item,) if item else ())



def test_same_rule_taught_again_is_reinforced_not_duplicated():
    book = PlanBook()
    book.apply(teach(RESTORE, "s/i00", "f1"))
    plan = book.apply(teach(RESTORE, "s/i00", "f2", weight=2), teach(RESTORE, "s/i01", "f3"))
    assert len(book.records) == 1
    rule = book.of(RESTORE)
    assert rule.support == 4 and rule.actors == ("s/i00", "s/i01") and len(rule.evidence) == 3
    assert [o.result for o in plan.outcomes] == ["reinforce", "reinforce"]
    assert not rule.conflicts_with  # agreement is no conflict


def test_near_duplicate_wording_merges_into_the_existing_rule():
    book = PlanBook()
    book.apply(teach("Restore Op_Server0 at once whenever the blue table shows that it is compromised in any way", "user:alice", group="Op_Server0/general"))
    plan = book.apply(teach("Restore Op_Server0 at once whenever the blue table shows that it is compromised in any way.", "user:bob", "c2", group="Op_Server0/general"))
    assert plan.outcomes[0].result in ("reinforce", "merge") and len(book.records) == 1
    plan = book.apply(teach("Restore Op_Server0 at once whenever the blue table shows that it is compromised in any way, now", "user:carol", "c3", group="Op_Server0/general"))
    assert plan.outcomes[0].result == "merge" and len(book.records) == 1
    assert book.of("Restore Op_Server0 at once whenever the blue table shows that it is compromised in any way").actors == ("user:alice", "user:bob", "user:carol")


def test_an_actor_newer_rule_supersedes_its_own_older_one_in_the_group():
    book = PlanBook()
    book.apply(teach(REMOVE, "s/i00", "f1"))
    plan = book.apply(teach(RESTORE, "s/i00", "f2"))
    old, new = book.of(REMOVE), book.of(RESTORE)
    assert old.status == "superseded" and new.active and new.supersedes == (old.rule_id,)
    assert {c.op for c in plan.changes} == {"add", "supersede"}
    assert not new.conflicts_with  # same actor: supersession, not conflict
    # Another group (another host) is untouched.
    book.apply(teach("When User1 shows any compromise, then Remove User1.", "s/i00", "f3", group="User1/any-compromise"))
    assert book.of(RESTORE).active


def test_supersession_keeps_a_rule_others_still_back():
    book = PlanBook()
    book.apply(teach(REMOVE, "s/i00", "f1"), teach(REMOVE, "s/i01", "f2"))
    book.apply(teach(RESTORE, "s/i00", "f3"))
    old = book.of(REMOVE)
    assert old.active and old.actors == ("s/i01",) and old.support == 1
    # i01 still backs Remove, i00 now backs Restore: a cross-actor conflict.
    assert book.of(RESTORE).rule_id in old.conflicts_with


def test_cross_actor_disagreement_is_flagged_both_ways():
    book = PlanBook()
    book.apply(teach(RESTORE, "s/i00"))
    book.apply(teach(REMOVE, "user:alice", "c1"))
    a, b = book.of(RESTORE), book.of(REMOVE)
    assert a.active and b.active
    assert b.rule_id in a.conflicts_with and a.rule_id in b.conflicts_with


def test_withdrawn_rule_is_not_brought_back_by_teaching_but_by_restore():
    book = PlanBook()
    book.apply(teach(RESTORE, "s/i00"))
    rule = book.of(RESTORE)
    change = plan_withdraw(book.records, rule.rule_id)
    book.records[rule.rule_id] = change.record
    plan = book.apply(teach(RESTORE, "s/i01", "f9"))
    assert plan.outcomes[0].result == "refused" and not plan.changes
    with pytest.raises(RulebookError, match="already withdrawn"):
        plan_withdraw(book.records, rule.rule_id)
    with pytest.raises(RulebookError, match="itself withdrawn"):
        plan_restore(book.records, rule.rule_id, change.record, 2)
    restored = plan_restore(book.records, rule.rule_id, rule, 1)
    assert restored[0].record.active and restored[0].op == "restore"


def test_restoring_a_superseded_rule_releases_it_from_its_superseder():
    book = PlanBook()
    book.apply(teach(REMOVE, "s/i00", "f1"))
    earlier = book.of(REMOVE)
    book.apply(teach(RESTORE, "s/i00", "f2"))
    changes = plan_restore(book.records, earlier.rule_id, earlier, 1)
    by_id = {c.record.rule_id: c.record for c in changes}
    assert by_id[earlier.rule_id].active
    assert earlier.rule_id not in by_id[book.of(RESTORE).rule_id].supersedes


# -- resolution ---------------------------------------------------------------------------------------


def conflicted(*entries: tuple[str, str, int]) -> dict[str, RuleRecord]:
    """(rule id, actor, support) -> records, all pairwise in conflict."""
    ids = [e[0] for e in entries]
    return {rid: RuleRecord(rid, f"directive {rid}", "CONTENT", ("action_chooser",), GROUP, actors=(actor,), support=support,
                            conflicts_with=tuple(i for i in ids if i != rid))
            for rid, actor, support in entries}


def test_tier_1_the_querying_actor_rule_wins_when_it_is_a_party():
    records = conflicted(("a", "user:alice", 1), ("b", "s/i00", 5))
    kept, decisions = resolve_conflicts(["b", "a"], records, set(records), "user:alice")
    assert kept == ["a"] and decisions[0].tier == "actor" and decisions[0].winner == "a"


def test_tier_2_majority_of_supporting_evidence_when_the_actor_is_not_a_party():
    records = conflicted(("a", "user:alice", 1), ("b", "s/i00", 5), ("c", "s/i01", 2))
    kept, decisions = resolve_conflicts(["a"], records, set(records), "user:zed")
    assert kept == ["b"] and decisions[0].tier == "majority" and decisions[0].members == ("a", "b", "c")
    assert settle(("a", "b"), records, None).winner == "b"


def test_tier_3_abstain_on_a_tie():
    records = conflicted(("a", "user:alice", 3), ("b", "s/i00", 3))
    kept, decisions = resolve_conflicts(["a", "b"], records, set(records), "user:zed")
    assert kept == [] and decisions[0].tier == "abstain" and decisions[0].winner is None


def test_unrelated_rules_pass_through_resolution_in_order():
    records = {**conflicted(("a", "user:alice", 1), ("b", "s/i00", 2)),
               "z": RuleRecord("z", "other", "CONTENT", ("action_chooser",), "User1/any-compromise", actors=("s/i00",))}
    kept, decisions = resolve_conflicts(["z", "a"], records, set(records), None)
    assert kept == ["z", "b"] and len(decisions) == 1
    # A partner that is not eligible (e.g. withdrawn) is no party to the conflict.
    kept, decisions = resolve_conflicts(["a"], records, {"a", "z"}, None)
    assert kept == ["a"] and not decisions


def test_eligibility_scope_supersession_and_withdrawal():
    old = RuleRecord("old", "d1", "CONTENT", ("planner",), GROUP, status="superseded", actors=("s/i00",), sources=("m1",))
    new = RuleRecord("new", "d2", "CONTENT", ("planner",), GROUP, actors=("s/i00",), supersedes=("old",), sources=("m2",))
    human = RuleRecord("hum", "d3", "CONTENT", ("planner",), "x", actors=("user:alice",))
    gone = RuleRecord("gone", "d4", "CONTENT", ("planner",), "y", status="withdrawn", actors=("s/i00",), sources=("m1",))
    records = {r.rule_id: r for r in (old, new, human, gone)}
    assert eligible_rules(records) == {"new", "hum"}
    # A memory that predates the newer rule still gets the older one; humans' corrections always apply.
    assert eligible_rules(records, Scope(frozenset({"m1"}))) == {"old", "hum"}
    assert eligible_rules(records, Scope(frozenset({"m1", "m2"}), include_users=False)) == {"new"}


def test_teaching_the_same_evidence_again_changes_nothing():
    book = PlanBook()
    book.apply(teach(RESTORE, "s/i00", "f1", item="m1"))
    plan = book.apply(teach(RESTORE, "s/i00", "f1", item="m1"))
    assert plan.empty and plan.outcomes[0].result == "reinforce"
