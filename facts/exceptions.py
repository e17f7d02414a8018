"""The facts app's errors: domain errors services raise (the API answers each with its kind's HTTP status), and
the pipeline's ExtractionFailed (its task retries)."""

from __future__ import annotations

from typing import Any

from memory_site.errors import InvalidInput, NotFound, StateConflict


class ExtractionFailed(Exception):
    """Some messages of a batch failed; they are back to pending (or failed after the last attempt)."""


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
