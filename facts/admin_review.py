"""The conflict review queue (/admin/facts/conflict/review/): open conflicts side by side, settled in one click.

Each open conflict shows both facts with their source messages and history; the operator keeps one, both or
neither (`conflict_resolve`). A chart shows how many conflicts were settled per day, by people and by rules.
Only the operator's tenant is listed or resolvable: another tenant's conflict id is a 404.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.utils import timezone

from conversations.admin_tenancy import tenant_scope
from facts import selectors, services
from facts.exceptions import ConflictAlreadyResolved, FactNotFound, InvalidKeep
from facts.models import Actor, Conflict, Fact, FactHistory
from memory_site import charts
from memory_site.paginator import EstimatedCountPaginator

PAGE_SIZE = 20
CHART_DAYS = 30


@dataclass
class Side:
    fact: Fact | None
    sources: list[Any]
    history: list[FactHistory]


@dataclass
class Card:
    conflict: Conflict
    a: Side
    b: Side


def _resolve(model_admin: admin.ModelAdmin, request: HttpRequest) -> None:
    if not model_admin.has_change_permission(request):
        raise PermissionDenied
    conflict = get_object_or_404(model_admin.get_queryset(request), pk=request.POST.get("conflict") or 0)
    keep = request.POST.get("keep", "")
    try:
        services.conflict_resolve(
            conflict=conflict, keep=keep, actor=Actor.OPERATOR, actor_id=str(request.user.get_username())
        )
    except (ConflictAlreadyResolved, InvalidKeep, FactNotFound) as exc:
        messages.error(request, f"Conflict #{conflict.pk}: {exc.message}")
        return
    said = {"both": "kept both facts", "neither": "kept neither fact"}.get(keep, f"kept fact #{keep}")
    messages.success(request, f"Conflict #{conflict.pk} resolved: {said}.")


def _cards(conflicts: list[Conflict]) -> list[Card]:
    fact_ids = [f.pk for c in conflicts for f in (c.fact_a, c.fact_b) if f is not None]
    sources, history = selectors.conflict_sides(fact_ids=fact_ids)

    def side(fact: Fact | None) -> Side:
        if fact is None:
            return Side(None, [], [])
        return Side(fact, sources.get(fact.pk, []), history.get(fact.pk, []))

    return [Card(c, side(c.fact_a), side(c.fact_b)) for c in conflicts]


def _resolved_chart(conflicts: Any) -> tuple[Any, int]:
    today = timezone.now().date()
    days = [today - dt.timedelta(days=CHART_DAYS - 1 - i) for i in range(CHART_DAYS)]
    since = timezone.make_aware(dt.datetime.combine(days[0], dt.time.min), dt.UTC)
    counts = selectors.conflicts_resolved_by_day(conflicts=conflicts, since=since)
    by_person = [counts.get(d, {}).get(Conflict.State.RESOLVED, 0) for d in days]
    by_rules = [counts.get(d, {}).get(Conflict.State.AUTO_RESOLVED, 0) for d in days]
    chart = charts.columns(
        [d.strftime("%m-%d") for d in days], {"resolved by a person": by_person, "auto-resolved": by_rules},
        label="Conflicts settled per day", height=160,
    )  # fmt: skip
    return chart, sum(by_person) + sum(by_rules)


def conflict_review_view(model_admin: admin.ModelAdmin, request: HttpRequest) -> HttpResponse:
    """GET: the queue; POST conflict=<id>&keep=<fact id|both|neither>: settle one and come back."""
    if not model_admin.has_view_or_change_permission(request):
        raise PermissionDenied
    if request.method == "POST":
        _resolve(model_admin, request)
        return HttpResponseRedirect(request.get_full_path())
    scoped = model_admin.get_queryset(request)
    open_conflicts = scoped.filter(state=Conflict.State.OPEN).order_by("created_at", "pk")
    page = EstimatedCountPaginator(open_conflicts, PAGE_SIZE).get_page(request.GET.get("page"))
    chart, settled = _resolved_chart(tenant_scope(Conflict.objects.all(), request))
    context = {
        **model_admin.admin_site.each_context(request),
        "title": "Conflict review",
        "opts": Conflict._meta,
        "page": page,
        "cards": _cards(list(page.object_list)),
        "chart": chart,
        "chart_legend": charts.legend(["resolved by a person", "auto-resolved"]),
        "settled": settled,
        "chart_days": CHART_DAYS,
        "can_change": model_admin.has_change_permission(request),
    }
    return TemplateResponse(request, "admin/facts/conflict/review.html", context)
