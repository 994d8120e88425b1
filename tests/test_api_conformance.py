"""The real `openai` and `google-genai` SDKs against `forge serve` emulating each API, in every mode FORGE
uses: free text, JSON mode, a strict JSON schema, reasoning / thinking; with refusals and blocks, length
cuts, and the usage of thinking and cached prompts. Real HTTP on loopback.

Two sides are checked: the emulator answers as the API documents (status, error body, finish reason,
usage fields; forge/llm/api_rules.py and schema_rules.py hold the rules), and FORGE's providers send
only what the API accepts and read every reply whole.
"""

from __future__ import annotations

import json
from typing import Iterator

import httpx
import openai
import pytest
from google import genai
from google.genai import types as genai_types

from agents.react import TOOLS
from agents.schemas import analyst_schema, planner_schema
from forge.config import ModelConfig, ProviderConfig
from forge.llm.accounting import ModelClient, UsageLedger
from forge.llm.gemini_provider import GeminiProvider
from forge.llm.openai_provider import OpenAIProvider
from forge.llm.serve import ModelServer
from forge.llm.types import LENGTH, REFUSAL, STOP, Message, ModelRefusal, ProviderError
from forge.rulebook.authoring.compile import COMPILER_SCHEMA
from tests.api_stub import SchemaAnswering

CHAT_MODEL, REASONING_MODEL = "gpt-4o-mini", "gpt-5-mini"
FLASH, PRO, OLD = "gemini-2.5-flash", "gemini-2.5-pro", "gemini-2.0-flash"
ASK = [Message("system", "You defend a network. Reply in JSON."), Message("user", "What now?")]


@pytest.fixture
def stub() -> SchemaAnswering:
    return SchemaAnswering()


@pytest.fixture
def server(stub) -> Iterator[ModelServer]:
    with ModelServer(stub, models=[CHAT_MODEL, REASONING_MODEL, FLASH, PRO, OLD], pass_schema=True) as srv:
        yield srv


def sdk(server: ModelServer) -> openai.OpenAI:
    return openai.OpenAI(api_key="unused", base_url=server.openai_base_url, max_retries=0)


def gemini_sdk(server: ModelServer) -> genai.Client:
    return genai.Client(api_key="unused", vertexai=False,
                        http_options=genai_types.HttpOptions(base_url=server.url, api_version="v1beta"))


def openai_provider(server: ModelServer, **cfg) -> OpenAIProvider:
    return OpenAIProvider("openai", ProviderConfig(kind="openai", base_url=server.openai_base_url, timeout_s=10,
                                                   **{"structured_output": "json_schema", **cfg}))


def gemini_provider(server: ModelServer, **cfg) -> GeminiProvider:
    return GeminiProvider("gemini", ProviderConfig(kind="gemini", base_url=server.url, timeout_s=10,
                                                   **{"structured_output": "json_schema", **cfg}))


def raw_post(server: ModelServer, path: str, body: dict) -> httpx.Response:
    return httpx.post(server.url + path, json=body, timeout=10)


# -- OpenAI chat completions -----------------------------------------------------------------------------


def test_openai_free_text_reads_usage_details_through_the_sdk(server):
    answer = sdk(server).chat.completions.create(model=CHAT_MODEL, messages=[{"role": "user", "content": "hello"}])
    choice = answer.choices[0]
    assert choice.message.content == "echo: hello" and choice.message.refusal is None and choice.finish_reason == "stop"
    assert answer.usage.completion_tokens_details.reasoning_tokens == 0
    assert answer.usage.prompt_tokens_details.cached_tokens == 0


def test_openai_json_mode_needs_the_word_json_in_the_messages(server):
    client = sdk(server)
    with pytest.raises(openai.BadRequestError) as refused:
        client.chat.completions.create(model=CHAT_MODEL, messages=[{"role": "user", "content": "hello"}],
                                       response_format={"type": "json_object"})
    assert refused.value.status_code == 400 and refused.value.body["param"] == "messages"
    assert refused.value.body["type"] == "invalid_request_error"
    ok = client.chat.completions.create(model=CHAT_MODEL, messages=[{"role": "user", "content": "answer in JSON"}],
                                        response_format={"type": "json_object"})
    assert ok.choices[0].finish_reason == "stop"


