from __future__ import annotations

from django.apps import AppConfig


class MemorySiteConfig(AppConfig):
    name = "memory_site"
    verbose_name = "Memory Site"
