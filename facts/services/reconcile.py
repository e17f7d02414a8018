"""Reconciliation: a candidate becomes a new fact, or merges, supersedes or conflicts with a current one.

Race: call everything here inside a transaction holding the subject's row lock (`select_for_update`); every
writer of a subject's facts takes it, so two workers never both create the same fact.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from celery import current_app
from django.db import transaction
from django.db.models import F, Q, QuerySet
from django.utils import timezone
from pgvector.django import CosineDistance

from conversations.models import Subject
from facts import embedding as embedding_backend  # module import: safe when threads import it concurrently
from facts.events import event_emit
from facts.extraction.base import Candidate
from facts.extraction.families import same_value
from facts.extraction.rules import VERSION as RULES_VERSION
from facts.extraction.slots import POLAR_PREFIXES, SINGLE_VALUED, states_a_change
from facts.models import Actor, Conflict, Fact, FactHistory, FactSource
from facts.services.writes import CURRENT, WriteBuffer
from facts.text import keywords as text_keywords
from facts.text import normalize, search_text
from memory_site.pgio import search_vector_expr

# Cosine similarity above which two facts with no new content words are the same fact said again.
MERGE_SIMILARITY = 0.9
# Above this, a pair that differs in negation ("likes" / "doesn't like") is a contradiction.
CONTRADICTION_SIMILARITY = 0.85
# The batch's neighbour look-up (`WriteBuffer.prefetch`) keeps facts within this cosine distance: the
# contradiction distance, with a margin for float32 rounding between PostgreSQL and numpy.
NEIGHBOUR_DISTANCE = 1 - CONTRADICTION_SIMILARITY + 1e-6
_NEGATION_RE = re.compile(
    r"\b(not|never|no longer|no|don'?t|doesn'?t|didn'?t|isn'?t|wasn'?t|won'?t|can'?t)\b|不|没|别|未", re.I
)


@dataclass
class ReconcileResult:
    fact: Fact
    action: str  # created | merged | superseded | conflicted
    other: Fact | None = None  # the fact superseded by, or in conflict with, `fact`
    conflict: Conflict | None = None


@dataclass
class _Incoming:
    """A candidate on its way in, with who said it and where its rows go."""

    subject: Subject
    candidate: Candidate
    embedding: list[float] | None
    actor: str
    actor_id: str
    buffer: WriteBuffer | None

    def history(self, fact: Fact, event: str, **fields: Any) -> None:
        history_record(fact=fact, event=event, actor=self.actor, actor_id=self.actor_id, buffer=self.buffer, **fields)

    def new_row(self) -> None:
        """Before anything is written for a new fact row: TooManyFacts when the batch's room is spent."""
        if self.buffer is not None:
            self.buffer.take_room()


