"""The operator's dashboard (/admin/dashboard/): per tenant and period, charts drawn on the server, a cost calculator.

It reads only UsageDaily rows (policies.console.services fills them every 10 minutes). An operator tied to a
tenant sees that tenant only (another tenant's id in the query is a 404); a superuser sees all or picks one.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms
from django.contrib import admin
from django.http import Http404, HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils import timezone

from conversations.models import Tenant
from conversations.selectors import operator_tenant_ids
from memory_site import charts
from policies.console.cost import CostInputs, cost_compare
from policies.console.selectors import Usage, usage_for

PERIODS = (7, 30, 90)
SHARES = {"llm_share"}  # cost inputs that are fractions 0..1


class CostForm(forms.Form):
    """The calculator's inputs: every field of CostInputs, non-negative (shares at most 1)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in CostInputs.field_names():
            self.fields[name] = forms.FloatField(
                min_value=0, max_value=1 if name in SHARES else 1e12, label=name.replace("_", " ")
            )

    def inputs(self) -> CostInputs:
        return CostInputs(**self.cleaned_data)


def measured_inputs(usage: Usage) -> dict[str, float]:
    """The tenant's own volumes where the period has them; the seed analysis' figures elsewhere."""
    seed = CostInputs()
    t, days = usage.totals, max(len(usage.days), 1)
    values = {name: float(getattr(seed, name)) for name in CostInputs.field_names()}
    if t["messages"]:
        values["conversations_per_day"] = round(t["messages"] / 2 / days, 1)  # a user and an assistant turn each
    if t["context_calls"]:
        values["context_tokens"] = round(t["context_tokens"] / t["context_calls"])
    if usage.rates.get("llm_share") is not None:
        values["llm_share"] = round(float(usage.rates["llm_share"] or 0), 3)
    values["stored_facts"] = float(usage.facts_total)
    return values


def _scope(request: HttpRequest) -> tuple[list[Tenant], Tenant | None, list[int] | None]:
    ids = operator_tenant_ids(user=request.user)
    tenants = Tenant.objects.order_by("name") if ids is None else Tenant.objects.filter(pk__in=ids).order_by("name")
    chosen = request.GET.get("tenant", "")
    if not chosen:
        return list(tenants), None, ids
    tenant = tenants.filter(pk=chosen).first() if chosen.isdigit() else None
    if tenant is None:
        raise Http404("No such tenant.")
    return list(tenants), tenant, [tenant.pk]


def _charts(usage: Usage) -> dict[str, Any]:
    labels = [d.strftime("%m-%d") for d in usage.days]
    day = [usage.per_day[d] for d in usage.days]
    facts = sorted(
        (
            (f"{type_} ({tier})", n)
            for tier, by_type in usage.facts_by_tier_type.items()
            for type_, n in by_type.items()
        ),
        key=lambda item: -item[1],
    )
    outcomes = {"kept": "messages_kept", "dropped by the gate": "messages_skipped", "failed": "messages_failed",
                "waiting": "messages_waiting"}  # fmt: skip
    return {
        "facts": charts.bars(facts, label="Facts by type and tier"),
        "ingest": charts.columns(labels, {k: [r[v] for r in day] for k, v in outcomes.items()}, label="Messages"),
        "ingest_legend": charts.legend(list(outcomes)),
        "gate": charts.bars(usage.gate_reasons, label="Top reasons the gate dropped a message"),
        "searches": charts.columns(
            labels,
            {"hit": [r["search_hits"] for r in day], "no result": [r["searches"] - r["search_hits"] for r in day]},
            label="Searches",
        ),  # fmt: skip
        "searches_legend": charts.legend(["hit", "no result"]),
        "latency": charts.lines(
            labels,
            {"p50": [_finite(r["p50"]) for r in day], "p95": [_finite(r["p95"]) for r in day]},
            label="Search latency",
            unit=" ms",
        ),  # fmt: skip
        "latency_legend": charts.legend(["p50", "p95"]),
        "tokens": charts.columns(
            labels,
            {
                "context sent": [r["context_tokens"] for r in day],
                "full history instead": [max(r["full_history_tokens"] - r["context_tokens"], 0) for r in day],
            },
            label="Context tokens against full-history tokens",
        ),  # fmt: skip
        "tokens_legend": charts.legend(["context sent", "full history instead"]),
        "conflicts": charts.columns(
            labels,
            {
                "opened": [r["conflicts_opened"] for r in day],
                "resolved": [r["conflicts_resolved"] + r["conflicts_auto_resolved"] for r in day],
            },
            label="Conflicts",
        ),  # fmt: skip
        "conflicts_legend": charts.legend(["opened", "resolved"]),
    }


def _finite(value: float | None) -> float | None:
    return None if value is None or value == float("inf") else value


def dashboard_view(request: HttpRequest) -> HttpResponse:
    tenants, tenant, scope = _scope(request)
    days = int(request.GET.get("days", "30")) if request.GET.get("days", "30") in {str(p) for p in PERIODS} else 30
    last = timezone.now().astimezone(dt.UTC).date()
    usage = usage_for(tenant_ids=scope, first=last - dt.timedelta(days=days - 1), last=last)
    measured = measured_inputs(usage)
    asked = "price_input" in request.GET
    form = CostForm(request.GET if asked else None, initial=measured)
    invalid = asked and not form.is_valid()
    cost = None if invalid else cost_compare(form.inputs() if asked else CostInputs(**measured))
    context = {
        **admin.site.each_context(request),
        "title": "Dashboard",
        "tenants": tenants,
        "tenant": tenant,
        "days": days,
        "periods": PERIODS,
        "usage": usage,
        "charts": _charts(usage),
        "form": form,
        "cost": cost,
        "seed": CostInputs(),
        "latency_p95_over": usage.latency_p95_ms == float("inf"),
    }
    return TemplateResponse(request, "admin/console/dashboard.html", context, status=400 if invalid else 200)
