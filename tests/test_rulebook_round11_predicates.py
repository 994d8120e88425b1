"""Issue 29, eleventh round: compiled predicates wider than their words (or the opposite of them) that passed the
product's checks, whoever compiled them. Each class on sentences written for these tests.

- *Compromised is not Unknown*: a compiled "Host is compromised" (`compromise: any`) is held at the gate to what the
  words say for sure (condition.text_claims -> confirmed), as a semantic rule's claims are: it does not fire on the
  host's row at Compromised Unknown (the row a Remove leaves); said of a class ("a user host is compromised") too, and
  "it" after a class the sentence names ("every enterprise server ... as soon as it is compromised") is a host of it. A
  context in prose ("Op_Host1 is compromised") is not at the table's Unknown.
- *Host shorthand*: "E1", "U3", "OpS0", "OpH2", "User three", "enterprise server number 1" name their host (the checks
  then hold the trigger to it; the compiler's "any host" is refused).
- *A host singled out by words the product does not read* ("the second enterprise server", "srv3", "the host with the
  most alerts"): a trigger on a whole class, or on any host, drops it, and is refused; the reading is not whole.
- *A report of what a move does* ("Remove evidently leaves ...") is no order, so the lesson after it is read, with
  its "rather than".
- *A role's order of nothing* ("plan nothing at all for the user hosts") is a prohibition of every verb there.
"""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.condition import semantic_claims, text_claims
from forge.rulebook.language.predicate import parse_predicate, truth
from forge.rulebook.language.situation import read_situation
from forge.rulebook.language.names import hosts_in
from forge.rulebook.language.wording import read_wording


def _row(host: str, activity: str, compromise: str):
    return read_situation(f"Alerts:\n{host}: Activity {activity}, Compromised {compromise}")


# -- compromised is not Unknown ---------------------------------------------------------------------------


def test_a_compiled_compromise_of_a_named_host_is_held_to_a_level_known_to_be_compromised() -> None:
    text = "If Op_Host1 gets compromised, plan a Restore of Op_Host1 right away."
    found, whole = text_claims(text)
    assert whole
    predicate = parse_predicate({"host": "Op_Host1", "compromise": "any"})  # what a compiler gives
    unknown, user = _row("Op_Host1", "None", "Unknown"), _row("Op_Host1", "None", "User")
    assert truth(predicate, unknown) is True  # the predicate alone fires at Unknown ...
    assert truth(found, unknown) is not True  # ... the words it is held to do not
    assert truth(found, user) is True


def test_a_context_in_prose_that_says_compromised_is_not_the_tables_unknown() -> None:
    found, _ = text_claims("If Op_Host1 gets compromised, plan a Restore of Op_Host1 right away.")
    assert truth(found, read_situation("Op_Host1 is compromised.")) is True


def test_a_class_said_compromised_is_met_by_none_of_its_hosts_at_unknown() -> None:
    found = semantic_claims("Whenever an operational host is compromised, restore it.")
    assert truth(found, _row("Op_Host2", "None", "Unknown")) is not True
    assert truth(found, _row("Op_Host2", "None", "Privileged")) is True


def test_it_after_every_host_of_a_class_is_a_host_of_that_class() -> None:
    found, whole = text_claims("Every enterprise server apart from Enterprise0 must be restored as soon as it is compromised.")
    assert found is not None and whole
    assert truth(found, _row("Enterprise1", "None", "Unknown")) is not True
    assert truth(found, _row("Enterprise1", "Exploit", "User")) is True


# -- host shorthand ---------------------------------------------------------------------------------------


def test_shorthand_and_spelled_numbers_name_their_host() -> None:
    assert hosts_in("OpH2 scanned, then E1") == ("Op_Host2", "Enterprise1")
    assert hosts_in("U3 and ops0") == ("User3", "Op_Server0")
    assert hosts_in("when user three or enterprise server number 2 shows it") == ("User3", "Enterprise2")
    assert hosts_in("any user one of them") == ()  # a determiner: some user host, not User1


def test_a_trigger_on_any_host_for_a_host_said_in_shorthand_is_refused() -> None:
    problem = text_problem("U3 exploited -> Remove U3.", {"class": "any", "activity": "Exploit"},
                           {"mode": "do", "verb": "Remove", "target": "$matched"})
    assert problem is not None and problem.startswith("host:"), problem
    assert text_problem("U3 exploited -> Remove U3.", {"host": "User3", "activity": "Exploit"},
                        {"mode": "do", "verb": "Remove", "target": "User3"}) is None


