"""The time signal: what falls inside the time a query names ("on 2 May", "last week", "上周")."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from facts.retrieval.fusion import Fused, FusionTuning, add_match
from facts.retrieval.scope import FactFilter, Key, Ranking, fetch


def time_facts(flt: FactFilter, since: dt.datetime, until: dt.datetime, *, limit: int) -> list[tuple[int, float]]:
    """Facts whose time (event, validity or creation) falls in the query's time range, latest first."""
    where, params = flt.sql()
    rows = fetch(
        f"SELECT id, COALESCE(event_time, valid_from, created_at) AS t FROM facts_fact WHERE {where} "
        "AND COALESCE(event_time, valid_from, created_at) >= %s AND COALESCE(event_time, valid_from, created_at) < %s "
        "ORDER BY t DESC, id LIMIT %s",
        [*params, since, until, limit],
    )
    return [(int(pk), 1.0) for pk, _ in rows]


def time_ranking(nearest: Ranking, in_range: Ranking) -> Ranking:
    """The time signal's list once the query's vector is known: every candidate inside the range counts as a full
    time match (1.0); those nearest to the query (vector.nearest_in_range) first, then the rest, latest first."""
    seen = {key for key, _ in nearest}
    return [(key, 1.0) for key, _ in nearest] + [(key, 1.0) for key, _ in in_range if key not in seen]


def mark_in_range(
    fused: dict[Key, Fused],
    row_of: Callable[[Key], dict[str, Any] | None],
    since: dt.datetime,
    until: dt.datetime,
    *,
    time_list_len: int,
    tuning: FusionTuning,
) -> None:
    """A candidate another signal found whose time falls in the query's range also counts as a time match, as if
    ranked right after the time list."""
    for key, item in fused.items():
        if "time" in item.matched_by:
            continue
        row = row_of(key)
        if row is None:
            continue
        when = row.get("event_time") or row.get("valid_from") or row.get("created_at")
        if when is not None and since <= when < until:
            add_match(item, "time", rank=time_list_len + 1, tuning=tuning)
