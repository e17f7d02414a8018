"""Event-log replay: a session's context state as of any moment, from the nearest snapshot or from scratch."""

from __future__ import annotations

import datetime as dt

import pytest

from conversations.models import ContextSnapshot, Message, Session
from conversations.replay import SNAPSHOT_EVERY, session_snapshots_update, session_state_as_of
from conversations.services import MessageInput, message_ingest
from conversations.tasks import session_summarize_task

T0 = dt.datetime(2024, 3, 1, 8, 0, tzinfo=dt.UTC)


def turn(i: int) -> str:
    if i % 3 == 0:
        return f"第{i}轮：我在上海花了{i}元买了礼物，订单号是SH{10000 + i}。"
    return f"Turn {i}: I met Grace Hill in Boston on May {i % 28 + 1}, 2024 and paid ${i}.25 for order ORD-{i}."


def ingest(tenant, start: int, count: int, session: str = "s1") -> None:  # type: ignore[no-untyped-def]
    items = [
        MessageInput(role="user" if i % 2 else "assistant", content=turn(i), created_at=T0 + dt.timedelta(minutes=i))
        for i in range(start, start + count)
    ]
    message_ingest(tenant=tenant, subject_external_id="alice", session_external_id=session, messages=items)


@pytest.mark.django_db
def test_replay_from_snapshot_equals_replay_from_scratch(alice) -> None:  # type: ignore[no-untyped-def]
    ingest(alice.tenant, 0, 250)
    session = Session.objects.get(external_id="s1")
    session_summarize_task(session.pk)  # the summary task also keeps snapshots up to date
    assert list(ContextSnapshot.objects.filter(session=session).values_list("event_count", flat=True)) == [100, 200]
    for minute in [0, 57, 99, 100, 101, 150, 199, 200, 222, 249, 400]:
        as_of = T0 + dt.timedelta(minutes=minute)
        fast = session_state_as_of(session=session, as_of=as_of)
        slow = session_state_as_of(session=session, as_of=as_of, use_snapshots=False)
        assert fast.state == slow.state, minute
        assert fast.replayed_events < SNAPSHOT_EVERY  # flat cost: never more than one snapshot interval
        assert slow.replayed_events == min(minute + 1, 250)
    state = session_state_as_of(session=session, as_of=T0 + dt.timedelta(minutes=222)).state
    assert state["event_count"] == 223
    assert [r["content"] for r in state["recent"]] == [turn(i) for i in range(215, 223)]  # verbatim, in order
    assert "SH10000" in state["entities"] and "上海" in state["entities"] and "Grace Hill" in state["entities"]


@pytest.mark.django_db
def test_backdated_message_makes_snapshot_rebuild_not_lie(alice) -> None:  # type: ignore[no-untyped-def]
    ingest(alice.tenant, 0, 120)
    session = Session.objects.get(external_id="s1")
    assert session_snapshots_update(session=session) == 1
    # A client-supplied time puts a new message early in the log: the stored snapshot no longer matches it.
    message_ingest(
        tenant=alice.tenant,
        subject_external_id="alice",
        session_external_id="s1",
        messages=[MessageInput(role="user", content="Backdated: I moved to Denver.", created_at=T0)],
    )
    as_of = T0 + dt.timedelta(minutes=110)
    fast = session_state_as_of(session=session, as_of=as_of)
    slow = session_state_as_of(session=session, as_of=as_of, use_snapshots=False)
    assert fast.state == slow.state and fast.state["event_count"] == 112
    assert session_snapshots_update(session=session) == 1  # rebuilt at its new position
    snapshot = ContextSnapshot.objects.get(session=session)
    assert snapshot.event_count == 100 and snapshot.last_message == Message.objects.get(content=turn(98))
