"""Django's PostgreSQL backend, but for its health check (CONN_HEALTH_CHECKS).

Django checks a kept connection at the first statement of every request with `SELECT 1`: a round trip before the
request's own first statement, in every API call (the search's included). Between requests a sound connection is
idle with nothing to read; one the server has closed (a restart, an idle timeout, a terminated backend) has the
server's goodbye waiting on its socket, or the socket closed. So: idle and nothing to read -> usable, with no
round trip; anything else (something to read, a transaction open, an error) -> Django's own check decides.
"""

from __future__ import annotations

import select

import psycopg
from django.db.backends.postgresql import base
from psycopg import pq


class DatabaseWrapper(base.DatabaseWrapper):
    def is_usable(self) -> bool:
        conn = self.connection
        if conn is None or conn.closed:
            return False
        try:
            if conn.info.transaction_status == pq.TransactionStatus.IDLE:
                poller = select.poll()
                poller.register(conn.fileno(), select.POLLIN | select.POLLPRI | select.POLLERR | select.POLLHUP)
                if not poller.poll(0):
                    return True
        except (OSError, ValueError, psycopg.Error):
            return False
        return bool(super().is_usable())
