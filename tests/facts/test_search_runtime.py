"""The search runtime off the request path: the query-embedding threads survive fork, access records are
published from a background thread (the response never waits on the broker, also when it is down); and on it,
the prepared statements of the request's lookups by key."""

from __future__ import annotations

import os
import threading
from typing import Any

import pytest

from facts.retrieval import candidates as cand
from facts.retrieval import search as search_module
from facts.retrieval import vector_cache
from tests.conftest import Persona
from tests.facts.test_search import FILLER_EN, add_fact, subject_of


def test_an_embedding_thread_inherited_through_fork_is_replaced(alice: Persona, settings: Any) -> None:
    settings.SEARCH_EMBED_IN_THREAD = True
    first = search_module._embed_executor()
    assert search_module._embed_executor() is first
    search_module._embed_pool._pid = -1  # as a forked child sees its parent's executor
    fresh = search_module._embed_executor()
    assert fresh is not first
    search_module._embedder_warm_pid = -1  # first embedding in a new process runs inline
    assert search_module._embed_async("my dog").done()
    assert search_module._embed_async("my dog").result()[0] is not None


def _record_vector_scans(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the threads that run a vector scan of facts from now on, in order."""
    scanned_on: list[str] = []
    real = cand.vector_facts

    def recording(*args: Any, **kwargs: Any) -> Any:
        scanned_on.append(threading.current_thread().name)
        return real(*args, **kwargs)

    monkeypatch.setattr(cand, "vector_facts", recording)
    return scanned_on


def _embedding_ends_last(monkeypatch: pytest.MonkeyPatch, seconds: float = 0.2) -> None:
    """Queries take `seconds` longer to embed: the request's thread surely waits for the vector by then, so the
    embedding thread runs the vector scan (it leaves the scan to a request's thread still at work)."""
    import time

    real = search_module.embed_query

    def slow(text: str) -> Any:
        time.sleep(seconds)
        return real(text)

    monkeypatch.setattr(search_module, "embed_query", slow)


def _scan_thread_of_a_vector_search(alice: Persona, settings: Any, monkeypatch: pytest.MonkeyPatch) -> str:
    """Search a paraphrase only the vector finds; return the name of the thread that ran the vector scan."""
    _embedding_ends_last(monkeypatch)
    settings.SEARCH_EMBED_IN_THREAD = True
    subject = subject_of(alice)
    for text in FILLER_EN:
        add_fact(subject, text)
    add_fact(subject, "I have a dog named Rex.", type="relationship")
    search_module._embedder_warm_pid = os.getpid()  # the model is loaded: embeddings go to the thread
    scanned_on = _record_vector_scans(monkeypatch)
    response = alice.search("Tell me about my puppy")
    assert response.status_code == 200, response.content
    top = response.json()["results"][0]
    assert top["text"] == "I have a dog named Rex." and top["matched_by"] == ["vector"]
    assert len(scanned_on) == 1
    return scanned_on[0]


@pytest.mark.django_db(transaction=True)
def test_outside_a_transaction_the_embedding_thread_runs_the_vector_scan(
    alice: Persona, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its own connection, beside the keyword queries of the request's thread."""
    assert _scan_thread_of_a_vector_search(alice, settings, monkeypatch).startswith("query-embed")


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("in_memory", [True, False])
def test_a_vector_ready_before_the_request_thread_waits_is_scanned_there_if_the_scan_is_in_memory(
    alice: Persona, settings: Any, monkeypatch: pytest.MonkeyPatch, in_memory: bool
) -> None:
    """When the embedding ends while the request's thread still reads candidates' rows, a scan of vectors held in
    memory is left to the request's thread (the two would share the interpreter lock), which scans when it gets
    there; a scan in PostgreSQL (mostly waiting) still runs at once on the embedding thread. The answer is the
    inline one either way."""
    import time

    settings.SEARCH_VECTOR_EXACT_MAX = 5  # above 5 facts, the two-stage scan: from memory unless it has no room
    settings.SEARCH_VECTOR_PREFILTER_DEPTH = 12
    settings.SEARCH_CANDIDATES = 5
    settings.SEARCH_VECTOR_CACHE_MB = 64 if in_memory else 0
    subject = subject_of(alice)
    for text in FILLER_EN + [f"I bought {n} new pencils for the office." for n in range(2, 40)]:
        add_fact(subject, text)
    rex = add_fact(subject, "I have a dog named Rex.", type="relationship")
    inline = _inline_then_threaded(alice, settings, monkeypatch, "Tell me about my puppy")[0]
    vector_cache.loads_wait()  # the first search asked for the subject to be read into memory
    assert (subject.pk in vector_cache._entries) is in_memory
    real_sources = search_module.facts_sources

    def slow_sources(**kwargs: Any) -> Any:  # the request's thread, busy past the embedding's end
        time.sleep(0.6)  # the embedding takes 0.2 s more here (_embedding_ends_last)
        return real_sources(**kwargs)

    monkeypatch.setattr(search_module, "facts_sources", slow_sources)
    scanned_on = _record_vector_scans(monkeypatch)
    assert _answer(alice, "Tell me about my puppy") == inline and inline[0]["id"] == rex.pk
    assert len(scanned_on) == 1 and scanned_on[0].startswith("query-embed") is not in_memory


def test_inside_a_transaction_the_request_thread_runs_the_vector_scan(
    alice: Persona, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another connection could not see the transaction's uncommitted rows."""
    assert not _scan_thread_of_a_vector_search(alice, settings, monkeypatch).startswith("query-embed")


def _answer(alice: Persona, query: str) -> list[Any]:
    response = alice.search(query, limit=10)
    assert response.status_code == 200, response.content
    return list(response.json()["results"])


def _inline_then_threaded(
    alice: Persona, settings: Any, monkeypatch: pytest.MonkeyPatch, query: str
) -> tuple[list[Any], list[Any]]:
    """The answer with the query embedded on the request's thread, then on the embedding thread (which also runs
    the vector scan: it ends last, see _embedding_ends_last)."""
    settings.SEARCH_EMBED_IN_THREAD = False
    inline = _answer(alice, query)
    settings.SEARCH_EMBED_IN_THREAD = True
    search_module._embedder_warm_pid = os.getpid()  # the model is loaded: embeddings go to the thread
    _embedding_ends_last(monkeypatch)
    return inline, _answer(alice, query)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("read_fails", [False, True])
def test_the_embedding_thread_reads_the_rows_of_its_hits_and_the_answer_is_the_inline_one(
    alice: Persona, settings: Any, monkeypatch: pytest.MonkeyPatch, read_fails: bool
) -> None:
    """The vector hits' rows are read by the thread that found them while the request's thread fuses; if that
    read fails, the request's thread reads them itself: the same answer either way, and as with no thread."""
    from django.db import DatabaseError

    subject = subject_of(alice)
    for text in FILLER_EN:
        add_fact(subject, text)
    rex = add_fact(subject, "I have a dog named Rex.", type="relationship")
    real = search_module._fact_rows
    read_on: list[tuple[str, list[int]]] = []

    def recording(ids: list[int]) -> Any:
        on_thread = threading.current_thread().name.startswith("query-embed")
        if settings.SEARCH_EMBED_IN_THREAD:
            read_on.append(("thread" if on_thread else "request", list(ids)))
        if read_fails and on_thread:
            raise DatabaseError("connection lost")
        return real(ids)

    monkeypatch.setattr(search_module, "_fact_rows", recording)
    inline, threaded = _inline_then_threaded(alice, settings, monkeypatch, "Tell me about my puppy")
    assert threaded == inline and threaded[0]["id"] == rex.pk and threaded[0]["matched_by"] == ["vector"]
    readers = [where for where, ids in read_on if rex.pk in ids]
    assert readers == (["thread", "request"] if read_fails else ["thread"])


@pytest.mark.django_db(transaction=True)
def test_a_question_with_nothing_for_the_vector_drops_the_embedding_started_before_its_analysis(
    alice: Persona, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The query embeds while it is analysed; 最近怎么样？ ("how are things lately?") has no word the vector could
    match: its vector is neither scanned nor waited for, and the answer (the last 30 days) is the one without a
    thread."""
    import datetime as dt

    subject = subject_of(alice)
    for text in FILLER_EN:
        add_fact(subject, text, valid_from=dt.datetime.now(dt.UTC) - dt.timedelta(days=90))
    add_fact(subject, "I started pottery classes.", valid_from=dt.datetime.now(dt.UTC) - dt.timedelta(days=2))
    scans = _record_vector_scans(monkeypatch)
    inline, threaded = _inline_then_threaded(alice, settings, monkeypatch, "最近怎么样？")
    search_module._embed_pool.in_every_thread(lambda: None)  # the embedding thread has finished its job
    assert threaded == inline and [hit["text"] for hit in threaded] == ["I started pottery classes."]
    assert scans == []


@pytest.mark.django_db(transaction=True)
def test_a_searched_subjects_query_embeds_while_the_request_is_validated(
    alice: Persona, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once a subject is known to be past the cold start (its count cached by a search), the view starts the
    query's embedding before validating the request; the answer is the one without a thread. A request that then
    fails validation lets the embedding go: no embedding thread is left waiting for a scan."""
    from facts.apis import search as search_api

    subject = subject_of(alice)
    for text in FILLER_EN:
        add_fact(subject, text)
    add_fact(subject, "I have a dog named Rex.", type="relationship")
    # No key remembered as a recent searcher: the embedding cannot start before authentication (test below).
    from facts import middleware

    forgetful = search_module.RecentSearchers(size=0)
    monkeypatch.setattr(search_api, "recent_searchers", forgetful)
    monkeypatch.setattr(middleware, "recent_searchers", forgetful)
    # The threaded search counts the subject (cached): it is known to be past the cold start from now on.
    inline = _inline_then_threaded(alice, settings, monkeypatch, "Tell me about my puppy")[0]
    order: list[str] = []
    real_embed, real_validate = search_module._embed_async, search_api.validate_input

    def embed(*args: Any, **kwargs: Any) -> Any:
        order.append("embed")
        return real_embed(*args, **kwargs)

    def validate(*args: Any, **kwargs: Any) -> Any:
        order.append("validate")
        return real_validate(*args, **kwargs)

    monkeypatch.setattr(search_module, "_embed_async", embed)
    monkeypatch.setattr(search_api, "validate_input", validate)
    assert _answer(alice, "Tell me about my puppy") == inline and inline[0]["text"] == "I have a dog named Rex."
    assert order == ["embed", "validate"]
    order.clear()
    assert alice.search("Tell me about my puppy", limit=0).status_code == 400
    assert order == ["embed", "validate"]
    search_module._embed_pool.in_every_thread(lambda: None, timeout=5.0)  # both threads free: none waits
    assert _answer(alice, "Tell me about my puppy") == inline


@pytest.mark.django_db(transaction=True)
def test_a_key_that_searched_a_user_lately_embeds_the_next_query_before_authentication(
    alice: Persona, carol: Persona, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After a search, the same key and user's next search starts embedding its query before Django's other
    middleware and authentication run; the answer is the one without a thread. Another tenant's key naming the
    same user gets no such start (and a 404). A refused request (the key revoked since) lets the embedding go,
    and the pair is forgotten: the key's next request embeds nothing."""
    from django.middleware.security import SecurityMiddleware

    from conversations.auth import ApiKeyAuthentication, hash_key
    from conversations.models import ApiKey
    from conversations.services import api_key_revoke

    subject = subject_of(alice)
    for text in FILLER_EN:
        add_fact(subject, text)
    add_fact(subject, "I have a dog named Rex.", type="relationship")
    query = "Tell me about my puppy"
    # The searches count the subject and note the (key, user) pair.
    inline = _inline_then_threaded(alice, settings, monkeypatch, query)[0]
    order: list[str] = []
    real_embed, real_authenticate = search_module._embed_async, ApiKeyAuthentication.authenticate

    def embed(*args: Any, **kwargs: Any) -> Any:
        order.append("embed")
        return real_embed(*args, **kwargs)

    def authenticate(self: ApiKeyAuthentication, request: Any) -> Any:
        order.append("authenticate")
        return real_authenticate(self, request)

    real_security = SecurityMiddleware.process_request

    def security(self: SecurityMiddleware, request: Any) -> Any:
        order.append("middleware")
        return real_security(self, request)

    monkeypatch.setattr(search_module, "_embed_async", embed)
    monkeypatch.setattr(ApiKeyAuthentication, "authenticate", authenticate)
    monkeypatch.setattr(SecurityMiddleware, "process_request", security)
    assert _answer(alice, query) == inline and inline[0]["text"] == "I have a dog named Rex."
    assert order == ["embed", "middleware", "authenticate"]
    order.clear()
    broken = alice.client.post(alice.url("search"), data='{"query": "Tell me', content_type="application/json")
    assert broken.status_code == 400 and order == [
        "middleware",
        "authenticate",
    ]  # nothing to embed: DRF answers as usual
    order.clear()
    assert carol.post("search", {"query": query}, user="alice").status_code == 404
    assert order == ["middleware", "authenticate"]
    api_key_revoke(api_key=ApiKey.objects.get(key_hash=hash_key(alice.key)))
    order.clear()
    assert alice.search(query).status_code == 401
    assert order == ["embed", "middleware", "authenticate"]
    search_module._embed_pool.in_every_thread(lambda: None, timeout=5.0)  # both threads free: none waits
    order.clear()
    assert alice.search(query).status_code == 401
    assert order == ["middleware", "authenticate"]


def test_the_middleware_knows_a_search_path_from_the_url_conf() -> None:
    from facts.middleware import _search_path

    pattern = _search_path()
    assert pattern.match("/api/v1/users/alice/search")["user"] == "alice"  # type: ignore[index]
    assert pattern.match("/api/v1/users/张三/search")["user"] == "张三"  # type: ignore[index]
    for other in ["/api/v1/users/alice/search/", "/api/v1/users/a/b/search", "/api/v1/users//search", "/x/search"]:
        assert pattern.match(other) is None


def test_recent_searchers_keep_the_latest_pairs_up_to_their_size() -> None:
    recent = search_module.RecentSearchers(size=2)
    recent.add("k1", "alice", 1)
    recent.add("k1", "bob", 2)
    recent.add("k1", "alice", 1)  # used again: now the newest
    recent.add("k2", "alice", 3)
    assert [recent.subject_id("k1", "alice"), recent.subject_id("k1", "bob"), recent.subject_id("k2", "alice")] == [
        1,
        None,
        3,
    ]
    recent.discard("k2", "alice")
    assert recent.subject_id("k2", "alice") is None and recent.subject_id("k1", "alice") == 1


@pytest.mark.django_db(transaction=True)
def test_a_broken_embedding_thread_connection_costs_no_answer(
    alice: Persona, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The embedding thread's connection skips Django's health check (a round trip in the critical path): when
    it has died since the last search, the request's thread runs the vector scan, and the next search reconnects."""
    from django.db import connection

    subject = subject_of(alice)
    for text in FILLER_EN:
        add_fact(subject, text)
    add_fact(subject, "I have a dog named Rex.", type="relationship")
    first = _inline_then_threaded(alice, settings, monkeypatch, "Tell me about my puppy")[1]
    assert first[0]["text"] == "I have a dog named Rex." and first[0]["matched_by"] == ["vector"]
    pids: list[int] = []
    search_module._embed_pool.in_every_thread(
        lambda: pids.extend([connection.connection.info.backend_pid] if connection.connection else [])
    )
    assert pids  # the thread that scanned holds a connection
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(pid) FROM unnest(%s::int[]) pid", [pids])
    assert _answer(alice, "Tell me about my puppy") == first  # scanned by the request's thread
    assert _answer(alice, "Tell me about my puppy") == first  # the embedding thread reconnected


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
    access._sender.submit(lambda: None).result(timeout=10)  # the sender thread has sent the full batch
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
    import time

    from celery import current_app

    from facts.retrieval import access

    settings.ACCESS_FLUSH_SECONDS = 0.05
    settings.ACCESS_FLUSH_MAX = 100
    sent: list[list[dict[str, Any]]] = []
    monkeypatch.setitem(current_app.conf, "task_always_eager", False)
    monkeypatch.setattr(current_app, "send_task", lambda name, kwargs: sent.append(kwargs["records"]))
    add_fact(subject_of(alice), "I have a dog named Rex.")
    with django_capture_on_commit_callbacks(execute=True):
        assert alice.search("Rex").status_code == 200
    deadline = time.monotonic() + 10
    while not sent and time.monotonic() < deadline:
        time.sleep(0.02)
    assert [len(records) for records in sent] == [1]
    # A timer whose flush the sender refused (too many jobs queued) lets the next record start a new one.
    monkeypatch.setattr(access, "_in_background", lambda job: False)
    monkeypatch.setattr(access._batcher, "_timer", threading.Timer(60, lambda: None))  # a timer that fired
    access._batcher._timer_fired()
    assert access._batcher._timer is None


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


def test_the_read_paths_lookups_are_prepared_and_answer_as_unprepared(alice: Persona, settings: Any) -> None:
    """Rows, sources and reply links run as prepared statements (DB_PREPARED_STATEMENTS): the
    answer is the one the ordinary cursor gives, and PostgreSQL holds the statements for the next search."""
    from django.db import connection

    turns = [
        {"role": "assistant", "content": "Did you see the new bakery on the corner?", "external_id": "t-1"},
        {"role": "user", "content": "Yes, I bought a sourdough loaf there on Saturday.", "external_id": "t-2"},
    ]
    response = alice.post("messages?wait=true", {"session_id": "chat-1", "messages": turns})
    assert response.status_code == 200, response.content
    query = {"query": "new bakery on the corner", "include_messages": True, "limit": 10}

    def answer() -> list[Any]:
        response = alice.search(**query)
        assert response.status_code == 200, response.content
        return response.json()["results"]

    settings.DB_PREPARED_STATEMENTS = False
    plain = answer()
    settings.DB_PREPARED_STATEMENTS = True
    prepared = [answer() for _ in range(3)]
    assert plain and all(result == plain for result in prepared)
    assert any(hit["text"].startswith("Yes, I bought a sourdough") for hit in plain)  # the answer, by a reply link
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements WHERE NOT from_sql")
        statements = [row[0] for row in cursor.fetchall()]
    for table in ("facts_factsource", "WITH cand AS"):  # the key and subject lookup is conversations' plain one
        assert any(table in statement for statement in statements), table


def test_the_prepared_lookups_load_what_the_orm_loads(alice: Persona, carol: Persona) -> None:
    from django.http import Http404

    from conversations.auth import hash_key
    from conversations.models import ApiKey, Subject
    from conversations.selectors import api_key_and_subject, subject_get

    def values(obj: Any) -> dict[str, Any]:
        return {f.attname: getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields}

    subject = subject_of(alice)
    orm = ApiKey.objects.select_related("tenant").get(key_hash=hash_key(alice.key))
    for user in (None, subject.external_id):
        key, found = api_key_and_subject(hash_key(alice.key), user)
        assert key is not None
        assert values(key) == values(orm) and values(key.tenant) == values(orm.tenant)
        assert found is None if user is None else values(found) == values(Subject.objects.get(pk=subject.pk))
    assert api_key_and_subject(hash_key("ms_not-a-key"), subject.external_id) == (None, None)
    # Another tenant's key with alice's user id: the key, and no subject (the view answers 404).
    key, found = api_key_and_subject(hash_key(carol.key), subject.external_id)
    assert key is not None and key.tenant_id == carol.tenant.pk and found is None
    assert values(subject_get(tenant=alice.tenant, external_id=subject.external_id)) == values(
        Subject.objects.get(pk=subject.pk)
    )
    with pytest.raises(Http404):
        subject_get(tenant=carol.tenant, external_id=subject.external_id)


def test_a_model_whose_fields_need_conversion_is_refused_by_from_row() -> None:
    from conversations.models import Session
    from memory_site.db import from_row

    with pytest.raises(ValueError, match="metadata"):
        from_row(Session, [None] * 8)
