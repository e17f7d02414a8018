"""A question in English finds the Chinese fact that answers it: an agent often asks in English of a user who talks
in Chinese, and MiniLM, which reads the English rows, does not read Chinese. Where the subject holds Chinese facts,
the query is also embedded by the encoder that reads Chinese (multilingual-e5) and the Chinese rows are read by it."""

from __future__ import annotations

from typing import Any

import pytest

from facts.retrieval import query_vector
from facts.retrieval.relevance import QuerySignals, calibration
from facts.retrieval.search import run_search
from tests.conftest import Persona
from tests.facts.test_search import subject_of, texts

pytestmark = pytest.mark.django_db

# One person's life in Chinese, said over several conversations; no English word in any of it.
LIFE_ZH = [
    "我在一家宠物医院当前台。",
    "我女儿在学钢琴，每周三上课。",
    "我开的是一辆二手的丰田卡罗拉。",
    "我对青霉素过敏。",
    "我老家在湖南岳阳。",
    "我周末常去郊区骑自行车。",
]
ASKED_IN_ENGLISH = [
    ("Where does the user work?", "宠物医院"),
    ("what instrument is my daughter learning", "钢琴"),
    ("Which car do I drive?", "卡罗拉"),
    ("any drug allergies I should know about", "青霉素"),
    ("where am I from originally", "岳阳"),
    ("how do I keep fit on weekends", "自行车"),
]


def _say(persona: Persona, turns: list[str]) -> None:
    for n, text in enumerate(turns):
        assert persona.ingest(text, session=f"s{n}").status_code == 200


@pytest.mark.parametrize(("query", "expected"), ASKED_IN_ENGLISH)
def test_an_english_question_finds_the_chinese_fact_that_answers_it(alice: Persona, query: str, expected: str) -> None:
    # The vector orders what it alone finds; the re-ranker's factors can swap close ones ("where do I work" and
    # "where am I from"; a short turn's few content words), so the answer is asked among the first two of six facts,
    # the first three of twelve facts and turns.
    _say(alice, LIFE_ZH)
    found = texts(alice.search(query, limit=2, min_relevance=0))
    assert any(expected in text for text in found), found
    with_turns = texts(alice.search(query, limit=3, min_relevance=0, include_messages=True))
    assert any(expected in text for text in with_turns), with_turns


def test_without_the_chinese_reading_the_english_question_finds_nothing_right(alice: Persona, settings: Any) -> None:
    """The same memory read by MiniLM alone (the cross-language reading turned off): most answers are not in the
    first two. What the test above finds is the e5 reading's doing, not the words'."""
    _say(alice, LIFE_ZH)
    settings.SEARCH_TUNING = {"vector.cross_lingual": False}
    found = 0
    for query, expected in ASKED_IN_ENGLISH:
        found += any(expected in text for text in texts(alice.search(query, limit=2, min_relevance=0)))
    assert found <= 2


def test_a_memory_without_chinese_facts_embeds_the_english_query_once(alice: Persona) -> None:
    assert alice.ingest("I work at a bookshop in Leeds.", "My daughter is learning the violin.").status_code == 200
    before = query_vector.stats.snapshot()["cross"]
    assert texts(alice.search("what does my girl play", limit=1, min_relevance=0))
    assert query_vector.stats.snapshot()["cross"] == before
    _say(alice, LIFE_ZH[:2])
    found = texts(alice.search("where is my workplace", limit=3, min_relevance=0))
    assert query_vector.stats.snapshot()["cross"] == before + 1
    assert any("宠物医院" in text for text in found) and any("bookshop" in text for text in found), found
    # A Chinese query is read by that encoder already: no second embedding.
    assert texts(alice.search("我在哪里上班？", limit=1, min_relevance=0))
    assert query_vector.stats.snapshot()["cross"] == before + 1


def test_another_subjects_chinese_facts_stay_out(alice: Persona, bob: Persona, carol: Persona) -> None:
    """Bob (the same tenant) and Carol (another) hold the Chinese answers; Alice holds none of them."""
    _say(bob, LIFE_ZH)
    _say(carol, LIFE_ZH)
    _say(alice, ["我在上海读研究生，学的是化学。"])
    for query, expected in ASKED_IN_ENGLISH:
        found = texts(alice.search(query, limit=5, min_relevance=0, include_messages=True))
        assert not any(expected in text for text in found), (query, found)
    # Alice's key naming Carol's user id reaches no subject of Carol's tenant.
    assert alice.post("search", {"query": "Where does the user work?"}, user="carol").status_code == 404


def test_its_relevance_is_read_by_the_models_fitted_across_the_languages(alice: Persona) -> None:
    """The English models would read an e5 similarity as a weak MiniLM one and call every answer irrelevant: the
    models fitted on English questions about Chinese memories read it, and the same data gives the same relevance."""
    _say(alice, LIFE_ZH)
    subject = subject_of(alice).pk
    outcome = run_search(subject_id=subject, query="which medicine am I allergic to", limit=3, min_relevance=0)
    assert outcome.query_signals is not None and outcome.query_signals.vector_space == "cross"
    assert calibration().models(outcome.query_signals)[0] is calibration().xl_full[0]  # type: ignore[index]
    assert "青霉素" in outcome.hits[0].text
    again = run_search(subject_id=subject, query="which medicine am I allergic to", limit=3, min_relevance=0)
    assert [(h.id, h.relevance) for h in again.hits] == [(h.id, h.relevance) for h in outcome.hits]
    chinese = run_search(subject_id=subject, query="我对哪种药过敏？", limit=3, min_relevance=0)
    assert chinese.query_signals is not None and chinese.query_signals.vector_space == "zh"


def test_the_default_floor_follows_whether_the_cross_language_models_were_adopted() -> None:
    """Across the languages e5 ranks but barely tells an answer from none (bench/README.md, session 37): the fitted
    floor is not adopted there, so a search returns its best candidates with their relevance, as a Chinese query's,
    and an operator's floor (SEARCH_MIN_RELEVANCE) still applies."""
    cal = calibration()
    assert cal.xl_full is not None
    cross = QuerySignals(similarity={("fact", 1): 0.5}, sim_floor=0.2, bm25={}, vector_ran=True, vector_space="cross")
    assert cal.models(cross)[0] is cal.xl_full[0]
    assert cal.default_floor_for(cross) == cal.xl_full_adopted
    assert cal.calibrated_for(cross)
    base = QuerySignals(similarity={("fact", 1): 0.5}, sim_floor=0.2, bm25={}, vector_ran=True)
    assert cal.models(base)[0] is cal.full
