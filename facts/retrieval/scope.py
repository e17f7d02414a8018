"""What a search may return (one subject's rows under a filter), how many of them there are, and the SQL helpers
the candidate signals share."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import cache
from django.db import connection

from facts.retrieval import asof

# What a search returns unless asked for more (superseded facts, the archived tier).
SEARCHED_STATUSES = ("active", "conflicted")
SEARCHED_TIERS = ("active",)


@dataclass(frozen=True)
class ScopeTuning:
    # Candidates per signal before fusion (at least 3 x the limit): 50 found less at limit 10, 70 / 80 no more.
    candidates: int = 60
    # Fewer searchable facts than this: a cold start, whose count is never cached (its first facts are searched at
    # once). The vector still runs there: the vector-alone cut and the relevance floor keep the noise out.
    cold_start_min_facts: int = 5
    # The subject's fact count (IDF, cold start) is cached this long: a count seconds old changes neither.
    count_cache_seconds: float = 30.0


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
    as_of: dt.datetime | None = None  # valid time: facts true at this moment (asof.py)
    known_at: dt.datetime | None = None  # transaction time: what the memory held at this moment

    def sql(self, *, tiers: list[str] | None = None) -> tuple[str, list[Any]]:
        clauses = ["subject_id = %s", "status = ANY(%s)", "tier = ANY(%s)", "(expires_at IS NULL OR expires_at > %s)"]
        expiry = self.as_of if self.as_of is not None else self.now
        params: list[Any] = [self.subject_id, self.statuses, tiers if tiers is not None else self.tiers, expiry]
        if self.as_of is not None or self.known_at is not None:
            clause, more = asof.clause(as_of=self.as_of, known_at=self.known_at)
            clauses.append(clause)
            params.extend(more)
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


def message_where(subject_id: int, since: dt.datetime | None, until: dt.datetime | None) -> tuple[str, list[Any]]:
    """The WHERE clause of a subject's messages, created in [since, until) when given."""
    clauses: list[str] = ["subject_id = %s"]
    params: list[Any] = [subject_id]
    if since is not None:
        clauses.append("created_at >= %s")
        params.append(since)
    if until is not None:
        clauses.append("created_at < %s")
        params.append(until)
    return " AND ".join(clauses), params


def fetch(sql: str, params: list[Any]) -> list[tuple[Any, ...]]:
    """All rows of one statement on the default connection."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return list(cursor.fetchall())


def vector_literal(vector: list[float]) -> str:
    return "[" + ",".join(f"{x:.7g}" for x in vector) + "]"


def similar(rows: list[tuple[Any, ...]], min_sim: float) -> list[tuple[int, float]]:
    """(id, cosine distance) rows, nearest first -> (id, cosine similarity) of those at least `min_sim`."""
    return [(int(pk), 1 - float(d)) for pk, d in rows if d is not None and 1 - float(d) >= min_sim]


@dataclass(frozen=True)
class SubjectCounts:
    """A subject's searchable facts under a filter's statuses and tiers, and how many of them are Chinese (have a
    vector of the encoder that reads Chinese, `embedding_zh`): where a query in another language is also read there."""

    total: int
    chinese: int = 0


def subject_counts(flt: FactFilter) -> SubjectCounts:
    """The subject's searchable facts under the filter's statuses and tiers, and its Chinese ones (one statement)."""
    where, params = flt.sql()
    total, chinese = fetch(f"SELECT count(*), count(embedding_zh) FROM facts_fact WHERE {where}", params)[0]
    return SubjectCounts(int(total), int(chinese))


def subject_counts_cached(flt: FactFilter, tuning: ScopeTuning) -> SubjectCounts:
    """The subject's searchable fact counts, cached for `count_cache_seconds` (IDF, cold start, and whether its
    Chinese facts are read for a query in another language).

    A cold-start subject is never cached, so its first facts are searched by every signal at once.
    """
    key = f"search:fact-counts:{flt.subject_id}:{','.join(flt.statuses)}:{','.join(flt.tiers)}"
    cached = cache.get(key)
    if isinstance(cached, tuple) and len(cached) == 2:
        return SubjectCounts(int(cached[0]), int(cached[1]))
    counts = subject_counts(FactFilter(subject_id=flt.subject_id, statuses=flt.statuses, tiers=flt.tiers))
    if counts.total >= tuning.cold_start_min_facts:
        cache.set(key, (counts.total, counts.chinese), timeout=tuning.count_cache_seconds)
    return counts


Key = tuple[str, int]  # ("fact" | "message", id)
Ranking = list[tuple[Key, float]]  # one signal's candidates, (key, raw score), best first


def keyed(kind: str, scored: list[tuple[int, float]]) -> Ranking:
    return [((kind, pk), score) for pk, score in scored]


def merged(*rankings: Ranking) -> Ranking:
    """One signal's rankings of facts and of messages merged into one, best first (ties by kind, then id)."""
    out = [item for ranking in rankings for item in ranking]
    out.sort(key=lambda x: (-x[1], x[0][0], x[0][1]))
    return out
