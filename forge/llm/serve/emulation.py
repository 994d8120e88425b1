"""What `forge serve` does as the emulated API beyond passing a call to the served model: a reasoning
model's thinking, a prompt prefix cache, and scripted outcomes (a refusal, a block). Pure but for the
cache's memory.

The served model (the surrogate, a test stub) neither thinks nor caches, yet clients must meet the usage
fields and the endings the real APIs produce. Emulated, by the documented rules:
- thinking: an OpenAI reasoning model (by family) spends tokens on reasoning by its `reasoning_effort`
  (default medium), a Gemini thinking model by its `thinking_budget` / `thinking_level` (default: the
  model decides); the reasoning counts against the completion budget (max_completion_tokens,
  maxOutputTokens), so a budget it uses up ends the reply at `length` with no text, and is billed as
  output;
- caching: a prompt sharing a prefix with an earlier one of the same model has that prefix cached,
  OpenAI from 1024 tokens in steps of 128, Gemini (implicit caching) from 1024 tokens (2048 for Pro).
Token counts are characters / 4, as the surrogate counts.
"""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import replace
from os.path import commonprefix
from typing import Optional

from forge.llm.api_rules import gemini_thinking, openai_reasoning_model
from forge.llm.serve.wire import PROMPT_BLOCKED, ChatRequest
from forge.llm.types import LENGTH, REFUSAL, Completion, Usage, approx_tokens

EFFORT_TOKENS = {"none": 0, "minimal": 8, "low": 32, "medium": 128, "high": 512, "xhigh": 1024}
LEVEL_TOKENS = {"minimal": 16, "low": 64, "medium": 128, "high": 256}
DYNAMIC_THOUGHTS = 128  # what a Gemini model "decides" to think when left to it
MAX_THOUGHTS = 256  # the most a budget gets spent here
OPENAI_CACHE_MIN, OPENAI_CACHE_STEP = 1024, 128
GEMINI_CACHE_MIN, GEMINI_PRO_CACHE_MIN = 1024, 2048
SCRIPTED = ("refusal", "content_filter", "SAFETY", "RECITATION", "PROMPT_BLOCKED")
REFUSAL_TEXT = "I'm sorry, but I can't help with that request."


def thinking_tokens(gemini: bool, request: ChatRequest) -> int:
    """The reasoning the emulated model does before replying (0 for a model that does not think)."""
    if not gemini:
        if not openai_reasoning_model(request.model):
            return 0
        return EFFORT_TOKENS.get(request.reasoning_effort or "medium", EFFORT_TOKENS["medium"])
    if gemini_thinking(request.model) is None:
        return 0
    if request.thinking_level is not None:
        return LEVEL_TOKENS.get(request.thinking_level, DYNAMIC_THOUGHTS)
    if request.thinking_budget is None or request.thinking_budget < 0:
        return DYNAMIC_THOUGHTS
    return min(request.thinking_budget, MAX_THOUGHTS)


def prompt_text(request: ChatRequest) -> str:
    return "".join(f"\x1e{m.role}\x1f{m.content}" for m in request.messages)


class PrefixCache:
    """The prompts each model saw lately; a new prompt's longest shared prefix is its cached part."""

    def __init__(self, keep: int = 64) -> None:
        self._seen: dict[str, deque[str]] = {}
        self._keep = keep
        self._lock = threading.Lock()

    def cached_tokens(self, gemini: bool, model: str, text: str) -> int:
        with self._lock:
            seen = self._seen.setdefault(model, deque(maxlen=self._keep))
            shared = max((len(commonprefix([text, earlier])) for earlier in seen), default=0)
            seen.append(text)
        tokens = shared // 4
        if gemini:
            floor = GEMINI_PRO_CACHE_MIN if "pro" in model else GEMINI_CACHE_MIN
            return tokens if tokens >= floor else 0
        return tokens // OPENAI_CACHE_STEP * OPENAI_CACHE_STEP if tokens >= OPENAI_CACHE_MIN else 0


def scripted(outcome: str, gemini: bool, request: ChatRequest, message: Optional[str] = None) -> Completion:
    """The answer for a scripted outcome (`SCRIPTED`), in the emulated API's terms: OpenAI's refusal
    message or content filter, Gemini's safety or recitation stop or blocked prompt."""
    prompt = sum(approx_tokens(m.content) for m in request.messages)
    if not gemini:
        raw = "content_filter" if outcome == "content_filter" else "refusal"
        text = message or REFUSAL_TEXT
        return Completion("", Usage(prompt, approx_tokens(text) if raw == "refusal" else 0), request.model,
                          finish_reason=REFUSAL, refusal=text if raw == "refusal" else None, raw_finish_reason=raw)
    raw = {"refusal": "SAFETY", "content_filter": "SAFETY", "PROMPT_BLOCKED": f"{PROMPT_BLOCKED}_SAFETY"}.get(outcome, outcome)
    return Completion("", Usage(prompt, 0), request.model, finish_reason=REFUSAL, refusal=message, raw_finish_reason=raw)


def spent_thinking(request: ChatRequest, budget: int, thoughts: int) -> Completion:
    """A reply whose budget the reasoning used up: nothing to show, cut at `length`, all of it billed."""
    prompt = sum(approx_tokens(m.content) for m in request.messages)
    return Completion("", Usage(prompt, budget, 0, budget), request.model, finish_reason=LENGTH,
                      raw_finish_reason="length")


def with_thinking_and_cache(completion: Completion, thoughts: int, cached: int) -> Completion:
    """The served model's answer with the emulated reasoning (billed as output) and cached prompt."""
    usage = completion.usage
    return replace(completion, usage=Usage(usage.prompt_tokens, usage.completion_tokens + thoughts,
                                           min(cached, usage.prompt_tokens), usage.reasoning_tokens + thoughts))
