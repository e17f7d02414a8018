"""The vector signal: the subject's facts (and messages) nearest to the query's embedding.

By default an exact distance scan over the subject's rows (`ORDER BY distance + 0` keeps the planner off the HNSW
index): a subject rarely holds more than ~10k facts, an exact scan of those is a few milliseconds and, unlike a
filtered HNSW scan, always returns k rows and the true nearest ones. Above `exact_max` facts, two stages: the
`prefilter_depth` nearest by Hamming distance between binary-quantised vectors (an index-only scan of
`fact_vector_bits`, 48 bytes a fact), then those by exact cosine. Either is answered from this process's memory
when the subject is held there (vector_cache: the same rows in the same order). SEARCH_VECTOR_MODE=hnsw uses the
HNSW index with pgvector's iterative scan instead, for subjects far larger than that.

A Chinese query is searched in another space (`ZH`): its multilingual-e5 vector against the Chinese rows'
`embedding_zh` (facts/services/zh_vectors.py), always by an exact scan in PostgreSQL (memory holds MiniLM's
vectors). A query in another language searched in a subject that holds Chinese facts reads both: MiniLM's space, and
the Chinese rows by its own e5 vector (`cross_space`), since MiniLM does not read Chinese. e5's cosines of
unrelated Chinese sentences lie around 0.75-0.85, MiniLM's around 0.2-0.3, so its
similarities are mapped onto MiniLM's scale, (c - origin) / (1 - origin), and every cut downstream (the tunings'
min_similarity, the re-ranker's vector-alone cut) reads them alike.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field, replace
from typing import Any

from django.db import connection, transaction

from conversations.models import EMBEDDING_DIMENSIONS
from facts.retrieval import held_messages, vector_cache
from facts.retrieval.rows import Rows, nearest_with_rows
from facts.retrieval.scope import (
    FactFilter,
    Ranking,
    fetch,
    keyed,
    merged,
    message_where,
    similar,
    vector_literal,
)

_NO_TIME = dt.datetime.min.replace(tzinfo=dt.UTC)  # messages do not expire: any time reads them all


@dataclass(frozen=True)
class VectorTuning:
    mode: str = "exact"  # SEARCH_VECTOR_MODE (an operator's choice): exact | hnsw
    min_similarity: float = 0.2  # MiniLM gives 0.2-0.3 to unrelated sentences: weaker matches are noise
    exact_max: int = 2000  # above this many facts, two stages: ~2 ms instead of ~9 at 10k
    prefilter_depth: int = 400  # the sign-bit stage: at 400 every LoCoMo question checked kept its exact top 10
    # Each name the query gives that is on `name_min_share` of the subject's rows: this share of its component
    # taken out of the query's vector (focus.py).
    name_share: float = 1.0
    name_min_share: float = 0.05
    # A query in another language than a subject's Chinese facts also reads them by multilingual-e5 (`cross_space`).
    # An English question lies at ~0.77-0.83 (10th-90th percentile) of the Chinese turn that answers it, the best
    # turn of a subject that holds no answer at ~0.77-0.82 (two Chinese sentences: 0.88-0.92 and 0.86-0.89): e5 ranks
    # across the languages, it says little of whether anything answers (relevance.json's "xl" models read that).
    # The origin sets the cuts and how these similarities stand beside MiniLM's in a memory of both languages: 0.6 /
    # 0.65 / 0.7 / 0.75 -> recall@10 of facts 0.93 / 0.93 / 0.88 / 0.45 (`python -m bench.crosslingual`; bench/README.md,
    # session 37). The lowest that keeps it: at 0.6 an unrelated Chinese fact outranked an English answer.
    cross_lingual: bool = True
    cross_origin: float = 0.65


@dataclass(frozen=True)
class VectorSpace:
    """The column a query's vector is compared with, and how its cosines map onto MiniLM's scale."""

    column: str = "embedding"
    origin: float = 0.0  # a cosine c reads as (c - origin) / (1 - origin)

    def distance(self, vector_param: str = "%s") -> str:
        """The SQL distance of the column to the query's vector, on MiniLM's scale (1 - the mapped similarity)."""
        d = f"({self.column} <=> {vector_param}::vector)"
        return d if self.origin == 0 else f"({d} / {1 - self.origin!r})"


BASE = VectorSpace()
# multilingual-e5-small on Chinese: over bench/zh_calibration.json a question's evidence turn lies at 0.85-0.92 and
# the best turn of another subject at 0.86-0.91 (5th-95th percentiles): e5 ranks within a subject, it does not say
# whether one answers (docs/relevance.md). At origin 0.7 MiniLM's 0.2 cut is e5's 0.76, the re-ranker's 0.3 is 0.79.
ZH = VectorSpace(column="embedding_zh", origin=0.7)


def cross_space(tuning: VectorTuning) -> VectorSpace:
    """The Chinese rows' column read by a query of another language's multilingual-e5 vector, on MiniLM's scale."""
    return VectorSpace(column="embedding_zh", origin=tuning.cross_origin)


