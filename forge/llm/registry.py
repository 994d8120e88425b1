"""Building providers from configuration, and the slot where in-process test providers plug in.

`build_provider(name, cfg)` gives the provider every caller should use: the client for
`cfg.providers[name]`, inside fault injection when `cfg.faults.enabled`, inside `ResilientProvider`.

The client is built from its kind's row of forge/llm/kinds.py (`module:Class`, imported on first use,
so nothing pays for an HTTP client or an SDK it does not use): `Class.from_config(name, cfg)`. Kinds that
are not in the table (test stubs) register a factory with `register_in_process_provider(kind, factory)`.
"""

from __future__ import annotations

import importlib
import threading
from typing import TYPE_CHECKING, Callable

from forge.config import RecordMode
from forge.llm.kinds import PROVIDER_CLASSES
from forge.llm.types import Provider, ProviderError

if TYPE_CHECKING:
    from forge.config import ForgeConfig

ProviderFactory = Callable[["ForgeConfig", str], Provider]

_factories: dict[str, ProviderFactory] = {}
_lock = threading.Lock()


def register_in_process_provider(kind: str, factory: ProviderFactory) -> None:
    """Make `kind` buildable: `factory(cfg, provider_name)` returns a Provider. Registering again replaces."""
    if kind in PROVIDER_CLASSES:
        raise ValueError(f"provider kind {kind!r} is built in (forge/llm/kinds.py); pick another name for an "
                         f"in-process provider")
    with _lock:
        _factories[kind] = factory


def provider_class(kind: str) -> type:
    """The class of a kind of forge/llm/kinds.py, imported (ProviderError when its module or class is missing;
    a missing dependency inside the module is raised as it is: a bug, or an optional package not installed)."""
    module_name, _, class_name = PROVIDER_CLASSES[kind].path.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name is None or not (module_name == exc.name or module_name.startswith(exc.name + ".")):
            raise
        raise ProviderError(f"provider kind {kind!r} is built by {module_name}, which does not exist") from None
    cls = getattr(module, class_name, None)
    if cls is None:
        raise ProviderError(f"provider kind {kind!r}: {module_name} has no class {class_name}")
    return cls


def build_client(name: str, cfg: "ForgeConfig") -> Provider:
    """The bare client for `cfg.providers[name]`: no fault injection, no retries."""
    provider_cfg = cfg.providers.get(name)
    if provider_cfg is None:
        configured = ", ".join(sorted(cfg.providers)) or "none"
        raise ProviderError(f"no provider named {name!r} is configured (configured providers: {configured})")
    kind = str(provider_cfg.kind)
    if kind in PROVIDER_CLASSES:
        return provider_class(kind).from_config(name, cfg)
    with _lock:
        factory = _factories.get(kind)
    if factory is None:
        known = ", ".join(sorted(set(PROVIDER_CLASSES) | set(_factories)))
        raise ProviderError(f"no provider kind {kind!r} is registered (known kinds: {known})")
    return factory(cfg, name)


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
