"""Replies as real models write them: JSON under constrained decoding and text alike, each reply's fate
(used / repaired / re-prompted / fallen back) counted per role, and the schema reaching the wire only
where the provider constrains decoding."""

from __future__ import annotations

import json

import pytest

from agents.defender import Defender
from agents.injection import NoInjection
from agents.react import assessment_text, parse_planner_turn, parse_suggestions
from agents.schemas import action_chooser_schema, action_names, planner_schema, reflector_schema
from forge.rulebook.authoring.compiler_schema import compiler_schema
from forge.config import load_config
from forge.env import Cage2Env
from forge.env.catalog import parse_action
from forge.llm.accounting import ModelClient, UsageLedger
from forge.llm.json_reply import ask_for_json
from forge.llm.openai_provider import read_usage, response_format
from forge.llm.replies import replies_by_role, usage_keys
from forge.llm.types import Completion, Message, Usage
from forge.wiring import model_caveat, model_label


class ScriptedProvider:
    """A provider that answers from a list and keeps what it was asked (schema included)."""

    name = "scripted"

    def __init__(self, replies, finish_reason="stop"):
        self.replies = list(replies)
        self.asked: list[dict] = []
        self.finish_reason = finish_reason

    def complete(self, messages, *, model, temperature=0.0, max_tokens=512, seed=None, stop=None, **extra):
        self.asked.append({"messages": list(messages), **extra})
        text = self.replies.pop(0) if self.replies else '{"actions": [{"action": "Monitor", "reason": "r"}]}'
        return Completion(text, Usage(10, 5), model=model, finish_reason=self.finish_reason)


def clients(planner, analyst=(), chooser=(), *, structured=True, finish_reason="stop"):
    cfg = load_config()
    ledger = UsageLedger()
    providers = {"planner": ScriptedProvider(planner, finish_reason), "analyst": ScriptedProvider(analyst),
                 "action_chooser": ScriptedProvider(chooser)}
    built = {role: ModelClient(role, p, cfg.models.default, ledger, structured=structured) for role, p in providers.items()}
    return built, providers, ledger


def one_step(built, max_tools=2):
    cfg = load_config(overrides=[f"agent.max_tool_calls_per_step={max_tools}"])
    defender = Defender(built, NoInjection(), cfg.agent, 10)
    env = Cage2Env()
    env.reset(seed=0)
    defender.start_episode(env, 0)
    return defender.act(env)


def test_planner_json_turns_read_as_tool_calls_and_answers():
    tool = parse_planner_turn('{"tool": "get_analysis_of_host_update", "argument": "User1", "answer": ""}')
    assert [str(c) for c in tool.tool_calls] == ["get_analysis_of_host_update(User1)"] and tool.repaired is None
    answer = parse_planner_turn('{"tool": "none", "argument": "", "answer": "Restore Enterprise1"}')
    assert answer.answer == "Restore Enterprise1" and not answer.tool_calls
    wrapped = parse_planner_turn('Sure:\n```json\n{"answer": "Monitor"}\n```')
    assert wrapped.answer == "Monitor" and wrapped.repaired == "JSON inside other text"
    cut = parse_planner_turn("Tool: get_updated_hosts()\nResult of get_updated_hosts(): invented")
    assert cut.repaired == "cut at an invented tool result"
    assert parse_planner_turn('{"tool": "none", "answer": ""}').answer is None


def test_suggestions_and_assessments_read_json_and_skip_invalid_actions():
    found = parse_suggestions(json.dumps({"actions": [{"action": "Fly away", "reason": "x"},
                                                      {"action": "Remove User2", "reason": "user shell"}]}))
    assert [s.line for s in found] == ["Remove User2 - user shell"]
    text = assessment_text('{"host": "User2", "activity": "Exploit", "compromise": "User", "evidence": "e", "risk": "high"}')
    assert text.splitlines() == ["Host: User2", "Activity: Exploit", "Compromise: User", "Evidence: e", "Risk: high"]
    assert assessment_text("Host: User2\nRisk: low") == "Host: User2\nRisk: low"


