"""The type of a Chinese sentence by its characters, where no rule or cue settles it.

The local MiniLM does not read Chinese: its vectors of Chinese sentences lie near one another whatever they say,
so neither the classifier's type head nor the types by definition speak for them (type_definitions.py). Their
characters do: "膝盖", "老公", "合同" tell a topic without a word segmenter. A softmax regression over the
sentence's character pairs is fitted, with the classifier (same steps, deterministic), on the kept Chinese turns
of the train split and the Chinese exemplars of the type definitions. Leaving one group out, over the Chinese
turns whose shape alone would say `profile`, it was right on about half against a fifth for the shape
(bench/README.md, "Chinese types by characters").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

_RUN_RE = re.compile(r"[\u4e00-\u9fff]{1,64}|[a-z0-9]{1,32}", re.I)


def features(text: str) -> list[str]:
    """The sentence's character pairs (each run of Chinese characters) and its Latin words and numbers."""
    out: list[str] = []
    for run in _RUN_RE.findall(text):
        if run.isascii():
            out.append(run.lower())
        else:
            out.extend(run[i : i + 2] for i in range(max(len(run) - 1, 1)))
    return out


@dataclass(frozen=True)
class CharTypeHead:
    """Weights of the character-pair type model (one row per type) and its vocabulary."""

    vocab: dict[str, int]
    types: tuple[str, ...]
    w: np.ndarray
    b: np.ndarray

    def most_likely(self, text: str) -> str | None:
        """The type of the highest score, or None when no character pair of the text was seen in fitting."""
        p = self.probabilities(text)
        return max(sorted(p), key=lambda t: p[t]) if p else None

    def probabilities(self, text: str) -> dict[str, float] | None:
        """Each type's probability, or None when no character pair of the text was seen in fitting."""
        x = _vector(self.vocab, text)
        if not x.any():
            return None
        z = self.w @ x + self.b
        e = np.exp(z - z.max())
        return dict(zip(self.types, (e / e.sum()).tolist(), strict=True))


def _vector(vocab: dict[str, int], text: str) -> np.ndarray:
    """The text's features seen in fitting, as a unit vector (zeros when none was seen)."""
    x = np.zeros(len(vocab))
    for feature in features(text):
        index = vocab.get(feature)
        if index is not None:
            x[index] = 1.0
    norm = float(np.linalg.norm(x))
    return x / norm if norm else x


Fitter = Callable[[np.ndarray, list[str]], tuple[tuple[str, ...], np.ndarray, np.ndarray]]


def fit_head(texts: list[str], labels: list[str], fit: Fitter) -> CharTypeHead | None:
    """Fit the head from Chinese texts and their types with the classifier's softmax regression (None without
    any text)."""
    if not texts:
        return None
    vocab: dict[str, int] = {}
    for text in texts:
        for feature in features(text):
            vocab.setdefault(feature, len(vocab))
    x = np.stack([_vector(vocab, t) for t in texts])
    types, w, b = fit(x, labels)
    return CharTypeHead(vocab, types, w, b)
