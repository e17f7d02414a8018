"""The search's query starts embedding as its request comes in."""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.urls import get_script_prefix, reverse

from conversations.auth import bearer_key_hash
from facts.apis.search import early_query
from facts.retrieval.search import early_query_embedding, recent_searchers

EARLY_BODY_MAX_BYTES = 16 * 1024  # a search body is small: a larger one is left to DRF's parser alone


class EarlySearchEmbedding:
    """First in MIDDLEWARE: a search by an API key that searched the same user lately (`recent_searchers`) starts
    embedding its query now, before the other middleware, URL routing, authentication and the throttle, which
    then run beside it (0.4 ms before the view could, and authentication's database read overlaps it). A guess
    only: the view still authenticates and looks the user up, and takes the embedding (as
    `request.early_search_embedding`) only for the same query text. Leaving lets it go, whatever happened; a
    pair whose request is refused (revoked key, user gone) is forgotten."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        match = _search_path().match(request.path_info) if request.method == "POST" else None
        key_hash = bearer_key_hash(request) if match is not None else None
        if match is None or key_hash is None:
            return self.get_response(request)
        user = match["user"]
        guessed = recent_searchers.subject_id(key_hash, user)
        query, include_messages = early_query(json_body(request) if guessed is not None else None)
        with early_query_embedding(guessed, query, include_messages=include_messages) as embedding:
            request.early_search_embedding = embedding  # type: ignore[attr-defined]
            response = self.get_response(request)
        if guessed is not None and response.status_code in (401, 403, 404):
            recent_searchers.discard(key_hash, user)
        return response


@functools.cache
def _search_path() -> re.Pattern[str]:
    """The search URL's path (after the script prefix) as a pattern, taken from the URL conf."""
    marker = "user-marker"
    url = reverse("search", kwargs={"user": marker})
    prefix = get_script_prefix()
    path = "/" + url[len(prefix) :] if url.startswith(prefix) else url
    before, after = path.split(marker)
    return re.compile(re.escape(before) + r"(?P<user>[^/]+)" + re.escape(after) + r"\Z")


def json_body(request: HttpRequest) -> Any:
    """The request's JSON body, read before DRF parses it (DRF then parses the same bytes, kept by Django), or None
    when it is not JSON, empty, too large, malformed or unreadable (DRF answers that as usual)."""
    if request.content_type != "application/json":
        return None
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return None
    if not 0 < length <= EARLY_BODY_MAX_BYTES:
        return None
    try:
        return json.loads(request.body)
    except (ValueError, RecursionError, OSError):  # OSError: the client went away while sending it
        return None
