"""Celery tasks of the event log: take primary keys, call a service."""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError

from conversations.summarization.services import session_summarize


@shared_task(
    name="conversations.tasks.session_summarize_task",
    acks_late=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=True,
    retry_backoff_max=60,
    max_retries=5,
)
def session_summarize_task(session_id: int) -> dict[str, int]:
    """Refresh a session's mid-term and far summaries and replay snapshots (idempotent)."""
    result = session_summarize(session_id=session_id)
    return {"mid_created": result.mid_created, "far_rounds": result.far_rounds, "snapshots": result.snapshots_created}
