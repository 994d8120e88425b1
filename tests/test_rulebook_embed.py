"""The local embedding model loads offline (the network is made impossible), lazily, once per process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

from forge.rulebook import embed

ROOT = Path(__file__).resolve().parents[1]

OFFLINE_PROBE = r"""
import json, os, socket, sys
for key in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "HF_DATASETS_OFFLINE"):
    os.environ.pop(key, None)  # the code under test must switch the libraries offline itself
attempts = []

def refuse(*args, **kwargs):
    attempts.append(repr(args)[:80])
    raise OSError("network access is disabled in this test")

socket.socket.connect = refuse
socket.socket.connect_ex = refuse
socket.create_connection = refuse
socket.getaddrinfo = refuse

import huggingface_hub  # imported before the embedder, as another library might have done
import huggingface_hub.file_download as file_download

def no_download(*args, **kwargs):
    attempts.append("download " + repr(args)[:80])
    raise AssertionError("a model download was attempted")

huggingface_hub.hf_hub_download = file_download.hf_hub_download = no_download
huggingface_hub.snapshot_download = no_download

from forge.rulebook.embed import LocalEmbedder
embedder = LocalEmbedder()
lazy = "sentence_transformers" not in sys.modules
texts = ["Enterprise0: Activity Exploit, Compromised User", "Enterprise0: Activity Exploit, Compromised User",
         "Reply with JSON only."]
vectors = embedder.encode(texts)
print(json.dumps({
    "lazy": lazy, "shape": list(vectors.shape), "attempts": attempts, "offline": os.environ.get("HF_HUB_OFFLINE"),
    "norms": [float(x) for x in (vectors ** 2).sum(axis=1)], "same": float(vectors[0] @ vectors[1]),
    "different": float(vectors[0] @ vectors[2]), "name": embedder.name,
}))
"""


def test_local_model_loads_with_the_network_impossible():
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HF_", "TRANSFORMERS_"))}
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run([sys.executable, "-c", OFFLINE_PROBE], capture_output=True, text=True, env=env, cwd=ROOT, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["attempts"] == []
    assert result["lazy"] is True  # constructing the embedder loads nothing
    assert result["offline"] == "1" and result["name"] == "local:all-MiniLM-L6-v2"
    assert result["shape"] == [3, 384]
    assert all(abs(n - 1.0) < 1e-4 for n in result["norms"])
    assert result["same"] > 0.999 and result["different"] < 0.5


def test_model_is_shared_and_queries_are_cached():
    a, b = embed.LocalEmbedder(), embed.LocalEmbedder()
    first = a.encode(["User1: Activity Scan, Compromised No"])
    second = b.encode_one("User1: Activity Scan, Compromised No")
    assert len(embed._models) == 1 and a.model() is b.model()
    assert np.allclose(first[0], second, atol=1e-5)
    batch = b.encode_cached(["User1: Activity Scan, Compromised No", "Op_Server0: Activity Exploit, Compromised User"])
    assert batch.shape == (2, 384) and np.allclose(batch[0], second)
    assert embed.local_embedder() is embed.local_embedder()


def test_accumulated_context_is_the_unit_mean():
    rows = embed.unit_rows(np.array([[1.0, 0.0], [0.0, 1.0]]))
    assert np.allclose(embed.mean_direction(rows), [2 ** -0.5, 2 ** -0.5])


def test_openai_embedder_needs_a_named_provider():
    from forge.config import load_config

    cfg = load_config(overrides=["rulebook.embedding=openai"])
    try:
        embed.embedder_from_config(cfg)
    except embed.EmbeddingError as exc:
        assert "rulebook.embedding_provider" in str(exc)
    else:
        raise AssertionError("an openai embedder without a provider was accepted")


def test_openai_embedder_speaks_the_embeddings_api(monkeypatch):
    calls = []

    class Item:
        def __init__(self, index, vector):
            self.index, self.embedding = index, vector

    class Client:
        def __init__(self, **kwargs):
            calls.append(("init", sorted(kwargs)))
            self.embeddings = self

        def create(self, model, input):
            calls.append((model, list(input)))
            return type("Answer", (), {"data": [Item(i, [float(len(t)), 1.0]) for i, t in reversed(list(enumerate(input)))]})

    monkeypatch.setenv("FORGE_TEST_EMBED_KEY", "sk-test")
    embedder = embed.OpenAIEmbedder("text-embedding-3-small", base_url="http://127.0.0.1:9/v1", api_key_env="FORGE_TEST_EMBED_KEY",
                                    provider_name="local", client_factory=Client)
    vectors = embedder.encode(["ab", "abcd"])
    assert calls[1] == ("text-embedding-3-small", ["ab", "abcd"])
    assert vectors.shape == (2, 2) and np.allclose((vectors ** 2).sum(axis=1), 1.0) and vectors[1, 0] > vectors[0, 0]
    assert "sk-test" not in embedder.name


def test_the_direct_query_path_matches_the_library_encode():
    embedder = embed.local_embedder()
    loaded = embedder.loaded_model()
    model = loaded.model
    texts = ["Situation (from the Planner): x\n\nAlerts:\nUser1: Activity Exploit, Compromised User", "quiet",
             "Host Op_Server0: table Activity Scan, Compromised No."]
    assert loaded.direct  # Transformer -> mean Pooling -> Normalize, as shipped
    assert loaded.optimised is not None  # the traced encoder matched the model on its probes
    import torch

    assert not any(isinstance(m, torch.jit.ScriptModule) for m in model.modules())  # and is not one of its layers
    direct = embedder.encode(texts)  # few texts: the direct (optimised) path
    library = model.encode(texts, normalize_embeddings=True, convert_to_numpy=True)
    assert np.allclose((direct * library).sum(axis=1), 1.0, atol=1e-5)
