"""Recall an agent can trust: calibrated relevance and abstention, cold start by meaning, and as-of recall."""

from __future__ import annotations

from typing import Any

import pytest

from facts.models import Fact
from facts.retrieval.relevance import calibration
from tests.conftest import Persona
from tests.facts.test_search import FILLER_EN, FILLER_ZH, add_fact, subject_of, texts

pytestmark = pytest.mark.django_db

# A Chinese question is searched by multilingual-e5's vector and its relevance read by full models fitted on Chinese
# (bench/fit_relevance_zh.py): an operator's floor applies to it as to English; the fitted default floor does not (at
# it those models would cut too many right Chinese answers for what they abstain on: docs/relevance.md).


def results(response: Any) -> list[dict[str, Any]]:
    assert response.status_code == 200, response.content
    return list(response.json()["results"])


# ------------------------------------------------------------------------------------------- relevance, abstention


@pytest.mark.parametrize(
    ("facts", "query"),
    [
        (FILLER_EN, "What is my blood type?"),
        (FILLER_EN, "Which programming language did I learn at university?"),
        (FILLER_ZH, "我的血型是什么？"),
        (FILLER_ZH, "我大学学的是什么编程语言？"),
    ],
)
def test_an_unrelated_question_returns_nothing(alice: Persona, facts: list[str], query: str, settings: Any) -> None:
    settings.SEARCH_MIN_RELEVANCE = calibration().min_relevance  # abstention is the operator's (or agent's) choice
    subject = subject_of(alice)
    for text in facts:
        add_fact(subject, text)
    assert texts(alice.search(query, limit=10)) == []
    assert texts(alice.search(query, limit=10, include_messages=True)) == []
    # Asked for everything, the same candidates come back, each with its (low) relevance.
    everything = results(alice.search(query, limit=10, min_relevance=0))
    assert all(0 <= r["relevance"] < 0.5 for r in everything)


@pytest.mark.parametrize(
    ("facts", "query", "expected"),
    [
        (FILLER_EN, "Where do I work?", "I work as a nurse at the city hospital."),
        (FILLER_EN, "What sport do I do at the weekend?", "I play tennis every Saturday morning."),
        (FILLER_ZH, "我对什么过敏？", "我对花生过敏。"),
        (FILLER_ZH, "我在哪里工作？", "我在一家银行工作。"),
    ],
)
def test_a_related_question_keeps_its_answer_with_a_relevance(
    alice: Persona, facts: list[str], query: str, expected: str
) -> None:
    subject = subject_of(alice)
    for text in facts:
        add_fact(subject, text)
    found = results(alice.search(query))
    assert found and found[0]["text"] == expected
    assert all(0 <= r["relevance"] <= 1 for r in found)
    # The answer reads the highest relevance (docs/relevance.md: `score` orders the results, each
    # result's relevance is its own probability, so below the answer they need not fall in order).
    assert found[0]["relevance"] == max(r["relevance"] for r in found)


# Phrasings of this file's own: each related question shares no word with the fact that answers it.
OWN_EN = ["I keep bees in my back garden.", "My brother runs a bakery in Leeds.", "I am learning the cello."]
OWN_ZH = ["我在一家书店当店员。", "我养了一只兔子，叫团子。", "我对海鲜过敏。", "我每天晚上弹吉他。"]


@pytest.mark.parametrize(
    ("lang", "query", "expected"),
    [
        ("en", "Which instrument am I practising?", "cello"),
        ("zh", "我有宠物吗？", "兔子"),
        ("zh", "有哪些东西我不能吃？", "海鲜"),
    ],
)
def test_a_related_question_sharing_no_word_keeps_its_answer_under_the_default_floor(
    alice: Persona, settings: Any, lang: str, query: str, expected: str
) -> None:
    settings.SEARCH_MIN_RELEVANCE = calibration().min_relevance
    if lang == "en":
        for text in OWN_EN:
            add_fact(subject_of(alice), text)
    else:  # through the write path, so the extractor's slots are filled as they would be
        assert alice.ingest(*OWN_ZH).status_code == 200
    found = texts(alice.search(query))
    assert found and expected in found[0]


