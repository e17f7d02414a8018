"""Bearer API-key authentication: every request is scoped to the key's tenant."""

from __future__ import annotations

import hashlib
import logging
import os
import secrets
import time
from dataclasses import dataclass
from typing import Any, cast

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.http import HttpRequest
from django.utils import timezone
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle

from conversations.models import ApiKey, Subject, Tenant
from conversations.recent_keys import recent_keys
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
        key_hash = hash_key(raw)
        failures = AuthFailureThrottle()
        rate = _view_key_rate(request)
        # One round trip to the shared cache, before any lookup (a guessing address costs nothing): the address's
        # failed authentications, then, when the view is rate-limited per key, this key's count (the request
        # counted when admitted). The verdict on the rate is given by ApiKeyRateThrottle, once the key is known.
        verdict = shared_limits(request, failures, rate, key_hash)
        if not verdict.failures_allowed:
            raise exceptions.Throttled(verdict.wait, detail="Too many failed authentications from this address.")
        # A user-scoped URL (/users/<user>/...) names the subject the view will look up next: same statement.
        kwargs = (getattr(request, "parser_context", None) or {}).get("kwargs") or {}
        user = kwargs.get("user")
        if isinstance(user, str) and external_id_problem(user):
            user = None  # no such subject can exist: TenantApi refuses the URL once the key is known
        key, subject = api_key_and_subject(key_hash, user if isinstance(user, str) else None)
        if key is None or not key.tenant.is_active:
            recent_keys.forget(key_hash)
            failures.record_failure()
            raise exceptions.AuthenticationFailed("Invalid API key.")
        if key.revoked_at is not None:
            recent_keys.forget(key_hash)
            failures.record_failure()
            raise exceptions.AuthenticationFailed("This API key has been revoked.")
        recent_keys.remember(key_hash, key.tenant_id)  # ApiKeyRateThrottle forgets it again if over its rate
        if verdict.rate_counted:
            request._key_rate_verdict = verdict  # type: ignore[attr-defined]  # read by ApiKeyRateThrottle
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

    On Redis the counts are lists of request times (newest first) read, trimmed and extended by one script
    (`shared_limits`): one round trip for both limits of a request, and no count lost between two processes (a
    GET then a SET of a pickled list, DRF's way, lost the count of a concurrent request, and moved the whole list
    both ways on every request: 6,000 times at the default rate). Another cache (one process: development) keeps
    DRF's way. The cache going away must not take the API down with it: the request is let through, with a
    warning.
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
    """Requests per API key (API_RATE_LIMIT): one counter per key, whichever door the request came in by.
    ApiKeyAuthentication has counted the request already, in the round trip that checked the address's failures;
    without that (another door: MCP's api_key_admit), it is counted here."""

    scope = "api_key"

    def get_rate(self) -> str | None:
        return settings.API_RATE_LIMIT  # type: ignore[no-any-return]  # None: no limit

    def ident_key(self, key_hash: str) -> str:
        return self.cache_format % {"scope": self.scope, "ident": key_hash[:32]}

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        if isinstance(request.user, ApiClient):
            return self.ident_key(request.user.api_key.key_hash)
        return None

    def allow_request(self, request: Request, view: Any) -> bool:
        verdict: Verdict | None = getattr(request, "_key_rate_verdict", None)
        if verdict is None and self.rate is not None and _redis_of(self.cache) is not None:
            if not isinstance(request.user, ApiClient):
                return True
            verdict = shared_limits(request, None, self, request.user.api_key.key_hash)
        allowed = super().allow_request(request, view) if verdict is None else verdict.rate_allowed
        if verdict is not None:
            self._verdict_wait = verdict.wait
        if not allowed and isinstance(request.user, ApiClient):
            recent_keys.forget(request.user.api_key.key_hash)  # a throttled key starts no work before it is let in
        return allowed

    def wait(self) -> float | None:
        if hasattr(self, "_verdict_wait"):
            return self._verdict_wait  # type: ignore[no-any-return]
        return super().wait()


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
            client = _redis_of(self.cache)
            if client is None:
                self.history.insert(0, self.now)
                self.cache.set(self.key, self.history, self.duration)  # type: ignore[attr-defined]
                return
            key = self.cache.make_key(self.key)
            with client.pipeline(transaction=False) as pipe:
                pipe.lpush(key, repr(self.now))
                pipe.expire(key, int(self.duration or 1))  # type: ignore[attr-defined]
                pipe.execute()
        except Exception:
            logger.warning("the throttle's cache failed: failure not counted", exc_info=True)


@dataclass(frozen=True)
class Verdict:
    """What one request may do: try a key (its address's failures under the limit), and pass the key's rate
    (`rate_counted`: the rate was looked at, and the request counted when allowed). `wait`: seconds until a
    refused request may come back (DRF's estimate)."""

    failures_allowed: bool = True
    rate_allowed: bool = True
    rate_counted: bool = False
    wait: float | None = None


