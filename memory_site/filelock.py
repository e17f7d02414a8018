"""An exclusive lock on a file, shared by every process on this machine and re-entrant within one process.

The embedded servers take it while they start or stop, and `serve` holds it for its whole shutdown: a `make run`
started meanwhile waits for the old one to finish instead of attaching to a server that is about to go away.
"""

from __future__ import annotations

import fcntl
import os
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

_guard = threading.RLock()
_held: dict[str, list[int]] = {}  # path -> [fd, depth]


@contextmanager
def exclusive(path: Path, *, waiting: str = "") -> Iterator[None]:
    """Hold an exclusive lock on `path` (created if missing); print `waiting` once if another process holds it."""
    key = str(path.resolve())
    with _guard:
        entry = _held.get(key)
        if entry is not None:
            entry[1] += 1
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(key, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                if waiting:
                    print(waiting, file=sys.stderr, flush=True)
                fcntl.flock(fd, fcntl.LOCK_EX)
            _held[key] = [fd, 1]
    try:
        yield
    finally:
        with _guard:
            entry = _held[key]
            entry[1] -= 1
            if entry[1] == 0:
                del _held[key]
                os.close(entry[0])  # closing the descriptor releases the lock
