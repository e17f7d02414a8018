"""Reply and continuation links: a question that matches the query points at the answer that followed it, and a
turn that matches points at its speaker's next turn.

In a conversation the words of a question are often only in the question: "How did the move go for the kids?" is
followed by "Tears on day one, new friends by Friday". The answer turn, and the facts taken from it, hold what the
user wants to recall, yet share no word with the query. So when a strong candidate comes from a question (its
source message contains "?" or "？"), the next message of that session by another speaker, and the facts taken from
it, become candidates too, with the question's score times `reply_factor` and its `matched_by` (they were found
through the same signals). Questions found by the vector alone are not followed.

Continuation: a speaker often finishes a thought in their next turn, after the other's reaction ("Once the season is
over I need a new routine." - "Any plans?" - "Coaching kids, and a sports shop."). The speaker's own message among
the next two of the session, and its facts, become candidates with the matching turn's score times `next_factor`
(lower than for a reply: a weaker link). Both links in one statement, one pass; deterministic.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from facts.retrieval.fusion import Fused
from facts.retrieval.scope import FactFilter, Key
from memory_site.db import fetch_prepared


@dataclass(frozen=True)
class LinkTuning:
    reply_factor: float = 0.9  # an answer at 0.9 x its question's score: 0.5-1.2 tried, 0.9 best (+0.022 recall@10)
    reply_top: int = 20  # questions among the strongest 20 candidates (50: the same)
    next_factor: float = 0.5  # the speaker's next turn: 0.3-0.7 tried, 0.5 taken from the plateau (+0.013)
    next_top: int = 10  # among the strongest 10 (5 or 20: the same)


LinkRows = list[tuple[int, int | None]]  # (linked message id, one of its searchable facts or None)


# (tag, candidate kind, candidate id, linked message id, one of its searchable facts or NULL), in one pass: for each
# candidate's source message q, the next two messages a of its session; the first is the 'answer' when q is a
# question and a is by another speaker, either is the speaker's 'own' next turn when a is by q's speaker. One row
# per fact taken from a that the search may return (FACT_FILTER, the search's filter, in its place).
_LINKS_SQL = """
WITH cand AS (
    SELECT * FROM unnest(%s::varchar[], %s::bigint[]) AS c(kind, key_id)
), src AS (
    SELECT c.kind, c.key_id, fs.message_id
    FROM cand c JOIN facts_factsource fs ON c.kind = 'fact' AND fs.fact_id = c.key_id
    UNION ALL
    SELECT c.kind, c.key_id, c.key_id FROM cand c WHERE c.kind = 'message'
), linked AS (
    SELECT src.kind, src.key_id, a.id, ARRAY[
        CASE WHEN a.n = 1 AND (strpos(q.content, '?') > 0 OR strpos(q.content, '？') > 0)
            AND (a.name <> q.name OR a.role <> q.role) THEN 'answer' END,
        CASE WHEN a.name = q.name AND a.role = q.role THEN 'own' END
    ] AS tags
    FROM src
    JOIN conversations_message q ON q.id = src.message_id AND q.subject_id = %s
    CROSS JOIN LATERAL (
        SELECT m.id, m.name, m.role, row_number() OVER (ORDER BY m.created_at, m.id) AS n
        FROM conversations_message m
        WHERE m.session_id = q.session_id AND (m.created_at, m.id) > (q.created_at, q.id)
        ORDER BY m.created_at, m.id LIMIT 2
    ) a
)
SELECT t.tag, l.kind, l.key_id, l.id, af.fact_id
FROM linked l
CROSS JOIN LATERAL unnest(l.tags) AS t(tag)
LEFT JOIN LATERAL (
    SELECT fs.fact_id FROM facts_factsource fs
    WHERE fs.message_id = l.id AND fs.fact_id IN (SELECT id FROM facts_fact WHERE FACT_FILTER)
) af ON true
WHERE t.tag IS NOT NULL
"""


@dataclass
class Links:
    """The messages each candidate links to, by candidate key, for the candidates looked up so far."""

    answer: dict[Key, LinkRows] = field(default_factory=dict)
    own: dict[Key, LinkRows] = field(default_factory=dict)

    def fetch(self, keys: list[Key], flt: FactFilter) -> None:
        """Look up the links of `keys` not looked up yet (one SQL statement)."""
        keys = sorted({key for key in keys if key not in self.answer})
        if not keys:
            return
        for key in keys:
            self.answer[key], self.own[key] = [], []
        where, params = flt.sql()
        params = [[k for k, _ in keys], [pk for _, pk in keys], flt.subject_id, *params]
        for tag, kind, key_id, answer_id, fact_id in fetch_prepared(_LINKS_SQL.replace("FACT_FILTER", where), params):
            rows = self.answer if tag == "answer" else self.own
            rows[(str(kind), int(key_id))].append((int(answer_id), None if fact_id is None else int(fact_id)))

    def targets(self) -> tuple[set[int], set[int]]:
        """The facts and the messages the candidates looked up so far link to."""
        rows = [row for linked in (self.answer, self.own) for lst in linked.values() for row in lst]
        return {fact_id for _, fact_id in rows if fact_id is not None}, {message_id for message_id, _ in rows}


def follow_links(
    fused: dict[Key, Fused], flt: FactFilter, links: Links, *, include_messages: bool, tuning: LinkTuning
) -> None:
    """Add (or lift) the answers to the strongest question candidates in `fused`, then the continuations of the
    strongest candidates (the speaker's next turn), in place. `links` may hold links looked up earlier: only the
    candidates it lacks are looked up."""
    reply, after = (tuning.reply_factor, tuning.reply_top), (tuning.next_factor, tuning.next_top)
    _follow(fused, flt, links, "answer", *reply, include_messages=include_messages)
    _follow(fused, flt, links, "own", *after, include_messages=include_messages)


def _follow(
    fused: dict[Key, Fused],
    flt: FactFilter,
    links: Links,
    link: str,
    factor: float,
    top_n: int,
    *,
    include_messages: bool,
) -> None:
    """Add (or lift) the messages of kind `link` linked to the `top_n` strongest candidates, and their facts."""
    if factor <= 0 or top_n <= 0 or not fused:
        return
    head = sorted(fused.values(), key=lambda f: (-f.score, f.key[0], f.key[1]))[:top_n]
    # A candidate only the vector found is a weak link already: what follows it would be a guess about a guess
    # (and, with no similarity of its own, would fall under the vector-only cut in search). Skipped.
    head = [f for f in head if f.matched_by != ["vector"]]
    links.fetch([f.key for f in head], flt)
    linked = links.answer if link == "answer" else links.own
    rows = sorted(
        (
            (answer_id, -1 if fact_id is None else fact_id, f.key, f)
            for f in head
            for answer_id, fact_id in linked[f.key]
        ),
        key=lambda row: row[:3],
    )
    if not rows:
        return
    parent_of: dict[int, Fused] = {}  # linked message id -> the strongest candidate pointing at it
    facts_of: dict[int, set[int]] = {}  # linked message id -> its searchable facts
    for answer_id, fact_id, _, parent in rows:
        best = parent_of.get(answer_id)
        if best is None or parent.score > best.score:
            parent_of[answer_id] = parent
        if fact_id >= 0:
            facts_of.setdefault(answer_id, set()).add(fact_id)
    targets: list[tuple[Key, Fused]] = []
    if include_messages:
        targets += [(("message", mid), parent) for mid, parent in parent_of.items()]
    targets += [(("fact", fact_id), parent_of[mid]) for mid in sorted(facts_of) for fact_id in sorted(facts_of[mid])]
    for key, parent in targets:
        if key == parent.key:
            continue
        score, strength = parent.score * factor, parent.strength * factor
        item = fused.get(key)
        if item is None:
            fused[key] = Fused(key=key, score=score, matched_by=list(parent.matched_by), strength=strength)
        elif score > item.score:
            item.score, item.strength = score, max(item.strength, strength)
            item.matched_by = list(dict.fromkeys([*item.matched_by, *parent.matched_by]))
