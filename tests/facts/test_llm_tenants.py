"""Tenants never share a prompt: an LLM extraction call holds one subject's messages, and a fact the model
assigns to a message outside its prompt is dropped with a recorded reason. Against the local fake OpenAI server."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from conversations.models import Message
from conversations.services import messages_requeue_stale
from facts.models import Fact, FactSource
from facts.services import messages_extract
from policies.console.services import usage_aggregate
from policies.models import UsageDaily

ALICE_TURN = "I moved to Lisbon last month."
CAROL_TURN = "I live in Lisbon with my cat Mimi."


def _sent_ids(request: dict[str, Any]) -> list[int]:
    return [int(t["id"]) for t in json.loads(request["messages"][-1]["content"])["turns"]]


def _pending(persona: Any, *turns: str, session: str = "s1") -> list[int]:
    body = persona.ingest(*turns, wait=False, session=session).json()
    return [m["id"] for m in body["messages"]]


@pytest.mark.django_db
def test_a_mixed_batch_makes_one_prompt_per_subject(alice, bob, carol, fake_llm) -> None:  # type: ignore[no-untyped-def]
    ids = {"alice": _pending(alice, ALICE_TURN), "bob": _pending(bob, "I love surfing in Lisbon."),
           "carol": _pending(carol, CAROL_TURN)}  # fmt: skip
    everything = [pk for pks in ids.values() for pk in pks]
    messages_extract(message_ids=everything)  # what a sweeper's batch of all pending messages looks like
    prompts = sorted(sorted(_sent_ids(r)) for r in fake_llm.requests)
    assert prompts == sorted(sorted(pks) for pks in ids.values())  # bob and alice share a tenant, not a prompt
    subjects = {pk: s for pk, s in Message.objects.filter(pk__in=everything).values_list("pk", "subject_id")}
    for request in fake_llm.requests:
        assert len({subjects[pk] for pk in _sent_ids(request)}) == 1
    assert Message.objects.filter(pk__in=everything, extraction_state="done").count() == 3


@pytest.mark.django_db
def test_a_fact_for_a_message_outside_the_prompt_is_dropped_with_a_reason(alice, carol, fake_llm) -> None:  # type: ignore[no-untyped-def]
    (carol_id,) = _pending(carol, CAROL_TURN)

    def stray_answer(turns: list[dict[str, Any]]) -> dict[str, Any]:
        own = fake_llm.lisbon_answer(turns)
        # The model also pins a fact on carol's message, which this prompt (alice's) never held.
        stray = {"id": carol_id, "keep": True, "reason": "residence",
                 "facts": [{"text": "User lives in Lisbon.", "type": "profile"}]}  # fmt: skip
        return {"messages": [*own["messages"], stray]}

    fake_llm.answer = stray_answer
    response = alice.ingest(ALICE_TURN)
    assert response.status_code == 200
    assert [f["text"][:20] for f in response.json()["facts"]] == ["User moved to Lisbon"]  # its own fact only
    assert not FactSource.objects.filter(message_id=carol_id).exists()
    assert not Fact.objects.filter(subject__tenant=carol.tenant).exists()
    alice_message = Message.objects.get(subject__external_id="alice")
    assert alice_message.extraction_state == "done"
    assert "outside the batch" in alice_message.extraction_error and str(carol_id) in alice_message.extraction_error
    assert Message.objects.get(pk=carol_id).extraction_state == "pending"  # untouched: its own prompt decides
    job = alice.client.get(f"/api/v1/jobs/{response.json()['job_id']}").json()
    assert job["state"] == "done" and "error" not in job  # a note for operators, not a failed job


@pytest.mark.django_db
def test_the_sweeper_sends_one_subject_per_task(alice, bob, carol, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    ids = (
        _pending(alice, "I have a dog.", "I like tea.") + _pending(bob, "I like coffee.") + _pending(carol, "我养猫。")
    )
    sent: list[list[int]] = []
    monkeypatch.setattr(
        "conversations.services.current_app.send_task", lambda name, args, **kw: sent.append(list(args[0]))
    )
    assert messages_requeue_stale(older_than_seconds=-60) >= len(ids)
    subjects = dict(Message.objects.values_list("pk", "subject_id"))
    assert sorted(pk for batch in sent for pk in batch) == sorted(subjects)
    assert all(len({subjects[pk] for pk in batch}) == 1 for batch in sent)


@pytest.mark.django_db
def test_llm_tokens_are_counted_per_tenant_and_shown_on_the_dashboard(
    alice, bob, carol, fake_llm, django_user_model
) -> None:  # type: ignore[no-untyped-def]
    ids = {"a": _pending(alice, ALICE_TURN, "I love surfing in Lisbon.") + _pending(bob, "I work in Lisbon now."),
           "b": _pending(carol, CAROL_TURN, "我在里斯本开了一家面包店。")}  # fmt: skip
    messages_extract(message_ids=ids["a"] + ids["b"])
    assert len(fake_llm.requests) == len(fake_llm.tokens) == 3  # alice, bob, carol: one prompt each
    by_prompt = {tuple(_sent_ids(r)): n for r, n in zip(fake_llm.requests, fake_llm.tokens, strict=True)}
    expected = {tenant: sum(n for sent, n in by_prompt.items() if set(sent) <= set(pks)) for tenant, pks in ids.items()}
    assert sum(expected.values()) == sum(fake_llm.tokens) and all(expected.values())
    for tenant, pks in ids.items():
        assert sum(Message.objects.filter(pk__in=pks).values_list("llm_tokens", flat=True)) == expected[tenant]

    usage_aggregate(days=1)
    usage_aggregate(days=1)  # idempotent: recounted, not added twice
    assert UsageDaily.objects.get(tenant=alice.tenant).llm_tokens == expected["a"]
    assert UsageDaily.objects.get(tenant=carol.tenant).llm_tokens == expected["b"]

    root = django_user_model.objects.create_superuser("root", "root@example.com", "pw-long-enough-123")
    client = Client()
    client.force_login(root)
    for tenant, persona in (("a", alice), ("b", carol)):
        html = client.get(f"/admin/dashboard/?tenant={persona.tenant.pk}&days=1").content.decode()
        assert f'data-testid="llm-tokens">{expected[tenant]}<' in html
    html = client.get("/admin/dashboard/?days=1").content.decode()
    assert f'data-testid="llm-tokens">{sum(fake_llm.tokens)}<' in html
