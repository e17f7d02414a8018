"""Shared pieces for the DRF views: the base view, tenant-scoped lookups, common fields."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.views import APIView

from conversations.models import ApiKey, Subject, Tenant
from conversations.selectors import subject_get
from memory_site.auth import ApiClient, request_api_key, request_tenant


class TenantApi(APIView):
    """An API view that always works inside the caller's tenant."""

    def tenant(self, request: Request) -> Tenant:
        return request_tenant(request)

    def api_key(self, request: Request) -> ApiKey:
        return request_api_key(request)

    def subject(self, request: Request, user: str) -> Subject:
        """The tenant's subject by external id; 404 for unknown ids and for other tenants' subjects. The URL's
        user was looked up with the API key (ApiKeyAuthentication), in the same statement."""
        looked_up, subject = self._url_subject(request, user)
        if not looked_up:
            return subject_get(tenant=self.tenant(request), external_id=user)
        if subject is None:
            raise Http404("No such user.")
        return subject

    def known_subject(self, request: Request, user: str) -> Subject | None:
        """The URL's subject if authentication has looked it up and found it (no database read), else None."""
        return self._url_subject(request, user)[1]

    def _url_subject(self, request: Request, user: str) -> tuple[bool, Subject | None]:
        client = request.user
        if isinstance(client, ApiClient) and client.url_subject is not None and client.url_subject[0] == user:
            return True, client.url_subject[1]
        return False, None


class SourceSerializer(serializers.Serializer):
    message_id = serializers.IntegerField()
    external_id = serializers.CharField(allow_null=True)
    session_id = serializers.CharField()
    created_at = serializers.DateTimeField()


def validate_input(serializer_class: type[serializers.Serializer], data: Any, **kwargs: Any) -> dict[str, Any]:
    serializer = serializer_class(data=data, **kwargs)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)
