"""Fixtures of the integration tests: a local HTTP server that receives webhooks and answers as a test scripts."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest


@dataclass
class Received:
    headers: dict[str, str]
    body: bytes
    status: int  # what the receiver answered

    @property
    def json(self) -> Any:
        return json.loads(self.body)


class Receiver:
    """Answers each POST with the next status of `script` (then `default`, 200), recording all. With `scripted_user`,
    only that user's deliveries follow the script; the others get `default`."""

    def __init__(self) -> None:
        self.script: list[int] = []
        self.scripted_user: str | None = None
        self.default = 200
        self.received: list[Received] = []
        self.lock = threading.Lock()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802 (http.server API)
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with outer.lock:
                    scripted = outer.scripted_user is None or json.loads(body).get("user") == outer.scripted_user
                    status = outer.script.pop(0) if outer.script and scripted else outer.default
                    outer.received.append(Received({k.lower(): v for k, v in self.headers.items()}, body, status))
                self.send_response(status)
                self.send_header("Content-Type", "text/plain")
                self.end_headers()
                self.wfile.write(b"ok" if status < 300 else b"receiver says no")

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hooks/memory"

    def events(self) -> list[dict[str, Any]]:
        """The payloads that were answered with a 2xx, in arrival order."""
        with self.lock:
            return [r.json for r in self.received if r.status < 300]


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    rec = Receiver()
    thread = threading.Thread(target=rec.server.serve_forever, daemon=True)
    thread.start()
    yield rec
    rec.server.shutdown()
    rec.server.server_close()
