"""Issue 29, round 43 (the coordinator's follow-up): a window of the episode's last steps said with the episode
first, as a possessive ("the episode's last 5 steps", "the game's final four turns"), is that window, as "the last 5
steps of the episode" was. "The last 5 steps" alone stays no window: said bare they are the recent steps, a history.
Both tests fail on the product files before this change (`episode._FORMS` had no possessive form of "last"; checked
with episode.py stashed); the second also guards "the last 3 steps" alone. Sentences of our own."""

from __future__ import annotations

import pytest

from forge.rulebook.language.episode import EpisodeStep, step_windows
from forge.rulebook.language.predicate import truth
from forge.rulebook.language.situation import read_situation
from forge.rulebook.language.condition import semantic_claims
from tests.situations import every_host_alert_lines


@pytest.mark.parametrize("text, last", [
    ("During the episode's last 5 steps, leave Op_Host1 alone.", 5),
    ("In the game\u2019s final four turns, a Restore of Op_Server0 beats everything.", 4),
    ("Within this run's closing 3 steps, keep decoys up.", 3),
])
def test_the_episodes_last_steps_said_before_them_are_a_window(text, last):
    assert step_windows(text) == (EpisodeStep(from_end=last),)


def test_the_last_steps_alone_are_no_window_and_the_rule_holds_only_late():
    assert step_windows("If User2 was rooted in the last 3 steps, restore it.") == ()
    text = "In the episode's last 5 steps, restore Op_Server0 whenever it is owned."
    found = semantic_claims(text, "predicate refused: host: the check's reason", text)
    early = f"Step 12 of 30.\n{every_host_alert_lines(Op_Server0='None/Privileged')}"
    late = f"Step 28 of 30.\n{every_host_alert_lines(Op_Server0='None/Privileged')}"
    assert truth(found, read_situation(early)) is False
    assert truth(found, read_situation(late)) is True
