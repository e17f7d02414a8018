"""The keyword signal: facts and messages matching any query word, ranked by BM25.

Computed in PostgreSQL (only the best `limit` rows come back), or, for a large subject held in memory under the
default filter, by vector_cache.keyword_ranked: the same rows, the same ranking.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from facts.retrieval import held_messages, vector_cache
from facts.retrieval.scope import FactFilter, fetch, message_where
from facts.text import has_cjk

_NO_TIME = dt.datetime.min.replace(tzinfo=dt.UTC)  # messages do not expire: any time reads them all


@dataclass(frozen=True)
class KeywordTuning:
    bm25_k1: float = 1.2  # BM25's usual values; b 0.1-0.9 and k1 0.8 / 2.0 were all worse on LoCoMo
    bm25_b: float = 0.75
    max_rows: int = 3000  # matching rows scored per query (the first by id): bounds a very common word
    # Subjects up to this many facts match words row by row (~11 ms for 10k facts whatever the words); larger
    # ones use the full-text GIN index, which spans every subject (43 ms at 1M facts for a common word).
    scan_max: int = 20000


def term_predicates(
    terms: list[str], *, text_column: str, indexed: bool = True
) -> tuple[str, list[Any], list[str], list[Any]]:
    """One SQL boolean per term: full text (english stemmed or simple) for words, substring for Chinese.

    The tsqueries are built once in a one-row subquery `tq` (plainto_tsquery is only STABLE, so written inline it
    would be parsed again for every row). Returns (tq subquery, its params, predicates, their params).
    `indexed=False` writes the match as `ts_match_vq(...)`, the function behind `@@`, which no index serves: the
    subject's rows are then read through the subject index and matched one by one.
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


def _ranked(
    table: str,
    where: str,
    params: list[Any],
    terms: list[str],
    *,
    text_column: str,
    total: str,
    total_params: list[Any],
    limit: int,
    tuning: KeywordTuning,
    indexed: bool = True,
) -> list[tuple[int, float]]:
    """Rows matching any term ranked by BM25, computed in PostgreSQL: only the best `limit` rows come back.

    Binary term frequency: score = norm(length) * sum of idf(term) over the terms the row matches, with
    idf = ln(1 + (N - df + 0.5) / (df + 0.5)), df over the first `max_rows` matches by id and N = max(total,
    matches); norm = (k1 + 1) / (1 + k1 * (1 - b + b * length / mean length)).
    """
    tq, tq_params, preds, pred_params = term_predicates(terms, text_column=text_column, indexed=indexed)
    k1, b = tuning.bm25_k1, tuning.bm25_b
    flags = ", ".join(f"{p} AS p{i}" for i, p in enumerate(preds))
    dfs = ", ".join(f"sum(p{i}::int)::float8 AS d{i}" for i in range(len(preds)))
    idf = " + ".join(
        f"CASE WHEN m.p{i} THEN ln(1 + (s.n - s.d{i} + 0.5) / (s.d{i} + 0.5)) ELSE 0 END" for i in range(len(preds))
    )
    norm = f"({k1!r} + 1) / (1 + {k1!r} * (1 - {b!r} + {b!r} * m.len / s.avglen))"
    rows = fetch(
        f"WITH m AS MATERIALIZED (SELECT id, GREATEST(length(search_vector), 1) AS len, {flags} FROM {table}, {tq} "
        f"WHERE {where} AND ({' OR '.join(preds)}) ORDER BY id LIMIT %s), "
        f"s AS (SELECT GREATEST(({total}), count(*))::float8 AS n, COALESCE(avg(len), 1)::float8 AS avglen, {dfs} "
        "FROM m) "
        f"SELECT m.id, {norm} * ({idf}) AS score FROM m, s ORDER BY score DESC, m.id LIMIT %s",
        [
            *pred_params, *tq_params, *params, *pred_params, tuning.max_rows,
            *total_params, limit,
        ],
    )  # fmt: skip
    return [(int(pk), float(score)) for pk, score in rows if score and score > 0]


def keyword_facts(
    flt: FactFilter,
    terms: list[str],
    *,
    limit: int,
    total: int,
    tuning: KeywordTuning,
    held: vector_cache.Entry | None = None,
) -> list[tuple[int, float]]:
    """Facts matching any query term, ranked by BM25 (exact df over the subject's matching rows).

    `held`: the subject's facts in memory, for a filter memory serves; they answer the active tier (the same
    ranking, well under a millisecond), PostgreSQL anything else.
    """
    if not terms:
        return []
    if held is not None and flt.tiers == ["active"]:
        found = vector_cache.keyword_ranked(
            held, flt.now, terms, total=total, limit=limit, k1=tuning.bm25_k1, b=tuning.bm25_b, max_rows=tuning.max_rows
        )
        if found is not None:
            return found
    where, params = flt.sql()
    return _ranked(
        "facts_fact",
        where,
        params,
        terms,
        text_column="text",
        total="%s",
        total_params=[total],
        limit=limit,
        tuning=tuning,
        indexed=total > tuning.scan_max,
    )


def keyword_messages(
    subject_id: int,
    terms: list[str],
    *,
    limit: int,
    since: dt.datetime | None,
    until: dt.datetime | None,
    tuning: KeywordTuning,
    held: held_messages.Held | None = None,
) -> list[tuple[int, float]]:
    """The subject's messages matching any query term, ranked by BM25 over all its messages; from memory when
    `held` (the subject's messages, current; only without `since` / `until`), the same ranking."""
    if not terms:
        return []
    if held is not None and since is None and until is None:
        found = vector_cache.keyword_ranked(
            held.entry, _NO_TIME, terms, total=held.total, limit=limit, k1=tuning.bm25_k1, b=tuning.bm25_b,
            max_rows=tuning.max_rows,
        )  # fmt: skip
        if found is not None:
            return found
    where, params = message_where(subject_id, since, until)
    return _ranked(
        "conversations_message",
        where,
        params,
        terms,
        text_column="content",
        total=f"SELECT count(*) FROM conversations_message WHERE {where}",
        total_params=params,
        limit=limit,
        tuning=tuning,
    )
