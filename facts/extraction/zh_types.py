"""The type of a Chinese sentence that no rule, cue or shape settles: what it means and the characters it uses.

Two softmax regressions, fitted with the classifier's steps (deterministic), their probabilities averaged:

- over the sentence's vector from a model that reads Chinese (zh_encoder.py, multilingual-e5-small), learnt from
  the kept Chinese user turns of the corpus's train split, the Chinese exemplars of the type definitions and the
  kept Chinese train turns of the blind batches (corpus README, "Batches");
- over its character pairs (hanzi.py), learnt from the first two only: fitted on the batches' topics as well, the
  characters typed a sheet that did not match its picture as a relationship (bench/README.md, session 25).

Leaving one session's batches out of the fit and typing them, the open path went from ~0.42 right (characters alone)
to ~0.50, the batches' type accuracy by +0.02 to +0.04 (bench/README.md, session 26). Both heads are fitted at the
first Chinese sentence that needs them, so an English-only workload never loads the encoder; with the encoder down
the characters decide alone.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from facts.extraction import hanzi, type_definitions, zh_encoder
from facts.extraction.corpus import CorpusTurn, load_batches, load_turns
from facts.extraction.stored_vectors import stored_vectors

# Centred vectors are scaled to this length before fitting, so that the regression's fixed steps fit them nearly as
# far as a converged fit (open-path accuracy held out 0.48 at 1, 0.52 at 4, converged 0.55; bench/README.md).
_SCALE = 4.0

Fitter = Callable[[np.ndarray, list[str]], tuple[tuple[str, ...], np.ndarray, np.ndarray]]


@dataclass(frozen=True)
class VectorTypeHead:
    """Softmax weights over centred, scaled sentence vectors."""

    mean: np.ndarray
    types: tuple[str, ...]
    w: np.ndarray
    b: np.ndarray

    def probabilities(self, vector: np.ndarray) -> dict[str, float]:
        z = self.w @ _prepared(vector[None, :], self.mean)[0] + self.b
        e = np.exp(z - z.max())
        return dict(zip(self.types, (e / e.sum()).tolist(), strict=True))


def _prepared(vectors: np.ndarray, mean: np.ndarray) -> np.ndarray:
    centred = vectors - mean
    norms = np.linalg.norm(centred, axis=1, keepdims=True)
    return _SCALE * centred / np.where(norms > 0, norms, 1.0)


def fit_vector_head(vectors: np.ndarray, labels: list[str], fit: Fitter) -> VectorTypeHead | None:
    if not labels:
        return None
    mean = vectors.mean(axis=0)
    types, w, b = fit(_prepared(vectors, mean), labels)
    return VectorTypeHead(mean, types, w, b)


class ChineseTypeHead:
    """Both heads over the rows given, fitted on first use (once, thread-safe)."""

    def __init__(self, kept: list[CorpusTurn], fit: Fitter) -> None:
        self.char_rows = [(t.text, str(t.type)) for t in kept if t.lang != "en"] + _exemplar_rows()
        self.vector_rows = self.char_rows + [(t.text, str(t.type)) for t in _batch_rows()]
        self._fit = fit
        self._lock = threading.Lock()
        self._heads: tuple[hanzi.CharTypeHead | None, VectorTypeHead | None] | None = None

    def heads(self) -> tuple[hanzi.CharTypeHead | None, VectorTypeHead | None]:
        with self._lock:
            if self._heads is None:
                chars = hanzi.fit_head([t for t, _ in self.char_rows], [y for _, y in self.char_rows], self._fit)
                vectors = training_vectors([t for t, _ in self.vector_rows])
                by_vector = None
                if vectors is not None:
                    by_vector = fit_vector_head(vectors, [y for _, y in self.vector_rows], self._fit)
                self._heads = (chars, by_vector)
            return self._heads

    def most_likely(self, text: str) -> str | None:
        """The type of the highest mean probability of the heads that speak (the characters speak when one of the
        text's pairs was seen in fitting), or None when neither does."""
        chars, by_vector = self.heads()
        votes = [p for p in (chars.probabilities(text) if chars else None, _vector_vote(by_vector, text)) if p]
        if not votes:
            return None
        total: dict[str, float] = {}
        for vote in votes:
            for type_, p in vote.items():
                total[type_] = total.get(type_, 0.0) + p / len(votes)
        return max(sorted(total), key=lambda t: total[t])


def _vector_vote(head: VectorTypeHead | None, text: str) -> dict[str, float] | None:
    if head is None:
        return None
    vector = zh_encoder.embed([text])
    return head.probabilities(vector[0]) if vector is not None else None


def _exemplar_rows() -> list[tuple[str, str]]:
    """(text, type) of the type definitions' Chinese exemplars."""
    return [(e, t) for t, texts in type_definitions.EXEMPLARS.items() for e in texts if not e.isascii()]


def _batch_rows() -> list[CorpusTurn]:
    """The batches' kept Chinese user turns of the train split, with a type."""
    return [
        t for t in load_batches() if t.split == "train" and t.role == "user" and t.keep and t.type and t.lang != "en"
    ]


def _known_texts() -> list[str]:
    """Every Chinese text a head may learn from (the corpus's kept train user turns, the exemplars, the batches'): one
    stored file holds their vectors, whatever subset a fit takes (cross-validation folds)."""
    corpus = [t.text for t in load_turns() if t.split == "train" and t.role == "user" and t.keep and t.lang != "en"]
    return sorted(set(corpus + [e for e, _ in _exemplar_rows()] + [t.text for t in _batch_rows()]))


_vectors: dict[str, np.ndarray] = {}
_vectors_lock = threading.Lock()


def training_vectors(texts: list[str]) -> np.ndarray | None:
    """The encoder's vectors of `texts` (rows in order): the known texts' from disk (embedded once per machine),
    any other embedded now; None when the encoder is down."""
    with _vectors_lock:
        if not _vectors:
            known = _known_texts()
            stored = stored_vectors(known, kind="zh", name=zh_encoder.NAME, embed=zh_encoder.embed)
            if stored is None:
                return None
            _vectors.update(zip(known, stored, strict=True))
        missing = sorted({t for t in texts if t not in _vectors})
        if missing:
            fresh = zh_encoder.embed(missing)
            if fresh is None:
                return None
            _vectors.update(zip(missing, fresh, strict=True))
        return np.stack([_vectors[t] for t in texts]) if texts else None
