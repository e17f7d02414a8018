"""The search at run time: the query embeds on its own thread while the other signals' candidates are read (and
answers as inline), memory and PostgreSQL give the same answers, an embedder outage degrades the search, the
thread pools survive fork; and reads are counted off the request, in batches."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.db import connection

from facts.embedding import Embedder, get_embedder, set_embedder
from facts.retrieval import vector_cache
from facts.retrieval.query_vector import space_of
from memory_site.threads import ProcessPool
from tests.conftest import Persona
from tests.facts.test_search import FILLER_EN, FILLER_ZH, LARGE_SUBJECT, FailingEmbedder, add_fact, subject_of, tune


class RecordingEmbedder:
    """The real embedder, noting the thread of each call; with `hold`, each call first waits for that event (and
    notes whether it was set in time)."""

    def __init__(self, real: Embedder, hold: threading.Event | None = None) -> None:
        self.real, self.hold = real, hold
        self.model_name, self.dimensions = real.model_name, real.dimensions
        self.threads: list[str] = []
        self.released: list[bool] = []

    def embed(self, texts: list[str]) -> list[list[float]]:
        self.threads.append(threading.current_thread().name)
        if self.hold is not None:
            self.released.append(self.hold.wait(timeout=10))
        return self.real.embed(texts)


@pytest.fixture
def swap_embedder() -> Iterator[Callable[[threading.Event | None], RecordingEmbedder]]:
    real = get_embedder()

    def swap(hold: threading.Event | None = None) -> RecordingEmbedder:
        recording = RecordingEmbedder(real, hold)
        set_embedder(recording)
        return recording

    yield swap
    set_embedder(real)


# Both answer "Tell me about my puppy": an English question reads the Chinese one across the languages.
DOGS = ("I have a dog named Rex.", "我的狗叫豆包，是一只柯基。")


def _memories(persona: Persona) -> None:
    """Facts in both languages, some dated, and a conversation whose turns are searched with include_messages."""
    import datetime as dt

    subject = subject_of(persona)
    for text in FILLER_EN + FILLER_ZH:
        add_fact(subject, text, valid_from=dt.datetime.now(dt.UTC) - dt.timedelta(days=60))
    for dog in DOGS:
        add_fact(subject, dog, type="relationship")
    add_fact(subject, "I started pottery classes.", valid_from=dt.datetime.now(dt.UTC) - dt.timedelta(days=2))
    turns = [
        {"role": "assistant", "content": "Did you see the new bakery on the corner?", "external_id": "t-1"},
        {"role": "user", "content": "Yes, I bought a sourdough loaf there on Saturday.", "external_id": "t-2"},
    ]
    response = persona.post("messages?wait=true", {"session_id": "chat-1", "messages": turns})
    assert response.status_code == 200, response.content


SEARCHES: list[dict[str, Any]] = [
    {"query": "Tell me about my puppy"},
    {"query": "我的狗叫什么名字"},
    {"query": "what did I do recently?"},
    {"query": "最近怎么样？"},
    {"query": "Rex", "limit": 10},
    {"query": "new bakery on the corner", "include_messages": True, "limit": 10},
]


# Each search's reads are counted by the worker a second or so later (facts_factaccess), and a fact read more often
# ranks up to 5 % higher (rerank.access): tests that compare two rounds of the same searches take that factor out,
# or the second round's scores move by how far the worker has got (a CI run saw every score x1.017, four reads).
UNMOVED_BY_READS = {"rerank.access": 0.0}


def _answers(persona: Persona) -> list[list[dict[str, Any]]]:
    """Each search's results, in order, without `score`: a time-only query scores by age against now, which moves
    between two runs (a 6th decimal flipped once in CI); order, relevance and everything else must not."""
    out = []
    for search in SEARCHES:
        response = persona.search(**search)
        assert response.status_code == 200, response.content
        out.append([{k: v for k, v in r.items() if k != "score"} for r in response.json()["results"]])
    return out


@pytest.mark.django_db(transaction=True)
def test_the_query_embeds_on_its_thread_and_the_answers_are_the_inline_ones(
    alice: Persona, settings: Any, swap_embedder: Any
) -> None:
    tune(settings, UNMOVED_BY_READS)
    _memories(alice)
    settings.SEARCH_EMBED_EARLY = False  # the embedding the search starts (test_search_early: before authentication)
    settings.SEARCH_EMBED_IN_THREAD = False
    inline_embedder = swap_embedder()
    inline = _answers(alice)
    settings.SEARCH_EMBED_IN_THREAD = True
    threaded_embedder = swap_embedder()
    threaded = _answers(alice)
    assert threaded == inline
    assert inline[0][0]["text"] in DOGS and inline[0][0]["matched_by"] == ["vector"]
    assert any(hit["text"].startswith("Yes, I bought a sourdough") for hit in inline[-1])  # a reply link
    lately = [hit["text"] for hit in inline[3]]  # no vector: the last 30 days
    assert "I started pottery classes." in lately and not set(lately) & set(FILLER_EN + FILLER_ZH)
    # Four queries hold something the vector could match; "最近怎么样？" and "what did I do recently?" do not. One of the
    # four is Chinese: the encoder that reads Chinese embeds it (facts/services/zh_vectors.py), not this embedder.
    assert len(inline_embedder.threads) == len(threaded_embedder.threads) == 3
    assert not any(name.startswith("query-embed") for name in inline_embedder.threads)
    assert all(name.startswith("query-embed") for name in threaded_embedder.threads)


@pytest.mark.django_db(transaction=True)
def test_the_other_signals_candidates_are_read_while_the_query_embeds(
    alice: Persona, settings: Any, swap_embedder: Any
) -> None:
    """The embedding waits until the keyword statement has run on the request's thread: it ends only because the
    two ran side by side (run one after the other, the wait would time out)."""
    _memories(alice)
    settings.SEARCH_EMBED_IN_THREAD = True
    # PostgreSQL answers: the keyword signal is a statement. A subject held in memory is read there, with its turns
    # (the vocabulary's counts), and no statement runs beside the embedding at all.
    settings.SEARCH_VECTOR_CACHE_MB = 0
    vector_cache.clear()
    assert alice.search("Tell me about my puppy").status_code == 200  # this process has embedded once: warm
    keyword_read = threading.Event()

    def note_keyword_statement(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        if "plainto_tsquery" in sql:
            keyword_read.set()
        return execute(sql, params, many, context)

    recording = swap_embedder(keyword_read)
    with connection.execute_wrapper(note_keyword_statement):
        response = alice.search("Tell me about my puppy dog")
    assert response.status_code == 200, response.content
    assert response.json()["results"][0]["text"] == "I have a dog named Rex."
    assert recording.released == [True] and recording.threads[0].startswith("query-embed")


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("in_thread", [False, True])
def test_an_embedder_outage_leaves_the_other_signals(
    alice: Persona, settings: Any, swap_embedder: Any, in_thread: bool
) -> None:
    """The vector is dropped, the keyword, entity and time signals answer; nothing fails."""
    _memories(alice)
    set_embedder(FailingEmbedder())  # swap_embedder puts the real one back
    settings.SEARCH_EMBED_IN_THREAD = in_thread
    answers = _answers(alice)
    assert [hit["text"] for hit in answers[4]] == ["I have a dog named Rex."]
    # The Chinese query's vector comes from the encoder that reads Chinese (facts/services/zh_vectors.py), not down.
    english = [answer for search, answer in zip(SEARCHES, answers, strict=True) if space_of(search["query"]) != "zh"]
    assert len(english) == len(SEARCHES) - 2
    assert all("vector" not in hit["matched_by"] for answer in english for hit in answer)
    assert answers[0] == []  # a paraphrase only the vector could find


@pytest.mark.django_db(transaction=True)
def test_memory_and_postgresql_give_the_same_answers(alice: Persona, carol: Persona, settings: Any) -> None:
    """A large subject is answered from this process's memory once it is read there; the answers are those of
    PostgreSQL, with a filter memory does not serve too; another tenant's key gets 404."""
    tune(settings, {"vector.exact_max": 5, "vector.prefilter_depth": 12, "scope.candidates": 5, **UNMOVED_BY_READS})
    vector_cache.clear()
    subject = subject_of(alice)
    for text in LARGE_SUBJECT:
        add_fact(subject, text)
    searches = [
        *SEARCHES[:5],
        {"query": "what pets do I have", "limit": 8},
        {"query": "我对什么过敏"},
        {"query": "holiday plans", "types": ["other"]},
    ]

    def answers() -> list[list[dict[str, Any]]]:
        return [alice.search(**search).json()["results"] for search in searches]

    settings.SEARCH_VECTOR_CACHE_MB = 0
    in_postgresql = answers()
    settings.SEARCH_VECTOR_CACHE_MB = 64
    answers()  # finds the subject not held: PostgreSQL answers, and the subject is read in the background
    vector_cache.loads_wait()
    assert vector_cache.held_subjects() == [subject.pk]
    assert answers() == in_postgresql
    assert any(hit["matched_by"] == ["vector"] for hit in in_postgresql[0])
    assert carol.search("Tell me about my puppy", user="alice").status_code == 404
    vector_cache.clear()


