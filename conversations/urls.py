"""REST routes of the event log (mounted under /api/v1/)."""

from __future__ import annotations

from django.urls import path

from conversations.apis import JobDetailApi, MessagesIngestApi

urlpatterns = [
    path("users/<str:user>/messages", MessagesIngestApi.as_view(), name="messages-ingest"),
    path("jobs/<uuid:job_id>", JobDetailApi.as_view(), name="job-detail"),
]
