"""Issue 29, round 39 (r39m): misses where the product's readers of a condition did not read how it was phrased.

- A count bounded below by a denied comparison ("no fewer than three", "not less than two"): at least that many (read
  as "no host of the class" beside the count, the rule held nowhere).
- A note addressed to a role before its order ("Planner:", "Analyst, this one is yours and not the chooser's:"), or
  opened by a verdict on what was taught before ("That is backwards:"): no situation of the rule (read as one, its
  words were unplaced and the rule silent).
- A move the defender has not made lately ("and no Remove of it was planned in the last two steps", "it has not been
  restored within the last three turns"): the `not` of an `acted` history; its verb is no order, nor a prohibition.
- "with a scan and nothing more" said of a class's host: that scan and no compromise (read before as "no such host").
- A level bounded by the lowest one ("compromised no worse than user level"): at user level (read as not compromised).
- "no host is at Privileged" after a named host: every host, not the one named before it.
- "has read <state>" (the past of "reads"), and a window after the defender's move ("within two steps after a Remove of
  User2", "for the next three steps after you restore it"): read (the window was left out, and the rule held at any time).
- "that host" stating a state after a class's host: that same host, or else the reading is not whole (it was dropped).
- An `unexpressed` rest never guards where the product reads the whole condition, history included, and the
  predicate implies it (a history word in the rest kept it as a guard no reading could judge).

Sentences of our own, none from a case file. Each test fails on the readers at df07c86 (checked with the product change
stashed: `git stash` of forge/, then pytest on this file).
"""

from __future__ import annotations

from forge.rulebook.language.condition import claims, complete_claims, guard_rest, rule_claims
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
    text = "While Op_Host1 is compromised no worse than user level, a Remove of Op_Host1 is enough."
    found = _whole(text)
    assert truth(found, _table({"Op_Host1": "None/User"})) is True
    assert truth(found, _table({"Op_Host1": "None/Privileged"})) is False
    assert truth(found, _table({})) is False


def test_a_class_host_with_a_scan_and_nothing_more_shows_that_scan_alone():
    text = "any op box with a scan and nothing more -> DecoyApache on it."
    found = _whole(text)
    assert truth(found, _table({"Op_Host2": "Scan/No"})) is True
    assert truth(found, _table({"Op_Host2": "Scan/User"})) is False


def test_no_host_at_a_level_speaks_of_every_host_not_the_named_one():
    text = "Op_Host0 at Unknown -> plan Analyse Op_Host0, but only if no host is at Privileged."
    found = _whole(text)
    assert truth(found, _table({"Op_Host0": "None/Unknown"})) is True
    assert truth(found, _table({"Op_Host0": "None/Unknown", "User1": "None/Privileged"})) is False


# -- openings that are no situation ----------------------------------------------------------------------------------------

def test_a_note_addressed_to_a_role_states_no_situation():
    for text in ("Chooser: when Op_Host2 is compromised, pick a Remove of Op_Host2.",
                 "Analyst, this one is yours and not the planner's: if Op_Host2 shows an exploit, recommend a Restore of it.",
                 "For the planner only, not the chooser: when Op_Host2 is compromised, plan a Remove of Op_Host2."):
        words = read_wording(text)
        assert words.situation == "", text
        assert not words.negated_conditions, text
        _whole(text)


def test_a_verdict_on_the_rule_before_states_no_situation():
    text = "No, that's wrong: when Op_Host1 and a user host are both compromised, plan a Restore of Op_Host1."
    assert read_wording(text).situation == ""
    found = _whole(text)
    assert truth(found, _table({"Op_Host1": "None/User", "User2": "None/User"})) is True


# -- history ---------------------------------------------------------------------------------------------------------------

_REMOVED_BEFORE = ("Step 9 of 30.\nRecent steps: step 6: Monitor -> reward -0.1 | step 7: Monitor -> reward -0.1 | "
                   "step 8: Remove Op_Host2 -> reward -0.1")
