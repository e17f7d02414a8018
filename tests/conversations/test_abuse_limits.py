"""Abuse limits: per-key rate limits counted where every process sees them, failed authentication throttled per
address before any lookup, nothing started for a throttled request, read-only keys, per-user caps."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from conversations.models import ApiKey, Message
from conversations.services import api_key_create
from facts.models import Fact
from tests.conftest import ROOT, Persona
from tests.stack import database_url

pytestmark = pytest.mark.django_db


@pytest.fixture
def key_rate(settings: Any) -> Any:
    def set_rate(rate: str) -> None:
        settings.API_RATE_LIMIT = rate

    return set_rate


def _throttled(response: Any) -> None:
    assert response.status_code == 429, response.content
    assert int(response["Retry-After"]) >= 1
    assert response.json()["error"]["code"] == "throttled"


def test_the_rate_limit_is_counted_where_every_process_sees_it(alice: Persona, key_rate: Any) -> None:
    """Two web processes each counting alone let twice the limit through: the count lives in Redis, and a second
    process reads this one's requests there."""
    assert django_settings.CACHES["throttle"]["BACKEND"].endswith("RedisCache")
    alice.post("facts", {"text": "I love green tea."})  # the first request of the key's minute
    key_rate("3/min")
    assert alice.search("tea").status_code == 200
    assert alice.search("tea").status_code == 200
    _throttled(alice.search("tea"))
    key = ApiKey.objects.get(tenant=alice.tenant, name="alice")
    script = (
        "import django; django.setup(); from conversations.auth import key_requests_counted; "
        f"print(key_requests_counted({key.key_hash!r}))"
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "memory_site.settings",
        "DATABASE_URL": database_url(connection.settings_dict),
        "THROTTLE_CACHE_URL": django_settings.CACHES["throttle"]["LOCATION"],
        "THROTTLE_KEY_PREFIX": django_settings.CACHES["throttle"]["KEY_PREFIX"],
    }
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert out.stdout.strip().splitlines()[-1] == "3", out.stderr[-2000:]


