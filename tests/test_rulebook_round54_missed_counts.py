"""Round 54 (r54m): a count of two or more over hosts the text names ("any 2 of U1 / U2 / U3 owned", "at least two of
...") was read host by host: one of them in the state, or all of them, never that many. It is read as that many of them
in the state now ("exactly": that many and the others not), and its words count as read."""

from forge.rulebook.language.condition import semantic_claims
from forge.rulebook.language.guard import complete_claims
from forge.rulebook.language.predicate import truth
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.situation import read_situation

REFUSED = "predicate refused: host: the entry keeps to no host the text names"
TERSE = "any 2 of U1 / U3 / U4 owned at once: plan a Restore of U4"


def _holds(text: str, context: str):
    return truth(semantic_claims(text, REFUSED), read_situation(context))


def test_a_terse_count_over_named_hosts_is_read_whole():
    assert complete_claims(TERSE, rule_claims(TERSE, with_instruction=True))


def test_two_of_the_named_hosts_in_the_state_meet_it():
    assert _holds(TERSE, "Alerts: User1: Activity None, Compromised User User4: Activity None, Compromised Privileged") is True


def test_one_of_them_alone_does_not():
    assert _holds(TERSE, "Alerts: User3: Activity None, Compromised User") is not True


def test_at_least_two_is_not_all_of_them():
    text = "At least two of Enterprise0, Enterprise1 and Enterprise2 are compromised: Restore Enterprise1."
    context = "Alerts: Enterprise0: Activity None, Compromised User Enterprise1: Activity None, Compromised User"
    assert _holds(text, context) is True


def test_exactly_two_leaves_the_third_clean():
    found = rule_claims("exactly two of User1, User2 and User3 are compromised: Restore User1", with_instruction=True)
    three = read_situation("Alerts: User1: Activity None, Compromised User User2: Activity None, Compromised User "
                           "User3: Activity None, Compromised User")
    assert truth(found, three) is False
