"""A held subject's messages answered from memory: PostgreSQL's answers, exactly, and current after every write.

These tests commit (transactional_db): memory serves only searches outside a transaction. Messages are written
as the pipeline writes them (content, then search vector and embedding at extraction's end), in English and
Chinese; the keyword and vector signals over them, their rows and whole searches with include_messages are
compared with PostgreSQL's, after inserts and deletions (a message deleted, the subject erased), and another
tenant's messages never appear.
"""

from __future__ import annotations

import datetime as dt
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from conversations.models import Message, Subject
from conversations.services import MessageFinish, messages_claim, messages_finish
from facts.embedding import embed_texts
from facts.models import MessageChange
from facts.retrieval import held_messages, vector_cache
from facts.retrieval.answerable import vocabulary
from facts.retrieval.candidates.keyword import keyword_messages
from facts.retrieval.candidates.vector import Unfocused, nearest_messages
from facts.retrieval.config import search_config
from facts.retrieval.rows import Rows, message_rows
from facts.retrieval.scope import SEARCHED_STATUSES, SEARCHED_TIERS, FactFilter
from facts.retrieval.search import run_search
from facts.services.turn_keywords import turn_keywords_backfill
from facts.text import keywords, search_text
from policies.portal.erasure import subject_erase
from policies.portal.verify import erasure_verify
from tests.conftest import Persona
from tests.factories import MessageFactory, SessionFactory
from tests.facts.test_search import LARGE_SUBJECT, add_fact, subject_of, tune

pytestmark = pytest.mark.django_db(transaction=True)

TURNS = [
    "My dog Rex chased the postman again this morning.",
    "We moved to Lisbon last spring and I love the tram.",
    "I practise the saxophone every evening after work.",
    "Do you know a good vet near the city centre?",
    "我对花生过敏，所以不吃沙爹。",
    "我们上个月搬到了杭州，住在西湖附近。",
    "周末我喜欢去茶园喝龙井茶。",
    "The dog needs a new lead, the old one broke.",
    "I live in Porto now, not Lisbon.",
    "我的猫叫年糕，今年三岁。",
]
QUERIES = ["Tell me about my dog", "which city do I live in", "我对什么过敏", "我住在哪个城市", "music I practise",
           "猫", "tea garden weekend", "vet"]  # fmt: skip
TERMS = [["dog"], ["live", "city"], ["saxophone"], ["lisbon"], ["porto"], ["过敏"], ["杭州"], ["茶", "tea"], ["my"]]
NOW = dt.datetime(2026, 12, 2, 12, tzinfo=dt.UTC)


@pytest.fixture(autouse=True)
def _small_thresholds(settings: Any) -> Any:
    """A stale subject is not read again for a minute here, so a search that did not refresh shows as None."""
    tune(settings, {"scope.count_cache_seconds": 0, "cache.load_pause_seconds": 60})
    vector_cache.clear()
    yield
    vector_cache.clear()
    vector_cache.close_loader_connection()


def write_turns(subject: Subject, turns: list[str], session: str = "s1", *, finish: bool = True) -> list[Message]:
    """Turns stored, then (with `finish`) given their search vector and embedding as extraction does."""
    sess = SessionFactory(subject=subject, tenant=subject.tenant, external_id=f"{session}-{subject.pk}")
    messages = [
        MessageFactory(session=sess, content=text, external_id=f"{session}-{i}") for i, text in enumerate(turns)
    ]
    if finish:
        now = dt.datetime.now(dt.UTC)
        messages_finish(
            finished=[
                MessageFinish(message_id=m.pk, state="done", finished_at=now, error="", extractor="rules",
                              gate_decision="skip", gate_reason="test", search_text=search_text(m.content),
                              embedding=vector, keywords=keywords(m.content))
                for m, vector in zip(messages, embed_texts(turns), strict=True)
            ]
        )  # fmt: skip
    return messages


def held_subject(persona: Persona, name: str = "") -> Subject:
    subject = subject_of(persona, name or None)
    for text in LARGE_SUBJECT[:12]:
        add_fact(subject, text)
    write_turns(subject, TURNS)
    write_turns(subject, TURNS[:3], "s2", finish=False)  # extraction has not reached these yet
    return subject


def _current(subject: Subject) -> held_messages.Held | None:
    return held_messages.current(subject.pk, search_config().cache)


