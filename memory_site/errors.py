"""One error shape for the whole API: {"error": {"code", "message", "details"}}."""

from __future__ import annotations

import logging
from typing import Any

from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404, HttpRequest, JsonResponse
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler, set_rollback

logger = logging.getLogger(__name__)


class ApiError(exceptions.APIException):
    """An error a service raises with its own code and HTTP status."""

    def __init__(self, message: str, *, code: str = "invalid", status_code: int = 400, details: Any = None) -> None:
        super().__init__(detail=message, code=code)
        self.status_code = status_code
        self.error_code = code
        self.details = details or {}


class PayloadTooLarge(ApiError):
    def __init__(self, message: str, details: Any = None) -> None:
        super().__init__(message, code="payload_too_large", status_code=413, details=details)


class DomainError(Exception):
    """A request the domain refuses, with a stable code, a message for people and details for programs.

    Free of HTTP and of any app: services raise subclasses of the four kinds below (each app defines its own in
    `<app>/exceptions.py`), and `api_exception_handler` answers each kind with its status. A subclass sets
    `code` and `message` as class attributes, or passes them to __init__.
    """

    code = "invalid"
    message = "Request is invalid."

    def __init__(self, message: str | None = None, *, code: str | None = None, details: Any = None) -> None:
        if message is not None:
            self.message = message
        if code is not None:
            self.code = code
        self.details = details or {}
        super().__init__(self.message)


class InvalidInput(DomainError):
    """The input breaks a rule of the domain (HTTP 400)."""


class NotFound(DomainError):
    """What the operation names does not exist (HTTP 404)."""

    code = "not_found"
    message = "Not found."


class StateConflict(DomainError):
    """The thing is not in a state that allows the operation (HTTP 409)."""

    code = "conflict"
    message = "The request conflicts with the current state."


class OverLimit(DomainError):
    """The input is over a size or count limit (HTTP 413)."""

    code = "payload_too_large"
    message = "Request is over a limit."


# Most specific first: a subclass of two kinds answers with the first.
_DOMAIN_STATUS: tuple[tuple[type[DomainError], int], ...] = (
    (NotFound, 404),
    (StateConflict, 409),
    (OverLimit, 413),
    (InvalidInput, 400),
)


_CODES = {
    400: "invalid",
    401: "unauthenticated",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    409: "conflict",
    413: "payload_too_large",
    415: "unsupported_media_type",
    429: "throttled",
}


def error_body(code: str, message: str, details: Any = None) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "details": details or {}}}


def domain_error_response(exc: DomainError) -> Response:
    """The API's answer to a domain error: its kind's status, the one error shape; the transaction rolls back."""
    status_code = next((code for kind, code in _DOMAIN_STATUS if isinstance(exc, kind)), 400)
    set_rollback()
    return Response(error_body(exc.code, exc.message, exc.details), status=status_code)


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, DomainError):
        return domain_error_response(exc)
    if isinstance(exc, RequestDataTooBig):
        return Response(error_body("payload_too_large", "Request body is over the size limit."), status=413)
    if isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(exc.message_dict if hasattr(exc, "error_dict") else exc.messages)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    if isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.NotAuthenticated | exceptions.AuthenticationFailed):
        response.status_code = status.HTTP_401_UNAUTHORIZED
    code = _CODES.get(response.status_code, "error")
    detail_code = getattr(getattr(exc, "detail", None), "code", None)
    if isinstance(exc, exceptions.PermissionDenied) and detail_code not in (None, exc.default_code):
        code = str(detail_code)  # a permission's own reason: read_only_key
    details: Any = {}
    if isinstance(exc, ApiError):
        code = exc.error_code
        message = str(exc.detail)
        details = exc.details
    elif isinstance(exc, exceptions.ValidationError):
        code = "invalid"
        message = "Request is invalid."
        details = response.data
    else:
        data = response.data
        message = str(data.get("detail", exc)) if isinstance(data, dict) else str(exc)
    if isinstance(exc, exceptions.Throttled):
        details = {"retry_after_seconds": exc.wait}  # type: ignore[attr-defined]
    response.data = error_body(code, message, details)
    return response


def json_404(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return JsonResponse(error_body("not_found", "Not found."), status=404)


def json_500(request: HttpRequest) -> JsonResponse:
    return JsonResponse(error_body("server_error", "Internal server error."), status=500)


def job_error(exc: BaseException) -> str:
    """A failed job's error as it is stored and shown to clients: "<code>: <message>", both stable.

    Never the exception's repr(): that carries SQL, internal paths and the user's own text (a database error quotes
    the value it refused). The details go to the log, which the caller writes with the traceback.
    """
    if isinstance(exc, DomainError):
        return f"{exc.code}: {exc.message}"
    code = getattr(type(exc), "job_error_code", None)
    if code:
        return f"{code}: {getattr(type(exc), 'job_error_message', 'The work failed; it is retried.')}"
    kinds = {cls.__name__ for cls in type(exc).__mro__}  # Django's and psycopg's database errors alike
    if kinds & {"OperationalError", "InterfaceError"}:
        return "database_unavailable: The database could not be reached; the work is retried."
    if kinds & {"DataError", "IntegrityError", "ValueError", "UnicodeError"}:
        return f"invalid_data: A value could not be stored ({type(exc).__name__})."
    if kinds & {"SoftTimeLimitExceeded", "TimeLimitExceeded", "TimeoutError"}:
        return "timeout: The work took longer than its time limit."
    return f"internal_error: The work failed ({type(exc).__name__})."
