"""REST routes of the facts app (mounted under /api/v1/)."""

from __future__ import annotations

from django.urls import path

from facts.apis.ingest import JobDetailApi, MessagesIngestApi
from facts.apis.search import SearchApi

urlpatterns = [
    path("users/<str:user>/messages", MessagesIngestApi.as_view(), name="messages-ingest"),
    path("jobs/<uuid:job_id>", JobDetailApi.as_view(), name="job-detail"),
    path("users/<str:user>/search", SearchApi.as_view(), name="search"),
]
