"""A held subject's messages (its raw turns, what `include_messages` searches), in this process's memory.

The messages' keyword and vector signals, and the rows a result shows, read by PostgreSQL on every search with
messages: the keyword statement while the query embeds, the vector statement (with the rows it found) after it.
For a subject whose facts memory serves (vector_cache.serves), they are answered here instead, by the same code
over the same kind of entry (held.Entry: a message's vector, its search_vector's lexemes, its content, and no
expiry), with the same rows, scores and order as the statements in candidates/keyword.py and vector.py:
- keyword: BM25 over every message of the subject (N = their count, as `SELECT count(*)` gives it), English
  terms by the lexemes of search_vector, Chinese terms as substrings of the content (strpos), lengths
  GREATEST(length(search_vector), 1) (1 for a message extraction has not reached yet);
- vector: the exact cosine scan of the messages with a vector (every one compared, ties by id);
- rows: rows.py's message columns (content, role, name, time, external ids), by id.
The vocabulary (answerable.py) counts the subject's turns in every search with words, messages or not: a held
subject's turns are held for searches of facts alone too, and counted here (PostgreSQL's statement over 10k turns
took 30-40 ms, longer than the query's embedding).

Current means, as for facts: one check per search (`current`) that the subject's rows in facts_messagechange
(a trigger on conversations_message appends one per message inserted, deleted, or updated in a column search
reads; migration 0014) read the same (count, sum of ids) as when the entry was read. The rows above the entry's
last one name the messages to read again, in the same statement; when they account for the whole difference,
the entry takes them (held.refreshed: a new message is appended, a deleted one leaves at once) and memory
answers. Anything else (a late commit below the entry's last row, a prune, a statement that changed more than
MESSAGE_CHANGE_IDS_MAX of the subject's messages, more than `refresh_max_facts` messages): PostgreSQL answers and
the loader thread reads the subject's messages whole. A deleted message is never returned from memory after
its deletion committed: the check that follows it sees its row in the log, and either the refresh drops it or
PostgreSQL answers. An entry also goes after SEARCH_VECTOR_CACHE_SECONDS, as facts' entries do.

Budget: message entries have one of their own, the same SEARCH_VECTOR_CACHE_MB as the facts' (least recently
searched out first). A message costs its vector (1.5 kB), its code, its lexemes' places in the postings, its
content twice (the text matched and its row) and its row's objects: `Held.nbytes` counts them.
"""

from __future__ import annotations

import datetime as dt
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db import close_old_connections, connection
from django.utils import timezone

from facts.retrieval import vector_cache
from facts.retrieval.held import Entry, FactRow, entry_from_rows, refreshed
from memory_site.db import fetch_prepared

Row = dict[str, Any]

# What a held message is read with: held.FactRow (no expiry), then rows.py's message columns after the id.
_COLUMNS = (
    "m.id, vector_send(m.embedding), NULL::timestamptz, GREATEST(length(m.search_vector), 1), "
    "tsvector_to_array(m.search_vector), m.content, m.role, lower(m.name), m.created_at, m.external_id, "
    "s.external_id, m.keywords"
)
_ROW_KEYS = ("role", "name_key", "created_at", "external_id", "session_external_id", "keywords")
_VERSION_SQL = (
    "SELECT count(*) AS n, COALESCE(sum(id), 0) AS ids, COALESCE(max(id), 0) AS last "
    "FROM facts_messagechange WHERE subject_id = %s"
)
_CHANGES_SQL = (
    "WITH news AS MATERIALIZED (SELECT id, message_id FROM facts_messagechange WHERE subject_id = %s AND id > %s) "
    "SELECT v.n, v.ids, (SELECT count(*) FROM news), (SELECT COALESCE(sum(id), 0) FROM news), "
    "(SELECT COALESCE(max(id), 0) FROM news), (SELECT count(*) FROM news WHERE message_id IS NULL), "
    f"(SELECT count(DISTINCT message_id) FROM news), w.message_id, {_COLUMNS} "
    "FROM (SELECT count(*) AS n, COALESCE(sum(id), 0) AS ids FROM facts_messagechange WHERE subject_id = %s) v "
    "LEFT JOIN (SELECT DISTINCT message_id FROM news WHERE message_id IS NOT NULL LIMIT %s) w ON true "
    "LEFT JOIN conversations_message m ON m.id = w.message_id AND m.subject_id = %s "
    "LEFT JOIN conversations_session s ON s.id = m.session_id"
)
_ROW_OBJECT_BYTES = 600  # a row's dict and its values (a datetime, short strings), roughly


