"""The query-level half of relevance (facts/retrieval/answerable.py): whether the memory answers a query at all."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import Persona
from tests.facts.test_search import FILLER_EN, add_fact, subject_of

pytestmark = pytest.mark.django_db

FACTS = [*FILLER_EN, "Maria adopted a rescue dog named Biscuit last spring."]


def results(response: Any) -> list[dict[str, Any]]:
    assert response.status_code == 200, response.content
    return list(response.json()["results"])


def test_results_of_one_query_keep_their_order_and_a_name_the_memory_never_mentions_lowers_them(
    alice: Persona,
) -> None:
    """Same words, another name: the memory holds nothing about that person, so the query-level half is lower."""
    subject = subject_of(alice)
    for text in FACTS:
        add_fact(subject, text)
    found = results(alice.search("Maria's dog Biscuit", limit=10, min_relevance=0))
    relevance = [r["relevance"] for r in found]
    assert found[0]["text"] == FACTS[-1]
    assert relevance == sorted(relevance, reverse=True) and 0 < relevance[0] <= 1
    unrelated = results(alice.search("Deborah's dog Biscuit", limit=10, min_relevance=0))
    assert max(r["relevance"] for r in unrelated) < relevance[0]