@pytest.mark.parametrize("broken, named", [
    ({"additionalProperties": True}, "'additionalProperties' is required to be supplied and to be false"),
    ({"required": ["action"]}, "Missing 'reason'"),
    ({"properties": {"action": {"type": "string"}, "reason": {"type": "string", "maxLength": 40}}}, "'maxLength' is not permitted"),
    ({"properties": {"action": {"type": "string"}, "reason": {"not": {"type": "null"}}}}, "'not' is not permitted"),
])
def test_openai_strict_mode_refuses_what_strict_mode_refuses(server, stub, broken, named):
    schema = {"type": "object", "additionalProperties": False, "required": ["action", "reason"],
              "properties": {"action": {"type": "string"}, "reason": {"type": "string"}}, **broken}
    with pytest.raises(openai.BadRequestError) as refused:
        sdk(server).chat.completions.create(
            model=CHAT_MODEL, messages=[{"role": "user", "content": "go"}],
            response_format={"type": "json_schema", "json_schema": {"name": "reply", "schema": schema, "strict": True}})
    body = refused.value.body
    assert refused.value.status_code == 400 and body["param"] == "response_format" and body["type"] == "invalid_request_error"
    assert body["message"].startswith("Invalid schema for response_format 'reply'") and named in body["message"]
    assert stub.calls == []  # refused before the model


@pytest.mark.parametrize("schema", [planner_schema(TOOLS), analyst_schema(), COMPILER_SCHEMA],
                         ids=["planner", "analyst", "compiler"])
def test_the_providers_strict_schemas_are_accepted_and_the_reply_follows_them(server, stub, schema):
    answer = openai_provider(server).complete(ASK, model=CHAT_MODEL, schema=schema, max_tokens=400)
    sent = stub.calls[-1]["schema"]
    assert answer.finish_reason == STOP and isinstance(json.loads(answer.text), dict)
    assert set(json.loads(answer.text)) == set(sent["properties"])  # every property present: strict


def test_a_reasoning_model_refuses_the_chat_models_parameters(server):
    client = sdk(server)
    with pytest.raises(openai.BadRequestError) as refused:
        client.chat.completions.create(model=REASONING_MODEL, messages=[{"role": "user", "content": "x"}], max_tokens=50)
    assert refused.value.body["param"] == "max_tokens" and refused.value.body["code"] == "unsupported_parameter"
    assert "max_completion_tokens" in refused.value.body["message"]
    with pytest.raises(openai.BadRequestError) as refused:
        client.chat.completions.create(model=REASONING_MODEL, messages=[{"role": "user", "content": "x"}], temperature=0)
    assert refused.value.body["param"] == "temperature" and refused.value.body["code"] == "unsupported_value"
    with pytest.raises(openai.BadRequestError) as refused:
        client.chat.completions.create(model=CHAT_MODEL, messages=[{"role": "user", "content": "x"}], reasoning_effort="low")
    assert refused.value.body["param"] == "reasoning_effort"
    answer = client.chat.completions.create(model=REASONING_MODEL, messages=[{"role": "user", "content": "x"}],
                                            max_completion_tokens=300, reasoning_effort="high")
    details = answer.usage.completion_tokens_details
    assert details.reasoning_tokens == 300 and answer.choices[0].finish_reason == "length"  # high effort: 512 > 300
    assert answer.choices[0].message.content == "" and answer.usage.completion_tokens == 300


def test_the_provider_speaks_the_reasoning_dialect_and_reads_the_reasoning_tokens(server, stub):
    provider = openai_provider(server, reasoning_effort="low")
    answer = provider.complete(ASK, model=REASONING_MODEL, temperature=0.0, max_tokens=400, stop=["\nResult of"])
    assert answer.finish_reason == STOP and answer.text.startswith("echo:")
    assert answer.usage.reasoning_tokens == 32  # the emulator's "low" effort, billed as output
    assert answer.usage.completion_tokens == 32 + len(answer.text) // 4 + (len(answer.text) % 4 > 0)
    assert stub.calls[-1]["max_tokens"] == 400 - 32  # the reasoning counts against max_completion_tokens
    stopped = provider.complete([Message("user", "say A\nResult of B")], model=REASONING_MODEL, max_tokens=400,
                                stop=["\nResult of"])
    assert stopped.text == "echo: say A"  # no `stop` parameter for the model: applied by the provider


def test_a_reasoning_budget_used_up_is_a_length_cut_with_no_text_never_an_answer(server):
    cut = openai_provider(server).complete(ASK, model=REASONING_MODEL, max_tokens=100)  # medium effort: 128
    assert cut.finish_reason == LENGTH and cut.text == "" and cut.usage.reasoning_tokens == cut.usage.completion_tokens == 100
    ledger = UsageLedger()
    client = ModelClient("planner", openai_provider(server), ModelConfig("openai", REASONING_MODEL, max_tokens=100), ledger)
    assert client.complete(ASK).finish_reason == LENGTH  # a cut is a reply to re-prompt, not a refusal
    assert ledger.totals_by_role()["planner"].reasoning_tokens == 100