def _held(subject: Subject) -> held_messages.Held:
    assert _current(subject) is None
    vector_cache.loads_wait()
    held = _current(subject)
    assert held is not None
    return held


def _agrees(subject: Subject, held: held_messages.Held) -> None:
    """Memory's keyword and vector signals and rows over the messages are PostgreSQL's."""
    config = search_config()
    assert sorted(held.rows) == sorted(Message.objects.filter(subject=subject).values_list("pk", flat=True))
    for terms in TERMS:
        kw = dict(limit=30, since=None, until=None, tuning=config.keyword)
        assert keyword_messages(subject.pk, terms, **kw, held=held) == keyword_messages(subject.pk, terms, **kw)
    for query in QUERIES:
        vector, other = embed_texts([query, "an unrelated question about the weather"])
        raw_mem, raw_sql = Unfocused(other), Unfocused(other)
        rows_mem, rows_sql = Rows(), Rows()
        kw = dict(limit=8, since=None, until=None, tuning=config.vector)
        mem = nearest_messages(subject.pk, vector, **kw, rows=rows_mem, unfocused=raw_mem, held=held)
        sql = nearest_messages(subject.pk, vector, **kw, rows=rows_sql, unfocused=raw_sql)
        assert [pk for pk, _ in mem] == [pk for pk, _ in sql]
        assert [s for _, s in mem] == pytest.approx([s for _, s in sql], abs=1e-5)
        assert raw_mem.similarity == pytest.approx(raw_sql.similarity, abs=1e-5)
        assert rows_mem.messages == rows_sql.messages
    ids = sorted(held.rows)
    assert held.message_rows(ids) == message_rows(ids)


def _answers(subject: Subject, query: str, hold: bool, settings: Any) -> list[tuple[Any, ...]]:
    tune(settings, {"scope.count_cache_seconds": 0, "cache.load_pause_seconds": 60, "cache.hold_messages": hold})
    hits = run_search(subject_id=subject.pk, query=query, limit=8, include_messages=True, now=NOW).hits
    return [(h.kind, h.id, round(h.score, 6), round(h.relevance or 0.0, 6), h.text, h.sources) for h in hits]


def test_memory_ranks_and_reads_messages_as_postgresql(alice: Persona) -> None:
    subject = held_subject(alice)
    _agrees(subject, _held(subject))


def test_searches_with_messages_answer_the_same_from_memory(alice: Persona, settings: Any) -> None:
    subject = held_subject(alice)
    _held(subject)
    vector_cache.current(subject.pk, search_config().cache)
    vector_cache.loads_wait()
    kinds = set()
    for query in QUERIES:
        from_sql = _answers(subject, query, False, settings)
        assert held_messages.current(subject.pk, search_config().cache) is not None
        assert _answers(subject, query, True, settings) == from_sql
        kinds |= {kind for kind, *_ in from_sql}
    assert kinds == {"fact", "message"}


def test_turns_stored_without_their_words_answer_the_same(alice: Persona, settings: Any) -> None:
    """Turns stored before extraction wrote their content words (or not extracted yet) are cut into words by the
    search itself: the same answers, from memory and from PostgreSQL, as with the stored words; the backfill
    then stores exactly those words."""
    subject = held_subject(alice)
    stored = {pk: words for pk, words in Message.objects.filter(subject=subject).values_list("pk", "keywords")}
    assert all(
        stored[m.pk] == keywords(m.content) for m in Message.objects.filter(subject=subject, embedding__isnull=False)
    )
    before = {(q, hold): _answers(subject, q, hold, settings) for q in QUERIES for hold in (False, True)}
    Message.objects.filter(subject=subject).update(keywords=None)
    vector_cache.clear()
    _held(subject)
    assert all(row["keywords"] is None for row in held_messages.held_subject(subject.pk).rows.values())
    assert {(q, hold): _answers(subject, q, hold, settings) for q in QUERIES for hold in (False, True)} == before
    out = StringIO()
    call_command("turn_keywords", subject=subject.pk, stdout=out)
    assert out.getvalue().startswith(f"{len(stored)} turns given their words")
    assert turn_keywords_backfill(subject_id=subject.pk) == 0
    for message in Message.objects.filter(subject=subject):
        assert message.keywords == keywords(message.content)


