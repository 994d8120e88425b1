"""Issue 29, round 46 (r46b): four readings of a rule's words found wider than them or their opposite by the review
audit, each fixed as a class in the product.
- a host given a case of its own only to be left alone ("...; otherwise, if it is User3, leave it be", "... - but for
  User3, hands off") was a rung of its own: the order before it was checked alone, and its move on that host passed
  (`forbidding.LEFT_ALONE_CASE`, read as "except <host>"; `forbidding.first_rung` skips such a rung);
- a value of the table denied of a host ("<host> row = not Unknown", "if E1 does not read 'Compromised User'") left the
  host with no state: the "= not <value>" was a gloss (`forms._TABLE_VALUE_ALONE`), the "does not" cut the condition
  as an order (`markers._subjects_denial`);
- the step after a move put out of the order ("..., but not the step after you removed it") was dropped at its comma
  (`forms._STEP_AFTER_DENIED`, said as "unless it is the step after ...", which history_words reads);
- the omission of a move said to cost ("not restoring is expensive", "skipping the Remove of it costs us") was read as
  the move forbidden or put aside (`forbidding._omission_costly`, with `_move_put_off`).
Each test fails on the product files of 4cbf441 (checked: this file run in a `git archive 4cbf441` tree). Sentences of
our own, none from a case file."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.condition import semantic_claims
from forge.rulebook.language.said import said_in_words
from forge.rulebook.language.wording import read_wording
from tests.situations import refused_rule_holds_on

REFUSED = "predicate refused: a check"


def test_a_host_left_alone_in_a_case_of_its_own_is_the_orders_exception() -> None:
    remove_it = {"mode": "do", "verb": "Remove", "target": "User3"}
    for text in ("Remove each owned user desktop; otherwise, if it is User3, leave it be.",
                 "Remove each user desktop once it is compromised - but for User3, hands off.",
                 "Remove each compromised user desktop. Else, if it's User3, let it be."):
        assert text_problem(text, {"host": "User3", "compromise": "any"}, remove_it) is not None, text
        assert refused_rule_holds_on(text, User3="None/User") is not True, text
        assert refused_rule_holds_on(text, User1="None/User") is True, text


def test_a_table_value_denied_of_a_host_is_read_as_denied() -> None:
    for text in ("Op_Host2 row = not Unknown -> Restore Op_Host2",
                 "Restore Enterprise0 if Enterprise0 does not read 'Compromised User'",
                 "Put a decoy on Enterprise0 when Enterprise0 doesn't show an exploit"):
        assert refused_rule_holds_on(text) is not True, text  # no state asked of the host was the rule for every table


def test_the_step_after_a_move_put_out_of_the_order_is_excluded() -> None:
    for text in ("Analyse User4 whenever it is compromised, but not in the step after you removed it.",
                 "Analyse User4 whenever it is compromised, not the turn after we removed it."):
        found = semantic_claims(text, REFUSED, text)
        assert found is not None and "Not(part=Atom(host='User4'" in repr(found) and "acted='Remove'" in repr(found), text


def test_the_cost_of_not_making_a_move_urges_it() -> None:
    for text in ("Not restoring is expensive: restore any op host that is owned.",
                 "Never restoring an owned op host costs us dearly; restore it."):
        assert "Restore" not in read_wording(text).dispreferred, text
        assert not any(p.verb == "Restore" for p in read_wording(text).prohibitions), text
        said = said_in_words(text)
        assert said is None or said[1].mode != "never", text
    # (the move forbidden for its cost stays forbidden)
    assert any(p.verb == "Restore" for p in read_wording("Do not restore Op_Host2 as it is costly.").prohibitions)
