"""Access counting for reads: fact counters (facts_factaccess), the access log the user sees, and search-call
statistics."""

from __future__ import annotations

import atexit
import datetime as dt
import logging
import os
import threading
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace

from celery import current_app
from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from conversations.models import Subject
from facts.models import AccessLog, Actor, Fact, FactAccess, SearchCall
from memory_site.threads import ProcessPool

logger = logging.getLogger(__name__)

RECORD_ACCESS_TASK = "facts.tasks.facts_record_access_task"
RECORD_ACCESS_BATCH_TASK = "facts.tasks.facts_record_access_batch_task"
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
    at: str | None = None  # when the read happened (ISO 8601); records are written later, in batches


def facts_record_access(*, record: AccessRecord) -> None:
    """Count one read of these facts and log who read them; record the search call when given."""
    facts_record_accesses(records=[record])


@transaction.atomic
def facts_record_accesses(*, records: list[AccessRecord]) -> None:
    """Count reads of facts and log who read them; record the search calls; all in one transaction.

    Counters live in the narrow facts_factaccess table, not on the wide, heavily indexed fact row: one
    INSERT ... ON CONFLICT DO UPDATE SET access_count = access_count + n creates or bumps every counter of the
    batch, so concurrent batches never lose a count, and the update is HOT (nothing it changes is indexed).
    Only a subject's own facts that still exist are counted (a fact erased since the search is skipped); rows
    are taken in id order so two concurrent batches over the same facts do not deadlock.
    """
    now = timezone.now()
    counts: dict[tuple[int, int], int] = {}  # (subject, fact) -> reads in this batch
    last_read: dict[tuple[int, int], dt.datetime] = {}
    logs: list[AccessLog] = []
    calls: list[SearchCall] = []
    for record in records:
        at = dt.datetime.fromisoformat(record.at) if record.at else now
        ids = sorted(set(record.fact_ids))
        for pk in ids:
            key = (record.subject_id, pk)
            counts[key] = counts.get(key, 0) + 1
            last_read[key] = max(at, last_read.get(key, at))
        if ids:
            logs.append(
                AccessLog(
                    tenant_id=record.tenant_id,
                    subject_id=record.subject_id,
                    api_key_id=record.api_key_id,
                    actor=Actor.AGENT if record.api_key_id else Actor.SYSTEM,
                    actor_id=str(record.api_key_id or ""),
                    operation=record.operation,
                    fact_ids=ids,
                    created_at=at,
                )
            )
        if record.took_ms is not None:
            calls.append(
                SearchCall(
                    tenant_id=record.tenant_id,
                    subject_id=record.subject_id,
                    result_count=record.result_count or 0,
                    took_ms=record.took_ms,
                    matched_by=sorted(set(record.matched_by)),
                    created_at=at,
                )
            )
    if counts:
        keys = sorted(counts, key=lambda k: k[1])
        with connection.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO {_ACCESS_TABLE} (fact_id, access_count, last_accessed_at) "
                f"SELECT f.id, c.n, c.at FROM unnest(%s::bigint[], %s::bigint[], %s::int[], %s::timestamptz[]) "
                f"AS c(subject_id, fact_id, n, at) JOIN {_FACT_TABLE} f ON f.id = c.fact_id "
                "AND f.subject_id = c.subject_id ORDER BY f.id "
                f"ON CONFLICT (fact_id) DO UPDATE SET access_count = {_ACCESS_TABLE}.access_count + EXCLUDED.access_count, "
                f"last_accessed_at = GREATEST({_ACCESS_TABLE}.last_accessed_at, EXCLUDED.last_accessed_at)",
                [
                    [k[0] for k in keys],
                    [k[1] for k in keys],
                    [counts[k] for k in keys],
                    [last_read[k] for k in keys],
                ],
            )
    if counts:
        _archived_restore_later(fact_ids=sorted({k[1] for k in counts}))
    # A subject erased since its search has no log to keep, and its rows would fail the whole batch at commit
    # (foreign key), retry after retry, losing every other subject's records with it.
    live = set(Subject.objects.filter(pk__in={r.subject_id for r in records}).values_list("pk", flat=True))
    AccessLog.objects.bulk_create([log for log in logs if log.subject_id in live])
    SearchCall.objects.bulk_create([call for call in calls if call.subject_id in live])


