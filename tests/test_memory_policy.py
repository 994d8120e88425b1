"""The pure apply policy: deduplication, near-duplicate reinforcement, capacity and eviction."""

from __future__ import annotations

import pytest

from forge.config import MemoryConfig
from forge.memory.model import Artifact, MemoryItem, MemorySnapshot, Provenance
from forge.memory.policy import Capacities, apply_items, eviction_key


def host_rule(n: int, action: str = "Remove") -> str:
    return f"When User{n} shows Exploit, then {action} User{n}"


def apply(snapshot, artifacts, rules=100, examples=50, threshold=0.9):
    return apply_items(snapshot, artifacts, rules_capacity=rules, examples_capacity=examples,
                       near_duplicate_threshold=threshold)


def memory_of(*supports: int, role: str = "planner") -> MemorySnapshot:
    """Planner rules on hosts 0.. with the given supports, seq in order."""
    return MemorySnapshot(tuple(
        MemoryItem.create("rule", role, host_rule(n), support=s, seq=n) for n, s in enumerate(supports)
    ))


def texts(snapshot: MemorySnapshot, role: str = "planner", kind: str = "rule") -> list[str]:
    return [item.text for item in snapshot.items_for(role, kind)]


def test_defaults_come_from_the_config():
    assert Capacities.from_config(MemoryConfig()) == Capacities(100, 50)
    assert MemoryConfig().near_duplicate_threshold == 0.9


def test_new_items_get_increasing_seq_and_keep_their_provenance():
    prov = Provenance(actor="reflector", stage=1)
    result, report = apply(memory_of(1, 1), [Artifact.rule("planner", host_rule(7), prov),
                                             Artifact.example("analyst", "scan", "Action: Analyse User2")])
    added = {item.text: item for item in report.added}
    assert added[host_rule(7)].seq == 2 and added["Action: Analyse User2"].seq == 3
    assert added[host_rule(7)].provenance == prov and added["Action: Analyse User2"].title == "scan"
    assert len(result) == 4 and report.summary() == "2 added, 0 reinforced, 0 evicted, 0 rejected"


def test_exact_duplicate_reinforces_instead_of_copying():
    result, report = apply(memory_of(1, 1), [Artifact.rule("planner", "when USER1 shows exploit, then remove user1.")])
    assert len(result) == 2 and report.added == ()
    assert result.items_for("planner", "rule")[1].support == 2
    assert [(r.item_id, r.similarity, r.support) for r in report.reinforced] == [(result.items[1].id, 1.0, 2)]


def test_duplicates_within_one_batch_reinforce_the_first():
    result, report = apply(MemorySnapshot(), [Artifact.rule("planner", host_rule(1))] * 3)
    (item,) = result.items
    assert item.support == 3 and report.added == (item,) and len(report.reinforced) == 2


def test_near_duplicate_reinforces_the_closest_item():
    wordy = "When User1 shows Exploit in the analyst report for the current step, then Remove User1 at once"
    base = MemorySnapshot((MemoryItem.create("rule", "planner", wordy),))
    reworded = wordy.replace("at once", "at once please")
    result, report = apply(base, [Artifact.rule("planner", reworded)], threshold=0.9)
    assert texts(result) == [wordy] and result.items[0].support == 2
    assert 0.9 <= report.reinforced[0].similarity < 1.0
    # Below the threshold the same proposal is a new rule.
    result, report = apply(base, [Artifact.rule("planner", reworded)], threshold=0.95)
    assert len(result) == 2 and len(report.added) == 1


def test_same_rule_for_another_host_is_a_new_rule():
    result, report = apply(memory_of(1, 1), [Artifact.rule("planner", host_rule(1).replace("User1", "User3")),
                                             Artifact.rule("planner", host_rule(0, "Restore"))])
    assert len(report.added) == 2 and report.reinforced == ()


def test_near_duplicates_only_match_within_role_and_kind():
    result, report = apply(memory_of(1), [Artifact.rule("analyst", host_rule(0)),
                                          Artifact("example", "planner", host_rule(0))])
    assert len(report.added) == 2 and all(item.support == 1 for item in result.items)


