"""Local encoders load offline (the network is made impossible), lazily, once per process; their derived
files are cached on disk; vectors of different encoders are never compared; the default encoder (MiniLM's
ONNX graph) computes MiniLM's vectors without torch; the CLI imports only what a rulebook query needs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from forge.rulebook.retrieval import embed

ROOT = Path(__file__).resolve().parents[1]
TEXTS = ["Situation (from the Planner): x\n\nAlerts:\nUser1: Activity Exploit, Compromised User", "quiet",
         "Host Op_Server0: table Activity Scan, Compromised No."]

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

from forge.rulebook.retrieval.embed import local_embedder
embedder = local_embedder(sys.argv[1])
lazy = "sentence_transformers" not in sys.modules and "torch" not in sys.modules
texts = ["Enterprise0: Activity Exploit, Compromised User", "Enterprise0: Activity Exploit, Compromised User",
         "Reply with JSON only."]
vectors = embedder.encode(texts)
print(json.dumps({
    "lazy": lazy, "shape": list(vectors.shape), "attempts": attempts, "offline": os.environ.get("HF_HUB_OFFLINE"),
    "norms": [float(x) for x in (vectors ** 2).sum(axis=1)], "same": float(vectors[0] @ vectors[1]),
    "different": float(vectors[0] @ vectors[2]), "name": embedder.name, "vectors": vectors.tolist(),
    "library_loaded": "sentence_transformers" in sys.modules, "torch_loaded": "torch" in sys.modules,
    "onnx_loaded": "onnx" in sys.modules,
}))
"""


