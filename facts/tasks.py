"""Celery tasks: take primary keys, call a service."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings
from django.db import InterfaceError, OperationalError

from facts import services


@shared_task(
    name="facts.tasks.messages_extract_task",
    acks_late=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=True,
    retry_backoff_max=60,
    max_retries=5,
)
def messages_extract_task(message_ids: list[int]) -> list[int]:
    """Extract facts from stored messages (idempotent: claims only pending messages)."""
    return services.messages_extract(message_ids=message_ids)


@shared_task(name="facts.tasks.messages_sweep_task", acks_late=True)
def messages_sweep_task() -> int:
    """Re-enqueue messages left pending past the threshold."""
    ids = services.messages_sweep_stale(older_than_seconds=settings.EXTRACTION_SWEEP_AFTER_SECONDS)
    for start in range(0, len(ids), 50):
        messages_extract_task.delay(ids[start : start + 50])
    return len(ids)
