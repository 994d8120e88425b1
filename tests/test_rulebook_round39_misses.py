"""Issue 29, round 39 (r39m): misses where the product's readers of a condition did not read how it was phrased.

- A count bounded below by a denied comparison ("no fewer than three", "not less than two"): at least that many (read
  as "no host of the class" beside the count, the rule held nowhere).
- A note addressed to a role before its order ("Planner:", "Analyst, this one is yours and not the chooser's:"), or
  opened by a verdict on what was taught before ("That is backwards:"): no situation of the rule (read as one, its
  words were unplaced and the rule silent).
- A move the defender has not made lately ("and no Restore of it was picked within the past 4 turns", "it has not
  been analysed in the last 3 steps"): the `not` of an `acted` history; its verb is no order, nor a prohibition.
- "with a scan and nothing more" said of a class's host: that scan and no compromise (read before as "no such host").
- A level bounded by the lowest one ("held no higher than user level"): at user level (read as not compromised).
- "no host is at Privileged" after a named host: every host, not the one named before it.
- "has read <state>" (the past of "reads"), and a window after the defender's move ("within 4 turns after a Restore of
  Op_Host0", "for the next 2 turns after you analyse it"): read (the window was left out, and the rule held at any time).
- "that host" stating a state after a class's host: that same host, or else the reading is not whole (it was dropped).
- An `unexpressed` rest never guards where the product reads the whole condition, history included, and the
  predicate implies it (a history word in the rest kept it as a guard no reading could judge).

Sentences of our own, none from a case file. Each test fails on the readers at df07c86 (checked with the product change
stashed: `git stash` of forge/, then pytest on this file).
"""

from __future__ import annotations

from forge.rulebook.language.claims import claims
from forge.rulebook.language.guard import complete_claims, guard_rest
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.predicate import parse_predicate, truth
from forge.rulebook.language.situation import read_situation
from forge.rulebook.language.wording import read_wording

HOSTS = ("Defender", "Enterprise0", "Enterprise1", "Enterprise2", "Op_Host0", "Op_Host1", "Op_Host2", "Op_Server0",
         "User0", "User1", "User2", "User3", "User4")


def _table(states: dict[str, str], history: str = "") -> object:
    """A context that states every host: `states` maps a host to "<activity>/<compromise>", the rest quiet."""
    rows = []
    for h in HOSTS:
        activity, compromise = states.get(h, "None/No").split("/")
        rows.append(f"{h}: Activity {activity}, Compromised {compromise}")
    return read_situation((history + "\n" if history else "") + "Alerts:\n" + "\n".join(rows))


def _whole(text: str):
    """The rule's claims, asserted to be the whole of its condition."""
    found = rule_claims(text, with_instruction=True)
    assert found is not None and complete_claims(text, found), text
    return found


# -- counts and levels ---------------------------------------------------------------------------------------------------

def test_no_fewer_than_is_at_least():
    text = "When no fewer than two op hosts are compromised, restore each of them."
    found = _whole(text)
    assert truth(found, _table({"Op_Host0": "None/User", "Op_Host2": "None/User"})) is True
    assert truth(found, _table({"Op_Host1": "None/User"})) is False
    assert not read_wording(text).negated_conditions


def test_a_level_no_worse_than_user_level_is_user_level():
    text = "As long as Op_Host1 is compromised no higher than user level, Remove Op_Host1."
    found = _whole(text)
    assert truth(found, _table({"Op_Host1": "None/User"})) is True
    assert truth(found, _table({"Op_Host1": "None/Privileged"})) is False
    assert truth(found, _table({})) is False


def test_a_class_host_with_a_scan_and_nothing_more_shows_that_scan_alone():
    text = "some op box w/ one scan, nothing else -> DecoyTomcat there."
    found = _whole(text)
    assert truth(found, _table({"Op_Host2": "Scan/No"})) is True
    assert truth(found, _table({"Op_Host2": "Scan/User"})) is False


def test_no_host_at_a_level_speaks_of_every_host_not_the_named_one():
    text = "Analyse Op_Host0 once it sits at Unknown, though only while no machine sits at Privileged."
    found = _whole(text)
    assert truth(found, _table({"Op_Host0": "None/Unknown"})) is True
    assert truth(found, _table({"Op_Host0": "None/Unknown", "User1": "None/Privileged"})) is False


