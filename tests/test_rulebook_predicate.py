"""Trigger predicates, actions, the situation reader, overlap and `judge`: pure functions, no model."""

from __future__ import annotations

import json

import pytest

from forge.env.cage2 import Cage2Env
from forge.env.catalog import HOSTS
from forge.env.text_view import render_alerts, render_blue_table, render_changed_hosts, render_host_state
from forge.rulebook.language.action import clash_hosts, judge, parse_rule_action, rule_action_to_json
from forge.rulebook.language.meaning import Meaning, conflict_in, grammar_meaning, may_conflict, same_meaning
from forge.rulebook.language.grammar import parse_rule
from forge.rulebook.language.predicate import (
    PredicateError,
    holds,
    implies,
    matched_hosts,
    may_overlap,
    parse_predicate,
    predicate_to_json,
)
from forge.rulebook.language.situation import read_situation


def P(data):
    return parse_predicate(data)


def A(data):
    return parse_rule_action(data)


@pytest.mark.parametrize("data", [
    {"always": True},
    {"host": "User0"},
    {"host": "User2", "activity": "Exploit"},
    {"class": "User", "compromise": "Privileged"},
    {"any": [{"host": "Op_Server0", "compromise": "any"}, {"not": {"class": "Enterprise", "activity": "Scan"}}]},
    {"all": [{"host": "Enterprise2", "compromise": "any"}, {"host": "Op_Server0", "activity": "any"}]},
])
def test_predicates_round_trip_through_json(data):
    parsed = P(json.loads(json.dumps(data)))
    assert predicate_to_json(parsed) == data and P(predicate_to_json(parsed)) == parsed


@pytest.mark.parametrize("data, named", [
    ({"host": "User9"}, "User9"),
    ({"class": "Workstation", "compromise": "any"}, "Workstation"),
    ({"host": "User1", "activity": "Exploited"}, "Exploited"),
    ({"host": "User1", "colour": "red"}, "colour"),
    ({"always": True, "host": "User1"}, "always"),
    ({"any": []}, "any"),
])
def test_a_bad_predicate_is_an_error_naming_the_bad_part(data, named):
    with pytest.raises(PredicateError, match=named):
        P(data)


def test_actions_round_trip_and_bad_verbs_or_targets_are_named():
    for data in ({"mode": "do", "verb": "Restore", "target": "$matched"}, {"mode": "never", "verb": "Remove", "target": "User"},
                 {"mode": "prefer", "verb": "Restore", "target": "Op_Server0", "over": {"verb": "Remove", "target": "Op_Server0"}},
                 {"mode": "do", "verb": "Monitor", "target": None}):
        assert rule_action_to_json(A(data)) == data
    with pytest.raises(PredicateError, match="Reimage"):
        A({"mode": "do", "verb": "Reimage", "target": "User1"})
    with pytest.raises(PredicateError, match="User7"):
        A({"mode": "never", "verb": "Restore", "target": "User7"})
    with pytest.raises(PredicateError, match="maybe"):
        A({"mode": "maybe", "verb": "Restore", "target": "User1"})


def test_the_situation_reader_understands_every_context_form():
    forms = {
        "User2 | Activity Exploit | Compromised User": {"User2": (("Exploit", "User"),)},
        "User2 | Exploit | User": {"User2": (("Exploit", "User"),)},
        "Op_Server0: Activity Exploit, Compromised User\nUser1: Activity Scan, Compromised No":
            {"Op_Server0": (("Exploit", "User"),), "User1": (("Scan", "No"),)},
        "Host User1: table Activity Exploit, Compromised User.\nBaseline: 1 processes": {"User1": (("Exploit", "User"),)},
        "Hosts changed since the last step: Enterprise1 (Activity None, Compromised Privileged)":
            {"Enterprise1": (("None", "Privileged"),)},
        "Enterprise0, Enterprise1 and User1 show Activity Scan":
            {"Enterprise0": (("Scan", None),), "Enterprise1": (("Scan", None),), "User1": (("Scan", None),)},
        "User0 is compromised.": {"User0": ((None, "?"),)},
        "The attacker has root on User4; User3 is clean.": {"User4": ((None, "Privileged"),), "User3": ((None, "No"),)},
        # the environment's quiet line states every host (issue 18: the gate is three-valued, so "quiet" must be stated)
        "Recent steps: step 3: Restore User0 -> reward -1.0\nAlerts:\nNo host shows activity or compromise.":
            {h: (("None", "No"),) for h in HOSTS},
    }
    for text, expected in forms.items():
        assert read_situation(text).by_host == expected, text


