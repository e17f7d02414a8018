"""Recall through POST /api/v1/users/{user}/search: each signal, Chinese and English, filters, bad input."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from conversations.models import Subject
from conversations.services import subject_get_or_create
from facts.embedding import EmbedderUnavailable, embed_texts, set_embedder
from facts.extraction.base import Candidate
from facts.models import Fact
from facts.retrieval.query import analyze
from facts.services import fact_insert
from facts.services.zh_vectors import facts_fill_zh
from tests.conftest import Persona
from tests.factories import MessageFactory, SessionFactory

FILLER_EN = [
    "I work as a nurse at the city hospital.",
    "My favourite colour is green.",
    "I moved to Shanghai in 2019.",
    "My sister lives in Hangzhou.",
    "I play tennis every Saturday morning.",
]
FILLER_ZH = ["我住在北京朝阳区。", "我喜欢喝美式咖啡。", "我对花生过敏。", "我在一家银行工作。", "我每周六去游泳。"]


class FailingEmbedder:
    model_name = "down"
    dimensions = 384

    def embed(self, texts: list[str]) -> list[list[float]]:
        raise EmbedderUnavailable("embedder is down")


@pytest.fixture
def embedder_down() -> Any:
    set_embedder(FailingEmbedder())
    yield
    set_embedder(None)


def subject_of(persona: Persona, external_id: str | None = None) -> Subject:
    return subject_get_or_create(tenant=persona.tenant, external_id=external_id or persona.name)


def add_fact(
    subject: Subject,
    text: str,
    *,
    type: str = "other",
    entities: list[dict[str, str]] | None = None,
    valid_from: dt.datetime | None = None,
    embed: bool = True,
    **fields: Any,
) -> Fact:
    """A fact stored as the pipeline stores it (search fields, embedding, a Chinese text's Chinese vector), then any
    extra fields set."""
    vector = embed_texts([text])[0] if embed else None
    candidate = Candidate(message_id=0, text=text, type=type, entities=entities or [], valid_from=valid_from)
    fact = fact_insert(subject=subject, candidate=candidate, embedding=vector)
    if embed:
        facts_fill_zh(fact_ids=[fact.pk])
    if fields:
        Fact.objects.filter(pk=fact.pk).update(**fields)
        fact.refresh_from_db()
    return fact


def tune(settings: Any, overrides: dict[str, Any]) -> None:
    """Override some of the search's tuning (SEARCH_TUNING, "stage.field" names) for this test."""
    settings.SEARCH_TUNING = {**settings.SEARCH_TUNING, **overrides}


def texts(response: Any) -> list[str]:
    assert response.status_code == 200, response.content
    return [r["text"] for r in response.json()["results"]]


def first(response: Any) -> dict[str, Any]:
    assert response.status_code == 200, response.content
    results = response.json()["results"]
    assert results, "expected at least one result"
    return results[0]


# ------------------------------------------------------------------------------------------- signals


def test_vector_finds_a_paraphrase_that_shares_no_word(alice: Persona) -> None:
    subject = subject_of(alice)
    for text in FILLER_EN:
        add_fact(subject, text)
    add_fact(subject, "I have a dog named Rex.", type="relationship")
    top = first(alice.search("Tell me about my puppy"))
    assert top["text"] == "I have a dog named Rex."
    assert top["matched_by"] == ["vector"]


def test_keyword_alone_answers_when_the_embedder_is_down(alice: Persona, embedder_down: None) -> None:
    subject = subject_of(alice)
    for text in FILLER_EN:
        add_fact(subject, text, embed=False)
    add_fact(subject, "My locker code is zorblax.", embed=False)
    response = alice.search("what was the zorblax thing")
    top = first(response)
    assert top["text"] == "My locker code is zorblax."
    assert top["matched_by"] == ["keyword"]
    assert all("vector" not in r["matched_by"] for r in response.json()["results"])


def test_entity_match_finds_a_fact_whose_text_does_not_name_it(alice: Persona, embedder_down: None) -> None:
    subject = subject_of(alice)
    for text in FILLER_EN:
        add_fact(subject, text, embed=False)
    add_fact(
        subject,
        "The parcel arrived damaged and the box was wet.",
        type="complaint",
        entities=[{"text": "ORD-88123", "kind": "order_id"}],
        embed=False,
    )
    top = first(alice.search("ORD-88123"))
    assert top["text"] == "The parcel arrived damaged and the box was wet."
    assert top["matched_by"] == ["entity"]


@pytest.mark.parametrize(
    ("query", "name"),
    [
        ("When is Priya's birthday?", "Priya"),
        ("When is Priya’s birthday?", "Priya"),
        ("When is James' birthday?", "James"),
    ],
)
def test_a_possessive_name_is_the_name(alice: Persona, embedder_down: None, query: str, name: str) -> None:
    """ "Priya's" names Priya: her fact is found through its entity, though its text does not name her."""
    from facts.retrieval.query import extract_names

    assert extract_names(query) == [name.lower()]
    subject = subject_of(alice)
    for text in FILLER_EN:
        add_fact(subject, text, embed=False)
    add_fact(subject, "Born on 3 March.", type="profile", entities=[{"text": name, "kind": "person"}], embed=False)
    top = first(alice.search(query))
    assert top["text"] == "Born on 3 March."
    assert top["matched_by"] == ["entity"]


@pytest.mark.parametrize("query", ["What did I do yesterday?", "我昨天干嘛了"])
def test_time_expression_finds_what_happened_then(alice: Persona, query: str) -> None:
    subject = subject_of(alice)
    long_ago = timezone.now() - dt.timedelta(days=60)
    for text in FILLER_EN:
        add_fact(subject, text, valid_from=long_ago)
    today = timezone.now().astimezone(dt.UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    add_fact(subject, "Went hiking at Fragrant Hills.", type="event", valid_from=today - dt.timedelta(hours=12))
    results = alice.search(query).json()["results"]
    assert [r["text"] for r in results] == ["Went hiking at Fragrant Hills."]
    assert results[0]["matched_by"] == ["time"]


@pytest.mark.parametrize(
    ("query", "since", "phrase", "words"),
    [
        # An explicit month or date wins over "recently", which then is no content word either.
        (
            "the bike I fixed recently, in March 2021?",
            dt.datetime(2021, 3, 1, tzinfo=dt.UTC),
            "march 2021",
            ["bike", "fixed"],
        ),
        (
            "which plant did I repot lately, 14 August 2020",
            dt.datetime(2020, 8, 14, tzinfo=dt.UTC),
            "14 august 2020",
            ["plant", "repot"],
        ),
        ("我最近在2024年7月修了什么", dt.datetime(2024, 7, 1, tzinfo=dt.UTC), "2024年7月", ["修"]),
        # Dates with ordinals, "of", no comma; a day without its year is the most recent such day.
        ("where was I on the 3rd of March 2021", dt.datetime(2021, 3, 3, tzinfo=dt.UTC), "3rd of march 2021", []),
        ("what did I cook on March 3 2021", dt.datetime(2021, 3, 3, tzinfo=dt.UTC), "march 3 2021", ["cook"]),
        ("what did I cook on May 2?", dt.datetime(2026, 5, 2, tzinfo=dt.UTC), "may 2", ["cook"]),
        # Without its year, an English month or day is a word too (the guessed year may be the wrong one).
        (
            "what did I cook on 14 December",
            dt.datetime(2025, 12, 14, tzinfo=dt.UTC),
            "14 december",
            ["cook", "14", "december"],
        ),
        ("where did we hike in June?", dt.datetime(2026, 6, 1, tzinfo=dt.UTC), "in june", ["hike", "june"]),
        ("12月14日我做了什么菜", dt.datetime(2025, 12, 14, tzinfo=dt.UTC), "12月14日", ["做", "菜"]),
        # Alone, "recently" is the last 30 days.
        ("what did I buy recently", dt.datetime(2026, 10, 31, tzinfo=dt.UTC), "recently", ["buy"]),
    ],
)
def test_the_most_specific_time_expression_is_the_time_range(
    query: str, since: dt.datetime, phrase: str, words: list[str]
) -> None:
    from facts.retrieval.query import analyze

    analysis = analyze(query, now=dt.datetime(2026, 11, 30, 12, tzinfo=dt.UTC))
    assert analysis.time_range is not None
    assert (analysis.time_range.since, analysis.time_range.phrase) == (since, phrase)
    assert analysis.words == words


def test_may_the_verb_is_no_date() -> None:
    from facts.retrieval.query import analyze

    assert analyze("you may 2 times a day", now=dt.datetime(2026, 11, 30, tzinfo=dt.UTC)).time_range is None


@pytest.mark.parametrize(
    ("query", "boost", "expected"),
    [
        ("What happened to my knee on 2 May 2024?", 1.0, "Knee sore again after the long run."),
        ("2024年5月2日我的膝盖怎么了", 1.0, "跑完步膝盖又酸了。"),
        ("What happened to my knee on 2 May 2024?", 0.0, "Something happened to my knee at football."),
    ],
)
def test_a_named_day_ranks_what_happened_that_day_first(
    alice: Persona, settings: Any, query: str, boost: float, expected: str
) -> None:
    """Of two matches, the one on the day the query names comes first, though the other matches the words
    better: with time switched off (weight and boost 0) the other comes first."""
    tune(settings, {"rerank.time_match": boost, "fusion.weight_time": 0.5 if boost else 0.0})
    subject = subject_of(alice)
    for text in FILLER_EN:
        add_fact(subject, text, valid_from=dt.datetime(2024, 1, 5, tzinfo=dt.UTC))
    day = dt.datetime(2024, 5, 2, 18, tzinfo=dt.UTC)
    add_fact(subject, "Something happened to my knee at football.", valid_from=dt.datetime(2024, 3, 10, tzinfo=dt.UTC))
    add_fact(subject, "膝盖在踢足球时出了点事。", valid_from=dt.datetime(2024, 3, 10, tzinfo=dt.UTC))
    add_fact(subject, "Knee sore again after the long run.", valid_from=day)
    add_fact(subject, "跑完步膝盖又酸了。", valid_from=day)
    add_fact(subject, "Bought new running shoes.", valid_from=day)
    results = alice.search(query, limit=3).json()["results"]
    assert results[0]["text"] == expected
    if boost:
        assert "time" in results[0]["matched_by"]


def test_the_nearest_in_a_time_range_compares_only_its_newest_facts(alice: Persona) -> None:
    """A wide range of a large subject costs a bounded scan: its `exact_max` newest facts."""
    from facts.retrieval.candidates.vector import VectorTuning, nearest_facts_in_range
    from facts.retrieval.scope import FactFilter

    subject = subject_of(alice)
    may = dt.datetime(2024, 5, 1, tzinfo=dt.UTC)
    knee = add_fact(subject, "My knee hurts after running.", valid_from=may + dt.timedelta(days=1))
    for day, text in [(10, "I bought a red kettle."), (20, "I painted the fence blue.")]:
        add_fact(subject, text, valid_from=may + dt.timedelta(days=day))
    before = add_fact(subject, "My knee hurt before May too.", valid_from=may - dt.timedelta(days=3))
    flt = FactFilter(subject_id=subject.pk, statuses=["active"], tiers=["active"])
    query = embed_texts(["knee pain"])[0]
    june = may + dt.timedelta(days=31)
    in_may = [pk for pk, _ in nearest_facts_in_range(flt, query, may, june, limit=5, tuning=VectorTuning())]
    assert in_may[0] == knee.pk
    assert before.pk not in in_may
    two = VectorTuning(exact_max=2)  # the knee fact is the oldest of the three in range: not compared
    assert knee.pk not in [pk for pk, _ in nearest_facts_in_range(flt, query, may, june, limit=5, tuning=two)]


def test_chinese_question_about_my_dog_finds_the_corgi(alice: Persona) -> None:
    subject = subject_of(alice)
    for text in FILLER_ZH:
        add_fact(subject, text)
    add_fact(subject, "我家的狗叫豆包，是一只柯基。", type="relationship", entities=[{"text": "豆包", "kind": "pet"}])
    top = first(alice.search("我的狗最近掉毛厉害怎么办"))
    assert "豆包" in top["text"]
    assert "keyword" in top["matched_by"]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_recently_beside_content_words_qualifies_them_and_pads_nothing(alice: Persona, lang: str) -> None:
    """ "最近" / "lately" in a question about something: that thing's recent facts, not every recent fact. Alone,
    "recently" still answers with what happened in the last 30 days."""
    subject = subject_of(alice)
    for text in FILLER_ZH + FILLER_EN:
        add_fact(subject, text)
    dog = "我家的狗叫豆包，是一只柯基。" if lang == "zh" else "My corgi Doubao sheds fur all over the sofa."
    add_fact(subject, dog, type="relationship", entities=[{"text": "豆包", "kind": "pet"}])
    query = "我的狗最近掉毛厉害怎么办" if lang == "zh" else "my corgi has been shedding a lot lately, what can I do"
    results = alice.search(query, limit=10).json()["results"]
    assert results and results[0]["text"] == dog
    assert all(r["matched_by"] != ["time"] for r in results), [(r["text"], r["matched_by"]) for r in results]
    alone = alice.search("what happened recently?", limit=20).json()["results"]
    assert len(alone) == len(FILLER_ZH + FILLER_EN) + 1 and {r["matched_by"][-1] for r in alone} == {"time"}


@pytest.mark.parametrize(
    ("turns", "query", "expected"),
    [
        (["我有一只柯基叫豆包。", "我住在北京朝阳区。"], "我的狗最近掉毛厉害怎么办", "豆包"),
        (
            ["I have a corgi named Biscuit.", "I work as a nurse."],
            "my dog keeps scratching, what should I do",
            "Biscuit",
        ),
        (["I live in Lisbon.", "I have a corgi named Biscuit."], "where is home for me these days", None),
        # "for a living" is a job, not a home
        (["I live in Lisbon.", "I work as a paramedic in Leeds."], "What do I do for a living?", "paramedic"),
        (["我住在北京朝阳区。", "我是一名药剂师。"], "我平时是做什么的？", "药剂师"),
        (["I live in Lisbon.", "Reach me on +44 7700 900555 from now on."], "How can my friends call me?", "7700"),
        (["我住在北京朝阳区。", "以后打我这个电话：186-1234-9876"], "我的手机是多少？", "186"),
    ],
)
def test_a_slot_the_query_names_finds_its_fact_at_cold_start(
    alice: Persona, turns: list[str], query: str, expected: str | None
) -> None:
    """Two facts (cold start), no shared word: the pet slot answers "我的狗" (MiniLM's Chinese vectors cannot)."""
    assert alice.ingest(*turns).status_code == 200
    found = texts(alice.search(query))
    if expected is None:
        assert found == []  # no slot word, no shared word: nothing, rather than padding
    else:
        assert found and expected in found[0]
        assert "entity" in first(alice.search(query))["matched_by"]


def test_chinese_keywords_find_chinese_facts(alice: Persona) -> None:
    subject = subject_of(alice)
    for text in FILLER_ZH:
        add_fact(subject, text)
    assert texts(alice.search("我对什么过敏？"))[0] == "我对花生过敏。"
    assert texts(alice.search("我住哪个区"))[0] == "我住在北京朝阳区。"
    # A compound in the question also looks up its parts (编程语言 -> 编程, 语言), which a fact may hold ("Go语言").
    words = analyze("我最常用的编程语言是哪种？", now=dt.datetime.now(dt.UTC)).words
    assert {"编程语言", "编程", "语言"} <= set(words)


def test_type_hint_prefers_a_preference_for_what_do_i_like(alice: Persona) -> None:
    subject = subject_of(alice)
    add_fact(subject, "I went to a coffee tasting event in March.", type="event")
    add_fact(subject, "I like oat milk in my coffee.", type="preference")
    for text in FILLER_EN:
        add_fact(subject, text)
    assert texts(alice.search("What do I like in my coffee?"))[0] == "I like oat milk in my coffee."


# ------------------------------------------------------------------------------------------- lifecycle


def test_superseded_facts_do_not_appear_unless_asked(alice: Persona) -> None:
    subject = subject_of(alice)
    for text in FILLER_EN:
        add_fact(subject, text)
    old = add_fact(subject, "I live in Chaoyang district.", type="profile", status="superseded")
    add_fact(subject, "I live in Haidian district.", type="profile")
    found = texts(alice.search("Which district do I live in?", limit=10))
    assert "I live in Haidian district." in found
    assert old.text not in found
    found_all = texts(alice.search("Which district do I live in?", limit=10, include_superseded=True))
    assert old.text in found_all


def test_archived_facts_only_with_include_archived_and_only_by_keyword(alice: Persona) -> None:
    subject = subject_of(alice)
    for text in FILLER_EN:
        add_fact(subject, text)
    add_fact(subject, "I asked about the refund policy for umbrellas.", type="inquiry", embed=False, tier="archived")
    assert "I asked about the refund policy for umbrellas." not in texts(alice.search("umbrellas refund"))
    response = alice.search("umbrellas refund", include_archived=True)
    top = first(response)
    assert top["text"] == "I asked about the refund policy for umbrellas."
    assert "vector" not in top["matched_by"]


def test_expired_facts_are_not_returned(alice: Persona) -> None:
    subject = subject_of(alice)
    add_fact(subject, "I am in Paris this week.", expires_at=timezone.now() - dt.timedelta(days=1))
    assert texts(alice.search("Paris")) == []


def test_types_and_time_filters(alice: Persona) -> None:
    subject = subject_of(alice)
    old = timezone.now() - dt.timedelta(days=400)
    add_fact(subject, "I love spicy Sichuan food.", type="preference", valid_from=old)
    add_fact(subject, "I ate spicy Sichuan food at a party.", type="event")
    for text in FILLER_EN:
        add_fact(subject, text)
    assert texts(alice.search("spicy Sichuan food", types=["preference"])) == ["I love spicy Sichuan food."]
    since = (timezone.now() - dt.timedelta(days=30)).isoformat()
    assert texts(alice.search("spicy Sichuan food", since=since)) == ["I ate spicy Sichuan food at a party."]
    until = (timezone.now() - dt.timedelta(days=30)).isoformat()
    assert texts(alice.search("spicy Sichuan food", until=until)) == ["I love spicy Sichuan food."]


def test_near_duplicates_collapse_into_one_result(alice: Persona) -> None:
    subject = subject_of(alice)
    add_fact(subject, "I love jazz.")
    add_fact(subject, "I love  jazz!")
    assert len(texts(alice.search("jazz", limit=10))) == 1


def test_cold_start_searches_by_meaning_and_pads_nothing(alice: Persona) -> None:
    """Two facts: the vector still runs (a puppy is a dog), and the relevance floor keeps the other fact out."""
    subject = subject_of(alice)
    add_fact(subject, "I have a dog named Rex.")
    add_fact(subject, "My favourite colour is green.")
    assert texts(alice.search("Tell me about my puppy")) == ["I have a dog named Rex."]
    assert texts(alice.search("Rex")) == ["I have a dog named Rex."]
    assert texts(alice.search("What is my blood type?")) == []


def test_same_query_same_answer(alice: Persona) -> None:
    subject = subject_of(alice)
    for text in [*FILLER_EN, "I have a dog named Rex.", "My dog Rex likes the beach."]:
        add_fact(subject, text)
    answers = [alice.search("my dog", limit=10).json()["results"] for _ in range(3)]
    assert answers[0] == answers[1] == answers[2]
    assert [r["score"] for r in answers[0]] == sorted((r["score"] for r in answers[0]), reverse=True)


# ------------------------------------------------------------------------------------------- sources, messages


def test_results_carry_their_source_turns(alice: Persona) -> None:
    response = alice.ingest(
        "I have a corgi called Doubao and she loves carrots.", external_id="turn-7", session="chat-1"
    )
    assert response.status_code == 200, response.content
    results = alice.search("What does my corgi love?").json()["results"]
    assert results
    sources = results[0]["sources"]
    assert sources and sources[0]["external_id"] == "turn-7"
    assert sources[0]["session_id"] == "chat-1"


def test_include_messages_searches_raw_turns(alice: Persona) -> None:
    subject = subject_of(alice)
    session = SessionFactory(subject=subject, tenant=subject.tenant, external_id="s9")
    message = MessageFactory(session=session, content="The zebra crossing near the office is repainted.")
    message.external_id = "m-1"
    message.save()
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE conversations_message SET search_vector = to_tsvector('english', content) WHERE id = %s",
            [message.pk],
        )
    assert texts(alice.search("zebra crossing")) == []
    top = first(alice.search("zebra crossing", include_messages=True))
    assert top["kind"] == "message"
    assert top["sources"][0]["external_id"] == "m-1"


def test_message_weight_scales_raw_turns_against_facts(alice: Persona, settings: Any) -> None:
    """The message weight (rerank.message) multiplies a raw turn's score, and only a turn's: a fact keeps its score."""
    subject = subject_of(alice)
    session = SessionFactory(subject=subject, tenant=subject.tenant, external_id="s-weight")
    message = MessageFactory(session=session, content="The harbour ferry to the island leaves at noon on Sundays.")
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE conversations_message SET search_vector = to_tsvector('english', content) WHERE id = %s",
            [message.pk],
        )
    add_fact(subject, "The harbour ferry is always late.", embed=False)

    def scores(weight: float) -> list[tuple[str, float]]:
        tune(settings, {"rerank.message": weight})
        response = alice.search("harbour ferry", include_messages=True)
        assert response.status_code == 200, response.content
        return [(r["kind"], r["score"]) for r in response.json()["results"]]

    even, weighted = dict(scores(1.0)), scores(3.0)
    assert set(even) == {"fact", "message"}
    assert [kind for kind, _ in weighted][0] == "message"
    assert dict(weighted)["fact"] == pytest.approx(even["fact"])
    assert dict(weighted)["message"] == pytest.approx(3.0 * even["message"], rel=1e-4)


