"""Celery tasks of the portal (registered through CELERY_IMPORTS): take primary keys, call a service."""

from __future__ import annotations

from typing import Any

from celery import Task, shared_task
from django.db import InterfaceError, OperationalError

from memory_site.errors import job_error
from policies.portal.services import export_job_fail, export_job_run, exports_purge_expired


class ExportTask(Task):
    """A final failure is recorded on the export, so its progress page says so instead of waiting forever."""

    def on_failure(self, exc: BaseException, task_id: str, args: Any, kwargs: Any, einfo: Any) -> None:
        export_id = kwargs.get("export_id") or (args[0] if args else None)
        if export_id is not None:
            export_job_fail(export_id=int(export_id), error=job_error(exc))


@shared_task(
    base=ExportTask,
    name="policies.portal.tasks.export_job_run_task",
    acks_late=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=True,
    max_retries=3,
    # A large history takes longer than the default limits; the export streams, so memory stays flat.
    soft_time_limit=1800,
    time_limit=1900,
)
def export_job_run_task(export_id: int) -> bool:
    """Build one export (idempotent: only a pending export is claimed)."""
    return export_job_run(export_id=export_id)


@shared_task(name="policies.portal.tasks.exports_purge_task", acks_late=True)
def exports_purge_task() -> int:
    """Hourly: delete exports whose download link expired."""
    return exports_purge_expired()
