"""Calibrated relevance: each scored candidate's probability of holding what the question asks, in [0, 1].

A logistic model over a handful of signals the search has already computed (the candidate's cosine similarity to
the query and the best one of the query, its BM25 score and the best one, which signals found it, its rank and its
share of the best score). The weights are fitted by `python -m bench.fit_relevance` on the LoCoMo dev split's
questions asked of their own conversation (a result is relevant when it covers an evidence turn) and of the other
conversations (nothing is relevant), and stored in relevance.json beside this module; docs/relevance.md says what
the number means. Two models: one with the vector's signals, one without them (the embedder is down, or the query
had nothing the vector could match), so that keyword and entity matches still answer when the vector cannot. A
Chinese query searched by the vector that reads Chinese (multilingual-e5) reads full models fitted on Chinese
(`bench.fit_relevance --zh`, the "zh" key of relevance.json), so that its relevance is a probability of the same
meaning as an English one's.

With the query-level model of answerable.py (does the memory answer the query at all), a result's relevance is
answerable * (its probability / the query's best one's) ** beta, all three fitted together (relevance.json).

Pure arithmetic over the search's own numbers: the same data and query give the same relevance.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from pathlib import Path

from facts.retrieval.answerable import QUERY_FEATURES, QueryEvidence, query_features
from facts.retrieval.fusion import Fused
from facts.retrieval.scope import Key

PARAMS_PATH = Path(__file__).with_name("relevance.json")

FEATURES = (
    "sim",  # the candidate's cosine similarity to the query (the vector pool's floor when not in it)
    "top_sim",  # the best similarity of any candidate: how well the memory matches the query at all
    "bm25",  # log(1 + the candidate's BM25 score), 0 without a keyword match
    "top_bm25",  # log(1 + the best BM25 score of the query)
    "entity",  # an exact name, id or slot match
    "time",  # inside the time the query names
    "signals",  # how many signals found it
    "log_rank",  # log(1 + its position after re-ranking)
    "rel_score",  # its score over the best score
    "message",  # a raw turn rather than a fact
    "linked",  # found only by following a reply or continuation link
)
VECTOR_FEATURES = frozenset({"sim", "top_sim"})


@dataclass(frozen=True)
class Model:
    names: tuple[str, ...]
    weights: tuple[float, ...]
    bias: float
    mean: tuple[float, ...]  # the features are standardised with the fit's mean and scale
    scale: tuple[float, ...]

    def probability(self, features: dict[str, float]) -> float:
        z = self.bias
        for name, w, mu, sd in zip(self.names, self.weights, self.mean, self.scale, strict=True):
            z += w * (features.get(name, 0.0) - mu) / sd
        return 1.0 / (1.0 + math.exp(-max(min(z, 40.0), -40.0)))


@dataclass(frozen=True)
class Calibration:
    full: Model  # with the vector's signals
    keyword_only: Model  # without them
    min_relevance: float  # the fitted default floor (settings.SEARCH_MIN_RELEVANCE overrides it)
    fitted_on: str
    # The query-level model (answerable.py), with and without the vector's signals: the probability that the
    # memory answers the query at all. None: relevance is the per-result model's alone (an older fit).
    answerable: tuple[Model, Model] | None = None
    context_floor: float | None = None  # the floor of /context's relevant earlier turns (None: min_relevance)
    beta: float = 1.0  # relevance = answerable * (result / the query's best result) ** beta
    # The keyword-only models (per result, query-level) fitted on Chinese: what a Chinese query reads when no vector
    # reads it. None (none adopted: relevance.json's "zh" holds them with "adopted" false while they would not let
    # the floor abstain): Chinese reads the English ones, and only an explicit floor applies.
    zh: tuple[Model, Model] | None = None
    # The full models fitted on Chinese: what a Chinese query searched by the vector that reads Chinese (e5) reads.
    # None: it reads the keyword-only ones, as above.
    zh_full: tuple[Model, Model] | None = None
    zh_full_adopted: bool = False  # whether the default floor applies to what zh_full scores
    zh_context_floor: float | None = None  # /context's floor of relevant earlier turns zh_full scored
    # The full models fitted on English questions about Chinese memories ("xl", `bench.fit_relevance --xl`): what a
    # query reads whose best match is a Chinese row its multilingual-e5 vector found (vector_space "cross"). None:
    # the English full models read it.
    xl_full: tuple[Model, Model] | None = None
    xl_full_adopted: bool = False
    xl_context_floor: float | None = None

    def models(self, q: QuerySignals) -> tuple[Model, Model | None]:
        """The per-result and query-level models that score `q` (None: no query-level model)."""
        if q.vector_ran and q.vector_space == "zh" and self.zh_full is not None:
            return self.zh_full
        if q.vector_ran and q.vector_space == "cross" and self.xl_full is not None:
            return self.xl_full
        if q.vector_ran and q.vector_space != "zh":
            return self.full, self.answerable[0] if self.answerable else None
        if q.language == "zh" and self.zh is not None:
            return self.zh
        return self.keyword_only, self.answerable[1] if self.answerable else None

    def calibrated_for(self, q: QuerySignals) -> bool:
        """Whether `q`'s relevance comes from models fitted on its kind of query (the English full model, or models
        fitted on Chinese): an operator's floor (SEARCH_MIN_RELEVANCE) applies there (docs/relevance.md)."""
        model = self.models(q)[0]
        return model is self.full or any(m is not None and model is m[0] for m in (self.zh_full, self.zh, self.xl_full))

    def default_floor_for(self, q: QuerySignals) -> bool:
        """Whether the fitted default floor applies to `q`: calibrated, and not by the Chinese full models unless their
        floor was adopted (at it they would cut too many right Chinese answers for what they abstain on)."""
        if self.reads_zh_full(q):
            return self.zh_full_adopted
        if self.xl_full is not None and self.models(q)[0] is self.xl_full[0]:
            return self.xl_full_adopted
        return self.calibrated_for(q)

    def reads_zh_full(self, q: QuerySignals) -> bool:
        """Whether the full models fitted on Chinese score `q`."""
        return self.zh_full is not None and self.models(q)[0] is self.zh_full[0]

    def turn_floor(self, q: QuerySignals | None = None) -> float:
        """/context's floor of relevant earlier turns: the one fitted with the Chinese full models for a query they
        scored, else the English fit's (None there: the search's floor)."""
        if q is not None and self.reads_zh_full(q) and self.zh_context_floor is not None:
            return self.zh_context_floor
        reads_xl = q is not None and self.xl_full is not None and self.models(q)[0] is self.xl_full[0]
        if reads_xl and self.xl_context_floor is not None:
            return self.xl_context_floor
        return self.context_floor if self.context_floor is not None else self.min_relevance


