"""The surrogate model: the one stand-in for an LLM (no model API is reachable here).

The provider kind "surrogate" (forge/llm/kinds.py) is built from `SurrogateProvider`; importing this
package also teaches the surrogate the Rule Compiler role.
"""

from forge.llm.surrogate.provider import SURROGATE_LABEL, SurrogateProvider
import forge.llm.surrogate.compiler_role  # noqa: F401,E402  (teaches it the Rule Compiler role)

__all__ = ["SURROGATE_LABEL", "SurrogateProvider"]
