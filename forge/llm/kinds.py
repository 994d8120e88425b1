"""The provider kinds a configuration may name (`providers.<name>.kind`), each with the class it is built
from, in one table.

The configuration's `ProviderKind` is made from it, the registry builds a provider from its row
(forge.llm.registry), and whether a kind is reached over the network (NETWORK_KINDS: the resilience
layer's concern) is a column of it. Adding a provider is adding a row and its module (docs/extending.md).
Standard library only: the configuration, below every other layer, reads it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ProviderClass:
    path: str  # "module:Class"; the class has `from_config(name, cfg)` (the ForgeConfig) and `complete(...)`
    network: bool  # reached over HTTP: calls can time out, endpoints limit concurrency


SURROGATE, OPENAI, GEMINI = "surrogate", "openai", "gemini"
PROVIDER_CLASSES: dict[str, ProviderClass] = {
    SURROGATE: ProviderClass("forge.llm.surrogate:SurrogateProvider", network=False),
    OPENAI: ProviderClass("forge.llm.openai_provider:OpenAIProvider", network=True),
    GEMINI: ProviderClass("forge.llm.gemini_provider:GeminiProvider", network=True),
}
NETWORK_KINDS: tuple[str, ...] = tuple(kind for kind, entry in PROVIDER_CLASSES.items() if entry.network)
