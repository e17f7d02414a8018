"""Writes to the event log: tenants, keys, subjects, sessions and messages."""

from __future__ import annotations

import datetime as dt
import secrets
import uuid
from dataclasses import dataclass, field
from typing import Any

from celery import current_app
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.db import connection, transaction
from django.db.models import F, Q
from django.utils import timezone

from conversations.auth import generate_key, hash_key
from conversations.exceptions import TooManyMessages
from conversations.models import (
    ApiKey,
    ContextSnapshot,
    Message,
    OperatorMembership,
    Session,
    Subject,
    Summary,
    Tenant,
)
from conversations.recent_keys import recent_keys
from memory_site.deletion import rows_delete
from memory_site.pgio import SEARCH_VECTOR_SQL, as_array, binary_cursor

ExtractionState = Message.ExtractionState

# The extraction task lives in the higher `facts` app; enqueue it by name (apps depend one way).
EXTRACT_TASK = "facts.tasks.messages_extract_task"
SUMMARIZE_TASK = "conversations.tasks.session_summarize_task"  # refreshes the session's rolling summaries


def tenant_get_or_create(*, name: str) -> Tenant:
    tenant, _ = Tenant.objects.get_or_create(name=name)
    return tenant


@transaction.atomic
def api_key_create(*, tenant: Tenant, name: str = "default", read_only: bool = False) -> tuple[ApiKey, str]:
    """Create a key and return it with the raw secret, which is never stored and shown once."""
    raw = generate_key()
    key = ApiKey.objects.create(tenant=tenant, name=name, prefix=raw[:10], key_hash=hash_key(raw), read_only=read_only)
    return key, raw


