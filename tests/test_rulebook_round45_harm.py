"""Issue 29, round 45 (r45h: harm on blind-42, each class a reading wider than the rule's own words).
- "checklist" (and "watchlist") was read as the verb "check", an Analyse: a note headed "my checklist for <host>" that
  orders a Remove passed a compilation that orders an Analyse instead, with no condition (`names.VERB_FORMS`);
- a second state joined to a condition after its comma ("If <host> shows no activity, and <other> is compromised,
  <order>") was cut off at the comma: the condition was read whole without it, and the rule, kept semantic, fired where
  the other host was clean (`markers.clause_end`, `markers._STATE_JOINED`);
- a scope that opens the order with its host's state ("for a host you examine at <level> with ... showing, <order>") was
  read only while that state took at most five words: a longer one was no condition at all, and a compilation that left
  out its negation passed the checks (`clauses._SCOPE_STATE`);
- a checklist of states, one an item, then one order "when both (all, any of them) hold" was read as that order alone,
  its condition saying nothing: the items are its condition, joined by "and" ("or" for any of them), where each states
  something and orders nothing (`wording._checklist_said`);
- a checklist's label after the scope it heads ("<host> checklist:", "checklist for <host>:") and the role a heading
  addresses after its scope ("For <host>, planner:") were read as the note's situation, which no claim could place: the
  rule kept semantic held nothing (`forms.scope_labels_said`).
Each test fails on the product files of a3816c6 (checked: this file run in a `git archive a3816c6` tree). Sentences of
our own, none from a case file."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.names import verbs_in
from forge.rulebook.language.wording import read_wording
from tests.situations import alert_lines, refused_rule_holds

MATCHED = "$matched"


def _move(verb: str, target: str, mode="do") -> dict:
    """An action of `verb` on `target` (with no mode where it is the side a preference is over)."""
    return {"verb": verb, "target": target, **({"mode": mode} if mode else {})}


def test_a_checklist_or_watchlist_names_no_move() -> None:
    assert verbs_in("my checklist for User1") == ()
    assert verbs_in("the team's watch-list of servers") == ()
    assert verbs_in("check User1 and watch Enterprise2") == ("Analyse", "Monitor")  # (the verbs themselves still are)
    text = "Checklist item for the chooser: when User1 shows Activity Exploit, Remove User1."
    # the note orders a Remove; a compiled Analyse of User1 is not what it says
    problem = text_problem(text, {"host": "User1", "activity": "Exploit"}, _move("Analyse", "User1"))
    assert problem is not None and problem.startswith("verb")


def test_a_state_joined_after_the_conditions_comma_stays_in_the_condition() -> None:
    text = "If Op_Host2 shows no activity at all, and Enterprise1 is owned by the attacker, Restore Enterprise1 first."
    (condition,) = read_wording(text).conditions
    assert "Enterprise1" in condition.hosts and "Op_Host2" in condition.hosts
    assert refused_rule_holds(text, alert_lines(Op_Host2="None/No", Enterprise1="None/User")) is True
    assert refused_rule_holds(text, alert_lines(Op_Host2="None/No", Enterprise1="None/No")) is False  # the joined state is false
    assert refused_rule_holds(text, alert_lines(Op_Host2="Scan/No", Enterprise1="None/User")) is False
    # (an order after the comma is still the order: "..., and it is worth it" after an order says no state)
    text = "When Op_Host2 gets owned, reimage it, and it is worth the cost."
    (condition,) = read_wording(text).conditions
    assert condition.text == "When Op_Host2 gets owned"


def test_a_scope_with_a_longer_state_is_the_orders_condition() -> None:
    text = "For a host you examine at Compromised Privileged with nothing running on it, recommend a Restore over a Remove."
    (condition,) = read_wording(text).conditions
    assert "nothing" in condition.negations
    # a compilation that drops "with nothing running" (no activity) says more than the text
    preferred = dict(_move("Restore", MATCHED), mode="prefer", over=_move("Remove", MATCHED, mode=None))
    problem = text_problem(text, {"class": "any", "compromise": "Privileged"}, preferred)
    assert problem is not None and problem.startswith("negation")


def test_a_checklist_of_states_is_the_condition_of_its_one_order() -> None:
    text = "Checklist for Op_Host1, chooser:\n1. Op_Host1 shows Activity Scan.\n2. User4 is not compromised.\nWith both true, DecoySSHD Op_Host1."
    assert refused_rule_holds(text, alert_lines(Op_Host1="Scan/No", User4="None/No")) is True
    assert refused_rule_holds(text, alert_lines(Op_Host1="Scan/No", User4="None/User")) is False  # the second item is false
    assert refused_rule_holds(text, alert_lines(Op_Host1="None/No", User4="None/No")) is False
    # a compilation that keeps to the host alone drops both items
    problem = text_problem(text, {"host": "Op_Host1"}, _move("DecoySSHD", "Op_Host1"))
    assert problem is not None
    assert text_problem(text, {"all": [{"host": "Op_Host1", "activity": "Scan"}, {"not": {"host": "User4", "compromise": "any"}}]},
                        _move("DecoySSHD", "Op_Host1")) is None
    # "any of them": one item is enough
    text = "Enterprise1 checklist:\n- Enterprise1 shows Activity Exploit\n- Enterprise1 is at Privileged\nIf any of them holds, Restore Enterprise1."
    said = [c.text for c in read_wording(text).conditions]
    assert any(c.endswith("Enterprise1 shows Activity Exploit or Enterprise1 is at Privileged") for c in said)
    # (items that give orders are steps of a plan, no condition: the list stands as it is)
    plan = "Checklist for every workstation being exploited:\n1. Remove it.\n2. Monitor.\nIf both are done, Sleep."
    assert "Remove" in read_wording(plan).verbs


def test_a_checklists_label_and_the_role_it_addresses_are_no_condition() -> None:
    # ("<host> checklist:" heads a note for that host; "For <host>, planner:" addresses the planner)
    text = "Op_Host0 checklist:\n- it shows Activity Exploit\n- it is not yet at Privileged\nIf both hold, plan a Remove of Op_Host0."
    assert read_wording(text).situation == "For Op_Host0"
    assert refused_rule_holds(text, alert_lines(Op_Host0="Exploit/User")) is True
    assert refused_rule_holds(text, alert_lines(Op_Host0="Exploit/Privileged")) is False
    text = "Checklist for Enterprise0, planner: when Enterprise0 shows Activity Scan but no compromise yet, a DecoyTomcat goes there."
    assert read_wording(text).situation == "For Enterprise0"
    assert refused_rule_holds(text, alert_lines(Enterprise0="Scan/No")) is True
    assert refused_rule_holds(text, alert_lines(Enterprise0="Scan/User")) is False
