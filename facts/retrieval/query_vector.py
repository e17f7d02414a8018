"""The query's embedding, on this process's embedding thread while the request's thread reads the other signals'
candidates (SEARCH_EMBED_IN_THREAD), or inline.

The thread only embeds: ONNX Runtime runs without the interpreter lock, and the candidate statements mostly wait
for PostgreSQL, so a search costs about max(embedding, other candidates) instead of their sum. The pool is made
per process (one inherited through fork has no live threads: jobs sent to it would wait forever), and each
process's first embedding runs inline (the model's load and heavy imports stay on the importing thread).
"""

from __future__ import annotations

import os
from concurrent.futures import Future

from facts.embedding import embed_query
from memory_site.threads import ProcessPool

_pool = ProcessPool("query-embed", max_workers=2)
_warm_pid = 0  # the process whose embedder has been used once (inline)


class QueryVector:
    """A query's embedding under way; `result()` waits for it (None: the embedder is down)."""

    def __init__(self, text: str, *, in_thread: bool) -> None:
        global _warm_pid
        self.threaded = in_thread and _warm_pid == os.getpid()
        self._future: Future[list[float] | None] | None = None
        self._vector: list[float] | None = None
        if self.threaded:
            self._future = _pool.executor().submit(embed_query, text)
        else:
            self._vector = embed_query(text)
            _warm_pid = os.getpid()

    def result(self) -> list[float] | None:
        return self._vector if self._future is None else self._future.result()
