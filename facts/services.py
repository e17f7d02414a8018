"""Writes to facts: the extraction pipeline, creation, merging and history."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.contrib.postgres.search import SearchVector
from django.db import transaction
from django.db.models import F, Value
from django.utils import timezone

from conversations.models import Message, Subject
from facts.embedding import EmbedderUnavailable, embed_texts, get_embedder
from facts.extraction.base import Candidate, ExtractionOutput, MessageView
from facts.extraction.rules import RuleExtractor
from facts.models import Actor, Fact, FactHistory, FactSource
from facts.text import keywords as text_keywords
from facts.text import normalize, search_text

logger = logging.getLogger(__name__)

ExtractionState = Message.ExtractionState


class ExtractionFailed(Exception):
    """Some messages of a batch failed; they are back to pending (or failed after the last attempt)."""


def _search_vector_expr(text_value: str):  # type: ignore[no-untyped-def]
    # English stemming plus the plain word form (Chinese is pre-segmented into words).
    return SearchVector(Value(text_value), config="english", weight="A") + SearchVector(
        Value(text_value), config="simple", weight="B"
    )


def history_record(
    *,
    fact: Fact,
    event: str,
    actor: str = Actor.SYSTEM,
    actor_id: str = "",
    before_text: str = "",
    after_text: str = "",
    data: dict | None = None,
) -> FactHistory:
    return FactHistory.objects.create(
        tenant_id=fact.tenant_id,
        subject_id=fact.subject_id,
        fact=fact,
        fact_uid=fact.uid,
        event=event,
        actor=actor,
        actor_id=actor_id,
        before_text=before_text,
        after_text=after_text,
        data=data or {},
    )


@dataclass
class ReconcileResult:
    fact: Fact
    action: str  # created | merged


def fact_reconcile(
    *,
    subject: Subject,
    candidate: Candidate,
    embedding: list[float] | None,
    actor: str = Actor.SYSTEM,
    actor_id: str = "",
) -> ReconcileResult:
    """Store a candidate as a new fact or merge it into the same fact already held.

    Call inside a transaction holding the subject's row lock, so two workers never both create it.
    """
    norm = normalize(candidate.text)
    existing = (
        Fact.objects.filter(subject=subject, normalized_text=norm)
        .exclude(status=Fact.Status.SUPERSEDED)
        .order_by("created_at")
        .first()
    )
    if existing is not None:
        Fact.objects.filter(pk=existing.pk).update(mention_count=F("mention_count") + 1, updated_at=timezone.now())
        existing.refresh_from_db()
        if candidate.message_id:
            FactSource.objects.get_or_create(
                fact=existing,
                message_id=candidate.message_id,
                defaults={"span_start": candidate.span_start, "span_end": candidate.span_end},
            )
        history_record(
            fact=existing, event=FactHistory.Event.MERGED, actor=actor, actor_id=actor_id, after_text=existing.text
        )
        return ReconcileResult(existing, "merged")
    fact = fact_insert(subject=subject, candidate=candidate, embedding=embedding)
    history_record(fact=fact, event=FactHistory.Event.CREATED, actor=actor, actor_id=actor_id, after_text=fact.text)
    return ReconcileResult(fact, "created")


def fact_insert(*, subject: Subject, candidate: Candidate, embedding: list[float] | None) -> Fact:
    """Insert one fact row with its search fields and source."""
    stext = search_text(candidate.text)
    fact = Fact.objects.create(
        tenant_id=subject.tenant_id,
        subject=subject,
        text=candidate.text,
        normalized_text=normalize(candidate.text),
        type=candidate.type,
        subject_entity=candidate.subject_entity,
        predicate=candidate.predicate,
        object_value=candidate.object_value,
        entities=candidate.entities,
        entity_keys=sorted({normalize(e["text"]) for e in candidate.entities if e.get("text")}),
        keywords=candidate.keywords or text_keywords(candidate.text),
        search_text=stext,
        embedding=embedding,
        embedding_model=get_embedder().model_name if embedding is not None else "",
        language=candidate.language,
        confidence=candidate.confidence,
        importance=candidate.importance,
        valid_from=candidate.valid_from,
        event_time=candidate.event_time,
        expires_at=candidate.expires_at,
        pinned=candidate.pinned,
        extractor=candidate.extractor,
        extractor_version=RuleExtractor.version if candidate.extractor == "rules" else "",
    )
    Fact.objects.filter(pk=fact.pk).update(search_vector=_search_vector_expr(stext))
    if candidate.message_id:
        FactSource.objects.create(
            fact=fact, message_id=candidate.message_id, span_start=candidate.span_start, span_end=candidate.span_end
        )
    return fact


def _claim(message_ids: list[int]) -> list[Message]:
    """Claim pending messages with a conditional update; a message claimed elsewhere is skipped."""
    claimed: list[Message] = []
    now = timezone.now()
    for pk in message_ids:
        count = Message.objects.filter(pk=pk, extraction_state=ExtractionState.PENDING).update(
            extraction_state=ExtractionState.RUNNING,
            extraction_attempts=F("extraction_attempts") + 1,
            extraction_started_at=now,
        )
        if count == 1:
            claimed.append(Message.objects.select_related("subject").get(pk=pk))
    return claimed


def messages_extract(*, message_ids: list[int]) -> list[int]:
    """Run the write pipeline over messages; return the ids of facts created or merged.

    Idempotent: only messages still pending are claimed, so a task delivered twice (late ack, sweeper)
    does nothing the second time. The embedder runs outside any transaction.
    """
    messages = _claim(message_ids)
    if not messages:
        return []
    try:
        extractor = RuleExtractor()
        views = [
            MessageView(id=m.pk, role=m.role, name=m.name, content=m.content, created_at=m.created_at) for m in messages
        ]
        outputs: dict[int, ExtractionOutput] = extractor.extract(views)
        texts: list[str] = []
        for m in messages:
            texts.extend(c.text for c in outputs[m.pk].candidates)
        message_texts = [m.content for m in messages]
        try:
            vectors = embed_texts(texts + message_texts)
        except EmbedderUnavailable as exc:
            # Facts are still stored and found by keyword; the vectors can be filled in later.
            logger.warning("embedder unavailable during extraction: %s", exc)
            vectors = [None] * (len(texts) + len(message_texts))  # type: ignore[list-item]
    except Exception as exc:
        messages_mark_failed(message_ids=[m.pk for m in messages], error=repr(exc))
        raise
    fact_ids: list[int] = []
    failed: list[int] = []
    offset = 0
    for index, message in enumerate(messages):
        output = outputs[message.pk]
        n = len(output.candidates)
        try:
            fact_ids.extend(
                message_apply_extraction(
                    message=message,
                    output=output,
                    vectors=vectors[offset : offset + n],
                    message_vector=vectors[len(texts) + index],
                )
            )
        except Exception as exc:
            logger.exception("extraction failed for message %s", message.pk)
            messages_mark_failed(message_ids=[message.pk], error=repr(exc))
            failed.append(message.pk)
        offset += n
    if failed:
        raise ExtractionFailed(f"extraction failed for messages {failed}")
    return fact_ids


@transaction.atomic
def message_apply_extraction(
    *, message: Message, output: ExtractionOutput, vectors: list[list[float] | None], message_vector: list[float] | None
) -> list[int]:
    """Reconcile one message's candidates and mark it done, all in one transaction."""
    subject = Subject.objects.select_for_update().get(pk=message.subject_id)
    fact_ids: list[int] = []
    if not subject.memory_paused:
        for candidate, vector in zip(output.candidates, vectors, strict=True):
            result = fact_reconcile(subject=subject, candidate=candidate, embedding=vector)
            fact_ids.append(result.fact.pk)
    stext = search_text(message.content)
    Message.objects.filter(pk=message.pk).update(
        extraction_state=ExtractionState.SKIPPED if subject.memory_paused else ExtractionState.DONE,
        extraction_finished_at=timezone.now(),
        extraction_error="",
        extractor=output.extractor,
        gate_decision="keep" if output.gate.keep else "skip",
        gate_reason=("memory paused" if subject.memory_paused else output.gate.reason)[:255],
        search_vector=_search_vector_expr(stext),
        embedding=message_vector,
    )
    return fact_ids


