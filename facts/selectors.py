"""Reads over facts; every function takes the tenant or the subject."""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from django.db.models import Count, QuerySet
from django.db.models.expressions import RawSQL
from django.db.models.functions import TruncDate

from conversations.models import ApiKey, Subject
from facts.models import Fact, FactHistory, FactSource
from facts.retrieval import access, asof, rows
from facts.retrieval.hits import SearchHit  # the result shape; callers import it from here
from facts.retrieval.query_vector import QueryVector
from facts.retrieval.relevance import QuerySignals
from facts.retrieval.search import run_search

# Columns no API payload shows: the vector alone is 1.5 KB a row, and parsing it was a tenth of the web
# workers' CPU while clients polled their ingest jobs.
PAYLOAD_DEFERRED = ("embedding", "search_vector", "search_text")


def facts_for_payload() -> QuerySet[Fact]:
    """Facts as the API shows them: with their read counters (`fact.access`), without the search columns."""
    return Fact.objects.defer(*PAYLOAD_DEFERRED).select_related("access")


def fact_get(*, subject: Subject, fact_id: int) -> Fact:
    return facts_for_payload().get(subject=subject, pk=fact_id)


def fact_list(
    *, subject: Subject, as_of: dt.datetime | None = None, known_at: dt.datetime | None = None
) -> QuerySet[Fact]:
    """The subject's facts, newest first, each with its read counters (`fact.access`, absent until read).

    With `as_of` / `known_at`: the facts true at that moment as the memory held them then (facts.retrieval.asof).
    """
    qs = facts_for_payload().filter(subject=subject)
    if as_of is not None or known_at is not None:
        clause, params = asof.clause(as_of=as_of, known_at=known_at)
        sql = f"SELECT id FROM facts_fact WHERE subject_id = %s AND {clause}"
        qs = qs.filter(pk__in=RawSQL(sql, [subject.pk, *params]))  # noqa: S611 (the clause is the code's own SQL)
    return qs.order_by("-created_at", "-id")


def facts_for_messages(*, message_ids: list[int]) -> list[Fact]:
    """Facts touched by these messages (created from or merged with them), oldest first."""
    return list(facts_for_payload().filter(sources__message_id__in=message_ids).distinct().order_by("created_at", "id"))


def fact_history(*, subject: Subject, fact: Fact) -> QuerySet[FactHistory]:
    return FactHistory.objects.filter(subject=subject, fact_uid=fact.uid).order_by("created_at", "id")


def facts_sources(*, fact_ids: list[int]) -> dict[int, list[dict[str, Any]]]:
    """Each fact's source messages (id, external id, session, time), oldest first, in one query."""
    return rows.facts_sources(fact_ids)


def fact_search(
    *,
    subject: Subject,
    query: str,
    limit: int = 5,
    types: list[str] | None = None,
    include_archived: bool = False,
    include_messages: bool = False,
    since: dt.datetime | None = None,
    until: dt.datetime | None = None,
    api_key: ApiKey | None = None,
    record_access: bool = True,
    include_superseded: bool = False,
    access_later: list[Callable[[], None]] | None = None,
    min_relevance: float | None = None,
    as_of: dt.datetime | None = None,
    known_at: dt.datetime | None = None,
    early_vector: QueryVector | None = None,
    whole_query_floor: bool = False,
    signals_out: list[QuerySignals] | None = None,
) -> tuple[list[SearchHit], float]:
    """Deterministic hybrid search over one subject's memory (no LLM); returns the hits and took_ms.

    Vector, full-text, entity and time candidates are fused and re-ranked (facts.retrieval). Reads are
    counted off the request: the access record is queued on commit when `record_access` is set; with
    `access_later`, the queueing is appended there instead, for the caller to run once its answer is sent.
    `early_vector`: the query's embedding started before the request was authenticated (facts.middleware), if any.
    `signals_out`: receives what the relevance read of the query (facts.retrieval.relevance.QuerySignals), if given.
    """
    started = time.perf_counter()
    outcome = run_search(
        subject_id=subject.pk,
        query=query,
        limit=limit,
        types=types,
        include_archived=include_archived,
        include_messages=include_messages,
        include_superseded=include_superseded,
        since=since,
        until=until,
        min_relevance=min_relevance,
        as_of=as_of,
        known_at=known_at,
        early_vector=early_vector,
        whole_query_floor=whole_query_floor,
    )
    took_ms = (time.perf_counter() - started) * 1000
    if signals_out is not None and outcome.query_signals is not None:
        signals_out.append(outcome.query_signals)
    if record_access:
        matched = sorted({signal for hit in outcome.hits for signal in hit.matched_by})
        schedule = partial(
            access.facts_schedule_access,
            record=access.AccessRecord(
                subject_id=subject.pk,
                tenant_id=subject.tenant_id,
                fact_ids=[hit.id for hit in outcome.hits if hit.kind == "fact"],
                api_key_id=api_key.pk if api_key is not None else None,
                operation="search",
                took_ms=took_ms,
                result_count=len(outcome.hits),
                matched_by=matched,
            ),
        )
        if access_later is not None:
            access_later.append(schedule)
        else:
            schedule()
    return outcome.hits, took_ms


# --- the operator's conflict review queue ----------------------------------------------------------------------


def conflict_sides(*, fact_ids: list[int]) -> tuple[dict[int, list[Any]], dict[int, list[FactHistory]]]:
    """Each fact's source messages (content and time, no vectors) and history events, oldest first."""
    sources: dict[int, list[Any]] = {}
    for source in (
        FactSource.objects.filter(fact_id__in=fact_ids)
        .select_related("message")
        .only("fact_id", "span_start", "span_end", "message__id", "message__content", "message__created_at",
              "message__role", "message__name")
        .order_by("message__created_at", "pk")
    ):  # fmt: skip
        sources.setdefault(source.fact_id, []).append(source)
    history: dict[int, list[FactHistory]] = {}
    for event in FactHistory.objects.filter(fact_id__in=fact_ids).order_by("created_at", "id"):
        history.setdefault(event.fact_id or 0, []).append(event)
    return sources, history


def conflicts_resolved_by_day(*, conflicts: QuerySet[Any], since: dt.datetime) -> dict[dt.date, dict[str, int]]:
    """Conflicts settled per day since `since`, by how (resolved by a person, auto-resolved by the rules)."""
    rows = (
        conflicts.filter(resolved_at__gte=since)
        .annotate(day=TruncDate("resolved_at"))
        .values("day", "state")
        .annotate(n=Count("id"))
    )
    days: dict[dt.date, dict[str, int]] = {}
    for row in rows:
        days.setdefault(row["day"], {})[row["state"]] = row["n"]
    return days
