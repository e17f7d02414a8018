"""Routes outside /api/v1/: MCP over streamable HTTP at /mcp/, and the mem0 platform paths its client calls."""

from __future__ import annotations

from django.urls import include, path

from integrations.mcp.http import mcp_endpoint

urlpatterns = [
    path("mcp/", mcp_endpoint, name="mcp"),
    path("mcp", mcp_endpoint),  # no redirect: a client that drops the slash still POSTs here
    path("", include("integrations.mem0.urls")),
]
