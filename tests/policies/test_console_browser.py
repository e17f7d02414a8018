"""The operator's console in a real browser (Debian's chromium through Playwright) with LoCoMo dev data loaded.

A small slice of the first LoCoMo conversation (its first two sessions) is ingested through the API, searched with
its questions and asked for context; the periodic job counts the day; an operator logs in, reads the dashboard,
computes a cost with edited prices, and settles a conflict in the review queue. Screenshots: var/screenshots/
10-dashboard.png, 11-conflicts.png, 12-conflict-resolved.png (test artefacts).
"""

from __future__ import annotations

import pytest
from django.db import connections

from bench.common import LOCOMO_PATH, load_locomo, session_payload
from facts.models import Conflict, Fact
from policies.console.services import usage_aggregate
from tests.conftest import Persona
from tests.policies.conftest import SHOTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SESSIONS = 2  # of the first conversation: ~40 turns, enough for every chart and quick to extract
QUESTIONS = 12


def _load_locomo_slice(alice: Persona, monkeypatch: pytest.MonkeyPatch) -> str:
    if not LOCOMO_PATH.exists():
        pytest.fail(f"the LoCoMo dev file is missing at {LOCOMO_PATH}")
    conv = load_locomo()[0]
    user = conv.subject_id
    for number, _, turns in conv.sessions[:SESSIONS]:
        response = alice.post("messages?wait=true", session_payload(conv, number, turns), user=user)
        assert response.status_code == 200, response.content
    stored = {t.dia_id for _, _, turns in conv.sessions[:SESSIONS] for t in turns}
    from celery import current_app

    # Searches are recorded (SearchCall) in batches a worker writes; here, at once in-process.
    monkeypatch.setitem(current_app.conf, "task_always_eager", True)
    for qa in [q for q in conv.qa if set(q.evidence) <= stored][:QUESTIONS]:
        assert alice.post("search", {"query": qa.question, "limit": 5}, user=user).status_code == 200
    for qa in conv.qa[:3]:
        assert alice.post("context", {"query": qa.question, "token_budget": 800}, user=user).status_code == 200
    alice.post("facts", {"text": "User doesn't like coffee."}, user=user)
    alice.post("facts", {"text": "User loves coffee."}, user=user)
    return user


def test_dashboard_and_conflict_queue_in_chromium(  # type: ignore[no-untyped-def]
    alice: Persona, live_server, browser, django_user_model, monkeypatch: pytest.MonkeyPatch
) -> None:
    user = _load_locomo_slice(alice, monkeypatch)
    usage_aggregate(days=1)
    facts = Fact.objects.filter(tenant=alice.tenant).count()
    conflict = Conflict.objects.get(subject__external_id=user, state="open", fact_a__text__contains="coffee")
    django_user_model.objects.create_superuser("root", "root@example.com", "pw-long-enough-123")
    page = browser.new_page(locale="en-US", viewport={"width": 1280, "height": 1000})

    page.goto(live_server.url + "/admin/dashboard/")
    page.fill("#id_username", "root")
    page.fill("#id_password", "pw-long-enough-123")
    page.click("input[type=submit]")
    page.get_by_test_id("tiles").wait_for()
    assert page.get_by_test_id("facts-total").inner_text() == str(facts)
    assert int(page.get_by_test_id("searches").inner_text()) >= QUESTIONS // 2
    assert page.locator("svg.chart").count() >= 7
    page.locator("input[name=price_input]").fill("2.5")
    page.get_by_role("button", name="Compute").click()
    page.get_by_test_id("cost-result").wait_for()
    assert page.get_by_test_id("long-context-cost").inner_text().startswith("$")
    page.screenshot(path=str(SHOTS / "10-dashboard.png"), full_page=True)

    page.get_by_role("link", name="Conflict review").first.click()
    card = page.locator(f"#conflict-{conflict.pk}")
    card.wait_for()
    assert "coffee" in card.inner_text()
    page.screenshot(path=str(SHOTS / "11-conflicts.png"), full_page=True)
    card.get_by_role("button", name="Keep B", exact=True).click()
    card.wait_for(state="detached")
    conflict.refresh_from_db()
    assert conflict.state == "resolved" and conflict.resolution == f"keep:{conflict.fact_b_id}"
    page.screenshot(path=str(SHOTS / "12-conflict-resolved.png"), full_page=True)
    page.close()
    connections.close_all()
