"""Bearer API-key authentication: every request is scoped to the key's tenant."""

from __future__ import annotations

import hashlib
import logging
import secrets
from dataclasses import dataclass
from typing import Any, cast

from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest
from django.utils import timezone
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle

from conversations.models import ApiKey, Subject, Tenant
from conversations.selectors import api_key_and_subject
from memory_site.api import external_id_problem

logger = logging.getLogger(__name__)

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
    def raw_key(self, request: Request) -> str | None:
        """The key the request presents (a subclass may accept another header scheme)."""
        return bearer_key(request)

    def authenticate(self, request: Request) -> tuple[ApiClient, ApiKey] | None:
        raw = self.raw_key(request)
        if raw is None:
            return None
        failures = AuthFailureThrottle()
        if not failures.allow_request(request, None):  # before any lookup: a guessing address costs nothing
            raise exceptions.Throttled(failures.wait(), detail="Too many failed authentications from this address.")
        # A user-scoped URL (/users/<user>/...) names the subject the view will look up next: same statement.
        kwargs = (getattr(request, "parser_context", None) or {}).get("kwargs") or {}
        user = kwargs.get("user")
        if isinstance(user, str) and external_id_problem(user):
            user = None  # no such subject can exist: TenantApi refuses the URL once the key is known
        key, subject = api_key_and_subject(hash_key(raw), user if isinstance(user, str) else None)
        if key is None or not key.tenant.is_active:
            failures.record_failure()
            raise exceptions.AuthenticationFailed("Invalid API key.")
        if key.revoked_at is not None:
            failures.record_failure()
            raise exceptions.AuthenticationFailed("This API key has been revoked.")
        now = timezone.now()
        # Touch last_used_at at most once a minute to keep the hot path write-free.
        if key.last_used_at is None or (now - key.last_used_at).total_seconds() > 60:
            ApiKey.objects.filter(pk=key.pk).update(last_used_at=now)
        return ApiClient(api_key=key, url_subject=(user, subject) if isinstance(user, str) else None), key

    def authenticate_header(self, request: Request) -> str:
        return 'Bearer realm="api"'


class HasApiKey(BasePermission):
    """An API key; a read-only key only for reads: safe methods, and the POSTs a view declares as reads
    (`reads_only = True`: search, context)."""

    message = "This API key is read-only."
    code = "read_only_key"

    def has_permission(self, request: Request, view: Any) -> bool:
        client = request.user
        if not isinstance(client, ApiClient):
            return False
        if client.api_key.read_only and request.method not in SAFE_METHODS:
            return bool(getattr(view, "reads_only", False))
        return True


def request_tenant(request: Request) -> Tenant:
    user = request.user
    assert isinstance(user, ApiClient)
    return user.tenant


def request_api_key(request: Request) -> ApiKey:
    user = request.user
    assert isinstance(user, ApiClient)
    return user.api_key


class SharedCacheThrottle(SimpleRateThrottle):
    """A rate limit counted in the `throttle` cache, which every web process shares (Redis: settings.CACHES).

    The cache going away must not take the API down with it: the request is let through, with a warning.
    """

    def __init__(self) -> None:
        super().__init__()
        self.cache = caches["throttle"]  # looked up per request: tests give each test its own key prefix

    def allow_request(self, request: Request, view: Any) -> bool:
        try:
            return super().allow_request(request, view)
        except Exception:
            logger.warning("the throttle's cache failed: request let through", exc_info=True)
            return True


class ApiKeyRateThrottle(SharedCacheThrottle):
    """Requests per API key (API_RATE_LIMIT): one counter per key, whichever door the request came in by."""

    scope = "api_key"

    def get_rate(self) -> str | None:
        return settings.API_RATE_LIMIT  # type: ignore[no-any-return]  # None: no limit

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        if isinstance(request.user, ApiClient):
            return self.cache_format % {"scope": self.scope, "ident": request.user.api_key.pk}
        return None


@dataclass(frozen=True)
class _KeyOnly:
    """What ApiKeyRateThrottle reads of a request: its caller."""

    user: ApiClient


def api_key_admit(key: ApiKey) -> None:
    """Count one request of `key` on the REST API's own per-key counter; Throttled (with the wait) past the limit.

    For a door outside DRF's views (MCP), to call once the key is known and before any work starts: a key has
    one budget, whichever API it uses.
    """
    throttle = ApiKeyRateThrottle()
    if not throttle.allow_request(cast(Request, _KeyOnly(ApiClient(api_key=key))), None):
        raise exceptions.Throttled(throttle.wait())


class AuthFailureThrottle(SharedCacheThrottle):
    """Failed authentications per client address (AUTH_FAILURE_RATE): over the rate, every request of that
    address that presents a key is refused (429) before the key is looked up, until the window has passed.

    allow_request only reads the count: a failure is counted by record_failure, once the key proved wrong.
    """

    scope = "auth_failure"

    def get_rate(self) -> str | None:
        return settings.AUTH_FAILURE_RATE  # type: ignore[no-any-return]  # None: no limit

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}

    def throttle_success(self) -> bool:
        return True  # a request that may try is not a failure (yet)

    def record_failure(self) -> None:
        if not getattr(self, "key", None):
            return
        try:
            self.history.insert(0, self.now)
            self.cache.set(self.key, self.history, self.duration)  # type: ignore[attr-defined]
        except Exception:
            logger.warning("the throttle's cache failed: failure not counted", exc_info=True)
