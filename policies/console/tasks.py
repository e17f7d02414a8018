"""Celery tasks of the operator's console (registered through CELERY_IMPORTS)."""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError

from policies.console.services import usage_aggregate


@shared_task(
    name="policies.console.tasks.usage_aggregate_task",
    acks_late=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=True,
    max_retries=3,
    soft_time_limit=600,  # one grouped scan of the facts table: seconds at a million facts
    time_limit=660,
)
def usage_aggregate_task(days: int = 2) -> int:
    """Recount the dashboard's daily figures of the last `days` days (idempotent: an upsert per tenant and day)."""
    return usage_aggregate(days=days)