def test_a_refusal_is_read_as_one_counted_per_role_and_never_an_empty_answer(server):
    server.faults.refuse_next(1, message="I can't help with that.")
    raw = sdk(server).chat.completions.create(model=CHAT_MODEL, messages=[{"role": "user", "content": "x"}])
    assert raw.choices[0].message.refusal == "I can't help with that." and raw.choices[0].message.content is None
    server.faults.refuse_next(1).refuse_next(1, "content_filter")
    ledger = UsageLedger()
    client = ModelClient("analyst", openai_provider(server), ModelConfig("openai", CHAT_MODEL), ledger, structured=True)
    for _ in range(2):
        with pytest.raises(ModelRefusal) as refused:
            client.complete(ASK, schema=analyst_schema())
        assert refused.value.completion.finish_reason == REFUSAL and refused.value.completion.text == ""
    assert ledger.replies_by_role()["analyst"] == {"refused": 2, "refused: content filter": 1, "refused: refusal": 1}
    usage = ledger.totals_by_role()["analyst"]
    assert usage.calls == 2 and usage.failures == 0 and usage.prompt_tokens > 0  # billed, and counted as such


def test_a_max_tokens_cut_says_length(server):
    cut = openai_provider(server, structured_output="none").complete(ASK, model=CHAT_MODEL, max_tokens=2)
    assert cut.finish_reason == LENGTH and cut.raw_finish_reason == "length"


def test_a_shared_prompt_prefix_is_reported_cached_and_read(server):
    system = Message("system", "Memory: " + "restore hosts that show privileged compromise. " * 120)
    provider = openai_provider(server, structured_output="none")
    first = provider.complete([system, Message("user", "step 1")], model=CHAT_MODEL, max_tokens=20)
    second = provider.complete([system, Message("user", "step 2")], model=CHAT_MODEL, max_tokens=20)
    assert first.usage.cached_prompt_tokens == 0
    assert second.usage.cached_prompt_tokens >= 1024 and second.usage.cached_prompt_tokens % 128 == 0
    assert second.usage.cached_prompt_tokens <= second.usage.prompt_tokens


def test_a_request_the_api_would_refuse_is_never_sent(server):
    with pytest.raises(ProviderError, match="not sent.*max_tokens.*max_completion_tokens"):
        openai_provider(server, reasoning="off").complete(ASK, model=REASONING_MODEL)  # forced off on a reasoning model
    with pytest.raises(ProviderError, match="not sent.*max_tokens"):
        openai_provider(server, reasoning="off").complete(ASK, model=CHAT_MODEL, max_tokens=0)
    assert server.stats.requests == 0


# -- Gemini generateContent -------------------------------------------------------------------------------


def test_gemini_free_text_and_usage_through_the_sdk(server):
    client = gemini_sdk(server)  # held: a client collected mid-call closes its connection pool
    answer = client.models.generate_content(model=OLD, contents="hello")
    assert answer.text == "echo: hello" and answer.candidates[0].finish_reason == genai_types.FinishReason.STOP
    assert answer.usage_metadata.thoughts_token_count is None  # a model that does not think


def test_gemini_structured_output_goes_in_both_spellings_and_is_read(server, stub):
    for spelling, field in (("json_schema", "response_json_schema"), ("openapi", "response_schema")):
        answer = gemini_provider(server, structured_output=spelling).complete(
            ASK, model=FLASH, schema=analyst_schema(), max_tokens=400)
        assert answer.finish_reason == STOP and set(json.loads(answer.text)) == set(analyst_schema()["properties"])
        assert stub.calls[-1]["schema"] is not None, field


def test_gemini_refuses_schemas_and_thinking_it_does_not_take(server):
    def generate(model: str, config: dict) -> httpx.Response:
        return raw_post(server, f"/v1beta/models/{model}:generateContent",
                        {"contents": [{"role": "user", "parts": [{"text": "x"}]}], "generationConfig": config})

    open_schema = {"type": "object", "additionalProperties": False, "properties": {"a": {"type": "string"}}}
    refused = generate(FLASH, {"responseMimeType": "application/json", "responseSchema": open_schema})
    error = refused.json()["error"]
    assert refused.status_code == 400 and error["status"] == "INVALID_ARGUMENT" and error["code"] == 400
    assert 'Unknown name "additionalProperties"' in error["message"]
    assert error["details"][0]["@type"].endswith("google.rpc.BadRequest")
    assert generate(FLASH, {"responseJsonSchema": {"type": "object"}}).status_code == 400  # no mime type
    assert generate(FLASH, {"responseMimeType": "application/json", "responseJsonSchema": open_schema}).status_code == 200
    assert "between 128 and 32768" in generate(PRO, {"thinkingConfig": {"thinkingBudget": 50000}}).json()["error"]["message"]
    assert "only works in thinking mode" in generate(PRO, {"thinkingConfig": {"thinkingBudget": 0}}).json()["error"]["message"]
    assert "not supported" in generate(OLD, {"thinkingConfig": {"thinkingBudget": 512}}).json()["error"]["message"]
    assert generate(FLASH, {"thinkingConfig": {"thinkingLevel": "low"}}).status_code == 400  # Gemini 3's setting
    assert generate(FLASH, {"thinkingConfig": {"thinkingBudget": 0}}).status_code == 200


