"""The last stage: spread the top over more of the conversation, keep one of each near-duplicate, cut at the limit."""

from __future__ import annotations

import heapq
from dataclasses import dataclass

from facts.retrieval.fusion import SIGNALS
from facts.retrieval.hits import SearchHit
from facts.retrieval.rerank import Scored
from facts.retrieval.rows import Rows
from facts.text import normalize


@dataclass(frozen=True)
class CollapseTuning:
    # A result whose source messages are all covered by better ones is scaled by this (1 = off): several facts
    # restating one turn do not fill the top k. 0-0.5 a plateau on LoCoMo, 0.65 worse.
    diversity_penalty: float = 0.5
    depth_per_result: int = 6  # candidates re-ordered per result asked for (duplicates fold further down)


def collapse(scored: Scored, rows: Rows, *, limit: int, tuning: CollapseTuning) -> list[SearchHit]:
    """The answer: the scored candidates diversified over their source messages, near-duplicates folded into the
    better one, at most `limit`. Every scored candidate's row (a fact's with its sources) has been read."""
    ordered = diversify(scored, rows, limit * tuning.depth_per_result, tuning.diversity_penalty)
    return _distinct(ordered, rows, limit)


def diversify(scored: Scored, rows: Rows, depth: int, penalty: float) -> Scored:
    """Greedy MMR over source messages: a result whose source messages are all covered by better results is scaled
    by `penalty`, so the top of the list covers more of the conversation.

    Coverage only grows, so lazy re-evaluation with a heap gives the exact greedy order. Only the first `depth`
    candidates are re-ordered (the rest keep their order after them).
    """
    if penalty >= 1.0:
        return scored
    head, tail = scored[:depth], scored[depth:]
    heap = [(-score, i, False) for i, (score, _) in enumerate(head)]
    heapq.heapify(heap)
    covered: set[int] = set()
    out: Scored = []
    while heap:
        neg, i, penalised = heapq.heappop(heap)
        item = head[i][1]
        msg_ids = rows.source_message_ids(item.key)
        if not penalised and msg_ids and all(m in covered for m in msg_ids):
            heapq.heappush(heap, (neg * penalty, i, True))
            continue
        covered.update(msg_ids)
        out.append((-neg, item))
    return out + tail


def _distinct(scored: Scored, rows: Rows, limit: int) -> list[SearchHit]:
    """Keep the best of near-duplicates: same normalised text, or a fact whose source messages are all shown
    already by a message holding its text."""
    hits: list[SearchHit] = []
    seen_text: dict[str, SearchHit] = {}
    message_hit: dict[int, SearchHit] = {}
    for score, item in scored:
        kind, pk = item.key
        hit = _hit(score, item.key, item.matched_by, rows)
        norm = normalize(hit.text) if kind == "message" else (rows.facts[pk]["normalized_text"] or normalize(hit.text))
        dup = seen_text.get(norm)
        if kind == "message":
            dup = message_hit.get(pk) or dup
        elif dup is None and hit.sources and all(s["message_id"] in message_hit for s in hit.sources):
            parent = message_hit[hit.sources[0]["message_id"]]
            if norm in normalize(parent.text):
                dup = parent
        if dup is not None:
            dup.matched_by = _ordered([*dup.matched_by, *item.matched_by])
            continue
        seen_text[norm] = hit
        for source in hit.sources:
            message_hit.setdefault(source["message_id"], hit)
        hits.append(hit)
        if len(hits) >= limit:
            break
    return hits


def _hit(score: float, key: tuple[str, int], matched_by: list[str], rows: Rows) -> SearchHit:
    kind, pk = key
    if kind == "fact":
        row = rows.facts[pk]
        return SearchHit(
            kind="fact",
            id=pk,
            text=row["text"],
            type=row["type"],
            score=round(score, 6),
            matched_by=_ordered(matched_by),
            valid_from=row["valid_from"],
            created_at=row["created_at"],
            sources=row["sources"],
            event_time=row.get("event_time"),
        )
    row = rows.messages[pk]
    source = {
        "message_id": pk,
        "external_id": row["external_id"],
        "session_id": row["session_external_id"],
        "created_at": row["created_at"],
    }
    return SearchHit(
        kind="message",
        id=pk,
        text=row["text"],
        type="message",
        score=round(score, 6),
        matched_by=_ordered(matched_by),
        valid_from=row["created_at"],
        created_at=row["created_at"],
        sources=[source],
    )


def _ordered(signals: list[str]) -> list[str]:
    return sorted(set(signals), key=lambda s: SIGNALS.index(s) if s in SIGNALS else len(SIGNALS))
