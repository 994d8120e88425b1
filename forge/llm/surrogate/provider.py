"""The surrogate model behind the provider interface: seeded, scripted, and always labelled as such.

It stands in for an LLM because no model API is reachable from these machines. It answers only from
the text of the messages (see `reading` and `behaviour`), simulates latency, and reports token counts
as characters / 4. Results produced with it are surrogate results, never LLM results.
"""

from __future__ import annotations

import hashlib
import random
import time
from typing import Optional, Sequence

from forge.config import ForgeConfig, SurrogateConfig
from forge.llm.surrogate import behaviour, reading
from forge.llm.types import Completion, Message, Usage, approx_tokens

SURROGATE_LABEL = "surrogate (scripted stand-in model, not an LLM)"

_ROLES = {
    "planner": behaviour.planner,
    "analyst": behaviour.analyst,
    "action_chooser": behaviour.action_chooser,
    "reflector": behaviour.reflector,
    "exemplifier": behaviour.exemplifier,
}


def register_role(role: str, answer) -> None:
    """Let another module teach the surrogate a role (the rulebook registers the rule compiler)."""
    _ROLES[role] = answer


class SurrogateProvider:
    is_surrogate = True

    def __init__(self, name: str, settings: SurrogateConfig) -> None:
        self.name = name
        self.settings = settings

    @classmethod
    def from_config(cls, name: str, cfg: ForgeConfig) -> "SurrogateProvider":
        return cls(name, cfg.surrogate)

    def __repr__(self) -> str:
        return f"SurrogateProvider(name={self.name!r}, seed={self.settings.seed})"

    def complete(
        self,
        messages: Sequence[Message],
        *,
        model: str,
        temperature: float = 0.0,
        max_tokens: int = 512,
        seed: Optional[int] = None,
        stop: Optional[Sequence[str]] = None,
    ) -> Completion:
        start = time.perf_counter()
        rng = random.Random(self._seed_material(messages, seed))
        role = reading.detect_role(messages)
        answer = _ROLES.get(role)
        if answer is None:
            text = "I am the FORGE surrogate model; I only answer the prompts of the FORGE agents."
        else:
            text = answer(behaviour.Mind(self.settings, rng), messages)
        for marker in stop or ():
            if marker and marker in text:
                text = text[: text.index(marker)]
        cut = len(text) > max(1, max_tokens) * 4
        text = text[: max(1, max_tokens) * 4]
        self._simulate_latency(rng)
        usage = Usage(
            prompt_tokens=sum(approx_tokens(m.content) for m in messages),
            completion_tokens=approx_tokens(text),
        )
        return Completion(text=text, usage=usage, model=model, latency_s=time.perf_counter() - start,
                          finish_reason="length" if cut else "stop")

    def _seed_material(self, messages: Sequence[Message], seed: Optional[int]) -> int:
        digest = hashlib.sha256()
        digest.update(f"{self.settings.seed}:{seed}".encode())
        for message in messages:
            digest.update(f"\x1e{message.role}\x1f{message.content}".encode())
        return int.from_bytes(digest.digest()[:8], "big")

    def _simulate_latency(self, rng: random.Random) -> None:
        latency = self.settings.latency_ms
        if self.settings.latency_jitter_ms:
            latency += rng.uniform(-1, 1) * self.settings.latency_jitter_ms
        if latency > 0:
            time.sleep(latency / 1000.0)
