"""Webhook events of the policies app: a subject's erasure, told (by task name, on commit, ids only) to the webhooks."""

from __future__ import annotations

from memory_site.events import task_send_on_commit, tenant_listens

ERASED_TASK = "integrations.webhooks.tasks.subject_erased_task"


def subject_erased_emit(*, tenant_id: int, external_id: str, erasure_id: int) -> None:
    """Announce the erasure once it commits: the task gets the receipt's id and the user's id (the subject row is
    gone by then), never anything the user said."""
    if tenant_listens(tenant_id=tenant_id, events=("subject.erased",)):
        task_send_on_commit(ERASED_TASK, erasure_id, tenant_id, external_id)
