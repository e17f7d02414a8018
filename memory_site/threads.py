"""Thread pools for work off the request path that survive fork.

An executor inherited through fork (gunicorn --preload, a Celery prefork child) counts threads that only
exist in the parent and would never run a job: `ProcessPool` makes its executor anew in each process.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


class ProcessPool:
    """This process's thread pool `name`. With `max_pending`, a submit past that many unfinished jobs is
    refused (returns None): a stuck dependency (a broker down) must not queue work without bound."""

    def __init__(self, name: str, max_workers: int, *, max_pending: int = 0) -> None:
        self.name, self.max_workers, self.max_pending = name, max_workers, max_pending
        self.pending = 0
        self._pid = 0
        self._executor: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()

    def _current(self) -> ThreadPoolExecutor:
        if self._executor is None or self._pid != os.getpid():
            self._executor = ThreadPoolExecutor(max_workers=self.max_workers, thread_name_prefix=self.name)
            self._pid, self.pending = os.getpid(), 0
        return self._executor

    def executor(self) -> ThreadPoolExecutor:
        with self._lock:
            return self._current()

    def submit(self, fn: Callable[..., T], *args: Any) -> Future[T] | None:
        with self._lock:
            executor = self._current()
            if self.max_pending and self.pending >= self.max_pending:
                return None
            self.pending += 1

        def run() -> T:
            try:
                return fn(*args)
            finally:
                with self._lock:
                    self.pending -= 1

        return executor.submit(run)

    def in_every_thread(self, fn: Callable[[], Any], timeout: float = 10.0) -> None:
        """Run `fn` once in each of this process's pool threads (say, to close their database connections).

        One job per thread: the jobs wait for each other at a barrier, so no thread can take two.
        """
        with self._lock:
            executor = self._current()
        barrier = threading.Barrier(self.max_workers, timeout=timeout)

        def job() -> None:
            barrier.wait()
            fn()

        for future in [executor.submit(job) for _ in range(self.max_workers)]:
            future.result(timeout=timeout)
