"""Issue 29, nineteenth round (i29w): readings and checks that kept a rule silent where its own words say it applies
(blind16's missed injections with the default compiler that the reference compiler does not share), each class on
sentences written for these tests.

- *A state said only in a concession* ("never analyse Enterprise2, even when it is exploited"): a predicate that asks
  that state passed every check, and the prohibition was silent on the host in any other state (check `narrow`).
- *"as it is"* ("leave that host as it is for the audit"): read as a condition ("as it is ..."), never placed, so the
  rule's reading was not whole and it was silent.
- *"with the exception of HOST"* after a class: read as a relative clause ("host with ...") left unplaced.
- *"scanned but not yet exploited" said of a class*: the denial added nothing the scan did not say, and was dropped
  unread (the reading was not whole); it says the exploit has not landed: that host shows no compromise.
- *The teacher's hypothetical before a colon* ("If we were to boil it down: ..."): read as a condition.
- *A host an order is contrasted with* ("..., whichever is exploited, not User4 though"): claimed as one of the hosts
  the order applies to, shown in any state (wider than its words).
- *"nothing on the network shows any activity or any compromise"*: the two states read as one ("not (activity and
  compromise)"), so not whole.
- *A document's label before a colon* ("Playbook 7.1: ..."): read as a condition.
- *A look back in a story* ("Looking back, the Analyse had ... while Op_Server0 was still clean"): its "while" was taken
  for a condition the lesson left out.
- *A withdrawn prohibition taught again in other words* ("Enterprise0 should never be analysed; remove it instead"):
  not recognised as the withdrawn rule, because the words also name the move it allows.
- *"nothing else going on"* after a host's state: read as nothing (the note's condition was not whole).
- *A word that may mark history with no state* ("the one that is still easy to pull out", in a story): taken for a
  condition the lesson left out.
- *A reason before ", so:"* that names no host, where the order states its own condition: taken for a condition.
"""
from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.condition import cut_conditions, semantic_claims
from forge.rulebook.language.guard import complete_claims
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.predicate import truth
from forge.rulebook.language.wording import conditions_left_out, read_wording
from forge.rulebook.store.curation import _same_words
from tests.situations import alert_rows

REFUSED = "predicate refused: verb: a test's refusal"


def _claims(text: str):
    return semantic_claims(text, REFUSED)


def _whole(text: str):
    found = rule_claims(text, with_instruction=True)
    assert complete_claims(text, found), (text, found)
    return found


# -- a state said only in a concession -----------------------------------------------------------------------------------

def test_a_predicate_asking_a_conceded_state_is_narrower_than_the_text() -> None:
    text = "Never analyse Enterprise2, even when it is exploited; the auditors want it untouched."
    action = {"mode": "never", "verb": "Analyse", "target": "Enterprise2"}
    problem = text_problem(text, {"host": "Enterprise2", "activity": "Exploit"}, action)
    assert problem is not None and problem.startswith("narrow:"), problem
    assert text_problem(text, {"host": "Enterprise2"}, action) is None


def test_a_conceded_state_with_an_ordered_alternative_stays_the_order_s_condition() -> None:
    # (the order's other move acts on the state: that state may be the whole rule's condition, as before)
    text = "Do not restore Op_Host1, even when it's rooted: a Remove is all it gets."
    action = {"mode": "never", "verb": "Restore", "target": "Op_Host1"}
    assert text_problem(text, {"host": "Op_Host1", "compromise": "Privileged"}, action) is None


# -- "as it is" ----------------------------------------------------------------------------------------------------------

def test_as_it_is_is_no_condition() -> None:
    text = "Do not remove Op_Host1; we leave that host as it is for the audit team."
    assert conditions_left_out(text) == ()
    assert truth(semantic_claims("Do not remove Op_Host1", REFUSED, text), alert_rows(("Op_Host1", "None", "User"))) is True
    # (a state after it still makes one: "as it is compromised")
    assert [c.text for c in read_wording("Remove User2 as it is compromised").conditions] == ["as it is compromised"]


# -- "with the exception of" ---------------------------------------------------------------------------------------------

def test_with_the_exception_of_a_host_excepts_it() -> None:
    claims = _claims("Analyse every scanned enterprise server with the exception of Enterprise1.")
    assert truth(claims, alert_rows(("Enterprise0", "Scan", "No"))) is True
    assert truth(claims, alert_rows(("Enterprise1", "Scan", "No"))) is not True


# -- "scanned but not yet exploited" of a class ---------------------------------------------------------------------------

def test_a_class_scanned_but_not_yet_exploited_shows_no_compromise() -> None:
    claims = _claims("If an enterprise server is scanned but not yet exploited, deploy a DecoyApache on it.")
    assert truth(claims, alert_rows(("Enterprise2", "Scan", "No"))) is True
    assert truth(claims, alert_rows(("Enterprise2", "Scan", "User"))) is not True
    assert truth(claims, alert_rows(("Enterprise2", "Exploit", "User"))) is not True


# -- the teacher's hypothetical ------------------------------------------------------------------------------------------

def test_the_teacher_s_hypothetical_before_a_colon_is_no_condition() -> None:
    text = "If we were to boil it down: analyse Op_Server0 whenever it shows a scan."
    assert [c.text for c in read_wording(text).conditions] == ["whenever it shows a scan"]
    claims = _claims(text)
    assert truth(claims, alert_rows(("Op_Server0", "Scan", "No"))) is True
    assert truth(claims, alert_rows(("Op_Server0", "None", "No"))) is False


