"""The portal in a real browser: Playwright drives Debian's chromium against a live server.

It opens a portal link, sees a fact with its source, reads its history, corrects it, forgets another, pauses
and resumes, exports JSON and CSV, switches to Chinese and logs out; a used link is refused. Screenshots go
to var/screenshots/ (test artefacts).
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from django.db import connections
from django.test import Client

from conversations.models import Subject
from facts.models import Fact, FactHistory
from tests.conftest import Persona
from tests.policies.conftest import SHOTS, portal_link

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _shot(page, name: str) -> None:  # type: ignore[no-untyped-def]
    page.screenshot(path=str(SHOTS / name), full_page=True)


def test_the_portal_end_to_end_in_chromium(alice: Persona, live_server, browser) -> None:  # type: ignore[no-untyped-def]
    home = alice.ingest("I live in Hangzhou and I have a corgi named Doubao.").json()["facts"][0]
    crush = alice.post("facts", {"text": "User has a secret crush on Dan."}).json()
    alice.post("facts", {"text": "User wrote <script>document.title='owned'</script> in a note."})
    path = portal_link(alice)
    context = browser.new_context(locale="en-US", accept_downloads=True, viewport={"width": 1100, "height": 900})
    page = context.new_page()

    page.goto(live_server.url + path)
    assert page.url == live_server.url + "/me/"  # the token left the address bar
    card = page.locator(f"#fact-{home['id']}")
    card.wait_for()
    assert home["text"] in card.inner_text()
    assert "I live in Hangzhou and I have a corgi named Doubao." in card.locator(".source").inner_text()
    assert page.title() != "owned" and "<script>document.title='owned'</script>" in page.content().replace(
        "&lt;", "<").replace("&gt;", ">").replace("&#x27;", "'")  # fmt: skip
    _shot(page, "01-portal-facts-en.png")

    card.get_by_role("link", name="History").click()
    card.locator(".history").wait_for()
    assert "learned by the system" in card.locator(".history").inner_text()
    _shot(page, "02-fact-history.png")

    card.get_by_role("link", name="Correct").click()
    editor = page.locator(f"#fact-{home['id']} textarea")
    editor.fill("User lives in Hangzhou and has a corgi named Doubao II.")
    _shot(page, "03-correct-inline.png")
    page.get_by_role("button", name="Save correction").click()
    page.locator(f"#fact-{home['id']} .badge.saved").wait_for()
    assert "Doubao II" in page.locator(f"#fact-{home['id']} .fact-text").inner_text()
    assert FactHistory.objects.filter(fact_uid=home["uid"], event="corrected", actor="end_user").exists()

    crush_card = page.locator(f"#fact-{crush['id']}")
    crush_card.get_by_role("link", name="Forget").click()
    crush_card.locator(".confirm").wait_for()
    _shot(page, "04-forget-confirm.png")
    crush_card.get_by_role("button", name="Yes, forget it").click()
    page.locator(f"#fact-{crush['id']}.forgotten").wait_for()
    assert not Fact.objects.filter(pk=crush["id"]).exists()

    page.get_by_test_id("pause-toggle").click()
    page.locator('#pause-panel[data-paused="true"]').wait_for()
    assert Subject.objects.get(external_id="alice").memory_paused
    _shot(page, "05-memory-paused.png")
    page.get_by_test_id("pause-toggle").click()
    page.locator('#pause-panel[data-paused="false"]').wait_for()
    assert not Subject.objects.get(external_id="alice").memory_paused

    with page.expect_download() as json_download:
        page.get_by_test_id("export-json").click()
    data = json.loads(Path(json_download.value.path()).read_text(encoding="utf-8"))
    assert data["schema"] == "memory-site.export/1" and any("Doubao II" in f["text"] for f in data["facts"])
    with page.expect_download() as csv_download:
        page.get_by_test_id("export-csv").click()
    rows = list(csv.DictReader(io.StringIO(Path(csv_download.value.path()).read_text(encoding="utf-8-sig"))))
    assert {r["id"] for r in rows} == {str(f["id"]) for f in data["facts"]}

    page.get_by_role("button", name="简体中文").click()
    page.get_by_text("关于你记住了什么").wait_for()
    assert page.locator("html").get_attribute("lang") == "zh-hans"
    _shot(page, "06-portal-zh.png")

    page.get_by_role("button", name="退出").click()
    page.get_by_text("你已退出").wait_for()
    assert Client().get("/me/").status_code == 403

    again = context.new_page()
    response = again.goto(live_server.url + path)
    assert response is not None and response.status == 403  # the link worked once
    _shot(again, "07-link-refused.png")
    home_page = browser.new_page(locale="en-US")
    home_page.goto(live_server.url + "/")
    assert home_page.get_by_role("link", name="API documentation").get_attribute("href") == "/api/v1/docs/"
    _shot(home_page, "00-home.png")
    context.close()
    # Under Playwright's event loop this test's queries ran on a connection of their own (Django keeps one per
    # context): close it, or it outlives the test database.
    connections.close_all()
