"""Reads of the lifecycle jobs over one tenant's facts, a range of primary keys at a time (never every row at once).

The rules come from the policies app as `TypeRule`s (one per fact type: the tenant's policy or the shipped default);
`rows_cte` is the SQL both the reads here and the moves of facts.services.tiers start from: the range's facts of
subjects whose memory is not paused, each with its type's rule, its reads and its value score (facts.value); the
batch's read returns the scores to store, so rescoring reads nothing again.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import connection

from facts.models import VALUE_SCORE_DEFAULT
from facts.value import TYPE_IMPORTANCE, parts_sql


@dataclass(frozen=True)
class TypeRule:
    """What a retention policy says about one fact type; `label` names the policy in history and reports."""

    type: str
    label: str
    archive_after_days: int | None = None
    drop_vector_after_days: int | None = None
    delete_after_days: int | None = None
    min_value_to_keep: float = 0.0
    half_life_days: float = 90.0


@dataclass(frozen=True)
class Scope:
    """One batch: a tenant's facts with lo <= id < hi, judged at `now`; subjects below `cold_start` searchable facts
    keep their facts in the active tier (the search's cold-start rule: a handful of facts is never thinned)."""

    tenant_id: int
    lo: int
    hi: int
    now: dt.datetime
    rules: Sequence[TypeRule]
    cold_start: int = 5
    ids: tuple[int, ...] = ()  # only these facts of the range (the writes, after the read: rows_cte(by_ids=True))

    def params(self) -> dict[str, Any]:
        rules = list(self.rules)
        return {
            "tenant": self.tenant_id, "lo": self.lo, "hi": self.hi, "now": self.now, "cold": self.cold_start,
            "ids": list(self.ids),
            "r_type": [r.type for r in rules], "r_label": [r.label for r in rules],
            "r_archive": [r.archive_after_days for r in rules], "r_drop": [r.drop_vector_after_days for r in rules],
            "r_delete": [r.delete_after_days for r in rules], "r_min": [float(r.min_value_to_keep) for r in rules],
            "r_half": [float(r.half_life_days) for r in rules],
            "r_ti": [TYPE_IMPORTANCE.get(r.type, 0.4) for r in rules],
        }  # fmt: skip


def rows_cte(*, by_ids: bool = False) -> str:
    """`WITH r (rules), x (the batch's rows with rule and score), warm (subjects past the cold start)`; `by_ids`:
    only the scope's `ids` (the writes), each looked up by its key rather than the whole range read and filtered."""
    # The reads' rows are looked up by the same keys as the facts' (never a scan of every fact's reads per batch).
    keys = "{0} = ANY(%(ids)s::bigint[])" if by_ids else "{0} >= %(lo)s AND {0} < %(hi)s"
    return (
        "WITH r AS (SELECT * FROM unnest(%(r_type)s::text[], %(r_label)s::text[], %(r_archive)s::int[], "
        "%(r_drop)s::int[], %(r_delete)s::int[], %(r_min)s::float8[], %(r_half)s::float8[], %(r_ti)s::float8[]) "
        "AS r(type, label, archive_days, drop_days, delete_days, min_value, half_life, ti)), "
        # Only the columns the conditions below and the writes of facts.services.tiers read (narrow: kept in memory).
        "x AS MATERIALIZED (SELECT f.id, f.subject_id, f.tier, f.pinned, f.created_at, f.updated_at, f.expires_at, "
        f"COALESCE(a.value_score, {VALUE_SCORE_DEFAULT}) AS value_score, (f.embedding IS NOT NULL) AS has_vector, "
        "a.last_accessed_at, GREATEST(f.created_at, COALESCE(a.last_accessed_at, f.created_at)) AS last_touch, "
        f"r.label, r.archive_days, r.drop_days, r.delete_days, r.min_value, {parts_sql(score_only=True)} "
        "FROM facts_fact f JOIN r ON r.type = f.type "
        "JOIN conversations_subject s ON s.id = f.subject_id AND NOT s.memory_paused "
        f"LEFT JOIN facts_factaccess a ON a.fact_id = f.id AND {keys.format('a.fact_id')} "
        f"WHERE f.tenant_id = %(tenant)s AND {keys.format('f.id')}), "
        # Per subject, its first `cold` searchable facts are enough to know (not a count of all of them).
        "warm AS (SELECT d.subject_id FROM (SELECT DISTINCT subject_id FROM x) d WHERE (SELECT count(*) FROM "
        "(SELECT 1 FROM facts_fact c WHERE c.subject_id = d.subject_id AND c.tier = 'active' "
        "AND c.status IN ('active', 'conflicted') LIMIT %(cold)s) k) >= %(cold)s) "
    )


# Conditions on a row of x, one per action (pinned facts are never moved by a policy).
EXPIRED = "NOT x.pinned AND x.expires_at IS NOT NULL AND x.expires_at <= %(now)s"
DELETE_DUE = (
    "NOT x.pinned AND x.delete_days IS NOT NULL AND x.created_at <= %(now)s - make_interval(days => x.delete_days)"
)
DROP_VECTOR_DUE = (
    "NOT x.pinned AND x.tier = 'active' AND x.has_vector AND x.drop_days IS NOT NULL "
    "AND x.created_at <= %(now)s - make_interval(days => x.drop_days) AND x.subject_id IN (SELECT subject_id FROM warm)"
)
ARCHIVE_UNREAD = "x.archive_days IS NOT NULL AND x.last_touch <= %(now)s - make_interval(days => x.archive_days)"
ARCHIVE_DUE = (
    f"NOT x.pinned AND x.tier = 'active' AND (({ARCHIVE_UNREAD}) OR x.score < x.min_value) "
    "AND x.subject_id IN (SELECT subject_id FROM warm)"
)
# Read after it was archived (a search with include_archived found it): its restore task may have been lost.
RESTORE_DUE = "x.tier = 'archived' AND x.last_accessed_at IS NOT NULL AND x.last_accessed_at > x.updated_at"
RESCORE_DUE = "x.score IS DISTINCT FROM x.value_score"


def _fetch(sql: str, params: dict[str, Any]) -> list[tuple[Any, ...]]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return list(cursor.fetchall())


def fact_id_bounds(*, tenant_id: int) -> tuple[int, int] | None:
    """The smallest and largest fact id of the tenant (None without facts)."""
    row = _fetch("SELECT min(id), max(id) FROM facts_fact WHERE tenant_id = %(t)s", {"t": tenant_id})[0]
    return None if row[0] is None else (int(row[0]), int(row[1]))


@dataclass
class BatchDue:
    """What one batch needs, read in one statement: fact ids (with their policy) per action, and the facts looked at."""

    scanned: int = 0
    expired: list[tuple[int, str]] = field(default_factory=list)
    deleted: list[tuple[int, str]] = field(default_factory=list)
    restored: list[tuple[int, str]] = field(default_factory=list)
    rescored: list[tuple[int, str]] = field(default_factory=list)
    scores: dict[int, float] = field(default_factory=dict)  # the score of each fact due for rescoring
    vectors_dropped: list[tuple[int, str]] = field(default_factory=list)
    archived: list[tuple[int, str]] = field(default_factory=list)


_FLAGS = {
    "expired": EXPIRED, "deleted": DELETE_DUE, "restored": RESTORE_DUE, "rescored": RESCORE_DUE,
    "vectors_dropped": DROP_VECTOR_DUE, "archived": ARCHIVE_DUE,
}  # fmt: skip


def batch_due(scope: Scope) -> BatchDue:
    """The batch's facts due for each action, from one read of its rows (a fact leaving is due for nothing else;
    one archived is not also stripped of its vector, archiving drops it)."""
    flags = ", ".join(f"({cond}) AS {name}" for name, cond in _FLAGS.items())
    any_due = " OR ".join(f"({cond})" for cond in _FLAGS.values())
    nothing = ", ".join(["false"] * len(_FLAGS))
    sql = (
        f"{rows_cte()} SELECT x.id, x.label, x.score, {flags} FROM x WHERE {any_due} "
        f"UNION ALL SELECT -1, count(*)::text, NULL, {nothing} FROM x ORDER BY 1"  # the first row: the facts looked at
    )
    out = BatchDue()
    rows = _fetch(sql, scope.params())
    out.scanned = int(rows[0][1])
    for pk, label, score, *due in rows[1:]:
        flagged = dict(zip(_FLAGS, due, strict=True))
        item = (int(pk), str(label))
        if flagged["expired"]:
            out.expired.append(item)
        elif flagged["deleted"]:
            out.deleted.append(item)
        else:
            for name in ("restored", "rescored", "archived"):
                if flagged[name]:
                    getattr(out, name).append(item)
            if flagged["rescored"]:
                out.scores[item[0]] = float(score)
            if flagged["vectors_dropped"] and not flagged["archived"]:
                out.vectors_dropped.append(item)
    return out


# --- consolidation: near-duplicate pairs among a subject's current facts ------------------------------------------


@dataclass(frozen=True)
class DuplicatePair:
    subject_id: int
    keep_id: int  # the older fact: it absorbs the other
    duplicate_id: int
    kind: str  # "slot" | "vector"
    similarity: float | None


# A fact's `updated_at` may be stamped by the application a moment before its transaction starts (and by another
# host's clock): facts changed this long before the mark still count as changed, in the subjects that changed.
CHANGED_FACT_SLACK = dt.timedelta(minutes=10)


def duplicate_pairs(
    *,
    tenant_id: int,
    subject_ids: Sequence[int],
    min_similarity: float,
    changed_since: dt.datetime | None = None,
    cold_start: int = 5,
) -> list[DuplicatePair]:
    """Pairs of a subject's active facts that say the same thing: the same slot value, or (past the cold start, as
    search's vector signal) vectors at least `min_similarity` alike, of one type, naming the same entities (two cats
    named Pixel1 and Pixel2 are alike as vectors, not the same fact). With `changed_since`, only pairs where one
    fact was created or changed since then (the nightly pass looks at what is new): each changed fact is looked up
    against its subject's facts, so the read grows with the changes, not with the subject. Each fact is in one pair
    at most; the older fact of a pair is the one kept."""
    since = None if changed_since is None else changed_since - CHANGED_FACT_SLACK
    params: dict[str, Any] = {"tenant": tenant_id, "subjects": list(subject_ids), "since": since,
                              "dist": 1 - min_similarity, "cold": cold_start}  # fmt: skip
    # p: a changed fact (any, without `since`); q: another active fact of its subject. A pair of two changed facts
    # is found from its older one only.
    changed = "(%(since)s::timestamptz IS NULL OR {0}.updated_at >= %(since)s)"
    base = (
        "FROM facts_fact p JOIN conversations_subject s ON s.id = p.subject_id AND NOT s.memory_paused "
        "JOIN facts_fact q ON q.subject_id = p.subject_id AND q.id <> p.id AND q.status = 'active' "
        f"AND (NOT {changed.format('q')} OR q.id > p.id) "
        "WHERE p.tenant_id = %(tenant)s AND p.subject_id = ANY(%(subjects)s) AND p.status = 'active' "
        f"AND {changed.format('p')}"
    )
    pair = "p.subject_id, LEAST(p.id, q.id), GREATEST(p.id, q.id)"
    slot_sql = (
        f"SELECT {pair}, 'slot', NULL::float8 {base} AND p.predicate <> '' AND q.predicate = p.predicate "
        "AND lower(q.subject_entity) = lower(p.subject_entity) "
        "AND lower(btrim(q.object_value)) = lower(btrim(p.object_value))"
    )
    vector_sql = (
        f"SELECT {pair}, 'vector', 1 - (p.embedding <=> q.embedding) {base} "
        "AND p.embedding IS NOT NULL AND q.embedding IS NOT NULL AND q.type = p.type "
        "AND cardinality(p.entity_keys) > 0 AND p.entity_keys @> q.entity_keys AND q.entity_keys @> p.entity_keys "
        "AND (p.embedding <=> q.embedding) <= %(dist)s AND (SELECT count(*) FROM (SELECT 1 FROM facts_fact c "
        "WHERE c.subject_id = p.subject_id AND c.tier = 'active' AND c.status IN ('active', 'conflicted') "
        "LIMIT %(cold)s) k) >= %(cold)s"
    )
    rows = _fetch(f"{slot_sql} UNION ALL {vector_sql} ORDER BY 1, 2, 3", params)
    seen: set[int] = set()
    out: list[DuplicatePair] = []
    for subject_id, keep, dup, kind, sim in rows:
        if keep in seen or dup in seen:  # one merge per fact per pass: the next pass sees the result
            continue
        seen.update((keep, dup))
        out.append(DuplicatePair(int(subject_id), int(keep), int(dup), kind, None if sim is None else float(sim)))
    return out


def consolidation_mark() -> dt.datetime:
    """The time from which changes are the next consolidation's work: the start of the oldest transaction still open
    on this database (what it writes is logged at its start and not visible yet), else now, by the database's clock
    as the change log's times are."""
    sql = (
        "SELECT LEAST(now(), min(xact_start)) FROM pg_stat_activity WHERE datname = current_database() "
        "AND backend_type = 'client backend' AND xact_start IS NOT NULL"
    )
    return _fetch(sql, {})[0][0]


def subjects_changed(*, tenant_id: int, since: dt.datetime) -> list[int]:
    """The tenant's subjects (memory not paused) whose facts changed since `since`, by the change log (facts 0010),
    ascending: the work of a consolidation after one at `since`."""
    sql = (
        "SELECT DISTINCT c.subject_id FROM facts_factchange c JOIN conversations_subject s ON s.id = c.subject_id "
        "WHERE s.tenant_id = %(t)s AND NOT s.memory_paused AND c.created_at >= %(since)s ORDER BY 1"
    )
    return [int(r[0]) for r in _fetch(sql, {"t": tenant_id, "since": since})]


def subjects_with_facts(*, tenant_id: int, after: int, limit: int) -> list[int]:
    """The tenant's subject ids above `after` that hold facts, ascending (consolidation walks subjects in ranges)."""
    sql = (
        "SELECT s.id FROM conversations_subject s WHERE s.tenant_id = %(t)s AND s.id > %(after)s "
        "AND NOT s.memory_paused AND EXISTS (SELECT 1 FROM facts_fact f WHERE f.subject_id = s.id) "
        "ORDER BY s.id LIMIT %(limit)s"
    )
    return [int(r[0]) for r in _fetch(sql, {"t": tenant_id, "after": after, "limit": limit})]
