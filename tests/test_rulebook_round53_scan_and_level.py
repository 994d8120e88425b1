"""Round 53 (r53c): two ways notes state a host's state that the readers missed after other words.
- A scan and no more said with the state first ("while a probe is all that User4 has"): read as a bare scan, a rule
  for a host only scanned held on a scanned host already compromised.
- A level written "@" after a heading that names the host ("Op_Host1: OH1 @ Privileged -> ..."): the level was lost
  and the rule's claims were only that the host is shown."""

import pytest

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.rule_claims import rule_claims

REMOVE_USER4 = {"mode": "do", "verb": "Remove", "target": "User4"}


@pytest.mark.parametrize("text", [
    "Remove User4 for as long as a probe is all it shows.",
    "Take the attacker off User4 with a Remove while a scan is all that we see on it.",
    "Remove User4 when one scan is all User4 has.",
])
def test_a_scan_said_to_be_all_there_is_is_no_bare_scan(text):
    problem = text_problem(text, {"host": "User4", "activity": "Scan"}, REMOVE_USER4)
    assert problem is not None and "Compromised No" in problem


def test_the_faithful_compilation_of_a_scan_and_no_more_passes():
    text = "Remove User4 for as long as a probe is all it shows."
    assert text_problem(text, {"host": "User4", "activity": "Scan", "compromise": "No"}, REMOVE_USER4) is None


def test_all_it_takes_is_no_claim_of_what_a_host_shows():
    # "all it takes" says how little is needed, not what the host shows: the bare scan stays the reading
    text = "Remove User4 once it is scanned; a scan is all it takes."
    assert text_problem(text, {"host": "User4", "activity": "Scan"}, REMOVE_USER4) is None


@pytest.mark.parametrize("text, host, level", [
    ("Op_Host1: OH1 @ Privileged -> Restore it", "Op_Host1", "Privileged"),
    ("also Enterprise1: E1 @ User -> Analyse it", "Enterprise1", "User"),
    ("User2 @user -> Remove", "User2", "User"),
])
def test_a_level_written_with_an_at_sign_is_the_hosts_level(text, host, level):
    claim = rule_claims(text)
    assert claim.host == host and claim.compromise == level


def test_an_instance_addressed_with_an_at_sign_is_no_level():
    claim = rule_claims("@s3/i02: Remove User2 once it shows an exploit")
    assert claim.host == "User2" and claim.compromise is None and claim.activity == "Exploit"


def test_a_level_that_does_not_end_the_situation_is_not_read_as_the_whole_of_it():
    # "@ User" followed by more of the situation: read as "at User" alone, the rest ("exploit live") was dropped and the
    # claim was wider than the note
    claim = rule_claims("checked U1 @ user lvl, exploit live -> suggest a Restore")
    assert claim is None or claim.activity == "Exploit"