def test_eviction_order_is_lowest_support_then_oldest_then_id():
    a = MemoryItem.create("rule", "planner", host_rule(1), support=1, seq=5)
    b = MemoryItem.create("rule", "planner", host_rule(2), support=1, seq=5)
    c = MemoryItem.create("rule", "planner", host_rule(3), support=1, seq=2)
    d = MemoryItem.create("rule", "planner", host_rule(4), support=2, seq=0)
    assert sorted([d, b, a, c], key=eviction_key) == [c] + sorted([a, b], key=lambda i: i.id) + [d]


def test_at_capacity_the_least_supported_oldest_item_goes():
    result, report = apply(memory_of(2, 1, 1), [Artifact.rule("planner", host_rule(9))], rules=3)
    assert texts(result) == [host_rule(0), host_rule(2), host_rule(9)]
    (eviction,) = report.evicted
    assert eviction.item.text == host_rule(1) and eviction.displaced_by == report.added[0].id
    assert "capacity 3" in eviction.reason and "support (1)" in eviction.reason


def test_the_new_item_is_never_evicted_even_when_it_ranks_lowest():
    # Every stored rule has more support than the newcomer; FIFO or a plain support sort would drop it.
    result, report = apply(memory_of(3, 2, 5), [Artifact.rule("planner", host_rule(9))], rules=3)
    assert host_rule(9) in texts(result)
    assert [e.item.text for e in report.evicted] == [host_rule(1)]


def test_reinforcement_protects_a_rule_from_eviction():
    snapshot = memory_of(1, 1, 1)
    snapshot, _ = apply(snapshot, [Artifact.rule("planner", host_rule(0))], rules=3)  # seq 0 now has support 2
    snapshot, report = apply(snapshot, [Artifact.rule("planner", host_rule(8))], rules=3)
    assert texts(snapshot) == [host_rule(0), host_rule(2), host_rule(8)]


def test_capacity_is_per_role_and_kind():
    snapshot = MemorySnapshot((
        *memory_of(1, 1).items,
        MemoryItem.create("rule", "analyst", host_rule(5), seq=2),
        MemoryItem.create("example", "planner", "Action: Sleep", seq=3),
    ))
    result, report = apply(snapshot, [Artifact.rule("planner", host_rule(9))], rules=2, examples=1)
    assert [e.item.text for e in report.evicted] == [host_rule(0)]
    assert result.count("analyst", "rule") == 1 and result.count("planner", "example") == 1


def test_a_memory_over_a_lowered_capacity_shrinks_on_the_next_add():
    result, report = apply(memory_of(1, 1, 1, 1), [Artifact.rule("planner", host_rule(9))], rules=2)
    assert texts(result) == [host_rule(3), host_rule(9)] and len(report.evicted) == 3


def test_a_batch_larger_than_capacity_keeps_the_last_and_reports_the_rest():
    artifacts = [Artifact.rule("planner", host_rule(n)) for n in range(3)]
    result, report = apply(MemorySnapshot(), artifacts, rules=2)
    assert texts(result) == [host_rule(1), host_rule(2)]
    assert [item.text for item in report.added] == texts(result)
    assert [e.item.text for e in report.evicted] == [host_rule(0)]
    assert "added earlier in this batch" in report.evicted[0].reason


def test_withdrawn_and_empty_proposals_are_rejected_with_a_reason():
    gone = MemoryItem.create("rule", "planner", host_rule(0))
    snapshot = MemorySnapshot((), frozenset({gone.id}))
    result, report = apply(snapshot, [Artifact.rule("planner", host_rule(0) + "."), Artifact.rule("planner", "  ")])
    assert len(result) == 0 and report.added == ()
    assert ["withdrawn" in r.reason for r in report.rejected] == [True, False]
    assert report.rejected[1].reason == "empty text"
    assert result.withdrawn == {gone.id}


def test_policy_is_deterministic():
    artifacts = [Artifact.rule("planner", host_rule(n % 4)) for n in range(10)]
    first = apply(memory_of(1, 2), artifacts, rules=3)
    second = apply(memory_of(1, 2), artifacts, rules=3)
    assert first[0].digest == second[0].digest and first[1] == second[1]


def test_bad_parameters_are_refused():
    with pytest.raises(ValueError, match="capacities"):
        apply(MemorySnapshot(), [], rules=0)
    with pytest.raises(ValueError, match="threshold"):
        apply(MemorySnapshot(), [], threshold=0.0)
    with pytest.raises(ValueError, match="role"):
        Artifact.rule("reflector", "x")
