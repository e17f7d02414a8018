"""Everything held about a subject as JSON (schema `memory-site.export/1`, docs/privacy.md) or CSV (its facts).

Both are written as a stream of byte chunks, a thousand rows at a time, so the API's streamed answer costs the
same memory for a subject of any size; `progress(done, total)` is called after each chunk of facts and messages. Reads only: the caller logs
the export where the user sees it.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterator
from typing import Any

import orjson
from django.db.models import QuerySet
from django.utils import timezone

from conversations.models import Message, Session, Subject, Summary
from facts.models import (
    VALUE_SCORE_DEFAULT,
    AccessLog,
    Conflict,
    ContextCall,
    Fact,
    FactAccess,
    FactHistory,
    FactSource,
    Profile,
    SearchCall,
)

SCHEMA = "memory-site.export/1"
CHUNK = 1000
_OPTS = orjson.OPT_UTC_Z | orjson.OPT_NON_STR_KEYS

Progress = Callable[[int, int], None]

FACT_FIELDS = (
    "id", "uid", "text", "type", "status", "tier", "pinned", "subject_entity", "predicate", "object_value", "entities",
    "keywords", "confidence", "importance", "mention_count", "valid_from", "valid_to", "event_time",
    "expires_at", "extractor", "extractor_version", "language", "metadata", "created_at", "updated_at",
)  # fmt: skip
HISTORY_FIELDS = ("event", "actor", "actor_id", "before_text", "after_text", "data", "created_at")
MESSAGE_FIELDS = ("id", "external_id", "role", "name", "content", "metadata", "created_at", "received_at")
CSV_COLUMNS = (
    "id", "uid", "type", "status", "tier", "pinned", "text", "valid_from", "valid_to", "expires_at", "created_at",
    "updated_at", "mention_count", "access_count", "last_accessed_at", "confidence", "importance", "source_message_ids",
    "source_texts",
)  # fmt: skip


def export_total(*, subject: Subject, format: str = "json") -> int:
    """The rows an export walks one by one (facts, and messages in JSON): its progress counts against this."""
    facts = Fact.objects.filter(subject=subject).count()
    return facts + Message.objects.filter(subject=subject).count() if format == "json" else facts


def _dumps(value: Any) -> bytes:
    return orjson.dumps(value, option=_OPTS)


def _chunks(queryset: QuerySet[Any], fields: tuple[str, ...]) -> Iterator[list[dict[str, Any]]]:
    """The rows as dicts of `fields`, a chunk at a time in id order (keyset pagination: no OFFSET)."""
    last = 0
    while True:
        rows = list(queryset.filter(pk__gt=last).order_by("pk").values(*fields)[:CHUNK])
        if not rows:
            return
        last = rows[-1]["id"]
        yield rows


def _facts_detail(rows: list[dict[str, Any]]) -> None:
    """Add each fact's read counters, sources and history in place (three queries for the chunk)."""
    ids = [r["id"] for r in rows]
    access: dict[int, dict[str, Any]] = {
        a["fact_id"]: dict(a) for a in FactAccess.objects.filter(fact_id__in=ids).values()
    }
    sources: dict[int, list[dict[str, Any]]] = {pk: [] for pk in ids}
    for s in (
        FactSource.objects.filter(fact_id__in=ids)
        .order_by("message__created_at", "message_id")
        .values("fact_id", "message_id", "message__external_id", "message__session__external_id",
                "message__created_at", "span_start", "span_end")
    ):  # fmt: skip
        sources[s["fact_id"]].append(
            {"message_id": s["message_id"], "external_id": s["message__external_id"],
             "session_id": s["message__session__external_id"], "created_at": s["message__created_at"],
             "span_start": s["span_start"], "span_end": s["span_end"]}
        )  # fmt: skip
    history: dict[Any, list[dict[str, Any]]] = {r["uid"]: [] for r in rows}
    for h in (
        FactHistory.objects.filter(fact_uid__in=list(history))
        .order_by("created_at", "id")
        .values("fact_uid", *HISTORY_FIELDS)
    ):
        history[h.pop("fact_uid")].append(h)
    for r in rows:
        read = access.get(r["id"], {})
        r["value_score"] = read.get("value_score", VALUE_SCORE_DEFAULT)
        r["access_count"] = read.get("access_count", 0)
        r["last_accessed_at"] = read.get("last_accessed_at")
        r["sources"] = sources[r["id"]]
        r["history"] = history[r["uid"]]


def _array(items: Iterator[bytes]) -> Iterator[bytes]:
    yield b"["
    first = True
    for item in items:
        yield item if first else b"," + item
        first = False
    yield b"]"


def _subject_part(subject: Subject) -> dict[str, Any]:
    return {
        "user": subject.external_id,
        "memory_paused": subject.memory_paused,
        "created_at": subject.created_at,
        "updated_at": subject.updated_at,
    }


def _fact_items(subject: Subject, step: Callable[[int], None]) -> Iterator[bytes]:
    for rows in _chunks(Fact.objects.filter(subject=subject), FACT_FIELDS):
        _facts_detail(rows)
        yield b",".join(_dumps(r) for r in rows)
        step(len(rows))


def _message_items(subject: Subject, step: Callable[[int], None]) -> Iterator[bytes]:
    sessions = dict(Session.objects.filter(subject=subject).values_list("pk", "external_id"))
    for rows in _chunks(Message.objects.filter(subject=subject), (*MESSAGE_FIELDS, "session_id")):
        for r in rows:
            r["session_id"] = sessions.get(r["session_id"])
        yield b",".join(_dumps(r) for r in rows)
        step(len(rows))


