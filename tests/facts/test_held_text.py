"""A held entry's substring match (Chinese terms in memory): the rows whose text holds a term, as `term in text`."""

from __future__ import annotations

import random

import numpy as np

from facts.retrieval.held import FactRow, entry_from_rows, refreshed


def _rows(texts: list[str], first_id: int = 1) -> list[FactRow]:
    return [(first_id + i, None, None, 1, [], text) for i, text in enumerate(texts)]


def _expected(texts: list[str], term: str) -> np.ndarray:
    return np.array([term in text for text in texts], dtype=bool)


def test_rows_containing_is_the_substring_test_of_each_text() -> None:
    rng = random.Random(5)
    alphabet = "我喜欢吃火锅周末去游泳的是在有人猫狗 abc?？"
    texts = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12))) for _ in range(400)]
    texts[:4] = ["我喜欢火", "锅在家", "", "喜欢"]  # "火锅" only across the first two texts: in neither
    entry = entry_from_rows(_rows(texts), version=(0, 0), last_change=0, loaded=0.0)
    terms = ["火锅", "火锅在", "喜欢", "我", "游泳的是", "abc", "？", "不在", "", "a\0b", texts[10][2:5]]
    for term in terms:  # "我" is in most texts: matched text by text
        assert (entry.rows_containing(term) == _expected(texts, term)).all(), term


def test_rows_containing_after_a_refresh_leaves_dead_rows_out() -> None:
    texts = ["我养了一只猫", "周末去游泳", "猫喜欢鱼"]
    entry = entry_from_rows(_rows(texts), version=(1, 1), last_change=1, loaded=0.0)
    assert entry.rows_containing("猫").tolist() == [True, False, True]
    # Fact 1 changed (its old row dies, the new one is appended), fact 3 gone, fact 4 new.
    later = refreshed(
        entry, _rows(["我养了一只狗"]) + _rows(["猫在睡觉"], first_id=4), [3], version=(4, 9), last_change=4
    )
    assert later.rows_containing("猫").tolist() == _expected(later.texts, "猫").tolist()
    assert [int(later.ids[row]) for row in later.live_rows(later.rows_containing("猫"))] == [4]
    assert [int(later.ids[row]) for row in later.live_rows(later.rows_containing("狗"))] == [1]
    assert entry.rows_containing("猫").tolist() == [True, False, True]  # the older entry is unchanged