def api_key_revoke(*, api_key: ApiKey) -> ApiKey:
    """Revoke the key; this process forgets it at once (another forgets it on the key's next refused request)."""
    if api_key.revoked_at is None:
        api_key.revoked_at = timezone.now()
        api_key.save(update_fields=["revoked_at", "updated_at"])
    recent_keys.forget(api_key.key_hash)
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
    *,
    tenant: Tenant,
    subject_external_id: str,
    session_external_id: str,
    messages: list[MessageInput],
    enqueue: bool = True,
) -> IngestResult:
    """Store a batch of turns and queue their extraction (`enqueue=False`: the caller extracts them itself, as
    `?wait=true` does, and queues what it could not finish; one it never gets to is the sweeper's).

    Idempotent on `external_id`: a message already stored for the subject is returned, not stored again.
    The subject row is locked so two concurrent requests with the same external_id cannot both insert.
    TooManyMessages past MAX_MESSAGES_PER_SUBJECT (nothing is stored).
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
    if created:
        held = Message.objects.filter(subject=subject).count()  # under the subject's lock: no race past the cap
        if held + len(created) > settings.MAX_MESSAGES_PER_SUBJECT:
            raise TooManyMessages(limit=settings.MAX_MESSAGES_PER_SUBJECT, held=held, adding=len(created))
    Message.objects.bulk_create(created)
    if not created and out:
        job_id = out[0].job_id
    if enqueue:
        messages_enqueue_extraction(
            message_ids=[m.pk for m in created if m.extraction_state == Message.ExtractionState.PENDING]
        )
    if created and not subject.memory_paused:
        transaction.on_commit(lambda: current_app.send_task(SUMMARIZE_TASK, args=[session.pk]))
    return IngestResult(job_id=job_id, messages=out, created=created)


# --- extraction state: the facts pipeline claims messages, and finishes or fails them, through these ----------


def messages_claim(*, message_ids: list[int], claim: str = "") -> list[Message]:
    """Claim pending messages with a conditional update; return them (subject loaded) in conversation order.

    The pending rows are locked (skipping any another worker is claiming right now), then marked running,
    in one short transaction: each message is claimed by exactly one caller. The lock is FOR NO KEY UPDATE:
    a row that references a message (a summary's first and last message, a fact source) holds FOR KEY SHARE
    on it while its transaction runs, and a plain FOR UPDATE ... SKIP LOCKED skipped such a message, which then
    stayed pending until the sweeper (seen in the ingest bench: the session summariser ran beside extraction).

    `claim` names the caller (a Celery task's id). A message still running under the same claim was left by an
    earlier delivery of the same task whose process died (SIGKILL, OOM): it is claimed again. Exactly once
    still holds: every claim counts an attempt, and a result is applied only under its own attempt number.
    """
    ids = list(dict.fromkeys(message_ids))
    if not ids:
        return []
    claimable = Q(extraction_state=ExtractionState.PENDING)
    if claim:
        claimable |= Q(extraction_state=ExtractionState.RUNNING, extraction_claim=claim)
    with transaction.atomic():
        mine = list(
            Message.objects.select_for_update(skip_locked=True, no_key=True)
            .filter(claimable, pk__in=ids)
            .values_list("pk", flat=True)
        )
        if not mine:
            return []
        Message.objects.filter(claimable, pk__in=mine).update(
            extraction_state=ExtractionState.RUNNING,
            extraction_attempts=F("extraction_attempts") + 1,
            extraction_started_at=timezone.now(),
            extraction_claim=claim[:64],
        )
    claimed = list(Message.objects.select_related("subject").filter(pk__in=mine))
    claimed.sort(key=lambda m: (m.created_at, m.pk))  # "forget that" must see the message before it
    return claimed


@dataclass(frozen=True)
class MessageFinish:
    """What extraction found for one message, computed by the caller (the facts app), written here."""

    message_id: int
    state: str  # done, or skipped (memory paused)
    finished_at: dt.datetime
    error: str  # "" or why the extractor fell back
    extractor: str
    gate_decision: str  # keep | skip
    gate_reason: str
    search_text: str  # the content as the keyword index reads it (Chinese pre-segmented into words)
    embedding: list[float] | None  # the message's own vector (episodic recall)
    llm_tokens: int = 0  # the message's share of the LLM call's tokens
    embedding_zh: list[float] | None = None  # a Chinese turn's vector from an encoder that reads Chinese
    keywords: list[str] | None = None  # its content words as search's re-rank reads them (NULL: read from content)


def messages_finish(*, finished: list[MessageFinish]) -> None:
    """Write a batch of finished messages in one UPDATE: extraction fields, search vector, episodic vector.

    Call inside the caller's transaction (the one that wrote the facts): both commit or neither.
    """
    if not finished:
        return
    row = "(%s::bigint, %s, %s::timestamptz, %s, %s, %s, %s, %s::text, %b::vector, %s::integer, %b::vector, %s::text[])"
    params: list[Any] = []
    for f in finished:
        params += [f.message_id, f.state, f.finished_at, f.error[:2000], f.extractor[:32]]
        params += [f.gate_decision, f.gate_reason[:255], f.search_text, as_array(f.embedding), max(f.llm_tokens, 0)]
        params += [as_array(f.embedding_zh), f.keywords]
    sv = SEARCH_VECTOR_SQL.replace("%s", "v.stext")
    with binary_cursor() as cursor:
        cursor.execute(
            f"UPDATE {connection.ops.quote_name(Message._meta.db_table)} AS m SET extraction_state = v.state, "
            "extraction_finished_at = v.finished, extraction_error = v.error, extractor = v.extractor, "
            f"gate_decision = v.gate, gate_reason = v.reason, search_vector = {sv}, embedding = v.embedding, "
            "llm_tokens = v.llm_tokens, embedding_zh = v.embedding_zh, keywords = v.keywords "
            f"FROM (VALUES {', '.join([row] * len(finished))}) "
            "AS v(id, state, finished, error, extractor, gate, reason, stext, embedding, llm_tokens, embedding_zh, "
            "keywords) "
            "WHERE m.id = v.id",
            params,
        )


def messages_set_keywords(*, keywords: dict[int, list[str]]) -> int:
    """Give turns their content words (facts.services.turn_keywords: the backfill of turns stored before extraction
    wrote them). Returns how many were written; a turn that has them keeps them."""
    if not keywords:
        return 0
    params: list[Any] = []
    for pk, words in sorted(keywords.items()):
        params += [pk, words]
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {connection.ops.quote_name(Message._meta.db_table)} AS m SET keywords = v.k "
            f"FROM (VALUES {', '.join(['(%s::bigint, %s::text[])'] * len(keywords))}) AS v(id, k) "
            "WHERE m.id = v.id AND m.keywords IS NULL",
            params,
        )
        return int(cursor.rowcount)


def messages_set_zh_vectors(*, vectors: dict[int, list[float]]) -> int:
    """Give extracted turns their Chinese vector (facts.services.zh_vectors: the backfill of turns that missed it).
    Returns how many were written; a turn that has one keeps it."""
    if not vectors:
        return 0
    params: list[Any] = []
    for pk, vector in sorted(vectors.items()):
        params += [pk, as_array(vector)]
    with binary_cursor() as cursor:
        cursor.execute(
            f"UPDATE {connection.ops.quote_name(Message._meta.db_table)} AS m SET embedding_zh = v.e "
            f"FROM (VALUES {', '.join(['(%s::bigint, %b::vector)'] * len(vectors))}) AS v(id, e) "
            "WHERE m.id = v.id AND m.embedding_zh IS NULL",
            params,
        )
        return int(cursor.rowcount)


def messages_mark_failed(*, message_ids: list[int], error: str) -> None:
    """Return running messages to pending for a retry, or mark them failed after the last attempt."""
    for pk in message_ids:
        message = Message.objects.filter(pk=pk, extraction_state=ExtractionState.RUNNING).first()
        if message is None:
            continue
        state = (
            ExtractionState.FAILED
            if message.extraction_attempts >= settings.EXTRACTION_MAX_ATTEMPTS
            else ExtractionState.PENDING
        )
        Message.objects.filter(pk=pk, extraction_state=ExtractionState.RUNNING).update(
            extraction_state=state, extraction_error=error[:2000]
        )


def messages_sweep_stale(*, older_than_seconds: int) -> list[int]:
    """Find messages left pending or running too long (broker down, worker killed); return their ids.

    Running ones are put back to pending first so the normal claim works.
    """
    cutoff = timezone.now() - dt.timedelta(seconds=older_than_seconds)
    Message.objects.filter(extraction_state=ExtractionState.RUNNING, extraction_started_at__lt=cutoff).update(
        extraction_state=ExtractionState.PENDING
    )
    return list(
        Message.objects.filter(extraction_state=ExtractionState.PENDING, received_at__lt=cutoff)
        .order_by("received_at")
        .values_list("pk", flat=True)[:1000]
    )


def messages_requeue_stale(*, older_than_seconds: int | None = None) -> int:
    """Send extraction again for messages left pending or running too long (EXTRACTION_SWEEP_AFTER_SECONDS by
    default); return how many.

    Beat runs this in its own process every EXTRACTION_SWEEP_INTERVAL_SECONDS (memory_site/beat.py): a worker
    that stalled or died cannot hold up its own rescue, as it did when the sweep was a task for that worker.
    """
    age = settings.EXTRACTION_SWEEP_AFTER_SECONDS if older_than_seconds is None else older_than_seconds
    ids = messages_sweep_stale(older_than_seconds=age)
    # One subject per task, as ingest sends them: a task's batch (an LLM prompt) never mixes tenants.
    by_subject: dict[int, list[int]] = {}
    for pk, subject_id in Message.objects.filter(pk__in=ids).values_list("pk", "subject_id"):
        by_subject.setdefault(subject_id, []).append(pk)
    for subject_ids in by_subject.values():
        subject_ids.sort()
        for start in range(0, len(subject_ids), 50):
            current_app.send_task(EXTRACT_TASK, args=[subject_ids[start : start + 50]])
    return len(ids)


# --- erasure: the event log's rows of one subject --------------------------------------------------------------


def subject_erase(*, subject: Subject) -> dict[str, int]:
    """Delete the subject and every row of the event log about it; return the rows deleted per table.

    Replay snapshots, summaries, messages (content, vectors), sessions, then the subject itself, whose deletion
    cascades to any row another app still holds (call the higher apps' erasure first: their rows name messages,
    and each table is then emptied in one statement). Pending tasks carry only ids, so a task of this subject that runs later finds nothing to do.
    """
    counts: dict[str, int] = {}
    with transaction.atomic():
        Subject.objects.select_for_update().get(pk=subject.pk)
        for queryset in (
            ContextSnapshot.objects.filter(subject_id=subject.pk),
            Summary.objects.filter(subject_id=subject.pk),
            Message.objects.filter(subject_id=subject.pk),
            Session.objects.filter(subject_id=subject.pk),
            Subject.objects.filter(pk=subject.pk),
        ):
            for label, n in rows_delete(queryset).items():
                counts[label] = counts.get(label, 0) + n
    return counts


# --- operators ---------------------------------------------------------------------------------------------------

# What a tenant's operator may do, per app: every model of the apps below except those named here, whose
# rows span tenants (Tenant: view only) or grant access (OperatorMembership: superusers only).
OPERATOR_APPS = ("conversations", "facts", "policies", "integrations")
OPERATOR_VIEW_ONLY = {("conversations", "tenant")}
OPERATOR_FORBIDDEN = {("conversations", "operatormembership")}
OPERATOR_GROUP = "Tenant operators"


def operator_group_sync() -> Group:
    """The group every tenant operator belongs to, with the permissions above (created or brought up to date)."""
    group, _ = Group.objects.get_or_create(name=OPERATOR_GROUP)
    perms = Permission.objects.filter(content_type__app_label__in=OPERATOR_APPS).select_related("content_type")
    allowed = [
        p
        for p in perms
        if (p.content_type.app_label, p.content_type.model) not in OPERATOR_FORBIDDEN
        and (
            (p.content_type.app_label, p.content_type.model) not in OPERATOR_VIEW_ONLY or p.codename.startswith("view_")
        )
    ]
    group.permissions.set(allowed)
    return group


@transaction.atomic
def operator_create(*, tenant: Tenant, username: str) -> tuple[Any, str]:
    """Create a staff user who operates `tenant` only; return it and its password (shown once, stored hashed).

    ValueError when the username is taken.
    """
    user_model = get_user_model()
    if user_model.objects.filter(username=username).exists():
        raise ValueError(f"user {username!r} exists already")
    password = secrets.token_urlsafe(18)
    user = user_model.objects.create_user(username=username, password=password, is_staff=True)
    user.groups.add(operator_group_sync())
    OperatorMembership.objects.create(user=user, tenant=tenant)
    return user, password
