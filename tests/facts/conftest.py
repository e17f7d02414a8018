"""Fixtures of the facts tests: a real local HTTP server speaking the OpenAI chat-completions protocol."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest


class FakeOpenAI:
    """Answers POST /v1/chat/completions according to `mode`: good, malformed, timeout, error.

    A good answer is `answer(turns)`: by default a fact for a turn that names Lisbon; a test may set another.
    Every answer with a body carries a `usage` that grows with the prompt's turns; `tokens` lists each call's
    total, and `usage_without_total` leaves `total_tokens` out (prompt + completion must then be added).
    """

    def __init__(self) -> None:
        self.mode = "good"
        self.answer: Callable[[list[dict[str, Any]]], dict[str, Any]] = self.lisbon_answer
        self.requests: list[dict[str, Any]] = []
        self.tokens: list[int] = []
        self.usage_without_total = False
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
                usage = {"prompt_tokens": 120 + 37 * len(turns), "completion_tokens": 5 + 29 * len(turns)}
                outer.tokens.append(usage["prompt_tokens"] + usage["completion_tokens"])
                if not outer.usage_without_total:
                    usage["total_tokens"] = outer.tokens[-1]
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
                        "usage": usage,
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
    def lisbon_answer(turns: list[dict[str, Any]]) -> dict[str, Any]:
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
