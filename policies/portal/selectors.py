"""What the portal shows one subject: its facts by type with their sources and last use, history, conflicts."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.db import connection
from django.db.models import Count, Q, QuerySet

from conversations.models import ApiKey, Subject
from facts.models import AccessLog, Conflict, Fact, FactHistory, FactSource, FactType
from facts.text import keywords

PAGE_SIZE = 100
SOURCES_SHOWN = 3
CURRENT = (Fact.Status.ACTIVE, Fact.Status.CONFLICTED)


@dataclass
class Source:
    text: str
    created_at: dt.datetime
    role: str


@dataclass
class LastUse:
    at: dt.datetime
    agent: str  # the API key's name and prefix, or "" for a system job


@dataclass
class FactRow:
    fact: Fact
    sources: list[Source] = field(default_factory=list)
    more_sources: int = 0
    last_use: LastUse | None = None


@dataclass
class FactFilters:
    q: str = ""
    type: str = ""
    status: str = ""  # "" = current (active or conflicted), "all", or one status
    tier: str = ""

    @classmethod
    def from_query(cls, params: Any) -> FactFilters:
        def pick(name: str, allowed: list[str]) -> str:
            value = str(params.get(name, "") or "")
            return value if value in allowed else ""

        return cls(
            q=str(params.get("q", "") or "").strip()[:200],
            type=pick("type", list(FactType.values)),
            status=pick("status", [*Fact.Status.values, "all"]),
            tier=pick("tier", list(Fact.Tier.values)),
        )


def portal_facts(*, subject: Subject, filters: FactFilters, page: int = 1) -> tuple[list[Fact], bool]:
    """One page of the subject's facts matching the filters, by type then newest; and whether more follow."""
    qs: QuerySet[Fact] = Fact.objects.filter(subject=subject).defer(
        "embedding", "embedding_zh", "search_vector", "search_text"
    )
    if filters.status == "":
        qs = qs.filter(status__in=CURRENT)
    elif filters.status != "all":
        qs = qs.filter(status=filters.status)
    if filters.type:
        qs = qs.filter(type=filters.type)
    if filters.tier:
        qs = qs.filter(tier=filters.tier)
    if filters.q:
        words = keywords(filters.q)
        qs = qs.filter(
            Q(text__icontains=filters.q) | Q(keywords__overlap=words) if words else Q(text__icontains=filters.q)
        )
    start = (max(page, 1) - 1) * PAGE_SIZE
    rows = list(qs.order_by("type", "-created_at", "-id")[start : start + PAGE_SIZE + 1])
    return rows[:PAGE_SIZE], len(rows) > PAGE_SIZE


def portal_fact(*, subject: Subject, fact_id: int) -> Fact | None:
    """The subject's fact, or None (another subject's fact is as absent as a missing one)."""
    return (
        Fact.objects.filter(subject=subject, pk=fact_id)
        .defer("embedding", "embedding_zh", "search_vector", "search_text")
        .first()
    )


def fact_rows(*, subject: Subject, facts: list[Fact]) -> list[FactRow]:
    """The facts with their first source messages (text and time) and their last use (two queries)."""
    rows = {f.pk: FactRow(f) for f in facts}
    for s in (
        FactSource.objects.filter(fact_id__in=list(rows))
        .order_by("message__created_at", "message_id")
        .values("fact_id", "message__content", "message__created_at", "message__role")
    ):
        row = rows[s["fact_id"]]
        if len(row.sources) < SOURCES_SHOWN:
            row.sources.append(Source(s["message__content"], s["message__created_at"], s["message__role"]))
        else:
            row.more_sources += 1
    for fact_id, use in facts_last_use(subject=subject, fact_ids=list(rows)).items():
        rows[fact_id].last_use = use
    return list(rows.values())


def facts_last_use(*, subject: Subject, fact_ids: list[int]) -> dict[int, LastUse]:
    """When each fact was last read, and by which agent, from the access log."""
    if not fact_ids:
        return {}
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT DISTINCT ON (u.fact_id) u.fact_id, l.created_at, k.name, k.prefix "
            f"FROM {AccessLog._meta.db_table} l CROSS JOIN LATERAL unnest(l.fact_ids) AS u(fact_id) "
            f"LEFT JOIN {ApiKey._meta.db_table} k ON k.id = l.api_key_id "
            "WHERE l.subject_id = %s AND u.fact_id = ANY(%s) ORDER BY u.fact_id, l.created_at DESC",
            [subject.pk, fact_ids],
        )
        return {
            fact_id: LastUse(at, f"{name} ({prefix}…)" if prefix else "")
            for fact_id, at, name, prefix in cursor.fetchall()
        }


def fact_history(*, subject: Subject, fact: Fact) -> QuerySet[FactHistory]:
    return FactHistory.objects.filter(subject=subject, fact_uid=fact.uid).order_by("created_at", "id")


def open_conflicts(*, subject: Subject) -> list[Conflict]:
    return list(
        Conflict.objects.filter(subject=subject, state=Conflict.State.OPEN)
        .select_related("fact_a", "fact_b")
        .defer(
            "fact_a__embedding",
            "fact_b__embedding",
            "fact_a__embedding_zh",
            "fact_b__embedding_zh",
            "fact_a__search_vector",
            "fact_b__search_vector",
        )
        .order_by("-created_at", "-id")[:50]
    )


def portal_conflict(*, subject: Subject, conflict_id: int) -> Conflict | None:
    return Conflict.objects.filter(subject=subject, pk=conflict_id).first()


def type_counts(*, subject: Subject) -> dict[str, int]:
    """How many current facts of each type the subject has (the filter shows them)."""
    rows = Fact.objects.filter(subject=subject, status__in=CURRENT).values("type").annotate(n=Count("id"))
    return {r["type"]: r["n"] for r in rows}
