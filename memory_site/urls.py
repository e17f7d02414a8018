"""URL wiring: the REST API under /api/v1/, the admin, health, the docs, MCP and the mem0-compatible paths."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.urls import URLPattern, URLResolver, include, path
from django.views.generic import TemplateView
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from memory_site import errors
from memory_site.health import health_details, healthz

api_v1: list[URLPattern | URLResolver] = [
    path("", include("conversations.urls")),
    path("", include("facts.urls")),
    path("", include("policies.portal.api_urls")),
    path("", include("policies.urls")),
    path("", include("integrations.webhooks.urls")),
    path("schema/", SpectacularAPIView.as_view(authentication_classes=[], permission_classes=[]), name="schema"),
    path(
        "docs/",
        SpectacularSwaggerView.as_view(url_name="schema", authentication_classes=[], permission_classes=[]),
        name="docs",
    ),
]

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/health/", health_details, name="health-details"),
    path("admin/dashboard/", include("policies.console.urls")),
    path("admin/", admin.site.urls),
    path("api/v1/", include(api_v1)),
    path("", TemplateView.as_view(template_name="home.html"), name="home"),
    path("me/", include("policies.portal.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("integrations.urls")),  # /mcp/ and mem0's platform paths (/v1/..., /v3/...)
]


def handler404(request: HttpRequest, exception: Exception) -> HttpResponse:
    if request.path.startswith("/api/"):
        return errors.json_404(request, exception)
    from django.views.defaults import page_not_found

    return page_not_found(request, exception)


def handler500(request: HttpRequest) -> HttpResponse:
    if request.path.startswith("/api/"):
        return errors.json_500(request)
    from django.views.defaults import server_error

    return server_error(request)
