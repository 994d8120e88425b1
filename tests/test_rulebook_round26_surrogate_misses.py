"""Issue 29, twenty-sixth round (r26m, blind23's misses with the surrogate compiler): readings of the product that left
a rule silent where its words apply. A denial said of each of a few hosts ("whichever of them shows just a scan", a class
with one host excepted) is placed by each alternative; a teacher who signs a note ("Dana here:") states no situation; "it"
under a scope that is the host at hand is that host. Sentences of our own, not the case files'."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.condition import semantic_claims
from forge.rulebook.language.predicate import AnyOf, truth as value_of
from forge.rulebook.language.situation import read_situation
from forge.rulebook.language.wording import read_wording

REFUSED = "predicate refused: negation: the condition is negated or restricted"


def _holds(claim, context: str):
    return value_of(claim, read_situation(context))


def test_a_denial_said_of_whichever_of_two_hosts_is_placed_by_each():
    found = semantic_claims("Op_Host1 or Op_Host2, whichever has a scan only -> DecoyTomcat on it", REFUSED)
    assert isinstance(found, AnyOf)
    assert _holds(found, "Op_Host2: Activity Scan, Compromised No") is True
    assert _holds(found, "Op_Host2: Activity Scan, Compromised User") is not True  # more than a scan: not its case
    assert _holds(found, "Op_Host0: Activity Scan, Compromised No") is not True  # a host it does not name


def test_a_denial_said_of_a_class_with_one_host_excepted_is_placed_by_each():
    found = semantic_claims("ent boxes except Ent1: scanned only -> DecoySSHD it", REFUSED)
    assert _holds(found, "Enterprise2: Activity Scan, Compromised No") is True
    assert _holds(found, "Enterprise1: Activity Scan, Compromised No") is not True  # the host it excepts
    assert _holds(found, "Enterprise0: Activity Exploit, Compromised User") is not True


def test_a_teacher_signing_the_note_states_no_situation():
    text = "Dana here: when Op_Host2 is scanned and nothing else, put DecoyTomcat on Op_Host2."
    words = read_wording(text)
    assert [c.text for c in words.conditions] == ["when Op_Host2 is scanned and nothing else"]
    found = semantic_claims(text, REFUSED)
    assert _holds(found, "Op_Host2: Activity Scan, Compromised No") is True
    assert _holds(found, "Op_Host2: Activity Exploit, Compromised User") is False


def test_an_opening_that_says_a_time_is_no_signature():
    # guard: "late game here" says when, so it stays a condition (read or not), never dropped as a signature
    assert read_wording("late game here: Sleep.").conditions


def test_it_in_a_condition_under_a_host_at_hand_scope_is_that_host():
    text = "For the machine being examined, once it has a scan and no compromise, advise a DecoyTomcat on it."
    found = semantic_claims(text, REFUSED)
    assert _holds(found, "Host Op_Host0: table Activity Scan, Compromised No.") is True
    assert _holds(found, "Host Op_Host0: table Activity Exploit, Compromised User.") is not True
    assert _holds(found, "Host User3: table Activity None, Compromised No.") is not True


def test_what_my_plan_at_a_step_did_is_a_story():
    text = ("Our plan on turn 11 asked for an Analyse of User1 while Enterprise2 was already rooted, a wasted move. I may be "
            "wrong, but the lesson is: once Enterprise2 is compromised, plan nothing for User1.")
    found = semantic_claims(text, "compiled as written: the compiler dropped an instruction (not an instruction)")
    assert _holds(found, "Alerts: Enterprise2: Activity None, Compromised User") is True
    assert _holds(found, "Alerts: Enterprise2: Activity Scan, Compromised No") is False


def test_a_plan_for_a_step_to_come_is_no_story():
    # guard: "our plan at step 20 must ..." orders; its condition stays one
    text = "Our plan at step 20 must restore Op_Server0 if it is compromised."
    assert [c.text for c in read_wording(text).conditions] == ["if it is compromised"]


def test_a_rest_taken_from_the_story_does_not_cover_the_history_of_the_lesson():
    text = ("Right after my Restore of User2 its row went back to Unknown and I restored it again, three times, to no "
            "effect. I may be mistaken about the cause, but from today my habit is: right after I restore User2 I Analyse "
            "User2.")
    problem = text_problem(text, {"host": "User2"}, {"mode": "do", "verb": "Analyse", "target": "User2"},
                           "went back unknown restored again")
    # (r44h: "right after I restore User2", in the present, is now read as the lesson's condition, so the check that
    # refuses the bare predicate is `bare`, which names that condition; it was `history`, on the unread words alone)
    assert problem is not None and problem.startswith(("history:", "bare:"))
    assert "history:" in problem or "Right after I restore User2" in problem


def test_a_rest_that_states_the_history_still_covers_it():
    # guard: a rest in the lesson's own words guards the predicate, as before
    text = "Right after I restore User2, Analyse User2."
    assert text_problem(text, {"host": "User2"}, {"mode": "do", "verb": "Analyse", "target": "User2"},
                        "right after I restore User2") is None
