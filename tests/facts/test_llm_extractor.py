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
    # An answer that came back (not the promised JSON) was still paid for; a timeout or an HTTP error was not.
    spent = sum(m.llm_tokens for m in Message.objects.filter(subject__external_id="alice"))
    assert spent == (fake_llm.tokens[0] if mode == "malformed" else 0)
    if mode == "malformed":
        assert spent == 120 + 37 * 2 + 5 + 29 * 2
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


@pytest.mark.django_db
@pytest.mark.parametrize("without_total", [False, True])
def test_a_call_s_tokens_are_shared_among_the_messages_of_its_prompt(alice, fake_llm, without_total: bool) -> None:  # type: ignore[no-untyped-def]
    fake_llm.usage_without_total = without_total  # then prompt_tokens + completion_tokens
    alice.ingest("Hi!", TURN, "I love surfing in Lisbon.", "我住在里斯本，我很喜欢这里。")
    assert len(fake_llm.requests) == 1
    sent = [t["id"] for t in json.loads(fake_llm.requests[0]["messages"][-1]["content"])["turns"]]
    assert len(sent) == 3
    total = fake_llm.tokens[0]
    assert total == 120 + 37 * 3 + 5 + 29 * 3 == 323
    tokens = dict(Message.objects.filter(subject__external_id="alice").values_list("pk", "llm_tokens"))
    assert sum(tokens.values()) == total
    assert [tokens[pk] for pk in sent] == [109, 107, 107]  # equal shares, the remainder on the first
    assert Message.objects.get(content="Hi!").llm_tokens == 0  # the gate dropped it before the model


def test_usage_tokens_and_the_split() -> None:
    from types import SimpleNamespace

    from facts.extraction.llm import split_tokens, usage_tokens

    assert usage_tokens(SimpleNamespace(usage=None)) == 0
    assert usage_tokens(SimpleNamespace(usage=SimpleNamespace(total_tokens=42))) == 42
    assert usage_tokens(SimpleNamespace(usage=SimpleNamespace(prompt_tokens=30, completion_tokens=8))) == 38
    assert split_tokens(10, [7, 8, 9]) == {7: 4, 8: 3, 9: 3} and split_tokens(5, []) == {}
    assert sum(split_tokens(1, [1, 2, 3]).values()) == 1
