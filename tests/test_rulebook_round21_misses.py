"""Issue 29, twenty-first round (i29y): readings that kept a rule silent where its own words say it applies (blind-17's
missed injections with the default compiler that the reference compiler does not share), each class on sentences
written for these tests.

- *"lvl" for "level"* ("U2 at usr lvl", "root lvl"): the note's shorthand was left unplaced, so the condition was not
  read whole and the rule was silent.
- *"did not VERB", told in the past* ("..., which did not actually evict the attacker"): read as a prohibition of that
  verb, so a story sentence became an order beside the lesson (and the checks refused the lesson's predicate).
- *A reason cut with the lesson* ("When X happened I planned an Analyse first, because ... The rule I'd give myself:
  ..."): the directive kept the story's first clause (it reads like a conditional order) and lost the lesson.
- *A moment told with "got"* ("When Enterprise1 got scanned I put ..."): taken for a condition the lesson left out.
- *"only / just Unknown" right after a host's name* ("E1 only Unknown -> ..."): the level was not read.
- *A note's "row" with no article* ("row shows Privileged -> ..."): the host at hand's row, as "the row" is; left with no
  subject, the condition was not read.
- *The gloss of "newly" in brackets* ("newly owned (clean at the previous step)"): read as a negation and a history the
  reading could not place, so the condition was not whole.
- *An order for a window of steps after the defender's own move* ("After you analyse User1, do not analyse it again for
  the next 2 steps", "For the next three steps after you remove Enterprise0, ..."): the move was read as a lead before
  the order, no condition at all, so the rule was silent.
"""
from __future__ import annotations

from forge.rulebook.authoring.compile import strip_justification
from forge.rulebook.language.condition import semantic_claims
from forge.rulebook.language.guard import complete_claims
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.predicate import truth
from forge.rulebook.language.wording import conditions_left_out, read_wording
from tests.situations import alert_rows

REFUSED = "predicate refused: verb: a test's refusal"


def _claims(text: str):
    return semantic_claims(text, REFUSED)


# -- "lvl" ---------------------------------------------------------------------------------------------------------------

def test_lvl_in_a_note_is_the_level() -> None:
    text = "U2 at user lvl -> Analyse U2"
    found = rule_claims(text, with_instruction=True)
    assert complete_claims(text, found), found
    claims = _claims(text)
    assert truth(claims, alert_rows(("User2", "None", "User"))) is True
    assert truth(claims, alert_rows(("User2", "None", "Privileged"))) is not True
    assert truth(claims, alert_rows(("User3", "None", "User"))) is not True
    rooted = _claims("Ent1 at root lvl: plan Restore Ent1")
    assert truth(rooted, alert_rows(("Enterprise1", "None", "Privileged"))) is True
    assert truth(rooted, alert_rows(("Enterprise1", "None", "User"))) is not True


# -- "did not VERB" ------------------------------------------------------------------------------------------------------

def test_what_a_move_did_not_do_is_no_prohibition() -> None:
    text = ("A scan on User3 came first and I answered it with an Analyse, which did not really remove anything. "
            "I may be wrong. Nevertheless, when User3 shows an exploit, restore User3.")
    words = read_wording(text)
    assert not any(p.verb == "Remove" for p in words.prohibitions), words.prohibitions
    assert "Analyse" not in words.instruction, words.instruction
    claims = _claims(text)
    assert truth(claims, alert_rows(("User3", "Exploit", "User"))) is True
    assert truth(claims, alert_rows(("User3", "Scan", "No"))) is not True
    # (the present still forbids: "Analyse does not ... ", "do not restore")
    assert any(p.verb == "Restore" for p in read_wording("When User3 is scanned, do not restore it.").prohibitions)


# -- a reason cut with the lesson ----------------------------------------------------------------------------------------

