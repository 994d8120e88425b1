"""Round 58 (r58m): forms of words whose rules were kept semantic (missed) because no reader placed their condition, or
whose compiled predicates the checks refused though they said what the text says.

Each test holds a compilation (or a reading) that says what its text says, and where it matters a wider one that stays
refused.
"""
from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.condition import semantic_claims, text_claims
from forge.rulebook.language.facts import facts_needed
from forge.rulebook.language.predicate import describe


def _do(verb, target):
    return {"mode": "do", "verb": verb, "target": target}


def _prefer(verb, target, over_verb, over_target):
    return {"mode": "prefer", "verb": verb, "target": target, "over": {"verb": over_verb, "target": over_target}}


def _said(text):
    found = semantic_claims(text, "predicate refused: a check", text)
    return describe(found) if found is not None else None


# --- a class with named hosts set aside: a trigger on the rest of the class says it ---------------------------------

_APART_FROM = "Each user workstation apart from User1 and User4: on a probe, drop a DecoySSHD onto it."


def test_hosts_set_aside_from_a_class_are_kept_out_by_naming_the_rest():
    rest = {"any": [{"host": h, "activity": "Scan", "compromise": "No"} for h in ("User0", "User2", "User3")]}
    assert text_problem(_APART_FROM, rest, _do("DecoySSHD", "$matched")) is None
    # (the whole class, or a host set aside, stays refused)
    assert text_problem(_APART_FROM, {"class": "User", "activity": "Scan", "compromise": "No"}, _do("DecoySSHD", "$matched")) \
        is not None
    wider = {"any": [{"host": h, "activity": "Scan", "compromise": "No"} for h in ("User0", "User1")]}
    assert text_problem(_APART_FROM, wider, _do("DecoySSHD", "$matched")) is not None


def test_the_class_heading_is_what_the_subjectless_condition_speaks_of():
    found = _said(_APART_FROM)
    assert all(f"{h} shows Activity Scan" in found for h in ("User0", "User2", "User3"))
    assert "User1" not in found and "User4" not in found


_BRACKETED = "The two op hosts (not Op_Host2 or Op_Server0): if one of them gets owned, set a DecoyApache on User1."


def test_a_bracketed_aside_and_any_of_them_read_as_the_rest_of_the_class():
    found = _said(_BRACKETED)
    assert "Op_Host0" in found and "Op_Host1" in found
    assert "Op_Host2" not in found and "Op_Server0" not in found and "User1" not in found


# --- a plural pronoun never stands for the one host its sentence names ----------------------------------------------

def test_them_is_not_the_host_the_order_is_aimed_at():
    found, _ = text_claims("Once any of them gets owned, set a DecoyApache on User1.")
    assert found is None or "User1" not in describe(found)


# --- a span of steps counted in the episode is episode time, not history ----------------------------------------------

def test_steps_of_the_episode_are_a_window_not_history():
    assert facts_needed("over the first 8 steps of the game, watch Op_Host1") == frozenset({"episode time"})
    assert facts_needed("during the final 4 steps of a 30-step run") == frozenset({"episode time"})
    assert "history" in facts_needed("if it was hit in the last 4 steps")


# --- a concession of what another says ends with what they say -------------------------------------------------------

def test_a_concession_of_another_view_leaves_the_condition_after_it():
    assert _said("Chooser: no matter what the analyst suggests, if User3 is under exploit, take User3 down with a Remove.") \
        == "User3 shows Activity Exploit"


# --- a goal before the order, an opening concession, "until further notice" -------------------------------------------

def test_a_goal_averted_is_no_negation_of_the_order():
    text = "Make sure no one takes admin on Op_Host1: the turn its row reads user level, plan its Restore."
    assert text_problem(text, {"host": "Op_Host1", "compromise": "User"}, _do("Restore", "Op_Host1")) is None
    assert _said(text) == "Op_Host1 shows Compromised User"
    # (a goal that names a move is that move's: it stays a negation of it)
    named = "Make sure nobody restores Op_Host1: the turn its row reads user level, plan its Remove."
    assert text_problem(named, {"host": "Op_Host1", "compromise": "User"}, _do("Restore", "Op_Host1")) is not None


def test_an_opening_concession_holds_its_own_doubt():
    text = "Though Op_Host2 seldom gets touched, plan its Remove whenever its row reads compromised."
    assert text_problem(text, {"host": "Op_Host2", "compromise": "any"}, _do("Remove", "Op_Host2")) is None


def test_until_further_notice_restricts_nothing():
    text = "Until further notice, Remove User4 whenever it shows an exploit."
    assert text_problem(text, {"host": "User4", "activity": "Exploit"}, _do("Remove", "User4")) is None


# --- a class listed in full, a note that still stands ------------------------------------------------------------------

def test_every_host_of_a_class_listed_is_named_by_the_class():
    text = "For the op subnet (Op_Host0-Op_Host2 and Op_Server0), Remove whichever box shows exploit activity."
    assert text_problem(text, {"class": "Operational", "activity": "Exploit"}, _do("Remove", "$matched")) is None


def test_a_label_that_the_note_still_stands_is_no_condition():
    text = "Still stands: Op_Host2 held at root earns its Restore over its Remove."
    when = {"host": "Op_Host2", "compromise": "Privileged"}
    assert text_problem(text, when, _prefer("Restore", "Op_Host2", "Remove", "Op_Host2")) is None
    assert _said(text) == "Op_Host2 shows Compromised Privileged"
