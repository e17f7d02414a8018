"""A fact's value score, explainable: the parts it is made of, computed by PostgreSQL over ranges of rows.

    value = 1                                                       if pinned (an explicit "remember this")
          = (0.40 importance + 0.15 mentions + 0.20 reads + 0.25 feedback) x decay     otherwise

- importance: the mean of the fact's own importance and its type's (TYPE_IMPORTANCE);
- mentions:   1 - 1 / (1 + (mention_count - 1) / 2): said once 0, twice 0.33, five times 0.67;
- reads:      ln(1 + access_count) / ln(21), at most 1 (20 reads count as often read);
- feedback:   (useful + 1) / (useful + not_useful + 2): no rating 0.5, rated useful only -> 1;
- decay:      0.5 ^ (days since the fact was last read, or created, / the policy's half-life).

An explicit forget removes the fact (it has no score). The score is stored rounded to 2 decimals beside the
fact's read counters (`facts_factaccess.value_score`, a narrow row: storing it never rewrites the wide fact row; a
fact without a row has the default 0.5), so a rescoring pass writes only the rows whose score moved; `value_parts`
recomputes the parts of one fact for the admin. The SQL is one expression list, used by both.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import connection

from facts.models import VALUE_SCORE_DEFAULT, FactType

# A type's share of importance: what describes the person lasts; a passing question does not.
TYPE_IMPORTANCE: dict[str, float] = {
    FactType.HEALTH: 0.9, FactType.LEGAL: 0.9, FactType.PROFILE: 0.8, FactType.RELATIONSHIP: 0.8,
    FactType.PREFERENCE: 0.7, FactType.COMMITMENT: 0.7, FactType.DECISION: 0.7, FactType.COMPLAINT: 0.6,
    FactType.EVENT: 0.5, FactType.OTHER: 0.4, FactType.INQUIRY: 0.3,
}  # fmt: skip
WEIGHTS = {"importance": 0.40, "mentions": 0.15, "reads": 0.20, "feedback": 0.25}
DEFAULT_HALF_LIFE_DAYS = 90.0


def parts_sql(
    *,
    fact: str = "f",
    access: str = "a",
    half_life: str = "r.half_life",
    type_importance: str = "r.ti",
    score_only: bool = False,
) -> str:
    """The SELECT list of the parts and the score, for a row `fact` left-joined to its reads `access`; `%(now)s`
    is the clock (a named parameter) and `half_life` / `type_importance` columns of the policy row. `score_only`:
    the score alone (the lifecycle pass's read: the same expression, no parts to carry along)."""
    w = WEIGHTS
    last_touch = f"GREATEST({fact}.created_at, COALESCE({access}.last_accessed_at, {fact}.created_at))"
    age_days = f"GREATEST(0, EXTRACT(EPOCH FROM (%(now)s - {last_touch})) / 86400.0)"
    p_importance = f"(({fact}.importance + {type_importance}) / 2.0)"
    p_mentions = f"(1 - 1 / (1 + GREATEST({fact}.mention_count - 1, 0) / 2.0))"
    p_reads = f"LEAST(1.0, LN(1 + COALESCE({access}.access_count, 0)) / LN(21))"
    p_feedback = f"(({fact}.useful_count + 1.0) / ({fact}.useful_count + {fact}.not_useful_count + 2.0))"
    p_decay = f"POWER(0.5, {age_days} / {half_life})"
    raw = (
        f"({w['importance']} * {p_importance} + {w['mentions']} * {p_mentions} + {w['reads']} * {p_reads} "
        f"+ {w['feedback']} * {p_feedback}) * {p_decay}"
    )
    score = f"(CASE WHEN {fact}.pinned THEN 1.0 ELSE ROUND(({raw})::numeric, 2)::float8 END)"
    if score_only:
        return f"{score} AS score"
    return (
        f"{p_importance}::float8 AS p_importance, {p_mentions}::float8 AS p_mentions, {p_reads}::float8 AS p_reads, "
        f"{p_feedback}::float8 AS p_feedback, {p_decay}::float8 AS p_decay, {age_days}::float8 AS age_days, "
        f"{score} AS score"
    )


def value_parts(*, fact_id: int, half_life_days: float, now: dt.datetime) -> dict[str, Any] | None:
    """The parts of one fact's value score as the lifecycle pass computes them (None when no such fact)."""
    sql = (
        f"SELECT COALESCE(a.value_score, {VALUE_SCORE_DEFAULT}) AS value_score, f.pinned, {parts_sql(half_life='%(half_life)s', type_importance='%(ti)s')} "
        "FROM facts_fact f LEFT JOIN facts_factaccess a ON a.fact_id = f.id WHERE f.id = %(id)s"
    )
    with connection.cursor() as cursor:
        cursor.execute("SELECT type FROM facts_fact WHERE id = %s", [fact_id])
        found = cursor.fetchone()
        if found is None:
            return None
        type_importance = TYPE_IMPORTANCE.get(found[0], 0.4)
        params: dict[str, Any] = {"now": now, "half_life": half_life_days, "ti": type_importance, "id": fact_id}
        cursor.execute(sql, params)
        row = cursor.fetchone()
        names = [c.name for c in cursor.description]
    parts = dict(zip(names, row, strict=True))
    parts["half_life_days"] = half_life_days
    parts["type_importance"] = type_importance
    parts["weights"] = WEIGHTS
    return parts
