"""The end user's rights through the API: a portal link, the export, the erasure (the agent's key)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import StreamingHttpResponse
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from conversations.apis import TenantApi
from facts.models import Actor
from facts.services.subject_data import access_log_record
from memory_site.api import validate_input
from memory_site.errors import ApiError
from policies.portal.erasure import subject_erase
from policies.portal.export import CONTENT_TYPES, EXPORTERS, export_filename
from policies.portal.links import portal_link_create


class CsvRenderer(BaseRenderer):
    """Lets `?format=csv` through DRF's content negotiation; the view streams the bytes itself."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None) -> Any:
        return data


def _actor_id(api: TenantApi, request: Request) -> str:
    return f"api-key:{api.api_key(request).prefix}"


def portal_url(request: Request, token: str) -> str:
    path = reverse("portal:link", kwargs={"token": token})
    base = settings.PORTAL_BASE_URL
    return base.rstrip("/") + path if base else request.build_absolute_uri(path)


class PortalLinkCreateApi(TenantApi):
    class InputSerializer(serializers.Serializer):
        ttl_minutes = serializers.IntegerField(required=False, min_value=1, help_text="default 30, at most 1440")

    class OutputSerializer(serializers.Serializer):
        url = serializers.URLField()
        expires_at = serializers.DateTimeField()

    @extend_schema(
        request=InputSerializer,
        responses={201: OutputSerializer},
        operation_id="portal_link_create",
        description="A signed, single-use link that opens the user's privacy portal (/me/) for this user only. "
        "Give it to the person; it expires after ttl_minutes.",
    )
    def post(self, request: Request, user: str) -> Response:
        subject = self.subject(request, user)
        data = validate_input(self.InputSerializer, request.data or {})
        link, token = portal_link_create(
            subject=subject, api_key=self.api_key(request), ttl_minutes=data.get("ttl_minutes")
        )
        return Response({"url": portal_url(request, token), "expires_at": link.expires_at}, status=201)


class SubjectExportApi(TenantApi):
    renderer_classes = [*TenantApi.renderer_classes, CsvRenderer]

    def perform_content_negotiation(self, request: Request, force: bool = False) -> Any:
        """An unknown ?format= is a 400 in the API's error shape (DRF's own negotiation answers 404)."""
        fmt = request.query_params.get("format", "json")
        if fmt not in EXPORTERS:
            if force:  # rendering the error itself
                return self.renderer_classes[0](), self.renderer_classes[0].media_type
            raise ApiError("Unknown format.", details={"format": fmt, "allowed": list(EXPORTERS)})
        return super().perform_content_negotiation(request, force)

    def handle_exception(self, exc: Exception) -> Any:
        """An error is JSON in the API's error shape, also under ?format=csv (the CSV renderer passes bytes)."""
        response = super().handle_exception(exc)
        self.request.accepted_renderer = self.renderer_classes[0]()
        self.request.accepted_media_type = self.renderer_classes[0].media_type
        return response

    @extend_schema(
        responses={(200, "application/json"): OpenApiTypes.OBJECT, (200, "text/csv"): OpenApiTypes.STR},
        parameters=[OpenApiParameter("format", str, enum=["json", "csv"], description="default json")],
        operation_id="subject_export",
        description="Everything held about the user as JSON (schema memory-site.export/1: subject, facts with "
        "sources and history, messages, conflicts, summaries, profile, access log), or the facts as CSV.",
    )
    def get(self, request: Request, user: str) -> StreamingHttpResponse:
        subject = self.subject(request, user)
        fmt = request.query_params.get("format", "json")
        access_log_record(
            subject=subject, operation=f"export:{fmt}", actor=Actor.AGENT, actor_id=_actor_id(self, request),
            api_key=self.api_key(request),
        )  # fmt: skip
        response = StreamingHttpResponse(EXPORTERS[fmt](subject=subject), content_type=CONTENT_TYPES[fmt])
        response["Content-Disposition"] = f'attachment; filename="{export_filename(format=fmt)}"'
        response["Cache-Control"] = "no-store"
        return response


class SubjectEraseApi(TenantApi):
    @extend_schema(
        responses={204: None},
        operation_id="subject_erase",
        description="Erase every trace of the user: facts, embeddings, history texts, messages, summaries, "
        "profile, snapshots, access logs, call records, portal links and exports. "
        "`python manage.py verify_erasure` proves it afterwards.",
    )
    def delete(self, request: Request, user: str) -> Response:
        subject = self.subject(request, user)
        subject_erase(subject=subject, actor=Actor.AGENT, actor_id=_actor_id(self, request))
        return Response(status=status.HTTP_204_NO_CONTENT)
