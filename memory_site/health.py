"""GET /healthz: database, broker and embedder, without auth."""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET


def _check_database() -> dict[str, Any]:
    started = time.perf_counter()
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
            row = cursor.fetchone()
        if row is None:
            return {"ok": False, "error": "pgvector extension missing"}
        return {"ok": True, "pgvector": row[0], "ms": round((time.perf_counter() - started) * 1000, 1)}
    except Exception as exc:
        return {"ok": False, "error": str(exc)[:300]}


def _check_broker() -> dict[str, Any]:
    from kombu import Connection

    started = time.perf_counter()
    try:
        options = getattr(settings, "CELERY_BROKER_TRANSPORT_OPTIONS", {})
        with Connection(settings.CELERY_BROKER_URL, transport_options=options, connect_timeout=2) as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
        transport = settings.CELERY_BROKER_URL.split("://", 1)[0]
        return {"ok": True, "transport": transport, "ms": round((time.perf_counter() - started) * 1000, 1)}
    except Exception as exc:
        return {"ok": False, "error": str(exc)[:300]}


def _check_embedder() -> dict[str, Any]:
    from facts.embedding import EmbedderUnavailable, embed_texts, get_embedder

    started = time.perf_counter()
    try:
        embedder = get_embedder()
        vector = embed_texts(["health check"])[0]
        return {
            "ok": True,
            "model": embedder.model_name,
            "dimensions": len(vector),
            "ms": round((time.perf_counter() - started) * 1000, 1),
        }
    except EmbedderUnavailable as exc:
        return {"ok": False, "error": str(exc)[:300]}


@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    checks = {"database": _check_database(), "broker": _check_broker(), "embedder": _check_embedder()}
    healthy = all(check["ok"] for check in checks.values())
    return JsonResponse({"status": "ok" if healthy else "degraded", **checks}, status=200 if healthy else 503)
