"""Round 58, r58h: rules that spoke where their own words say they do not apply.

- a class host left out by its place in the class ("every enterprise box apart from the last one") singles out a host
  the product cannot name: a trigger on the whole class is refused;
- a request whose status line turns it down orders nothing, as compiled move or as a rule kept semantic;
- a misspelt "enterprise" in a host's name is that host: a trigger on any host is refused;
- an aside that keeps a condition to the host it follows alone ("(and only User4)") restates the name: the condition
  reads on past it, and the bare host never decides the rule;
- a class the text leaves out ("rule 1 does not apply to operational hosts") is kept out, by the checks and the gate;
- a note that says it asks for no move, or a provision made subject to another by its number, decides nothing alone;
- "shall" orders as "should" does: the move a ban sends the reader to is part of the rule.
"""

from __future__ import annotations

from forge.env.catalog import HOST_CLASSES
from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.condition import semantic_claims
from forge.rulebook.language.names import unnamed_hosts
from forge.rulebook.language.order import gives_order
from forge.rulebook.language.predicate import Always, Atom, Not, positive_hosts
from forge.rulebook.language.wording import read_wording

_SILENT = Not(Always())


def _gate(text: str):
    """What a rule kept semantic, its predicate refused, is held to at the gate."""
    return semantic_claims(text, "predicate refused: claims", text)


def test_a_class_host_left_out_by_its_place_is_a_host_no_name_reads() -> None:
    for said in ("every enterprise box apart from the last one, once scanned", "all op hosts except the first, if probed",
                 "the user machines other than the second one"):
        assert unnamed_hosts(said), said
    for said in ("Analyse it first, except the first time it shows", "remove it, but first analyse it",
                 "restore all of them but the last step is free"):
        assert not unnamed_hosts(said), said
    text = "Every enterprise box apart from the last one: once probed, DecoyTomcat it."
    assert text_problem(text, {"class": "Enterprise", "activity": "Scan"},
                        {"mode": "do", "verb": "DecoyTomcat", "target": "$matched"}) is not None


_TURNED_DOWN = ("Request RQ-7: Restore User1 each time User3 gets probed.\nOwner: dana\n"
                "Status: declined (it burned steps for nothing).")


def test_a_request_whose_status_turns_it_down_orders_nothing() -> None:
    problem = text_problem(_TURNED_DOWN, {"host": "User3", "activity": "Scan"},
                           {"mode": "do", "verb": "Restore", "target": "User1"})
    assert problem is not None and problem.startswith("polarity")
    assert _gate(_TURNED_DOWN) == _SILENT
    approved = _TURNED_DOWN.replace("declined (it burned steps for nothing)", "approved")
    assert text_problem(approved, {"host": "User3", "activity": "Scan"},
                        {"mode": "do", "verb": "Restore", "target": "User1"}) is None


def test_a_misspelt_enterprise_name_is_that_host() -> None:
    text = "Entreprise 1 at root => Restore Entreprise 1."
    assert read_wording(text).hosts == ("Enterprise1",)
    assert text_problem(text, {"class": "any", "compromise": "Privileged"},
                        {"mode": "do", "verb": "Restore", "target": "$matched"}) is not None


def test_an_aside_keeping_the_condition_to_its_host_restates_the_name() -> None:
    for said in ("If User4 (and only User4) is being probed, DecoySSHD User4.",
                 "Once Op_Host1 -- that one alone, not Op_Host0 -- gets exploited, Remove Op_Host1."):
        found = _gate(said)
        assert found not in (None, _SILENT) and found.activity is not None, said
    assert _gate("If User4 (and only User4) is being probed, DecoySSHD User4.") == Atom(host="User4", activity="Scan")


_LEFT_OUT = ("Rule 1: whenever a host sits at root, the planner should plan a Restore of it. Rule 2: rule 1 does not apply "
             "to operational hosts.")


def test_a_class_the_text_leaves_out_is_kept_out() -> None:
    from forge.rulebook.language.guard import classes_left_out  # (r58h's reader: imported here, the other tests stand alone)

    action = {"mode": "do", "verb": "Restore", "target": "$matched"}
    assert text_problem(_LEFT_OUT, {"class": "any", "compromise": "Privileged"}, action) is not None
    assert text_problem(_LEFT_OUT, {"any": [{"class": "User", "compromise": "Privileged"},
                                            {"class": "Enterprise", "compromise": "Privileged"}]}, action) is None
    # an exception after a denial of all else is the only class the rule is for: nothing left out
    assert not classes_left_out("Put a DecoyApache on nothing other than op boxes that get probed.")
    assert classes_left_out(_LEFT_OUT) == {"Operational"}
    # at the gate, the claims stand for the other classes' hosts alone
    found = _gate(_LEFT_OUT)
    assert found not in (None, _SILENT)
    held = positive_hosts(found)
    assert held and not held & set(HOST_CLASSES["Operational"]) and "User2" in held


def test_a_note_asking_for_nothing_is_silent() -> None:
    assert _gate("Heads up: red usually lands on Op_Host1 after the user boxes. No action required, background only.") == _SILENT
    # a note that names a move is no note of context, whatever it says of action
    assert _gate("If User2 is rooted, Restore User2; no other action needed.") != _SILENT


def test_a_provision_subject_to_another_clause_is_silent_alone() -> None:
    assert _gate("(2) Subject to clause (1), User3 should not be removed while Enterprise0 is quiet; restore it instead.") == _SILENT


def test_shall_orders_as_should_does() -> None:
    assert gives_order("The defender shall remove it instead.")
    words = read_wording("Op_Host0 shall not be restored while Enterprise1 is quiet; the defender shall remove it instead.")
    assert "Remove" in words.verbs and "Restore" in words.dispreferred
