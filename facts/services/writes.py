"""Bulk writes of facts: the per-batch write buffer, the one-statement INSERT and the search-vector SQL.

The buffer is only used inside a transaction holding the subject's row lock (see `pipeline`): what it caches
of the subject's current facts stays true while the lock is held, because every writer takes that lock.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from django.conf import settings
from django.db import connection

from conversations.models import Subject
from facts.exceptions import TooManyFacts
from facts.models import Fact, FactHistory, FactSource
from memory_site.pgio import SEARCH_VECTOR_SQL, as_array, binary_cursor

# A fact is current (can be merged into, superseded or contradicted) in these states.
CURRENT = [Fact.Status.ACTIVE, Fact.Status.CONFLICTED]


@dataclass
class WriteBuffer:
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
    # Each embedding's current neighbours (fact id, cosine distance) within `within`, from one query per batch
    # at its start (keyed by the vector object's id); None: not loaded (or reset), so each candidate asks the
    # database.
    near: dict[int, tuple[Any, list[tuple[int, float]]]] | None = None
    within: float = 0.0
    added: list[tuple[int, Any]] = field(default_factory=list)
    # New facts waiting for one bulk INSERT, and primary keys reserved for them from the table's sequence.
    pending: list[Fact] = field(default_factory=list)
    reserved: list[int] = field(default_factory=list)
    # How many new fact rows the batch may still add under MAX_FACTS_PER_SUBJECT; None: not counted. Past it a
    # candidate that needs a row (new, superseding or conflicting) raises TooManyFacts; a merge still applies.
    room: int | None = None

    def take_room(self) -> None:
        """Count one new fact row against `room`; TooManyFacts (nothing written) when none is left."""
        if self.room is None:
            return
        if self.room <= 0:
            limit = settings.MAX_FACTS_PER_SUBJECT
            raise TooManyFacts(limit=limit, held=limit - self.room)
        self.room -= 1

    def reserve(self, count: int) -> None:
        """Reserve primary keys for `count` new facts from the table's sequence (one query)."""
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
        """Whether any of the facts `pks` waits for the bulk insert."""
        if not self.pending:
            return False
        waiting = {f.pk for f in self.pending}
        return any(pk in waiting for pk in pks)

    def flush_facts(self) -> None:
        """Insert the queued facts in one INSERT: call before a query or an update that must see them."""
        if not self.pending:
            return
        facts_bulk_insert(self.pending)
        self.pending = []

    def flush_if_slot_pending(self, predicate: str) -> None:
        """Flush when a queued fact has this slot's predicate (the slot query must see it)."""
        if any(f.predicate == predicate for f in self.pending):  # any entity: the query's iexact is SQL's
            self.flush_facts()

    def prefetch(
        self, subject: Subject, norms: list[str], *, vectors: list[list[float] | None] | None = None, within: float
    ) -> None:
        """Load the current facts with these texts, and each vector's neighbours within cosine distance `within`."""
        self.known = dict.fromkeys(norms)
        rows = Fact.objects.filter(subject=subject, status__in=CURRENT, normalized_text__in=norms).order_by(
            "-created_at", "-id"
        )
        for fact in rows:  # oldest last, so the oldest wins, as in the unbuffered lookup
            self.known[fact.normalized_text] = fact
        if vectors is not None:
            self.within = within
            self._load_neighbours(subject, vectors)

    def _load_neighbours(self, subject: Subject, vectors: list[list[float] | None]) -> None:
        """Every vector's current neighbours within the distance: one query, computed in the database (no
        vector leaves it), instead of one query per candidate."""
        distinct = list({id(v): v for v in vectors if v is not None}.values())
        self.near = {id(v): (v, []) for v in distinct}
        self.added = []
        if not distinct:
            return
        with binary_cursor() as cursor:
            cursor.execute(
                "SELECT c.ord, f.id, f.embedding <=> c.v FROM unnest(%b::vector[]) WITH ORDINALITY AS c(v, ord) "
                "JOIN facts_fact f ON f.subject_id = %s AND f.status = ANY(%s) AND f.embedding IS NOT NULL "
                "WHERE (f.embedding <=> c.v) <= %s ORDER BY c.ord, 3, f.id",
                [[as_array(v) for v in distinct], subject.pk, list(CURRENT), self.within],
            )
            for ord_, pk, distance in cursor.fetchall():
                self.near[id(distinct[ord_ - 1])][1].append((pk, float(distance)))

    def add(self, fact: Fact, embedding: list[float] | None) -> None:
        """A fact created in this batch: later candidates must see it as a neighbour too."""
        if self.near is not None and embedding is not None:
            self.added.append((fact.pk, unit_rows(np.asarray(embedding, dtype=np.float32)[None, :])[0]))

    def neighbours(self, embedding: list[float]) -> list[Fact] | None:
        """The (at most 3) current facts nearest the embedding within the distance, nearest first, each with a
        `distance` attribute, as the per-candidate query returns them; None when not loaded."""
        if self.near is None:
            return None
        known = self.near.get(id(embedding))
        if known is None or known[0] is not embedding:
            return None
        pairs = list(known[1])
        if self.added:
            query = unit_rows(np.asarray(embedding, dtype=np.float32)[None, :])[0]
            distances = 1.0 - np.stack([v for _, v in self.added]) @ query
            pairs.extend((pk, float(d)) for (pk, _), d in zip(self.added, distances, strict=True))
        near = [(pk, d) for pk, d in pairs if d <= self.within]
        if not near:
            return []
        near = sorted(near, key=lambda pair: pair[1])[:8]
        if self.is_pending(pk for pk, _ in near):
            self.flush_facts()
        by_pk = (
            Fact.objects.filter(pk__in=[pk for pk, _ in near], status__in=CURRENT)
            .defer("embedding", "embedding_zh")
            .in_bulk()
        )
        out: list[Fact] = []
        for pk, distance in near:  # facts superseded or forgotten since the batch began are gone from by_pk
            fact = by_pk.get(pk)
            if fact is not None:
                fact.distance = distance  # type: ignore[attr-defined]
                out.append(fact)
        return out[:3]

    def flush(self) -> None:
        """Write every queued fact, source and history row."""
        self.flush_facts()
        if self.sources:
            FactSource.objects.bulk_create(self.sources, ignore_conflicts=True)
        if self.history:
            FactHistory.objects.bulk_create(self.history)
        self.sources, self.history = [], []

    def reset(self) -> None:
        """After a rollback or a command: forget everything cached."""
        self.sources, self.history, self.known = [], [], {}
        self.near = None
        self.added = []
        self.pending = []  # rolled back with the savepoint (their reserved keys are simply never used)


