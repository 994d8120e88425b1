"""Issue 29, eighth round: harm, classes of compilation wider than (or opposite to) their words that passed the checks or
the three-valued gate, whatever the compiler. Each class on sentences of its kind written for these tests, never a
split's.

- A move judged out of place ("Monitor is never the right call", "is not acceptable") is a prohibition: compiled as a
  `do` it inverted the text, and a story before it was taken for the order.
- "Nothing on the network / in the user subnet is ..." is about every host of it: the words after "nothing" were read
  as a host's quiet value ("some host shows Compromised No"), or the class as compromised.
- "Leave X out (of the plan)" that is the order itself is a prohibition on X, not an exception: read as one, the claims
  dropped what the condition says of X.
- "The other <class> hosts" leaves out the hosts of that class the text names in its story.
- An order's "it" that may be one of several hosts of the text is one of them, never any host.
- "One" alone after a class ("on the user hosts, ... as soon as one is exploited") is a host of that class.
- The defender's move as what changed a host ("an Analyse turned it Privileged") is history.
- "Still compromised after we removed it" is a compromised host (the claims kept the history, lost the state; a split
  compilation spoke of two hosts), left so by the action (not clean then and compromised since); and Unknown, the row a
  Remove leaves, is no known compromise after a Remove.
- A state said after its host ("User4 under exploitation should not get a Remove") is claimed, so a rewording of a
  withdrawn rule is known for it.
"""

from __future__ import annotations

import pytest

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.claims import claims
from forge.rulebook.language.condition import semantic_claims, words_key
from forge.rulebook.language.facts import facts_needed
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.predicate import describe, parse_predicate, truth
from forge.rulebook.language.situation import read_situation
from forge.rulebook.language.wording import pronoun_hosts, read_wording


def do(verb, target):
    return {"mode": "do", "verb": verb, "target": target}


def prefer(verb, target, over_verb, over_target=None):
    return {"mode": "prefer", "verb": verb, "target": target, "over": {"verb": over_verb, "target": over_target or target}}


def check(text, when, action):
    problem = text_problem(text, when, action)
    return problem.split(":", 1)[0] if problem else None


# -- a move judged out of place is a prohibition ------------------------------------------------------------------


@pytest.mark.parametrize("text, verb", [
    ("Monitor is never the right call while Enterprise2 is being exploited.", "Monitor"),
    ("Sleeping is not acceptable while a user host shows an exploit.", "Sleep"),
    ("On Op_Host1 an Analyse is never OK once it is rooted.", "Analyse"),
    ("At step 4 User2 was scanned and I chose Monitor, which cost us. That was a mistake. Monitor is not the right move "
     "while a user host is being scanned.", "Monitor"),
])
def test_a_move_judged_out_of_place_is_a_prohibition(text, verb):
    words = read_wording(text)
    assert [p.verb for p in words.prohibitions] == [verb], words
    assert not words.instruction.startswith("At step")
    assert check(text, {"activity": "any"}, do(verb, None)) == "prohibition"


def test_a_move_judged_right_is_still_an_order():
    assert not read_wording("Restore is the right move when Op_Server0 is compromised.").prohibitions


# -- "nothing on the network" is every host ------------------------------------------------------------------------


@pytest.mark.parametrize("condition, context, expected", [
    ("while nothing on the network is compromised", "User1: Activity None, Compromised User", False),
    ("while nothing on the network is compromised", "User1: Activity Scan, Compromised No", None),
    ("when nothing in the enterprise subnet shows activity", "Enterprise1: Activity Scan, Compromised No", False),
    ("when nothing in the enterprise subnet shows activity", "User3: Activity Scan, Compromised No", None),
])
def test_nothing_on_the_network_or_in_a_subnet_is_every_host_of_it(condition, context, expected):
    found = claims(condition)
    assert found is not None and describe(found).startswith("not"), describe(found)
    assert truth(found, read_situation(context)) is expected


def test_nothing_on_it_is_not_read_as_every_host():
    found = claims("if nothing on it is compromised", "User2")
    assert found is None or not describe(found).startswith("not (any host")


