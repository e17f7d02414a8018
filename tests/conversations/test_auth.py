"""Bearer-key authentication and tenant isolation across the API."""

from __future__ import annotations

from typing import Any

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


def test_the_key_lookup_loads_what_the_orm_loads_in_one_statement(alice, carol) -> None:  # type: ignore[no-untyped-def]
    from django.db import connection
    from django.http import Http404
    from django.test.utils import CaptureQueriesContext

    from conversations.auth import hash_key
    from conversations.models import Subject
    from conversations.selectors import api_key_and_subject, subject_get

    def values(obj: Any) -> dict[str, Any]:
        return {f.attname: getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields}

    alice.ingest("I have a dog named Rex.", wait=False)
    subject = Subject.objects.get(tenant=alice.tenant, external_id="alice")
    orm = ApiKey.objects.select_related("tenant").get(key_hash=hash_key(alice.key))
    for user in (None, "alice", "nobody"):
        with CaptureQueriesContext(connection) as queries:
            key, found = api_key_and_subject(hash_key(alice.key), user)
        assert len(queries) == 1
        assert key is not None and values(key) == values(orm) and values(key.tenant) == values(orm.tenant)
        assert values(found) == values(subject) if user == "alice" else found is None
    assert api_key_and_subject(hash_key("ms_not-a-key"), "alice") == (None, None)
    # Another tenant's key with alice's user id: the key, and no subject (the view answers 404).
    key, found = api_key_and_subject(hash_key(carol.key), "alice")
    assert key is not None and key.tenant_id == carol.tenant.pk and found is None
    assert values(subject_get(tenant=alice.tenant, external_id="alice")) == values(subject)
    with pytest.raises(Http404):
        subject_get(tenant=carol.tenant, external_id="alice")


@pytest.mark.django_db(transaction=True)
def test_a_connection_lost_between_requests_is_replaced_by_the_key_lookup(alice) -> None:  # type: ignore[no-untyped-def]
    """The key lookup, a request's first statement, is sent instead of Django's health check (`SELECT 1`): a
    backend that died since the last request is found by it, and the lookup runs again on a new connection."""
    import psycopg
    from django.db import connection

    from conversations.auth import hash_key
    from conversations.selectors import api_key_and_subject

    alice.ingest("My sister lives in Lisbon.", "我妹妹住在里斯本。")
    assert _search(alice.client).status_code == 200
    for request in ("search", "lookup"):
        _health_check_due()
        pid = connection.connection.info.backend_pid
        with psycopg.connect(**connection.get_connection_params(), autocommit=True) as admin:
            assert admin.execute("SELECT pg_terminate_backend(%s, 10000)", [pid]).fetchone() == (True,)
        if request == "search":
            response = alice.search("where does my sister live")
            assert response.status_code == 200
            assert any("Lisbon" in hit["text"] for hit in response.json()["results"])
        else:
            key, subject = api_key_and_subject(hash_key(alice.key), "alice")
            assert key is not None and subject is not None and subject.external_id == "alice"
        assert connection.connection.info.backend_pid != pid


@pytest.mark.django_db(transaction=True)
def test_a_failing_key_lookup_on_a_sound_connection_raises(alice) -> None:  # type: ignore[no-untyped-def]
    from django.db import DataError, connection

    from conversations.selectors import api_key_and_subject

    assert alice.client.get("/api/v1/tools").status_code == 200
    _health_check_due()
    pid = connection.connection.info.backend_pid
    with pytest.raises(DataError):
        api_key_and_subject("\x00")  # no text value may hold NUL: refused before it reaches the server
    assert connection.connection.info.backend_pid == pid  # the connection kept


def _health_check_due() -> None:
    """What a new request does first (the test client does not): the open connection's check is due again."""
    from django.db import close_old_connections, connection

    for _ in range(2):  # a connection closed here (after an error, or too old) is opened again, then kept
        connection.ensure_connection()
        close_old_connections()
        if connection.connection is not None:
            break
    assert connection.connection is not None and not connection.health_check_done
