"""From the facts' change log to webhook events: which history rows are which events, and what each one says.

Texts come from the history row, as they were at the change (a fact forgotten since has its texts blanked there
already, so none is sent). Ids only for forgotten facts.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from facts.models import Conflict, Fact, FactHistory
from integrations.webhooks.models import Event

H = FactHistory.Event
HISTORY_EVENTS: dict[str, str] = {
    H.CREATED: Event.FACT_CREATED,
    H.CORRECTED: Event.FACT_UPDATED,
    H.UPDATED: Event.FACT_UPDATED,
    H.PINNED: Event.FACT_UPDATED,
    H.ARCHIVED: Event.FACT_UPDATED,
    H.RESTORED: Event.FACT_UPDATED,
    H.SUPERSEDED: Event.FACT_SUPERSEDED,
    H.FORGOTTEN: Event.FACT_FORGOTTEN,
    H.CONFLICTED: Event.CONFLICT_OPENED,
}


@dataclass
class Change:
    """One event of a subject, before it is addressed to any endpoint."""

    event: str
    dedupe_key: str
    created_at: dt.datetime
    data: dict[str, Any]
    fact_uids: list[str] = field(default_factory=list)
    forgotten_uid: str | None = None


class _Facts:
    """Fact ids and types by uid, read once for a batch of history rows (a forgotten fact's id from its
    forgotten row)."""

    def __init__(self, rows: list[FactHistory]) -> None:
        uids = {str(r.fact_uid) for r in rows}
        for r in rows:
            for key in ("by", "with"):
                if isinstance(r.data.get(key), str):
                    uids.add(r.data[key])
        self.by_uid: dict[str, tuple[int | None, str | None]] = {
            str(uid): (pk, type_)
            for pk, uid, type_ in Fact.objects.filter(uid__in=uids).values_list("pk", "uid", "type")
        }
        missing = uids - set(self.by_uid)
        if missing:
            gone = FactHistory.objects.filter(fact_uid__in=missing, event=H.FORGOTTEN).values_list("fact_uid", "data")
            for uid, data in gone:
                self.by_uid[str(uid)] = (data.get("fact_id"), None)

    def ref(self, uid: str, text: str | None = None, *, with_text: bool = True) -> dict[str, Any]:
        pk, type_ = self.by_uid.get(uid, (None, None))
        out: dict[str, Any] = {"id": pk, "uid": uid, "type": type_}
        if with_text:
            out["text"] = text or None  # blank: forgotten since
        return out


def changes_from_history(rows: list[FactHistory]) -> list[Change]:
    """The events these rows of one subject make, in order (a conflict once, though both its facts log it)."""
    facts = _Facts(rows)
    conflicts = {
        c.pk: c
        for c in Conflict.objects.filter(pk__in=[r.data.get("conflict_id") for r in rows if r.event == H.CONFLICTED])
    }
    out: list[Change] = []
    announced: set[int] = set()
    data: dict[str, Any]
    for row in rows:
        event = HISTORY_EVENTS.get(row.event)
        if event is None:
            continue  # merged, resolved: not an event anyone subscribes to
        uid = str(row.fact_uid)
        key = f"history:{row.pk}"
        if event == Event.FACT_CREATED:
            out.append(Change(event, key, row.created_at, {"fact": facts.ref(uid, row.after_text)}, [uid]))
        elif event == Event.FACT_UPDATED:
            fact = {**facts.ref(uid, row.after_text), "previous_text": row.before_text or None}
            changed = row.data.get("changed")
            data = {"fact": fact, "change": row.event, "changed": sorted(changed) if isinstance(changed, dict) else []}
            out.append(Change(event, key, row.created_at, data, [uid]))
        elif event == Event.FACT_SUPERSEDED:
            by = row.data.get("by")
            data = {
                "fact": facts.ref(uid, row.before_text),
                "superseded_by": facts.ref(by, row.after_text) if isinstance(by, str) else None,
                "conflict_id": row.data.get("conflict_id"),
            }
            out.append(Change(event, key, row.created_at, data, [uid] + ([by] if isinstance(by, str) else [])))
        elif event == Event.FACT_FORGOTTEN:
            data = {"fact": facts.ref(uid, with_text=False) | {"id": row.data.get("fact_id")}}
            out.append(Change(event, key, row.created_at, data, [uid], forgotten_uid=uid))
        else:
            conflict = conflicts.get(row.data.get("conflict_id"))  # type: ignore[arg-type]
            if conflict is None or conflict.pk in announced:
                continue
            announced.add(conflict.pk)
            other = row.data.get("with") if isinstance(row.data.get("with"), str) else None
            pair = [facts.ref(uid, row.before_text)] + ([facts.ref(other, row.after_text)] if other else [])
            data = {"conflict": {"id": conflict.pk, "kind": conflict.kind, "reason": conflict.reason}, "facts": pair}
            out.append(Change(event, f"conflict:{conflict.pk}", row.created_at, data, [f["uid"] for f in pair]))
    return out


def payload_scrub(payload: Any, uid: str) -> Any:
    """The payload with the texts of fact `uid` removed wherever it appears (the fact was forgotten)."""
    if isinstance(payload, list):
        return [payload_scrub(item, uid) for item in payload]
    if not isinstance(payload, dict):
        return payload
    out = {key: payload_scrub(value, uid) for key, value in payload.items()}
    if out.get("uid") == uid:
        for key in ("text", "previous_text"):
            if key in out:
                out[key] = None
    return out