def probe(encoder: str, cache: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HF_", "TRANSFORMERS_"))}
    env["PYTHONPATH"] = str(ROOT)
    env["FORGE_CACHE_DIR"] = str(cache)
    done = subprocess.run([sys.executable, "-c", OFFLINE_PROBE, encoder], capture_output=True, text=True, env=env, cwd=ROOT,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_default_encoder_builds_its_graph_offline_then_loads_it_from_the_disk_cache_without_torch(tmp_path):
    first = probe(embed.DEFAULT_ENCODER, tmp_path)  # empty cache: the graph is written from the weights, quantized, saved
    assert first["attempts"] == [] and first["lazy"] is True  # constructing the embedder loads nothing
    assert first["torch_loaded"] is False and first["library_loaded"] is False
    assert first["name"] == "local:all-MiniLM-L6-v2-onnx-int8" and first["shape"] == [3, 384]
    assert all(abs(n - 1.0) < 1e-4 for n in first["norms"])
    assert first["same"] > 0.999 and first["different"] < 0.5
    built = sorted(p.name for p in (tmp_path / "encoders").iterdir())
    assert len(built) == 2 and built[0].startswith("minilm-int8-onnx-") and built[1] == f"{built[0]}.data"  # weights beside

    second = probe(embed.DEFAULT_ENCODER, tmp_path)  # warm cache: onnxruntime loads the file; onnx is not imported
    assert second["attempts"] == [] and second["torch_loaded"] is False and second["onnx_loaded"] is False
    assert np.allclose(np.array(second["vectors"]), np.array(first["vectors"]), atol=1e-6)


REFERENCE = json.loads((ROOT / "tests" / "minilm_reference_vectors.json").read_text())


def test_the_onnx_graph_computes_the_shipped_minilm():
    # recorded from the package's model through sentence-transformers and torch (float32): the graph
    # written from the weights must give the same vectors, and int8 must stay close to them
    reference = np.array(REFERENCE["vectors"], dtype=np.float32)
    ours = embed.local_embedder("minilm-onnx").encode(REFERENCE["texts"])
    assert np.abs(ours - reference).max() < 1e-5
    int8 = embed.local_embedder("minilm-onnx-int8").encode(REFERENCE["texts"])
    assert ((int8 * reference).sum(axis=1) > 0.9).all()


def test_the_onnx_graph_matches_the_torch_model_when_the_extra_is_installed():
    pytest.importorskip("sentence_transformers")
    texts = [*TEXTS, " ".join(["Step 12 of 30. Alerts: User1: Activity Exploit, Compromised User."] * 40)]  # truncated at 256
    assert np.abs(embed.local_embedder("minilm-onnx").encode(texts) - embed.local_embedder("minilm").encode(texts)).max() < 1e-5


def test_the_shipped_static_model_loads_offline_without_torch(tmp_path):
    result = probe("tokenlearn-static", tmp_path)
    assert result["attempts"] == [] and result["torch_loaded"] is False and result["library_loaded"] is False
    assert result["name"] == "static:tokenlearn-static-model-0.1.1" and result["shape"] == [3, 64]
    assert result["same"] > 0.999 and result["different"] < result["same"]


def test_static_lookup_matches_the_packages_own_encoder():
    static_model = pytest.importorskip("static_model")
    texts = ["Restore Op_Server0 when it shows a privileged compromise", "User1: Activity Exploit, Compromised User"]
    ours = embed.local_embedder("tokenlearn-static").encode(texts)
    theirs = np.asarray(static_model.get_embeddings(texts), dtype=np.float32)  # the wheel's Rust encoder
    assert np.allclose(ours, theirs, atol=1e-5)


def test_static_embedder_is_a_weighted_mean_of_table_rows():
    from tokenizers import Tokenizer
    from tokenizers.models import WordLevel
    from tokenizers.pre_tokenizers import Whitespace

    tokenizer = Tokenizer(WordLevel({"restore": 0, "user0": 1, "never": 2, "[UNK]": 3}, unk_token="[UNK]"))
    tokenizer.pre_tokenizer = Whitespace()
    table = np.array([[1.0, 0.0], [0.0, 1.0], [3.0, 3.0], [0.0, 0.0]], dtype=np.float16)
    from forge.rulebook.retrieval.encoders.static import StaticEmbedder, StaticTable

    plain = StaticEmbedder(lambda: "static:test", 2, lambda: StaticTable(tokenizer, table))
    vectors = plain.encode(["restore user0", "restore", ""])
    assert np.allclose(vectors[0], [2 ** -0.5, 2 ** -0.5]) and np.allclose(vectors[1], [1.0, 0.0])
    assert np.allclose(vectors[2], 0.0)  # no tokens: the zero vector, similar to nothing
    mapped = StaticEmbedder(lambda: "static:test-mapped", 2, lambda: StaticTable(
        tokenizer, table[:2], mapping=np.array([0, 1, 0, 1]), weights=np.array([1.0, 3.0, 1.0, 1.0], dtype=np.float32)))
    assert np.allclose(mapped.encode(["restore user0"])[0], np.array([1.0, 3.0]) / 10 ** 0.5)


def test_encoders_are_a_config_choice_with_distinct_vector_spaces():
    from forge.config import load_config

    chosen = embed.embedder_from_config(load_config(overrides=["rulebook.encoder=tokenlearn-static"]))
    assert chosen is embed.local_embedder("tokenlearn-static")
    assert embed.embedder_from_config(load_config()) is embed.local_embedder(embed.DEFAULT_ENCODER)
    names = {embed.local_embedder(e).name for e in ("minilm-onnx-int8", "minilm-int8", "minilm-onnx", "tokenlearn-static")}
    assert len(names) == 4  # vectors are stored under these names and never compared across them
    with pytest.raises(embed.EmbeddingError, match=r"rulebook.encoder: 'bogus' is not one of minilm"):
        embed.embedder_from_config(load_config(overrides=["rulebook.encoder=bogus"]))


def test_a_book_opened_with_another_encoder_embeds_its_nodes_again_under_that_encoder(tmp_path):
    from forge.rulebook.book import Rulebook
    from forge.rulebook.model import DecisionNode
    from forge.rulebook.store.backends import open_rulebook

    nodes = [DecisionNode("User1: Activity Exploit, Compromised User", ("Step 3 of 30.",)),
             DecisionNode("Op_Server0: Activity Scan, Compromised No")]
    store = open_rulebook(str(tmp_path / "book.db"))
    static, minilm = embed.local_embedder("tokenlearn-static"), embed.local_embedder(embed.DEFAULT_ENCODER)
    Rulebook(store, static).ensure_vectors(nodes)
    ids = [n.id for n in nodes]
    assert set(store.vectors(static.name, ids)) == set(ids) and store.vectors(minilm.name, ids) == {}
    Rulebook(store, minilm).ensure_vectors(nodes)
    node_vec, _ = store.vectors(minilm.name, ids)[ids[0]]
    assert len(node_vec) == 384 and len(store.vectors(static.name, ids)[ids[0]][0]) == 64
    assert float(np.dot(node_vec, minilm.encode_one(nodes[0].text))) > 0.9999
    store.close()


def test_model_is_shared_and_queries_are_cached():
    from forge.rulebook.retrieval.encoders.onnx_minilm import OnnxEmbedder

    a, b = OnnxEmbedder(quantized=True), OnnxEmbedder(quantized=True)
    first = a.encode(["User1: Activity Scan, Compromised No"])
    second = b.encode_one("User1: Activity Scan, Compromised No")
    assert a.onnx_encoder() is b.onnx_encoder()  # one session per graph file in a process
    assert np.allclose(first[0], second, atol=1e-5)
    before = b.cache_stats()
    batch = b.encode_cached(["User1: Activity Scan, Compromised No", "Op_Server0: Activity Exploit, Compromised User"])
    assert batch.shape == (2, 384) and np.allclose(batch[0], second)
    after = b.cache_stats()
    assert (after.hits - before.hits, after.misses - before.misses) == (1, 1)
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


def test_the_torch_traced_query_path_matches_the_library_encode():
    pytest.importorskip("sentence_transformers")
    import torch

    embedder = embed.local_embedder("minilm")
    loaded = embedder.loaded_model()
    assert loaded.direct  # Transformer -> mean Pooling -> Normalize, as shipped
    assert loaded.optimised is not None and embedder.query_encoder() is not None  # the trace matched the model
    assert not any(isinstance(m, torch.jit.ScriptModule) for m in loaded.model.modules())  # and is not one of its layers
    direct = embedder.encode(TEXTS)  # few texts: the traced encoder and the Rust tokenizer
    library = loaded.model.encode(TEXTS, normalize_embeddings=True, convert_to_numpy=True)
    assert np.allclose((direct * library).sum(axis=1), 1.0, atol=1e-5)


def test_int8_gives_a_text_the_same_vector_alone_or_in_a_batch():
    # dynamic quantization scales activations per tensor: a padded batch would change a text's vector
    embedder = embed.local_embedder("minilm-onnx-int8")
    batch = [*TEXTS, *[f"User{i}: Activity Scan, Compromised No" for i in range(10)]]
    together = embedder.encode(batch)
    alone = np.vstack([embedder.encode([text]) for text in TEXTS])
    assert np.allclose(together[:3], alone, atol=1e-6)
    float32 = embed.local_embedder("minilm-onnx").encode(TEXTS)
    assert ((together[:3] * float32).sum(axis=1) > 0.9).all()  # int8 stays close to the float model


CLI_PROBE = r"""
import sys
from forge.cli import main
code = main(sys.argv[1:])
heavy = ("torch", "sentence_transformers", "transformers", "ray", "mlflow")
print("LOADED", ",".join(m for m in heavy if m in sys.modules), "EXIT", code)
"""


def test_a_rulebook_query_imports_no_training_stack_and_writes_nothing_to_stderr(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # the default cache: scripts/setup.sh built the default encoder there
    book = str(tmp_path / "book.db")
    base = [sys.executable, "-c", CLI_PROBE, "rulebook"]
    added = subprocess.run([*base, "add", "--rulebook", book, "--actor", "alice", "--role", "action_chooser",
                            "When User1 shows Activity Exploit, then Restore User1"],
                           capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
    assert added.returncode == 0, added.stderr[-2000:]
    done = subprocess.run([*base, "query", "--rulebook", book, "User1: Activity Exploit, Compromised User"],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Restore User1" in done.stdout
    assert done.stdout.strip().splitlines()[-1] == "LOADED  EXIT 0"  # the default encoder: no torch, no Ray, no MLflow
    assert added.stderr == "" and done.stderr == ""


def test_forge_help_imports_neither_the_simulator_nor_a_model_runtime_nor_numpy():
    probe = ("import sys, contextlib, io\nfrom forge.cli import main\nwith contextlib.redirect_stdout(io.StringIO()):\n"
             "    try:\n        main(['--help'])\n    except SystemExit:\n        pass\n"
             "heavy = ('gymnasium', 'CybORG', 'csle_cyborg', 'ray', 'mlflow', 'torch', 'onnxruntime', 'openai',\n"
             "         'numpy', 'omegaconf')\n"
             "print('LOADED', ','.join(m for m in heavy if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)},
                          cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == "LOADED"


@pytest.mark.slow
def test_minilm_static_is_distilled_once_and_queried_without_torch(tmp_path):
    # default cache directory: scripts/setup.sh builds the default encoder only, this builds the table once
    embedder = embed.local_embedder("minilm-static")
    embedder.prepare()
    from forge.rulebook.retrieval.encoders import static

    path = static.distilled_table_path()
    assert path.is_file() and embedder.name.endswith(static.minilm_source_fingerprint())
    table = np.load(path, mmap_mode="r")
    assert table.shape == (30522, 384) and table.dtype == np.float16
    vectors = embedder.encode(["User1 shows Activity Exploit", "User1: Activity Exploit, Compromised User",
                               "Quarterly revenue grew by four percent."])
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2] + 0.2
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    code = ("import sys; from forge.rulebook.retrieval.embed import local_embedder; e = local_embedder('minilm-static'); "
            "e.encode_one('User1 shows Activity Exploit'); print('torch' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
    assert done.returncode == 0 and done.stdout.strip() == "False", done.stderr[-2000:]
