"""Operators manage webhook endpoints and read the delivery log (integrations.webhooks.admin)."""

from __future__ import annotations

from integrations.webhooks import admin as _webhooks_admin  # noqa: F401  (registers the ModelAdmins)