@pytest.mark.parametrize(
    ("one_turn", "other_turn", "query"),
    [
        (
            [
                "I went sailing on Lake Tai in May.",
                "Sailing on Lake Tai took the whole day.",
                "The sailing boat on Lake Tai was red.",
            ],
            "My brother taught me sailing when I was ten.",
            "sailing on Lake Tai",
        ),
        (["我五月在太湖划船。", "在太湖划船花了一整天。", "太湖上的划船很红。"], "我哥哥十岁时教我划船。", "太湖划船"),
    ],
)
def test_top_results_cover_more_turns_than_one_turns_restatements(
    alice: Persona, settings: Any, one_turn: list[str], other_turn: str, query: str
) -> None:
    """Three facts drawn from one turn do not fill the top slots ahead of a fact from another turn."""
    from facts.models import FactSource

    subject = subject_of(alice)
    session = SessionFactory(subject=subject, tenant=subject.tenant, external_id="s-div")
    turn_a = MessageFactory(session=session, content=" ".join(one_turn))
    turn_b = MessageFactory(session=session, content=other_turn)
    for text in FILLER_EN + FILLER_ZH:
        add_fact(subject, text)
    for text in one_turn:
        FactSource.objects.create(fact=add_fact(subject, text, type="event"), message=turn_a)
    FactSource.objects.create(fact=add_fact(subject, other_turn, type="event"), message=turn_b)

    def top_two_turns() -> list[int]:
        response = alice.search(query, limit=2)
        assert response.status_code == 200, response.content
        return [r["sources"][0]["message_id"] for r in response.json()["results"]]

    assert sorted(top_two_turns()) == sorted([turn_a.pk, turn_b.pk])
    tune(settings, {"collapse.diversity_penalty": 1.0})  # diversity off: the turn restated three times takes both slots
    assert top_two_turns() == [turn_a.pk, turn_a.pk]


