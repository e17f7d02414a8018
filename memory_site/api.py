"""Shared pieces for the DRF views: the base view, tenant-scoped lookups, common fields."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from django.http import Http404
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from conversations.auth import ApiClient, request_api_key, request_tenant
from conversations.models import ApiKey, Subject, Tenant
from conversations.selectors import subject_get

logger = logging.getLogger(__name__)


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


class ResponseThen(Response):
    """A DRF Response that runs `then`'s jobs once it has been sent: the WSGI server closes every response after
    writing its body (Django's test client too). For work the client need not wait for; a failing job is logged."""

    def __init__(self, data: Any = None, *, then: list[Callable[[], None]], **kwargs: Any) -> None:
        super().__init__(data, **kwargs)
        self._then = then

    def close(self) -> None:
        jobs, self._then = self._then, []
        for job in jobs:
            try:
                job()
            except Exception:
                logger.exception("a job after the response failed")
        super().close()


class SourceSerializer(serializers.Serializer):
    message_id = serializers.IntegerField()
    external_id = serializers.CharField(allow_null=True)
    session_id = serializers.CharField()
    created_at = serializers.DateTimeField()


_validators = threading.local()  # this thread's serializer instance per input serializer class


def validate_input(serializer_class: type[serializers.Serializer], data: Any, **kwargs: Any) -> dict[str, Any]:
    """The validated data, or a ValidationError (a 400 with the fields' errors).

    Without kwargs, each thread validates with one instance of the class, kept between calls: DRF deep-copies the
    declared fields for every new instance (0.3 ms for the search's ten fields, in every search). After each call
    it holds nothing of the request (no input, validated data, errors or output: what is_valid() looks at), so
    the next call validates its own data afresh and no user's content stays behind in memory.
    """
    if kwargs:
        serializer = serializer_class(data=data, **kwargs)
        serializer.is_valid(raise_exception=True)
        return dict(serializer.validated_data)
    kept: dict[type[serializers.Serializer], serializers.Serializer] = _validators.__dict__.setdefault("kept", {})
    if serializer_class not in kept:
        kept[serializer_class] = serializer_class()
    serializer = kept[serializer_class]
    serializer.initial_data = data
    try:
        serializer.is_valid(raise_exception=True)
        return dict(serializer.validated_data)
    finally:
        del serializer.initial_data
        for attr in ("_validated_data", "_errors", "_data"):
            serializer.__dict__.pop(attr, None)
