"""Usage ledger and per-role model clients."""

from __future__ import annotations

import json
import pickle
import threading

import pytest

from forge.config import LEARNER_ROLES, ROLES, ForgeConfig, ModelConfig, ModelsConfig, ProviderConfig
from forge.llm import registry
from forge.llm.accounting import CallRecord, ModelClient, RoleUsage, UsageLedger, model_clients
from forge.llm.resilience import PROCESS_LIMITS, ResilientProvider, SharedLimits
from forge.llm.types import Completion, Message, RetryBudgetExhausted, TransientProviderError, Usage


class RecordingProvider:
    name = "rec"

    def __init__(self, fail: int = 0) -> None:
        self.calls: list[dict] = []
        self.fail = fail

    def complete(self, messages, *, model, temperature=0.0, max_tokens=512, seed=None, stop=None):
        self.calls.append(dict(model=model, temperature=temperature, max_tokens=max_tokens, seed=seed, stop=stop))
        if self.fail:
            self.fail -= 1
            raise TransientProviderError("flaky")
        return Completion(text="ok", usage=Usage(len(messages) * 10, 3), model=model, retries=0)


def completion(prompt: int, comp: int, retries: int = 0, latency: float = 0.5) -> Completion:
    return Completion("t", Usage(prompt, comp), model="m", latency_s=latency, retries=retries)


def test_totals_by_role_and_total():
    ledger = UsageLedger()
    ledger.record("planner", completion(100, 10, retries=1))
    ledger.record("planner", completion(50, 5))
    ledger.record("reflector", completion(7, 3, latency=2.0))
    ledger.record_failure("analyst", "m", latency_s=1.5, retries=4)
    by_role = ledger.totals_by_role()
    assert by_role["planner"] == RoleUsage(calls=2, prompt_tokens=150, completion_tokens=15, latency_s=1.0, retries=1)
    assert by_role["reflector"] == RoleUsage(1, 7, 3, 2.0, 0)
    assert by_role["analyst"] == RoleUsage(calls=1, latency_s=1.5, retries=4, failures=1)
    total = ledger.total()
    assert (total.calls, total.prompt_tokens, total.completion_tokens, total.retries, total.failures) == (4, 157, 18, 5, 1)
    assert total.latency_s == pytest.approx(4.5)
    assert total.total_tokens == 175


def test_totals_are_copies():
    ledger = UsageLedger()
    ledger.record("planner", completion(1, 1))
    ledger.totals_by_role()["planner"].calls = 99
    assert ledger.totals_by_role()["planner"].calls == 1


def test_thread_safe_recording():
    ledger = UsageLedger()

    def work(role: str) -> None:
        for _ in range(500):
            ledger.record(role, completion(2, 1))

    threads = [threading.Thread(target=work, args=(ROLES[i % 3],)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert ledger.total().calls == 4000 and ledger.total().prompt_tokens == 8000
    assert len(ledger.records()) == 4000


def test_pickle_export_merge_reset():
    ledger = UsageLedger()
    ledger.record("planner", completion(10, 2, retries=1))
    ledger.record_failure("analyst", "m", latency_s=0.1)
    clone = pickle.loads(pickle.dumps(ledger))
    assert clone.records() == ledger.records()
    clone.record("planner", completion(1, 1))  # the lock came back too

    exported = json.loads(json.dumps(ledger.to_dict()))  # plain data only
    driver = UsageLedger()
    driver.merge(ledger)
    driver.merge(exported)
    driver.merge(clone)
    assert driver.totals_by_role()["planner"].calls == 2 + 2
    assert driver.totals_by_role()["planner"].retries == 3
    assert driver.totals_by_role()["analyst"].failures == 3
    assert UsageLedger.from_dict(exported).records() == ledger.records()
    driver.reset()
    assert driver.total() == RoleUsage() and driver.records() == []


def test_model_client_uses_the_roles_settings_and_records():
    provider = RecordingProvider()
    ledger = UsageLedger()
    client = ModelClient("analyst", provider, ModelConfig(provider="p", model="m-7", temperature=0.3, max_tokens=99), ledger)
    out = client.complete([Message("system", "s"), Message("user", "u")], seed=4, stop=["\n\n"])
    assert out.text == "ok"
    assert provider.calls == [dict(model="m-7", temperature=0.3, max_tokens=99, seed=4, stop=["\n\n"])]
    (record,) = ledger.records()
    assert (record.role, record.model, record.prompt_tokens, record.completion_tokens, record.failed) == ("analyst", "m-7", 20, 3, False)
    assert record.latency_s > 0


def test_model_client_records_failures_with_their_retries():
    inner = RecordingProvider(fail=10)
    provider = ResilientProvider(inner, ProviderConfig(max_retries=2), "p", sleep=lambda s: None, limits=SharedLimits())
    ledger = UsageLedger()
    client = ModelClient("planner", provider, ModelConfig(provider="p", model="m"), ledger)
    with pytest.raises(RetryBudgetExhausted):
        client.complete([Message("user", "u")])
    assert ledger.records() == [CallRecord("planner", "m", 0, 0, ledger.records()[0].latency_s, retries=2, failed=True)]


@pytest.fixture
def echo_kind(monkeypatch):
    monkeypatch.setattr(registry, "_factories", dict(registry._factories))
    built: list[str] = []

    def factory(cfg: ForgeConfig, name: str):
        built.append(name)
        return RecordingProvider()

    registry.register_in_process_provider("acct-echo", factory)
    PROCESS_LIMITS.reset()
    yield built
    PROCESS_LIMITS.reset()


def test_model_clients_cover_every_role_and_share_providers(echo_kind):
    cfg = ForgeConfig(
        providers={"a": ProviderConfig(kind="acct-echo"), "b": ProviderConfig(kind="acct-echo")},
        models=ModelsConfig(
            default=ModelConfig(provider="a", model="base"),
            reflector=ModelConfig(provider="b", model="learner", temperature=0.7),
        ),
    )
    ledger = UsageLedger()
    clients = model_clients(cfg, ledger)
    assert set(clients) == set(ROLES + LEARNER_ROLES)
    assert sorted(echo_kind) == ["a", "b"]  # one provider per name, not per role
    assert clients["planner"].provider is clients["compiler"].provider
    assert clients["reflector"].provider is not clients["planner"].provider
    assert isinstance(clients["planner"].provider, ResilientProvider)
    clients["reflector"].complete([Message("user", "x")])
    clients["planner"].complete([Message("user", "x")])
    assert clients["reflector"].provider.inner.calls[0]["model"] == "learner"
    assert clients["reflector"].provider.inner.calls[0]["temperature"] == 0.7
    assert set(ledger.totals_by_role()) == {"reflector", "planner"}