_NOTHING_DONE = ("Step 9 of 30.\nRecent steps: step 6: Monitor -> reward -0.1 | step 7: Monitor -> reward -0.1 | "
                 "step 8: Monitor -> reward -0.1")


def test_a_move_not_made_lately_is_the_absence_of_that_history():
    for text in ("If Op_Host2 shows an exploit and no Remove of it was planned in the last two steps, remove Op_Host2.",
                 "When Op_Host2 is exploited and it has not been removed within the last two turns, remove Op_Host2."):
        found = _whole(text)
        assert truth(found, _table({"Op_Host2": "Exploit/User"}, _NOTHING_DONE)) is True, text
        assert truth(found, _table({"Op_Host2": "Exploit/User"}, _REMOVED_BEFORE)) is False, text
        assert not read_wording(text).prohibitions, text


def test_a_window_after_a_move_is_read():
    text = "Within two steps after a Remove of Op_Host2, if it reads Unknown, pick an Analyse of it."
    found = _whole(text)
    assert truth(found, _table({"Op_Host2": "None/Unknown"}, _REMOVED_BEFORE)) is True
    assert truth(found, _table({"Op_Host2": "None/Unknown"}, _NOTHING_DONE)) is False


def test_has_read_is_a_state_held():
    _whole("Whenever Op_Host1 has read Compromised User now and at each of the last two steps, plan its Restore.")


def test_that_host_after_a_class_is_never_dropped():
    text = "Within two steps after a Remove of an op host, if that host reads Unknown, pick an Analyse of it."
    found = rule_claims(text, with_instruction=True)
    assert found is None or not complete_claims(text, found)
    joined = claims("if an op host is scanned and that host is at Privileged")
    assert truth(joined, _table({"Op_Host0": "Scan/No", "Op_Host1": "None/Privileged"})) is False
    assert truth(joined, _table({"Op_Host0": "Scan/Privileged"})) is True


def test_a_rest_the_whole_reading_states_never_guards():
    text = "For the next three steps after you restore Op_Host0, do not remove Op_Host0."
    when = parse_predicate({"host": "Op_Host0", "acted": "Restore", "within": 3})
    assert guard_rest("next three steps", when, text) == ""
    # (a predicate that says less than the text keeps its rest)
    assert guard_rest("next three steps", parse_predicate({"host": "Op_Host0"}), text) != ""


def test_a_move_not_made_on_a_class_host_is_said_of_that_same_host():
    text = "If an op host is compromised and no Restore of it appears in the last three steps, restore it."
    found = _whole(text)
    restored = ("Step 9 of 30.\nRecent steps: step 5: Monitor -> reward -0.1 | step 6: Monitor -> reward -0.1 | "
                "step 7: Monitor -> reward -0.1 | step 8: Restore Op_Host0 -> reward -1.1")
    assert truth(found, _table({"Op_Host0": "None/User"}, restored)) is False
    # (another op host, compromised and not restored, is the host the rule is about)
    assert truth(found, _table({"Op_Host0": "None/User", "Op_Host1": "None/User"}, restored)) is True


def test_an_example_states_no_condition_and_a_lead_before_the_marker_is_kept():
    from forge.rulebook.language.condition import cut_conditions

    text = ("Twice I let the op side fall. The order should be, whenever Op_Host1 shows any compromise:\n"
            "- first, Restore Op_Host1;\n- then Remove whichever op host is compromised.\n"
            "(Example from seed 4: Op_Host1 at User on turn 9 with Op_Host2 at User.)\n")
    assert cut_conditions("Whenever Op_Host1 shows any compromise: - first, Restore Op_Host1", text) == ()


def test_another_case_labelled_as_such_never_guards():
    when = parse_predicate({"any": [{"host": "Op_Host1", "activity": "Scan", "compromise": "No"},
                                    {"host": "Op_Host1", "activity": "Exploit"}]})
    text = "Op_Host1: scan only -> DecoyApache on it. exploit under way -> Remove it."
    assert guard_rest("second case: exploit under way -> Remove Op_Host1", when, text) == ""
    assert guard_rest("in case: Op_Server0 is compromised", when, text) != ""