def test_a_message_written_after_the_subject_is_held_is_found(alice: Persona, settings: Any) -> None:
    subject = held_subject(alice)
    loaded = _held(subject).entry.loaded
    write_turns(subject, ["I adopted a parrot called Kiwi yesterday.", "鹦鹉会说你好。"], "s3")
    held = _current(subject)
    assert held is not None and held.entry.loaded == loaded  # brought current, not read whole
    _agrees(subject, held)
    top = _answers(subject, "my parrot Kiwi", True, settings)[0]
    assert top[0] == "message" and top[4] == "I adopted a parrot called Kiwi yesterday."
    assert any(text == "鹦鹉会说你好。" for *_, text, _ in _answers(subject, "鹦鹉", True, settings))


def test_extraction_claims_log_nothing(alice: Persona) -> None:
    subject = held_subject(alice)
    held = _held(subject)
    pending = list(Message.objects.filter(subject=subject, embedding__isnull=True).values_list("pk", flat=True))
    before = MessageChange.objects.filter(subject_id=subject.pk).count()
    assert messages_claim(message_ids=pending)
    assert MessageChange.objects.filter(subject_id=subject.pk).count() == before
    assert _current(subject) is held


def test_a_deleted_message_is_never_returned_again(alice: Persona, settings: Any) -> None:
    subject = held_subject(alice)
    _held(subject)
    gone = Message.objects.get(subject=subject, content=TURNS[2], embedding__isnull=False)
    assert any(h[1] == gone.pk for h in _answers(subject, "saxophone", True, settings))
    Message.objects.filter(pk=gone.pk).delete()
    held = _current(subject)
    assert held is not None and gone.pk not in held.rows
    _agrees(subject, held)
    assert all(h[1] != gone.pk for h in _answers(subject, "saxophone", True, settings))


def test_an_erased_subject_leaves_no_change_rows_and_no_current_entry(alice: Persona, settings: Any) -> None:
    tune(settings, {"scope.count_cache_seconds": 0, "cache.load_pause_seconds": 60})
    subject = held_subject(alice)
    _held(subject)
    assert MessageChange.objects.filter(subject_id=subject.pk).exists()
    subject_erase(subject=subject, actor="test")
    assert not MessageChange.objects.filter(subject_id=subject.pk).exists()
    assert erasure_verify(tenant=subject.tenant, external_id=subject.external_id).clean
    assert _current(subject) is None  # the log no longer reads as held: PostgreSQL (nothing) answers
    assert subject.pk not in held_messages.held_subjects()  # and the erased messages left memory at once


def test_many_messages_in_one_statement_read_the_subject_again(alice: Persona, settings: Any) -> None:
    tune(settings, {"scope.count_cache_seconds": 0, "cache.load_pause_seconds": 0})
    subject = held_subject(alice)
    loaded = _held(subject).entry.loaded
    session = SessionFactory(subject=subject, tenant=subject.tenant, external_id="bulk")
    Message.objects.bulk_create(
        MessageFactory.build(session=session, content=f"Note number {i} about the garden.") for i in range(40)
    )
    assert MessageChange.objects.filter(subject_id=subject.pk, message_id__isnull=True).exists()
    assert _current(subject) is None
    vector_cache.loads_wait()
    held = _current(subject)
    assert held is not None and held.entry.loaded > loaded
    _agrees(subject, held)


def test_another_tenants_messages_never_appear(alice: Persona, carol: Persona, settings: Any) -> None:
    mine, theirs = held_subject(alice), held_subject(carol)
    _held(mine), _held(theirs)
    others = set(Message.objects.filter(subject=theirs).values_list("pk", flat=True))
    own = set(Message.objects.filter(subject=mine).values_list("pk", flat=True))
    found: set[int] = set()
    for query in QUERIES:
        found |= {h[1] for h in _answers(mine, query, True, settings) if h[0] == "message"}
    assert found and found <= own and not found & others


def test_a_held_messages_cost_is_counted_and_the_budget_holds(alice: Persona) -> None:
    subject = held_subject(alice)
    held = _held(subject)
    per_message = held.nbytes / held.total
    assert 1536 < per_message < 4096  # its vector, code, lexemes, content twice and row
    held_messages.clear()
    cache = search_config().cache
    small = vector_cache.CacheSettings(budget_mb=held.nbytes / 2 / 1024 / 1024, load_pause_seconds=0)
    assert held_messages.current(subject.pk, small) is None
    vector_cache.loads_wait()
    assert held_messages.current(subject.pk, small) is None  # does not fit: never held
    assert held_messages.held_subjects() == []
    vector_cache.clear()  # the loads asked for done, the pauses forgotten
    assert held_messages.current(subject.pk, cache) is None
    vector_cache.loads_wait()
    assert held_messages.held_subjects() == [subject.pk]


