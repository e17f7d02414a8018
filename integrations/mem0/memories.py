"""mem0's vocabulary on our data: its filters read as our user (subject), a fact shown as a mem0 memory, its
history as mem0's history entries. Their `user_id` is our subject; agent_id, app_id and run_id scopes are not kept
(a memory belongs to its user across agents and runs)."""

from __future__ import annotations

import ast
import datetime as dt
import hashlib
import json
import uuid
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime

from conversations.models import Tenant
from facts.models import Fact, FactHistory, FactType
from facts.selectors import facts_for_payload
from memory_site.errors import ApiError

IGNORED_SCOPES = {"agent_id", "app_id", "run_id"}
OPERATORS = {"gte", "gt", "lte", "lt"}


def unsupported(message: str, **details: Any) -> ApiError:
    return ApiError(message, code="unsupported", details=details)


@dataclass
class Scope:
    """What a mem0 request's filters select: one user, optionally a creation window and categories (fact types)."""

    user_id: str | None = None
    created: dict[str, dt.datetime] = field(default_factory=dict)
    types: list[str] = field(default_factory=list)

    def merge(self, key: str, value: Any) -> None:
        if key == "user_id":
            if not isinstance(value, str) or not value or value == "*":
                raise unsupported("user_id must be one user's id (wildcards and operators are not supported).")
            if self.user_id not in (None, value):
                raise unsupported("Only one user_id per request is supported.")
            self.user_id = value
        elif key in IGNORED_SCOPES:
            return
        elif key == "created_at" and isinstance(value, dict) and set(value) <= OPERATORS:
            for op, when in value.items():
                self.created[op] = _when(when)
        elif key == "categories":
            wanted = value.get("in", value.get("contains")) if isinstance(value, dict) else value
            wanted = [wanted] if isinstance(wanted, str) else wanted
            if not isinstance(wanted, list):
                raise unsupported("categories must be a list of fact types.")
            self.types = [str(c) for c in wanted]
        else:
            raise unsupported(
                f"The filter {key!r} is not supported.", supported=["user_id", "created_at", "categories", "AND"]
            )


def _when(value: Any) -> dt.datetime:
    """A date or ISO 8601 moment, in UTC (PostgreSQL refuses offsets past 16 hours); 400 for one that is not a real
    moment (30 February) or leaves the calendar once in UTC."""
    text = str(value)
    try:
        moment = parse_datetime(text)
        if moment is None:
            day = parse_date(text)
            if day is None:
                raise ValueError(text)
            moment = dt.datetime.combine(day, dt.time(), tzinfo=dt.UTC)
        return (moment if timezone.is_aware(moment) else moment.replace(tzinfo=dt.UTC)).astimezone(dt.UTC)
    except (ValueError, OverflowError):
        raise ApiError("Dates are YYYY-MM-DD or ISO 8601.", details={"value": text[:100]}) from None


# A filters text (a query string's) longer than this is refused unread: mem0's client sends a few hundred characters,
# and Python's literal reader is neither linear in memory nor safe from deep nesting.
MAX_FILTERS_CHARS = 4000


def _filters_read(text: str) -> Any:
    """Filters sent as text: JSON, or the Python repr mem0's client sends; 400 for anything else (too long, too
    deep, not a literal)."""
    unreadable = ApiError("filters is not readable.", details={"filters": text[:100]})
    if len(text) > MAX_FILTERS_CHARS:
        raise unreadable
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        pass
    try:
        return ast.literal_eval(text)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        raise unreadable from None


def scope_of(body: dict[str, Any], *, filters: Any = None) -> Scope:
    """The scope of a request: its top-level user_id and its `filters` (a dict; AND of dicts; OR and NOT are not
    supported). A query string's filters arrive as text: JSON, or the Python repr mem0's client sends."""
    scope = Scope()
    if isinstance(body.get("user_id"), str):
        scope.merge("user_id", body["user_id"])
    if isinstance(filters, str):
        filters = _filters_read(filters)
    _walk(filters, scope)
    if "start_date" in body and body["start_date"]:
        scope.created["gte"] = _when(body["start_date"])
    if "end_date" in body and body["end_date"]:
        scope.created["lte"] = _when(body["end_date"])
    if isinstance(body.get("categories"), list):
        scope.types = [str(c) for c in body["categories"]]
    return scope


def _walk(filters: Any, scope: Scope) -> None:
    if filters is None:
        return
    if not isinstance(filters, dict):
        raise ApiError("filters must be an object.")
    for key, value in filters.items():
        if key == "AND":
            for part in value if isinstance(value, list) else [value]:
                _walk(part, scope)
        elif key in {"OR", "NOT"}:
            raise unsupported(f"{key} filters are not supported: give one user_id (and AND conditions).")
        else:
            scope.merge(key, value)


