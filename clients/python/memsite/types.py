"""What the API answers, as typed objects; each keeps the JSON it was read from in `raw`."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any


def _time(value: Any) -> dt.datetime | None:
    if not value:
        return None
    return dt.datetime.fromisoformat(str(value).replace("Z", "+00:00"))


@dataclass(frozen=True)
class Source:
    message_id: int
    external_id: str | None
    session_id: str
    created_at: dt.datetime | None

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Source:
        return cls(data["message_id"], data.get("external_id"), data["session_id"], _time(data.get("created_at")))


@dataclass(frozen=True)
class Fact:
    id: int
    uid: str
    text: str
    type: str
    status: str
    tier: str
    pinned: bool
    valid_from: dt.datetime | None
    expires_at: dt.datetime | None
    created_at: dt.datetime | None
    sources: list[Source]
    action: str | None  # on a write: created, merged, superseded or conflicted
    raw: dict[str, Any] = field(repr=False)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Fact:
        return cls(
            id=data["id"], uid=data["uid"], text=data["text"], type=data["type"], status=data["status"],
            tier=data["tier"], pinned=data["pinned"], valid_from=_time(data.get("valid_from")),
            expires_at=_time(data.get("expires_at")), created_at=_time(data.get("created_at")),
            sources=[Source.from_json(s) for s in data.get("sources", [])], action=data.get("action"), raw=data,
        )  # fmt: skip


@dataclass(frozen=True)
class FactPage:
    results: list[Fact]
    next_cursor: str | None
    raw: dict[str, Any] = field(repr=False)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> FactPage:
        return cls([Fact.from_json(f) for f in data["results"]], data.get("next_cursor"), data)


@dataclass(frozen=True)
class SearchHit:
    kind: str  # "fact" or "message"
    id: int
    text: str
    type: str
    score: float
    matched_by: list[str]
    valid_from: dt.datetime | None
    created_at: dt.datetime | None
    sources: list[Source]

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SearchHit:
        return cls(
            kind=data["kind"], id=data["id"], text=data["text"], type=data["type"], score=data["score"],
            matched_by=list(data.get("matched_by", [])), valid_from=_time(data.get("valid_from")),
            created_at=_time(data.get("created_at")), sources=[Source.from_json(s) for s in data.get("sources", [])],
        )  # fmt: skip


@dataclass(frozen=True)
class SearchResult:
    results: list[SearchHit]
    took_ms: float
    raw: dict[str, Any] = field(repr=False)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SearchResult:
        return cls([SearchHit.from_json(h) for h in data["results"]], data["took_ms"], data)


@dataclass(frozen=True)
class Context:
    context: str
    tokens: int
    full_history_tokens: int
    session_id: str | None
    sections: dict[str, Any]
    raw: dict[str, Any] = field(repr=False)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Context:
        return cls(
            data["context"], data["tokens"], data["full_history_tokens"], data.get("session_id"),
            data.get("sections", {}), data,
        )  # fmt: skip


@dataclass(frozen=True)
class Ingested:
    job_id: str
    message_ids: list[int]
    facts: list[Fact] | None  # with wait=True: the facts the messages touched
    raw: dict[str, Any] = field(repr=False)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Ingested:
        facts = [Fact.from_json(f) for f in data["facts"]] if "facts" in data else None
        return cls(data["job_id"], [m["id"] for m in data["messages"]], facts, data)


@dataclass(frozen=True)
class PortalLink:
    url: str
    expires_at: dt.datetime | None
    raw: dict[str, Any] = field(repr=False)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PortalLink:
        return cls(data["url"], _time(data.get("expires_at")), data)