def test_gemini_thinking_is_billed_as_output_and_thoughts_stay_out_of_the_reply(server):
    client = gemini_sdk(server)
    raw = client.models.generate_content(
        model=FLASH, contents="hello", config=genai_types.GenerateContentConfig(
            max_output_tokens=400, thinking_config=genai_types.ThinkingConfig(thinking_budget=64, include_thoughts=True)))
    meta = raw.usage_metadata
    assert meta.thoughts_token_count == 64 and meta.total_token_count == meta.prompt_token_count + meta.candidates_token_count + 64
    assert raw.candidates[0].content.parts[0].thought is True
    answer = gemini_provider(server, thinking_budget=64, include_thoughts=True).complete(
        [Message("user", "hello")], model=FLASH, max_tokens=400)
    assert answer.text == "echo: hello"  # the thought part is not the reply
    assert answer.usage.reasoning_tokens == 64 and answer.usage.completion_tokens == meta.candidates_token_count + 64


def test_gemini_thinking_that_uses_the_budget_is_max_tokens_with_no_text(server):
    cut = gemini_provider(server).complete(ASK, model=PRO, max_tokens=100)  # dynamic thinking: 128 tokens
    assert cut.finish_reason == LENGTH and cut.raw_finish_reason == "MAX_TOKENS" and cut.text == ""
    assert cut.usage.reasoning_tokens == 100


@pytest.mark.parametrize("outcome, word", [("SAFETY", "safety"), ("RECITATION", "recitation"),
                                           ("PROMPT_BLOCKED", "prompt blocked safety")])
def test_gemini_safety_stops_and_blocked_prompts_are_refusals_counted_per_role(server, outcome, word):
    server.faults.refuse_next(1, outcome)
    client = gemini_sdk(server)
    raw = client.models.generate_content(model=FLASH, contents="x")
    if outcome == "PROMPT_BLOCKED":
        assert not raw.candidates and raw.prompt_feedback.block_reason == genai_types.BlockedReason.SAFETY
    else:
        assert raw.candidates[0].finish_reason.name == outcome and raw.text is None
    server.faults.refuse_next(1, outcome)
    ledger = UsageLedger()
    role = ModelClient("reflector", gemini_provider(server), ModelConfig("gemini", FLASH), ledger)
    with pytest.raises(ModelRefusal):
        role.complete(ASK)
    assert ledger.replies_by_role()["reflector"] == {"refused": 1, f"refused: {word}": 1}


def test_gemini_cached_content_is_read_as_cached_input(server):
    system = Message("system", "Memory: " + "restore hosts that show privileged compromise. " * 120)
    provider = gemini_provider(server, structured_output="none", thinking_budget=0)
    provider.complete([system, Message("user", "step 1")], model=FLASH, max_tokens=20)
    second = provider.complete([system, Message("user", "step 2")], model=FLASH, max_tokens=20)
    assert 1024 <= second.usage.cached_prompt_tokens <= second.usage.prompt_tokens


def test_a_gemini_request_the_api_would_refuse_is_never_sent(server):
    with pytest.raises(ProviderError, match="not sent.*only works in thinking mode"):
        gemini_provider(server, thinking_budget=0).complete(ASK, model=PRO)
    with pytest.raises(ProviderError, match="not sent.*thinking_level"):
        gemini_provider(server, thinking_level="low").complete(ASK, model=FLASH)
    assert server.stats.requests == 0


def test_a_schema_that_cannot_be_strict_goes_not_strict_and_the_log_says_so_once(server, stub, caplog):
    open_payload = {"type": "object", "properties": {"payload": {"type": "object"}}, "required": ["payload"]}
    provider = openai_provider(server)
    with caplog.at_level("WARNING", logger="forge.llm.openai_provider"):
        for _ in range(3):
            assert provider.complete(ASK, model=CHAT_MODEL, schema=open_payload).finish_reason == STOP
    notes = [r for r in caplog.records if "cannot be made strict" in r.getMessage()]
    assert len(notes) == 1 and "'payload'" in notes[0].getMessage()
    assert stub.calls[-1]["schema"] == open_payload  # sent as it is, with strict: false, and accepted
