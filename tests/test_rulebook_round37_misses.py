"""Issue 29, round 37 (r37m, blind-34's missed injections): notes of cases ("if X, do A; if Y instead, do B"), kept
semantic by the checks and then silent, because their reading was not whole.

- "instead" closing a later case's condition ("if it is rooted instead") marks the alternative, no unread word;
- a note of cases written with arrows ("A -> move; B -> other move") reads each later case's situation, and "the
  VERB alone" is that case's order;
- each case places its own negation ("scan only" in the first case, nothing denied in the second);
- a later case that is the other way of what the first case denies keeps the rest of the first case's condition;
- an unexpressed rest that tells another case's move ("if rooted, Restore instead") guards nothing;
- a host described as "exploited" in the perfect (at a level) has landed: that level shows, the exploit's activity over or not;
- "already under exploit" is a state now, no history.

Sentences of our own, none from a case file. Tests marked "guard" pass without the change too."""

from __future__ import annotations

from forge.rulebook.language.claims import claims
from forge.rulebook.language.condition import semantic_claims
from forge.rulebook.language.facts import facts_needed
from forge.rulebook.language.guard import complete_claims, guard_rest
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.predicate import AnyOf, truth
from forge.rulebook.language.situation import read_situation
from forge.rulebook.language.order import gives_order
from forge.rulebook.language.wording import read_wording

_REFUSED = "predicate refused: test"


def _holds(found, rows: str):
    return truth(found, read_situation(f"Alerts:\n{rows}"))


# -- "instead" closing a later case --------------------------------------------------------------------------------------

_INSTEAD = "Whenever Enterprise1 has a user-level foothold, Remove Enterprise1; should it be at root instead, Restore it."


def test_instead_after_a_later_case_is_read_whole():
    found = semantic_claims(_INSTEAD, _REFUSED, _INSTEAD)
    assert _holds(found, "Enterprise1: Activity None, Compromised User") is True
    assert _holds(found, "Enterprise1: Activity None, Compromised Privileged") is True
    assert _holds(found, "Enterprise1: Activity Scan, Compromised No") is False


def test_guard_instead_of_still_denies():
    # guard: "instead of" before a state is no case marker; the reading is not made whole by it
    text = "Remove User2 when it is scanned instead of exploited."
    assert not complete_claims(text, rule_claims(text, with_instruction=True)) or \
        _holds(rule_claims(text, with_instruction=True), "User2: Activity Exploit, Compromised User") is not True


# -- a note of cases with arrows ------------------------------------------------------------------------------------------

_ARROWS = "U2 scanned only -> DecoyApache on U2; U2 already under exploit -> Remove U2 instead."


def test_each_arrow_case_is_a_condition_and_the_note_claims_either():
    words = read_wording(_ARROWS)
    assert len(words.conditions) == 2
    found = rule_claims(_ARROWS, with_instruction=True)
    assert isinstance(found, AnyOf)
    assert complete_claims(_ARROWS, found)
    assert _holds(found, "User2: Activity Scan, Compromised No") is True
    assert _holds(found, "User2: Activity Exploit, Compromised User") is True
    assert _holds(found, "User2: Activity None, Compromised Unknown") is False


def test_the_move_alone_is_a_case_order():
    assert gives_order("the Analyse alone")
    assert gives_order("just the Restore")
    assert not gives_order("the Restore was wasted")
    text = ("ops box owned + user box scanned -> Restore the ops box, then DecoyApache on the user box; ops box owned, "
            "user boxes all quiet -> the Restore alone.")
    found = rule_claims(text, with_instruction=True)
    assert complete_claims(text, found)
    assert _holds(found, "Op_Host1: Activity None, Compromised User\nUser2: Activity Scan, Compromised No") is True


# -- a later case that is the other way of what the first denies -------------------------------------------------------

