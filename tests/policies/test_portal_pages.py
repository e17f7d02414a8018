"""The portal's pages: facts by type with sources and last use, history, correct, forget, pause, conflicts, CSRF,
escaping, and nobody else's facts."""

from __future__ import annotations

import pytest
from django.test import Client

from conversations.models import Subject
from facts.models import AccessLog, Conflict, Fact, FactHistory
from tests.conftest import Persona
from tests.policies.conftest import portal_client

HTMX = {"HTTP_HX_REQUEST": "true"}


def _fact(persona: Persona, text: str, user: str | None = None) -> dict:
    response = persona.post("facts", {"text": text}, user=user)
    assert response.status_code == 201, response.content
    return response.json()


@pytest.mark.django_db
def test_facts_are_grouped_by_type_with_their_source_and_last_use(alice: Persona) -> None:
    facts = alice.ingest("I live in Hangzhou and I have a corgi named Doubao.").json()["facts"]
    assert facts
    _fact(alice, "User is allergic to penicillin.")
    AccessLog.objects.create(
        tenant=alice.tenant, subject=Subject.objects.get(external_id="alice"), api_key=alice.tenant.api_keys.get(),
        operation="search", fact_ids=[facts[0]["id"]],
    )  # fmt: skip
    page = portal_client(alice).get("/me/").content.decode()
    assert facts[0]["text"] in page
    assert "I live in Hangzhou and I have a corgi named Doubao." in page  # the source message's text
    assert "by the agent alice (ms_" in page  # the access log: when and which key
    assert page.index("About you") < page.index("Health") or page.index("Health") < page.index("About you")
    assert 'data-type="health"' in page


@pytest.mark.django_db
def test_search_and_filters_narrow_the_list_and_htmx_gets_only_the_list(alice: Persona) -> None:
    _fact(alice, "User is allergic to penicillin.")
    _fact(alice, "User likes jasmine tea.")
    browser = portal_client(alice)
    found = browser.get("/me/", {"q": "penicillin"}).content.decode()
    assert "penicillin" in found and "jasmine" not in found
    typed = browser.get("/me/", {"type": "preference"}).content.decode()
    assert "jasmine" in typed and "penicillin" not in typed
    partial = browser.get("/me/", {"q": "tea"}, HTTP_HX_TARGET="fact-list", **HTMX).content.decode()
    assert partial.lstrip().startswith('<div id="fact-list">') and "<html" not in partial and "jasmine" in partial


@pytest.mark.django_db
def test_correcting_inline_re_embeds_and_records_the_users_correction(alice: Persona) -> None:
    fact = _fact(alice, "User has a dog named Rex.")
    browser = portal_client(alice)
    form = browser.get(f"/me/facts/{fact['id']}/correct/", **HTMX).content.decode()
    assert "<textarea" in form and "User has a dog named Rex." in form
    card = browser.post(f"/me/facts/{fact['id']}/correct/", {"text": "User has a dog named Max."}, **HTMX)
    assert card.status_code == 200 and "User has a dog named Max." in card.content.decode()
    event = FactHistory.objects.get(fact_uid=fact["uid"], event="corrected")
    assert event.actor == "end_user" and event.actor_id.startswith("portal:")
    assert event.before_text == "User has a dog named Rex." and event.after_text == "User has a dog named Max."
    assert alice.search("Max").json()["results"][0]["id"] == fact["id"]  # re-indexed and re-embedded
    assert browser.post(f"/me/facts/{fact['id']}/correct/", {"text": "  "}).status_code == 400
    # Without JavaScript: a full page, then back to the list.
    assert "<html" in browser.get(f"/me/facts/{fact['id']}/correct/").content.decode()
    plain = browser.post(f"/me/facts/{fact['id']}/correct/", {"text": "User has a dog named Max II."})
    assert plain.status_code == 302 and plain["Location"] == f"/me/#fact-{fact['id']}"


@pytest.mark.django_db
def test_forgetting_one_fact_asks_first_then_it_is_gone_and_never_learned_again(alice: Persona) -> None:
    fact = alice.ingest("I have a secret crush on my coworker Dan.").json()["facts"][0]
    browser = portal_client(alice)
    confirm = browser.get(f"/me/facts/{fact['id']}/forget/", **HTMX).content.decode()
    assert "Forget this fact?" in confirm and Fact.objects.filter(pk=fact["id"]).exists()
    done = browser.post(f"/me/facts/{fact['id']}/forget/", **HTMX)
    assert done.status_code == 200 and "Forgotten." in done.content.decode()
    assert not Fact.objects.filter(pk=fact["id"]).exists()
    assert [h.event for h in FactHistory.objects.filter(fact_uid=fact["uid"])] == ["created", "forgotten"]
    # The same words again (the message re-sent under a new id): the fact does not come back.
    again = alice.ingest("I have a secret crush on my coworker Dan.", external_id="again").json()
    assert again["facts"] == [] and not Fact.objects.filter(text=fact["text"]).exists()
    assert browser.get(f"/me/facts/{fact['id']}/").status_code == 404


@pytest.mark.django_db
def test_pause_stops_learning_until_resumed(alice: Persona) -> None:
    _fact(alice, "User lives in Hangzhou.")
    browser = portal_client(alice)
    panel = browser.post("/me/pause/", {"paused": "1"}, **HTMX).content.decode()
    assert 'data-paused="true"' in panel and "Resume memory" in panel
    assert Subject.objects.get(external_id="alice").memory_paused
    assert alice.ingest("I have a cat named Mochi.").json()["facts"] == []
    assert alice.post("facts", {"text": "User has a cat."}).status_code == 409
    resumed = browser.post("/me/pause/", {"paused": "0"})
    assert resumed.status_code == 302 and not Subject.objects.get(external_id="alice").memory_paused
    assert alice.ingest("I have a dog named Rex.", external_id="m2").json()["facts"]


