"""The portal's writes: pausing memory, and exports built by a worker with their progress and expiry."""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import InterfaceError, OperationalError, transaction
from django.utils import timezone

from conversations.models import Subject
from conversations.services import subject_set_paused
from facts.models import Actor
from facts.services.subject_data import access_log_record
from memory_site.errors import job_error
from policies.models import ExportJob
from policies.portal.export import EXPORTERS, export_total

logger = logging.getLogger(__name__)

EXPORT_TASK = "policies.portal.tasks.export_job_run_task"
# The progress bar moves at most this often (rows between two updates of the job's row).
PROGRESS_EVERY = 500


def subject_memory_pause(*, subject: Subject, paused: bool) -> Subject:
    """Pause (no new facts, summaries or profile from what is said until resumed) or resume memory.

    Race: the update waits for the subject's row lock, which extraction holds while it writes facts; a batch
    that took the lock first finishes, every later one sees the pause.
    """
    with transaction.atomic():
        locked = Subject.objects.select_for_update().get(pk=subject.pk)
        if locked.memory_paused != paused:
            subject_set_paused(subject=locked, paused=paused)
    subject.memory_paused = paused
    return subject


def export_job_create(*, subject: Subject, format: str) -> ExportJob:
    """Queue an export of everything about the subject; a worker builds it (export_job_run)."""
    with transaction.atomic():
        job = ExportJob.objects.create(
            tenant_id=subject.tenant_id,
            subject=subject,
            format=format,
            total=export_total(subject=subject, format=format),
        )
        access_log_record(subject=subject, operation=f"export:{format}", actor=Actor.END_USER, actor_id="portal")
        transaction.on_commit(lambda: current_app.send_task(EXPORT_TASK, args=[job.pk]))
    return job


def export_job_run(*, export_id: int) -> bool:
    """Build a queued export, updating its progress; False when there is nothing to do (run twice, erased).

    Claimed with a conditional update (pending -> running), so a redelivered task builds nothing twice. The
    subject's erasure meanwhile deletes the row: every later update then changes nothing and the file is dropped.
    """
    claimed = ExportJob.objects.filter(pk=export_id, state=ExportJob.State.PENDING).update(
        state=ExportJob.State.RUNNING, started_at=timezone.now()
    )
    job = ExportJob.objects.select_related("subject").filter(pk=export_id).first()
    if claimed != 1 or job is None:
        return False
    last = [0]

    def progress(done: int, total: int) -> None:
        if done - last[0] >= PROGRESS_EVERY or done == total:
            last[0] = done
            ExportJob.objects.filter(pk=export_id).update(done=done, total=total)

    try:
        content = b"".join(EXPORTERS[job.format](subject=job.subject, progress=progress))
    except (OperationalError, InterfaceError):
        # The database went away for a moment: pending again, for the task's retry to claim.
        ExportJob.objects.filter(pk=export_id, state=ExportJob.State.RUNNING).update(state=ExportJob.State.PENDING)
        raise
    except Exception as exc:
        logger.exception("export %s failed", export_id)
        export_job_fail(export_id=export_id, error=job_error(exc))
        raise
    now = timezone.now()
    ExportJob.objects.filter(pk=export_id, state=ExportJob.State.RUNNING).update(
        state=ExportJob.State.DONE, content=content, size=len(content), done=last[0], finished_at=now,
        expires_at=now + dt.timedelta(minutes=settings.EXPORT_TTL_MINUTES),
    )  # fmt: skip
    return True


def export_job_fail(*, export_id: int, error: str) -> None:
    ExportJob.objects.filter(pk=export_id).exclude(state=ExportJob.State.DONE).update(
        state=ExportJob.State.FAILED, error=error[:255], finished_at=timezone.now(), content=None
    )


def exports_purge_expired(*, now: dt.datetime | None = None) -> int:
    """Delete the exports whose download link expired (their files with them); return how many."""
    deleted, _ = ExportJob.objects.filter(expires_at__lte=now or timezone.now()).delete()
    return deleted


def export_download(*, job: ExportJob) -> tuple[bytes, dict[str, Any]] | None:
    """The export's bytes if it is done and its link has not expired, else None."""
    if job.state != ExportJob.State.DONE or job.expires_at is None or job.expires_at <= timezone.now():
        return None
    content = ExportJob.objects.filter(pk=job.pk).values_list("content", flat=True).first()
    return (bytes(content), {"size": job.size}) if content is not None else None
