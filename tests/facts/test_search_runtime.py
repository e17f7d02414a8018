"""The search runtime off the request path: the query-embedding threads survive fork, access records are
published from a background thread (the response never waits on the broker, also when it is down)."""

from __future__ import annotations

from typing import Any

import pytest

from facts.retrieval import search as search_module
from tests.conftest import Persona
from tests.facts.test_search import add_fact, subject_of


def test_an_embedding_thread_inherited_through_fork_is_replaced(alice: Persona, settings: Any) -> None:
    settings.SEARCH_EMBED_IN_THREAD = True
    first = search_module._embed_executor()
    assert search_module._embed_executor() is first
    search_module._embed_pool._pid = -1  # as a forked child sees its parent's executor
    fresh = search_module._embed_executor()
    assert fresh is not first
    search_module._embedder_warm_pid = -1  # first embedding in a new process runs inline
    assert search_module._embed_async("my dog").done()
    assert search_module._embed_async("my dog").result() is not None


@pytest.mark.parametrize("broker_up", [True, False])
def test_access_records_are_published_off_the_request(
    alice: Persona, broker_up: bool, django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from celery import current_app

    from facts.retrieval import access

    sent: list[dict[str, Any]] = []

    def send_task(name: str, kwargs: dict[str, Any]) -> None:
        if not broker_up:
            raise ConnectionError("broker is down")
        sent.append(kwargs["record"])

    monkeypatch.setitem(current_app.conf, "task_always_eager", False)
    monkeypatch.setattr(current_app, "send_task", send_task)
    fact = add_fact(subject_of(alice), "I have a dog named Rex.")
    with django_capture_on_commit_callbacks(execute=True):
        response = alice.search("Rex")
    assert response.status_code == 200
    assert access._sender is not None
    access._sender.submit(lambda: None).result(timeout=10)  # the sender thread has run the publish
    assert sent == ([{**sent[0], "fact_ids": [fact.pk], "operation": "search"}] if broker_up else [])