@pytest.mark.parametrize(
    ("lang", "query"),
    [
        ("en", "What is my passport number?"),
        ("en", "Which football team do I support?"),
        ("zh", "我支持哪支足球队？"),
        ("zh", "我的护照号码是多少？"),
    ],
)
def test_an_unrelated_question_of_a_memory_written_here_returns_nothing(
    alice: Persona, settings: Any, lang: str, query: str
) -> None:
    settings.SEARCH_MIN_RELEVANCE = calibration().min_relevance
    if lang == "en":
        for text in OWN_EN:
            add_fact(subject_of(alice), text)
    else:
        assert alice.ingest(*OWN_ZH).status_code == 200
    assert texts(alice.search(query, limit=10)) == []


def test_a_chinese_answer_reads_a_relevance_far_above_an_unrelated_questions(alice: Persona) -> None:
    assert alice.ingest(*OWN_ZH).status_code == 200
    related = results(alice.search("有哪些东西我不能吃？", min_relevance=0))
    unrelated = results(alice.search("我支持哪支足球队？", min_relevance=0))
    assert "海鲜" in related[0]["text"]
    assert related[0]["relevance"] > 5 * unrelated[0]["relevance"]


def test_relevance_is_stable_for_the_same_data(alice: Persona) -> None:
    subject = subject_of(alice)
    for text in [*FILLER_EN, "I have a dog named Rex.", "My dog Rex likes the beach."]:
        add_fact(subject, text)
    answers = [results(alice.search("my dog", limit=10, min_relevance=0)) for _ in range(3)]
    assert [[(r["id"], r["relevance"]) for r in a] for a in answers] == [
        [(r["id"], r["relevance"]) for r in answers[0]]
    ] * 3


def test_min_relevance_is_validated_and_applied(alice: Persona) -> None:
    subject = subject_of(alice)
    for text in FILLER_EN:
        add_fact(subject, text)
    for bad in (-0.1, 1.5, "high"):
        response = alice.search("tennis", min_relevance=bad)
        assert response.status_code == 400 and "min_relevance" in response.json()["error"]["details"]
    everything = results(alice.search("tennis", limit=10, min_relevance=0))
    assert len(everything) >= 1
    top = everything[0]["relevance"]
    assert results(alice.search("tennis", limit=10, min_relevance=min(1.0, top + 0.0001))) == []


def test_context_leaves_the_facts_section_out_for_an_unrelated_question(alice: Persona, settings: Any) -> None:
    settings.SEARCH_MIN_RELEVANCE = calibration().min_relevance
    subject = subject_of(alice)
    for text in FILLER_EN:  # typed as the extractor types them: context's facts section holds durable facts only
        add_fact(subject, text, type="profile")
    body = alice.post("context", {"query": "What is my blood type?"}).json()
    assert body["sections"]["facts"] == []
    # (the profile, sent whatever the query, may still list them: only the facts section is left out)
    related = alice.post("context", {"query": "Where do I work?"}).json()
    assert any("nurse" in f["text"] for f in related["sections"]["facts"])
    assert all(0 <= f["relevance"] <= 1 for f in related["sections"]["facts"])


# ------------------------------------------------------------------------------------------- cold start


@pytest.mark.parametrize(
    ("facts", "query", "expected"),
    [
        (
            ["I am allergic to peanuts.", "I work as a nurse.", "My favourite colour is green.", "I live in Lisbon."],
            "Which snacks are dangerous for me to eat?",
            "I am allergic to peanuts.",
        ),
        (
            ["I have a dog named Rex.", "My favourite colour is green."],
            "Tell me about my puppy",
            "I have a dog named Rex.",
        ),
        pytest.param(
            ["我对花生过敏。", "我在一家银行工作。", "我喜欢绿色。", "我住在里斯本。"],
            "哪些零食我不能吃？",
            "我对花生过敏。",
        ),
    ],
)
def test_cold_start_finds_a_fact_that_shares_no_word_with_the_question(
    alice: Persona, facts: list[str], query: str, expected: str
) -> None:
    """Four facts or fewer, no shared word. English: the vector finds it. Chinese: MiniLM's vectors cannot tell
    Chinese sentences apart, so a food question names the allergy and diet slots the extractor fills."""
    subject = subject_of(alice)
    for text in facts:
        add_fact(subject, text)
    if "花生" in expected:
        Fact.objects.filter(subject=subject, text=expected).update(predicate="allergy:花生", type="health")
    else:
        assert "vector" in results(alice.search(query))[0]["matched_by"]
    assert texts(alice.search(query))[0] == expected


