"""Round 58 audit of r58m (r58b): readings of r58m's new readers wider than the words, or the opposite, on sentences
they were not written from. Each test holds a compilation the words do not say, refused."""
from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.condition import semantic_claims
from forge.rulebook.language.predicate import describe


def _do(verb, target):
    return {"mode": "do", "verb": verb, "target": target}


def _said(text):
    found = semantic_claims(text, "predicate refused: a check", text)
    return describe(found) if found is not None else ""


# --- a goal before the order whose state nothing else places: its "no one" is no licence for any trigger -------------

_GOAL_ONLY = "Make sure no attacker keeps root on Enterprise0: Restore Enterprise0."


def test_a_goal_with_no_condition_of_its_own_leaves_the_order_unplaced():
    # (the goal's state is the only condition the text has: set aside, a trigger on the host clean, or on any row, passed)
    for when in ({"host": "Enterprise0", "compromise": "No"}, {"host": "Enterprise0"}):
        assert text_problem(_GOAL_ONLY, when, _do("Restore", "Enterprise0")) is not None


def test_a_goal_beside_a_condition_holds_the_trigger_to_that_condition():
    text = "Make sure no one keeps admin on User4: the turn its row reads user-level, Remove User4."
    assert text_problem(text, {"host": "User4", "compromise": "User"}, _do("Remove", "User4")) is None
    for when in ({"host": "User4", "compromise": "Privileged"}, {"host": "User4"}, {"host": "User4", "compromise": "No"}):
        assert text_problem(text, when, _do("Remove", "User4")) is not None


def test_an_opening_concession_with_no_condition_stays_a_doubt():
    text = "Although Op_Host0 is not probed yet, set a DecoyApache on Op_Host0."
    for when in ({"host": "Op_Host0"}, {"host": "Op_Host0", "activity": "None"}):
        assert text_problem(text, when, _do("DecoyApache", "Op_Host0")) is not None


# --- a host set aside from a class and named again as a condition's subject ------------------------------------------

def test_a_host_set_aside_and_named_again_is_no_exception_the_trigger_says():
    # (the condition is Enterprise0's own state; a trigger on the rest of the class in that state is another condition)
    text = "The enterprise boxes except Enterprise0: should Enterprise0 show an exploit, put a DecoyApache on them."
    rest = {"any": [{"host": h, "activity": "Exploit"} for h in ("Enterprise1", "Enterprise2")]}
    assert text_problem(text, rest, _do("DecoyApache", "$matched")) is not None
    text = "All op machines but Op_Host1: once Op_Host1 is rooted, a DecoyApache on each of them."
    rest = {"any": [{"host": h, "compromise": "Privileged"} for h in ("Op_Host0", "Op_Host2", "Op_Server0")]}
    assert text_problem(text, rest, _do("DecoyApache", "$matched")) is not None


# --- a class heading whose count is fewer hosts than the class less its exceptions ------------------------------------

def test_a_heading_counting_fewer_hosts_is_not_the_whole_rest_of_the_class():
    # (two enterprise machines, Enterprise1 set aside: the class keeps three, the Defender with them)
    text = "The two enterprise machines (not Enterprise1): when probed, plant a DecoyApache there."
    rest = {"any": [{"host": h, "activity": "Scan"} for h in ("Enterprise0", "Enterprise2", "Defender")]}
    assert text_problem(text, rest, _do("DecoyApache", "$matched")) is not None
    found = semantic_claims("The two enterprise servers apart from Enterprise0: once scanned, Analyse it.",
                            "predicate refused: a check", "")
    assert found is None or "Defender" not in describe(found)
    # (a count that is the rest of the class stays its scope)
    kept = _said("Three enterprise hosts except the Defender: on a probe, decoy one of them.")
    assert all(h in kept for h in ("Enterprise0", "Enterprise1", "Enterprise2")) and "Defender" not in kept
