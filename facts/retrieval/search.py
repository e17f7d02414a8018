"""The read path: analyse the query, gather candidates per signal, fuse, re-rank, collapse, cut.

No LLM anywhere. With SEARCH_EMBED_IN_THREAD (default) the query embedding, then the vector scan on the
thread's own connection, run in a worker thread while the keyword, entity and time candidates are fetched
(max(embedding + vector scan, other SQL) instead of their sum). The thread pool is
made per process (one inherited through fork has no live threads: jobs sent to it would wait forever, the
hang once seen in forked workers), and each process's first embedding runs inline (model load).
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import numpy  # noqa: F401  (imported before any thread: psycopg peeks at a half-imported numpy otherwise)
from django.conf import settings
from django.db import DatabaseError, close_old_connections, connection, connections

from facts.embedding import embed_query
from facts.retrieval import candidates as cand
from facts.retrieval import replies
from facts.retrieval.fusion import Fused, Reranker, fuse, fuse_first, weights
from facts.retrieval.hits import SearchHit
from facts.retrieval.query import QueryAnalysis, analyze
from facts.selectors import facts_sources
from facts.text import keywords, normalize
from memory_site.db import prepared_cursor
from memory_site.threads import ProcessPool

logger = logging.getLogger(__name__)

_embed_pool = ProcessPool("query-embed", max_workers=2)  # this process's embedding threads (fork-safe)
SCAN_WAIT_SECONDS = 30.0  # how long an embedding thread waits for its search to hand it the vector scan
_embedder_warm_pid = 0


def _embed_executor() -> ThreadPoolExecutor:
    return _embed_pool.executor()


Key = tuple[str, int]
Scored = list[tuple[int, float]]


@dataclass
class VectorHits:
    """What the vector scan found: the nearest facts and messages, and the nearest inside the query's time
    range (both kinds, (key, similarity), best first) when it names one."""

    facts: Scored
    messages: Scored
    in_range: list[tuple[Key, float]] = field(default_factory=list)
    # The rows of what it found, (facts by id, messages by id), read by the thread that scanned once the hits
    # are handed over (`ready`): the request's thread fuses meanwhile. None until then, or if that read failed.
    rows: tuple[dict[int, dict[str, Any]], dict[int, dict[str, Any]]] | None = None

    def candidates(self) -> list[Key]:
        found = [("fact", pk) for pk, _ in self.facts] + [("message", pk) for pk, _ in self.messages]
        return found + [key for key, _ in self.in_range]


VectorScan = Callable[[list[float]], VectorHits | None]  # None: not scanned (the request's thread scans)
Embedded = tuple[list[float] | None, VectorHits | None]


def _resolved(value: Any) -> Future[Any]:
    future: Future[Any] = Future()
    future.set_result(value)
    return future


def _embed_async(text: str, scan: Future[VectorScan | None] | None = None) -> Future[Embedded]:
    """Embed in a worker thread; the first call in each process (model load, heavy imports) runs inline.

    With a `scan` (given now, or later through the future), the thread also runs the vector candidate queries
    as soon as the vector is ready, on its own database connection, while this thread runs the keyword, entity
    and time queries: the request then costs max(embedding + vector scan, other SQL) instead of the sum. The
    caller gives a scan only outside a transaction (another connection cannot see uncommitted rows), and must
    resolve the future (None: no scan). Returns (vector, scanned or None).
    """
    global _embedder_warm_pid
    if _embedder_warm_pid != os.getpid() or not _setting("SEARCH_EMBED_IN_THREAD", True):
        _embedder_warm_pid = os.getpid()
        return _resolved((embed_query(text), None))
    future = _embed_executor().submit(_embed_then_scan, text, scan or _resolved(None))
    # Hand the interpreter lock to the embedding thread now: it needs the lock only to start ONNX Runtime, which
    # then runs without it. Otherwise it waits for this thread's next switch interval or database call (0.45 ms
    # here, in a search's critical path).
    time.sleep(0)
    return future


def close_thread_connections() -> None:
    """Close the embedding threads' database connections (tests, before the test database is dropped)."""
    _embed_pool.in_every_thread(connections.close_all)


