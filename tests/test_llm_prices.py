"""Every billed kind of token priced and charged: the dated table, the config's overrides, and the session
budget charging cached input and reasoning / thinking at their own prices."""

from __future__ import annotations

import contextlib
import json
import time

import pytest

from forge.config import ModelPrice, ProviderConfig, load_config
from forge.llm.gemini_provider import GeminiProvider
from forge.llm.limiter import BudgetExhausted, BudgetLimits, EndpointGate, _Usage
from forge.llm.openai_provider import OpenAIProvider
from forge.llm.prices import TABLE_DATE, TABLE_SOURCE, Price, price_for, table_price
from forge.llm.resilience import ResilientProvider, SharedLimits
from forge.llm.serve import ModelServer
from forge.llm.types import Message, Usage
from tests.api_stub import SchemaAnswering

MEMORY = Message("system", "Memory: " + "restore hosts that show privileged compromise. " * 120)


def test_the_table_is_dated_sourced_and_finds_snapshots_not_lookalikes():
    assert TABLE_DATE and "openai" in TABLE_SOURCE.lower() and "gemini" in TABLE_SOURCE.lower()
    assert table_price("openai", "gpt-4o-mini-2024-07-18") == table_price("openai", "gpt-4o-mini")
    assert table_price("openai", "gpt-4o-mini").input < table_price("openai", "gpt-4o").input  # the longest name wins
    assert table_price("gemini", "models/gemini-2.5-flash-preview-05-20") == table_price("gemini", "gemini-2.5-flash")
    assert table_price("gemini", "gemini-2.5-flash-lite").input < table_price("gemini", "gemini-2.5-flash").input
    assert table_price("openai", "gpt-5.2") is None and table_price("openai", "Qwen/Qwen2.5-7B") is None
    assert table_price("surrogate", "gpt-4o") is None


def test_the_config_overrides_the_table_model_first():
    provider = ProviderConfig(kind="openai", prices={"gpt-4o": ModelPrice(price_in_per_mtok=1.0)})
    assert price_for(provider, "gpt-4o") == Price(1.0, 0.0, None, None, "config")
    assert price_for(provider, "gpt-4o-mini").source == "table"
    everywhere = ProviderConfig(kind="openai", price_in_per_mtok=2.0, price_out_per_mtok=3.0,
                                prices={"o3": ModelPrice(price_out_per_mtok=9.0)})
    assert price_for(everywhere, "o3") == Price(2.0, 9.0, None, None, "config")
    assert price_for(everywhere, "gpt-4o") == Price(2.0, 3.0, None, None, "config")
    assert price_for(ProviderConfig(kind="openai"), "my-local-model").free


def test_each_kind_of_token_costs_its_own_price():
    price = Price(input=1.0, output=10.0, cached_input=0.1, reasoning=20.0)
    usage = Usage(prompt_tokens=1_000_000, completion_tokens=300_000, cached_prompt_tokens=600_000, reasoning_tokens=200_000)
    assert price.cost_usd(usage) == pytest.approx(0.4 * 1.0 + 0.6 * 0.1 + 0.1 * 10.0 + 0.2 * 20.0)
    assert Price(1.0, 10.0).cost_usd(usage) == pytest.approx(1.0 + 3.0)  # unset: cached as input, reasoning as output


def test_config_rejects_negative_prices_and_impossible_thinking():
    with pytest.raises(Exception, match="prices.m.*price_reasoning_per_mtok must not be negative"):
        load_config(overrides=["providers.surrogate.prices.m.price_reasoning_per_mtok=-1"])
    with pytest.raises(Exception, match="thinking_budget or thinking_level, not both"):
        load_config(overrides=["providers.surrogate.thinking_budget=10", "providers.surrogate.thinking_level=low"])
    with pytest.raises(Exception, match="reasoning_effort must be one of"):
        load_config(overrides=["providers.surrogate.reasoning_effort=huge"])


class GateLimiter:
    """The session limiter's worker-side contract (forge.llm.limiter.RemoteLimiter.slot) over an
    EndpointGate in this process: what the actor does, without Ray."""

    def __init__(self, gate: EndpointGate) -> None:
        self.gate = gate

    def governs(self, network: bool) -> bool:
        return True

    @contextlib.contextmanager
    def slot(self, key, limits, prompt_estimate=0, usd_estimate=0.0):
        grant = self.gate.try_acquire(key, limits, time.monotonic())
        if grant.exhausted is not None:
            raise BudgetExhausted(grant.exhausted)
        usage, failed = _Usage(prompt_tokens=prompt_estimate, usd=usd_estimate), True
        try:
            yield usage
            failed = False
        finally:
            self.gate.release(key, usage.prompt_tokens, 0 if failed else usage.completion_tokens, usage.usd, None, failed)

    def hold(self, key, seconds):
        pass


