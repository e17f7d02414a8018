"""The console's periodic job: count each tenant's day into UsageDaily (the dashboard reads only those rows).

Idempotent: each run recomputes the last `days` UTC days from the source tables and upserts one row per tenant
and day, so running it twice, or two runs at once, leaves the same rows. Every query reads a time range through
an index on its time column (messages by `received_at`, the rest by `created_at`), except the snapshot of facts
by tier and type, one grouped scan of the facts table per run.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from typing import Any

from django.db import connection
from django.db.models import Count, Q, Sum
from django.db.models.functions import TruncDate
from django.utils import timezone

from conversations.models import Message, Tenant
from facts.models import Conflict, ContextCall, Fact, SearchCall
from policies.models import LATENCY_BUCKETS_MS, Feedback, UsageDaily

TOP_GATE_REASONS = 12  # per day; the dashboard shows the period's top few
Key = tuple[int, dt.date]


def _since(days: int) -> tuple[dt.date, dt.datetime]:
    first = timezone.now().astimezone(dt.UTC).date() - dt.timedelta(days=days - 1)
    return first, dt.datetime.combine(first, dt.time.min, tzinfo=dt.UTC)


def _messages(rows: dict[Key, dict[str, Any]], since: dt.datetime) -> None:
    grouped = (
        Message.objects.filter(received_at__gte=since)
        .annotate(day=TruncDate("received_at", tzinfo=dt.UTC))
        .values("tenant_id", "day", "extraction_state", "gate_decision", "extractor")
        .annotate(n=Count("id"), tokens=Sum("llm_tokens"))
    )
    for g in grouped:
        row = rows[(g["tenant_id"], g["day"])]
        row["messages"] += g["n"]
        row["llm_tokens"] += g["tokens"] or 0  # the extractor's calls, shared among the messages of each prompt
        state = g["extraction_state"]
        if state == Message.ExtractionState.FAILED:
            row["messages_failed"] += g["n"]
        elif state in (Message.ExtractionState.PENDING, Message.ExtractionState.RUNNING):
            row["messages_waiting"] += g["n"]
        elif g["gate_decision"] == "skip" or state == Message.ExtractionState.SKIPPED:
            row["messages_skipped"] += g["n"]
        else:
            row["messages_kept"] += g["n"]
        if state == Message.ExtractionState.DONE:
            key = "extracted_by_llm" if (g["extractor"] or "").startswith("llm") else "extracted_by_rules"
            row[key] += g["n"]
    reasons = (
        Message.objects.filter(received_at__gte=since)
        .filter(Q(gate_decision="skip") | Q(extraction_state=Message.ExtractionState.SKIPPED))
        .annotate(day=TruncDate("received_at", tzinfo=dt.UTC))
        .values("tenant_id", "day", "gate_reason")
        .annotate(n=Count("id"))
        .order_by("-n")
    )
    for r in reasons:
        found = rows[(r["tenant_id"], r["day"])]["gate_reasons"]
        if len(found) < TOP_GATE_REASONS:
            found[r["gate_reason"] or "(no reason given)"] = r["n"]
    # Plug point: the gate's decision records (a later table with the gate's scores) fill `gate_reasons` here once
    # they exist; until then reasons come from the messages. The summariser's LLM tokens are not counted yet.


def _latency(rows: dict[Key, dict[str, Any]], since: dt.datetime) -> None:
    bounds = "ARRAY[" + ",".join(str(float(b)) for b in LATENCY_BUCKETS_MS) + "]::float8[]"
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT tenant_id, (created_at AT TIME ZONE 'UTC')::date AS day, width_bucket(took_ms, {bounds}) AS b, "
            "count(*) FROM facts_searchcall WHERE created_at >= %s GROUP BY 1, 2, 3",
            [since],
        )
        for tenant_id, day, bucket, n in cursor.fetchall():
            histogram = rows[(tenant_id, day)]["latency_histogram"]
            histogram[min(bucket, len(LATENCY_BUCKETS_MS))] += n
        cursor.execute(
            "SELECT tenant_id, (created_at AT TIME ZONE 'UTC')::date AS day, "
            "percentile_cont(0.5) WITHIN GROUP (ORDER BY took_ms), percentile_cont(0.95) WITHIN GROUP (ORDER BY took_ms) "
            "FROM facts_searchcall WHERE created_at >= %s GROUP BY 1, 2",
            [since],
        )
        for tenant_id, day, p50, p95 in cursor.fetchall():
            rows[(tenant_id, day)].update(latency_p50_ms=p50, latency_p95_ms=p95)


def _calls(rows: dict[Key, dict[str, Any]], since: dt.datetime) -> None:
    searches = (
        SearchCall.objects.filter(created_at__gte=since)
        .annotate(day=TruncDate("created_at", tzinfo=dt.UTC))
        .values("tenant_id", "day")
        .annotate(n=Count("id"), hits=Count("id", filter=Q(result_count__gt=0)), results=Sum("result_count"))
    )
    for g in searches:
        rows[(g["tenant_id"], g["day"])].update(
            searches=g["n"], search_hits=g["hits"], search_results=g["results"] or 0
        )
    contexts = (
        ContextCall.objects.filter(created_at__gte=since)
        .annotate(day=TruncDate("created_at", tzinfo=dt.UTC))
        .values("tenant_id", "day")
        .annotate(n=Count("id"), tokens=Sum("tokens"), full=Sum("full_history_tokens"))
    )
    for c in contexts:
        rows[(c["tenant_id"], c["day"])].update(
            context_calls=c["n"], context_tokens=c["tokens"] or 0, full_history_tokens=c["full"] or 0
        )
    _latency(rows, since)


def _facts_and_conflicts(rows: dict[Key, dict[str, Any]], since: dt.datetime, today: dt.date) -> None:
    created = (
        Fact.objects.filter(created_at__gte=since)
        .annotate(day=TruncDate("created_at", tzinfo=dt.UTC))
        .values("tenant_id", "day")
        .annotate(n=Count("id"))
    )
    for g in created:
        rows[(g["tenant_id"], g["day"])]["facts_created"] = g["n"]
    for f in Fact.objects.values("tenant_id", "tier", "type").annotate(n=Count("id")).order_by():
        by_tier = rows[(f["tenant_id"], today)]["facts_by_tier_type"].setdefault(f["tier"], {})
        by_tier[f["type"]] = f["n"]
    opened = (
        Conflict.objects.filter(created_at__gte=since)
        .annotate(day=TruncDate("created_at", tzinfo=dt.UTC))
        .values("tenant_id", "day")
        .annotate(n=Count("id"))
    )
    for g in opened:
        rows[(g["tenant_id"], g["day"])]["conflicts_opened"] = g["n"]
    settled = (
        Conflict.objects.filter(resolved_at__gte=since)
        .annotate(day=TruncDate("resolved_at", tzinfo=dt.UTC))
        .values("tenant_id", "day", "state")
        .annotate(n=Count("id"))
    )
    for c in settled:
        key = "conflicts_auto_resolved" if c["state"] == Conflict.State.AUTO_RESOLVED else "conflicts_resolved"
        rows[(c["tenant_id"], c["day"])][key] += c["n"]
    rated = (
        Feedback.objects.filter(created_at__gte=since)
        .annotate(day=TruncDate("created_at", tzinfo=dt.UTC))
        .values("tenant_id", "day")
        .annotate(n=Count("id"), useful=Count("id", filter=Q(useful=True)))
    )
    for g in rated:  # the contribution rate: results rated useful over results rated (policies.Feedback)
        row = rows[(g["tenant_id"], g["day"])]
        row["feedback_useful"], row["feedback_total"] = g["useful"], g["n"]


def _empty_row() -> dict[str, Any]:
    row: dict[str, Any] = defaultdict(int)
    row.update(gate_reasons={}, facts_by_tier_type={}, latency_histogram=[0] * (len(LATENCY_BUCKETS_MS) + 1))
    row.update(latency_p50_ms=None, latency_p95_ms=None)
    return row


def usage_aggregate(*, days: int = 2) -> int:
    """Recount the last `days` UTC days (today included) for every tenant; return the rows written."""
    first, since = _since(days)
    today = first + dt.timedelta(days=days - 1)
    rows: dict[Key, dict[str, Any]] = defaultdict(_empty_row)
    for tenant_id in Tenant.objects.values_list("pk", flat=True):
        rows[(tenant_id, today)]  # noqa: B018 (every tenant gets today's row: its facts snapshot)
    _messages(rows, since)
    _calls(rows, since)
    _facts_and_conflicts(rows, since, today)
    now = timezone.now()
    fields = [f.name for f in UsageDaily._meta.fields if f.name not in ("id", "tenant", "day")]
    objects = [
        UsageDaily(tenant_id=tenant_id, day=day, aggregated_at=now, **{k: v for k, v in row.items() if k in fields})
        for (tenant_id, day), row in rows.items()
        if day >= first
    ]
    # A past day keeps the facts snapshot its last run of that day took; today's is taken now.
    past_fields = [f for f in fields if f != "facts_by_tier_type"]
    for batch, update in (
        ([o for o in objects if o.day == today], fields),
        ([o for o in objects if o.day != today], past_fields),
    ):
        UsageDaily.objects.bulk_create(
            batch, update_conflicts=True, unique_fields=["tenant", "day"], update_fields=update, batch_size=500
        )
    return len(objects)
