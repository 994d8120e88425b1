"""Issue 29, round 53 (r53h): harmful injections on blind-50, by class, probed with sentences of our own. Each test is a
reading that left a rule injected where its own words say it does not apply (or its action the opposite) on 08ab237:
- a move marked with a cross is the move ruled out, a tick only confirms (forms.marked_moves_said);
- ", never while <case>" after an order denies the order in that case (forms._NEVER_WHEN_AFTER_COMMA), and a
  predicate whose own states exclude the denied one expresses it (checks._denial_implied);
- a chat message its speaker edits keeps the situation of the speaker's earlier message (transcript._edit_joined);
- a note's "=" before an order is its arrow between the case and the order (forms._ORDER_GLOSS), so a withdrawn rule
  taught again that way is matched;
- "both" / "either" in a condition are the two hosts the text named before (scope._TWO_REFERRED);
- an override of the teacher's earlier note whose condition holds "too" takes part of it from there (order.py's
  _CONDITION_ELSEWHERE): unknown, silent;
- a state that "gets" a move is the order's situation (clauses._STATE_GETS_MOVE);
- a case's move said to go first is that case's order (order._AS_FAR), so a withdrawn negotiation taught again as a
  list of cases is matched."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.authoring.teaching import taught_words
from forge.rulebook.language.order import condition_elsewhere, gives_order
from forge.rulebook.language.wording import read_wording
from forge.rulebook.store.curation import _same_words
from tests.actions import do, prefer
from tests.situations import refused_rule_holds_on


def test_a_crossed_move_is_ruled_out_and_a_ticked_one_ordered() -> None:
    note = "probe seen on a user box \u27a1 Sleep \u274c, DecoySvchost on that box \u2705"
    words = read_wording(note)
    assert "Sleep" in {p.verb for p in words.prohibitions} | set(words.dispreferred)
    assert "DecoySvchost" not in {p.verb for p in words.prohibitions} | set(words.dispreferred)
    # a compilation that orders the crossed move is the opposite of the note: refused
    assert text_problem(note, {"class": "User", "activity": "Scan"}, do("Sleep")) is not None
    assert text_problem(note, {"class": "User", "activity": "Scan"}, do("DecoySvchost")) is None
    # a cross beside words that already judge the move only stresses them: nothing more is forbidden
    judged = read_wording("U4 at root: a Remove there is wishful thinking \u2718")
    assert not judged.prohibitions


def test_never_while_after_the_order_denies_that_case() -> None:
    note = "Reimage Op_Server0 with a Restore, never while its row reads Unknown"
    # the compilation that fires in the very case the note rules out is refused
    assert text_problem(note, {"host": "Op_Server0", "compromise": "Unknown"}, do("Restore", "Op_Server0")) is not None
    # one whose states exclude that case says the denial, though it names no absence
    held = {"any": [{"host": "Op_Server0", "compromise": "User"}, {"host": "Op_Server0", "compromise": "Privileged"}]}
    assert text_problem(note, held, do("Restore", "Op_Server0")) is None


def test_an_edited_chat_message_keeps_the_situation_it_amends() -> None:
    log = "[08:01] kim: E0 exploited -> Analyse E0\n[08:02] lou: ok\n[08:03] kim: edit: Remove, not Analyse"
    assert taught_words(log)[1] == "E0 exploited -> Remove, not Analyse"
    # an edit whose speaker said no situation before is taught as it stands
    bare = "[08:01] kim: keep an eye on E0\n[08:03] kim: edit: Remove E0"
    assert taught_words(bare)[1] == "Remove E0"


def test_an_equals_sign_before_an_order_is_the_notes_arrow() -> None:
    note = "u2 only Unknown = no Remove on it"
    assert read_wording(note).situation == "u2 only Unknown"
    # kept semantic, the note speaks where User2 sits at Unknown, and not where it is owned
    assert refused_rule_holds_on(note, User2="None/Unknown") is True
    assert refused_rule_holds_on(note, User2="None/User") is False
    # and the same prohibition, withdrawn in plain words, is found in it
    assert _same_words("Never Remove User2 while it only shows Unknown.", note, None)


def test_both_in_a_condition_are_the_two_hosts_named_before() -> None:
    note = "Escalation list: 1. User1 2. User4. Once both are compromised, Restore User1 first."
    assert refused_rule_holds_on(note, User1="None/User", User4="None/Unknown") is False
    assert refused_rule_holds_on(note, User1="None/User", User4="None/User") is True


def test_an_override_whose_condition_holds_too_is_partly_another_notes() -> None:
    assert condition_elsewhere("Exception to my rule above: if Enterprise0 is rooted too, Restore Enterprise0 first.")
    assert refused_rule_holds_on("Exception to my rule above: if Enterprise0 is rooted too, Restore Enterprise0 first.",
                                 Enterprise0="None/Privileged") is not True
    # "too" said of a second state in the note's own condition is read there
    assert not condition_elsewhere("My rule: when User1 shows an exploit while User4 is owned too, Remove User1.")


def test_a_state_that_gets_a_move_is_its_situation() -> None:
    note = "Lesson from last night: a Privileged on User4 gets a Restore, not a Remove."
    assert [c.text for c in read_wording(note).conditions]
    assert text_problem(note, {"host": "User4"}, prefer("Restore", "Remove", "User4")) is not None
    assert text_problem(note, {"host": "User4", "compromise": "Privileged"}, prefer("Restore", "Remove", "User4")) is None


def test_a_move_said_to_go_first_is_an_order() -> None:
    assert gives_order("the Restore of Enterprise1 goes first")
    assert gives_order("a Remove on User3 comes first")
    # a negotiation settled in prose and the same deal as a list of cases are one rule
    prose = ("Chooser: restore Enterprise1 once it is owned. Planner: only while User3 is clean. Settled: when Enterprise1 "
             "is owned and User3 is clean, restore Enterprise1; when both are owned, plan a Remove of User3 first.")
    cases = "What we settled: Enterprise1 owned and User3 clean -> Restore Enterprise1; both owned -> the Remove on User3 goes first."
    assert _same_words(prose, cases, None)


# Outranked rules still injected (their text says they are replaced or outranked):
# - a correction said of the teacher's own note by what it is about revises it (revision._REVISION);
# - a revision that strikes out every host of the earlier rule replaces it (revision.struck_out_in_words), and struck
#   words are no part of the reading (forms.written_out);
# - a host left out of a move's plans is a prohibition of that move on it (forms._LEFT_OUT_OF_MOVE), so the exception
#   compiles and outranks the general order.


def test_a_correction_named_by_its_subject_is_a_revision() -> None:
    from forge.rulebook.language.revision import says_revision

    assert says_revision("Correction to my Op_Host1 note: when it is rooted, Restore Op_Host1.")
    assert says_revision("amend my last: the decoy goes on User4 once it is scanned")
    assert not says_revision("A correction is due on User4 whenever it is rooted: Restore it.")


def test_a_revision_striking_the_earlier_host_replaces_that_rule() -> None:
    from forge.rulebook.language.revision import struck_out_in_words

    earlier, later = "Plan a DecoySSHD on User1 when it is scanned.", "amend my last: DecoySSHD ~~User1~~ User4 when it is scanned"
    assert struck_out_in_words(earlier, later)
    assert read_wording(later).hosts == ("User4",)
    # a revision that strikes out another host leaves this rule standing
    assert not struck_out_in_words("Plan a DecoySSHD on User2 when it is scanned.", later)


def test_a_host_left_out_of_a_moves_plans_is_forbidden_that_move() -> None:
    note = "We lost the mail relay last time. Lesson: leave User0 out of any Restore plan, whatever it shows."
    words = read_wording(note)
    assert [(p.verb, p.hosts) for p in words.prohibitions] == [("Restore", ("User0",))]
    assert text_problem(note, {"host": "User0"}, {"mode": "never", "verb": "Restore", "target": "User0"}) is None
