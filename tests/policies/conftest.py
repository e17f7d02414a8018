"""Fixtures of the portal tests: a portal session for a persona's user, opened through the API's link."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlsplit

import pytest
from django.test import Client

from tests.conftest import Persona


def portal_link(persona: Persona, user: str | None = None, **body: object) -> str:
    """A portal link's path (/me/link/...) for the persona's user, asked for with the persona's key."""
    response = persona.post("portal-link", body or {}, user=user)
    assert response.status_code == 201, response.content
    return urlsplit(response.json()["url"]).path


def portal_client(persona: Persona, user: str | None = None, **client_kwargs: object) -> Client:
    """A browser (test client) with an open portal session for the persona's user."""
    client = Client(**client_kwargs)  # type: ignore[arg-type]
    response = client.get(portal_link(persona, user))
    assert response.status_code == 302 and response["Location"] == "/me/", response.content
    return client


@pytest.fixture
def open_portal() -> Callable[..., Client]:
    return portal_client
