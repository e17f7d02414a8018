"""Bearer API-key authentication: every request is scoped to the key's tenant."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Any, cast

from django.http import HttpRequest
from django.utils import timezone
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle

from conversations.models import ApiKey, Subject, Tenant
from conversations.selectors import api_key_and_subject

KEY_PREFIX = "ms_"


def hash_key(raw_key: str) -> str:
    return hashlib.sha256(raw_key.encode("utf-8")).hexdigest()


def generate_key() -> str:
    return KEY_PREFIX + secrets.token_urlsafe(32)


@dataclass(frozen=True)
class ApiClient:
    """The authenticated caller: an API key of one tenant (stands in for request.user), and the tenant's user
    the request's URL names (`user`), looked up with the key: (external id, Subject or None when no such user)."""

    api_key: ApiKey
    url_subject: tuple[str, Subject | None] | None = None

    @property
    def tenant(self) -> Tenant:
        return self.api_key.tenant

    is_authenticated: bool = True
    is_active: bool = True
    is_staff: bool = False

    @property
    def pk(self) -> int:
        return self.api_key.pk

    def __str__(self) -> str:
        return f"api-key:{self.api_key.prefix}"


def bearer_key(request: Request | HttpRequest) -> str | None:
    """The raw key of the request's "Authorization: Bearer <key>" header; None without that header.
    AuthenticationFailed for a malformed one."""
    header = get_authorization_header(cast(Request, request)).split()  # reads only META, which both have
    if not header:
        return None
    if header[0].lower() != b"bearer" or len(header) != 2:
        raise exceptions.AuthenticationFailed("Authorization header must be 'Bearer <key>'.")
    try:
        return header[1].decode("ascii")
    except UnicodeDecodeError as exc:
        raise exceptions.AuthenticationFailed("Invalid API key.") from exc


class ApiKeyAuthentication(BaseAuthentication):
    def authenticate(self, request: Request) -> tuple[ApiClient, ApiKey] | None:
        raw = bearer_key(request)
        if raw is None:
            return None
        # A user-scoped URL (/users/<user>/...) names the subject the view will look up next: same statement.
        kwargs = (getattr(request, "parser_context", None) or {}).get("kwargs") or {}
        user = kwargs.get("user")
        key, subject = api_key_and_subject(hash_key(raw), user if isinstance(user, str) else None)
        if key is None or not key.tenant.is_active:
            raise exceptions.AuthenticationFailed("Invalid API key.")
        if key.revoked_at is not None:
            raise exceptions.AuthenticationFailed("This API key has been revoked.")
        now = timezone.now()
        # Touch last_used_at at most once a minute to keep the hot path write-free.
        if key.last_used_at is None or (now - key.last_used_at).total_seconds() > 60:
            ApiKey.objects.filter(pk=key.pk).update(last_used_at=now)
        return ApiClient(api_key=key, url_subject=(user, subject) if isinstance(user, str) else None), key

    def authenticate_header(self, request: Request) -> str:
        return 'Bearer realm="api"'


class HasApiKey(BasePermission):
    def has_permission(self, request: Request, view: Any) -> bool:
        return isinstance(request.user, ApiClient)


def request_tenant(request: Request) -> Tenant:
    user = request.user
    assert isinstance(user, ApiClient)
    return user.tenant


def request_api_key(request: Request) -> ApiKey:
    user = request.user
    assert isinstance(user, ApiClient)
    return user.api_key


class ApiKeyRateThrottle(SimpleRateThrottle):
    scope = "api_key"

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        if isinstance(request.user, ApiClient):
            return self.cache_format % {"scope": self.scope, "ident": request.user.api_key.pk}
        return None