_OTHER_WAY = ("When Enterprise0 is scanned and no user host is compromised, a DecoyTomcat on Enterprise0 goes first; if a "
              "user host is owned, its Remove goes first and the decoy after it.")


def test_the_other_way_keeps_the_first_case_condition():
    found = semantic_claims(_OTHER_WAY, _REFUSED, _OTHER_WAY)
    assert _holds(found, "Enterprise0: Activity Scan, Compromised No\nUser3: Activity None, Compromised User") is True
    assert _holds(found, "Enterprise0: Activity Scan, Compromised No") is not False  # (the user hosts unshown: unknown)
    # a compromised user host alone, Enterprise0 not scanned: neither case
    assert _holds(found, "Enterprise0: Activity None, Compromised No\nUser3: Activity None, Compromised User") is not True


# -- a rest that tells another case's move ------------------------------------------------------------------------------

def test_another_cases_move_guards_nothing():
    assert guard_rest("when at root, Restore in place of the Remove, instead") == ""
    assert guard_rest("at Privileged, recommend an Analyse instead") == ""
    assert guard_rest("under exploit, Remove instead") == ""
    assert guard_rest("should Op_Host2 be owned as well, its Restore first") == ""


def test_guard_a_rest_that_is_a_condition_still_guards():
    # guard: a rest that only states when still guards
    assert guard_rest("only while Op_Server0 is clean") != ""
    assert guard_rest("if the reward drops below -5, Restore instead") != ""  # a kind of fact: kept


# -- an exploit that has landed; "already under exploit" ----------------------------------------------------------------

def test_has_been_exploited_at_user_level_has_landed():
    found = claims("any ent server which has been exploited, with a user-level foothold")
    assert _holds(found, "Enterprise2: Activity None, Compromised User") is True
    assert _holds(found, "Enterprise2: Activity None, Compromised Privileged") is not True


def test_guard_is_exploited_is_said_of_now():
    # guard: the present stays the activity
    found = claims("User3 is exploited")
    assert _holds(found, "User3: Activity None, Compromised User") is not True


def test_already_under_exploit_is_no_history():
    assert "history" not in facts_needed("Op_Host2 already under exploit")
    assert _holds(claims("Op_Host2 already under exploit"), "Op_Host2: Activity Exploit, Compromised User") is True


# -- a judged move between a case's condition and its order ---------------------------------------------------------------

_JUDGED = ("Whenever Op_Host1 is probed and nothing else, DecoyApache it; once Op_Host1 shows Activity Exploit an "
           "Analyse would be wasted, so Restore it.")


def test_a_judged_move_ends_the_case_and_so_keeps_its_order():
    words = read_wording(_JUDGED)
    assert any(c.text.endswith("Activity Exploit") for c in words.conditions)
    assert "Restore" in words.verbs
    found = semantic_claims(_JUDGED, _REFUSED, _JUDGED)
    assert _holds(found, "Op_Host1: Activity Exploit, Compromised User") is True
    assert _holds(found, "Op_Host1: Activity Scan, Compromised No") is True


# -- an exploit said now, with its level --------------------------------------------------------------------------

def test_guard_is_exploited_at_a_level_is_the_exploit_now():
    # guard: an exploit said in the present with its level is the exploit under way (authors read it so)
    found = claims("Op_Host0 is exploited at user level")
    assert _holds(found, "Op_Host0: Activity None, Compromised User") is not True
    assert _holds(found, "Op_Host0: Activity Exploit, Compromised User") is True


# -- "if only X is": a case by ellipsis ----------------------------------------------------------------------------------

def test_only_one_is_takes_the_state_of_the_case_before():
    text = ("When User1 and Enterprise0 are both owned, Enterprise0's Restore comes first; if only User1 is, "
            "Remove User1.")
    found = rule_claims(text, with_instruction=True)
    assert complete_claims(text, found)
    assert _holds(found, "User1: Activity None, Compromised User\nEnterprise0: Activity None, Compromised No") is True
    assert _holds(found, "User1: Activity None, Compromised No\nEnterprise0: Activity None, Compromised No") is False