# KEYS[1]: the address's failures (or ""), KEYS[2]: the key's requests (or ""); ARGV: now, then the limit and the
# window of each (-1: no limit). Each list holds request times, newest first; the times older than the window are
# dropped from its tail (DRF's history, trimmed the same way). Returns {0} when both pass (the request added to
# the key's list), else {1 or 2 (the limit that refuses), the list's length, its oldest time}.
_LIMITS_LUA = """
local now = tonumber(ARGV[1])
local function count(key, window)
    local cutoff = now - window
    while true do
        local last = redis.call('LINDEX', key, -1)
        if not last or tonumber(last) > cutoff then break end
        redis.call('RPOP', key)
    end
    return redis.call('LLEN', key)
end
local fail_n, fail_window = tonumber(ARGV[2]), tonumber(ARGV[3])
if fail_n >= 0 and KEYS[1] ~= '' then
    local n = count(KEYS[1], fail_window)
    if n >= fail_n then return {1, n, redis.call('LINDEX', KEYS[1], -1) or ''} end
end
local rate_n, rate_window = tonumber(ARGV[4]), tonumber(ARGV[5])
if rate_n >= 0 and KEYS[2] ~= '' then
    local n = count(KEYS[2], rate_window)
    if n >= rate_n then return {2, n, redis.call('LINDEX', KEYS[2], -1) or ''} end
    redis.call('LPUSH', KEYS[2], ARGV[1])
    redis.call('EXPIRE', KEYS[2], math.ceil(rate_window))
end
return {0}
"""

_redis_clients: dict[tuple[int, str], tuple[Any, Any]] = {}  # (pid, location) -> (client, script)


def _redis_entry(cache: Any) -> tuple[Any, Any] | None:
    """(client, registered limits script) of the throttle cache's Redis server, or None when the cache is not
    Redis. One client per process and server: Django's cache builds a client object for every command."""
    if not isinstance(cache, RedisCache):
        return None
    location = cache._servers[0]  # type: ignore[attr-defined]
    entry = _redis_clients.get((os.getpid(), location))
    if entry is None:
        import redis

        client = redis.Redis.from_url(location)
        entry = (client, client.register_script(_LIMITS_LUA))
        _redis_clients[(os.getpid(), location)] = entry
    return entry


def _redis_of(cache: Any) -> Any | None:
    """The throttle cache's Redis client (this process's), or None when the cache is not Redis."""
    entry = _redis_entry(cache)
    return entry[0] if entry is not None else None


def _view_key_rate(request: Request) -> ApiKeyRateThrottle | None:
    """The view's per-key rate throttle, when it has one (None outside a DRF view, as for the MCP endpoint)."""
    view = (getattr(request, "parser_context", None) or {}).get("view")
    if view is None:
        return None
    for cls in getattr(view, "throttle_classes", ()):
        if isinstance(cls, type) and issubclass(cls, ApiKeyRateThrottle):
            throttle = cls()
            return throttle if throttle.rate is not None else None
    return None


def _drf_wait(throttle: SharedCacheThrottle, n: int, oldest: float | None, now: float) -> float | None:
    """DRF's SimpleRateThrottle.wait for a history of `n` times whose oldest is `oldest`."""
    duration, num = throttle.duration, throttle.num_requests  # type: ignore[attr-defined]
    remaining = duration - (now - oldest) if oldest is not None else duration
    available = num - n + 1
    return remaining / float(available) if available > 0 else None


def shared_limits(
    request: Request, failures: AuthFailureThrottle | None, rate: ApiKeyRateThrottle | None, key_hash: str
) -> Verdict:
    """Check the address's failed authentications and (when `rate` is given) count this key's request against
    its rate, in one round trip to Redis; on another cache, DRF's way. A failing cache lets the request through."""
    now = time.time()
    if failures is not None:
        failures.key = failures.get_cache_key(request, None) if failures.rate is not None else None
        failures.now, failures.history = now, []
    cache = (failures or rate).cache  # type: ignore[union-attr]
    try:
        entry = _redis_entry(cache)
    except Exception:
        logger.warning("the throttle's cache failed: request let through", exc_info=True)
        return Verdict(rate_counted=rate is not None)
    if entry is None:  # not Redis (one process): DRF's counting; the rate once the key is known
        if failures is not None and not failures.allow_request(request, None):
            return Verdict(failures_allowed=False, wait=failures.wait())
        return Verdict()
    fail_key = failures.key if failures is not None and failures.key else None
    rate_key = rate.ident_key(key_hash) if rate is not None else None
    if fail_key is None and rate_key is None:
        return Verdict()
    try:
        answer = entry[1](
            keys=[cache.make_key(fail_key) if fail_key else "", cache.make_key(rate_key) if rate_key else ""],
            args=[
                repr(now),
                failures.num_requests if fail_key else -1,  # type: ignore[union-attr]
                failures.duration if fail_key else 0,  # type: ignore[union-attr]
                rate.num_requests if rate_key else -1,  # type: ignore[union-attr]
                rate.duration if rate_key else 0,  # type: ignore[union-attr]
            ],
        )
    except Exception:
        logger.warning("the throttle's cache failed: request let through", exc_info=True)
        return Verdict(rate_counted=rate is not None)
    if int(answer[0]) == 0:
        return Verdict(rate_counted=rate is not None)
    refused_by = failures if int(answer[0]) == 1 else rate
    oldest = float(answer[2]) if answer[2] else None
    wait = _drf_wait(refused_by, int(answer[1]), oldest, now)  # type: ignore[arg-type]
    if int(answer[0]) == 1:
        return Verdict(failures_allowed=False, wait=wait)
    return Verdict(rate_allowed=False, rate_counted=True, wait=wait)


def key_requests_counted(key_hash: str) -> int:
    """The requests of the key with this hash counted in the shared cache (its last window, and any older ones not
    dropped yet)."""
    throttle = ApiKeyRateThrottle()
    client, key = _redis_of(throttle.cache), throttle.ident_key(key_hash)
    if client is None:
        return len(throttle.cache.get(key) or [])
    return int(client.llen(throttle.cache.make_key(key)))
