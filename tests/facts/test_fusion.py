"""Fusion of the signals' rankings: weighted reciprocal ranks (or normalised scores), ties broken by the key."""

from __future__ import annotations

import math
import random

import pytest

from facts.retrieval.fusion import SIGNALS, FusionTuning, add_match, fuse
from facts.retrieval.scope import Ranking


def _ranking(rng: random.Random, size: int) -> Ranking:
    keys = rng.sample([(kind, pk) for kind in ("fact", "message") for pk in range(40)], size)
    scores = [round(rng.random(), rng.choice([1, 2, 8])) for _ in keys]  # rounded: ties, and zeros at times
    return sorted(zip(keys, scores, strict=True), key=lambda x: (-x[1], x[0]))


@pytest.mark.parametrize("mode", ["rrf", "score"])
def test_each_candidate_gets_the_weighted_sum_of_its_signals(mode: str) -> None:
    """rrf: sum of weight / (k + rank); score: sum of weight * score / the signal's best (rank when the best is 0).
    The strength is the score sum in both modes; matched_by and ranks follow the signals' order."""
    tuning = FusionTuning(mode=mode, weight_entity=0.37)
    rng = random.Random(5)
    for _ in range(200):
        rankings = {signal: _ranking(rng, rng.randint(0, 30)) for signal in SIGNALS}
        fused = fuse(rankings, tuning)
        assert set(fused) == {key for ranking in rankings.values() for key, _ in ranking}
        for key, item in fused.items():
            found = [(s, rank, score) for s in SIGNALS for rank, (k, score) in enumerate(rankings[s], 1) if k == key]
            assert item.matched_by == [s for s, _, _ in found]
            assert item.ranks == {s: rank for s, rank, _ in found}
            best = {s: max((score for _, score in rankings[s]), default=0.0) for s, _, _ in found}
            parts = [tuning.weight(s) * (score / best[s] if best[s] > 0 else 1.0) for s, _, score in found]
            assert math.isclose(item.strength, sum(parts), abs_tol=1e-12)
            by_rank = [tuning.weight(s) / (tuning.rrf_k + rank) for s, rank, _ in found]
            if mode == "rrf":
                assert math.isclose(item.score, sum(by_rank), abs_tol=1e-12)
            elif all(best[s] > 0 for s, _, _ in found):
                assert math.isclose(item.score, item.strength, abs_tol=1e-12)


def test_two_signals_outrank_one_and_a_late_match_counts_after_the_list() -> None:
    tuning = FusionTuning()
    fused = fuse({"vector": [(("fact", 1), 0.9), (("fact", 2), 0.8)], "keyword": [(("fact", 2), 3.0)]}, tuning)
    assert fused[("fact", 2)].score > fused[("fact", 1)].score
    assert fused[("fact", 2)].matched_by == ["vector", "keyword"]
    before = fused[("fact", 1)].score
    add_match(fused[("fact", 1)], "time", rank=4, tuning=tuning)
    assert fused[("fact", 1)].score == before + tuning.weight_time / (tuning.rrf_k + 4)
    assert fused[("fact", 1)].matched_by == ["vector", "time"]
