from __future__ import annotations

from django.apps import AppConfig


class MemorySiteConfig(AppConfig):
    name = "memory_site"
    verbose_name = "Memory Site"

    def ready(self) -> None:
        from memory_site import schema  # noqa: F401  (registers the OpenAPI auth extension)