def _model(raw: dict[str, object]) -> Model:
    names = tuple(str(n) for n in raw["names"])  # type: ignore[attr-defined]
    unknown = set(names) - set(FEATURES) - set(QUERY_FEATURES) - {"top_sim", "top_bm25"}
    if unknown:
        raise ValueError(f"relevance.json: unknown features {sorted(unknown)}")
    floats = {k: tuple(float(x) for x in raw[k]) for k in ("weights", "mean", "scale")}  # type: ignore[attr-defined]
    return Model(names=names, bias=float(raw["bias"]), **floats)  # type: ignore[arg-type]


@functools.cache
def calibration(path: Path = PARAMS_PATH) -> Calibration:
    """The fitted calibration (read once per process)."""
    raw = json.loads(path.read_text(encoding="utf-8"))
    query = raw.get("answerable")
    zh_raw = raw.get("zh", {})
    zh = zh_raw if zh_raw.get("adopted") else None  # measured, not adopted: see bench/fit_relevance_zh.py
    full = "full" in zh_raw and "answerable_full" in zh_raw
    xl_raw = raw.get("xl", {})
    xl = "full" in xl_raw and "answerable_full" in xl_raw
    return Calibration(
        full=_model(raw["full"]),
        keyword_only=_model(raw["keyword_only"]),
        min_relevance=float(raw["min_relevance"]),
        fitted_on=str(raw.get("fitted_on", "")),
        answerable=(_model(query["full"]), _model(query["keyword_only"])) if query else None,
        context_floor=float(raw["context_floor"]) if raw.get("context_floor") is not None else None,
        beta=float(raw.get("beta", 1.0)),
        zh=(_model(zh["keyword_only"]), _model(zh["answerable_keyword_only"])) if zh else None,
        zh_full=(_model(zh_raw["full"]), _model(zh_raw["answerable_full"])) if full else None,
        zh_full_adopted=bool(zh_raw.get("full_adopted", False)),
        zh_context_floor=float(zh_raw["context_floor"]) if zh_raw.get("context_floor") is not None else None,
        xl_full=(_model(xl_raw["full"]), _model(xl_raw["answerable_full"])) if xl else None,
        xl_full_adopted=bool(xl_raw.get("full_adopted", False)),
        xl_context_floor=float(xl_raw["context_floor"]) if xl_raw.get("context_floor") is not None else None,
    )


