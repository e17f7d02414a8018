"""A subject's searchable facts, held in this process's memory: vectors and a keyword index.

Above the vector signal's `exact_max` facts, its scan in PostgreSQL has two stages (binary codes, then exact
cosine of the best `prefilter_depth`): ~8 ms for 10k facts. Held here, the same two stages
are a Hamming distance over 48 bytes a fact, then a product of the depth's vectors with the query: ~0.3 ms for
10k facts, where a product of all 15 MB of vectors took 1.8 ms in a search (cold in the CPU's cache after the
query embedding); the same rows in the same order as in PostgreSQL, ties by id at both stages. A smaller subject
is compared whole, as PostgreSQL's exact scan does; memory spares it that statement after the query's embedding
(and the keyword scan before it), about half of what a search of 100 or 1,000 facts spends after the embedding.

The keyword signal is the same BM25 as candidates._keyword_ranked computes in PostgreSQL, over the same rows
and with the same lexemes: each fact's search_vector is held as an inverted index (lexeme -> rows), and a query
term's lexemes are those of plainto_tsquery, asked of PostgreSQL once per term and process. Matching the
subject's rows one by one in PostgreSQL took ~11 ms for 10k facts, longer than the query embedding it runs
beside; here it is well under a millisecond.

Current means: checked once per search (`current`, whose entry the keyword and vector signals then share): the
subject's rows in facts_factchange, which a trigger on facts_fact appends in the same
transaction as any insert, update or delete of the subject's facts, still read the same (count, sum of ids)
as when the matrix was read, in the same statement (one snapshot). A change committed after the read adds a
row, and so changes both, even when its id is lower than those read (ids are taken before commit); pruning
(facts_change_prune, hourly) deletes rows, which changes them too. An entry also goes after
SEARCH_VECTOR_CACHE_SECONDS whatever the log says, searched or not (so an erased subject's vectors leave the
memory of every process within that time, as soon as it searches anything). A search that finds its subject
not held, or held but not current, is answered by PostgreSQL, and asks this process's loader thread to read
the subject (`_load_soon`): the next searches use memory once that is done.

Only the default filter is served from memory (active tier, active or conflicted facts, no type or time
filter, outside a transaction, whose uncommitted rows this process must not keep): any other search, and any
subject that does not fit in SEARCH_VECTOR_CACHE_MB, goes to PostgreSQL as before. Entries are evicted least
recently used first. A held fact costs ~2 kB (its vector 1.5 kB, its code, text and postings): the default 256 MB
hold ~1,200 subjects of 100 facts, or ~130 of 1,000.
"""

from __future__ import annotations

import datetime as dt
import logging
import math
import re
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import numpy as np
from django.db import close_old_connections, connection, connections
from django.utils import timezone

from conversations.models import EMBEDDING_DIMENSIONS
from facts.text import has_cjk
from memory_site.db import fetch_prepared
from memory_site.threads import ProcessPool

logger = logging.getLogger(__name__)

_SERVED_STATUSES = frozenset({"active", "conflicted"})
_NO_EXPIRY = np.inf


@dataclass(frozen=True)
class CacheSettings:
    budget_mb: float = 256.0  # SEARCH_VECTOR_CACHE_MB (an operator's choice; 0 turns memory off)
    max_age_seconds: float = 300.0  # SEARCH_VECTOR_CACHE_SECONDS (an operator's choice): erased data leave by then
    # A subject is read again at most this often per process: one written to all the time is searched in
    # PostgreSQL (~10-20 ms more), a quiet one from memory.
    load_pause_seconds: float = 10.0
    # Subjects of at least this many searchable facts are held, whatever their size under the budget: at 100 and
    # 1,000 facts memory halved the time a search spends after the query's embedding (bench/README.md). Fewer are
    # a cold start, whose count is not cached and whose every write would make memory stale.
    min_facts: int = 5

    @property
    def budget_bytes(self) -> float:
        return self.budget_mb * 1024 * 1024


