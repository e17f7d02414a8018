"""Rolling session summaries: a mid-term summary per 4 turns older than the 8 most recent, and one far summary.

Windows are fixed 4-turn slices of the session's event log counted from its first message. The newest
MID_KEEP windows stay as mid-term summaries; older windows are folded, one round per run, into the far
summary. Summariser calls happen outside transactions; writes re-check under a session row lock, so two
workers running the same task write each window once (also guarded by unique constraints).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.db import transaction

from conversations.models import Message, Session, Summary
from conversations.summarization.entities import entities_union, extract_entities
from conversations.summarization.summarizers import body_lines, count_tokens, summarize_lines
from conversations.windows import WINDOW_TURNS, session_windows

logger = logging.getLogger(__name__)

MID_KEEP = 6
FAR_TARGET_TOKENS = 800
MID_MIN_TOKENS = 40
MID_MAX_TOKENS = 160


def speaker_of(message: Message) -> str:
    return message.name or ("User" if message.role == Message.Role.USER else message.role.capitalize())


def turn_line(message: Message) -> str:
    """A turn as a summary input line: date and speaker kept so a reader can reason about time."""
    content = " ".join(message.content.split())
    return f"[{message.created_at:%Y-%m-%d}] {speaker_of(message)}: {content}"


def window_entities(messages: list[Message]) -> list[dict[str, str]]:
    found = [{"text": e.text, "kind": e.kind} for m in messages for e in extract_entities(m.content)]
    return entities_union(found)


@dataclass
class SummarizeResult:
    mid_created: int = 0
    far_rounds: int = 0


def _mid_create(*, session: Session, window: list[Message]) -> bool:
    lines = [turn_line(m) for m in window]
    source_tokens = sum(count_tokens(line) for line in lines)
    target = max(MID_MIN_TOKENS, min(MID_MAX_TOKENS, source_tokens // 2))
    entities = window_entities(window)
    result = summarize_lines(lines, target_tokens=target, entities=[e["text"] for e in entities])
    with transaction.atomic():
        Session.objects.select_for_update().get(pk=session.pk)
        if Summary.objects.filter(session=session, kind=Summary.Kind.MID, first_message=window[0]).exists():
            return False
        Summary.objects.create(
            tenant_id=session.tenant_id,
            subject_id=session.subject_id,
            session=session,
            kind=Summary.Kind.MID,
            first_message=window[0],
            last_message=window[-1],
            message_count=len(window),
            text=result.text,
            entities=entities,
            tokens=count_tokens(result.text),
            summarizer=result.summarizer,
            fallback_reason=result.fallback_reason,
            covers_until=window[-1].created_at,
        )
    return True


def _far_fold(*, session: Session, windows: list[list[Message]]) -> bool:
    """Fold windows that aged out of the mid-term tier into the far summary (one round of re-summarisation)."""
    fold_upto = max(0, len(windows) - MID_KEEP)
    far = Summary.objects.filter(session=session, kind=Summary.Kind.FAR).first()
    folded_messages = far.message_count if far else 0
    done = folded_messages // WINDOW_TURNS
    pending = windows[done:fold_upto]
    if not pending:
        return False
    mids = {
        s.first_message_id: s
        for s in Summary.objects.filter(
            session=session, kind=Summary.Kind.MID, first_message_id__in=[w[0].pk for w in pending]
        )
    }
    lines = body_lines(far.text) if far else []
    groups = [far.entities] if far else []
    for window in pending:
        mid = mids.get(window[0].pk)
        lines += body_lines(mid.text) if mid else [turn_line(m) for m in window]
        groups.append(mid.entities if mid else window_entities(window))
    entities = entities_union(*groups)
    result = summarize_lines(lines, target_tokens=FAR_TARGET_TOKENS, entities=[e["text"] for e in entities])
    with transaction.atomic():
        Session.objects.select_for_update().get(pk=session.pk)
        current = Summary.objects.filter(session=session, kind=Summary.Kind.FAR).first()
        if (current.message_count if current else 0) != folded_messages:
            return False  # another run folded these windows meanwhile
        values = {
            "tenant_id": session.tenant_id,
            "subject_id": session.subject_id,
            "first_message": windows[0][0],
            "last_message": pending[-1][-1],
            "message_count": folded_messages + sum(len(w) for w in pending),
            "text": result.text,
            "entities": entities,
            "tokens": count_tokens(result.text),
            "rounds": (current.rounds + 1) if current else 1,
            "summarizer": result.summarizer,
            "fallback_reason": result.fallback_reason,
            "covers_until": pending[-1][-1].created_at,
        }
        Summary.objects.update_or_create(session=session, kind=Summary.Kind.FAR, defaults=values)
    return True


def session_summarize(*, session_id: int) -> SummarizeResult:
    """Bring a session's summaries up to date; safe to run any number of times."""
    out = SummarizeResult()
    session = Session.objects.select_related("subject").filter(pk=session_id).first()
    if session is None or session.subject.memory_paused:
        return out  # a paused subject gets nothing derived from its messages
    # Positions only; full rows are loaded for the windows that still need work (long sessions stay cheap).
    light = list(Message.objects.filter(session=session).order_by("created_at", "id").only("id", "created_at"))
    windows = session_windows(light)
    have = set(
        Summary.objects.filter(session=session, kind=Summary.Kind.MID).values_list("first_message_id", flat=True)
    )
    for window in windows:
        if window[0].pk not in have:
            full = Message.objects.in_bulk([m.pk for m in window])
            if _mid_create(session=session, window=[full[m.pk] for m in window]):
                out.mid_created += 1
    if _far_fold(session=session, windows=windows):
        out.far_rounds += 1
    return out