def _without(row: Any, *keys: str) -> dict[str, Any]:
    return {k: v for k, v in row.items() if k not in keys}


def _small_parts(subject: Subject) -> dict[str, Any]:
    """The parts that are small beside facts and messages, read whole."""
    sessions = dict(Session.objects.filter(subject=subject).values_list("pk", "external_id"))
    forgotten = FactHistory.objects.filter(subject=subject, fact__isnull=True).order_by("created_at", "id")
    profile = Profile.objects.filter(subject=subject).values("text", "sections", "built_at").first()
    return {
        "forgotten_facts": list(forgotten.values("fact_uid", "event", "actor", "actor_id", "created_at")),
        "conflicts": [
            {**_without(c, "fact_a_id", "fact_b_id"), "fact_ids": [i for i in (c["fact_a_id"], c["fact_b_id"]) if i]}
            for c in Conflict.objects.filter(subject=subject)
            .order_by("created_at", "id")
            .values(
                "id",
                "kind",
                "state",
                "reason",
                "resolution",
                "resolved_by",
                "resolved_at",
                "created_at",
                "fact_a_id",
                "fact_b_id",
            )
        ],  # fmt: skip
        "sessions": [
            {"id": s["external_id"], "metadata": s["metadata"], "created_at": s["created_at"]}
            for s in Session.objects.filter(subject=subject)
            .order_by("created_at", "id")
            .values("external_id", "metadata", "created_at")
        ],
        "summaries": [
            {**s, "session_id": sessions.get(s["session_id"])}
            for s in Summary.objects.filter(subject=subject)
            .order_by("session_id", "covers_until", "id")
            .values("session_id", "kind", "text", "entities", "message_count", "covers_until", "created_at")
        ],
        "profile": profile,
        "access_log": [
            {
                "at": a["created_at"],
                "actor": a["actor"],
                "operation": a["operation"],
                "fact_ids": a["fact_ids"],
                "agent": f"{a['api_key__name']} ({a['api_key__prefix']}…)" if a["api_key__prefix"] else None,
            }
            for a in AccessLog.objects.filter(subject=subject)
            .order_by("created_at", "id")
            .values("created_at", "actor", "operation", "fact_ids", "api_key__name", "api_key__prefix")
        ],  # fmt: skip
        "search_calls": list(
            SearchCall.objects.filter(subject=subject)
            .order_by("created_at", "id")
            .values("created_at", "result_count", "took_ms", "matched_by")
        ),
        "context_calls": list(
            ContextCall.objects.filter(subject=subject)
            .order_by("created_at", "id")
            .values("created_at", "tokens", "full_history_tokens", "token_budget", "fact_count")
        ),
    }


class _Counter:
    def __init__(self, total: int, progress: Progress | None) -> None:
        self.done, self.total, self.progress = 0, total, progress

    def step(self, n: int) -> None:
        self.done += n
        if self.progress is not None:
            self.progress(self.done, max(self.total, self.done))


def export_json(*, subject: Subject, progress: Progress | None = None) -> Iterator[bytes]:
    """The whole export as JSON, in chunks (see docs/privacy.md for the schema)."""
    counter = _Counter(export_total(subject=subject, format="json") if progress else 0, progress)
    head = {"schema": SCHEMA, "exported_at": timezone.now(), "subject": _subject_part(subject)}
    yield _dumps(head)[:-1] + b',"facts":'
    yield from _array(_fact_items(subject, counter.step))
    yield b',"messages":'
    yield from _array(_message_items(subject, counter.step))
    for name, value in _small_parts(subject).items():
        yield b',"' + name.encode() + b'":' + _dumps(value)
    yield b"}"


def _cell(value: Any) -> str:
    """A CSV cell; text a spreadsheet would run as a formula (=, +, -, @ first) is quoted with a leading '."""
    if value is None:
        return ""
    if hasattr(value, "isoformat"):
        return value.isoformat()
    text = str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def export_csv(*, subject: Subject, progress: Progress | None = None) -> Iterator[bytes]:
    """The subject's facts as CSV (UTF-8 with a byte-order mark, so spreadsheets read Chinese right)."""
    counter = _Counter(export_total(subject=subject, format="csv") if progress else 0, progress)
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(CSV_COLUMNS)
    yield ("\ufeff" + buffer.getvalue()).encode()
    texts: dict[int, str] = {}
    for rows in _chunks(Fact.objects.filter(subject=subject), FACT_FIELDS):
        _facts_detail(rows)
        message_ids = {s["message_id"] for r in rows for s in r["sources"]}
        texts = dict(Message.objects.filter(pk__in=message_ids).values_list("pk", "content"))
        buffer.seek(0)
        buffer.truncate()
        for r in rows:
            sources = [s["message_id"] for s in r["sources"]]
            r["source_message_ids"] = " ".join(str(m) for m in sources)
            r["source_texts"] = " | ".join(texts.get(m, "") for m in sources)
            writer.writerow([_cell(r[c]) for c in CSV_COLUMNS])
        yield buffer.getvalue().encode()
        counter.step(len(rows))


EXPORTERS: dict[str, Callable[..., Iterator[bytes]]] = {"json": export_json, "csv": export_csv}
CONTENT_TYPES = {"json": "application/json", "csv": "text/csv; charset=utf-8"}


def export_filename(*, format: str) -> str:
    return f"memory-export-{timezone.now():%Y%m%d-%H%M%S}.{format}"