def test_the_situation_reader_reads_the_environments_own_renderings():
    env = Cage2Env("b_line", max_steps=30)
    env.reset(seed=1001)
    for _ in range(3):
        env.step(0)  # Sleep: B_line exploits User2 at step 3 with this seed (data/dc_bench/observations.yaml)
    view = env.view()
    shown = {r.hostname: (r.activity, r.compromised) for r in view.hosts if not r.quiet}
    assert shown  # the seed really shows an alert
    for text in (render_alerts(view), render_changed_hosts(view)):
        situation = read_situation(text)
        assert {h: s[0] for h, s in situation.by_host.items() if s[0] != ("None", "No")} == shown
    table = read_situation(render_blue_table(view))
    assert len(table.by_host) == 13 and all(table.states(h) == (s,) for h, s in shown.items())
    host = next(iter(shown))
    assert read_situation(render_host_state(env.host_state(host))).states(host) == (shown[host],)


def test_predicates_hold_on_what_the_context_states():
    row = read_situation("User2 | Activity Exploit | Compromised User")
    assert holds(P({"host": "User2", "activity": "Exploit"}), row)
    assert holds(P({"class": "User", "compromise": "any"}), row)
    assert not holds(P({"host": "User2", "compromise": "Privileged"}), row)
    assert not holds(P({"host": "User0"}), row)  # User0 is not in this context
    assert holds(P({"not": {"host": "User0"}}), row)
    assert matched_hosts(P({"class": "User", "activity": "any"}), read_situation(
        "User1: Activity Exploit, Compromised User\nUser3: Activity None, Compromised User\nUser4: Activity Scan, Compromised No")) \
        == ("User1", "User4")
    # A stated compromise of unknown level meets "any compromise" but no particular level.
    vague = read_situation("User0 is compromised.")
    assert holds(P({"host": "User0", "compromise": "any"}), vague) and not holds(P({"host": "User0", "compromise": "User"}), vague)


def test_overlap_is_conservative_but_sees_exclusive_conditions():
    assert may_overlap(P({"class": "User", "compromise": "any"}), P({"host": "User0"}))
    assert not may_overlap(P({"host": "User1", "activity": "Scan"}), P({"host": "User1", "activity": "Exploit"}))
    assert may_overlap(P({"host": "User1", "activity": "Scan"}), P({"host": "User1", "compromise": "User"}))
    assert not may_overlap(P({"host": "User1", "activity": "any"}), P({"not": {"host": "User1"}}))
    assert not may_overlap(P({"host": "User1", "activity": "None"}), P({"host": "User1", "activity": "any"}))
    assert implies(P({"host": "User1", "compromise": "Privileged"}), P({"class": "User", "compromise": "any"}))
    assert not implies(P({"class": "User", "compromise": "any"}), P({"host": "User1", "compromise": "any"}))


