"""Celery tasks for access counting (imported by facts.tasks so the worker registers them)."""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.db import IntegrityError, InterfaceError, OperationalError

from facts.retrieval.access import (
    RECORD_ACCESS_BATCH_TASK,
    RECORD_ACCESS_TASK,
    AccessRecord,
    facts_record_access,
    facts_record_accesses,
)

# IntegrityError: a fact erased between the counting statement and its commit (the foreign key is checked at
# commit); the retry runs the whole record again and skips the erased fact.
_RETRIED: dict[str, Any] = {
    "acks_late": True,
    "autoretry_for": (OperationalError, InterfaceError, IntegrityError),
    "retry_backoff": True,
    "max_retries": 3,
}


@shared_task(name=RECORD_ACCESS_TASK, **_RETRIED)
def facts_record_access_task(record: dict[str, Any]) -> None:
    """Record one read (counters, access log, search call); records queued by versions before batching.

    Not idempotent by nature (a count); a redelivery after a worker crash may count one read twice,
    which the value score tolerates.
    """
    facts_record_access(record=AccessRecord(**record))


@shared_task(name=RECORD_ACCESS_BATCH_TASK, **_RETRIED)
def facts_record_access_batch_task(records: list[dict[str, Any]]) -> None:
    """Record a web process's batch of reads in one transaction (same caveat on redelivery as above)."""
    facts_record_accesses(records=[AccessRecord(**record) for record in records])


@shared_task(name="facts.retrieval.tasks.facts_change_prune_task", acks_late=True)
def facts_change_prune_task() -> int:
    """Hourly: shorten the fact change log search's in-memory vectors are checked against (idempotent)."""
    from facts.retrieval.held_messages import messages_change_prune
    from facts.retrieval.vector_cache import facts_change_prune

    return facts_change_prune() + messages_change_prune()