@dataclass
class Unfocused:
    """The query's own vector, where the vector signal ranks by another (focus.py: common names taken out), and
    filled by nearest_facts / nearest_messages, each returned row's cosine similarity to it, by id: what the
    relevance features read (relevance.json was fitted on the query's own similarities). Only the rows returned
    are compared again: a dot product each in memory, a column of the same statement in PostgreSQL."""

    vector: list[float]
    similarity: dict[int, float] = field(default_factory=dict)


def two_stage(tuning: VectorTuning, *, limit: int, total: int) -> tuple[int, bool]:
    """(depth of the sign-bit stage, whether a subject of `total` facts is searched in two stages)."""
    depth = max(tuning.prefilter_depth, limit)
    return depth, total > tuning.exact_max and total > depth


def in_memory(tuning: VectorTuning, held: vector_cache.Entry | None) -> bool:
    """Whether `nearest_facts` answers from the subject's facts held in memory rather than from PostgreSQL: in two
    stages above `exact_max` facts, else by exact cosine over all of them, as PostgreSQL does."""
    return held is not None and tuning.mode != "hnsw"


def nearest_facts(
    flt: FactFilter,
    vector: list[float],
    *,
    limit: int,
    total: int,
    tuning: VectorTuning,
    held: vector_cache.Entry | None = None,
    rows: Rows | None = None,
    unfocused: Unfocused | None = None,
    space: VectorSpace = BASE,
) -> list[tuple[int, float]]:
    """Active-tier facts nearest to the query vector, (id, cosine similarity), best first.

    `total` is the subject's searchable count; `held`, the subject's facts in memory when current and the filter
    is one memory serves (vector_cache.serves). Memory and PostgreSQL give the same rows in the same order.
    With `rows`, PostgreSQL's answer reads the rows of the facts found (those `rows` lacks) in the same statement.
    With `unfocused`, the facts' similarity to its vector is put there too (not in the HNSW mode). In another
    `space` than MiniLM's, an exact scan of its column.
    """
    if space is not BASE:
        where, params = flt.sql(tiers=["active"])
        return _nearest(
            "fact",
            f"SELECT id, {space.distance()} + 0 AS d FROM facts_fact WHERE {where} AND {space.column} IS NOT NULL "
            "ORDER BY d, id LIMIT %s",
            [vector_literal(vector), *params, limit],
            min_sim=tuning.min_similarity,
            rows=rows,
        )
    depth, staged = two_stage(tuning, limit=limit, total=total)
    if held is not None and in_memory(tuning, held):
        depth = depth if staged else len(held.ids)  # every fact compared: PostgreSQL's exact scan
        raw = (unfocused.vector, unfocused.similarity) if unfocused is not None else None
        return vector_cache.nearest(
            held, flt.now, vector, limit=limit, min_sim=tuning.min_similarity, depth=depth, raw=raw
        )
    where, params = flt.sql(tiers=["active"])
    literal = vector_literal(vector)
    if tuning.mode == "hnsw":
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL hnsw.iterative_scan = 'relaxed_order'")
                cursor.execute("SET LOCAL hnsw.ef_search = %s", [max(40, limit * 2)])
            found = fetch(
                f"SELECT id, embedding <=> %s::vector FROM facts_fact WHERE {where} AND embedding IS NOT NULL "
                "ORDER BY embedding <=> %s::vector LIMIT %s",
                [literal, *params, literal, limit],
            )
        found.sort(key=lambda r: (r[1], r[0]))
    elif staged:
        bits = f"binary_quantize(%s::vector)::bit({EMBEDDING_DIMENSIONS})"
        return _nearest(
            "fact",
            f"WITH near AS MATERIALIZED (SELECT id FROM facts_fact WHERE {where} AND embedding IS NOT NULL "
            f"ORDER BY (embedding_bits <~> {bits}) + 0, id LIMIT %s) "
            "SELECT id, (embedding <=> %s::vector) + 0 AS d FROM facts_fact WHERE id IN (SELECT id FROM near) "
            "ORDER BY d, id LIMIT %s",
            [*params, literal, depth, literal, limit],
            min_sim=tuning.min_similarity,
            rows=rows,
            unfocused=unfocused,
        )
    else:
        # The distance computed once per row (a select-list `1 - d` beside `ORDER BY d + 0` computed it twice).
        return _nearest(
            "fact",
            f"SELECT id, (embedding <=> %s::vector) + 0 AS d FROM facts_fact WHERE {where} AND embedding IS NOT NULL "
            "ORDER BY d, id LIMIT %s",
            [literal, *params, limit],
            min_sim=tuning.min_similarity,
            rows=rows,
            unfocused=unfocused,
        )
    return similar(found, tuning.min_similarity)


