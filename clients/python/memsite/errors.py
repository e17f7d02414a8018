"""The API's errors as exceptions: one class per HTTP status the API answers with, all MemsiteError."""

from __future__ import annotations

from typing import Any


class MemsiteError(Exception):
    """An error answer of the API ({"error": {"code", "message", "details"}}), or no answer at all."""

    def __init__(self, message: str, *, status: int | None = None, code: str = "", details: Any = None) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.code = code
        self.details = details if details is not None else {}


class InvalidRequest(MemsiteError):
    """400: the request breaks a rule (`details` says which field)."""


class AuthenticationError(MemsiteError):
    """401: no key, an unknown key or a revoked one."""


class PermissionDenied(MemsiteError):
    """403."""


class NotFound(MemsiteError):
    """404: no such user, fact or job in the key's tenant."""


class Conflict(MemsiteError):
    """409: the state does not allow it (memory paused, a conflict already resolved)."""


class PayloadTooLarge(MemsiteError):
    """413: over a size or count limit."""


class RateLimited(MemsiteError):
    """429: too many requests; `retry_after` seconds to wait, when the server says."""

    @property
    def retry_after(self) -> float | None:
        value = self.details.get("retry_after_seconds") if isinstance(self.details, dict) else None
        return float(value) if value is not None else None


class ServerError(MemsiteError):
    """5xx."""


class ConnectionFailed(MemsiteError):
    """The server could not be reached, or did not answer in time."""


BY_STATUS: dict[int, type[MemsiteError]] = {
    400: InvalidRequest,
    401: AuthenticationError,
    403: PermissionDenied,
    404: NotFound,
    409: Conflict,
    413: PayloadTooLarge,
    429: RateLimited,
}


def error_for(status: int, body: Any) -> MemsiteError:
    """The exception for an error answer with this status and (parsed JSON, or text) body."""
    error = body.get("error") if isinstance(body, dict) else None
    if isinstance(error, dict):
        message, code, details = str(error.get("message", "")), str(error.get("code", "")), error.get("details")
    else:
        message, code, details = (body if isinstance(body, str) else "") or f"HTTP {status}", "", None
    kind = BY_STATUS.get(status, ServerError if status >= 500 else MemsiteError)
    return kind(message or f"HTTP {status}", status=status, code=code, details=details)
