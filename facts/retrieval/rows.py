"""The rows the later stages need: each candidate's fields for the re-rank and the answer, and each fact's source
messages. Read by primary key, once each per search."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db import connection

from facts.models import VALUE_SCORE_DEFAULT
from facts.retrieval.scope import Key
from memory_site.db import fetch_prepared, prepared_cursor

Row = dict[str, Any]
Source = dict[str, Any]  # message_id, external_id, session_id (the session's external id), created_at


def _dicts(sql: str, params: list[Any]) -> list[Row]:
    with prepared_cursor() as cursor:  # by primary key: planning costs more than running, binary parses faster
        cursor.execute(sql, params)
        names = [c.name for c in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


# The columns of a fact's row and what they are read from (`f`: the fact), each fact with its source messages.
_ORDER = "ORDER BY m.created_at, m.id"
_FACT_COLUMNS = (
    "f.id, f.text, f.normalized_text, f.type, f.valid_from, f.created_at, f.event_time, "
    f"COALESCE(a.value_score, {VALUE_SCORE_DEFAULT}) AS value_score, COALESCE(a.access_count, 0) AS access_count, "
    "f.pinned, f.entity_keys, f.keywords, "
    "lower(f.subject_entity) AS subject_key, src.message_ids, src.external_ids, src.session_ids, src.times"
)
# The read counters and the value score live in facts_factaccess (no row until a fact's first read or scoring):
# both sides by primary key.
_FACT_JOINS = (
    "LEFT JOIN facts_factaccess a ON a.fact_id = f.id "
    f"LEFT JOIN LATERAL (SELECT array_agg(m.id {_ORDER}) AS message_ids, "
    f"array_agg(m.external_id {_ORDER}) AS external_ids, array_agg(s.external_id {_ORDER}) AS session_ids, "
    f"array_agg(m.created_at {_ORDER}) AS times "
    "FROM facts_factsource fs JOIN conversations_message m ON m.id = fs.message_id "
    "JOIN conversations_session s ON s.id = m.session_id WHERE fs.fact_id = f.id) src ON true"
)
# A turn's `keywords` are NULL until its extraction writes them (the re-rank then cuts them from `text`).
_MESSAGE_COLUMNS = (
    "m.id, m.content AS text, m.role, lower(m.name) AS name_key, m.created_at, m.external_id, "
    "s.external_id AS session_external_id, m.keywords"
)
_MESSAGE_JOINS = "LEFT JOIN conversations_session s ON s.id = m.session_id"  # every message has its session


def _fact_row(r: Row) -> Row:
    """A fact's row as read, its sources' columns made into `sources`."""
    columns = (
        r.pop("message_ids") or [],
        r.pop("external_ids") or [],
        r.pop("session_ids") or [],
        r.pop("times") or [],
    )
    r["sources"] = [
        {"message_id": m, "external_id": e, "session_id": s, "created_at": t}
        for m, e, s, t in zip(*columns, strict=True)
    ]
    return r


def _message_row(r: Row) -> Row:
    return r  # its content words are made by the re-rank, for the turns it scores (rerank.turn_keywords)


def fact_rows(ids: list[int]) -> dict[int, Row]:
    """The facts' fields for the re-rank and the answer, each with its source messages (`sources`), in one
    statement (a statement less a search: each costs a round trip and its planning)."""
    if not ids:
        return {}
    rows = _dicts(f"SELECT {_FACT_COLUMNS} FROM facts_fact f {_FACT_JOINS} WHERE f.id = ANY(%s)", [ids])
    return {r["id"]: _fact_row(r) for r in rows}


def message_rows(ids: list[int]) -> dict[int, Row]:
    if not ids:
        return {}
    rows = _dicts(
        f"SELECT {_MESSAGE_COLUMNS} FROM conversations_message m {_MESSAGE_JOINS} WHERE m.id = ANY(%s)", [ids]
    )
    return {r["id"]: _message_row(r) for r in rows}


def nearest_with_rows(
    kind: str, sql: str, params: list[Any], *, known: Iterable[int], min_sim: float, raw: bool = False
) -> tuple[list[tuple[Any, ...]], dict[int, Row]]:
    """Run `sql`, a statement of (id, d) rows of `kind` ("fact" or "message") ordered by (d, id), d a cosine
    distance, and read the rows of those at least `min_sim` similar (1 - d, as scope.similar keeps them) and not
    in `known` in the same statement: a round trip less in the search's critical path (after the query's
    embedding). Returns the statement's (id, d) rows in its order (with `raw`, (id, d, r): its third column, r),
    and the rows read by id.

    The ordinary cursor: the nearest rows' plan depends on the subject's size (prepared_cursor's doc)."""
    columns, table, joins = (
        (_FACT_COLUMNS, "facts_fact f", _FACT_JOINS)
        if kind == "fact"
        else (_MESSAGE_COLUMNS, "conversations_message m", _MESSAGE_JOINS)
    )
    alias = table[-1]
    with connection.cursor() as cursor:
        cursor.execute(
            f"WITH n AS MATERIALIZED ({sql}) SELECT n.id AS n_id, n.d AS n_d, {'n.r' if raw else 'NULL'} AS n_r, "
            f"{columns} FROM n "
            f"LEFT JOIN {table} ON {alias}.id = n.id AND 1 - n.d >= %s AND NOT (n.id = ANY(%s)) {joins} "
            "ORDER BY n.d, n.id",
            [*params, min_sim, sorted(set(known))],
        )
        names = [c.name for c in cursor.description]
        found: list[tuple[Any, ...]] = []
        read: dict[int, Row] = {}
        for values in cursor.fetchall():
            r = dict(zip(names, values, strict=True))
            ids = (r.pop("n_id"), r.pop("n_d"), r.pop("n_r"))
            found.append(ids if raw else ids[:2])
            if r["id"] is not None:
                read[r["id"]] = _fact_row(r) if kind == "fact" else _message_row(r)
    return found, read


def facts_sources(fact_ids: list[int]) -> dict[int, list[Source]]:
    """Each fact's source messages (id, external id, session, time), oldest first, in one statement.

    Plain SQL with only the needed columns: the search calls this for every answer (the ORM's query building was
    a third of its cost).
    """
    out: dict[int, list[Source]] = {pk: [] for pk in fact_ids}
    if not fact_ids:
        return out
    rows = fetch_prepared(
        "SELECT fs.fact_id, m.id, m.external_id, s.external_id, m.created_at "
        "FROM facts_factsource fs JOIN conversations_message m ON m.id = fs.message_id "
        "JOIN conversations_session s ON s.id = m.session_id "
        "WHERE fs.fact_id = ANY(%s) ORDER BY m.created_at, m.id",
        [list(fact_ids)],
    )
    for fact_id, message_id, external_id, session_id, created_at in rows:
        out[fact_id].append(
            {"message_id": message_id, "external_id": external_id, "session_id": session_id, "created_at": created_at}
        )
    return out


@dataclass
class Rows:
    """The rows one search has read so far (a fact's row holds its `sources`)."""

    facts: dict[int, Row] = field(default_factory=dict)
    messages: dict[int, Row] = field(default_factory=dict)
    # The subject's messages held in memory (held_messages.Held), when current: their rows are read from there.
    held_messages: Any = None

    def read(self, keys: Iterable[Key]) -> None:
        """Read the rows of `keys` not read yet (one statement per kind)."""
        keys = list(keys)
        self.read_facts(pk for kind, pk in keys if kind == "fact")
        self.read_messages(pk for kind, pk in keys if kind == "message")

    def read_facts(self, ids: Iterable[int]) -> None:
        self.facts.update(fact_rows(sorted(set(ids) - self.facts.keys())))

    def read_messages(self, ids: Iterable[int]) -> None:
        missing = sorted(set(ids) - self.messages.keys())
        if self.held_messages is not None and missing:
            self.messages.update(self.held_messages.message_rows(missing))
            missing = [pk for pk in missing if pk not in self.messages]
        self.messages.update(message_rows(missing))

    def add(self, kind: str, read: dict[int, Row]) -> None:
        """Rows read elsewhere (rows.nearest_with_rows), by id, of `kind` ("fact" or "message")."""
        (self.facts if kind == "fact" else self.messages).update(read)

    def row(self, key: Key) -> Row | None:
        """The candidate's row, or None when it was deleted since it was found (or not read)."""
        return self.facts.get(key[1]) if key[0] == "fact" else self.messages.get(key[1])

    def source_message_ids(self, key: Key) -> list[int]:
        """The messages a candidate shows: a fact's sources (read with its row), or the message itself."""
        if key[0] == "message":
            return [key[1]]
        row = self.facts.get(key[1])
        return [source["message_id"] for source in row["sources"]] if row is not None else []
