"""As-of recall: facts as they were true at a moment (valid time), and as the memory held them at a moment
(transaction time), both as SQL over one row of facts_fact.

Valid time: a fact holds from `valid_from` (the message's time, or the time it names) until `valid_to` (set when a
newer value superseded it). A superseded fact answers for its period: "where did I live in February?" finds the
address a March move replaced.

Transaction time: the memory learnt a fact when it was told, i.e. at its earliest source message's `created_at`
(the conversation's own clock, client-supplied when replayed), or at the fact's own creation when no message
carries it (written through the API). It learnt that the fact stopped holding when the fact that superseded it
was learnt (FactHistory's `superseded` event names it in `data.by`; without one, the event's own time). So with
`known_at`, a fact learnt later is absent, and one superseded later is still open.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

# When the memory learnt the fact of row `f` (an SQL expression over a fact's columns, aliased `f`).
_KNOWN_FROM = (
    "COALESCE((SELECT min(m.created_at) FROM facts_factsource fs JOIN conversations_message m ON m.id = fs.message_id "
    "WHERE fs.fact_id = {f}.id), {f}.created_at)"
)
# When the memory learnt that the fact of facts_fact's current row stopped holding (NULL: it did not).
_KNOWN_ENDED = (
    "(SELECT min(COALESCE(" + _KNOWN_FROM.format(f="b") + ", h.created_at)) FROM facts_facthistory h "
    "LEFT JOIN facts_fact b ON b.uid::text = h.data->>'by' "
    "WHERE h.fact_uid = facts_fact.uid AND h.event = 'superseded')"
)
KNOWN_FROM = _KNOWN_FROM.format(f="facts_fact")


def clause(*, as_of: dt.datetime | None, known_at: dt.datetime | None) -> tuple[str, list[Any]]:
    """The WHERE clause (and params) of the facts valid at `as_of` as known at `known_at` (either may be None)."""
    clauses: list[str] = []
    params: list[Any] = []
    valid_to = "valid_to"
    if known_at is not None:
        clauses.append(f"{KNOWN_FROM} <= %s")
        params.append(known_at)
        # A supersession learnt after known_at had not closed the fact yet.
        valid_to = f"(CASE WHEN valid_to IS NOT NULL AND {_KNOWN_ENDED} <= %s THEN valid_to END)"
        params_valid_to: list[Any] = [known_at]
    else:
        params_valid_to = []
    if as_of is not None:
        clauses.append(f"COALESCE(valid_from, created_at) <= %s AND ({valid_to} IS NULL OR {valid_to} > %s)")
        params.extend([as_of, *params_valid_to, *params_valid_to, as_of])
    elif known_at is not None:
        # What the memory held at known_at as then current: not yet closed by then.
        clauses.append(f"{valid_to} IS NULL")
        params.extend(params_valid_to)
    return " AND ".join(f"({c})" for c in clauses), params
