"""Rulebook mode's caches change nothing that is injected: a seeded surrogate episode on real CybORG,
played with the on-disk vector cache off, then on (cold: it fills), then on again from a new embedder
(warm: every context's vector read back from disk), injects the same rule ids on every call, and the
warm play runs no forward pass."""

from __future__ import annotations

import pytest

from forge.config import load_config
from forge.rulebook.book import Rulebook
from forge.rulebook.retrieval.encoders import onnx_minilm
from forge.rulebook.retrieval.encoders.onnx_minilm import OnnxEmbedder
from forge.rulebook.retrieval.encoders.vector_cache import DiskVectorCache
from forge.rulebook.store.backends import open_rulebook
from forge.wiring import build_clients
from tests.test_rulebook_injection import RecordingInjection, injection, teach

HOSTS = ("Enterprise0", "Enterprise1", "User1", "User2", "User3", "Op_Server0")


@pytest.mark.slow
def test_the_vector_cache_injects_the_same_rules_on_every_call_and_a_warm_cache_runs_no_model(tmp_path, monkeypatch):
    from agents.defender import Defender
    from forge.env import Cage2Env
    from forge.protocol.episode import play_episode

    spec = str(tmp_path / "rb.db")
    teacher = Rulebook(open_rulebook(spec), OnnxEmbedder(quantized=True))
    for i, host in enumerate(HOSTS):  # gated rules, several passing at once on some calls
        teach(teacher, f"When {host} shows any compromise, then Restore {host}.", "s/i00", "action_chooser", source=f"r{i}")
        teach(teacher, f"When {host} shows Activity Exploit, then Remove {host}.", "s/i00", "planner", source=f"p{i}")
    # free text with no predicate: the floor judges it by cosine, so every context of these roles is embedded
    teach(teacher, "Keep the operational server running at all costs; it matters more than user machines.", "s/i00",
          "planner", source="s1")
    teach(teacher, "Do not waste actions on hosts that show no sign of the attacker.", "s/i00", "action_chooser", source="s2")
    teacher.store.close()

    runs = []

    def counting(self, input_ids):
        runs.append(input_ids.shape[1])
        return original(self, input_ids)

    original = onnx_minilm.OnnxEncoder.run
    monkeypatch.setattr(onnx_minilm.OnnxEncoder, "run", counting)
    cfg = load_config(overrides=["env.max_steps=15", "surrogate.latency_ms=0"])
    clients, _ = build_clients(cfg)
    space = OnnxEmbedder(quantized=True)._cache.disk.space

    def play(disk: bool) -> tuple[list, int]:
        embedder = OnnxEmbedder(quantized=True)  # empty memory, as a new process
        embedder._cache.disk = DiskVectorCache(tmp_path / "vectors.db", space, embedder.dim) if disk else None
        book = Rulebook(open_rulebook(spec), embedder)
        recording = RecordingInjection(injection(book, actor="s/i00", window=cfg.rulebook.context_window))
        before = len(runs)
        defender = Defender(clients, recording, cfg.agent, cfg.env.max_steps)
        play_episode(Cage2Env(red_agent="b_line", max_steps=cfg.env.max_steps), defender, seed=11)
        book.store.close()
        return recording.seen, len(runs) - before

    uncached, passes_uncached = play(disk=False)
    cold, passes_cold = play(disk=True)
    warm, passes_warm = play(disk=True)
    assert uncached == cold == warm
    assert sum(1 for _, ids, _ in warm if ids) > 0  # rules were injected
    assert passes_uncached == passes_cold > 0 and passes_warm == 0, (passes_uncached, passes_cold, passes_warm)
