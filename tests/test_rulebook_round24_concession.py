"""Issue 29, twenty-fourth round (r24h, blind21's exceptions): a prohibition whose state is said only in a concession
that runs on to its reason ("Never analyse Enterprise1, even if it is rooted: it is a choke point and gets hit again
anyway.") holds whatever the host shows and whatever the reason says. The reason's words (a "point", an "again") are no
condition: no reward, no history to wait for. A predicate that asks the conceded state is narrow (refused), and the rule,
kept semantic, applies where the host is shown. Sentences of our own, not the case files'."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.condition import semantic_claims, spoken_facts, text_facts
from forge.rulebook.language.facts import facts_needed
from forge.rulebook.language.guard import guard_rest
from forge.rulebook.language.predicate import Atom
from forge.rulebook.language.wording import read_wording

TEXT = "Never analyse Enterprise1, even if it is rooted: it is a choke point and gets exploited again right away."
NEVER = {"mode": "never", "verb": "Analyse", "target": "Enterprise1"}


def test_a_predicate_asking_the_conceded_state_is_narrow_despite_the_reason():
    problem = text_problem(TEXT, {"host": "Enterprise1", "compromise": "Privileged"}, NEVER)
    assert problem is not None and problem.startswith("narrow:")


def test_a_rest_listed_from_the_concession_does_not_hide_the_narrowing():
    problem = text_problem(TEXT, {"host": "Enterprise1", "compromise": "Privileged"}, NEVER, "choke point again")
    assert problem is not None and problem.startswith("narrow:")


def test_the_concession_and_its_reason_speak_of_no_fact():
    assert text_facts(TEXT) == frozenset()
    assert spoken_facts(read_wording(TEXT)) == []


def test_an_entry_point_is_a_place_not_a_score():
    assert "reward" not in facts_needed("it is the entry point and a choke point of the network")


def test_a_rest_taken_from_the_concession_is_no_guard():
    assert guard_rest("choke point again", None, TEXT) == ""


def test_the_refused_rule_is_judged_by_its_host_alone():
    found = semantic_claims(TEXT.rstrip("."), "predicate refused: narrow: ...", TEXT)
    assert found == Atom(host="Enterprise1")


def test_a_predicate_of_the_host_alone_passes():
    assert text_problem(TEXT, {"host": "Enterprise1"}, NEVER) is None


def test_points_as_a_score_still_need_rewards():
    # (guard: "points" of the score, outside a concession, are still a reward the context must state)
    assert "reward" in text_facts("If we lose points twice in a row, restore Enterprise1.")


def test_the_refused_prohibition_speaks_wherever_its_host_is_shown(tmp_path):
    # end to end: compiled narrow (the conceded state asked), refused, kept semantic; it applies at any state of its host
    from tests.test_rulebook_round22_harm_guards import _chooser, _injected

    injected = _injected(tmp_path, "action_chooser", TEXT, {"host": "Enterprise1", "compromise": "Privileged"}, NEVER)
    assert injected(_chooser(("Enterprise1", "Scan", "No")))
    assert injected(_chooser(("Enterprise1", "Exploit", "Privileged")))
    assert not injected(_chooser(("User2", "Scan", "No")))  # (guard: its host not shown)