@pytest.mark.django_db
def test_the_user_resolves_their_open_conflict(alice: Persona) -> None:
    alice.ingest("I like spicy food.", external_id="m1")
    alice.ingest("I don't like spicy food.", external_id="m2")
    conflict = Conflict.objects.get(state="open")
    browser = portal_client(alice)
    page = browser.get("/me/").content.decode()
    assert "These two cannot both be true" in page
    html = browser.post(f"/me/conflicts/{conflict.pk}/resolve/", {"keep": "b"}, **HTMX).content.decode()
    conflict.refresh_from_db()
    assert conflict.state == "resolved" and conflict.resolved_by.startswith("end_user:portal:")
    assert Fact.objects.get(pk=conflict.fact_a_id).status == "superseded"
    assert "Nothing disagrees." in html


@pytest.mark.django_db
def test_another_subjects_fact_conflict_or_export_is_404(alice: Persona, bob: Persona, carol: Persona) -> None:
    mine = _fact(alice, "User lives in Hangzhou.")
    bobs = _fact(bob, "User lives in Chengdu.", user="bob")
    carols = _fact(carol, "User lives in Lisbon.", user="carol")
    browser = portal_client(alice)
    for other in (bobs, carols):
        assert browser.get(f"/me/facts/{other['id']}/").status_code == 404
        assert browser.get(f"/me/facts/{other['id']}/correct/").status_code == 404
        assert browser.post(f"/me/facts/{other['id']}/correct/", {"text": "x"}).status_code == 404
        assert browser.post(f"/me/facts/{other['id']}/forget/").status_code == 404
    assert Fact.objects.filter(pk__in=[bobs["id"], carols["id"]]).count() == 2
    assert browser.get(f"/me/facts/{mine['id']}/").status_code == 200
    bob.ingest("I like spicy food.", user="bob", external_id="b1")
    bob.ingest("I don't like spicy food.", user="bob", external_id="b2")
    conflict = Conflict.objects.get(subject__external_id="bob")
    assert browser.post(f"/me/conflicts/{conflict.pk}/resolve/", {"keep": "both"}).status_code == 404
    assert Conflict.objects.get(pk=conflict.pk).state == "open"


@pytest.mark.django_db
def test_every_form_needs_its_csrf_token(alice: Persona) -> None:
    fact = _fact(alice, "User lives in Hangzhou.")
    browser = portal_client(alice, enforce_csrf_checks=True)
    for path, data in (
        ("/me/pause/", {"paused": "1"}),
        (f"/me/facts/{fact['id']}/correct/", {"text": "User lives in Beijing."}),
        (f"/me/facts/{fact['id']}/forget/", {}),
        ("/me/forget-everything/", {"confirm": "yes"}),
        ("/me/export/", {"format": "json"}),
        ("/me/logout/", {}),
    ):
        assert browser.post(path, data).status_code == 403, path
    assert Fact.objects.get(pk=fact["id"]).text == "User lives in Hangzhou."
    page = browser.get("/me/")
    token = page.cookies["csrftoken"].value if "csrftoken" in page.cookies else browser.cookies["csrftoken"].value
    assert 'name="csrfmiddlewaretoken"' in page.content.decode() and '"X-CSRFToken"' in page.content.decode()
    ok = browser.post("/me/pause/", {"paused": "1"}, HTTP_X_CSRFTOKEN=token, **HTMX)
    assert ok.status_code == 200


@pytest.mark.django_db
def test_what_people_wrote_is_shown_escaped(alice: Persona) -> None:
    script = "<script>alert('x')</script> I live in <b>Hangzhou</b>."
    alice.ingest(script)
    fact = _fact(alice, 'User likes "<img src=x onerror=alert(1)>" tea.')
    browser = portal_client(alice)
    page = browser.get("/me/").content.decode()
    assert "<script>alert(" not in page and "<img src=x" not in page and "<b>Hangzhou</b>" not in page
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in page
    detail = browser.get(f"/me/facts/{fact['id']}/").content.decode()
    assert "&lt;img src=x onerror=alert(1)&gt;" in detail and "<img src=x" not in detail


@pytest.mark.django_db
def test_pages_follow_the_browser_language_and_the_switch(alice: Persona) -> None:
    _fact(alice, "User lives in Hangzhou.")
    browser = portal_client(alice)
    assert "What is remembered about you" in browser.get("/me/").content.decode()
    chinese = browser.get("/me/", HTTP_ACCEPT_LANGUAGE="zh-CN,zh;q=0.9").content.decode()
    assert "关于你记住了什么" in chinese and 'lang="zh-hans"' in chinese
    switched = browser.post("/i18n/setlang/", {"language": "zh-hans", "next": "/me/"})
    assert switched.status_code == 302
    assert "暂停记忆" in browser.get("/me/").content.decode()
    assert "Memory Site" in Client().get("/", HTTP_ACCEPT_LANGUAGE="zh-CN").content.decode()
    # The API is not translated, whatever the client's language.
    api = alice.client.get("/api/v1/users/nobody/facts", HTTP_ACCEPT_LANGUAGE="zh-CN")
    assert api.status_code == 404 and api.json()["error"]["message"] == "Not found."


@pytest.mark.django_db
def test_the_home_page_says_what_this_is_and_how_to_get_a_link() -> None:
    page = Client().get("/").content.decode()
    assert 'href="/api/v1/docs/"' in page and 'href="/admin/"' in page and "/portal-link" in page
