"""Reads over webhook endpoints and deliveries; every function takes the tenant, an endpoint or a subject."""

from __future__ import annotations

import threading
import time

from django.conf import settings
from django.db.models import QuerySet
from django.http import Http404

from conversations.models import Tenant
from integrations.webhooks.models import WebhookDelivery, WebhookEndpoint

OPEN = [WebhookDelivery.State.PENDING, WebhookDelivery.State.SENDING]

_subscriptions: dict[int, tuple[float, frozenset[str]]] = {}  # tenant id -> (valid until, events), per process
_subscriptions_lock = threading.Lock()


def tenant_webhook_events(tenant_id: int) -> frozenset[str]:
    """The events the tenant's enabled endpoints subscribe to: what the lower apps ask before they emit.

    Cached in the process for WEBHOOK_SUBSCRIPTIONS_CACHE_SECONDS (one indexed query per tenant and period on the
    write path); a change made in this process is seen at once, one made in another process within that time.
    """
    now = time.monotonic()
    cached = _subscriptions.get(tenant_id)
    if cached is not None and cached[0] > now:
        return cached[1]
    rows = WebhookEndpoint.objects.filter(tenant_id=tenant_id, enabled=True).values_list("events", flat=True)
    events = frozenset(event for row in rows for event in row)
    with _subscriptions_lock:
        _subscriptions[tenant_id] = (now + settings.WEBHOOK_SUBSCRIPTIONS_CACHE_SECONDS, events)
    return events


def subscriptions_forget(tenant_id: int) -> None:
    """Drop the tenant's cached subscriptions in this process (its endpoints changed)."""
    with _subscriptions_lock:
        _subscriptions.pop(tenant_id, None)


def endpoint_list(*, tenant: Tenant) -> QuerySet[WebhookEndpoint]:
    return WebhookEndpoint.objects.filter(tenant=tenant).order_by("created_at", "id")


def endpoint_get(*, tenant: Tenant, endpoint_id: int) -> WebhookEndpoint:
    """The tenant's endpoint, or Http404 (also for another tenant's)."""
    endpoint = WebhookEndpoint.objects.filter(tenant=tenant, pk=endpoint_id).first()
    if endpoint is None:
        raise Http404("No such webhook.")
    return endpoint


def stream_head(*, endpoint_id: int, subject_id: int | None) -> WebhookDelivery | None:
    """The earliest delivery of the subject's stream to the endpoint that is not settled yet (None: all settled).
    A delivery with no subject (subject.erased) is a stream of its own: this returns None for it."""
    if subject_id is None:
        return None
    return (
        WebhookDelivery.objects.filter(endpoint_id=endpoint_id, subject_id=subject_id, state__in=OPEN)
        .order_by("sequence", "id")
        .first()
    )


def streams_waiting(*, endpoint_id: int | None = None) -> list[int]:
    """The delivery at the head of every open stream (of one endpoint, or of all enabled ones), due now or overdue."""
    qs = WebhookDelivery.objects.filter(state__in=OPEN, endpoint__enabled=True)
    if endpoint_id is not None:
        qs = qs.filter(endpoint_id=endpoint_id)
    heads = (
        qs.filter(subject__isnull=False)
        .order_by("endpoint_id", "subject_id", "sequence", "id")
        .distinct("endpoint_id", "subject_id")
    )
    alone = qs.filter(subject__isnull=True)  # each its own stream
    return [d.pk for d in heads.only("id")] + list(alone.values_list("pk", flat=True))