def test_schemas_enumerate_only_valid_actions_and_narrow_when_no_tools_are_left():
    assert all(parse_action(name) >= 0 for name in action_names())
    assert set(planner_schema(()) ["properties"]) == {"answer"}
    assert "get_updated_hosts" in planner_schema(("get_updated_hosts",))["properties"]["tool"]["enum"]
    item = action_chooser_schema()["properties"]["actions"]["items"]
    assert item["properties"]["reason"]["maxLength"] <= 120
    assert set(reflector_schema(("planner",), 2)["properties"]) == {"planner"}
    entry = compiler_schema(("planner",), ("CONTENT",))["properties"]["rules"]["items"]
    roles = entry["properties"]["roles"]  # optional: every field is required, the optional ones nullable
    assert roles["items"]["enum"] == ["planner"] and roles["type"] == ["array", "null"]
    assert entry["required"] == list(entry["properties"]) and entry["properties"]["item"] == {"type": "integer"}


def test_constrained_step_acts_on_the_models_reply_and_counts_it_as_used():
    built, providers, ledger = clients(
        ['{"tool": "get_suggestion_for_next_action", "argument": "User2 exploited", "answer": ""}',
         '{"tool": "none", "argument": "", "answer": "Remove User2"}'],
        chooser=['{"actions": [{"action": "Remove User2", "reason": "user shell"}]}'])
    decision = one_step(built)
    assert not decision.fallback and decision.action_text == "Remove User2"
    assert ledger.replies_by_role() == {"planner": {"used": 2}, "action_chooser": {"used": 1}}
    assert [c.reply for c in decision.calls] == ["used", "used", "used"]
    # the schema went out with every call, and the system prompt shows the JSON form
    assert all("schema" in asked for asked in providers["planner"].asked)
    assert "Your replies are JSON" in providers["planner"].asked[0]["messages"][0].content


def test_unusable_replies_are_reprompted_then_fall_back_with_the_reason_never_silently():
    built, providers, ledger = clients(["I think we should defend.", "Deleting an action is non-defensive."],
                                       structured=False)
    decision = one_step(built)
    assert decision.fallback and decision.action_text == "Monitor"
    assert "no `Answer:` line" in decision.fallback_reason
    assert ledger.replies_by_role()["planner"] == {
        "fallback": 1, "fallback: no answer and no tool call": 1,
        "reprompted": 1, "reprompted: no answer and no tool call": 1}
    assert not any("schema" in asked for asked in providers["planner"].asked)  # not a constrained provider


def test_a_reply_cut_at_max_tokens_says_so():
    built, _, ledger = clients(['{"tool": "none", "answer": "Rest', '{"tool": "none", "answer": "Rest'],
                               finish_reason="length")
    decision = one_step(built)
    assert decision.fallback
    assert ledger.replies_by_role()["planner"]["fallback: cut at max_tokens"] == 1


def test_json_exchanges_note_used_repaired_reprompted_and_fallback():
    cfg = load_config()
    ledger = UsageLedger()
    provider = ScriptedProvider(["no json here", 'Here: {"planner": {}}', "{", "{"])
    client = ModelClient("reflector", provider, cfg.models.default, ledger, structured=True)
    first = ask_for_json(client, [Message("user", "x")], seed=1, validate=lambda d: d, schema={"type": "object"})
    assert first.outcomes == ["reprompted: no JSON object", "repaired: JSON inside other text"]
    second = ask_for_json(client, [Message("user", "x")], seed=1, validate=lambda d: d)
    assert second.value is None and second.outcomes == ["reprompted: no JSON object", "fallback: no JSON object"]
    assert provider.asked[0]["schema"] == {"type": "object"} and "schema" not in provider.asked[2]
    counts = ledger.replies_by_role()["reflector"]
    assert (counts.get("used", 0), counts["repaired"], counts["reprompted"], counts["fallback"]) == (0, 1, 2, 1)


def test_reply_counts_travel_as_usage_keys_and_sum_over_units():
    ledger = UsageLedger()
    for outcome in ("used", "used", "fallback: no valid action"):
        ledger.note_reply("action_chooser", outcome)
    shipped = UsageLedger.from_dict(ledger.to_dict())  # as an actor ships it
    unit = {"action_chooser": {"prompt": 1, **usage_keys(shipped.replies_by_role()["action_chooser"])}}
    table = replies_by_role([unit, unit])
    assert table["action_chooser"]["replies"] == 6 and table["action_chooser"]["fallback"] == 2
    assert table["action_chooser"]["shares"]["used"] == pytest.approx(4 / 6, abs=1e-3)
    assert table["action_chooser"]["reasons"] == {"fallback: no valid action": 2}