@dataclass
class Entry:
    """One subject's searchable facts as read at `version` of its change log."""

    version: tuple[int, int]  # (count, sum of ids) of the subject's change rows when read
    ids: np.ndarray  # int64, ascending: every searchable fact of the subject, with or without a vector
    vectors: np.ndarray  # float32, one normalised row per id (zeros where has_vector is false)
    # uint64 (dims / 64, n): each vector's sign bits, as pgvector's binary_quantize sets them; row w holds word w
    # of every fact side by side, so a query's Hamming distances are six passes over contiguous memory.
    codes: np.ndarray
    has_vector: np.ndarray  # bool
    expires: np.ndarray  # float64 epoch seconds, inf when the fact does not expire
    lengths: np.ndarray  # float64: GREATEST(length(search_vector), 1), BM25's document length
    postings: dict[str, np.ndarray]  # lexeme of search_vector -> rows holding it (int32, ascending)
    texts: list[str]  # the facts' text (Chinese terms are matched as substrings of it)
    loaded: float  # time.monotonic() of the read

    @property
    def nbytes(self) -> int:
        arrays = self.ids.nbytes + self.vectors.nbytes + self.codes.nbytes + self.has_vector.nbytes
        arrays += self.expires.nbytes
        arrays += self.lengths.nbytes + sum(p.nbytes + len(k) + _OBJECT_BYTES for k, p in self.postings.items())
        return int(arrays + sum(len(t.encode("utf-8")) + _OBJECT_BYTES for t in self.texts))


_entries: OrderedDict[int, Entry] = OrderedDict()
_lock = threading.Lock()


_OBJECT_BYTES = 120  # a Python str or array's own size, and its dict or list slot, roughly
# A vector and its code, its id, expiry and length, its text and its postings (~15 lexemes): what serves()
# budgets a fact.
_ROW_BYTES = EMBEDDING_DIMENSIONS * 4 + EMBEDDING_DIMENSIONS // 8 + 32 + 400
# The subject's change-log version: (count, sum of ids) of its rows.
_VERSION_SQL = "SELECT count(*) AS n, COALESCE(sum(id), 0) AS ids FROM facts_factchange WHERE subject_id = %s"


def serves(flt: Any, *, total: int, cache: CacheSettings) -> bool:
    """Whether this search can be answered from memory: the subject has at least `min_facts` searchable facts
    (`total`), they fit in the budget (a larger one would be read again at every search), and the filter is the
    default one."""
    return (
        total >= cache.min_facts
        and total * _ROW_BYTES <= cache.budget_bytes
        and set(flt.statuses) == _SERVED_STATUSES
        and not flt.types
        and flt.since is None
        and flt.until is None
        and not connection.in_atomic_block
    )


def nearest(
    entry: Entry, now: dt.datetime, vector: list[float], *, limit: int, min_sim: float, depth: int
) -> list[tuple[int, float]]:
    """The held facts not expired at `now` nearest to `vector`, (id, cosine similarity) best first, ties by id:
    what the vector signal's two-stage scan returns in PostgreSQL. First the `depth` nearest by Hamming distance
    between sign bits (ties by id), then those by cosine."""
    query = np.asarray(vector, dtype=np.float32)
    idx = np.flatnonzero(entry.has_vector & (entry.expires > now.timestamp()))
    if len(idx) > depth:
        words = np.packbits(query > 0).view(np.uint64)
        hamming = np.bitwise_count(entry.codes ^ words[:, None]).sum(axis=0, dtype=np.int32)
        idx = idx[first_n_counted(hamming[idx], depth)]
    sims = entry.vectors[idx] @ query
    keep = sims >= min_sim
    idx, sims = idx[keep], sims[keep]
    order = first_n(-sims, entry.ids[idx], limit)
    return [(int(entry.ids[idx[i]]), float(sims[i])) for i in order]


