"""Issue 29, seventh round: the checks' false alarms on texts that say plainly what their compilation says (they kept
the rule semantic, so it was silent where it applies: recall lost for any compiler, a real model's included). Each class
on sentences of its kind written for these tests, never a split's.

- "REASON, so on X an exploit means Restore, not Remove": the order after "so" said as "X means VERB" was dropped as a
  consequence, so the text preferred nothing and the preference was refused.
- A host named only in a concession ("..., even while Op_Server0 is under attack") is no condition and no target.
- A sentence that says what a move does there, in the present ("Remove keeps failing there", "Analyse never works
  on it") reports; it was read as an order, and its "failing" as a condition on an action's outcome.
- The move an order puts aside ("instead of analysing it again") is no condition: its "again" asked for history.
"""

from __future__ import annotations

import pytest

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.rule_claims import conceded_hosts
from forge.rulebook.language.order import gives_order
from forge.rulebook.language.wording import read_wording


def prefer(verb, target, over_verb, over_target=None):
    return {"mode": "prefer", "verb": verb, "target": target, "over": {"verb": over_verb, "target": over_target or target}}


def do(verb, target):
    return {"mode": "do", "verb": verb, "target": target}


@pytest.mark.parametrize("text, when, action", [
    ("Careful with User1: it hosts the lab, so on User1 a compromise means Remove, not Restore.",
     {"host": "User1", "compromise": "any"}, prefer("Remove", "User1", "Restore")),
    ("Op_Host2 is the plant's last line, so on Op_Host2 a scan calls for a DecoyApache, not an Analyse.",
     {"host": "Op_Host2", "activity": "Scan"}, prefer("DecoyApache", "Op_Host2", "Analyse")),
])
def test_an_order_after_so_said_as_means_is_the_order(text, when, action):
    assert read_wording(text).dispreferred, read_wording(text)
    assert text_problem(text, when, action) is None


@pytest.mark.parametrize("text, when, action, conceded", [
    ("If Enterprise0 is rooted, restore it, even while User3 is being scanned.",
     {"host": "Enterprise0", "compromise": "Privileged"}, do("Restore", "Enterprise0"), {"User3"}),
    ("When User2 shows an exploit, remove the attacker from User2 even as Enterprise1 gets compromised.",
     {"host": "User2", "activity": "Exploit"}, do("Remove", "User2"), {"Enterprise1"}),
])
def test_a_host_named_only_in_a_concession_is_no_condition(text, when, action, conceded):
    assert conceded_hosts(text) == conceded
    assert text_problem(text, when, action) is None


def test_a_host_named_in_a_concession_and_in_the_condition_is_still_checked():
    text = "If Enterprise0 is rooted, restore Enterprise0 even if User3 is rooted. Restore User3 when it is rooted."
    assert conceded_hosts(text) == frozenset()


@pytest.mark.parametrize("sentence", ["Remove keeps failing there.", "Analyse never works on that box.",
                                      "Restore tends to cost us the green agents."])
def test_what_a_move_does_said_in_the_present_is_a_report(sentence):
    assert not gives_order(sentence)


@pytest.mark.parametrize("text, when, action", [
    ("Update on User1: when it is compromised, Restore it. Remove keeps failing there.",
     {"host": "User1", "compromise": "any"}, do("Restore", "User1")),
    ("When Op_Server0 is compromised, restore it straight away instead of analysing it again.",
     {"host": "Op_Server0", "compromise": "any"}, prefer("Restore", "Op_Server0", "Analyse")),
    ("When Enterprise1 is exploited, remove the attacker rather than watching it once more.",
     {"host": "Enterprise1", "activity": "Exploit"}, prefer("Remove", "Enterprise1", "Monitor")),
])
def test_what_a_text_reports_or_puts_aside_asks_for_no_fact(text, when, action):
    assert text_problem(text, when, action) is None


@pytest.mark.parametrize("rest", ["DecoySSHD works as well as DecoyApache there", "Analyse is as good as Monitor here",
                                  "any Restore verb"])
def test_a_rest_about_the_move_guards_nothing(rest):
    """An `unexpressed` rest that speaks of the move, not of when it applies, is no condition (it guarded the rule with
    words no context states, so the rule was silent where it applies)."""
    from forge.rulebook.language.guard import guard_rest

    assert guard_rest(rest) == ""


@pytest.mark.parametrize("rest", ["no Remove or Restore yet", "when User2 is scanned", "Restore only after a Remove failed"])
def test_a_rest_that_states_when_still_guards(rest):
    from forge.rulebook.language.guard import guard_rest

    assert guard_rest(rest) == rest


@pytest.mark.parametrize("text", ["When you analyse Enterprise1, list every process you saw in your answer.",
                                  "When the host you're examining is User3, call even a scan medium risk."])
def test_the_host_the_analyst_is_asked_about_is_the_bare_host(text):
    assert text_problem(text, {"host": hosts(text)}, None) is None


def test_a_host_the_defender_acted_on_is_no_bare_host():
    text = "When we analysed Enterprise1, restore it."
    assert (text_problem(text, {"host": "Enterprise1"}, do("Restore", "Enterprise1")) or "").startswith("bare")


def hosts(text: str) -> str:
    from forge.rulebook.language.names import hosts_in

    return hosts_in(text)[0]


@pytest.mark.parametrize("text", [
    "We left Enterprise0 at User level for three steps while User2 and User4 kept showing exploits. Next time: as soon "
    "as Enterprise0 is compromised, Restore it.",
    "Op_Host1 sat compromised while Enterprise2 was scanned. From now on: when Op_Host1 is compromised, restore it.",
])
def test_next_time_with_a_colon_opens_the_lesson_and_the_storys_hosts_are_no_part_of_it(text):
    words = read_wording(text)
    assert words.gives_order and len(words.hosts) == 1 and len(words.conditions) == 1, words
    host = words.hosts[0]
    assert text_problem(text, {"host": host, "compromise": "any"}, do("Restore", host)) is None
