"""The operations the API, the portal and the admin call on facts: create, correct, forget, pin, archive, resolve.

Race: each command runs in one transaction holding the subject's row lock (`select_for_update`), the lock every
writer of a subject's facts takes, and re-reads what it changes under it. An embedding (the slow part) is
computed before, outside the transaction. Every change is recorded in the fact's history.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from conversations.models import Subject
from facts import embedding as embedding_backend  # module import: safe when threads import it concurrently
from facts.events import event_emit
from facts.exceptions import ConflictAlreadyResolved, FactNotFound, InvalidKeep, MemoryPaused, TooManyFacts
from facts.extraction.base import Candidate
from facts.extraction.entities import entities_of
from facts.extraction.slots import pet_slot, slot_of, type_of
from facts.extraction.timeexpr import resolve_text
from facts.models import Conflict, Fact, FactHistory
from facts.profile import profile_schedule_rebuild
from facts.services.reconcile import ReconcileResult, fact_reconcile, history_record
from facts.services.subject_data import fact_own_texts, fingerprints_record, history_texts_forget
from facts.services.zh_vectors import facts_fill_zh
from facts.text import detect_language, has_cjk, normalize, search_text
from facts.text import keywords as text_keywords
from memory_site.pgio import search_vector_expr

logger = logging.getLogger(__name__)


@contextmanager
def subject_locked(subject_id: int) -> Iterator[Subject]:
    """One transaction holding the subject's row lock (a savepoint when the caller already holds it)."""
    with transaction.atomic():
        yield Subject.objects.select_for_update().get(pk=subject_id)


def fact_current(fact: Fact) -> Fact:
    """The fact as stored now (call under the subject's lock); FactNotFound when it was forgotten meanwhile."""
    stored = Fact.objects.filter(pk=fact.pk).first()
    if stored is None:
        raise FactNotFound()
    return stored


def embed_one(text: str) -> list[float] | None:
    """The text's vector for a direct write, or None when the embedder is down (the fact is stored without one)."""
    try:
        return embedding_backend.embed_texts([text])[0]
    except embedding_backend.EmbedderUnavailable as exc:
        logger.warning("embedder unavailable for a direct write: %s", exc)
        return None


# --- creating ---------------------------------------------------------------------------------------------------

_THIRD_TO_FIRST_EN = {"lives": "live", "has": "have", "is": "am", "works": "work", "loves": "love", "likes": "like",
                      "hates": "hate", "prefers": "prefer", "enjoys": "enjoy", "doesn't": "don't", "does": "do"}  # fmt: skip


def _first_person(text: str, name: str) -> str:
    """'User lives in Haidian' -> 'I live in Haidian', so the first-person slot rules read direct writes too."""
    for prefix in {name, "User", "the user", "用户"} - {""}:
        if text.lower().startswith(prefix.lower()):
            rest = text[len(prefix) :]
            if has_cjk(rest[:2]) or rest.startswith(
                ("的", "对", "在", "是", "住", "搬", "不", "想", "喜", "讨", "有", "养")
            ):
                return "我" + rest
            words = rest.strip().split(" ", 1)
            verb = _THIRD_TO_FIRST_EN.get(words[0].lower(), words[0])
            return " ".join(["I", verb, *words[1:]])
    return text


def candidate_from_text(
    *,
    subject: Subject,
    text: str,
    type: str | None = None,
    entities: list[dict[str, str]] | None = None,
    confidence: float | None = None,
    importance: float | None = None,
    expires_at: dt.datetime | None = None,
    valid_from: dt.datetime | None = None,
    extractor: str = Fact.Extractor.API,
) -> Candidate:
    """A candidate for a fact written directly: slot, entities and keywords found by the same rules."""
    text = text.strip()
    first = _first_person(text, subject.external_id)
    slot = slot_of(first) or pet_slot(first)
    name = text.split(" ", 1)[0] if text[:4].lower() == "user" else ("用户" if text.startswith("用户") else "User")
    return Candidate(
        message_id=0,
        text=text,
        type=type or type_of(first, slot, text.endswith(("?", "？"))),
        subject_entity=name if slot else "",
        predicate=slot.predicate if slot else "",
        object_value=slot.object_value if slot else "",
        entities=entities if entities is not None else entities_of(text, text, ""),
        keywords=text_keywords(text),
        confidence=confidence if confidence is not None else 0.9,
        importance=importance if importance is not None else 0.6,
        valid_from=valid_from or timezone.now(),
        event_time=_event_time(text, valid_from or timezone.now()),
        expires_at=expires_at,
        language=detect_language(text),
        extractor=extractor,
    )


def _event_time(text: str, ref: dt.datetime) -> dt.datetime | None:
    """When a directly written fact says its event happened ("yesterday", "上周三"), relative to its valid_from."""
    times = resolve_text(text, ref)[1]
    return times[0].when if times else None


