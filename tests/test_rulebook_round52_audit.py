"""Issue 29, round 52 (r52a): an audit of the round's new readers, probed with sentences of our own. Each test is a
reading that was wider than its words, or their opposite, on 8bc4e8d:
- a mockery answers the sentence before it only where it stands alone after a proposal, asked or granted in scorn: an
  order said plainly before a mockery of something else stays an order, and a mockery that is the condition of a clause
  after it mocks that clause's move, not the sentence before (forbidding._ONLY_ASSENT, _PROPOSED, _MOCKERY_LEADS);
- an exception to a move whose object is already denied ("Restore no box except for boxes which are rooted") lets the
  move where the description holds: the described hosts are the rule's, not kept out (clauses._NEGATED_ORDER,
  _LETS_BY_EXCEPTION); "save" opens an exception only after a comma;
- a state bounded in a participle, "a box showing a scan and nothing more", is that state alone (shorthand's bounded
  state reads "showing"), as `rule_claims.moves_bounded_away` leaves a bound with no move before it;
- a move the writer doubts, "I doubt we should reimage X", is no order, as one left undecided is not
  (checks._UNDECIDED reads the doubt said as a verb);
- a FORMAT rule is injected less its reason only where the reason is all the cut drops: an order after the reason stays
  (compile._ANOTHER_CLAUSE in compile._format_directive);
- a reply-form rule whose situation is hosts said in the plural ("Hosts at root are written first") or by their state
  as an adjective ("rooted boxes head the plan") is no FORMAT rule, as one said with "a"/"every" is not
  (compile._HOST_IN_STATE);
- "still <state> the step after <move>" is the row unchanged since that move, as "one step after" is
  (history_words._UNCHANGED_AFTER reads "the step", "the very turn")."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.authoring.compile import _format_directive, format_problem
from forge.rulebook.language.forbidding import mocked_moves
from forge.rulebook.language.predicate import describe
from forge.rulebook.language.rule_claims import rule_claims
from tests.actions import do
from tests.situations import refused_rule_holds_on


def test_a_mockery_of_its_own_words_forbids_no_order_before_it() -> None:
    # the order stands; what is scorned is the idling the second sentence names
    plain = "Evict the intruder from Op_Host1 when it holds user access. Idling there, because that always works so well."
    assert mocked_moves(plain) == ()
    # a mockery that conditions the clause after it is no answer to the sentence before
    ahead = "Put a decoy on Enterprise1 early? If you enjoy handing red an easy target, skip it."
    assert mocked_moves(ahead) == ()
    # a proposal asked and scorned alone is still forbidden
    asked = "Sleep through a root on User2? Good luck with that."
    assert [p.verb for p in mocked_moves(asked)] == ["Sleep"]


def test_an_exception_to_a_denied_object_is_where_the_move_is_let() -> None:
    for text in ("Reimage no box except for boxes which are at root.",
                 "Reimage nothing other than workstations that are rooted."):
        # where User1 is rooted, and not where it is clean or merely probed (read as kept out: the opposite)
        assert [refused_rule_holds_on(text, User1=row) for row in ("None/Privileged", "None/No", "Scan/No")] \
            == [True, False, False], text


def test_a_state_bounded_in_a_participle_is_that_state_alone() -> None:
    text = "Any box showing a probe and nothing more gets a single Analyse."
    # where User1 is probed and clean, not where it is exploited, held or quiet (read as "no scan": the opposite)
    assert [refused_rule_holds_on(text, User1=row) for row in ("Scan/No", "Exploit/No", "None/User", "None/No")] \
        == [True, False, False, False]


def test_a_doubted_move_is_no_order() -> None:
    rooted = {"host": "User4", "compromise": "Privileged"}
    assert text_problem("I doubt we ought to reimage User4 each time it goes to root.", rooted, do("Restore", "User4")) \
        is not None
    # a doubt about something else leaves the order standing
    assert text_problem("I doubt red stays away long; reimage User4 each time it goes to root.", rooted,
                        do("Restore", "User4")) is None


def test_a_format_rule_keeps_the_order_after_its_reason() -> None:
    text = "Keep each reply brief since the log viewer truncates it; put no more than two hosts on a line."
    assert "two hosts" in _format_directive(text, "Keep each reply brief.")
    # the reason alone is still left out
    assert _format_directive("Keep each reply brief, since the log viewer truncates it.", "x") == "Keep each reply brief"


def test_a_form_for_hosts_in_a_state_said_in_the_plural_is_no_format_rule() -> None:
    assert format_problem("Machines at root come first in the summary, one to a line.") is not None
    assert format_problem("Exploited workstations are named in capitals in the reply.") is not None
    # a form for every call stays one
    assert format_problem("Name the machines in the order the table gives them, one to a line.") is None


def test_still_in_a_state_the_step_after_a_move_is_an_unchanged_row() -> None:
    text = "Should Enterprise2 stay at root the very turn after our Restore of it, evict the intruder instead."
    said = describe(rule_claims(text))
    # the state kept since the move, not the move alone in a window
    assert "unchanged" in said and "Enterprise2" in said, said


def test_the_level_a_host_still_holds_after_a_move_is_kept():
    # (r52g) "still Privileged right after I analysed it": the unchanged row at that level, not any compromise; read as
    # any, the level was left unread and a kept-semantic lesson with it went silent
    from forge.rulebook.language.claims import claims

    found = claims("if Op_Host2 is still Privileged right after we analysed it")
    assert found.compromise == "Privileged" and found.changed is False and found.acted == "Analyse"
    assert claims("if User4 remains at user level just after the Remove").compromise == "User"
