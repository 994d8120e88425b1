"""The memory data model: ids, content digests, serialisation, and the near-duplicate similarity."""

from __future__ import annotations

import hashlib
from dataclasses import replace

import pytest

from forge.memory.errors import CorruptMemoryError
from forge.memory.model import (
    EMPTY_DIGEST,
    MemoryItem,
    MemorySnapshot,
    MemoryVersion,
    Provenance,
    item_id,
)
from forge.memory.text import marked_words, normalise, similarity

RULE = "When User1 shows Exploit, then Remove User1"
PROV = Provenance(instance="s/0", session="s", stage=2, attempt=1, episode_seed=7, failing_step=11,
                  trigger_reward=-2.5, model="forge-surrogate-1", actor="reflector")


def rule(text: str = RULE, role: str = "planner", **fields) -> MemoryItem:
    return MemoryItem.create("rule", role, text, **fields)


def test_empty_snapshot_digest_is_pinned():
    # Pinned: a change here changes every stored digest and must come with a new FORMAT.
    assert EMPTY_DIGEST == hashlib.sha256(b'{"format":1,"items":[],"withdrawn":[]}').hexdigest()
    assert MemorySnapshot().digest == EMPTY_DIGEST == MemorySnapshot((), frozenset()).digest


def test_item_id_is_stable_and_ignores_case_spacing_and_final_period():
    assert item_id("rule", "planner", RULE) == "131989715b5f2d42"
    assert rule("  when user1   shows EXPLOIT, then remove User1. ").id == rule().id
    assert rule(role="analyst").id != rule().id
    assert MemoryItem.create("example", "planner", RULE).id != rule().id
    assert rule(RULE.replace("User1", "User2")).id != rule().id


def test_item_validation():
    with pytest.raises(ValueError, match="does not match"):
        replace(rule(), id="0" * 16)
    with pytest.raises(ValueError, match="role"):
        rule(role="reflector")
    with pytest.raises(ValueError, match="kind"):
        MemoryItem.create("fact", "planner", RULE)
    with pytest.raises(ValueError, match="support"):
        rule(support=0)
    with pytest.raises(ValueError, match="empty"):
        rule(" . ")


def test_same_content_gives_same_digest_whatever_the_order():
    a, b = rule(seq=0), rule("When User2 shows Exploit, then Remove User2", seq=1)
    example = MemoryItem.create("example", "analyst", "Thought: scan\nAction: Analyse User2", title="scan", seq=2)
    assert MemorySnapshot((a, b, example)).digest == MemorySnapshot((example, b, a)).digest
    assert MemorySnapshot((a, b)) == MemorySnapshot((b, a))


@pytest.mark.parametrize(
    "change",
    [
        lambda item: replace(item, support=2),
        lambda item: replace(item, seq=5),
        lambda item: replace(item, title="a title"),
        lambda item: replace(item, provenance=replace(PROV, attempt=2)),
        lambda item: replace(item, provenance=replace(PROV, actor="user:alice")),
        lambda item: replace(item, provenance=replace(PROV, trigger_reward=-2.6)),
        lambda item: replace(item, provenance=Provenance()),
        lambda item: rule(RULE + " now", provenance=PROV),
        lambda item: rule(role="analyst", provenance=PROV),
    ],
    ids=["support", "seq", "title", "attempt", "actor", "reward", "no provenance", "text", "role"],
)
def test_any_field_change_changes_the_digest(change):
    item = rule(provenance=PROV)
    assert MemorySnapshot((change(item),)).digest != MemorySnapshot((item,)).digest


def test_withdrawn_ids_are_part_of_the_content():
    item = rule()
    assert MemorySnapshot((item,), frozenset({"abc"})).digest != MemorySnapshot((item,)).digest


def test_snapshot_refuses_repeated_ids():
    with pytest.raises(ValueError, match="repeated ids"):
        MemorySnapshot((rule(seq=0), rule(seq=1)))


