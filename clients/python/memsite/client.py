"""Memory Site's REST API (/api/v1/) from Python: `Client` (sync) and `AsyncClient`, the same methods.

Each operation is first described as a `Call` (method, path, query, body, how to read the answer), so both
clients share everything but the sending.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar
from urllib.parse import quote

import httpx

from memsite.errors import ConnectionFailed, MemsiteError, error_for
from memsite.types import Context, Fact, FactPage, Ingested, PortalLink, SearchResult

T = TypeVar("T")
Messages = str | Sequence[str] | Sequence[dict[str, Any]]
_KEEP: Any = object()  # "leave as it is", as opposed to None ("remove")
DEFAULT_TIMEOUT = 30.0


@dataclass(frozen=True)
class Call(Generic[T]):
    method: str
    path: str
    read: Callable[[httpx.Response], T]
    json: Any = None
    params: dict[str, Any] | None = None


def _user(user: str) -> str:
    if not user:
        raise ValueError("user must be the user's id")
    return quote(user, safe="")


def _json(response: httpx.Response) -> Any:
    return response.json()


def _none(response: httpx.Response) -> None:
    return None


def _when(value: dt.datetime | str | None) -> str | None:
    return value.isoformat() if isinstance(value, dt.datetime) else value


def _messages(messages: Messages) -> list[dict[str, Any]]:
    if isinstance(messages, str):
        return [{"role": "user", "content": messages}]
    return [{"role": "user", "content": m} if isinstance(m, str) else dict(m) for m in messages]


class _Operations:
    """The calls, shared by both clients."""

    @staticmethod
    def add(user: str, messages: Messages, *, session_id: str, wait: bool) -> Call[Ingested]:
        body = {"session_id": session_id, "messages": _messages(messages)}
        params = {"wait": "true"} if wait else None
        return Call("POST", f"users/{_user(user)}/messages", lambda r: Ingested.from_json(r.json()), body, params)

    @staticmethod
    def remember(user: str, text: str, fields: dict[str, Any]) -> Call[Fact]:
        return Call("POST", f"users/{_user(user)}/facts", lambda r: Fact.from_json(r.json()), {"text": text, **fields})

    @staticmethod
    def search(user: str, query: str, body: dict[str, Any]) -> Call[SearchResult]:
        body = {"query": query, **{k: _when(v) for k, v in body.items() if v is not None}}
        return Call("POST", f"users/{_user(user)}/search", lambda r: SearchResult.from_json(r.json()), body)

    @staticmethod
    def context(user: str, query: str, session_id: str | None, token_budget: int) -> Call[Context]:
        body = {"query": query, "session_id": session_id, "token_budget": token_budget}
        return Call("POST", f"users/{_user(user)}/context", lambda r: Context.from_json(r.json()), body)

    @staticmethod
    def facts(user: str, params: dict[str, Any]) -> Call[FactPage]:
        params = {k: v for k, v in params.items() if v is not None}
        return Call("GET", f"users/{_user(user)}/facts", lambda r: FactPage.from_json(r.json()), params=params)

    @staticmethod
    def fact(user: str, fact_id: int) -> Call[Fact]:
        return Call("GET", f"users/{_user(user)}/facts/{int(fact_id)}", lambda r: Fact.from_json(r.json()))

    @staticmethod
    def correct(user: str, fact_id: int, changes: dict[str, Any]) -> Call[Fact]:
        body = {k: _when(v) for k, v in changes.items() if v is not _KEEP}
        return Call("PATCH", f"users/{_user(user)}/facts/{int(fact_id)}", lambda r: Fact.from_json(r.json()), body)

    @staticmethod
    def forget(user: str, fact_id: int) -> Call[None]:
        return Call("DELETE", f"users/{_user(user)}/facts/{int(fact_id)}", _none)

    @staticmethod
    def export(user: str, format: str) -> Call[Any]:
        read: Callable[[httpx.Response], Any] = _json if format == "json" else (lambda r: r.text)
        return Call("GET", f"users/{_user(user)}/export", read, params={"format": format})

    @staticmethod
    def erase(user: str) -> Call[None]:
        return Call("DELETE", f"users/{_user(user)}", _none)

    @staticmethod
    def portal_link(user: str, ttl_minutes: int | None) -> Call[PortalLink]:
        body = {"ttl_minutes": ttl_minutes} if ttl_minutes is not None else {}
        return Call("POST", f"users/{_user(user)}/portal-link", lambda r: PortalLink.from_json(r.json()), body)


def _settings(base_url: str | None, api_key: str | None) -> tuple[str, str]:
    url = base_url or os.environ.get("MEMSITE_URL") or "http://127.0.0.1:8000"
    key = api_key or os.environ.get("MEMSITE_KEY") or ""
    if not key:
        raise MemsiteError("No API key: pass api_key or set MEMSITE_KEY.")
    return url.rstrip("/") + "/api/v1/", key


def _finish(call: Call[T], response: httpx.Response) -> T:
    if response.status_code >= 400:
        try:
            body: Any = response.json()
        except ValueError:
            body = response.text
        raise error_for(response.status_code, body)
    return call.read(response)


def _changes(text: str | None, type: str | None, pinned: bool | None, expires_at: Any) -> dict[str, Any]:
    return {"text": text if text is not None else _KEEP, "type": type if type is not None else _KEEP,
            "pinned": pinned if pinned is not None else _KEEP, "expires_at": expires_at}  # fmt: skip


class Client:
    """Synchronous client. `base_url` and `api_key` default to MEMSITE_URL and MEMSITE_KEY."""

    def __init__(
        self, base_url: str | None = None, api_key: str | None = None, *, timeout: float = DEFAULT_TIMEOUT,
        transport: httpx.BaseTransport | None = None,
    ) -> None:  # fmt: skip
        url, key = _settings(base_url, api_key)
        self._http = httpx.Client(
            base_url=url, headers={"Authorization": f"Bearer {key}"}, timeout=timeout, transport=transport
        )

    def _do(self, call: Call[T]) -> T:
        try:
            response = self._http.request(call.method, call.path, json=call.json, params=call.params)
        except httpx.HTTPError as exc:
            raise ConnectionFailed(f"{type(exc).__name__}: {exc}") from exc
        return _finish(call, response)

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def add(self, user: str, messages: Messages, *, session_id: str = "default", wait: bool = False) -> Ingested:
        """Store conversation turns (a string is one user turn); with wait=True, extract before answering."""
        return self._do(_Operations.add(user, messages, session_id=session_id, wait=wait))

    def remember(self, user: str, text: str, **fields: Any) -> Fact:
        """Write one fact directly (type, entities, confidence, importance, expires_at, valid_from, metadata)."""
        return self._do(_Operations.remember(user, text, fields))

    def search(
        self, user: str, query: str, *, limit: int = 5, types: list[str] | None = None,
        include_archived: bool | None = None, include_messages: bool | None = None,
        since: dt.datetime | str | None = None, until: dt.datetime | str | None = None,
    ) -> SearchResult:  # fmt: skip
        """The user's facts that answer the query, best first."""
        body = {"limit": limit, "types": types, "include_archived": include_archived,
                "include_messages": include_messages, "since": since, "until": until}  # fmt: skip
        return self._do(_Operations.search(user, query, body))

    def context(
        self, user: str, query: str = "", *, session_id: str | None = None, token_budget: int = 2000
    ) -> Context:
        """Prompt-ready memory of the user under a token budget."""
        return self._do(_Operations.context(user, query, session_id, token_budget))

    def facts(
        self, user: str, *, type: str | None = None, tier: str | None = None, status: str | None = None,
        q: str | None = None, cursor: str | None = None,
    ) -> FactPage:  # fmt: skip
        """A page of the user's facts, newest first (`next_cursor` asks for the next)."""
        return self._do(
            _Operations.facts(user, {"type": type, "tier": tier, "status": status, "q": q, "cursor": cursor})
        )

    def fact(self, user: str, fact_id: int) -> Fact:
        return self._do(_Operations.fact(user, fact_id))

    def correct(
        self, user: str, fact_id: int, *, text: str | None = None, type: str | None = None,
        pinned: bool | None = None, expires_at: dt.datetime | str | None = _KEEP,
    ) -> Fact:  # fmt: skip
        """Correct a fact (recorded in its history); expires_at=None removes its expiry."""
        return self._do(_Operations.correct(user, fact_id, _changes(text, type, pinned, expires_at)))

    def forget(self, user: str, fact_id: int) -> None:
        """Forget one fact for good."""
        return self._do(_Operations.forget(user, fact_id))

    def export(self, user: str, format: Literal["json", "csv"] = "json") -> Any:
        """Everything held about the user: JSON (a dict, schema memory-site.export/1) or CSV text."""
        return self._do(_Operations.export(user, format))

    def erase(self, user: str) -> None:
        """Erase every trace of the user."""
        return self._do(_Operations.erase(user))

    def portal_link(self, user: str, *, ttl_minutes: int | None = None) -> PortalLink:
        """A signed, single-use link to the user's privacy portal."""
        return self._do(_Operations.portal_link(user, ttl_minutes))


