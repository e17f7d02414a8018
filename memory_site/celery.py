"""The Celery application; tasks are discovered in each app's tasks.py."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memory_site.settings")

app = Celery("memory_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# Workers write their heartbeats (memory_site/heartbeat.py: signal handlers, connected on import).
from memory_site import heartbeat as _heartbeat  # noqa: E402, F401
