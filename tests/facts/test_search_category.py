"""The category signal: a question asking for a kind of thing (hobbies, books, trips) finds the person's turns of that
kind, each in its own session and words, sharing no word with the question; an unrelated question still abstains."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.db import connection

from conversations.models import Message
from facts.embedding import embed_texts
from facts.retrieval.candidates.category import asked_categories
from facts.retrieval.relevance import calibration
from facts.text import search_text
from memory_site.pgio import SEARCH_VECTOR_SQL
from tests.conftest import Persona
from tests.factories import MessageFactory, SessionFactory
from tests.facts.test_search import subject_of, texts, tune

pytestmark = pytest.mark.django_db

START = dt.datetime(2025, 3, 1, 9, tzinfo=dt.UTC)

# Everyday turns of other kinds, some sharing the question's words ("do", "weekend", "周末"), said in between.
OTHER_EN = [
    "The plumber is coming on Tuesday to fix the kitchen sink.",
    "My manager asked me to finish the quarterly report by Friday.",
    "I need to renew my passport before it expires next month.",
    "The electricity bill was much higher than usual this winter.",
    "My car made a strange noise so I took it to the garage.",
    "What do you do when the neighbours are loud at night?",
    "The weekend traffic on the ring road was terrible.",
    "I finally paid off the loan for the apartment.",
    "My dentist appointment got moved to the afternoon.",
    "The landlord says the rent goes up in June.",
    "I lost my keys again and had to call a locksmith.",
    "The printer at work keeps jamming every morning.",
]
OTHER_ZH = [
    "水管工周二来修厨房的水槽。",
    "经理让我周五之前交季度报告。",
    "护照下个月到期，得去续签。",
    "这个冬天的电费比平时高很多。",
    "车子有怪声，我送去修理厂了。",
    "周末环路上堵得厉害。",
    "房东说六月份房租要涨。",
    "我又把钥匙弄丢了，只好找开锁师傅。",
    "单位的打印机每天早上都卡纸。",
    "牙医把我的预约改到了下午。",
]


def say(persona: Persona, turns: list[tuple[str, str]]) -> list[Message]:
    """Each (session, text) said by the user in that session, a day apart, embedded and indexed as ingest does."""
    subject = subject_of(persona)
    sessions: dict[str, Any] = {}
    messages = []
    for i, (session, text) in enumerate(turns):
        if session not in sessions:
            sessions[session] = SessionFactory(subject=subject, tenant=subject.tenant, external_id=session)
        messages.append(
            MessageFactory(
                session=sessions[session], content=text, external_id=f"m{i}", created_at=START + dt.timedelta(days=i)
            )
        )
    vectors = embed_texts([m.content for m in messages])
    with connection.cursor() as cursor:
        for message, vector in zip(messages, vectors, strict=True):
            cursor.execute(
                f"UPDATE conversations_message SET embedding = %s::vector, search_vector = {SEARCH_VECTOR_SQL} "
                "WHERE id = %s",
                ["[" + ",".join(map(str, vector)) + "]", *[search_text(message.content)] * 2, message.pk],
            )
    return messages


def interleaved(items: list[str], others: list[str]) -> list[tuple[str, str]]:
    """Each item in its own session among the other turns (four of them a session)."""
    turns: list[tuple[str, str]] = []
    for i, item in enumerate(items):
        turns += [(f"s{i}", text) for text in others[i * 4 : i * 4 + 3]]
        turns.append((f"s{i}", item))
    return turns


HOBBIES_EN = [
    "Last Sunday I went kayaking down the river with my cousins.",
    "I joined a chess club that meets on Wednesday evenings.",
    "We climbed the big rock wall at the gym and my arms still hurt.",
]
HOBBIES_ZH = ["上周末我去爬山了，山顶的风景特别好。", "我每天早上在河边跑步五公里。", "昨天下午我在公园的湖边钓鱼。"]


@pytest.mark.parametrize(
    ("items", "others", "query"),
    [(HOBBIES_EN, OTHER_EN, "What hobbies do I have?"), (HOBBIES_ZH, OTHER_ZH, "我平时有哪些爱好？")],
)
def test_a_list_question_finds_items_of_its_kind_in_different_sessions(
    alice: Persona, settings: Any, items: list[str], others: list[str], query: str
) -> None:
    say(alice, interleaved(items, others))
    found = texts(alice.search(query, limit=5, include_messages=True, min_relevance=0))
    assert set(items) <= set(found), found
    tune(settings, {"fusion.weight_category": 0.0})  # without the category signal they share no word with it
    without = texts(alice.search(query, limit=5, include_messages=True, min_relevance=0))
    assert not set(items) <= set(without), without


def test_a_named_persons_list_reads_that_persons_turns(alice: Persona) -> None:
    """ "What sports does Noor play?" reads Noor's turns, not the other speaker's."""
    messages = say(
        alice,
        [
            ("s1", "Noor: I started playing volleyball on the beach on Saturdays."),
            ("s1", "Iris: I went surfing early this morning before work."),
            ("s2", "Noor: The plumber fixed the sink at last."),
            ("s3", "Noor: My badminton team won the club match yesterday."),
        ],
    )
    Message.objects.filter(pk__in=[messages[0].pk, messages[2].pk, messages[3].pk]).update(name="Noor")
    Message.objects.filter(pk=messages[1].pk).update(name="Iris", role="assistant")
    found = texts(alice.search("What sports does Noor play?", limit=3, include_messages=True, min_relevance=0))
    assert found[:2] and {found[0], found[1]} == {messages[0].content, messages[3].content}, found


@pytest.mark.parametrize(
    ("query", "kinds"),
    [
        ("What books has Sam read this year?", ["media"]),
        ("Which cities did we visit on the trip?", ["place"]),
        ("你养过哪些宠物？", ["pet"]),
        ("她喜欢哪些运动？", ["activity"]),
        ("What time is the dentist appointment?", []),
        ("我的护照什么时候到期？", []),
    ],
)
def test_the_cue_is_the_kind_the_question_asks_for(query: str, kinds: list[str]) -> None:
    assert [c.name for c in asked_categories(query)] == kinds


@pytest.mark.parametrize(
    ("others", "query"),
    [(OTHER_EN, "What books have I read?"), (OTHER_EN, "Which pets do I have?")],
)
def test_a_list_question_with_nothing_of_its_kind_still_abstains(
    alice: Persona, settings: Any, others: list[str], query: str
) -> None:
    settings.SEARCH_MIN_RELEVANCE = calibration().min_relevance
    say(alice, [(f"s{i // 4}", text) for i, text in enumerate(others)])
    assert texts(alice.search(query, limit=10, include_messages=True)) == []