class AsyncClient:
    """Asynchronous client: the same methods as `Client`, awaited."""

    def __init__(
        self, base_url: str | None = None, api_key: str | None = None, *, timeout: float = DEFAULT_TIMEOUT,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:  # fmt: skip
        url, key = _settings(base_url, api_key)
        self._http = httpx.AsyncClient(
            base_url=url, headers={"Authorization": f"Bearer {key}"}, timeout=timeout, transport=transport
        )

    async def _do(self, call: Call[T]) -> T:
        try:
            response = await self._http.request(call.method, call.path, json=call.json, params=call.params)
        except httpx.HTTPError as exc:
            raise ConnectionFailed(f"{type(exc).__name__}: {exc}") from exc
        return _finish(call, response)

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def add(self, user: str, messages: Messages, *, session_id: str = "default", wait: bool = False) -> Ingested:
        """Store conversation turns (a string is one user turn); with wait=True, extract before answering."""
        return await self._do(_Operations.add(user, messages, session_id=session_id, wait=wait))

    async def remember(self, user: str, text: str, **fields: Any) -> Fact:
        """Write one fact directly (type, entities, confidence, importance, expires_at, valid_from, metadata)."""
        return await self._do(_Operations.remember(user, text, fields))

    async def search(
        self, user: str, query: str, *, limit: int = 5, types: list[str] | None = None,
        include_archived: bool | None = None, include_messages: bool | None = None,
        since: dt.datetime | str | None = None, until: dt.datetime | str | None = None,
    ) -> SearchResult:  # fmt: skip
        """The user's facts that answer the query, best first."""
        body = {"limit": limit, "types": types, "include_archived": include_archived,
                "include_messages": include_messages, "since": since, "until": until}  # fmt: skip
        return await self._do(_Operations.search(user, query, body))

    async def context(
        self, user: str, query: str = "", *, session_id: str | None = None, token_budget: int = 2000
    ) -> Context:
        """Prompt-ready memory of the user under a token budget."""
        return await self._do(_Operations.context(user, query, session_id, token_budget))

    async def facts(
        self, user: str, *, type: str | None = None, tier: str | None = None, status: str | None = None,
        q: str | None = None, cursor: str | None = None,
    ) -> FactPage:  # fmt: skip
        """A page of the user's facts, newest first (`next_cursor` asks for the next)."""
        return await self._do(
            _Operations.facts(user, {"type": type, "tier": tier, "status": status, "q": q, "cursor": cursor})
        )

    async def fact(self, user: str, fact_id: int) -> Fact:
        return await self._do(_Operations.fact(user, fact_id))

    async def correct(
        self, user: str, fact_id: int, *, text: str | None = None, type: str | None = None,
        pinned: bool | None = None, expires_at: dt.datetime | str | None = _KEEP,
    ) -> Fact:  # fmt: skip
        """Correct a fact (recorded in its history); expires_at=None removes its expiry."""
        return await self._do(_Operations.correct(user, fact_id, _changes(text, type, pinned, expires_at)))

    async def forget(self, user: str, fact_id: int) -> None:
        """Forget one fact for good."""
        return await self._do(_Operations.forget(user, fact_id))

    async def export(self, user: str, format: Literal["json", "csv"] = "json") -> Any:
        """Everything held about the user: JSON (a dict, schema memory-site.export/1) or CSV text."""
        return await self._do(_Operations.export(user, format))

    async def erase(self, user: str) -> None:
        """Erase every trace of the user."""
        return await self._do(_Operations.erase(user))

    async def portal_link(self, user: str, *, ttl_minutes: int | None = None) -> PortalLink:
        """A signed, single-use link to the user's privacy portal."""
        return await self._do(_Operations.portal_link(user, ttl_minutes))
