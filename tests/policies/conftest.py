"""Fixtures of the portal tests: a portal session for a persona's user, opened through the API's link."""

from __future__ import annotations

import shutil
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.test import Client

from tests.conftest import Persona, wait_until


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


# --- The browser tests' browser: Debian's chromium driven by Playwright (never a downloaded one) ----------------

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]  # fmt: skip
SHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"


@pytest.fixture
def browser(monkeypatch: pytest.MonkeyPatch) -> Iterator[object]:
    if not shutil.which("chromium") and not Path(CHROMIUM).exists():
        pytest.fail("Debian's chromium is missing: `make test` installs it (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop on this thread; the test's own database checks are synchronous.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield chromium
        chromium.close()
    # The live server answers each kept-alive connection on a thread of its own, which closes its database
    # connection when the browser closes the socket: wait for that, or the test database cannot be dropped.
    assert wait_until(lambda: not any("process_request_thread" in t.name for t in threading.enumerate()), 30)
