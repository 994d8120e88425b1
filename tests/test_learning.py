"""The learning agents and the inner loop (Algorithm 1) with the surrogate on real CybORG."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agents.injection import FullInjection
from agents.learners import Exemplifier, Reflector
from forge.config import load_config
from forge.failure.snapshot import FailureSnapshot
from forge.failure.trigger import FailureTrigger
from forge.llm.types import Completion, Usage
from forge.memory import EMPTY_SNAPSHOT, Artifact, MemoryManager, open_store
from forge.protocol.episode import play_episode
from forge.protocol.inner_loop import InstanceLearner
from forge.wiring import build_clients


def learner_for(tmp_path, *overrides: str) -> InstanceLearner:
    cfg = load_config(overrides=["surrogate.reflector_error_rate=0.0", *overrides])
    clients, _ = build_clients(cfg)
    return InstanceLearner(instance="i0", session="sess", cfg=cfg, clients=clients,
                           memory=MemoryManager(open_store(str(tmp_path))), run_dir=tmp_path)


@pytest.mark.parametrize("feedback", ["paper", "privileged"])
def test_reflected_rules_reduce_the_failure_that_produced_them(tmp_path, feedback):
    learner = learner_for(tmp_path, "surrogate.compliance=1.0", "protocol.max_attempts=1", f"learner.feedback={feedback}")
    seed = 22  # the surrogate's trajectory follows its prompts; the contexts carry history since issue 18
    before = play_episode(learner.env, learner.defender(), seed=seed, trigger=FailureTrigger([-1.1]))
    assert before.failed
    training = learner.train_stage(1, seed)
    assert training.attempts[0].added >= 1
    if feedback == "privileged":
        after = play_episode(learner.env, learner.defender(), seed=seed, trigger=FailureTrigger([-1.1]))
        assert (not after.failed) or after.aborted_at > before.aborted_at
    # Paper feedback names no host: the lesson (the most valuable host left compromised) is inferred, and
    # on this seed red's next target differs once blue acts differently, so only the whole episode is compared.
    full_before = play_episode(learner.env, learner.defender(EMPTY_SNAPSHOT), seed=seed).total_return
    full_after = play_episode(learner.env, learner.defender(), seed=seed).total_return
    assert full_after > full_before


def test_inner_loop_bounds_attempts_and_records_provenance(tmp_path):
    learner = learner_for(tmp_path, "protocol.max_attempts=3", "protocol.success_attempts=1")
    training = learner.train_stage(2, 5)
    assert 1 <= len(training.attempts) <= 3
    clean = [a for a in training.attempts if not a.failed]
    assert len(clean) <= 1 and (not clean or clean[0] is training.attempts[-1])
    failed = [a for a in training.attempts if a.failed]
    assert failed, "zero-shot should fail on this seed"
    snapshot = FailureSnapshot.load(tmp_path / "failures" / f"{failed[0].failure_id}.json")
    assert snapshot.steps[-1].step == failed[0].failing_step
    # Paper feedback (the default): the snapshot holds only what the defender observed.
    assert snapshot.feedback == "paper" and snapshot.reward_breakdown == {} and snapshot.red_access == {}
    assert all(s.red_action == "" for s in snapshot.steps)
    learned = [a for a in failed if a.added][-1]  # earlier lessons may since have been replaced
    items = [i for i in learner.snapshot().items if i.provenance.attempt == learned.attempt]
    assert items
    prov = items[0].provenance
    assert (prov.instance, prov.session, prov.stage) == ("i0", "sess", 2)
    assert prov.actor == "reflector" and prov.episode_seed == 5 and prov.failing_step == learned.failing_step
    assert prov.trigger_reward is not None and prov.trigger_reward < -1.1
    history = learner.memory.history(learner.memory_key)
    assert [v.op for v in history][0] in ("apply", "init")
    assert (tmp_path / "traces" / "i0" / "s2-train-a1.json").is_file()


def test_agents_to_improve_confines_what_is_written(tmp_path):
    learner = learner_for(tmp_path, "protocol.agents_to_improve=[planner]")
    learner.train_stage(1, 5)
    roles = {item.role for item in learner.snapshot().items}
    assert roles == {"planner"}


def test_examples_are_written_and_followed(tmp_path):
    learner = learner_for(tmp_path, "protocol.representation=examples", "surrogate.compliance=1.0")
    zero = play_episode(learner.env, learner.defender(EMPTY_SNAPSHOT), seed=9).total_return
    learner.train_stage(1, 9)
    items = learner.snapshot().items
    assert items and all(i.kind == "example" and i.title for i in items)
    assert all("Answer:" in i.text and "Situation:" in i.text for i in items)
    after = play_episode(learner.env, learner.defender(), seed=9).total_return
    assert after > zero


def test_multi_threshold_snapshot_has_every_event(tmp_path):
    learner = learner_for(tmp_path, "protocol.thresholds=[-1.1,-10.0]", "protocol.max_attempts=1")
    training = learner.train_stage(1, 5)
    snapshot = FailureSnapshot.load(tmp_path / "failures" / f"{training.attempts[0].failure_id}.json")
    assert [e.threshold for e in snapshot.events] == [-1.1, -10.0]
    assert snapshot.events[0].step < snapshot.events[1].step == snapshot.steps[-1].step


class Scripted:
    def __init__(self, *replies: str):
        self.replies = list(replies)
        self.prompts = []

    def complete(self, messages, *, seed=None, stop=None):
        self.prompts.append(messages)
        return Completion(self.replies.pop(0), Usage(100, 20))


def a_failure(tmp_path, *overrides: str) -> FailureSnapshot:
    learner = learner_for(tmp_path, "protocol.max_attempts=1", *overrides)
    training = learner.train_stage(1, 5)
    return FailureSnapshot.load(tmp_path / "failures" / f"{training.attempts[0].failure_id}.json")


def test_learner_output_is_confined_and_bounded(tmp_path):
    failure = a_failure(tmp_path)
    memory = EMPTY_SNAPSHOT.with_items([Artifact.rule("planner", "When User1 shows Activity Scan, then Monitor.").to_item(1)])
    reply = json.dumps({
        "planner": {"rationale": "r", "delete": [1, 7, "x"], "add": [f"rule number {i}" for i in range(5)]},
        "analyst": {"add": ["sneaky"]},
        "../../etc/passwd": {"add": ["no"]},
    })
    client = Scripted("I think... no JSON here", reply)
    output = Reflector(client, ["planner", "action_chooser"], capacity=100, max_new=3).learn(failure, memory)
    assert len(client.prompts) == 2  # one corrective re-prompt
    assert [p.text for p in output.proposals] == ["rule number 0", "rule number 1", "rule number 2"]
    assert all(p.role == "planner" for p in output.proposals)
    assert output.deletions == [memory.items[0].id]
    assert any("analyst" in p for p in output.problems) and any("passwd" in p for p in output.problems)
    assert any("7" in p for p in output.problems)
    prompt = client.prompts[0][1].content
    assert "Failure report" in prompt and "1. When User1 shows Activity Scan, then Monitor." in prompt


def test_a_template_slot_echoed_back_is_not_learned(tmp_path):
    """SmolLM2-135M, asked to reflect through llama.cpp, filled `add` with the prompt's slots ("<rule>")."""
    failure = a_failure(tmp_path)
    rules = json.dumps({"planner": {"rationale": "r", "delete": [], "add": ["<rule>", " <rule number> ", "Restore <host> first"]}})
    output = Reflector(Scripted(rules), ["planner"], capacity=100).learn(failure, EMPTY_SNAPSHOT)
    assert [p.text for p in output.proposals] == ["Restore <host> first"]
    assert sum("template slot" in p for p in output.problems) == 2
    examples = json.dumps({"planner": {"rationale": "r", "delete_names": [], "add_examples": [
        {"name": "slot", "situation": "<situation>", "steps": ["Answer: Monitor"]}]}})
    output = Exemplifier(Scripted(examples), ["planner"], capacity=50).learn(failure, EMPTY_SNAPSHOT)
    assert output.proposals == [] and any("dropped" in p for p in output.problems)


