"""Celery tasks of the lifecycle: the nightly pass (beat) and a subject's consolidation after its new turns."""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError

from policies.lifecycle.services import lifecycle_run, subject_consolidate_if_due

NIGHTLY_TASK = "policies.lifecycle.tasks.lifecycle_nightly_task"
SUBJECT_CONSOLIDATE_TASK = "policies.lifecycle.tasks.subject_consolidate_task"


@shared_task(name=NIGHTLY_TASK, acks_late=True, soft_time_limit=3 * 3600, time_limit=3 * 3600 + 300)
def lifecycle_nightly_task() -> dict[str, int]:
    """Nightly: every tenant's retention, rescoring and consolidation (idempotent: a redelivery finds it done)."""
    return dict(lifecycle_run(trigger="nightly").counts)


@shared_task(
    name=SUBJECT_CONSOLIDATE_TASK,
    acks_late=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=True,
    max_retries=3,
    soft_time_limit=600,
    time_limit=660,
)
def subject_consolidate_task(subject_id: int) -> int:
    """A subject's near-duplicates merged, when 50 turns came since its last consolidation (claimed, so once)."""
    return subject_consolidate_if_due(subject_id=subject_id)
