"""REST routes of the facts app (mounted under /api/v1/)."""

from __future__ import annotations

from django.urls import path

from facts.apis.context import ContextApi
from facts.apis.facts import ConflictListApi, ConflictResolveApi, FactDetailApi, FactHistoryApi, FactListCreateApi
from facts.apis.search import SearchApi
from facts.apis.tools import ToolsApi

urlpatterns = [
    path("users/<str:user>/search", SearchApi.as_view(), name="search"),
    path("tools", ToolsApi.as_view(), name="tools"),
    path("users/<str:user>/facts", FactListCreateApi.as_view(), name="facts"),
    path("users/<str:user>/facts/<int:fact_id>", FactDetailApi.as_view(), name="fact-detail"),
    path("users/<str:user>/facts/<int:fact_id>/history", FactHistoryApi.as_view(), name="fact-history"),
    path("users/<str:user>/conflicts", ConflictListApi.as_view(), name="conflicts"),
    path("conflicts/<int:conflict_id>/resolve", ConflictResolveApi.as_view(), name="conflict-resolve"),
    path("users/<str:user>/context", ContextApi.as_view(), name="context"),
]