def messages_mark_failed(*, message_ids: list[int], error: str) -> None:
    """Return running messages to pending for a retry, or mark them failed after the last attempt."""
    from django.conf import settings

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
    cutoff = timezone.now() - timezone.timedelta(seconds=older_than_seconds)
    Message.objects.filter(extraction_state=ExtractionState.RUNNING, extraction_started_at__lt=cutoff).update(
        extraction_state=ExtractionState.PENDING
    )
    return list(
        Message.objects.filter(extraction_state=ExtractionState.PENDING, received_at__lt=cutoff)
        .order_by("received_at")
        .values_list("pk", flat=True)[:1000]
    )


def messages_extract_now(*, message_ids: list[int]) -> None:
    """Extract in this process for `?wait=true`; wait for any message a worker already claimed.

    The queued task still runs later and finds nothing pending, so nothing is extracted twice.
    """
    import time

    from django.conf import settings

    try:
        messages_extract(message_ids=message_ids)
    except ExtractionFailed:
        logger.warning("inline extraction failed for some of %s", message_ids)
    deadline = time.monotonic() + settings.INGEST_WAIT_TIMEOUT
    while time.monotonic() < deadline:
        busy = Message.objects.filter(pk__in=message_ids, extraction_state=ExtractionState.RUNNING).exists()
        if not busy:
            return
        time.sleep(0.05)


def facts_for_messages(*, message_ids: list[int]) -> list[Fact]:
    """Facts touched by these messages (created from or merged with them)."""
    return list(Fact.objects.filter(sources__message_id__in=message_ids).distinct().order_by("created_at", "id"))
