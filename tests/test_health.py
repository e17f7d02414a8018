"""GET /healthz reports the database, broker and embedder."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient


@pytest.mark.django_db
def test_healthz_ok(anon_client: APIClient) -> None:
    response = anon_client.get("/healthz")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["database"]["ok"] and body["database"]["pgvector"]
    assert body["broker"]["ok"]
    assert body["embedder"]["dimensions"] == 384


@pytest.mark.django_db
def test_healthz_503_when_embedder_down(anon_client: APIClient, settings) -> None:  # type: ignore[no-untyped-def]
    settings.EMBEDDINGS_DISABLED = True
    response = anon_client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["embedder"]["ok"] is False
    assert response.json()["database"]["ok"] is True


@pytest.mark.django_db
def test_healthz_503_when_broker_down(anon_client: APIClient, settings) -> None:  # type: ignore[no-untyped-def]
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    response = anon_client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["broker"]["ok"] is False


def test_schema_and_docs_are_served(db: None) -> None:
    client = APIClient()
    schema = client.get("/api/v1/schema/")
    assert schema.status_code == 200
    assert b"/api/v1/users/{user}/search" in schema.content
    assert client.get("/api/v1/docs/").status_code == 200
