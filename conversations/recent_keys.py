"""The API keys this process has authenticated lately: key hash -> tenant, in memory, bounded.

A guess for work that may start before a request is authenticated (a search's query embedding): no database, no
shared cache. Only a key that authenticated here within `max_age` seconds is known, so a caller without a valid
key cannot make the process start anything; a key refused since (revoked, throttled) is forgotten at once.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict

RECENT_KEYS_SIZE = 1024  # keys held per process: the active keys of a deployment, at ~200 bytes each
RECENT_KEYS_MAX_AGE = 300.0  # seconds: a key idle for longer is looked up again before anything starts


class RecentKeys:
    """The latest `size` keys (by hash) that authenticated, each with its tenant's id and when."""

    def __init__(self, size: int = RECENT_KEYS_SIZE, max_age: float = RECENT_KEYS_MAX_AGE) -> None:
        self.size, self.max_age = size, max_age
        self._keys: OrderedDict[str, tuple[int, float]] = OrderedDict()
        self._lock = threading.Lock()

    def remember(self, key_hash: str, tenant_id: int) -> None:
        if self.size <= 0:
            return
        with self._lock:
            self._keys[key_hash] = (tenant_id, time.monotonic())
            self._keys.move_to_end(key_hash)
            while len(self._keys) > self.size:
                self._keys.popitem(last=False)

    def forget(self, key_hash: str) -> None:
        with self._lock:
            self._keys.pop(key_hash, None)

    def tenant_id(self, key_hash: str) -> int | None:
        """The tenant of the key with this hash if it authenticated here within max_age seconds, else None."""
        entry = self._keys.get(key_hash)
        if entry is None or time.monotonic() - entry[1] > self.max_age:
            return None
        return entry[0]


recent_keys = RecentKeys()


def recently_authenticated(key_hash: str) -> int | None:
    """The tenant id of the key with this hash when this process authenticated it lately, else None."""
    return recent_keys.tenant_id(key_hash)
