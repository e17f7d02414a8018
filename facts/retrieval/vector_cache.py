"""A large subject's searchable fact vectors, held in this process's memory.

Above SEARCH_VECTOR_EXACT_MAX facts, the vector signal in PostgreSQL is a two-stage scan (binary codes, then
exact cosine of the best 400): ~8 ms for 10k facts. Held here as one float32 matrix, it is one exact
matrix-vector product (~1 ms), and a check that the matrix is still current (one index lookup).

Current means: the subject's rows in facts_factchange, which a trigger on facts_fact appends in the same
transaction as any insert, update or delete of the subject's facts, still read the same (count, sum of ids)
as when the matrix was read, in the same statement (one snapshot). A change committed after the read adds a
row, and so changes both, even when its id is lower than those read (ids are taken before commit); pruning
(facts_change_prune, hourly) deletes rows, which changes them too. An entry also goes after
SEARCH_VECTOR_CACHE_SECONDS whatever the log says, searched or not (so an erased subject's vectors leave the
memory of every process within that time, as soon as it searches anything).

Only the default filter is served from memory (active tier, active or conflicted facts, no type or time
filter, outside a transaction, whose uncommitted rows this process must not keep): any other search, and any
subject that does not fit in SEARCH_VECTOR_CACHE_MB, goes to PostgreSQL as before. Entries are evicted least
recently used first.
"""

from __future__ import annotations

import datetime as dt
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import numpy as np
from django.conf import settings
from django.db import connection
from django.utils import timezone

from conversations.models import EMBEDDING_DIMENSIONS

_SERVED_STATUSES = frozenset({"active", "conflicted"})
_NO_EXPIRY = np.inf


@dataclass
class _Entry:
    version: tuple[int, int]  # (count, sum of ids) of the subject's change rows when read
    ids: np.ndarray  # int64, ascending
    vectors: np.ndarray  # float32, one normalised row per id
    expires: np.ndarray  # float64 epoch seconds, inf when the fact does not expire
    loaded: float  # time.monotonic() of the read

    @property
    def nbytes(self) -> int:
        return int(self.ids.nbytes + self.vectors.nbytes + self.expires.nbytes)


_entries: OrderedDict[int, _Entry] = OrderedDict()
_lock = threading.Lock()


_ROW_BYTES = EMBEDDING_DIMENSIONS * 4 + 16  # a vector, its id and its expiry
# The subject's change-log version: (count, sum of ids) of its rows.
_VERSION_SQL = "SELECT count(*) AS n, COALESCE(sum(id), 0) AS ids FROM facts_factchange WHERE subject_id = %s"


def _budget_bytes() -> float:
    return float(settings.SEARCH_VECTOR_CACHE_MB) * 1024 * 1024


def serves(flt: Any, *, total: int) -> bool:
    """Whether this search can be answered from memory: its filter is the default one, and the subject's
    `total` searchable facts fit in SEARCH_VECTOR_CACHE_MB (a larger one would be read again at every search)."""
    return (
        total * _ROW_BYTES <= _budget_bytes()
        and set(flt.statuses) == _SERVED_STATUSES
        and not flt.types
        and flt.since is None
        and flt.until is None
        and not connection.in_atomic_block
    )


def nearest(flt: Any, vector: list[float], *, limit: int, min_sim: float) -> list[tuple[int, float]]:
    """The subject's searchable facts nearest to `vector`, (id, cosine similarity) best first, ties by id:
    what vector_facts returns, computed exactly over every fact instead of a binary-code shortlist."""
    entry = _current(flt.subject_id)
    if not len(entry.ids):
        return []
    sims = entry.vectors @ np.asarray(vector, dtype=np.float32)
    alive = (entry.expires > flt.now.timestamp()) & (sims >= min_sim)
    idx = np.flatnonzero(alive)
    if len(idx) > limit:
        # The `limit` best (argpartition), with every fact tied with the last of them, then sorted exactly.
        cut = np.partition(sims[idx], len(idx) - limit)[len(idx) - limit]
        idx = idx[sims[idx] >= cut]
    order = np.lexsort((entry.ids[idx], -sims[idx]))[:limit]
    return [(int(entry.ids[i]), float(sims[i])) for i in idx[order]]


def _version(subject_id: int) -> tuple[int, int]:
    with connection.cursor() as cursor:
        cursor.execute(_VERSION_SQL, [subject_id])
        count, ids = cursor.fetchone()
    return int(count), int(ids)


def _current(subject_id: int) -> _Entry:
    max_age = float(settings.SEARCH_VECTOR_CACHE_SECONDS)
    now = time.monotonic()
    with _lock:
        # Entries past their age go, searched or not: an erased subject's vectors do not outstay it for long.
        for stale in [pk for pk, e in _entries.items() if now - e.loaded >= max_age]:
            del _entries[stale]
        entry = _entries.get(subject_id)
        if entry is not None:
            _entries.move_to_end(subject_id)
    if entry is not None and entry.version == _version(subject_id):
        return entry
    entry = _load(subject_id)
    _store(subject_id, entry)
    return entry


def _load(subject_id: int) -> _Entry:
    """The subject's searchable vectors and their change-log version, read in one statement (one snapshot).
    Vectors come in pgvector's binary form (vector_send: two int16, then big-endian float4s)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT v.n, v.ids, f.id, vector_send(f.embedding), f.expires_at "
            f"FROM ({_VERSION_SQL}) v "
            "LEFT JOIN facts_fact f ON f.subject_id = %s AND f.tier = 'active' "
            "AND f.status IN ('active', 'conflicted') AND f.embedding IS NOT NULL ORDER BY f.id",
            [subject_id, subject_id],
        )
        rows = cursor.fetchall()
    version = (int(rows[0][0]), int(rows[0][1]))
    rows = [r for r in rows if r[2] is not None]
    vectors = np.empty((len(rows), EMBEDDING_DIMENSIONS), dtype=np.float32)
    for i, row in enumerate(rows):
        vectors[i] = np.frombuffer(bytes(row[3]), dtype=">f4", offset=4)
    return _Entry(
        version=version,
        ids=np.array([r[2] for r in rows], dtype=np.int64),
        vectors=vectors,
        expires=np.array([_NO_EXPIRY if r[4] is None else r[4].timestamp() for r in rows], dtype=np.float64),
        loaded=time.monotonic(),
    )


def _store(subject_id: int, entry: _Entry) -> None:
    budget = _budget_bytes()
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
    """Forget every entry of this process (tests)."""
    with _lock:
        _entries.clear()


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
