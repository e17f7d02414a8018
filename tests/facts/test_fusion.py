"""Fusion of the signals' rankings: the vector fused after the others gives what fusing them all at once gives."""

from __future__ import annotations

import random
from typing import Any

import pytest

from facts.retrieval.fusion import SIGNALS, fuse, fuse_first


def _ranking(rng: random.Random, kinds: list[str], size: int) -> list[tuple[tuple[str, int], float]]:
    keys = rng.sample([(kind, pk) for kind in kinds for pk in range(40)], size)
    scores = [round(rng.random(), rng.choice([1, 2, 8])) for _ in keys]  # rounded: ties, and zeros at times
    return sorted(zip(keys, scores, strict=True), key=lambda x: (-x[1], x[0]))


@pytest.mark.parametrize("mode", ["rrf", "score"])
def test_the_vector_fused_last_gives_the_fusion_of_all(mode: str, settings: Any) -> None:
    settings.SEARCH_FUSION = mode
    settings.SEARCH_WEIGHT_ENTITY = 0.37  # weights whose sums round differently in another order
    rng = random.Random(5)
    checked = 0
    for _ in range(300):
        rankings = {signal: _ranking(rng, ["fact", "message"], rng.randint(0, 30)) for signal in SIGNALS}
        if rng.random() < 0.1:
            rankings["vector"] = [(key, 0.0) for key, _ in rankings["vector"]]  # a best score of 0
        whole = fuse(rankings)
        later = fuse({signal: ranked for signal, ranked in rankings.items() if signal != "vector"})
        fuse_first(later, "vector", rankings["vector"])
        assert later.keys() == whole.keys()
        for key, item in whole.items():
            other = later[key]
            assert (other.score, other.strength) == (item.score, item.strength)  # to the last bit
            assert other.matched_by == item.matched_by and list(other.ranks.items()) == list(item.ranks.items())
            checked += len(item.matched_by) > 1 and "vector" in item.matched_by
    assert checked > 1000  # many candidates found by the vector and another signal
