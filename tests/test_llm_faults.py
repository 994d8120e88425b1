"""Seeded fault injection: reproducible, at the configured rates, bad answers returned rather than raised."""

from __future__ import annotations

import random

import pytest

from forge.config import FaultConfig, ProviderConfig
from forge.llm.faults import FaultInjectingProvider, garble
from forge.llm.resilience import ResilientProvider, SharedLimits
from forge.llm.types import Completion, Message, ProviderTimeout, TransientProviderError, Usage

ANSWER = 'Thought: host 3 is scanned.\nAction: {"name": "Analyse", "args": {"host": "User3"}}'


class FixedProvider:
    name = "fixed"

    def __init__(self) -> None:
        self.calls = 0

    def complete(self, messages, *, model, temperature=0.0, max_tokens=512, seed=None, stop=None):
        self.calls += 1
        return Completion(text=ANSWER, usage=Usage(10, 20), model=model)


RATES = FaultConfig(enabled=True, seed=11, transient_error_rate=0.1, timeout_rate=0.1, malformed_rate=0.15, empty_rate=0.05)


def outcomes(cfg: FaultConfig, n: int) -> list[str]:
    """What each of n calls did: the fault kind's name, or the returned text."""
    provider = FaultInjectingProvider(FixedProvider(), cfg)
    seen = []
    for _ in range(n):
        try:
            seen.append(provider.complete([Message("user", "go")], model="m").text)
        except ProviderTimeout:
            seen.append("<timeout>")
        except TransientProviderError:
            seen.append("<transient>")
    return seen


def test_same_seed_same_faults():
    assert outcomes(RATES, 300) == outcomes(RATES, 300)


def test_other_seed_other_faults():
    other = FaultConfig(**{**RATES.__dict__, "seed": 12})
    assert outcomes(RATES, 300) != outcomes(other, 300)


def test_rates_are_roughly_honoured():
    seen = outcomes(RATES, 4000)
    share = {
        "transient": seen.count("<transient>") / len(seen),
        "timeout": seen.count("<timeout>") / len(seen),
        "empty": seen.count("") / len(seen),
        "malformed": sum(1 for s in seen if s not in ("<transient>", "<timeout>", "", ANSWER)) / len(seen),
        "clean": seen.count(ANSWER) / len(seen),
    }
    expected = {"transient": 0.1, "timeout": 0.1, "empty": 0.05, "malformed": 0.15, "clean": 0.6}
    for kind, rate in expected.items():
        assert abs(share[kind] - rate) < 0.03, (kind, share)


def test_bad_answers_are_completions_errors_skip_the_model():
    inner = FixedProvider()
    provider = FaultInjectingProvider(inner, RATES)
    raised = malformed = empty = 0
    for _ in range(500):
        try:
            c = provider.complete([Message("user", "go")], model="m")
        except TransientProviderError:  # ProviderTimeout included
            raised += 1
            continue
        if c.text == "":
            empty += 1
            assert c.usage == Usage(10, 0)
        elif c.text != ANSWER:
            malformed += 1
            assert c.usage == Usage(10, 20)
    assert inner.calls == 500 - raised  # errors are injected before the model is asked
    assert malformed and empty and raised
    assert provider.injected["malformed"] == malformed and provider.injected["empty"] == empty


def test_disabled_rates_change_nothing():
    assert set(outcomes(FaultConfig(enabled=True, seed=3), 200)) == {ANSWER}


def test_rates_must_form_a_probability():
    with pytest.raises(ValueError, match="at most 1"):
        FaultInjectingProvider(FixedProvider(), FaultConfig(transient_error_rate=0.6, malformed_rate=0.6))
    with pytest.raises(ValueError):
        FaultInjectingProvider(FixedProvider(), FaultConfig(empty_rate=-0.1))


@pytest.mark.parametrize("text", [ANSWER, "x", "ab", "{}", "plain words only"])
def test_garble_always_damages(text):
    for seed in range(200):
        out = garble(text, random.Random(seed))
        assert out and out != text


def test_injected_transient_faults_are_absorbed_by_the_resilience_layer():
    cfg = FaultConfig(enabled=True, seed=5, transient_error_rate=0.3, timeout_rate=0.2)
    provider = ResilientProvider(
        FaultInjectingProvider(FixedProvider(), cfg, name="faulty"),
        ProviderConfig(max_retries=30, retry_budget=10_000),
        "faulty",
        sleep=lambda s: None,
        limits=SharedLimits(),
    )
    completions = [provider.complete([Message("user", "go")], model="m") for _ in range(200)]
    assert all(c.text == ANSWER for c in completions)
    retries = sum(c.retries for c in completions)
    injected = provider.inner.injected
    assert retries == injected["transient"] + injected["timeout"] > 50
