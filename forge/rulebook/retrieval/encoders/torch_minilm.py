"""The torch encoders (`pip install -e ".[torch]"`): all-MiniLM-L6-v2 through sentence-transformers,
float32 (`minilm`) or with its Linear layers dynamically quantized to int8 (`minilm-int8`), traced and
frozen for queries.

Kept for comparison (scripts/bench/rulebook_query.py prints them beside the default) and for whoever
has torch anyway. The Hugging Face hub is switched offline before anything of `transformers` is
imported, so no code path can reach the network.
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

from forge.rulebook.retrieval.encoders.base import (LOCAL_MODEL_NAME, CacheStats, EmbeddingError, QueryCache, cache_dir, force_offline,
                                       local_model_path, max_seq_length, plain_tokenizer, unit_rows, weights_fingerprint)

log = logging.getLogger(__name__)
TORCH_EXTRA = 'the torch encoders need the `torch` extra: pip install -e ".[torch]"'


@dataclass(frozen=True)
class LoadedModel:
    """The loaded model and how queries are run through it. Kept beside the model, not on it: a torch
    module assigned to a module's attribute would become one of its layers."""

    model: object  # sentence_transformers.SentenceTransformer
    direct: bool  # Transformer -> mean Pooling -> Normalize: queries may skip `encode`
    optimised: object = None  # the traced, frozen encoder, when it matches the model


_models: dict[tuple[str, bool], LoadedModel] = {}
_models_lock = threading.Lock()


def _load_sentence_transformer(path: Path, quantized: bool = False) -> LoadedModel:
    with _models_lock:
        loaded = _models.get((str(path), quantized))
        if loaded is None:
            force_offline()
            try:
                from sentence_transformers import SentenceTransformer
            except ImportError:
                raise EmbeddingError(TORCH_EXTRA) from None
            from transformers.utils import logging as transformers_logging

            transformers_logging.set_verbosity_error()
            transformers_logging.disable_progress_bar()

            try:
                model = SentenceTransformer(str(path), device="cpu", local_files_only=True)
            except Exception as exc:  # the library raises many types; the message is what matters here
                raise EmbeddingError(f"cannot load the local embedding model from {path}: {exc}") from None
            model.eval()
            if quantized:
                _quantize_transformer(model)
            direct = _uses_mean_pooling(model)
            loaded = LoadedModel(model, direct, _optimised_encoder(model) if direct else None)
            _models[(str(path), quantized)] = loaded
        return loaded


def _quantize_transformer(model) -> None:
    """Every Linear layer of the transformer to int8 weights with dynamic int8 activations, in place, so
    that `encode` (batches) and the direct query path compute the same vectors."""
    import warnings

    import torch

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch.ao's notice that eager quantization moves to torchao
        torch.ao.quantization.quantize_dynamic(model[0].auto_model, {torch.nn.Linear}, dtype=torch.qint8, inplace=True)


DIRECT_MAX = 8  # up to this many texts (queries), skip the library's batching machinery
# Probe texts of very different lengths: the optimised encoder must match the model on all of them.
_PROBES = ("quiet", "Situation (from the Planner): Enterprise0 shows Activity None, Compromised Privileged",
           " ".join(["Step 12 of 30. Alerts: User1: Activity Exploit, Compromised User; Op_Server0: Activity Scan."] * 12))


def _optimised_encoder(model):
    """The transformer traced for one unpadded text, frozen and fused for oneDNN
    (`torch.jit.optimize_for_inference`): faster per query on a CPU (scripts/bench/rulebook_query.py).
    Used only if it matches the eager model (max |difference| < 1e-4) on texts of three lengths; None
    otherwise, or if FORGE_RULEBOOK_OPTIMISE=0."""
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
    Pooling, Normalize) compute, without `encode`'s sorting and batching, which a single query does not need.
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


# -- the traced query encoder, cached on disk -----------------------------------------------------------
# Loading sentence-transformers and tracing costs seconds per process; torch.jit.load of the saved trace
# plus the Rust tokenizer a fraction of that (torch's own import remains). Keyed by the model's fingerprint,
# int8 or not, and the torch version; validated against the eager model when it is built.
TRACE_RECIPE = "minilm-traced/v1: frozen, optimize_for_inference, last hidden state; masked mean outside"


