"""Issue 29, round 31 (blind-28's harmful and outranked injections): a level written after "at" or "@" with no "level"
("Ent1 at User", "OpS0 @ Unknown") was not read, so a note's condition on two hosts became "either host shown" and its
rule fired wherever either was listed (and a withdrawn note so worded was not recognised when taught again); an order
about one named host ("never Restore Op_Host1, in any state it is in") compiled with a trigger on its whole class passed the
checks; "the real lesson is narrower:", "Tentatively:" were read as the rule's situation; "I would prefer X over Y" was
no order, so a story's sentence was taken for the rule; an opening that says another rule stands "except for User4" (or
"but not for User0") was read as a negated condition and its host as an exception, so the exception's predicate was
refused and the general rule outranked it. Sentences of our own, none from a case file."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.predicate import AllOf, Atom, atoms_of
from forge.rulebook.language.order import gives_order
from forge.rulebook.language.wording import read_wording


def _levels(found) -> dict[str, str]:
    return {atom.host: atom.compromise for atom, _ in atoms_of(found) if atom.host}


# -- a level after "at" / "@" -------------------------------------------------------------------------------------------

def test_two_hosts_at_user_are_both_at_that_level():
    found = rule_claims("User3 plus Enterprise0 at User -> evict the attacker from the pair.", with_instruction=True)
    assert isinstance(found, AllOf) and _levels(found) == {"User3": "User", "Enterprise0": "User"}


def test_a_host_at_sign_user_is_at_user_level():
    found = rule_claims("Defender @ User -> Restore Defender.", with_instruction=True)
    assert found == Atom(host="Defender", compromise="User")


def test_a_host_at_sign_unknown_is_unknown():
    found = rule_claims("Op_Host2 @ Unknown -> Analyse Op_Host2.", with_instruction=True)
    assert found == Atom(host="Op_Host2", compromise="Unknown")


def test_guard_at_user_hosts_names_a_class_not_a_level():
    # guard: "at user machines" is a place, no level (so read before the round too)
    found = rule_claims("When Op_Server0 is quiet, look at user machines and Analyse Op_Server0.", with_instruction=True)
    assert all(atom.compromise != "User" for atom, _ in atoms_of(found))


# -- an order about one named host, compiled on its class ---------------------------------------------------------------

ONE_HOST = ("I once pulled Op_Host1 off the network and green traffic stalled for a while. Keep it simple: never Remove "
            "Op_Host1, in whatever state it is.")


def test_a_class_trigger_for_an_order_on_one_named_host_is_refused():
    problem = text_problem(ONE_HOST, {"class": "Operational"}, {"mode": "never", "verb": "Remove", "target": "Op_Host1"})
    assert problem is not None and problem.startswith("host:")


def test_guard_the_named_host_trigger_passes():
    # guard: the faithful compilation still passes
    assert text_problem(ONE_HOST, {"host": "Op_Host1"}, {"mode": "never", "verb": "Remove", "target": "Op_Host1"}) is None


# -- what a teacher says of the lesson, or of their doubt, before a colon -----------------------------------------------

def test_a_remark_on_the_lesson_before_a_colon_is_no_situation():
    words = read_wording("I first thought every restore of a user box was wrong, but I suspect the true lesson is tighter: "
                         "never Restore User2 at all.")
    assert words.situation == "" and not words.conditions


def test_a_one_word_doubt_heading_is_no_situation():
    words = read_wording("Perhaps: once Enterprise2 is being scanned, place DecoyTomcat on Enterprise2.")
    assert [c.text for c in words.conditions] == ["once Enterprise2 is being scanned"]


# -- the teacher's own preference is an order ---------------------------------------------------------------------------

def test_i_would_prefer_one_move_over_another_orders_it():
    assert gives_order("On Enterprise2 I'd prefer DecoyTomcat over DecoyApache once it gets scanned.")
    assert not gives_order("At step 4 I preferred DecoyApache over DecoyTomcat on Enterprise2.")


def test_a_preference_after_a_story_is_the_rule():
    # (the story's "because" once cut the text to its first sentence, read as the order: DecoyApache)
    text = ("I placed DecoyApache on Enterprise2 at step 3 because a runbook said so, and nothing took the bait. On "
            "Enterprise2 I'd prefer DecoyTomcat over DecoyApache once it gets scanned.")
    action = {"mode": "prefer", "verb": "DecoyTomcat", "target": "Enterprise2",
              "over": {"verb": "DecoyApache", "target": "Enterprise2"}}
    assert text_problem(text, {"host": "Enterprise2", "activity": "Scan"}, action) is None


# -- another rule said to stand, but for the hosts put aside -------------------------------------------------------------

STANDS = "The operator's restore habit is right for the rest, except for User3: when User3 reads Privileged, Remove User3."


def test_another_rule_standing_except_for_a_host_is_no_negated_condition():
    words = read_wording(STANDS)
    assert words.situation == "" and words.excepted == ()
    assert text_problem(STANDS, {"host": "User3", "compromise": "Privileged"},
                        {"mode": "do", "verb": "Remove", "target": "User3"}) is None


def test_another_rule_fine_but_not_for_a_host():
    text = "That decoy plan works well for the remaining servers but not for Enterprise1: when Enterprise1 is scanned, Analyse it."
    words = read_wording(text)
    assert words.situation == "" and "Enterprise1" not in words.excepted
    assert text_problem(text, {"host": "Enterprise1", "activity": "Scan"},
                        {"mode": "do", "verb": "Analyse", "target": "Enterprise1"}) is None
