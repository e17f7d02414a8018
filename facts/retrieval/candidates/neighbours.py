"""Session neighbours: the turns around the strongest candidates' source turns, and the facts taken from them.

Multi-hop and open-domain questions ("What activities does she do with her family?") are answered by several turns
that share a conversation, not words, with the question: the first hits are one of them, and the others are often
a few turns away in the same session. So the `window` messages before and after each of the `top` strongest
candidates' source messages (in the session's order) become candidates, with that candidate's score times `factor`
for the nearest and `decay` more for each turn further away, and its `matched_by`. Questions found by the vector
alone are not followed (a guess about a guess). Deterministic; one SQL statement.
"""

from __future__ import annotations

from dataclasses import dataclass

from facts.retrieval.fusion import Fused
from facts.retrieval.scope import FactFilter, Key
from memory_site.db import fetch_prepared


@dataclass(frozen=True)
class NeighbourTuning:
    factor: float = 0.0  # 0: off (see bench/README.md for what was measured)
    decay: float = 0.7  # each turn further away
    window: int = 2  # turns before and after
    top: int = 5  # the strongest candidates followed


# (candidate kind, candidate id, neighbour message id, distance in turns, one of its searchable facts or NULL).
_NEIGHBOURS_SQL = """
WITH cand AS (
    SELECT * FROM unnest(%s::varchar[], %s::bigint[]) AS c(kind, key_id)
), src AS (
    SELECT c.kind, c.key_id, fs.message_id
    FROM cand c JOIN facts_factsource fs ON c.kind = 'fact' AND fs.fact_id = c.key_id
    UNION ALL
    SELECT c.kind, c.key_id, c.key_id FROM cand c WHERE c.kind = 'message'
), near AS (
    SELECT src.kind, src.key_id, n.id, n.dist
    FROM src
    JOIN conversations_message q ON q.id = src.message_id AND q.subject_id = %s
    CROSS JOIN LATERAL (
        (SELECT m.id, row_number() OVER (ORDER BY m.created_at DESC, m.id DESC) AS dist
         FROM conversations_message m
         WHERE m.session_id = q.session_id AND (m.created_at, m.id) < (q.created_at, q.id)
         ORDER BY m.created_at DESC, m.id DESC LIMIT %s)
        UNION ALL
        (SELECT m.id, row_number() OVER (ORDER BY m.created_at, m.id) AS dist
         FROM conversations_message m
         WHERE m.session_id = q.session_id AND (m.created_at, m.id) > (q.created_at, q.id)
         ORDER BY m.created_at, m.id LIMIT %s)
    ) n
)
SELECT near.kind, near.key_id, near.id, near.dist, af.fact_id
FROM near
LEFT JOIN LATERAL (
    SELECT fs.fact_id FROM facts_factsource fs
    WHERE fs.message_id = near.id AND fs.fact_id IN (SELECT id FROM facts_fact WHERE FACT_FILTER)
) af ON true
"""


def follow_neighbours(
    fused: dict[Key, Fused], flt: FactFilter, *, include_messages: bool, tuning: NeighbourTuning
) -> None:
    """Add (or lift) the session neighbours of the `top` strongest candidates in `fused`, in place."""
    if tuning.factor <= 0 or tuning.top <= 0 or tuning.window <= 0 or not fused:
        return
    head = sorted(fused.values(), key=lambda f: (-f.score, f.key[0], f.key[1]))[: tuning.top]
    head = [f for f in head if f.matched_by != ["vector"]]
    if not head:
        return
    where, params = flt.sql()
    rows = fetch_prepared(
        _NEIGHBOURS_SQL.replace("FACT_FILTER", where),
        [[f.key[0] for f in head], [f.key[1] for f in head], flt.subject_id, tuning.window, tuning.window, *params],
    )
    parents = {f.key: f for f in head}
    best: dict[Key, tuple[float, float, Fused]] = {}
    for kind, key_id, message_id, dist, fact_id in sorted(rows, key=lambda r: (str(r[0]), r[1], r[2], r[3], r[4] or 0)):
        parent = parents[(str(kind), int(key_id))]
        scale = tuning.factor * tuning.decay ** (int(dist) - 1)
        targets: list[Key] = [("fact", int(fact_id))] if fact_id is not None else []
        if include_messages:
            targets.append(("message", int(message_id)))
        for key in targets:
            score = parent.score * scale
            if key != parent.key and (key not in best or score > best[key][0]):
                best[key] = (score, parent.strength * scale, parent)
    for key in sorted(best):
        score, strength, parent = best[key]
        item = fused.get(key)
        if item is None:
            fused[key] = Fused(key=key, score=score, matched_by=list(parent.matched_by), strength=strength)
        elif score > item.score:
            item.score, item.strength = score, max(item.strength, strength)
            item.matched_by = list(dict.fromkeys([*item.matched_by, *parent.matched_by]))