def first_n_counted(keys: np.ndarray, n: int) -> np.ndarray:
    """What first_n gives for small non-negative integer `keys` (Hamming distances) of rows in id order, with
    fewer than all of them wanted: positions of the `n` smallest, ties by position, in that order. Counted
    rather than partitioned and sorted: 0.06 ms instead of 0.1 for 10k rows."""
    cumulative = np.cumsum(np.bincount(keys))
    cut = int(np.searchsorted(cumulative, n))  # the n-th smallest key: fewer than n below it, n or more up to it
    below = np.flatnonzero(keys < cut)
    chosen = np.concatenate((below, np.flatnonzero(keys == cut)[: n - len(below)]))
    chosen.sort()
    return chosen[np.argsort(keys[chosen], kind="stable")]


def first_n(keys: np.ndarray, ids: np.ndarray, n: int) -> np.ndarray:
    """Positions of the `n` smallest `keys`, ties by id, in that order (ORDER BY key, id LIMIT n)."""
    if len(keys) > n:
        # Only what can make the first n (every row tied with the n-th included) is sorted.
        cut = np.partition(keys, n - 1)[n - 1]
        near = np.flatnonzero(keys <= cut)
        return near[np.lexsort((ids[near], keys[near]))[:n]]
    return np.lexsort((ids, keys))


def keyword_ranked(
    entry: Entry, now: dt.datetime, terms: list[str], *, total: int, limit: int, k1: float, b: float, max_rows: int
) -> list[tuple[int, float]] | None:
    """The keyword signal's BM25 over the held facts not expired at `now`: the rows matching any term, the first
    `max_rows` of them by id, scored with the same df, N, lengths and formula as in PostgreSQL, best `limit` first
    (ties by id). None when a term's query is one this index cannot evaluate (PostgreSQL then answers)."""
    queries = _term_queries(terms)
    if queries is None:
        return None
    n = len(entry.ids)
    flags = []
    for query in queries:
        if isinstance(query, str):  # a Chinese term: strpos(text, term) > 0
            flags.append(np.fromiter((query in text for text in entry.texts), dtype=bool, count=n))
        else:  # plainto_tsquery('english') || plainto_tsquery('simple'): either's lexemes all present
            flag = np.zeros(n, dtype=bool)
            for lexemes in query:
                if lexemes:
                    flag[_rows_with_all(entry, lexemes)] = True
            flags.append(flag)
    alive = entry.expires > now.timestamp()
    matched = np.flatnonzero(alive & np.logical_or.reduce(flags))[:max_rows]
    if not len(matched):
        return []
    docs = float(max(total, len(matched)))
    lengths = entry.lengths[matched]
    score = np.zeros(len(matched), dtype=np.float64)
    for flag in flags:
        hit = flag[matched]
        df = float(hit.sum())
        score += np.where(hit, np.log(1 + (docs - df + 0.5) / (df + 0.5)), 0.0)
    score *= (k1 + 1) / (1 + k1 * (1 - b + b * lengths / float(lengths.mean())))
    keep = np.flatnonzero(score > 0)
    order = keep[np.lexsort((entry.ids[matched[keep]], -score[keep]))][:limit]
    return [(int(entry.ids[matched[i]]), float(score[i])) for i in order]


def _rows_with_all(entry: Entry, lexemes: tuple[str, ...]) -> np.ndarray:
    rows: np.ndarray | None = None
    for lexeme in lexemes:
        posting = entry.postings.get(lexeme)
        if posting is None:
            return np.empty(0, dtype=np.int32)
        rows = posting if rows is None else np.intersect1d(rows, posting, assume_unique=True)
    return rows if rows is not None else np.empty(0, dtype=np.int32)


# A term's query: its Chinese text (a substring match), or the lexemes plainto_tsquery gives it in the english
# and in the simple configuration (each an AND; empty for a stop word). Cached per process, by term.
TermQuery = str | tuple[tuple[str, ...], tuple[str, ...]]
_term_cache: dict[str, tuple[tuple[str, ...], tuple[str, ...]] | None] = {}
_TERM_CACHE_MAX = 50_000
_LEXEME = r"'(?:[^'\\]|''|\\.)*'"
_AND_QUERY = re.compile(rf"{_LEXEME}(?: & {_LEXEME})*")
_ESCAPE = re.compile(r"''|\\(.)")


