"""Access counting for reads: fact counters, the access log the user sees, and search-call statistics."""

from __future__ import annotations

import logging

from celery import current_app
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from facts.models import AccessLog, Actor, Fact, SearchCall

logger = logging.getLogger(__name__)

RECORD_ACCESS_TASK = "facts.tasks.facts_record_access_task"


@transaction.atomic
def facts_record_access(
    *,
    subject_id: int,
    tenant_id: int,
    fact_ids: list[int],
    api_key_id: int | None,
    operation: str = "search",
    took_ms: float | None = None,
    result_count: int | None = None,
    matched_by: list[str] | None = None,
) -> None:
    """Count one read of these facts and log who read them; record the search call when given.

    Counters are bumped with a single UPDATE ... SET access_count = access_count + 1, so concurrent reads
    never lose a count.
    """
    now = timezone.now()
    ids = sorted(set(fact_ids))
    if ids:
        Fact.objects.filter(subject_id=subject_id, pk__in=ids).update(
            access_count=F("access_count") + 1, last_accessed_at=now
        )
        AccessLog.objects.create(
            tenant_id=tenant_id,
            subject_id=subject_id,
            api_key_id=api_key_id,
            actor=Actor.AGENT if api_key_id else Actor.SYSTEM,
            actor_id=str(api_key_id or ""),
            operation=operation,
            fact_ids=ids,
        )
    if took_ms is not None:
        SearchCall.objects.create(
            tenant_id=tenant_id,
            subject_id=subject_id,
            result_count=result_count or 0,
            took_ms=took_ms,
            matched_by=sorted(set(matched_by or [])),
        )


def facts_schedule_access(
    *,
    subject_id: int,
    tenant_id: int,
    fact_ids: list[int],
    api_key_id: int | None,
    operation: str = "search",
    took_ms: float | None = None,
    result_count: int | None = None,
    matched_by: list[str] | None = None,
) -> None:
    """Queue the access record once the surrounding transaction commits; the read never waits on it.

    A broker outage must not fail a search: the count is then lost and a warning logged.
    """
    kwargs = {
        "subject_id": subject_id,
        "tenant_id": tenant_id,
        "fact_ids": list(fact_ids),
        "api_key_id": api_key_id,
        "operation": operation,
        "took_ms": took_ms,
        "result_count": result_count,
        "matched_by": list(matched_by or []),
    }

    def send() -> None:
        try:
            if current_app.conf.task_always_eager:
                facts_record_access(**kwargs)  # type: ignore[arg-type]
            else:
                current_app.send_task(RECORD_ACCESS_TASK, kwargs=kwargs)
        except Exception as exc:  # broker down: searches keep answering
            logger.warning("could not queue access record: %s", exc)

    transaction.on_commit(send)