def test_the_local_models_reflections_are_parsed_and_teach_nothing(tmp_path):
    """Real output: SmolLM2-135M's four reflections (tests/data/local_session/reflector_replies.json) are
    well-formed JSON whose `add` holds only template slots and whose `delete` names rules that do not exist."""
    recorded = json.loads((Path(__file__).parent / "data" / "local_session" / "reflector_replies.json").read_text())
    failure = a_failure(tmp_path)
    roles = ["planner", "analyst", "action_chooser"]
    for reply in recorded["replies"]:
        client = Scripted(reply)
        output = Reflector(client, roles, capacity=100).learn(failure, EMPTY_SNAPSHOT)
        assert len(client.prompts) == 1  # parsed as it came: no corrective re-prompt
        assert output.proposals == [] and output.deletions == []
        assert sum("template slot" in p for p in output.problems) == 3
        assert sum("no rule number" in p for p in output.problems) == 3


def test_learner_gives_up_after_one_correction(tmp_path):
    failure = a_failure(tmp_path)
    client = Scripted("nope", "still nope")
    output = Exemplifier(client, ["planner"], capacity=50).learn(failure, EMPTY_SNAPSHOT)
    assert output.proposals == [] and output.problems and len(client.prompts) == 2


def test_failure_report_is_compact(tmp_path):
    failure = a_failure(tmp_path)
    from agents.learners import render_failure_report

    report = render_failure_report(failure)
    assert len(report.splitlines()) == 3 + len(failure.steps)  # header, failure, trajectory title, one line per step
    assert len(report) < 400 * len(failure.steps)  # one bounded line per step, not raw trajectories


