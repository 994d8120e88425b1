"""build_provider: a kind's client from its row of forge/llm/kinds.py (its module imported on first use), and
the in-process slot test providers plug into."""

from __future__ import annotations

import sys
import textwrap

import pytest

from forge.config import FaultConfig, ForgeConfig, ProviderConfig
from forge.llm import registry
from forge.llm.kinds import NETWORK_KINDS, PROVIDER_CLASSES, ProviderClass
from forge.llm.faults import FaultInjectingProvider
from forge.llm.gemini_provider import GeminiProvider
from forge.llm.openai_provider import OpenAIProvider
from forge.llm.resilience import PROCESS_LIMITS, ResilientProvider
from forge.llm.types import Completion, Message, ProviderError, Usage


class Echo:
    def __init__(self, name: str) -> None:
        self.name = name

    def complete(self, messages, *, model, temperature=0.0, max_tokens=512, seed=None, stop=None):
        return Completion(f"echo: {messages[-1].content}", Usage(1, 1), model)


@pytest.fixture(autouse=True)
def isolated_registry(monkeypatch):
    """Registrations made by a test vanish with it (rows it adds to the kinds table: monkeypatch.setitem)."""
    monkeypatch.setattr(registry, "_factories", dict(registry._factories))
    PROCESS_LIMITS.reset()
    yield
    PROCESS_LIMITS.reset()


def config(**providers: ProviderConfig) -> ForgeConfig:
    return ForgeConfig(providers=providers)


def test_unknown_provider_name_lists_the_configured_ones():
    with pytest.raises(ProviderError, match=r"'nope'.*configured providers: alpha, beta"):
        registry.build_provider("nope", config(alpha=ProviderConfig(kind="openai"), beta=ProviderConfig(kind="gemini")))


def test_in_process_provider_is_wrapped_in_resilience():
    registry.register_in_process_provider("reg-echo", lambda cfg, name: Echo(name))
    provider = registry.build_provider("mine", config(mine=ProviderConfig(kind="reg-echo")))
    assert isinstance(provider, ResilientProvider) and isinstance(provider.inner, Echo)
    assert provider.name == "mine" and provider.inner.name == "mine"
    assert provider.complete([Message("user", "hi")], model="m").text == "echo: hi"


def test_fault_injection_sits_between_client_and_resilience():
    registry.register_in_process_provider("reg-echo", lambda cfg, name: Echo(name))
    cfg = config(mine=ProviderConfig(kind="reg-echo"))
    cfg.faults = FaultConfig(enabled=True, seed=1, malformed_rate=1.0)
    provider = registry.build_provider("mine", cfg)
    assert isinstance(provider.inner, FaultInjectingProvider) and isinstance(provider.inner.inner, Echo)
    assert provider.complete([Message("user", "hi")], model="m").text != "echo: hi"


def test_network_kinds_build_their_clients(monkeypatch):
    monkeypatch.setenv("FORGE_TEST_REG_KEY", "k")
    cfg = config(
        o=ProviderConfig(kind="openai", base_url="http://127.0.0.1:9/v1"),
        g=ProviderConfig(kind="gemini", base_url="http://127.0.0.1:9", api_key_env="FORGE_TEST_REG_KEY"),
    )
    assert isinstance(registry.build_provider("o", cfg).inner, OpenAIProvider)
    assert isinstance(registry.build_provider("g", cfg).inner, GeminiProvider)


def test_table_kinds_cannot_be_replaced():
    for kind in ("openai", "surrogate"):
        with pytest.raises(ValueError, match="built in"):
            registry.register_in_process_provider(kind, lambda cfg, name: Echo(name))


def test_network_kinds_are_the_table_s_network_rows():
    assert NETWORK_KINDS == ("openai", "gemini")
    assert set(PROVIDER_CLASSES) == {"surrogate", "openai", "gemini"}


def test_unregistered_kind_is_a_clear_error():
    with pytest.raises(ProviderError, match="no provider kind 'mystery'"):
        registry.build_provider("x", config(x=ProviderConfig(kind="mystery")))


def test_a_kind_whose_module_is_missing_is_a_clear_error(monkeypatch):
    monkeypatch.setitem(PROVIDER_CLASSES, "ghost", ProviderClass("forge.llm._not_written_yet:Ghost", network=False))
    with pytest.raises(ProviderError, match=r"forge\.llm\._not_written_yet, which does not exist"):
        registry.build_provider("g", config(g=ProviderConfig(kind="ghost")))


@pytest.fixture
def module_dir(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    for name in [m for m in sys.modules if m.startswith("forge_test_lazy_")]:
        del sys.modules[name]


def test_a_kind_is_built_from_its_class_on_first_use(module_dir, monkeypatch):
    (module_dir / "forge_test_lazy_ok.py").write_text(
        textwrap.dedent(
            """
            from forge.llm.types import Completion, Usage

            class Lazy:
                def __init__(self, name, seed):
                    self.name, self.seed = name, seed
                @classmethod
                def from_config(cls, name, cfg):
                    return cls(name, cfg.surrogate.seed)
                def complete(self, messages, *, model, **kw):
                    return Completion(f"lazy {self.seed}", Usage(0, 0), model)
            """
        )
    )
    monkeypatch.setitem(PROVIDER_CLASSES, "lazy", ProviderClass("forge_test_lazy_ok:Lazy", network=False))
    cfg = config(lz=ProviderConfig(kind="lazy"))
    cfg.surrogate.seed = 17
    assert "forge_test_lazy_ok" not in sys.modules
    assert registry.build_provider("lz", cfg).complete([Message("user", "x")], model="m").text == "lazy 17"


def test_a_module_without_its_class_is_a_clear_error(module_dir, monkeypatch):
    (module_dir / "forge_test_lazy_silent.py").write_text("VALUE = 1\n")
    monkeypatch.setitem(PROVIDER_CLASSES, "silent", ProviderClass("forge_test_lazy_silent:Silent", network=False))
    with pytest.raises(ProviderError, match="forge_test_lazy_silent has no class Silent"):
        registry.build_provider("s", config(s=ProviderConfig(kind="silent")))


def test_a_module_with_a_missing_dependency_is_not_hidden(module_dir, monkeypatch):
    (module_dir / "forge_test_lazy_broken.py").write_text("import forge_test_no_such_dependency\n")
    monkeypatch.setitem(PROVIDER_CLASSES, "broken", ProviderClass("forge_test_lazy_broken:Broken", network=False))
    with pytest.raises(ModuleNotFoundError, match="forge_test_no_such_dependency"):
        registry.build_provider("b", config(b=ProviderConfig(kind="broken")))