@dataclass(frozen=True)
class Held:
    """One subject's messages as read at `entry.version` of their change log, with the rows results show."""

    entry: Entry
    rows: dict[int, Row]  # message id -> rows.py's message row
    rows_bytes: int  # what `rows` costs (_row_bytes of each), kept as rows come and go instead of summed again

    @property
    def total(self) -> int:
        """How many messages the subject has (BM25's N: every message, with or without a vector)."""
        return self.entry.size

    @property
    def nbytes(self) -> int:
        return self.entry.nbytes + self.rows_bytes

    def message_rows(self, ids: Iterable[int]) -> dict[int, Row]:
        """The rows of the held messages among `ids` (a copy each: the search's own), as rows.message_rows
        reads them."""
        return {pk: dict(row) for pk in ids if (row := self.rows.get(pk)) is not None}


_held: OrderedDict[int, Held] = OrderedDict()
_nbytes: dict[int, int] = {}
_lock = threading.Lock()
_loading: set[int] = set()
_load_started: dict[int, float] = {}


def _row_bytes(row: Row) -> int:
    """A held row's cost: its copy of the content, its dict and values, and its list of content words (the words
    themselves are interned, shared by every turn and search that holds them, and not counted)."""
    words = row["keywords"]
    return len(row["text"].encode("utf-8")) + _ROW_OBJECT_BYTES + (0 if words is None else 56 + 8 * len(words))


def _split(rows: list[tuple[Any, ...]]) -> tuple[list[FactRow], dict[int, Row]]:
    found: list[FactRow] = []
    by_id: dict[int, Row] = {}
    for r in rows:
        found.append(r[:6])
        row = {"id": r[0], "text": r[5], **dict(zip(_ROW_KEYS, r[6:12], strict=True))}
        if row["keywords"] is not None:  # one object per distinct word, shared by the turns that hold it
            row["keywords"] = list(map(sys.intern, row["keywords"]))
        by_id[int(r[0])] = row
    return found, by_id


def current(
    subject_id: int, cache: vector_cache.CacheSettings, *, fetch: vector_cache.Fetch = fetch_prepared
) -> Held | None:
    """The subject's held messages if current, or brought current by reading the few changed since (one
    statement, which also reads their change log; `fetch` runs it), else None (PostgreSQL answers; the loader
    reads them)."""
    now = time.monotonic()
    with _lock:
        for stale in [pk for pk, h in _held.items() if now - h.entry.loaded >= cache.max_age_seconds]:
            del _held[stale]
            _nbytes.pop(stale, None)
        held = _held.get(subject_id)
        if held is not None:
            _held.move_to_end(subject_id)
    if held is not None:
        fresh = _checked(subject_id, held, cache, fetch)
        if fresh is not None:
            return fresh
        with _lock:  # stale beyond a refresh (an erasure, a prune): what was deleted is not kept until a load
            if _held.get(subject_id) is held:
                del _held[subject_id]
                _nbytes.pop(subject_id, None)
    _load_soon(subject_id, cache)
    return None