def test_a_cut_reason_keeps_the_lesson_of_a_later_sentence() -> None:
    text = ("When the scan reached Enterprise0 I planned a Monitor, because I thought it was noise and a decoy seemed "
            "wasteful; the attacker walked in a step later. I am not certain of it, but the rule I'd give myself is: "
            "when Enterprise0 shows a scan, plan a DecoyTomcat on Enterprise0.")
    cut = strip_justification(text)
    assert "DecoyTomcat" in cut, cut
    claims = _claims(cut)
    assert truth(claims, alert_rows(("Enterprise0", "Scan", "No"))) is True
    assert truth(claims, alert_rows(("Enterprise1", "Scan", "No"))) is not True
    # (an order whose reason is cut keeps its own order: unchanged)
    assert strip_justification("Restore User1 when it is compromised, because the attacker spreads from it.") \
        == "Restore User1 when it is compromised"


# -- a moment told with "got" --------------------------------------------------------------------------------------------

def test_a_moment_told_with_got_is_no_condition_left_out() -> None:
    text = ("When User1 got scanned I put a decoy on User2 by mistake. "
            "What I'd tell myself next time is: when User1 is scanned, plan a DecoyApache on User1.")
    assert conditions_left_out(text) == (), conditions_left_out(text)
    claims = _claims(text)
    assert truth(claims, alert_rows(("User1", "Scan", "No"))) is True
    assert truth(claims, alert_rows(("User2", "Scan", "No"))) is not True


# -- "only Unknown" after a host's name ----------------------------------------------------------------------------------

def test_only_unknown_right_after_a_host_name_is_the_level() -> None:
    claims = _claims("E1 only Unknown -> never Remove E1")
    assert truth(claims, alert_rows(("Enterprise1", "None", "Unknown"))) is True
    assert truth(claims, alert_rows(("Enterprise1", "None", "User"))) is not True
    still = _claims("U0 just Unknown: Analyse U0")
    assert truth(still, alert_rows(("User0", "None", "Unknown"))) is True
    assert truth(still, alert_rows(("User0", "Exploit", "User"))) is not True


# -- a note's "row" with no article --------------------------------------------------------------------------------------

def test_a_row_with_no_article_is_the_host_at_hand() -> None:
    claims = _claims("row shows Privileged -> rec Restore of that host")
    assert truth(claims, alert_rows(("User3", "None", "Privileged"))) is True
    assert truth(claims, alert_rows(("User3", "None", "User"))) is not True
    when = _claims("when row reads Unknown, recommend Analyse of it")
    assert truth(when, alert_rows(("Enterprise0", "None", "Unknown"))) is True
    assert truth(when, alert_rows(("Enterprise0", "Scan", "No"))) is not True


# -- the gloss of "newly" ------------------------------------------------------------------------------------------------

def test_the_gloss_of_newly_in_brackets_is_read_as_newly() -> None:
    text = "ent box newly compromised (not compromised at the prior step) -> plan Restore on it"
    found = rule_claims(text, with_instruction=True)
    assert complete_claims(text, found), found
    plain = rule_claims("ent box newly compromised -> plan Restore on it", with_instruction=True)
    assert repr(found) == repr(plain), (found, plain)
    # (a bracket that says more than "newly" is no gloss: still not whole)
    other = "ent box newly compromised (clean at the previous step and never scanned) -> plan Restore on it"
    assert not complete_claims(other, rule_claims(other, with_instruction=True))


# -- an order for a window of steps after the defender's move ------------------------------------------------------------

def test_an_order_for_the_next_steps_after_our_move_is_a_condition_on_history() -> None:
    from forge.rulebook.language.predicate import parse_predicate
    from forge.rulebook.authoring.checks import text_problem

    after = "After you analyse User1, do not analyse it again for the next 2 steps."
    found = rule_claims(after, with_instruction=True)
    assert complete_claims(after, found), found
    assert repr(found) == repr(parse_predicate({"host": "User1", "acted": "Analyse", "within": 2})), found
    window = "For the next three steps after you remove Enterprise0, do not restore Enterprise0."
    found = rule_claims(window, with_instruction=True)
    assert complete_claims(window, found), found
    assert repr(found) == repr(parse_predicate({"host": "Enterprise0", "acted": "Remove", "within": 3})), found
    # (a predicate without the history is still refused)
    action = {"mode": "never", "verb": "Restore", "target": "Enterprise0"}
    assert text_problem(window, {"host": "Enterprise0"}, action) is not None
