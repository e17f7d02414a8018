"""A subject's searchable facts, held in this process's memory: vectors and a keyword index.

Above the vector signal's `exact_max` facts, its scan in PostgreSQL has two stages (binary codes, then exact
cosine of the best `prefilter_depth`): ~8 ms for 10k facts. Held here, the same two stages
are a Hamming distance over 48 bytes a fact, then a product of the depth's vectors with the query: ~0.3 ms for
10k facts, where a product of all 15 MB of vectors took 1.8 ms in a search (cold in the CPU's cache after the
query embedding); the same rows in the same order as in PostgreSQL, ties by id at both stages. A smaller subject
is compared whole, as PostgreSQL's exact scan does; memory spares it that statement after the query's embedding
(and the keyword scan before it), about half of what a search of 100 or 1,000 facts spends after the embedding.

The keyword signal (held_keyword.py) is the same BM25 as candidates._keyword_ranked computes in PostgreSQL,
over the same rows and with the same lexemes: each fact's search_vector is held as an inverted index (lexeme ->
rows), and a query term's lexemes are those of plainto_tsquery, asked of PostgreSQL once per term and process.
Matching the subject's rows one by one in PostgreSQL took ~11 ms for 10k facts, longer than the query embedding
it runs beside; here it is well under a millisecond.

Current means: checked once per search (`current`, whose entry the keyword and vector signals then share): the
subject's rows in facts_factchange, which a trigger on facts_fact appends in the same
transaction as any insert, update or delete of the subject's facts, still read the same (count, sum of ids)
as when the matrix was read, in the same statement (one snapshot). A change committed after the read adds a
row, and so changes both, even when its id is lower than those read (ids are taken before commit); pruning
(facts_change_prune, hourly) deletes rows, which changes them too. An entry also goes after
SEARCH_VECTOR_CACHE_SECONDS whatever the log says, searched or not.

A stale entry is brought current in the search that finds it so (`_changes`, the same statement as the check):
the rows above the highest one the entry has read name the facts each write changed (facts 0013), and those
facts are read again with them; when those rows account for the whole difference in (count, sum of ids), the
entry plus those facts is the subject at that snapshot (held.refreshed: a fact read the same stays, a changed
one takes a new row, one no longer searchable leaves). Anything else (a late commit below the entry's last row,
a prune, an erasure, a statement that changed more than FACT_CHANGE_IDS_MAX of the subject's facts, more than
`refresh_max_facts` facts): the entry goes at once, PostgreSQL answers, and the loader thread reads the subject
whole (`_load_soon`, at most once per `load_pause_seconds`), as for a subject not held yet. A whole read is also
asked for once an entry's dead rows are many (memory).

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
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from django.db import close_old_connections, connection, connections
from django.utils import timezone

from conversations.models import EMBEDDING_DIMENSIONS
from facts.retrieval.held import Entry, FactRow, entry_from_rows, refreshed
from facts.retrieval.held_keyword import keyword_count as keyword_count
from facts.retrieval.held_keyword import keyword_ranked as keyword_ranked
from memory_site.db import fetch_prepared
from memory_site.threads import ProcessPool

logger = logging.getLogger(__name__)

Fetch = Callable[[str, list[Any]], list[tuple[Any, ...]]]  # a statement's rows: memory_site.db.fetch_prepared

_SERVED_STATUSES = frozenset({"active", "conflicted"})


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
    # A search that finds its subject's entry stale by at most this many changed facts reads just them (one
    # statement with the change-log check) and serves from memory; more, or a statement that changed more than
    # facts.models.FACT_CHANGE_IDS_MAX of them, and PostgreSQL answers while the subject is read whole. 0: always.
    refresh_max_facts: int = 64
    # A held subject's messages too (held_messages): searches with include_messages, and every search's vocabulary.
    hold_messages: bool = True

    @property
    def budget_bytes(self) -> float:
        return self.budget_mb * 1024 * 1024


_entries: OrderedDict[int, Entry] = OrderedDict()
_lock = threading.Lock()


# A vector and its code, its id, expiry and length, its text and its postings (~15 lexemes): what serves()
# budgets a fact.
_ROW_BYTES = EMBEDDING_DIMENSIONS * 4 + EMBEDDING_DIMENSIONS // 8 + 32 + 400
# The subject's change-log version: (count, sum of ids) of its rows, and the highest id.
_VERSION_SQL = (
    "SELECT count(*) AS n, COALESCE(sum(id), 0) AS ids, COALESCE(max(id), 0) AS last "
    "FROM facts_factchange WHERE subject_id = %s"
)
# The columns a held fact is read with (held.FactRow).
_FACT_COLUMNS = (
    "f.id, vector_send(f.embedding), f.expires_at, GREATEST(length(f.search_vector), 1), "
    "tsvector_to_array(f.search_vector), f.text"
)
_SEARCHABLE = "f.tier = 'active' AND f.status IN ('active', 'conflicted')"
# One snapshot: the version, the change rows above the entry's last (how many, their sum and highest id, how
# many name no fact, how many facts they name), and up to a limit those facts' searchable rows (f.id NULL when
# the fact is not searchable now: deleted, superseded, archived, moved to another subject).
CHANGES_SQL = (
    "WITH news AS MATERIALIZED (SELECT id, fact_id FROM facts_factchange WHERE subject_id = %s AND id > %s) "
    "SELECT v.n, v.ids, (SELECT count(*) FROM news), (SELECT COALESCE(sum(id), 0) FROM news), "
    "(SELECT COALESCE(max(id), 0) FROM news), (SELECT count(*) FROM news WHERE fact_id IS NULL), "
    f"(SELECT count(DISTINCT fact_id) FROM news), w.fact_id, {_FACT_COLUMNS} "
    "FROM (SELECT count(*) AS n, COALESCE(sum(id), 0) AS ids FROM facts_factchange WHERE subject_id = %s) v "
    "LEFT JOIN (SELECT DISTINCT fact_id FROM news WHERE fact_id IS NOT NULL LIMIT %s) w ON true "
    f"LEFT JOIN facts_fact f ON f.id = w.fact_id AND f.subject_id = %s AND {_SEARCHABLE}"
)


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
    entry: Entry,
    now: dt.datetime,
    vector: list[float],
    *,
    limit: int,
    min_sim: float,
    depth: int,
    raw: tuple[list[float], dict[int, float]] | None = None,
) -> list[tuple[int, float]]:
    """The held facts not expired at `now` nearest to `vector`, (id, cosine similarity) best first, ties by id:
    what the vector signal's two-stage scan returns in PostgreSQL. First the `depth` nearest by Hamming distance
    between sign bits (ties by id), then those by cosine. With `raw` (another vector, a dict), the cosine of each
    fact returned to that vector is put in the dict (a dot product each: vector.Unfocused)."""
    query = np.asarray(vector, dtype=np.float32)
    idx = entry.live_rows(entry.has_vector & (entry.expires > now.timestamp()))
    if len(idx) > depth:
        words = np.packbits(query > 0).view(np.uint64)
        hamming = np.bitwise_count(entry.codes ^ words[:, None]).sum(axis=0, dtype=np.int32)
        idx = idx[first_n_counted(hamming[idx], depth)]
    # Most rows compared (a subject's messages, a small subject's facts): the product in place, where a copy of
    # the rows cost 2-3x more than the product (15 MB for 10k rows).
    in_place = len(idx) * 2 > len(entry.ids)
    sims = (entry.vectors @ query)[idx] if in_place else entry.vectors[idx] @ query
    keep = sims >= min_sim
    idx, sims = idx[keep], sims[keep]
    order = first_n(-sims, entry.ids[idx], limit)
    if raw is not None and len(order):
        raw_sims = entry.vectors[idx[order]] @ np.asarray(raw[0], dtype=np.float32)
        raw[1].update((int(entry.ids[idx[i]]), float(r)) for i, r in zip(order, raw_sims, strict=True))
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


def current(subject_id: int, cache: CacheSettings, *, fetch: Fetch = fetch_prepared) -> Entry | None:
    """The subject's held entry if it is current, or brought current by reading the few facts changed since (one
    statement, which also reads the change log), else None: PostgreSQL answers this search, and this process's
    loader thread reads the subject whole for the next ones. `fetch` runs that statement (held_messages reads it
    with its own, in one round trip)."""
    now = time.monotonic()
    with _lock:
        # Entries past their age go, searched or not: an erased subject's vectors do not outstay it for long.
        for stale in [pk for pk, e in _entries.items() if now - e.loaded >= cache.max_age_seconds]:
            del _entries[stale]
        entry = _entries.get(subject_id)
        if entry is not None:
            _entries.move_to_end(subject_id)
    if entry is not None:
        changes = _changes(subject_id, entry, cache.refresh_max_facts, fetch)
        if changes is not None and changes.version == entry.version:
            return entry
        if changes is not None:
            fresh = _refresh(subject_id, entry, changes, cache)
            if fresh is not None:
                return fresh
        with _lock:  # stale beyond a refresh (an erasure, a prune): what was deleted is not kept until a load
            if _entries.get(subject_id) is entry:
                del _entries[subject_id]
    _load_soon(subject_id, cache)
    return None


@dataclass(frozen=True)
class _Changes:
    """What changed since an entry was read, when a refresh can bring it current."""

    version: tuple[int, int]
    last_change: int
    rows: list[FactRow]  # the changed facts searchable now
    gone: list[int]  # the changed facts not searchable now


def changes_params(subject_id: int, last_change: int, most: int) -> list[int]:
    """CHANGES_SQL's parameters (held_messages' statement for its own log takes the same)."""
    return [subject_id, last_change, subject_id, max(most, 1), subject_id]


def _changes(subject_id: int, entry: Entry, most: int, fetch: Fetch) -> _Changes | None:
    """The change log's rows above the entry's last one and the facts they name, read in one statement, or None
    when they cannot account for the log's version (a change committed late below the entry's last row, a
    prune, an erasure), name no fact (a statement that changed many), or name more than `most` facts."""
    rows = fetch(CHANGES_SQL, changes_params(subject_id, entry.last_change, most))
    count, ids, new, new_ids, last, whole, facts = (int(x) for x in rows[0][:7])
    counted, summed = entry.version
    if (count, ids) != (counted + new, summed + new_ids) or whole or facts > most:
        return None
    found = [r[8:] for r in rows if r[8] is not None]
    held = {r[0] for r in found}
    gone = [int(r[7]) for r in rows if r[7] is not None and r[7] not in held]
    return _Changes((count, ids), max(last, entry.last_change), found, gone)


def _refresh(subject_id: int, entry: Entry, changes: _Changes, cache: CacheSettings) -> Entry | None:
    """The entry brought current with `changes` and held in its place, if it is still the one held (else the one
    held if that is current, else None)."""
    with _lock:  # refreshes start only from the entry held, one at a time (held.py: they share buffers)
        now_held = _entries.get(subject_id)
        if now_held is not entry:
            return now_held if now_held is not None and now_held.version == changes.version else None
        fresh = refreshed(entry, changes.rows, changes.gone, version=changes.version, last_change=changes.last_change)
        _put(subject_id, fresh, cache.budget_bytes)
    if fresh.dead > max(32, fresh.size // 8):
        _load_soon(subject_id, cache)  # read whole again: a compact entry
    return fresh


def held_entry(subject_id: int) -> Entry | None:
    """The subject's entry as held, current or not (not counted as searched)."""
    with _lock:
        return _entries.get(subject_id)


