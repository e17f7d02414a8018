"""Celery tasks of the webhooks: take ids, call a service, send what it names. The lower apps enqueue the first
two by name (memory_site.events)."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings
from django.db import InterfaceError, OperationalError

from integrations.webhooks import services

# Retries shorter than this wait in the broker (a countdown); longer ones are the minute sweep's (a task held for
# hours in a broker may be delivered again when its visibility timeout runs out).
COUNTDOWN_MAX_SECONDS = 60
TRANSIENT = (OperationalError, InterfaceError)


def deliveries_send(delivery_ids: list[int]) -> None:
    for delivery_id in delivery_ids:
        delivery_send_task.delay(delivery_id)


@shared_task(
    name="integrations.webhooks.tasks.subject_events_collect_task",
    acks_late=True,
    autoretry_for=TRANSIENT,
    retry_backoff=True,
    max_retries=5,
)
def subject_events_collect_task(subject_id: int) -> None:
    """Turn the subject's new change-log rows into deliveries and start them (idempotent)."""
    collected = services.subject_events_collect(subject_id=subject_id)
    deliveries_send(collected.send)
    if collected.more:
        subject_events_collect_task.delay(subject_id)


@shared_task(
    name="integrations.webhooks.tasks.subject_erased_task",
    acks_late=True,
    autoretry_for=TRANSIENT,
    retry_backoff=True,
    max_retries=5,
)
def subject_erased_task(erasure_id: int, tenant_id: int, external_id: str) -> None:
    deliveries_send(services.subject_erased_record(erasure_id=erasure_id, tenant_id=tenant_id, external_id=external_id))


@shared_task(name="integrations.webhooks.tasks.delivery_send_task", acks_late=True, autoretry_for=TRANSIENT)
def delivery_send_task(delivery_id: int) -> None:
    """Attempt one delivery (a no-op unless it is due, its stream's head, and not claimed by another task)."""
    attempted = services.delivery_attempt(delivery_id=delivery_id)
    deliveries_send(attempted.send)
    if attempted.retry_in is not None and attempted.retry_in <= COUNTDOWN_MAX_SECONDS:
        delivery_send_task.apply_async(args=(delivery_id,), countdown=attempted.retry_in)


@shared_task(name="integrations.webhooks.tasks.deliveries_sweep_task", acks_late=True)
def deliveries_sweep_task() -> int:
    """Every minute: send the due heads of open streams; free deliveries a dead worker left `sending`."""
    ids = services.deliveries_sweep(stale_after_seconds=settings.WEBHOOK_TIMEOUT_SECONDS + 120)
    deliveries_send(ids)
    return len(ids)