def test_the_searchs_reads_by_key_are_prepared_and_answer_as_unprepared(alice: Persona, settings: Any) -> None:
    """Rows with their sources, and the reply links, run as prepared statements read in binary
    (DB_PREPARED_STATEMENTS): the answers are those of the ordinary cursor, and PostgreSQL keeps the statements."""
    _memories(alice)
    settings.DB_PREPARED_STATEMENTS = False
    plain = _answers(alice)
    settings.DB_PREPARED_STATEMENTS = True
    assert all(_answers(alice) == plain for _ in range(2))
    assert any(hit["text"].startswith("Yes, I bought a sourdough") for hit in plain[-1])  # by a reply link
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements WHERE NOT from_sql")
        statements = [row[0] for row in cursor.fetchall()]
    for part in ("facts_factaccess", "WITH cand AS"):
        assert any(part in statement for statement in statements), part


def test_a_thread_pool_inherited_through_fork_runs_jobs_in_the_child() -> None:
    """An executor inherited through fork counts threads that exist only in the parent (a gunicorn --preload
    worker, a Celery prefork child): jobs sent to it would wait forever. The child gets its own."""
    pool = ProcessPool("fork-test", max_workers=1)
    assert pool.submit(os.getpid).result(timeout=5) == os.getpid()  # a live thread in the parent
    child = os.fork()
    if child == 0:  # pragma: no cover (the child's exit code is the assertion)
        try:
            ran = pool.submit(os.getpid).result(timeout=5) == os.getpid()
        except BaseException:
            ran = False
        os._exit(0 if ran else 1)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0


