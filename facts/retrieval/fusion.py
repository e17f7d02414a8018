"""Fusion of the per-signal rankings into one score per candidate.

Every step is a pure function of its inputs, and ties break on the id, so the same query over the same data always
gives the same answer.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from facts.retrieval.scope import Key, Ranking

SIGNALS = ("vector", "keyword", "entity", "time", "category")


@dataclass(frozen=True)
class FusionTuning:
    # rrf: sum of weight / (rrf_k + rank); score: sum of weight * score / the signal's best. rrf won on LoCoMo.
    mode: str = "rrf"
    rrf_k: float = 20.0  # k=60 let the 40th keyword match count nearly as much as the first; 10-40 no better
    weight_vector: float = 1.0  # 0.8-1.5 within the noise on LoCoMo
    weight_keyword: float = 1.0  # 0.6-1.25: 1.0 best
    weight_entity: float = 0.5  # exact names, ids and slots: strong but few; 0.2-1.0 within the noise
    weight_time: float = 0.5  # inside the time the query names (the re-rank's time boost does the rest)
    weight_category: float = 1.0  # the person's turns of the kind a list question asks for (candidates/category.py)

    def weight(self, signal: str) -> float:
        return float(getattr(self, f"weight_{signal}"))


@dataclass
class Fused:
    key: Key
    score: float
    matched_by: list[str]
    ranks: dict[str, int] = field(default_factory=dict)
    # The score-fusion sum (weight * score / the signal's best), whatever the mode: the weak-match cut uses it
    # (a rank says nothing about how weak the 40th keyword match is).
    strength: float = 0.0


def fuse(rankings: dict[str, Ranking], tuning: FusionTuning) -> dict[Key, Fused]:
    """Fuse per-signal rankings ((key, raw score), best first, each key once) into one item per candidate, in the
    order of SIGNALS (floats do not associate: the order is part of the answer)."""
    out: dict[Key, Fused] = {}
    for signal in SIGNALS:
        ranked = rankings.get(signal, [])
        weight = tuning.weight(signal)
        top = max((score for _, score in ranked), default=0.0)
        by_rank = tuning.mode == "rrf" or top <= 0
        for rank, (key, score) in enumerate(ranked, start=1):
            strength = weight * (score / top if top > 0 else 1.0)
            item = out.setdefault(key, Fused(key=key, score=0.0, matched_by=[]))
            item.strength += strength
            item.score += weight / (tuning.rrf_k + rank) if by_rank else strength
            if signal not in item.matched_by:
                item.matched_by.append(signal)
            item.ranks[signal] = rank
    return out


def add_match(item: Fused, signal: str, *, rank: int, tuning: FusionTuning) -> None:
    """Count `signal` as matching `item` at `rank` with a full score (a match found after fusion)."""
    weight = tuning.weight(signal)
    item.matched_by.append(signal)
    item.score += weight / (tuning.rrf_k + rank) if tuning.mode == "rrf" else weight
    item.strength += weight
