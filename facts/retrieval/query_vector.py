"""The query's embedding, on this process's embedding thread while the request's thread reads the other signals'
candidates (SEARCH_EMBED_IN_THREAD), or inline.

The thread only embeds: ONNX Runtime runs without the interpreter lock, and the candidate statements mostly wait
for PostgreSQL, so a search costs about max(embedding, other candidates) instead of their sum. The pool is made
per process (one inherited through fork has no live threads: jobs sent to it would wait forever), and each
process's first embedding runs inline (the model's load and heavy imports stay on the importing thread).

A Chinese query (facts.text.detect_language) is embedded by the encoder that reads Chinese, in the space of the
Chinese rows' `embedding_zh` (candidates/vector.py ZH), when that encoder loads here; any other by the embedder, and
by that encoder as well where the subject holds Chinese facts (`cross_vector_for`: multilingual-e5 puts an English
question near the Chinese sentence that answers it).
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import Future
from dataclasses import dataclass

from facts.embedding import embed_query
from facts.extraction import zh_encoder
from facts.text import detect_language
from memory_site.threads import ProcessPool

_pool = ProcessPool("query-embed", max_workers=2)
_warm_pid = {"base": 0, "zh": 0}  # the process whose embedder of each space has been used once (inline)


def space_of(text: str) -> str:
    """ "zh" for a Chinese query where the encoder that reads Chinese loads, else "base" (the embedder's space)."""
    return "zh" if detect_language(text) == "zh" and zh_encoder.available() else "base"


def _embed_zh(text: str) -> list[float] | None:
    vectors = zh_encoder.embed([text])
    return None if vectors is None else [float(x) for x in vectors[0]]


@dataclass
class QueryEmbeddingStats:
    """This process's query embeddings since it started: `inline` and `threaded` (by a search), `early` (started
    before the request was authenticated, facts.middleware), `early_used` (of those, the ones a search took), `cross`
    (a second embedding, by the encoder that reads Chinese, of a query of another language: cross_vector_for)."""

    inline: int = 0
    threaded: int = 0
    early: int = 0
    early_used: int = 0
    cross: int = 0

    def __post_init__(self) -> None:
        self._lock = threading.Lock()

    def count(self, what: str) -> None:
        with self._lock:
            setattr(self, what, getattr(self, what) + 1)

    def snapshot(self) -> dict[str, int]:
        with self._lock:
            return {
                "inline": self.inline,
                "threaded": self.threaded,
                "early": self.early,
                "early_used": self.early_used,
                "cross": self.cross,
            }


stats = QueryEmbeddingStats()


class QueryVector:
    """A query's embedding under way; `result()` waits for it (None: the embedder is down)."""

    def __init__(
        self, text: str, *, in_thread: bool, early: bool = False, space: str | None = None, cross: bool = False
    ) -> None:
        self.text = text
        self.space = space or space_of(text)
        embed = _embed_zh if self.space == "zh" else embed_query
        self.threaded = in_thread and _warm_pid[self.space] == os.getpid()
        self._future: Future[list[float] | None] | None = None
        self._vector: list[float] | None = None
        if self.threaded:
            self._future = _pool.executor().submit(embed, text)
        else:
            self._vector = embed(text)
            _warm_pid[self.space] = os.getpid()
        stats.count("cross" if cross else "early" if early else "threaded" if self.threaded else "inline")

    def done(self) -> bool:
        """Whether `result()` would return at once (the embedding has finished, or ran inline)."""
        return self._future is None or self._future.done()

    def result(self) -> list[float] | None:
        return self._vector if self._future is None else self._future.result()


def query_vector_early(text: str) -> QueryVector | None:
    """`text`'s embedding started on the embedding thread before its request is checked, or None when this process
    has not embedded once yet (the first embedding runs inline, on the request's thread, in the search)."""
    if _warm_pid[space_of(text)] != os.getpid():
        return None
    return QueryVector(text, in_thread=True, early=True)


def query_vector_for(text: str, *, in_thread: bool, started: QueryVector | None = None) -> QueryVector:
    """The embedding of `text`: the one `started` early when it is of the same text, else one started now."""
    if started is not None and started.text == text:
        stats.count("early_used")
        return started
    return QueryVector(text, in_thread=in_thread)


def cross_vector_for(text: str, *, in_thread: bool) -> QueryVector | None:
    """`text`'s embedding by the encoder that reads Chinese, for a query of another language searched in a subject
    holding Chinese facts (candidates/vector.py CROSS); None where that encoder does not load here."""
    if not zh_encoder.available():
        return None
    return QueryVector(text, in_thread=in_thread, space="zh", cross=True)
