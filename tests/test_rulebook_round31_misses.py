"""Issue 29, round 31 (r31m, blind-28's missed injections): conditions and notes the product's reader did not place,
so that a rule was refused by the checks, kept semantic, and then stayed silent where it applied.

- a condition's small words: "merely reads User" (the user level by its bare name), "until it no longer shows X"
  ("while X"), read as restrictions or absences the predicate did not state (and "no longer" as the defender's history);
- "neither A nor B should be <verb>ed": a prohibition of both hosts, left unread (the rule's "never" read as inverted);
- where an order ends ("once it shows an exploit, the decoy is no longer worth it", "not later once ...", "not sure this
  holds once ..."), read as an unplaced negation, or as a second condition (a scan and an exploit at once);
- a note that keeps the order to what it is about ("no evidence this carries over to ...", "should not stretch to ...",
  "on that one box and not on any of its neighbours"), read as a negation of the order's verb, or its hosts as the rule's;
- the order's own "only" ("and at no other time", "and not yet use anything heavier") and its preferred verb
  ("I would rather reimage it than watch").

Sentences of our own, none from a case file. Tests marked "guard" pass without the change too."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.predicate import Atom
from forge.rulebook.language.markers import negations_in
from forge.rulebook.language.wording import read_wording
from tests.actions import do


# -- a condition's small words ------------------------------------------------------------------------------------------

def test_merely_reading_the_user_level_restricts_nothing():
    assert negations_in("as long as the box merely reads User") == ()
    assert negations_in("while they only sit at User") == ()


def test_guard_only_before_user_hosts_still_restricts():
    # guard: "only User hosts" restricts which hosts are hit (no other host is)
    assert negations_in("while only User hosts are hit") == ("only",)


def test_until_no_longer_is_while():
    assert negations_in("until the server no longer shows Privileged") == ()
    text = "Keep analysing User3 until it no longer shows Privileged."
    assert text_problem(text, {"host": "User3", "compromise": "Privileged"}, do("Analyse", "User3")) is None


# -- neither ... nor ----------------------------------------------------------------------------------------------------

def test_neither_nor_is_a_prohibition_of_both_hosts():
    words = read_wording("Neither User1 nor User3 may be restored while they merely read User; we remove there.")
    assert [(p.verb, set(p.hosts)) for p in words.prohibitions] == [("Restore", {"User1", "User3"})]
    when = {"any": [{"host": "User1", "compromise": "User"}, {"host": "User3", "compromise": "User"}]}
    assert text_problem("Neither User1 nor User3 may be restored while they merely read User; we remove there.", when,
                        {"mode": "never", "verb": "Restore", "target": "$matched"}) is None


# -- where an order ends ------------------------------------------------------------------------------------------------

ENDED = "Put a DecoyApache on User2 while it is being probed; once it shows an exploit, the decoy is no longer worth it."


def test_an_order_ended_by_a_later_state_is_no_negation():
    assert text_problem(ENDED, {"host": "User2", "activity": "Scan"}, do("DecoyApache", "User2")) is None


def test_guard_an_ending_the_predicate_does_not_exclude_stays_refused():
    # guard: a predicate that holds in the ending situation too (User2 shown at all) is still refused
    assert text_problem(ENDED, {"host": "User2"}, do("DecoyApache", "User2")) is not None


def test_an_ending_is_no_second_condition():
    text = "Analyse Enterprise1 whenever it shows Activity Scan, though I'm unsure this applies once it gets exploited."
    assert rule_claims(text) == Atom(host="Enterprise1", activity="Scan")
    assert text_problem(text, {"host": "Enterprise1", "activity": "Scan"}, do("Analyse", "Enterprise1")) is None


def test_not_later_once_is_where_the_order_ends():
    text = "The right call is DecoySvchost on Enterprise0 as long as it shows a scan, not later once it shows an exploit."
    assert text_problem(text, {"host": "Enterprise0", "activity": "Scan"}, do("DecoySvchost", "Enterprise0")) is None


# -- a note that keeps the order to what it is about --------------------------------------------------------------------

NOTED = ("Twice this week a breached server sat for a step. My cautious takeaway is that an exploited enterprise host "
         "deserves a Remove first, and only those: I have no evidence this carries over to the user machines.")


def test_a_scope_note_is_no_negation_of_the_order():
    assert text_problem(NOTED, {"class": "Enterprise", "activity": "Exploit"}, do("Remove", "$matched")) is None


def test_guard_a_scope_note_about_hosts_the_predicate_reaches_stays_refused():
    # guard: a trigger on any exploited host reaches the user machines the note keeps the order away from
    assert text_problem(NOTED, {"activity": "Exploit"}, do("Remove", "$matched")) is not None


def test_a_note_that_the_order_should_not_stretch_to_named_hosts():
    text = "Whenever Op_Server0 reads Privileged, restore Op_Server0, and this must not stretch to Op_Host1 or Op_Host2."
    assert text_problem(text, {"host": "Op_Server0", "compromise": "Privileged"}, do("Restore", "Op_Server0")) is None


def test_on_that_one_box_and_none_of_its_neighbours():
    text = "If a user box shows Activity Exploit I would Remove it at once, on that one box and not on any of its neighbours."
    assert text_problem(text, {"class": "User", "activity": "Exploit"}, do("Remove", "$matched")) is None


# -- the order's own "only", and its preferred verb ---------------------------------------------------------------------

def test_at_no_other_time_is_the_orders_only():
    text = "Plan DecoyTomcat on User3 whenever User2 is scanned, and at no other time."
    assert text_problem(text, {"host": "User2", "activity": "Scan"}, do("DecoyTomcat", "User3")) is None


def test_not_yet_anything_heavier_is_the_orders_only():
    text = "While User0 is being probed I should put DecoySSHD on User0 and not yet use anything heavier."
    assert text_problem(text, {"host": "User0", "activity": "Scan"}, do("DecoySSHD", "User0")) is None


def test_would_rather_verb_than_is_the_verb_preferred():
    text = "When Op_Server0 reads Privileged, reimage it: I'd rather restore it than wait and watch."
    assert text_problem(text, {"host": "Op_Server0", "compromise": "Privileged"}, do("Restore", "Op_Server0")) is None


# -- an operator's correction of another's rule, headed by that rule ----------------------------------------------------

def test_a_heading_that_corrects_another_rule_is_no_situation_nor_exception():
    text = ("The planner's rule on exploited user hosts stands, except for User2: when User2 shows Activity Exploit, "
            "plan DecoyFemitter on User2, not a Remove.")
    words = read_wording(text)
    assert words.situation == "" and words.excepted == ()
    assert text_problem(text, {"host": "User2", "activity": "Exploit"}, do("DecoyFemitter", "User2")) is None


def test_a_correction_but_not_for_a_host():
    text = ("The bot's restore advice is fine for the remaining enterprise servers, but not for Enterprise1: when "
            "Enterprise1 sits at Privileged, never restore it.")
    assert text_problem(text, {"host": "Enterprise1", "compromise": "Privileged"},
                        {"mode": "never", "verb": "Restore", "target": "Enterprise1"}) is None


def test_guard_an_exception_of_the_order_itself_stays():
    # guard: an order's own exception is still read as one
    assert read_wording("Reimage every user host at Privileged, except for User2.").excepted == ("User2",)


# -- a list of hosts the order is contrasted with -----------------------------------------------------------------------

def test_the_order_is_contrasted_with_every_host_of_a_list():
    assert read_wording("Reimage Enterprise1, not Enterprise0 or Enterprise2, once it reads root.").contrasted == \
        ("Enterprise0", "Enterprise2")
    text = "usr lvl: User3 probed -> DecoyTomcat User3. not User0-2."
    assert text_problem(text, {"host": "User3", "activity": "Scan"}, do("DecoyTomcat", "User3")) is None


def test_guard_a_single_contrasted_host_is_still_read():
    # guard: one host after "not" is the contrast it was
    assert read_wording("Put DecoyApache on User2, not User3.").contrasted == ("User3",)