def fact_create(
    *,
    subject: Subject,
    text: str,
    actor: str,
    actor_id: str = "",
    metadata: dict[str, Any] | None = None,
    type: str | None = None,
    entities: list[dict[str, str]] | None = None,
    confidence: float | None = None,
    importance: float | None = None,
    expires_at: dt.datetime | None = None,
    valid_from: dt.datetime | None = None,
) -> ReconcileResult:
    """Write a fact directly: the same merge, supersede and conflict logic as extraction.

    MemoryPaused when the subject's memory is paused, TooManyFacts when it holds MAX_FACTS_PER_SUBJECT facts. The
    embedding is computed first, outside the transaction.
    """
    if subject.memory_paused:
        raise MemoryPaused()
    candidate = candidate_from_text(
        subject=subject, text=text, type=type, entities=entities, confidence=confidence, importance=importance,
        expires_at=expires_at, valid_from=valid_from,
    )  # fmt: skip
    vector = embed_one(candidate.text)
    with subject_locked(subject.pk) as subject:
        if subject.memory_paused:  # paused since the check above
            raise MemoryPaused()
        held = Fact.objects.filter(subject=subject).count()  # under the subject's lock
        if held >= settings.MAX_FACTS_PER_SUBJECT:
            raise TooManyFacts(limit=settings.MAX_FACTS_PER_SUBJECT, held=held)
        result = fact_reconcile(subject=subject, candidate=candidate, embedding=vector, actor=actor, actor_id=actor_id)
        if metadata and result.action != "merged":
            Fact.objects.filter(pk=result.fact.pk).update(metadata=metadata)
            result.fact.refresh_from_db()
        profile_schedule_rebuild(subject_id=subject.pk)
    if vector is not None:
        facts_fill_zh(fact_ids=[result.fact.pk])
    return result


# --- correcting, pinning ----------------------------------------------------------------------------------------


def _set_text(fact: Fact, new_text: str, vector: list[float] | None) -> None:
    """Give the fact new text and everything derived from it (search fields, entities, slot, vector)."""
    fact.text = new_text
    fact.normalized_text = normalize(new_text)
    fact.search_text = search_text(new_text)
    fact.keywords = text_keywords(new_text)
    fact.entities = entities_of(new_text, new_text, "")
    fact.entity_keys = sorted({normalize(e["text"])[:255] for e in fact.entities} - {""})
    fact.language = detect_language(new_text)
    first = _first_person(new_text, fact.subject.external_id)
    slot = slot_of(first) or pet_slot(first)
    if slot is not None:
        fact.predicate, fact.object_value = slot.predicate, slot.object_value
    if vector is not None:
        fact.embedding = vector
        fact.embedding_model = embedding_backend.get_embedder().model_name
    fact.embedding_zh = None  # the old text's: filled again once saved (zh_vectors.py)


def fact_correct(
    *,
    fact: Fact,
    actor: str,
    actor_id: str = "",
    text: str | None = None,
    type: str | None = None,
    expires_at: dt.datetime | None | object = ...,
    pinned: bool | None = None,
    metadata: dict[str, Any] | None = None,
) -> Fact:
    """Correct a fact (PATCH): new text is re-embedded and re-indexed; every change is in the history.

    `expires_at=...` (the default) leaves the expiry as it is; None removes it. `metadata` replaces the fact's.
    """
    new_text = text.strip() if text is not None else None
    vector = embed_one(new_text) if new_text and new_text != fact.text else None
    with subject_locked(fact.subject_id):
        fact = fact_current(fact)
        before = fact.text
        changed: dict[str, Any] = {}
        if new_text and new_text != fact.text:
            _set_text(fact, new_text, vector)
            changed["text"] = new_text
        if type is not None and type != fact.type:
            changed["type"] = {"from": fact.type, "to": type}
            fact.type = type
        if expires_at is not ... and expires_at != fact.expires_at:
            changed["expires_at"] = expires_at.isoformat() if isinstance(expires_at, dt.datetime) else None
            fact.expires_at = expires_at  # type: ignore[assignment]
        if pinned is not None and pinned != fact.pinned:
            changed["pinned"] = pinned
            fact.pinned = pinned
            if pinned:
                fact.importance = max(fact.importance, 0.9)
        if metadata is not None and metadata != fact.metadata:
            changed["metadata"] = sorted(metadata)  # the keys: values may be long, the history says what changed
            fact.metadata = metadata
        if not changed:
            return fact
        fact.confidence = max(fact.confidence, 0.95) if "text" in changed else fact.confidence
        fact.save()
        if "text" in changed:
            Fact.objects.filter(pk=fact.pk).update(search_vector=search_vector_expr(fact.search_text))
        history_record(
            fact=fact, event=FactHistory.Event.CORRECTED, actor=actor, actor_id=actor_id, before_text=before,
            after_text=fact.text, data={"changed": changed},
        )  # fmt: skip
        profile_schedule_rebuild(subject_id=fact.subject_id)
    if "text" in changed:
        facts_fill_zh(fact_ids=[fact.pk])
    return fact


