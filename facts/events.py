"""Webhook events of the facts app: after a write commits, the webhooks are told which subject's change log grew.

The change log (FactHistory) is the source of the events: the integrations app's collector reads a subject's rows
after the ones it has read, in id order, which is commit order under the subject's row lock, and turns them into
fact.created, fact.updated, fact.superseded, fact.forgotten and conflict.opened. This module only says when to look,
with ids, and only to a tenant that has an endpoint listening (so ingest pays nothing for webhooks it has none of).
"""

from __future__ import annotations

from memory_site.events import task_send_on_commit, tenant_listens

FACT_EVENTS = ("fact.created", "fact.updated", "fact.superseded", "fact.forgotten", "conflict.opened")
COLLECT_TASK = "integrations.webhooks.tasks.subject_events_collect_task"


def event_emit(*, tenant_id: int, subject_id: int) -> None:
    """The subject's change log grew in this transaction: collect its events once it commits (call per history row)."""
    if tenant_listens(tenant_id=tenant_id, events=FACT_EVENTS):
        task_send_on_commit(COLLECT_TASK, subject_id)
