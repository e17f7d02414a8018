"""Reads over facts; every function takes the tenant or the subject."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from django.contrib.postgres.search import SearchQuery, SearchRank
from django.db.models import QuerySet
from pgvector.django import CosineDistance

from conversations.models import Subject
from facts.embedding import embed_query
from facts.models import Fact, FactHistory
from facts.text import keywords, search_text


@dataclass
class SearchHit:
    kind: str
    id: int
    text: str
    type: str
    score: float
    matched_by: list[str]
    valid_from: Any
    created_at: Any
    sources: list[dict[str, Any]] = field(default_factory=list)


def fact_get(*, subject: Subject, fact_id: int) -> Fact:
    return Fact.objects.get(subject=subject, pk=fact_id)


def fact_list(*, subject: Subject) -> QuerySet[Fact]:
    return Fact.objects.filter(subject=subject).order_by("-created_at", "-id")


def fact_history(*, subject: Subject, fact: Fact) -> QuerySet[FactHistory]:
    return FactHistory.objects.filter(subject=subject, fact_uid=fact.uid).order_by("created_at", "id")


def facts_sources(*, fact_ids: list[int]) -> dict[int, list[dict[str, Any]]]:
    from facts.models import FactSource

    out: dict[int, list[dict[str, Any]]] = {pk: [] for pk in fact_ids}
    rows = (
        FactSource.objects.filter(fact_id__in=fact_ids)
        .select_related("message__session")
        .order_by("message__created_at", "message_id")
    )
    for row in rows:
        out[row.fact_id].append(
            {
                "message_id": row.message_id,
                "external_id": row.message.external_id,
                "session_id": row.message.session.external_id,
                "created_at": row.message.created_at,
            }
        )
    return out


def fact_search(*, subject: Subject, query: str, limit: int = 5) -> tuple[list[SearchHit], float]:
    """Hybrid search: vector and full-text candidates fused by reciprocal rank."""
    started = time.perf_counter()
    base = Fact.objects.filter(subject=subject, status__in=[Fact.Status.ACTIVE, Fact.Status.CONFLICTED])
    ranked: dict[str, list[int]] = {}
    vector = embed_query(query)
    if vector is not None:
        ranked["vector"] = list(
            base.filter(embedding__isnull=False)
            .order_by(CosineDistance("embedding", vector))
            .values_list("pk", flat=True)[: limit * 4]
        )
    words = keywords(query)
    if words:
        tsquery = SearchQuery(" | ".join(search_text(w) for w in words), search_type="raw", config="simple")
        ranked["keyword"] = list(
            base.filter(search_vector=tsquery)
            .annotate(rank=SearchRank("search_vector", tsquery))
            .order_by("-rank")
            .values_list("pk", flat=True)[: limit * 4]
        )
    scores: dict[int, float] = {}
    matched: dict[int, list[str]] = {}
    for signal, ids in ranked.items():
        for rank, pk in enumerate(ids):
            scores[pk] = scores.get(pk, 0.0) + 1.0 / (60 + rank)
            matched.setdefault(pk, []).append(signal)
    top = sorted(scores, key=lambda pk: -scores[pk])[:limit]
    facts = {f.pk: f for f in Fact.objects.filter(pk__in=top)}
    sources = facts_sources(fact_ids=top)
    hits = [
        SearchHit(
            kind="fact",
            id=pk,
            text=facts[pk].text,
            type=facts[pk].type,
            score=round(scores[pk], 6),
            matched_by=matched[pk],
            valid_from=facts[pk].valid_from,
            created_at=facts[pk].created_at,
            sources=sources[pk],
        )
        for pk in top
    ]
    return hits, (time.perf_counter() - started) * 1000
