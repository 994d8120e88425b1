"""The hierarchical defender with the surrogate on real CybORG: prompts, memory per role, robustness."""

from __future__ import annotations

import pytest

from agents.defender import Defender
from agents.injection import FullInjection, NoInjection
from agents.react import parse_planner_turn, parse_suggestions
from forge.config import load_config
from forge.env import Cage2Env
from forge.env.catalog import action_name
from forge.llm.surrogate import SurrogateProvider
from forge.llm.types import Message
from forge.memory import EMPTY_SNAPSHOT, Artifact
from forge.protocol.episode import play_episode
from forge.wiring import build_clients


class Recording:
    """A role's client that keeps every prompt it sends (and answers with the surrogate)."""

    def __init__(self, role: str, provider, log: list):
        self.role, self.provider, self.log = role, provider, log

    def complete(self, messages, *, seed=None, stop=None):
        self.log.append((self.role, list(messages)))
        return self.provider.complete(messages, model="forge-surrogate-1", seed=seed, stop=stop)


def recording_clients(cfg, log):
    provider = SurrogateProvider("surrogate", cfg.surrogate)
    return {role: Recording(role, provider, log) for role in ("planner", "analyst", "action_chooser")}


def snapshot_with(*rules: tuple[str, str]):
    items = [Artifact.rule(role, text).to_item(seq) for seq, (role, text) in enumerate(rules, 1)]
    return EMPTY_SNAPSHOT.with_items(items)


def test_each_role_prompt_carries_exactly_its_own_memory():
    cfg = load_config(overrides=["surrogate.compliance=0.0"])
    memory = snapshot_with(
        ("planner", "When User3 shows Activity Scan, then Monitor."),
        ("analyst", "When User4 shows Activity Scan, then Monitor."),
        ("action_chooser", "When Op_Host2 shows Activity Scan, then Monitor."),
        ("action_chooser", "When Op_Host1 shows Activity Scan, then Monitor."),
    )
    log: list = []
    defender = Defender(recording_clients(cfg, log), FullInjection(memory), cfg.agent, 30)
    result = play_episode(Cage2Env(max_steps=6), defender, seed=3)
    seen_roles = {role for role, _ in log}
    assert seen_roles == {"planner", "analyst", "action_chooser"}
    for role, messages in log:
        system = messages[0].content
        own = {item.text for item in memory.items_for(role, "rule")}
        others = {item.text for item in memory.items if item.role != role}
        assert all(text in system for text in own), role
        assert not any(text in m.content for m in messages for text in others), role
    # The trace names the injected items per role.
    injected = result.steps[0].injected
    assert set(injected["planner"]) == {i.id for i in memory.items_for("planner")}


def test_surrogate_follows_a_rule_in_its_prompt_and_not_a_removed_one():
    cfg = load_config(overrides=["surrogate.compliance=1.0"])
    surrogate = SurrogateProvider("surrogate", cfg.surrogate)
    rule = "When Enterprise1 shows Compromised User, then Restore Enterprise1."
    situation = "Situation (from the Planner): trouble\n\nAlerts:\nEnterprise1: Activity Exploit, Compromised User"

    def chooser(rules: list[str]) -> str:
        system = "You are the ActionChooser of a blue-team defender.\n"
        if rules:
            system += "## Learned rules\n" + "\n".join(f"- {r}" for r in rules) + "\n"
        return surrogate.complete([Message("system", system), Message("user", situation)], model="m", seed=1).text

    top = parse_suggestions(chooser([rule]))[0].action
    assert action_name(top) == "Restore Enterprise1"
    for seed_rules in ([], ["When Enterprise2 shows Compromised User, then Restore Enterprise2."]):
        suggestions = [action_name(s.action) for s in parse_suggestions(chooser(seed_rules))]
        assert "Restore Enterprise1" not in suggestions


def test_a_memory_rule_changes_actions_and_its_deletion_undoes_it(tmp_path):
    from forge.memory import MemoryManager, open_store

    cfg = load_config(overrides=["surrogate.compliance=1.0"])
    clients, _ = build_clients(cfg)
    manager = MemoryManager(open_store(str(tmp_path)))
    rule = "When a User host shows Compromised User, then Restore that host."
    version, _ = manager.apply_artifacts("s/i0", [Artifact.rule("action_chooser", rule)])
    env = Cage2Env()

    def restores(snapshot) -> int:
        defender = Defender(clients, FullInjection(snapshot), cfg.agent, 30)
        return sum(s.action.startswith("Restore User") for s in play_episode(env, defender, seed=4).steps)

    assert restores(manager.snapshot("s/i0")) > 0
    item_id = manager.snapshot("s/i0").items[0].id
    manager.delete("s/i0", [item_id])
    assert restores(manager.snapshot("s/i0")) == 0
    assert manager.snapshot_at("s/i0", version.number).get(item_id) is not None  # a tombstone, not erasure


