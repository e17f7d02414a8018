"""Access counting for reads: fact counters (facts_factaccess), the access log the user sees, and search-call
statistics."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

from celery import current_app
from django.db import connection, transaction
from django.utils import timezone

from facts.models import AccessLog, Actor, Fact, FactAccess, SearchCall
from memory_site.threads import ProcessPool

logger = logging.getLogger(__name__)

RECORD_ACCESS_TASK = "facts.tasks.facts_record_access_task"
_ACCESS_TABLE = FactAccess._meta.db_table
_FACT_TABLE = Fact._meta.db_table


@dataclass(frozen=True)
class AccessRecord:
    """One read of a subject's memory: which facts, by which key, and the search call's figures if any."""

    subject_id: int
    tenant_id: int
    fact_ids: list[int]
    api_key_id: int | None
    operation: str = "search"
    took_ms: float | None = None
    result_count: int | None = None
    matched_by: list[str] = field(default_factory=list)


@transaction.atomic
def facts_record_access(*, record: AccessRecord) -> None:
    """Count one read of these facts and log who read them; record the search call when given.

    Counters live in the narrow facts_factaccess table, not on the wide, heavily indexed fact row: one
    INSERT ... ON CONFLICT DO UPDATE SET access_count = access_count + 1 creates or bumps them, so concurrent
    reads never lose a count, and the update is HOT (nothing it changes is indexed). Only the subject's own
    facts that still exist are counted (a fact erased since the search is skipped); rows are taken in id order
    so two concurrent records over the same facts do not deadlock.
    """
    now = timezone.now()
    ids = sorted(set(record.fact_ids))
    if ids:
        with connection.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO {_ACCESS_TABLE} (fact_id, access_count, last_accessed_at) "
                f"SELECT id, 1, %s FROM {_FACT_TABLE} WHERE subject_id = %s AND id = ANY(%s) ORDER BY id "
                f"ON CONFLICT (fact_id) DO UPDATE SET access_count = {_ACCESS_TABLE}.access_count + 1, "
                "last_accessed_at = EXCLUDED.last_accessed_at",
                [now, record.subject_id, ids],
            )
        AccessLog.objects.create(
            tenant_id=record.tenant_id,
            subject_id=record.subject_id,
            api_key_id=record.api_key_id,
            actor=Actor.AGENT if record.api_key_id else Actor.SYSTEM,
            actor_id=str(record.api_key_id or ""),
            operation=record.operation,
            fact_ids=ids,
        )
    if record.took_ms is not None:
        SearchCall.objects.create(
            tenant_id=record.tenant_id,
            subject_id=record.subject_id,
            result_count=record.result_count or 0,
            took_ms=record.took_ms,
            matched_by=sorted(set(record.matched_by)),
        )


def facts_schedule_access(*, record: AccessRecord) -> None:
    """Queue the access record once the surrounding transaction commits; the read never waits on it.

    A broker outage must not fail a search: the count is then lost and a warning logged.
    """

    def send() -> None:
        try:
            current_app.send_task(RECORD_ACCESS_TASK, kwargs={"record": asdict(record)})
        except Exception as exc:  # broker down: searches keep answering
            logger.warning("could not queue access record: %s", exc)

    def schedule() -> None:
        if current_app.conf.task_always_eager:
            try:
                facts_record_access(record=record)
            except Exception as exc:
                logger.warning("could not record access: %s", exc)
        else:
            _in_background(send)

    transaction.on_commit(schedule)


MAX_PENDING_SENDS = 1000
# Publishes run on this process's sender thread: the response does not wait on the broker (a publish is a
# round trip, and retries for seconds while the broker is down). Past MAX_PENDING_SENDS queued publishes
# (broker down) a record is dropped with a warning.
_sender = ProcessPool("access-send", max_workers=1, max_pending=MAX_PENDING_SENDS)


def _in_background(job: Callable[[], None]) -> None:
    if _sender.submit(job) is None:
        logger.warning("access records are not being sent (%d queued): dropping one", _sender.pending)
