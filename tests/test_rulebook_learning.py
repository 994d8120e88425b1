"""`memory.injection: rulebook` inside the inner loop (real CybORG, the surrogate), and floor calibration."""

from __future__ import annotations

import json

import pytest

from forge.config import load_config
from forge.protocol.inner_loop import InstanceLearner
from forge.rulebook.store.backends import open_rulebook
from forge.rulebook.retrieval.calibrate import choose_floor
from forge.injection_factory import RulebookInjectionFactory
from forge.rulebook.injection import RulebookInjection
from forge.wiring import build_clients, open_memory


def test_instance_learner_trains_with_rulebook_injection(tmp_path):
    cfg = load_config(overrides=[f"run.runs_dir={tmp_path}", "surrogate.reflector_error_rate=0.0", "surrogate.compliance=1.0",
                                 "protocol.max_attempts=3", "memory.injection=rulebook",
                                 "surrogate.rule_phrasing=grammar"])  # this file checks the grammar path; free text: tests/test_rulebook_meaning.py, test_dc_bench.py
    run_dir = tmp_path / "sess"
    run_dir.mkdir()
    clients, _ = build_clients(cfg)
    db = str(tmp_path / "rulebook.db")
    factory = RulebookInjectionFactory(cfg, db, clients=clients, actor="sess/i00")
    learner = InstanceLearner(instance="i00", session="sess", cfg=cfg, clients=clients,
                              memory=open_memory(cfg, str(run_dir), "sess"), run_dir=run_dir, injection_factory=factory)
    assert isinstance(learner.defender().injection, RulebookInjection)
    # Seed 22: the surrogate's trajectory follows its prompt text; since the contexts carry the defender's
    # history (issue 18), seed 21's first failure is at Enterprise2 one step before the end, too late for any rule.
    training = learner.train_stage(1, 22)
    first = training.attempts[0]
    assert first.failed and first.added >= 1 and len(training.attempts) >= 2
    # The failure's rules were compiled (with the run's failure snapshot as trigger) before attempt 2 ran...
    with open_rulebook(db) as store:
        heads = store.heads()
        assert {v.record.directive for v in heads.values()} == {i.text for i in learner.snapshot().items}
        assert all(store.nodes([v.record.trigger]) for v in heads.values())
        refs = {v.ref for v in heads.values()}
    # ... and attempt 2 was given them when their trigger matched, by version.
    trace = json.loads((run_dir / "traces" / "i00" / "s1-train-a2.json").read_text())
    injected = {i for step in trace["steps"] for ids in step["injected"].values() for i in ids}
    assert injected and injected <= refs
    quiet_steps = [s for s in trace["steps"] if s["alerts"] == "none"]
    assert quiet_steps and all(sum(c["injected_tokens"] for c in s["calls"]) == 0 for s in quiet_steps)
    assert training.attempts[1].total_return > first.total_return or not training.attempts[1].failed


def test_choose_floor_keeps_the_target_recall():
    positive = [0.62, 0.66, 0.7, 0.72, 0.74]
    negative = [0.2, 0.5, 0.64, 0.71, 0.9]
    result = choose_floor(positive, negative, target_recall=0.8)
    assert result.floor == pytest.approx(0.65) and result.recall == pytest.approx(0.8)
    assert result.false_positive_rate == pytest.approx(0.4) and result.positives == 5 and result.negatives == 5
    assert choose_floor(positive, negative, target_recall=1.0).floor == pytest.approx(0.6)
    with pytest.raises(ValueError, match="no applying"):
        choose_floor([], negative)
