"""A job's error as its API shows it: a stable code and a fixed message, never an internal exception's text.

A failed extraction stores `"<code>: <message>"` on the message (`extraction_error`), both stable
(`memory_site.errors.job_error`: never an exception's repr, which can quote the user's own text); the log keeps the
traceback for operators, and the API answers with the code and its message below.
"""

from __future__ import annotations

from memory_site.errors import job_error as stable_job_error

JOB_ERRORS = {
    "extraction_failed": "A message of this job could not be extracted; it is retried, and operators can see why.",
    "database_unavailable": "The database was unavailable during extraction; the job is retried.",
    "embedder_unavailable": "The embedder was unavailable during extraction; the job is retried.",
    "task_failed": "The extraction task failed; its messages are retried by the sweeper.",
    "invalid_data": "A value of this job could not be stored.",
    "timeout": "The work took longer than its time limit; it is retried.",
    "internal_error": "The work failed; it is retried, and operators can see why in the log.",
    # Not a failure (the message is done and its turn searchable) but a limit the client must hear of.
    "too_many_facts": "This user holds the most facts allowed; facts past the limit were not stored. Forgetting "
    "or erasing facts makes room.",
}
# Notes on a message that finished: the job did not fail.
NOT_ERRORS = ("llm fallback", "llm dropped")


def job_error_record(exc: BaseException, *, code: str = "") -> str:
    """What a message keeps of a failure: a stable code and message (the traceback goes to the log)."""
    stored = stable_job_error(exc)
    if not code and stored.startswith("internal_error:"):
        code = "extraction_failed"  # the pipeline's own failure: say so rather than a bare internal error
    if code:
        return f"{code}: {JOB_ERRORS.get(code, 'The work failed.')}"
    return stored


def job_error_coded(code: str, detail: str = "") -> str:
    """What a message keeps for a known code: the code, its stable message and a detail that quotes no user text
    (counts, limits)."""
    stored = f"{code}: {JOB_ERRORS[code]}"
    return f"{stored} ({detail})" if detail else stored


def job_error(stored: str) -> dict[str, str] | None:
    """The API's error for a message's stored error: None for a note (an LLM fallback), else code and message."""
    if not stored or stored.startswith(NOT_ERRORS):
        return None
    code = stored.split(":", 1)[0].strip()
    if code not in JOB_ERRORS:
        code = "extraction_failed"
    return {"code": code, "message": JOB_ERRORS[code]}
