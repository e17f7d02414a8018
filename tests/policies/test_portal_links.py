"""The way into the portal: a signed, expiring, single-use link for one user; the session it opens; the way out."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import signing
from django.test import Client
from django.utils import timezone

from policies.models import PortalLink
from tests.conftest import Persona
from tests.policies.conftest import portal_client, portal_link

REFUSED = "This link cannot be used"


def _refused(response) -> bool:  # type: ignore[no-untyped-def]
    return response.status_code == 403 and REFUSED in response.content.decode()


@pytest.mark.django_db
def test_a_link_opens_the_portal_once_and_leaves_the_address_bar(alice: Persona) -> None:
    alice.post("facts", {"text": "User lives in Hangzhou."})
    response = alice.post("portal-link", {"ttl_minutes": 10})
    assert response.status_code == 201
    body = response.json()
    assert body["url"].startswith("http://testserver/me/link/")
    expires = dt.datetime.fromisoformat(body["expires_at"].replace("Z", "+00:00"))
    assert dt.timedelta(minutes=9) < expires - timezone.now() <= dt.timedelta(minutes=10)
    path = body["url"].removeprefix("http://testserver")
    browser = Client()
    opened = browser.get(path)
    assert opened.status_code == 302 and opened["Location"] == "/me/"  # the token leaves the address bar
    cookie = opened.cookies["sessionid"]
    assert cookie["httponly"] and cookie["samesite"] == "Lax" and not cookie["secure"]
    page = browser.get("/me/")
    assert page.status_code == 200 and "User lives in Hangzhou." in page.content.decode()
    assert page["Cache-Control"] == "no-store"
    # The same browser opening it again is let through; anyone else is refused, and the refusal is counted.
    assert browser.get(path).status_code == 302
    assert _refused(Client().get(path))
    assert PortalLink.objects.get().refused_count == 1


@pytest.mark.django_db
def test_the_session_cookie_is_secure_in_production(alice: Persona, settings) -> None:  # type: ignore[no-untyped-def]
    settings.SESSION_COOKIE_SECURE = True  # what PRODUCTION=true sets
    alice.post("facts", {"text": "User lives in Hangzhou."})
    opened = Client().get(portal_link(alice), secure=True)
    assert opened.status_code == 302 and opened.cookies["sessionid"]["secure"]


@pytest.mark.django_db
def test_tampered_expired_and_unknown_links_are_refused_saying_nothing(alice: Persona) -> None:
    alice.post("facts", {"text": "User lives in Hangzhou."})
    path = portal_link(alice)
    token = path.rsplit("/", 1)[1]
    tampered = path[:-3] + ("aaa" if not path.endswith("aaa") else "bbb")
    for bad in (tampered, "/me/link/not-a-token", "/me/link/" + token.replace(":", ";")):
        response = Client().get(bad)
        assert _refused(response)
        assert "alice" not in response.content.decode() and "Hangzhou" not in response.content.decode()
    forged = signing.dumps({"j": PortalLink.objects.get().jti.hex}, salt="another-salt", compress=False)
    assert _refused(Client().get(f"/me/link/{forged}"))
    expired_path = portal_link(alice, ttl_minutes=1)
    past = timezone.now() - dt.timedelta(minutes=2)
    PortalLink.objects.filter(pk=PortalLink.objects.latest("created_at").pk).update(
        created_at=past, expires_at=past + dt.timedelta(minutes=1)
    )
    assert _refused(Client().get(expired_path))
    assert not PortalLink.objects.filter(used_at__isnull=False).exists()  # no refused link opened anything


@pytest.mark.django_db
def test_ttl_is_bounded_and_the_user_must_exist(alice: Persona, carol: Persona, anon_client) -> None:  # type: ignore[no-untyped-def]
    alice.post("facts", {"text": "User lives in Hangzhou."})
    assert alice.post("portal-link", {"ttl_minutes": 0}).status_code == 400
    assert alice.post("portal-link", {"ttl_minutes": 1441}).status_code == 400
    assert alice.post("portal-link", {"ttl_minutes": "soon"}).status_code == 400
    assert alice.post("portal-link", {}, user="nobody").status_code == 404
    assert carol.post("portal-link", {}, user="alice").status_code == 404  # another tenant's user
    assert anon_client.post("/api/v1/users/alice/portal-link", {}, format="json").status_code == 401


@pytest.mark.django_db
def test_without_a_session_there_is_no_way_in(alice: Persona) -> None:
    alice.post("facts", {"text": "User lives in Hangzhou."})
    for path in ("/me/", "/me/facts/1/", "/me/forget-everything/"):
        response = Client().get(path)
        assert response.status_code == 403 and "Hangzhou" not in response.content.decode()
    assert Client().post("/me/pause/", {"paused": "1"}).status_code == 403


@pytest.mark.django_db
def test_logout_ends_the_session_for_good(alice: Persona) -> None:
    alice.post("facts", {"text": "User lives in Hangzhou."})
    browser = portal_client(alice)
    cookie = browser.cookies["sessionid"].value
    assert browser.post("/me/logout/").status_code == 200
    assert browser.get("/me/").status_code == 403
    replay = Client()
    replay.cookies["sessionid"] = cookie  # the old session key, kept by someone
    assert replay.get("/me/").status_code == 403
    assert PortalLink.objects.get().ended_at is not None


@pytest.mark.django_db
def test_a_session_expires_after_its_time(alice: Persona, settings) -> None:  # type: ignore[no-untyped-def]
    alice.post("facts", {"text": "User lives in Hangzhou."})
    browser = portal_client(alice)
    PortalLink.objects.update(used_at=timezone.now() - dt.timedelta(minutes=settings.PORTAL_SESSION_MINUTES + 1))
    assert browser.get("/me/").status_code == 403


@pytest.mark.django_db
def test_a_link_is_for_one_subject_only(alice: Persona, bob: Persona) -> None:
    alice.post("facts", {"text": "User lives in Hangzhou."})
    bob.post("facts", {"text": "User lives in Chengdu."}, user="bob")
    page = portal_client(bob, user="bob").get("/me/").content.decode()
    assert "Chengdu" in page and "Hangzhou" not in page
