"""Worker heartbeats: each Celery worker says it is alive, and when it last finished a task, in a small table.

Written by the worker (signals below, connected when the Celery app loads), read by `/healthz` and by `serve`'s
watchdog. A worker that is alive but takes no task (its consumer stalled) keeps `alive_at` fresh while
`task_finished_at` ages: the health check tells that apart from a worker that is gone.
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
import time
from dataclasses import dataclass
from typing import Any

from celery.signals import task_postrun, worker_ready, worker_shutdown

logger = logging.getLogger(__name__)

# A pool process records a finished task at most this often: the health check's thresholds are minutes.
_TASK_WRITE_EVERY = 1.0
_last_task_write = 0.0
_stop = threading.Event()


def _queue(app: Any) -> str:
    return str(app.conf.task_default_queue)


def record(*, hostname: str, queue: str, task_finished: bool) -> None:
    """Upsert this worker's row: alive now, and (after a task) a task finished now."""
    from django.utils import timezone

    from memory_site.models import WorkerHeartbeat

    now = timezone.now()
    row = WorkerHeartbeat(hostname=hostname[:255], queue=queue[:255], alive_at=now)
    fields = ["queue", "alive_at"]
    if task_finished:
        row.task_finished_at = now
        fields.append("task_finished_at")
    WorkerHeartbeat.objects.bulk_create([row], update_conflicts=True, unique_fields=["hostname"], update_fields=fields)


def _write_safely(**kwargs: Any) -> None:
    from django.db import DatabaseError, connection

    try:
        record(**kwargs)
    except DatabaseError as exc:  # the database is away for a moment: the next beat tries again
        logger.warning("worker heartbeat not written: %s", type(exc).__name__)
        connection.close()


@worker_ready.connect
def _start_beating(sender: Any = None, **_: Any) -> None:
    """In the worker's main process: write `alive_at` every WORKER_HEARTBEAT_SECONDS until it stops."""
    from django.conf import settings

    hostname, queue = sender.hostname, _queue(sender.app)
    interval = settings.WORKER_HEARTBEAT_SECONDS

    def beat() -> None:
        from django.db import DatabaseError, connection

        try:  # rows of workers gone for a day (killed, so they never removed theirs) are no one's
            _forget_silent_workers(queue)
        except DatabaseError:
            connection.close()
        while not _stop.is_set():
            _write_safely(hostname=hostname, queue=queue, task_finished=False)
            _stop.wait(interval)
        connection.close()

    _stop.clear()
    threading.Thread(target=beat, name="worker-heartbeat", daemon=True).start()


def _forget_silent_workers(queue: str) -> None:
    from django.utils import timezone

    from memory_site.models import WorkerHeartbeat

    WorkerHeartbeat.objects.filter(queue=queue, alive_at__lt=timezone.now() - dt.timedelta(days=1)).delete()


@worker_shutdown.connect
def _stop_beating(sender: Any = None, **_: Any) -> None:
    """A worker that stops says so at once: no wait for its heartbeat to age."""
    from django.db import DatabaseError

    from memory_site.models import WorkerHeartbeat

    _stop.set()
    if sender is None:
        return
    try:
        WorkerHeartbeat.objects.filter(hostname=sender.hostname).delete()
    except DatabaseError:
        logger.warning("worker heartbeat not removed")


@task_postrun.connect
def _task_finished(sender: Any = None, **_: Any) -> None:
    """In the process that ran the task (a pool process): record that a task finished, at most once a second."""
    global _last_task_write
    now = time.monotonic()
    if sender is None or now - _last_task_write < _TASK_WRITE_EVERY:
        return
    _last_task_write = now
    hostname = sender.request.hostname or "unknown"
    _write_safely(hostname=hostname, queue=_queue(sender.app), task_finished=True)


@dataclass(frozen=True)
class WorkersState:
    alive: int  # workers on the queue seen within 3 heartbeats
    last_task_seconds: float | None  # since any worker on the queue last finished a task; None: never


def workers_state(*, queue: str) -> WorkersState:
    """The workers on `queue` as their heartbeats tell it."""
    from django.conf import settings
    from django.utils import timezone

    from memory_site.models import WorkerHeartbeat

    now = timezone.now()
    rows = list(WorkerHeartbeat.objects.filter(queue=queue).values_list("alive_at", "task_finished_at"))
    fresh = now - dt.timedelta(seconds=3 * settings.WORKER_HEARTBEAT_SECONDS)
    finished = [t for _, t in rows if t is not None]
    return WorkersState(
        alive=sum(1 for alive_at, _ in rows if alive_at >= fresh),
        last_task_seconds=(now - max(finished)).total_seconds() if finished else None,
    )