def _nearest(
    kind: str, sql: str, params: list[Any], *, min_sim: float, rows: Rows | None, unfocused: Unfocused | None = None
) -> list[tuple[int, float]]:
    """The (id, similarity) of `sql`'s (id, distance) rows at least `min_sim` similar; with `rows`, their rows
    read in the same statement (rows.nearest_with_rows) and added there; with `unfocused`, each row's distance to
    its vector read by the same statement (after the limit: only the rows returned are compared)."""
    if unfocused is not None:
        table = "facts_fact" if kind == "fact" else "conversations_message"
        sql = (
            f"SELECT n0.id, n0.d, (x.embedding <=> %s::vector) AS r FROM ({sql}) n0 JOIN {table} x ON x.id = n0.id "
            "ORDER BY n0.d, n0.id"
        )
        params = [vector_literal(unfocused.vector), *params]
    if rows is None:
        found = fetch(sql, params)
    else:
        known = rows.facts if kind == "fact" else rows.messages
        found, read = nearest_with_rows(kind, sql, params, known=known, min_sim=min_sim, raw=unfocused is not None)
    kept = similar([(pk, d) for pk, d, *_ in found], min_sim)
    if unfocused is not None:
        near = {pk for pk, _ in kept}
        unfocused.similarity.update((int(pk), 1 - float(r)) for pk, _, r in found if pk in near)
    if rows is not None:
        rows.add(kind, {pk: read[pk] for pk, _ in kept if pk in read})
    return kept


def nearest_facts_in_range(
    flt: FactFilter,
    vector: list[float],
    since: dt.datetime,
    until: dt.datetime,
    *,
    limit: int,
    tuning: VectorTuning,
    space: VectorSpace = BASE,
) -> list[tuple[int, float]]:
    """The facts of a time range nearest to the query vector, (id, cosine similarity), best first.

    Only the range's newest `exact_max` facts are compared (read newest first through the (subject, fact time)
    index), so a wide range ("this year") of a large subject costs what an exact scan of a small subject does,
    and a day's or a month's facts are all compared.
    """
    where, params = replace(flt, since=since, until=until).sql(tiers=["active"])
    rows = fetch(
        f"SELECT id, d FROM (SELECT id, {space.distance()} + 0 AS d FROM facts_fact WHERE {where} "
        f"AND {space.column} IS NOT NULL ORDER BY COALESCE(event_time, valid_from, created_at) DESC, id DESC LIMIT %s) r "
        "ORDER BY d, id LIMIT %s",
        [vector_literal(vector), *params, tuning.exact_max, limit],
    )
    return similar(rows, tuning.min_similarity)


def nearest_messages(
    subject_id: int,
    vector: list[float],
    *,
    limit: int,
    since: dt.datetime | None,
    until: dt.datetime | None,
    tuning: VectorTuning,
    rows: Rows | None = None,
    unfocused: Unfocused | None = None,
    held: held_messages.Held | None = None,
    space: VectorSpace = BASE,
) -> list[tuple[int, float]]:
    """The subject's messages nearest to the query vector (an exact scan: messages have no vector index); with
    `rows`, their rows read in the same statement; with `unfocused`, their similarity to its vector put there.
    With `held` (the subject's messages in memory, current) and no time bounds, memory compares every one."""
    if held is not None and since is None and until is None and tuning.mode != "hnsw" and space is BASE:
        entry = held.entry
        raw = (unfocused.vector, unfocused.similarity) if unfocused is not None else None
        found = vector_cache.nearest(
            entry, _NO_TIME, vector, limit=limit, min_sim=tuning.min_similarity, depth=len(entry.ids), raw=raw
        )
        if rows is not None:
            rows.add("message", held.message_rows(pk for pk, _ in found if pk not in rows.messages))
        return found
    where, params = message_where(subject_id, since, until)
    return _nearest(
        "message",
        f"SELECT id, {space.distance()} + 0 AS d FROM conversations_message WHERE {where} "
        f"AND {space.column} IS NOT NULL ORDER BY d, id LIMIT %s",
        [vector_literal(vector), *params, limit],
        min_sim=tuning.min_similarity,
        rows=rows,
        unfocused=unfocused,
    )


def nearest_in_range(
    flt: FactFilter,
    vector: list[float],
    since: dt.datetime,
    until: dt.datetime,
    *,
    limit: int,
    facts: bool,
    messages: bool,
    tuning: VectorTuning,
    space: VectorSpace = BASE,
) -> Ranking:
    """The facts and messages inside the query's time range nearest to the query, best first: "what happened to
    my knee on 2 May" ranks that day's turns about the knee first, where the time list alone only knows they are
    from that day."""
    lo = since if flt.since is None else max(since, flt.since)
    hi = until if flt.until is None else min(until, flt.until)
    if lo >= hi:
        return []
    found: Ranking = []
    if facts:
        found += keyed("fact", nearest_facts_in_range(flt, vector, lo, hi, limit=limit, tuning=tuning, space=space))
    if messages:
        near = nearest_messages(flt.subject_id, vector, limit=limit, since=lo, until=hi, tuning=tuning, space=space)
        found += keyed("message", near)
    return merged(found)
