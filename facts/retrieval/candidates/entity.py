"""The entity signal: exact matches of the names, ids and numbers a query holds, and of the slots it names.

"我的狗" names the pet slot: a fact holding any pet:<name> slot is an entity match even when it shares no word with
the query ("狗" and "柯基"), also at cold start when the vector is skipped.
"""

from __future__ import annotations

from dataclasses import dataclass

from facts.retrieval.scope import FactFilter, Ranking, fetch, keyed, merged


@dataclass(frozen=True)
class EntityTuning:
    # An entity on more than this share of the subject's facts (at least 3), such as the user's own name or a
    # speaker, tells nothing apart: it selects no candidates (the re-rank's named boost still uses it).
    max_share: float = 0.05
    max_rows: int = 3000  # matching rows counted per query (the first by id), as for keywords


def entity_facts(
    flt: FactFilter, entities: list[str], *, limit: int, total: int, tuning: EntityTuning
) -> list[tuple[int, float]]:
    """Exact entity and slot matches (entity_keys, keywords, subject_entity / object_value), ranked by BM25 with
    every length 1: rare entities weigh more. All in PostgreSQL, only the best `limit` rows come back."""
    if not entities:
        return []
    where, params = flt.sql()
    n = range(len(entities))
    flags = ", ".join(
        f"COALESCE(%s = ANY(entity_keys) OR %s = ANY(keywords) OR lower(subject_entity) = %s "
        f"OR lower(object_value) = %s, false) AS f{i}"
        for i in n
    )
    kept = " OR ".join(f"(m.f{i} AND d.k{i})" for i in n)
    idf = " + ".join(
        f"CASE WHEN m.f{i} AND d.k{i} THEN ln(1 + (c.n - d.d{i} + 0.5) / (d.d{i} + 0.5)) ELSE 0 END" for i in n
    )
    cap = max(3.0, tuning.max_share * max(total, 1))
    rows = fetch(
        f"WITH m AS MATERIALIZED (SELECT id, {flags} FROM facts_fact WHERE {where} AND (entity_keys && %s::varchar[] "
        "OR keywords && %s::varchar[] OR lower(subject_entity) = ANY(%s) OR lower(object_value) = ANY(%s)) "
        "ORDER BY id LIMIT %s), "
        f"d AS (SELECT {', '.join(f'sum(f{i}::int)::float8 AS d{i}' for i in n)} FROM m), "
        f"d2 AS (SELECT *, {', '.join(f'd{i} <= %s AS k{i}' for i in n)} FROM d) "
        f"SELECT m.id, ({idf}) AS score FROM m, d2 d, "
        f"(SELECT GREATEST(%s, count(*))::float8 AS n FROM m, d2 d WHERE {kept}) c "
        f"WHERE {kept} ORDER BY score DESC, m.id LIMIT %s",
        [
            *[e for e in entities for _ in range(4)], *params, entities, entities, entities, entities,
            tuning.max_rows, *[cap] * len(entities), total, limit,
        ],
    )  # fmt: skip
    return [(int(pk), float(score)) for pk, score in rows if score and score > 0]


def slot_facts(flt: FactFilter, predicates: list[str], *, limit: int) -> list[tuple[int, float]]:
    """Facts holding a slot the query names (predicate, or a prefix ending in ":" such as "pet:"), newest first."""
    if not predicates:
        return []
    exact = [p for p in predicates if not p.endswith(":")]
    prefixes = [p.replace("%", r"\%").replace("_", r"\_") + "%" for p in predicates if p.endswith(":")]
    # One LIKE per prefix (LIKE ANY(array) is no index condition): each is a range of the slot index, whose
    # pattern ops make it one in any collation. (LIKE ANY read all of a subject's rows: 17 ms for 10k facts.)
    matches = ["predicate = ANY(%s)"] * bool(exact) + ["predicate LIKE %s"] * len(prefixes)
    where, params = flt.sql()
    rows = fetch(
        f"SELECT id FROM facts_fact WHERE {where} AND ({' OR '.join(matches)}) "
        "ORDER BY valid_from DESC NULLS LAST, id DESC LIMIT %s",
        [*params, *([exact] if exact else []), *prefixes, limit],
    )
    return [(int(r[0]), 1.0) for r in rows]


def entity_ranking(
    flt: FactFilter, entities: list[str], slots: list[str], *, limit: int, total: int, tuning: EntityTuning
) -> Ranking:
    """The entity signal's list: entity matches, then the facts holding a named slot that are not among them, each
    at the best entity match's score (an exact slot match counts as an entity match)."""
    found = keyed("fact", entity_facts(flt, entities, limit=limit, total=total, tuning=tuning))
    if slots:
        seen = {key for key, _ in found}
        top = max((score for _, score in found), default=1.0)
        found += [
            (("fact", pk), top * score) for pk, score in slot_facts(flt, slots, limit=limit) if ("fact", pk) not in seen
        ]
    return merged(found)
