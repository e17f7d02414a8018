"""One API key, one rate limit, whichever door it uses: the REST API, MCP (/mcp/) and mem0's paths count on the same
shared counter (API_RATE_LIMIT), answer 429 with Retry-After in their own error shape, and start no work (no tool, no
subject read, no query embedding) for a request the limit refuses."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from tests.conftest import Persona

pytestmark = pytest.mark.django_db


def _mcp(persona: Persona, method: str, params: dict[str, Any] | None = None) -> Any:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {persona.key}")
    return client.post(
        "/mcp/", {"jsonrpc": "2.0", "id": 1, "method": method, "params": params or {}}, format="json",
        HTTP_ACCEPT="application/json, text/event-stream",
    )  # fmt: skip


def _mem0(persona: Persona) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {persona.key}")
    return client


def _throttled(response: Any) -> dict[str, Any]:
    assert response.status_code == 429, response.content
    assert int(response["Retry-After"]) >= 1
    error = response.json()["error"]
    assert error["code"] == "throttled" and error["details"]["retry_after_seconds"] >= 1
    return response.json()  # type: ignore[no-any-return]


def _recall(persona: Persona, query: str) -> Any:
    return _mcp(persona, "tools/call", {"name": "recall", "arguments": {"user": "alice", "query": query}})


# A tool's close_old_connections closes a connection it finds inside a transaction (a plain test's).
@pytest.mark.django_db(transaction=True)
def test_mcp_counts_on_the_keys_rest_limit_and_refuses_before_any_work(alice: Persona, settings: Any) -> None:
    alice.post("facts", {"text": "I love green tea."})  # the first request of the key's minute (REST)
    settings.API_RATE_LIMIT = "3/min"
    admitted = _recall(alice, "green tea")  # the second
    assert admitted.status_code == 200, admitted.content
    assert "green tea" in admitted.json()["result"]["content"][0]["text"]
    assert alice.search("tea").status_code == 200  # the third, by REST
    with CaptureQueriesContext(connection) as refused:
        _throttled(_recall(alice, "black coffee"))
    assert len(refused) == 1  # the key's lookup: no tool ran, nothing was searched or embedded
    _throttled(_mcp(alice, "tools/list"))
    _throttled(alice.search("tea"))  # the REST API sees the requests made over MCP


def test_mcp_requests_alone_are_limited(alice: Persona, bob: Persona, settings: Any) -> None:
    settings.API_RATE_LIMIT = "2/min"
    assert _mcp(alice, "tools/list").status_code == 200
    assert _mcp(alice, "tools/list").status_code == 200
    _throttled(_mcp(alice, "tools/list"))
    assert _mcp(bob, "tools/list").status_code == 200  # another key has its own budget


def test_mem0_paths_count_on_the_same_limit_and_refuse_before_any_work(alice: Persona, settings: Any) -> None:
    alice.post("facts", {"text": "I love green tea."})  # the first request of the key's minute (REST)
    settings.API_RATE_LIMIT = "3/min"
    mem0 = _mem0(alice)
    search = {"query": "green tea", "filters": {"user_id": "alice"}}
    found = mem0.post("/v3/memories/search/", search, format="json")
    assert found.status_code == 200 and found.json()["results"], found.content
    assert _mcp(alice, "tools/list").status_code == 200  # the third, by MCP
    with CaptureQueriesContext(connection) as refused:
        body = _throttled(mem0.post("/v3/memories/search/", search, format="json"))
    assert len(refused) == 1  # the key's lookup only
    assert body["detail"] == body["error"]["message"]  # mem0's client reads `detail`
    _throttled(mem0.get("/v1/ping/"))
    _throttled(alice.search("tea"))


def test_mem0_failed_authentication_is_throttled_per_address(alice: Persona, settings: Any) -> None:
    """mem0's `Token` scheme counts failures on the same per-address counter as the REST API's `Bearer`."""
    settings.AUTH_FAILURE_RATE = "2/min"
    guesser = APIClient(REMOTE_ADDR="203.0.113.9")
    for n in range(2):
        guesser.credentials(HTTP_AUTHORIZATION=f"Token ms_guess-{n}")
        assert guesser.get("/v1/ping/").status_code == 401
    guesser.credentials(HTTP_AUTHORIZATION=f"Token {alice.key}")  # even the right key, from that address
    with CaptureQueriesContext(connection) as queries:
        body = _throttled(guesser.get("/v1/ping/"))
    assert len(queries) == 0 and body["detail"] == body["error"]["message"]
    guesser.credentials(HTTP_AUTHORIZATION=f"Bearer {alice.key}")
    _throttled(guesser.post("/api/v1/users/alice/search", {"query": "x"}, format="json"))
