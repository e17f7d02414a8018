"""Tasks carry ids, never text: what a user said is never in a broker's queue, so erasure leaves none there."""

from __future__ import annotations

from typing import Any

import pytest
from celery.signals import before_task_publish

from facts.retrieval.access import flush_access_records
from tests.conftest import Persona
from tests.policies.conftest import portal_client

SECRET = "Zanzibar-7731"


@pytest.mark.django_db(transaction=True)
def test_no_task_payload_holds_what_the_user_said(alice: Persona, settings) -> None:  # type: ignore[no-untyped-def]
    settings.EXPORT_INLINE_MAX = 0  # the portal's export goes to a worker too
    published: list[tuple[str, str]] = []

    def capture(sender: str | None = None, body: Any = None, headers: Any = None, **_: Any) -> None:
        published.append((str(sender), repr(body) + repr(headers)))

    before_task_publish.connect(capture, weak=False)
    try:
        alice.ingest(f"My locker code is {SECRET}.", f"I keep the spare key of {SECRET} under the mat.", wait=False)
        alice.post("facts", {"text": f"User's locker code is {SECRET}."})
        alice.search(SECRET)
        flush_access_records()
        browser = portal_client(alice)
        assert browser.post("/me/export/", {"format": "json"}).status_code == 302
    finally:
        before_task_publish.disconnect(capture)
    names = {name for name, _ in published}
    assert {
        "facts.tasks.messages_extract_task",
        "conversations.tasks.session_summarize_task",
        "facts.context.tasks.profile_rebuild_task",
        "policies.portal.tasks.export_job_run_task",
    } <= names, names
    assert not [name for name, payload in published if SECRET in payload or "locker" in payload]
