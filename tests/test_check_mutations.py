"""The mutation benchmark of the checks (scripts/bench/check_mutations.py): each mutation changes what it says it
changes, the bench reads development splits only, and the checks catch the obvious mutants of simple rules."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts" / "bench"))

import check_mutations as cm  # noqa: E402  (after the path set-up above)

RNG = random.Random(7)
RESTORE_MATCHED = {"mode": "do", "verb": "Restore", "target": "$matched"}
# user hosts compromised, User0 excepted: a positive atom beside a negated one
EXCEPTED = {"all": [{"class": "User", "compromise": "any"}, {"not": {"host": "User0"}}]}


def whens(mutants):
    return [when for when, _ in mutants]


def actions(mutants):
    return [action for _, action in mutants]


# -- each mutation changes what it should ---------------------------------------------------------------------


def test_mode_flipped_turns_each_mode_around():
    when = {"host": "User2", "compromise": "any"}
    assert actions(cm.mode_flipped(when, {"mode": "do", "verb": "Remove", "target": "User2"}, RNG)) == \
        [{"mode": "never", "verb": "Remove", "target": "User2"}]
    assert actions(cm.mode_flipped(when, {"mode": "never", "verb": "Restore", "target": "User2"}, RNG)) == \
        [{"mode": "do", "verb": "Restore", "target": "User2"}]
    prefer = {"mode": "prefer", "verb": "Remove", "target": "User2", "over": {"verb": "Restore", "target": "User2"}}
    assert actions(cm.mode_flipped(when, prefer, RNG)) == [{"mode": "do", "verb": "Restore", "target": "User2"}]
    assert cm.mode_flipped(when, {"mode": "never", "verb": "any", "target": "User2"}, RNG) == []  # no "do" of every verb


def test_prefer_reversed_swaps_the_two_moves():
    prefer = {"mode": "prefer", "verb": "Analyse", "target": "Enterprise0", "over": {"verb": "Restore", "target": "Enterprise0"}}
    (_, action), = cm.prefer_reversed({"host": "Enterprise0"}, prefer, RNG)
    assert action == {"mode": "prefer", "verb": "Restore", "target": "Enterprise0",
                      "over": {"verb": "Analyse", "target": "Enterprise0"}}
    assert cm.prefer_reversed({"host": "Enterprise0"}, RESTORE_MATCHED, RNG) == []


def test_negation_dropped_removes_each_not():
    assert whens(cm.negation_dropped(EXCEPTED, RESTORE_MATCHED, RNG)) == \
        [{"all": [{"class": "User", "compromise": "any"}, {"host": "User0"}]}]


def test_quiet_made_loud_and_history_flipped_say_the_opposite():
    quiet = {"host": "Enterprise0", "compromise": "No", "activity": "Scan"}
    assert whens(cm.quiet_made_loud(quiet, RESTORE_MATCHED, RNG)) == [{"host": "Enterprise0", "compromise": "any", "activity": "Scan"}]
    fresh = {"class": "Enterprise", "newly_compromised": True}
    assert whens(cm.history_flipped(fresh, RESTORE_MATCHED, RNG)) == [{"class": "Enterprise", "newly_compromised": False}]


def test_hosts_and_classes_are_widened_only_where_that_widens_the_trigger():
    # (the User0 under the "not" is left alone: a wider host there would narrow the trigger)
    pinned = {"all": [{"host": "User3", "compromise": "any"}, {"not": {"host": "User0", "compromise": "any"}}]}
    assert whens(cm.host_to_any(pinned, RESTORE_MATCHED, RNG)) == \
        [{"all": [{"class": "any", "compromise": "any"}, {"not": {"host": "User0", "compromise": "any"}}]}]
    assert whens(cm.host_to_class(pinned, RESTORE_MATCHED, RNG)) == \
        [{"all": [{"class": "User", "compromise": "any"}, {"not": {"host": "User0", "compromise": "any"}}]}]
    assert whens(cm.class_to_any(EXCEPTED, RESTORE_MATCHED, RNG)) == \
        [{"all": [{"class": "any", "compromise": "any"}, {"not": {"host": "User0"}}]}]


def test_state_widened_widens_a_state_and_narrows_a_negated_one():
    rooted = {"host": "Enterprise1", "compromise": "Privileged"}
    assert whens(cm.state_widened(rooted, RESTORE_MATCHED, RNG)) == [{"host": "Enterprise1", "compromise": "any"}]
    clean = {"not": {"host": "Enterprise1", "compromise": "any"}}
    assert whens(cm.state_widened(clean, RESTORE_MATCHED, RNG)) == [{"not": {"host": "Enterprise1", "compromise": "Privileged"}}]
    assert cm.state_widened({"host": "Enterprise1", "compromise": "No"}, RESTORE_MATCHED, RNG) == []  # the quiet mutation's


def test_history_dropped_and_conjunct_dropped_drop_a_condition():
    acted = {"host": "User1", "compromise": "any", "acted": "Remove", "within": 2, "changed": False}
    assert whens(cm.history_dropped(acted, RESTORE_MATCHED, RNG)) == [{"host": "User1", "compromise": "any"}]
    assert whens(cm.conjunct_dropped(EXCEPTED, RESTORE_MATCHED, RNG)) == \
        [{"not": {"host": "User0"}}, {"class": "User", "compromise": "any"}]
    neither = {"not": {"any": [{"host": "User1", "activity": "any"}, {"host": "User2", "activity": "any"}]}}
    assert whens(cm.conjunct_dropped(neither, RESTORE_MATCHED, RNG)) == \
        [{"not": {"host": "User2", "activity": "any"}}, {"not": {"host": "User1", "activity": "any"}}]
    assert whens(cm.trigger_always(EXCEPTED, RESTORE_MATCHED, RNG)) == [{"always": True}]


def test_the_action_mutations_move_widen_or_swap():
    action = {"mode": "do", "verb": "Restore", "target": "User1"}
    (_, moved), = cm.target_moved({"host": "User1"}, action, random.Random(1))
    assert moved["target"] in {"User0", "User2", "User3", "User4"} and moved["verb"] == "Restore"
    assert actions(cm.target_widened({}, action, RNG)) == [{**action, "target": "User"}]
    assert actions(cm.target_widened({}, RESTORE_MATCHED, RNG)) == [{**RESTORE_MATCHED, "target": "any"}]
    (_, swapped), = cm.verb_swapped({"host": "User1"}, action, RNG)
    assert swapped["verb"] != "Restore" and swapped["target"] == "User1"


def test_every_mutation_class_is_tested_here():
    tested = {"mode_flipped", "prefer_reversed", "negation_dropped", "quiet_made_loud", "history_flipped", "host_to_any",
              "host_to_class", "class_to_any", "state_widened", "history_dropped", "conjunct_dropped", "trigger_always",
              "target_moved", "target_widened", "verb_swapped"}
    assert set(cm.MUTATIONS) == tested


# -- the bench reads development splits only, and is deterministic ---------------------------------------------


# blind-19 by convention, and whichever split is held out now (UNREAD names it; a fixed name went stale when it was read)
@pytest.mark.parametrize("split", ["blind19", *sorted(cm.dc_bench.UNREAD)])
def test_a_held_out_split_is_refused_before_any_case_file_is_read(split, monkeypatch):
    def no_reading(*args, **kwargs):
        raise AssertionError("a case file was read")

    monkeypatch.setattr(cm.dc_bench, "load_split", no_reading)
    monkeypatch.setattr(cm.dc_bench, "load_observations", no_reading)
    assert split not in cm.development_splits()
    with pytest.raises(ValueError, match=split):
        cm.load_rules(("dev", split))
    assert cm.main(["--splits", split]) == 2


def test_unread_splits_and_blind19_are_never_development():
    assert not set(cm.development_splits()) & (set(cm.dc_bench.UNREAD) | {"blind19"})
    assert {"dev", "blind34", "blind35", "blind36", "blind37", "blind38", "blind39", "blind40", "blind41", "blind42", "blind43", "blind44", "blind45", "blind46", "blind47", "blind48", "blind49", "blind50", "blind51", "blind52", "blind53", "blind54", "blind55", "blind56", "blind57", "blind58"} <= set(cm.development_splits())


# -- the checks catch the obvious mutants of rules compiled correctly ------------------------------------------

# (texts of our own; each compiled as its author means it)
OWN_RULES = [
    ("Once Enterprise1 sits at root level, restore Enterprise1.", {"host": "Enterprise1", "compromise": "Privileged"},
     {"mode": "do", "verb": "Restore", "target": "Enterprise1"}),
    ("Whenever User3 shows an exploit, User3 gets a Remove.", {"host": "User3", "activity": "Exploit"},
     {"mode": "do", "verb": "Remove", "target": "User3"}),
    ("If Op_Server0 is being scanned, Op_Server0 gets a DecoyApache.", {"host": "Op_Server0", "activity": "Scan"},
     {"mode": "do", "verb": "DecoyApache", "target": "Op_Server0"}),
    ("Once Enterprise2 has been exploited, plan a Restore of it.", {"host": "Enterprise2", "activity": "Exploit"},
     {"mode": "do", "verb": "Restore", "target": "Enterprise2"}),
]


@pytest.mark.parametrize("text, when, action", OWN_RULES)
def test_a_do_made_never_and_a_named_host_made_any_host_are_caught(text, when, action):
    assert cm.text_problem(text, when, action) is None  # the correct compilation passes
    rule = cm.Rule("dev", "own", text, *cm.canonical(when, action), "")
    outcomes = [o for o in cm.run([rule]) if o.mutation in ("mode_flipped", "host_to_any", "host_to_class", "trigger_always")]
    assert {o.mutation for o in outcomes} == {"mode_flipped", "host_to_any", "host_to_class", "trigger_always"}
    assert all(o.problem for o in outcomes), [(o.mutation, o.when, o.action) for o in outcomes if not o.problem]
    assert cm.run([rule], seed=3) == cm.run([rule], seed=3)  # seeded: the same mutants every run


def test_a_class_rule_widened_to_any_host_is_caught():
    text = "Whenever a user host is rooted, reimage that host."
    rule = cm.Rule("dev", "own", text, *cm.canonical({"class": "User", "compromise": "Privileged"}, RESTORE_MATCHED), "")
    outcomes = [o for o in cm.run([rule]) if o.mutation in ("class_to_any", "mode_flipped")]
    assert len(outcomes) == 2 and all(o.problem for o in outcomes)
