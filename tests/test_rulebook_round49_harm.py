"""Issue 29, round 49 (r49h: harm on blind-46, each class a reading that left out part of the rule's own words, so a
compilation wider than the words passed the product's checks, a rule kept semantic fired where its words say it does not
apply, or a withdrawn rule retold in other words came back).
- a count whose "or more" follows the hosts it counts ("three rooted op boxes or more"), or whose hosts are said "owned"
  before their class ("two owned user machines"), is the count: read as one host, a predicate of one such host passed
  (`shorthand._OR_MORE_AFTER`, `general_claims.COUNT`);
- the defender's move said as its plan or choice, "just after I plan a Remove of a box", is a condition on its last move
  (history), as "just after we removed it" is: read as no condition, the state after it held the rule at any step
  (`markers.PLANNED`, `markers.DEFENDER_MOVED`, `history_words._ACTED`, `facts.FACTS`);
- a scope naming the host at hand with its state, "For the machine under inspection at root, ...", is the condition, as
  "For a host at root, ..." is: read as none, the claims took their state from the answer the order turns down
  ("instead of reporting it quiet"); and "every host you analyse" is the one host of each analysis, not all hosts at once
  (`clauses.conditions_in`, `shorthand._AT_HAND_DETERMINER`);
- a heading before a colon that states nothing and names no host, class or move ("Following up on dan's R-7:") leaves
  the situation after the colon as the note's situation (read as a story for its "-ing", the order stood with no
  condition) (`instruction._situation_told_first`);
- a move said not to keep up falls short, a reason, whether its clause stays in the order's sentence or not: two
  wordings of one rule, and a withdrawn rule so retold came back (`forbidding.FALLS_SHORT`, `condition.words_key`).
Each test fails on the product files of 9f30320 and of dc4312c (the language split; checked: this file run in a tree of each). Sentences of
our own, none from a case file."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.wording import read_wording
from forge.rulebook.store.curation import _same_words
from tests.actions import do
from tests.situations import alert_lines, refused_rule_holds, refused_rule_holds_on


def test_a_count_with_its_or_more_after_the_hosts_is_the_count() -> None:
    for text, cls, one, two in (
            ("Three rooted op boxes or more -> Restore each rooted one.", "Operational",
             {"Op_Host1": "None/Privileged"}, {"Op_Host1": "None/Privileged", "Op_Host2": "None/Privileged",
                                               "Op_Server0": "None/Privileged"}),
            ("With two owned user machines, restore the owned ones before anything else.", "User",
             {"User3": "None/User"}, {"User3": "None/User", "User1": "None/User"})):
        # one host of the class is wider than the words
        assert text_problem(text, {"class": cls, "compromise": "any" if cls == "User" else "Privileged"},
                            do("Restore", "$matched")) is not None, text
        assert refused_rule_holds_on(text, **one) is False, text
        assert refused_rule_holds_on(text, **two) is True, text


def _two_moves(earlier: str, latest: str) -> str:
    """The defender's last two moves (a reward each), User2 at Unknown now."""
    moves = " | ".join(f"step {n}: {move} -> reward -0.2" for n, move in ((6, earlier), (7, latest)))
    return f"Recent steps: {moves}\n" + alert_lines(User2="None/Unknown")


_UNKNOWN_AFTER_REMOVE = _two_moves("Monitor", "Remove User2")
_UNKNOWN_AFTER_MONITOR = _two_moves("Remove User2", "Monitor")


def test_a_move_the_defender_planned_is_its_last_move() -> None:
    for text in ("Just after I plan a Remove of a user box and its row turns Unknown, follow with an Analyse on that box.",
                 "Right after we picked a Remove of User2, if it sits at Unknown, schedule an Analyse on it."):
        assert read_wording(text).conditions, text
        assert refused_rule_holds(text, _UNKNOWN_AFTER_REMOVE) is True, text
        # the host at Unknown a step after another move: not the step after the planned Remove
        assert refused_rule_holds(text, _UNKNOWN_AFTER_MONITOR) is not True, text


def test_a_scope_naming_the_host_at_hand_with_a_state_is_the_condition() -> None:
    for text in ("For the machine under inspection at Privileged, suggest a Restore instead of reporting it quiet.",
                 "For the box being examined at Unknown, recommend one more Analyse instead of declaring it clean."):
        assert read_wording(text).conditions, text
    text = "For the machine under inspection at Privileged, suggest a Restore instead of reporting it quiet."
    assert refused_rule_holds_on(text, Enterprise1="None/Privileged") is True
    assert refused_rule_holds_on(text, Enterprise1="Scan/No") is False
    other = "For the box being examined at Unknown, recommend one more Analyse instead of declaring it clean."
    assert refused_rule_holds_on(other, User3="Scan/No") is False
    assert refused_rule_holds_on(other, User3="None/Unknown") is True
    # "every machine you inspect" is the one host of each inspection, not every host at once
    each = "For every machine you inspect at Privileged, suggest a Remove."
    assert refused_rule_holds_on(each, User1="None/Privileged") is True
    assert refused_rule_holds_on(each, User1="None/User") is False


def test_a_heading_that_states_nothing_leaves_the_situation_after_its_colon() -> None:
    text = "Following up on dan's R-7: for Op_Host1 that move stands only while Op_Host1 reads Privileged; then Restore Op_Host1."
    assert any("Privileged" in c.text for c in read_wording(text).conditions)
    # the host at another level: the words say the rule does not hold there
    assert refused_rule_holds_on(text, Op_Host1="None/User") is not True
    # a heading that names a host or a state is read as ever
    assert read_wording("Op_Host1 owned: Restore it.").conditions


def test_a_move_that_cannot_keep_up_falls_short_in_either_wording() -> None:
    withdrawn = "Once at least three enterprise servers are held, restore each held server; a plain Remove does not keep up."
    assert "Remove" in read_wording(withdrawn).dispreferred
    assert _same_words(withdrawn, "Three owned enterprise servers or more -> Restore each owned server, a Remove can't keep pace", None)
    # another order is another rule
    assert not _same_words(withdrawn, "Three owned enterprise servers or more -> Remove each owned server, a Restore can't keep pace", None)