def _embed_then_scan(text: str, scan_future: Future[VectorScan | None]) -> Embedded:
    vector = embed_query(text)
    try:  # given long before the embedding ends; the wait is bounded all the same (a thread must never hang)
        scan = scan_future.result(timeout=SCAN_WAIT_SECONDS)
    except TimeoutError:  # concurrent.futures' is the built-in one since Python 3.11
        logger.error("no vector scan handed to the embedding thread within %s s", SCAN_WAIT_SECONDS)
        return vector, None
    if vector is None or scan is None:
        return vector, None
    # No health check on this thread's connection: Django's is a SELECT 1 to a backend idle since the last search,
    # 0.5-1 ms in the search's critical path. A connection broken meanwhile fails the scan instead; the request's
    # thread then scans on its own connection (checked at the request's start), and the broken one is closed
    # below, as a request closes its own (and reconnects next time; too old a connection is closed too). The flag
    # is Django's own (CONN_HEALTH_CHECKS), missing from its type stubs.
    connection.health_check_done = True  # type: ignore[attr-defined]
    try:
        return vector, scan(vector)
    except DatabaseError:
        logger.warning("vector scan failed on the embedding thread; the request's thread runs it", exc_info=True)
        return vector, None
    finally:
        close_old_connections()


class QueryEmbedding:
    """A query's embedding started before its search (`early_query_embedding`): the search hands the embedding
    thread its vector scan (`take`), or whoever started it lets the thread go without one (`release`, on the way
    out whatever happened)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.started = time.perf_counter()  # the search's took_ms counts from here
        self._scan: Future[VectorScan | None] = Future()
        self.future = _embed_async(text, self._scan)

    def take(self, scan: VectorScan | None) -> Future[Embedded]:
        self._give(scan)
        return self.future

    def release(self) -> None:
        self._give(None)

    def _give(self, scan: VectorScan | None) -> None:
        if not self._scan.done():
            self._scan.set_result(scan)


@contextmanager
def early_query_embedding(
    subject_id: int | None, query: str, *, include_messages: bool
) -> Iterator[QueryEmbedding | None]:
    """Start embedding a search's query now, before the search is set up (facts.middleware.EarlySearchEmbedding,
    as the request comes in; or the view, before validating it), when the search will want the vector: a subject
    known to be past the cold start (its searchable count is cached, i.e. searched in the last
    SEARCH_COUNT_CACHE_SECONDS) or a search of messages too. Pass the result to `run_search`; on leaving, an
    embedding the search did not take is let go. None for a subject or a query not known yet (the search then
    starts the embedding itself)."""
    if subject_id is None or not query or not (include_messages or cand.subject_known_searchable(subject_id)):
        yield None
        return
    embedding = QueryEmbedding(query)
    try:
        yield embedding
    finally:
        embedding.release()


class RecentSearchers:
    """Who searched lately in this process: (API key hash, user's external id) → subject id, after a search that
    key was allowed to make (at most `size` pairs, the oldest dropped first). The next search by the same pair
    can start embedding its query before authentication, whose first database read (to a backend idle since the
    last request) then overlaps the embedding. A guess only: the search still authenticates and looks the
    subject up as before, and a pair whose request is refused (revoked key, user gone) is forgotten."""

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self._pairs: dict[tuple[str, str], int] = {}
        self._lock = threading.Lock()

    def subject_id(self, key_hash: str, user: str) -> int | None:
        return self._pairs.get((key_hash, user))

    def add(self, key_hash: str, user: str, subject_id: int) -> None:
        with self._lock:
            self._pairs.pop((key_hash, user), None)  # re-inserted last: the oldest pair is the first in the dict
            self._pairs[(key_hash, user)] = subject_id
            while len(self._pairs) > self.size:
                del self._pairs[next(iter(self._pairs))]

    def discard(self, key_hash: str, user: str) -> None:
        with self._lock:
            self._pairs.pop((key_hash, user), None)


recent_searchers = RecentSearchers()


@dataclass
class SearchOutcome:
    hits: list[SearchHit]
    analysis: QueryAnalysis
    signals_used: list[str] = field(default_factory=list)
    vector_available: bool = True
    cold_start: bool = False


def _setting(name: str, default: Any) -> Any:
    return getattr(settings, name, default)


def _rows(sql: str, params: list[Any]) -> list[dict[str, Any]]:
    with prepared_cursor() as cursor:  # lookups by primary key: planning would cost more than running
        cursor.execute(sql, params)
        names = [c.name for c in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


def _fact_rows(ids: list[int]) -> dict[int, dict[str, Any]]:
    if not ids:
        return {}
    # The read counters live in facts_factaccess (no row until a fact's first read): both sides by primary key.
    rows = _rows(
        "SELECT f.id, f.text, f.normalized_text, f.type, f.valid_from, f.created_at, f.event_time, f.value_score, "
        "COALESCE(a.access_count, 0) AS access_count, f.pinned, f.entity_keys, f.keywords, "
        "lower(f.subject_entity) AS subject_key "
        "FROM facts_fact f LEFT JOIN facts_factaccess a ON a.fact_id = f.id WHERE f.id = ANY(%s)",
        [ids],
    )
    return {r["id"]: r for r in rows}


def _message_rows(ids: list[int]) -> dict[int, dict[str, Any]]:
    if not ids:
        return {}
    rows = _rows(
        "SELECT m.id, m.content AS text, m.role, lower(m.name) AS name_key, m.created_at, m.external_id, "
        "s.external_id AS session_external_id "
        "FROM conversations_message m JOIN conversations_session s ON s.id = m.session_id WHERE m.id = ANY(%s)",
        [ids],
    )
    for r in rows:
        r["keywords"] = keywords(r["text"])
    return {r["id"]: r for r in rows}


def _merge_lists(*lists: list[tuple[Key, float]]) -> list[tuple[Key, float]]:
    """Merge scored candidate lists of one signal (facts and messages) into one ranking."""
    merged = [item for lst in lists for item in lst]
    merged.sort(key=lambda x: (-x[1], x[0][0], x[0][1]))
    return merged


def run_search(
    *,
    subject_id: int,
    query: str,
    limit: int = 5,
    types: list[str] | None = None,
    include_archived: bool = False,
    include_messages: bool = False,
    include_superseded: bool = False,
    since: dt.datetime | None = None,
    until: dt.datetime | None = None,
    now: dt.datetime | None = None,
    embedding: QueryEmbedding | None = None,
) -> SearchOutcome:
    """Search one subject's memory; the caller has already checked the subject belongs to the tenant.
    `embedding`: the query's embedding, started early by the caller (`early_query_embedding`)."""
    now = now or dt.datetime.now(dt.UTC)
    statuses = [*cand.SEARCHED_STATUSES] + (["superseded"] if include_superseded else [])
    tiers = [*cand.SEARCHED_TIERS] + (["archived"] if include_archived else [])
    flt = cand.FactFilter(
        subject_id=subject_id, statuses=statuses, tiers=tiers, types=types or None, since=since, until=until, now=now
    )
    pool = max(int(_setting("SEARCH_CANDIDATES", 60)), limit * 3)
    active_count = cand.subject_fact_count_cached(flt)
    cold_start = active_count < int(_setting("SEARCH_COLD_START_MIN_FACTS", 5))

    analysed: Future[QueryAnalysis] = Future()  # the scan needs the query's time range
    ready: Future[VectorHits] = Future()  # the vector hits, as soon as they are known
    read_early: list[frozenset[Key]] = [frozenset()]  # the rows this thread reads while the query embeds
    waiting = threading.Event()  # this thread has done what it could without the vector, and waits for it

    def scan(vector: list[float]) -> VectorHits:
        query_analysis = analysed.result()
        if not query_analysis.vector_matchable:  # the search drops this vector: no scan
            return VectorHits(facts=[], messages=[])
        tr = query_analysis.time_range
        facts = [] if cold_start else cand.vector_facts(flt, vector, limit=pool, total=active_count)
        messages = (
            cand.vector_messages(subject_id, vector, limit=pool, since=since, until=until) if include_messages else []
        )
        hits = VectorHits(facts=facts, messages=messages)
        if tr is not None:
            hits.in_range = _nearest_in_range(
                flt, vector, tr.since, tr.until, limit=pool, cold_start=cold_start, include_messages=include_messages
            )
        # Hand the hits over, then read their rows: the request's thread fuses the candidates meanwhile, and
        # finds the rows read when it needs them (one database round trip fewer after the embedding).
        wanted = [key for key in hits.candidates() if key not in read_early[0]]
        if not wanted:  # nothing to read: the request's thread will not wait for this one again
            hits.rows = ({}, {})
            ready.set_result(hits)
            # It waits for these hits: hand it the interpreter lock now, not once this thread is done (~0.1 ms).
            time.sleep(0)
            return hits
        ready.set_result(hits)
        try:
            hits.rows = (
                _fact_rows(sorted({pk for kind, pk in wanted if kind == "fact"})),
                _message_rows(sorted({pk for kind, pk in wanted if kind == "message"})),
            )
        except DatabaseError:  # the request's thread reads them itself
            logger.warning("reading the vector hits' rows failed", exc_info=True)
        return hits

    def scan_if_waited_for(vector: list[float]) -> VectorHits | None:
        # A scan all in this process's memory (the subject's vectors held, no messages, no time range) is work
        # for the interpreter: while this thread still works (reading rows, links, re-rank factors) the two would
        # share its lock, and the scan took 1.5 ms instead of 0.6. The embedding thread then leaves it to this
        # thread, which scans when it gets there (no hand-over to wake it). A scan in PostgreSQL mostly waits
        # for the database: the embedding thread runs it at once, on its own connection.
        if waiting.is_set() or include_messages or cold_start or analysed.result().time_range is not None:
            return scan(vector)
        return None if cand.vector_facts_in_memory(flt, limit=pool, total=active_count) else scan(vector)

    # The query's vector is wanted unless the subject is too small for the vector signal (and no messages are
    # searched): its embedding starts now, before the analysis (0.3 ms for an English query, more for Chinese),
    # and is dropped if the analysis finds nothing the vector could match (no words or names: "what did I do
    # last week?", 最近怎么样？, or only stop words).
    future: Future[Embedded] | None = None
    if limit > 0 and (not cold_start or include_messages):
        thread_scan = None if connection.in_atomic_block else scan_if_waited_for
        if embedding is not None and embedding.text == query:
            future = embedding.take(thread_scan)
        else:
            future = _embed_async(query, _resolved(thread_scan))
    if embedding is not None:
        embedding.release()  # not taken (another text, or no vector wanted): its thread goes on at once
    try:
        analysis = analyze(query, now=now)
    except BaseException as exc:
        analysed.set_exception(exc)
        raise
    analysed.set_result(analysis)
    outcome = SearchOutcome(hits=[], analysis=analysis)
    if analysis.is_empty or limit <= 0:
        return outcome
    outcome.cold_start = cold_start
    if not analysis.vector_matchable:
        future = None
    tr = analysis.time_range

    terms = analysis.words
    fact_kw = [(("fact", pk), s) for pk, s in cand.keyword_facts(flt, terms, limit=pool, total=active_count)]
    fact_ent = [
        (("fact", pk), s) for pk, s in cand.entity_facts(flt, analysis.entities, limit=pool, total=active_count)
    ]
    if analysis.slots:  # "我的狗" -> the pet slot: an exact slot match counts as an entity match
        seen = {key for key, _ in fact_ent}
        top = max((s for _, s in fact_ent), default=1.0)
        fact_ent += [
            (("fact", pk), top * s)
            for pk, s in cand.slot_facts(flt, analysis.slots, limit=pool)
            if ("fact", pk) not in seen
        ]
    msg_kw: list[tuple[Key, float]] = []
    if include_messages:
        msg_kw = [
            (("message", pk), s)
            for pk, s in cand.keyword_messages(subject_id, terms, limit=pool, since=since, until=until)
        ]
    fact_time: list[tuple[Key, float]] = []
    if tr is not None:
        fact_time = [(("fact", pk), s) for pk, s in cand.time_facts(flt, tr.since, tr.until, limit=pool)]

    # Still waiting for the embedding thread: meanwhile read the rows and sources the candidates found so far
    # will need, and their re-rank factors (one of the two threads is idle otherwise).
    reranker = Reranker.for_query(now=now, type_hints=analysis.type_hints, named=set(analysis.names))
    facts: dict[int, dict[str, Any]] = {}
    sources: dict[int, list[dict[str, Any]]] = {}
    factors: dict[int, float] = {}  # fact id -> the re-rank factor of its row
    links = replies.Links()
    messages: dict[int, dict[str, Any]] = {}
    keyword_ranking = _merge_lists(fact_kw, msg_kw)
    entity_ranking = _merge_lists(fact_ent)
    fused_early: dict[Key, Fused] | None = None  # the signals other than the vector, fused while it is awaited
    if future is not None and not future.done():
        found_early = [key for lst in (fact_kw, fact_ent, fact_time, msg_kw) for key, _ in lst]
        read_early[0] = frozenset(found_early)
        early = sorted({pk for kind, pk in found_early if kind == "fact"})
        facts = _fact_rows(early)
        messages = _message_rows(sorted({pk for kind, pk in found_early if kind == "message"}))
        sources = facts_sources(fact_ids=early)
        if not future.done():  # every candidate that can be followed (not found by the vector alone) is known
            links.fetch(found_early, flt)
        if not future.done():  # what the answers and continuations of those candidates may add
            linked_facts, linked_messages = links.targets()
            facts.update(_fact_rows(sorted(linked_facts - facts.keys())))
            if include_messages:
                messages.update(_message_rows(sorted(linked_messages - messages.keys())))
        if not future.done():
            factors = {pk: reranker.factor(row) for pk, row in facts.items()}
        if not future.done() and tr is None:  # (a time range's list is known after the vector scan)
            fused_early = fuse({"keyword": keyword_ranking, "entity": entity_ranking})

    found: VectorHits | None = None
    if future is not None:
        # The hits come before the thread has read their rows; a failed embedding or scan ends the thread first.
        either: list[Future[Any]] = [future, ready]
        waiting.set()
        wait(either, return_when=FIRST_COMPLETED)
        if ready.done():
            found = ready.result()
        else:
            vector, scanned = future.result()
            outcome.vector_available = vector is not None
            if vector is not None:
                found = scanned if scanned is not None else scan(vector)
    fact_vec: list[tuple[Key, float]] = []
    msg_vec: list[tuple[Key, float]] = []
    if found is not None:
        fact_vec = [(("fact", pk), s) for pk, s in found.facts]
        msg_vec = [(("message", pk), s) for pk, s in found.messages]
        fact_time = _time_ranking(found.in_range, fact_time)

    rankings = {
        "vector": _merge_lists(fact_vec, msg_vec),
        "keyword": keyword_ranking,
        "entity": entity_ranking,
        "time": fact_time,
    }
    outcome.signals_used = [s for s, lst in rankings.items() if lst]
    if fused_early is not None:
        fused = fused_early
        fuse_first(fused, "vector", rankings["vector"])
    else:
        fused = fuse(rankings)
    if not fused:
        return outcome
    replies.add_answers(fused, flt, include_messages=include_messages, links=links)

    if found is not None and future is not None and found.rows is None:
        future.result()  # the thread has read the hits' rows (or failed to: found.rows stays None)
    if found is not None and found.rows is not None:
        facts = {**found.rows[0], **facts}
        messages = {**found.rows[1], **messages}
    fact_ids = sorted(pk for kind, pk in fused if kind == "fact")
    message_ids = sorted(pk for kind, pk in fused if kind == "message")
    facts.update(_fact_rows([pk for pk in fact_ids if pk not in facts]))
    messages.update(_message_rows([pk for pk in message_ids if pk not in messages]))
    if tr is not None:
        _mark_time(fused, facts, messages, tr.since, tr.until, time_list_len=len(rankings["time"]))

    # A candidate only the vector found must be close in absolute terms and next to the best vector match:
    # MiniLM gives 0.2-0.3 to unrelated sentences, and those must not pad the answer.
    similarity = dict(fact_vec + msg_vec)
    best_sim = max(similarity.values(), default=0.0)
    alone_min = max(
        float(_setting("SEARCH_VECTOR_ALONE_MIN_SIMILARITY", 0.3)),
        best_sim * float(_setting("SEARCH_VECTOR_ALONE_RELATIVE", 0.5)),
    )
    # A person the query names ("What did Priya paint?") is often on most facts (a speaker), so it cannot
    # select candidates; it still tells which of the candidates are about that person: a soft boost.
    named = set(analysis.entities)
    speaker_boost = float(_setting("SEARCH_WEIGHT_NAMED", 0.3))
    # A query that names a time ("on 2 May", "上周") is about that time: what falls in it counts double.
    time_boost = float(_setting("SEARCH_TIME_MATCH_BOOST", 1.0))
    message_weight = float(_setting("SEARCH_WEIGHT_MESSAGE", 1.5))  # a whole turn against the facts cut from turns
    scored: list[tuple[float, Fused]] = []
    strength: dict[Key, float] = {}
    for key, item in fused.items():
        kind, pk = key
        row = facts.get(pk) if kind == "fact" else messages.get(pk)
        if row is None:  # deleted between the candidate query and now
            continue
        if item.matched_by == ["vector"] and similarity.get(key, 0.0) < alone_min:
            continue
        factor = factors.get(pk) if kind == "fact" else None
        if factor is None:
            factor = reranker.factor(row)
        if named and _names_match(row, named):
            factor *= 1.0 + speaker_boost
        if tr is not None and "time" in item.matched_by:
            factor *= 1.0 + time_boost
        if kind == "message":
            factor *= message_weight
        scored.append((item.score * factor, item))
        strength[key] = item.strength * factor
    # "Recently" beside words that find something ("我的狗最近掉毛厉害怎么办") qualifies them: their recent
    # matches count double, but the last 30 days' other facts are no answer. When nothing else is found
    # ("what happened recently?") the last 30 days are the answer.
    if tr is not None and tr.vague and any(item.matched_by != ["time"] for _, item in scored):
        scored = [x for x in scored if x[1].matched_by != ["time"]]
    scored.sort(key=lambda x: (-x[0], x[1].key[0], x[1].key[1]))
    if not scored:
        return outcome
    # Weak matches are cut on the score-fusion strength (relative to the strongest candidate kept) in both modes.
    floor = max(strength[item.key] for _, item in scored) * float(_setting("SEARCH_MIN_RELATIVE_SCORE", 0.15))
    scored = [x for x in scored if strength[x[1].key] >= floor]

    # Sources for the facts that may make the cut (collapsing duplicates can reach a little further down).
    head_facts = [item.key[1] for _, item in scored[: limit * 6] if item.key[0] == "fact"]
    sources.update(facts_sources(fact_ids=[pk for pk in head_facts if pk not in sources]))
    outcome.hits = _collapse(_diversify(scored, sources, limit * 6), facts, messages, sources, limit)
    return outcome


def _nearest_in_range(
    flt: cand.FactFilter,
    vector: list[float],
    since: dt.datetime,
    until: dt.datetime,
    *,
    limit: int,
    cold_start: bool,
    include_messages: bool,
) -> list[tuple[Key, float]]:
    """The facts (and messages) inside the query's time range nearest to the query, (key, similarity), best
    first: "what happened to my knee on 2 May" ranks that day's turns about the knee first, whereas the time
    list alone only knows they are from that day."""
    lo = since if flt.since is None else max(since, flt.since)
    hi = until if flt.until is None else min(until, flt.until)
    if lo >= hi:
        return []
    found: list[tuple[Key, float]] = []
    if not cold_start:
        found += [(("fact", pk), s) for pk, s in cand.vector_facts_in_range(flt, vector, lo, hi, limit=limit)]
    if include_messages:
        found += [
            (("message", pk), s)
            for pk, s in cand.vector_messages(flt.subject_id, vector, limit=limit, since=lo, until=hi)
        ]
    return _merge_lists(found)


def _time_ranking(nearest: list[tuple[Key, float]], in_range: list[tuple[Key, float]]) -> list[tuple[Key, float]]:
    """The time signal's list: every candidate inside the query's time range counts as a full time match (1.0);
    those nearest to the query come first (RRF ranks them higher), then the rest, latest first."""
    seen = {key for key, _ in nearest}
    return [(key, 1.0) for key, _ in nearest] + [(key, 1.0) for key, _ in in_range if key not in seen]


def _names_match(row: dict[str, Any], named: set[str]) -> bool:
    if row.get("subject_key") and row["subject_key"] in named:
        return True
    if row.get("name_key") and row["name_key"] in named:
        return True
    return any(k in named for k in (row.get("entity_keys") or []))


def _diversify(
    scored: list[tuple[float, Fused]], sources: dict[int, list[dict[str, Any]]], depth: int
) -> list[tuple[float, Fused]]:
    """Greedy MMR over source messages: a result whose source messages are all covered by better results is
    scaled by SEARCH_DIVERSITY_PENALTY, so the top of the list covers more of the conversation.

    Coverage only grows, so lazy re-evaluation with a heap gives the exact greedy order. Only the first
    `depth` candidates are re-ordered (the rest keep their order after them).
    """
    penalty = float(_setting("SEARCH_DIVERSITY_PENALTY", 0.5))
    if penalty >= 1.0:
        return scored
    import heapq

    head, tail = scored[:depth], scored[depth:]
    heap = [(-score, i, False) for i, (score, _) in enumerate(head)]
    heapq.heapify(heap)
    covered: set[int] = set()
    out: list[tuple[float, Fused]] = []
    while heap:
        neg, i, penalised = heapq.heappop(heap)
        item = head[i][1]
        kind, pk = item.key
        msg_ids = [s["message_id"] for s in sources.get(pk, [])] if kind == "fact" else [pk]
        if not penalised and msg_ids and all(m in covered for m in msg_ids):
            heapq.heappush(heap, (neg * penalty, i, True))
            continue
        covered.update(msg_ids)
        out.append((-neg, item))
    return out + tail


def _mark_time(
    fused: dict[Key, Fused],
    facts: dict[int, dict[str, Any]],
    messages: dict[int, dict[str, Any]],
    since: dt.datetime,
    until: dt.datetime,
    *,
    time_list_len: int,
) -> None:
    """A candidate from another signal whose time falls in the query's range also counts as a time match."""
    k = float(_setting("SEARCH_RRF_K", 20.0))
    w = weights()["time"]
    for key, item in fused.items():
        if "time" in item.matched_by:
            continue
        kind, pk = key
        row = facts.get(pk) if kind == "fact" else messages.get(pk)
        if row is None:
            continue
        when = row.get("event_time") or row.get("valid_from") or row.get("created_at")
        if when is not None and since <= when < until:
            item.matched_by.append("time")
            item.score += w / (k + time_list_len + 1) if _setting("SEARCH_FUSION", "rrf") == "rrf" else w
            item.strength += w


def _collapse(
    scored: list[tuple[float, Fused]],
    facts: dict[int, dict[str, Any]],
    messages: dict[int, dict[str, Any]],
    sources: dict[int, list[dict[str, Any]]],
    limit: int,
) -> list[SearchHit]:
    """Keep the best of near-duplicates: same normalised text, or a message already covered by a fact."""
    hits: list[SearchHit] = []
    seen_text: dict[str, SearchHit] = {}
    message_hit: dict[int, SearchHit] = {}
    for score, item in scored:
        kind, pk = item.key
        if kind == "fact":
            row = facts[pk]
            norm = row["normalized_text"] or normalize(row["text"])
            srcs = sources.get(pk, [])
            dup = seen_text.get(norm)
            if dup is None and srcs and all(s["message_id"] in message_hit for s in srcs):
                parent = message_hit[srcs[0]["message_id"]]
                if norm in normalize(parent.text):
                    dup = parent
            if dup is not None:
                _absorb(dup, item.matched_by)
                continue
            hit = SearchHit(
                kind="fact",
                id=pk,
                text=row["text"],
                type=row["type"],
                score=round(score, 6),
                matched_by=_ordered(item.matched_by),
                valid_from=row["valid_from"],
                created_at=row["created_at"],
                sources=srcs,
            )
            seen_text[norm] = hit
            for s in srcs:
                message_hit.setdefault(s["message_id"], hit)
        else:
            row = messages[pk]
            norm = normalize(row["text"])
            dup = message_hit.get(pk) or seen_text.get(norm)
            if dup is not None:
                _absorb(dup, item.matched_by)
                continue
            hit = SearchHit(
                kind="message",
                id=pk,
                text=row["text"],
                type="message",
                score=round(score, 6),
                matched_by=_ordered(item.matched_by),
                valid_from=row["created_at"],
                created_at=row["created_at"],
                sources=[
                    {
                        "message_id": pk,
                        "external_id": row["external_id"],
                        "session_id": row["session_external_id"],
                        "created_at": row["created_at"],
                    }
                ],
            )
            seen_text[norm] = hit
            message_hit[pk] = hit
        hits.append(hit)
        if len(hits) >= limit:
            break
    return hits


_ORDER = {"vector": 0, "keyword": 1, "entity": 2, "time": 3}


def _ordered(signals: list[str]) -> list[str]:
    return sorted(set(signals), key=lambda s: _ORDER.get(s, 9))


def _absorb(hit: SearchHit, signals: list[str]) -> None:
    hit.matched_by = _ordered([*hit.matched_by, *signals])