def history_record(
    *,
    fact: Fact,
    event: str,
    actor: str = Actor.SYSTEM,
    actor_id: str = "",
    before_text: str = "",
    after_text: str = "",
    data: dict | None = None,
    buffer: WriteBuffer | None = None,
) -> FactHistory:
    """Record one event; with a buffer the row is inserted later in bulk (before anything reads history)."""
    row = FactHistory(
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
    if buffer is not None:
        buffer.history.append(row)
    else:
        row.save(force_insert=True)
    event_emit(tenant_id=fact.tenant_id, subject_id=fact.subject_id)  # webhooks read the row once this commits
    return row


RESTORE_TASK = "facts.tasks.fact_restore_task"


def fact_restore_later(*, fact_id: int, reason: str) -> None:
    """Restore an archived fact (re-embedded) in a worker once this transaction commits; inline when tasks run
    eagerly. `reason` names the job in its history (lifecycle:restore-on-<reason>)."""
    signature = current_app.signature(RESTORE_TASK, args=[fact_id, reason])
    transaction.on_commit(signature.apply_async)


def fact_reconcile(
    *,
    subject: Subject,
    candidate: Candidate,
    embedding: list[float] | None,
    actor: str = Actor.SYSTEM,
    actor_id: str = "",
    buffer: WriteBuffer | None = None,
) -> ReconcileResult:
    """Store a candidate as a new fact, or merge, supersede or conflict with the subject's current facts.

    Call inside a transaction holding the subject's row lock, so two workers never both create it.
    Order: exact text -> same slot -> nearest vectors (merge only when nothing new is said).
    With a buffer (the pipeline's batch), history and sources are written in bulk when it is flushed, and a
    candidate that needs a new row past the buffer's `room` raises TooManyFacts before anything is written.
    """
    incoming = _Incoming(subject, candidate, embedding, actor, actor_id, buffer)
    norm = normalize(candidate.text)
    current = Fact.objects.filter(subject=subject, status__in=CURRENT)
    if buffer is not None and norm in buffer.known:
        existing = buffer.known[norm]
    else:
        existing = current.filter(normalized_text=norm).order_by("created_at").first()
    if existing is not None:
        if buffer is not None and buffer.is_pending([existing.pk]):
            buffer.flush_facts()  # the merge updates its row
        return ReconcileResult(_merge(existing, incoming), "merged")
    result = _reconcile_new(incoming, current)
    if buffer is not None:
        if result.action == "superseded" and result.other is not None:
            buffer.known.pop(result.other.normalized_text, None)  # no longer current: ask the database
        if result.fact.status in CURRENT and buffer.known.get(norm) is None:
            buffer.known[norm] = result.fact
        if result.action != "merged" and result.fact.status in CURRENT:
            buffer.add(result.fact, embedding)
    return result


def _reconcile_new(incoming: _Incoming, current: QuerySet[Fact]) -> ReconcileResult:
    """No current fact has the candidate's exact text: same slot, then nearest vectors, else a new fact."""
    buffer, candidate = incoming.buffer, incoming.candidate
    if buffer is not None:  # the queries below must see this batch's new facts
        if buffer.near is None:
            buffer.flush_facts()
        elif candidate.predicate:
            buffer.flush_if_slot_pending(candidate.predicate)
    result = _by_slot(incoming, current) if candidate.predicate else None
    if result is None and incoming.embedding is not None:
        result = _by_vector(incoming, current, incoming.embedding)
    if result is not None:
        return result
    incoming.new_row()
    fact = fact_insert(subject=incoming.subject, candidate=candidate, embedding=incoming.embedding, buffer=buffer)
    incoming.history(fact, FactHistory.Event.CREATED, after_text=fact.text, data={"extractor": fact.extractor})
    return ReconcileResult(fact, "created")


def _by_slot(incoming: _Incoming, current: QuerySet[Fact]) -> ReconcileResult | None:
    """The same slot (predicate and entity) already holds a value: merge, supersede or conflict."""
    candidate = incoming.candidate
    same_slot = list(
        current.filter(predicate=candidate.predicate)
        .filter(_same_speaker(candidate.subject_entity))
        .defer("embedding", "embedding_zh")
        .order_by("-valid_from", "-created_at")[:5]
    )
    for old in same_slot:
        if normalize(old.object_value) == normalize(candidate.object_value) or same_value(
            old.object_value, candidate.object_value
        ):
            return ReconcileResult(_merge(old, incoming), "merged")
    if not same_slot:
        return None
    old = same_slot[0]
    if candidate.predicate in SINGLE_VALUED or candidate.predicate.startswith(("order_status:", "favorite:")):
        return _supersede(incoming, old)
    if candidate.predicate.startswith(POLAR_PREFIXES):
        if states_a_change(candidate.text):  # "these days I want to try ...", "我现在不喝咖啡了": the newer view holds
            return _supersede(incoming, old)
        return _conflict(incoming, old, reason=f"{candidate.predicate}: opposite values")
    return None


# The speaker of an unnamed user is "User" in English facts and "用户" in Chinese ones: one person, one slot.
_UNNAMED_SPEAKER = {"user", "用户"}


def _same_speaker(entity: str) -> Q:
    if entity.casefold() in _UNNAMED_SPEAKER:
        return Q(subject_entity__iexact="user") | Q(subject_entity="用户")
    return Q(subject_entity__iexact=entity)


def _by_vector(incoming: _Incoming, current: QuerySet[Fact], embedding: list[float]) -> ReconcileResult | None:
    """A near-identical current fact: merge when nothing new is said, conflict when one negates the other."""
    candidate, buffer = incoming.candidate, incoming.buffer
    neighbours = buffer.neighbours(embedding) if buffer is not None else None
    if neighbours is None:
        neighbours = list(
            current.filter(embedding__isnull=False)
            .annotate(distance=CosineDistance("embedding", embedding))
            .filter(distance__lte=1 - CONTRADICTION_SIMILARITY)
            .order_by("distance")[:3]
        )
    speaker = {w.casefold() for w in re.findall(r"\w+", candidate.subject_entity or "")}
    new_words = _content_words(candidate.text, speaker)
    for near in neighbours:
        similarity = 1 - float(near.distance)  # type: ignore[attr-defined]
        typed = candidate.type not in {"other", "inquiry"} and near.type == candidate.type
        if typed and _negated(near.text) != _negated(candidate.text):
            if new_words <= _content_words(near.text, speaker) | {"not", "don't", "doesn't"}:  # the same topic
                return _conflict(incoming, near, reason="negation of a near-identical fact")
            continue
        if _negated(near.text) != _negated(candidate.text):
            continue  # a quoted remark and its opposite: too weak to call a contradiction, keep both
        if similarity >= MERGE_SIMILARITY and new_words <= _content_words(near.text, speaker):
            return ReconcileResult(_merge(near, incoming), "merged")
    return None


def _negated(text: str) -> bool:
    return bool(_NEGATION_RE.search(text))


def _content_words(candidate_text: str, speaker_words: set[str]) -> set[str]:
    words = {w for w in text_keywords(candidate_text, limit=64) if w not in speaker_words}
    return words | set(re.findall(r"\d+", candidate_text))  # "book 4" is not "book 0"; "7 May" is not "20 May"


def _merge(existing: Fact, incoming: _Incoming) -> Fact:
    """The same fact said again: one more mention, one more source, no new row."""
    candidate = incoming.candidate
    updates: dict[str, Any] = {"mention_count": F("mention_count") + 1, "updated_at": timezone.now()}
    if candidate.pinned and not existing.pinned:
        updates.update(pinned=True, importance=max(existing.importance, candidate.importance))
    if candidate.confidence > existing.confidence:
        updates["confidence"] = candidate.confidence
    Fact.objects.filter(pk=existing.pk).update(**updates)
    existing.refresh_from_db()
    if existing.tier == Fact.Tier.ARCHIVED:  # mentioned again: back to active, re-embedded off this transaction
        fact_restore_later(fact_id=existing.pk, reason="mentioned")
    if candidate.message_id:
        if incoming.buffer is not None:
            incoming.buffer.sources.append(
                FactSource(
                    fact=existing,
                    message_id=candidate.message_id,
                    span_start=candidate.span_start,
                    span_end=candidate.span_end,
                )
            )
        else:
            FactSource.objects.get_or_create(
                fact=existing,
                message_id=candidate.message_id,
                defaults={"span_start": candidate.span_start, "span_end": candidate.span_end},
            )
    incoming.history(
        existing,
        FactHistory.Event.MERGED,
        before_text=existing.text,
        after_text=candidate.text,
        data={"mention_count": existing.mention_count, "message_id": candidate.message_id},
    )
    return existing


def _supersede(incoming: _Incoming, old: Fact) -> ReconcileResult:
    """Same slot, new value: the newer statement becomes the current truth, the older one gets valid_to."""
    incoming.new_row()
    subject, candidate = incoming.subject, incoming.candidate
    new_from = candidate.valid_from or timezone.now()
    fact = fact_insert(subject=subject, candidate=candidate, embedding=incoming.embedding)
    if old.valid_from and new_from < old.valid_from:
        # The candidate is older than what we hold (a message arrived late): it is history at once.
        Fact.objects.filter(pk=fact.pk).update(status=Fact.Status.SUPERSEDED, valid_to=old.valid_from)
        fact.refresh_from_db()
        incoming.history(fact, FactHistory.Event.CREATED, after_text=fact.text)
        incoming.history(
            fact, FactHistory.Event.SUPERSEDED, before_text=fact.text, after_text=old.text,
            data={"by": str(old.uid), "reason": "older statement arrived late"},
        )  # fmt: skip
        return ReconcileResult(fact, "superseded", other=old)
    valid_to = max(new_from, old.valid_from) if old.valid_from else new_from
    Fact.objects.filter(pk=old.pk).update(status=Fact.Status.SUPERSEDED, valid_to=valid_to, updated_at=timezone.now())
    old.refresh_from_db()
    incoming.history(
        old, FactHistory.Event.SUPERSEDED, before_text=old.text, after_text=fact.text,
        data={"by": str(fact.uid), "slot": candidate.predicate},
    )  # fmt: skip
    incoming.history(
        fact, FactHistory.Event.CREATED, before_text=old.text, after_text=fact.text,
        data={"supersedes": str(old.uid), "slot": candidate.predicate},
    )  # fmt: skip
    Conflict.objects.create(
        tenant_id=subject.tenant_id, subject=subject, fact_a=old, fact_b=fact, kind=Conflict.Kind.UPDATE,
        state=Conflict.State.AUTO_RESOLVED, reason=f"{candidate.predicate}: new value", resolution="superseded",
        resolved_by="system", resolved_at=timezone.now(),
    )  # fmt: skip
    return ReconcileResult(fact, "superseded", other=old)


def _conflict(incoming: _Incoming, old: Fact, *, reason: str) -> ReconcileResult:
    """A contradiction the rules cannot settle: both facts stay, marked conflicted, one open Conflict."""
    incoming.new_row()
    subject = incoming.subject
    fact = fact_insert(subject=subject, candidate=incoming.candidate, embedding=incoming.embedding)
    Fact.objects.filter(pk__in=[fact.pk, old.pk]).update(status=Fact.Status.CONFLICTED, updated_at=timezone.now())
    fact.refresh_from_db()
    old.refresh_from_db()
    conflict = Conflict.objects.create(
        tenant_id=subject.tenant_id, subject=subject, fact_a=old, fact_b=fact, kind=Conflict.Kind.CONTRADICTION,
        state=Conflict.State.OPEN, reason=reason[:255],
    )  # fmt: skip
    incoming.history(fact, FactHistory.Event.CREATED, after_text=fact.text)
    for one, other in ((old, fact), (fact, old)):
        incoming.history(
            one, FactHistory.Event.CONFLICTED, before_text=one.text, after_text=other.text,
            data={"conflict_id": conflict.pk, "with": str(other.uid), "reason": reason},
        )  # fmt: skip
    return ReconcileResult(fact, "conflicted", other=old, conflict=conflict)


def fact_insert(
    *, subject: Subject, candidate: Candidate, embedding: list[float] | None, buffer: WriteBuffer | None = None
) -> Fact:
    """Insert one fact row with its search fields and source (the source in bulk later, with a buffer)."""
    stext = search_text(candidate.text)
    fact = Fact(
        tenant_id=subject.tenant_id,
        subject=subject,
        text=candidate.text,
        normalized_text=normalize(candidate.text),
        type=candidate.type,
        subject_entity=candidate.subject_entity[:255],
        predicate=candidate.predicate[:64],
        object_value=candidate.object_value,
        entities=candidate.entities,
        entity_keys=sorted({normalize(e["text"])[:255] for e in candidate.entities if e.get("text")} - {""}),
        keywords=[k[:100] for k in (candidate.keywords or text_keywords(candidate.text))],
        search_text=stext,
        embedding=embedding,
        embedding_model=embedding_backend.get_embedder().model_name if embedding is not None else "",
        language=candidate.language,
        confidence=min(max(candidate.confidence, 0.0), 1.0),
        importance=min(max(candidate.importance, 0.0), 1.0),
        valid_from=candidate.valid_from,
        event_time=candidate.event_time,
        expires_at=candidate.expires_at,
        pinned=candidate.pinned,
        extractor=candidate.extractor if candidate.extractor in Fact.Extractor.values else Fact.Extractor.RULES,
        extractor_version={"rules": RULES_VERSION, "llm": "llm-1.0"}.get(candidate.extractor, ""),
    )
    # With a buffer the fact waits for the batch's one INSERT (its primary key is already reserved).
    if buffer is None or not buffer.defer(fact):
        fact.search_vector = search_vector_expr(stext)  # computed by PostgreSQL inside the INSERT
        fact.save(force_insert=True)
        fact.search_vector = None  # the instance holds the expression, not the value; never save it back
    if candidate.message_id:
        source = FactSource(
            fact=fact, message_id=candidate.message_id, span_start=candidate.span_start, span_end=candidate.span_end
        )
        if buffer is not None:
            buffer.sources.append(source)
        else:
            source.save(force_insert=True)
    return fact
