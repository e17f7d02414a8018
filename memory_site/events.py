"""Outgoing events (webhooks) as a lower app emits them: ask whether the tenant listens, then name a task on commit.

The apps that change data (facts, policies) sit below the app that delivers webhooks (integrations) and never import
it: they ask through the function the WEBHOOK_SUBSCRIPTIONS setting names, and enqueue its Celery task by name once
their transaction commits. Payloads are ids, never text. Imports no app.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import connection, transaction
from django.utils.module_loading import import_string


@functools.cache
def _subscriptions_lookup(dotted_path: str) -> Callable[[int], frozenset[str]]:
    return import_string(dotted_path)


def tenant_listens(*, tenant_id: int, events: Iterable[str]) -> bool:
    """Whether an enabled webhook endpoint of the tenant subscribes to any of `events` (a cached look-up in the
    integrations app; False when no app delivers webhooks)."""
    path = getattr(settings, "WEBHOOK_SUBSCRIPTIONS", "")
    if not path:
        return False
    subscribed = _subscriptions_lookup(path)(tenant_id)
    return any(event in subscribed for event in events)


class _TaskOnCommit:
    """The on-commit callback that sends one task: comparable, so one transaction sends it once."""

    def __init__(self, name: str, args: tuple[Any, ...]) -> None:
        self.name = name
        self.args = args

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _TaskOnCommit) and (self.name, self.args) == (other.name, other.args)

    def __hash__(self) -> int:
        return hash((self.name, self.args))

    def __call__(self) -> None:
        current_app.send_task(self.name, args=list(self.args))


def task_send_on_commit(name: str, *args: int | str) -> None:
    """Send the named task with these ids once the current transaction commits (at once outside one).

    The same task with the same arguments is registered once per transaction: a pipeline batch writes many history
    rows of one subject and the task reads them all. A savepoint that rolls back drops its callbacks (Django's
    on_commit), so a later call registers again.
    """
    callback = _TaskOnCommit(name, tuple(args))
    if connection.in_atomic_block and any(entry[1] == callback for entry in connection.run_on_commit):
        return
    transaction.on_commit(callback)
