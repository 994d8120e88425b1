"""Round 58 (r58n): a window of steps a rule's words state holds the rule silent outside it, whatever the compiler.

A reflection's lesson that holds only late in a run ("in steps 26-30 of a 30-step run I ought to ...") is often read
as a story (its modal is no order), so its window stood in no sentence the reading took for a condition, and a
compilation that left the window out spoke at every step. And a guarded rule whose unexpressed rest is a window led by
"only" ("only before step 6") was never read, so silent in its own window. The compilations are scripted.
"""
from __future__ import annotations

from forge.rulebook.language.guard import guard_claims
from tests.actions import do
from tests.situations import alert_lines
from tests.test_rulebook_text_checks import entry, reply

_LATE_LESSON = ("Enterprise2 was still rooted at the close since I went on analysing it up to the end. "
                "For steps 26-30 of a 30-step run, I should choose a Restore on Enterprise2 if it stays rooted.")


def _at(step: int) -> str:
    return f"Step {step} of 30.\n" + alert_lines(Enterprise2="None/Privileged")


def test_a_window_said_in_a_lesson_read_as_a_story_holds_the_rule_to_it(tmp_path):
    from tests.test_rulebook_claims_scope import taught

    rooted = reply(entry({"host": "Enterprise2", "compromise": "Privileged"}, do("Restore", "Enterprise2")))
    _, injected = taught(tmp_path, _LATE_LESSON, rooted, rooted, kind="rule")
    assert injected(_at(28)) and injected(_at(26))
    assert not injected(_at(25)) and not injected(_at(9))


def test_a_window_said_anywhere_is_added_only_where_none_is_judged():
    from forge.rulebook.language.judged import window_said_anywhere

    assert len(window_said_anywhere((), _LATE_LESSON)) == 1
    assert window_said_anywhere((), "Restore Enterprise2 whenever it is rooted.") == ()


def test_an_only_that_leads_a_window_in_the_rest_is_read_as_that_window():
    for rest in ("only before step 6", "only during steps 24-30 of 30", "only after step 18"):
        found = guard_claims(rest, None)
        assert found is not None and type(found).__name__ == "EpisodeStep", rest


def test_a_part_that_only_says_which_decoys_leaves_the_window_to_guard():
    from forge.rulebook.language.guard import guard_rest
    from forge.rulebook.language.predicate import parse_predicate

    always = parse_predicate({"always": True})
    rest = "each decoy move; only from step 22 of 30"
    assert guard_rest(rest, always) == "only from step 22 of 30"
    assert type(guard_claims(rest, always)).__name__ == "EpisodeStep"
    # (a rest that is all move kinds guards nothing, as before; a part that names a state still guards)
    assert guard_rest("each decoy move", always) == ""
    assert guard_rest("each decoy move; while User3 is clean", always) == "while User3 is clean"


# --- a stand-up note's label for the day ---------------------------------------------------------------------------

_STAND_UP = ("Done: moved the decoys around on the user side.\nToday: for the opening 8 steps of the run, plan a DecoyHarakaSMPT "
             "on Op_Server0 each time it gets probed.\nNothing blocking.")


def test_a_day_label_is_no_condition_of_the_days_order():
    from forge.rulebook.language.wording import read_wording

    assert [c.text for c in read_wording(_STAND_UP).conditions] == ["each time it gets probed"]
    assert read_wording(_STAND_UP).situation == ""


def test_a_window_the_story_tells_is_no_window_of_the_lesson():
    from forge.rulebook.language.judged import window_said_anywhere

    told = "User1 sat rooted from step 9 on while I chased decoys elsewhere. Keep to this: Restore User1 when it is rooted."
    assert window_said_anywhere((), told) == ()