# -- "leave X out" as the order ------------------------------------------------------------------------------------


@pytest.mark.parametrize("text, excepted", [
    ("While the user subnet is clean, leave User3 out of the plan.", ()),
    ("Exclude Enterprise0 from the plan as long as the enterprise subnet is quiet.", ()),
    ("Restore every compromised user host, but leave User3 out.", ("User3",)),
    ("When a user host is scanned, put a DecoyApache on it; leave User3 out of it.", ("User3",)),
])
def test_leave_a_host_out_is_an_exception_only_to_an_order_about_more(text, excepted):
    assert read_wording(text).excepted == excepted


def test_leave_a_host_out_as_the_order_keeps_the_condition_on_it():
    """The condition on the class still speaks of that host: the gate must not drop it from its claims."""
    text = "While the user subnet is clean, leave User3 out of the plan."
    found = semantic_claims(text, "predicate refused: claims")
    context = "\n".join(f"User{n}: Activity None, Compromised {'User' if n == 3 else 'No'}" for n in range(5))
    assert truth(found, read_situation(context)) is False


# -- "the other <class> hosts" ---------------------------------------------------------------------------------------


def test_the_other_hosts_of_a_class_leave_out_those_the_story_names():
    text = "The DecoySSHD on User1 caught the attacker twice. Put a DecoySSHD on the other user hosts too whenever they get scanned."
    assert read_wording(text).excepted == ("User1",)
    assert check(text, {"class": "User", "activity": "Scan"}, do("DecoySSHD", "$matched")) == "except"
    mine = {"any": [{"host": f"User{n}", "activity": "Scan"} for n in (0, 2, 3, 4)]}
    assert check(text, mine, do("DecoySSHD", "$matched")) is None
    found = rule_claims(text, with_instruction=True, bare=False)
    assert truth(found, read_situation("User1: Activity Scan, Compromised No")) is not True


def test_a_host_the_order_itself_names_is_not_left_out_by_the_other():
    assert read_wording("When User1 is exploited, put a DecoyApache on the other user hosts.").excepted == ()


# -- an "it" that may be one of several hosts ------------------------------------------------------------------------


TOLD = ("I left Op_Host1 alone for four steps and the attacker reached Op_Server0 through it. Remove it the moment it "
        "is exploited.")


def test_an_it_of_several_hosts_is_one_of_them_never_any_host():
    assert pronoun_hosts(TOLD) == ("Op_Host1", "Op_Server0")
    assert read_wording(TOLD).referent is None
    assert check(TOLD, {"activity": "Exploit"}, do("Remove", "$matched")) == "host"
    assert check(TOLD, {"host": "Op_Host1", "activity": "Exploit"}, do("Remove", "Op_Host1")) is None


def test_an_order_that_names_its_host_has_no_it_to_tie():
    assert pronoun_hosts("User2 was hit and then Enterprise0. Restore Enterprise0 when it is compromised.") == ()


# -- "one" alone after a class ---------------------------------------------------------------------------------------


def test_one_alone_after_a_class_is_a_host_of_it():
    text = "On the user workstations, run an Analyse as soon as one gets exploited."
    found = rule_claims(text, with_instruction=True, bare=False)
    assert found is not None and describe(found) == "a User host shows Activity Exploit"
    assert check(text, {"class": "User", "activity": "any"}, do("Analyse", "$matched")) == "claims"
    assert check(text, {"class": "User", "activity": "Exploit"}, do("Analyse", "$matched")) is None


# -- the defender's move as what changed a host ----------------------------------------------------------------------


@pytest.mark.parametrize("condition", ["when the last Restore left the host at Compromised No",
                                       "if a Remove turned User2 Unknown", "once our Analyse made it Privileged"])
def test_the_defenders_move_as_what_changed_a_host_is_history(condition):
    assert "history" in facts_needed(condition)


def test_a_rule_on_what_a_move_did_needs_a_history_condition():
    text = "If an Analyse turned Enterprise2 Privileged on the next step, plan a Restore of it rather than another Analyse."
    assert check(text, {"host": "Enterprise2", "compromise": "Privileged"}, prefer("Restore", "Enterprise2", "Analyse")) == "history"


