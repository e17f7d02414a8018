"""A subject with 10,000 facts exports through a real worker, with a progress bar the portal polls; then it is
erased and verify_erasure finds nothing."""

from __future__ import annotations

import io
import json
import time
from pathlib import Path

import pytest
from django.core.management import call_command
from django.utils import timezone

from conversations.models import Message, Session, Subject
from facts.models import Fact, FactHistory, FactSource
from tests.conftest import Persona, wait_until
from tests.policies.conftest import portal_client

ROOT = Path(__file__).resolve().parents[2]
FACTS = 10_000
HTMX = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "export-progress"}


def _bulk_subject(persona: Persona) -> Subject:
    """10,000 facts, each from one of 2,500 messages, each with its created event: written in bulk."""
    subject = Subject.objects.create(tenant=persona.tenant, external_id=persona.name)
    session = Session.objects.create(tenant=persona.tenant, subject=subject, external_id="s1")
    now = timezone.now()
    messages = Message.objects.bulk_create(
        [Message(tenant=persona.tenant, subject=subject, session=session, role="user", content=f"Turn {i}: I like "
                 f"thing {i * 4}, {i * 4 + 1}, {i * 4 + 2} and {i * 4 + 3}.", created_at=now, extraction_state="done")
         for i in range(FACTS // 4)], batch_size=1000,
    )  # fmt: skip
    facts = Fact.objects.bulk_create(
        [Fact(tenant=persona.tenant, subject=subject, text=f"User likes thing {i}.", normalized_text=f"user likes thing {i}",
              type="preference") for i in range(FACTS)], batch_size=1000,
    )  # fmt: skip
    FactSource.objects.bulk_create(
        [FactSource(fact=f, message=messages[i // 4]) for i, f in enumerate(facts)], batch_size=2000
    )
    FactHistory.objects.bulk_create(
        [FactHistory(tenant=persona.tenant, subject=subject, fact=f, fact_uid=f.uid, event="created", actor="system",
                     after_text=f.text) for f in facts], batch_size=2000,
    )  # fmt: skip
    return subject


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_ten_thousand_facts_export_in_a_worker_with_progress_then_erase(
    alice: Persona, celery_worker_process, settings
) -> None:  # type: ignore[no-untyped-def]
    settings.EXPORT_INLINE_MAX = 2000
    _bulk_subject(alice)
    browser = portal_client(alice)
    started = time.perf_counter()
    response = browser.post("/me/export/", {"format": "json"})
    assert response.status_code == 302 and response["Location"].startswith("/me/exports/")
    page = browser.get(response["Location"]).content.decode()
    assert "<progress" in page and 'hx-trigger="every 1s"' in page  # the bar polls while the worker writes
    seen: list[tuple[str, int]] = []

    def finished() -> bool:
        html = browser.get(response["Location"], **HTMX).content.decode()
        state = html.split('data-state="', 1)[1].split('"', 1)[0]
        percent = int(html.split('data-percent="', 1)[1].split('"', 1)[0])
        seen.append((state, percent))
        return state in ("done", "failed")

    assert wait_until(finished, timeout=240, interval=0.2)
    took = time.perf_counter() - started
    assert seen[-1] == ("done", 100), seen
    percents = [p for _, p in seen]
    assert percents == sorted(percents) and any(state != "done" for state, _ in seen)  # it showed progress
    download = browser.get(response["Location"] + "download/")
    assert download.status_code == 200
    data = json.loads(download.content)
    assert len(data["facts"]) == FACTS and len(data["messages"]) == FACTS // 4
    assert all(f["sources"] and f["history"] for f in data["facts"])
    erase_started = time.perf_counter()
    assert alice.client.delete("/api/v1/users/alice").status_code == 204
    erase_took = time.perf_counter() - erase_started
    verify_started = time.perf_counter()
    out = io.StringIO()
    call_command("verify_erasure", tenant="tenant-a", user="alice", stdout=out)  # raises on any remnant
    verify_took = time.perf_counter() - verify_started
    assert "No remnant" in out.getvalue()
    report = ROOT / "var" / "export-10k.txt"
    report.write_text(
        f"{FACTS} facts, {FACTS // 4} messages: JSON export of {len(download.content)} bytes in {took:.2f} s "
        f"(request to done, polled every 0.2 s; progress seen: {percents}); erasure {erase_took:.2f} s, "
        f"verify_erasure {verify_took:.2f} s\n"
    )
    print(report.read_text())
