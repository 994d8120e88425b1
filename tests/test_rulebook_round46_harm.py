"""Issue 29, round 46 (r46h: harm on blind-43, each class a reading wider than the rule's own words).
- a note's "held" with no verb before it ("E2 and E3 both held -> ...") was no state: the hosts were only named, the
  claims held where either was shown, and a compiled predicate held to them was met by a row at Unknown
  (`situation._PROSE_COMPROMISE`);
- "=" before one of the table's values after a host's row ("E1 row = Unknown") was read as a gloss ("means"), and the
  host was claimed with no state (`forms._equals_said`);
- a condition on what the Planner's plan names ("when the plan line says Restore E1") was no condition at all: the rule
  fired on the host's state alone, where the plan named another move or there was no plan (`judged.PlanSays`);
- a move said to cost a lot ("Restore costs a lot", "a Remove is expensive") was not put aside: a rewording of a
  withdrawn rule that disprefers it was another rule (`forbidding._COSTLY`);
- "For <scope> the <fix> is X, so <order>" dropped its scope with the judgement before "so": the order held for every
  host, and a withdrawn rule taught again so worded was not found (`order._SCOPED_REASON`).
Each test fails on the product files of 38c08b5 (checked: this file run in a `git archive 38c08b5` tree). Sentences of
our own, none from a case file."""

from __future__ import annotations

from forge.rulebook.language.judged import judged_in
from forge.rulebook.language.situation import read_situation
from forge.rulebook.language.wording import read_wording
from forge.rulebook.store.curation import _same_words
from tests.situations import alert_lines, refused_rule_holds


def test_a_notes_held_with_no_verb_is_a_compromise_of_each_host() -> None:
    text = "E0 & E1 both held => Restore E1, then E0"
    assert refused_rule_holds(text, alert_lines(Enterprise0="None/User", Enterprise1="None/Privileged")) is True
    assert refused_rule_holds(text, alert_lines(Enterprise0="None/User", Enterprise1="None/No")) is False  # both, not either
    assert refused_rule_holds(text, alert_lines(Enterprise0="None/User", Enterprise1="None/Unknown")) is not True  # held for sure
    assert refused_rule_holds("Op_Host1 held -> Remove it", alert_lines(Op_Host1="Scan/No")) is False


def test_equals_before_a_table_value_is_what_the_row_reads() -> None:
    text = "E1 row = Unknown => Analyse E1 at once"
    assert refused_rule_holds(text, alert_lines(Enterprise1="None/Unknown")) is True
    assert refused_rule_holds(text, alert_lines(Enterprise1="None/User")) is False
    (condition,) = read_wording("Op_Host0 activity = Exploit -> Restore Op_Host0").conditions
    assert "Exploit" in condition.text and "means" not in condition.text
    # (a gloss of a state in other words is still what the state means)
    assert "means" in read_wording("Op_Host2 hit = game over -> Restore Op_Host2").text


def _planner(plan: str = "") -> str:
    situation = "Situation (from the Planner): Enterprise1 shows Activity None, Compromised User"
    return f"{situation}; plan: {plan}\n\n{alert_lines(Enterprise1='None/User')}" if plan else f"{situation}\n\n{alert_lines(Enterprise1='None/User')}"


def test_a_condition_on_what_the_planners_plan_names_is_judged() -> None:
    (said,) = judged_in("whenever the plan line says Restore E1 and its row reads User")
    cases = {"Restore Enterprise1 now, Analyse Op_Host0 after": True, "Analyse Enterprise1 first": False,
             "Remove Op_Host0, then Restore Enterprise1": True, "": False}
    for plan, expected in cases.items():
        context = _planner(plan)
        assert said.value(context, read_situation(context)) is expected, plan
    assert said.value(alert_lines(Enterprise1="None/User"), read_situation(alert_lines(Enterprise1="None/User"))) is None
    (quoted,) = judged_in("if the Planner's plan already names 'Remove Op_Host2'")
    assert (quoted.verb, quoted.host) == ("Remove", "Op_Host2")
    assert judged_in("if the plan does not say Restore E1") == ()  # a denial is not what the plan names


def test_a_move_said_to_cost_a_lot_is_put_aside() -> None:
    assert "Restore" in read_wording("Restore costs a lot of time. cheapest cure for an ent box @ User = Remove. do that").dispreferred
    assert "Remove" in read_wording("A Remove is expensive here; on Op_Host1 pick an Analyse instead of it.").dispreferred
    # (a cost the text accepts, or a move said to cost less, is put aside by nobody)
    assert "Restore" not in read_wording("A Restore is expensive, but on Op_Server0 it pays: Restore Op_Server0.").dispreferred
    assert "Analyse" not in read_wording("On User2 an Analyse costs much less; plan an Analyse of User2.").dispreferred


def test_a_scope_before_the_judgement_heads_the_order_after_so() -> None:
    text = "For an ent server that sits at user level the quickest cure is a Remove, so pick Remove over Restore."
    words = read_wording(text)
    assert words.classes == ("Enterprise",) and len(words.conditions) == 1
    assert refused_rule_holds(text, alert_lines(Enterprise0="None/User")) is True
    assert refused_rule_holds(text, alert_lines(User1="None/User")) is not True
    # a rule withdrawn earlier, taught anew in these words, is the same rule (curation refuses it)
    withdrawn = "Restore costs a lot. quickest cure for an ent box @ User = Remove. pick that"
    assert _same_words(withdrawn, text, None)
    assert not _same_words("Restore costs a lot. quickest cure for a usr box @ User = Remove. pick that", text, None)
