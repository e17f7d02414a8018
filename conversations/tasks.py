"""Celery tasks of the event log: take primary keys, call a service."""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError

from conversations.models import Session
from conversations.replay import session_snapshots_update
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
    session = Session.objects.select_related("subject").filter(pk=session_id).first()
    snapshots = 0
    if session is not None and not session.subject.memory_paused:  # nothing derived from a paused subject's turns
        snapshots = session_snapshots_update(session=session)
    return {"mid_created": result.mid_created, "far_rounds": result.far_rounds, "snapshots": snapshots}