def scoped_facts(qs: QuerySet[Fact], scope: Scope, *, show_expired: bool = False) -> QuerySet[Fact]:
    """Current facts (superseded ones left out, as mem0's latest_only) within the scope's window and categories."""
    qs = qs.filter(status__in=[Fact.Status.ACTIVE, Fact.Status.CONFLICTED])
    if not show_expired:
        qs = qs.filter(Q(expires_at__isnull=True) | Q(expires_at__gt=timezone.now()))
    lookups = {"gte": "created_at__gte", "gt": "created_at__gt", "lte": "created_at__lte", "lt": "created_at__lt"}
    for op, when in scope.created.items():
        qs = qs.filter(**{lookups[op]: when})
    if scope.types:
        qs = qs.filter(type__in=[t for t in scope.types if t in FactType.values])
    return qs


def expiry_of(expiration_date: Any) -> dt.datetime | None:
    """mem0's expiration_date (the last day the memory is visible) as our expires_at (the moment after it)."""
    if expiration_date is None:
        return None
    try:
        day = parse_date(str(expiration_date))
    except ValueError:  # well formed, not a day: 2023-02-30
        day = None
    if day is None:
        raise ApiError("expiration_date must be YYYY-MM-DD.", details={"expiration_date": str(expiration_date)[:100]})
    if day == dt.date.max:  # visible through 9999-12-31: the last moment a datetime holds
        return dt.datetime.max.replace(tzinfo=dt.UTC)
    return dt.datetime.combine(day + dt.timedelta(days=1), dt.time(), tzinfo=dt.UTC)


def iso(moment: dt.datetime | None) -> str | None:
    return moment.isoformat().replace("+00:00", "Z") if moment is not None else None


def memory_of(fact: Fact, *, user_id: str, replaced_by: str | None = None) -> dict[str, Any]:
    """A fact as a mem0 memory."""
    last_day = (fact.expires_at - dt.timedelta(microseconds=1)).date().isoformat() if fact.expires_at else None
    return {
        "id": str(fact.uid),
        "memory": fact.text,
        "user_id": user_id,
        "agent_id": None,
        "app_id": None,
        "run_id": None,
        "hash": hashlib.md5(fact.text.encode(), usedforsecurity=False).hexdigest(),
        "metadata": fact.metadata or None,
        "categories": [fact.type],
        "immutable": False,
        "expiration_date": last_day,
        "replaced_by": replaced_by,
        "created_at": iso(fact.created_at),
        "updated_at": iso(fact.updated_at),
        "fact_id": fact.pk,  # ours: the id the REST API and MCP use
    }


def fact_by_memory_id(*, tenant: Tenant, memory_id: str) -> Fact | None:
    """The tenant's fact a mem0 memory id names: its uid, or our numeric id; None otherwise (another tenant's too)."""
    qs = facts_for_payload().select_related("subject").filter(tenant=tenant)
    if memory_id.isascii() and memory_id.isdigit():  # "²" is a digit to isdigit(), not to int()
        return qs.filter(pk=int(memory_id)).first() if len(memory_id) <= 18 else None
    try:
        return qs.filter(uid=uuid.UUID(memory_id)).first()
    except ValueError:
        return None


def replaced_by(fact: Fact) -> str | None:
    """The uid of the fact that superseded this one, if any."""
    if fact.status != Fact.Status.SUPERSEDED:
        return None
    row = FactHistory.objects.filter(fact_uid=fact.uid, event=FactHistory.Event.SUPERSEDED).order_by("-id").first()
    by = row.data.get("by") if row is not None else None
    return by if isinstance(by, str) else None


HISTORY_EVENTS: dict[str, str] = {FactHistory.Event.CREATED: "ADD", FactHistory.Event.FORGOTTEN: "DELETE"}


def history_of(rows: list[FactHistory], *, user_id: str) -> list[dict[str, Any]]:
    """A fact's change log as mem0's history entries (every change but creation and forgetting is an UPDATE)."""
    return [
        {
            "id": str(row.pk),
            "memory_id": str(row.fact_uid),
            "input": [],
            "old_memory": row.before_text or None,
            "new_memory": row.after_text or None,
            "user_id": user_id,
            "agent_id": None,
            "app_id": None,
            "session_id": None,
            "categories": None,
            "event": HISTORY_EVENTS.get(row.event, "UPDATE"),
            "metadata": {"event": row.event, "actor": row.actor},
            "created_at": iso(row.created_at),
            "updated_at": iso(row.created_at),
        }
        for row in rows
    ]
