"""Issue 29, round 46 review audit (r46a): this round's new readings probed for over-breadth, each class a reading wider
than its words or the opposite of them, narrowed in the product.
- a level "or above" took a word of compromise from another host's clause ("U1 not compromised, E0 user-level or
  worse"): the level was dropped and E0 was claimed with no state (`shorthand.own_clause`);
- a comparison of two classes' counts under a denial ("no more ... than", "never more ... than") was read as made
  (`claims._COMPARISON_DENIED`);
- a cost or waste said of a move's delay or omission ("holding off on a Restore is costly"), a cost the sentence accepts
  ("..., yet it pays") or a move said to cost "a lot less" put the move aside: the opposite of the words
  (`forbidding._move_put_off`, `forbidding._cost_accepted`);
- an "all <class> boxes" heading whose order names a host of its own ("... decoy Op_Server0 before it falls") was read as
  any one of the class (`scope._every_one_heading`);
- a rest that states another host's history was dropped as the predicate's own (`guard._history_restated`);
- a ladder ("If ..., X; otherwise, if ..., Y") was checked as one case, so a compilation pairing one rung's condition with
  the other rung's move passed (`forbidding.first_rung`, `checks.text_problem`);
- "nothing ... on it except a scan" was read as no activity at all (`shorthand.nothing_on_it_said`);
- a move the Planner's plan names only to put it aside ("Analyse E1 rather than Restore E1") counted as named
  (`judged.PlanSays`);
- the "than" of the condition's own comparison ("no more than a scan") was taken for a "rather ... than" alternative
  (`markers._rather_than_end`);
- a scope before a judgement ("For a user host the usual fix is a Remove, so ...") was put on an order that names its own
  host (`order.so_order`).
Each test fails on the product files of 88aa8d2 (checked: product files of 88aa8d2 restored over this branch, this file
run). Sentences of our own, none from a case file."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.claims import claims
from forge.rulebook.language.guard import guard_rest
from forge.rulebook.language.judged import PlanSays
from forge.rulebook.language.predicate import parse_predicate, truth
from forge.rulebook.language.said import said_in_words
from forge.rulebook.language.situation import read_situation
from forge.rulebook.language.wording import read_wording
from tests.situations import every_host_alert_lines, refused_rule_holds_on


def test_a_level_or_above_takes_no_compromise_from_another_hosts_clause() -> None:
    text = "U1 not compromised, E0 user-level or worse => Restore E0"
    assert refused_rule_holds_on(text) is not True  # E0 quiet: the level is not met
    assert refused_rule_holds_on(text, Enterprise0="None/User") is True
    assert refused_rule_holds_on("Op_Host1 owned at user level or higher -> Restore it", Op_Host1="None/Privileged") is True


def test_a_denied_comparison_of_two_classes_is_not_read_as_made() -> None:
    context = read_situation(every_host_alert_lines(User0="None/User", Op_Host0="None/User", Op_Host1="None/User"))
    for said in ("no more held on the op side than on the user side", "the op side never has more hosts held than the user side"):
        found = claims(said)
        assert found is None or truth(found, context) is not True, said
    assert truth(claims("more held on the op side than on the user side"), context) is True


def test_a_cost_of_delaying_a_move_does_not_put_the_move_aside() -> None:
    for text in ("Holding off on a Restore is costly: restore any op host the moment it is owned.",
                 "A Restore is expensive, yet it pays on an owned op host: restore it.",
                 "A Restore costs a lot less than a lost op host: restore any op host that is owned."):
        assert "Restore" not in read_wording(text).dispreferred, text
        said = said_in_words(text)
        assert said is None or said[1].mode != "never", text
    # (the move itself said to cost too much is still put aside)
    assert "Remove" in read_wording("A Remove is expensive on the user side; Analyse such a box instead.").dispreferred


def test_an_all_heading_whose_order_names_its_own_host_is_every_host_at_once() -> None:
    text = "all user boxes owned: decoy Op_Server0 before it falls"
    assert refused_rule_holds_on(text, User1="None/User") is not True
    assert refused_rule_holds_on(text, **{f"User{i}": "None/User" for i in range(5)}) is True


def test_a_rest_with_another_hosts_history_still_guards() -> None:
    fresh = parse_predicate({"host": "User1", "compromise": "any", "newly_compromised": True})
    assert guard_rest("Op_Server0 was clean one turn before", fresh)
    assert guard_rest("every op host clean last turn", fresh)
    assert guard_rest("clean previous step", fresh) == ""  # its own history, said again


def test_a_ladders_compilation_is_held_to_one_rung() -> None:
    text = "If Enterprise1 is owned, Restore it; otherwise, if a scan is all it shows, put a DecoyApache on it."
    restore = {"mode": "do", "verb": "Restore", "target": "Enterprise1"}
    scanned = {"host": "Enterprise1", "activity": "Scan", "compromise": "No"}
    assert text_problem(text, scanned, restore) is not None  # the Restore is the owned rung's, not the scanned one's
    assert text_problem(text, {"any": [{"host": "Enterprise1", "compromise": "any"}, scanned]}, restore) is not None
    assert text_problem(text, {"host": "Enterprise1", "compromise": "any"}, restore) is None


def test_nothing_on_it_but_one_activity_is_not_a_quiet_row() -> None:
    text = "When Enterprise1 is at root and nothing is happening on it except a scan, Restore it."
    assert refused_rule_holds_on(text, Enterprise1="None/Privileged") is not True


def test_a_move_the_plan_puts_aside_is_not_one_it_names() -> None:
    said = PlanSays("plan", "Restore", "Enterprise1")
    for plan, named in (("Analyse Enterprise1 rather than Restore Enterprise1", False), ("do not Restore Enterprise1, Analyse it", False),
                        ("Remove Op_Host0, then Restore Enterprise1", True)):
        context = (f"Situation (from the Planner): Enterprise1 shows Activity None, Compromised User; plan: {plan}\n\n"
                   + every_host_alert_lines(Enterprise1="None/User"))
        assert said.value(context, read_situation(context)) is named, plan


def test_the_than_of_a_comparison_in_the_condition_is_no_alternative() -> None:
    text = "I would sooner Remove User1 while it shows no more than a scan."
    assert refused_rule_holds_on(text, User1="Scan/No") is True
    assert refused_rule_holds_on(text, User1="Exploit/User") is not True


def test_a_reasons_scope_is_not_put_on_an_order_with_its_own_host() -> None:
    text = "For a user host the usual fix is a Remove, so restore Op_Server0 if it gets owned."
    assert "user host" not in read_wording(text).instruction
    assert refused_rule_holds_on(text, Op_Server0="None/User") is True


def test_what_the_analyses_report_absent_is_no_evidence_asked() -> None:
    from forge.rulebook.language.judged import judged_in

    assert judged_in("the analyses for this step say there is no reverse shell on it") == ()
    (rating,) = judged_in("the analyses for this step say 'Risk: low' of it")
    assert rating.kind == "risk"


def test_hosts_that_held_out_are_not_held_by_the_attacker() -> None:
    text = "E0 and E1 each held on -> DecoyApache on E0"
    assert refused_rule_holds_on(text) is not False  # two quiet hosts that resisted: no hold of the attacker's is asked
    assert refused_rule_holds_on("E0 & E1 both held => Restore E1, then E0", Enterprise0="None/User", Enterprise1="None/User") is True


def test_as_long_as_it_stays_so_and_more_keeps_the_more() -> None:
    text = "Restore E1 while it is owned, so long as it remains that way and Op_Server0 is clean"
    assert refused_rule_holds_on(text, Enterprise1="None/User", Op_Server0="None/User") is not True  # the server's state is asked too
    assert refused_rule_holds_on("Restore E1 while it is owned, as long as it remains so.", Enterprise1="None/User") is True


def test_so_long_as_opens_a_condition_not_a_reason() -> None:
    text = "Restore E1 while it is owned, so long as Op_Server0 is clean"
    assert refused_rule_holds_on(text, Enterprise1="None/User", Op_Server0="None/User") is not True
    assert refused_rule_holds_on(text, Enterprise1="None/User") is True
