"""Event-log replay: a session's context state rebuilt as of any moment from its immutable messages.

The state is a pure fold over the session's messages in (created_at, id) order. A ContextSnapshot stores
the state after every SNAPSHOT_EVERY events, so rebuilding starts from the nearest snapshot at or before
the moment and folds at most SNAPSHOT_EVERY - 1 messages: the cost stays flat as history grows. A snapshot
that a late, back-dated message has made wrong (its position in the log moved) is skipped and rebuilt.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q

from conversations.models import ContextSnapshot, Message, Session
from conversations.summarization.entities import extract_entities
from conversations.windows import RECENT_TURNS, WINDOW_TURNS

SNAPSHOT_EVERY = 100


def state_empty() -> dict[str, Any]:
    return {
        "event_count": 0,
        "last_message_id": None,
        "last_created_at": None,
        "recent": [],
        "windows_closed": 0,
        "speakers": {},
        "entities": [],
    }


def state_fold(state: dict[str, Any], messages: Iterable[Message]) -> dict[str, Any]:
    """Apply messages, in log order, to a state; returns a new state (the input is not changed)."""
    out = {**state, "recent": list(state["recent"]), "speakers": dict(state["speakers"])}
    entities = set(state["entities"])
    for m in messages:
        out["event_count"] += 1
        out["last_message_id"] = m.pk
        out["last_created_at"] = m.created_at.isoformat()
        out["recent"].append(
            {"id": m.pk, "role": m.role, "name": m.name, "content": m.content, "created_at": m.created_at.isoformat()}
        )
        del out["recent"][:-RECENT_TURNS]
        speaker = m.name or m.role
        out["speakers"][speaker] = out["speakers"].get(speaker, 0) + 1
        entities.update(e.text for e in extract_entities(m.content))
    older = max(0, out["event_count"] - RECENT_TURNS)
    out["windows_closed"] = older // WINDOW_TURNS
    out["entities"] = sorted(entities)
    return out


def _after(message: Message) -> Q:
    return Q(created_at__gt=message.created_at) | Q(created_at=message.created_at, id__gt=message.pk)


def _snapshot_valid(snapshot: ContextSnapshot) -> bool:
    """True when exactly event_count messages sit at or before the snapshot's last message in the log."""
    last = snapshot.last_message
    upto = Message.objects.filter(session_id=snapshot.session_id).exclude(_after(last)).count()
    return upto == snapshot.event_count


@dataclass
class Replay:
    state: dict[str, Any]
    snapshot_event_count: int  # 0 when replayed from scratch
    replayed_events: int


def session_state_as_of(*, session: Session, as_of: dt.datetime, use_snapshots: bool = True) -> Replay:
    """The session's context state including every message created at or before as_of."""
    base = state_empty()
    start_count = 0
    log = Message.objects.filter(session=session, created_at__lte=as_of)
    if use_snapshots:
        candidates = (
            ContextSnapshot.objects.filter(session=session, last_message__created_at__lte=as_of)
            .select_related("last_message")
            .order_by("-event_count")
        )
        for snapshot in candidates[:3]:
            if _snapshot_valid(snapshot):
                base, start_count = snapshot.state, snapshot.event_count
                log = log.filter(_after(snapshot.last_message))
                break
    messages = list(log.order_by("created_at", "id"))
    return Replay(state=state_fold(base, messages), snapshot_event_count=start_count, replayed_events=len(messages))


def session_snapshots_update(*, session: Session) -> int:
    """Store a snapshot after every SNAPSHOT_EVERY events not yet covered; returns how many were made."""
    total = Message.objects.filter(session=session).count()
    wanted = list(range(SNAPSHOT_EVERY, total + 1, SNAPSHOT_EVERY))
    if not wanted:
        return 0
    existing = {
        s.event_count: s
        for s in ContextSnapshot.objects.filter(session=session).select_related("last_message").order_by("event_count")
    }
    state, position, made = state_empty(), 0, 0
    for count in wanted:
        snapshot = existing.get(count)
        if snapshot is not None and _snapshot_valid(snapshot):
            state, position = snapshot.state, count
            continue
        if snapshot is not None:
            snapshot.delete()  # a back-dated message moved its position: rebuild it
        chunk = list(Message.objects.filter(session=session).order_by("created_at", "id")[position:count])
        state, position = state_fold(state, chunk), count
        try:
            with transaction.atomic():
                ContextSnapshot.objects.create(
                    tenant_id=session.tenant_id,
                    subject_id=session.subject_id,
                    session=session,
                    event_count=count,
                    last_message=chunk[-1],
                    state=state,
                )
            made += 1
        except IntegrityError:
            pass  # another worker stored the same snapshot
    return made