# -- a host the order is contrasted with -----------------------------------------------------------------------------------

def test_a_host_the_order_is_contrasted_with_is_not_where_it_applies() -> None:
    claims = _claims("Remove User1 or User2, whichever is exploited, not User4 though.")
    assert truth(claims, alert_rows(("User4", "Exploit", "User"))) is not True
    assert truth(claims, alert_rows(("User4", "None", "No"))) is not True
    assert truth(claims, alert_rows(("User2", "Exploit", "User"))) is True


# -- nothing on the network shows X or Y ------------------------------------------------------------------------------------

def test_nothing_on_the_network_shows_activity_or_compromise_is_each_quiet() -> None:
    text = "Monitor only while nothing in the network shows any activity or any compromise."
    _whole(text)
    claims = _claims(text)
    assert claims == _claims("Monitor only while no host shows any activity or any compromise.")
    assert truth(claims, alert_rows(("User1", "Scan", "No"))) is False
    assert truth(claims, alert_rows(("User1", "None", "User"))) is False


# -- a document's label ----------------------------------------------------------------------------------------------------

def test_a_numbered_document_label_is_no_condition() -> None:
    for label in ("Playbook 7.1", "SOP #12", "procedure 3b"):
        text = f"{label}: E2 at Unknown -> Analyse E2"
        claims = _claims(text)
        assert truth(claims, alert_rows(("Enterprise2", "None", "Unknown"))) is True, label
        assert truth(claims, alert_rows(("Enterprise2", "None", "User"))) is False, label


# -- a look back in a story --------------------------------------------------------------------------------------------------

def test_a_look_back_in_the_story_states_no_condition() -> None:
    directive = "When Enterprise1 shows Unknown, analyse it."
    for lead in ("In hindsight", "Looking back,", "In retrospect,"):
        text = (f"Enterprise1 dropped to Unknown after my Remove. {lead} the Analyse had already said enough and the "
                f"Restore just cost a turn while Op_Server0 was still clean. {directive}")
        assert cut_conditions(directive, text) == (), lead
        assert truth(semantic_claims(directive, REFUSED, text), alert_rows(("Enterprise1", "None", "Unknown"))) is True, lead


# -- a withdrawn prohibition taught again -----------------------------------------------------------------------------------

def test_a_withdrawn_prohibition_taught_again_with_the_move_it_allows_is_the_same_rule() -> None:
    assert _same_words("Never run Analyse on Enterprise0.", "Enterprise0 should never be analysed; remove it instead when it needs a move.",
                       None)
    # (another host, or another verb forbidden, is another rule)
    assert not _same_words("Never run Analyse on Enterprise0.", "Enterprise1 should never be analysed; remove it instead.",
                           None)
    assert not _same_words("Never run Analyse on Enterprise0.", "Enterprise0 should never be removed; analyse it instead.",
                           None)


# -- "nothing else going on" --------------------------------------------------------------------------------------------------

def test_nothing_else_going_on_is_every_other_host_quiet() -> None:
    for text in ("E2 at Unknown, nothing else going on -> Analyse E2",
                 "When Enterprise2 shows Unknown and nothing else is happening, analyse it."):
        _whole(text)
        claims = _claims(text)
        assert truth(claims, alert_rows(("Enterprise2", "None", "Unknown"), ("User1", "Scan", "No"))) is False, text
        assert truth(claims, alert_rows(("Enterprise2", "Exploit", "Unknown"))) is False, text
        assert truth(claims, alert_rows(("Enterprise2", "None", "User"))) is False, text
    # (a state said with it: that host shows nothing but that state)
    claims = _claims("OpH1 scanned, nothing else going on -> DecoyApache OpH1")
    assert truth(claims, alert_rows(("Op_Host1", "Scan", "User"))) is False


# -- a word that may mark history, with no state to mark --------------------------------------------------------------------

def test_still_with_no_state_in_a_story_s_relative_clause_states_no_condition() -> None:
    directive = "When a user host was clean at the previous step and is compromised now, Remove it first."
    text = ("User2 went from scanned to owned in one step and I let it sit. A new foothold is the one that is still easy "
            f"to pull out. The lesson: {directive[:1].lower()}{directive[1:]}")
    assert cut_conditions(directive, text) == ()
    # (a state it marks is still a condition the directive left out)
    told = "Restore User1 when it is compromised. This only matters while Op_Server0 is still clean."
    assert cut_conditions("Restore User1 when it is compromised.", told) != ()


# -- a reason before ", so:" ---------------------------------------------------------------------------------------------------

def test_a_reason_before_so_colon_is_no_condition_of_an_order_with_its_own() -> None:
    text = ("A box that was quiet a step ago and is scanned now is about to be hit, so: when an enterprise server shows a "
            "scan, deploy a DecoyApache on it.")
    assert [c.text for c in read_wording(text).conditions] == ["when an enterprise server shows a scan"]
    claims = _claims(text)
    assert truth(claims, alert_rows(("Enterprise1", "Scan", "No"))) is True
    # (a host it names keeps it a condition: "User2 is compromised, so: when User3 is scanned, ...")
    assert "User2 is compromised, so" in [c.text for c in
                                          read_wording("User2 is compromised, so: when User3 is scanned, analyse User3.").conditions]
    # (so does a class, or the network: the situation the order is for)
    for reason in ("the user subnet is under attack", "the network is quiet"):
        said = f"{reason}, so: when User3 is scanned, analyse User3."
        assert f"{reason}, so" in [c.text for c in read_wording(said).conditions], reason