def test_failed_authentication_is_throttled_per_address_before_any_lookup(alice: Persona, settings: Any) -> None:
    settings.AUTH_FAILURE_RATE = "3/min"
    guesser = APIClient(REMOTE_ADDR="203.0.113.7")
    for n in range(3):
        guesser.credentials(HTTP_AUTHORIZATION=f"Bearer ms_guess-{n}")
        assert guesser.post("/api/v1/users/alice/search", {"query": "x"}, format="json").status_code == 401
    guesser.credentials(HTTP_AUTHORIZATION=f"Bearer {alice.key}")  # even the right key, from that address
    with CaptureQueriesContext(connection) as queries:
        _throttled(guesser.post("/api/v1/users/alice/search", {"query": "x"}, format="json"))
    assert len(queries) == 0  # refused before the key was looked up
    mcp = APIClient(REMOTE_ADDR="203.0.113.7")
    mcp.credentials(HTTP_AUTHORIZATION="Bearer ms_guess-mcp")
    _throttled(mcp.post("/mcp/", {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, format="json"))
    spoofer = APIClient(REMOTE_ADDR="203.0.113.7", HTTP_X_FORWARDED_FOR="192.0.2.44")  # no proxy is trusted
    spoofer.credentials(HTTP_AUTHORIZATION="Bearer ms_guess-again")
    _throttled(spoofer.post("/api/v1/users/alice/search", {"query": "x"}, format="json"))
    other = APIClient(REMOTE_ADDR="198.51.100.9")
    other.credentials(HTTP_AUTHORIZATION=f"Bearer {alice.key}")
    assert other.post("/api/v1/users/alice/search", {"query": "x"}, format="json").status_code in (200, 404)
    assert alice.search("x").status_code in (200, 404)  # good keys never count as failures


def test_a_throttled_search_starts_no_work(alice: Persona, key_rate: Any) -> None:
    """Refused by the throttle, a search runs nothing past the key's lookup: no subject read, no candidate
    statement, no query embedding (which starts inside the search, after them)."""
    alice.post("facts", {"text": "I love green tea."})  # the first request of the key's minute
    key_rate("2/min")
    with CaptureQueriesContext(connection) as admitted:
        assert alice.search("green tea").status_code == 200
    with CaptureQueriesContext(connection) as refused:
        _throttled(alice.search("black coffee"))
    assert len(admitted) > 1 and len(refused) == 1  # the key (and the URL's user) in one statement, then 429


def test_a_read_only_key_reads_and_cannot_write(alice: Persona) -> None:
    fact = alice.post("facts", {"text": "I live in Lisbon."}).json()
    alice.ingest("我住在北京。", wait=False)
    _, raw = api_key_create(tenant=alice.tenant, name="dashboard", read_only=True)
    reader = APIClient()
    reader.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
    base = "/api/v1/users/alice"
    assert reader.post(f"{base}/search", {"query": "Lisbon"}, format="json").status_code == 200
    assert reader.post(f"{base}/context", {"query": "Lisbon"}, format="json").status_code == 200
    assert reader.get(f"{base}/facts").status_code == 200
    assert reader.get(f"{base}/facts/{fact['id']}/history").status_code == 200
    before = (Fact.objects.count(), Message.objects.count(), list(Fact.objects.values_list("text", "status")))
    writes = [
        reader.post(f"{base}/facts", {"text": "I live in Porto."}, format="json"),
        reader.post(f"{base}/messages", {"messages": [{"role": "user", "content": "hi"}]}, format="json"),
        reader.patch(f"{base}/facts/{fact['id']}", {"text": "I live in Porto."}, format="json"),
        reader.delete(f"{base}/facts/{fact['id']}"),
        reader.delete(base),
        reader.post(f"{base}/portal-link", {}, format="json"),
        reader.post("/api/v1/webhooks", {"url": "https://example.com/h", "events": ["fact.created"]}, format="json"),
        reader.post("/v3/memories/add/", {"messages": [{"role": "user", "content": "hi"}], "user_id": "alice"},
                    format="json"),
    ]  # fmt: skip
    for response in writes:
        assert response.status_code == 403, response.content
        assert response.json()["error"] == {
            "code": "read_only_key",
            "message": "This API key is read-only.",
            "details": {},
        }
    assert (Fact.objects.count(), Message.objects.count(), list(Fact.objects.values_list("text", "status"))) == before


def test_a_read_only_key_cannot_write_through_mcp(alice: Persona) -> None:
    from integrations.mcp.tools import McpRefused, remember

    key, _ = api_key_create(tenant=alice.tenant, name="mcp-reader", read_only=True)
    with pytest.raises(McpRefused, match="read-only"):
        remember(key_hash=key.key_hash, user="alice", text="I live in Porto.")
    assert not Fact.objects.exists()


def test_a_user_holds_at_most_the_cap_of_messages(alice: Persona, settings: Any) -> None:
    settings.MAX_MESSAGES_PER_SUBJECT = 3
    assert alice.ingest("one", "two", wait=False).status_code == 202
    response = alice.ingest("three", "four", wait=False)
    assert response.status_code == 413
    assert response.json()["error"] == {
        "code": "too_many_messages",
        "message": "This user already has 2 messages; the limit is 3 per user.",
        "details": {"limit": 3, "held": 2, "adding": 2},
    }
    assert Message.objects.count() == 2
    assert alice.ingest("three", wait=False).status_code == 202


def test_a_user_holds_at_most_the_cap_of_facts(alice: Persona, settings: Any) -> None:
    settings.MAX_FACTS_PER_SUBJECT = 1
    assert alice.post("facts", {"text": "I live in Lisbon."}).status_code == 201
    response = alice.post("facts", {"text": "我有一只猫叫咪咪。"})
    assert response.status_code == 413 and response.json()["error"]["code"] == "too_many_facts"
    assert Fact.objects.count() == 1