def test_snapshot_helpers():
    items = (rule(seq=3), rule("When User2 shows Exploit, then Remove User2", seq=1),
             rule("When User3 shows Exploit, then Remove User3", role="analyst", seq=2),
             MemoryItem.create("example", "planner", "Action: Sleep", title="idle", seq=0))
    snapshot = MemorySnapshot(items)
    assert [item.seq for item in snapshot.items_for("planner", "rule")] == [1, 3]
    assert snapshot.count("planner") == 3 and snapshot.count(kind="rule") == 3 and snapshot.count("action_chooser") == 0
    assert snapshot.next_seq() == 4 and MemorySnapshot().next_seq() == 0
    assert items[0].id in snapshot and snapshot.get("nope") is None
    smaller = snapshot.without([items[0].id], withdraw=True)
    assert items[0].id not in smaller and smaller.withdrawn == {items[0].id}
    assert snapshot.without([items[0].id]).withdrawn == frozenset()


def test_provenance_coerces_numbers_so_equal_values_hash_equally():
    assert Provenance(trigger_reward=-2).to_dict() == {"trigger_reward": -2.0}
    assert rule(provenance=Provenance(trigger_reward=-2)).content_hash == rule(provenance=Provenance(trigger_reward=-2.0)).content_hash
    with pytest.raises(ValueError):
        Provenance(trigger_reward=float("nan"))
    assert PROV.summary() == (
        "instance=s/0 session=s stage=2 attempt=1 seed=7 step=11 reward=-2.5 model=forge-surrogate-1 actor=reflector"
    )


def test_round_trips_through_plain_data():
    snapshot = MemorySnapshot((rule(provenance=PROV, support=3, seq=4),
                               MemoryItem.create("example", "action_chooser", "Action: Remove User1", title="t")),
                              frozenset({"0123456789abcdef"}))
    assert MemorySnapshot.from_dict(snapshot.to_dict()) == snapshot
    assert Provenance.from_dict(PROV.to_dict()) == PROV
    version = MemoryVersion("s/0", 3, snapshot.digest, EMPTY_DIGEST, "apply", False, ("a",), ("b",), ("c",), PROV, 12.5)
    assert MemoryVersion.from_dict(version.to_dict()) == version


def test_reading_back_checks_the_digest_and_the_keys():
    data = MemorySnapshot((rule(),)).to_dict()
    data["items"][0]["support"] = 9
    with pytest.raises(CorruptMemoryError, match="recorded digest"):
        MemorySnapshot.from_dict(data)
    with pytest.raises(CorruptMemoryError, match="unknown keys"):
        Provenance.from_dict({"actor": "x", "colour": "red"})
    with pytest.raises(CorruptMemoryError, match="missing keys"):
        MemoryItem.from_dict({"kind": "rule", "role": "planner", "text": RULE})


def test_version_validation():
    with pytest.raises(ValueError, match="op"):
        MemoryVersion("s/0", 1, EMPTY_DIGEST, None, "rewrite")
    with pytest.raises(ValueError, match="start at 1"):
        MemoryVersion("s/0", 0, EMPTY_DIGEST, None, "init")


# -- similarity ------------------------------------------------------------------------------


def test_rules_for_different_hosts_or_actions_are_not_near_duplicates():
    assert similarity(RULE, RULE.replace("User1", "User2")) == 0.0
    assert similarity(RULE, RULE.replace("Remove", "Restore")) == 0.0
    long_rule = "When the analyst reports that User1 shows signs of a privileged Exploit on the host, then Remove User1"
    # 17 shared words of 18: plain Jaccard would call them near duplicates.
    assert similarity(long_rule, long_rule.replace("User1", "User2")) == 0.0


def test_rewordings_of_one_rule_are_near_duplicates():
    assert similarity(RULE, "When User1 shows Exploit then Remove User1.") == 1.0
    reworded = "When the analyst reports that User1 shows signs of an Exploit on the host, then Remove User1 at once"
    assert 0.8 < similarity(reworded, reworded.replace("at once", "now")) < 0.9
    assert similarity("", "") == 1.0 and similarity("abc", "") == 0.0


def test_marked_words_are_names_not_sentence_starts():
    assert marked_words(RULE) == {"user1", "exploit", "remove"}
    assert marked_words("Thought: I must act. Then act.\nObservation: ok") == {"i"}
    assert normalise(" A  b.\n") == "a b"