# -- openings that are no situation ----------------------------------------------------------------------------------------

def test_a_note_addressed_to_a_role_states_no_situation():
    for text in ("Chooser: once Op_Host2 gets owned, go for Restore Op_Host2.",
                 "Analyst, this one is yours and not the planner's: should Op_Host2 get rooted, advise Restore Op_Host2.",
                 "For the planner only, not the chooser: once Op_Host2 gets owned, put Restore Op_Host2 first."):
        words = read_wording(text)
        assert words.situation == "", text
        assert not words.negated_conditions, text
        _whole(text)


def test_a_verdict_on_the_rule_before_states_no_situation():
    text = "No, that's wrong: once Op_Host1 and one user box have both been owned, Restore Op_Host1 first."
    assert read_wording(text).situation == ""
    found = _whole(text)
    assert truth(found, _table({"Op_Host1": "None/User", "User2": "None/User"})) is True
    measured = "Stricter than my last note: while at most 1 op machine is owned, Remove that machine."
    assert read_wording(measured).situation == ""
    _whole(measured)


# -- history ---------------------------------------------------------------------------------------------------------------

_REMOVED_BEFORE = ("Step 19 of 30.\nRecent steps: step 16: Sleep -> reward -0.7 | step 17: Sleep -> reward -0.7 | "
                   "step 18: Remove Op_Host2 -> reward -0.9")
_NOTHING_DONE = ("Step 19 of 30.\nRecent steps: step 16: Sleep -> reward -0.7 | step 17: Sleep -> reward -0.7 | "
                 "step 18: Sleep -> reward -0.7")


def test_a_move_not_made_lately_is_the_absence_of_that_history():
    for text in ("Should Op_Host2 be under exploit and no Remove of it was picked within the past 2 turns, Remove Op_Host2.",
                 "Once Op_Host2 is under exploit and it hasn't been removed in the past 2 turns, go for Remove Op_Host2."):
        found = _whole(text)
        assert truth(found, _table({"Op_Host2": "Exploit/User"}, _NOTHING_DONE)) is True, text
        assert truth(found, _table({"Op_Host2": "Exploit/User"}, _REMOVED_BEFORE)) is False, text
        assert not read_wording(text).prohibitions, text


def test_a_window_after_a_move_is_read():
    text = "Within 2 turns after a Remove of Op_Host2, should it sit at Unknown, go for Analyse Op_Host2."
    found = _whole(text)
    assert truth(found, _table({"Op_Host2": "None/Unknown"}, _REMOVED_BEFORE)) is True
    assert truth(found, _table({"Op_Host2": "None/Unknown"}, _NOTHING_DONE)) is False


def test_has_read_is_a_state_held():
    _whole("Once Op_Host1 has read Compromised Privileged now and in all of the past 3 turns, Restore Op_Host1.")


def test_that_host_after_a_class_is_never_dropped():
    text = "Within 3 turns after a Restore of some op box, should that box sit at Unknown, Analyse it."
    found = rule_claims(text, with_instruction=True)
    assert found is None or not complete_claims(text, found)
    joined = claims("once some op box shows a scan and that box sits at Privileged")
    assert truth(joined, _table({"Op_Host0": "Scan/No", "Op_Host1": "None/Privileged"})) is False
    assert truth(joined, _table({"Op_Host0": "Scan/Privileged"})) is True


def test_a_rest_the_whole_reading_states_never_guards():
    text = "For the next 4 turns after you analyse Op_Host0, never Restore Op_Host0."
    when = parse_predicate({"host": "Op_Host0", "acted": "Analyse", "within": 4})
    assert guard_rest("next 4 turns", when, text) == ""
    # (a predicate that says less than the text keeps its rest)
    assert guard_rest("next 4 turns", parse_predicate({"host": "Op_Host0"}), text) != ""