def fact_pin(*, fact: Fact, actor: str, actor_id: str = "", importance: float = 0.9) -> Fact:
    """Pin a fact ("remember this"): it is kept by every retention policy and ranks higher."""
    with subject_locked(fact.subject_id):
        Fact.objects.filter(pk=fact.pk).update(
            pinned=True, importance=max(fact.importance, importance), updated_at=timezone.now()
        )
        fact.refresh_from_db()
        history_record(fact=fact, event=FactHistory.Event.PINNED, actor=actor, actor_id=actor_id, after_text=fact.text)
        profile_schedule_rebuild(subject_id=fact.subject_id)
    return fact


def fact_unpin(*, fact: Fact, actor: str, actor_id: str = "") -> Fact:
    """Unpin a fact: recorded as a correction of `pinned`, exactly as a PATCH with pinned=false is."""
    return fact_correct(fact=fact, actor=actor, actor_id=actor_id, pinned=False)


# --- archiving, forgetting --------------------------------------------------------------------------------------


def fact_archive(*, fact: Fact, actor: str, actor_id: str = "", reason: str = "") -> Fact:
    """Move a fact to the archived tier: kept and found by keyword on request, its vector dropped.

    Dropping the embedding also drops its binary-quantised copy (a column PostgreSQL generates from it), so the
    fact leaves every vector index. Archiving an archived fact changes nothing.
    """
    with subject_locked(fact.subject_id):
        fact = fact_current(fact)
        if fact.tier == Fact.Tier.ARCHIVED:
            return fact
        Fact.objects.filter(pk=fact.pk).update(
            tier=Fact.Tier.ARCHIVED, embedding=None, embedding_zh=None, embedding_model="", updated_at=timezone.now()
        )
        fact.refresh_from_db()
        history_record(
            fact=fact, event=FactHistory.Event.ARCHIVED, actor=actor, actor_id=actor_id, after_text=fact.text,
            data={"reason": reason} if reason else {},
        )  # fmt: skip
        profile_schedule_rebuild(subject_id=fact.subject_id)
    return fact


def fact_restore(*, fact: Fact, actor: str, actor_id: str = "") -> Fact:
    """Bring an archived fact back to the active tier with its text embedded again.

    The embedding is computed first, outside the transaction; if the text changed meanwhile the fact comes back
    without a vector (found by keyword) rather than with another text's. Restoring an active fact changes nothing.
    """
    fact = fact_current(fact)
    if fact.tier != Fact.Tier.ARCHIVED:
        return fact
    embedded_text = fact.text
    vector = embed_one(embedded_text)
    with subject_locked(fact.subject_id):
        fact = fact_current(fact)
        if fact.tier != Fact.Tier.ARCHIVED:
            return fact
        if fact.text != embedded_text:
            vector = None
        model = embedding_backend.get_embedder().model_name if vector is not None else ""
        Fact.objects.filter(pk=fact.pk).update(
            tier=Fact.Tier.ACTIVE, embedding=vector, embedding_model=model, updated_at=timezone.now()
        )
        fact.refresh_from_db()
        history_record(
            fact=fact, event=FactHistory.Event.RESTORED, actor=actor, actor_id=actor_id, after_text=fact.text
        )
        profile_schedule_rebuild(subject_id=fact.subject_id)
    if vector is not None:
        facts_fill_zh(fact_ids=[fact.pk])
    return fact


