"""The MCP server end to end with the MCP SDK's own client: over streamable HTTP against the live server (both
protocol eras), and over stdio against `manage.py mcp` in a subprocess; one tenant's key, refusals for the rest."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

import anyio
import httpx2
import pytest
from django.db import connection
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from conversations.models import ApiKey
from conversations.services import api_key_revoke
from tests.conftest import Persona

ROOT = Path(__file__).resolve().parents[2]
TOOLS = {"recall", "remember", "forget", "list_memories", "get_context"}


async def call(client: Client, name: str, arguments: dict[str, Any]) -> tuple[bool, Any]:
    """(is_error, the answer: parsed JSON, or the refusal's text)."""
    result = await client.call_tool(name, arguments)
    text = "".join(getattr(block, "text", "") for block in result.content)
    return bool(result.is_error), (text if result.is_error else json.loads(text))


def over_http(url: str, key: str, session: Callable[[Client], Awaitable[None]], mode: str = "auto") -> None:
    async def main() -> None:
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {key}"}, timeout=60)
        async with http, Client(streamable_http_client(url, http_client=http), mode=mode) as client:  # type: ignore[arg-type]
            await session(client)

    anyio.run(main)


async def remember_recall_context_forget(client: Client) -> None:
    """What an agent does with the tools, checked as it goes."""
    assert {t.name for t in (await client.list_tools()).tools} == TOOLS
    error, fact = await call(client, "remember", {"user": "alice", "text": "User's favourite colour is teal."})
    assert not error and fact["action"] == "created" and fact["text"] == "User's favourite colour is teal."
    error, chinese = await call(client, "remember", {"user": "alice", "text": "用户的狗叫豆豆。"})
    assert not error
    error, listed = await call(client, "list_memories", {"user": "alice"})
    assert {f["id"] for f in listed["results"]} == {fact["id"], chinese["id"]}
    error, found = await call(client, "recall", {"user": "alice", "query": "What is my favourite colour?", "limit": 3})
    assert not error and found["results"][0]["id"] == fact["id"] and "took_ms" in found
    error, found = await call(client, "recall", {"user": "alice", "query": "我的狗叫什么名字"})
    assert found["results"][0]["id"] == chinese["id"]
    error, context = await call(client, "get_context", {"user": "alice", "query": "colour", "token_budget": 300})
    assert not error and "teal" in context["context"] and context["tokens"] <= 300
    error, gone = await call(client, "forget", {"user": "alice", "fact_id": fact["id"]})
    assert not error and gone == {"forgotten": fact["id"]}
    error, listed = await call(client, "list_memories", {"user": "alice"})
    assert [f["id"] for f in listed["results"]] == [chinese["id"]]
    error, message = await call(client, "forget", {"user": "alice", "fact_id": fact["id"]})
    assert error and message.endswith("No such fact.")


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("mode", ["auto", "legacy"])  # the 2026-07-28 protocol, and the initialize handshake
def test_the_tools_over_streamable_http(alice: Persona, live_server: Any, mode: str) -> None:
    over_http(f"{live_server.url}/mcp/", alice.key, remember_recall_context_forget, mode=mode)
    assert alice.get("facts").json()["results"][0]["text"] == "用户的狗叫豆豆。"  # the REST API sees the same memory


@pytest.mark.django_db(transaction=True)
def test_http_refuses_no_key_a_revoked_key_and_another_tenants_user(
    alice: Persona, carol: Persona, live_server: Any
) -> None:
    fact = alice.post("facts", {"text": "User's passport number is in the blue folder."}).json()
    url = f"{live_server.url}/mcp/"

    async def carol_tries(client: Client) -> None:
        for name, arguments in (
            ("recall", {"user": "alice", "query": "passport"}),
            ("list_memories", {"user": "alice"}),
            ("get_context", {"user": "alice", "query": "passport"}),
            ("forget", {"user": "alice", "fact_id": fact["id"]}),
        ):
            error, message = await call(client, name, arguments)
            assert error and message.endswith("No such user."), (name, message)
        error, own = await call(client, "remember", {"user": "alice", "text": "User likes jazz."})  # carol's own alice
        assert not error

    over_http(url, carol.key, carol_tries)
    assert [f["text"] for f in alice.get("facts").json()["results"]] == [fact["text"]]  # untouched, nothing added
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
    headers = {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2026-07-28"}
    no_key = httpx2.post(url, json=body, headers=headers)
    assert no_key.status_code == 401 and no_key.json()["error"]["code"] == "unauthenticated"
    assert httpx2.post(url, json=body, headers={**headers, "Authorization": "Bearer ms_wrong"}).status_code == 401
    api_key_revoke(api_key=ApiKey.objects.get(tenant=alice.tenant, name="alice"))
    revoked = httpx2.post(url, json=body, headers={**headers, "Authorization": f"Bearer {alice.key}"})
    assert revoked.status_code == 401 and "revoked" in revoked.json()["error"]["message"]
    assert httpx2.get(url, headers={"Authorization": f"Bearer {carol.key}"}).status_code == 405


def _database_url() -> str:
    s = connection.settings_dict
    host = s.get("HOST") or ""
    host = quote(host, safe="") if host.startswith("/") else host
    return f"postgresql://{s.get('USER') or 'postgres'}:{s.get('PASSWORD') or ''}@{host}:{s.get('PORT') or 5432}/{s['NAME']}"


def stdio_server(key: str) -> StdioServerParameters:
    env = {**os.environ, "DATABASE_URL": _database_url(), "MEMORY_SITE_WARMUP": "0"}
    return StdioServerParameters(command=sys.executable, args=["manage.py", "mcp", "--key", key], env=env, cwd=ROOT)


@pytest.mark.django_db(transaction=True)
def test_the_tools_over_stdio_and_a_key_revoked_while_running(alice: Persona, carol: Persona) -> None:
    key = ApiKey.objects.get(tenant=alice.tenant, name="alice")

    async def session() -> None:
        async with Client(stdio_server(alice.key)) as client:
            await remember_recall_context_forget(client)
            await anyio.to_thread.run_sync(lambda: api_key_revoke(api_key=key))
            error, message = await call(client, "list_memories", {"user": "alice"})
            assert error and message.endswith("This API key has been revoked.")
        async with Client(stdio_server(carol.key)) as client:
            error, message = await call(client, "recall", {"user": "alice", "query": "dog"})
            assert error and message.endswith("No such user.")

    anyio.run(session)
    refused = subprocess.run(
        [sys.executable, "manage.py", "mcp", "--key", alice.key],
        cwd=ROOT, env={**os.environ, "DATABASE_URL": _database_url()}, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert refused.returncode != 0 and "revoked" in refused.stderr and refused.stdout == ""
