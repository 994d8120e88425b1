"""Round 61 (r61m): blind-58's missed injections, by class; each reader with the neighbours it must leave alone."""
from __future__ import annotations

from forge.rulebook.language.condition import semantic_claims
from forge.rulebook.language.names import expand_ranges, hosts_in
from forge.rulebook.language.order import condition_elsewhere, gives_order
from forge.rulebook.language.predicate import AnyOf, atoms_of
from forge.rulebook.language.wording import read_wording


# -- the Analyst's verdict, then its recommendation (markers.IMPERATIVE_START) ------------------------------------------

def test_say_what_the_host_is_and_recommend_a_move_is_an_order():
    assert gives_order("For a workstation reading Unknown, say it may still be held and recommend an Analyse.")
    assert gives_order("say so, then suggest a DecoyFemitter on it")
    text = ("My report on Enterprise2 called it safe on a stale row. Lesson: on an enterprise box at Unknown, say that it "
            "is unconfirmed and recommend an Analyse.")
    assert "recommend an Analyse" in read_wording(text).instruction


def test_say_as_a_case_put_is_still_no_order():
    # guard: "say it is rooted -> ..." puts a case; a verdict with no move after it orders nothing
    assert not gives_order("say it is rooted -> Restore it")
    assert not gives_order("say it is clean.")


# -- host names: a class's short word with its number apart, ranges in words, slashes (names.py) -----------------------

def test_a_short_class_word_with_its_number_apart_names_the_host():
    assert hosts_in("usr three and ent one are probed") == ("User3", "Enterprise1")
    assert hosts_in("ent 2 owned") == ("Enterprise2",)


def test_a_short_class_word_after_a_determiner_is_no_host():
    # guard: "any ent one" is some enterprise host, "the usr one" the pronoun
    assert hosts_in("any ent one that is probed") == ()
    assert hosts_in("the usr one we spoke of") == ()


def test_a_range_in_number_words_lists_its_hosts():
    assert hosts_in("enterprises zero to two: DecoyApache on each") == ("Enterprise0", "Enterprise1", "Enterprise2")
    assert hosts_in("Users one through three are fine") == ("User1", "User2", "User3")


def test_hosts_listed_with_slashes_are_each_named():
    assert hosts_in("op host 1/2 hacked -> Remove it") == ("Op_Host1", "Op_Host2")
    assert expand_ranges("U0/U4 probed") == "User0 or User4 probed"


def test_a_slashed_number_with_no_such_host_is_left_as_written():
    # guard: Op_Host3 is no CAGE-2 host, and a step's fraction is no host at all
    assert hosts_in("op host 1/2/3 hacked") == ("Op_Host1",)
    assert hosts_in("at step 2/3 we waited") == ()


# -- "ditto <host>" after a one-host case (forms.ellipsis_filled) -------------------------------------------------------

def test_ditto_a_host_repeats_the_case_for_that_host():
    claims = semantic_claims("E0 probed -> DecoyTomcat. ditto E2.")
    assert isinstance(claims, AnyOf)
    assert {atom.host for atom, _ in atoms_of(claims)} == {"Enterprise0", "Enterprise2"}
    assert read_wording("Op_Host0 hit: Analyse. Same for Op_Host1.").hosts == ("Op_Host0", "Op_Host1")


def test_ditto_another_note_still_points_elsewhere():
    # guard: a ditto of another note takes its condition from that note
    assert condition_elsewhere("ditto the Enterprise1 note, but only at root")
    assert not condition_elsewhere("E0 probed -> DecoyTomcat. ditto E2.")


# -- "so long as", and a story told with "every time" (order._LEADING_CONNECTIVE, order._TOLD_WHEN) -----------------------

def test_so_long_as_opens_a_condition_of_the_order():
    assert gives_order("So long as Op_Host0 shows only a scan, a DecoyHarakaSMTP there is the right move.")
    assert gives_order("So, restore it.")  # guard: "so" as a lead word is left out as before


def test_every_time_told_in_the_past_is_a_story():
    text = ("Each time Op_Host1 showed a probe we jumped to a Remove and paid for it. So long as a probe is all Op_Host1 "
            "shows, a DecoySSHD there is the right move.")
    words = read_wording(text)
    assert words.instruction.startswith("So long as")
    assert gives_order("Every time User4 is scanned, put a DecoySmss on it.")  # guard: in the present it is the order
