"""Round 55 (r55m): readers that place conditions the gate left unplaced, so a rule kept semantic stayed silent where its
words held (blind-52's missed injections). Each reader only restates what the words say, and leaves any other wording as it
stands: a rule it cannot read whole stays unknown, so silent."""

from forge.rulebook.language.condition import semantic_claims
from forge.rulebook.language.guard import complete_claims
from forge.rulebook.language.minutes import minutes_said
from forge.rulebook.language.predicate import AnyOf, Atom, Not
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.said import said_in_words
from forge.rulebook.language.wording import read_wording

_REFUSED = "predicate refused: host: a compilation the checks turned down"


def _claims(text):
    """What the gate holds a rule kept semantic to (its compiled predicate refused)."""
    return semantic_claims(text, _REFUSED, text)


def _never():
    from forge.rulebook.language.predicate import Always
    return Not(Always())


def test_a_meeting_s_minutes_are_read_as_the_items_they_agreed():
    text = ("Notes from the Tuesday standup:\n- DECIDED: put a DecoyApache on any enterprise host that shows a scan.\n"
            "- PARKED: what to do about Op_Host2.\n- DROPPED: removing the op hosts every step.")
    assert minutes_said(text) == "Put a DecoyApache on any enterprise host that shows a scan."
    assert _claims(text) == Atom(host_class="Enterprise", activity="Scan")
    # (the lines joined into one, as a rule's directive keeps them)
    assert _claims(" ".join(text.split())) == Atom(host_class="Enterprise", activity="Scan")
    # (minutes that agreed nothing are left as written)
    text = "Standup notes: * PARKED: decoys on User3 once it is probed. * REJECTED: a Remove on every enterprise host."
    assert minutes_said(text) == text
    # (one label alone is no minutes)
    assert minutes_said("Agreed: Op_Host1 gets a Remove when it is exploited.") == \
        "Agreed: Op_Host1 gets a Remove when it is exploited."


def test_a_level_written_at_sign_before_a_dash_and_the_move_is_read():
    text = "never Restore E1 while its only @ user lvl - remove it first"
    found = rule_claims(text, with_instruction=True)
    assert found == Atom(host="Enterprise1", compromise="User")
    assert complete_claims(text, found)


def test_a_scan_and_nothing_worse_is_only_that_scan():
    assert _claims("E1 probed, nothing worse -> decoy E1") == Atom(host="Enterprise1", activity="Scan", compromise="No")
    # (not said of an exploit: "nothing worse" there is left as it was)
    assert _claims("E1 exploited, nothing worse -> Remove E1") == _never()


def test_a_time_that_runs_to_the_episode_s_end_is_the_time_it_starts_from():
    assert _claims("From the first scan on User3 until the end of the game: never Sleep.") == \
        Atom(host="User3", activity="Scan")
    assert read_wording("Keep Op_Host0 under a decoy for the rest of the match.").text == "Keep Op_Host0 under a decoy."
    # (the start said after it is kept: it is the condition)
    kept = "For the remainder of the run once User2 first gets rooted, keep its Restore in the plan."
    assert read_wording(kept).text == kept


def test_until_a_host_is_clean_again_is_while_it_is_not_clean():
    text = "Until Enterprise1 is clean again, Remove Enterprise1 every step."
    assert read_wording(text).text == "Until Enterprise1 is clean, Remove Enterprise1 every step."
    assert _claims(text) == Not(Atom(host="Enterprise1", compromise="No"))


def test_a_heading_that_only_says_what_a_host_is_names_the_host():
    text = "User3 is the intern's old workstation: we never restore it, whatever it shows."
    said = said_in_words(text)
    assert said is not None and said[1].mode == "never" and said[1].move.verb == "Restore"
    assert said[0] == Atom(host="User3")
    # (a heading that says a state of it is a condition, left as written)
    stated = "User4 is the one that got rooted: Restore it."
    assert read_wording(stated).text == stated


def test_a_host_named_after_a_description_of_it_is_that_host():
    text = "Once our old file store, Enterprise1, gets probed, decoy it with a DecoyTomcat."
    assert read_wording(text).text.startswith("Once Enterprise1 gets probed")
    assert _claims(text) == Atom(host="Enterprise1", activity="Scan")
    # (words that single a host out, "the second box", are no description: left as written)
    assert read_wording("When the second box, User1, is probed, decoy it.").text.startswith("When the second box, User1,")


def test_every_host_of_a_class_in_a_state_before_a_bare_move_is_each_of_them():
    found = _claims("each probed ent host: decoy")
    assert isinstance(found, AnyOf)
    # ("all" may be the whole class at once: left as it was)
    assert not isinstance(_claims("all probed ent hosts: decoy"), AnyOf)


def test_a_phase_that_opens_the_lesson_without_a_comma_is_its_condition():
    text = "I burned the impact stage on Analyses. Lesson learned: in the impact stage we restore Op_Server0 before anything else."
    words = read_wording(text)
    assert [c.text for c in words.conditions] == ["in the impact stage"]
    assert _claims(text) != _never()


def test_a_priority_said_after_the_condition_ends_it():
    text = "If User4 shows an exploit that takes priority: Remove User4 before any other move."
    assert [c.text for c in read_wording(text).conditions] == ["If User4 shows an exploit"]
    assert _claims(text) == Atom(host="User4", activity="Exploit")


def test_two_orders_paired_with_their_hosts_states_respectively():
    text = "Remove Enterprise0 and Restore Enterprise2 if they are scanned and rooted respectively."
    assert _claims(text) == AnyOf((Atom(host="Enterprise0", activity="Scan"), Atom(host="Enterprise2", compromise="Privileged")))
    # (one host twice is no pair: left as written, and unread)
    same = "Remove Enterprise0 and Restore Enterprise0 if they are scanned and rooted respectively."
    assert read_wording(same).text == same


def test_what_a_move_is_good_for_said_before_the_order_is_no_condition():
    text = "A DecoyTomcat only pays off on an untouched box: never decoy User2 once it is rooted."
    assert _claims(text) == _claims("Never decoy User2 once it is rooted.")
    assert _claims(text) != _never()
    # (said of a host, it is no general truth: left as written)
    kept = "A Remove on User2 only helps while it is user-level: Restore it once it is rooted."
    assert read_wording(kept).text.startswith("A Remove on User2 only helps")


def test_a_heading_that_sums_the_order_up_as_not_both_at_once_is_no_condition():
    text = "Never two in one step: if User1 and User3 are both rooted, Restore User3 and leave User1 for later."
    assert not read_wording(text).text.lower().startswith("never two")
    assert _claims(text) != _never()


def test_a_reply_under_a_quoted_note_is_read_as_what_it_settles():
    from forge.rulebook.language.replies import reply_said

    agreed = "> Suggestion: plan a Remove on any op host that gets exploited.\nYes, but not Op_Host0: the vendor patches that one."
    assert reply_said(agreed).startswith("Plan a Remove on any op host that gets exploited, but not Op_Host0")
    found = _claims(agreed)
    assert found != _never() and "Op_Host0" not in repr(found)
    turned_down = "Re: ent policy\n> Enterprise0 rooted: Remove it.\nDisagree. Restore Enterprise0 once it is rooted."
    assert reply_said(turned_down) == "Restore Enterprise0 once it is rooted."
    # (a text that quotes nothing, or an answer with no verdict of its own, is left as written)
    plain = "> a note from last week\nwe keep Op_Server0 decoyed"
    assert reply_said(plain) == plain
