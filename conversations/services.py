"""Writes to the event log: tenants, keys, subjects, sessions and messages."""

from __future__ import annotations

import datetime as dt
import uuid
from dataclasses import dataclass, field
from typing import Any

from celery import current_app
from django.db import transaction
from django.utils import timezone

from conversations.auth import generate_key, hash_key
from conversations.models import ApiKey, Message, Session, Subject, Tenant

# The extraction task lives in the higher `facts` app; enqueue it by name (apps depend one way).
EXTRACT_TASK = "facts.tasks.messages_extract_task"
SUMMARIZE_TASK = "conversations.tasks.session_summarize_task"  # refreshes the session's rolling summaries


def tenant_get_or_create(*, name: str) -> Tenant:
    tenant, _ = Tenant.objects.get_or_create(name=name)
    return tenant


@transaction.atomic
def api_key_create(*, tenant: Tenant, name: str = "default") -> tuple[ApiKey, str]:
    """Create a key and return it with the raw secret, which is never stored and shown once."""
    raw = generate_key()
    key = ApiKey.objects.create(tenant=tenant, name=name, prefix=raw[:10], key_hash=hash_key(raw))
    return key, raw


def api_key_revoke(*, api_key: ApiKey) -> ApiKey:
    if api_key.revoked_at is None:
        api_key.revoked_at = timezone.now()
        api_key.save(update_fields=["revoked_at", "updated_at"])
    return api_key


def subject_get_or_create(*, tenant: Tenant, external_id: str) -> Subject:
    subject, _ = Subject.objects.get_or_create(tenant=tenant, external_id=external_id)
    return subject


def subject_set_paused(*, subject: Subject, paused: bool) -> Subject:
    subject.memory_paused = paused
    subject.save(update_fields=["memory_paused", "updated_at"])
    return subject


@dataclass
class MessageInput:
    role: str
    content: str
    name: str = ""
    created_at: dt.datetime | None = None
    external_id: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)


@dataclass
class IngestResult:
    job_id: uuid.UUID
    messages: list[Message]
    created: list[Message]


def messages_enqueue_extraction(*, message_ids: list[int]) -> None:
    """Queue extraction for messages once the surrounding transaction commits."""
    if not message_ids:
        return
    ids = list(message_ids)
    transaction.on_commit(lambda: current_app.send_task(EXTRACT_TASK, args=[ids]))


@transaction.atomic
def message_ingest(
    *, tenant: Tenant, subject_external_id: str, session_external_id: str, messages: list[MessageInput]
) -> IngestResult:
    """Store a batch of turns and queue their extraction.

    Idempotent on `external_id`: a message already stored for the subject is returned, not stored again.
    The subject row is locked so two concurrent requests with the same external_id cannot both insert.
    """
    subject = subject_get_or_create(tenant=tenant, external_id=subject_external_id)
    subject = Subject.objects.select_for_update().get(pk=subject.pk)
    session, _ = Session.objects.get_or_create(tenant=tenant, subject=subject, external_id=session_external_id)
    wanted = [m.external_id for m in messages if m.external_id]
    existing = {m.external_id: m for m in Message.objects.filter(subject=subject, external_id__in=wanted)}
    job_id = uuid.uuid4()
    now = timezone.now()
    out: list[Message] = []
    created: list[Message] = []
    seen_in_batch: dict[str, Message] = {}
    for item in messages:
        if item.external_id and item.external_id in existing:
            out.append(existing[item.external_id])
            continue
        if item.external_id and item.external_id in seen_in_batch:
            out.append(seen_in_batch[item.external_id])
            continue
        state = Message.ExtractionState.SKIPPED if subject.memory_paused else Message.ExtractionState.PENDING
        message = Message(
            tenant=tenant,
            subject=subject,
            session=session,
            role=item.role,
            name=item.name or "",
            content=item.content,
            external_id=item.external_id,
            metadata=item.metadata or {},
            created_at=item.created_at or now,
            received_at=now,
            job_id=job_id,
            extraction_state=state,
            gate_reason="memory paused" if subject.memory_paused else "",
        )
        created.append(message)
        out.append(message)
        if item.external_id:
            seen_in_batch[item.external_id] = message
    Message.objects.bulk_create(created)
    if not created and out:
        job_id = out[0].job_id
    messages_enqueue_extraction(
        message_ids=[m.pk for m in created if m.extraction_state == Message.ExtractionState.PENDING]
    )
    if created and not subject.memory_paused:
        transaction.on_commit(lambda: current_app.send_task(SUMMARIZE_TASK, args=[session.pk]))
    return IngestResult(job_id=job_id, messages=out, created=created)
