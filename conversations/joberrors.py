"""A job's error as its API shows it: a stable code and a fixed message, never an internal exception's text.

A failed extraction stores `"<code>: <detail>"` on the message (`extraction_error`); operators read the detail
in the admin, the API answers only with the code and its message below.
"""

from __future__ import annotations

from django.db import InterfaceError, OperationalError

JOB_ERRORS = {
    "extraction_failed": "A message of this job could not be extracted; it is retried, and operators can see why.",
    "database_unavailable": "The database was unavailable during extraction; the job is retried.",
    "embedder_unavailable": "The embedder was unavailable during extraction; the job is retried.",
    "task_failed": "The extraction task failed; its messages are retried by the sweeper.",
}
# Notes on a message that finished: the job did not fail.
NOT_ERRORS = ("llm fallback", "llm dropped")


def job_error_record(exc: BaseException, *, code: str = "") -> str:
    """What a message keeps of a failure: its stable code, then the detail for operators."""
    if not code:
        if isinstance(exc, OperationalError | InterfaceError):
            code = "database_unavailable"
        elif type(exc).__name__ == "EmbedderUnavailable":
            code = "embedder_unavailable"
        else:
            code = "extraction_failed"
    return f"{code}: {exc!r}"


def job_error(stored: str) -> dict[str, str] | None:
    """The API's error for a message's stored error: None for a note (an LLM fallback), else code and message."""
    if not stored or stored.startswith(NOT_ERRORS):
        return None
    code = stored.split(":", 1)[0].strip()
    if code not in JOB_ERRORS:
        code = "extraction_failed"
    return {"code": code, "message": JOB_ERRORS[code]}
