"""Build a prompt-ready context for a subject under a token budget and record what it cost."""

from __future__ import annotations

import datetime as dt
import inspect
import time
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db.models import Max
from django.utils import timezone

from conversations.models import ApiKey, Message, Session, Subject, Summary
from conversations.summarization.services import speaker_of
from conversations.windows import RECENT_TURNS, WINDOW_TURNS
from facts import selectors as fact_selectors
from facts.context.packing import Item, pack
from facts.durable import is_durable
from facts.models import ContextCall
from facts.profile import profile_current
from facts.retrieval.relevance import QuerySignals, calibration
from facts.text import keywords
from facts.tokens import count_many, count_tokens

DEFAULT_BUDGET = 2000
MIN_BUDGET = 50
MAX_BUDGET = 32000
# Facts asked from the read path: about one per 60 tokens of budget (a fact is one sentence), 5 to 50.
FACTS_PER_TOKENS = 60
FACT_LIMIT_MIN, FACT_LIMIT_MAX = 5, 50
# Earlier turns asked from the same search: about one per 100 tokens of budget (a turn is a few sentences), 3 to 20.
TURNS_PER_TOKENS = 100
TURN_LIMIT_MIN, TURN_LIMIT_MAX = 3, 20
# The 8 most recent turns plus the (< 4) turns not yet in a complete summary window.
RECENT_MAX = RECENT_TURNS + WINDOW_TURNS - 1
OTHER_SUMMARIES_MAX = 200


@dataclass
class ContextResult:
    context: str
    sections: dict[str, Any]
    tokens: int
    full_history_tokens: int
    session_id: str | None


def _when(value: dt.datetime | None) -> str:
    return f"{value:%Y-%m-%d}" if value else "unknown date"


def turn_text(message: Message) -> str:
    return f"[{message.created_at:%Y-%m-%d %H:%M}] {speaker_of(message)} ({message.role}): {message.content}"


def full_history_tokens(*, subject: Subject) -> int:
    """Tokens the subject's whole message history would cost in a prompt (cached per history state)."""
    stats = Message.objects.filter(subject=subject).aggregate(last=Max("id"))
    count = Message.objects.filter(subject=subject).count()
    key = f"context-full-tokens:{subject.pk}:{count}:{stats['last']}"
    cached = cache.get(key)
    if cached is not None:
        return int(cached)
    total = 0
    qs = Message.objects.filter(subject=subject).select_related().order_by("id")
    batch: list[str] = []
    for message in qs.iterator(chunk_size=500):
        batch.append(turn_text(message))
        if len(batch) >= 500:
            total += sum(count_many(batch))
            batch = []
    total += sum(count_many(batch))
    cache.set(key, total, timeout=3600)
    return total


# A relevant earlier turn's per-result probability over the query's best result's, at least (small talk that merely
# shares a word stands under it; tests/facts/test_context_api.py).
TURN_MIN_STANDING = 0.3


def _memory_search(
    subject: Subject, query: str, api_key: ApiKey | None, limit: int, **when: Any
) -> tuple[list[Any], list[Any]]:
    """One call of the read path's search with the raw turns included, under its relevance floor (an unrelated
    query finds nothing, and the facts and turns sections are left out rather than padded): (fact hits, message
    hits), each best first, the message hits under the fitted floor as well. Passes the extended keywords only
    when that signature has them."""
    params = inspect.signature(fact_selectors.fact_search).parameters
    # The floor decides whether the memory answers the query at all; an answered query keeps its lower facts for the
    # token budget to pack (a per-result floor cost context recall at 2,000 tokens: bench/README.md, session 17).
    kwargs: dict[str, Any] = {
        "subject": subject, "query": query, "limit": limit, "include_messages": True, "whole_query_floor": True, **when
    }  # fmt: skip
    if "api_key" in params:
        kwargs["api_key"] = api_key
    signals: list[QuerySignals] = []
    hits, _ = fact_selectors.fact_search(**kwargs, signals_out=signals)
    # Durable facts only (facts/durable.py): a quote of small talk costs tokens and tells the model nothing.
    facts = [
        h
        for h in hits
        if getattr(h, "kind", "fact") == "fact" and is_durable(text=h.text, type=h.type, has_time=bool(h.event_time))
    ]
    # Raw turns are many and mostly chatter: they must also clear the context's fitted floor (docs/relevance.md;
    # the search's own floor when the fit gives none), which the search's default floor applies only in a memory
    # large enough, and only to what the full model scored; else an unrelated query (or any Chinese one) would be
    # padded with the nearest small talk.
    # And, under an answerable query, a turn must stand near its best result: relevance is the query's level times
    # (result / best) ** beta, so the per-result share is recovered from it; small talk stands far below.
    cal = calibration()
    floor = cal.turn_floor(signals[0] if signals else None)  # a Chinese query's e5 relevance has its own
    top = max((h.relevance for h in hits), default=0.0)

    def standing(h: Any) -> float:
        return (h.relevance / top) ** (1 / cal.beta) if top > 0 and cal.beta > 0 else 1.0

    turns = [
        h
        for h in hits
        if getattr(h, "kind", "fact") == "message" and h.relevance >= floor and standing(h) >= TURN_MIN_STANDING
    ]
    return facts, turns


