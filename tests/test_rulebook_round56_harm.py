"""Round 56 (r56h): the classes behind blind-53's harmful and outranked injections.

- a question that names its move with no verb of asking ("Q: <move> on <host> ...? A: no") turns that move down;
- a move's result said with the host it was made on, in the present ("a Restore of X leaves it still ..."), is history;
- an evidence line named for what it is before ", so ORDER" is the order's condition (a role heading labels it only);
- a level said with "with" ("a box with Unknown") is that level;
- a negative inversion ("Not unless <c> may we <move> <host>") ends its condition at the inverted auxiliary and bans the
  move on the host after it; a judged clause's opening condition is no place of the ban; a ban that names no host beside
  one of that move that does is said of the same host.
"""

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.claims import claims
from forge.rulebook.language.condition import condition_of
from forge.rulebook.language.facts import facts_needed
from forge.rulebook.language.forms import moves_answered
from forge.rulebook.language.judged import judged_in
from forge.rulebook.language.predicate import Atom, atoms_of
from forge.rulebook.language.said import said_in_words
from forge.rulebook.language.wording import read_wording


def _on(verb, target, mode="do"):
    return {"mode": mode, "verb": verb, "target": target}


def test_an_elliptical_question_turned_down_is_no_order():
    for text, verb, host, when in (
            ("Q: Remove on User3 while it just shows a probe? A: nope, put a decoy there.", "Remove", "User3",
             {"host": "User3", "activity": "Scan"}),
            ("Restore Enterprise0 the moment it reads Unknown? No, analyse it first.", "Restore", "Enterprise0",
             {"host": "Enterprise0", "compromise": "Unknown"})):
        assert verb in moves_answered(text)[0], text
        assert text_problem(text, when, _on(verb, host)) is not None, text
    assert moves_answered("Q: Remove on User3 while it just shows a probe? A: yes, at once.")[0] == frozenset()


def test_a_move_on_a_host_that_leaves_it_compromised_is_history():
    text = "If a Restore of User2 leaves it still at user level, the next plan should hold a Remove of it."
    assert "history" in facts_needed("a Restore of User2 leaves it at user level")
    problem = text_problem(text, {"host": "User2", "compromise": "User"}, _on("Remove", "User2"))
    assert problem is not None and problem.startswith("history"), problem


def test_an_evidence_line_named_for_what_it_is_is_the_condition():
    text = "For the analyst: an outbound link to port 4444 is an attacker shell, so advise a Restore of that host."
    condition = condition_of(text)
    assert "4444" in condition, condition
    assert judged_in(condition), condition


def test_a_level_said_with_with_is_that_level():
    found = claims("any user box with Unknown")
    assert found is not None and any(a.compromise == "Unknown" and a.host_class == "User" for a, _ in atoms_of(found))
    assert claims("a user box with unknown processes") is None or not any(
        a.compromise == "Unknown" for a, _ in atoms_of(claims("a user box with unknown processes")))
    problem = text_problem("user side: any box w/ Unknown -> analyse it before anything else",
                           {"class": "User", "activity": "any"}, _on("Analyse", "$matched"))
    assert problem is not None and problem.startswith("claims"), problem


def test_a_negative_inversion_bans_the_move_on_the_host_after_it():
    text = "Not unless Op_Server0 is owned may we Remove User1."
    words = read_wording(text)
    assert [c.text for c in words.conditions] == ["unless Op_Server0 is owned"], words.conditions
    assert any(p.verb == "Remove" and p.hosts == ("User1",) for p in words.prohibitions), words.prohibitions
    assert text_problem(text, {"all": [{"host": "User1"}, {"not": {"host": "Op_Server0", "compromise": "any"}}]},
                        _on("Remove", "User1", "never")) is None


def test_a_judged_clause_opening_condition_is_no_place_of_the_ban():
    words = read_wording("With User4 quiet, a Remove of the workstation is overkill.")
    assert words.prohibitions and all("User4" not in p.hosts for p in words.prohibitions), words.prohibitions


def test_a_hostless_ban_beside_a_placed_one_is_on_that_host():
    text = ("Not unless Enterprise0 is owned should you Restore Op_Host1. With Enterprise0 untouched, restoring the "
            "box is wasteful.")
    said = said_in_words(text)
    assert said is not None and said[1].mode == "never" and said[1].move.verb == "Restore", said
    assert Atom(host="Op_Host1") in [a for a, _ in atoms_of(said[0])], said
    assert "Enterprise0" not in {a.host for a, negated in atoms_of(said[0]) if not negated}, said
