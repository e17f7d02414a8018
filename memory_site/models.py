"""Shared abstract base models."""

from __future__ import annotations

from django.db import models
from django.utils import timezone


class TimeStampedModel(models.Model):
    created_at = models.DateTimeField(default=timezone.now, db_index=True, editable=False)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        abstract = True


class WorkerHeartbeat(models.Model):
    """A running Celery worker: when it was last seen alive and when one of its processes last finished a task.

    The worker's main process writes `alive_at` every WORKER_HEARTBEAT_SECONDS and deletes its row when it stops;
    each pool process writes `task_finished_at` after its tasks (at most once a second). `/healthz` reads them.
    """

    hostname = models.CharField(max_length=255, unique=True)
    queue = models.CharField(max_length=255, db_index=True)
    alive_at = models.DateTimeField()
    task_finished_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return self.hostname