def facts_bulk_insert(facts: list[Fact]) -> None:
    """INSERT new facts (primary keys set) in one statement, the search vector computed by PostgreSQL.

    What `bulk_create` does, without compiling an expression per row: its Python cost per fact was larger
    than the database's.
    """
    fields = list(Fact._meta.concrete_fields)
    columns = ", ".join(connection.ops.quote_name(f.column or f.attname) for f in fields)
    marks = {"search_vector": SEARCH_VECTOR_SQL, "embedding": "%b"}  # %b: the vector in binary
    row = "(" + ", ".join(marks.get(f.attname, "%s") for f in fields) + ")"
    with binary_cursor() as cursor:
        for start in range(0, len(facts), 1000):  # at most 65535 parameters per statement
            chunk = facts[start : start + 1000]
            params: list[Any] = []
            for fact in chunk:
                params.extend(_row_params(fact, fields))
            cursor.execute(
                f"INSERT INTO {connection.ops.quote_name(Fact._meta.db_table)} ({columns}) VALUES "
                + ", ".join([row] * len(chunk)),
                params,
            )
    for fact in facts:
        fact.search_vector = None
        fact._state.adding = False
        fact._state.db = "default"


def _row_params(fact: Fact, fields: list[Any]) -> list[Any]:
    """One fact's INSERT parameters, in the order of `fields` (the search vector's text given twice)."""
    params: list[Any] = []
    for f in fields:
        if f.attname == "search_vector":
            params.extend([fact.search_text, fact.search_text])
        elif f.attname == "embedding":
            params.append(as_array(fact.embedding))
        else:
            params.append(f.get_db_prep_save(f.pre_save(fact, True), connection))
    return params


def unit_rows(matrix: Any) -> Any:
    """Each row of `matrix` scaled to unit length (a zero row stays zero)."""
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return matrix / norms