@pytest.fixture
def served():
    with ModelServer(SchemaAnswering(), models=["gpt-5-mini", "gemini-2.5-flash"]) as srv:
        yield srv


def test_the_budget_charges_reasoning_and_cached_tokens_at_their_prices(served, monkeypatch):
    gate = EndpointGate(BudgetLimits(max_usd=1.0))
    monkeypatch.setattr("forge.llm.resilience.session_limiter", lambda: GateLimiter(gate))
    cfg = ProviderConfig(kind="openai", base_url=served.openai_base_url, timeout_s=10, price_in_per_mtok=1.0,
                         price_cached_in_per_mtok=0.1, price_out_per_mtok=10.0, price_reasoning_per_mtok=20.0)
    provider = ResilientProvider(OpenAIProvider("openai", cfg), cfg, "openai", limits=SharedLimits())
    answers = [provider.complete([MEMORY, Message("user", f"step {k}")], model="gpt-5-mini", max_tokens=400) for k in (1, 2)]
    usage = answers[0].usage + answers[1].usage
    assert usage.reasoning_tokens == 256 and usage.cached_prompt_tokens >= 1024  # medium effort twice; a cached prefix
    expected = ((usage.prompt_tokens - usage.cached_prompt_tokens) * 1.0 + usage.cached_prompt_tokens * 0.1
                + (usage.completion_tokens - usage.reasoning_tokens) * 10.0 + usage.reasoning_tokens * 20.0) / 1e6
    assert gate.spent.usd == pytest.approx(expected)
    naive = (usage.prompt_tokens * 1.0 + usage.completion_tokens * 10.0) / 1e6
    assert abs(gate.spent.usd - naive) > 1e-4  # what a charge blind to the kinds would have said
    assert gate.spent.completion_tokens == usage.completion_tokens  # reasoning counts against max_completion_tokens


def test_thinking_at_the_tables_price_spends_a_budget(served, monkeypatch):
    price = table_price("gemini", "gemini-2.5-flash")
    gate = EndpointGate(BudgetLimits(max_usd=2.0e-4))
    monkeypatch.setattr("forge.llm.resilience.session_limiter", lambda: GateLimiter(gate))
    cfg = ProviderConfig(kind="gemini", base_url=served.url, timeout_s=10, thinking_budget=200)
    provider = ResilientProvider(GeminiProvider("gemini", cfg), cfg, "gemini", limits=SharedLimits())
    first = provider.complete([Message("user", "hello")], model="gemini-2.5-flash", max_tokens=400)
    assert first.usage.reasoning_tokens == 200 and gate.spent.usd == pytest.approx(price.cost_usd(first.usage))
    assert gate.spent.usd == pytest.approx((first.usage.prompt_tokens * 0.30 + first.usage.completion_tokens * 2.50) / 1e6)
    with pytest.raises(BudgetExhausted):  # the thoughts alone (200 x $2.50/M) spent the budget
        provider.complete([Message("user", "again")], model="gemini-2.5-flash", max_tokens=400)


def test_forge_report_shows_each_kind_of_token_and_prices_it(tmp_path, capsys):
    from pathlib import Path

    from forge.protocol.ledger import EvaluationRecord, StageRecord
    from forge.runs.rundir import RunDirectory
    from forge.wiring import open_ledger
    from tests.run_cli import forge

    root = Path(__file__).resolve().parents[1]
    cfg = load_config(root / "configs" / "demo.yaml", overrides=[
        f"run.runs_dir={tmp_path}", "protocol.num_instances=1", "providers.surrogate.price_in_per_mtok=1",
        "providers.surrogate.price_cached_in_per_mtok=0.1", "providers.surrogate.price_out_per_mtok=10",
        "providers.surrogate.price_reasoning_per_mtok=20"])
    run_dir = RunDirectory.create(cfg)
    ledger = open_ledger(cfg, str(run_dir.path), run_dir.session_id)
    ledger.start({"condition": "forge", "instances": ["i00"], "stages": 1, "session": run_dir.session_id})
    tokens = {"i00": {"planner": {"prompt": 2000, "cached_prompt": 1200, "completion": 500, "reasoning": 300, "calls": 3}}}
    ledger.record_stage(StageRecord(1, ["i00"], {"i00": -5.0}, [], None, [], {}, {"i00": 0}, tokens))
    ledger.record_evaluation(EvaluationRecord({"i00": [-5.0]}, [0], {}))
    ledger.finish()
    ledger.close()
    assert forge("report", str(run_dir.path)) == 0
    out = capsys.readouterr().out
    assert "2000 (1200 cached)/500 (300 reasoning) $0.0089" in out  # 800x1 + 1200x0.1 + 200x10 + 300x20 per million
    summary = json.loads((run_dir.reports / "summary.json").read_text())
    assert summary["cost_by_stage"]["s1"]["planner"]["reasoning"] == 300
