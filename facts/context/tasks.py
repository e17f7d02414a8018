"""Celery tasks for profiles (registered through CELERY_IMPORTS): take primary keys, call a service."""

from __future__ import annotations

import datetime as dt

from celery import shared_task
from django.db import InterfaceError, OperationalError

from conversations.models import Subject
from facts.profile import profile_build, profiles_due


@shared_task(
    name="facts.context.tasks.profile_rebuild_task",
    acks_late=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=True,
    max_retries=5,
)
def profile_rebuild_task(subject_id: int) -> int:
    """Rebuild one subject's profile (idempotent: a pure function of its current facts)."""
    subject = Subject.objects.filter(pk=subject_id).first()
    if subject is None:
        return 0
    return profile_build(subject).tokens


@shared_task(name="facts.context.tasks.profiles_rebuild_daily_task", acks_late=True)
def profiles_rebuild_daily_task() -> int:
    """Enqueue a rebuild for every profile that is stale, missing or older than a day."""
    ids = profiles_due(older_than=dt.timedelta(hours=23))
    for subject_id in ids:
        profile_rebuild_task.delay(subject_id)
    return len(ids)
