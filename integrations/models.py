"""The app's tables live with their feature (integrations.webhooks.models); Django finds them here."""

from __future__ import annotations

from integrations.webhooks.models import WebhookCursor, WebhookDelivery, WebhookEndpoint

__all__ = ["WebhookCursor", "WebhookDelivery", "WebhookEndpoint"]
