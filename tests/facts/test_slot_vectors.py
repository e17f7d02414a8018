"""The embedding's second opinion on slots, with the real MiniLM vectors (English; Chinese gets no vote)."""

from __future__ import annotations

import datetime as dt

import pytest

from facts import embedding
from facts.extraction.base import MessageView
from facts.extraction.rules import RuleExtractor
from facts.extraction.slot_vectors import slots_second_opinion


def _candidates(content: str):  # type: ignore[no-untyped-def]
    message = MessageView(
        id=1, role="user", name="", content=content, created_at=dt.datetime(2024, 5, 1, tzinfo=dt.UTC)
    )
    candidates = RuleExtractor().extract_one(message).candidates
    vectors = embedding.embed_texts([c.text for c in candidates])
    slots_second_opinion(content=content, speaker="User", candidates=candidates, vectors=list(vectors))
    return candidates


def test_a_weak_reading_the_vector_disagrees_with_is_dropped() -> None:
    [candidate] = _candidates("I'm in Rome, browsing the markets with friends.")
    assert candidate.predicate != "residence"


def test_a_weak_reading_the_vector_agrees_with_stays() -> None:
    [candidate] = _candidates("I'm in Leeds now.")
    assert candidate.predicate == "residence" and candidate.object_value == "Leeds"


def test_a_home_said_in_words_the_rules_lack_is_adopted_by_the_vector() -> None:
    [candidate] = _candidates("These days I rent a room in Camden.")
    assert candidate.predicate == "residence" and candidate.object_value == "Camden"
    assert candidate.subject_entity == "User"


@pytest.mark.parametrize(
    "content", ["I'm travelling to Canada next month.", "我下个月去加拿大旅行。", "Did you move to Oslo?"]
)
def test_no_slot_is_adopted_for_a_trip_a_question_or_chinese(content: str) -> None:
    assert all(c.predicate != "residence" for c in _candidates(content))
