"""Health: `GET /healthz` (public, status only) and `GET /admin/health/` (staff: every check with its details).

Degraded (503) when the database or the broker does not answer, the embedder fails, no worker on the task queue
is alive, or extraction is stalled: a message has waited longer than EXTRACTION_STALLED_AFTER_SECONDS while no
worker finished a task for as long. The public answer says nothing else (no error text, no provider or model
name). The embedder is checked at most once per HEALTH_EMBEDDER_CHECK_SECONDS per process on the public path (an
embedding can be a billed call); the operators' view checks it afresh.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from django.conf import settings
from django.contrib.admin.views.decorators import staff_member_required
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

_embedder_lock = threading.Lock()
_embedder_checked: tuple[object, float, dict[str, Any]] | None = None  # (embedder, when, result)


def _error(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {str(exc)[:300]}"


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
        return {"ok": False, "error": _error(exc)}


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
        return {"ok": False, "error": _error(exc)}


def _check_embedder(*, fresh: bool) -> dict[str, Any]:
    """Embed a short text; on the public path, this embedder's last result if younger than
    HEALTH_EMBEDDER_CHECK_SECONDS (in this process)."""
    global _embedder_checked
    from facts.embedding import EmbedderUnavailable, embed_texts, get_embedder

    try:
        embedder = get_embedder()
    except EmbedderUnavailable as exc:
        return {"ok": False, "error": _error(exc)}
    now = time.monotonic()
    with _embedder_lock:
        cached = _embedder_checked
    if not fresh and cached is not None and cached[0] is embedder:
        age = now - cached[1]
        if age < settings.HEALTH_EMBEDDER_CHECK_SECONDS:
            return {**cached[2], "checked_seconds_ago": round(age, 1)}
    try:
        vector = embed_texts(["health check"])[0]
        result: dict[str, Any] = {
            "ok": True,
            "model": embedder.model_name,
            "dimensions": len(vector),
            "ms": round((time.monotonic() - now) * 1000, 1),
        }
    except EmbedderUnavailable as exc:
        result = {"ok": False, "error": _error(exc)}
    with _embedder_lock:
        _embedder_checked = (embedder, now, result)
    return result


def extraction_status() -> dict[str, Any]:
    """Workers alive on the task queue, the oldest waiting message and the last finished task, as ages."""
    from conversations.selectors import extraction_oldest_waiting
    from memory_site.celery import app
    from memory_site.heartbeat import workers_state

    try:
        queue = str(app.conf.task_default_queue)
        workers = workers_state(queue=queue)
        oldest = extraction_oldest_waiting()
    except Exception as exc:
        return {"ok": False, "error": _error(exc)}
    waiting = None if oldest is None else max(0.0, (timezone.now() - oldest).total_seconds())
    limit = settings.EXTRACTION_STALLED_AFTER_SECONDS
    last = workers.last_task_seconds
    stalled = waiting is not None and waiting > limit and (last is None or last > limit)
    return {
        "ok": workers.alive > 0 and not stalled,
        "queue": queue,
        "workers_alive": workers.alive,
        "oldest_waiting_message_seconds": None if waiting is None else round(waiting, 1),
        "last_task_finished_seconds": None if last is None else round(last, 1),
        "stalled": stalled,
        "stalled_after_seconds": limit,
    }


def health_report(*, fresh_embedder: bool = False) -> dict[str, Any]:
    """Every check with its details, and the overall status ("ok" or "degraded")."""
    checks = {
        "database": _check_database(),
        "broker": _check_broker(),
        "extraction": extraction_status(),
        "embedder": _check_embedder(fresh=fresh_embedder),
    }
    healthy = all(check["ok"] for check in checks.values())
    return {"status": "ok" if healthy else "degraded", **checks}


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """Public: the status alone (200 ok, 503 degraded)."""
    status = health_report()["status"]
    return JsonResponse({"status": status}, status=200 if status == "ok" else 503)


@never_cache
@require_GET
@staff_member_required
def health_details(request: HttpRequest) -> JsonResponse:
    """Operators (a staff session): every check, its timings, ages and error text."""
    report = health_report(fresh_embedder=True)
    return JsonResponse(report, status=200 if report["status"] == "ok" else 503)
