"""A cold `forge rulebook query` imports only what it uses; text vectors are kept on disk between
processes (vector_cache.py), read back bit for bit, and a context embedded before is answered without
loading the model."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import numpy as np

from forge.rulebook.retrieval.encoders.onnx_minilm import OnnxEmbedder
from forge.rulebook.retrieval.encoders.vector_cache import DiskVectorCache

ROOT = Path(__file__).resolve().parents[1]

CLI_PROBE = """
import sys
from forge.cli import main
code = main(sys.argv[1:])
watched = ("omegaconf", "yaml", "gymnasium", "torch", "transformers", "ray", "mlflow", "openai", "onnx", "onnxruntime", "tokenizers")
print("LOADED", ",".join(m for m in watched if m in sys.modules), "EXIT", code)
"""


def cli(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", CLI_PROBE, *args], capture_output=True, text=True,
                          env=env or {**os.environ, "PYTHONPATH": str(ROOT)}, cwd=ROOT, timeout=300)


def loaded(done: subprocess.CompletedProcess) -> set[str]:
    last = done.stdout.strip().splitlines()[-1].split()
    assert last[0] == "LOADED" and last[-2:] == ["EXIT", "0"], done.stdout[-500:]
    return set(last[1].split(",")) if len(last) == 4 else set()


def test_a_cold_query_imports_only_what_it_uses_and_a_repeated_context_skips_the_model(tmp_path):
    book = str(tmp_path / "book.db")
    added = cli("rulebook", "add", "--rulebook", book, "--actor", "alice", "--role", "action_chooser",
                "When User1 shows Activity Exploit, then Restore User1")
    assert added.returncode == 0 and added.stderr == "", added.stderr[-2000:]
    context = f"User1: Activity Exploit, Compromised User (probe {uuid.uuid4().hex})"  # never embedded before
    first = cli("rulebook", "query", "--rulebook", book, context)
    assert first.returncode == 0 and first.stderr == "", first.stderr[-2000:]
    assert "Restore User1" in first.stdout
    # no configuration file or override: OmegaConf and PyYAML stay out; the action catalog comes without
    # gymnasium; the model runs, on onnxruntime
    assert loaded(first) == {"onnxruntime", "tokenizers"}
    second = cli("rulebook", "query", "--rulebook", book, context)
    assert second.returncode == 0 and second.stderr == "", second.stderr[-2000:]
    assert loaded(second) == set()  # the context's vector comes from the disk cache: no model, no tokenizer

    def scores(out: str) -> list[str]:  # the table and the verdict, without the timing in the title
        return [line for line in out.splitlines() if "ms, query embedding" not in line][:-1]

    assert scores(second.stdout) == scores(first.stdout)


def test_an_override_is_still_checked_against_the_configuration(tmp_path):
    bad = cli("rulebook", "query", "--rulebook", str(tmp_path / "book.db"), "--set", "rulebook.relevance_flor=0.5", "quiet")
    assert "EXIT 2" in bad.stdout and "relevance_flor" in bad.stderr


def test_vectors_read_back_from_disk_are_the_computed_ones_and_skip_the_model(tmp_path, monkeypatch):
    from forge.rulebook.retrieval.encoders import onnx_minilm

    texts = ["Enterprise0: Activity Exploit, Compromised User", "quiet"]
    first, second = OnnxEmbedder(quantized=True), OnnxEmbedder(quantized=True)  # second: as in a new process
    space = first._cache.disk.space
    assert space.startswith("local:all-MiniLM-L6-v2-onnx-int8|minilm-int8-onnx-")  # names the graph file
    for embedder in (first, second):  # the default file, moved to tmp_path
        embedder._cache.disk = DiskVectorCache(tmp_path / "vectors.db", space, embedder.dim)
    computed = first.encode_cached(texts)
    runs = []
    monkeypatch.setattr(onnx_minilm.OnnxEncoder, "encode", lambda self, batch: runs.append(batch) or 1 / 0)
    again = second.encode_cached(texts)
    assert runs == [] and np.array_equal(again, computed)  # bit for bit, no forward pass
    assert second._cache.disk.hits == 2 and second.known_vector("never seen") is None


def test_a_broken_cache_file_turns_the_cache_off_and_embedding_goes_on(tmp_path):
    path = tmp_path / "vectors.db"
    path.write_bytes(b"not a database" * 100)
    cache = DiskVectorCache(path, "space", 4)
    assert cache.get_many(["a"]) == {}
    cache.put_many({"a": np.ones(4, np.float32)})
    assert cache._broken and cache.get_many(["a"]) == {}


def test_the_cache_keeps_spaces_apart_and_drops_the_oldest_rows(tmp_path, monkeypatch):
    from forge.rulebook.retrieval.encoders import vector_cache

    monkeypatch.setattr(vector_cache, "PRUNE_EVERY", 1)
    a = DiskVectorCache(tmp_path / "v.db", "encoder-a", 2, max_rows=3)
    b = DiskVectorCache(tmp_path / "v.db", "encoder-b", 2)
    a.put_many({"x": np.array([1, 0], np.float32)})
    assert b.get_many(["x"]) == {}  # another vector space never answers
    for i in range(4):
        a.put_many({f"t{i}": np.array([i, 1], np.float32)})
    kept = a.get_many(["x", "t0", "t1", "t2", "t3"])
    assert sorted(kept) == ["t1", "t2", "t3"] and np.array_equal(kept["t3"], [3, 1])


def test_the_environment_is_registered_with_gymnasium_when_gymnasium_is_imported_after_forge_env():
    probe = ("import sys, importlib.util\nimport forge.env\nassert importlib.util.find_spec('gymnasium')  # a probe only\n"
             "assert 'gymnasium' not in sys.modules\nimport gymnasium\n"
             "env = gymnasium.make(forge.env.GYMNASIUM_ID, red_agent='meander', max_steps=3)\n"
             "print(type(env.unwrapped).__name__, gymnasium.__loader__ is gymnasium.__spec__.loader)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["Cage2Env", "True"]