def test_conflicts_by_meaning_whatever_the_wording():
    never_user0 = Meaning(P({"host": "User0"}), A({"mode": "never", "verb": "Restore", "target": "User0"}))
    when, action = grammar_meaning(parse_rule("When a User host shows any compromise, then Restore that host"))
    class_restore = Meaning(P(when), A(action))
    assert may_conflict(never_user0, class_restore)
    # In a context, only where the class rule would restore User0 itself.
    assert conflict_in(never_user0, class_restore, read_situation(
        "User0: Activity Exploit, Compromised User\nUser1: Activity None, Compromised User"))
    assert not conflict_in(never_user0, class_restore, read_situation(
        "User0: Activity Scan, Compromised No\nUser1: Activity None, Compromised User"))
    # Different levels on the same host under $matched do not clash; different verbs on one host do.
    privileged = Meaning(P({"class": "User", "compromise": "Privileged"}), A({"mode": "do", "verb": "Restore", "target": "$matched"}))
    user_level = Meaning(P({"class": "User", "compromise": "User"}), A({"mode": "do", "verb": "Remove", "target": "$matched"}))
    assert not may_conflict(privileged, user_level)
    remove_user1 = Meaning(P({"host": "User1", "compromise": "any"}), A({"mode": "do", "verb": "Remove", "target": "User1"}))
    assert may_conflict(privileged, remove_user1)
    # Agreement is not conflict, and equal meaning is equal whatever the wording was.
    restore_user1 = Meaning(P({"host": "User1", "compromise": "any"}), A({"mode": "do", "verb": "Restore", "target": "User1"}))
    assert not may_conflict(privileged, restore_user1) and same_meaning(restore_user1, Meaning(
        P({"host": "user1", "compromise": "ANY"}), A({"mode": "do", "verb": "restore", "target": "user1"})))
    assert clash_hosts(A({"mode": "do", "verb": "Monitor", "target": None}), restore_user1.action, (), ()) == frozenset()


@pytest.mark.parametrize("action, chosen, matched, verdict", [
    ({"mode": "do", "verb": "Restore", "target": "$matched"}, "Restore User1", ("User1",), "followed"),
    ({"mode": "do", "verb": "Restore", "target": "$matched"}, "Remove User1", ("User1",), "contradicted"),
    ({"mode": "do", "verb": "Restore", "target": "$matched"}, "Analyse User3", ("User1",), "ignored"),
    ({"mode": "do", "verb": "Restore", "target": "User"}, "Restore User4", (), "followed"),
    ({"mode": "never", "verb": "Restore", "target": "User0"}, "restore user0", (), "contradicted"),
    ({"mode": "never", "verb": "Restore", "target": "User0"}, "Restore User1", (), "followed"),
    ({"mode": "prefer", "verb": "Remove", "target": "$matched", "over": {"verb": "Restore", "target": "$matched"}},
     "Restore Enterprise1", ("Enterprise1",), "contradicted"),
    ({"mode": "do", "verb": "Monitor", "target": None}, "Monitor", (), "followed"),
    ({"mode": "do", "verb": "Restore", "target": "User1"}, "not an action", (), "ignored"),
])
def test_judge(action, chosen, matched, verdict):
    assert judge(A(action), chosen, matched) == verdict


def test_an_atom_that_names_neither_host_nor_class_is_about_some_host_whichever():
    """The rule language (docs/rule-language.md): `{"activity": "Exploit"}` is `{"class": "any", "activity": "Exploit"}` ("when some
    host is exploited"); a strict schema's null host and class mean the same; naming both, or nothing at all, is an
    error naming it."""
    assert P({"activity": "Exploit"}) == P({"class": "any", "activity": "Exploit"})
    assert P({"host": None, "class": None, "compromise": "any", "newly_compromised": True}) == \
        P({"class": "any", "compromise": "any", "newly_compromised": True})
    assert P({"not": {"compromise": "any"}}) == P({"not": {"class": "any", "compromise": "any"}})
    with pytest.raises(PredicateError, match="not both"):
        P({"host": "User1", "class": "User", "activity": "Scan"})
    with pytest.raises(PredicateError, match="nothing but nulls"):
        P({"host": None, "class": None, "activity": None})


def test_a_some_host_atom_is_never_wider_than_a_text_that_names_a_host_or_a_class():
    """The checks treat it as any host: refused for a text about User2 or about user hosts, accepted for "some host"."""
    from forge.rulebook.authoring.checks import text_problem

    remove = {"mode": "do", "verb": "Remove", "target": "$matched"}
    assert text_problem("When User2 gets exploited, remove the attacker from it.", {"activity": "Exploit"}, remove) \
        .startswith("host:")
    assert text_problem("When a user host gets exploited, remove the attacker from it.", {"activity": "Exploit"}, remove) \
        .startswith("class:")
    assert text_problem("When some host gets exploited, remove the attacker from it.", {"activity": "Exploit"}, remove) is None
