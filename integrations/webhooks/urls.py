"""REST routes of the webhooks (mounted under /api/v1/)."""

from __future__ import annotations

from django.urls import path

from integrations.webhooks.apis import WebhookDetailApi, WebhookListCreateApi

urlpatterns = [
    path("webhooks", WebhookListCreateApi.as_view(), name="webhooks"),
    path("webhooks/<int:webhook_id>", WebhookDetailApi.as_view(), name="webhook-detail"),
]
