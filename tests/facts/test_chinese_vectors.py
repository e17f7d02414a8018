"""Chinese facts and turns carry a vector from an encoder that reads Chinese, and Chinese queries are searched by it."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command

from conversations.models import Message
from facts.extraction import zh_encoder
from facts.models import Fact
from facts.retrieval.query_vector import space_of
from facts.services import fact_archive, fact_correct, fact_create
from tests.conftest import Persona
from tests.facts.test_search import FILLER_ZH, subject_of, texts

pytestmark = pytest.mark.django_db

# A few facts of one person; each question below shares no word with the fact that answers it (no keyword, entity or
# slot finds it: only a vector that reads Chinese does).
LIFE_ZH = [
    "我在一家书店当店员。",
    "我养了一只兔子，叫团子。",
    "我每天晚上弹吉他。",
    "我老公是消防员。",
    "我住在杭州西湖区。",
    "我对芒果过敏。",
]
NOT_IN_WORDS = [
    ("我丈夫是干哪行的？", "消防员"),
    ("家里有什么小动物？", "兔子"),
    ("我下班后一般练什么乐器？", "吉他"),
    ("哪种水果我碰不得？", "芒果"),
]


def test_chinese_rows_get_a_chinese_vector_and_english_ones_do_not(alice: Persona) -> None:
    assert alice.ingest("我养了一只兔子，叫团子。", "I work at a bookshop in Leeds.").status_code == 200
    facts = list(Fact.objects.filter(subject__external_id="alice"))
    chinese = [f for f in facts if "兔子" in f.text]
    english = [f for f in facts if "bookshop" in f.text]
    assert chinese and english
    assert all(f.embedding_zh is not None and len(f.embedding_zh) == 384 for f in chinese)
    assert all(f.embedding_zh is None for f in english)
    turns = {m.content: m for m in Message.objects.filter(subject__external_id="alice")}
    assert turns["我养了一只兔子，叫团子。"].embedding_zh is not None
    assert turns["I work at a bookshop in Leeds."].embedding_zh is None


def test_the_query_space_follows_the_query_language() -> None:
    assert space_of("家里有什么小动物？") == "zh"
    assert space_of("Which pets do I have?") == "base"
    assert space_of("我的iPhone是哪年买的？") == "zh"


@pytest.mark.parametrize(("query", "expected"), NOT_IN_WORDS)
def test_a_chinese_question_sharing_no_word_finds_its_fact(alice: Persona, query: str, expected: str) -> None:
    # Said over several conversations (the turns of one are linked to each other). The vector orders the candidates
    # it alone finds; the re-ranker's factors (a type the question asks for, how much a turn says) can swap close
    # ones, so the answer is asked among the first three of eleven.
    for n, text in enumerate([*LIFE_ZH, *FILLER_ZH]):
        assert alice.ingest(text, session=f"s{n}").status_code == 200
    found = texts(alice.search(query, limit=3, min_relevance=0))
    assert any(expected in text for text in found), found
    with_turns = texts(alice.search(query, limit=3, min_relevance=0, include_messages=True))
    assert any(expected in text for text in with_turns), with_turns


def test_a_corrected_fact_is_embedded_again_and_an_archived_one_leaves_the_chinese_space(alice: Persona) -> None:
    assert alice.ingest("我养了一只兔子，叫团子。").status_code == 200
    fact = Fact.objects.get(subject__external_id="alice", text__contains="兔子")
    before = list(fact.embedding_zh)
    fact = fact_correct(fact=fact, actor="user", text="我养了一只乌龟，叫团子。")
    fact.refresh_from_db()
    assert fact.embedding_zh is not None and list(fact.embedding_zh) != before
    assert texts(alice.search("我家的爬行动物叫什么？", limit=1, min_relevance=0)) == [fact.text]
    fact_archive(fact=fact, actor="user")
    fact.refresh_from_db()
    assert fact.embedding_zh is None


def test_a_fact_written_through_the_api_gets_a_chinese_vector(alice: Persona) -> None:
    subject = subject_of(alice)
    result = fact_create(subject=subject, text="我每周三去学陶艺。", actor="agent")
    result.fact.refresh_from_db()
    assert result.fact.embedding_zh is not None
    response = alice.post("facts", {"text": "我女儿在读初二。"})
    assert response.status_code == 201, response.content
    assert Fact.objects.get(pk=response.json()["id"]).embedding_zh is not None


def test_the_backfill_fills_what_is_missing_and_nothing_twice(alice: Persona, capsys: Any) -> None:
    assert alice.ingest(*LIFE_ZH[:3], "I play chess on Sundays.").status_code == 200
    chinese_facts = Fact.objects.filter(subject__external_id="alice", embedding_zh__isnull=False)
    kept = {f.pk: list(f.embedding_zh) for f in chinese_facts}
    assert len(kept) >= 3
    Fact.objects.filter(pk__in=kept).update(embedding_zh=None)
    Message.objects.filter(subject__external_id="alice").update(embedding_zh=None)
    call_command("embed_chinese")
    assert f"{len(kept)} facts and 3 turns embedded" in capsys.readouterr().out
    again = {f.pk: list(f.embedding_zh) for f in Fact.objects.filter(pk__in=kept)}
    assert again == kept  # the same text gets the same vector
    call_command("embed_chinese")
    assert "0 facts and 0 turns embedded" in capsys.readouterr().out


def test_an_encoder_fault_loses_nothing_and_the_backfill_heals_it(
    alice: Persona, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    def broken(texts: list[str]) -> None:
        raise RuntimeError("the engine stopped")

    monkeypatch.setattr(zh_encoder, "passages", broken)
    assert alice.ingest("我养了一只兔子，叫团子。").status_code == 200
    fact = Fact.objects.get(subject__external_id="alice", text__contains="兔子")
    assert fact.embedding_zh is None and fact.embedding is not None  # stored, found by its words and MiniLM
    assert texts(alice.search("兔子", limit=1)) == [fact.text]
    monkeypatch.undo()
    call_command("embed_chinese")
    assert "1 facts and 1 turns embedded" in capsys.readouterr().out
    assert texts(alice.search("家里有什么小动物？", limit=1, min_relevance=0)) == [fact.text]


def test_a_memory_without_chinese_vectors_is_read_as_before_them(alice: Persona, settings: Any) -> None:
    """Rows stored before the Chinese vectors (the backfill not run yet): e5 finds nothing there, so a Chinese query
    is read by the keyword-only models, under which an operator's floor does not apply, and the answer its words
    find stays; once the backfill has run, the models fitted on Chinese read it."""
    from facts.retrieval.relevance import calibration

    settings.SEARCH_MIN_RELEVANCE = calibration().min_relevance
    assert alice.ingest(*LIFE_ZH).status_code == 200
    Fact.objects.filter(subject__external_id="alice").update(embedding_zh=None)
    Message.objects.filter(subject__external_id="alice").update(embedding_zh=None)
    found = alice.search("我对什么水果过敏？", limit=3).json()["results"]
    assert found and "芒果" in found[0]["text"], found
    call_command("embed_chinese")
    again = alice.search("我对什么水果过敏？", limit=3).json()["results"]
    assert again and "芒果" in again[0]["text"] and again[0]["relevance"] >= settings.SEARCH_MIN_RELEVANCE