@pytest.mark.parametrize(
    ("question", "answer", "query"),
    [
        (
            "How did the kids take the news about moving to Denver?",
            "They cried at first, now they are thrilled about their new school.",
            "how did they take the news about moving to Denver",
        ),
        ("搬到成都以后你们适应得怎么样？", "一开始哭了，现在交到了新朋友。", "搬到成都以后适应得怎么样"),
    ],
)
def test_the_answer_to_a_matching_question_is_found_through_it(
    alice: Persona, settings: Any, embedder_down: None, question: str, answer: str, query: str
) -> None:
    """The answer shares no word with the query; the question before it does (reply context)."""
    from facts.models import FactSource

    subject = subject_of(alice)
    session = SessionFactory(subject=subject, tenant=subject.tenant, external_id="s-reply")
    asked = MessageFactory(session=session, role="assistant", content=question, external_id="q-1")
    answered = MessageFactory(session=session, role="user", content=answer, external_id="a-1")
    MessageFactory(session=session, role="assistant", content="I see.", external_id="q-2")
    for text in FILLER_EN + FILLER_ZH:
        add_fact(subject, text, embed=False)
    FactSource.objects.create(fact=add_fact(subject, question, embed=False), message=asked)
    FactSource.objects.create(fact=add_fact(subject, answer, embed=False), message=answered)

    results = alice.search(query).json()["results"]
    assert [r["text"] for r in results[:2]] == [question, answer]
    assert results[1]["sources"][0]["external_id"] == "a-1"
    assert results[1]["matched_by"] == results[0]["matched_by"]  # found through the question's signals
    tune(settings, {"links.reply_factor": 0.0})  # reply context off: the answer is not found
    assert answer not in texts(alice.search(query))


