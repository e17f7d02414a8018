"""Candidate generation in PostgreSQL: one ranked list per signal, each a few milliseconds.

Every query is scoped to one subject through the (subject, status, tier) btree index. Vector search is,
by default, an exact distance scan over the subject's rows (`ORDER BY distance + 0` keeps the planner off
the HNSW index): a subject rarely holds more than ~10k facts, an exact scan of those is a few milliseconds
and, unlike a filtered HNSW scan, always returns k rows and the true nearest ones. Above
SEARCH_VECTOR_EXACT_MAX facts the subject's vectors are held in memory (vector_cache: an exact product, ~1 ms
for 10k facts), or, for a filter memory does not serve, a binary-quantised first stage picks the rows the
exact cosine ranks.
SEARCH_VECTOR_MODE=hnsw switches to the HNSW index with pgvector's iterative scan for subjects far larger than that.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field, replace
from typing import Any

from django.conf import settings
from django.db import connection, transaction

from conversations.models import EMBEDDING_DIMENSIONS
from facts.retrieval import vector_cache
from facts.text import has_cjk

# What a search returns unless asked for more (superseded facts, the archived tier).
SEARCHED_STATUSES = ("active", "conflicted")
SEARCHED_TIERS = ("active",)


@dataclass
class FactFilter:
    """Which of a subject's rows a search may return."""

    subject_id: int
    statuses: list[str]
    tiers: list[str]
    types: list[str] | None = None
    since: dt.datetime | None = None
    until: dt.datetime | None = None
    now: dt.datetime = field(default_factory=lambda: dt.datetime.now(dt.UTC))
    # The search's view of the subject's facts held in memory (large subjects): read once, by either thread.
    snapshot: vector_cache.Snapshot = field(default_factory=vector_cache.Snapshot, compare=False, repr=False)

    def sql(self, *, tiers: list[str] | None = None) -> tuple[str, list[Any]]:
        clauses = ["subject_id = %s", "status = ANY(%s)", "tier = ANY(%s)", "(expires_at IS NULL OR expires_at > %s)"]
        params: list[Any] = [self.subject_id, self.statuses, tiers if tiers is not None else self.tiers, self.now]
        if self.types:
            clauses.append("type = ANY(%s)")
            params.append(self.types)
        if self.since is not None:
            clauses.append("COALESCE(event_time, valid_from, created_at) >= %s")
            params.append(self.since)
        if self.until is not None:
            clauses.append("COALESCE(event_time, valid_from, created_at) < %s")
            params.append(self.until)
        return " AND ".join(clauses), params


def _setting(name: str, default: Any) -> Any:
    return getattr(settings, name, default)


def _vector_literal(vector: list[float]) -> str:
    return "[" + ",".join(f"{x:.7g}" for x in vector) + "]"


def _fetch(sql: str, params: list[Any]) -> list[tuple[Any, ...]]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return list(cursor.fetchall())


def subject_fact_count_cached(flt: FactFilter) -> int:
    """The subject's searchable fact count, cached for SEARCH_COUNT_CACHE_SECONDS (IDF and cold start only).

    Counting 10k rows on every query costs milliseconds; a count a few seconds old changes neither.
    A cold-start subject (fewer than 5 facts) is never cached, so its first facts are used at once.
    """
    from django.core.cache import cache

    key = _count_key(flt.subject_id, flt.statuses, flt.tiers)
    count = cache.get(key)
    if count is None:
        count = subject_fact_count(FactFilter(subject_id=flt.subject_id, statuses=flt.statuses, tiers=flt.tiers))
        if count >= int(_setting("SEARCH_COLD_START_MIN_FACTS", 5)):
            cache.set(key, count, timeout=float(_setting("SEARCH_COUNT_CACHE_SECONDS", 30)))
    return int(count)


def subject_known_searchable(subject_id: int) -> bool:
    """Whether the subject's count under the default search's filter is cached: it was searched within the cache's time
    and is past the cold start (no database read)."""
    from django.core.cache import cache

    return cache.get(_count_key(subject_id, list(SEARCHED_STATUSES), list(SEARCHED_TIERS))) is not None


def _count_key(subject_id: int, statuses: list[str], tiers: list[str]) -> str:
    return f"search:fact-count:{subject_id}:{','.join(statuses)}:{','.join(tiers)}"


