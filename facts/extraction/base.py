"""The shapes shared by every extractor."""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

_F = TypeVar("_F", bound=Callable[..., Any])
_memos: list[Any] = []


def sentence_memo(fn: _F) -> _F:
    """The rules' verdicts on one sentence are pure functions of its text, asked several times a turn (to prime the
    classifier, to gate, to type, to phrase the fact): memoised per process. Over the LoCoMo dev turns the rules' own
    CPU falls by about a third (bench/README.md, session 29)."""
    memo = functools.lru_cache(maxsize=4096)(fn)
    _memos.append(memo)
    return memo  # type: ignore[return-value]


def clear_sentence_memos() -> None:
    """Forget every memoised verdict (a timing of the rules' cold work reads them afresh)."""
    for memo in _memos:
        memo.cache_clear()


@dataclass
class MessageView:
    """What an extractor sees of a message (no ORM objects cross this line)."""

    id: int
    role: str
    name: str
    content: str
    created_at: dt.datetime
    # The speaker's own turns among the four before this one in the same session (newest first, one a line), and the
    # turn just before when someone else's (an assistant's or another person's): a he or she may stand for a relative
    # they name (referent.py).
    previous_user_content: str = ""
    previous_other_content: str = ""
    # The assistant's turn just before this one in the same session, if any (a user's "Yes." may confirm it).
    previous_assistant_content: str = ""


@dataclass
class Candidate:
    """A fact the extractor proposes; reconciliation decides whether it is new, a merge or a supersede."""

    message_id: int
    text: str
    type: str = "other"
    subject_entity: str = ""
    predicate: str = ""
    object_value: str = ""
    entities: list[dict[str, str]] = field(default_factory=list)
    keywords: list[str] = field(default_factory=list)
    confidence: float = 0.7
    importance: float = 0.5
    valid_from: dt.datetime | None = None
    event_time: dt.datetime | None = None
    expires_at: dt.datetime | None = None
    span_start: int | None = None
    span_end: int | None = None
    language: str = "en"
    pinned: bool = False
    extractor: str = "rules"


@dataclass
class GateDecision:
    keep: bool
    reason: str


@dataclass
class Command:
    """An explicit instruction found in a message: remember (pin) or forget."""

    kind: str  # "remember" | "forget"
    target: str = ""


@dataclass
class ExtractionOutput:
    gate: GateDecision
    candidates: list[Candidate]
    commands: list[Command] = field(default_factory=list)
    extractor: str = "rules"
    fallback_reason: str = ""
    dropped_reason: str = ""  # what the extractor's answer held that was not this batch's (an LLM naming others)
    llm_tokens: int = 0  # this message's share of the LLM call's `usage` (the shares of a prompt sum to its total)


class Extractor(Protocol):
    name: str
    version: str

    def extract(self, messages: list[MessageView]) -> dict[int, ExtractionOutput]: ...