RESTORE_TASK = "facts.tasks.fact_restore_task"


def _archived_restore_later(*, fact_ids: list[int]) -> None:
    """A search returned archived facts (include_archived): each comes back to active, re-embedded by a task."""
    archived = Fact.objects.filter(pk__in=fact_ids, tier=Fact.Tier.ARCHIVED, subject__memory_paused=False)
    for pk in archived.values_list("pk", flat=True):
        transaction.on_commit(current_app.signature(RESTORE_TASK, args=[pk, "search"]).apply_async)


def facts_schedule_access(*, record: AccessRecord) -> None:
    """Queue the access record once the surrounding transaction commits; the read never waits on it.

    Records are sent in batches (one task per ACCESS_FLUSH_SECONDS or ACCESS_FLUSH_MAX records), so a busy
    API costs the worker one transaction a second rather than one per search. A broker outage must not fail a
    search: the batch is then lost and a warning logged; so are the records of a web process killed before its
    next flush (a graceful stop flushes).
    """
    if record.at is None:
        record = replace(record, at=timezone.now().isoformat())

    def schedule() -> None:
        if current_app.conf.task_always_eager:
            try:
                facts_record_access(record=record)
            except Exception as exc:
                logger.warning("could not record access: %s", exc)
        else:
            _batcher.add(record)

    transaction.on_commit(schedule)


MAX_PENDING_SENDS = 1000
# Publishes run on this process's sender thread: the response does not wait on the broker (a publish is a
# round trip, and retries for seconds while the broker is down). Past MAX_PENDING_SENDS queued jobs (broker
# down) no flush is queued: the records wait in the batch for the next one.
_sender = ProcessPool("access-send", max_workers=1, max_pending=MAX_PENDING_SENDS)


class _Batcher:
    """This process's unsent access records; the sender thread publishes them as one task per batch.

    A batch goes when it is full, or ACCESS_FLUSH_SECONDS after its first record (a timer thread).
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._records: list[AccessRecord] = []
        self._timer: threading.Timer | None = None
        self._pid = os.getpid()
        atexit.register(self.flush)

    def _own_records(self) -> None:
        """After a fork, the records (and the timer) inherited from the parent are the parent's to send."""
        if self._pid != os.getpid():
            self._records, self._timer, self._pid = [], None, os.getpid()

    def add(self, record: AccessRecord) -> None:
        with self._lock:
            self._own_records()
            self._records.append(record)
            full = len(self._records) >= settings.ACCESS_FLUSH_MAX
            if not full and self._timer is None:
                self._timer = threading.Timer(settings.ACCESS_FLUSH_SECONDS, self._timer_fired)
                self._timer.daemon = True
                self._timer.start()
        if full:
            _in_background(self.flush)

    def _timer_fired(self) -> None:
        if not _in_background(self.flush):
            with self._lock:  # the next record starts a new timer
                self._timer = None

    def flush(self) -> None:
        with self._lock:
            self._own_records()
            records, self._records = self._records, []
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
        if not records:
            return
        try:
            current_app.send_task(RECORD_ACCESS_BATCH_TASK, kwargs={"records": [asdict(r) for r in records]})
        except Exception as exc:  # broker down: searches keep answering
            logger.warning("could not queue %d access records: %s", len(records), exc)


_batcher = _Batcher()


def flush_access_records() -> None:
    """Send this process's buffered access records now (tests; a graceful stop does it at exit)."""
    _batcher.flush()


def sends_wait(timeout: float = 10.0) -> None:
    """Wait until the sends queued so far are done (tests; the sender runs one job at a time, in order)."""
    _sender.executor().submit(lambda: None).result(timeout=timeout)


def _in_background(job: Callable[[], None]) -> bool:
    """Queue a job on the sender thread; False (and a warning) when too many are waiting already."""
    if _sender.submit(job) is None:
        logger.warning("access records are not being sent (%d jobs queued)", _sender.pending)
        return False
    return True
