"""The surrogate model: the one stand-in for an LLM (no model API is reachable here).

Importing this package registers it as the in-process provider kind "surrogate".
"""

from forge.llm.registry import register_in_process_provider
from forge.llm.surrogate.provider import SURROGATE_LABEL, SurrogateProvider
import forge.llm.surrogate.compiler_role  # noqa: F401,E402  (teaches it the Rule Compiler role)


def _factory(cfg, provider_name: str) -> SurrogateProvider:
    return SurrogateProvider(provider_name, cfg.surrogate)


def _register() -> None:
    register_in_process_provider("surrogate", _factory)


_register()

__all__ = ["SURROGATE_LABEL", "SurrogateProvider"]
