"""Building providers from configuration, and the slot where in-process providers plug in.

`build_provider(name, cfg)` gives the provider every caller should use: the client for
`cfg.providers[name]`, inside fault injection when `cfg.faults.enabled`, inside `ResilientProvider`.

In-process kinds (the surrogate model, test stubs) register a factory with
`register_in_process_provider(kind, factory)`. The surrogate registers itself when
`forge.llm.surrogate` is imported; that import happens here, on first use, so nothing else has to
know the module exists.
"""

from __future__ import annotations

import importlib
import threading
from typing import TYPE_CHECKING, Callable

from forge.config import ProviderKind, RecordMode
from forge.llm.types import NETWORK_KINDS, Provider, ProviderError

if TYPE_CHECKING:
    from forge.config import ForgeConfig

ProviderFactory = Callable[["ForgeConfig", str], Provider]

# In-process kinds whose module registers them on import.
LAZY_MODULES: dict[str, str] = {ProviderKind.surrogate: "forge.llm.surrogate"}

_factories: dict[str, ProviderFactory] = {}
_lock = threading.Lock()


def register_in_process_provider(kind: str, factory: ProviderFactory) -> None:
    """Make `kind` buildable: `factory(cfg, provider_name)` returns a Provider. Registering again replaces."""
    if kind in NETWORK_KINDS:
        raise ValueError(f"provider kind {kind!r} is built in (network); pick another name for an in-process provider")
    with _lock:
        _factories[kind] = factory


def in_process_factory(kind: str) -> ProviderFactory:
    with _lock:
        factory = _factories.get(kind)
    if factory is not None:
        return factory
    module = LAZY_MODULES.get(kind)
    if module is None:
        known = ", ".join(sorted(set(NETWORK_KINDS) | set(_factories) | set(LAZY_MODULES)))
        raise ProviderError(f"no provider kind {kind!r} is registered (known kinds: {known})")
    try:
        importlib.import_module(module)
    except ModuleNotFoundError as exc:
        # Only the module itself being absent is "not written yet"; a missing dependency inside it is a bug.
        if exc.name is None or not (module == exc.name or module.startswith(exc.name + ".")):
            raise
        raise ProviderError(
            f"provider kind {kind!r} is provided by the module {module}, which does not exist yet; "
            f"it must call register_in_process_provider({kind!r}, factory) when imported"
        ) from None
    with _lock:
        factory = _factories.get(kind)
    if factory is None:
        raise ProviderError(
            f"{module} was imported but did not call register_in_process_provider({kind!r}, factory)"
        )
    return factory


def build_client(name: str, cfg: "ForgeConfig") -> Provider:
    """The bare client for `cfg.providers[name]`: no fault injection, no retries."""
    provider_cfg = cfg.providers.get(name)
    if provider_cfg is None:
        configured = ", ".join(sorted(cfg.providers)) or "none"
        raise ProviderError(f"no provider named {name!r} is configured (configured providers: {configured})")
    if provider_cfg.kind == ProviderKind.openai:
        from forge.llm.openai_provider import OpenAIProvider  # lazy: cold start (the HTTP client's import)

        return OpenAIProvider(name, provider_cfg)
    if provider_cfg.kind == ProviderKind.gemini:
        from forge.llm.gemini_provider import GeminiProvider  # lazy: cold start; google-genai is optional

        return GeminiProvider(name, provider_cfg)
    return in_process_factory(provider_cfg.kind)(cfg, name)


def build_provider(name: str, cfg: "ForgeConfig") -> Provider:
    """The provider to call: client, then fault injection (if enabled), then retries/timeout/concurrency,
    then the session record (if `record.mode` is not off: a served call is never sent, retried or charged)."""
    from forge.llm.faults import FaultInjectingProvider  # lazy: cold start (only a session builds providers)
    from forge.llm.resilience import ResilientProvider

    inner = build_client(name, cfg)
    if cfg.faults.enabled:
        inner = FaultInjectingProvider(inner, cfg.faults, name=name)
    provider: Provider = ResilientProvider(inner, cfg.providers[name], name)
    if cfg.record.mode is not RecordMode.off:
        from forge.llm.record import RecordingProvider, open_call_store, record_scope, record_store_spec

        provider = RecordingProvider(provider, open_call_store(record_store_spec(cfg)), cfg.record.mode.value, name=name,
                                     scope=record_scope(cfg))
    return provider
