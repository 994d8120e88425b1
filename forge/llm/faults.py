"""Seeded fault injection around a provider, for tests and reliability runs (`faults.enabled`).

Per call, one draw from a seeded RNG picks at most one fault at the configured rates:

- transient error / timeout: raised before the inner provider is called (the timeout is reported at
  once rather than waited out, so reliability runs stay fast); the resilience layer retries both;
- malformed / empty output: the inner provider answers, then its text is garbled (cut short, its
  structure broken, junk spliced in) or blanked. These come back as Completions, because a real
  model's bad answer is an answer: the agent layer must survive it, nothing should retry it.

Draws happen in call order under a lock, so one caller (one instance's agent) with one seed sees the
same faults on every run.
"""

from __future__ import annotations

import random
import threading
from collections import Counter
from dataclasses import replace
from typing import Any, Optional, Sequence

from forge.config import FaultConfig
from forge.llm.types import Completion, Message, Provider, ProviderTimeout, TransientProviderError, Usage

FAULT_KINDS = ("transient", "timeout", "malformed", "empty")
_JUNK = ("\ufffd", "<|endoftext|>", "```", "}}", "\x00", "####", "[/INST]", "...")
_STRUCTURE = frozenset('{}[]():"\n')


def garble(text: str, rng: random.Random) -> str:
    """A damaged copy of `text`, never equal to it (and never empty: empty is its own fault)."""
    mode = rng.randrange(3)
    if mode == 0 and len(text) > 1:
        # Cut mid-answer, as a max_tokens stop or a dropped connection would.
        out = text[: rng.randint(1, max(1, (len(text) * 2) // 3))]
    elif mode == 1:
        # The format is lost: most brackets, quotes, colons and line breaks vanish.
        out = "".join(c for c in text if c not in _STRUCTURE or rng.random() < 0.25)
    else:
        # Junk tokens spliced in at random places.
        out = text
        for _ in range(rng.randint(1, 3)):
            at = rng.randint(0, len(out))
            out = out[:at] + rng.choice(_JUNK) + out[at:]
    if out == text or not out:
        out = text + rng.choice(_JUNK)
    return out


class FaultInjectingProvider:
    """`inner` with seeded faults at the rates in `cfg`; `injected` counts what was injected."""

    def __init__(self, inner: Provider, cfg: FaultConfig, *, name: Optional[str] = None):
        rates = [cfg.transient_error_rate, cfg.timeout_rate, cfg.malformed_rate, cfg.empty_rate]
        if any(r < 0 for r in rates) or sum(rates) > 1.0 + 1e-9:
            raise ValueError(f"faults: each rate must be >= 0 and together at most 1, got {rates}")
        self.inner = inner
        self.cfg = cfg
        self.name = name or getattr(inner, "name", "provider")
        # Faults do not change who enforces the timeout.
        self.enforces_timeout = bool(getattr(inner, "enforces_timeout", False))
        self.injected: Counter[str] = Counter()
        self._thresholds = []
        total = 0.0
        for kind, rate in zip(FAULT_KINDS, rates):
            total += rate
            self._thresholds.append((total, kind))
        self._rng = random.Random(cfg.seed)
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"FaultInjectingProvider(inner={self.inner!r}, seed={self.cfg.seed})"

    def complete(
        self,
        messages: Sequence[Message],
        *,
        model: str,
        temperature: float = 0.0,
        max_tokens: int = 512,
        seed: Optional[int] = None,
        stop: Optional[Sequence[str]] = None,
        **extra: Any,
    ) -> Completion:
        kind, damage_seed = self._draw()
        if kind == "transient":
            raise TransientProviderError(f"provider {self.name!r}: injected transient fault", status=503)
        if kind == "timeout":
            raise ProviderTimeout(f"provider {self.name!r}: injected timeout")
        completion = self.inner.complete(
            messages, model=model, temperature=temperature, max_tokens=max_tokens, seed=seed, stop=stop, **extra
        )
        if kind == "malformed":
            return replace(completion, text=garble(completion.text, random.Random(damage_seed)))
        if kind == "empty":
            return replace(completion, text="", usage=Usage(completion.usage.prompt_tokens, 0))
        return completion

    def close(self) -> None:
        close = getattr(self.inner, "close", None)
        if close is not None:
            close()

    def _draw(self) -> tuple[Optional[str], int]:
        with self._lock:
            u = self._rng.random()
            damage_seed = self._rng.getrandbits(32)
            kind = next((k for bound, k in self._thresholds if u < bound), None)
            if kind is not None:
                self.injected[kind] += 1
        return kind, damage_seed