@pytest.mark.parametrize("broker_up", [True, False])
def test_access_records_are_published_off_the_request_in_batches(
    alice: Persona,
    broker_up: bool,
    django_capture_on_commit_callbacks: Any,
    monkeypatch: pytest.MonkeyPatch,
    settings: Any,
) -> None:
    from celery import current_app

    from facts.retrieval import access

    settings.ACCESS_FLUSH_SECONDS = 60  # the test flushes the last batch itself
    settings.ACCESS_FLUSH_MAX = 3
    sent: list[tuple[str, list[dict[str, Any]]]] = []

    def send_task(name: str, kwargs: dict[str, Any]) -> None:
        if not broker_up:
            raise ConnectionError("broker is down")
        sent.append((name, kwargs["records"]))

    monkeypatch.setitem(current_app.conf, "task_always_eager", False)
    monkeypatch.setattr(current_app, "send_task", send_task)
    fact = add_fact(subject_of(alice), "I have a dog named Rex.")
    with django_capture_on_commit_callbacks(execute=True):
        responses = [alice.search("Rex") for _ in range(4)]
    assert [r.status_code for r in responses] == [200] * 4
    access.sends_wait()  # the sender thread has sent the full batch
    access.flush_access_records()  # what the timer (or the process's exit) does
    if not broker_up:
        assert sent == []
        return
    # Three searches filled a batch; the fourth went with the flush.
    assert [len(records) for _, records in sent] == [3, 1]
    assert {name for name, _ in sent} == {access.RECORD_ACCESS_BATCH_TASK}
    first = sent[0][1][0]
    assert first["fact_ids"] == [fact.pk] and first["operation"] == "search" and first["at"]


