"""The conversations app's domain errors (the API answers each with its kind's HTTP status)."""

from __future__ import annotations

from memory_site.errors import OverLimit


class TooManyMessages(OverLimit):
    """The subject already holds MAX_MESSAGES_PER_SUBJECT messages: an erasure or retention makes room."""

    code = "too_many_messages"

    def __init__(self, *, limit: int, held: int, adding: int) -> None:
        super().__init__(
            f"This user already has {held} messages; the limit is {limit} per user.",
            details={"limit": limit, "held": held, "adding": adding},
        )
