"""Issue 29, twenty-third round (r23h, blind20's misses with the reference compiler): a text about every host of the
network ("each host you look at ..., except User4") may be compiled as the classes and hosts it is made of; the
grounding check read those as places the text never named. Sentences of our own, not the case files'."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem

ACTION = {"mode": "do", "verb": "Analyse", "target": "$matched"}


def test_every_host_but_one_spelled_as_classes_and_hosts_is_grounded():
    text = "For each host you look at with an exploit under way, recommend an Analyse, except for User4."
    when = {"any": [{"class": "Enterprise", "activity": "Exploit"}, {"host": "User0", "activity": "Exploit"},
                    {"host": "User1", "activity": "Exploit"}, {"host": "Op_Host2", "activity": "Exploit"}]}
    problem = text_problem(text, when, ACTION)
    assert problem is None or not problem.startswith("grounding:")


def test_every_host_spelled_as_classes_is_grounded():
    text = "Each host you inspect at root gets a Remove recommendation, apart from Op_Server0."
    when = {"any": [{"class": "User", "compromise": "Privileged"}, {"host": "Op_Host1", "compromise": "Privileged"}]}
    problem = text_problem(text, when, {"mode": "do", "verb": "Remove", "target": "$matched"})
    assert problem is None or not problem.startswith("grounding:")


def test_a_host_the_text_never_names_is_still_refused():
    # (guard: a text about one host, with no word for hosts in general, grounds no other host)
    text = "If User2 is exploited, recommend an Analyse of it."
    problem = text_problem(text, {"host": "User3", "activity": "Exploit"}, {"mode": "do", "verb": "Analyse", "target": "User3"})
    assert problem is not None


# -- a scope of a host of any class that opens the order ------------------------------------------------------------

from forge.rulebook.language.guard import complete_claims  # noqa: E402
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.predicate import describe  # noqa: E402


def test_a_scope_of_any_host_with_its_state_is_the_condition():
    text = "For any machine at root with no scan showing, recommend a Restore."
    found = rule_claims(text, with_instruction=True, bare=False)
    assert found is not None and complete_claims(text, found)
    assert "Privileged" in describe(found) and "Scan" in describe(found)


def test_a_scope_of_every_host_is_not_read_as_every_host_at_once():
    # (guard: "for every host at root" is for each such host, not "every host is at root"; left as it was)
    found = rule_claims("For every host you look at at root, recommend a Remove.", with_instruction=True, bare=False)
    assert found is None or "Enterprise0 shows" not in describe(found)


# -- one host of a class, its state and a state it lacks in one phrase ------------------------------------------------

from forge.rulebook.language.predicate import truth  # noqa: E402
from forge.rulebook.language.situation import read_situation  # noqa: E402


def test_a_host_with_a_state_and_without_another_is_one_host():
    text = "If an enterprise server is at root with no scan showing, recommend a Restore."
    found = rule_claims(text, with_instruction=True, bare=False)
    one_view = read_situation("Host Enterprise1: table Activity None, Compromised Privileged.")
    assert truth(found, one_view) is True
    scanned = read_situation("Host Enterprise1: table Activity Scan, Compromised Privileged.")
    assert truth(found, scanned) is not True


def test_the_lacking_state_is_still_said_of_that_host():
    # (guard: the host that shows the state must be the one without the other: an exploit on it is excluded)
    text = "For each user workstation at Unknown with no exploit showing, suggest an Analyse."
    found = rule_claims(text, with_instruction=True, bare=False)
    both = read_situation("Alerts:\nUser1: Activity Exploit, Compromised Unknown")
    assert truth(found, both) is not True