def subject_fact_count(flt: FactFilter, *, cap: int | None = None) -> int:
    """Searchable facts of the subject (capped: the cold-start check only needs to know "fewer than 5")."""
    where, params = flt.sql()
    if cap is not None:
        return int(
            _fetch(f"SELECT count(*) FROM (SELECT 1 FROM facts_fact WHERE {where} LIMIT %s) s", [*params, cap])[0][0]
        )
    return int(_fetch(f"SELECT count(*) FROM facts_fact WHERE {where}", params)[0][0])


def vector_facts(flt: FactFilter, vector: list[float], *, limit: int, total: int = 0) -> list[tuple[int, float]]:
    """Active-tier facts nearest to the query vector, (id, cosine similarity), best first.

    A subject with more than SEARCH_VECTOR_EXACT_MAX facts (`total`, its searchable count) is searched in two
    stages: its SEARCH_VECTOR_PREFILTER_DEPTH nearest by Hamming distance between binary-quantised vectors,
    then those by exact cosine. In memory (vector_cache) when the filter allows, else in PostgreSQL (an
    index-only scan of `fact_vector_bits`: 48 bytes a fact, no heap page read); both give the same rows in the
    same order. On 6.5k LoCoMo facts with real MiniLM vectors, depth 400 returned the exact top 10 for every
    question checked and 99 % of the exact top 50; at 1M facts it is ~2 ms instead of ~9 ms for 10k facts.
    """
    min_sim = float(_setting("SEARCH_VECTOR_MIN_SIMILARITY", 0.2))
    depth, prefilter = _two_stage(limit, total)
    mode = _setting("SEARCH_VECTOR_MODE", "exact")
    if vector_facts_in_memory(flt, limit=limit, total=total):
        return vector_cache.nearest(flt, vector, limit=limit, min_sim=min_sim, depth=depth)
    where, params = flt.sql(tiers=["active"])
    literal = _vector_literal(vector)
    if mode == "hnsw":
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL hnsw.iterative_scan = 'relaxed_order'")
                cursor.execute("SET LOCAL hnsw.ef_search = %s", [max(40, limit * 2)])
            rows = _fetch(
                f"SELECT id, embedding <=> %s::vector FROM facts_fact WHERE {where} AND embedding IS NOT NULL "
                "ORDER BY embedding <=> %s::vector LIMIT %s",
                [literal, *params, literal, limit],
            )
        rows.sort(key=lambda r: (r[1], r[0]))
    elif prefilter:
        bits = f"binary_quantize(%s::vector)::bit({EMBEDDING_DIMENSIONS})"
        rows = _fetch(
            f"WITH near AS MATERIALIZED (SELECT id FROM facts_fact WHERE {where} AND embedding IS NOT NULL "
            f"ORDER BY (embedding_bits <~> {bits}) + 0, id LIMIT %s) "
            "SELECT id, (embedding <=> %s::vector) + 0 AS d FROM facts_fact WHERE id IN (SELECT id FROM near) "
            "ORDER BY d, id LIMIT %s",
            [*params, literal, depth, literal, limit],
        )
    else:
        # The distance computed once per row (a select-list `1 - d` beside `ORDER BY d + 0` computed it twice).
        rows = _fetch(
            f"SELECT id, (embedding <=> %s::vector) + 0 AS d FROM facts_fact WHERE {where} AND embedding IS NOT NULL "
            "ORDER BY d, id LIMIT %s",
            [literal, *params, limit],
        )
    return _similar(rows, min_sim)


def vector_facts_in_memory(flt: FactFilter, *, limit: int, total: int) -> bool:
    """Whether vector_facts answers from this process's memory (vector_cache) rather than from PostgreSQL: the
    filter is one memory serves and the subject is held, current (checked once a search, by its snapshot)."""
    prefilter = _two_stage(limit, total)[1]
    return (
        prefilter
        and _setting("SEARCH_VECTOR_MODE", "exact") != "hnsw"
        and vector_cache.serves(flt, total=total)
        and flt.snapshot.entry(flt.subject_id) is not None
    )


def _two_stage(limit: int, total: int) -> tuple[int, bool]:
    """(depth of the sign-bit stage, whether a subject of `total` facts is searched in two stages)."""
    depth = max(int(_setting("SEARCH_VECTOR_PREFILTER_DEPTH", 400)), limit)
    return depth, total > int(_setting("SEARCH_VECTOR_EXACT_MAX", 2000)) and total > depth