def held_subjects() -> list[int]:
    """The subjects this process holds in memory, current or not, least recently searched first."""
    with _lock:
        return list(_entries)


# Reading a subject into memory takes ~0.2 s for 10k facts. Done in the search that found it missing or stale,
# every search after a write to the subject paid it (an agent that writes each turn and searches before the next
# one: nearly all of them). A refresh now brings such an entry current (`_changes`); a subject missing, or stale
# beyond a refresh, is answered by PostgreSQL (~10-20 ms more than memory), and one thread per process reads the
# subject meanwhile, at most once per `load_pause_seconds` per subject.
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


def submit_load(fn: Any, *args: Any) -> bool:
    """Run `fn(*args)` on the loader thread (held_messages' loads); False when no thread can start (shutdown)."""
    try:
        return _loader.executor().submit(fn, *args) is not None
    except RuntimeError:
        return False


def loads_wait(timeout: float = 30.0) -> None:
    """Wait until the loads asked for so far are done (tests; the loader runs one job at a time, in order)."""
    _loader.executor().submit(lambda: None).result(timeout=timeout)


def close_loader_connection() -> None:
    """Close the loader thread's database connection (tests, before the test database is dropped)."""
    _loader.in_every_thread(connections.close_all)


def _load(subject_id: int) -> Entry:
    """The subject's searchable facts and their change-log version, read in one statement (one snapshot)."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT v.n, v.ids, v.last, {_FACT_COLUMNS} FROM ({_VERSION_SQL}) v "
            f"LEFT JOIN facts_fact f ON f.subject_id = %s AND {_SEARCHABLE} ORDER BY f.id",
            [subject_id, subject_id],
        )
        rows = cursor.fetchall()
    version, last = (int(rows[0][0]), int(rows[0][1])), int(rows[0][2])
    found: list[FactRow] = [r[3:] for r in rows if r[3] is not None]
    return entry_from_rows(found, version=version, last_change=last, loaded=time.monotonic())


def _store(subject_id: int, entry: Entry, budget: float) -> None:
    with _lock:
        _put(subject_id, entry, budget)


def _put(subject_id: int, entry: Entry, budget: float) -> None:
    """Hold `entry` (under _lock), the least recently searched going while over the budget."""
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
    for hook in _on_clear:
        hook()


_on_clear: list[Any] = []  # what else clear() forgets (held_messages' entries): on_clear adds to it
on_clear = _on_clear.append


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
