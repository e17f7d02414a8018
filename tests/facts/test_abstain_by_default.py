"""Abstention by default: the fitted floor applies, unasked, once a subject's memory is large enough for its
calibration to hold (facts/retrieval/config.py DEFAULT_FLOOR_ROWS, SEARCH_MIN_RELEVANCE_ROWS); a small memory keeps
its answers; an explicit `min_relevance` always wins."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured

from facts.embedding import embed_texts
from facts.extraction.base import Candidate
from facts.retrieval.config import DEFAULT_FLOOR_ROWS, SearchConfig
from facts.retrieval.relevance import calibration
from facts.services import fact_insert
from tests.conftest import Persona
from tests.facts.test_search import FILLER_EN, add_fact, subject_of, texts

pytestmark = pytest.mark.django_db

# A friend's circle, written for this file: enough distinct facts for a memory of DEFAULT_FLOOR_ROWS rows.
FRIENDS = ["Tomasz", "Ingrid", "Kofi", "Mireille", "Bao", "Saoirse", "Dmitri", "Amara", "Teodor", "Yuki", "Rafael",
           "Helga", "Oluwaseun", "Paavo", "Linnea", "Ezequiel", "Noor", "Wendell", "Ottilie", "Casimir", "Zainab",
           "Lorcan", "Marisol", "Anselm", "Ilse", "Ruairi", "Fenna"]  # fmt: skip
PASTIMES = [
    "restores old bicycles in a shed",
    "bakes rye bread on Sunday afternoons",
    "teaches chess to children at the library",
    "grows chillies on a balcony",
    "walks dogs for the animal shelter",
    "builds model railways in the attic",
    "swims in the lake before breakfast",
    "collects vinyl records from flea markets",
    "paints watercolour harbours",
    "repairs antique clocks",
    "brews cider from windfall apples",
    "climbs indoor bouldering walls on Thursdays",
]
OWN = ["I keep bees in my back garden.", "My brother runs a bakery in Leeds.", "I am learning the cello."]
# Questions the memory does not answer, each finding candidates (friends, a lake, a garden) when asked for everything.
UNRELATED = ["Does my friend have a cat?", "What music does my friend play?", "Which wedding did my friend go to?"]


# Asked of FILLER_EN's five facts, it finds one (the nurse) when asked for everything, well under the fitted floor.
SMALL_UNRELATED = "Which hospital was my brother born in?"


def large_memory(persona: Persona, *, own_type: str = "other", friends_type: str = "other") -> None:
    """The persona's own three facts among friends' pastimes: DEFAULT_FLOOR_ROWS facts in all, stored as the
    pipeline stores them (tests/facts/test_search.add_fact), embedded in one batch."""
    subject = subject_of(persona)
    pairs = itertools.islice(itertools.product(PASTIMES, FRIENDS), DEFAULT_FLOOR_ROWS - len(OWN))
    facts = [(text, own_type) for text in OWN] + [(f"My friend {n} {p}.", friends_type) for p, n in pairs]
    vectors = embed_texts([text for text, _ in facts])
    for (text, kind), vector in zip(facts, vectors, strict=True):
        fact_insert(subject=subject, candidate=Candidate(message_id=0, text=text, type=kind), embedding=vector)


def results(response: Any) -> list[dict[str, Any]]:
    assert response.status_code == 200, response.content
    return list(response.json()["results"])


@pytest.fixture
def large(alice: Persona) -> Persona:
    assert len(PASTIMES) * len(FRIENDS) >= DEFAULT_FLOOR_ROWS
    large_memory(alice)
    return alice


@pytest.mark.parametrize("query", UNRELATED)
def test_an_unrelated_question_to_a_large_memory_returns_nothing_by_default(large: Persona, query: str) -> None:
    assert texts(large.search(query, limit=10)) == []
    assert texts(large.search(query, limit=10, include_messages=True)) == []
    # An explicit floor always wins: 0 returns every candidate, each with its (low) relevance.
    everything = results(large.search(query, limit=10, min_relevance=0))
    assert everything and all(r["relevance"] < calibration().min_relevance for r in everything)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("What do I keep in my garden?", "bees"),
        ("What is my brother's business?", "bakery"),
        ("Which friends bake bread?", "rye bread"),
    ],
)
def test_a_related_question_to_a_large_memory_keeps_its_answer_by_default(
    large: Persona, query: str, expected: str
) -> None:
    found = texts(large.search(query))
    assert found and expected in found[0]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("What sport do I do at the weekend?", "tennis"),  # shares no word with its fact: under the fitted floor
        ("Where do I work?", "nurse"),
    ],
)
def test_a_small_memory_keeps_its_answers_by_default(alice: Persona, query: str, expected: str) -> None:
    subject = subject_of(alice)
    for text in FILLER_EN:
        add_fact(subject, text)
    found = texts(alice.search(query))
    assert found and expected in found[0]
    # The same question under the fitted floor asked explicitly: the explicit floor wins, here costing the answer
    # a memory this small cannot afford (why the default waits for a larger memory).
    if expected == "tennis":
        assert texts(alice.search(query, min_relevance=calibration().min_relevance)) == []


def test_the_size_the_floor_applies_from_is_the_operators(alice: Persona, settings: Any) -> None:
    subject = subject_of(alice)
    for text in FILLER_EN:
        add_fact(subject, text)
    assert texts(alice.search(SMALL_UNRELATED)) != []  # five facts: under the default size
    settings.SEARCH_MIN_RELEVANCE_ROWS = 0  # the fitted floor for every memory
    assert texts(alice.search(SMALL_UNRELATED)) == []
    assert texts(alice.search("Where do I work?"))[0] == "I work as a nurse at the city hospital."
    settings.SEARCH_MIN_RELEVANCE = 0.0  # never abstain
    assert texts(alice.search(SMALL_UNRELATED)) != []


def test_an_operators_floor_applies_to_every_memory_unless_told_a_size(alice: Persona, settings: Any) -> None:
    subject = subject_of(alice)
    for text in FILLER_EN:
        add_fact(subject, text)
    settings.SEARCH_MIN_RELEVANCE = calibration().min_relevance  # as before: set, it applies from any size
    assert texts(alice.search(SMALL_UNRELATED)) == []
    settings.SEARCH_MIN_RELEVANCE_ROWS = 50
    assert texts(alice.search(SMALL_UNRELATED)) != []


def test_a_large_memory_never_abstains_when_the_operator_says_so(large: Persona, settings: Any) -> None:
    settings.SEARCH_MIN_RELEVANCE_ROWS = DEFAULT_FLOOR_ROWS + 1
    assert texts(large.search(UNRELATED[0], limit=10)) != []
    settings.SEARCH_MIN_RELEVANCE_ROWS = None
    settings.SEARCH_MIN_RELEVANCE = 0.0
    assert texts(large.search(UNRELATED[0], limit=10)) != []


@pytest.mark.parametrize(("floor", "rows"), [(None, -1), (None, 2.5), (1.5, None), (None, True)])
def test_a_wrong_setting_is_refused(settings: Any, floor: Any, rows: Any) -> None:
    settings.SEARCH_MIN_RELEVANCE = floor
    settings.SEARCH_MIN_RELEVANCE_ROWS = rows
    with pytest.raises(ImproperlyConfigured):
        SearchConfig.from_settings()


def test_context_leaves_the_facts_section_out_for_an_unrelated_question_by_default(alice: Persona) -> None:
    # Typed as the extractor types them: the facts section holds durable facts only.
    large_memory(alice, own_type="profile", friends_type="relationship")
    body = alice.post("context", {"query": UNRELATED[0]}).json()
    assert body["sections"]["facts"] == []
    related = alice.post("context", {"query": "What do I keep in my garden?"}).json()
    assert any("bees" in f["text"] for f in related["sections"]["facts"])


def test_another_tenant_still_cannot_read_a_large_memory(large: Persona, carol: Persona) -> None:
    assert carol.search("What do I keep in my garden?", user="alice").status_code == 404
    assert carol.search(UNRELATED[0], user="alice", min_relevance=0).status_code == 404
    assert texts(large.search("What do I keep in my garden?"))[0] == OWN[0]  # the owner still reads it


def test_context_keeps_an_answered_querys_lower_facts_for_its_budget(alice: Persona) -> None:
    # The floor says whether the memory answers at all; once it does, the token budget packs what else is near,
    # under the floor too (a per-result floor cost context recall at 2,000 tokens).
    large_memory(alice, own_type="profile", friends_type="relationship")
    facts = alice.post("context", {"query": "What do I keep in my garden?", "token_budget": 2000}).json()
    facts = facts["sections"]["facts"]
    assert any("bees" in f["text"] for f in facts)
    assert any(f["relevance"] < calibration().min_relevance for f in facts), facts
