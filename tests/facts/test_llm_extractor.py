"""The optional LLM extractor against a real local HTTP server speaking the OpenAI chat-completions protocol."""

from __future__ import annotations

import json

import pytest

from conversations.models import Message

TURN = "I moved to Lisbon last month."


@pytest.mark.django_db
def test_good_answer_becomes_llm_facts(alice, fake_llm) -> None:  # type: ignore[no-untyped-def]
    facts = alice.ingest(TURN, created_at="2023-05-08T10:00:00Z").json()["facts"]
    assert len(fake_llm.requests) == 1
    request = fake_llm.requests[0]
    assert request["model"] == "test-model" and request["response_format"]["type"] == "json_schema"
    assert len(facts) == 1 and facts[0]["extractor"] == "llm"
    # The relative time the model left in the text is resolved against the message time.
    assert facts[0]["text"] == "User moved to Lisbon in April 2023."
    assert facts[0]["predicate"] == "residence" and facts[0]["confidence"] == 0.93
    message = Message.objects.get(content=TURN)
    assert message.extractor == "llm" and message.extraction_error == ""


@pytest.mark.django_db
def test_one_call_per_batch_and_small_talk_never_reaches_the_model(alice, fake_llm) -> None:  # type: ignore[no-untyped-def]
    alice.ingest("Hi!", TURN, "I love surfing in Lisbon.")
    assert len(fake_llm.requests) == 1
    sent = json.loads(fake_llm.requests[0]["messages"][-1]["content"])["turns"]
    assert [t["content"] for t in sent] == [TURN, "I love surfing in Lisbon."]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("mode", "reason"), [("malformed", "invalid json"), ("timeout", "timeout"), ("error", "http error 500")]
)
def test_failures_fall_back_to_rules_and_say_why(alice, fake_llm, mode: str, reason: str) -> None:  # type: ignore[no-untyped-def]
    fake_llm.mode = mode
    response = alice.ingest(TURN, "我对花生过敏。", created_at="2023-05-08T10:00:00Z")
    assert response.status_code == 200
    facts = response.json()["facts"]
    texts = [f["text"] for f in facts]
    assert texts == ["User moved to Lisbon in April 2023.", "用户对花生过敏。"]
    assert {f["extractor"] for f in facts} == {"rules"}
    for message in Message.objects.filter(subject__external_id="alice"):
        assert message.extractor == "rules-fallback"
        assert message.extraction_state == "done"
        assert reason in message.extraction_error
    job = alice.client.get(f"/api/v1/jobs/{response.json()['job_id']}").json()
    assert job["state"] == "done" and "error" not in job
