"""Celery task for access counting (imported by facts.tasks so the worker registers it)."""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError

from facts.retrieval.access import RECORD_ACCESS_TASK, facts_record_access


@shared_task(
    name=RECORD_ACCESS_TASK,
    acks_late=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=True,
    max_retries=3,
)
def facts_record_access_task(
    subject_id: int,
    tenant_id: int,
    fact_ids: list[int],
    api_key_id: int | None,
    operation: str = "search",
    took_ms: float | None = None,
    result_count: int | None = None,
    matched_by: list[str] | None = None,
) -> None:
    """Record one read (counters, access log, search call).

    Not idempotent by nature (a count); a redelivery after a worker crash may count one read twice,
    which the value score tolerates.
    """
    facts_record_access(
        subject_id=subject_id,
        tenant_id=tenant_id,
        fact_ids=fact_ids,
        api_key_id=api_key_id,
        operation=operation,
        took_ms=took_ms,
        result_count=result_count,
        matched_by=matched_by,
    )