def answerable_features(q: QuerySignals) -> dict[str, float] | None:
    """The query-level model's features (None without words to look up: nothing to say at the query's level)."""
    if q.evidence is None:
        return None
    return {
        **query_features(q.evidence),
        "top_sim": q.top_sim,
        "top_bm25": q.top_bm25,
    }


def answerable_probability(q: QuerySignals, *, params: Calibration | None = None) -> float:
    """The probability that the memory answers the query at all (1.0 when the calibration has no query model or
    the query has no words: a time or a slot alone)."""
    cal = params or calibration()
    feats = answerable_features(q)
    model = cal.models(q)[1]
    if model is None or feats is None:
        return 1.0
    return model.probability(feats)


@dataclass(frozen=True)
class QuerySignals:
    """What the candidate signals found for one query, as the features read it."""

    similarity: dict[Key, float]
    sim_floor: float  # the weakest similarity in the vector's pool (a candidate outside it is weaker)
    bm25: dict[Key, float]
    vector_ran: bool
    language: str = "en"  # the query's ("zh" or "en"): a Chinese one the vector cannot read has models of its own
    # The space its vector is in ("zh": multilingual-e5's, candidates/vector.py ZH; "cross": a non-Chinese query whose
    # best match is a Chinese row its e5 vector found, vector.cross_space).
    vector_space: str = "base"
    # The query names nothing but a time ("what happened last week?"): whatever lies inside it is what was asked.
    time_only: bool = False
    # What the query-level model reads (answerable.py); None: no words to look up (a time or a slot alone).
    evidence: QueryEvidence | None = None

    # The query's best similarity and BM25 score, the same for every candidate: computed once, not per candidate
    # (each a pass over the whole pool).
    @functools.cached_property
    def top_sim(self) -> float:
        return max(self.similarity.values(), default=0.0)

    @functools.cached_property
    def top_bm25(self) -> float:
        return math.log1p(max(self.bm25.values(), default=0.0))


def features(item: Fused, rank: int, score: float, best_score: float, q: QuerySignals) -> dict[str, float]:
    """One candidate's features (`rank` from 1 after re-ranking)."""
    bm25 = q.bm25.get(item.key, 0.0)
    return {
        "sim": q.similarity.get(item.key, q.sim_floor),
        "top_sim": q.top_sim,
        "bm25": math.log1p(bm25),
        "top_bm25": q.top_bm25,
        "entity": 1.0 if "entity" in item.matched_by else 0.0,
        "time": 1.0 if "time" in item.matched_by else 0.0,
        "signals": float(len(set(item.matched_by))),
        "log_rank": math.log1p(rank),
        "rel_score": score / best_score if best_score > 0 else 0.0,
        "message": 1.0 if item.key[0] == "message" else 0.0,
        "linked": 0.0 if item.ranks else 1.0,
    }


def relevance_of(
    scored: Iterable[tuple[float, Fused]],
    q: QuerySignals,
    *,
    params: Calibration | None = None,
    only: Collection[Key] | None = None,
) -> dict[Key, float]:
    """Each scored candidate's calibrated relevance (best first, as re-ranked), rounded to 4 places; with `only`,
    just those candidates' (their rank and the best score are still taken from all of `scored`)."""
    cal = params or calibration()
    model, query_model = cal.models(q)
    items = list(scored)
    best = items[0][0] if items else 0.0
    # The query-level model scales each result by its standing against the best one: then every candidate counts.
    scaled = query_model is not None and q.evidence is not None
    p = {
        item.key: model.probability(features(item, rank, score, best, q))
        for rank, (score, item) in enumerate(items, start=1)
        if scaled or only is None or item.key in only
    }
    if scaled and p:
        # The query's level times the result's standing among the query's results (docs/relevance.md).
        answers, top = answerable_probability(q, params=cal), max(p.values())
        p = {key: answers * (v / top) ** cal.beta for key, v in p.items()}
    return {
        item.key: 1.0 if q.time_only and "time" in item.matched_by else round(p[item.key], 4)
        for _, item in items
        if only is None or item.key in only
    }
