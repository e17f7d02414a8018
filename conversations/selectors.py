"""Reads over tenants, subjects, sessions and messages; every function takes the tenant or subject."""

from __future__ import annotations

import uuid

from django.db.models import QuerySet
from django.http import Http404

from conversations.models import Message, Session, Subject, Tenant


def subject_get(*, tenant: Tenant, external_id: str) -> Subject:
    """Return the tenant's subject or raise Http404 (also for another tenant's subject)."""
    try:
        return Subject.objects.get(tenant=tenant, external_id=external_id)
    except Subject.DoesNotExist as exc:
        raise Http404("No such user.") from exc


def subject_find(*, tenant: Tenant, external_id: str) -> Subject | None:
    return Subject.objects.filter(tenant=tenant, external_id=external_id).first()


def session_find(*, subject: Subject, external_id: str) -> Session | None:
    return Session.objects.filter(subject=subject, external_id=external_id).first()


def message_list(*, subject: Subject, session: Session | None = None) -> QuerySet[Message]:
    qs = Message.objects.filter(subject=subject)
    if session is not None:
        qs = qs.filter(session=session)
    return qs.order_by("created_at", "id")


def job_messages(*, tenant: Tenant, job_id: uuid.UUID) -> QuerySet[Message]:
    """A job's messages, only what the job's state needs (not the content, vector or search columns)."""
    return (
        Message.objects.filter(tenant=tenant, job_id=job_id)
        .only("id", "created_at", "extraction_state", "extraction_error")
        .order_by("created_at", "id")
    )


def job_state(*, messages: list[Message]) -> str:
    """Aggregate the extraction states of a job's messages into one job state."""
    states = {m.extraction_state for m in messages}
    if not states:
        return "done"
    if Message.ExtractionState.RUNNING in states:
        return "running"
    if Message.ExtractionState.PENDING in states:
        return "pending"
    if Message.ExtractionState.FAILED in states:
        return "failed"
    return "done"