def test_response_format_spellings_and_cached_usage():
    schema = {"type": "object"}
    assert response_format("json_object", schema) == {"type": "json_object", "schema": schema}
    assert response_format("json_schema", schema)["json_schema"]["schema"] == schema
    usage = read_usage({"prompt_tokens": 100, "completion_tokens": 7, "prompt_tokens_details": {"cached_tokens": 64}})
    assert (usage.prompt_tokens, usage.completion_tokens, usage.cached_prompt_tokens) == (100, 7, 64)
    assert read_usage({"prompt_tokens": 3, "completion_tokens": 1}).cached_prompt_tokens == 0
    assert read_usage(None) is None


def test_the_local_model_is_labelled_an_integration_model_everywhere_a_label_goes():
    cfg = load_config("configs/local.yaml")
    assert "135M-parameter INTEGRATION model" in model_caveat(cfg)
    assert "135M-parameter INTEGRATION model" in model_label(cfg)
    assert cfg.providers["local"].structured_output == "json_object"
    assert "SURROGATE" in model_caveat(load_config())
    with pytest.raises(Exception, match="structured_output"):
        load_config("configs/local.yaml", overrides=["providers.local.structured_output=grammar"])


def test_cached_prompt_tokens_are_priced_at_the_cached_price():
    from forge.llm.accounting import cost_by_role, role_prices

    cfg = load_config(overrides=["providers.surrogate.price_in_per_mtok=2.0", "providers.surrogate.price_out_per_mtok=8.0",
                                 "providers.surrogate.price_cached_in_per_mtok=0.5"])
    prices = role_prices(cfg)
    usage = {"planner": {"prompt": 1_000_000, "completion": 100_000, "cached_prompt": 600_000}}
    assert cost_by_role(usage, prices)["planner"] == pytest.approx(0.4 * 2.0 + 0.6 * 0.5 + 0.1 * 8.0)
    plain = role_prices(load_config(overrides=["providers.surrogate.price_in_per_mtok=2.0"]))
    assert cost_by_role(usage, plain)["planner"] == pytest.approx(2.0)  # no cached price: cached is input


def test_prompts_put_the_stable_part_first_and_the_observation_last():
    built, providers, _ = clients(['{"tool": "none", "argument": "", "answer": "Monitor"}',
                                   '{"tool": "none", "argument": "", "answer": "Monitor"}'])
    cfg = load_config()
    defender = Defender(built, NoInjection(), cfg.agent, 10)
    env = Cage2Env()
    env.reset(seed=0)
    defender.start_episode(env, 0)
    defender.act(env)
    defender.record_outcome(0.0)
    env.step(0)
    defender.act(env)
    first, second = (asked["messages"] for asked in providers["planner"].asked)
    assert first[0] == second[0]  # the system prompt (with memory) is the same from step to step: a cacheable prefix
    assert first[-1].role == second[-1].role == "user" and "Step 1" in first[-1].content and "Step 2" in second[-1].content


def test_a_refused_reply_is_counted_refused_and_the_step_takes_its_fallback_not_an_empty_answer():
    built, providers, ledger = clients([], finish_reason="refusal")
    decision = one_step(built)
    assert decision.fallback and decision.action_text == "Monitor" and decision.fallback_reason == "planner model error"
    assert ledger.replies_by_role() == {"planner": {"refused": 1, "refused: refusal": 1}}
    assert "ModelRefusal" in decision.calls[0].error and ledger.totals_by_role()["planner"].prompt_tokens == 10  # billed
    reflector = ModelClient("reflector", ScriptedProvider([], finish_reason="refusal"), load_config().models.default, ledger)
    answer = ask_for_json(reflector, [Message("user", "reflect")], seed=0, validate=dict)
    assert answer.value is None and answer.error is not None and answer.outcomes == []  # noted once, by the client
    assert ledger.replies_by_role()["reflector"] == {"refused": 1, "refused: refusal": 1}
