"""Celery tasks: take primary keys, call a service."""

from __future__ import annotations

from typing import Any

from celery import Task, shared_task
from celery.signals import worker_process_init
from django.conf import settings
from django.db import InterfaceError, OperationalError

from conversations.joberrors import job_error_record
from conversations.selectors import messages_pending
from conversations.services import messages_mark_failed, messages_requeue_stale
from facts.embedding import EmbedderUnavailable, limit_torch_threads
from facts.exceptions import ExtractionFailed, FactNotFound
from facts.models import Actor, Fact
from facts.services import fact_restore, messages_extract


@worker_process_init.connect
def _limit_torch_threads(**_: Any) -> None:
    """One intra-op torch thread per worker process by default (WORKER_TORCH_THREADS).

    The pool's processes already run in parallel (one per core): torch's default of one thread per core in
    each of them oversubscribes the CPU, and a process's database work then stalls the other's embedding.
    """
    limit_torch_threads(settings.WORKER_TORCH_THREADS)


class ExtractionTask(Task):
    """Records a final failure on the messages, so nothing is lost silently (the sweeper retries pending ones)."""

    def on_failure(self, exc: BaseException, task_id: str, args: Any, kwargs: Any, einfo: Any) -> None:
        message_ids = kwargs.get("message_ids") or (args[0] if args else [])
        messages_mark_failed(message_ids=list(message_ids), error=job_error_record(exc, code="task_failed"))


@shared_task(
    bind=True,
    base=ExtractionTask,
    name="facts.tasks.messages_extract_task",
    acks_late=True,
    # Transient: the database or the embedder went away for a moment. The messages are back to pending.
    autoretry_for=(OperationalError, InterfaceError, EmbedderUnavailable, ExtractionFailed),
    retry_backoff=True,
    retry_backoff_max=60,
    retry_jitter=True,
    max_retries=5,
)
def messages_extract_task(self: Task, message_ids: list[int], requeues: int = 0) -> list[int]:
    """Extract facts from stored messages (idempotent: claims only pending messages).

    The claim carries the task's id: acks are late and a task whose pool process was killed is delivered again
    (task_reject_on_worker_lost) with the same id, and takes back the messages it had claimed.
    A message the claim had to skip (another transaction held its row) is sent again after a short delay, a few
    times (1, 2, 4... s); after that the sweeper has it. Without this it waited EXTRACTION_SWEEP_AFTER_SECONDS.
    """
    fact_ids = messages_extract(message_ids=message_ids, claim=self.request.id or "")
    left = messages_pending(message_ids=message_ids)
    if left and requeues < settings.EXTRACTION_REQUEUE_MAX:
        messages_extract_task.apply_async(args=(left,), kwargs={"requeues": requeues + 1}, countdown=2**requeues)
    return fact_ids


@shared_task(name="facts.tasks.messages_sweep_task", acks_late=True)
def messages_sweep_task() -> int:
    """Re-enqueue messages left pending past the threshold.

    Beat runs the same sweep itself now (BEAT_IN_PROCESS_JOBS); this task stays for a manual run and for the
    schedule entry a database made before then may still hold.
    """
    return messages_requeue_stale()


@shared_task(
    name="facts.tasks.fact_restore_task",
    acks_late=True,
    autoretry_for=(OperationalError, InterfaceError, EmbedderUnavailable),
    retry_backoff=True,
    max_retries=5,
)
def fact_restore_task(fact_id: int, reason: str = "search") -> str:
    """Bring an archived fact back to active, re-embedded: a search found it or it was mentioned again.

    Idempotent: a fact already active (or forgotten meanwhile) is left as it is; the subject's paused memory too.
    """
    fact = Fact.objects.filter(pk=fact_id, subject__memory_paused=False).defer("embedding", "embedding_zh").first()
    if fact is None or fact.tier != Fact.Tier.ARCHIVED:
        return "skipped"
    try:
        fact_restore(fact=fact, actor=Actor.SYSTEM, actor_id=f"lifecycle:restore-on-{reason}")
    except FactNotFound:  # forgotten since
        return "skipped"
    return "restored"


# The read path's access counting task lives with retrieval; importing it here registers it with the worker.
from facts.retrieval import tasks as _retrieval_tasks  # noqa: E402, F401