VOCABULARY = [["dog"], ["lisbon", "porto", "tram"], ["过敏", "杭州", "dog"], ["saxophone", "nowhere"], ["the", "my"]]


def _held_facts(subject: Subject) -> vector_cache.Entry:
    cache = search_config().cache
    vector_cache.current(subject.pk, cache)
    vector_cache.loads_wait()
    entry = vector_cache.current(subject.pk, cache)
    assert entry is not None
    return entry


def test_the_vocabulary_counts_held_turns_as_postgresql_with_no_statement(alice: Persona) -> None:
    subject = held_subject(alice)
    held, facts = _held(subject), _held_facts(subject)
    flt = FactFilter(subject_id=subject.pk, statuses=[*SEARCHED_STATUSES], tiers=[*SEARCHED_TIERS], now=NOW)
    for words in VOCABULARY:
        kw: dict[str, Any] = dict(total_facts=facts.size, indexed=False)
        sql = vocabulary(flt, words, **kw)
        assert vocabulary(flt, words, **kw, held_turns=held) == sql
        with CaptureQueriesContext(connection) as queries:
            assert vocabulary(flt, words, **kw, held=facts, held_turns=held) == sql
        assert len(queries) == 0  # facts and turns both from memory
        assert sql.rows == facts.size + held.total
    assert all(vocabulary(flt, w, total_facts=facts.size, indexed=False).df[0] > 0 for w in VOCABULARY[:4])


def test_one_statement_checks_both_logs_and_sees_a_fact_or_a_message_written(alice: Persona) -> None:
    subject = held_subject(alice)
    _held(subject), _held_facts(subject)
    cache = search_config().cache

    def both() -> tuple[vector_cache.Entry, held_messages.Held]:
        with CaptureQueriesContext(connection) as queries:
            facts, held = held_messages.current_with_facts(subject.pk, cache)
        assert len(queries) == 1 and facts is not None and held is not None
        return facts, held

    facts, held = both()
    fact = add_fact(subject, "I started learning the cello in October.")
    now_facts, now_held = both()
    assert fact.pk in now_facts.ids.tolist() and now_held is held  # a fact written: its log read, the turns'
    [turn] = write_turns(subject, ["My sister Ana visits us in May."], "s3")
    now_facts, now_held = both()
    assert turn.pk in now_held.rows and now_facts.version == vector_cache.current(subject.pk, cache).version
    _agrees(subject, now_held)
    Message.objects.filter(pk=turn.pk).delete()
    assert turn.pk not in both()[1].rows


def test_a_search_of_facts_alone_counts_the_held_turns_in_memory(alice: Persona, settings: Any) -> None:
    """The vocabulary counts the subject's turns in every search, messages or not: held, they are counted in memory
    (no statement over the turns), and the answers are those PostgreSQL's counts give."""
    subject = held_subject(alice)
    for query in QUERIES[:2]:  # the first search asks for the facts and the turns to be read
        run_search(subject_id=subject.pk, query=query, limit=8, now=NOW)
    vector_cache.loads_wait()
    for query in QUERIES:  # English and Chinese
        tune(settings, {"scope.count_cache_seconds": 0, "cache.load_pause_seconds": 60, "cache.hold_messages": False})
        from_sql = run_search(subject_id=subject.pk, query=query, limit=8, now=NOW).hits
        tune(settings, {"scope.count_cache_seconds": 0, "cache.load_pause_seconds": 60, "cache.hold_messages": True})
        with CaptureQueriesContext(connection) as queries:
            from_memory = run_search(subject_id=subject.pk, query=query, limit=8, now=NOW).hits
        # The vocabulary's statement counts the subject's turns (answerable._counted); nothing else counts them.
        assert not [q["sql"] for q in queries if "count(*) FROM conversations_message" in q["sql"]], query
        assert held_messages.held_subject(subject.pk) is not None
        assert [(h.kind, h.id, h.score, h.relevance) for h in from_memory] == [
            (h.kind, h.id, h.score, h.relevance) for h in from_sql
        ]
        assert {h.kind for h in from_memory} <= {"fact"}
