"""The sentence encoders behind `rulebook.encoder` (which one a configuration gets: ../embed.py): what
every encoder shares (base: the embedder protocol, unit rows, the query cache, where the local model and
derived files live), MiniLM as an ONNX graph written from the shipped weights (onnx_graph) and run by
onnxruntime (onnx_minilm, the default), static token tables (static), the torch encoders of the `torch`
extra (torch_minilm), and the on-disk vector cache every process shares (vector_cache)."""
