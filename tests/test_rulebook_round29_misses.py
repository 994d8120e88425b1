"""Issue 29, twenty-ninth round (r29m, blind26's misses): readings that kept a rule out where its words apply. "no
compromise" denies a state and forbids no move after it; the teacher's own present move ("... we analyse X") or the move
a plural subject is given ("... get a DecoySmss") opens the main clause; a heading that only lists hosts is what a rule
with no other condition applies to; "means recommend a Remove" names the move; a class's atom is one of its hosts; a
named host "under analysis" is that host; "other than X" is an exception; "at root with no activity left" is one
condition. Sentences of our own, not the case files'."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.condition import semantic_claims
from forge.rulebook.language.predicate import truth
from forge.rulebook.language.situation import read_situation
from forge.rulebook.language.wording import read_wording

_REFUSED = "compiler predicates rejected: claims: the predicate does not say what the condition says"


def _holds(text: str, alerts: str):
    return truth(semantic_claims(text, _REFUSED), read_situation("Alerts:\n" + alerts))


def test_no_compromise_denies_a_state_and_forbids_nothing():
    text = "Op hosts reporting a probe yet no compromise warrant a DecoyApache there."
    assert read_wording(text).prohibitions == ()
    text = "Desktops in the user subnet hit by an exploit but no escalation receive a Remove."
    assert read_wording(text).prohibitions == ()


def test_no_before_the_move_itself_still_forbids_it():
    # guard: "needs no Restore" forbids the Restore, whatever state the clause denied before it
    text = "A box with no compromise needs no Restore on it."
    assert [p.verb for p in read_wording(text).prohibitions] == ["Restore"]


def test_the_teachers_present_move_opens_the_main_clause():
    text = "Whenever Op_Server0 shows Unknown we analyse Op_Server0 before any other move."
    assert [c.text for c in read_wording(text).conditions] == ["Whenever Op_Server0 shows Unknown"]
    action = {"mode": "do", "verb": "Analyse", "target": "Op_Server0"}
    assert text_problem(text, {"host": "Op_Server0", "compromise": "Unknown"}, action) is None


def test_a_move_the_teacher_joins_to_the_condition_stays_in_it():
    # guard: "and we restore it" is part of what happened, said in the condition
    text = "If Op_Host2 is exploited and we restore it, then it tends to come back."
    assert any("we restore" in c.text for c in read_wording(text).conditions)


def test_the_move_given_to_a_plural_subject_opens_the_main_clause():
    text = "Operational hosts showing a scan with no compromise get a DecoyApache on each of them."
    assert [c.text for c in read_wording(text).conditions] == ["Operational hosts showing a scan with no compromise"]
    assert _holds(text, "Op_Host1: Activity Scan, Compromised No") is True
    assert _holds(text, "Op_Host1: Activity Scan, Compromised User") is not True


def test_a_class_atom_implies_its_hosts_read_apart():
    text = "When a user box shows Activity Scan and no compromise, give it a DecoySmss."
    action = {"mode": "do", "verb": "DecoySmss", "target": "$matched"}
    assert text_problem(text, {"class": "User", "activity": "Scan", "compromise": "No"}, action) is None


def test_a_heading_listing_hosts_is_where_its_order_applies():
    text = "User1, User2 and User3: never Restore."
    action = {"mode": "never", "verb": "Restore", "target": "$matched"}
    when = {"any": [{"host": "User1"}, {"host": "User2"}, {"host": "User3"}]}
    assert text_problem(text, when, action) is None
    assert _holds(text, "User2: Activity None, Compromised User") is True
    assert _holds(text, "Enterprise0: Activity None, Compromised User") is not True


def test_means_recommend_names_the_move_of_a_lesson():
    text = ("When I inspected Enterprise1 at step 4 it showed an exploit with root access and I recommended an Analyse; it "
            "cost us. The rule I would keep is: for the machine under inspection, an exploit with root access means "
            "recommend a Restore.")
    assert _holds(text, "Enterprise1: Activity Exploit, Compromised Privileged") is True
    assert _holds(text, "Enterprise1: Activity Exploit, Compromised User") is not True


def test_a_named_host_under_analysis_is_that_host():
    text = "Op_Host1 under analysis, root level -> rec Restore"
    assert _holds(text, "Op_Host1: Activity None, Compromised Privileged") is True
    assert _holds(text, "Op_Host1: Activity None, Compromised User") is not True


def test_other_than_a_host_is_an_exception():
    text = "When any op host other than Op_Host0 reads Unknown, an Analyse of it goes in the plan."
    assert _holds(text, "Op_Host2: Activity None, Compromised Unknown") is True
    assert _holds(text, "Op_Host0: Activity None, Compromised Unknown") is not True


def test_a_level_with_no_activity_is_one_condition():
    text = "Op_Server0 at root with no activity left ought to be restored."
    assert [c.text for c in read_wording(text).conditions] == ["Op_Server0 at root with no activity"]
    action = {"mode": "do", "verb": "Restore", "target": "Op_Server0"}
    assert text_problem(text, {"host": "Op_Server0", "activity": "None", "compromise": "Privileged"}, action) is None
    assert _holds(text, "Op_Server0: Activity Exploit, Compromised Privileged") is not True


def test_a_class_atom_picking_one_value_of_a_denial_is_still_refused():
    # guard: "exploited though not rooted" is met at user level too; a class atom asking Compromised No is narrower
    text = "An enterprise box exploited though not rooted should get a Remove recommendation."
    action = {"mode": "do", "verb": "Remove", "target": "$matched"}
    assert text_problem(text, {"class": "Enterprise", "activity": "Exploit", "compromise": "No"}, action) is not None