def test_a_partial_batch_of_access_records_goes_with_the_timer(
    alice: Persona, django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    from celery import current_app

    settings.ACCESS_FLUSH_SECONDS = 0.05
    settings.ACCESS_FLUSH_MAX = 100
    sent: list[list[dict[str, Any]]] = []
    flushed = threading.Event()

    def send_task(name: str, kwargs: dict[str, Any]) -> None:
        sent.append(kwargs["records"])
        flushed.set()

    monkeypatch.setitem(current_app.conf, "task_always_eager", False)
    monkeypatch.setattr(current_app, "send_task", send_task)
    add_fact(subject_of(alice), "I have a dog named Rex.")
    with django_capture_on_commit_callbacks(execute=True):
        assert alice.search("Rex").status_code == 200
    assert flushed.wait(timeout=10)
    assert [len(records) for records in sent] == [1]


def test_a_batch_of_access_records_counts_each_read_and_keeps_each_read_time(alice: Persona, bob: Persona) -> None:
    import datetime as dt

    from facts.models import AccessLog, FactAccess, SearchCall
    from facts.retrieval.access import AccessRecord, facts_record_accesses

    mine = add_fact(subject_of(alice), "I have a dog named Rex.")
    other = add_fact(subject_of(bob), "I have a cat named Tom.")
    early = dt.datetime(2026, 1, 1, 9, 0, tzinfo=dt.UTC)
    late = early + dt.timedelta(minutes=5)
    subject = subject_of(alice)

    def record(at: dt.datetime, ids: list[int]) -> AccessRecord:
        return AccessRecord(
            subject_id=subject.pk, tenant_id=subject.tenant_id, fact_ids=ids, api_key_id=None,
            took_ms=3.0, result_count=len(ids), matched_by=["keyword"], at=at.isoformat(),
        )  # fmt: skip

    # The second read names Bob's fact under Alice's subject: it must not be counted.
    facts_record_accesses(records=[record(late, [mine.pk]), record(early, [mine.pk, other.pk])])
    counter = FactAccess.objects.get(fact=mine)
    assert (counter.access_count, counter.last_accessed_at) == (2, late)
    assert not FactAccess.objects.filter(fact=other).exists()
    assert sorted(AccessLog.objects.filter(subject=subject).values_list("created_at", flat=True)) == [early, late]
    assert SearchCall.objects.filter(subject=subject).count() == 2


@pytest.mark.django_db(transaction=True)
def test_a_subject_erased_since_its_search_does_not_lose_the_rest_of_the_batch(alice: Persona) -> None:
    """Its records are skipped; the others in the batch are kept (its rows used to fail the whole batch at
    commit, on the foreign key, retry after retry)."""
    from facts.models import AccessLog, FactAccess, SearchCall
    from facts.retrieval.access import AccessRecord, facts_record_accesses

    kept, erased = subject_of(alice, "kept"), subject_of(alice, "erased")
    fact = add_fact(kept, "I have a dog named Rex.")
    gone = add_fact(erased, "I have a cat named Tom.")
    records = [
        AccessRecord(subject_id=s.pk, tenant_id=s.tenant_id, fact_ids=[f.pk], api_key_id=None, took_ms=2.0,
                     result_count=1, matched_by=["keyword"])
        for s, f in ((kept, fact), (erased, gone))
    ]  # fmt: skip
    erased.delete()
    facts_record_accesses(records=records)
    assert FactAccess.objects.get(fact=fact).access_count == 1
    assert AccessLog.objects.filter(subject=kept).count() == 1
    assert SearchCall.objects.filter(subject=kept).count() == 1
    assert AccessLog.objects.count() == 1 and SearchCall.objects.count() == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.celery_worker
def test_real_worker_counts_a_batch_of_searches(alice: Persona, celery_worker_process: Any, settings: Any) -> None:
    from facts.models import AccessLog, FactAccess, SearchCall
    from tests.conftest import wait_until

    settings.ACCESS_FLUSH_SECONDS = 0.1
    subject = subject_of(alice)
    fact = add_fact(subject, "I have a dog named Rex.")
    for _ in range(3):
        assert alice.search("Rex").status_code == 200
    assert wait_until(lambda: FactAccess.objects.filter(fact=fact, access_count=3).exists(), timeout=60)
    assert AccessLog.objects.filter(subject=subject).count() == 3
    assert SearchCall.objects.filter(subject=subject).count() == 3