def test_reply_context_needs_a_question_and_another_speaker(alice: Persona, settings: Any, embedder_down: None) -> None:
    from facts.models import FactSource

    tune(settings, {"links.next_factor": 0.0})  # continuation (the speaker's next turn) is tested apart
    subject = subject_of(alice)
    session = SessionFactory(subject=subject, tenant=subject.tenant, external_id="s-reply-2")
    statement = MessageFactory(session=session, role="assistant", content="The news about Denver is out.")
    after_statement = MessageFactory(session=session, role="user", content="They cried at first.")
    own = MessageFactory(session=session, role="user", content="Did I mention the Denver move?")
    same_speaker = MessageFactory(session=session, role="user", content="Now they are thrilled.")
    for text in FILLER_EN:
        add_fact(subject, text, embed=False)
    for message in (statement, after_statement, own, same_speaker):
        FactSource.objects.create(fact=add_fact(subject, message.content, embed=False), message=message)
    found = texts(alice.search("Denver", include_messages=True))
    assert "The news about Denver is out." in found and "Did I mention the Denver move?" in found
    assert "They cried at first." not in found and "Now they are thrilled." not in found


@pytest.mark.parametrize(
    ("setup", "reaction", "follow_up", "query"),
    [
        (
            "Once the season is over I need a new routine.",
            "Any plans yet?",
            "Coaching kids and opening a sports shop.",
            "what will I do once the season is over",
        ),
        (
            "赛季结束以后的生活该好好想想了。",
            "有什么打算吗？",
            "想去教小朋友打球，再开一家体育用品店。",
            "赛季结束以后做什么",
        ),
    ],
)
def test_a_speakers_next_turn_is_found_through_the_turn_before(
    alice: Persona, settings: Any, embedder_down: None, setup: str, reaction: str, follow_up: str, query: str
) -> None:
    """The follow-up shares no word with the query; the same speaker's turn before it does (continuation)."""
    from facts.models import FactSource

    subject = subject_of(alice)
    session = SessionFactory(subject=subject, tenant=subject.tenant, external_id="s-next")
    said = MessageFactory(session=session, role="user", content=setup, external_id="u-1")
    MessageFactory(session=session, role="assistant", content=reaction, external_id="a-1")
    continued = MessageFactory(session=session, role="user", content=follow_up, external_id="u-2")
    MessageFactory(session=session, role="assistant", content="Sounds good.", external_id="a-2")
    later = MessageFactory(session=session, role="user", content="My sister lives in Lyon.", external_id="u-3")
    for text in FILLER_EN + FILLER_ZH:
        add_fact(subject, text, embed=False)
    for message in (said, continued, later):
        FactSource.objects.create(fact=add_fact(subject, message.content, embed=False), message=message)

    results = alice.search(query).json()["results"]
    assert [r["text"] for r in results[:2]] == [setup, follow_up]
    assert results[1]["sources"][0]["external_id"] == "u-2"
    assert results[1]["score"] < results[0]["score"]
    assert "My sister lives in Lyon." not in texts(alice.search(query))  # three turns on: not linked
    tune(settings, {"links.next_factor": 0.0})  # continuation off: the follow-up is not found
    assert follow_up not in texts(alice.search(query))


