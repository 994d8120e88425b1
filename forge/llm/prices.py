"""What a model's tokens cost, by kind: one per-model table with its date and source, overridable in config.

Kinds (`forge.llm.types.Usage`): input, cached input (a part of the input the endpoint served from its
prefix cache), output, reasoning / thinking (a part of the output). Each has its price in USD per
million tokens; cached input defaults to the input price and reasoning to the output price (both
providers bill thoughts as output).

Where a model's price comes from, first found wins:
1. the config, when it sets any figure for the model: `providers.<p>.prices.<model>.<figure>` (one
   model) over `providers.<p>.<figure>` (every model of the provider), figure by figure, for
   `price_in_per_mtok`, `price_out_per_mtok`, `price_cached_in_per_mtok`, `price_reasoning_per_mtok`;
2. this table, for an OpenAI or Gemini model by its name (a dated snapshot or preview of a listed model
   takes its price: `gpt-4o-mini-2024-07-18`, `gemini-2.5-flash-preview-05-20`);
3. 0: not counted (local servers, the surrogate, a model the table does not list: `forge providers
   check` says which).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional

from forge.llm.kinds import GEMINI, OPENAI
from forge.llm.types import Usage

if TYPE_CHECKING:
    from forge.config import ProviderConfig

# The figures below were written from the providers' public price lists as quoted, with their dates, by
# the copies the `search` tool found on TABLE_DATE; the providers' pages cannot be reached from the
# machines this was built on. Standard tier, text, prompts up to 200k tokens (Gemini 2.5 Pro charges
# more above). Check them against the pages before relying on a budget; override in config.
TABLE_DATE = "2026-12-02"
TABLE_SOURCE = ("OpenAI: platform.openai.com/docs/pricing (as quoted by copies dated 2026-03 to 2026-06); "
                "Google: ai.google.dev/gemini-api/docs/pricing (as quoted by copies dated 2026-01 to 2026-06)")


@dataclass(frozen=True)
class Price:
    """USD per million tokens of each kind. None: cached input as input, reasoning as output."""

    input: float = 0.0
    output: float = 0.0
    cached_input: Optional[float] = None
    reasoning: Optional[float] = None
    source: str = "none"  # where the figures came from: "table", "config", "none" (not counted), or a mix

    @property
    def cached(self) -> float:
        return self.input if self.cached_input is None else self.cached_input

    @property
    def thinking(self) -> float:
        return self.output if self.reasoning is None else self.reasoning

    @property
    def free(self) -> bool:
        return not (self.input or self.output or self.cached or self.thinking)

    def cost_usd(self, usage: Usage) -> float:
        """What one call's usage costs: each kind of token at its price."""
        cached = min(max(usage.cached_prompt_tokens, 0), usage.prompt_tokens)
        reasoning = min(max(usage.reasoning_tokens, 0), usage.completion_tokens)
        return ((usage.prompt_tokens - cached) * self.input + cached * self.cached
                + (usage.completion_tokens - reasoning) * self.output + reasoning * self.thinking) / 1_000_000

    def prompt_cost_usd(self, prompt_tokens: int) -> float:
        """A prompt's cost when nothing says what was cached (a failed attempt, an estimate)."""
        return prompt_tokens * self.input / 1_000_000


# kind -> model name -> (input, cached input, output). Reasoning is billed as output by both.
TABLE: dict[str, dict[str, tuple[float, float, float]]] = {
    OPENAI: {
        "gpt-4o": (2.50, 1.25, 10.00),
        "gpt-4o-mini": (0.15, 0.075, 0.60),
        "gpt-4.1": (2.00, 0.50, 8.00),
        "gpt-4.1-mini": (0.40, 0.10, 1.60),
        "gpt-4.1-nano": (0.10, 0.025, 0.40),
        "o1": (15.00, 7.50, 60.00),
        "o3": (2.00, 0.50, 8.00),
        "o3-mini": (1.10, 0.55, 4.40),
        "o4-mini": (1.10, 0.275, 4.40),
        "gpt-5": (1.25, 0.125, 10.00),
        "gpt-5-mini": (0.25, 0.025, 2.00),
        "gpt-5-nano": (0.05, 0.005, 0.40),
        "gpt-5.1": (1.25, 0.125, 10.00),
        "gpt-5.4": (2.50, 0.25, 15.00),
        "gpt-5.4-mini": (0.75, 0.075, 4.50),
        "gpt-5.4-nano": (0.20, 0.02, 1.25),
        "gpt-5.5": (5.00, 0.50, 30.00),
    },
    GEMINI: {
        "gemini-2.0-flash": (0.10, 0.025, 0.40),
        "gemini-2.5-flash-lite": (0.10, 0.01, 0.40),
        "gemini-2.5-flash": (0.30, 0.03, 2.50),
        "gemini-2.5-pro": (1.25, 0.125, 10.00),
    },
}
# What may follow a listed name and still be that model: a dated snapshot, a preview, -latest.
_VARIANT = re.compile(r"^(?:-\d{4}-\d{2}-\d{2}|-\d{2}-\d{4}|-\d{3,4}|-preview(?:-[\w.-]+)?|-latest|-exp(?:-[\w.-]+)?)?$")


def table_price(kind: str, model: str) -> Optional[Price]:
    """The table's price of `model` on a provider of `kind`, or None when it lists no such model."""
    name = model.removeprefix("models/")
    listed = TABLE.get(str(kind), {})
    for candidate in sorted(listed, key=len, reverse=True):
        if name.startswith(candidate) and _VARIANT.match(name[len(candidate):]):
            price_in, cached, price_out = listed[candidate]
            return Price(price_in, price_out, cached, None, "table")
    return None


PRICE_FIELDS = ("price_in_per_mtok", "price_out_per_mtok", "price_cached_in_per_mtok", "price_reasoning_per_mtok")


def price_for(provider: "ProviderConfig", model: str) -> Price:
    """The price of `model` on `provider`: the config's figures when it sets any (the model's override
    over the provider's own, figure by figure; what neither sets: cached input as input, reasoning as
    output, the rest 0), else the table's, else 0 (not counted)."""
    override = (provider.prices or {}).get(model)
    figures = {name: getattr(provider, name) for name in PRICE_FIELDS}
    if override is not None:
        figures.update({name: getattr(override, name) for name in PRICE_FIELDS if getattr(override, name) is not None})
    if any(value is not None for value in figures.values()):
        price_in, price_out, cached, reasoning = (figures[name] for name in PRICE_FIELDS)
        return Price(float(price_in or 0.0), float(price_out or 0.0), cached, reasoning, "config")
    return table_price(provider.kind, model) or Price()
