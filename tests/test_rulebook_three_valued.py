"""Issue 18, item 3: the gate is three-valued. An atom about a host the context does not state is
unknown, `not unknown` is unknown, and a rule fires only when its predicate is true."""

from __future__ import annotations

import pytest

from forge.rulebook.language.predicate import holds, parse_predicate, truth
from forge.rulebook.language.situation import read_situation

QUIET = parse_predicate({"not": {"any": [{"class": "any", "activity": "any"}, {"class": "any", "compromise": "any"}]}})
USER0_CLEAN = parse_predicate({"not": {"host": "User0", "compromise": "any"}})
TABLE = "\n".join(["Hostname | Subnet | IP | Activity | Compromised",
                   *(f"{h} | 10.0.0.0/28 | 10.0.0.{i} | None | No" for i, h in enumerate(
                       ["Defender", "Enterprise0", "Enterprise1", "Enterprise2", "Op_Host0", "Op_Host1", "Op_Host2",
                        "Op_Server0", "User0", "User2", "User3", "User4"])),
                   "User1 | 10.0.0.20/28 | 10.0.0.20 | Scan | No"])


@pytest.mark.parametrize("context, expected", [
    ("Choose the next action for the defender.", None),  # says nothing about any host
    ("what about Enterprise1?", None),  # names a host, states nothing about it
    ("No host shows activity or compromise.", True),  # the environment's own all-quiet line
    ("All 13 hosts: Activity None, Compromised No.", True),
    ("User1: Activity Scan, Compromised No", False),
    (TABLE, False),
])
def test_the_quiet_rule_fires_only_on_a_context_that_states_quiet(context, expected):
    assert truth(QUIET, read_situation(context)) is expected
    assert holds(QUIET, read_situation(context)) is (expected is True)


@pytest.mark.parametrize("context, expected", [
    ("Enterprise2: Activity Exploit, Compromised User", None),  # User0 is not stated: unknown
    ("User0: Activity None, Compromised No", True),
    ("User0: Activity Exploit, Compromised User", False),
    ("User0 is compromised.", False),  # a compromise of unknown level is a compromise
    (TABLE, True),
])
def test_not_of_an_unstated_host_is_unknown_and_does_not_fire(context, expected):
    assert truth(USER0_CLEAN, read_situation(context)) is expected


def test_all_is_false_on_one_false_part_and_any_true_on_one_true_part():
    situation = read_situation("User1: Activity Exploit, Compromised User")
    both = parse_predicate({"all": [{"host": "User1", "activity": "Exploit"}, {"host": "User3", "activity": "Scan"}]})
    either = parse_predicate({"any": [{"host": "User1", "activity": "Exploit"}, {"not": {"host": "User3", "activity": "Scan"}}]})
    gone = parse_predicate({"all": [{"host": "User1", "activity": "Scan"}, {"host": "User3", "activity": "Scan"}]})
    assert truth(both, situation) is None and truth(either, situation) is True and truth(gone, situation) is False


def test_attack_phases_read_as_what_the_table_shows_in_the_gate_and_the_compiler_prompt():
    from forge.rulebook.language.phases import PHASES, phase_lines
    from forge.rulebook.language.predicate import PredicateError, predicate_to_json

    recon = parse_predicate({"phase": "reconnaissance"})
    assert holds(recon, read_situation("User1: Activity Scan, Compromised No"))
    assert not holds(recon, read_situation("User1: Activity Exploit, Compromised User"))
    exploitation = parse_predicate({"phase": "initial access"})
    assert holds(exploitation, read_situation("User1: Activity None, Compromised User"))
    assert holds(parse_predicate({"phase": "impact"}), read_situation("Op_Server0: Activity None, Compromised User"))
    assert predicate_to_json(parse_predicate({"phase": "privilege escalation"})) == PHASES["privilege_escalation"]
    # Lateral movement is a phase of history: unknown (silent) on a context without the history lines.
    lateral = parse_predicate({"phase": "lateral movement"})
    assert truth(lateral, read_situation("User1: Activity None, Compromised User\nEnterprise1: Activity Exploit, Compromised User")) is None
    with pytest.raises(PredicateError, match="unknown"):
        parse_predicate({"phase": "exfiltration"})
    assert all(f'"phase": "{name}"' in phase_lines() for name in PHASES)


def test_the_quiet_line_states_every_host_but_shows_none():
    shows_defender = parse_predicate({"host": "Defender"})
    assert not holds(shows_defender, read_situation("Alerts:\nNo host shows activity or compromise."))
    assert holds(shows_defender, read_situation("All 13 hosts: Activity None, Compromised No."))
    assert holds(parse_predicate({"host": "Defender", "compromise": "No"}),
                 read_situation("Alerts:\nNo host shows activity or compromise."))