# ------------------------------------------------------------------------------------------- access, isolation


@pytest.fixture
def rex(alice: Persona, monkeypatch: pytest.MonkeyPatch) -> Fact:
    """Alice's fact about her dog, with access records written as searches make them (eager tasks)."""
    from celery import current_app

    monkeypatch.setitem(current_app.conf, "task_always_eager", True)
    return add_fact(subject_of(alice), "I have a dog named Rex.")


def test_search_counts_access_for_the_reading_key(
    alice: Persona, rex: Fact, django_capture_on_commit_callbacks: Any
) -> None:
    from facts.models import AccessLog, FactAccess, SearchCall

    subject, fact = subject_of(alice), rex
    with django_capture_on_commit_callbacks(execute=True):
        response = alice.search("Rex")
    assert first(response)["id"] == fact.pk
    access = FactAccess.objects.get(fact=fact)
    assert access.access_count == 1
    assert access.last_accessed_at is not None
    log = AccessLog.objects.get(subject=subject)
    assert log.operation == "search"
    assert log.fact_ids == [fact.pk]
    assert log.api_key is not None and log.api_key.name == "alice"
    call = SearchCall.objects.get(subject=subject)
    assert call.result_count == 1
    assert "keyword" in call.matched_by


def test_the_read_is_counted_once_the_answer_is_sent(
    alice: Persona, rex: Fact, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    """The access record is queued after the answer is rendered and written (when the server closes the
    response), not in the search's critical path; a failing job there is logged and the answer stands."""
    from drf_orjson_renderer.renderers import ORJSONRenderer

    from facts.models import FactAccess
    from facts.retrieval import access

    order: list[str] = []
    real_render, real_schedule = ORJSONRenderer.render, access.facts_schedule_access

    def render(self: ORJSONRenderer, *args: Any, **kwargs: Any) -> bytes:
        order.append("render")
        return real_render(self, *args, **kwargs)

    def schedule(**kwargs: Any) -> None:
        order.append("count")
        real_schedule(**kwargs)

    monkeypatch.setattr(ORJSONRenderer, "render", render)
    monkeypatch.setattr(access, "facts_schedule_access", schedule)
    with django_capture_on_commit_callbacks(execute=True):
        assert first(alice.search("Rex"))["id"] == rex.pk
    assert order == ["render", "count"] and FactAccess.objects.get(fact=rex).access_count == 1

    def failing(**kwargs: Any) -> None:
        raise RuntimeError("broker gone")

    monkeypatch.setattr(access, "facts_schedule_access", failing)
    assert first(alice.search("Rex"))["id"] == rex.pk


def test_each_search_counts_again_and_the_fact_shows_it(
    alice: Persona, rex: Fact, django_capture_on_commit_callbacks: Any
) -> None:
    from facts.models import FactAccess

    fact = rex
    unread = alice.get(f"facts/{fact.pk}").json()
    assert (unread["access_count"], unread["last_accessed_at"]) == (0, None)
    assert not FactAccess.objects.filter(fact=fact).exists()

    with django_capture_on_commit_callbacks(execute=True):
        assert first(alice.search("Rex"))["id"] == fact.pk
    once = FactAccess.objects.get(fact=fact)
    with django_capture_on_commit_callbacks(execute=True):
        assert first(alice.search("dog Rex"))["id"] == fact.pk
    twice = FactAccess.objects.get(fact=fact)
    assert (once.access_count, twice.access_count) == (1, 2)
    assert once.last_accessed_at is not None and twice.last_accessed_at is not None
    assert twice.last_accessed_at >= once.last_accessed_at

    shown = alice.get(f"facts/{fact.pk}").json()
    assert shown["access_count"] == 2
    assert shown["last_accessed_at"] is not None
    listed = {f["id"]: f for f in alice.get("facts").json()["results"]}
    assert listed[fact.pk]["access_count"] == 2


def test_record_access_ignores_facts_of_another_subject(alice: Persona, bob: Persona) -> None:
    from facts.models import FactAccess
    from facts.retrieval.access import AccessRecord, facts_record_access

    alice_subject, bob_subject = subject_of(alice), subject_of(bob)
    alices = add_fact(alice_subject, "I have a dog named Rex.", embed=False)
    bobs = add_fact(bob_subject, "I have a cat named Tom.", embed=False)
    facts_record_access(
        record=AccessRecord(
            subject_id=bob_subject.pk, tenant_id=bob_subject.tenant_id, fact_ids=[alices.pk, bobs.pk], api_key_id=None
        )
    )
    assert not FactAccess.objects.filter(fact=alices).exists()
    assert FactAccess.objects.get(fact=bobs).access_count == 1


def test_fact_list_reads_the_counters_in_the_same_query(alice: Persona, django_assert_num_queries: Any) -> None:
    from facts.apis.serializers import facts_payload
    from facts.models import FactAccess
    from facts.selectors import fact_list

    subject = subject_of(alice)
    facts = [add_fact(subject, f"I have visited city number {n}.", embed=False) for n in range(5)]
    FactAccess.objects.create(fact=facts[0], access_count=3)
    with django_assert_num_queries(2):  # the facts with their counters, then their sources
        rows = facts_payload(list(fact_list(subject=subject)))
    counts = {row["id"]: row["access_count"] for row in rows}
    assert counts == {f.pk: (3 if f == facts[0] else 0) for f in facts}


def test_another_tenant_gets_404(alice: Persona, carol: Persona) -> None:
    add_fact(subject_of(alice), "I have a dog named Rex.")
    response = carol.search("Rex", user="alice")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_a_subject_never_sees_another_subjects_facts(alice: Persona, bob: Persona) -> None:
    add_fact(subject_of(alice), "I have a dog named Rex.")
    subject_of(bob)
    assert texts(bob.search("Rex")) == []


# ------------------------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "body",
    [
        {"query": ""},
        {"query": "   "},
        {"query": "x" * 10_000},
        {"query": "dog", "limit": 0},
        {"query": "dog", "limit": 999},
        {"query": "dog", "limit": "many"},
        {"query": "dog", "since": "last tuesday-ish"},
        {"query": "dog", "until": "2024-13-45"},
        {"query": "dog", "since": "2025-01-02T00:00:00Z", "until": "2025-01-01T00:00:00Z"},
        {"query": "dog", "types": ["feelings"]},
        {"query": "dog", "types": "preference"},
        {"query": ["dog"]},
        {},
    ],
)
def test_bad_input_is_a_clear_400(alice: Persona, body: dict[str, Any]) -> None:
    subject_of(alice)
    response = alice.client.post("/api/v1/users/alice/search", body, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["error"]["code"] == "invalid"


@pytest.mark.parametrize("query", ["?!…。", "的了吗", "the a of", "🙂🙂", "%_\\'\"", "a:* & !b | (c"])
def test_absurd_queries_give_an_empty_or_valid_list(alice: Persona, query: str) -> None:
    subject = subject_of(alice)
    for text in FILLER_EN:
        add_fact(subject, text)
    response = alice.search(query)
    assert response.status_code == 200, response.content
    assert isinstance(response.json()["results"], list)


def test_unknown_user_is_404(alice: Persona) -> None:
    assert alice.search("dog", user="nobody").status_code == 404


# ------------------------------------------------------------------------------ large subjects


LARGE_SUBJECT = [
    *FILLER_EN,
    *FILLER_ZH,
    "I have a dog named Rex.",
    "My cat sleeps on the windowsill all day.",
    "I drive a blue hatchback to work.",
    "I am learning to play the cello.",
    "My brother is an architect in Berlin.",
    "I am allergic to shellfish.",
    "I run a marathon every autumn.",
    "My daughter is starting primary school.",
    "I prefer tea over coffee in the evening.",
    "We are planning a trip to Iceland next summer.",
    "I volunteer at the animal shelter on Sundays.",
    "My favourite book is about sailing around the world.",
    "I grow tomatoes on my balcony.",
    "My laptop battery died last week.",
    "I am saving money to buy a flat.",
]


def test_a_large_subject_searches_binary_quantised_vectors_then_exact_cosine(alice: Persona, settings: Any) -> None:
    """Above `exact_max` facts the first stage ranks by Hamming distance of the stored bit vectors (kept by
    PostgreSQL for every fact), the second by exact cosine: the same nearest facts as the exact scan."""
    from django.test.utils import CaptureQueriesContext

    from facts.retrieval.candidates.vector import VectorTuning, nearest_facts
    from facts.retrieval.scope import FactFilter

    subject = subject_of(alice)
    for text in LARGE_SUBJECT:
        add_fact(subject, text)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*), count(embedding_bits), "
            "bool_and(embedding_bits = binary_quantize(embedding)::bit(384)) FROM facts_fact WHERE subject_id = %s",
            [subject.pk],
        )
        assert cursor.fetchone() == (len(LARGE_SUBJECT), len(LARGE_SUBJECT), True)
    flt = FactFilter(subject_id=subject.pk, statuses=["active", "conflicted"], tiers=["active"])
    total = len(LARGE_SUBJECT)
    one_stage, two_stages = (
        VectorTuning(exact_max=10_000, prefilter_depth=12),
        VectorTuning(exact_max=5, prefilter_depth=12),
    )
    for query in ["Tell me about my puppy", "what pets do I have", "我对什么过敏", "holiday plans"]:
        vector = embed_texts([query])[0]
        with CaptureQueriesContext(connection) as exact_sql:
            exact = nearest_facts(flt, vector, limit=3, total=total, tuning=one_stage)
        with CaptureQueriesContext(connection) as staged_sql:
            staged = nearest_facts(flt, vector, limit=3, total=total, tuning=two_stages)
        assert "embedding_bits" not in exact_sql[0]["sql"] and "embedding_bits" in staged_sql[0]["sql"]
        assert [pk for pk, _ in staged] == [pk for pk, _ in exact]
        assert [round(s, 5) for _, s in staged] == [round(s, 5) for _, s in exact]
    # Through the API: a paraphrase only the vector finds; a superseded fact stays out of the first stage too.
    # A first stage of 15 (the candidate pool, 3 x the limit) out of 25 facts.
    tune(settings, {"vector.exact_max": 5, "vector.prefilter_depth": 12, "scope.candidates": 5})
    rex = Fact.objects.get(subject=subject, text="I have a dog named Rex.")
    with CaptureQueriesContext(connection) as api_sql:
        top = first(alice.search("Tell me about my puppy"))
    assert top["text"] == rex.text and top["matched_by"] == ["vector"]
    assert any("embedding_bits" in q["sql"] for q in api_sql)
    Fact.objects.filter(pk=rex.pk).update(status="superseded")
    assert rex.text not in texts(alice.search("Tell me about my puppy"))


