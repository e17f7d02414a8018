"""Celery beat's scheduler: django-celery-beat's, plus jobs beat runs in its own process (BEAT_IN_PROCESS_JOBS).

A job that rescues the worker (re-enqueue messages left pending) must not be a task for that worker: when the
worker stalled, beat kept sending the sweep every minute and nothing ever ran it. Here beat runs the job itself,
needing only the database and the broker. Each job is a function named by its dotted path, called without
arguments every `every` seconds (the first time as beat starts: a restart rescues at once).
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.conf import settings
from django.db import close_old_connections
from django.utils.module_loading import import_string
from django_celery_beat.schedulers import DatabaseScheduler

logger = logging.getLogger(__name__)


class Scheduler(DatabaseScheduler):
    """DatabaseScheduler whose tick also runs the in-process jobs that are due."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._in_process_due: dict[str, float] = {}
        super().__init__(*args, **kwargs)

    def tick(self, *args: Any, **kwargs: Any) -> float:
        wait = super().tick(*args, **kwargs)
        return min(wait, run_due_jobs(self._in_process_due))


def run_due_jobs(due: dict[str, float], now: float | None = None) -> float:
    """Run each job of BEAT_IN_PROCESS_JOBS whose time has come; return the seconds until the next one is due.

    A failing job (the database away) is logged and tried again at its next time; beat goes on.
    """
    now = time.monotonic() if now is None else now
    jobs: dict[str, dict[str, Any]] = settings.BEAT_IN_PROCESS_JOBS
    for name, job in jobs.items():
        if due.get(name, 0.0) > now:
            continue
        due[name] = now + float(job["every"])
        close_old_connections()  # as at a request's start: a connection the database dropped is opened again
        try:
            result = import_string(job["function"])()
            logger.info("in-process job %s: %s", name, result)
        except Exception:
            logger.exception("in-process job %s failed; next try in %s s", name, job["every"])
            close_old_connections()
    return max(0.0, min((due[name] - now for name in jobs), default=60.0))