def _checked(subject_id: int, held: Held, cache: vector_cache.CacheSettings, fetch: vector_cache.Fetch) -> Held | None:
    """`held` if its log reads the same, else brought current from the rows above its last one, else None."""
    entry = held.entry
    most = cache.refresh_max_facts
    rows = fetch(_CHANGES_SQL, vector_cache.changes_params(subject_id, entry.last_change, most))
    count, ids, new, new_ids, last, whole, changed = (int(x) for x in rows[0][:7])
    if (count, ids) == entry.version:
        return held
    counted, summed = entry.version
    if (count, ids) != (counted + new, summed + new_ids) or whole or changed > most:
        return None
    found, by_id = _split([r[8:] for r in rows if r[8] is not None])
    gone = [int(r[7]) for r in rows if r[7] is not None and r[7] not in by_id]
    with _lock:  # refreshes start only from the entry held, one at a time (held.py: they share buffers)
        now_held = _held.get(subject_id)
        if now_held is not held:
            return now_held if now_held is not None and now_held.entry.version == (count, ids) else None
        fresh_entry = refreshed(entry, found, gone, version=(count, ids), last_change=max(last, entry.last_change))
        merged = {pk: row for pk, row in held.rows.items() if pk not in gone}
        left = [held.rows[pk] for pk in {*gone, *by_id} if pk in held.rows]  # deleted, or read again
        merged.update(by_id)
        size = held.rows_bytes - sum(map(_row_bytes, left)) + sum(map(_row_bytes, by_id.values()))
        fresh = Held(fresh_entry, merged, size)
        _put(subject_id, fresh, cache.budget_bytes)
    if fresh_entry.dead > max(32, fresh_entry.size // 8):
        _load_soon(subject_id, cache)
    return fresh


# Both change logs' checks in one statement: the facts' rows tagged 'f' (their columns, then NULLs for the
# messages' own), the messages' tagged 'm'.
_BOTH_CHANGES_SQL = (
    f"SELECT 'f', c.*, NULL::text, NULL::text, NULL::timestamptz, NULL::text, NULL::text, NULL::text[] "
    f"FROM ({vector_cache.CHANGES_SQL}) c UNION ALL SELECT 'm', c.* FROM ({_CHANGES_SQL}) c"
)


def current_with_facts(
    subject_id: int, cache: vector_cache.CacheSettings
) -> tuple[vector_cache.Entry | None, Held | None]:
    """vector_cache.current and current for a search of both, in one round trip when both are held: their two
    statements as one (one snapshot of both logs), whose rows each check then takes as its statement's."""
    entry, held = vector_cache.held_entry(subject_id), held_subject(subject_id)
    if entry is None or held is None:
        return vector_cache.current(subject_id, cache), current(subject_id, cache)
    most = cache.refresh_max_facts
    facts_params = vector_cache.changes_params(subject_id, entry.last_change, most)
    params = vector_cache.changes_params(subject_id, held.entry.last_change, most)
    rows = fetch_prepared(_BOTH_CHANGES_SQL, [*facts_params, *params])
    facts = _Read(vector_cache.CHANGES_SQL, facts_params, [r[1:15] for r in rows if r[0] == "f"])
    messages = _Read(_CHANGES_SQL, params, [r[1:] for r in rows if r[0] == "m"])
    return vector_cache.current(subject_id, cache, fetch=facts), current(subject_id, cache, fetch=messages)


@dataclass(frozen=True)
class _Read:
    """A statement's rows read already: its own when asked with the same parameters (a check that finds another
    entry held by then, read from another change row, runs its statement)."""

    sql: str
    params: list[int]
    rows: list[tuple[Any, ...]]

    def __call__(self, sql: str, params: list[Any]) -> list[tuple[Any, ...]]:
        if sql == self.sql and params == self.params:
            return self.rows
        return fetch_prepared(sql, params)


def held_subject(subject_id: int) -> Held | None:
    """The subject's messages as held, current or not (not counted as searched)."""
    with _lock:
        return _held.get(subject_id)


def _load_soon(subject_id: int, cache: vector_cache.CacheSettings) -> None:
    now = time.monotonic()
    with _lock:
        if subject_id in _loading or now - _load_started.get(subject_id, -1e18) < cache.load_pause_seconds:
            return
        if len(_load_started) > 1024:
            _load_started.clear()
        _loading.add(subject_id)
        _load_started[subject_id] = now
    if not vector_cache.submit_load(_load_in_background, subject_id, cache.budget_bytes):
        with _lock:
            _loading.discard(subject_id)


def _load_in_background(subject_id: int, budget: float) -> None:
    try:
        held = load(subject_id)
        with _lock:
            _put(subject_id, held, budget)
    except Exception:  # a database error, say: the next search after the pause tries again
        vector_cache.logger.warning("reading subject %s's messages into memory failed", subject_id, exc_info=True)
    finally:
        with _lock:
            _loading.discard(subject_id)
        close_old_connections()


def load(subject_id: int) -> Held:
    """The subject's messages and their change-log version, read in one statement (one snapshot)."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT v.n, v.ids, v.last, {_COLUMNS} FROM ({_VERSION_SQL}) v "
            "LEFT JOIN conversations_message m ON m.subject_id = %s "
            "LEFT JOIN conversations_session s ON s.id = m.session_id ORDER BY m.id",
            [subject_id, subject_id],
        )
        rows = cursor.fetchall()
    version, last = (int(rows[0][0]), int(rows[0][1])), int(rows[0][2])
    found, by_id = _split([r[3:] for r in rows if r[3] is not None])
    entry = entry_from_rows(found, version=version, last_change=last, loaded=time.monotonic())
    return Held(entry, by_id, sum(map(_row_bytes, by_id.values())))


def _put(subject_id: int, held: Held, budget: float) -> None:
    """Hold `held` (under _lock), the least recently searched going while over the budget."""
    _held.pop(subject_id, None)
    _nbytes.pop(subject_id, None)
    size = held.nbytes
    if size > budget:
        return
    _held[subject_id], _nbytes[subject_id] = held, size
    total = sum(_nbytes.values())
    while total > budget:
        evicted, _ = _held.popitem(last=False)
        total -= _nbytes.pop(evicted)


def held_subjects() -> list[int]:
    with _lock:
        return list(_held)


def clear() -> None:
    """Forget every entry of this process (tests; vector_cache.clear calls it)."""
    with _lock:
        _held.clear()
        _nbytes.clear()
        _load_started.clear()


vector_cache.on_clear(clear)


def messages_change_prune(*, older_than: dt.timedelta = dt.timedelta(hours=1)) -> int:
    """Delete message change rows older than `older_than`, except each subject's newest; returns how many went
    (an erased subject's went with it). Each pruned subject's messages are read again once."""
    with connection.cursor() as cursor:
        cursor.execute(
            "DELETE FROM facts_messagechange c WHERE c.created_at < %s AND "
            "c.id < (SELECT max(n.id) FROM facts_messagechange n WHERE n.subject_id = c.subject_id)",
            [timezone.now() - older_than],
        )
        return int(cursor.rowcount)