def _bm25_reference(flags: list[list[bool]], lengths: list[int], total: int) -> list[float]:
    """BM25 with binary term frequency over per-row term flags, df from the rows matching any term: the Python
    the search used before it ranked in SQL, kept here as the reference the SQL must equal."""
    import math

    if not flags:
        return []
    k1, b = 1.2, 0.75  # KeywordTuning's bm25_k1, bm25_b
    df = [sum(1 for row in flags if row[i]) for i in range(len(flags[0]))]
    total = max(total, len(flags))
    idf = [math.log(1 + (total - d + 0.5) / (d + 0.5)) for d in df]
    avg = (sum(lengths) / len(lengths)) or 1.0
    norms = [(k1 + 1) / (1 + k1 * (1 - b + b * (length or 1) / avg)) for length in lengths]
    return [sum(idf[i] * norm for i in range(len(row)) if row[i]) for row, norm in zip(flags, norms, strict=True)]


@pytest.mark.parametrize("scan_max", [20000, 0], ids=["row-by-row", "gin-index"])
def test_keyword_ranking_in_sql_is_the_bm25_of_the_reference(alice: Persona, settings: Any, scan_max: int) -> None:
    """BM25 is computed in PostgreSQL (only the best rows come back); it must equal `bm25` over the flags, both
    when a small subject's rows are matched one by one and when a large one's go through the GIN index."""
    from django.test.utils import CaptureQueriesContext

    from facts.retrieval.candidates.keyword import KeywordTuning, keyword_facts, term_predicates
    from facts.retrieval.scope import FactFilter, fetch

    subject = subject_of(alice)
    for text in [*LARGE_SUBJECT, "My dog Rex likes the tennis ball.", "我的狗喜欢在北京的公园里跑。"]:
        add_fact(subject, text, embed=False)
    flt = FactFilter(subject_id=subject.pk, statuses=["active", "conflicted"], tiers=["active"])
    for terms in (["dog", "tennis", "rex"], ["北京", "狗"], ["school", "daughter", "北京"], ["nothingmatches"]):
        where, params = flt.sql()
        tq, tq_params, preds, pred_params = term_predicates(terms, text_column="text")
        rows = fetch(
            f"SELECT id, GREATEST(length(search_vector), 1), ARRAY[{', '.join(preds)}] FROM facts_fact, {tq} "
            f"WHERE {where} AND ({' OR '.join(preds)}) ORDER BY id",
            [*pred_params, *tq_params, *params, *pred_params],
        )
        total = 40  # more than the subject holds, as a cached count may be
        scores = _bm25_reference([list(r[2]) for r in rows], [int(r[1]) for r in rows], total)
        reference = sorted(zip((int(r[0]) for r in rows), scores, strict=True), key=lambda x: (-x[1], x[0]))[:3]
        with CaptureQueriesContext(connection) as sql:
            got = keyword_facts(flt, terms, limit=3, total=total, tuning=KeywordTuning(scan_max=scan_max))
        assert ("ts_match_vq" in sql[0]["sql"]) is (scan_max > 0 and terms != ["北京", "狗"])
        assert [pk for pk, _ in got] == [pk for pk, _ in reference], terms
        assert [s for _, s in got] == pytest.approx([s for _, s in reference]), terms
        assert bool(got) is (terms != ["nothingmatches"])


