"""Bearer-key authentication and tenant isolation across the API."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from conversations.models import ApiKey
from conversations.services import api_key_revoke

pytestmark = pytest.mark.django_db


def _search(client: APIClient, user: str = "alice"):  # type: ignore[no-untyped-def]
    return client.post(f"/api/v1/users/{user}/search", {"query": "where do I live"}, format="json")


def test_missing_key_is_401(anon_client: APIClient) -> None:
    response = _search(anon_client)
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "unauthenticated"


def test_wrong_key_is_401(anon_client: APIClient) -> None:
    anon_client.credentials(HTTP_AUTHORIZATION="Bearer ms_not-a-real-key")
    response = _search(anon_client)
    assert response.status_code == 401
    assert response.json()["error"]["message"] == "Invalid API key."


def test_malformed_header_is_401(anon_client: APIClient) -> None:
    anon_client.credentials(HTTP_AUTHORIZATION="Token abc def")
    assert _search(anon_client).status_code == 401


def test_revoked_key_is_401(alice) -> None:  # type: ignore[no-untyped-def]
    alice.ingest("I live in Beijing and work as a nurse.")
    assert alice.search("where do I live").status_code == 200
    key = ApiKey.objects.get(tenant=alice.tenant, name="alice")
    api_key_revoke(api_key=key)
    response = alice.search("where do I live")
    assert response.status_code == 401
    assert "revoked" in response.json()["error"]["message"]


def test_only_hash_is_stored(alice) -> None:  # type: ignore[no-untyped-def]
    key = ApiKey.objects.get(tenant=alice.tenant, name="alice")
    assert alice.key not in (key.key_hash, key.prefix)
    assert len(key.key_hash) == 64


def test_other_tenant_gets_404_for_a_subject(alice, carol) -> None:  # type: ignore[no-untyped-def]
    alice.ingest("I live in Beijing and my dog is called Max.")
    assert alice.search("dog").status_code == 200
    response = carol.post("search", {"query": "dog"}, user="alice")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_same_external_id_in_two_tenants_are_two_subjects(alice, carol) -> None:  # type: ignore[no-untyped-def]
    alice.ingest("I live in Beijing and I love hiking.")
    carol.post(
        "messages?wait=true",
        {"messages": [{"role": "user", "content": "I live in Paris and love jazz."}]},
        user="alice",
    )
    alice_results = alice.search("where do I live").json()["results"]
    carol_results = carol.post("search", {"query": "where do I live"}, user="alice").json()["results"]
    assert any("Beijing" in r["text"] for r in alice_results)
    assert all("Paris" not in r["text"] for r in alice_results)
    assert any("Paris" in r["text"] for r in carol_results)
    assert all("Beijing" not in r["text"] for r in carol_results)


def test_unknown_route_is_json_404(alice) -> None:  # type: ignore[no-untyped-def]
    response = alice.client.get("/api/v1/nope")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"
