"""Reads over tenants, subjects, sessions and messages; every function takes the tenant or subject."""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Sequence
from typing import Any, TypeVar

from django.db import connection
from django.db.models import Model, Q, QuerySet
from django.http import Http404

from conversations.models import ApiKey, Message, OperatorMembership, Session, Subject, Tenant
from memory_site.db import fetchone_as_health_check

M = TypeVar("M", bound=Model)


def subject_get(*, tenant: Tenant, external_id: str) -> Subject:
    """Return the tenant's subject or raise Http404 (also for another tenant's subject)."""
    try:
        subject = Subject.objects.get(tenant=tenant, external_id=external_id)
    except Subject.DoesNotExist:
        raise Http404("No such user.") from None
    subject.tenant = tenant
    return subject


def api_key_and_subject(key_hash: str, subject_external_id: str | None = None) -> tuple[ApiKey | None, Subject | None]:
    """The API key with this hash (its tenant loaded) or None: every API request's first lookup. With
    `subject_external_id`, the same statement also looks up that subject of the key's tenant (None when the
    tenant has none by that id, as for another tenant's): what a user-scoped request looks up next, a round trip
    fewer on every request."""
    columns = f"{_select_list(ApiKey, 'k')}, {_select_list(Tenant, 't')}"
    tables = f"{ApiKey._meta.db_table} k JOIN {Tenant._meta.db_table} t ON t.id = k.tenant_id"
    params: list[Any] = [key_hash]
    if subject_external_id is not None:
        columns += f", {_select_list(Subject, 's')}"
        tables += f" LEFT JOIN {Subject._meta.db_table} s ON s.tenant_id = k.tenant_id AND s.external_id = %s"
        params = [subject_external_id, key_hash]
    # A request's first statement: it stands for the connection's health check (one round trip fewer), and is
    # prepared (unique lookups: one plan for any key; planning took longer than running it, 0.17 against 0.04 ms).
    row = fetchone_as_health_check(f"SELECT {columns} FROM {tables} WHERE k.key_hash = %s", params, prepared=True)
    if row is None:
        return None, None
    key, rest = _from_row(ApiKey, row)
    key.tenant, rest = _from_row(Tenant, rest)
    subject = None
    if subject_external_id is not None and rest[0] is not None:  # s.id: the LEFT JOIN found the subject
        subject, _ = _from_row(Subject, rest)
        subject.tenant = key.tenant
    return key, subject


def _select_list(model: type[Model], alias: str) -> str:
    """The model's concrete columns qualified by `alias`, in the order `_from_row` reads them."""
    return ", ".join(f'{alias}."{field.column}"' for field in model._meta.concrete_fields)


def _from_row(model: type[M], row: Sequence[Any]) -> tuple[M, Sequence[Any]]:
    """An instance of `model` from the head of `row` (laid out by `_select_list`), and the rest of the row.

    Only for models whose fields PostgreSQL returns as Python wants them (no JSON or custom fields): the raw
    cursor skips the ORM's converters."""
    fields = model._meta.concrete_fields
    values = list(row[: len(fields)])
    return model.from_db(connection.alias, [field.attname for field in fields], values), row[len(fields) :]


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


def messages_pending(*, message_ids: list[int]) -> list[int]:
    """Those of the messages still waiting for extraction (a claim skipped them: another lock held them)."""
    return sorted(
        Message.objects.filter(pk__in=message_ids, extraction_state=Message.ExtractionState.PENDING).values_list(
            "pk", flat=True
        )
    )


def messages_running_attempts(*, message_ids: list[int]) -> dict[int, int]:
    """{message id: attempts} of those messages still running: a claim is still the caller's only if its
    attempt number is unchanged (the sweeper may have handed the message to another worker meanwhile)."""
    return dict(
        Message.objects.filter(pk__in=message_ids, extraction_state=Message.ExtractionState.RUNNING).values_list(
            "pk", "extraction_attempts"
        )
    )


def messages_any_running(*, message_ids: list[int]) -> bool:
    """Whether a worker is extracting any of the messages right now."""
    return Message.objects.filter(pk__in=message_ids, extraction_state=Message.ExtractionState.RUNNING).exists()


def message_previous_user_turn(*, message: Message) -> Message | None:
    """The user turn before `message` in its session (what "forget that" refers to), or None."""
    return (
        Message.objects.filter(subject_id=message.subject_id, session_id=message.session_id, role=Message.Role.USER)
        .filter(Q(created_at__lt=message.created_at) | Q(created_at=message.created_at, pk__lt=message.pk))
        .exclude(pk=message.pk)
        .order_by("-created_at", "-pk")
        .first()
    )


def _turns_before(message: Message) -> QuerySet[Message]:
    """The turns before `message` in its session, the nearest first."""
    return (
        Message.objects.filter(subject_id=message.subject_id, session_id=message.session_id)
        .filter(Q(created_at__lt=message.created_at) | Q(created_at=message.created_at, pk__lt=message.pk))
        .order_by("-created_at", "-pk")
    )


def message_previous_turns(*, message: Message, limit: int = 4) -> list[Message]:
    """The `limit` turns right before `message` in its session, the nearest first, of any role (the assistant's
    question a reply answers, the relative a he or she stands for), with their stored vectors (a reply's vector joins
    the nearest's)."""
    return list(_turns_before(message).only("role", "name", "content", "embedding", "embedding_zh")[:limit])


def extraction_oldest_waiting() -> dt.datetime | None:
    """When the oldest message still waiting for extraction (pending or running) arrived, over every tenant.

    For operators' health checks; two lookups of the (extraction_state, received_at) index.
    """
    waiting = [
        Message.objects.filter(extraction_state=state).order_by("received_at").values_list("received_at", flat=True)
        for state in (Message.ExtractionState.PENDING, Message.ExtractionState.RUNNING)
    ]
    times = [t for t in (qs.first() for qs in waiting) if t is not None]
    return min(times) if times else None


def operator_tenant_ids(*, user: Any) -> list[int] | None:
    """The tenants whose rows a staff user may see: None for a superuser (all), [] for staff without a membership."""
    if not getattr(user, "is_active", False) or not getattr(user, "is_staff", False):
        return []
    if user.is_superuser:
        return None
    from_cache = getattr(user, "_operator_tenant_ids", None)
    if from_cache is not None:
        return list(from_cache)
    ids = list(OperatorMembership.objects.filter(user_id=user.pk).values_list("tenant_id", flat=True))
    user._operator_tenant_ids = ids  # one lookup per request: the user object lives as long as the request
    return ids
