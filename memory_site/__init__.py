from __future__ import annotations

import os

# One OpenBLAS thread (before anything loads numpy): search's matrix-vector products (facts.retrieval.
# vector_cache) are far too small to share, and OpenBLAS's extra thread spins after each call, taking the core
# the query's embedding and PostgreSQL need (scale bench: p50 48.5 ms with one thread, 52-63 ms without).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from .celery import app as celery_app  # noqa: E402

__all__ = ("celery_app",)
