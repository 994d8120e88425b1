"""Issue 29, fifteenth round (i29z): readings that let a rule fire where its own words say it does not apply, or let an
inverted predicate through (blind12's harms), each class on sentences written for these tests.

- *A heading that names a class before a situation and its order* ("user boxes: a scan -> Analyse"): the heading was
  dropped with the situation it scopes, so a predicate on any host passed.
- *A verb judged out of its time or measure* ("a Restore would be premature", "too drastic"): no prohibition was read,
  so an action ordering that verb passed.
- *"X before any <verb> of <class>"*: the move put second is on that class; an order aimed at one of its hosts inverts
  the text.
- *Levels said with a word before them or first*: "shows only Unknown", "is still Unknown", "Unknown on a user box":
  the level Unknown (it was read as no level, or the clause's other words won).
- *A host said "quiet"*: no activity and no compromise (it was read as no activity only, and fired on a compromised
  host without activity).
- *"!=" and its like*: "is not".
- *"the host you analyse"*: names the analyst's subject, no move of Analyse; a rule taught again in those words while
  its twin was withdrawn is the same words (curation keeps it withdrawn).
"""
from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.condition import semantic_claims, text_claims, words_key
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.predicate import truth
from forge.rulebook.language.wording import read_wording
from tests.situations import alert_rows


# -- a heading naming a class ------------------------------------------------------------------------------------------

HEADED = "user boxes: a scan -> Analyse it."


def test_a_heading_naming_a_class_scopes_its_situation() -> None:
    assert read_wording(HEADED).classes == ("User",)
    problem = text_problem(HEADED, {"class": "any", "activity": "Scan"}, {"mode": "do", "verb": "Analyse", "target": "$matched"})
    assert problem is not None and problem.startswith("class")
    assert text_problem(HEADED, {"class": "User", "activity": "Scan"},
                        {"mode": "do", "verb": "Analyse", "target": "$matched"}) is None


def test_a_heading_keeps_its_hosts_not_the_role_it_is_for() -> None:
    text = "planner / Enterprise0: Compromised Privileged w/o any activity -> plan a Restore of Enterprise0."
    assert read_wording(text).conditions[0].text == "Enterprise0: Compromised Privileged without any activity"
    found = rule_claims(text, with_instruction=True)
    assert truth(found, alert_rows(("Enterprise0", "Exploit", "Privileged"))) is False
    assert truth(found, alert_rows(("Enterprise0", "None", "Privileged"))) is True


# -- a verb judged out of its time or measure --------------------------------------------------------------------------

PREMATURE = "If Enterprise2 shows a scan, a Restore there would be premature; analyse it instead."


def test_a_verb_judged_premature_is_forbidden() -> None:
    words = read_wording(PREMATURE)
    assert any(p.verb == "Restore" for p in words.prohibitions) and "Restore" in words.dispreferred
    assert text_problem(PREMATURE, {"host": "Enterprise2", "activity": "Scan"},
                        {"mode": "do", "verb": "Restore", "target": "Enterprise2"}) is not None
    assert any(p.verb == "Remove" for p in read_wording("When User1 is scanned, removing it is too drastic.").prohibitions)


# -- "before any <verb> of <class>" ------------------------------------------------------------------------------------

SECOND = "Once Op_Server0 is exploited, plan a Remove there before any Remove on the user hosts."


def test_the_class_after_before_a_move_is_put_second() -> None:
    assert set(read_wording(SECOND).contrasted) == {"User0", "User1", "User2", "User3", "User4"}
    problem = text_problem(SECOND, {"host": "Op_Server0", "activity": "Exploit"},
                           {"mode": "do", "verb": "Remove", "target": "User2"})
    assert problem is not None
    # the order's own host, named before, is not put second
    assert "User1" not in read_wording("Remove User1 before a Restore on the user hosts.").contrasted


# -- levels said with a word before them, or first -----------------------------------------------------------------------

def test_only_or_still_unknown_is_the_level_unknown() -> None:
    found = rule_claims("while Enterprise0 shows only Unknown, hold off on a Restore of it", with_instruction=True)
    assert truth(found, alert_rows(("Enterprise0", "None", "No"))) is False
    assert truth(found, alert_rows(("Enterprise0", "None", "Unknown"))) is True


def test_unknown_on_a_class_is_that_level_on_it() -> None:
    text = "Unknown on an enterprise server != owned. no Remove on Unknown alone."
    found = semantic_claims(text, "predicate refused: class: x", text)
    assert truth(found, alert_rows(("Enterprise1", "None", "User"))) is not True
    assert truth(found, alert_rows(("Enterprise1", "None", "Unknown"))) is True


def test_not_equal_is_is_not() -> None:
    assert read_wording("E1 != clean -> Restore it.").conditions[0].text == "E1 is not clean"


# -- a host said quiet -------------------------------------------------------------------------------------------------

def test_a_quiet_host_shows_nothing() -> None:
    text = "Op_Host2 quiet -> leave it be."
    found = semantic_claims(text, "", text)
    assert truth(found, alert_rows(("Op_Host2", "None", "User"))) is False
    assert truth(found, alert_rows(("Op_Host2", "None", "No"))) is True
    found, _ = text_claims("Spend nothing on Enterprise2 while it is quiet.")
    assert truth(found, alert_rows(("Enterprise2", "None", "Privileged"))) is not True


def test_a_quiet_host_spelt_out_passes_and_activity_alone_does_not() -> None:
    text = "If Enterprise2 is quiet, plan nothing for it."
    action = {"mode": "never", "verb": "any", "target": "Enterprise2"}
    spelt = {"not": {"any": [{"host": "Enterprise2", "activity": "any"}, {"host": "Enterprise2", "compromise": "any"}]}}
    assert text_problem(text, spelt, action) is None
    assert text_problem(text, {"host": "Enterprise2", "activity": "None", "compromise": "No"}, action) is None
    assert text_problem(text, {"host": "Enterprise2", "activity": "None"}, action) is not None  # a compromise let through


# -- "the host you analyse" ----------------------------------------------------------------------------------------------

def test_the_host_under_analysis_is_no_move_of_analyse() -> None:
    first = "If the box you are inspecting is User2 and it shows root, recommend Restore."
    assert read_wording(first).verbs == ("Restore",)
    assert words_key(first) == words_key("User2 at root level: Restore it, that's my recommendation.")
    # an order to analyse stays one
    assert "Analyse" in read_wording("When User2 shows root, analyse the host.").verbs


# -- a stage not yet reached -------------------------------------------------------------------------------------------

def test_a_host_not_yet_scanned_is_untouched() -> None:
    found = rule_claims("pending any scan of Enterprise1: no DecoyTomcat on it.", with_instruction=True)
    assert truth(found, alert_rows(("Enterprise1", "Exploit", "User"))) is False
    assert truth(found, alert_rows(("Enterprise1", "None", "No"))) is True
    found = rule_claims("While User3 is not yet scanned, keep decoys off it.", with_instruction=True)
    assert truth(found, alert_rows(("User3", "None", "User"))) is False
    # a later stage denied keeps the earlier one ("scanned but not yet exploited")
    found = rule_claims("If User2 is scanned but not yet exploited, analyse it.", with_instruction=True)
    assert truth(found, alert_rows(("User2", "Scan", "No"))) is True