def fact_forget(*, fact: Fact, actor: str, actor_id: str = "", reason: str = "", fingerprint: bool = True) -> None:
    """Remove a fact and its embedding; its history keeps the events and loses the text.

    Its wordings are blanked wherever the subject's history quotes them, and (with `fingerprint`, the default)
    their fingerprints join the subject's forgotten set, so extraction never brings the fact back. Open
    conflicts it was part of are closed and the other fact goes back to active. A fact already forgotten (by a
    concurrent request) is left alone.
    """
    with subject_locked(fact.subject_id) as subject:
        stored = Fact.objects.filter(pk=fact.pk).first()
        if stored is None:
            return
        texts = fact_own_texts(stored)
        if fingerprint:
            fingerprints_record(subject=subject, texts=texts)
        FactHistory.objects.filter(fact_uid=fact.uid).update(before_text="", after_text="")
        _corrections_forget(fact_uid=fact.uid)
        history_texts_forget(subject_id=fact.subject_id, texts=texts)
        for conflict in Conflict.objects.filter(Q(fact_a=fact) | Q(fact_b=fact), state=Conflict.State.OPEN):
            other_id = conflict.fact_b_id if conflict.fact_a_id == fact.pk else conflict.fact_a_id
            conflict_close(conflict, resolution="forgotten", resolved_by=f"{actor}:{actor_id}".rstrip(":"))
            if other_id:
                Fact.objects.filter(pk=other_id, status=Fact.Status.CONFLICTED).update(status=Fact.Status.ACTIVE)
        FactHistory.objects.create(
            tenant_id=fact.tenant_id, subject_id=fact.subject_id, fact=None, fact_uid=fact.uid,
            event=FactHistory.Event.FORGOTTEN, actor=actor, actor_id=actor_id,
            data={"reason": reason, "fact_id": fact.pk} if reason else {"fact_id": fact.pk},
        )  # fmt: skip
        event_emit(tenant_id=fact.tenant_id, subject_id=fact.subject_id)
        FactHistory.objects.filter(fact_uid=fact.uid).update(fact=None)
        fact.delete()
        profile_schedule_rebuild(subject_id=fact.subject_id)


def _corrections_forget(*, fact_uid: Any) -> None:
    """Blank the new wording a correction event keeps in its data ({"changed": {"text": ...}})."""
    for row in FactHistory.objects.filter(
        fact_uid=fact_uid, event=FactHistory.Event.CORRECTED, data__changed__has_key="text"
    ):
        row.data["changed"]["text"] = ""
        row.save(update_fields=["data"])


def fact_delete(*, fact: Fact, actor: str, actor_id: str = "") -> None:
    """Forget a fact on request (DELETE, portal): the row and its embedding go, the history keeps the event."""
    fact_forget(fact=fact, actor=actor, actor_id=actor_id, reason="deleted on request")


# --- conflicts --------------------------------------------------------------------------------------------------


def conflict_close(conflict: Conflict, *, resolution: str, resolved_by: str) -> None:
    conflict.state = Conflict.State.RESOLVED
    conflict.resolution = resolution[:64]
    conflict.resolved_by = resolved_by[:255]
    conflict.resolved_at = timezone.now()
    conflict.save(update_fields=["state", "resolution", "resolved_by", "resolved_at", "updated_at"])


def _kept_and_dropped(facts: list[Fact], keep: str | int) -> tuple[list[Fact], list[Fact]]:
    """Split a conflict's facts by `keep` (a fact id of the conflict, "both" or "neither"); InvalidKeep else."""
    if keep == "both":
        return facts, []
    if keep == "neither":
        return [], facts
    try:
        keep_id = int(keep)
    except (TypeError, ValueError):
        raise InvalidKeep(keep) from None
    if keep_id not in {f.pk for f in facts}:
        raise InvalidKeep(keep)
    return [f for f in facts if f.pk == keep_id], [f for f in facts if f.pk != keep_id]


def conflict_resolve(*, conflict: Conflict, keep: str | int, actor: str, actor_id: str = "") -> Conflict:
    """Settle an open conflict: keep one fact (the other is superseded), keep both, or neither.

    ConflictAlreadyResolved when it is not open (any more); InvalidKeep for a `keep` naming none of its facts.
    """
    with subject_locked(conflict.subject_id):
        conflict = Conflict.objects.get(pk=conflict.pk)
        if conflict.state != Conflict.State.OPEN:
            raise ConflictAlreadyResolved(state=conflict.state)
        kept, dropped = _kept_and_dropped([f for f in (conflict.fact_a, conflict.fact_b) if f is not None], keep)
        now = timezone.now()
        for fact in kept:
            Fact.objects.filter(pk=fact.pk).update(status=Fact.Status.ACTIVE, updated_at=now)
            history_record(
                fact=fact, event=FactHistory.Event.RESOLVED, actor=actor, actor_id=actor_id, after_text=fact.text,
                data={"conflict_id": conflict.pk, "kept": True},
            )  # fmt: skip
        for fact in dropped:
            valid_to = max(now, fact.valid_from) if fact.valid_from else now
            Fact.objects.filter(pk=fact.pk).update(status=Fact.Status.SUPERSEDED, valid_to=valid_to, updated_at=now)
            history_record(
                fact=fact, event=FactHistory.Event.SUPERSEDED, actor=actor, actor_id=actor_id, before_text=fact.text,
                data={"conflict_id": conflict.pk, "kept": False},
            )  # fmt: skip
        conflict_close(conflict, resolution=f"keep:{keep}", resolved_by=f"{actor}:{actor_id}".rstrip(":"))
        profile_schedule_rebuild(subject_id=conflict.subject_id)
    return conflict
