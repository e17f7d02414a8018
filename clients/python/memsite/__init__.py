"""Memory Site's Python client: `Client`, `AsyncClient`, the typed answers, the errors, and webhook verification."""

from __future__ import annotations

from memsite.client import AsyncClient, Client
from memsite.errors import (
    AuthenticationError,
    Conflict,
    ConnectionFailed,
    InvalidRequest,
    MemsiteError,
    NotFound,
    PayloadTooLarge,
    PermissionDenied,
    RateLimited,
    ServerError,
)
from memsite.types import Context, Fact, FactPage, Ingested, PortalLink, SearchHit, SearchResult, Source
from memsite.webhooks import verify_signature

__all__ = [
    "AsyncClient",
    "AuthenticationError",
    "Client",
    "Conflict",
    "ConnectionFailed",
    "Context",
    "Fact",
    "FactPage",
    "Ingested",
    "InvalidRequest",
    "MemsiteError",
    "NotFound",
    "PayloadTooLarge",
    "PermissionDenied",
    "PortalLink",
    "RateLimited",
    "SearchHit",
    "SearchResult",
    "ServerError",
    "Source",
    "verify_signature",
]
