"""Round 54 (r54m): a host in shorthand in a condition ("whenever OpS0 hit"), in a sentence whose order names a second
host, had its state left unread: the reading placed nothing and the rule stayed silent where its condition held."""

from forge.rulebook.language.guard import complete_claims
from forge.rulebook.language.predicate import truth
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.situation import read_situation

TEXT = "whenever E1 hit, plan: Restore E1 and after that a Remove of U3"


def test_the_shorthand_host_s_state_is_read():
    found = rule_claims(TEXT, with_instruction=True)
    assert complete_claims(TEXT, found)
    assert truth(found, read_situation("Alerts: Enterprise1: Activity None, Compromised User")) is True
    assert truth(found, read_situation("Alerts: Enterprise1: Activity Scan, Compromised No")) is not True
