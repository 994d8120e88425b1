"""Graduation, champion selection and broadcast plans, without Ray or a model."""

from __future__ import annotations

import pytest

from forge.config import Arm
from forge.protocol.stages import champion, decide_stage, graduates, ranked

SCORES = {"i0": -30.0, "i1": -12.0, "i2": -80.0, "i3": -12.0, "i4": -15.0}
ACTIVE = ["i0", "i1", "i2", "i3", "i4"]


def test_graduation_is_strictly_above_theta():
    assert graduates(SCORES, ACTIVE, -15.0, Arm.forge) == ["i1", "i3"]  # -15 itself does not graduate
    assert graduates(SCORES, ACTIVE, -15.0, Arm.reflexion) == ["i1", "i3"]
    assert graduates(SCORES, ACTIVE, -15.0, Arm.forge_no_grad) == []
    assert graduates(SCORES, ACTIVE, -15.0, Arm.zero_shot) == []


def test_champion_tie_breaks_by_name_whatever_the_input_order():
    assert champion(SCORES, ACTIVE) == "i1"
    assert champion(SCORES, list(reversed(ACTIVE))) == "i1"
    assert ranked(SCORES, ACTIVE) == ["i1", "i3", "i4", "i0", "i2"]
    assert champion({}, []) is None


def test_forge_broadcasts_to_the_still_active_only():
    decision = decide_stage(SCORES, ACTIVE, -15.0, Arm.forge)
    assert decision.graduated == ("i1", "i3")
    assert decision.champion == "i1"
    assert decision.broadcast_to == ("i0", "i2", "i4")  # graduates untouched
    assert decision.still_active == ("i0", "i2", "i4")


def test_reflexion_never_broadcasts():
    decision = decide_stage(SCORES, ACTIVE, -15.0, Arm.reflexion)
    assert decision.champion is None and decision.broadcast_to == ()
    assert decision.still_active == ("i0", "i2", "i4")


def test_forge_no_grad_broadcasts_to_everyone_else():
    decision = decide_stage(SCORES, ACTIVE, -15.0, Arm.forge_no_grad)
    assert decision.graduated == () and decision.champion == "i1"
    assert decision.broadcast_to == ("i0", "i2", "i3", "i4")


def test_a_missing_score_is_an_error():
    with pytest.raises(ValueError, match="i9"):
        decide_stage(SCORES, ACTIVE + ["i9"], -15.0, Arm.forge)


def test_everyone_graduates():
    decision = decide_stage({"a": -1.0, "b": -2.0}, ["a", "b"], -15.0, Arm.forge)
    assert decision.still_active == () and decision.broadcast_to == () and decision.champion == "a"