def _term_queries(terms: list[str]) -> list[TermQuery] | None:
    missing = sorted({t for t in terms if not has_cjk(t) and t not in _term_cache})
    if missing:
        rows = fetch_prepared(
            "SELECT t, plainto_tsquery('english', t)::text, plainto_tsquery('simple', t)::text "
            "FROM unnest(%s::text[]) t",
            [missing],
        )
        parsed = {t: (_and_lexemes(english), _and_lexemes(simple)) for t, english, simple in rows}
        if len(_term_cache) + len(parsed) > _TERM_CACHE_MAX:
            _term_cache.clear()
        for term, (english, simple) in parsed.items():
            _term_cache[term] = None if english is None or simple is None else (english, simple)
    queries: list[TermQuery] = []
    for term in terms:
        if has_cjk(term):
            queries.append(term)
            continue
        query = _term_cache.get(term)
        if query is None:
            return None
        queries.append(query)
    return queries


def _and_lexemes(text: str) -> tuple[str, ...] | None:
    """The lexemes of a tsquery printed as 'a' & 'b' & ... (plainto_tsquery's form); () for an empty query,
    None for any other form."""
    if not text:
        return ()
    if not _AND_QUERY.fullmatch(text):
        return None
    return tuple(
        _ESCAPE.sub(lambda m: "'" if m.group(0) == "''" else m.group(1), lexeme[1:-1])
        for lexeme in re.findall(_LEXEME, text)
    )


def _version(subject_id: int) -> tuple[int, int]:
    ((count, ids),) = fetch_prepared(_VERSION_SQL, [subject_id])
    return int(count), int(ids)


def current(subject_id: int, cache: CacheSettings) -> Entry | None:
    """The subject's held entry if it is current (one read of its change log), else None: PostgreSQL answers this
    search, and this process's loader thread reads the subject for the next ones."""
    now = time.monotonic()
    with _lock:
        # Entries past their age go, searched or not: an erased subject's vectors do not outstay it for long.
        for stale in [pk for pk, e in _entries.items() if now - e.loaded >= cache.max_age_seconds]:
            del _entries[stale]
        entry = _entries.get(subject_id)
        if entry is not None:
            _entries.move_to_end(subject_id)
    if entry is not None and entry.version == _version(subject_id):
        return entry
    _load_soon(subject_id, cache)
    return None


def held_subjects() -> list[int]:
    """The subjects this process holds in memory, current or not, least recently searched first."""
    with _lock:
        return list(_entries)


# Reading a subject into memory takes ~0.2 s for 10k facts. Done in the search that found it missing or stale,
# every search after a write to the subject paid it (an agent that writes each turn and searches before the next
# one: nearly all of them). PostgreSQL answers those searches instead (~10-20 ms more than memory), and one
# thread per process reads the subject meanwhile, at most once per `load_pause_seconds` per
# subject: a subject written to all the time is searched in PostgreSQL, a quiet one from memory.
_loader = ProcessPool("vector-cache-load", max_workers=1)
_loading: set[int] = set()
_load_started: dict[int, float] = {}  # subject id -> time.monotonic() of its last load's start
_LOAD_STARTED_MAX = 1024


def _load_soon(subject_id: int, cache: CacheSettings) -> None:
    now = time.monotonic()
    pause = cache.load_pause_seconds
    with _lock:
        if subject_id in _loading or now - _load_started.get(subject_id, -math.inf) < pause:
            return
        if len(_load_started) > _LOAD_STARTED_MAX:  # forget the subjects whose pause is over
            for done in [pk for pk, at in _load_started.items() if now - at >= pause and pk not in _loading]:
                del _load_started[done]
        _loading.add(subject_id)
        _load_started[subject_id] = now
    try:
        _loader.executor().submit(_load_in_background, subject_id, cache.budget_bytes)
    except RuntimeError:  # the interpreter is shutting down: no new threads
        with _lock:
            _loading.discard(subject_id)