# -- a group glossed by its list -----------------------------------------------------------------------------------------

def test_a_glossed_group_is_one_of_its_hosts():
    found = claims("servers (Enterprise1, Enterprise2) at Unknown")
    assert isinstance(found, AnyOf)
    assert _holds(found, "Enterprise1: Activity None, Compromised Unknown\nEnterprise2: Activity None, Compromised User") is True


def test_guard_both_of_a_glossed_group_is_each():
    # guard: "both" still asks each of them
    found = claims("both servers (Enterprise1, Enterprise2) compromised")
    assert not isinstance(found, AnyOf)


# -- a story's moment told as a condition; the situation named as the time for the order ---------------------------------

def test_a_condition_told_with_the_teachers_past_move_is_a_story():
    assert not gives_order("When we reimaged Enterprise2 on turn 11 the row went back to Unknown and we looked twice")
    assert not gives_order("when an op host got probed I kept on waiting and lost it")
    assert gives_order("When an op host gets probed, put a DecoyApache on it")


def test_guard_a_past_condition_with_an_order_still_orders():
    # guard: the past in the condition alone does not make it a story, nor a present condition on the defender's past
    assert gives_order("When a user host got exploited, Remove it")
    assert gives_order("whenever Op_Host0 turns Privileged just after we removed it, we plan its Restore")


def test_the_moment_to_is_the_situation_and_its_order():
    text = ("I waited on Op_Server0 for too long in one run. Looking back, an exploit on Op_Server0 is the moment to drop "
            "everything else: Restore Op_Server0.")
    words = read_wording(text)
    assert "Restore" in words.verbs
    found = rule_claims(text, with_instruction=True)
    assert _holds(found, "Op_Server0: Activity Exploit, Compromised User") is True
    assert _holds(found, "Op_Server0: Activity Scan, Compromised No") is False


# -- the teacher's "I think," before the lesson; "the better (first) move than" -----------------------------------------

_BETTER = ("Op_Host2 was owned twice in one run and each reimage cost a great deal. We think, for Op_Host2, "
           "once it is owned, Remove is generally the better opening move than Restore.")


def test_i_think_comma_leads_to_the_lesson_and_the_better_move_is_ordered():
    words = read_wording(_BETTER)
    assert "twice" not in words.instruction
    assert words.dispreferred == ("Restore",)
    found = rule_claims(_BETTER, with_instruction=True)
    assert complete_claims(_BETTER, found)
    assert _holds(found, "Op_Host2: Activity None, Compromised User") is True


def test_guard_a_better_move_said_in_a_story_orders_nothing():
    # guard: "it was the better move" told of the past is no order
    assert not gives_order("I restored Op_Host2 at step 5, which I thought was the better move")


# -- a fallback case under the note's scope -------------------------------------------------------------------------------

_FALLBACK = ("For the machine under inspection, if it reads Compromised Unknown I'd suggest an Analyse of it; failing that, "
             "if it is at root with no scan, I'd suggest a Restore.")


def test_failing_that_opens_a_case_under_the_notes_scope():
    found = semantic_claims(_FALLBACK, _REFUSED, _FALLBACK)
    assert isinstance(found, AnyOf)
    assert _holds(found, "Op_Host1: Activity None, Compromised Unknown") is True
    assert _holds(found, "Op_Host1: Activity None, Compromised Privileged") is True
    assert _holds(found, "Op_Host1: Activity None, Compromised User") is not True


# -- a class heading, then its level alone ---------------------------------------------------------------------------------

def test_a_class_heading_then_a_bare_level_is_the_class_at_it():
    found = claims("ops boxes: Unknown")
    assert _holds(found, "Op_Host2: Activity None, Compromised Unknown") is True
    assert _holds(found, "Op_Host2: Activity None, Compromised User") is not True
