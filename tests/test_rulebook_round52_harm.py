"""Issue 29, round 52 (r52h): blind-49's harmful injections, one class a test. Each is a place where the product read a
rule's text wider than its words, or as their opposite:
- a move proposed only to be mocked ("..., what could possibly go wrong", "? Lovely, if you like wasting a step") is
  forbidden, never ordered (forbidding.mocked_moves, read into wording's prohibitions).
Each test fails on the product files of a664cfe and passes on r52h. Sentences of our own, none from a case file."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.wording import read_wording
from tests.actions import do, never, prefer


def test_a_mocked_proposal_is_forbidden_never_ordered() -> None:
    text = "Oh sure, reimage Op_Host2 as soon as a probe touches it, what could possibly go wrong. A probe is no breach."
    assert any(p.verb == "Restore" and "Op_Host2" in p.hosts for p in read_wording(text).prohibitions)
    scanned = {"host": "Op_Host2", "activity": "Scan"}
    assert text_problem(text, scanned, do("Restore", "Op_Host2")) is not None
    assert text_problem(text, scanned, never("Restore", "Op_Host2")) is None


def test_a_mocking_reply_turns_down_the_question_before_it() -> None:
    text = ("Reimage Enterprise0 the moment it shows user access and no activity? Lovely, if you like wasting a whole "
            "step. Evict the foothold instead.")
    held = {"host": "Enterprise0", "activity": "None", "compromise": "User"}
    assert text_problem(text, held, do("Restore", "Enterprise0")) is not None
    assert text_problem(text, held, prefer("Remove", "Restore", "Enterprise0")) is None
