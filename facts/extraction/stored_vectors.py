"""Vectors of fixed texts (the classifier's training turns, the type exemplars) kept on disk under VAR_DIR by a hash
of the texts and the embedder: the first process embeds them once, the next ones read them."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from pathlib import Path

import numpy as np


def embedder_name(embedder: object) -> str:
    """The part of a stored file's key that names the embedder: its class and the configured model."""
    from django.conf import settings

    return f"{type(embedder).__name__}:{getattr(settings, 'EMBEDDINGS_MODEL', '')}"


def stored_vectors(
    texts: list[str], *, kind: str, name: str, embed: Callable[[list[str]], np.ndarray | None]
) -> np.ndarray | None:
    """The vectors of `texts` from `VAR_DIR/gate/<kind>-<digest>.npy`, else `embed(texts)` saved there (float32 on
    disk, float64 returned either way, so every process computes with the same numbers); None when `embed` is."""
    from django.conf import settings

    digest = hashlib.sha256(("\n".join(texts) + "\x00" + name).encode()).hexdigest()[:16]
    path = Path(settings.VAR_DIR) / "gate" / f"{kind}-{digest}.npy"
    try:
        cached = np.load(path)
        if cached.shape[0] == len(texts):
            return np.asarray(cached, dtype=np.float64)
    except (OSError, ValueError):
        pass
    vectors = embed(texts)
    if vectors is not None:
        vectors = np.asarray(vectors, dtype=np.float32).astype(np.float64)  # as read back from disk
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".{os.getpid()}.tmp.npy")
            np.save(tmp, vectors.astype(np.float32))
            os.replace(tmp, path)
        except OSError:
            pass
    return vectors