# -- "still compromised after" a move --------------------------------------------------------------------------------


def history_context(user1_steps: str, now: str) -> str:
    return ("Step 10 of 30.\n"
            "Recent steps: step 7: Remove User1 -> reward -1.0 | step 8: Monitor -> reward -1.0 | step 9: Monitor -> reward -1.0\n"
            f"Host history (last 3 steps): User1: {user1_steps}; every other host: None/No\n"
            f"Alerts:\nUser1: {now}")


STILL = {"host": "User1", "compromise": "any", "acted": "Remove", "within": 4, "changed": False}


@pytest.mark.parametrize("steps, now, expected", [
    ("step 7 None/User, step 8 None/User, step 9 None/User", "Activity None, Compromised User", True),
    # clean when removed and after, compromised since: not "still compromised after the Remove"
    ("step 7 None/No, step 8 None/No, step 9 None/No", "Activity Exploit, Compromised User", False),
])
def test_still_compromised_after_a_move_needs_the_move_to_have_left_it_so(steps, now, expected):
    assert truth(parse_predicate(STILL), read_situation(history_context(steps, now))) is expected


def test_unknown_after_a_remove_is_no_known_compromise():
    after = {"host": "User1", "compromise": "any", "acted": "Remove", "within": 3}
    context = history_context("step 7 None/User, step 8 None/Unknown, step 9 None/Unknown", "Activity None, Compromised Unknown")
    assert truth(parse_predicate(after), read_situation(context)) is None
    back = history_context("step 7 None/User, step 8 None/Unknown, step 9 None/Unknown", "Activity None, Compromised User")
    assert truth(parse_predicate(after), read_situation(back)) is True


def test_still_compromised_after_a_move_claims_the_state_on_the_same_host():
    text = "If a host is still compromised after we restored it, remove the attacker from it instead of restoring it again."
    found = rule_claims(text, with_instruction=True, bare=False)
    assert "any compromise" in describe(found) and "Restore" in describe(found), describe(found)
    split = {"all": [{"acted": "Restore", "within": 4, "changed": False}, {"compromise": "any"}]}  # two hosts, maybe
    assert check(text, split, prefer("Remove", "$matched", "Restore")) == "claims"
    one = {"acted": "Restore", "within": 4, "changed": False, "compromise": "any"}
    assert check(text, one, prefer("Remove", "$matched", "Restore")) is None


# -- a state said after its host -------------------------------------------------------------------------------------


def test_a_state_said_after_its_host_is_claimed():
    found = rule_claims("Op_Host1 under active exploitation must not be restored.", with_instruction=True, bare=False)
    assert found is not None and describe(found) == "Op_Host1 shows Activity Exploit"
    assert words_key("Never restore Op_Host1 while it is being exploited.") == \
        words_key("Op_Host1 under exploitation should not get a Restore.")


def test_a_list_of_hosts_before_a_state_claims_no_one_of_them_alone():
    found = rule_claims("User1 or User2 being exploited: remove the one that is.", with_instruction=True, bare=False)
    assert found is None or describe(found) != "User2 shows Activity Exploit"


# -- a plain order on a class whose text lists or excepts its hosts takes part in disputes -----------------------------


def test_a_plain_order_on_a_class_that_lists_its_hosts_is_said_on_the_class():
    """Kept semantic, such a rule took part in no dispute (its text names a class and hosts), so an exception on one of
    its hosts taught by someone else was injected beside it, both speaking for that host."""
    from forge.rulebook.language.said import said_in_words

    found = said_in_words("When a user host gets exploited, Remove the attacker from it. This covers User1 to User3; "
                          "leave User4 out of it.")
    assert found is not None
    when, action = found
    assert action.mode == "do" and action.move.verb == "Remove"
    assert "User1 shows Activity Exploit" in describe(when) and "User4" not in describe(when), describe(when)
    assert said_in_words("Remove the attacker from User1 and Enterprise0 when they are exploited.") is None