def vector_facts_in_range(
    flt: FactFilter, vector: list[float], since: dt.datetime, until: dt.datetime, *, limit: int
) -> list[tuple[int, float]]:
    """The facts of a time range nearest to the query vector, (id, cosine similarity), best first.

    Only the range's newest SEARCH_VECTOR_EXACT_MAX facts are compared (read newest first through the
    (subject, fact time) index), so a wide range ("this year") of a large subject costs what an exact scan of a
    small subject does, and a day's or a month's facts are all compared.
    """
    where, params = replace(flt, since=since, until=until).sql(tiers=["active"])
    rows = _fetch(
        f"SELECT id, d FROM (SELECT id, (embedding <=> %s::vector) + 0 AS d FROM facts_fact WHERE {where} "
        "AND embedding IS NOT NULL ORDER BY COALESCE(event_time, valid_from, created_at) DESC, id DESC LIMIT %s) r "
        "ORDER BY d, id LIMIT %s",
        [_vector_literal(vector), *params, int(_setting("SEARCH_VECTOR_EXACT_MAX", 2000)), limit],
    )
    return _similar(rows, float(_setting("SEARCH_VECTOR_MIN_SIMILARITY", 0.2)))


def _similar(rows: list[tuple[Any, ...]], min_sim: float) -> list[tuple[int, float]]:
    """(id, cosine distance) rows, nearest first -> (id, cosine similarity) of those at least `min_sim`."""
    return [(int(pk), 1 - float(d)) for pk, d in rows if d is not None and 1 - float(d) >= min_sim]


def _term_predicates(
    terms: list[str], *, text_column: str, indexed: bool = True
) -> tuple[str, list[Any], list[str], list[Any]]:
    """One SQL boolean per term: full text (english stemmed or simple) for words, substring for Chinese.

    The tsqueries are built once in a one-row subquery `tq` (plainto_tsquery is only STABLE, so written
    inline it would be parsed again for every row). Returns (tq subquery, its params, predicates, their params).
    `indexed=False` writes the match as `ts_match_vq(...)`, the function behind `@@`, which no index serves:
    the subject's rows are then read through the subject index and matched one by one.
    """
    tq_cols: list[str] = []
    tq_params: list[Any] = []
    preds: list[str] = []
    params: list[Any] = []
    for i, term in enumerate(terms):
        if has_cjk(term):
            preds.append(f"(strpos({text_column}, %s) > 0)")
            params.append(term)
        else:
            tq_cols.append(f"(plainto_tsquery('english', %s) || plainto_tsquery('simple', %s)) AS q{i}")
            tq_params.extend([term, term])
            preds.append(f"(search_vector @@ tq.q{i})" if indexed else f"ts_match_vq(search_vector, tq.q{i})")
    tq = f"(SELECT {', '.join(tq_cols) or '1 AS none'}) tq"
    return tq, tq_params, preds, params


def _bm25() -> tuple[float, float, int]:
    """BM25's k1 and b, and how many matching rows it scores (the first by id)."""
    return (
        float(_setting("SEARCH_BM25_K1", 1.2)),
        float(_setting("SEARCH_BM25_B", 0.75)),
        int(_setting("SEARCH_KEYWORD_MAX_ROWS", 3000)),
    )


def _keyword_ranked(
    table: str,
    where: str,
    params: list[Any],
    terms: list[str],
    *,
    text_column: str,
    total: str,
    total_params: list[Any],
    limit: int,
    indexed: bool = True,
) -> list[tuple[int, float]]:
    """Rows matching any term ranked by BM25, computed in PostgreSQL: only the best `limit` rows come back.

    Binary term frequency: score = norm(length) * sum of idf(term) over the terms the row matches, with
    idf = ln(1 + (N - df + 0.5) / (df + 0.5)), df over the first SEARCH_KEYWORD_MAX_ROWS matches by id and
    N = max(total, matches); norm = (k1 + 1) / (1 + k1 * (1 - b + b * length / mean length)). Scoring thousands
    of matches of a common word in Python (their flags fetched, then scored) took longer than the query itself.
    """
    tq, tq_params, preds, pred_params = _term_predicates(terms, text_column=text_column, indexed=indexed)
    k1, b, max_rows = _bm25()
    flags = ", ".join(f"{p} AS p{i}" for i, p in enumerate(preds))
    dfs = ", ".join(f"sum(p{i}::int)::float8 AS d{i}" for i in range(len(preds)))
    idf = " + ".join(
        f"CASE WHEN m.p{i} THEN ln(1 + (s.n - s.d{i} + 0.5) / (s.d{i} + 0.5)) ELSE 0 END" for i in range(len(preds))
    )
    norm = f"({k1!r} + 1) / (1 + {k1!r} * (1 - {b!r} + {b!r} * m.len / s.avglen))"
    rows = _fetch(
        f"WITH m AS MATERIALIZED (SELECT id, GREATEST(length(search_vector), 1) AS len, {flags} FROM {table}, {tq} "
        f"WHERE {where} AND ({' OR '.join(preds)}) ORDER BY id LIMIT %s), "
        f"s AS (SELECT GREATEST(({total}), count(*))::float8 AS n, COALESCE(avg(len), 1)::float8 AS avglen, {dfs} "
        "FROM m) "
        f"SELECT m.id, {norm} * ({idf}) AS score FROM m, s ORDER BY score DESC, m.id LIMIT %s",
        [
            *pred_params, *tq_params, *params, *pred_params, max_rows,
            *total_params, limit,
        ],
    )  # fmt: skip
    return [(int(pk), float(score)) for pk, score in rows if score and score > 0]


