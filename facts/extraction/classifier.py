"""A small classifier over the embedder's sentence vectors: how likely a sentence is worth keeping, and its type.

Fitted at first use, in process, from the train split of the labelled corpus (facts/extraction/corpus): the
user turns' texts are embedded as the sentences it scores are (`embedding.embed_features`: by default the int8
copy of the local MiniLM, GATE_FEATURES, whose vectors are the model's own to a cosine of ~0.99; else the pipeline's
own embedder) and two logistic regressions are fitted with numpy, deterministically (zero start, fixed steps, no
sampling): keep vs drop, and the type of a kept turn. Fitted on the features it reads, the gate keeps the full
model's figures (bench/README.md, i-quant). The holdout quarter of the corpus is never read here. Nothing is
downloaded; when the embedder is down the classifier answers None and the rules decide alone.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

import numpy as np

from facts import embedding as embedding_backend
from facts.extraction import type_definitions, zh_types
from facts.extraction.corpus import CorpusTurn, load_turns
from facts.extraction.stored_vectors import embedder_name, stored_vectors

_STEPS = 400
_RATE = 2.0
_L2 = 1e-3


@dataclass(frozen=True)
class Model:
    """Weights of the keep model (binary) and the type model (one row of weights per type)."""

    keep_w: np.ndarray
    keep_b: float
    types: tuple[str, ...]
    type_w: np.ndarray
    type_b: np.ndarray
    chinese: zh_types.ChineseTypeHead | None = None
    # The scores this model gave (prime, score), on the model itself: no other model can read them.
    scores: dict[str, Score] = field(default_factory=dict, init=False, compare=False, repr=False)

    def keep_probability(self, vectors: np.ndarray) -> np.ndarray:
        return _sigmoid(vectors @ self.keep_w + self.keep_b)

    def type_probabilities(self, vectors: np.ndarray) -> np.ndarray:
        return _softmax(vectors @ self.type_w.T + self.type_b)


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


def fit_binary(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, float]:
    """Class-balanced logistic regression by full-batch gradient descent from zero (deterministic)."""
    n, d = x.shape
    pos = max(float(y.sum()), 1.0)
    neg = max(float(n - y.sum()), 1.0)
    weight = np.where(y > 0, n / (2 * pos), n / (2 * neg))
    w = np.zeros(d)
    b = 0.0
    for _ in range(_STEPS):
        p = _sigmoid(x @ w + b)
        g = (p - y) * weight
        w -= _RATE * (x.T @ g / n + _L2 * w)
        b -= _RATE * float(g.mean())
    return w, b


def fit_multiclass(x: np.ndarray, labels: list[str]) -> tuple[tuple[str, ...], np.ndarray, np.ndarray]:
    """Class-balanced softmax regression by full-batch gradient descent from zero (deterministic)."""
    classes = tuple(sorted(set(labels)))
    index = {c: i for i, c in enumerate(classes)}
    n, d = x.shape
    y = np.zeros((n, len(classes)))
    for row, label in enumerate(labels):
        y[row, index[label]] = 1.0
    counts = y.sum(axis=0)
    weight = (y @ (n / (len(classes) * np.maximum(counts, 1.0))))[:, None]
    w = np.zeros((len(classes), d))
    b = np.zeros(len(classes))
    for _ in range(_STEPS):
        p = _softmax(x @ w.T + b)
        g = (p - y) * weight
        w -= _RATE * (g.T @ x / n + _L2 * w)
        b -= _RATE * g.mean(axis=0)
    return classes, w, b


def training_turns(turns: list[CorpusTurn] | None = None) -> list[CorpusTurn]:
    """The rows a model learns from: user turns of the train split only (assistant turns are dropped by role)."""
    rows = load_turns() if turns is None else turns
    return [t for t in rows if t.split == "train" and t.role == "user"]


def fit(turns: list[CorpusTurn], vectors: np.ndarray) -> Model:
    """Fit both models from labelled turns and their vectors (rows in the same order)."""
    y = np.array([1.0 if t.keep else 0.0 for t in turns])
    keep_w, keep_b = fit_binary(vectors, y)
    kept = [i for i, t in enumerate(turns) if t.keep and t.type]
    types, type_w, type_b = fit_multiclass(vectors[kept], [str(turns[i].type) for i in kept])
    return Model(keep_w, keep_b, types, type_w, type_b, fit_chinese([turns[i] for i in kept]))


def fit_chinese(kept: list[CorpusTurn]) -> zh_types.ChineseTypeHead:
    """The Chinese type heads (zh_types.py) over these kept turns, fitted when a Chinese sentence first needs them."""
    return zh_types.ChineseTypeHead(kept, fit_multiclass)


def chinese_type(sentence: str) -> str | None:
    """The type the Chinese heads give a sentence (zh_types.py), or None (embedder down, neither head speaks)."""
    m = model()
    return m.chinese.most_likely(sentence) if m is not None and m.chinese is not None else None


def embed(texts: list[str]) -> np.ndarray | None:
    """The feature vectors of `texts` (`embedding.embed_features`), or None when the embedder is unavailable."""
    if not texts:
        return np.zeros((0, 0))
    try:
        return np.asarray(embedding_backend.embed_features(texts), dtype=np.float64)
    except embedding_backend.EmbedderUnavailable:
        return None


def training_vectors(texts: list[str]) -> np.ndarray | None:
    """The feature vectors of the training texts, kept on disk (stored_vectors.py) by a hash of the texts, the
    embedder and the features: fitting is then milliseconds."""
    features = embedding_backend.feature_kind()
    name = embedder_name(embedding_backend.get_embedder())
    name += "" if features == "full" else f":{features}"  # the model's own vectors keep the cache they had
    return stored_vectors(texts, kind="train", name=name, embed=embed)


_lock = threading.Lock()
# The model fitted for an embedder and its features, with the embedder itself: an id is only unique while its object
# lives, and a test's or a reconfigured embedder freed could hand its id to the next one.
_models: dict[tuple[int, str], tuple[embedding_backend.Embedder, Model]] = {}


_override: list[Model] = []


def use_model(fitted: Model | None) -> None:
    """Use this model instead of the one fitted on the whole train split (cross-validation); None: back."""
    _override.clear()
    if fitted is not None:
        _override.append(fitted)


def model() -> Model | None:
    """The model fitted for the current embedder (fitted once per process, embedder and features: scores are
    memoised per model), or None when down."""
    if _override:
        return _override[0]
    try:
        embedder = embedding_backend.get_embedder()
        key = (id(embedder), embedding_backend.feature_kind())
    except embedding_backend.EmbedderUnavailable:
        return None
    cached = _models.get(key)
    if cached is not None and cached[0] is embedder:
        return cached[1]
    with _lock:
        cached = _models.get(key)
        if cached is not None and cached[0] is embedder:
            return cached[1]
        turns = training_turns()
        vectors = training_vectors([t.text for t in turns])
        if vectors is None:
            return None
        _models.clear()
        _models[key] = (embedder, fitted := fit(turns, vectors))
    return fitted


@dataclass(frozen=True)
class Score:
    keep: float
    type: str
    type_confidence: float


_MEMO_SIZE = 4096
_CHUNK = 32


def prime(texts: list[str]) -> None:
    """Score many texts at once (a batch of messages' sentences) so that `score` finds them ready."""
    if not texts:
        return
    m = model()
    if m is None:
        return
    todo = sorted({t for t in texts if t not in m.scores}, key=len)
    if len(m.scores) + len(todo) > _MEMO_SIZE:
        m.scores.clear()
    for start in range(0, len(todo), _CHUNK):
        chunk = todo[start : start + _CHUNK]
        scores = _score_with(m, chunk)
        if scores is None:
            return
        m.scores.update(zip(chunk, scores, strict=True))


def score(texts: list[str]) -> list[Score] | None:
    """Keep probability and most likely type per text; None when the embedder is down."""
    m = model()
    if m is None:
        return None
    if not texts:
        return []
    missing = [t for t in texts if t not in m.scores]
    fresh = dict(zip(missing, _score_with(m, missing) or [], strict=False)) if missing else {}
    if len(fresh) < len(set(missing)):
        return None
    return [m.scores.get(t) or fresh[t] for t in texts]


def _score_with(m: Model, texts: list[str]) -> list[Score] | None:
    if not texts:
        return []
    vectors = embed(texts)
    if vectors is None:
        return None
    type_definitions.remember(texts, vectors)  # the typer reads these sentences' types by definition next
    keep = m.keep_probability(vectors)
    probs = m.type_probabilities(vectors)
    best = probs.argmax(axis=1)
    return [Score(float(k), m.types[int(i)], float(p[int(i)])) for k, i, p in zip(keep, best, probs, strict=True)]
