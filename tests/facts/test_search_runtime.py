"""The search runtime off the request path: the query-embedding threads survive fork, access records are
published from a background thread (the response never waits on the broker, also when it is down)."""

from __future__ import annotations

import os
import threading
from typing import Any

import pytest

from facts.retrieval import candidates as cand
from facts.retrieval import search as search_module
from tests.conftest import Persona
from tests.facts.test_search import FILLER_EN, add_fact, subject_of


def test_an_embedding_thread_inherited_through_fork_is_replaced(alice: Persona, settings: Any) -> None:
    settings.SEARCH_EMBED_IN_THREAD = True
    first = search_module._embed_executor()
    assert search_module._embed_executor() is first
    search_module._embed_pool._pid = -1  # as a forked child sees its parent's executor
    fresh = search_module._embed_executor()
    assert fresh is not first
    search_module._embedder_warm_pid = -1  # first embedding in a new process runs inline
    assert search_module._embed_async("my dog").done()
    assert search_module._embed_async("my dog").result()[0] is not None


def _scan_thread_of_a_vector_search(alice: Persona, settings: Any, monkeypatch: pytest.MonkeyPatch) -> str:
    """Search a paraphrase only the vector finds; return the name of the thread that ran the vector scan."""
    settings.SEARCH_EMBED_IN_THREAD = True
    subject = subject_of(alice)
    for text in FILLER_EN:
        add_fact(subject, text)
    add_fact(subject, "I have a dog named Rex.", type="relationship")
    search_module._embedder_warm_pid = os.getpid()  # the model is loaded: embeddings go to the thread
    scanned_on: list[str] = []
    real = cand.vector_facts

    def recording(*args: Any, **kwargs: Any) -> Any:
        scanned_on.append(threading.current_thread().name)
        return real(*args, **kwargs)

    monkeypatch.setattr(cand, "vector_facts", recording)
    response = alice.search("Tell me about my puppy")
    assert response.status_code == 200, response.content
    top = response.json()["results"][0]
    assert top["text"] == "I have a dog named Rex." and top["matched_by"] == ["vector"]
    assert len(scanned_on) == 1
    return scanned_on[0]


@pytest.mark.django_db(transaction=True)
def test_outside_a_transaction_the_embedding_thread_runs_the_vector_scan(
    alice: Persona, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its own connection, beside the keyword queries of the request's thread."""
    assert _scan_thread_of_a_vector_search(alice, settings, monkeypatch).startswith("query-embed")


def test_inside_a_transaction_the_request_thread_runs_the_vector_scan(
    alice: Persona, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another connection could not see the transaction's uncommitted rows."""
    assert not _scan_thread_of_a_vector_search(alice, settings, monkeypatch).startswith("query-embed")


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