def _load_in_background(subject_id: int, budget: float) -> None:
    try:
        _store(subject_id, _load(subject_id), budget)
    except Exception:  # a database error, say: the next search after the pause tries again
        logger.warning("reading subject %s into memory failed", subject_id, exc_info=True)
    finally:
        with _lock:
            _loading.discard(subject_id)
        close_old_connections()


def loads_wait(timeout: float = 30.0) -> None:
    """Wait until the loads asked for so far are done (tests; the loader runs one job at a time, in order)."""
    _loader.executor().submit(lambda: None).result(timeout=timeout)


def close_loader_connection() -> None:
    """Close the loader thread's database connection (tests, before the test database is dropped)."""
    _loader.in_every_thread(connections.close_all)


def _load(subject_id: int) -> Entry:
    """The subject's searchable facts and their change-log version, read in one statement (one snapshot).
    Vectors come in pgvector's binary form (vector_send: two int16, then big-endian float4s)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT v.n, v.ids, f.id, vector_send(f.embedding), f.expires_at, GREATEST(length(f.search_vector), 1), "
            "tsvector_to_array(f.search_vector), f.text "
            f"FROM ({_VERSION_SQL}) v "
            "LEFT JOIN facts_fact f ON f.subject_id = %s AND f.tier = 'active' "
            "AND f.status IN ('active', 'conflicted') ORDER BY f.id",
            [subject_id, subject_id],
        )
        rows = cursor.fetchall()
    version = (int(rows[0][0]), int(rows[0][1]))
    rows = [r for r in rows if r[2] is not None]
    vectors = np.zeros((len(rows), EMBEDDING_DIMENSIONS), dtype=np.float32)
    rows_of: dict[str, list[int]] = {}
    for i, row in enumerate(rows):
        if row[3] is not None:
            vectors[i] = np.frombuffer(bytes(row[3]), dtype=">f4", offset=4)
        for lexeme in row[6] or ():
            rows_of.setdefault(lexeme, []).append(i)
    return Entry(
        version=version,
        ids=np.array([r[2] for r in rows], dtype=np.int64),
        vectors=vectors,
        codes=np.ascontiguousarray(np.packbits(vectors > 0, axis=1).view(np.uint64).T),
        has_vector=np.array([r[3] is not None for r in rows], dtype=bool),
        expires=np.array([_NO_EXPIRY if r[4] is None else r[4].timestamp() for r in rows], dtype=np.float64),
        lengths=np.array([r[5] for r in rows], dtype=np.float64),
        postings={lexeme: np.array(idx, dtype=np.int32) for lexeme, idx in rows_of.items()},
        texts=[r[7] for r in rows],
        loaded=time.monotonic(),
    )


def _store(subject_id: int, entry: Entry, budget: float) -> None:
    with _lock:
        _entries.pop(subject_id, None)
        if entry.nbytes > budget:
            return
        _entries[subject_id] = entry
        total = sum(e.nbytes for e in _entries.values())
        while total > budget:
            _, evicted = _entries.popitem(last=False)
            total -= evicted.nbytes


def clear() -> None:
    """Forget every entry of this process, once the loads under way are done (tests)."""
    loads_wait()
    with _lock:
        _entries.clear()
        _load_started.clear()


def facts_change_prune(*, older_than: dt.timedelta = dt.timedelta(hours=1)) -> int:
    """Delete change rows older than `older_than`, except each existing subject's newest (an erased subject's
    go too); returns how many went.

    A reader's version is (count, sum of ids): pruning changes it, so each pruned subject's vectors are read
    again once, the price of a short log."""
    from conversations.models import Subject
    from facts.models import FactChange

    change, subject = FactChange._meta.db_table, Subject._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"DELETE FROM {change} c WHERE c.created_at < %s AND ("
            f"c.id < (SELECT max(n.id) FROM {change} n WHERE n.subject_id = c.subject_id) "
            f"OR NOT EXISTS (SELECT 1 FROM {subject} s WHERE s.id = c.subject_id))",
            [timezone.now() - older_than],
        )
        return int(cursor.rowcount)
