"""A search's query starts embedding as its request comes in, when its API key authenticated here lately."""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.urls import get_script_prefix, reverse
from rest_framework.exceptions import AuthenticationFailed

from conversations.auth import bearer_key, hash_key
from conversations.recent_keys import recently_authenticated
from facts.retrieval.config import search_config
from facts.retrieval.query_vector import QueryVector, query_vector_early

EARLY_BODY_MAX_BYTES = 16 * 1024  # a search body is small: a larger one is left to DRF's parser alone
MAX_QUERY_CHARS = 2000  # the search API's limit on a query (SearchApi.InputSerializer)


@dataclass(frozen=True)
class EarlyEmbedding:
    """A query's embedding started before its request was authenticated, for the key of tenant `tenant_id`."""

    tenant_id: int
    query_vector: QueryVector


class EarlySearchEmbedding:
    """First in MIDDLEWARE: a search POST whose API key this process authenticated lately (conversations'
    `recently_authenticated`: in memory, no database, no shared cache) starts embedding its query now, so that
    the rest of the stack, authentication (database check, key lookup, rate-limit round trip), validation and the
    query analysis run beside it. A guess only: the view authenticates as always, and takes the embedding
    (`request.early_embedding`) only for its key's tenant and the same query text. One not taken is dropped."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if request.method == "POST" and settings.SEARCH_EMBED_EARLY and search_path().match(request.path_info):
            request.early_embedding = early_embedding(request)  # type: ignore[attr-defined]
        return self.get_response(request)


def early_embedding(request: HttpRequest) -> EarlyEmbedding | None:
    """The embedding of the request's query, started now, when its key authenticated here lately; else None."""
    try:
        raw = bearer_key(request)
    except AuthenticationFailed:
        return None  # DRF refuses the header as usual
    tenant_id = recently_authenticated(hash_key(raw)) if raw is not None else None
    if tenant_id is None or not search_config().embed_in_thread:
        return None
    query = early_query(json_body(request))
    started = query_vector_early(query) if query else None
    return EarlyEmbedding(tenant_id=tenant_id, query_vector=started) if started is not None else None


@functools.cache
def search_path() -> re.Pattern[str]:
    """The search URL's path (after the script prefix) as a pattern, taken from the URL conf."""
    marker = "user-marker"
    url = reverse("search", kwargs={"user": marker})
    prefix = get_script_prefix()
    path = "/" + url[len(prefix) :] if url.startswith(prefix) else url
    before, after = path.split(marker)
    return re.compile(re.escape(before) + r"[^/]+" + re.escape(after) + r"\Z")


def json_body(request: HttpRequest) -> Any:
    """The request's JSON body, read before DRF parses it (DRF then parses the same bytes, kept by Django), or None
    when it is not JSON, empty, too large or malformed (DRF answers that as usual)."""
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
    except (ValueError, RecursionError):
        return None


def early_query(raw: Any) -> str:
    """The query of a search body not validated yet, stripped as the serializer strips it ("" when unusable)."""
    query = raw.get("query") if isinstance(raw, dict) else None
    if not isinstance(query, str):
        return ""
    query = query.strip()
    return query if len(query) <= MAX_QUERY_CHARS else ""