def keyword_facts(
    flt: FactFilter, terms: list[str], *, limit: int, total: int, tiers: list[str] | None = None
) -> list[tuple[int, float]]:
    """Facts matching any query term, ranked by BM25 (exact df over the subject's matching rows).

    A subject above SEARCH_VECTOR_EXACT_MAX facts is, for the default filter, searched in its facts held in memory
    (vector_cache.keyword_ranked: the same ranking, well under a millisecond). Otherwise, up to
    SEARCH_KEYWORD_SCAN_MAX facts the subject's rows are matched one by one: ~11 ms for 10k facts whatever
    the words. The full-text GIN index spans every subject: for a word common in the whole table it read
    postings of hundreds of thousands of other subjects' rows (43 ms at 1M facts), for a rare one ~4 ms.
    """
    if not terms:
        return []
    if (tiers or flt.tiers) == ["active"] and vector_cache.serves(flt, total=total):
        k1, b, max_rows = _bm25()  # the same ranking, from the subject's facts held in memory
        held = vector_cache.keyword_ranked(flt, terms, total=total, limit=limit, k1=k1, b=b, max_rows=max_rows)
        if held is not None:
            return held
    where, params = flt.sql(tiers=tiers)
    return _keyword_ranked(
        "facts_fact",
        where,
        params,
        terms,
        text_column="text",
        total="%s",
        total_params=[total],
        limit=limit,
        indexed=total > int(_setting("SEARCH_KEYWORD_SCAN_MAX", 20000)),
    )


def entity_facts(flt: FactFilter, entities: list[str], *, limit: int, total: int) -> list[tuple[int, float]]:
    """Exact entity and slot matches (entity_keys, keywords, subject_entity / object_value), ranked by BM25
    with every length 1: rare entities weigh more. All in PostgreSQL, only the best `limit` rows come back.

    An entity more than SEARCH_ENTITY_MAX_SHARE of the subject's facts carry (at least 3), such as the user's
    own name or a speaker, tells nothing apart: it is dropped. Counted, as df, over the first
    SEARCH_KEYWORD_MAX_ROWS matches by id. (Fetching those rows to flag and score them in Python took ~10 ms
    a query on LoCoMo, where a speaker's name is on most facts.)
    """
    if not entities:
        return []
    where, params = flt.sql()
    n = range(len(entities))
    flags = ", ".join(
        f"COALESCE(%s = ANY(entity_keys) OR %s = ANY(keywords) OR lower(subject_entity) = %s "
        f"OR lower(object_value) = %s, false) AS f{i}"
        for i in n
    )
    kept = " OR ".join(f"(m.f{i} AND d.k{i})" for i in n)
    idf = " + ".join(
        f"CASE WHEN m.f{i} AND d.k{i} THEN ln(1 + (c.n - d.d{i} + 0.5) / (d.d{i} + 0.5)) ELSE 0 END" for i in n
    )
    cap = max(3.0, float(_setting("SEARCH_ENTITY_MAX_SHARE", 0.05)) * max(total, 1))
    rows = _fetch(
        f"WITH m AS MATERIALIZED (SELECT id, {flags} FROM facts_fact WHERE {where} AND (entity_keys && %s::varchar[] "
        "OR keywords && %s::varchar[] OR lower(subject_entity) = ANY(%s) OR lower(object_value) = ANY(%s)) "
        "ORDER BY id LIMIT %s), "
        f"d AS (SELECT {', '.join(f'sum(f{i}::int)::float8 AS d{i}' for i in n)} FROM m), "
        f"d2 AS (SELECT *, {', '.join(f'd{i} <= %s AS k{i}' for i in n)} FROM d) "
        f"SELECT m.id, ({idf}) AS score FROM m, d2 d, "
        f"(SELECT GREATEST(%s, count(*))::float8 AS n FROM m, d2 d WHERE {kept}) c "
        f"WHERE {kept} ORDER BY score DESC, m.id LIMIT %s",
        [
            *[e for e in entities for _ in range(4)], *params, entities, entities, entities, entities,
            int(_setting("SEARCH_KEYWORD_MAX_ROWS", 3000)), *[cap] * len(entities), total, limit,
        ],
    )  # fmt: skip
    return [(int(pk), float(score)) for pk, score in rows if score and score > 0]


