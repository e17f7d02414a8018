"""Writes to facts: the extraction pipeline, reconciliation (merge, supersede, conflict), commands, history.

Races: every change to a subject's facts happens inside a transaction holding the subject's row lock
(`select_for_update`), so two workers reconciling the same subject are serialised and a fact is never
created twice. Extraction and embedding (the slow parts) happen before, outside any transaction.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.contrib.postgres.search import SearchVectorField
from django.db import InterfaceError, OperationalError, connection, transaction
from django.db.models import F, Q
from django.db.models.expressions import RawSQL
from django.utils import timezone
from pgvector.django import CosineDistance

from conversations.models import Message, Subject
from facts import embedding as embedding_backend  # module import: safe when threads import it concurrently
from facts.extraction.base import Candidate, Command, ExtractionOutput, MessageView
from facts.extraction.llm import get_extractor
from facts.extraction.rules import VERSION as RULES_VERSION
from facts.extraction.rules import entities_of
from facts.extraction.slots import POLAR_PREFIXES, SINGLE_VALUED, pet_slot, slot_of
from facts.models import Actor, Conflict, Fact, FactHistory, FactSource
from facts.text import detect_language, has_cjk, normalize, search_text
from facts.text import keywords as text_keywords

logger = logging.getLogger(__name__)

ExtractionState = Message.ExtractionState
CURRENT = [Fact.Status.ACTIVE, Fact.Status.CONFLICTED]
# Cosine similarity above which two facts with no new content words are the same fact said again.
MERGE_SIMILARITY = 0.9
# Above this, a pair that differs in negation ("likes" / "doesn't like") is a contradiction.
CONTRADICTION_SIMILARITY = 0.85
# The pipeline embeds a task's sentences sorted by length, this many per batch (less padding than one batch).
EMBED_CHUNK = 16
_NEGATION_RE = re.compile(
    r"\b(not|never|no longer|no|don'?t|doesn'?t|didn'?t|isn'?t|wasn'?t|won'?t|can'?t)\b|不|没|别|未", re.I
)


class ExtractionFailed(Exception):
    """Some messages of a batch failed; they are back to pending (or failed after the last attempt)."""


# A row's search vector: English stemming (weight A) plus the plain word forms (weight B; Chinese text is
# pre-segmented into words), as SQL over one text parameter given twice. The bulk INSERT / UPDATE use it
# as is, the ORM through _search_vector_expr: one definition for every write.
_SEARCH_VECTOR_SQL = (
    "setweight(to_tsvector('english'::regconfig, COALESCE(%s, '')), 'A') || "
    "setweight(to_tsvector('simple'::regconfig, COALESCE(%s, '')), 'B')"
)


def _search_vector_expr(text_value: str) -> RawSQL:
    return RawSQL(_SEARCH_VECTOR_SQL, (text_value, text_value), output_field=SearchVectorField())


def _schedule_profile(subject_id: int) -> None:
    """Tell the profile (engineer C's module) that the subject's facts changed."""
    try:
        from facts.profile import profile_schedule_rebuild
    except ImportError:  # pragma: no cover - the profile module is optional
        return
    profile_schedule_rebuild(subject_id=subject_id)


def history_record(
    *,
    fact: Fact,
    event: str,
    actor: str = Actor.SYSTEM,
    actor_id: str = "",
    before_text: str = "",
    after_text: str = "",
    data: dict | None = None,
    buffer: _WriteBuffer | None = None,
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
    return row


@dataclass
class _WriteBuffer:
    """What one subject's batch writes in bulk, and what it knows of the subject's current facts.

    `known` maps a normalized text to the current fact with that text (None: known to be absent); a text
    missing from it is looked up in the database. Flush before anything reads history or sources.
    With `isolate` (each message in its own savepoint) everything is flushed at the end of each message, so
    a failing message rolls back only its own rows; without it (the fast path) new rows wait for the end of
    the batch, or for a query that must see them.
    """

    isolate: bool = True
    history: list[FactHistory] = field(default_factory=list)
    sources: list[FactSource] = field(default_factory=list)
    known: dict[str, Fact | None] = field(default_factory=dict)
    # Each embedding's current neighbours (fact id, cosine distance) within the contradiction distance, from
    # one query per batch at its start (keyed by the vector object's id); None: not loaded (or reset), so
    # each candidate asks the database.
    near: dict[int, tuple[Any, list[tuple[int, float]]]] | None = None
    added: list[tuple[int, Any]] = field(default_factory=list)
    # New facts waiting for one bulk INSERT, and primary keys reserved for them from the table's sequence.
    pending: list[Fact] = field(default_factory=list)
    reserved: list[int] = field(default_factory=list)
    # Finished messages: their extraction fields, written in one UPDATE at the end of the batch.
    finished: list[Message] = field(default_factory=list)

    def reserve(self, count: int) -> None:
        if count <= 0:
            return
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT nextval(pg_get_serial_sequence(%s, 'id')) FROM generate_series(1, %s)",
                [Fact._meta.db_table, count],
            )
            self.reserved.extend(row[0] for row in cursor.fetchall())

    def defer(self, fact: Fact) -> bool:
        """Queue a new fact for the bulk insert; False when no key is reserved (insert it now)."""
        if not self.reserved:
            return False
        fact.pk = self.reserved.pop(0)  # in order: ids follow creation order
        self.pending.append(fact)
        return True

    def is_pending(self, pks: Any) -> bool:
        if not self.pending:
            return False
        waiting = {f.pk for f in self.pending}
        return any(pk in waiting for pk in pks)

    def flush_facts(self) -> None:
        """Insert the queued facts in one INSERT: call before a query or an update that must see them."""
        if not self.pending:
            return
        _facts_bulk_insert(self.pending)
        self.pending = []

    def flush_if_slot_pending(self, predicate: str) -> None:
        """Flush when a queued fact has this slot's predicate (the slot query must see it)."""
        if any(f.predicate == predicate for f in self.pending):  # any entity: the query's iexact is SQL's
            self.flush_facts()

    def prefetch(self, subject: Subject, norms: list[str], *, vectors: list[list[float] | None] | None = None) -> None:
        self.known = dict.fromkeys(norms)
        rows = Fact.objects.filter(subject=subject, status__in=CURRENT, normalized_text__in=norms).order_by(
            "-created_at", "-id"
        )
        for fact in rows:  # oldest last, so the oldest wins, as in the unbuffered lookup
            self.known[fact.normalized_text] = fact
        if vectors is not None:
            self._load_neighbours(subject, vectors)

    def _load_neighbours(self, subject: Subject, vectors: list[list[float] | None]) -> None:
        """Every vector's current neighbours within the contradiction distance: one query, computed in the
        database (no vector leaves it), instead of one query per candidate."""
        distinct = list({id(v): v for v in vectors if v is not None}.values())
        self.near = {id(v): (v, []) for v in distinct}
        self.added = []
        if not distinct:
            return
        with _binary_cursor() as cursor:
            cursor.execute(
                "SELECT c.ord, f.id, f.embedding <=> c.v FROM unnest(%b::vector[]) WITH ORDINALITY AS c(v, ord) "
                "JOIN facts_fact f ON f.subject_id = %s AND f.status = ANY(%s) AND f.embedding IS NOT NULL "
                "WHERE (f.embedding <=> c.v) <= %s ORDER BY c.ord, 3, f.id",
                [[_as_array(v) for v in distinct], subject.pk, list(CURRENT), 1 - CONTRADICTION_SIMILARITY + 1e-6],
            )
            for ord_, pk, distance in cursor.fetchall():
                self.near[id(distinct[ord_ - 1])][1].append((pk, float(distance)))

    def add(self, fact: Fact, embedding: list[float] | None) -> None:
        """A fact created in this batch: later candidates must see it as a neighbour too."""
        if self.near is not None and embedding is not None:
            import numpy as np

            self.added.append((fact.pk, _unit_rows(np.asarray(embedding, dtype=np.float32)[None, :])[0]))

    def neighbours(self, embedding: list[float]) -> list[Fact] | None:
        """The (at most 3) current facts nearest the embedding within the contradiction distance, nearest first,
        each with a `distance` attribute, as the per-candidate query returns them; None when not loaded."""
        if self.near is None:
            return None
        known = self.near.get(id(embedding))
        if known is None or known[0] is not embedding:
            return None
        pairs = list(known[1])
        if self.added:
            import numpy as np

            query = _unit_rows(np.asarray(embedding, dtype=np.float32)[None, :])[0]
            distances = 1.0 - np.stack([v for _, v in self.added]) @ query
            pairs.extend((pk, float(d)) for (pk, _), d in zip(self.added, distances, strict=True))
        near = [(pk, d) for pk, d in pairs if d <= 1 - CONTRADICTION_SIMILARITY + 1e-6]
        if not near:
            return []
        near = sorted(near, key=lambda pair: pair[1])[:8]
        if self.is_pending(pk for pk, _ in near):
            self.flush_facts()
        by_pk = Fact.objects.filter(pk__in=[pk for pk, _ in near], status__in=CURRENT).defer("embedding").in_bulk()
        out: list[Fact] = []
        for pk, distance in near:  # facts superseded or forgotten since the batch began are gone from by_pk
            fact = by_pk.get(pk)
            if fact is not None:
                fact.distance = distance  # type: ignore[attr-defined]
                out.append(fact)
        return out[:3]

    def flush(self) -> None:
        self.flush_facts()
        if self.sources:
            FactSource.objects.bulk_create(self.sources, ignore_conflicts=True)
        if self.history:
            FactHistory.objects.bulk_create(self.history)
        self.sources, self.history = [], []

    def flush_messages(self) -> None:
        """Write every finished message's extraction fields in one UPDATE."""
        if self.finished:
            _messages_finish(self.finished)
        self.finished = []

    def reset(self) -> None:
        """After a rollback or a command: forget everything cached."""
        self.sources, self.history, self.known = [], [], {}
        self.near = None
        self.added = []
        self.pending = []  # rolled back with the savepoint (their reserved keys are simply never used)


_VECTOR_TYPES: dict[tuple[str, str, str], Any] = {}  # pgvector's type (its oid differs per database)


@contextmanager
def _binary_cursor() -> Iterator[Any]:
    """A psycopg cursor on Django's connection (same transaction) with server-side parameters, vectors sent
    in pgvector's binary form: no float is formatted as text, no large statement is quoted client-side."""
    import numpy as np
    import psycopg
    from pgvector.psycopg.vector import VectorBinaryDumper
    from psycopg.types import TypeInfo

    connection.ensure_connection()
    raw = connection.connection
    where = connection.settings_dict
    key = (str(where.get("HOST") or ""), str(where.get("PORT") or ""), str(where["NAME"]))
    info = _VECTOR_TYPES.get(key)
    if info is None:
        info = _VECTOR_TYPES[key] = TypeInfo.fetch(raw, "vector")
    with psycopg.Cursor(raw) as cursor:
        info.register(cursor)
        cursor.adapters.register_dumper(np.ndarray, type("", (VectorBinaryDumper,), {"oid": info.oid}))
        yield cursor


def _as_array(vector: Any) -> Any:
    import numpy as np

    return None if vector is None else np.asarray(vector, dtype=np.float32)


def _messages_finish(messages: list[Message]) -> None:
    """One UPDATE for a batch of finished messages: extraction fields, search vector, episodic vector."""
    row = "(%s::bigint, %s, %s::timestamptz, %s, %s, %s, %s, %s::text, %b::vector)"
    params: list[Any] = []
    for m in messages:
        params += [m.pk, m.extraction_state, m.extraction_finished_at, m.extraction_error, m.extractor]
        params += [m.gate_decision, m.gate_reason, search_text(m.content), _as_array(m.embedding)]
    sv = _SEARCH_VECTOR_SQL.replace("%s", "v.stext")
    with _binary_cursor() as cursor:
        cursor.execute(
            f"UPDATE {connection.ops.quote_name(Message._meta.db_table)} AS m SET extraction_state = v.state, "
            "extraction_finished_at = v.finished, extraction_error = v.error, extractor = v.extractor, "
            f"gate_decision = v.gate, gate_reason = v.reason, search_vector = {sv}, embedding = v.embedding "
            f"FROM (VALUES {', '.join([row] * len(messages))}) "
            "AS v(id, state, finished, error, extractor, gate, reason, stext, embedding) WHERE m.id = v.id",
            params,
        )


def _facts_bulk_insert(facts: list[Fact]) -> None:
    """INSERT new facts (primary keys set) in one statement, the search vector computed by PostgreSQL.

    What `bulk_create` does, without compiling an expression per row: its Python cost per fact was larger
    than the database's.
    """
    fields = list(Fact._meta.concrete_fields)
    columns = ", ".join(connection.ops.quote_name(f.column or f.attname) for f in fields)
    marks = {"search_vector": _SEARCH_VECTOR_SQL, "embedding": "%b"}  # %b: the vector in binary
    row = "(" + ", ".join(marks.get(f.attname, "%s") for f in fields) + ")"
    with _binary_cursor() as cursor:
        for start in range(0, len(facts), 1000):  # at most 65535 parameters per statement
            chunk = facts[start : start + 1000]
            params: list[Any] = []
            for fact in chunk:
                for f in fields:
                    if f.attname == "search_vector":
                        params.extend([fact.search_text, fact.search_text])
                    elif f.attname == "embedding":
                        params.append(_as_array(fact.embedding))
                    else:
                        params.append(f.get_db_prep_save(f.pre_save(fact, True), connection))
            cursor.execute(
                f"INSERT INTO {connection.ops.quote_name(Fact._meta.db_table)} ({columns}) VALUES "
                + ", ".join([row] * len(chunk)),
                params,
            )
    for fact in facts:
        fact.search_vector = None
        fact._state.adding = False
        fact._state.db = "default"


def _unit_rows(matrix: Any) -> Any:
    import numpy as np

    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return matrix / norms


@dataclass
class ReconcileResult:
    fact: Fact
    action: str  # created | merged | superseded | conflicted
    other: Fact | None = None  # the fact superseded by, or in conflict with, `fact`
    conflict: Conflict | None = None


@dataclass
class _Actor:
    kind: str = Actor.SYSTEM
    id: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


def _negated(text: str) -> bool:
    return bool(_NEGATION_RE.search(text))


def _content_words(candidate_text: str, speaker_words: set[str]) -> set[str]:
    words = {w for w in text_keywords(candidate_text, limit=64) if w not in speaker_words}
    return words | set(re.findall(r"\d+", candidate_text))  # "book 4" is not "book 0"; "7 May" is not "20 May"


def fact_reconcile(
    *,
    subject: Subject,
    candidate: Candidate,
    embedding: list[float] | None,
    actor: str = Actor.SYSTEM,
    actor_id: str = "",
    buffer: _WriteBuffer | None = None,
) -> ReconcileResult:
    """Store a candidate as a new fact, or merge, supersede or conflict with the subject's current facts.

    Call inside a transaction holding the subject's row lock, so two workers never both create it.
    Order: exact text -> same slot -> nearest vectors (merge only when nothing new is said).
    With a buffer (the pipeline's batch), history and sources are written in bulk when it is flushed.
    """
    norm = normalize(candidate.text)
    current = Fact.objects.filter(subject=subject, status__in=CURRENT)
    if buffer is not None and norm in buffer.known:
        existing = buffer.known[norm]
    else:
        existing = current.filter(normalized_text=norm).order_by("created_at").first()
    if existing is not None:
        if buffer is not None and buffer.is_pending([existing.pk]):
            buffer.flush_facts()  # the merge updates its row
        return ReconcileResult(_merge(existing, candidate, actor, actor_id, buffer), "merged")
    result = _reconcile_new(subject, candidate, embedding, current, actor, actor_id, buffer)
    if buffer is not None:
        if result.action == "superseded" and result.other is not None:
            buffer.known.pop(result.other.normalized_text, None)  # no longer current: ask the database
        if result.fact.status in CURRENT and buffer.known.get(norm) is None:
            buffer.known[norm] = result.fact
        if result.action != "merged" and result.fact.status in CURRENT:
            buffer.add(result.fact, embedding)
    return result


def _reconcile_new(
    subject: Subject,
    candidate: Candidate,
    embedding: list[float] | None,
    current: Any,
    actor: str,
    actor_id: str,
    buffer: _WriteBuffer | None,
) -> ReconcileResult:
    """No current fact has the candidate's exact text: same slot, then nearest vectors, else a new fact."""
    if buffer is not None:  # the queries below must see this batch's new facts
        if buffer.near is None:
            buffer.flush_facts()
        elif candidate.predicate:
            buffer.flush_if_slot_pending(candidate.predicate)

    if candidate.predicate:
        same_slot = list(
            current.filter(predicate=candidate.predicate, subject_entity__iexact=candidate.subject_entity)
            .defer("embedding")
            .order_by("-valid_from", "-created_at")[:5]
        )
        for old in same_slot:
            if normalize(old.object_value) == normalize(candidate.object_value):
                return ReconcileResult(_merge(old, candidate, actor, actor_id, buffer), "merged")
        if same_slot:
            old = same_slot[0]
            if candidate.predicate in SINGLE_VALUED or candidate.predicate.startswith(("order_status:", "favorite:")):
                return _supersede(subject, old, candidate, embedding, actor, actor_id, buffer)
            if candidate.predicate.startswith(POLAR_PREFIXES):
                return _conflict(
                    subject,
                    old,
                    candidate,
                    embedding,
                    actor,
                    actor_id,
                    buffer,
                    reason=f"{candidate.predicate}: opposite values",
                )

    if embedding is not None:
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
                same_topic = new_words <= _content_words(near.text, speaker) | {"not", "don't", "doesn't"}
                if same_topic:
                    return _conflict(
                        subject, near, candidate, embedding, actor, actor_id, buffer,
                        reason="negation of a near-identical fact",
                    )  # fmt: skip
                continue
            if _negated(near.text) != _negated(candidate.text):
                continue  # a quoted remark and its opposite: too weak to call a contradiction, keep both
            if similarity >= MERGE_SIMILARITY and new_words <= _content_words(near.text, speaker):
                return ReconcileResult(_merge(near, candidate, actor, actor_id, buffer), "merged")

    fact = fact_insert(subject=subject, candidate=candidate, embedding=embedding, buffer=buffer)
    history_record(
        fact=fact, event=FactHistory.Event.CREATED, actor=actor, actor_id=actor_id, after_text=fact.text,
        data={"extractor": fact.extractor}, buffer=buffer,
    )  # fmt: skip
    return ReconcileResult(fact, "created")


def _merge(existing: Fact, candidate: Candidate, actor: str, actor_id: str, buffer: _WriteBuffer | None = None) -> Fact:
    """The same fact said again: one more mention, one more source, no new row."""
    updates: dict[str, Any] = {"mention_count": F("mention_count") + 1, "updated_at": timezone.now()}
    if candidate.pinned and not existing.pinned:
        updates.update(pinned=True, importance=max(existing.importance, candidate.importance))
    if candidate.confidence > existing.confidence:
        updates["confidence"] = candidate.confidence
    Fact.objects.filter(pk=existing.pk).update(**updates)
    existing.refresh_from_db()
    if candidate.message_id:
        if buffer is not None:
            buffer.sources.append(
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
    history_record(
        fact=existing,
        event=FactHistory.Event.MERGED,
        actor=actor,
        actor_id=actor_id,
        before_text=existing.text,
        after_text=candidate.text,
        data={"mention_count": existing.mention_count, "message_id": candidate.message_id},
        buffer=buffer,
    )
    return existing


def _supersede(
    subject: Subject,
    old: Fact,
    candidate: Candidate,
    embedding: list[float] | None,
    actor: str,
    actor_id: str,
    buffer: _WriteBuffer | None = None,
) -> ReconcileResult:
    """Same slot, new value: the newer statement becomes the current truth, the older one gets valid_to."""
    new_from = candidate.valid_from or timezone.now()
    if old.valid_from and new_from < old.valid_from:
        # The candidate is older than what we hold (a message arrived late): it is history at once.
        fact = fact_insert(subject=subject, candidate=candidate, embedding=embedding)
        Fact.objects.filter(pk=fact.pk).update(status=Fact.Status.SUPERSEDED, valid_to=old.valid_from)
        fact.refresh_from_db()
        history_record(
            fact=fact, event=FactHistory.Event.CREATED, actor=actor, actor_id=actor_id, after_text=fact.text,
            buffer=buffer,
        )  # fmt: skip
        history_record(
            fact=fact, event=FactHistory.Event.SUPERSEDED, actor=actor, actor_id=actor_id, before_text=fact.text,
            after_text=old.text, data={"by": str(old.uid), "reason": "older statement arrived late"}, buffer=buffer,
        )  # fmt: skip
        return ReconcileResult(fact, "superseded", other=old)
    fact = fact_insert(subject=subject, candidate=candidate, embedding=embedding)
    valid_to = max(new_from, old.valid_from) if old.valid_from else new_from
    Fact.objects.filter(pk=old.pk).update(status=Fact.Status.SUPERSEDED, valid_to=valid_to, updated_at=timezone.now())
    old.refresh_from_db()
    history_record(
        fact=old, event=FactHistory.Event.SUPERSEDED, actor=actor, actor_id=actor_id, before_text=old.text,
        after_text=fact.text, data={"by": str(fact.uid), "slot": candidate.predicate}, buffer=buffer,
    )  # fmt: skip
    history_record(
        fact=fact, event=FactHistory.Event.CREATED, actor=actor, actor_id=actor_id, before_text=old.text,
        after_text=fact.text, data={"supersedes": str(old.uid), "slot": candidate.predicate}, buffer=buffer,
    )  # fmt: skip
    Conflict.objects.create(
        tenant_id=subject.tenant_id, subject=subject, fact_a=old, fact_b=fact, kind=Conflict.Kind.UPDATE,
        state=Conflict.State.AUTO_RESOLVED, reason=f"{candidate.predicate}: new value", resolution="superseded",
        resolved_by="system", resolved_at=timezone.now(),
    )  # fmt: skip
    return ReconcileResult(fact, "superseded", other=old)


def _conflict(
    subject: Subject,
    old: Fact,
    candidate: Candidate,
    embedding: list[float] | None,
    actor: str,
    actor_id: str,
    buffer: _WriteBuffer | None = None,
    *,
    reason: str,
) -> ReconcileResult:
    """A contradiction the rules cannot settle: both facts stay, marked conflicted, one open Conflict."""
    fact = fact_insert(subject=subject, candidate=candidate, embedding=embedding)
    Fact.objects.filter(pk__in=[fact.pk, old.pk]).update(status=Fact.Status.CONFLICTED, updated_at=timezone.now())
    fact.refresh_from_db()
    old.refresh_from_db()
    conflict = Conflict.objects.create(
        tenant_id=subject.tenant_id, subject=subject, fact_a=old, fact_b=fact, kind=Conflict.Kind.CONTRADICTION,
        state=Conflict.State.OPEN, reason=reason[:255],
    )  # fmt: skip
    history_record(
        fact=fact, event=FactHistory.Event.CREATED, actor=actor, actor_id=actor_id, after_text=fact.text, buffer=buffer
    )
    for one, other in ((old, fact), (fact, old)):
        history_record(
            fact=one, event=FactHistory.Event.CONFLICTED, actor=actor, actor_id=actor_id, before_text=one.text,
            after_text=other.text, data={"conflict_id": conflict.pk, "with": str(other.uid), "reason": reason},
            buffer=buffer,
        )  # fmt: skip
    return ReconcileResult(fact, "conflicted", other=old, conflict=conflict)


def fact_insert(
    *, subject: Subject, candidate: Candidate, embedding: list[float] | None, buffer: _WriteBuffer | None = None
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
        fact.search_vector = _search_vector_expr(stext)  # computed by PostgreSQL inside the INSERT
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


# --- forgetting, pinning, correcting, resolving ---------------------------------------------------------------


def fact_forget(*, fact: Fact, actor: str = Actor.SYSTEM, actor_id: str = "", reason: str = "") -> None:
    """Remove a fact and its embedding; its history keeps the events and loses the text.

    Open conflicts it was part of are closed and the other fact goes back to active.
    """
    FactHistory.objects.filter(fact_uid=fact.uid).update(before_text="", after_text="")
    for conflict in Conflict.objects.filter(Q(fact_a=fact) | Q(fact_b=fact), state=Conflict.State.OPEN):
        other_id = conflict.fact_b_id if conflict.fact_a_id == fact.pk else conflict.fact_a_id
        _conflict_close(conflict, resolution="forgotten", resolved_by=f"{actor}:{actor_id}".rstrip(":"))
        if other_id:
            Fact.objects.filter(pk=other_id, status=Fact.Status.CONFLICTED).update(status=Fact.Status.ACTIVE)
    FactHistory.objects.create(
        tenant_id=fact.tenant_id, subject_id=fact.subject_id, fact=None, fact_uid=fact.uid,
        event=FactHistory.Event.FORGOTTEN, actor=actor, actor_id=actor_id, data={"reason": reason} if reason else {},
    )  # fmt: skip
    FactHistory.objects.filter(fact_uid=fact.uid).update(fact=None)
    subject_id = fact.subject_id
    fact.delete()
    _schedule_profile(subject_id)


def fact_pin(*, fact: Fact, actor: str = Actor.SYSTEM, actor_id: str = "", importance: float = 0.9) -> Fact:
    """Pin a fact ("remember this"): it is kept by every retention policy and ranks higher."""
    Fact.objects.filter(pk=fact.pk).update(
        pinned=True, importance=max(fact.importance, importance), updated_at=timezone.now()
    )
    fact.refresh_from_db()
    history_record(fact=fact, event=FactHistory.Event.PINNED, actor=actor, actor_id=actor_id, after_text=fact.text)
    return fact


def _conflict_close(conflict: Conflict, *, resolution: str, resolved_by: str) -> None:
    conflict.state = Conflict.State.RESOLVED
    conflict.resolution = resolution[:64]
    conflict.resolved_by = resolved_by[:255]
    conflict.resolved_at = timezone.now()
    conflict.save(update_fields=["state", "resolution", "resolved_by", "resolved_at", "updated_at"])


@transaction.atomic
def conflict_resolve(*, conflict: Conflict, keep: str | int, actor: str, actor_id: str = "") -> Conflict:
    """Settle an open conflict: keep one fact (the other is superseded), keep both, or neither."""
    from memory_site.errors import ApiError, ConflictError

    Subject.objects.select_for_update().get(pk=conflict.subject_id)
    conflict = Conflict.objects.get(pk=conflict.pk)
    if conflict.state != Conflict.State.OPEN:
        raise ConflictError("This conflict is already resolved.", {"state": conflict.state})
    facts = [f for f in (conflict.fact_a, conflict.fact_b) if f is not None]
    now = timezone.now()
    if keep == "both":
        kept, dropped = facts, []
    elif keep == "neither":
        kept, dropped = [], facts
    else:
        try:
            keep_id = int(keep)
        except (TypeError, ValueError):
            raise ApiError(
                "keep must be a fact id of this conflict, 'both' or 'neither'.", details={"keep": keep}
            ) from None
        if keep_id not in {f.pk for f in facts}:
            raise ApiError("keep must be a fact id of this conflict, 'both' or 'neither'.", details={"keep": keep})
        kept = [f for f in facts if f.pk == keep_id]
        dropped = [f for f in facts if f.pk != keep_id]
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
    _conflict_close(conflict, resolution=f"keep:{keep}", resolved_by=f"{actor}:{actor_id}".rstrip(":"))
    _schedule_profile(conflict.subject_id)
    return conflict


# --- direct writes (API, portal, admin) ----------------------------------------------------------------------

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
    from facts.extraction.slots import type_of

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
        expires_at=expires_at,
        language=detect_language(text),
        extractor=extractor,
    )


def _embed_one(text: str) -> list[float] | None:
    try:
        return embedding_backend.embed_texts([text])[0]
    except embedding_backend.EmbedderUnavailable as exc:
        logger.warning("embedder unavailable for a direct write: %s", exc)
        return None


def fact_create(
    *,
    subject: Subject,
    text: str,
    actor: str = Actor.AGENT,
    actor_id: str = "",
    metadata: dict[str, Any] | None = None,
    **fields: Any,
) -> ReconcileResult:
    """Write a fact directly: the same merge, supersede and conflict logic as extraction.

    The embedding is computed first, outside the transaction.
    """
    candidate = candidate_from_text(subject=subject, text=text, **fields)
    vector = _embed_one(candidate.text)
    with transaction.atomic():
        subject = Subject.objects.select_for_update().get(pk=subject.pk)
        result = fact_reconcile(subject=subject, candidate=candidate, embedding=vector, actor=actor, actor_id=actor_id)
        if metadata and result.action != "merged":
            Fact.objects.filter(pk=result.fact.pk).update(metadata=metadata)
            result.fact.refresh_from_db()
        _schedule_profile(subject.pk)
    return result


def fact_correct(
    *,
    fact: Fact,
    actor: str,
    actor_id: str = "",
    text: str | None = None,
    type: str | None = None,
    expires_at: dt.datetime | None | object = ...,
    pinned: bool | None = None,
) -> Fact:
    """Correct a fact (PATCH): new text is re-embedded and re-indexed; every change is in the history."""
    new_text = text.strip() if text is not None else None
    vector = _embed_one(new_text) if new_text and new_text != fact.text else None
    with transaction.atomic():
        Subject.objects.select_for_update().get(pk=fact.subject_id)
        fact = Fact.objects.get(pk=fact.pk)
        before = fact.text
        changed: dict[str, Any] = {}
        if new_text and new_text != fact.text:
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
        if not changed:
            return fact
        fact.confidence = max(fact.confidence, 0.95) if "text" in changed else fact.confidence
        fact.save()
        if "text" in changed:
            Fact.objects.filter(pk=fact.pk).update(search_vector=_search_vector_expr(fact.search_text))
        history_record(
            fact=fact, event=FactHistory.Event.CORRECTED, actor=actor, actor_id=actor_id, before_text=before,
            after_text=fact.text, data={"changed": changed},
        )  # fmt: skip
        _schedule_profile(fact.subject_id)
    return fact


@transaction.atomic
def fact_delete(*, fact: Fact, actor: str, actor_id: str = "") -> None:
    """Forget a fact on request (DELETE, portal): the row and its embedding go, the history keeps the event."""
    Subject.objects.select_for_update().get(pk=fact.subject_id)
    fact_forget(fact=fact, actor=actor, actor_id=actor_id, reason="deleted on request")


# --- the extraction pipeline ---------------------------------------------------------------------------------


def _claim(message_ids: list[int]) -> list[Message]:
    """Claim pending messages with a conditional update; a message claimed elsewhere is skipped.

    The pending rows are locked (skipping any another worker is claiming right now), then marked running,
    in one short transaction: each message is claimed by exactly one caller. The lock is FOR NO KEY UPDATE:
    a row that references a message (a summary's first and last message, a fact source) holds FOR KEY SHARE
    on it while its transaction runs, and a plain FOR UPDATE ... SKIP LOCKED skipped such a message, which then
    stayed pending until the sweeper (seen in the ingest bench: the session summariser ran beside extraction).
    """
    ids = list(dict.fromkeys(message_ids))
    if not ids:
        return []
    with transaction.atomic():
        mine = list(
            Message.objects.select_for_update(skip_locked=True, no_key=True)
            .filter(pk__in=ids, extraction_state=ExtractionState.PENDING)
            .values_list("pk", flat=True)
        )
        if not mine:
            return []
        Message.objects.filter(pk__in=mine, extraction_state=ExtractionState.PENDING).update(
            extraction_state=ExtractionState.RUNNING,
            extraction_attempts=F("extraction_attempts") + 1,
            extraction_started_at=timezone.now(),
        )
    claimed = list(Message.objects.select_related("subject").filter(pk__in=mine))
    claimed.sort(key=lambda m: (m.created_at, m.pk))  # "forget that" must see the message before it
    return claimed


def _mean_vector(vectors: list[list[float] | None]) -> list[float] | None:
    import numpy as np

    present = [v for v in vectors if v is not None]
    if not present:
        return None
    if len(present) == 1:
        return list(present[0])
    mean = np.mean(np.asarray(present, dtype=np.float64), axis=0)
    norm = float(np.linalg.norm(mean)) or 1.0
    return [float(x) for x in mean / norm]


@dataclass
class _Extracted:
    message: Message
    output: ExtractionOutput
    vectors: list[list[float] | None]
    message_vector: list[float] | None


def _embed_unique(texts: list[str]) -> list[list[float] | None]:
    """Embed each distinct text once (a fact sentence repeated in a batch costs one encoding)."""
    unique = sorted(dict.fromkeys(texts), key=len)
    by_text: dict[str, list[float]] = {}
    try:
        # Small batches of similar length: one batch of a whole task pads every sentence to the longest.
        for start in range(0, len(unique), EMBED_CHUNK):
            chunk = unique[start : start + EMBED_CHUNK]
            by_text.update(zip(chunk, embedding_backend.embed_texts(chunk), strict=True))
    except embedding_backend.EmbedderUnavailable as exc:
        # Facts are still stored and found by keyword; the vectors can be filled in later.
        logger.warning("embedder unavailable during extraction: %s", exc)
        return [None] * len(texts)
    return [by_text[t] for t in texts]


def messages_extract(*, message_ids: list[int]) -> list[int]:
    """Run the write pipeline over messages; return the ids of facts created or merged.

    Idempotent: only messages still pending are claimed, so a task delivered twice (late ack, sweeper)
    does nothing the second time. The extractor (maybe an LLM) and the embedder run outside any transaction,
    all texts of the batch in one embedder call. A message's own vector (episodic recall) is the mean of its
    facts' vectors: one embedding per sentence. Then each subject's messages are reconciled in one
    transaction under the subject's lock, each message in its own savepoint so one bad message fails alone.
    """
    messages = _claim(message_ids)
    if not messages:
        return []
    try:
        extractor = get_extractor()
        views = [
            MessageView(id=m.pk, role=m.role, name=m.name, content=m.content, created_at=m.created_at) for m in messages
        ]
        outputs: dict[int, ExtractionOutput] = extractor.extract(views)
        texts: list[str] = []
        for m in messages:
            texts.extend(c.text for c in outputs[m.pk].candidates)
        bare = [m for m in messages if not outputs[m.pk].candidates]
        vectors = _embed_unique(texts + [m.content for m in bare])
    except Exception as exc:
        messages_mark_failed(message_ids=[m.pk for m in messages], error=repr(exc))
        raise
    bare_vectors = {m.pk: vectors[len(texts) + i] for i, m in enumerate(bare)}
    by_subject: dict[int, list[_Extracted]] = {}
    offset = 0
    for message in messages:
        output = outputs[message.pk]
        n = len(output.candidates)
        own = vectors[offset : offset + n]
        offset += n
        vector = _mean_vector(own) if n else bare_vectors.get(message.pk)
        by_subject.setdefault(message.subject_id, []).append(_Extracted(message, output, own, vector))
    fact_ids: list[int] = []
    failed: list[int] = []
    touched: set[int] = set()
    for subject_id, items in by_subject.items():
        try:
            ids, bad = _subject_apply_extraction(subject_id=subject_id, items=items)
        except Exception as exc:  # the whole transaction failed (the database went away, say)
            logger.exception("extraction failed for subject %s", subject_id)
            messages_mark_failed(message_ids=[item.message.pk for item in items], error=repr(exc))
            failed.extend(item.message.pk for item in items)
            continue
        for pk, error in bad.items():
            messages_mark_failed(message_ids=[pk], error=error)
            failed.append(pk)
        fact_ids.extend(ids)
        touched.add(subject_id)
    for subject_id in touched:
        _schedule_profile(subject_id)
    if failed:
        raise ExtractionFailed(f"extraction failed for messages {failed}")
    return fact_ids


def _subject_apply_extraction(*, subject_id: int, items: list[_Extracted]) -> tuple[list[int], dict[int, str]]:
    """Reconcile one subject's messages in one transaction; return fact ids and {message id: error}.

    Fast path first: the whole batch without savepoints, its rows written in a few bulk statements. If any
    message fails, that transaction rolls back and the batch runs again with one savepoint per message, so
    the failing message fails alone.
    """
    try:
        return _subject_apply(subject_id=subject_id, items=items, isolate=False)
    except (OperationalError, InterfaceError):
        raise  # the database went away: the caller records it on every message
    except Exception:
        logger.warning("batch of subject %s failed, retrying message by message", subject_id, exc_info=True)
    return _subject_apply(subject_id=subject_id, items=items, isolate=True)


def _subject_apply(*, subject_id: int, items: list[_Extracted], isolate: bool) -> tuple[list[int], dict[int, str]]:
    fact_ids: list[int] = []
    errors: dict[int, str] = {}
    with transaction.atomic():
        subject = Subject.objects.select_for_update().get(pk=subject_id)
        # Re-check under the lock: another worker may have finished a message meanwhile (sweeper + late ack).
        attempts = dict(
            Message.objects.filter(
                pk__in=[item.message.pk for item in items], extraction_state=ExtractionState.RUNNING
            ).values_list("pk", "extraction_attempts")
        )
        items = [item for item in items if attempts.get(item.message.pk) == item.message.extraction_attempts]
        buffer = _WriteBuffer(isolate=isolate)
        if not subject.memory_paused and items:
            buffer.prefetch(
                subject,
                [normalize(c.text) for item in items for c in item.output.candidates],
                vectors=[v for item in items for v in item.vectors],
            )
            buffer.reserve(sum(len(item.output.candidates) for item in items))
        for item in items:
            if not isolate:
                fact_ids.extend(_message_apply(subject=subject, item=item, buffer=buffer))
                continue
            try:
                with transaction.atomic():  # a savepoint: a failing message rolls back alone
                    fact_ids.extend(_message_apply(subject=subject, item=item, buffer=buffer))
            except Exception as exc:
                logger.exception("extraction failed for message %s", item.message.pk)
                errors[item.message.pk] = repr(exc)
                buffer.reset()
        buffer.flush()
        buffer.flush_messages()
    return fact_ids, errors


def _previous_user_message(message: Message) -> Message | None:
    return (
        Message.objects.filter(subject_id=message.subject_id, session_id=message.session_id, role=Message.Role.USER)
        .filter(Q(created_at__lt=message.created_at) | Q(created_at=message.created_at, pk__lt=message.pk))
        .exclude(pk=message.pk)
        .order_by("-created_at", "-pk")
        .first()
    )


def _command_targets(message: Message, command: Command) -> list[Fact]:
    """The facts a command refers to: those matching its words, else those from the previous user message."""
    current = Fact.objects.filter(subject_id=message.subject_id, status__in=CURRENT)
    words = set(text_keywords(command.target))
    if words:
        matches = [f for f in current.filter(keywords__overlap=list(words)) if len(words & set(f.keywords)) >= 1]
        if matches:
            best = max(len(words & set(f.keywords)) for f in matches)
            return [f for f in matches if len(words & set(f.keywords)) == best]
    previous = _previous_user_message(message)
    if previous is None:
        return []
    return list(current.filter(sources__message=previous).distinct())


def _apply_command(message: Message, command: Command) -> list[int]:
    targets = _command_targets(message, command)
    actor_id = f"message:{message.pk}"
    if command.kind == "forget":
        for fact in targets:
            fact_forget(fact=fact, actor=Actor.END_USER, actor_id=actor_id, reason="forget command")
        return []
    for fact in targets:
        fact_pin(fact=fact, actor=Actor.END_USER, actor_id=actor_id, importance=1.0)
        FactSource.objects.get_or_create(fact=fact, message=message)
    return [f.pk for f in targets]


def _message_apply(*, subject: Subject, item: _Extracted, buffer: _WriteBuffer) -> list[int]:
    """Reconcile one message's candidates, apply its commands and mark it done (caller holds the lock)."""
    message, output = item.message, item.output
    fact_ids: list[int] = []
    if not subject.memory_paused:
        if output.commands:
            buffer.flush()  # the commands read sources and history
            for command in output.commands:
                fact_ids.extend(_apply_command(message, command))
            buffer.reset()  # forgotten or pinned facts: ask the database again
        for candidate, vector in zip(output.candidates, item.vectors, strict=True):
            result = fact_reconcile(subject=subject, candidate=candidate, embedding=vector, buffer=buffer)
            fact_ids.append(result.fact.pk)
        if buffer.isolate:
            buffer.flush()  # this message's rows inside its own savepoint
    gate_reason = "memory paused" if subject.memory_paused else output.gate.reason
    message.extraction_state = ExtractionState.SKIPPED if subject.memory_paused else ExtractionState.DONE
    message.extraction_finished_at = timezone.now()
    message.extraction_error = f"llm fallback: {output.fallback_reason}"[:2000] if output.fallback_reason else ""
    message.extractor = output.extractor[:32]
    message.gate_decision = "keep" if output.gate.keep else "skip"
    message.gate_reason = gate_reason[:255]
    message.embedding = None if subject.memory_paused else item.message_vector
    buffer.finished.append(message)  # one UPDATE for the batch, at its end
    return fact_ids


def message_apply_extraction(
    *, message: Message, output: ExtractionOutput, vectors: list[list[float] | None], message_vector: list[float] | None
) -> list[int]:
    """Reconcile one message's candidates, apply its commands and mark it done, all in one transaction."""
    ids, errors = _subject_apply_extraction(
        subject_id=message.subject_id, items=[_Extracted(message, output, vectors, message_vector)]
    )
    if errors:
        raise ExtractionFailed(errors[message.pk])
    return ids


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


def messages_pending(*, message_ids: list[int]) -> list[int]:
    """Those of the messages still waiting for extraction (a claim skipped them: another lock held them)."""
    return sorted(
        Message.objects.filter(pk__in=message_ids, extraction_state=ExtractionState.PENDING).values_list(
            "pk", flat=True
        )
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


def messages_extract_now(*, message_ids: list[int]) -> None:
    """Extract in this process for `?wait=true`; wait for any message a worker already claimed.

    The queued task still runs later and finds nothing pending, so nothing is extracted twice.
    """
    import time

    from django.conf import settings

    deadline = time.monotonic() + settings.INGEST_WAIT_TIMEOUT
    todo = list(message_ids)
    while todo and time.monotonic() < deadline:
        try:
            messages_extract(message_ids=todo)
        except ExtractionFailed:
            logger.warning("inline extraction failed for some of %s", todo)
            return  # failed messages are pending again for the task's retry, not for this loop
        while Message.objects.filter(pk__in=message_ids, extraction_state=ExtractionState.RUNNING).exists():
            if time.monotonic() >= deadline:
                return
            time.sleep(0.05)
        todo = messages_pending(message_ids=message_ids)  # skipped by the claim while another lock held them
        if todo:
            time.sleep(0.05)
