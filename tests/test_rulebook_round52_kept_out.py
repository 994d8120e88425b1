"""Round 52 (r52c): hosts described by a relative clause and kept out by the words before them ("..., but not on
hosts that are at root", "except for boxes which are rooted"). Read from the noun on, the description was a condition
the rule holds in, and a compilation whose trigger is the very state the text keeps out passed the checks."""

import pytest

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.claims import claims
from forge.rulebook.language.predicate import Not
from forge.rulebook.language.wording import read_wording

RESTORE_MATCHED = {"mode": "do", "verb": "Restore", "target": "$matched"}


@pytest.mark.parametrize("text, when, action", [
    ("Reimage User2 once it is owned, but not on machines the alerts show rooted.",
     {"host": "User2", "compromise": "Privileged"}, {"mode": "do", "verb": "Restore", "target": "User2"}),
    ("Restore the owned desktops on the user subnet, except for boxes which are at root.",
     {"class": "User", "compromise": "Privileged"}, RESTORE_MATCHED),
    ("Put the owned user workstations back with a Restore, and not for ones that show Compromised Privileged.",
     {"class": "User", "compromise": "Privileged"}, RESTORE_MATCHED),
])
def test_a_trigger_on_the_hosts_the_text_keeps_out_is_refused(text, when, action):
    problem = text_problem(text, when, action)
    assert problem is not None


def test_the_words_that_keep_hosts_out_stay_with_their_description():
    words = read_wording("Restore the owned desktops on the user subnet, except for boxes which are at root.")
    negated = [c.text for c in words.negated_conditions]
    assert negated and negated[0].startswith("except for boxes")


@pytest.mark.parametrize("condition", ["but not on hosts that are compromised at root", "except for boxes which are owned",
                                       "other than machines which are rooted"])
def test_hosts_kept_out_are_claimed_absent(condition):
    assert isinstance(claims(condition), Not)


def test_a_prohibition_on_described_hosts_keeps_its_own_reading():
    # "never <verb> hosts that ..." forbids the verb there: the hosts are where it applies, not ones it keeps out
    assert not isinstance(claims("hosts that are at root"), Not)
    words = read_wording("Never reimage machines which are rooted.")
    assert not any(c.text.lower().startswith("never") for c in words.conditions)


# -- (r52c) a move the writer leaves undecided is neither ordered nor forbidden ------------------------------------


@pytest.mark.parametrize("text, when, action", [
    ("Honestly we can't tell whether a Restore of Op_Host2 pays off when it sits at root.",
     {"host": "Op_Host2", "compromise": "Privileged"}, {"mode": "do", "verb": "Restore", "target": "Op_Host2"}),
    ("No idea if taking the intruder off User3 with a Remove is the right call when it shows an exploit.",
     {"host": "User3", "activity": "Exploit"}, {"mode": "do", "verb": "Remove", "target": "User3"}),
    ("unsure whether to decoy Enterprise0 once it gets scanned",
     {"host": "Enterprise0", "activity": "Scan"}, {"mode": "do", "verb": "DecoyApache", "target": "Enterprise0"}),
])
def test_an_undecided_move_is_no_order(text, when, action):
    problem = text_problem(text, when, action)
    assert problem is not None and "leaves open" in problem


def test_a_doubt_about_the_lesson_leaves_the_order_after_it():
    text = "I am not certain this carries over to other games, but restore Op_Host2 when it sits at root."
    assert text_problem(text, {"host": "Op_Host2", "compromise": "Privileged"},
                        {"mode": "do", "verb": "Restore", "target": "Op_Host2"}) is None


def test_a_doubt_about_what_a_move_would_have_done_leaves_the_order():
    # the question is the story's (what a Remove would have done), not whether to make the move the note orders
    text = "Can't tell whether a Remove would have kept the attacker off Op_Host1; restore Op_Host1 when it is owned."
    assert text_problem(text, {"host": "Op_Host1", "compromise": "any"},
                        {"mode": "do", "verb": "Restore", "target": "Op_Host1"}) is None