def slot_facts(flt: FactFilter, predicates: list[str], *, limit: int) -> list[tuple[int, float]]:
    """Facts holding a slot the query names (predicate, or a prefix ending in ":" such as "pet:"), newest first."""
    if not predicates:
        return []
    exact = [p for p in predicates if not p.endswith(":")]
    prefixes = [p.replace("%", r"\%").replace("_", r"\_") + "%" for p in predicates if p.endswith(":")]
    # One LIKE per prefix (LIKE ANY(array) is no index condition): each is a range of the slot index, whose
    # pattern ops make it one in any collation. (LIKE ANY read all of a subject's rows: 17 ms for 10k facts.)
    matches = ["predicate = ANY(%s)"] * bool(exact) + ["predicate LIKE %s"] * len(prefixes)
    where, params = flt.sql()
    rows = _fetch(
        f"SELECT id FROM facts_fact WHERE {where} AND ({' OR '.join(matches)}) "
        "ORDER BY valid_from DESC NULLS LAST, id DESC LIMIT %s",
        [*params, *([exact] if exact else []), *prefixes, limit],
    )
    return [(int(r[0]), 1.0) for r in rows]


def time_facts(flt: FactFilter, since: dt.datetime, until: dt.datetime, *, limit: int) -> list[tuple[int, float]]:
    """Facts whose time (event, validity or creation) falls in the query's time range, latest first."""
    where, params = flt.sql()
    rows = _fetch(
        f"SELECT id, COALESCE(event_time, valid_from, created_at) AS t FROM facts_fact WHERE {where} "
        "AND COALESCE(event_time, valid_from, created_at) >= %s AND COALESCE(event_time, valid_from, created_at) < %s "
        "ORDER BY t DESC, id LIMIT %s",
        [*params, since, until, limit],
    )
    return [(int(pk), 1.0) for pk, _ in rows]


def facts_in_range(ids: list[int], since: dt.datetime, until: dt.datetime) -> set[int]:
    if not ids:
        return set()
    rows = _fetch(
        "SELECT id FROM facts_fact WHERE id = ANY(%s) AND COALESCE(event_time, valid_from, created_at) >= %s "
        "AND COALESCE(event_time, valid_from, created_at) < %s",
        [ids, since, until],
    )
    return {int(r[0]) for r in rows}


# ------------------------------------------------------------------------------------------ messages


def _message_where(subject_id: int, since: dt.datetime | None, until: dt.datetime | None) -> tuple[str, list[Any]]:
    clauses = ["subject_id = %s"]
    params: list[Any] = [subject_id]
    if since is not None:
        clauses.append("created_at >= %s")
        params.append(since)
    if until is not None:
        clauses.append("created_at < %s")
        params.append(until)
    return " AND ".join(clauses), params


def vector_messages(
    subject_id: int, vector: list[float], *, limit: int, since: dt.datetime | None, until: dt.datetime | None
) -> list[tuple[int, float]]:
    where, params = _message_where(subject_id, since, until)
    literal = _vector_literal(vector)
    min_sim = float(_setting("SEARCH_VECTOR_MIN_SIMILARITY", 0.2))
    rows = _fetch(
        f"SELECT id, (embedding <=> %s::vector) + 0 AS d FROM conversations_message WHERE {where} "
        "AND embedding IS NOT NULL ORDER BY d, id LIMIT %s",
        [literal, *params, limit],
    )
    return _similar(rows, min_sim)


def keyword_messages(
    subject_id: int, terms: list[str], *, limit: int, since: dt.datetime | None, until: dt.datetime | None
) -> list[tuple[int, float]]:
    if not terms:
        return []
    where, params = _message_where(subject_id, since, until)
    return _keyword_ranked(
        "conversations_message",
        where,
        params,
        terms,
        text_column="content",
        total=f"SELECT count(*) FROM conversations_message WHERE {where}",
        total_params=params,
        limit=limit,
    )
