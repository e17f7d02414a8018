"""Fusion of the per-signal rankings and re-ranking by recency, value, access frequency and type match.

Weights come from settings (SEARCH_* variables, documented in memory_site/settings.py); every step is a
pure function of its inputs, and ties break on the id, so the same query over the same data always gives
the same answer.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings

SIGNALS = ("vector", "keyword", "entity", "time")


def _w(name: str, default: float) -> float:
    return float(getattr(settings, name, default))


@dataclass
class Fused:
    key: tuple[str, int]  # ("fact" | "message", id)
    score: float
    matched_by: list[str]
    ranks: dict[str, int] = field(default_factory=dict)
    strength: float = 0.0  # score-fusion sum (weights * score / best score), whatever orders the results
    # What each signal added to (score, strength), in SIGNALS order: fuse_first sums them again after its own.
    parts: list[tuple[float, float]] = field(default_factory=list)


def weights() -> dict[str, float]:
    return {
        "vector": _w("SEARCH_WEIGHT_VECTOR", 1.0),
        "keyword": _w("SEARCH_WEIGHT_KEYWORD", 1.0),
        "entity": _w("SEARCH_WEIGHT_ENTITY", 0.5),
        "time": _w("SEARCH_WEIGHT_TIME", 0.5),
    }


def _fusion_settings() -> tuple[str, float, dict[str, float]]:
    """SEARCH_FUSION's mode, RRF's k and the signals' weights."""
    return str(getattr(settings, "SEARCH_FUSION", "rrf")), _w("SEARCH_RRF_K", 20.0), weights()


def _signal_parts(
    ranked: list[tuple[tuple[str, int], float]], weight: float, mode: str, k: float
) -> Iterator[tuple[int, tuple[str, int], float, float]]:
    """(rank, key, what it adds to the score, what it adds to the strength) for each candidate of one signal's
    ranking ((key, raw score), best first)."""
    top = max((score for _, score in ranked), default=0.0)
    by_rank = mode == "rrf" or top <= 0
    for rank, (key, score) in enumerate(ranked, start=1):
        strength = weight * (score / top if top > 0 else 1.0)
        yield rank, key, (weight / (k + rank) if by_rank else strength), strength


def fuse(rankings: dict[str, list[tuple[tuple[str, int], float]]]) -> dict[tuple[str, int], Fused]:
    """Fuse per-signal rankings ((key, raw score), best first) by SEARCH_FUSION: "rrf" or "score".

    rrf: sum over signals of weight / (k + rank). score: sum of weight * score / best score of the signal,
    which keeps how much better the best keyword match is than the tenth (RRF forgets it). `strength` always
    holds the score-fusion sum: the weak-match cut uses it in both modes (a rank says nothing about how weak
    the 40th keyword match is).
    """
    mode, k, w = _fusion_settings()
    out: dict[tuple[str, int], Fused] = {}
    for signal in SIGNALS:
        for rank, key, added, strength in _signal_parts(rankings.get(signal, []), w[signal], mode, k):
            item = out.setdefault(key, Fused(key=key, score=0.0, matched_by=[]))
            item.strength += strength
            item.score += added
            item.parts.append((added, strength))
            if signal not in item.matched_by:
                item.matched_by.append(signal)
            item.ranks[signal] = rank
    return out


def fuse_first(fused: dict[tuple[str, int], Fused], signal: str, ranked: list[tuple[tuple[str, int], float]]) -> None:
    """Add one signal's ranking ((key, raw score), best first, each key once) to `fused`, a fusion made by `fuse`
    of signals that all come after it in SIGNALS, in place: the same scores to the last bit, the same `matched_by`
    and ranks, as `fuse` of them all. The search fuses the other signals while the query embeds, then this one
    (the vector) once it is known: its candidates' sums are made again, this signal's part first."""
    if not ranked:
        return
    mode, k, w = _fusion_settings()
    for rank, key, added, strength in _signal_parts(ranked, w[signal], mode, k):
        item = fused.get(key)
        if item is None:
            item = fused[key] = Fused(key=key, score=0.0, matched_by=[])
        item.parts.insert(0, (added, strength))
        item.score = item.strength = 0.0
        for part_score, part_strength in item.parts:  # fuse's order of additions: floats do not associate
            item.strength += part_strength
            item.score += part_score
        item.matched_by.insert(0, signal)
        item.ranks = {signal: rank, **item.ranks}


@dataclass(frozen=True)
class Reranker:
    """Multiplicative re-ranking for one query: recency decay, value score, access frequency, type match,
    information (each bounded). Its weights are read from settings once: a search re-ranks every candidate, and
    reading nine settings per candidate was a good part of that work, in the search's critical path."""

    now: dt.datetime
    type_hints: frozenset[str]
    named: set[str] | frozenset[str]
    half_life: float
    recency: float
    value: float
    access: float
    type_match: float
    pinned: float
    info_base: float
    info_per_word: float

    @classmethod
    def for_query(
        cls, *, now: dt.datetime, type_hints: list[str], named: set[str] | frozenset[str] = frozenset()
    ) -> Reranker:
        return cls(
            now=now,
            type_hints=frozenset(type_hints),
            named=named,
            half_life=max(_w("SEARCH_RECENCY_HALF_LIFE_DAYS", 90.0), 1e-6),
            recency=_w("SEARCH_WEIGHT_RECENCY", 0.1),
            value=_w("SEARCH_WEIGHT_VALUE", 0.2),
            access=_w("SEARCH_WEIGHT_ACCESS", 0.05),
            type_match=_w("SEARCH_WEIGHT_TYPE", 0.15),
            pinned=_w("SEARCH_WEIGHT_PINNED", 0.1),
            info_base=_w("SEARCH_INFO_BASE", 0.4),
            info_per_word=_w("SEARCH_INFO_PER_WORD", 0.2),
        )

    def factor(self, row: dict[str, Any]) -> float:
        """The candidate's factor; `row["keywords"]` holds its content words (facts store them)."""
        when = row.get("event_time") or row.get("valid_from") or row.get("created_at")
        factor = 1.0
        if when is not None:
            age_days = max((self.now - when).total_seconds() / 86400.0, 0.0)
            factor *= 1.0 + self.recency * math.pow(0.5, age_days / self.half_life)
        value = row.get("value_score")
        if value is not None:
            factor *= 1.0 + self.value * (float(value) - 0.5)
        access = row.get("access_count") or 0
        factor *= 1.0 + self.access * min(math.log1p(access) / _LOG_101, 1.0)
        if self.type_hints and row.get("type") in self.type_hints:
            factor *= 1.0 + self.type_match
        if row.get("pinned"):
            factor *= 1.0 + self.pinned
        if row.get("keywords") is not None:
            factor *= self.information(row["keywords"])
        return factor

    def information(self, words: list[str]) -> float:
        """A candidate with few content words besides the names the query gives ("Thanks, Priya!", "Over to
        you, Priya?") is mostly the name: the vector finds it close to any question about that person. Scaled by
        SEARCH_INFO_BASE + SEARCH_INFO_PER_WORD per other content word, at most 1."""
        other = len({w for w in words if w not in self.named})
        return min(1.0, self.info_base + self.info_per_word * other)


_LOG_101 = math.log(101)