def _session_for(subject: Subject, session_external_id: str | None) -> Session | None:
    if session_external_id:
        return Session.objects.filter(subject=subject, external_id=session_external_id).first()
    latest = Message.objects.filter(subject=subject).order_by("-created_at", "-id").select_related("session").first()
    return latest.session if latest else None


def _summary_item(summary: Summary, session_name: str, relevance: float = 0.0) -> Item:
    start = summary.first_message.created_at if summary.first_message else None
    label = "far summary" if summary.kind == Summary.Kind.FAR else "summary"
    title = f"[{label}, session {session_name}, {_when(start)} to {_when(summary.covers_until)}]"
    payload = {
        "kind": summary.kind,
        "session_id": session_name,
        "text": summary.text,
        "from": start,
        "until": summary.covers_until,
        "message_count": summary.message_count,
        "entities": [e.get("text") for e in summary.entities],
    }
    return Item(
        "summaries",
        f"{title}\n{summary.text}",
        payload,
        sort_key=(summary.covers_until or timezone.now(), summary.pk),
        truncatable=summary.kind == Summary.Kind.FAR,
    )


def _summaries(subject: Subject, session: Session | None, query_words: set[str]) -> list[Item]:
    """The session's unfolded mids (newest first) and far summary, then other sessions' by relevance."""
    rows = list(
        Summary.objects.filter(subject=subject)
        .select_related("first_message", "session")
        .order_by("-covers_until", "-id")[:OTHER_SUMMARIES_MAX]
    )
    far_until = {s.session_id: s.covers_until for s in rows if s.kind == Summary.Kind.FAR}

    def unfolded(s: Summary) -> bool:
        """Far summaries, and mid-term ones newer than their session's far summary."""
        if s.kind == Summary.Kind.FAR or s.session_id not in far_until:
            return True
        folded_until = far_until[s.session_id]
        return bool(s.covers_until and folded_until and s.covers_until > folded_until)

    live = [s for s in rows if unfolded(s)]

    def relevance(s: Summary) -> int:
        return len(query_words & set(keywords(s.text, limit=200))) if query_words else 0

    def order(s: Summary) -> tuple[int, float]:
        return (-relevance(s), -(s.covers_until.timestamp() if s.covers_until else 0))

    own = [s for s in live if session is not None and s.session_id == session.pk]
    own_mids = sorted((s for s in own if s.kind == Summary.Kind.MID), key=order)
    own_far = [s for s in own if s.kind == Summary.Kind.FAR]
    others = sorted((s for s in live if session is None or s.session_id != session.pk), key=order)
    return [_summary_item(s, s.session.external_id) for s in own_mids + own_far + others]


def _recent_turns(session: Session | None) -> list[Message]:
    """The session's latest turns, newest first, without those its newest mid-term summary already covers."""
    if session is None:
        return []
    rows = list(Message.objects.filter(session=session).order_by("-created_at", "-id")[:RECENT_MAX])
    mids = Summary.objects.filter(session=session, kind=Summary.Kind.MID).select_related("last_message")
    last_mid = mids.order_by("-covers_until", "-id").first()
    if last_mid is not None and last_mid.last_message is not None:
        cut = (last_mid.last_message.created_at, last_mid.last_message.pk)
        rows = [m for m in rows if (m.created_at, m.pk) > cut] or rows[:RECENT_TURNS]
    return rows


def _turn_payload(message: Message) -> dict[str, Any]:
    return {
        "id": message.pk,
        "role": message.role,
        "name": message.name,
        "content": message.content,
        "created_at": message.created_at,
    }


def _recent_item(message: Message) -> Item:
    return Item("recent", turn_text(message), _turn_payload(message), sort_key=(message.created_at, message.pk))


