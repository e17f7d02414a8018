"""mem0's platform paths that its MemoryClient calls (filled in by integrations.mem0.apis)."""

from __future__ import annotations

from django.urls import URLPattern

urlpatterns: list[URLPattern] = []