# -- a host singled out by words the product does not read ------------------------------------------------


def test_words_that_single_out_a_host_the_reader_cannot_name() -> None:
    from forge.rulebook.language.names import unnamed_hosts  # (new in this round)

    assert unnamed_hosts("when the third user box is scanned")
    assert unnamed_hosts("if gw2 shows an exploit")
    assert unnamed_hosts("restore the server with the highest score")
    assert not unnamed_hosts("when User2 is scanned at step 4")


def test_a_class_trigger_for_one_unnamed_host_is_refused_and_not_read_whole() -> None:
    text = "When the third user box is scanned, put a DecoySSHD on it."
    problem = text_problem(text, {"class": "User", "activity": "Scan"}, {"mode": "do", "verb": "DecoySSHD", "target": "$matched"})
    assert problem is not None and problem.startswith("host:"), problem
    assert text_claims(text)[1] is False  # a semantic rule on it stays silent, never "any scanned user host"


# -- a report of what a move does; the lesson after it ------------------------------------------------------


def test_a_move_said_to_do_something_is_no_order_and_the_lesson_keeps_its_rather_than() -> None:
    text = ("I kept answering exploited user hosts with Restore. Restore usually costs us the whole step on those boxes. "
            "My view, loosely held: when a user host is exploited, Remove the attacker rather than Restore it.")
    words = read_wording(text)
    assert "Remove the attacker" in words.instruction and words.dispreferred == ("Restore",)
    problem = text_problem(text, {"class": "User", "activity": "Exploit"}, {"mode": "do", "verb": "Restore", "target": "$matched"})
    assert problem is not None and problem.startswith("disprefer:"), problem


# -- a role's order of nothing -----------------------------------------------------------------------------


def test_planning_nothing_for_hosts_is_a_prohibition_of_every_verb_there() -> None:
    text = "While Enterprise1 is being exploited, schedule nothing for the operational hosts."
    words = read_wording(text)
    assert any(p.verb is None and p.classes == ("Operational",) for p in words.prohibitions), words.prohibitions
    problem = text_problem(text, {"host": "Enterprise1", "activity": "Exploit"},
                           {"mode": "do", "verb": "DecoyApache", "target": "Operational"})
    assert problem is not None and problem.startswith("prohibition:"), problem


def test_a_lesson_for_a_host_like_the_storys_is_not_a_rule_for_any_host() -> None:
    text = "I analysed Op_Host2 three times while it stayed rooted. For machines like that, restore rather than analyse."
    problem = text_problem(text, {"class": "any", "compromise": "any"},
                           {"mode": "prefer", "verb": "Restore", "target": "$matched", "over": {"verb": "Analyse", "target": "$matched"}})
    assert problem is not None and problem.startswith("host:"), problem


def test_a_state_of_a_named_host_the_reader_cannot_place_is_not_moved_onto_any_host() -> None:
    # the reading knows only that Enterprise0 is shown; "some host shows activity" fires with Enterprise0 quiet
    text = "When Enterprise0 starts acting strangely, deploy a DecoyTomcat on Enterprise0."
    action = {"mode": "do", "verb": "DecoyTomcat", "target": "Enterprise0"}
    problem = text_problem(text, {"class": "any", "activity": "any"}, action)
    assert problem is not None and problem.startswith("host:"), problem
    assert text_problem(text, {"host": "Enterprise0", "activity": "any"}, action) is None


def test_a_stated_state_is_not_dropped_into_hosts_merely_shown() -> None:
    text = "Enterprise servers other than Enterprise1: restore them once rooted."
    listed = {"any": [{"host": "Enterprise0"}, {"host": "Enterprise2"}]}  # the hosts, shown, in no state
    problem = text_problem(text, listed, {"mode": "do", "verb": "Restore", "target": "$matched"})
    assert problem is not None and problem.startswith("bare:"), problem


def test_a_host_the_order_is_contrasted_with_is_left_out_of_a_class_rule() -> None:
    text = "Remove the attacker from exploited enterprise servers -- not Enterprise1 though."
    problem = text_problem(text, {"class": "Enterprise", "activity": "Exploit"}, {"mode": "do", "verb": "Remove", "target": "$matched"})
    assert problem is not None and problem.startswith("except:"), problem
    # kept semantic, its words claim nothing of Enterprise1
    found = semantic_claims(text, "predicate refused: except: ...")
    assert truth(found, _row("Enterprise1", "Exploit", "User")) is not True
    assert truth(found, _row("Enterprise2", "Exploit", "User")) is True