def test_paper_feedback_is_what_the_defender_saw_and_privileged_adds_labelled_ground_truth(tmp_path):
    from agents.learners import render_failure_report

    paper = a_failure(tmp_path / "paper")
    privileged = a_failure(tmp_path / "privileged", "learner.feedback=privileged")
    assert (paper.feedback, privileged.feedback) == ("paper", "privileged")
    assert [s.alerts for s in paper.steps] == [s.alerts for s in privileged.steps]  # same episode, same seed
    shown = render_failure_report(paper)
    assert f"step {paper.failing_step} reward {paper.failing_reward:+.1f} below {paper.threshold:+.1f}" in shown
    assert all(f"step {s.step} | alerts: {s.alerts} | action: {s.action}" in shown for s in paper.steps)
    assert "by host" not in shown and "ground truth" not in shown and "attacker:" not in shown
    full = render_failure_report(privileged)
    assert privileged.reward_breakdown and "Reward at the failing step by host:" in full
    assert "Attacker access at the failing step (ground truth):" in full and "| attacker: " in full
    # Snapshots written before the option carried the ground truth: they load as privileged.
    legacy = privileged.to_dict()
    del legacy["feedback"]
    assert FailureSnapshot.from_dict(legacy).privileged


def test_the_surrogate_reflector_learns_from_paper_feedback(tmp_path):
    """No per-host reward: it infers the host from the alerts it saw and the actions it took."""
    failure = a_failure(tmp_path)
    clients, _ = build_clients(load_config(overrides=["surrogate.reflector_error_rate=0.0"]))
    output = Reflector(clients["reflector"], ["action_chooser"], 100).learn(failure, EMPTY_SNAPSHOT)
    assert len(output.proposals) == 1
    from forge.llm.surrogate.free_text import read_rule

    rule = read_rule(output.proposals[0].text)
    compromised = {a.split(":")[0] for s in failure.steps for a in s.alerts.split("; ") if "Compromised User" in a
                   or "Compromised Privileged" in a}
    assert rule.kind == "do" and rule.act.verb == "Restore" and rule.trigger.subject in compromised
    # Of the hosts left compromised, an enterprise host outranks the user host the attacker came through.
    assert rule.trigger.subject.startswith("Enterprise") or not any(h.startswith("Enterprise") for h in compromised)


def test_full_injection_is_per_role():
    memory = EMPTY_SNAPSHOT.with_items([
        Artifact.rule("planner", "When User1 shows Activity Scan, then Monitor.").to_item(1),
        Artifact.example("action_chooser", "ex", "Situation:\nUser1: Activity Scan, Compromised No\nAnswer: Monitor").to_item(2),
    ])
    injection = FullInjection(memory)
    assert [i.kind for i in injection.for_call("planner", "").items] == ["rule"]
    assert [i.kind for i in injection.for_call("action_chooser", "").items] == ["example"]
    assert injection.for_call("analyst", "").items == ()


@pytest.mark.slow
def test_reflexion_command_improves_on_zero_shot(tmp_path, capsys):
    from forge.cli import main

    code = main(["reflexion", "--stages", "2", "--attempts", "2", "--eval-episodes", "4",
                 f"run.runs_dir={tmp_path}"])
    assert code == 0
    report = json.loads(next(tmp_path.glob("*/reports/reflexion.json")).read_text())
    assert report["after"]["mean"] > report["zero_shot"]["mean"]
    assert "SURROGATE" in report["model"]
    assert "stage 1 attempt 1" in capsys.readouterr().out


@pytest.mark.slow
def test_run_reflexion_is_a_domain_call_that_reports_through_its_callbacks(tmp_path):
    from forge.config import load_config
    from forge.runs.reflexion import run_reflexion

    cfg = load_config(overrides=["protocol.num_stages=1", "protocol.max_attempts=2", "env.max_steps=15",
                                 f"run.runs_dir={tmp_path}", "run.name=r"])
    phases, stages, evaluated = [], [], []
    result = run_reflexion(cfg, "i00", 2, on_phase=phases.append, on_stage=stages.append,
                           on_evaluated=lambda label, stats: evaluated.append((label, stats.n)))
    assert evaluated == [("zero-shot", 2), ("after learning", 2)]
    assert [t.stage for t in stages] == [1] and 1 <= len(stages[0].attempts) <= 2
    assert phases[0].startswith("zero-shot") and phases[1].startswith("stage 1: training on seed")
    assert json.loads((result.run_dir.reports / "reflexion.json").read_text()) == result.to_dict()
    assert result.snapshot.digest == result.to_dict()["memory_digest"] and result.tokens_by_role


@pytest.mark.parametrize("reply", [
    '{"planner": {"delete": {"a": 1}, "add": {"x": 1}}}',
    '{"planner": "add everything"}',
    '["planner"]',
    '{"planner": {"add": [null, 5, "", "   "], "delete": "1"}}',
    '{"planner": {"add_examples": "x"}}',
])
def test_hostile_learner_json_never_crashes(tmp_path, reply):
    failure = a_failure(tmp_path)
    for learner in (Reflector(Scripted(reply, reply), ["planner"], 100), Exemplifier(Scripted(reply, reply), ["planner"], 50)):
        output = learner.learn(failure, EMPTY_SNAPSHOT)
        assert output.proposals == [] and output.deletions == []
