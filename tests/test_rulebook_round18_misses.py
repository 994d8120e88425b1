"""Issue 29, eighteenth round (i29u): readings that kept a rule silent where its own words say it applies (blind15's
missed injections with the default compiler that the reference compiler does not share), each class on sentences
written for these tests.

- *A note's terse condition* ("OpS0 scanned, nothing else -> ...", "ent srv, scan only -> ...", "row says U3
  Privileged -> ..."): a bare comma before "nothing more / else", a "scan only" with no article and a row that "says" a
  state were left unplaced, so the condition was not read whole (a refused predicate left the rule silent).
- *A note's history* ("OpS0 rstrd within last 3 steps", "rooted, unchanged 3 steps"): the shorthand participle, the bare
  participle with its time ("User1 removed in the past 2 turns") and the count said with no "for" were not read.
- *An "it" whose sentence names a class only later*, in a next step of its order ("Analyse Enterprise2 when it shows a
  scan, then DecoyApache the user subnet"): "it" was left unresolved.
- *A class named by its letter* ("E-hosts", "U-boxes"): not read as a class, so a predicate on any host passed the checks
  (wider than its words) and, disputing the rules that did apply, silenced them.
"""
from __future__ import annotations

from forge.rulebook.language.condition import semantic_claims
from forge.rulebook.language.guard import complete_claims
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.predicate import Atom, truth
from forge.rulebook.language.wording import read_wording
from tests.situations import alert_rows

REFUSED = "predicate refused: verb: a test's refusal"


def _claims(text: str):
    return semantic_claims(text, REFUSED)


def _whole(text: str):
    found = rule_claims(text, with_instruction=True)
    assert complete_claims(text, found), (text, found)
    return found


# -- a note's terse condition --------------------------------------------------------------------------------------------

def test_nothing_else_after_a_bare_comma_is_no_compromise() -> None:
    for rest in ("nothing else", "nothing more"):
        claims = _claims(f"OpS0 scanned, {rest} -> DecoyApache on OpS0")
        assert truth(claims, alert_rows(("Op_Server0", "Scan", "No"))) is True, rest
        assert truth(claims, alert_rows(("Op_Server0", "Scan", "User"))) is False, rest


def test_scan_only_with_no_article_is_a_scan_and_nothing_more() -> None:
    claims = _claims("ent srv, scan only -> DecoyVsftpd there")
    assert truth(claims, alert_rows(("Enterprise1", "Scan", "No"))) is True
    assert truth(claims, alert_rows(("Enterprise1", "Scan", "User"))) is not True
    assert truth(claims, alert_rows(("User1", "Scan", "No"))) is not True


def test_a_row_that_says_a_state_is_that_host_showing_it() -> None:
    claims = _claims("row says U3 Privileged -> Restore U3")
    assert truth(claims, alert_rows(("User3", "None", "Privileged"))) is True
    assert truth(claims, alert_rows(("User3", "None", "User"))) is False


# -- a note's history ----------------------------------------------------------------------------------------------------

def test_a_shorthand_participle_with_its_time_is_the_action_done() -> None:
    found = _whole("OpS0 rstrd within last 3 steps -> Analyse it, no second Restore")
    assert found == Atom(host="Op_Server0", acted="Restore", within=3), found
    found = _whole("User1 removed in the past 2 turns -> Analyse User1")
    assert found == Atom(host="User1", acted="Remove", within=2), found


def test_a_count_of_steps_right_after_unchanged_is_a_state_held() -> None:
    found = _whole("ent srv rooted, unchanged 3 steps -> Restore it")
    assert isinstance(found, Atom) and found.unchanged_for == 3 and found.host_class == "Enterprise", found


# -- an "it" whose sentence names a class only later ---------------------------------------------------------------------

def test_it_is_the_host_named_before_it_when_the_class_comes_later() -> None:
    claims = _claims("Analyse Enterprise2 when it shows a scan, then DecoyApache the user subnet.")
    assert truth(claims, alert_rows(("Enterprise2", "Scan", "No"))) is True
    assert truth(claims, alert_rows(("Enterprise2", "None", "No"))) is False
    # a class named before the condition may be what "it" stands for: left as it was (unresolved, so silent)
    claims = _claims("For the user subnet, Analyse Enterprise2 when it shows a scan.")
    assert truth(claims, alert_rows(("Enterprise2", "Scan", "No"))) is not True


# -- a class named by its letter -----------------------------------------------------------------------------------------

def test_a_class_letter_hyphenated_to_a_plural_is_the_class() -> None:
    assert read_wording("U-boxes: exploit seen -> Remove, not Restore").classes == ("User",)
    assert read_wording("E-servers with a scan -> DecoyTomcat").classes == ("Enterprise",)
    claims = _claims("U-boxes: exploit seen -> Remove, not Restore")
    assert truth(claims, alert_rows(("User2", "Exploit", "User"))) is True
    assert truth(claims, alert_rows(("Enterprise0", "Exploit", "User"))) is not True
    # a predicate on any host is wider than the words: refused
    from forge.rulebook.authoring.checks import text_problem
    problem = text_problem("U-boxes: exploit seen -> Remove, not Restore", {"activity": "Exploit", "class": "any"},
                           {"mode": "prefer", "verb": "Remove", "target": "$matched",
                            "over": {"verb": "Restore", "target": "$matched"}})
    assert problem is not None and "User" in problem, problem
    # a host's shorthand stays a host
    assert read_wording("E2 exploited -> Remove E2").hosts == ("Enterprise2",)
