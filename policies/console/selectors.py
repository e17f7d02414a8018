"""The dashboard's reads: sums of UsageDaily rows for the tenants an operator may see, over a period."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Max

from policies.models import LATENCY_BUCKETS_MS, UsageDaily

SUMMED = (
    "messages", "messages_kept", "messages_skipped", "messages_failed", "messages_waiting", "extracted_by_rules",
    "extracted_by_llm", "llm_tokens", "facts_created", "searches", "search_hits", "search_results", "context_calls",
    "context_tokens", "full_history_tokens", "conflicts_opened", "conflicts_resolved", "conflicts_auto_resolved",
    "feedback_useful", "feedback_total",
)  # fmt: skip


@dataclass
class Usage:
    days: list[dt.date]
    per_day: dict[dt.date, dict[str, Any]]
    totals: dict[str, int]
    facts_by_tier_type: dict[str, dict[str, int]]
    gate_reasons: list[tuple[str, int]]
    latency_p50_ms: float | None
    latency_p95_ms: float | None
    aggregated_at: dt.datetime | None
    rates: dict[str, float | None] = field(default_factory=dict)

    @property
    def facts_total(self) -> int:
        return sum(n for by_type in self.facts_by_tier_type.values() for n in by_type.values())


def histogram_percentile(histogram: list[int], q: float) -> float | None:
    """The upper bound (ms) of the bucket holding the q-quantile; None without data, inf past the last bound."""
    total = sum(histogram)
    if not total:
        return None
    seen = 0
    for i, n in enumerate(histogram):
        seen += n
        if seen >= q * total:
            return float(LATENCY_BUCKETS_MS[i]) if i < len(LATENCY_BUCKETS_MS) else float("inf")
    return float("inf")


def _ratio(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def usage_for(*, tenant_ids: list[int] | None, first: dt.date, last: dt.date) -> Usage:
    """Figures of the tenants (None: all) from `first` to `last` (UTC days, both included)."""
    rows = UsageDaily.objects.filter(day__gte=first, day__lte=last)
    latest = UsageDaily.objects.exclude(facts_by_tier_type={})
    if tenant_ids is not None:
        rows, latest = rows.filter(tenant_id__in=tenant_ids), latest.filter(tenant_id__in=tenant_ids)
    days = [first + dt.timedelta(days=i) for i in range((last - first).days + 1)]
    per_day: dict[dt.date, dict[str, Any]] = {d: dict.fromkeys(SUMMED, 0) for d in days}
    histogram = [0] * (len(LATENCY_BUCKETS_MS) + 1)
    reasons: Counter[str] = Counter()
    for row in rows.order_by("day"):
        day = per_day[row.day]
        for name in SUMMED:
            day[name] += getattr(row, name)
        day_hist = day.setdefault("histogram", [0] * len(histogram))
        for i, n in enumerate(row.latency_histogram or []):
            histogram[i] += n
            day_hist[i] += n
        reasons.update(row.gate_reasons or {})
    for day in per_day.values():
        day["p50"] = histogram_percentile(day.get("histogram", []), 0.5)
        day["p95"] = histogram_percentile(day.get("histogram", []), 0.95)
    snapshot: dict[str, dict[str, int]] = {}
    for row in latest.order_by("tenant_id", "-day").distinct("tenant_id"):
        for tier, by_type in row.facts_by_tier_type.items():
            for type_, n in by_type.items():
                snapshot.setdefault(tier, {})[type_] = snapshot.get(tier, {}).get(type_, 0) + n
    totals = {name: sum(d[name] for d in per_day.values()) for name in SUMMED}
    usage = Usage(
        days=days, per_day=per_day, totals=totals, facts_by_tier_type=snapshot, gate_reasons=reasons.most_common(8),
        latency_p50_ms=histogram_percentile(histogram, 0.5), latency_p95_ms=histogram_percentile(histogram, 0.95),
        aggregated_at=rows.aggregate(at=Max("aggregated_at"))["at"],
    )  # fmt: skip
    usage.rates = {
        "hit_rate": _ratio(totals["search_hits"], totals["searches"]),
        "contribution_rate": _ratio(totals["feedback_useful"], totals["feedback_total"]),
        "context_share": _ratio(totals["context_tokens"], totals["full_history_tokens"]),
        "kept_share": _ratio(totals["messages_kept"], totals["messages"]),
        "llm_share": _ratio(totals["extracted_by_llm"], totals["extracted_by_llm"] + totals["extracted_by_rules"]),
    }
    return usage
