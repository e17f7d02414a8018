"""The query's vector with the names it gives projected out, so the vector signal ranks by what is asked, not by who.

In one subject's memory a name the query gives is on (or spoken by) a large share of the rows: every turn of a
conversation with Priya is Priya's or is addressed to her. MiniLM's embedding of "What does Priya do to relax?"
still leans heavily on "Priya", so its nearest rows are the turns that say her name most ("Hey Priya! Long time no
talk!") rather than "I go running to unwind". The name's direction carries nothing that tells one of her turns
from another, and the named boost (rerank.py) already favours rows about the person. So, before the vector signal
reads the query's vector, each name's component is removed from it:

    v = q - share * (q . n) n      for each name n (its own embedding, unit length), then v / |v|

Only a name common in the subject's memory is taken out: one on at least `min_share` of its facts and raw turns
(the vocabulary the search reads anyway, answerable.py), like the people of the conversation. A rare name is what
the query asks about ("Did Ana ever visit Lisbon?", "How old is my cat Biscuit?"): its direction is the content.

The names' embeddings are computed once per process and embedder model (a name first seen costs one embedding;
later queries naming it cost a dot product). A query without a common name keeps its vector. Deterministic.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

import numpy as np

from facts.embedding import EmbedderUnavailable, embed_texts, get_embedder
from facts.retrieval.answerable import Vocabulary, VocabularyTuning
from facts.retrieval.candidates.vector import VectorTuning

_MAX_NAMES = 4096  # name vectors kept per process (3 KB each at 384 dimensions)
_vectors: OrderedDict[tuple[str, str], np.ndarray] = OrderedDict()
_lock = threading.Lock()


def whole_names(names: list[str]) -> list[str]:
    """The names that are not a word of a longer name also given ("lake tai" stays, "lake" and "tai" go)."""
    longer = [name.split() for name in names if " " in name]
    return [name for name in names if not any(name in words for words in longer)]


def common_names(names: list[str], vocab: Vocabulary | None, *, min_share: float, max_rows: int) -> list[str]:
    """The whole names on at least `min_share` of the subject's rows (every word of the name; a count at the
    vocabulary's cap, `max_rows` per table, counts as common). Without a vocabulary, none."""
    if vocab is None or vocab.rows <= 0:
        return []
    df = dict(zip(vocab.words, vocab.df, strict=True))
    floor = min(min_share * vocab.rows, max_rows)
    return [name for name in whole_names(names) if all(df.get(part, 0) >= floor for part in name.split())]


def name_vectors(names: list[str]) -> dict[str, np.ndarray]:
    """The names' embeddings (unit length), from this process's memory, the missing ones embedded in one call
    ({} while the embedder is down)."""
    model = str(getattr(get_embedder(), "model_name", ""))
    with _lock:
        found = {name: _vectors[(model, name)] for name in names if (model, name) in _vectors}
    missing = [name for name in names if name not in found]
    if missing:
        try:
            vectors = embed_texts(missing)
        except EmbedderUnavailable:
            return {}
        with _lock:
            for name, vector in zip(missing, vectors, strict=True):
                unit = np.asarray(vector, dtype=np.float64)
                unit /= float(np.linalg.norm(unit)) or 1.0
                found[name] = _vectors[(model, name)] = unit
                while len(_vectors) > _MAX_NAMES:
                    _vectors.popitem(last=False)
    return found


def focused(vector: list[float], names: list[str], *, share: float) -> list[float]:
    """`vector` with `share` of each name's component removed, unit length (the vector itself without names)."""
    if share <= 0 or not names:
        return vector
    by_name = name_vectors(names)
    if not by_name:
        return vector
    out = np.asarray(vector, dtype=np.float64)
    for name in sorted(by_name):
        n = by_name[name]
        out = out - share * float(out @ n) * n
    norm = float(np.linalg.norm(out))
    return vector if norm <= 1e-6 else (out / norm).tolist()


def without_common_names(
    vector: list[float], names: list[str], vocab: Vocabulary | None, *, tuning: VectorTuning
) -> list[float]:
    """The query's vector for the vector signal: without the names common in the subject's memory (see above)."""
    common = common_names(names, vocab, min_share=tuning.name_min_share, max_rows=VocabularyTuning.max_rows)
    return focused(vector, common, share=tuning.name_share)
