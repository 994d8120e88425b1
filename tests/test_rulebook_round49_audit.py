"""Issue 29, round 49 (r49a: a review of r49h's new readings for over-breadth). Each class is a reading that made a rule
wider than its words, or read a condition its words disown:
- the "or more" of a second count, "two user hosts or more than one op host", is no "or more" of the first: written
  before the first count's hosts it made "two or more user hosts than ..." (`shorthand._OR_MORE_AFTER`);
- a plan said in the present after "once" / "since", "once you choose a Remove for it, analyse it instead", is the
  choice being made, no move made: read as one (r49h's `markers.PLANNED` in `history_words._ACTED`), the rule held
  only in the steps after a Remove of the host (`markers.PLANNED_MADE`);
- a heading before the situation that disowns what follows ("Myth:", "Retracted:") keeps it no situation of the note,
  and one that restricts it ("Late game only:") stays part of its condition (r49h's skipped every heading that named no
  host, class, move or state: the myth became the condition, the restriction was dropped)
  (`instruction._situation_told_first`, `_DISOWNED_HEADING`, `forbidding.MEANS_DISOWNED`);
- two rules that put the same move aside (a move that "can't keep up", "won't work", or one ordered "rather than" it)
  but order different moves are two rules: the withdrawal check read both as one prohibition and refused the other
  rule as the withdrawn one (`curation._other_orders`; older, widened by r49h's "keep up").
The first three tests fail on the product files of cbc582c (r49h merged; its parent 8a3549d has the same product
files), the last on cbc582c and on dc4312c for its "rather than" pair (checked: this file run in a `git archive` tree of
each). Sentences of our own, none from a case file."""

from __future__ import annotations

from forge.rulebook.language.shorthand import plus_as_or_more
from forge.rulebook.language.wording import read_wording
from forge.rulebook.store.curation import _same_words
from tests.situations import alert_lines, refused_rule_holds, refused_rule_holds_on


def test_the_or_more_of_a_second_count_stays_with_it() -> None:
    for text in ("If two user hosts or more than one op host are owned, restore the op hosts.",
                 "When three boxes or more of the servers show an exploit, decoy the rest."):
        assert plus_as_or_more(text) == text, text
    # its own "or more", after the hosts it counts, is still the least count (r49h)
    assert plus_as_or_more("Once two op hosts or more are rooted, restore them.") == \
        "Once two or more op hosts are rooted, restore them."


def _last_moves(earlier: str, latest: str) -> str:
    """The defender's last two moves, User2 at Unknown now."""
    moves = " | ".join(f"step {n}: {move} -> reward -0.1" for n, move in ((8, earlier), (9, latest)))
    return f"Recent steps: {moves}\n" + alert_lines(User2="None/Unknown")


def test_a_plan_in_the_present_after_once_is_no_move_made() -> None:
    after_remove = _last_moves("Monitor", "Remove User2")
    for text in ("Once you choose a Remove for User2 while it reads Unknown, analyse it instead.",
                 "Once you plan a Remove on User2 while it reads Unknown, swap it for an Analyse."):
        # the Remove is the one being chosen: a step after a Remove made is not what the words name
        assert refused_rule_holds(text, after_remove) is not True, text
    # the plan said in the past is the move made (r49h)
    made = "Once we picked a Remove of User2 and it still reads Unknown, analyse it."
    assert refused_rule_holds(made, after_remove) is True
    assert refused_rule_holds(made, _last_moves("Monitor", "Monitor")) is not True


def test_a_heading_that_disowns_or_restricts_is_not_dropped() -> None:
    for text in ("Myth: User2 sits at Privileged here. Restore User2 anyway.",
                 "Retracted: User2 sits at Privileged here. Restore User2 anyway."):
        assert not read_wording(text).conditions, text
    # a restriction no table shows: the host at Privileged is not enough to say the rule holds
    limited = "Late game only: User2 sits at Privileged. Restore User2."
    assert refused_rule_holds_on(limited, User2="None/Privileged") is not True
    assert any("only" in c.text for c in read_wording(limited).conditions)
    # a heading that states nothing still leaves the situation after it (r49h)
    plain = "Follow-up: User2 sits at Privileged. Restore User2."
    assert refused_rule_holds_on(plain, User2="None/Privileged") is True
    assert refused_rule_holds_on(plain, User2="None/User") is False


def test_rules_that_put_one_move_aside_for_different_moves_are_two_rules() -> None:
    for first, second in (("When Op_Host1 reads Privileged, Remove can't keep up, restore it.",
                           "When Op_Host1 reads Privileged, Remove can't keep up, decoy it."),
                          ("With Op_Host1 at Privileged, restore the box rather than removing it.",
                           "With Op_Host1 at Privileged, decoy the box rather than removing it.")):
        assert not _same_words(first, second, None), (first, second)
    # one order with its reason said two ways is one rule
    assert _same_words("With Op_Host1 at Privileged, restore the box rather than removing it.",
                       "When Op_Host1 reads Privileged, Remove won't help; restore it.", None)
    assert _same_words("Restore Op_Host1 when it reads Privileged; a Remove can't keep up.",
                       "Restore Op_Host1 when it reads Privileged.", None)
