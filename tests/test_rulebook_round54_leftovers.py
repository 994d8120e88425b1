"""Round 54 (r54l): readings the last round found wrong and left, each a class.

- a prohibition limited in its own clause by a count or a time ("twice", "more than once", "yet", "first", "only") is no
  plain ban: a bare `never` of the move is refused (forbidding.limited_bans, checks._ban_limited);
- "stop keeping the decoys off <host>" wants the decoys there (forbidding._keeping_turned); "<move> nothing on <host>"
  forbids the move there (forbidding._nothing_moved);
- a host a note marks fine ("ok", a tick) joins no other host's condition (forms.hosts_marked_fine, checks._fine_host_asked,
  forms.marked_moves_said).
Each test fails on the product files of eb74f90 and passes on r54l. Sentences of our own, none from a case file."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.predicate import describe
from forge.rulebook.language.wording import read_wording
from tests.actions import do, never


# -- a ban limited by a count or a time ------------------------------------------------------------------------------------

def test_a_ban_limited_by_a_count_is_no_plain_never() -> None:
    assert text_problem("Never reimage a workstation twice in one run.", {"class": "User"}, never("Restore", "User"))
    assert text_problem("Do not Remove Op_Server0 more than once.", {"host": "Op_Server0"}, never("Remove", "Op_Server0"))
    # the move made before, asked: the count is said
    assert text_problem("Do not Remove Op_Server0 more than once.", {"host": "Op_Server0", "acted": "Remove", "within": 3},
                        never("Remove", "Op_Server0")) is None


def test_a_ban_put_off_for_a_time_is_no_plain_never() -> None:
    assert text_problem("Please do not Restore User3 yet.", {"host": "User3"}, never("Restore", "User3"))
    assert text_problem("No Analyse of Enterprise0 first.", {"host": "Enterprise0"}, never("Analyse", "Enterprise0"))
    # what the ban waits on, asked: the time is said
    assert text_problem("Please do not Restore User3 yet while it shows nothing but a scan.",
                        {"host": "User3", "compromise": "No", "activity": "Scan"}, never("Restore", "User3")) is None
    # a plain ban stays one
    assert text_problem("Never Restore User3.", {"host": "User3"}, never("Restore", "User3")) is None


def test_no_move_only_is_no_ban_of_it() -> None:
    assert text_problem("Enterprise0 rooted: no Remove only.", {"host": "Enterprise0", "compromise": "Privileged"},
                        never("Remove", "Enterprise0"))


# -- keeping a move off, a move of nothing ---------------------------------------------------------------------------------

def test_stop_keeping_a_move_off_a_host_wants_it_there() -> None:
    words = read_wording("Stop keeping the decoys off Op_Host2.")
    assert not words.prohibitions
    assert text_problem("Stop keeping the decoys off Op_Host2.", {"host": "Op_Host2"}, never("DecoyApache", "Op_Host2"))
    # keeping it off, said plainly, still forbids it
    assert read_wording("Keep the decoys off Op_Host2.").prohibitions


def test_a_move_of_nothing_on_a_host_forbids_it_there() -> None:
    words = read_wording("Restore nothing on Enterprise2.")
    assert [(p.verb, p.hosts) for p in words.prohibitions] == [("Restore", ("Enterprise2",))]
    assert text_problem("Restore nothing on Enterprise2.", {"host": "Enterprise2"}, do("Restore", "Enterprise2"))
    # the exception that lets the move is still the order's condition
    assert not read_wording("Restore nothing on Enterprise2 except when it is rooted.").prohibitions


# -- a host marked fine ----------------------------------------------------------------------------------------------------

def test_a_host_marked_fine_joins_no_other_hosts_condition() -> None:
    both = {"all": [{"host": "User3", "compromise": "Privileged"}, {"host": "User4", "compromise": "Privileged"}]}
    assert text_problem("User3 ok, User4 rooted -> Restore User4", both, do("Restore", "User4"))
    assert text_problem("User3 \u2705, User4 rooted -> Restore User4", both, do("Restore", "User4"))
    assert "User3 shows" not in describe(rule_claims("User3 \u2705, User4 rooted -> Restore User4"))
    # a tick after the order's host confirms the move
    assert text_problem("User4 rooted -> Restore User4 \u2705", {"host": "User4", "compromise": "Privileged"},
                        do("Restore", "User4")) is None


# -- a move answered "no", a move listed to avoid --------------------------------------------------------------------------

def test_a_move_answered_no_is_not_ordered() -> None:
    text = "Enterprise0 at root = Restore? Nope, Remove."
    words = read_wording(text)
    assert "Restore" in [p.verb for p in words.prohibitions]
    assert text_problem(text, {"host": "Enterprise0", "compromise": "Privileged"}, do("Restore", "Enterprise0"))


def test_a_move_first_on_a_list_to_avoid_is_forbidden() -> None:
    text = "Once Op_Host1 is exploited, Remove comes first on our list of moves to avoid."
    assert "Remove" in [p.verb for p in read_wording(text).prohibitions]
    assert text_problem(text, {"host": "Op_Host1", "activity": "Exploit"}, do("Remove", "Op_Host1"))


# -- a wish for a revision -------------------------------------------------------------------------------------------------

def test_a_revision_only_wished_for_is_none() -> None:
    from forge.rulebook.language.revision import says_revision

    assert not says_revision("A correction to my Op_Host2 rule would be welcome; Analyse it when scanned.")
    assert says_revision("Correction to my Op_Host2 rule: Analyse it when scanned.")


# -- arrow glyphs, an address before the situation -------------------------------------------------------------------------

def test_an_arrow_glyph_is_an_arrow() -> None:
    from forge.rulebook.authoring.teaching import taught_words

    _, rule = taught_words("Enterprise2 scanned \u279c DecoyTomcat on Enterprise2")
    words = read_wording(rule)
    assert words.situation.strip() == "Enterprise2 scanned" and "DecoyTomcat" in words.order


def test_an_address_before_the_situation_is_no_condition() -> None:
    from forge.rulebook.language.guard import guard_rest

    text = "chooser team, Enterprise2 rooted -> Restore Enterprise2"
    assert read_wording(text).situation == "Enterprise2 rooted"
    assert guard_rest("chooser team", {"host": "Enterprise2", "compromise": "Privileged"}, text) == ""


# -- a phase no reader knows -----------------------------------------------------------------------------------------------

def test_a_phase_no_reader_knows_keeps_the_predicate_from_dropping_it() -> None:
    text = "During the late stage of the run, once Enterprise2 is rooted, Restore Enterprise2."
    rooted = {"host": "Enterprise2", "compromise": "Privileged"}
    assert text_problem(text, rooted, do("Restore", "Enterprise2"))
    assert text_problem(text, rooted, do("Restore", "Enterprise2"), unexpressed="the late stage of the run") is None
    # a phase told in the story is no condition
    assert text_problem("Last time I lost Enterprise2 in the late stage of the run, and it cost us. Restore Enterprise2 once "
                        "it is rooted.", rooted, do("Restore", "Enterprise2")) is None