def _turn_items(subject: Subject, hits: list[Any], skip: set[int]) -> list[Item]:
    """The message hits as verbatim turns (date, speaker, role), best first, without those in `skip` (the recent
    turns). The rows are read again under the subject, so nothing of another subject can be shown."""
    wanted = [h.id for h in hits if h.id not in skip]
    rows = Message.objects.filter(subject=subject, pk__in=wanted).select_related("session").in_bulk()
    items = []
    for rank, pk in enumerate(wanted):
        message = rows.get(pk)
        if message is None:
            continue
        payload = {**_turn_payload(message), "session_id": message.session.external_id, "rank": rank}
        key = (message.created_at, message.pk)
        items.append(Item("turns", turn_text(message), payload, sort_key=key, shows=frozenset({message.pk})))
    return items


def _fact_item(hit: Any, rank: int) -> Item:
    payload = {
        "id": hit.id,
        "text": hit.text,
        "type": hit.type,
        "score": hit.score,
        "relevance": getattr(hit, "relevance", None),
        "valid_from": hit.valid_from,
        "event_time": hit.event_time,
        "created_at": hit.created_at,
        "sources": hit.sources,
    }
    when = hit.event_time or hit.valid_from or hit.created_at  # an event's own day, else when it was said
    shows = frozenset(s["message_id"] for s in hit.sources if s.get("message_id") is not None)
    return Item("facts", f"- [{_when(when)}] {hit.text}", payload, sort_key=rank, shows=shows)


def context_build(
    *,
    subject: Subject,
    query: str | None = None,
    session_external_id: str | None = None,
    token_budget: int = DEFAULT_BUDGET,
    api_key: ApiKey | None = None,
    as_of: dt.datetime | None = None,
    known_at: dt.datetime | None = None,
) -> ContextResult:
    """Assemble recent turns, summaries, facts, relevant earlier turns and the profile under token_budget; record a
    ContextCall.

    Facts and earlier turns come from one search (include_messages) for `query`, else for the newest turn. A turn
    already among the recent ones is left out, and pack() skips a turn a chosen fact cites as its source.
    With `as_of` / `known_at` the facts section holds the facts of that moment (facts.retrieval.asof) and the
    turns are those said by then."""
    started = time.perf_counter()
    session = _session_for(subject, session_external_id)
    recent_rows = _recent_turns(session)
    search_query = (query or "").strip() or (recent_rows[0].content[:500] if recent_rows else "")
    limit = max(FACT_LIMIT_MIN, min(FACT_LIMIT_MAX, token_budget // FACTS_PER_TOKENS))
    # Over-fetch: the durable filter may drop some of the hits.
    when = {k: v for k, v in (("as_of", as_of), ("known_at", known_at)) if v is not None}
    fetch = min(FACT_LIMIT_MAX, 2 * limit)
    turn_limit = max(TURN_LIMIT_MIN, min(TURN_LIMIT_MAX, token_budget // TURNS_PER_TOKENS))
    hits, message_hits = (
        _memory_search(subject, search_query, api_key, fetch + turn_limit, **when) if search_query else ([], [])
    )
    hits = hits[:limit]
    recent_ids = {m.pk for m in recent_rows}
    turns = _turn_items(subject, message_hits, recent_ids)[:turn_limit]
    profile = profile_current(subject=subject)
    now = timezone.now()
    header = (
        f"Memory context for user {subject.external_id}. Now: {now:%Y-%m-%d %H:%M} UTC. "
        "Dates in brackets say when something was said or became true."
    )
    packed = pack(
        header=header,
        recent=[_recent_item(m) for m in recent_rows],
        facts=[_fact_item(h, rank) for rank, h in enumerate(hits)],
        profile=Item("profile", profile.text, profile.text, truncatable=True) if profile.text else None,
        summaries=_summaries(subject, session, set(keywords(query or ""))),
        budget=token_budget,
        count=count_tokens,
        turns=turns,
    )
    history = full_history_tokens(subject=subject)
    sections = {
        "recent": [i.payload for i in packed.items["recent"]],
        "summaries": [i.payload for i in packed.items["summaries"]],
        "facts": [i.payload for i in packed.items["facts"]],
        "turns": [i.payload for i in packed.items["turns"]],
        "profile": packed.items["profile"][0].text if packed.items["profile"] else "",
    }
    ContextCall.objects.create(
        tenant_id=subject.tenant_id,
        subject=subject,
        api_key=api_key,
        tokens=packed.tokens,
        full_history_tokens=history,
        token_budget=token_budget,
        fact_count=len(sections["facts"]),
        took_ms=(time.perf_counter() - started) * 1000,
    )
    return ContextResult(
        context=packed.text,
        sections=sections,
        tokens=packed.tokens,
        full_history_tokens=history,
        session_id=session.external_id if session else None,
    )
