"""Issue 29, round 45 (r45h: harm on blind-42, each class a reading wider than the rule's own words).
- "checklist" (and "watchlist") was read as the verb "check", an Analyse: a note headed "my checklist for <host>" that
  orders a Remove passed a compilation that orders an Analyse instead, with no condition (`wording._VERB_FORMS`);
- a second state joined to a condition after its comma ("If <host> shows no activity, and <other> is compromised,
  <order>") was cut off at the comma: the condition was read whole without it, and the rule, kept semantic, fired where
  the other host was clean (`wording._clause_end`, `wording._STATE_JOINED`);
- a scope that opens the order with its host's state ("for a host you examine at <level> with ... showing, <order>") was
  read only while that state took at most five words: a longer one was no condition at all, and a compilation that left
  out its negation passed the checks (`wording._SCOPE_STATE`).
Each test fails on the product files of a3816c6 (checked: this file run in a `git archive a3816c6` tree). Sentences of
our own, none from a case file."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.condition import semantic_claims
from forge.rulebook.language.predicate import truth
from forge.rulebook.language.situation import read_situation
from forge.rulebook.language.wording import read_wording, verbs_in

REFUSED = "predicate refused: host: the check's reason"
MATCHED = "$matched"


def _move(verb: str, target: str, mode="do") -> dict:
    """An action of `verb` on `target` (with no mode where it is the side a preference is over)."""
    return {"verb": verb, "target": target, **({"mode": mode} if mode else {})}


def _holds(text: str, context: str):
    return truth(semantic_claims(text, REFUSED, text), read_situation(context))


def _alerts(**rows: str) -> str:
    """Alert lines, each host's "Activity/Compromised"."""
    lines = [f"{host}: Activity {row.split('/')[0]}, Compromised {row.split('/')[1]}" for host, row in rows.items()]
    return "\n".join(["Alerts:", *lines])


def test_a_checklist_or_watchlist_names_no_move() -> None:
    assert verbs_in("my checklist for User1") == ()
    assert verbs_in("the team's watch-list of servers") == ()
    assert verbs_in("check User1 and watch Enterprise2") == ("Analyse", "Monitor")  # (the verbs themselves still are)
    text = "Checklist for User1, my own:\n1. User1 shows Activity Exploit.\n2. Enterprise0 is clean.\nWith both true, Remove User1."
    # the note orders a Remove; a compiled Analyse of User1 with no condition is not what it says
    problem = text_problem(text, {"host": "User1"}, _move("Analyse", "User1"))
    assert problem is not None and problem.startswith("verb")


def test_a_state_joined_after_the_conditions_comma_stays_in_the_condition() -> None:
    text = "If Op_Host2 shows no activity at all, and Enterprise1 is owned by the attacker, Restore Enterprise1 first."
    (condition,) = read_wording(text).conditions
    assert "Enterprise1" in condition.hosts and "Op_Host2" in condition.hosts
    assert _holds(text, _alerts(Op_Host2="None/No", Enterprise1="None/User")) is True
    assert _holds(text, _alerts(Op_Host2="None/No", Enterprise1="None/No")) is False  # the joined state is false
    assert _holds(text, _alerts(Op_Host2="Scan/No", Enterprise1="None/User")) is False
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
