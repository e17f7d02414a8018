"""Logs carry ids, never what people said: user ids, query words, portal tokens and exception text are masked.

Every handler of the service (Django's console handler, the Celery worker's and beat's, gunicorn's access log)
passes its records through `RedactFilter`, and exceptions are written as their frames and type only: the text
of an exception (a database error's DETAIL line, a provider's answer) may quote a message or a fact.
A user id in a path becomes a short keyed digest (`u-3f9c0a1b2c4d`), the same for one user in every line, so
an operator can still follow one user's requests without learning who it is.
"""

from __future__ import annotations

import hashlib
import logging
import re
import traceback
from types import TracebackType
from typing import Any

# Path segments naming a user, or a secret: /api/v1/users/<user>/..., mem0's /v2/entities/<type>/<id>/,
# the portal's /me/link/<token>.
_USER_PATH = re.compile(r"(/users/|/entities/[^/\s\"?]{1,40}/|/me/link/)([^/?#\s\"]+)")
# Query values (?q=words&user_id=bob): the keys stay, the values go.
_QUERY_VALUE = re.compile(r"([?&][^=&#\s\"]{1,64}=)[^&#\s\"]*")

_key = b""


def _digest_key() -> bytes:
    global _key
    if not _key:
        try:
            from django.conf import settings

            _key = hashlib.sha256(str(settings.SECRET_KEY).encode()).digest()
        except Exception:  # no settings (a bare gunicorn process before Django loads): still hide the id
            _key = b"memory-site-log"
    return _key


def pseudonym(value: str) -> str:
    """A short keyed digest of a user id: stable within one deployment, not reversible without its key."""
    return "u-" + hashlib.blake2b(value.encode(errors="replace"), key=_digest_key()[:64], digest_size=6).hexdigest()


def redact(text: str) -> str:
    """The text with user ids in paths replaced by their pseudonym and query values dropped."""
    if "/" not in text and "=" not in text:
        return text
    text = _USER_PATH.sub(lambda m: m.group(1) + pseudonym(m.group(2)), text)
    return _QUERY_VALUE.sub(r"\1-", text)


class RedactFilter(logging.Filter):
    """Rewrites a record's message through `redact`; never drops a record."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a record whose arguments do not fit its format: keep the format only
            message = str(record.msg)
        clean = redact(message)
        if clean != message or record.args:
            record.msg, record.args = clean, None
        if record.exc_info and record.exc_info[1] is not None:
            # Set here, not in a formatter: logging caches the first handler's rendering in exc_text.
            record.exc_text = format_exception_quietly(record.exc_info)  # type: ignore[arg-type]
        return True


def format_exception_quietly(exc_info: tuple[type[BaseException], BaseException, TracebackType | None]) -> str:
    """The traceback's frames and the exception's type, without its text (nor its chained causes' text)."""
    lines: list[str] = []
    exc: BaseException | None = exc_info[1]
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        lines.insert(0, f"{type(exc).__module__}.{type(exc).__qualname__} (message withheld)\n")
        lines.insert(0, "".join(traceback.format_tb(exc.__traceback__)))
        lines.insert(0, "Traceback (most recent call last):\n")
        exc = exc.__cause__ or exc.__context__
        if exc is not None:
            lines.insert(0, "\n(caused by or during the handling of)\n")
    return "".join(lines).rstrip("\n")


class QuietFormatter(logging.Formatter):
    """A formatter whose tracebacks hold frames and exception types only."""

    def formatException(self, ei: Any) -> str:  # noqa: N802 (logging's API)
        return format_exception_quietly(ei)


def quiet_handler(handler: logging.Handler) -> None:
    """Make an existing handler (Celery's, gunicorn's) redact and withhold exception text."""
    if not any(isinstance(f, RedactFilter) for f in handler.filters):
        handler.addFilter(RedactFilter())
    fmt = handler.formatter
    if fmt is not None and not isinstance(fmt, QuietFormatter):
        fmt.formatException = QuietFormatter.formatException.__get__(fmt)  # type: ignore[method-assign]
