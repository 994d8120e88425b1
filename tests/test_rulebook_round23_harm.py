"""Issue 29, twenty-third round (r23h, blind20's harms): a condition that names several hosts, some in shorthand or
prose ("the op server", "E1"), is read for every one of them; a condition that opens the sentence before the lesson's
lead ("If ..., the rule is: ...") is the lesson's own. Read wrong, a predicate that left a host's state out passed the
checks, and the rule was wider than its words. Sentences of our own, not the case files'."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.claims import claims
from forge.rulebook.language.guard import complete_claims
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.predicate import Atom, atoms_of, implies, parse_predicate
from forge.rulebook.language.wording import read_wording


def _claimed(text: str) -> dict[str, Atom]:
    found = rule_claims(text, with_instruction=True, bare=False)
    assert found is not None, text
    return {atom.host: atom for atom, negated in atoms_of(found) if not negated}


# -- several hosts, some named in shorthand or prose --------------------------------------------------------------

def test_a_host_in_prose_beside_a_host_in_full_is_read_too():
    found = _claimed("If the operational server and User1 are both scanned, put a DecoyApache on User1.")
    assert set(found) == {"Op_Server0", "User1"}
    assert all(atom.activity == "Scan" for atom in found.values())


def test_hosts_in_shorthand_share_the_state_said_after_them():
    text = "When E1 and U2 are compromised, restore E1."
    found = rule_claims(text, with_instruction=True, bare=False)
    assert {atom.host for atom, _ in atoms_of(found)} == {"Enterprise1", "User2"}
    assert complete_claims(text, found)


def test_a_predicate_that_drops_the_prose_host_is_wider_than_its_words():
    text = "If the op server and Enterprise1 are both compromised, restore the op server."
    problem = text_problem(text, {"host": "Enterprise1", "compromise": "any"},
                           {"mode": "do", "verb": "Restore", "target": "Op_Server0"})
    assert problem is not None and problem.startswith("claims:")


def test_a_predicate_with_both_hosts_passes():
    text = "If the op server and Enterprise1 are both compromised, restore the op server."
    when = {"all": [{"host": "Op_Server0", "compromise": "any"}, {"host": "Enterprise1", "compromise": "any"}]}
    assert text_problem(text, when, {"mode": "do", "verb": "Restore", "target": "Op_Server0"}) is None


def test_a_negated_prose_host_stays_negated():
    # (guard: read in full, "the ops server is not" is still a denial of that host's state, not a claim of it)
    found = claims("when User3 is compromised and the ops server is not compromised")
    assert found is not None
    assert implies(found, parse_predicate({"not": {"host": "Op_Server0", "compromise": "any"}}))
    assert implies(found, parse_predicate({"host": "User3", "compromise": "any"}))


# -- a condition before the lesson's lead -------------------------------------------------------------------------

def test_a_condition_before_the_lead_is_the_lessons_condition():
    words = read_wording("Whenever User2 is rooted, the rule is: restore User2 before anything else.")
    assert [c.text for c in words.conditions] == ["Whenever User2 is rooted"]


def test_the_sequence_keeps_the_condition_that_opens_its_sentence():
    text = "If Enterprise0 and User3 are both scanned, the order of moves should be: Analyse Enterprise0, then Analyse User3."
    found = _claimed(text)
    assert set(found) == {"Enterprise0", "User3"}
    problem = text_problem(text, {"host": "User3", "activity": "Scan"},
                           {"mode": "do", "verb": "Analyse", "target": "Enterprise0", "then": [{"verb": "Analyse", "target": "User3"}]})
    assert problem is not None and problem.startswith("claims:")


def test_a_story_before_the_lead_is_still_no_condition():
    # (guard: a condition told in the past, the teacher's own story, is dropped as before)
    words = read_wording("When I restored User4 at step 6, the lesson I took is: analyse User4 first.")
    assert not words.conditions
    assert "analyse User4 first" in words.instruction.lower() or "Analyse User4 first" in words.instruction


# -- a host excepted in a note's shorthand ------------------------------------------------------------------------

def test_a_class_heading_that_excepts_a_host_in_shorthand_is_an_exception():
    words = read_wording("usr boxes, not U2 though: exploit seen -> Remove it")
    assert words.excepted == ("User2",)
    found = rule_claims("usr boxes, not U2 though: exploit seen -> Remove it", with_instruction=True, bare=False)
    assert "User2" not in {atom.host for atom, _ in atoms_of(found)}


def test_a_server_heading_in_shorthand_keeps_its_class_less_the_excepted_host():
    text = "ent srvs, but not E1: exploit -> Analyse it"
    words = read_wording(text)
    assert words.excepted == ("Enterprise1",) and "Enterprise" in words.classes
    found = rule_claims(text, with_instruction=True, bare=False)
    hosts = {atom.host for atom, _ in atoms_of(found)}
    assert "Enterprise1" not in hosts and {"Enterprise0", "Enterprise2"} <= hosts


def test_an_exception_said_alone_in_shorthand():
    assert read_wording("Restore any rooted user host; U4 is the exception.").excepted == ("User4",)
    assert read_wording("Analyse every scanned enterprise server, except E2.").excepted == ("Enterprise2",)


def test_a_shorthand_host_that_is_not_excepted_stays_a_condition():
    # (guard: "U2 not scanned" denies a state of U2, no exception of it)
    words = read_wording("If U2 is not scanned, put a DecoyApache on it.")
    assert not words.excepted


def test_a_heading_of_servers_in_shorthand_excepts_the_host_after_it():
    words = read_wording("ent srvs, not Enterprise2 though: scan -> Analyse it")
    assert words.excepted == ("Enterprise2",)


# -- "not <state>" before an ordered move; a level denied, judged on a row at Unknown --------------------------------

from forge.rulebook.language.condition import semantic_claims  # noqa: E402
from forge.rulebook.language.predicate import truth  # noqa: E402
from forge.rulebook.language.situation import read_situation  # noqa: E402

ORDER = "Any enterprise server that is scanned but not yet compromised should get a DecoyApache."


def test_a_state_denied_before_the_move_is_no_prohibition():
    assert read_wording("An op host exploited but not rooted gets a Remove from me.").prohibitions == ()
    assert read_wording(ORDER).prohibitions == ()


def test_a_prohibition_after_a_denied_state_is_still_read():
    # (guard: the search goes on after the denied state)
    found = read_wording("A user box not compromised needs no Restore.").prohibitions
    assert [p.verb for p in found] == ["Restore"]


def test_an_orders_denied_level_is_not_met_by_a_row_at_unknown():
    text = "Op_Host1 exploited but not rooted: it needs a Remove, whatever else is going on."
    found = semantic_claims(text, "predicate refused: negation: ...", text)
    at_user = read_situation("Alerts:\nOp_Host1: Activity Exploit, Compromised User")
    at_unknown = read_situation("Alerts:\nOp_Host1: Activity Exploit, Compromised Unknown")
    assert truth(found, at_user) is True
    assert truth(found, at_unknown) is not True


def test_a_prohibitions_exception_stands_in_doubt_at_unknown():
    # (guard: "never ... unless it is rooted": the prohibition holds on a row that does not know the level)
    text = "Never restore Op_Host1 unless it has reached root."
    found = semantic_claims(text, "predicate refused: negation: ...", text)
    at_unknown = read_situation("Alerts:\nOp_Host1: Activity None, Compromised Unknown")
    if found is not None:
        assert truth(found, at_unknown) is not False
