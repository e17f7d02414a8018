"""`serve`'s supervision: child processes and embedded servers kept up, restarted with backoff when they die.

A child (web, worker, beat) that exits is started again after 1, 2, 4... s (at most MAX_BACKOFF; back to 1 s once
it has run a minute), each exit and restart logged; so is an embedded server (broker, PostgreSQL) found gone. A
worker that is alive but stalled (the health check's own rule: a message waiting longer than
EXTRACTION_STALLED_AFTER_SECONDS while no task finished for as long, or no heartbeat for three beats) is restarted
too. Stopping stops the children, then the embedded servers, and returns once they are gone.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

logger = logging.getLogger("memory_site.serve")

MAX_BACKOFF = 30.0
STABLE_AFTER = 60.0  # a child that ran this long starts its backoff again from 1 s
STOP_TIMEOUT = 20.0


def _die_with_parent() -> None:
    """In each child before exec: SIGTERM when `serve` dies, even by SIGKILL (PR_SET_PDEATHSIG, Linux), so no
    orphaned web server keeps the port and no orphaned worker takes tasks."""
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)


@dataclass
class Backoff:
    """When something that keeps failing may be tried again: 1, 2, 4... s, at most MAX_BACKOFF."""

    failures: int = 0
    not_before: float = 0.0

    def failed(self, now: float, ran_for: float) -> float:
        self.failures = 1 if ran_for >= STABLE_AFTER else self.failures + 1
        delay = min(MAX_BACKOFF, 2.0 ** (self.failures - 1))
        self.not_before = now + delay
        return delay


@dataclass
class Child:
    """A child process of `serve`, in its own session (Ctrl-C reaches `serve` alone, which stops it in order)."""

    name: str
    argv: list[str]
    proc: subprocess.Popen[bytes] | None = None
    started_at: float = 0.0
    backoff: Backoff = field(default_factory=Backoff)
    restarts: int = 0

    def start(self, env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(self.argv, env=env, start_new_session=True, preexec_fn=_die_with_parent)
        self.started_at = time.monotonic()

    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def signal(self, signum: int) -> None:
        if self.running():
            assert self.proc is not None
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signum)


@dataclass
class Embedded:
    """An embedded server `serve` owns: how to tell it runs, start it and stop it."""

    name: str
    is_running: Callable[[], bool]
    start: Callable[[], Any]
    stop: Callable[[], None]
    lock: Callable[[], contextlib.AbstractContextManager[None]]
    backoff: Backoff = field(default_factory=Backoff)
    restarts: int = 0


@dataclass
class Supervisor:
    children: list[Child]
    embedded: list[Embedded]
    env: dict[str, str]
    # Whether the worker is alive and not stalled (None: cannot tell now); checked every WATCH_EVERY seconds.
    worker_ok: Callable[[], bool | None] | None = None
    worker_grace: float = 300.0
    watch_every: float = 15.0
    _last_watch: float = 0.0

    def start(self) -> None:
        for child in self.children:
            child.start(self.env)

    def poll(self) -> None:
        """One round: restart what died (when its backoff allows), and a stalled worker."""
        now = time.monotonic()
        for server in self.embedded:
            self._keep_embedded(server, now)
        for child in self.children:
            self._keep_child(child, now)
        if self.worker_ok is not None and now - self._last_watch >= self.watch_every:
            self._last_watch = now
            self._watch_worker(now)

    def _keep_embedded(self, server: Embedded, now: float) -> None:
        if server.is_running() or now < server.backoff.not_before:
            return
        logger.error("embedded %s is not running; starting it again", server.name)
        try:
            server.start()
            server.restarts += 1
            logger.warning("embedded %s started again (restart %d)", server.name, server.restarts)
        except Exception:
            delay = server.backoff.failed(now, 0.0)
            logger.exception("embedded %s did not start; next try in %.0f s", server.name, delay)

    def _keep_child(self, child: Child, now: float) -> None:
        if child.running():
            return
        if child.proc is not None:  # it just exited: schedule its restart
            code = child.proc.returncode
            delay = child.backoff.failed(now, now - child.started_at)
            logger.error("%s exited with %s after %.0f s; restarting in %.0f s", child.name, code,
                         now - child.started_at, delay)  # fmt: skip
            child.proc = None
        if now >= child.backoff.not_before:
            child.start(self.env)
            child.restarts += 1
            logger.warning("%s started again (restart %d)", child.name, child.restarts)

    def _watch_worker(self, now: float) -> None:
        worker = next((c for c in self.children if c.name == "worker"), None)
        if worker is None or not worker.running() or now - worker.started_at < self.worker_grace:
            return
        assert self.worker_ok is not None
        if self.worker_ok() is False:
            logger.error("worker is stalled or silent (see /admin/health/); restarting it")
            self._stop_children([worker])  # the loop starts it again

    def _stop_children(self, children: list[Child]) -> None:
        for child in children:
            child.signal(signal.SIGTERM)
        deadline = time.monotonic() + STOP_TIMEOUT
        for child in children:
            if child.proc is None:
                continue
            try:
                child.proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                logger.warning("%s did not stop in %.0f s; killing it", child.name, STOP_TIMEOUT)
                child.signal(signal.SIGKILL)
                child.proc.wait(timeout=10)

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        with contextlib.ExitStack() as stack:
            for server in self.embedded:
                stack.enter_context(server.lock())
            yield

    def stop(self) -> None:
        """Stop the children, then the embedded servers; return once all are gone.

        The embedded servers' locks are held throughout: a `serve` started meanwhile waits for them, then starts
        fresh servers, instead of attaching to ones about to stop.
        """
        with self._locked():
            self._stop_children(self.children)
            for server in self.embedded:
                try:
                    server.stop()
                except Exception:
                    logger.exception("embedded %s did not stop cleanly", server.name)
