"""The Celery application; tasks are discovered in each app's tasks.py."""

from __future__ import annotations

import logging
import os
from typing import Any

from celery import Celery
from celery.signals import after_setup_logger, after_setup_task_logger

from memory_site.logredact import quiet_handler

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memory_site.settings")

app = Celery("memory_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# Workers write their heartbeats (memory_site/heartbeat.py: signal handlers, connected on import).
from memory_site import heartbeat as _heartbeat  # noqa: E402, F401


@after_setup_logger.connect
@after_setup_task_logger.connect
def _quiet_worker_logs(logger: logging.Logger, **_: Any) -> None:
    """The worker's and beat's handlers (Celery replaces Django's) redact like Django's: ids, never text."""
    for handler in logger.handlers:
        quiet_handler(handler)