def test_a_move_not_made_on_a_class_host_is_said_of_that_same_host():
    text = "Once some op box is owned and no Restore of it shows up within the past 3 turns, Restore it."
    found = _whole(text)
    restored = ("Step 19 of 30.\nRecent steps: step 15: Sleep -> reward -0.7 | step 16: Sleep -> reward -0.7 | "
                "step 17: Sleep -> reward -0.7 | step 18: Restore Op_Host0 -> reward -1.7")
    assert truth(found, _table({"Op_Host0": "None/User"}, restored)) is False
    # (another op host, compromised and not restored, is the host the rule is about)
    assert truth(found, _table({"Op_Host0": "None/User", "Op_Host1": "None/User"}, restored)) is True


def test_an_example_states_no_condition_and_a_lead_before_the_marker_is_kept():
    from forge.rulebook.language.condition import cut_conditions

    text = ("Twice I let the op side fall. The order ought to be, once Op_Host1 gets owned:\n"
            "- Restore Op_Host1 to start;\n- Remove any other owned op box after that.\n"
            "(Example from seed 4: Op_Host1 owned on turn 9 beside Op_Host2.)\n")
    assert cut_conditions("Once Op_Host1 gets owned: - Restore Op_Host1 to start", text) == ()


def test_another_case_labelled_as_such_never_guards():
    when = parse_predicate({"any": [{"host": "Op_Host1", "activity": "Scan", "compromise": "No"},
                                    {"host": "Op_Host1", "activity": "Exploit"}]})
    text = "Op_Host1: probe alone => DecoyTomcat there. being exploited => Restore Op_Host1."
    assert guard_rest("case 2: being exploited => Restore Op_Host1", when, text) == ""
    assert guard_rest("case 2: being exploited => Restore Op_Host1", when) == ""  # (the label alone says so)
    assert guard_rest("in case: Op_Server0 is compromised", when) != ""


def test_unless_a_state_held_for_some_steps_is_that_history_not_so():
    text = "Never Remove Op_Host1 unless it has read Unknown for at least 2 turns running."
    found = _whole(text)
    held = ("Step 19 of 30.\nHost history (last 2 steps): Op_Host1: step 17 Exploit/Unknown, step 18 Exploit/Unknown; "
            "every other host: None/No")
    assert truth(found, _table({"Op_Host1": "Exploit/Unknown"}, held)) is False
    fresh = held.replace("step 17 Exploit/Unknown", "step 17 Exploit/User")
    assert truth(found, _table({"Op_Host1": "Exploit/Unknown"}, fresh)) is True


def test_a_rating_of_the_named_host_is_left_to_the_evidence_reader():
    from forge.rulebook.language.judged import judged_in, rating_away

    text = "once Op_Host2 gets rated medium by the analysis, go for Analyse Op_Host2."
    _whole(text)
    assert "medium" not in rating_away("once Op_Host2 gets rated medium by the analysis")
    tests = judged_in("once Op_Host2 gets rated medium by the analysis")
    assert [(t.kind, t.host, t.word) for t in tests] == [("risk", "Op_Host2", "medium")]
    # (a rating of no host in particular stays unread: the reading is not whole)
    found = rule_claims("when an op host is rated high, restore it.", with_instruction=True)
    assert found is None or not complete_claims("when an op host is rated high, restore it.", found)


def test_a_history_the_claims_read_needs_no_history_lines():
    from forge.rulebook.language.condition import facts_unread

    said = "unless it has read Unknown for at least 3 turns running"
    assert facts_unread(said, "Op_Host1") == frozenset()
    # (unread history, or an "it" with no host to place it on, still needs them)
    assert "history" in facts_unread(said)
    assert "history" in facts_unread("when it keeps coming back", "Op_Host1")


def test_each_of_the_last_rewards_past_a_value_is_read():
    from forge.rulebook.language.episode import RewardTrend, episode_claims

    text = "once the past 3 scores are all under -5, plan a Restore of every op box at Privileged."
    _whole(text)
    (trend,) = episode_claims("once the past 3 scores are all under -5")
    assert trend == RewardTrend("below", 3, -5.0)
    assert trend.truth((-6.0, -7.5, -9.0)) is True
    assert trend.truth((-2.0, -7.5, -9.0)) is False
    assert trend.truth((-7.5, -9.0)) is None
