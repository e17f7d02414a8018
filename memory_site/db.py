"""Prepared statements for the read path's hottest SQL.

Django's PostgreSQL backend binds parameters on the client (each statement reaches the server as new text) and
turns psycopg's prepared statements off, so PostgreSQL plans every statement anew. For the search's own
lookups by key (result rows, sources, reply links, the change-log version) planning costs more than running:
the reply-link statement took 1.9 ms to plan and 0.14 ms to run on the 10k-fact scale subject.

`prepared_cursor()` is a cursor on the same connection (same transaction, same query logging) that binds on
the server and prepares each statement on its first execution; PostgreSQL then plans it at most a few times per
connection. It is meant for statements whose plan cannot depend on their parameters (lookups by primary or
foreign key): a statement whose best plan depends on the values (say, a subject's size) keeps the ordinary
cursor. DB_PREPARED_STATEMENTS=false turns it off, for a connection pooler in transaction mode that cannot
keep prepared statements (PgBouncer before 1.21).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import psycopg
from django.conf import settings
from django.db import Error as DbError
from django.db import connection
from django.db.backends.utils import CursorDebugWrapper, CursorWrapper
from django.db.models import Model

M = TypeVar("M", bound=Model)


class _PreparingCursor(psycopg.Cursor[Any]):
    """psycopg's server-binding cursor that prepares every statement it executes and reads results in binary
    (dates and arrays parse several times faster than from text)."""

    def execute(
        self, query: Any, params: Any = None, *, prepare: bool | None = None, binary: bool | None = None
    ) -> Any:
        return super().execute(
            query, params, prepare=True if prepare is None else prepare, binary=True if binary is None else binary
        )


class _PreparedDebugWrapper(CursorDebugWrapper):
    """Django's query-logging wrapper (tests, DEBUG), logging the statement with its parameters inlined as for
    any other cursor: Django reads that text back from psycopg, which keeps none for a prepared execution."""

    def execute(self, sql: Any, params: Any = None) -> Any:
        with self.debug_sql(self.db.ops.compose_sql(sql, params), params):
            return CursorWrapper.execute(self, sql, params)


@contextmanager
def prepared_cursor() -> Iterator[Any]:
    """A cursor of the default connection that prepares its statements (see the module's doc)."""
    if not settings.DB_PREPARED_STATEMENTS:
        with connection.cursor() as cursor:
            yield cursor
        return
    # What connection.cursor() does before it makes a cursor: reconnect if the health check fails or none is open.
    connection.close_if_health_check_failed()
    connection.ensure_connection()
    connection.validate_thread_sharing()
    raw = _PreparingCursor(connection.connection)
    # Wrapped as Django wraps its own cursors: errors raised as Django's, statements logged when that is on.
    with (_PreparedDebugWrapper if connection.queries_logged else CursorWrapper)(raw, connection) as cursor:
        yield cursor


def fetch_prepared(sql: str, params: list[Any]) -> list[tuple[Any, ...]]:
    """All rows of one prepared statement."""
    with prepared_cursor() as cursor:
        cursor.execute(sql, params)
        return list(cursor.fetchall())


def fetchone_as_health_check(sql: str, params: list[Any], *, prepared: bool = False) -> tuple[Any, ...] | None:
    """The first row of a read-only statement that also stands for the connection's health check.

    With CONN_HEALTH_CHECKS, Django sends `SELECT 1` before a request's first statement (one round trip, to a
    backend idle since the last request: the slowest kind). When that check is still to be done, this statement
    is sent instead, and a failure that left the connection unusable is answered as the check would have: the
    connection is closed and the statement runs again on a new one. A statement that fails on a sound connection
    raises as usual. Only for a read (running it twice changes nothing) outside a transaction."""
    # Django's own attributes for the check (Django 4.1+), which django-stubs does not declare.
    pending = (
        connection.connection is not None
        and getattr(connection, "health_check_enabled", False)
        and not getattr(connection, "health_check_done", True)
        and not connection.in_atomic_block
    )
    if pending:
        setattr(connection, "health_check_done", True)  # noqa: B010  # this statement is the check
    try:
        return _fetchone(sql, params, prepared)
    except (DbError, psycopg.Error):  # Django's errors (InterfaceError is not a DatabaseError), or psycopg's
        if not pending or connection.is_usable():
            raise
    connection.close()
    return _fetchone(sql, params, prepared)


def _fetchone(sql: str, params: list[Any], prepared: bool) -> tuple[Any, ...] | None:
    with prepared_cursor() if prepared else connection.cursor() as cursor:
        cursor.execute(sql, params)
        row: tuple[Any, ...] | None = cursor.fetchone()
        return row
