"""The failure trigger on fixed reward sequences."""

from __future__ import annotations

import pytest

from forge.failure.trigger import FailureTrigger, failure_events, is_failure, thresholds_of


def test_restore_cost_and_exact_threshold_do_not_trigger():
    assert not is_failure(-1.0, -1.1)
    assert not is_failure(-1.1, -1.1)
    assert not is_failure(-1.1000000000000001, -1.1)  # float noise of -0.1 + -1.0
    assert is_failure(-1.2, -1.1)


def test_first_step_below_tau_aborts():
    rewards = [0.0, -0.1, -1.0, -1.1, -1.1, -2.1, -13.1]
    events, aborted = failure_events(rewards, [-1.1])
    assert aborted == 6
    assert [(e.step, e.reward, e.threshold) for e in events] == [(6, -2.1, -1.1)]


def test_clean_sequence_never_aborts():
    events, aborted = failure_events([0.0, -1.0, -0.1, -1.1] * 8, [-1.1])
    assert events == [] and aborted is None


def test_multi_threshold_fires_each_level_once_and_aborts_at_most_severe():
    rewards = [-0.1, -2.1, -1.0, -3.1, -3.1, -13.1, -13.1]
    events, aborted = failure_events(rewards, [-10.0, -1.1, -3.0])
    assert [(e.step, e.threshold) for e in events] == [(2, -1.1), (4, -3.0), (6, -10.0)]
    assert aborted == 6


def test_multi_threshold_same_step_fires_several_levels():
    events, aborted = failure_events([0.0, -13.1], [-1.1, -10.0])
    assert [(e.step, e.threshold) for e in events] == [(2, -1.1), (2, -10.0)]
    assert aborted == 2


def test_mild_levels_without_the_severe_one_do_not_abort():
    events, aborted = failure_events([-2.1, -2.1, -5.0], [-1.1, -10.0])
    assert [e.step for e in events] == [1] and aborted is None


def test_observe_after_abort_is_an_error():
    trigger = FailureTrigger([-1.1])
    trigger.observe(1, -5.0)
    with pytest.raises(RuntimeError):
        trigger.observe(2, 0.0)


def test_thresholds_default_to_tau():
    assert thresholds_of(-1.1, []) == (-1.1,)
    assert thresholds_of(-1.1, [-2.0, -5.0]) == (-2.0, -5.0)
    with pytest.raises(ValueError):
        FailureTrigger([])
