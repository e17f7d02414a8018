"""Messages' extraction state, written only by conversations' services: claim, finish, fail, sweep."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from conversations.models import Message
from conversations.selectors import messages_pending
from conversations.services import (
    MessageFinish,
    messages_claim,
    messages_finish,
    messages_mark_failed,
    messages_sweep_stale,
)
from memory_site.pgio import search_vector_expr
from tests.factories import MessageFactory, SessionFactory


@pytest.mark.django_db
def test_a_message_is_claimed_once_and_in_conversation_order() -> None:
    session = SessionFactory()
    now = timezone.now()
    later = MessageFactory(session=session, content="second", created_at=now, extraction_state="pending")
    earlier = MessageFactory(
        session=session, content="first", created_at=now - dt.timedelta(minutes=1), extraction_state="pending"
    )
    done = MessageFactory(session=session, content="done", extraction_state="done")
    claimed = messages_claim(message_ids=[later.pk, earlier.pk, done.pk, later.pk])
    assert [m.content for m in claimed] == ["first", "second"]
    assert all(m.extraction_state == "running" and m.extraction_attempts == 1 for m in claimed)
    assert messages_claim(message_ids=[later.pk, earlier.pk]) == []  # already running: nobody claims it again
    assert messages_pending(message_ids=[later.pk, earlier.pk, done.pk]) == []


@pytest.mark.django_db
def test_a_redelivered_task_takes_back_what_its_killed_delivery_left_running() -> None:
    """A pool process killed mid-extraction leaves its messages running; the same task, delivered again (same
    id), claims them again at once; another task does not, and the attempt count says which claim is current."""
    message = MessageFactory(extraction_state="pending")
    assert [m.pk for m in messages_claim(message_ids=[message.pk], claim="task-1")] == [message.pk]
    assert messages_claim(message_ids=[message.pk], claim="task-2") == []
    assert messages_claim(message_ids=[message.pk]) == []
    again = messages_claim(message_ids=[message.pk], claim="task-1")
    assert [(m.pk, m.extraction_state, m.extraction_attempts) for m in again] == [(message.pk, "running", 2)]


@pytest.mark.django_db
def test_a_failed_message_is_retried_until_its_last_attempt(settings) -> None:  # type: ignore[no-untyped-def]
    settings.EXTRACTION_MAX_ATTEMPTS = 2
    message = MessageFactory(extraction_state="pending")
    messages_claim(message_ids=[message.pk])
    messages_mark_failed(message_ids=[message.pk], error="boom " * 1000)
    message.refresh_from_db()
    assert message.extraction_state == "pending" and len(message.extraction_error) == 2000
    messages_claim(message_ids=[message.pk])
    messages_mark_failed(message_ids=[message.pk], error="boom again")
    message.refresh_from_db()
    assert (message.extraction_state, message.extraction_attempts, message.extraction_error) == (
        "failed",
        2,
        "boom again",
    )
    messages_mark_failed(message_ids=[message.pk], error="late")  # not running: left alone
    assert Message.objects.get(pk=message.pk).extraction_error == "boom again"


@pytest.mark.django_db
def test_the_sweeper_returns_stale_messages_to_pending() -> None:
    old = timezone.now() - dt.timedelta(minutes=10)
    stuck = MessageFactory(extraction_state="pending", received_at=old)
    messages_claim(message_ids=[stuck.pk])
    Message.objects.filter(pk=stuck.pk).update(extraction_started_at=old)  # a worker died ten minutes ago
    waiting = MessageFactory(extraction_state="pending", received_at=old)
    fresh = MessageFactory(extraction_state="pending")
    assert sorted(messages_sweep_stale(older_than_seconds=120)) == [stuck.pk, waiting.pk]
    assert Message.objects.get(pk=stuck.pk).extraction_state == "pending"
    assert fresh.pk in messages_pending(message_ids=[fresh.pk])


@pytest.mark.django_db
def test_finished_messages_are_written_with_their_search_text_and_vector() -> None:
    first = MessageFactory(content="我住在海淀区。", extraction_state="pending")
    second = MessageFactory(content="Thanks, bye!", extraction_state="pending")
    messages_claim(message_ids=[first.pk, second.pk])
    now = timezone.now()
    vector = [0.0] * 383 + [1.0]
    messages_finish(
        finished=[
            MessageFinish(first.pk, "done", now, "", "rules", "keep", "residence", "我 住 在 海淀区", vector),
            MessageFinish(
                second.pk, "skipped", now, "x" * 3000, "rules", "skip", "memory paused", "Thanks, bye!", None
            ),
        ]
    )
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.extraction_state, first.gate_decision, first.gate_reason) == ("done", "keep", "residence")
    assert first.extraction_finished_at == now and list(first.embedding) == vector
    expected = Message.objects.filter(pk=first.pk).annotate(sv=search_vector_expr("我 住 在 海淀区")).get().sv
    assert first.search_vector == expected and "'海淀区'" in first.search_vector
    assert (second.extraction_state, second.embedding, len(second.extraction_error)) == ("skipped", None, 2000)