@dataclass(frozen=True)
class QueryEncoder:
    """What a query needs: the tokenizer (truncating at the model's max length, no padding) and the
    traced transformer (input ids, attention mask -> last hidden state)."""

    tokenizer: object  # tokenizers.Tokenizer
    encoder: object  # torch.jit.ScriptModule

    def encode(self, texts: list[str]) -> np.ndarray:
        import torch

        rows = []
        # The graph executor's profiling re-specializes the graph for every new sequence length, and
        # query lengths rarely repeat: with it, every query pays a re-specialization; without it (the graph
        # is already frozen and fused) it does not (scripts/bench/rulebook_query.py measures the latency).
        with torch.jit.optimized_execution(False), torch.inference_mode():
            for text in texts:  # one unpadded forward per text: cheaper on a CPU than a padded batch
                ids = torch.tensor([self.tokenizer.encode(text).ids], dtype=torch.long)
                rows.append(self.encoder(ids, torch.ones_like(ids))[0].mean(dim=0))
        return unit_rows(torch.stack(rows).numpy())


def traced_path(model_path: Path, quantized: bool) -> Path:
    import torch

    key = hashlib.sha256(f"{TRACE_RECIPE}|{weights_fingerprint(model_path)}|{quantized}|{torch.__version__}".encode())
    return cache_dir() / "encoders" / f"minilm{'-int8' if quantized else ''}-traced-{key.hexdigest()[:12]}.pt"


_query_encoders: dict[tuple[str, bool], Optional[QueryEncoder]] = {}
_query_lock = threading.Lock()


def _query_encoder(model_path: Path, quantized: bool, load_model: Callable[[], LoadedModel]) -> Optional[QueryEncoder]:
    """The traced encoder from the disk cache; on a miss, traced from the model and saved. None when the
    model cannot be traced (then queries go through the model)."""
    key = (str(model_path), quantized)
    with _query_lock:
        if key in _query_encoders:
            return _query_encoders[key]
        os.environ.setdefault("TORCH_CPP_LOG_LEVEL", "ERROR")  # torch's C++ notice that qint8 tensors are deprecated
        try:
            import torch
        except ImportError:
            raise EmbeddingError(TORCH_EXTRA) from None

        tokenizer = plain_tokenizer(model_path / "tokenizer.json")
        tokenizer.enable_truncation(max_length=max_seq_length(model_path))
        path = traced_path(model_path, quantized)
        encoder = None
        if path.is_file():
            try:
                encoder = torch.jit.load(str(path), map_location="cpu").eval()
            except Exception as exc:  # a truncated or foreign file: trace again and overwrite it
                log.warning("ignoring the cached traced encoder %s (%s); tracing again", path, exc)
        if encoder is None:
            loaded = load_model()
            encoder = loaded.optimised
            if encoder is not None:
                try:
                    path.parent.mkdir(parents=True, exist_ok=True)
                    partial = path.with_name(f"{path.stem}.{os.getpid()}.partial")
                    torch.jit.save(encoder, str(partial))
                    os.replace(partial, path)
                except (OSError, RuntimeError) as exc:  # a read-only cache only costs the next process time
                    log.warning("cannot cache the traced encoder at %s: %s", path, exc)
        _query_encoders[key] = QueryEncoder(tokenizer, encoder) if encoder is not None else None
        return _query_encoders[key]


class LocalEmbedder:
    """all-MiniLM-L6-v2 from the package directory (int8-quantized if `quantized`), loaded lazily, once
    per process."""

    dim = 384

    def __init__(self, path: Optional[Path] = None, *, quantized: bool = False, batch_size: int = 64,
                 cache_size: int = 2048) -> None:
        self._path = path
        self.quantized = quantized
        self.name = f"local:{LOCAL_MODEL_NAME}" + ("-int8" if quantized else "")
        self.batch_size = batch_size
        self._cache = QueryCache(cache_size)

    @property
    def loaded(self) -> bool:
        return any(key[1] == self.quantized and (self._path is None or key[0] == str(self._path)) for key in _models)

    def loaded_model(self) -> LoadedModel:
        if self._path is None:
            self._path = local_model_path()
        return _load_sentence_transformer(self._path, self.quantized)

    def cache_stats(self) -> CacheStats:
        return self._cache.stats()

    def model(self):
        """The sentence-transformers model itself."""
        return self.loaded_model().model

    def prepare(self) -> None:
        """Load what a query needs now (timings of queries should not include it): the traced encoder
        from the disk cache if it is there, else the model (then traced and cached)."""
        if self.query_encoder() is None:
            self.loaded_model()

    def query_encoder(self) -> Optional["QueryEncoder"]:
        if self._path is None:
            self._path = local_model_path()
        return _query_encoder(self._path, self.quantized, self.loaded_model)

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        import torch

        # int8: dynamic quantization scales activations per tensor, so a padded batch would give a text
        # another vector than it gets alone: every text is encoded alone, as a query is.
        if len(texts) <= DIRECT_MAX or self.quantized:
            query = self.query_encoder()
            if query is not None:
                return query.encode(list(texts))
        loaded = self.loaded_model()
        model = loaded.model
        if (len(texts) <= DIRECT_MAX or self.quantized) and loaded.direct:
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
