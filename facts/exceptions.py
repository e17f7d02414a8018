"""The facts app's errors: domain errors services raise (the API answers each with its kind's HTTP status), and
the pipeline's ExtractionFailed (its task retries)."""

from __future__ import annotations

from typing import Any

from memory_site.errors import InvalidInput, NotFound, OverLimit, StateConflict


class ExtractionFailed(Exception):
    """Some messages of a batch failed; they are back to pending (or failed after the last attempt)."""

    job_error_code = "extraction_failed"
    job_error_message = "Some messages of the batch could not be extracted; they are retried."


class MemoryPaused(StateConflict):
    code = "memory_paused"
    message = "Memory is paused for this user."


class FactNotFound(NotFound):
    message = "No such fact."


class ConflictAlreadyResolved(StateConflict):
    message = "This conflict is already resolved."

    def __init__(self, *, state: str) -> None:
        super().__init__(details={"state": state})


class InvalidKeep(InvalidInput):
    message = "keep must be a fact id of this conflict, 'both' or 'neither'."

    def __init__(self, keep: Any) -> None:
        super().__init__(details={"keep": keep})


class TooManyFacts(OverLimit):
    """The subject already holds MAX_FACTS_PER_SUBJECT facts: forgetting or erasure makes room."""

    code = "too_many_facts"

    def __init__(self, *, limit: int, held: int) -> None:
        super().__init__(
            f"This user already has {held} facts; the limit is {limit} per user.",
            details={"limit": limit, "held": held},
        )