@pytest.mark.parametrize("fault", ["empty_rate", "malformed_rate"])
def test_bad_model_output_never_crashes_an_episode(fault):
    cfg = load_config(overrides=["faults.enabled=true", f"faults.{fault}=1.0"])
    clients, _ = build_clients(cfg)
    result = play_episode(Cage2Env(), Defender(clients, NoInjection(), cfg.agent, 30), seed=0)
    assert len(result.steps) == 30
    fallbacks = [s for s in result.steps if s.fallback]
    assert fallbacks, "bad output must be recorded as fallback steps"
    assert all(s.fallback_reason for s in fallbacks)


def test_provider_errors_become_fallbacks_not_crashes():
    cfg = load_config(overrides=["faults.enabled=true", "faults.transient_error_rate=1.0",
                                 "providers.surrogate.max_retries=1", "providers.surrogate.backoff_initial_s=0.0",
                                 "providers.surrogate.backoff_max_s=0.0"])
    clients, _ = build_clients(cfg)
    result = play_episode(Cage2Env(max_steps=5), Defender(clients, NoInjection(), cfg.agent, 5), seed=0)
    assert len(result.steps) == 5
    assert all(s.fallback and "model error" in s.fallback_reason for s in result.steps)
    assert all(call.error for s in result.steps for call in s.calls)


def test_zero_shot_surrogate_is_weak_and_bounded_in_calls_and_history():
    cfg = load_config()
    clients, _ = build_clients(cfg)
    defender = Defender(clients, NoInjection(), cfg.agent, 30)
    env = Cage2Env()
    returns = []
    for seed in range(6):
        result = play_episode(env, defender, seed=seed)
        returns.append(result.total_return)
        calls = sorted(len(s.calls) for s in result.steps)
        assert calls[len(calls) // 2] <= 4
        # The observation holds a bounded window of recent steps, not the whole episode.
        assert result.steps[-1].observation.count("reward") <= cfg.agent.history_steps
    assert sum(returns) / len(returns) < -100


def test_planner_parser_is_defensive():
    turn = parse_planner_turn("Tool: get_analysis_of_host_update(host=\"User1\")\nResult of x: fake\nAnswer: Restore User1")
    assert [str(c) for c in turn.tool_calls] == ["get_analysis_of_host_update(User1)"]
    assert turn.answer is None and "fake" not in turn.kept_text
    turn = parse_planner_turn("Thinking...\nAnswer: `Remove User2`.")
    assert turn.answer == "Remove User2" and not turn.tool_calls
    assert parse_planner_turn("").answer is None
    long = parse_planner_turn("Tool: get_suggestion_for_next_action(" + "x" * 5000 + ")")
    assert len(long.tool_calls[0].argument) <= 300


class Scripted:
    """A client that replays fixed replies, to drive the defender through its edge cases."""

    def __init__(self, replies):
        self.replies = list(replies)

    def complete(self, messages, *, seed=None, stop=None):
        from forge.llm.types import Completion, Usage

        text = self.replies.pop(0) if self.replies else "1. Monitor - nothing else"
        return Completion(text, Usage(10, 5))


def test_unknown_host_and_tool_budget_and_correction():
    cfg = load_config(overrides=["agent.max_tool_calls_per_step=2"])
    planner = Scripted([
        "Tool: get_analysis_of_host_update(User9)",  # unknown host: an error result, no Analyst call
        "Tool: get_suggestion_for_next_action(anything)",
        "Tool: get_updated_hosts()",  # over budget: told to answer
        "Answer: Fly away",  # invalid action: corrective re-prompt already used -> fallback
    ])
    chooser = Scripted(["1. Restore User2 - because"])
    analyst = Scripted([])
    defender = Defender({"planner": planner, "analyst": analyst, "action_chooser": chooser}, NoInjection(), cfg.agent, 30)
    env = Cage2Env()
    env.reset(seed=0)
    defender.start_episode(env, 0)
    decision = defender.act(env)
    assert decision.tools[0] == "get_analysis_of_host_update(User9)"
    assert [c.role for c in decision.calls].count("analyst") == 0
    assert decision.fallback and decision.action_text == "Restore User2"  # the chooser's best valid suggestion
