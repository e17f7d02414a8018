"""The optional LLM extractor against a real local HTTP server speaking the OpenAI chat-completions protocol."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from conversations.models import Message


class FakeOpenAI:
    """Answers POST /v1/chat/completions according to `mode`: good, malformed, timeout, error."""

    def __init__(self) -> None:
        self.mode = "good"
        self.requests: list[dict[str, Any]] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802 (http.server API)
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                outer.requests.append(body)
                if outer.mode == "timeout":
                    time.sleep(3)  # longer than LLM_TIMEOUT: the client gives up
                if outer.mode == "error":
                    self._send(500, {"error": {"message": "boom", "type": "server_error"}})
                    return
                turns = json.loads(body["messages"][-1]["content"])["turns"]
                content = "{not json" if outer.mode == "malformed" else json.dumps(outer.answer(turns))
                self._send(
                    200,
                    {
                        "id": "chatcmpl-1",
                        "object": "chat.completion",
                        "created": 0,
                        "model": body["model"],
                        "choices": [
                            {"index": 0, "finish_reason": "stop",
                             "message": {"role": "assistant", "content": content}}
                        ],
                        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
                    },
                )  # fmt: skip

            def _send(self, code: int, payload: dict[str, Any]) -> None:
                data = json.dumps(payload).encode()
                try:
                    self.send_response(code)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    @staticmethod
    def answer(turns: list[dict[str, Any]]) -> dict[str, Any]:
        out = []
        for turn in turns:
            facts = []
            if "Lisbon" in turn["content"]:
                facts.append(
                    {
                        "text": "User moved to Lisbon last month.",
                        "type": "profile",
                        "subject_entity": "User",
                        "predicate": "residence",
                        "object_value": "Lisbon",
                        "entities": [{"text": "Lisbon", "kind": "place"}],
                        "confidence": 0.93,
                    }
                )
            out.append(
                {"id": turn["id"], "keep": bool(facts), "reason": "residence" if facts else "no fact", "facts": facts}
            )
        return {"messages": out}


@pytest.fixture
def fake_llm(settings) -> Iterator[FakeOpenAI]:  # type: ignore[no-untyped-def]
    fake = FakeOpenAI()
    thread = threading.Thread(target=fake.server.serve_forever, daemon=True)
    thread.start()
    settings.LLM_BASE_URL = fake.url
    settings.LLM_MODEL = "test-model"
    settings.LLM_TIMEOUT = 0.5
    yield fake
    fake.server.shutdown()
    fake.server.server_close()


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