def _entity_reference(flt: Any, entities: list[str], limit: int, total: int) -> list[tuple[int, float]]:
    """The former Python ranking of entity matches, kept as the reference for the SQL one."""
    from facts.retrieval.scope import fetch

    where, params = flt.sql()
    rows = fetch(
        f"SELECT id, entity_keys, keywords, lower(subject_entity), lower(object_value) FROM facts_fact "
        f"WHERE {where} AND (entity_keys && %s::varchar[] OR keywords && %s::varchar[] "
        "OR lower(subject_entity) = ANY(%s) OR lower(object_value) = ANY(%s)) ORDER BY id",
        [*params, entities, entities, entities, entities],
    )
    flags = [[e in (r[1] or []) or e in (r[2] or []) or e == r[3] or e == r[4] for e in entities] for r in rows]
    keep = [i for i in range(len(entities)) if sum(1 for f in flags if f[i]) <= max(3, 0.05 * max(total, 1))]
    pairs = [(r, [f[i] for i in keep]) for r, f in zip(rows, flags, strict=True)]
    pairs = [(r, f) for r, f in pairs if any(f)]
    scores = _bm25_reference([f for _, f in pairs], [1] * len(pairs), total)
    ranked = sorted(zip((int(r[0]) for r, _ in pairs), scores, strict=True), key=lambda x: (-x[1], x[0]))
    return [(pk, score) for pk, score in ranked[:limit] if score > 0]


