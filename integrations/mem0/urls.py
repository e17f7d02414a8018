"""mem0's platform paths that its MemoryClient calls (so a mem0 client works by changing its host)."""

from __future__ import annotations

from django.urls import path

from integrations.mem0 import apis

urlpatterns = [
    path("v1/ping/", apis.PingApi.as_view(), name="mem0-ping"),
    path("v3/memories/add/", apis.AddApi.as_view(), name="mem0-add"),
    path("v3/memories/", apis.MemoriesListApi.as_view(), name="mem0-list"),
    path("v3/memories/search/", apis.SearchApi.as_view(), name="mem0-search"),
    path("v1/memories/", apis.MemoriesDeleteAllApi.as_view(), name="mem0-delete-all"),
    path("v1/memories/<str:memory_id>/", apis.MemoryDetailApi.as_view(), name="mem0-memory"),
    path("v1/memories/<str:memory_id>/history/", apis.MemoryHistoryApi.as_view(), name="mem0-history"),
    path("v1/event/<str:event_id>/", apis.EventApi.as_view(), name="mem0-event"),
    path("v1/entities/", apis.EntitiesApi.as_view(), name="mem0-entities"),
    path("v2/entities/<str:entity_type>/<str:entity_id>/", apis.EntityDeleteApi.as_view(), name="mem0-entity"),
]
