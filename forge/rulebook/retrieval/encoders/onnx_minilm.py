"""all-MiniLM-L6-v2 run by onnxruntime: the default rulebook encoder, without torch. The graph is written
from the shipped weights and kept in the cache directory (onnx_graph.py); a query process only loads it.

Why onnxruntime and not a numpy forward pass: a numpy BERT spends a short query's time in Python
overhead and BLAS calls on small matrices, where onnxruntime runs the fused graph (layer norm, GELU,
MatMul+Add, int8 MatMulInteger) in one native call.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Sequence

import numpy as np

from forge.rulebook.retrieval.encoders import vector_cache
from forge.rulebook.retrieval.encoders.base import (LOCAL_MODEL_NAME, CacheStats, EmbeddingError, QueryCache, cache_dir,
                                                    local_model_path, max_seq_length, plain_tokenizer, unit_rows,
                                                    weights_fingerprint)
from forge.rulebook.retrieval.encoders.onnx_graph import ensure_onnx_file, onnx_file_name


@dataclass(frozen=True)
class OnnxEncoder:
    """A loaded graph and its tokenizer (truncating at the model's max length, no padding)."""

    tokenizer: object  # tokenizers.Tokenizer
    session: object  # onnxruntime.InferenceSession

    def run(self, input_ids: np.ndarray) -> np.ndarray:
        """Mean-pooled rows for a [batch, seq] array of token ids, all attended (no padding)."""
        return self.session.run(None, {"input_ids": input_ids, "attention_mask": np.ones_like(input_ids)})[0]

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """One unpadded run per text: int8 activations are scaled per tensor, so a padded batch would
        give a text another vector than it gets alone (and short texts cost less unpadded)."""
        rows = []
        for text in texts:
            ids = np.asarray([self.tokenizer.encode(text).ids], dtype=np.int64)
            rows.append(self.run(ids)[0])
        return np.stack(rows)


_sessions: dict[str, OnnxEncoder] = {}
_sessions_lock = threading.Lock()


def new_session(path: Path, threads: int = 1):
    """An onnxruntime session for the graph at `path`, errors only on stderr, no spinning."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.log_severity_level = 3  # errors only: no notices on stderr
    return onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


def load_onnx_encoder(path: Path, tokenizer) -> OnnxEncoder:
    """The process-wide session for the graph at `path`: one intra-op thread (a query is a fraction of a
    millisecond of work per op; a second thread costs more in hand-over than it saves on a machine whose
    other core is busy)."""
    with _sessions_lock:
        loaded = _sessions.get(str(path))
        if loaded is None:
            loaded = _sessions[str(path)] = OnnxEncoder(tokenizer, new_session(path))
        return loaded


def minilm_onnx_encoder(quantized: bool, model_path: Optional[Path] = None) -> OnnxEncoder:
    """The loaded graph for the shipped MiniLM, built into the cache directory first if it is not there."""
    model_path = model_path or local_model_path()
    path = ensure_onnx_file(quantized, model_path)
    tokenizer = plain_tokenizer(model_path / "tokenizer.json")
    tokenizer.enable_truncation(max_length=max_seq_length(model_path))
    try:
        return load_onnx_encoder(path, tokenizer)
    except Exception as exc:  # onnxruntime raises its own exception types (Fail, InvalidGraph, ...)
        raise EmbeddingError(f"cannot load the ONNX encoder {path}: {exc} (delete it to rebuild)") from None


def disk_cache(name: str, quantized: bool, dim: int):
    """The on-disk vector cache of this encoder (None if FORGE_VECTOR_CACHE=0), keyed by the graph file
    it runs: a query answered from it loads neither onnxruntime nor the tokenizer."""
    if not vector_cache.enabled():
        return None
    return vector_cache.DiskVectorCache(cache_dir() / "vectors.db",
                                        lambda: f"{name}|{onnx_file_name(weights_fingerprint(), quantized)}", dim)


class OnnxEmbedder:
    """all-MiniLM-L6-v2 on onnxruntime, float32 (`minilm-onnx`, the same vectors as the torch model to
    1e-6, so the same vector space name) or int8 (`minilm-onnx-int8`, the default); loaded lazily, once
    per process."""

    dim = 384

    def __init__(self, *, quantized: bool, cache_size: int = 2048) -> None:
        self.quantized = quantized
        self.name = f"local:{LOCAL_MODEL_NAME}" + ("-onnx-int8" if quantized else "")
        self._encoder: Optional[OnnxEncoder] = None
        self._lock = threading.Lock()
        self._cache = QueryCache(cache_size, disk_cache(self.name, quantized, self.dim))

    @property
    def loaded(self) -> bool:
        return self._encoder is not None

    def onnx_encoder(self) -> OnnxEncoder:
        with self._lock:
            if self._encoder is None:
                self._encoder = minilm_onnx_encoder(self.quantized)
            return self._encoder

    def prepare(self) -> None:
        self.onnx_encoder()

    def cache_stats(self) -> CacheStats:
        return self._cache.stats()

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return unit_rows(self.onnx_encoder().encode(list(texts)))

    def encode_one(self, text: str) -> np.ndarray:
        return self._cache.through([text], self.encode)[0]

    def known_vector(self, text: str) -> Optional[np.ndarray]:
        """The vector of `text` if a cache (this process's or the disk's) has it; the model is not loaded."""
        return self._cache.known(text)

    def encode_cached(self, texts: Sequence[str]) -> np.ndarray:
        return self._cache.through(list(texts), self.encode)