def test_entity_ranking_in_sql_is_the_reference_ranking(alice: Persona) -> None:
    """Entity matches are ranked in PostgreSQL; a name on most facts (a speaker) is dropped as before."""
    from facts.retrieval.candidates.entity import EntityTuning, entity_facts
    from facts.retrieval.scope import FactFilter

    subject = subject_of(alice)
    for i, text in enumerate(LARGE_SUBJECT):
        entities = [{"text": "Priya", "type": "person"}]  # on every fact: tells nothing apart
        if "dog" in text or "cat" in text:
            entities.append({"text": "Rex" if "dog" in text else "Mimi", "type": "pet"})
        if i % 7 == 0:
            entities.append({"text": "Berlin", "type": "place"})
        add_fact(subject, text, entities=entities, embed=False)
    flt = FactFilter(subject_id=subject.pk, statuses=["active", "conflicted"], tiers=["active"])
    total, tuning = len(LARGE_SUBJECT), EntityTuning()
    for entities in (["rex"], ["priya"], ["priya", "rex", "berlin"], ["mimi", "berlin"], ["tennis"], ["nobody"]):
        got = entity_facts(flt, entities, limit=4, total=total, tuning=tuning)
        reference = _entity_reference(flt, entities, 4, total)
        assert [pk for pk, _ in got] == [pk for pk, _ in reference], entities
        assert [s for _, s in got] == pytest.approx([s for _, s in reference]), entities
    assert entity_facts(flt, ["priya"], limit=4, total=total, tuning=tuning) == []
    assert entity_facts(flt, ["rex"], limit=4, total=total, tuning=tuning)


def test_an_ordinary_fact_row_stays_whole_in_its_page(alice: Persona) -> None:
    """A fact row (~2.4 kB with its inline vector) must not send its other columns to the TOAST table: every
    search reads them back (facts migration 0005, toast_tuple_target)."""
    subject = subject_of(alice)
    text = "My sister Priya moved to Hangzhou last spring and she now teaches piano at a music school near the lake."
    entities = [{"text": t, "type": "other"} for t in ("Priya", "Hangzhou", "piano", "music school", "the lake")]
    for n in range(5):
        add_fact(subject, f"{text} ({n})", entities=entities)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT min(pg_column_size(f.*)), (SELECT reltoastrelid::regclass::text FROM pg_class "
            "WHERE relname = 'facts_fact') FROM facts_fact f WHERE subject_id = %s",
            [subject.pk],
        )
        row_size, toast_table = cursor.fetchone()
        cursor.execute(f"SELECT count(*) FROM {toast_table}")
        assert row_size > 2100 and cursor.fetchone()[0] == 0


def test_the_search_payload_is_what_the_output_serializer_documents(alice: Persona) -> None:
    """The API builds its answer without running OutputSerializer (1.6 ms for 10 results) and renders it with
    orjson: the bytes sent must be those the serializer and DRF's own JSON renderer would give, facts and
    messages, with and without sources and validity, Chinese text unescaped."""
    from drf_orjson_renderer.renderers import ORJSONRenderer
    from rest_framework.renderers import JSONRenderer

    from facts.apis.search import SearchApi, search_payload
    from facts.selectors import fact_search

    assert alice.ingest("I have a corgi named Biscuit.", "我是市医院的护士。").status_code == 200
    subject = subject_of(alice)
    add_fact(
        subject, "My corgi Biscuit is afraid of thunder.", valid_from=dt.datetime(2024, 5, 2, 9, 30, tzinfo=dt.UTC)
    )
    beach = add_fact(subject, "Biscuit the corgi loves the beach.")
    Fact.objects.filter(pk=beach.pk).update(valid_from=None)
    # A turn no fact was taken from (the turns the facts come from fold into them).
    turn = MessageFactory(session=SessionFactory(subject=subject, tenant=subject.tenant), content="护士 corgi Biscuit?")
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE conversations_message SET search_vector = to_tsvector('english', content) WHERE id = %s",
            [turn.pk],
        )
    hits, took_ms = fact_search(
        subject=subject, query="corgi Biscuit 护士", limit=10, include_messages=True, min_relevance=0
    )
    kinds = {hit.kind for hit in hits}
    assert kinds == {"fact", "message"} and any(h.sources for h in hits) and any(not h.sources for h in hits)
    assert {h.valid_from is None for h in hits} == {True, False}
    documented = SearchApi.OutputSerializer({"results": [h.__dict__ for h in hits], "took_ms": round(took_ms, 2)})
    sent = ORJSONRenderer().render(search_payload(hits, took_ms))
    assert sent == JSONRenderer().render(documented.data) and "护士".encode() in sent
