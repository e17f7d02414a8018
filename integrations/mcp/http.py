"""MCP over streamable HTTP at /mcp/, inside Django: the same bearer keys as the REST API, no second server.

The endpoint is stateless with JSON answers: every POST carries one JSON-RPC message and gets its answer in the
response (the 2026-07-28 protocol is sessionless by construction; an older client's `initialize` is answered too,
and needs no session after it). So any web worker serves any request, as with the REST API, and no event stream
holds a worker's thread: GET and DELETE (the stream and the session's end) answer 405, as the transport allows.

Each request runs the MCP SDK's own streamable-HTTP handler (a session manager made for the request) on the
ASGI scope of the Django request; the view is async, so a WSGI server runs it on an event loop of the request.
"""

from __future__ import annotations

import math
import threading
from collections.abc import MutableMapping
from typing import Any

import anyio
from asgiref.sync import sync_to_async
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from rest_framework import exceptions
from rest_framework.request import Request

from conversations.auth import ApiKeyAuthentication, api_key_admit
from conversations.models import ApiKey
from integrations.mcp.server import CALLER_KEY_HASH, memory_server
from memory_site.errors import error_body

# Django checks the Host header (ALLOWED_HOSTS) before the view: the SDK's own localhost-only check would refuse a
# server deployed under a real name.
_SECURITY = TransportSecuritySettings(enable_dns_rebinding_protection=False)
_manager_lock = threading.Lock()  # building the app sets the server's session_manager: one thread at a time


def _authenticated_key(request: HttpRequest) -> ApiKey:
    """The request's API key, as the REST API checks it; NotAuthenticated / AuthenticationFailed else."""
    found = ApiKeyAuthentication().authenticate(Request(request))
    if found is None:
        raise exceptions.NotAuthenticated("Authentication credentials were not provided.")
    return found[1]


def _session_manager() -> StreamableHTTPSessionManager:
    """A stateless, JSON-answering session manager of the memory server, for one request."""
    server = memory_server()
    with _manager_lock:
        server.streamable_http_app(stateless_http=True, json_response=True, transport_security=_SECURITY)
        return server.session_manager


def _scope(request: HttpRequest) -> dict[str, Any]:
    server_port = int(request.META.get("SERVER_PORT") or 80)
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": request.method,
        "scheme": request.scheme,
        "path": request.path,
        "raw_path": request.path.encode(),
        "query_string": request.META.get("QUERY_STRING", "").encode("latin-1"),
        "root_path": "",
        "headers": [
            (name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in request.headers.items()
        ],
        "server": (request.META.get("SERVER_NAME", "localhost"), server_port),
        "client": (request.META.get("REMOTE_ADDR", ""), 0),
    }


async def _asgi_answer(request: HttpRequest) -> HttpResponse:
    """Run the SDK's handler on this request; its answer as a Django response."""
    body = request.body
    answered = anyio.Event()
    status = 500
    headers: list[tuple[bytes, bytes]] = []
    chunks: list[bytes] = []
    body_sent = False

    async def receive() -> dict[str, Any]:
        nonlocal body_sent
        if not body_sent:
            body_sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        await answered.wait()  # the client "disconnects" once its answer is complete
        return {"type": "http.disconnect"}

    async def send(message: MutableMapping[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
            headers.extend(message.get("headers", []))
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                answered.set()

    manager = _session_manager()
    async with manager.run():
        await manager.handle_request(_scope(request), receive, send)
    response = HttpResponse(b"".join(chunks), status=status)
    for name, value in headers:
        if name.lower() not in {b"content-length", b"connection", b"transfer-encoding"}:
            response[name.decode("latin-1")] = value.decode("latin-1")
    return response


@csrf_exempt
async def mcp_endpoint(request: HttpRequest) -> HttpResponse:
    """POST a JSON-RPC message with `Authorization: Bearer <key>`; the answer is JSON."""
    if request.method != "POST":
        response = JsonResponse(
            error_body(
                "method_not_allowed",
                "This MCP endpoint is stateless: POST each JSON-RPC message. It offers no event stream (GET) and "
                "no session to end (DELETE).",
            ),
            status=405,
        )
        response["Allow"] = "POST"
        return response
    try:
        key = await sync_to_async(_authenticated_key)(request)
        # The key's rate limit, on the REST API's counter, before the SDK reads the message or runs a tool.
        await sync_to_async(api_key_admit)(key)
    except exceptions.Throttled as exc:  # this address failed authentication too often, or this key is over its rate
        wait = math.ceil(getattr(exc, "wait", None) or 1)
        response = JsonResponse(error_body("throttled", str(exc.detail), {"retry_after_seconds": wait}), status=429)
        response["Retry-After"] = str(wait)
        return response
    except exceptions.APIException as exc:
        response = JsonResponse(error_body("unauthenticated", str(exc.detail)), status=401)
        response["WWW-Authenticate"] = 'Bearer realm="api"'
        return response
    try:
        request.body  # noqa: B018 (read once here: over DATA_UPLOAD_MAX_MEMORY_SIZE it raises, as the REST API's 413)
    except RequestDataTooBig:
        return JsonResponse(error_body("payload_too_large", "Request body is over the size limit."), status=413)
    token = CALLER_KEY_HASH.set(key.key_hash)
    try:
        return await _asgi_answer(request)
    finally:
        CALLER_KEY_HASH.reset(token)
