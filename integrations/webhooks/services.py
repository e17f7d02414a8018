"""Writes of the webhooks: endpoints, collecting a subject's events into deliveries, and attempting a delivery.

Order per subject: a subject's events are numbered (`sequence`) under its cursor's row lock, in the order of the
facts' change log, which writers append under the subject's row lock; a delivery is attempted only when no earlier
delivery of the same subject to the same endpoint is still open, and a settled one names the next. Services return
the ids of deliveries to send; the tasks send them (services never enqueue).
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from conversations.models import Subject, Tenant
from facts.models import FactHistory
from integrations.webhooks import targets
from integrations.webhooks.changes import Change, changes_from_history, payload_scrub
from integrations.webhooks.models import Event, WebhookCursor, WebhookDelivery, WebhookEndpoint
from integrations.webhooks.selectors import OPEN, stream_head, streams_waiting, subscriptions_forget
from integrations.webhooks.signing import SIGNATURE_HEADER, secret_generate, signature_header
from memory_site.errors import InvalidInput
from policies.models import SubjectErasure

COLLECT_BATCH = 500  # change-log rows turned into deliveries per transaction
State = WebhookDelivery.State


# --- endpoints ---------------------------------------------------------------------------------------------------


def _events_valid(events: list[str]) -> list[str]:
    unknown = sorted(set(events) - set(Event.values))
    if unknown or not events:
        raise InvalidInput(
            "events must name at least one event, each one of the list.",
            code="invalid_events",
            details={"unknown": unknown, "allowed": list(Event.values)},
        )
    return list(dict.fromkeys(events))


def webhook_endpoint_create(
    *, tenant: Tenant, url: str, events: list[str], description: str = ""
) -> tuple[WebhookEndpoint, str]:
    """A new endpoint and its secret (the caller shows it once). TargetRefused for a URL no delivery may go to."""
    events = _events_valid(events)
    targets.url_check(url)
    secret = secret_generate()
    endpoint = WebhookEndpoint.objects.create(
        tenant=tenant, url=url, events=events, secret=secret, description=description[:255]
    )
    subscriptions_forget(tenant.pk)
    return endpoint, secret


def webhook_endpoint_update(
    *, endpoint: WebhookEndpoint, url: str | None = None, events: list[str] | None = None
) -> WebhookEndpoint:
    """Change where an endpoint sends, or what (the admin's edit form)."""
    if url is not None:
        targets.url_check(url)
        endpoint.url = url
    if events is not None:
        endpoint.events = _events_valid(events)
    endpoint.save()
    subscriptions_forget(endpoint.tenant_id)
    return endpoint


def webhook_endpoint_delete(*, endpoint: WebhookEndpoint) -> None:
    """Delete the endpoint with its delivery log; nothing more is sent to it."""
    tenant_id = endpoint.tenant_id
    endpoint.delete()
    subscriptions_forget(tenant_id)


def webhook_endpoint_disable(*, endpoint: WebhookEndpoint, reason: str) -> WebhookEndpoint:
    """Stop sending to the endpoint (deliveries waiting stay, and go when it is enabled again)."""
    now = timezone.now()
    WebhookEndpoint.objects.filter(pk=endpoint.pk).update(
        enabled=False, disabled_reason=reason[:2000], disabled_at=now, updated_at=now
    )
    subscriptions_forget(endpoint.tenant_id)
    endpoint.refresh_from_db()
    return endpoint


def webhook_endpoint_enable(*, endpoint: WebhookEndpoint) -> list[int]:
    """Send to the endpoint again, failures forgotten; return the deliveries that waited (to send now)."""
    WebhookEndpoint.objects.filter(pk=endpoint.pk).update(
        enabled=True, disabled_reason="", disabled_at=None, consecutive_failures=0, updated_at=timezone.now()
    )
    subscriptions_forget(endpoint.tenant_id)
    endpoint.refresh_from_db()
    WebhookDelivery.objects.filter(endpoint=endpoint, state=State.PENDING).update(next_attempt_at=None)
    return streams_waiting(endpoint_id=endpoint.pk)


# --- collecting events --------------------------------------------------------------------------------------------


def _envelope(change: Change, *, external_id: str | None, sequence: int) -> dict[str, Any]:
    return {
        "type": change.event,
        "created_at": change.created_at.isoformat().replace("+00:00", "Z"),
        "sequence": sequence,
        "user": external_id,
        "data": change.data,
    }


def _deliveries_of(
    changes: list[Change], *, endpoints: list[WebhookEndpoint], subject: Subject | None, cursor: WebhookCursor | None
) -> list[WebhookDelivery]:
    """The deliveries of these changes to each endpoint that subscribes and existed when the change was made; each
    change with any delivery takes the subject's next sequence number."""
    out: list[WebhookDelivery] = []
    for change in changes:
        listeners = [e for e in endpoints if change.event in e.events and e.created_at <= change.created_at]
        if not listeners:
            continue
        sequence = 0
        if cursor is not None:
            sequence, cursor.next_sequence = cursor.next_sequence, cursor.next_sequence + 1
        for endpoint in listeners:
            delivery = WebhookDelivery(
                tenant_id=endpoint.tenant_id, endpoint=endpoint, subject=subject, sequence=sequence,
                event=change.event, dedupe_key=change.dedupe_key, fact_uids=change.fact_uids,
                payload={},
            )  # fmt: skip
            delivery.payload = {
                "id": str(delivery.uid),
                **_envelope(change, external_id=subject.external_id if subject else None, sequence=sequence),
            }
            out.append(delivery)
    return out


def _forgotten_scrub(*, tenant_id: int, uids: list[str]) -> None:
    """Blank the texts of forgotten facts in every delivery of the tenant that quotes them (log and queue)."""
    for uid in uids:
        for delivery in WebhookDelivery.objects.filter(tenant_id=tenant_id, fact_uids__contains=[uid]):
            scrubbed = payload_scrub(delivery.payload, uid)
            if scrubbed != delivery.payload:
                WebhookDelivery.objects.filter(pk=delivery.pk).update(payload=scrubbed)


@dataclass
class Collected:
    send: list[int] = field(default_factory=list)  # stream heads to attempt now
    more: bool = False  # rows left past this batch


def subject_events_collect(*, subject_id: int) -> Collected:
    """Turn the subject's change-log rows not read yet into deliveries, under its cursor's lock (idempotent: a
    change is stored once per endpoint). Endpoints get the changes made after they were created."""
    subject = Subject.objects.filter(pk=subject_id).first()
    if subject is None:
        return Collected()  # erased meanwhile: nothing left to say but subject.erased
    endpoints = list(WebhookEndpoint.objects.filter(tenant_id=subject.tenant_id, enabled=True))
    with transaction.atomic():
        WebhookCursor.objects.bulk_create(
            [WebhookCursor(subject_id=subject.pk, tenant_id=subject.tenant_id)], ignore_conflicts=True
        )
        cursor = WebhookCursor.objects.select_for_update().filter(subject_id=subject.pk).first()
        if cursor is None:
            return Collected()
        rows_qs = FactHistory.objects.filter(subject_id=subject.pk, id__gt=cursor.last_history_id)
        if endpoints:
            rows_qs = rows_qs.filter(created_at__gte=min(e.created_at for e in endpoints))
        rows = list(rows_qs.order_by("id")[:COLLECT_BATCH])
        if not rows:
            return Collected()
        changes = changes_from_history(rows)
        deliveries = _deliveries_of(changes, endpoints=endpoints, subject=subject, cursor=cursor)
        WebhookDelivery.objects.bulk_create(deliveries, ignore_conflicts=True)
        _forgotten_scrub(tenant_id=subject.tenant_id, uids=[c.forgotten_uid for c in changes if c.forgotten_uid])
        cursor.last_history_id = rows[-1].pk
        cursor.save(update_fields=["last_history_id", "next_sequence", "updated_at"])
    heads = {d.endpoint_id for d in deliveries}
    send = [head.pk for e in heads if (head := stream_head(endpoint_id=e, subject_id=subject.pk)) is not None]
    return Collected(send=send, more=len(rows) == COLLECT_BATCH)


def subject_erased_record(*, erasure_id: int, tenant_id: int, external_id: str) -> list[int]:
    """The subject.erased deliveries of one erasure (once each); return their ids to send."""
    receipt = SubjectErasure.objects.filter(pk=erasure_id, tenant_id=tenant_id).first()
    if receipt is None:
        return []
    endpoints = list(WebhookEndpoint.objects.filter(tenant_id=tenant_id, enabled=True))
    change = Change(
        Event.SUBJECT_ERASED, f"erasure:{receipt.uid}", receipt.created_at,
        {"erasure_id": str(receipt.uid), "rows_erased": sum(receipt.counts.values())},
    )  # fmt: skip
    deliveries = _deliveries_of([change], endpoints=endpoints, subject=None, cursor=None)
    for delivery in deliveries:
        delivery.payload["user"] = external_id
    WebhookDelivery.objects.bulk_create(deliveries, ignore_conflicts=True)
    return list(
        WebhookDelivery.objects.filter(
            dedupe_key=change.dedupe_key, tenant_id=tenant_id, state=State.PENDING
        ).values_list("pk", flat=True)
    )


# --- delivering ---------------------------------------------------------------------------------------------------


@dataclass
class Attempted:
    send: list[int] = field(default_factory=list)  # deliveries to attempt now (the stream's next)
    retry_in: float | None = None  # seconds until this delivery's next attempt


def delivery_body(delivery: WebhookDelivery) -> bytes:
    """The exact bytes sent (and signed): the stored payload as compact UTF-8 JSON."""
    return json.dumps(delivery.payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _due(delivery: WebhookDelivery, now: dt.datetime) -> bool:
    return delivery.next_attempt_at is None or delivery.next_attempt_at <= now


def delivery_attempt(*, delivery_id: int) -> Attempted:
    """Send one delivery if it is its stream's head, due, and its endpoint enabled; record the outcome.

    Claimed by a conditional update (pending -> sending), so two tasks for one delivery send it once; the POST runs
    outside any transaction. A 2xx settles it; anything else schedules the next attempt (WEBHOOK_RETRY_DELAYS) or,
    after the last, gives up; WEBHOOK_DISABLE_AFTER_FAILURES failures in a row disable the endpoint.
    """
    now = timezone.now()
    delivery = WebhookDelivery.objects.select_related("endpoint").filter(pk=delivery_id).first()
    if delivery is None or delivery.state != State.PENDING or not delivery.endpoint.enabled or not _due(delivery, now):
        return Attempted()
    head = stream_head(endpoint_id=delivery.endpoint_id, subject_id=delivery.subject_id)
    if head is not None and head.pk != delivery.pk:
        # An earlier delivery is open: it goes first, and names this one when it is settled.
        return Attempted(send=[head.pk] if head.state == State.PENDING and _due(head, now) else [])
    if (
        WebhookDelivery.objects.filter(pk=delivery.pk, state=State.PENDING).update(state=State.SENDING, claimed_at=now)
        != 1
    ):
        return Attempted()
    attempt = delivery.attempts + 1
    body = delivery_body(delivery)
    result = targets.post(
        delivery.endpoint.url,
        body=body,
        headers={
            "Content-Type": "application/json",
            "User-Agent": "MemorySite-Webhooks/1",
            SIGNATURE_HEADER: signature_header(secret=delivery.endpoint.secret, body=body),
            "Memory-Site-Event": delivery.event,
            "Memory-Site-Delivery": str(delivery.uid),
            "Memory-Site-Attempt": str(attempt),
        },
        timeout=settings.WEBHOOK_TIMEOUT_SECONDS,
    )
    return _delivery_record(delivery, attempt=attempt, result=result)


def _outcome_text(result: targets.PostResult) -> str:
    return f"HTTP {result.status}" if result.status is not None else result.error or "no answer"


def _delivery_record(delivery: WebhookDelivery, *, attempt: int, result: targets.PostResult) -> Attempted:
    now = timezone.now()
    ok = result.status is not None and 200 <= result.status < 300
    delays = settings.WEBHOOK_RETRY_DELAYS
    give_up = not ok and attempt > len(delays)
    fields: dict[str, Any] = {
        "attempts": attempt, "last_attempt_at": now, "last_status_code": result.status, "claimed_at": None,
        "last_error": "" if ok else _outcome_text(result), "last_response": result.response, "updated_at": now,
    }  # fmt: skip
    retry_in: float | None = None
    if ok:
        fields.update(state=State.DELIVERED, delivered_at=now, next_attempt_at=None)
    elif give_up:
        fields.update(state=State.FAILED, next_attempt_at=None)
    else:
        retry_in = float(delays[attempt - 1])
        fields.update(state=State.PENDING, next_attempt_at=now + dt.timedelta(seconds=retry_in))
    if (ok or give_up) and delivery.event == Event.SUBJECT_ERASED:
        fields["payload"] = {**delivery.payload, "user": None}  # the log keeps no id of an erased user
    with transaction.atomic():
        WebhookDelivery.objects.filter(pk=delivery.pk).update(**fields)
        endpoint = delivery.endpoint
        if ok:
            WebhookEndpoint.objects.filter(pk=endpoint.pk).update(consecutive_failures=0, last_success_at=now)
        else:
            WebhookEndpoint.objects.filter(pk=endpoint.pk).update(
                consecutive_failures=F("consecutive_failures") + 1, last_failure_at=now
            )
            endpoint.refresh_from_db(fields=["consecutive_failures", "enabled"])
            limit = settings.WEBHOOK_DISABLE_AFTER_FAILURES
            if endpoint.enabled and endpoint.consecutive_failures >= limit:
                webhook_endpoint_disable(
                    endpoint=endpoint,
                    reason=(
                        f"Disabled automatically at {now:%Y-%m-%d %H:%M:%S} UTC after {endpoint.consecutive_failures} "
                        f"failed delivery attempts in a row (the limit is {limit}); the last one got "
                        f"{_outcome_text(result)}. Fix the receiver, then enable the endpoint again: the deliveries "
                        "that were waiting are sent then."
                    ),
                )
    if ok or give_up:
        head = stream_head(endpoint_id=delivery.endpoint_id, subject_id=delivery.subject_id)
        return Attempted(send=[head.pk] if head is not None else [])
    return Attempted(retry_in=retry_in)


def deliveries_sweep(*, stale_after_seconds: float) -> list[int]:
    """Deliveries to attempt now: each open stream's head that is due (a task lost with a worker, a retry left to
    the sweep); a delivery left `sending` longer than `stale_after_seconds` (its worker died) is pending again."""
    now = timezone.now()
    WebhookDelivery.objects.filter(
        state=State.SENDING, claimed_at__lt=now - dt.timedelta(seconds=stale_after_seconds)
    ).update(state=State.PENDING, claimed_at=None)
    heads = WebhookDelivery.objects.filter(pk__in=streams_waiting(), state=State.PENDING)
    return [d.pk for d in heads if _due(d, now)]


def open_deliveries(*, endpoint: WebhookEndpoint) -> int:
    return WebhookDelivery.objects.filter(endpoint=endpoint, state__in=OPEN).count()