def test_cold_start_food_question_finds_an_extracted_allergy(alice: Persona) -> None:
    """Through the write path: the rule extractor slots "对花生过敏" (allergy:花生), and a food question finds it."""
    response = alice.ingest("我对花生过敏。", "我在一家银行工作。", "我住在里斯本。")
    assert response.status_code == 200, response.content
    found = texts(alice.search("周末聚会我能吃哪些零食？"))
    assert found and "花生" in found[0]


# ------------------------------------------------------------------------------------------- as of


MOVES = [
    ("I live in Boston.", "I live in Seattle now.", "Where did I live?", "Boston", "Seattle"),
    pytest.param("我住在朝阳区。", "我搬到了海淀区。", "我住在哪里？", "朝阳区", "海淀区"),
]


def _move(persona: Persona, old: str, new: str) -> None:
    for content, when in ((old, "2026-01-10T09:00:00Z"), (new, "2026-03-05T09:00:00Z")):
        response = persona.ingest(content, created_at=when)
        assert response.status_code == 200, response.content
    assert Fact.objects.filter(subject__external_id=persona.name, status="superseded").count() == 1


@pytest.mark.parametrize(("old", "new", "query", "old_place", "new_place"), MOVES)
def test_as_of_answers_what_was_true_then(
    alice: Persona, old: str, new: str, query: str, old_place: str, new_place: str
) -> None:
    _move(alice, old, new)
    february = texts(alice.search(query, as_of="2026-02-15T00:00:00Z"))
    assert february and old_place in february[0]
    assert not any(new_place in t for t in february)
    april = texts(alice.search(query, as_of="2026-04-01T00:00:00Z"))
    assert april and new_place in april[0] and not any(old_place in t for t in april)
    now = texts(alice.search(query))
    assert now and new_place in now[0] and not any(old_place in t for t in now)
    before_anything = texts(alice.search(query, as_of="2025-12-01T00:00:00Z"))
    assert before_anything == []


@pytest.mark.parametrize(("old", "new", "query", "old_place", "new_place"), MOVES)
def test_known_at_before_the_move_does_not_know_it(
    alice: Persona, old: str, new: str, query: str, old_place: str, new_place: str
) -> None:
    _move(alice, old, new)
    then = texts(alice.search(query, known_at="2026-03-01T00:00:00Z"))
    assert then and old_place in then[0] and not any(new_place in t for t in then)
    # Valid in April as the memory knew it on 1 March: still the old address (the move was not told yet).
    then_april = texts(alice.search(query, as_of="2026-04-01T00:00:00Z", known_at="2026-03-01T00:00:00Z"))
    assert then_april and old_place in then_april[0]
    after = texts(alice.search(query, known_at="2026-03-06T00:00:00Z"))
    assert after and new_place in after[0] and not any(old_place in t for t in after)


@pytest.mark.parametrize(("old", "new", "query", "old_place", "new_place"), [MOVES[0], MOVES[1].values])
def test_fact_listing_and_context_as_of(
    alice: Persona, old: str, new: str, query: str, old_place: str, new_place: str
) -> None:
    _move(alice, old, new)
    listed = alice.get("facts", data={"as_of": "2026-02-15T00:00:00Z"}).json()["results"]
    assert [old_place in f["text"] for f in listed] == [True]
    listed = alice.get("facts", data={"known_at": "2026-03-01T00:00:00Z"}).json()["results"]
    assert [old_place in f["text"] for f in listed] == [True]
    assert len(alice.get("facts").json()["results"]) == 2  # without as_of: everything, history included
    body = alice.post("context", {"query": query, "as_of": "2026-02-15T00:00:00Z"}).json()
    assert [old_place in f["text"] for f in body["sections"]["facts"]] == [True]


def test_as_of_bad_input_is_a_400(alice: Persona) -> None:
    assert alice.search("home", as_of="last tuesday").status_code == 400
    assert alice.search("home", known_at="2026-13-01").status_code == 400
    response = alice.get("facts", data={"as_of": "soon"})
    assert response.status_code == 400 and "as_of" in response.json()["error"]["details"]
    assert alice.post("context", {"query": "home", "known_at": "never"}).status_code == 400


def test_as_of_search_of_another_tenant_is_404_and_needs_a_key(alice: Persona, carol: Persona) -> None:
    _move(alice, *MOVES[0][:2])
    response = carol.search("Where did I live?", user="alice", as_of="2026-02-15T00:00:00Z")
    assert response.status_code == 404
    alice.client.credentials()
    assert alice.search("Where did I live?", as_of="2026-02-15T00:00:00Z").status_code == 401
